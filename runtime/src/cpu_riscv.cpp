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
  return nullptr;
#else
  return "a riscv64 Linux CPU with the V extension";
#endif
}

}  // namespace chapoly::internal
