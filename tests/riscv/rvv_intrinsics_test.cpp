// rvv_intrinsics_test.cpp: every RVV row of chapoly-verify's intrinsic semantics table
// (verify/src/intrinsics.cpp, the rows with a lane model `rvv`) against the real instruction, in
// the riscv64 build under qemu-riscv64 at VLEN 128, 256, 512 and 1024 (ctest riscv.vlen*).
//
// The table itself is compiled into this test (intrinsics.cpp is plain C++): each case
// (rvv_intrinsics_cases.cpp) runs the instruction on random operands at random vl and compares
// every active lane with the row's lane model, and every byte a load/store touches (or must not
// touch) with the model's addressing. A row without a case fails RvvTable.EveryRowHasACase,
// with or without V. This file is built for RV64GC: no vector instruction runs unless
// rvv_missing_feature() says the CPU has V.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "internal/chapoly_internal.h"
#include "intrinsics.h"
#include "rvv_intrinsics_cases.h"

namespace {

const RvvCase *caseFor(const std::string &name) {
  for (size_t i = 0; i < kRvvCaseCount; ++i)
    if (name == kRvvCases[i].name) return &kRvvCases[i];
  return nullptr;
}

std::vector<std::string> rvvRows() {
  std::vector<std::string> n;
  for (const auto &e : cv::intrinsicTable())
    if (e.rvv) n.push_back(e.name);
  return n;
}

// Runs on every machine (no vector instruction): a table row without a case fails.
TEST(RvvTable, EveryRowHasACase) {
  ASSERT_FALSE(rvvRows().empty());
  for (const auto &n : rvvRows()) EXPECT_NE(caseFor(n), nullptr) << n << " has no test against the real instruction";
  for (size_t i = 0; i < kRvvCaseCount; ++i) {
    const cv::Intrinsic *in = cv::findIntrinsic(kRvvCases[i].name);
    EXPECT_TRUE(in && in->rvv) << kRvvCases[i].name << " is tested but is not an RVV row of the table";
  }
}

class RvvTableEntry : public ::testing::TestWithParam<std::string> {};

TEST_P(RvvTableEntry, MatchesRealInstruction) {
  if (const char *missing = chapoly::internal::rvv_missing_feature())
    GTEST_SKIP() << "CPU lacks " << missing << ", needed by " << GetParam();
  const cv::Intrinsic *in = cv::findIntrinsic(GetParam());
  ASSERT_TRUE(in && in->rvv);
  const RvvCase *c = caseFor(in->name);
  ASSERT_NE(c, nullptr) << in->name << " has no test against the real instruction";
  std::mt19937_64 rng(0x5eed0000u ^ std::hash<std::string>{}(in->name));
  c->run(*in, rng);
}

INSTANTIATE_TEST_SUITE_P(Rvv, RvvTableEntry, ::testing::ValuesIn(rvvRows()),
                         [](const ::testing::TestParamInfo<std::string> &i) { return i.param; });

}  // namespace
