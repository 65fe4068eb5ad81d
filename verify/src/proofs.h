// proofs.h: the proofs beyond bounds, over the same IR: the final reduction (bit-vectors), the
// Poly1305 block-step algebra and the ChaCha20 round lane mapping.
#pragma once

#include "bounds.h"
#include "ir.h"
#include "smt.h"

namespace cv {

// Adds the semantic obligations of `kernel` to `kr` (which holds its bound results).
void proveSemantics(const File &f, const Function &kernel, Prover &prover, const BoundsOptions &opt,
                    KernelResult &kr);

}  // namespace cv
