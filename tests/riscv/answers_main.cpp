// answers_main.cpp: chapoly-riscv-answers OUT — computes the riscv64 suite's OpenSSL answers on
// the host (answers.h describes the cases and the file) and writes them to OUT. Exit 0, or 1 when
// OpenSSL fails or OUT cannot be written; 2 on a usage error.
#include <openssl/evp.h>
#include <openssl/params.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

#include "answers.h"

namespace {

using namespace chapoly::riscv_answers;

bool die(const char *what) {
  std::fprintf(stderr, "chapoly-riscv-answers: OpenSSL failed: %s\n", what);
  return false;
}

bool seal(uint8_t *ct, uint8_t tag[16], const Inputs &in) {
  EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
  int n = 0;
  bool ok = c && EVP_EncryptInit_ex(c, EVP_chacha20_poly1305(), nullptr, in.key, in.nonce) == 1 &&
            (in.aad.empty() || EVP_EncryptUpdate(c, nullptr, &n, in.aad.data(), static_cast<int>(in.aad.size())) == 1) &&
            (in.msg.empty() || EVP_EncryptUpdate(c, ct, &n, in.msg.data(), static_cast<int>(in.msg.size())) == 1) &&
            EVP_EncryptFinal_ex(c, ct + in.msg.size(), &n) == 1 &&
            EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag) == 1;
  EVP_CIPHER_CTX_free(c);
  return ok || die("EVP_chacha20_poly1305 seal");
}

bool chacha(uint8_t *out, const Inputs &in, uint32_t counter) {
  uint8_t iv[16];
  for (int i = 0; i < 4; ++i) iv[i] = static_cast<uint8_t>(counter >> (8 * i));
  std::memcpy(iv + 4, in.nonce, 12);
  EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
  int n = 0;
  bool ok = c && EVP_EncryptInit_ex(c, EVP_chacha20(), nullptr, in.key, iv) == 1 &&
            (in.msg.empty() || EVP_EncryptUpdate(c, out, &n, in.msg.data(), static_cast<int>(in.msg.size())) == 1);
  EVP_CIPHER_CTX_free(c);
  return ok || die("EVP_chacha20");
}

bool poly(uint8_t tag[16], const Inputs &in) {
  EVP_MAC *mac = EVP_MAC_fetch(nullptr, "POLY1305", nullptr);
  EVP_MAC_CTX *c = mac ? EVP_MAC_CTX_new(mac) : nullptr;
  size_t n = 0;
  bool ok = c && EVP_MAC_init(c, in.key, 32, nullptr) == 1 &&
            EVP_MAC_update(c, in.msg.data(), in.msg.size()) == 1 && EVP_MAC_final(c, tag, &n, 16) == 1 && n == 16;
  EVP_MAC_CTX_free(c);
  EVP_MAC_free(mac);
  return ok || die("EVP_MAC POLY1305");
}

std::string hex(const uint8_t *p, size_t n) {
  std::string s;
  char b[3];
  for (size_t i = 0; i < n; ++i) {
    std::snprintf(b, sizeof b, "%02x", p[i]);
    s += b;
  }
  return s;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: chapoly-riscv-answers OUT\n");
    return 2;
  }
  FILE *f = std::fopen(argv[1], "w");
  if (!f) {
    std::perror(argv[1]);
    return 1;
  }
  std::fprintf(f, "# chapoly-riscv-answers: OpenSSL %s (tests/riscv/answers.h)\n", OPENSSL_VERSION_TEXT);
  uint64_t seed = 1;
  for (size_t len : cross_lengths()) {
    const size_t aad_len = (len * 7) % 67;  // 0..66: empty, partial and several AAD blocks
    Inputs in(seed, len, aad_len);
    std::string ct(len + 16, '\0');
    uint8_t tag[16];
    if (!seal(reinterpret_cast<uint8_t *>(ct.data()), tag, in)) return 1;
    std::fprintf(f, "aead %" PRIu64 " %zu %zu %s %016" PRIx64 "\n", seed, len, aad_len, hex(tag, 16).c_str(),
                 fnv1a64(reinterpret_cast<const uint8_t *>(ct.data()), len));
    ++seed;
    Inputs cin(seed, len, 0);
    const uint32_t counter = static_cast<uint32_t>(Gen{seed * 31}.next() >> 34);  // < 2^30
    if (!chacha(reinterpret_cast<uint8_t *>(ct.data()), cin, counter)) return 1;
    std::fprintf(f, "chacha %" PRIu64 " %zu %u %016" PRIx64 "\n", seed, len, counter,
                 fnv1a64(reinterpret_cast<const uint8_t *>(ct.data()), len));
    ++seed;
  }
  for (size_t len = 0; len <= 4096; ++len, ++seed) {
    Inputs in(seed, len, 0);
    uint8_t tag[16];
    if (!poly(tag, in)) return 1;
    std::fprintf(f, "poly %" PRIu64 " %zu %s\n", seed, len, hex(tag, 16).c_str());
  }
  if (std::fclose(f) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  return 0;
}
