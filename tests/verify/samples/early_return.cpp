// tests/verify/samples/early_return.cpp: a helper that returns before its end (here it skips its
// store for one length, so byte 0..4 of out stay unwritten at len 5) is outside the emitted
// dialect: the walks join a function's paths at its end only, and the stop-28 review found the
// returning path dropped, every later claim then made on the other path alone. The verifier must
// reject it with file:line and exit status 2.
#include <stddef.h>
#include <stdint.h>

static inline void xor_bytes(uint8_t *out, const uint8_t *in, size_t n) {
  if (n == 5) return;
  for (size_t i = 0; i < n; ++i) out[i] = (uint8_t)(in[i] ^ 0x5a);
}

extern "C" void chapoly_k_sample_early_return_chacha20(uint8_t *out, const uint8_t *in, size_t len) {
  xor_bytes(out, in, len);
}
