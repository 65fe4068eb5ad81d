// tests/verify/samples/crash_recursive.cpp: a recursive helper is outside the emitted dialect.
// The verifier must reject it with file:line and exit status 1 or 2, not crash.
#include <stddef.h>
#include <stdint.h>

static inline uint64_t sum_down(uint64_t x) { return x == 0 ? 0 : x + sum_down(x - 1); }

extern "C" void chapoly_k_sample_recursive_chacha20(uint8_t *out, const uint8_t *in, size_t len) {
  for (size_t i = 0; i < len; ++i) out[i] = (uint8_t)sum_down(in[i]);
}
