// test_provider.cpp: the `chapoly` OpenSSL 3 provider (provider/) against OpenSSL's default
// provider, through EVP only: the algorithm and context parameters, the IV and tag length
// refusals, one-shot messages, every split point of the AAD and of the text (independently) up to
// 300 bytes, a spread of lengths to 1 MiB, and TLS 1.2 records (RFC 7905) with non-zero sequence
// numbers, tampered and short records. The provider is loaded from the build tree into a library
// context of its own; the reference is the default provider in another.
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace {

using Bytes = std::vector<uint8_t>;

struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  Bytes bytes(size_t n) {
    Bytes b(n);
    for (auto &x : b) x = static_cast<uint8_t>(next());
    return b;
  }
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }
};

// The two ciphers under comparison, fetched once for the whole program.
struct Ciphers {
  OSSL_LIB_CTX *lib = nullptr;
  OSSL_PROVIDER *prov = nullptr;
  EVP_CIPHER *mine = nullptr, *ref = nullptr;
  std::string error;
  Ciphers() {
    lib = OSSL_LIB_CTX_new();
    OSSL_PROVIDER_set_default_search_path(lib, CHAPOLY_PROVIDER_DIR);
    prov = OSSL_PROVIDER_load(lib, "chapoly");
    if (prov == nullptr) {
      error = "OSSL_PROVIDER_load(chapoly) from " CHAPOLY_PROVIDER_DIR " failed";
      return;
    }
    mine = EVP_CIPHER_fetch(lib, "ChaCha20-Poly1305", "provider=chapoly");
    ref = EVP_CIPHER_fetch(nullptr, "ChaCha20-Poly1305", "provider=default");
    if (mine == nullptr || ref == nullptr) error = "EVP_CIPHER_fetch failed";
  }
};

Ciphers &ciphers() {
  static Ciphers c;
  return c;
}

class Provider : public testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(ciphers().error.empty()) << ciphers().error; }
  EVP_CIPHER *mine() { return ciphers().mine; }
  EVP_CIPHER *ref() { return ciphers().ref; }
};

using CtxPtr = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;
CtxPtr new_ctx() { return CtxPtr(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free); }

// Seals (enc) or opens a message with `c`, AAD cut at `aad_cuts`, text at `text_cuts`. Returns
// false when any EVP call fails (open: a tag mismatch fails EVP_DecryptFinal_ex).
bool run(EVP_CIPHER *c, bool enc, const Bytes &key, const Bytes &iv, const Bytes &aad,
         const std::vector<size_t> &aad_cuts, const Bytes &in, const std::vector<size_t> &text_cuts, Bytes &out,
         uint8_t tag[16]) {
  CtxPtr ctx = new_ctx();
  if (EVP_CipherInit_ex2(ctx.get(), c, key.data(), iv.data(), enc ? 1 : 0, nullptr) != 1) return false;
  if (!enc && EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_SET_TAG, 16, tag) != 1) return false;
  auto feed = [&](const Bytes &data, const std::vector<size_t> &cuts, bool is_aad) {
    size_t at = 0;
    std::vector<size_t> all = cuts;
    all.push_back(data.size());
    for (size_t cut : all) {
      int outl = 0;
      if (EVP_CipherUpdate(ctx.get(), is_aad ? nullptr : out.data() + at, &outl, data.data() + at,
                           static_cast<int>(cut - at)) != 1)
        return false;
      if (static_cast<size_t>(outl) != cut - at) return false;
      at = cut;
    }
    return true;
  };
  out.assign(in.size(), 0);
  if (!feed(aad, aad_cuts, true) || !feed(in, text_cuts, false)) return false;
  int outl = 0;
  uint8_t fin[16];
  if (EVP_CipherFinal_ex(ctx.get(), fin, &outl) != 1 || outl != 0) return false;
  if (enc && EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_GET_TAG, 16, tag) != 1) return false;
  return true;
}

// --- parameters ---------------------------------------------------------------------------------------

std::set<std::string> names(const OSSL_PARAM *p) {
  std::set<std::string> s;
  for (; p != nullptr && p->key != nullptr; ++p) s.insert(p->key);
  return s;
}

TEST_F(Provider, AnswersTheDefaultProvidersParameterNames) {
  EXPECT_EQ(names(EVP_CIPHER_gettable_params(mine())), names(EVP_CIPHER_gettable_params(ref())));
  EXPECT_EQ(names(EVP_CIPHER_gettable_ctx_params(mine())), names(EVP_CIPHER_gettable_ctx_params(ref())));
  std::set<std::string> want_settable = names(EVP_CIPHER_settable_ctx_params(ref()));
  std::set<std::string> have_settable = names(EVP_CIPHER_settable_ctx_params(mine()));
  // tlsivinv (GCM's invocation field) is listed by the generic AEAD table but ignored by
  // ChaCha20-Poly1305 in the default provider; every other name must be settable here too.
  want_settable.erase(OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV);
  EXPECT_EQ(have_settable, want_settable);
  for (const char *n : {"keylen", "ivlen", "tag", "tlsaad", "tlsivfixed"}) EXPECT_TRUE(have_settable.count(n)) << n;
  for (const char *n : {"keylen", "ivlen", "taglen", "tag", "tlsaadpad"})
    EXPECT_TRUE(names(EVP_CIPHER_gettable_ctx_params(mine())).count(n)) << n;
}

TEST_F(Provider, AlgorithmParametersEqualTheDefaultProviders) {
  for (EVP_CIPHER *c : {mine(), ref()}) SCOPED_TRACE(EVP_CIPHER_get0_provider(c) ? "" : "");
  EXPECT_EQ(EVP_CIPHER_get_key_length(mine()), EVP_CIPHER_get_key_length(ref()));
  EXPECT_EQ(EVP_CIPHER_get_iv_length(mine()), EVP_CIPHER_get_iv_length(ref()));
  EXPECT_EQ(EVP_CIPHER_get_block_size(mine()), EVP_CIPHER_get_block_size(ref()));
  EXPECT_EQ(EVP_CIPHER_get_mode(mine()), EVP_CIPHER_get_mode(ref()));
  EXPECT_EQ(EVP_CIPHER_get_flags(mine()), EVP_CIPHER_get_flags(ref()));
  EXPECT_NE(EVP_CIPHER_get_flags(mine()) & EVP_CIPH_FLAG_AEAD_CIPHER, 0u);
  EXPECT_STREQ(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(mine())), "chapoly");
  // Context parameters right after init, on both.
  Bytes key(32, 1), iv(12, 2);
  for (bool enc : {true, false}) {
    CtxPtr a = new_ctx(), b = new_ctx();
    ASSERT_EQ(EVP_CipherInit_ex2(a.get(), mine(), key.data(), iv.data(), enc, nullptr), 1);
    ASSERT_EQ(EVP_CipherInit_ex2(b.get(), ref(), key.data(), iv.data(), enc, nullptr), 1);
    EXPECT_EQ(EVP_CIPHER_CTX_get_key_length(a.get()), EVP_CIPHER_CTX_get_key_length(b.get()));
    EXPECT_EQ(EVP_CIPHER_CTX_get_iv_length(a.get()), EVP_CIPHER_CTX_get_iv_length(b.get()));
  }
}

// Wrong IV and tag lengths are refused as the default provider refuses them, and the accepted
// ones accepted alike.
TEST_F(Provider, RefusesIvAndTagLengthsAsTheDefaultProvider) {
  Bytes key(32, 1), iv(16, 2), tag(17, 3);
  for (size_t ivlen : {0, 1, 8, 11, 12, 13, 16}) {
    for (bool enc : {true, false}) {
      int got[2];
      EVP_CIPHER *cs[2] = {mine(), ref()};
      for (int k = 0; k < 2; ++k) {
        CtxPtr c = new_ctx();
        size_t l = ivlen;
        OSSL_PARAM p[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &l), OSSL_PARAM_END};
        got[k] = EVP_CipherInit_ex2(c.get(), cs[k], key.data(), nullptr, enc, p) == 1 &&
                 EVP_CipherInit_ex2(c.get(), nullptr, nullptr, iv.data(), enc, nullptr) == 1;
        ERR_clear_error();
      }
      EXPECT_EQ(got[0], got[1]) << "ivlen " << ivlen << (enc ? " encrypt" : " decrypt");
    }
  }
  for (size_t taglen : {0, 1, 4, 15, 16, 17}) {
    for (bool enc : {true, false}) {
      for (bool with_data : {true, false}) {
        int got[2];
        EVP_CIPHER *cs[2] = {mine(), ref()};
        for (int k = 0; k < 2; ++k) {
          CtxPtr c = new_ctx();
          ASSERT_EQ(EVP_CipherInit_ex2(c.get(), cs[k], key.data(), iv.data(), enc, nullptr), 1);
          got[k] = EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(taglen),
                                       with_data ? tag.data() : nullptr);
          ERR_clear_error();
        }
        EXPECT_EQ(got[0] == 1, got[1] == 1) << "taglen " << taglen << (enc ? " encrypt" : " decrypt")
                                            << (with_data ? " with data" : " length only");
      }
    }
  }
  // Getting the tag: only after encryption, 1..16 bytes.
  for (size_t taglen : {0, 1, 16, 17}) {
    for (bool enc : {true, false}) {
      int got[2];
      EVP_CIPHER *cs[2] = {mine(), ref()};
      for (int k = 0; k < 2; ++k) {
        CtxPtr c = new_ctx();
        ASSERT_EQ(EVP_CipherInit_ex2(c.get(), cs[k], key.data(), iv.data(), enc, nullptr), 1);
        uint8_t buf[32];
        int outl;
        if (enc) EVP_CipherFinal_ex(c.get(), buf, &outl);
        got[k] = EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_AEAD_GET_TAG, static_cast<int>(taglen), buf);
        ERR_clear_error();
      }
      EXPECT_EQ(got[0] == 1, got[1] == 1) << "get tag " << taglen << (enc ? " encrypt" : " decrypt");
    }
  }
}

// --- messages ------------------------------------------------------------------------------------------

class ProviderMessages : public Provider {
 protected:
  Rng rng{0x9a0d0001};
  Bytes key = rng.bytes(32), iv = rng.bytes(12);

  // The default provider's ciphertext and tag (one-shot), then ours under `aad_cuts`/`text_cuts`
  // must equal them, and ours must open them (and reject a tampered tag).
  void check(const Bytes &aad, const Bytes &pt, const std::vector<size_t> &aad_cuts,
             const std::vector<size_t> &text_cuts, const Bytes &want_ct, const uint8_t want_tag[16]) {
    Bytes ct, back;
    uint8_t tag[16];
    ASSERT_TRUE(run(mine(), true, key, iv, aad, aad_cuts, pt, text_cuts, ct, tag))
        << "seal aad=" << aad.size() << " len=" << pt.size();
    ASSERT_TRUE(ct == want_ct) << "ciphertext differs, aad=" << aad.size() << " len=" << pt.size();
    ASSERT_EQ(0, memcmp(tag, want_tag, 16)) << "tag differs, aad=" << aad.size() << " len=" << pt.size();
    ASSERT_TRUE(run(mine(), false, key, iv, aad, aad_cuts, ct, text_cuts, back, tag)) << "open";
    ASSERT_TRUE(back == pt);
  }
  void reference(const Bytes &aad, const Bytes &pt, Bytes &ct, uint8_t tag[16]) {
    ASSERT_TRUE(run(ref(), true, key, iv, aad, {}, pt, {}, ct, tag));
  }
};

TEST_F(ProviderMessages, OneShotEveryLengthTo300) {
  for (size_t len = 0; len <= 300; ++len) {
    Bytes aad = rng.bytes(len % 37), pt = rng.bytes(len), ct;
    uint8_t tag[16];
    reference(aad, pt, ct, tag);
    check(aad, pt, {}, {}, ct, tag);
    if (HasFatalFailure()) return;
  }
}

// Every text split point and every AAD split point, independently, for messages up to 300 bytes.
TEST_F(ProviderMessages, EverySplitTo300) {
  for (size_t len = 0; len <= 300; len += 1) {
    Bytes aad = rng.bytes((len * 7) % 41), pt = rng.bytes(len), ct;
    uint8_t tag[16];
    reference(aad, pt, ct, tag);
    for (size_t k = 0; k <= len; ++k) {
      check(aad, pt, {(k * 5) % (aad.size() + 1)}, {k}, ct, tag);
      if (HasFatalFailure()) return;
    }
  }
  for (size_t alen = 0; alen <= 300; alen += 1) {
    Bytes aad = rng.bytes(alen), pt = rng.bytes(alen % 97), ct;
    uint8_t tag[16];
    reference(aad, pt, ct, tag);
    for (size_t j = 0; j <= alen; ++j) {
      check(aad, pt, {j}, {(j * 3) % (pt.size() + 1)}, ct, tag);
      if (HasFatalFailure()) return;
    }
  }
}

TEST_F(ProviderMessages, SpreadTo1MiB) {
  for (size_t len = 301; len <= (size_t{1} << 20); len = len * 2 + 77) {
    Bytes aad = rng.bytes(len % 64), pt = rng.bytes(len), ct;
    uint8_t tag[16];
    reference(aad, pt, ct, tag);
    check(aad, pt, {}, {}, ct, tag);
    std::vector<size_t> cuts = {rng.below(len), rng.below(len), rng.below(len)};
    std::sort(cuts.begin(), cuts.end());
    check(aad, pt, {}, cuts, ct, tag);
    if (HasFatalFailure()) return;
  }
  Bytes aad, pt = rng.bytes(size_t{1} << 20), ct;
  uint8_t tag[16];
  reference(aad, pt, ct, tag);
  check(aad, pt, {}, {}, ct, tag);
}

TEST_F(ProviderMessages, TamperedTagFailsFinal) {
  Bytes aad = rng.bytes(13), pt = rng.bytes(200), ct, back;
  uint8_t tag[16];
  reference(aad, pt, ct, tag);
  tag[5] ^= 0x10;
  EXPECT_FALSE(run(mine(), false, key, iv, aad, {}, ct, {}, back, tag));
  ERR_clear_error();
}

// --- TLS 1.2 records (RFC 7905) -----------------------------------------------------------------------

// One record through EVP_Cipher as libssl drives it: the fixed IV, then the 13-byte AAD, then
// payload || tag in one call. Returns EVP_Cipher's result (-1 on failure) and `out`; `ctrl_ok`
// tells whether the AAD was accepted.
int tls_record(EVP_CIPHER *c, bool enc, const Bytes &key, const Bytes &fixed_iv, uint64_t seq, uint8_t type,
               size_t len_field, Bytes &buf, bool &ctrl_ok) {
  CtxPtr ctx = new_ctx();
  if (EVP_CipherInit_ex2(ctx.get(), c, key.data(), nullptr, enc, nullptr) != 1) return -2;
  Bytes fixed = fixed_iv;
  if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_SET_IV_FIXED, 12, fixed.data()) != 1) return -2;
  uint8_t aad[13];
  for (int i = 0; i < 8; ++i) aad[i] = static_cast<uint8_t>(seq >> (56 - 8 * i));
  aad[8] = type;
  aad[9] = 3;
  aad[10] = 3;
  aad[11] = static_cast<uint8_t>(len_field >> 8);
  aad[12] = static_cast<uint8_t>(len_field);
  int pad = EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_TLS1_AAD, 13, aad);
  ctrl_ok = pad == 16;
  if (!ctrl_ok) {
    ERR_clear_error();
    return -3;
  }
  int r = EVP_Cipher(ctx.get(), buf.data(), buf.data(), static_cast<unsigned>(buf.size()));
  ERR_clear_error();
  return r;
}

TEST_F(ProviderMessages, Tls12RecordsMatchTheDefaultProvider) {
  const uint64_t seqs[] = {0, 1, 0x0102030405060708ull, 0xfffffffffffffffeull};
  for (uint64_t seq : seqs) {
    for (size_t plen : {0, 1, 15, 16, 63, 64, 65, 191, 192, 193, 1000, 16384}) {
      Bytes payload = rng.bytes(plen);
      Bytes a(plen + 16), b(plen + 16);
      std::copy(payload.begin(), payload.end(), a.begin());
      std::copy(payload.begin(), payload.end(), b.begin());
      bool ok1, ok2;
      int ra = tls_record(mine(), true, key, iv, seq, 23, plen, a, ok1);
      int rb = tls_record(ref(), true, key, iv, seq, 23, plen, b, ok2);
      ASSERT_EQ(ra, rb) << "seal seq " << seq << " len " << plen;
      ASSERT_EQ(ra, static_cast<int>(plen + 16));
      ASSERT_TRUE(a == b) << "sealed record differs, seq " << seq << " len " << plen;
      // Open ours (length field includes the tag); the tag is checked and stripped.
      Bytes o = a;
      int ro = tls_record(mine(), false, key, iv, seq, 23, plen + 16, o, ok1);
      ASSERT_EQ(ro, static_cast<int>(plen)) << "open seq " << seq << " len " << plen;
      ASSERT_TRUE(std::equal(payload.begin(), payload.end(), o.begin()));
      // Tampered (payload bit, tag bit, wrong sequence number): refused, the output zeroed.
      for (int what = 0; what < 3; ++what) {
        Bytes t = a;
        uint64_t s = seq;
        if (what == 0 && plen > 0) t[plen / 2] ^= 1;
        if (what == 1 || plen == 0) t[plen + 3] ^= 0x80;
        if (what == 2) s ^= 1;
        Bytes r = t;
        int mine_r = tls_record(mine(), false, key, iv, s, 23, plen + 16, t, ok1);
        int ref_r = tls_record(ref(), false, key, iv, s, 23, plen + 16, r, ok2);
        EXPECT_EQ(mine_r, -1) << "tampered record accepted, what " << what;
        EXPECT_EQ(ref_r, -1);
        EXPECT_TRUE(std::all_of(t.begin(), t.begin() + static_cast<long>(plen), [](uint8_t x) { return x == 0; }))
            << "output not zeroed after a failed open, what " << what;
      }
    }
  }
}

// Records shorter than the tag: the AAD's length field below 16 is refused when decrypting, by
// both providers, before any record byte is read; a record whose length does not match the AAD
// is refused by EVP_Cipher.
TEST_F(ProviderMessages, ShortTls12RecordsAreRefused) {
  for (size_t field : {0, 1, 15}) {
    Bytes buf(16, 0x55);
    bool ok1, ok2;
    tls_record(mine(), false, key, iv, 7, 23, field, buf, ok1);
    tls_record(ref(), false, key, iv, 7, 23, field, buf, ok2);
    EXPECT_FALSE(ok1) << "length field " << field;
    EXPECT_FALSE(ok2);
  }
  // A 16-byte record announcing 20 bytes: EVP_Cipher refuses (and writes nothing ours).
  Bytes buf(16, 0x55);
  bool ok;
  int r = tls_record(mine(), false, key, iv, 7, 23, 36, buf, ok);
  EXPECT_TRUE(ok);
  EXPECT_EQ(r, -1);
  EXPECT_TRUE(std::all_of(buf.begin(), buf.end(), [](uint8_t x) { return x == 0x55; }));
}

}  // namespace
