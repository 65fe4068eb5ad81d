// hygiene.cpp: wiping secrets so the compiler cannot skip it, and constant-time comparison.
#include <string.h>

#include "internal/chapoly_internal.h"

// valgrind's client requests (Debian package valgrind): header-only macros that do nothing (a
// few register moves) unless the program runs under valgrind. Used only by declassify().
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define CHAPOLY_HAVE_MEMCHECK 1
#endif
#endif

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

int declassify(int v) {
#ifdef CHAPOLY_HAVE_MEMCHECK
  (void)VALGRIND_MAKE_MEM_DEFINED(&v, sizeof v);
#endif
  return v;
}

// CHAPOLY_STACK_BURN_BYTES (set by runtime/CMakeLists.txt): what burn_stack() zeroes, after code
// whose depth the build does not measure (the portable reference, test variants): 8 KiB by
// default; unoptimized or sanitized kernels reserve far more (ASan -O0: ~800 KiB), so such builds
// burn 1 MiB. The generated kernels' own depth comes from the compiler (kernel_stack.h, about
// 5 KiB for the AVX-512 family's spilled zmm state). tests/test_hygiene.cpp checks that no key
// word survives below the caller.
#ifndef CHAPOLY_STACK_BURN_BYTES
#define CHAPOLY_STACK_BURN_BYTES 8192
#endif

size_t stack_burn_bytes() { return CHAPOLY_STACK_BURN_BYTES; }

// noinline, so its frame is a fresh region below the caller: the same region the kernel's frames
// used.
// Not instrumented by AddressSanitizer: with its stack-use-after-return detection an instrumented
// function's arrays live on a heap "fake stack", so `region` would not cover the real stack where
// the kernels' register spills are.
#if defined(__clang__) || defined(__GNUC__)
__attribute__((no_sanitize("address")))
#endif
__attribute__((noinline)) void burn_stack() {
  unsigned char region[CHAPOLY_STACK_BURN_BYTES];
  secure_wipe(region, sizeof region);
}

// The same, `bytes` deep: alloca places the region right below this frame, as the array above.
#if defined(__clang__) || defined(__GNUC__)
__attribute__((no_sanitize("address")))
#endif
__attribute__((noinline)) void burn_stack(size_t bytes) {
  bytes = (bytes + 63) & ~static_cast<size_t>(63);
  auto *region = static_cast<unsigned char *>(__builtin_alloca(bytes));
  secure_wipe(region, bytes);
}

// The portable code is compiled for baseline x86-64, so the compiler can only have left secrets
// (copies of key words, keystream) in the low 128 bits of xmm0-15; clear those.
__attribute__((noinline)) void scrub_sse_registers() {
#if defined(__x86_64__)
  __asm__ __volatile__(
      "pxor %%xmm0, %%xmm0\n\t"   "pxor %%xmm1, %%xmm1\n\t"   "pxor %%xmm2, %%xmm2\n\t"
      "pxor %%xmm3, %%xmm3\n\t"   "pxor %%xmm4, %%xmm4\n\t"   "pxor %%xmm5, %%xmm5\n\t"
      "pxor %%xmm6, %%xmm6\n\t"   "pxor %%xmm7, %%xmm7\n\t"   "pxor %%xmm8, %%xmm8\n\t"
      "pxor %%xmm9, %%xmm9\n\t"   "pxor %%xmm10, %%xmm10\n\t" "pxor %%xmm11, %%xmm11\n\t"
      "pxor %%xmm12, %%xmm12\n\t" "pxor %%xmm13, %%xmm13\n\t" "pxor %%xmm14, %%xmm14\n\t"
      "pxor %%xmm15, %%xmm15\n\t"
      :
      :
      : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
        "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "memory");
#endif
}

}  // namespace chapoly::internal
