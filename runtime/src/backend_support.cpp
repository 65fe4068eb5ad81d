// backend_support.cpp: the MISSING and SCRUB functions the kernel registry names for the kernels
// without their own runtime folder (emitted/CMakeLists.txt: scalar_mul64, avx2_mul64).
#include "internal/chapoly_internal.h"

namespace chapoly::internal {

const char *no_missing_feature() { return nullptr; }

// The registers only: the kernel's frames below ours (keystream buffer, one-time key, spilled
// state words) are zeroed by the generated scrub_k_<family> after this (backends.cpp).
void scrub_after_gpr_kernel() {
  // The compiler may have moved bytes through xmm registers (SSE2 is baseline on x86-64).
  scrub_sse_registers();
}

void scrub_after_avx2() {
#if defined(__x86_64__)
  // ymm0-15 may hold keystream and key words; vzeroall clears all of them (AVX, present whenever
  // an AVX2 kernel ran).
  __asm__ __volatile__("vzeroall" ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
                       "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "memory");
#endif
}

}  // namespace chapoly::internal
