// test_consttime.cpp: the ctgrind check (issue 10, item 5; tests/ct/README.md). Under valgrind's
// memcheck, the key, the plaintext and the tag given to open are marked undefined
// (VALGRIND_MAKE_MEM_UNDEFINED); memcheck then tracks every value computed from them (the
// one-time Poly1305 key, the keystream, the HChaCha20 subkey, the MAC state, the computed tag)
// and reports any conditional jump or memory address that depends on one. ctest's ct.valgrind.*
// tests run these cases under valgrind with --error-exitcode, one backend each, so any such report
// fails. The only declassified value is open's accept/reject verdict (chapoly::internal::declassify),
// which the return value makes public anyway.
//
// Outside valgrind these cases skip (the normal gtest runs exclude them). valgrind 3.19 does not
// emulate AVX-512 (its CPUID hides AVX512F), so the native AVX-512 backends skip under it, naming
// that; their emulated twins (<backend>-emu: the same kernel text compiled against SIMDe) are
// checked instead.
#include <algorithm>
#include <cstring>
#include <string>

#include <chapoly/chapoly.h>

#include "support/harness.h"

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define CHAPOLY_TEST_HAVE_MEMCHECK 1
#endif
#endif

namespace chapoly::test {
namespace {

using chapoly::internal::open_with;
using chapoly::internal::seal_with;
using chapoly::internal::xopen_with;
using chapoly::internal::xseal_with;

#ifdef CHAPOLY_TEST_HAVE_MEMCHECK
bool under_memcheck() { return RUNNING_ON_VALGRIND != 0; }
void secret(void *p, size_t n) { (void)VALGRIND_MAKE_MEM_UNDEFINED(p, n); }
void make_public(void *p, size_t n) { (void)VALGRIND_MAKE_MEM_DEFINED(p, n); }
#else
bool under_memcheck() { return false; }
void secret(void *, size_t) {}
void make_public(void *, size_t) {}
#endif

// Lengths that take every path of every kernel: empty, partial blocks, the short path and its
// cutoffs (256, 448, 512), one and two bulk chunks (1024 bytes = 16 blocks) and a tail.
const size_t kLengths[] = {0, 1, 15, 16, 17, 63, 64, 65, 127, 129, 255, 256, 257,
                           447, 448, 449, 511, 512, 513, 1023, 1024, 1025, 2048 + 17};

class ConstantTime : public testing::TestWithParam<const Backend *> {
 protected:
  void SetUp() override {
    if (!under_memcheck()) {
      GTEST_SKIP() << "the ctgrind check only means something under valgrind's memcheck "
                      "(ctest -R ct.valgrind runs it there)";
    }
    if (const char *missing = b().missing()) {
      if (std::string(b().name).rfind("avx512", 0) == 0) {
        GTEST_SKIP() << "valgrind does not emulate AVX-512 (under it the CPU lacks " << missing
                     << "): backend " << b().name << " cannot be checked; its emulated twin "
                     << b().name << "-emu (same kernel source on SIMDe) is checked instead";
      }
      GTEST_SKIP() << "backend " << b().name << " cannot run here: the CPU/OS lacks " << missing;
    }
  }
  const Backend &b() const { return *GetParam(); }
};

TEST_P(ConstantTime, SealOpenXSealXOpenKernelEntryPoints) {
  Rng rng(0xc7c7);
  for (size_t len : kLengths) {
    uint8_t key[32], nonce[24], tag[16], want_tag[16], xtag[16], want_xtag[16];
    rng.fill(key, sizeof key);
    rng.fill(nonce, sizeof nonce);
    Bytes pt = rng.bytes(len), aad = rng.bytes(len % 19), ct(len), want(len), xct(len),
          xwant(len), back(len);
    // The reference, on defined data (the portable backend: a separate computation).
    const Backend &ref = chapoly::internal::portable_backend();
    ASSERT_EQ(seal_with(ref, want.data(), want_tag, pt.data(), len, aad.data(), aad.size(), nonce,
                        key),
              CHAPOLY_OK);
    ASSERT_EQ(xseal_with(ref, xwant.data(), want_xtag, pt.data(), len, aad.data(), aad.size(),
                         nonce, key),
              CHAPOLY_OK);

    // seal: key and plaintext secret.
    secret(key, sizeof key);
    secret(pt.data(), len);
    int rc = seal_with(b(), ct.data(), tag, pt.data(), len, aad.data(), aad.size(), nonce, key);
    int xrc = xseal_with(b(), xct.data(), xtag, pt.data(), len, aad.data(), aad.size(), nonce, key);
    make_public(ct.data(), len);
    make_public(tag, 16);
    make_public(xct.data(), len);
    make_public(xtag, 16);
    make_public(pt.data(), len);  // compared below
    ASSERT_EQ(rc, CHAPOLY_OK);
    ASSERT_EQ(xrc, CHAPOLY_OK);
    ASSERT_EQ(ct, want) << b().name << " len=" << len;
    ASSERT_EQ(to_hex(tag, 16), to_hex(want_tag, 16)) << b().name << " len=" << len;
    ASSERT_EQ(xct, xwant) << b().name << " len=" << len;
    ASSERT_EQ(to_hex(xtag, 16), to_hex(want_xtag, 16)) << b().name << " len=" << len;

    // open with the right tag and with a wrong one: key and the given tag secret (the comparison
    // must not branch on them); the ciphertext is public.
    for (int wrong = 0; wrong < 2; ++wrong) {
      uint8_t t[16], xt[16];
      std::memcpy(t, tag, 16);
      std::memcpy(xt, xtag, 16);
      if (wrong) {
        t[15] ^= 1;
        xt[0] ^= 0x80;
      }
      secret(key, sizeof key);
      secret(t, 16);
      secret(xt, 16);
      rc = open_with(b(), back.data(), ct.data(), len, t, aad.data(), aad.size(), nonce, key);
      make_public(back.data(), len);
      ASSERT_EQ(rc, wrong ? CHAPOLY_ERR_AUTH : CHAPOLY_OK) << b().name << " len=" << len;
      ASSERT_EQ(back, wrong ? Bytes(len, 0) : pt) << b().name << " len=" << len;
      xrc = xopen_with(b(), back.data(), xct.data(), len, xt, aad.data(), aad.size(), nonce, key);
      make_public(back.data(), len);
      ASSERT_EQ(xrc, wrong ? CHAPOLY_ERR_AUTH : CHAPOLY_OK) << b().name << " len=" << len;
      ASSERT_EQ(back, wrong ? Bytes(len, 0) : pt) << b().name << " len=" << len;
    }
    make_public(key, sizeof key);

    // The raw Poly1305 and ChaCha20 entry points: the one-time key and the message secret.
    uint8_t otk[32], mac[16], want_mac[16];
    rng.fill(otk, sizeof otk);
    chapoly::internal::poly1305(want_mac, pt.data(), len, otk);
    secret(otk, sizeof otk);
    secret(pt.data(), len);
    b().poly1305(mac, pt.data(), len, otk);
    make_public(mac, 16);
    ASSERT_EQ(to_hex(mac, 16), to_hex(want_mac, 16)) << b().name << " len=" << len;
    secret(key, sizeof key);
    b().chacha20(back.data(), pt.data(), len, nonce, key, 7);
    if (b().scrub != nullptr) b().scrub();
    make_public(back.data(), len);
    make_public(pt.data(), len);
    make_public(key, sizeof key);
    Bytes ks(len);
    chapoly::internal::chacha20_xor(ks.data(), pt.data(), len, nonce, key, 7);
    ASSERT_EQ(back, ks) << b().name << " len=" << len;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, ConstantTime, testing::ValuesIn(all_backends()),
                         backend_param_name);

// Controls: the check must see a leak. Each does one thing that a constant-time implementation
// must not; ct.valgrind.control_* expect memcheck's report (these pass as gtest cases; the report
// is what ctest looks for).
class ConstantTimeControl : public testing::Test {
 protected:
  void SetUp() override {
    if (!under_memcheck()) GTEST_SKIP() << "only meaningful under valgrind's memcheck";
  }
};

// An early-exit tag comparison (what memcmp does).
__attribute__((noinline)) int leaky_compare(const uint8_t *a, const uint8_t *b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return 0;
  }
  return 1;
}

TEST_F(ConstantTimeControl, EarlyExitCompareIsReported) {
  uint8_t a[16] = {1, 2, 3}, b[16] = {1, 2, 4};
  secret(a, sizeof a);
  volatile int r = leaky_compare(a, b, 16);
  (void)r;
  make_public(a, sizeof a);
}

// A table lookup indexed by a secret byte (an S-box).
TEST_F(ConstantTimeControl, SecretIndexIsReported) {
  static const uint8_t table[256] = {7};
  uint8_t k[1] = {42};
  secret(k, sizeof k);
  volatile uint8_t r = table[*static_cast<volatile uint8_t *>(k)];
  (void)r;
  make_public(k, sizeof k);
}

}  // namespace
}  // namespace chapoly::test
