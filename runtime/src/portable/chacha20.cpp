// portable/chacha20.cpp: the ChaCha20 block function and stream cipher, written from RFC 8439
// sections 2.1-2.4 in plain C++ (no SIMD); the reference the vector kernels are checked against.
#include "internal/chapoly_internal.h"

namespace chapoly::internal {
namespace {

uint32_t rotl32(uint32_t v, int n) { return (v << n) | (v >> (32 - n)); }

// Section 2.1: the quarter round on four words of the state.
void quarter_round(uint32_t x[16], int a, int b, int c, int d) {
  x[a] += x[b]; x[d] ^= x[a]; x[d] = rotl32(x[d], 16);
  x[c] += x[d]; x[b] ^= x[c]; x[b] = rotl32(x[b], 12);
  x[a] += x[b]; x[d] ^= x[a]; x[d] = rotl32(x[d], 8);
  x[c] += x[d]; x[b] ^= x[c]; x[b] = rotl32(x[b], 7);
}

// Section 2.3: the initial state: 4 constant words ("expand 32-byte k"), 8 key words, the
// block counter, 3 nonce words, all little-endian.
void init_state(uint32_t st[16], const uint8_t key[32], uint32_t counter, const uint8_t nonce[12]) {
  st[0] = 0x61707865u;
  st[1] = 0x3320646eu;
  st[2] = 0x79622d32u;
  st[3] = 0x6b206574u;
  for (int i = 0; i < 8; ++i) st[4 + i] = load32_le(key + 4 * i);
  st[12] = counter;
  for (int i = 0; i < 3; ++i) st[13 + i] = load32_le(nonce + 4 * i);
}

// Section 2.3: the 20 rounds, add the input state,
// serialize the first `words` words little-endian (16 for a block, 8 for the Poly1305 key, so
// that key is never copied through memcpy, whose library versions use vector registers the
// portable backend's scrub does not clear).
// The 20 rounds (10 double rounds: column round, then diagonal round) on x, in place.
void twenty_rounds(uint32_t x[16]) {
  for (int i = 0; i < 10; ++i) {
    quarter_round(x, 0, 4, 8, 12);
    quarter_round(x, 1, 5, 9, 13);
    quarter_round(x, 2, 6, 10, 14);
    quarter_round(x, 3, 7, 11, 15);
    quarter_round(x, 0, 5, 10, 15);
    quarter_round(x, 1, 6, 11, 12);
    quarter_round(x, 2, 7, 8, 13);
    quarter_round(x, 3, 4, 9, 14);
  }
}

void block_from_state(uint8_t *out, const uint32_t st[16], int words = 16) {
  uint32_t x[16];
  for (int i = 0; i < 16; ++i) x[i] = st[i];
  twenty_rounds(x);
  for (int i = 0; i < words; ++i) store32_le(out + 4 * i, x[i] + st[i]);
  secure_wipe(x, sizeof x);
}

}  // namespace

void chacha20_block(uint8_t out[64], const uint8_t key[32], uint32_t counter,
                    const uint8_t nonce[12]) {
  uint32_t st[16];
  init_state(st, key, counter, nonce);
  block_from_state(out, st);
  secure_wipe(st, sizeof st);
}

// Section 2.4: XOR the text with consecutive keystream blocks; the last block may be partial.
// Block by block, reading each input byte before writing the same output byte, so out == in works.
void chacha20_xor(uint8_t *out, const uint8_t *in, size_t len, const uint8_t nonce[12],
                  const uint8_t key[32], uint32_t counter) {
  if (len == 0) return;
  uint32_t st[16];
  uint8_t ks[64];
  init_state(st, key, counter, nonce);
  while (len > 0) {
    block_from_state(ks, st);
    size_t n = len < 64 ? len : 64;
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(in[i] ^ ks[i]);
    out += n;
    in += n;
    len -= n;
    st[12] += 1;  // the caller guarantees the counter does not wrap
  }
  secure_wipe(ks, sizeof ks);
  secure_wipe(st, sizeof st);
}

// Section 2.6: the one-time Poly1305 key is the first 32 bytes of block 0.
void poly1305_key_gen(uint8_t otk[32], const uint8_t key[32], const uint8_t nonce[12]) {
  uint32_t st[16];
  init_state(st, key, 0, nonce);
  block_from_state(otk, st, 8);
  secure_wipe(st, sizeof st);
}

// draft-irtf-cfrg-xchacha-03, section 2.2: HChaCha20 is the ChaCha20 state with the 16-byte
// nonce in words 12..15 (no block counter), the 20 rounds without the final addition, and words
// 0..3 and 12..15 as the 32-byte subkey, little-endian. The nonce words are public; every word
// is secret-dependent after the rounds, so the output is written without branches or indexing
// on its value (the same straight-line code as a block).
void hchacha20(uint8_t subkey[32], const uint8_t key[32], const uint8_t nonce16[16]) {
  uint32_t x[16];
  x[0] = 0x61707865u;
  x[1] = 0x3320646eu;
  x[2] = 0x79622d32u;
  x[3] = 0x6b206574u;
  for (int i = 0; i < 8; ++i) x[4 + i] = load32_le(key + 4 * i);
  for (int i = 0; i < 4; ++i) x[12 + i] = load32_le(nonce16 + 4 * i);
  twenty_rounds(x);
  for (int i = 0; i < 4; ++i) store32_le(subkey + 4 * i, x[i]);
  for (int i = 0; i < 4; ++i) store32_le(subkey + 16 + 4 * i, x[12 + i]);
  secure_wipe(x, sizeof x);
}

}  // namespace chapoly::internal
