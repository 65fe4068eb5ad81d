// test_rfc8439.cpp: RFC 8439 Appendix A (rfc8439_appendixA.json) on the portable primitives and
// on every backend's kernels: A.1 ChaCha20 block, A.2 encryption, A.3 Poly1305, A.4 Poly1305 key
// generation, A.5 AEAD decryption.
#include <cstring>

#include <chapoly/chapoly.h>

#include "support/harness.h"

namespace chapoly::test {
namespace {

using chapoly::internal::open_with;
using chapoly::internal::seal_with;

const nlohmann::json &appendix() {
  static const nlohmann::json j = load_json("rfc8439_appendixA.json");
  return j;
}

Bytes hex_of(const nlohmann::json &v, const char *key) { return from_hex(v.at(key).get<std::string>()); }

std::string label(const char *section, const nlohmann::json &v) {
  return std::string("RFC 8439 ") + section + " #" + std::to_string(v.at("id").get<int>());
}

// Portable primitives, straight from the appendix.

TEST(Rfc8439Portable, A1ChaCha20Block) {
  ASSERT_EQ(appendix().at("A.1").size(), 5u);
  for (const auto &v : appendix().at("A.1")) {
    Bytes key = hex_of(v, "key"), nonce = hex_of(v, "nonce"), want = hex_of(v, "keystream");
    uint8_t out[64];
    chapoly::internal::chacha20_block(out, key.data(), v.at("counter").get<uint32_t>(), nonce.data());
    EXPECT_EQ(to_hex(out, 64), to_hex(want)) << label("A.1", v);
  }
}

TEST(Rfc8439Portable, A4KeyGeneration) {
  ASSERT_EQ(appendix().at("A.4").size(), 3u);
  for (const auto &v : appendix().at("A.4")) {
    Bytes key = hex_of(v, "key"), nonce = hex_of(v, "nonce"), want = hex_of(v, "otk");
    uint8_t otk[32];
    chapoly::internal::poly1305_key_gen(otk, key.data(), nonce.data());
    EXPECT_EQ(to_hex(otk, 32), to_hex(want)) << label("A.4", v);
  }
}

TEST(Rfc8439Portable, A5IntermediateValues) {
  // The appendix also gives the one-time key and the exact Poly1305 input of the AEAD.
  for (const auto &v : appendix().at("A.5")) {
    Bytes key = hex_of(v, "key"), nonce = hex_of(v, "nonce"), otk = hex_of(v, "otk");
    Bytes mac_input = hex_of(v, "poly_input"), calc = hex_of(v, "calc_tag");
    uint8_t got_otk[32], tag[16];
    chapoly::internal::poly1305_key_gen(got_otk, key.data(), nonce.data());
    EXPECT_EQ(to_hex(got_otk, 32), to_hex(otk)) << label("A.5", v);
    chapoly::internal::poly1305(tag, mac_input.data(), mac_input.size(), otk.data());
    EXPECT_EQ(to_hex(tag, 16), to_hex(calc)) << label("A.5", v);
    EXPECT_EQ(to_hex(calc), to_hex(hex_of(v, "tag"))) << label("A.5", v);
  }
}

// Every backend's kernels.

class Rfc8439 : public BackendTest {};

TEST_P(Rfc8439, A1ChaCha20Block) {
  for (const auto &v : appendix().at("A.1")) {
    Bytes key = hex_of(v, "key"), nonce = hex_of(v, "nonce"), want = hex_of(v, "keystream");
    uint8_t zeros[64] = {0}, out[64];
    b().chacha20(out, zeros, 64, nonce.data(), key.data(), v.at("counter").get<uint32_t>());
    EXPECT_EQ(to_hex(out, 64), to_hex(want)) << label("A.1", v);
  }
}

TEST_P(Rfc8439, A2Encryption) {
  ASSERT_EQ(appendix().at("A.2").size(), 3u);
  for (const auto &v : appendix().at("A.2")) {
    Bytes key = hex_of(v, "key"), nonce = hex_of(v, "nonce");
    Bytes pt = hex_of(v, "plaintext"), want = hex_of(v, "ciphertext");
    uint32_t counter = v.at("counter").get<uint32_t>();
    Bytes out(pt.size());
    b().chacha20(out.data(), pt.data(), pt.size(), nonce.data(), key.data(), counter);
    EXPECT_EQ(to_hex(out), to_hex(want)) << label("A.2", v);
    // And back, in place.
    b().chacha20(out.data(), out.data(), out.size(), nonce.data(), key.data(), counter);
    EXPECT_EQ(to_hex(out), to_hex(pt)) << label("A.2", v) << " (in place)";
  }
}

TEST_P(Rfc8439, A3Poly1305) {
  ASSERT_EQ(appendix().at("A.3").size(), 11u);
  for (const auto &v : appendix().at("A.3")) {
    Bytes key = hex_of(v, "key"), msg = hex_of(v, "msg"), want = hex_of(v, "tag");
    uint8_t tag[16];
    b().poly1305(tag, msg.data(), msg.size(), key.data());
    EXPECT_EQ(to_hex(tag, 16), to_hex(want)) << label("A.3", v);
  }
}

TEST_P(Rfc8439, A4KeyGeneration) {
  // The one-time key is the first 32 bytes of keystream block 0.
  for (const auto &v : appendix().at("A.4")) {
    Bytes key = hex_of(v, "key"), nonce = hex_of(v, "nonce"), want = hex_of(v, "otk");
    uint8_t zeros[32] = {0}, otk[32];
    b().chacha20(otk, zeros, 32, nonce.data(), key.data(), 0);
    EXPECT_EQ(to_hex(otk, 32), to_hex(want)) << label("A.4", v);
  }
}

TEST_P(Rfc8439, A5AeadDecryption) {
  ASSERT_EQ(appendix().at("A.5").size(), 1u);
  for (const auto &v : appendix().at("A.5")) {
    Bytes key = hex_of(v, "key"), nonce = hex_of(v, "nonce"), aad = hex_of(v, "aad");
    Bytes ct = hex_of(v, "ciphertext"), tag = hex_of(v, "tag"), pt = hex_of(v, "plaintext");
    Bytes out(ct.size(), 0xaa);
    ASSERT_EQ(open_with(b(), out.data(), ct.data(), ct.size(), tag.data(), aad.data(), aad.size(),
                        nonce.data(), key.data()),
              CHAPOLY_OK)
        << label("A.5", v);
    EXPECT_EQ(to_hex(out), to_hex(pt)) << label("A.5", v);
    // Sealing the plaintext gives the ciphertext and tag back.
    Bytes ct2(pt.size());
    uint8_t tag2[16];
    ASSERT_EQ(seal_with(b(), ct2.data(), tag2, pt.data(), pt.size(), aad.data(), aad.size(),
                        nonce.data(), key.data()),
              CHAPOLY_OK);
    EXPECT_EQ(to_hex(ct2), to_hex(ct)) << label("A.5", v);
    EXPECT_EQ(to_hex(tag2, 16), to_hex(tag)) << label("A.5", v);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, Rfc8439, testing::ValuesIn(all_backends()), backend_param_name);

}  // namespace
}  // namespace chapoly::test
