// support/harness.cpp: backend table, OpenSSL oracle, random generator.
#include "harness.h"

#include <openssl/evp.h>
#include <openssl/params.h>

#include <cstring>
#include <stdexcept>

namespace chapoly::test {

std::vector<const Backend *> all_backends() {
  std::vector<const Backend *> out;
  out.push_back(&chapoly::internal::portable_backend());
  size_t n = 0;
  const Backend *const *linked = chapoly::internal::kernel_backends(n);
  for (size_t i = 0; i < n; ++i) out.push_back(linked[i]);
  for (const Backend *b : test_only_backends()) out.push_back(b);
  for (const Backend *b : variant_backends()) out.push_back(b);
  for (const Backend *b : emu_backends()) out.push_back(b);
  return out;
}

chapoly::internal::StreamKernels fused_stream(const char *family, chapoly::internal::TextUpdateFn seal_update,
                                              chapoly::internal::TextUpdateFn open_update,
                                              chapoly::internal::StreamKeysFn keys, unsigned key_lanes,
                                              chapoly::internal::ChaCha20Fn chacha20,
                                              chapoly::internal::PolyUpdateFn mac_update, const char *(*missing)(),
                                              void (*scrub)()) {
  chapoly::internal::StreamKernels k = chapoly::internal::portable_stream_kernels();
  k.family = family;
  k.missing = missing;
  k.scrub = scrub;
  k.seal_bulk = seal_update;
  k.open_bulk = open_update;
  k.bulk_min = 64;
  k.bulk_keys = keys;
  k.key_lanes = key_lanes;
  k.park_chacha20 = chacha20;
  k.park_blocks = chapoly::internal::kStreamParkBlocks;
  k.mac_update = mac_update;
  k.mac_min = 16;
  k.mac_below = 256;
  return k;
}

std::string backend_param_name(const testing::TestParamInfo<const Backend *> &info) {
  std::string s = info.param->name;
  for (char &c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '_';
  }
  return s;
}

void BackendTest::SetUp() {
  if (const char *missing = b().missing()) {
    GTEST_SKIP() << "backend " << b().name << " cannot run here: the CPU/OS lacks " << missing;
  }
}

uint64_t Rng::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void Rng::fill(uint8_t *p, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint64_t v = next();
    for (int k = 0; k < 8 && i < n; ++k, ++i) p[i] = static_cast<uint8_t>(v >> (8 * k));
  }
}

namespace {

struct CipherCtx {
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  ~CipherCtx() { EVP_CIPHER_CTX_free(ctx); }
};

void check(int ok, const char *what) {
  if (ok != 1) throw std::runtime_error(std::string("OpenSSL: ") + what + " failed");
}

// EVP's lengths are int: feed in pieces.
void feed(EVP_CIPHER_CTX *ctx, uint8_t *out, const uint8_t *in, size_t len, bool enc) {
  const size_t kStep = size_t{1} << 30;
  while (len > 0) {
    int n = static_cast<int>(len < kStep ? len : kStep), outl = 0;
    check(enc ? EVP_EncryptUpdate(ctx, out, &outl, in, n) : EVP_DecryptUpdate(ctx, out, &outl, in, n),
          "update");
    if (out != nullptr) out += outl;
    in += n;
    len -= static_cast<size_t>(n);
  }
}

}  // namespace

void openssl_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len, const uint8_t *aad,
                  size_t aad_len, const uint8_t nonce[12], const uint8_t key[32]) {
  CipherCtx c;
  check(EVP_EncryptInit_ex(c.ctx, EVP_chacha20_poly1305(), nullptr, key, nonce), "EncryptInit");
  feed(c.ctx, nullptr, aad, aad_len, true);
  feed(c.ctx, ct, pt, len, true);
  int outl = 0;
  uint8_t dummy[16];
  check(EVP_EncryptFinal_ex(c.ctx, dummy, &outl), "EncryptFinal");
  check(EVP_CIPHER_CTX_ctrl(c.ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag), "GET_TAG");
}

bool openssl_open(uint8_t *pt, const uint8_t *ct, size_t len, const uint8_t tag[16],
                  const uint8_t *aad, size_t aad_len, const uint8_t nonce[12],
                  const uint8_t key[32]) {
  CipherCtx c;
  check(EVP_DecryptInit_ex(c.ctx, EVP_chacha20_poly1305(), nullptr, key, nonce), "DecryptInit");
  uint8_t t[16];
  std::memcpy(t, tag, 16);
  check(EVP_CIPHER_CTX_ctrl(c.ctx, EVP_CTRL_AEAD_SET_TAG, 16, t), "SET_TAG");
  feed(c.ctx, nullptr, aad, aad_len, false);
  feed(c.ctx, pt, ct, len, false);
  int outl = 0;
  uint8_t dummy[16];
  return EVP_DecryptFinal_ex(c.ctx, dummy, &outl) == 1;
}

void openssl_poly1305(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32]) {
  EVP_MAC *mac = EVP_MAC_fetch(nullptr, "POLY1305", nullptr);
  if (mac == nullptr) throw std::runtime_error("OpenSSL: no POLY1305 EVP_MAC");
  EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
  size_t outl = 0;
  bool ok = ctx != nullptr && EVP_MAC_init(ctx, key, 32, nullptr) == 1 &&
            (len == 0 || EVP_MAC_update(ctx, msg, len) == 1) &&
            EVP_MAC_final(ctx, tag, &outl, 16) == 1 && outl == 16;
  EVP_MAC_CTX_free(ctx);
  EVP_MAC_free(mac);
  if (!ok) throw std::runtime_error("OpenSSL: POLY1305 MAC failed");
}

void openssl_chacha20(uint8_t *out, const uint8_t *in, size_t len, const uint8_t nonce[12],
                      const uint8_t key[32], uint32_t counter) {
  // EVP_chacha20's 16-byte IV is the little-endian 32-bit counter followed by the 96-bit nonce.
  uint8_t iv[16];
  for (int i = 0; i < 4; ++i) iv[i] = static_cast<uint8_t>(counter >> (8 * i));
  std::memcpy(iv + 4, nonce, 12);
  CipherCtx c;
  check(EVP_EncryptInit_ex(c.ctx, EVP_chacha20(), nullptr, key, iv), "chacha20 init");
  feed(c.ctx, out, in, len, true);
}

void oracle_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len, const uint8_t *aad,
                 size_t aad_len, const uint8_t nonce[12], const uint8_t key[32]) {
  openssl_seal(ct, tag, pt, len, aad, aad_len, nonce, key);
}

void oracle_chacha20(uint8_t *out, const uint8_t *in, size_t len, const uint8_t nonce[12],
                     const uint8_t key[32], uint32_t counter) {
  openssl_chacha20(out, in, len, nonce, key, counter);
}

std::vector<size_t> cutoff_lengths() {
  std::vector<size_t> v = {0,   1,   15,  16,  17,  63,  64,   65,   127,  128,  129,  191,
                           192, 193, 255, 256, 257, 447, 448,  449,  511,  512,  513,  1023,
                           1024, 1025, 2047, 2048, 2049};
  for (size_t k = 3; k <= 16; ++k) {
    v.push_back(1024 * k - 1);
    v.push_back(1024 * k);
    v.push_back(1024 * k + 1);
  }
  return v;
}

const std::vector<size_t> &aad_lengths() {
  static const std::vector<size_t> v = {0, 1, 12, 13, 15, 16, 17, 63, 64, 65, 255};
  return v;
}

}  // namespace chapoly::test
