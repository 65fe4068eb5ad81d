// test_vectors.cpp: the BoringSSL AEAD and Poly1305 vector files and poly1305_edge_cases.json on
// every backend. Every attribute of every BoringSSL block must be consumed; truncated TAGs are
// compared as a prefix of the full tag; each AEAD and Poly1305 vector also runs from misaligned
// copies (and the AEAD ones in place).
#include <algorithm>
#include <cstring>

#include <chapoly/chapoly.h>

#include "support/harness.h"

namespace chapoly::test {
namespace {

using chapoly::internal::open_with;
using chapoly::internal::seal_with;

std::string where(const char *file, const FileTestCase &t) {
  return std::string(file) + ":" + std::to_string(t.line);
}

void expect_all_consumed(const char *file, const FileTestCase &t) {
  for (const auto &name : t.unconsumed()) {
    ADD_FAILURE() << where(file, t) << ": attribute " << name << " was not used by the test";
  }
}

class VectorFiles : public BackendTest {};

TEST_P(VectorFiles, BoringSslAead) {
  const char *kFile = "boringssl_chacha20_poly1305_tests.txt";
  auto cases = parse_file_tests(kFile);
  ASSERT_EQ(cases.size(), 81u) << "the vector README lists 81 AEAD vectors";
  size_t truncated = 0;
  for (auto &t : cases) {
    const Bytes &key = t.get("KEY"), &nonce = t.get("NONCE"), &in = t.get("IN");
    const Bytes &ad = t.get("AD"), &ct = t.get("CT"), &tag = t.get("TAG");
    ASSERT_EQ(key.size(), 32u) << where(kFile, t);
    ASSERT_EQ(nonce.size(), 12u) << where(kFile, t);
    ASSERT_EQ(ct.size(), in.size()) << where(kFile, t);
    ASSERT_TRUE(tag.size() >= 1 && tag.size() <= 16) << where(kFile, t);
    if (tag.size() < 16) ++truncated;

    Bytes out(in.size());
    uint8_t full_tag[16];
    ASSERT_EQ(seal_with(b(), out.data(), full_tag, in.data(), in.size(), ad.data(), ad.size(),
                        nonce.data(), key.data()),
              CHAPOLY_OK)
        << where(kFile, t);
    EXPECT_EQ(to_hex(out), to_hex(ct)) << where(kFile, t);
    EXPECT_EQ(to_hex(full_tag, tag.size()), to_hex(tag)) << where(kFile, t) << " (tag prefix)";

    // Open with the full tag (the API takes only whole tags) gives IN back.
    Bytes back(ct.size(), 0xaa);
    EXPECT_EQ(open_with(b(), back.data(), ct.data(), ct.size(), full_tag, ad.data(), ad.size(),
                        nonce.data(), key.data()),
              CHAPOLY_OK)
        << where(kFile, t);
    EXPECT_EQ(to_hex(back), to_hex(in)) << where(kFile, t);

    // Again from misaligned copies, and in place.
    for (size_t off : {1, 3, 7}) {
      Bytes in_buf(off + in.size()), ad_buf(off + ad.size()), out_buf(off + in.size());
      std::copy(in.begin(), in.end(), in_buf.begin() + off);
      std::copy(ad.begin(), ad.end(), ad_buf.begin() + off);
      uint8_t tag2[16];
      ASSERT_EQ(seal_with(b(), out_buf.data() + off, tag2, in_buf.data() + off, in.size(),
                          ad_buf.data() + off, ad.size(), nonce.data(), key.data()),
                CHAPOLY_OK);
      EXPECT_TRUE(std::equal(ct.begin(), ct.end(), out_buf.begin() + off))
          << where(kFile, t) << " offset " << off;
      EXPECT_EQ(to_hex(tag2, tag.size()), to_hex(tag)) << where(kFile, t) << " offset " << off;
      ASSERT_EQ(open_with(b(), out_buf.data() + off, out_buf.data() + off, in.size(), tag2,
                          ad_buf.data() + off, ad.size(), nonce.data(), key.data()),
                CHAPOLY_OK)
          << where(kFile, t) << " offset " << off << " in place";
      EXPECT_TRUE(std::equal(in.begin(), in.end(), out_buf.begin() + off))
          << where(kFile, t) << " offset " << off << " in place";
    }
    expect_all_consumed(kFile, t);
  }
  EXPECT_GT(truncated, 0u) << "expected some truncated-tag vectors in " << kFile;
}

TEST_P(VectorFiles, BoringSslPoly1305) {
  const char *kFile = "boringssl_poly1305_tests.txt";
  auto cases = parse_file_tests(kFile);
  ASSERT_EQ(cases.size(), 33u) << "the vector README lists 33 Poly1305 vectors";
  for (auto &t : cases) {
    const Bytes &key = t.get("Key"), &msg = t.get("Input"), &mac = t.get("MAC");
    ASSERT_EQ(key.size(), 32u) << where(kFile, t);
    ASSERT_EQ(mac.size(), 16u) << where(kFile, t);
    uint8_t tag[16];
    b().poly1305(tag, msg.data(), msg.size(), key.data());
    EXPECT_EQ(to_hex(tag, 16), to_hex(mac)) << where(kFile, t) << " (" << msg.size() << " bytes)";
    for (size_t off : {1, 5}) {
      Bytes buf(off + msg.size());
      std::copy(msg.begin(), msg.end(), buf.begin() + off);
      b().poly1305(tag, buf.data() + off, msg.size(), key.data());
      EXPECT_EQ(to_hex(tag, 16), to_hex(mac)) << where(kFile, t) << " offset " << off;
    }
    expect_all_consumed(kFile, t);
  }
}

TEST_P(VectorFiles, Poly1305EdgeCases) {
  auto j = load_json("poly1305_edge_cases.json");
  ASSERT_EQ(j.at("vectors").size(), 19u);
  for (const auto &v : j.at("vectors")) {
    Bytes key = from_hex(v.at("key").get<std::string>());
    Bytes msg = from_hex(v.at("msg").get<std::string>());
    Bytes want = from_hex(v.at("tag").get<std::string>());
    std::string why = v.at("why").get<std::string>();
    ASSERT_EQ(msg.size(), v.at("msg_len").get<size_t>()) << why;
    uint8_t tag[16];
    b().poly1305(tag, msg.data(), msg.size(), key.data());
    EXPECT_EQ(to_hex(tag, 16), to_hex(want)) << why;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, VectorFiles, testing::ValuesIn(all_backends()),
                         backend_param_name);

// The incremental portable Poly1305 (which the portable AEAD uses) on the same edge cases,
// including the prescribed split, and the procedural all-ones MAC-of-MACs test (its definition
// needs a copyable incremental state, which only the portable reference has).
TEST(Poly1305Incremental, EdgeCaseSplits) {
  auto j = load_json("poly1305_edge_cases.json");
  size_t with_split = 0;
  for (const auto &v : j.at("vectors")) {
    Bytes key = from_hex(v.at("key").get<std::string>());
    Bytes msg = from_hex(v.at("msg").get<std::string>());
    Bytes want = from_hex(v.at("tag").get<std::string>());
    std::vector<size_t> split = {msg.size()};
    if (v.contains("split")) {
      split = v.at("split").get<std::vector<size_t>>();
      ++with_split;
    }
    chapoly::internal::Poly1305State st;
    chapoly::internal::poly1305_init(st, key.data());
    size_t off = 0;
    for (size_t n : split) {
      ASSERT_LE(off + n, msg.size());
      chapoly::internal::poly1305_update(st, msg.data() + off, n);
      off += n;
    }
    ASSERT_EQ(off, msg.size());
    uint8_t tag[16];
    chapoly::internal::poly1305_final(st, tag);
    EXPECT_EQ(to_hex(tag, 16), to_hex(want)) << v.at("why").get<std::string>();
  }
  EXPECT_EQ(with_split, 1u);
}

// Linux KUnit's all-ones MAC-of-MACs: the intermediate MACs of one growing all-ones message.
Bytes all_ones_intermediate_macs(const uint8_t key[32]) {
  static uint8_t ones[4096];
  std::memset(ones, 0xff, sizeof ones);
  chapoly::internal::Poly1305State ctx;
  chapoly::internal::poly1305_init(ctx, key);
  Bytes macs;
  for (int rep = 0; rep < 32; ++rep) {
    for (size_t len = 0; len <= 4096; len += 16) {
      chapoly::internal::poly1305_update(ctx, ones, len);
      chapoly::internal::Poly1305State copy = ctx;
      uint8_t mac[16];
      chapoly::internal::poly1305_final(copy, mac);
      macs.insert(macs.end(), mac, mac + 16);
    }
  }
  return macs;
}

TEST(Poly1305Incremental, AllOnesMacOfMacs) {
  auto j = load_json("poly1305_edge_cases.json");
  ASSERT_EQ(j.at("procedural").size(), 1u);
  const auto &p = j.at("procedural")[0];
  uint8_t key[32];
  std::memset(key, 0xff, sizeof key);
  Bytes macs = all_ones_intermediate_macs(key);
  ASSERT_EQ(macs.size() / 16, p.at("num_intermediate_macs").get<size_t>());
  uint8_t result[16];
  chapoly::internal::poly1305(result, macs.data(), macs.size(), key);
  EXPECT_EQ(to_hex(result, 16), p.at("expected").get<std::string>());
}

// The same procedure with each backend's one-shot MAC for the final 131584-byte message.
TEST_P(VectorFiles, Poly1305AllOnesMacOfMacsFinal) {
  auto j = load_json("poly1305_edge_cases.json");
  uint8_t key[32];
  std::memset(key, 0xff, sizeof key);
  Bytes macs = all_ones_intermediate_macs(key);
  uint8_t result[16];
  b().poly1305(result, macs.data(), macs.size(), key);
  EXPECT_EQ(to_hex(result, 16), j.at("procedural")[0].at("expected").get<std::string>());
}

}  // namespace
}  // namespace chapoly::test
