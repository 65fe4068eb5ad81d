// tests/verify/samples/crash_return_value.cpp: helpers that return a value computed by another
// helper call (the verifier used to keep a reference to its frame across that call and read
// freed memory). Must prove.
#include <stddef.h>
#include <stdint.h>

// chapoly-bounds-only (a crash regression sample)
static inline uint64_t low_byte(uint64_t x) { return x & 0xff; }
// chapoly-bounds-only (a crash regression sample)
static inline uint64_t two_bytes(uint64_t x) { return low_byte(x) + low_byte(x >> 8); }
// chapoly-bounds-only (a crash regression sample)
static inline uint64_t four_bytes(uint64_t x) { return two_bytes(x) + two_bytes(x >> 16); }

// chapoly-bounds-only (a crash regression sample: not the ChaCha20 ABI, so no role)
extern "C" void chapoly_k_sample_retval_chacha20(uint8_t *out, const uint8_t *in, size_t len) {
  for (size_t i = 0; i < len; ++i) out[i] = (uint8_t)four_bytes(in[i]);
}
