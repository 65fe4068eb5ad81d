// smt.h: one-operation Z3 queries for the bound proofs.
//
// Every query states one operation on inputs that range over intervals and asks Z3 for an input
// assignment that puts the result outside a claimed range (the negated claim). unsat = proved;
// sat = the model is the counterexample; unknown (timeout) is its own outcome and never a pass.
// Magnitudes use the integer theory; bitwise operations use bit-vectors of the operation's width.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cv {

using u128 = unsigned __int128;

struct Itv {
  u128 lo = 0, hi = 0;
  bool exact() const { return lo == hi; }
  bool operator==(const Itv &o) const { return lo == o.lo && hi == o.hi; }
  bool operator!=(const Itv &o) const { return !(*this == o); }
};

enum class Res { OK, FAILED, TIMEOUT };
const char *resName(Res r);

// The operation a query is about. Inputs are named for counterexamples.
//   id        r = x0
//   add       r = x0 + x1 (+ x2 ...)       (exact integers: no wrap)
//   sub       r = x0 - x1
//   mul       r = x0 * x1
//   shl       r = x0 * 2^k
//   shr       r = floor(x0 / 2^k)
//   and/or/xor/andnot (~x0 & x1)/not      bit-vectors of `width` bits
//   madd52lo  r = x0 + ((x1 * x2) mod 2^52) (operands already proved < 2^52)
//   madd52hi  r = x0 + floor(x1 * x2 / 2^52)
struct OpQuery {
  std::string op;
  unsigned width = 64;
  unsigned k = 0;
  std::vector<Itv> in;
  std::vector<std::string> names;
};

struct Outcome {
  Res res = Res::OK;
  std::string cex;   // "x = 0x..., y = 0x... -> r = 0x..." when FAILED (named after the query)
  std::vector<std::string> vals;  // model values of the inputs, then of the result
  double ms = 0;
  bool cached = false;
};

class Prover {
 public:
  explicit Prover(unsigned timeoutMs);
  ~Prover();
  // For all inputs in their intervals: lo <= op(inputs) <= hi.
  Outcome checkRange(const OpQuery &q, u128 lo, u128 hi);
  unsigned timeoutMs() const { return timeoutMs_; }
  size_t queries() const { return queries_; }
  size_t cacheHits() const { return hits_; }
  double totalMs() const { return totalMs_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  unsigned timeoutMs_;
  size_t queries_ = 0, hits_ = 0;
  double totalMs_ = 0;
  std::map<std::string, Outcome> cache_;
};

std::string hex(u128 v);
std::string dec(u128 v);
double log2u(u128 v);

}  // namespace cv
