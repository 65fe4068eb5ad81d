// tests/verify/samples/conditional_directive.cpp: a kernel that branches on a macro the build
// defines and the verifier's parse does not (the build type's -DNDEBUG). The verifier reads the
// #else branch, the library would be built from the other: the stop-42 review flipped a tag bit
// this way in the shipped scalar kernel and the gate passed it. The verifier must refuse any
// conditional directive outside a header's include guard and #ifdef __cplusplus, with file:line
// and exit status 2.
#include <stddef.h>
#include <stdint.h>

static inline void xor_bytes(uint8_t *out, const uint8_t *in, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = (uint8_t)(in[i] ^ 0x5a);
#ifdef NDEBUG
  if (n != 0) out[0] ^= 1;
#endif
}

extern "C" void chapoly_k_sample_conditional_chacha20(uint8_t *out, const uint8_t *in, size_t len) {
  xor_bytes(out, in, len);
}
