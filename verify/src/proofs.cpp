// proofs.cpp: semantic proofs (see proofs.h).
#include "proofs.h"

namespace cv {

void proveSemantics(const File &, const Function &, Prover &, const BoundsOptions &, KernelResult &) {}

}  // namespace cv
