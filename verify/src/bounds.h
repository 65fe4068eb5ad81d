// bounds.h: the abstract interpreter that proves limb bounds (obligations (a)-(c)).
//
// It walks one exported kernel function over the IR, inlining the file's static helpers
// (reference parameters alias the caller's variables), with one interval per 64-bit lane (or
// per scalar). Every arithmetic step proposes an interval by interval arithmetic and has Z3
// confirm it, one operation at a time; steps with a limit (IFMA operand < 2^52, no 64-bit wrap,
// no dropped bits, horizontal sums, loop invariants) are the numbered obligations.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "ir.h"
#include "smt.h"

namespace cv {

struct Obligation {
  int id = 0;
  std::string kind;       // see obligationKinds() in report.cpp
  std::string file;
  SrcLoc loc;
  std::string what;       // variable / operand / intrinsic, as written
  std::string intrinsic;  // the intrinsic or C operator
  bool hasLimit = false;
  u128 max = 0;           // proven maximum (over all lanes and inlined contexts)
  u128 limit = 0;         // required bound
  Res res = Res::OK;
  double ms = 0;
  int queries = 0;
  std::string cex;        // first counterexample (Z3 model), if FAILED
  std::string context;    // "inlined from ..." chain of the failing (or first) instance
  std::string spec;       // nearest `// spec:` comment
  std::string note;
  bool skipped = false;   // not selected by --obligation
};

// Inputs of the final-reduction helper as the bounds pass saw them at its call sites.
struct FinalCall {
  int fn = -1;
  std::vector<Itv> args;  // one interval per scalar parameter (pointer parameters: unused)
  SrcLoc loc;
};

struct KernelResult {
  std::string kernel;
  std::string file;
  std::vector<Obligation> obligations;
  std::vector<FinalCall> finalCalls;
  // Inputs of the AVX-512 dialect's streaming state store (p1305_state_store) at its call sites,
  // for its bit-exact proof (proofs.cpp, state-store); its body is interpreted as usual.
  std::vector<FinalCall> stateStoreCalls;
  // Inputs of its key-power state store (p1305_powers_store) at its call sites: per parameter, the
  // join of its lanes' intervals (vector parameters), for its proof (proofs.cpp, powers-store).
  std::vector<FinalCall> powersStoreCalls;
  std::vector<std::string> errors;  // "file:line:col: error: ..." for unsupported constructs
  double ms = 0;
  size_t boundSteps = 0;
};

struct BoundsOptions {
  unsigned loopCap = 8;                  // fixpoint rounds before limbs are widened
  unsigned unrollCap = 4096;             // iterations of loops whose condition stays decided
  std::set<std::string> finalReduction;  // helpers proved separately by the bit-vector pass
  std::string onlyObligation;            // "" = all
  bool failFast = false;                 // --fail-fast: obligations after a failure may be skipped
};

KernelResult proveBounds(const File &f, const Function &kernel, Prover &prover,
                         const BoundsOptions &opt);

// Helpers the verifier proves as a whole with bit-vectors (marker comment or name).
std::set<std::string> finalReductionHelpers(const File &f);

}  // namespace cv
