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

// Adds the semantic obligations of `kernel` to `kr` (which holds its bound results).
void proveSemantics(const File &f, const Function &kernel, Prover &prover, const BoundsOptions &opt,
                    KernelResult &kr);

}  // namespace cv
