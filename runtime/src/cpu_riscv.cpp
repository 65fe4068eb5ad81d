// cpu_riscv.cpp: can this CPU and OS run the rvv kernels (rvv_missing_feature)? On riscv64 Linux
// the kernel reports the single-letter extensions in AT_HWCAP, bit (letter - 'A'); it sets 'V'
// only when the core has the V extension and the kernel saves the vector state (Linux 6.5+), so
// one bit answers both questions. Elsewhere: never.
#include "internal/chapoly_internal.h"

#if defined(__riscv) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace chapoly::internal {

const char *rvv_missing_feature() {
#if defined(__riscv) && __riscv_xlen == 64 && defined(__linux__)
  const unsigned long hwcap = getauxval(AT_HWCAP);
  if (!((hwcap >> ('V' - 'A')) & 1)) return "the V extension (AT_HWCAP bit 'V': RVV 1.0 with kernel support)";
  // chapoly-verify proves the rvv kernels for VLEN 128..1024 (docs/verification.md, "RVV"), and
  // the runtime's stack burn after them covers vector spill slots of at most 128 bytes. vlenb
  // (CSR 0xc22, VLEN / 8) is readable wherever V is.
  unsigned long vlenb = 0;
  __asm__ __volatile__("csrr %0, 0xc22" : "=r"(vlenb));
  if (vlenb > 128) return "VLEN of at most 1024 bits (the range the rvv kernels are proved for)";
  return nullptr;
#else
  return "a riscv64 Linux CPU with the V extension";
#endif
}

}  // namespace chapoly::internal
