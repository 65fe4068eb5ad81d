// proofs.h: the proofs beyond bounds, over the same IR: the final reduction (bit-vectors), the
// Poly1305 block-step algebra and the ChaCha20 round lane mapping.
#pragma once

#include "bounds.h"
#include "ir.h"
#include "smt.h"

#include <z3++.h>

#include <string>
#include <utility>
#include <vector>

namespace cv {

/// Proves `claim` for all values of the free constants under `pre` (Z3, `timeoutMs` per query):
/// OK when the negation is unsat, TIMEOUT on unknown, FAILED with `cex` = the model of `shown`.
Res prove(z3::context &c, const std::vector<z3::expr> &pre, const z3::expr &claim, unsigned timeoutMs,
          const std::vector<std::pair<std::string, z3::expr>> &shown, std::string &cex);

// A ChaCha20 round loop as chacha-round reads it (a loop whose body rotates: _mm512_rol_epi32
// and the other rotation idioms): its state is rows a, b, c, d per state (x4: the function's
// 512-bit vector reference parameters, else its local vectors a<s>..d<s>) or words x0..x15
// (x16), or both side by side in one body (mixed: x4 rows from reference parameters and x0..x15,
// the bulk chunk that also runs the one-time key pass's rounds), and its body makes ndr double
// rounds. rols == 0: not a round loop.
struct RoundLayout {
  int rols = 0, ndr = 0;
  bool x4 = false, x16 = false, mixed = false;  // mixed: x4 and x16 both set
  std::vector<std::string> rows;  // x4: the row variables' names, 4 per state
  bool pure = false;              // the body only computes (no call, load or store)
  int64_t trips = -1;             // `for (int i = 0; i < N; ++i)`, i touched by nothing else: N; else -1
};
RoundLayout chachaRoundLayout(const File &f, const Function &fn, const Stmt &loop);

// Adds the semantic obligations of `kernel` to `kr` (which holds its bound results).
void proveSemantics(const File &f, const Function &kernel, Prover &prover, const BoundsOptions &opt,
                    KernelResult &kr);

}  // namespace cv
