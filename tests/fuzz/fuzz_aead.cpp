// fuzz_aead: libFuzzer target (issue 10, item 7; tests/fuzz/README.md). Differential: every
// backend this CPU runs against OpenSSL's EVP_chacha20_poly1305 (ChaCha20-Poly1305) and
// libsodium's crypto_aead_xchacha20poly1305_ietf_*_detached (XChaCha20-Poly1305), out of place and
// in place; open must give the plaintext back, and a flipped bit (of the tag, ciphertext or AAD,
// chosen by the input) must give CHAPOLY_ERR_AUTH with the output zeroed. Any mismatch aborts
// (a finding); sanitizers catch memory errors.
//
// Input: flags (1) | key (32) | nonce (24) | aad_len (1) | aad | plaintext (the rest).
#include <openssl/evp.h>
#include <sodium.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <chapoly/chapoly.h>

#include "fuzz_common.hpp"
#include "internal/chapoly_internal.h"

namespace {

using chapoly::internal::Backend;

[[noreturn]] void finding(const char *what, const Backend &b, size_t len) {
  std::fprintf(stderr, "fuzz_aead: %s (backend %s, len %zu)\n", what, b.name, len);
  std::abort();
}

using fuzz::openssl_seal;
using fuzz::usable_backends;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const std::vector<const Backend *> backends = usable_backends();
  if (size < 1 + 32 + 24 + 1) return 0;
  const uint8_t flags = data[0];
  const uint8_t *key = data + 1, *nonce = data + 33;
  size_t aad_len = data[57];
  const uint8_t *rest = data + 58;
  size_t rest_len = size - 58;
  if (aad_len > rest_len) aad_len = rest_len;
  const uint8_t *aad = rest;
  const size_t len = rest_len - aad_len;
  // Exact-size heap copies, so a kernel reading or writing one byte too far hits a redzone.
  std::vector<uint8_t> pt(rest + aad_len, rest + rest_len);
  // The oracles' buffers hold at least one byte: libsodium declares its pointers nonnull.
  std::vector<uint8_t> want(len), want_x(len + 1);
  uint8_t want_tag[16], want_xtag[16];
  openssl_seal(want.data(), want_tag, pt.data(), len, aad, aad_len, nonce, key);
  unsigned long long xtag_len = 0;
  if (sodium_init() < 0 ||
      crypto_aead_xchacha20poly1305_ietf_encrypt_detached(want_x.data(), want_xtag, &xtag_len,
                                                          len > 0 ? pt.data() : want_x.data(), len,
                                                          aad, aad_len, nullptr, nonce, key) != 0) {
    std::abort();
  }
  want_x.resize(len);
  for (const Backend *b : backends) {
    for (int x = 0; x < 2; ++x) {
      const std::vector<uint8_t> &ref = x ? want_x : want;
      const uint8_t *ref_tag = x ? want_xtag : want_tag;
      auto seal = x ? chapoly::internal::xseal_with : chapoly::internal::seal_with;
      auto open = x ? chapoly::internal::xopen_with : chapoly::internal::open_with;
      std::vector<uint8_t> ct(len), back(len);
      uint8_t tag[16];
      if (seal(*b, ct.data(), tag, pt.data(), len, aad, aad_len, nonce, key) != CHAPOLY_OK)
        finding("seal failed", *b, len);
      if (ct != ref || std::memcmp(tag, ref_tag, 16) != 0) finding("seal differs from the oracle", *b, len);
      if (open(*b, back.data(), ct.data(), len, tag, aad, aad_len, nonce, key) != CHAPOLY_OK || back != pt)
        finding("open of a good message failed", *b, len);
      // In place.
      std::vector<uint8_t> buf = pt;
      if (seal(*b, buf.data(), tag, buf.data(), len, aad, aad_len, nonce, key) != CHAPOLY_OK || buf != ref)
        finding("in-place seal differs", *b, len);
      if (open(*b, buf.data(), buf.data(), len, tag, aad, aad_len, nonce, key) != CHAPOLY_OK || buf != pt)
        finding("in-place open failed", *b, len);
      // A flipped bit of the tag, the ciphertext or the AAD.
      std::vector<uint8_t> aad_copy(aad, aad + aad_len);
      const uint8_t bit = static_cast<uint8_t>(1u << (flags & 7));
      const int where = (flags >> 3) % 3;
      if (where == 1 && len > 0) {
        ct[(flags * 131u) % len] ^= bit;
      } else if (where == 2 && aad_len > 0) {
        aad_copy[(flags * 131u) % aad_len] ^= bit;
      } else {
        tag[(flags >> 4) & 15] ^= bit;
      }
      std::fill(back.begin(), back.end(), 0xa5);
      if (open(*b, back.data(), ct.data(), len, tag, aad_copy.data(), aad_len, nonce, key) !=
          CHAPOLY_ERR_AUTH)
        finding("a forgery was accepted", *b, len);
      for (uint8_t v : back)
        if (v != 0) finding("a rejected open left plaintext in the output", *b, len);
    }
  }
  return 0;
}
