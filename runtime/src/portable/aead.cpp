// portable/aead.cpp: AEAD_CHACHA20_POLY1305 (RFC 8439 section 2.8) as two plain passes over the
// text, in the kernel ABI of emitted/README.md: ChaCha20 (counter 1..) over the text, then
// Poly1305 over AAD || pad16 || ciphertext || pad16 || le64(aad_len) || le64(len).
#include "internal/chapoly_internal.h"

namespace chapoly::internal {
namespace {

const uint8_t kZeros[16] = {0};

void store64_le(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// Section 2.8: the MAC input. `ct` is always the ciphertext (seal: after encrypting; open:
// before decrypting, so in-place open reads it before it is overwritten).
void aead_tag(uint8_t tag[16], const uint8_t otk[32], const uint8_t *aad, size_t aad_len,
              const uint8_t *ct, size_t len) {
  Poly1305State st;
  poly1305_init(st, otk);
  if (aad_len > 0) poly1305_update(st, aad, aad_len);
  if (aad_len % 16 != 0) poly1305_update(st, kZeros, 16 - aad_len % 16);
  if (len > 0) poly1305_update(st, ct, len);
  if (len % 16 != 0) poly1305_update(st, kZeros, 16 - len % 16);
  uint8_t lens[16];
  store64_le(lens, static_cast<uint64_t>(aad_len));
  store64_le(lens + 8, static_cast<uint64_t>(len));
  poly1305_update(st, lens, sizeof lens);
  poly1305_final(st, tag);  // also wipes st
}

}  // namespace

void portable_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len, const uint8_t *aad,
                   size_t aad_len, const uint8_t nonce[12], const uint8_t key[32]) {
  uint8_t otk[32];
  poly1305_key_gen(otk, key, nonce);
  chacha20_xor(ct, pt, len, nonce, key, 1);
  aead_tag(tag, otk, aad, aad_len, ct, len);
  secure_wipe(otk, sizeof otk);
}

void portable_open(uint8_t *pt, uint8_t tag[16], const uint8_t *ct, size_t len, const uint8_t *aad,
                   size_t aad_len, const uint8_t nonce[12], const uint8_t key[32]) {
  uint8_t otk[32];
  poly1305_key_gen(otk, key, nonce);
  aead_tag(tag, otk, aad, aad_len, ct, len);
  chacha20_xor(pt, ct, len, nonce, key, 1);
  secure_wipe(otk, sizeof otk);
}

namespace {
const char *portable_missing() { return nullptr; }

// The explicit wipes above cover the named buffers; the compiler's own copies (register spills,
// vectorized moves of key words and keystream) are cleared here.
void scrub_after_portable() {
  scrub_sse_registers();
  burn_stack();
}

const Backend kPortable = {
    "portable", portable_seal, portable_open, poly1305, chacha20_xor, portable_missing,
    scrub_after_portable, nullptr,
};
}  // namespace

const Backend &portable_backend() { return kPortable; }

}  // namespace chapoly::internal
