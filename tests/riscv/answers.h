// answers.h: the OpenSSL cross-check of the riscv64 tests, shared by the host tool that computes
// the answers (answers_main.cpp, linked with OpenSSL, run by ctest on the host) and the guest
// suite that checks them under qemu-riscv64 (test_riscv.cpp; the guest has no OpenSSL). A case is
// a seed: both sides derive the same key, nonce, AAD and message from it (splitmix64), so the file
// holds only the seeds, lengths and OpenSSL's outputs (the tag in full, the ciphertext as its
// FNV-1a-64 digest).
//
// File format (text, one case per line, fields separated by one space, hex lower-case):
//   aead SEED LEN AAD_LEN TAG32HEX CTFNV16HEX      RFC 8439 2.8 seal
//   poly SEED LEN TAG32HEX                          RFC 8439 2.5 Poly1305, key = r || s
//   chacha SEED LEN COUNTER OUTFNV16HEX             RFC 8439 2.4 ChaCha20 from block COUNTER
#ifndef CHAPOLY_TESTS_RISCV_ANSWERS_H
#define CHAPOLY_TESTS_RISCV_ANSWERS_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace chapoly::riscv_answers {

/// splitmix64 (the same generator as tests/support/harness.h's Rng).
struct Gen {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Fills n bytes at p.
  void fill(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i += 8) {
      uint64_t v = next();
      for (size_t k = 0; k < 8 && i + k < n; ++k) p[i + k] = static_cast<uint8_t>(v >> (8 * k));
    }
  }
};

/// The inputs of one case: key (32 bytes), nonce (12), aad (aad_len), msg (len), in this order
/// from the seed.
struct Inputs {
  uint8_t key[32];
  uint8_t nonce[12];
  std::vector<uint8_t> aad, msg;
  Inputs(uint64_t seed, size_t len, size_t aad_len) : aad(aad_len), msg(len) {
    Gen g{seed};
    g.fill(key, sizeof key);
    g.fill(nonce, sizeof nonce);
    g.fill(aad.data(), aad.size());
    g.fill(msg.data(), msg.size());
  }
};

/// FNV-1a, 64 bits, over n bytes.
inline uint64_t fnv1a64(const uint8_t *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

/// The message lengths of the aead and chacha cases: every length 0..1100 (each VLEN's block
/// multiples and tails up to 16 blocks), then lengths around larger multiples of 64 and the
/// benchmark sizes.
inline std::vector<size_t> cross_lengths() {
  std::vector<size_t> out;
  for (size_t n = 0; n <= 1100; ++n) out.push_back(n);
  for (size_t n : {1535u, 1536u, 1537u, 2047u, 2048u, 2049u, 3173u, 4095u, 4096u, 4097u, 8191u,
                   8192u, 8193u, 16383u, 16384u, 16385u})
    out.push_back(n);
  return out;
}

}  // namespace chapoly::riscv_answers

#endif
