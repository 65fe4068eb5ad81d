// answers_test.cpp: chapoly-verify's --query-cache store (verify/src/answers.h) tells queries
// apart by everything Z3 reads: two assertion sets that differ only in a declaration's parameter
// (extract's bit indices, a rotation's amount, an extension's width), a numeral or a constant's
// name get different digests, so a stored "unsat" is never given to a satisfiable set.
#include <gtest/gtest.h>
#include <z3++.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "answers.h"

namespace {

class AnswersTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    char tmpl[] = "/tmp/chapoly-answers-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir = tmpl;
    ASSERT_TRUE(cv::answers::load(dir, "test-binary"));
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  static std::string dir;
  // checkCached on a fresh solver holding `as`.
  static z3::check_result check(z3::context &c, const std::vector<z3::expr> &as) {
    z3::solver s(c);
    for (const auto &a : as) s.add(a);
    return cv::answers::checkCached(s);
  }
};
std::string AnswersTest::dir;

// Asks the unsat set first (stored), then the satisfiable one that differs from it in one place:
// the second must be asked of Z3 and come back sat.
void expectApart(z3::context &c, const std::vector<z3::expr> &unsat, const std::vector<z3::expr> &sat,
                 const char *what) {
  z3::solver a(c), b(c);
  for (const auto &e : unsat) a.add(e);
  for (const auto &e : sat) b.add(e);
  EXPECT_EQ(cv::answers::checkCached(a), z3::unsat) << what;
  EXPECT_EQ(cv::answers::checkCached(a), z3::unsat) << what << " (from the store)";
  EXPECT_EQ(cv::answers::checkCached(b), z3::sat) << what << ": a stored unsat was given to a satisfiable set";
}

TEST_F(AnswersTest, ExtractIndicesAreTold) {
  z3::context c;
  z3::expr x = c.bv_const("x", 64);
  expectApart(c, {x.extract(7, 0) == c.bv_val(1, 8), x.extract(7, 0) == c.bv_val(2, 8)},
              {x.extract(7, 0) == c.bv_val(1, 8), x.extract(15, 8) == c.bv_val(2, 8)}, "extract 7..0 vs 15..8");
}

TEST_F(AnswersTest, RotationAmountsAreTold) {
  z3::context c;
  z3::expr x = c.bv_const("x", 32), y = c.bv_const("y", 32);
  expectApart(c, {x.rotate_left(7) == y, x.rotate_left(7) != y}, {x.rotate_left(7) == y, x.rotate_left(9) != y},
              "rotate by 7 vs 9");
}

TEST_F(AnswersTest, ExtensionWidthsAreTold) {
  z3::context c;
  z3::expr x = c.bv_const("x", 8);
  expectApart(c, {z3::zext(x, 8) != z3::zext(x, 8)}, {z3::zext(x, 8).extract(15, 8) != z3::sext(x, 8).extract(15, 8)},
              "zero- vs sign-extension");
}

TEST_F(AnswersTest, NumeralsAndNamesAreTold) {
  z3::context c;
  z3::expr x = c.bv_const("x", 64), z = c.bv_const("z", 64);
  expectApart(c, {x == c.bv_val(3, 64), x == c.bv_val(4, 64)}, {x == c.bv_val(3, 64), z == c.bv_val(4, 64)},
              "x vs z");
  expectApart(c, {z3::ult(x, c.bv_val(5, 64)), z3::ugt(x, c.bv_val(5, 64))},
              {z3::ult(x, c.bv_val(5, 64)), z3::ugt(x, c.bv_val(3, 64))}, "5 vs 3");
}

// Terms the digest does not read whole are asked of Z3 every time: a datatype (its constructors
// are not in the digest) and a Z3 fresh name ("x!1", which a plain constant can also spell).
TEST_F(AnswersTest, DatatypesAndFreshNamesAreNotStored) {
  {
    z3::context c;
    const char *one[] = {"A"};
    z3::func_decl_vector cs1(c), ts1(c);
    z3::sort t1 = c.enumeration_sort("T", 1, one, cs1, ts1);
    z3::expr x = c.constant("x", t1), y = c.constant("y", t1);
    EXPECT_EQ(check(c, {x != y}), z3::unsat);  // one value: x = y
  }
  {
    z3::context c;
    const char *two[] = {"A", "B"};
    z3::func_decl_vector cs2(c), ts2(c);
    z3::sort t2 = c.enumeration_sort("T", 2, two, cs2, ts2);
    z3::expr x = c.constant("x", t2), y = c.constant("y", t2);
    EXPECT_EQ(check(c, {x != y}), z3::sat) << "a stored answer of a one-value enumeration was reused";
  }
  z3::context c;
  z3::sort I = c.int_sort();
  z3::func_decl fresh(c, Z3_mk_fresh_func_decl(c, "x", 0, nullptr, I));
  z3::expr f = fresh(), x = c.int_const(fresh.name().str().c_str());
  EXPECT_EQ(check(c, {f != f}), z3::unsat);
  EXPECT_EQ(check(c, {x != f}), z3::sat) << "a fresh constant and a plain one of the same name were told alike";
}

TEST_F(AnswersTest, SatisfiableSetsAreNeverStored) {
  z3::context c;
  z3::expr x = c.bv_const("x", 16);
  EXPECT_EQ(check(c, {x == c.bv_val(9, 16)}), z3::sat);
  EXPECT_EQ(check(c, {x == c.bv_val(9, 16)}), z3::sat);
}

}  // namespace
