// test_api.cpp: the public C API (chapoly.h) itself: constants and version, backend selection by
// chapoly_select_backend and by CHAPOLY_BACKEND, CPU-feature gating, and seal/open through the
// exported entry points on every backend this CPU runs.
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <thread>

#include <chapoly/chapoly.h>

#include "support/harness.h"

namespace chapoly::test {
namespace {

using chapoly::internal::hide_cpu_features_for_testing;
using chapoly::internal::reset_backend_for_testing;

// The backend "auto" must pick on this machine: the first usable linked backend in registry
// order (avx512, avx2, scalar, when linked), else portable. `skip` names one to treat as unusable.
std::string expected_auto(const char *skip = nullptr) {
  size_t n = 0;
  const Backend *const *all = chapoly::internal::kernel_backends(n);
  for (size_t i = 0; i < n; ++i) {
    if (skip != nullptr && std::strcmp(all[i]->name, skip) == 0) continue;
    if (all[i]->missing() == nullptr) return all[i]->name;
  }
  return "portable";
}

// Restores the environment, the CPU mask and the backend decision after each test.
class Api : public testing::Test {
 protected:
  void SetUp() override {
    const char *env = getenv("CHAPOLY_BACKEND");
    had_env_ = env != nullptr;
    if (had_env_) saved_env_ = env;
    unsetenv("CHAPOLY_BACKEND");
    reset_backend_for_testing();
  }
  void TearDown() override {
    hide_cpu_features_for_testing(0);
    if (had_env_) {
      setenv("CHAPOLY_BACKEND", saved_env_.c_str(), 1);
    } else {
      unsetenv("CHAPOLY_BACKEND");
    }
    reset_backend_for_testing();
  }
  // Decide again as on first use, with CHAPOLY_BACKEND = `value` (nullptr: unset).
  static void first_use_with(const char *value) {
    if (value != nullptr) {
      setenv("CHAPOLY_BACKEND", value, 1);
    } else {
      unsetenv("CHAPOLY_BACKEND");
    }
    reset_backend_for_testing();
  }

 private:
  bool had_env_ = false;
  std::string saved_env_;
};

TEST_F(Api, ConstantsAndVersion) {
  EXPECT_EQ(CHAPOLY_KEY_BYTES, 32);
  EXPECT_EQ(CHAPOLY_NONCE_BYTES, 12);
  EXPECT_EQ(CHAPOLY_TAG_BYTES, 16);
  EXPECT_EQ(CHAPOLY_MAX_LEN, (uint64_t{1} << 38) - 64);
  EXPECT_EQ(CHAPOLY_OK, 0);
  EXPECT_LT(CHAPOLY_ERR_AUTH, 0);
  EXPECT_STREQ(chapoly_version(), CHAPOLY_VERSION_STRING);
  EXPECT_EQ(std::string(CHAPOLY_VERSION_STRING),
            std::to_string(CHAPOLY_VERSION_MAJOR) + "." + std::to_string(CHAPOLY_VERSION_MINOR) +
                "." + std::to_string(CHAPOLY_VERSION_PATCH));
}

TEST_F(Api, AutoPicksTheFastestUsableBackend) {
  EXPECT_EQ(std::string(chapoly_backend()), expected_auto());
  EXPECT_EQ(chapoly_select_backend("auto"), CHAPOLY_OK);
  EXPECT_EQ(std::string(chapoly_backend()), expected_auto());
}

TEST_F(Api, SelectBackendRejectsUnknownNamesAndKeepsTheSelection) {
  ASSERT_EQ(chapoly_select_backend("portable"), CHAPOLY_OK);
  EXPECT_EQ(chapoly_select_backend(nullptr), CHAPOLY_ERR_ARG);
  EXPECT_EQ(chapoly_select_backend("bogus"), CHAPOLY_ERR_UNSUPPORTED);
  EXPECT_EQ(chapoly_select_backend(""), CHAPOLY_ERR_UNSUPPORTED);
  EXPECT_EQ(chapoly_select_backend("rvv"), CHAPOLY_ERR_UNSUPPORTED);  // not built on x86-64
  EXPECT_EQ(chapoly_select_backend("none"), CHAPOLY_ERR_UNSUPPORTED);
  EXPECT_EQ(chapoly_select_backend("PORTABLE"), CHAPOLY_ERR_UNSUPPORTED);
  EXPECT_STREQ(chapoly_backend(), "portable");
}

TEST_F(Api, Avx512IsRefusedWhenAnyRequiredFeatureIsMissing) {
  if (chapoly::internal::avx512_backend() == nullptr) {
    EXPECT_EQ(chapoly_select_backend("avx512"), CHAPOLY_ERR_UNSUPPORTED);
    return;
  }
  using namespace chapoly::internal;
  const uint32_t each[] = {kCpuOsxsave, kCpuXcr0Zmm, kCpuAvx512F, kCpuAvx512Vl,
                           kCpuAvx512Bw, kCpuAvx512Ifma, kCpuBmi2};
  for (uint32_t f : each) {
    hide_cpu_features_for_testing(f);
    EXPECT_NE(avx512_missing_feature(), nullptr) << "feature bit " << f;
    EXPECT_EQ(chapoly_select_backend("avx512"), CHAPOLY_ERR_UNSUPPORTED) << "feature bit " << f;
    ASSERT_EQ(chapoly_select_backend("auto"), CHAPOLY_OK);
    EXPECT_EQ(std::string(chapoly_backend()), expected_auto("avx512")) << "feature bit " << f;
  }
  hide_cpu_features_for_testing(0);
  if (const char *missing = avx512_missing_feature()) {
    GTEST_SKIP() << "this CPU/OS lacks " << missing << "; the positive cases cannot run here";
  }
  // With everything else present, the one hidden feature is the one named.
  hide_cpu_features_for_testing(chapoly::internal::kCpuAvx512Ifma);
  EXPECT_NE(std::string(avx512_missing_feature()).find("AVX512IFMA"), std::string::npos);
  hide_cpu_features_for_testing(0);
  EXPECT_EQ(chapoly_select_backend("avx512"), CHAPOLY_OK);
  EXPECT_STREQ(chapoly_backend(), "avx512");
}

TEST_F(Api, EnvironmentVariableChoosesOnFirstUse) {
  first_use_with(nullptr);
  EXPECT_EQ(std::string(chapoly_backend()), expected_auto());
  first_use_with("");
  EXPECT_EQ(std::string(chapoly_backend()), expected_auto());
  first_use_with("auto");
  EXPECT_EQ(std::string(chapoly_backend()), expected_auto());
  first_use_with("portable");
  EXPECT_STREQ(chapoly_backend(), "portable");
  if (expected_auto() == "avx512") {
    first_use_with("avx512");
    EXPECT_STREQ(chapoly_backend(), "avx512");
    // An avx512 request on a CPU without IFMA: an error, never a silent fallback.
    hide_cpu_features_for_testing(chapoly::internal::kCpuAvx512Ifma);
    first_use_with("avx512");
    EXPECT_STREQ(chapoly_backend(), "none");
  }
}

TEST_F(Api, UnusableEnvironmentBackendMakesSealAndOpenFail) {
  for (const char *bad : {"bogus", "rvv", "Portable", "none"}) {
    first_use_with(bad);
    EXPECT_STREQ(chapoly_backend(), "none") << bad;
    uint8_t key[32] = {1}, nonce[12] = {2}, tag[16], pt[40], ct[40];
    std::memset(pt, 0x11, sizeof pt);
    std::memset(ct, 0x22, sizeof ct);
    std::memset(tag, 0x33, sizeof tag);
    EXPECT_EQ(chapoly_seal(ct, tag, pt, sizeof pt, nullptr, 0, nonce, key), CHAPOLY_ERR_UNSUPPORTED);
    EXPECT_EQ(chapoly_open(pt, ct, sizeof ct, tag, nullptr, 0, nonce, key), CHAPOLY_ERR_UNSUPPORTED);
    EXPECT_TRUE(std::all_of(pt, pt + 40, [](uint8_t x) { return x == 0x11; })) << bad;
    EXPECT_TRUE(std::all_of(ct, ct + 40, [](uint8_t x) { return x == 0x22; })) << bad;
    EXPECT_TRUE(std::all_of(tag, tag + 16, [](uint8_t x) { return x == 0x33; })) << bad;
    // An explicit selection clears the error.
    ASSERT_EQ(chapoly_select_backend("portable"), CHAPOLY_OK);
    EXPECT_EQ(chapoly_seal(ct, tag, pt, sizeof pt, nullptr, 0, nonce, key), CHAPOLY_OK);
  }
}

TEST_F(Api, ConcurrentFirstUseAgrees) {
  first_use_with(nullptr);
  uint8_t key[32], nonce[12];
  Rng rng(0x7777);
  rng.fill(key, sizeof key);
  rng.fill(nonce, sizeof nonce);
  Bytes pt = rng.bytes(3000);
  uint8_t want_tag[16];
  Bytes want(pt.size());
  openssl_seal(want.data(), want_tag, pt.data(), pt.size(), nullptr, 0, nonce, key);
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        Bytes ct(pt.size());
        uint8_t tag[16];
        if (chapoly_seal(ct.data(), tag, pt.data(), pt.size(), nullptr, 0, nonce, key) !=
                CHAPOLY_OK ||
            ct != want || std::memcmp(tag, want_tag, 16) != 0) {
          ++bad;
        }
      }
    });
  }
  for (auto &th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(std::string(chapoly_backend()), expected_auto());
}

// Seal/open through the exported functions, once per backend this library has.
class PublicApi : public testing::TestWithParam<const char *> {
 protected:
  void SetUp() override {
    int rc = chapoly_select_backend(GetParam());
    if (rc == CHAPOLY_ERR_UNSUPPORTED) {
      const Backend *b = chapoly::internal::linked_backend(GetParam());
      const char *missing = b != nullptr ? b->missing() : "this backend in this build";
      GTEST_SKIP() << "backend " << GetParam() << " cannot run here: lacks " << missing;
    }
    ASSERT_EQ(rc, CHAPOLY_OK);
    ASSERT_STREQ(chapoly_backend(), GetParam());
  }
  void TearDown() override { chapoly_select_backend("auto"); }
};

TEST_P(PublicApi, MatchesOpenSslAndRejectsForgeries) {
  Rng rng(0xa91);
  for (size_t len : cutoff_lengths()) {
    uint8_t key[32], nonce[12], tag[16], want_tag[16];
    rng.fill(key, sizeof key);
    rng.fill(nonce, sizeof nonce);
    Bytes pt = rng.bytes(len), aad = rng.bytes(len % 21), ct(len), want(len), back(len);
    openssl_seal(want.data(), want_tag, pt.data(), len, aad.data(), aad.size(), nonce, key);
    ASSERT_EQ(chapoly_seal(ct.data(), tag, pt.data(), len, aad.data(), aad.size(), nonce, key),
              CHAPOLY_OK);
    ASSERT_EQ(ct, want) << "len=" << len;
    ASSERT_EQ(to_hex(tag, 16), to_hex(want_tag, 16)) << "len=" << len;
    ASSERT_EQ(chapoly_open(back.data(), ct.data(), len, tag, aad.data(), aad.size(), nonce, key),
              CHAPOLY_OK);
    ASSERT_EQ(back, pt);
    tag[len % 16] ^= 0x40;
    std::fill(back.begin(), back.end(), 0xaa);
    ASSERT_EQ(chapoly_open(back.data(), ct.data(), len, tag, aad.data(), aad.size(), nonce, key),
              CHAPOLY_ERR_AUTH);
    ASSERT_TRUE(std::all_of(back.begin(), back.end(), [](uint8_t x) { return x == 0; }));
    // In place, both ways.
    Bytes buf = pt;
    tag[len % 16] ^= 0x40;
    ASSERT_EQ(chapoly_seal(buf.data(), tag, buf.data(), len, aad.data(), aad.size(), nonce, key),
              CHAPOLY_OK);
    ASSERT_EQ(buf, want);
    ASSERT_EQ(chapoly_open(buf.data(), buf.data(), len, tag, aad.data(), aad.size(), nonce, key),
              CHAPOLY_OK);
    ASSERT_EQ(buf, pt);
  }
}

TEST_P(PublicApi, ErrorsThroughTheExportedEntryPoints) {
  uint8_t key[32] = {0}, nonce[12] = {0}, tag[16] = {0}, buf[64];
  std::memset(buf, 0x5a, sizeof buf);
  const size_t too_long = static_cast<size_t>(CHAPOLY_MAX_LEN + 1);
  EXPECT_EQ(chapoly_seal(buf, tag, buf, too_long, nullptr, 0, nonce, key), CHAPOLY_ERR_TOO_LONG);
  EXPECT_EQ(chapoly_open(buf, buf, too_long, tag, nullptr, 0, nonce, key), CHAPOLY_ERR_TOO_LONG);
  EXPECT_EQ(chapoly_seal(buf, tag, buf, 16, nullptr, 0, nullptr, key), CHAPOLY_ERR_ARG);
  EXPECT_EQ(chapoly_open(buf, buf + 3, 16, tag, nullptr, 0, nonce, key), CHAPOLY_ERR_ARG);
  EXPECT_EQ(chapoly_open(nullptr, buf, 16, tag, nullptr, 0, nonce, key), CHAPOLY_ERR_ARG);
  EXPECT_TRUE(std::all_of(buf, buf + sizeof buf, [](uint8_t x) { return x == 0x5a; }));
}

std::vector<const char *> builtin_names() {
  std::vector<const char *> v = {"portable"};
  size_t n = 0;
  const Backend *const *all = chapoly::internal::kernel_backends(n);
  for (size_t i = 0; i < n; ++i) v.push_back(all[i]->name);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Backends, PublicApi, testing::ValuesIn(builtin_names()),
                         [](const testing::TestParamInfo<const char *> &i) {
                           return std::string(i.param);
                         });

}  // namespace
}  // namespace chapoly::test
