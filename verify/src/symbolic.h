// symbolic.h: a bit-exact symbolic evaluator over the IR (Z3 bit-vectors), for the steps that are
// proved by value rather than by bound: the final reduction and + s, and the ChaCha20 rounds.
//
// Vectors are kept as 32-bit words (the finest lane width the kernels compute in; byte moves are
// split further); scalars as one bit-vector of their width. Control flow must be decided by
// constants (loops with constant trip counts); a variable read before it is written becomes a
// fresh input named after it, so a helper or one loop body can be evaluated on its own.
#pragma once

#include <z3++.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ir.h"

namespace cv {

struct SVal {
  enum K { None, Int, Vec, Ptr, Arr } k = None;
  unsigned bits = 0;            // Int width / Vec total bits / Arr element bits
  std::vector<z3::expr> w;      // Int: one expr; Vec: bits/32 words (word 0 = lowest); Arr: elements
  std::string region;           // Ptr: memory region
  bool offKnown = true;
  int64_t off = 0;              // Ptr: byte offset
  unsigned elemBits = 8;        // Ptr target width
};

class SymEval {
 public:
  SymEval(const File &f, z3::context &c);
  ~SymEval();

  // Evaluates `body` as if inside function `fn` (parameters are fresh inputs unless bound with
  // bindParam first). Returns false (and sets error()) on something it cannot evaluate exactly.
  bool runFunction(const Function &fn);
  bool runStmt(const Function &fn, const Stmt &body);

  // Inputs and results, by variable name (values as of the end of the run).
  void bindParam(const std::string &name, const SVal &v);
  bool value(const std::string &name, SVal &out) const;
  // The fresh input made for `name` when it was read before being written.
  bool input(const std::string &name, SVal &out) const;
  // The first value assigned to `name` during the run (before any later reassignment).
  bool firstValue(const std::string &name, SVal &out) const;
  // Bytes written to the region of pointer parameter `param` at offsets [0, n), or false.
  bool written(const std::string &param, int n, std::vector<z3::expr> &bytes) const;
  // Variables' values at the first read of any memory or variable named in `watch`.
  void snapshotOnRead(const std::vector<std::string> &watch, const std::vector<std::string> &vars);
  bool snapshot(std::map<std::string, SVal> &out) const;
  // The in-place order of a helper that XORs `in` into `out` (the kernel ABI lets them be one
  // buffer): from now on, a read of in's byte o after out's byte o was written (or after a write
  // of out at an offset not known), and a read of a `readFirst` region (a stitched MAC's message,
  // which may be that buffer at any offset) after any write of out, is recorded. Only pointer
  // parameters' regions are watched, by name; the first violation is kept.
  void watchInPlace(const std::string &out, const std::string &in, const std::vector<std::string> &readFirst);
  // The first recorded violation ("" if none) and the statement that made it.
  std::string inPlaceViolation(SrcLoc &where) const;
  // The value the evaluated function returned (false: it returned none).
  bool result(SVal &out) const;
  // Whether any store wrote through pointer parameter `param`.
  bool wrote(const std::string &param) const;
  // The byte offsets of pointer parameter `param`'s region the run read or wrote, and whether it
  // wrote there at an offset not known.
  void touched(const std::string &param, std::set<int64_t> &offsets, bool &unknown) const;
  // Number of calls of intrinsic `name` evaluated.
  int calls(const std::string &name) const;

  const std::string &error() const;
  SrcLoc errorLoc() const;

  z3::expr word(const SVal &v, unsigned laneBits, unsigned i);  // lane i of a vector value
  SVal fromLanes(unsigned bits, unsigned laneBits, const std::vector<z3::expr> &lanes);

 private:
  struct Impl;
  std::unique_ptr<Impl> d;
};

// RFC 8439 section 2.1/2.3: one double round (columns then diagonals) on 16 32-bit words.
void rfcDoubleRound(std::vector<z3::expr> &x);

}  // namespace cv
