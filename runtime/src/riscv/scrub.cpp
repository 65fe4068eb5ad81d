// scrub.cpp (riscv): clearing what the rvv kernel leaves in the vector registers (keystream and
// state words of the last chunk). Compiled with -march=rv64gcv (runtime/CMakeLists.txt); called
// only after the rvv kernel ran, so V is present.
#include "internal/chapoly_internal.h"

namespace chapoly::internal {

void scrub_after_rvv() {
#if defined(__riscv_vector)
  // LMUL 8 covers the 32 registers in four groups; vl = VLMAX, every byte of every register.
  __asm__ __volatile__(
      "vsetvli t0, zero, e8, m8, ta, ma\n\t"
      "vmv.v.i v0, 0\n\t"
      "vmv.v.i v8, 0\n\t"
      "vmv.v.i v16, 0\n\t"
      "vmv.v.i v24, 0\n\t"
      :
      :
      : "t0", "memory");
#endif
  // The stack below: the generated scrub_k_rvv_mul64 zeroes it after this (backends.cpp).
}

}  // namespace chapoly::internal
