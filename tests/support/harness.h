// support/harness.h: what every suite shares: the table of backends under test (portable, the
// shipped avx512 kernels, every tests/specs variant), OpenSSL as an independent oracle, and a
// seeded random generator so every failure is reproducible.
#ifndef CHAPOLY_TESTS_HARNESS_H
#define CHAPOLY_TESTS_HARNESS_H

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "internal/chapoly_internal.h"
#include "vectors.h"

namespace chapoly::internal {
// Test names and failure messages show a backend by its name, not its address.
inline void PrintTo(const Backend *b, std::ostream *os) { *os << b->name; }
}  // namespace chapoly::internal

namespace chapoly::test {

using chapoly::internal::Backend;

// all_backends lists every backend compiled into the tests, usable here or not: "portable", the
// registry kernels libchapoly links ("avx512", ...), the registry kernels built into the tests
// only ("scalar" while it is not proved), one entry per tests/specs/*.toml variant, then the
// emulated backends (emu_backends()).
std::vector<const Backend *> all_backends();
// variant_backends lists only the tests/specs variants (generated at configure time).
std::vector<const Backend *> variant_backends();
// test_only_backends lists the registry kernels libchapoly does not link (registry entries not
// GATED while CHAPOLY_ALLOW_UNPROVEN_KERNELS is OFF), compiled into the tests only.
std::vector<const Backend *> test_only_backends();
// emu_backends lists the emulated backends (tests/emu/README.md): each AVX-512 kernel of
// all_backends() compiled against a portable implementation of its intrinsics, named
// "<backend>-emu" ("avx512-emu", "avx512_b8_l4-emu", ...); they run on any x86-64 CPU. Empty
// when the build has none (no SIMDe). With CHAPOLY_TEST_EMU_BROKEN set in the environment it
// also lists "avx512-emu-broken", built with a deliberately wrong IFMA hi half, which must fail.
std::vector<const Backend *> emu_backends();
// emu_native_counterpart returns the native backend that `emu` emulates ("avx512" for
// "avx512-emu"), or nullptr when `emu` is not an emulated backend or has none.
const Backend *emu_native_counterpart(const Backend &emu);
// fused_stream makes the streaming family of a test-only AVX-512 build (a tests/specs variant, an
// emulated build): its own seal/open update entries (`seal_update`, `open_update`, reading the
// key-power state of `keys`, whose layout has `key_lanes` lanes) take every run of whole 64-byte
// chunks (bulk_min 64: more runs than the shipped avx512 backend gives its own, which the registry
// starts at STREAM_BULK_MIN or STREAM_SHORT's limit); the AAD, the length block and the Poly1305
// finish go through the portable entries (runtime/src/portable/stream.cpp, same state layout);
// from a message's second text call on, the keystream of short runs and partial blocks is made
// kStreamParkBlocks (8) at a time through `chacha20` (the build's own, as the shipped avx512
// family's STREAM_PARK 8), and runs below 256 bytes take that parked keystream too; the build's
// `mac_update` (its _poly1305_update on the key-power state, the shipped family's STREAM_MAC) MACs
// every run of whole 16-byte blocks, text or AAD (mac_min 16: below the shipped 192, so that
// short runs reach it). `family` names it (stream_family), `missing` and `scrub` are the build's own.
chapoly::internal::StreamKernels fused_stream(const char *family, chapoly::internal::TextUpdateFn seal_update,
                                              chapoly::internal::TextUpdateFn open_update,
                                              chapoly::internal::StreamKeysFn keys, unsigned key_lanes,
                                              chapoly::internal::ChaCha20Fn chacha20,
                                              chapoly::internal::PolyUpdateFn mac_update, const char *(*missing)(),
                                              void (*scrub)());
// backend_param_name makes a gtest parameter name from a backend's name.
std::string backend_param_name(const testing::TestParamInfo<const Backend *> &info);

// BackendTest: base of every suite parameterized over backends. SetUp skips, naming the missing
// CPU feature, when this machine cannot run the backend.
// Restores the short-kernel setting (chapoly::internal::set_short_kernels_for_testing) to "as the
// CPU says" when the test that forced it ends, also when an ASSERT returns early.
struct ShortKernelsReset {
  ShortKernelsReset() = default;
  ShortKernelsReset(const ShortKernelsReset &) = delete;
  ShortKernelsReset &operator=(const ShortKernelsReset &) = delete;
  ~ShortKernelsReset() { chapoly::internal::set_short_kernels_for_testing(-1); }
};

class BackendTest : public testing::TestWithParam<const Backend *> {
 protected:
  void SetUp() override;
  const Backend &b() const { return *GetParam(); }
};

// Rng: splitmix64, seeded per test so a failure names what to rerun.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next();
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
  void fill(uint8_t *p, size_t n);
  Bytes bytes(size_t n) {
    Bytes b(n);
    fill(b.data(), n);
    return b;
  }

 private:
  uint64_t state_;
};

// OpenSSL EVP_chacha20_poly1305 seal: ct (len bytes) and the 16-byte tag.
void openssl_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len, const uint8_t *aad,
                  size_t aad_len, const uint8_t nonce[12], const uint8_t key[32]);
// OpenSSL EVP_chacha20_poly1305 open; returns true when OpenSSL accepts the tag.
bool openssl_open(uint8_t *pt, const uint8_t *ct, size_t len, const uint8_t tag[16],
                  const uint8_t *aad, size_t aad_len, const uint8_t nonce[12],
                  const uint8_t key[32]);
// OpenSSL EVP_MAC "POLY1305", key = r || s.
void openssl_poly1305(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32]);
// OpenSSL EVP_chacha20 with a 32-bit block counter (must not wrap within the message).
void openssl_chacha20(uint8_t *out, const uint8_t *in, size_t len, const uint8_t nonce[12],
                      const uint8_t key[32], uint32_t counter);

// The oracle of the suites that also run in the riscv64 guest (test_stream.cpp): OpenSSL's EVP
// on the host (harness.cpp, the functions above); in the guest, which has no OpenSSL, the
// portable reference (tests/riscv/guest_harness.cpp), itself checked there against the host's
// OpenSSL answers (OpenSslAnswers.*). Same shapes as openssl_seal and openssl_chacha20.
void oracle_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len, const uint8_t *aad,
                 size_t aad_len, const uint8_t nonce[12], const uint8_t key[32]);
void oracle_chacha20(uint8_t *out, const uint8_t *in, size_t len, const uint8_t nonce[12],
                     const uint8_t key[32], uint32_t counter);

// The lengths around every kernel cutoff (short kernel, 4-block vectors, 8/16-block bulk loops,
// chunk boundaries), then multiples of 1024 +- 1 up to 16 KiB.
std::vector<size_t> cutoff_lengths();
// The AAD lengths every AEAD sweep uses.
const std::vector<size_t> &aad_lengths();

}  // namespace chapoly::test

#endif  // CHAPOLY_TESTS_HARNESS_H
