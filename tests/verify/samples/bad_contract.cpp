// tests/verify/samples/bad_contract.cpp: a chapoly-contract line that is not valid JSON. The
// verifier must stop with a usage error naming this file and line (exit 2), before any proof.
#include <stddef.h>
#include <stdint.h>

// chapoly-contract: {"role": "poly1305.clamp", "out": ["r0", "r1"
static inline void clamp(uint64_t &r0, uint64_t &r1, const uint8_t *key) {
  r0 = key[0];
  r1 = key[1];
}

extern "C" void chapoly_k_badcontract_chacha20(uint8_t *out, const uint8_t *in, size_t len) {
  uint64_t r0, r1;
  clamp(r0, r1, in);
  for (size_t i = 0; i < len; ++i) out[i] = (uint8_t)(in[i] ^ (uint8_t)r0);
}
