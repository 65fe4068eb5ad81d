// hygiene.cpp: wiping secrets so the compiler cannot skip it, and constant-time comparison.
#include <string.h>

#include "internal/chapoly_internal.h"

namespace chapoly::internal {
namespace {
// Calling memset through a volatile function pointer: the compiler must load the pointer at run
// time, so it cannot prove the call is a memset of dead memory and drop it.
void *(*const volatile g_memset)(void *, int, size_t) = memset;
}  // namespace

void secure_wipe(void *p, size_t len) {
  if (len == 0) return;
  g_memset(p, 0, len);
  // And tell the optimizer the zeroed bytes are read afterwards.
  __asm__ __volatile__("" : : "r"(p) : "memory");
}

int ct_equal(const uint8_t *a, const uint8_t *b, size_t len) {
  uint32_t diff = 0;
  for (size_t i = 0; i < len; ++i) diff |= static_cast<uint32_t>(a[i] ^ b[i]);
  // Hide `diff` from the optimizer so the loop above is not turned into an early-exit compare.
  __asm__ __volatile__("" : "+r"(diff));
  // diff is in 0..255; (diff - 1) >> 8 has bit 0 set exactly when diff == 0.
  return static_cast<int>(((diff - 1) >> 8) & 1);
}

// noinline, so its frame is a fresh region below the caller: the same region the kernel's frames
// used. 4 KiB covers the emitted kernels' frames (spilled vectors, key schedule copies).
__attribute__((noinline)) void burn_stack() {
  unsigned char region[4096];
  secure_wipe(region, sizeof region);
}

}  // namespace chapoly::internal
