// test_xchacha.cpp: XChaCha20-Poly1305 (chapoly_xseal / chapoly_xopen, draft-irtf-cfrg-xchacha-03)
// on every backend: the draft's HChaCha20 and AEAD vectors (tests/vectors/xchacha_draft03.json),
// BoringSSL's 52 XChaCha vectors, and libsodium's crypto_aead_xchacha20poly1305_ietf_*_detached
// (and crypto_core_hchacha20) as an independent oracle for the vector file itself and for every
// length around the kernel cutoffs; tampering, argument errors and aliasing with the 24-byte nonce.
#include <algorithm>
#include <cstring>

#include <sodium.h>

#include <chapoly/chapoly.h>

#include "support/harness.h"

namespace chapoly::test {
namespace {

using chapoly::internal::xopen_with;
using chapoly::internal::xseal_with;

bool all_zero(const Bytes &b) {
  return std::all_of(b.begin(), b.end(), [](uint8_t x) { return x == 0; });
}

// libsodium: the oracle. sodium_init() is idempotent and thread-safe after the first call.
void sodium_xseal(uint8_t *ct, uint8_t tag[16], const Bytes &pt, const Bytes &aad,
                  const uint8_t nonce[24], const uint8_t key[32]) {
  ASSERT_GE(sodium_init(), 0);
  unsigned long long tag_len = 0;
  uint8_t none[1];  // libsodium declares `c` nonnull, even for an empty message
  ASSERT_EQ(crypto_aead_xchacha20poly1305_ietf_encrypt_detached(
                pt.empty() ? none : ct, tag, &tag_len, pt.data(), pt.size(), aad.data(),
                aad.size(), nullptr, nonce, key),
            0);
  ASSERT_EQ(tag_len, 16u);
}

// The vector file agrees with libsodium (so neither the transcription nor chapoly is the only
// witness), and the portable HChaCha20 gives the draft's subkey.
TEST(XChaChaVectors, DraftVectorsAgreeWithLibsodium) {
  ASSERT_GE(sodium_init(), 0);
  auto j = load_json("xchacha_draft03.json");
  ASSERT_EQ(j["hchacha20"].size(), 1u);
  for (const auto &v : j["hchacha20"]) {
    Bytes key = from_hex(v["key"]), nonce = from_hex(v["nonce"]), want = from_hex(v["subkey"]);
    ASSERT_EQ(nonce.size(), 16u);
    uint8_t sodium[32], ours[32];
    ASSERT_EQ(crypto_core_hchacha20(sodium, nonce.data(), key.data(), nullptr), 0);
    EXPECT_EQ(to_hex(sodium, 32), to_hex(want)) << v["src"];
    chapoly::internal::hchacha20(ours, key.data(), nonce.data());
    EXPECT_EQ(to_hex(ours, 32), to_hex(want)) << v["src"];
  }
  ASSERT_EQ(j["aead"].size(), 1u);
  for (const auto &v : j["aead"]) {
    Bytes pt = from_hex(v["plaintext"]), aad = from_hex(v["aad"]), key = from_hex(v["key"]);
    Bytes nonce = from_hex(v["nonce"]), ct = from_hex(v["ciphertext"]), tag = from_hex(v["tag"]);
    Bytes got(pt.size());
    uint8_t got_tag[16];
    sodium_xseal(got.data(), got_tag, pt, aad, nonce.data(), key.data());
    EXPECT_EQ(to_hex(got), to_hex(ct)) << v["src"];
    EXPECT_EQ(to_hex(got_tag, 16), to_hex(tag)) << v["src"];
  }
}

class XChaCha : public BackendTest {};

TEST_P(XChaCha, DraftAeadVector) {
  auto j = load_json("xchacha_draft03.json");
  for (const auto &v : j["aead"]) {
    Bytes pt = from_hex(v["plaintext"]), aad = from_hex(v["aad"]), key = from_hex(v["key"]);
    Bytes nonce = from_hex(v["nonce"]), ct = from_hex(v["ciphertext"]), tag = from_hex(v["tag"]);
    Bytes out(pt.size()), back(pt.size());
    uint8_t got_tag[16];
    ASSERT_EQ(xseal_with(b(), out.data(), got_tag, pt.data(), pt.size(), aad.data(), aad.size(),
                         nonce.data(), key.data()),
              CHAPOLY_OK);
    EXPECT_EQ(to_hex(out), to_hex(ct));
    EXPECT_EQ(to_hex(got_tag, 16), to_hex(tag));
    ASSERT_EQ(xopen_with(b(), back.data(), ct.data(), ct.size(), tag.data(), aad.data(),
                         aad.size(), nonce.data(), key.data()),
              CHAPOLY_OK);
    EXPECT_EQ(back, pt);
  }
}

TEST_P(XChaCha, BoringSslVectors) {
  const char *kFile = "boringssl_xchacha20_poly1305_tests.txt";
  auto cases = parse_file_tests(kFile);
  ASSERT_EQ(cases.size(), 52u) << "the vector README lists 52 XChaCha vectors";
  for (auto &t : cases) {
    const std::string at = std::string(kFile) + ":" + std::to_string(t.line);
    const Bytes &key = t.get("KEY"), &nonce = t.get("NONCE"), &in = t.get("IN");
    const Bytes &ad = t.get("AD"), &ct = t.get("CT"), &tag = t.get("TAG");
    ASSERT_EQ(key.size(), 32u) << at;
    ASSERT_EQ(nonce.size(), 24u) << at;
    ASSERT_EQ(tag.size(), 16u) << at;
    Bytes out(in.size()), back(in.size(), 0xaa);
    uint8_t got_tag[16];
    ASSERT_EQ(xseal_with(b(), out.data(), got_tag, in.data(), in.size(), ad.data(), ad.size(),
                         nonce.data(), key.data()),
              CHAPOLY_OK)
        << at;
    EXPECT_EQ(to_hex(out), to_hex(ct)) << at;
    EXPECT_EQ(to_hex(got_tag, 16), to_hex(tag)) << at;
    EXPECT_EQ(xopen_with(b(), back.data(), ct.data(), ct.size(), tag.data(), ad.data(), ad.size(),
                         nonce.data(), key.data()),
              CHAPOLY_OK)
        << at;
    EXPECT_EQ(back, in) << at;
    for (const auto &name : t.unconsumed()) ADD_FAILURE() << at << ": " << name << " unused";
  }
}

// Every length around the kernel cutoffs, against libsodium; then a flipped bit of the tag, the
// ciphertext, the AAD or the nonce must give CHAPOLY_ERR_AUTH with the whole output zeroed.
TEST_P(XChaCha, MatchesLibsodiumAndRejectsForgeries) {
  Rng rng(0x8c4a);
  for (size_t len : cutoff_lengths()) {
    uint8_t key[32], nonce[24], tag[16], want_tag[16];
    rng.fill(key, sizeof key);
    rng.fill(nonce, sizeof nonce);
    const size_t aad_len = aad_lengths()[len % aad_lengths().size()];
    Bytes pt = rng.bytes(len), aad = rng.bytes(aad_len), ct(len), want(len), back(len);
    sodium_xseal(want.data(), want_tag, pt, aad, nonce, key);
    ASSERT_EQ(xseal_with(b(), ct.data(), tag, pt.data(), len, aad.data(), aad.size(), nonce, key),
              CHAPOLY_OK);
    ASSERT_EQ(ct, want) << "len=" << len;
    ASSERT_EQ(to_hex(tag, 16), to_hex(want_tag, 16)) << "len=" << len;
    ASSERT_EQ(xopen_with(b(), back.data(), ct.data(), len, tag, aad.data(), aad.size(), nonce,
                         key),
              CHAPOLY_OK);
    ASSERT_EQ(back, pt) << "len=" << len;
    // In place, both ways.
    Bytes buf = pt;
    ASSERT_EQ(xseal_with(b(), buf.data(), tag, buf.data(), len, aad.data(), aad.size(), nonce,
                         key),
              CHAPOLY_OK);
    ASSERT_EQ(buf, want);
    ASSERT_EQ(xopen_with(b(), buf.data(), buf.data(), len, tag, aad.data(), aad.size(), nonce,
                         key),
              CHAPOLY_OK);
    ASSERT_EQ(buf, pt);
    // One flipped bit in each input that the tag covers.
    const uint8_t bit = static_cast<uint8_t>(1u << (len % 8));
    auto expect_forged = [&](const char *what) {
      std::fill(back.begin(), back.end(), 0xaa);
      EXPECT_EQ(xopen_with(b(), back.data(), ct.data(), len, tag, aad.data(), aad.size(), nonce,
                           key),
                CHAPOLY_ERR_AUTH)
          << what << " len=" << len;
      EXPECT_TRUE(all_zero(back)) << what << " len=" << len;
    };
    tag[len % 16] ^= bit;
    expect_forged("tag");
    tag[len % 16] ^= bit;
    nonce[len % 24] ^= bit;  // the HChaCha20 half or the ChaCha20 half of the nonce
    expect_forged("nonce");
    nonce[len % 24] ^= bit;
    if (len > 0) {
      ct[len / 2] ^= bit;
      expect_forged("ciphertext");
      ct[len / 2] ^= bit;
    }
    if (aad_len > 0) {
      aad[aad_len / 2] ^= bit;
      expect_forged("aad");
      aad[aad_len / 2] ^= bit;
    }
  }
}

// Argument checks with the 24-byte nonce: NULLs, TOO_LONG before any buffer is touched, and an
// output that overlaps any byte of the nonce (bytes 12..23 too, which a 12-byte check would miss).
TEST_P(XChaCha, ArgumentErrorsTouchNothing) {
  uint8_t key[32], nonce[24], tag[16], buf[128];
  std::memset(key, 1, sizeof key);
  std::memset(nonce, 2, sizeof nonce);
  std::memset(tag, 3, sizeof tag);
  std::memset(buf, 0x5a, sizeof buf);
  const size_t too_long = static_cast<size_t>(CHAPOLY_MAX_LEN + 1);
  EXPECT_EQ(xseal_with(b(), buf, tag, buf, too_long, nullptr, 0, nonce, key), CHAPOLY_ERR_TOO_LONG);
  EXPECT_EQ(xopen_with(b(), buf, buf, too_long, tag, nullptr, 0, nonce, key), CHAPOLY_ERR_TOO_LONG);
  EXPECT_EQ(xseal_with(b(), buf, tag, buf, 16, nullptr, 0, nullptr, key), CHAPOLY_ERR_ARG);
  EXPECT_EQ(xseal_with(b(), buf, tag, buf, 16, nullptr, 0, nonce, nullptr), CHAPOLY_ERR_ARG);
  EXPECT_EQ(xopen_with(b(), buf, buf, 16, nullptr, nullptr, 0, nonce, key), CHAPOLY_ERR_ARG);
  EXPECT_EQ(xseal_with(b(), nullptr, tag, buf, 16, nullptr, 0, nonce, key), CHAPOLY_ERR_ARG);
  EXPECT_EQ(xseal_with(b(), buf, tag, buf, 0, nullptr, 5, nonce, key), CHAPOLY_ERR_ARG);
  EXPECT_EQ(xopen_with(b(), buf, buf + 3, 16, tag, nullptr, 0, nonce, key), CHAPOLY_ERR_ARG);
  // Output [64, 80) against a nonce at buf + 40 (bytes 40..63) and at buf + 57 (57..80).
  EXPECT_EQ(xseal_with(b(), buf + 64, tag, key, 16, nullptr, 0, buf + 57, key), CHAPOLY_ERR_ARG);
  EXPECT_EQ(xopen_with(b(), buf + 64, key, 16, tag, nullptr, 0, buf + 57, key), CHAPOLY_ERR_ARG);
  EXPECT_TRUE(std::all_of(buf, buf + sizeof buf, [](uint8_t x) { return x == 0x5a; }));
  EXPECT_TRUE(std::all_of(tag, tag + 16, [](uint8_t x) { return x == 3; }));
  // Adjacent, not overlapping: accepted. NULL with zero lengths: accepted.
  EXPECT_EQ(xseal_with(b(), buf + 64, tag, key, 16, nullptr, 0, buf + 40, key), CHAPOLY_OK);
  EXPECT_EQ(xseal_with(b(), nullptr, tag, nullptr, 0, nullptr, 0, nonce, key), CHAPOLY_OK);
  EXPECT_EQ(xopen_with(b(), nullptr, nullptr, 0, tag, nullptr, 0, nonce, key), CHAPOLY_OK);
}

INSTANTIATE_TEST_SUITE_P(Backends, XChaCha, testing::ValuesIn(all_backends()), backend_param_name);

// Through the exported entry points (the selected backend): the draft vector, and agreement
// with libsodium.
TEST(XChaChaApi, ExportedEntryPointsMatchTheDraftAndLibsodium) {
  auto j = load_json("xchacha_draft03.json");
  const auto &v = j["aead"][0];
  Bytes pt = from_hex(v["plaintext"]), aad = from_hex(v["aad"]), key = from_hex(v["key"]);
  Bytes nonce = from_hex(v["nonce"]), want = from_hex(v["ciphertext"]);
  Bytes ct(pt.size()), back(pt.size());
  uint8_t tag[16];
  ASSERT_EQ(chapoly_xseal(ct.data(), tag, pt.data(), pt.size(), aad.data(), aad.size(),
                          nonce.data(), key.data()),
            CHAPOLY_OK)
      << "backend " << chapoly_backend();
  EXPECT_EQ(to_hex(ct), to_hex(want));
  EXPECT_EQ(to_hex(tag, 16), std::string(v["tag"]));
  ASSERT_GE(sodium_init(), 0);
  EXPECT_EQ(crypto_aead_xchacha20poly1305_ietf_decrypt_detached(
                back.data(), nullptr, ct.data(), ct.size(), tag, aad.data(), aad.size(),
                nonce.data(), key.data()),
            0);
  EXPECT_EQ(back, pt);
  std::fill(back.begin(), back.end(), 0);
  ASSERT_EQ(chapoly_xopen(back.data(), ct.data(), ct.size(), tag, aad.data(), aad.size(),
                          nonce.data(), key.data()),
            CHAPOLY_OK);
  EXPECT_EQ(back, pt);
  tag[0] ^= 1;
  EXPECT_EQ(chapoly_xopen(back.data(), ct.data(), ct.size(), tag, aad.data(), aad.size(),
                          nonce.data(), key.data()),
            CHAPOLY_ERR_AUTH);
  EXPECT_TRUE(all_zero(back));
}

}  // namespace
}  // namespace chapoly::test
