// backend_support.cpp: the MISSING and SCRUB functions the kernel registry names for kernels that
// need no CPU feature (emitted/CMakeLists.txt: scalar_mul64).
#include "internal/chapoly_internal.h"

namespace chapoly::internal {

const char *no_missing_feature() { return nullptr; }

void scrub_after_gpr_kernel() {
  // The kernel's frames (keystream buffer, one-time key, spilled state words) lie below ours,
  // and the compiler may have moved bytes through xmm registers (SSE2 is baseline on x86-64).
  scrub_sse_registers();
  burn_stack();
}

}  // namespace chapoly::internal
