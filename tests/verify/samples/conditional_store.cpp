// tests/verify/samples/conditional_store.cpp: a store inside an arm of ?: (or the right operand of
// && / ||) is outside the emitted dialect: the walks evaluate both arms as values, so the store
// would count on the path that skips it (byte 3 is never written here; the stop-28 review's
// hole in out-coverage). The verifier must reject it with file:line and exit status 2.
#include <stddef.h>
#include <stdint.h>

extern "C" void chapoly_k_sample_conditional_store_chacha20(uint8_t *out, const uint8_t *in, size_t len) {
  for (size_t i = 0; i < len; ++i) (void)((i != 3) && (out[i] = (uint8_t)(in[i] ^ 0x5a)));
}
