// tests/verify/samples/zero_tag_seal.cpp: an AEAD "seal" kernel that copies the plaintext and
// writes an all-zero tag. It has no arithmetic to bound, so before the closed-world rule it
// proved with "0 obligations OK"; a kernel whose role (or ABI name _seal/_open/_poly1305) ends in
// a tag must reach a proved final reduction, so it must be rejected (final-reduction).
#include <stddef.h>
#include <stdint.h>

extern "C" void chapoly_k_zerotag_seal(uint8_t *out, uint8_t tag[16], const uint8_t *in, size_t len,
                                       const uint8_t *aad, size_t aad_len, const uint8_t nonce[12],
                                       const uint8_t key[32]) {
  for (size_t i = 0; i < len; ++i) out[i] = in[i];
  for (size_t i = 0; i < 16; ++i) tag[i] = 0;
}
