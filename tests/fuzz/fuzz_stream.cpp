// fuzz_stream: libFuzzer target for the streaming API (issue 10, item 7; tests/fuzz/README.md).
// Differential: the message streamed in the pieces the input chooses (AAD and text cut
// independently, empty calls included), on every backend this CPU runs and the portable one,
// against OpenSSL's one-shot EVP_chacha20_poly1305: the ciphertext and tag must be equal, the
// decryption streamed in other pieces must verify and give the plaintext back, the same with one
// tag bit flipped must give CHAPOLY_ERR_AUTH, and final/verify must leave the whole chapoly_stream
// zero. Any mismatch aborts (a finding); sanitizers catch memory errors. Each piece is copied
// into an exact-size heap buffer, so a kernel reading or writing past it hits a redzone.
//
// Input: flags (1) | key (32) | nonce (12) | aad_len (1) | counts (1: AAD cuts in the low
// nibble, text cuts in the high one) | cuts (2 bytes each, little-endian, AAD's first; each taken
// modulo the length + 1, then sorted) | aad | text (the rest).
// flags: bits 0-2 the tag bit flipped, bits 3-6 its byte, bit 7 encrypts and decrypts in place.
#include <openssl/evp.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include <chapoly/chapoly.h>

#include "fuzz_common.hpp"
#include "internal/chapoly_internal.h"

namespace {

using chapoly::internal::Backend;

[[noreturn]] void finding(const char *what, const Backend &b, size_t aad_len, size_t len) {
  std::fprintf(stderr, "fuzz_stream: %s (backend %s, aad %zu, len %zu)\n", what, b.name, aad_len, len);
  std::abort();
}

using fuzz::openssl_seal;
using fuzz::usable_backends;

// The pieces (offset, length) of a `len`-byte buffer cut at `cuts` (each modulo len + 1, sorted).
std::vector<std::pair<size_t, size_t>> pieces(size_t len, std::vector<size_t> cuts) {
  for (size_t &c : cuts) c %= len + 1;
  std::sort(cuts.begin(), cuts.end());
  std::vector<std::pair<size_t, size_t>> out;
  size_t at = 0;
  for (size_t c : cuts) {
    out.push_back({at, c - at});
    at = c;
  }
  out.push_back({at, len - at});
  return out;
}

bool all_zero(const chapoly_stream &st) {
  return std::all_of(std::begin(st.opaque), std::end(st.opaque), [](uint64_t w) { return w == 0; });
}

// Streams `aad` (in `aad_pieces`) and `in` (in `text_pieces`) through a fresh stream on `b`,
// encrypting or decrypting into `out`; each call gets exact-size copies. Returns false if a call
// failed.
bool stream_text(const Backend &b, chapoly_stream &st, bool seal, bool in_place, const uint8_t key[32],
                 const uint8_t nonce[12], const uint8_t *aad, const std::vector<std::pair<size_t, size_t>> &aad_pieces,
                 const std::vector<uint8_t> &in, const std::vector<std::pair<size_t, size_t>> &text_pieces,
                 std::vector<uint8_t> &out) {
  if (chapoly::internal::stream_init_with(b, &st, key, nonce) != CHAPOLY_OK) return false;
  for (auto [at, n] : aad_pieces) {
    std::vector<uint8_t> piece(aad + at, aad + at + n);
    if (chapoly_stream_aad(&st, piece.data(), n) != CHAPOLY_OK) return false;
  }
  out.assign(in.size(), 0);
  for (auto [at, n] : text_pieces) {
    std::vector<uint8_t> src(in.begin() + at, in.begin() + at + n), dst(in_place ? 0 : n);
    uint8_t *o = in_place ? src.data() : dst.data();
    int rc = seal ? chapoly_stream_encrypt(&st, o, src.data(), n) : chapoly_stream_decrypt(&st, o, src.data(), n);
    if (rc != CHAPOLY_OK) return false;
    if (n != 0) std::memcpy(out.data() + at, o, n);
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const std::vector<const Backend *> backends = usable_backends();
  if (size < 1 + 32 + 12 + 1 + 1) return 0;
  const uint8_t flags = data[0];
  const uint8_t *key = data + 1, *nonce = data + 33;
  size_t aad_len = data[45];
  const size_t n_aad_cuts = data[46] & 15, n_text_cuts = data[46] >> 4;
  const uint8_t *rest = data + 47;
  size_t rest_len = size - 47;
  std::vector<size_t> aad_cuts, text_cuts;
  for (size_t i = 0; i < n_aad_cuts + n_text_cuts && rest_len >= 2; ++i, rest += 2, rest_len -= 2)
    (i < n_aad_cuts ? aad_cuts : text_cuts).push_back(rest[0] | static_cast<size_t>(rest[1]) << 8);
  if (aad_len > rest_len) aad_len = rest_len;
  const uint8_t *aad = rest;
  const size_t len = rest_len - aad_len;
  const std::vector<uint8_t> pt(rest + aad_len, rest + rest_len);
  std::vector<uint8_t> want(len);
  uint8_t want_tag[16];
  openssl_seal(want.data(), want_tag, pt.data(), len, aad, aad_len, nonce, key);

  const auto aad_pieces = pieces(aad_len, aad_cuts);
  const auto enc_pieces = pieces(len, text_cuts);
  // The decryption is cut elsewhere: each text cut mirrored (len - cut), so the parked blocks of
  // the two directions differ.
  std::vector<size_t> mirrored;
  for (size_t c : text_cuts) mirrored.push_back(len - c % (len + 1));
  const auto dec_pieces = pieces(len, mirrored);
  const bool in_place = (flags & 0x80) != 0;

  for (const Backend *b : backends) {
    chapoly_stream st;
    std::vector<uint8_t> ct, back;
    uint8_t tag[16];
    if (!stream_text(*b, st, true, in_place, key, nonce, aad, aad_pieces, pt, enc_pieces, ct))
      finding("a streamed encrypt call failed", *b, aad_len, len);
    if (chapoly_stream_final(&st, tag) != CHAPOLY_OK) finding("final failed", *b, aad_len, len);
    if (!all_zero(st)) finding("final left part of the state", *b, aad_len, len);
    if (ct != want) finding("streamed ciphertext differs from OpenSSL", *b, aad_len, len);
    if (std::memcmp(tag, want_tag, 16) != 0) finding("streamed tag differs from OpenSSL", *b, aad_len, len);

    if (!stream_text(*b, st, false, !in_place, key, nonce, aad, aad_pieces, ct, dec_pieces, back))
      finding("a streamed decrypt call failed", *b, aad_len, len);
    if (chapoly_stream_verify(&st, tag) != CHAPOLY_OK) finding("verify of a good message failed", *b, aad_len, len);
    if (!all_zero(st)) finding("verify left part of the state", *b, aad_len, len);
    if (back != pt) finding("streamed decryption differs from the plaintext", *b, aad_len, len);

    tag[(flags >> 3) & 15] ^= static_cast<uint8_t>(1u << (flags & 7));
    if (!stream_text(*b, st, false, in_place, key, nonce, aad, aad_pieces, ct, enc_pieces, back))
      finding("a streamed decrypt call failed", *b, aad_len, len);
    if (chapoly_stream_verify(&st, tag) != CHAPOLY_ERR_AUTH) finding("a flipped tag bit was accepted", *b, aad_len, len);
    if (!all_zero(st)) finding("a failed verify left part of the state", *b, aad_len, len);
  }
  return 0;
}
