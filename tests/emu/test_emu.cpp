// test_emu.cpp: the emulated backends (tests/emu/README.md) against the native backends they
// emulate, where this CPU runs both; and the check that every AVX-512 backend has an emulated
// twin, so that every kernel's logic is tested on any x86-64 CPU.
#include <cstring>
#include <string>

#include <chapoly/chapoly.h>

#include "support/harness.h"

namespace chapoly::test {
namespace {

using chapoly::internal::open_with;
using chapoly::internal::seal_with;

bool is_emulated(const Backend *b) {
  for (const Backend *e : emu_backends()) {
    if (e == b) return true;
  }
  return false;
}

// Every backend other than portable that the build compiles (the shipped avx512 kernels and each
// tests/specs variant) has an emulated twin; the test's output lists what runs natively here and
// what only emulated.
TEST(EmuBackends, EveryNativeKernelHasAnEmulatedTwin) {
  if (emu_backends().empty()) {
    GTEST_SKIP() << "this build has no emulated backends (SIMDe, Debian libsimde-dev, not found, "
                    "or CHAPOLY_TEST_EMULATED=OFF as in the asan preset)";
  }
  std::string native_here, emulated_only;
  for (const Backend *b : all_backends()) {
    if (is_emulated(b) || b == &chapoly::internal::portable_backend()) continue;
    // The emulated build covers the AVX-512 families (SIMDe + the IFMA shim): the shipped kernel
    // and every tests/specs variant. `scalar` uses no intrinsics; `avx2` is not emulated (yet).
    if (std::string(b->name).rfind("avx512", 0) != 0) continue;
    const Backend *twin = nullptr;
    for (const Backend *e : emu_backends()) {
      if (emu_native_counterpart(*e) == b) twin = e;
    }
    EXPECT_TRUE(twin != nullptr) << "backend " << b->name << " has no emulated twin";
    if (twin == nullptr) continue;
    (b->missing() == nullptr ? native_here : emulated_only) += std::string(" ") + b->name;
  }
  std::printf("native and emulated here:%s\nemulated only (the CPU lacks the ISA):%s\n",
              native_here.empty() ? " none" : native_here.c_str(),
              emulated_only.empty() ? " none" : emulated_only.c_str());
}

class EmuAgreement : public testing::TestWithParam<const Backend *> {
 protected:
  void SetUp() override {
    native_ = emu_native_counterpart(*GetParam());
    if (native_ == nullptr) GTEST_SKIP() << GetParam()->name << " emulates no backend of this build";
    if (const char *missing = native_->missing()) {
      GTEST_SKIP() << "native backend " << native_->name << " cannot run here: the CPU/OS lacks "
                   << missing << " (" << GetParam()->name << " runs the suites alone)";
    }
  }
  const Backend *native_ = nullptr;
};

// Seal, open, Poly1305 and ChaCha20 of the emulated and the native kernels agree byte for byte at
// every length 0..1100 and around the bulk and chunk sizes, with random AAD lengths and counters.
TEST_P(EmuAgreement, SameBytesAsTheNativeKernels) {
  const Backend &emu = *GetParam(), &nat = *native_;
  Rng rng(0xe3a9);
  std::vector<size_t> lens;
  for (size_t len = 0; len <= 1100; ++len) lens.push_back(len);
  for (size_t len : {2047, 2048, 2049, 4095, 4096, 4097, 16385, 65537}) lens.push_back(len);
  for (size_t len : lens) {
    uint8_t key[32], nonce[12], t_emu[16], t_nat[16];
    rng.fill(key, sizeof key);
    rng.fill(nonce, sizeof nonce);
    Bytes pt = rng.bytes(len), aad = rng.bytes(rng.below(80)), c_emu(len), c_nat(len);
    ASSERT_EQ(seal_with(emu, c_emu.data(), t_emu, pt.data(), len, aad.data(), aad.size(), nonce, key), CHAPOLY_OK);
    ASSERT_EQ(seal_with(nat, c_nat.data(), t_nat, pt.data(), len, aad.data(), aad.size(), nonce, key), CHAPOLY_OK);
    ASSERT_EQ(c_emu, c_nat) << emu.name << " vs " << nat.name << " len=" << len << ": ciphertext";
    ASSERT_EQ(to_hex(t_emu, 16), to_hex(t_nat, 16)) << emu.name << " vs " << nat.name << " len=" << len << ": tag";
    Bytes p_emu(len), p_nat(len);
    emu.open(p_emu.data(), t_emu, c_emu.data(), len, aad.data(), aad.size(), nonce, key);
    nat.open(p_nat.data(), t_nat, c_nat.data(), len, aad.data(), aad.size(), nonce, key);
    ASSERT_EQ(p_emu, p_nat) << "open len=" << len;
    ASSERT_EQ(to_hex(t_emu, 16), to_hex(t_nat, 16)) << "open tag len=" << len;
    emu.poly1305(t_emu, pt.data(), len, key);
    nat.poly1305(t_nat, pt.data(), len, key);
    ASSERT_EQ(to_hex(t_emu, 16), to_hex(t_nat, 16)) << "poly1305 len=" << len;
    const uint32_t counter = static_cast<uint32_t>(rng.next()) & 0x7fffffffu;
    emu.chacha20(c_emu.data(), pt.data(), len, nonce, key, counter);
    nat.chacha20(c_nat.data(), pt.data(), len, nonce, key, counter);
    ASSERT_EQ(c_emu, c_nat) << "chacha20 len=" << len << " counter=" << counter;
  }
}

INSTANTIATE_TEST_SUITE_P(Emulated, EmuAgreement, testing::ValuesIn(emu_backends()), backend_param_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(EmuAgreement);

}  // namespace
}  // namespace chapoly::test
