// test_hygiene.cpp: after seal/open return, no copy of the key or of the one-time Poly1305 key is
// left on the stack below the caller or in the vector registers (chapoly.h, runtime/README.md).
//
// Method: run seal and open on a new thread whose vector registers are cleared first (its stack
// is fresh or recycled; either way only calls with this test's random key can leave its words),
// then read the registers and the 128 KiB of stack below the
// caller's depth and look for 8-byte windows of secret 32-bit words in the two layouts the
// kernels use: adjacent words (scalar code, 4 blocks per zmm) and one word repeated (word-sliced
// and broadcast vectors). Random 8-byte windows match by chance with probability ~2^-64 each.
#include <algorithm>
#include <array>
#include <cstring>
#include <set>
#include <string>
#include <thread>

#include <chapoly/chapoly.h>

#include "support/harness.h"

namespace chapoly::test {
namespace {

using Window = std::array<uint8_t, 8>;

// The secret windows of a key or one-time key (32 bytes = eight 32-bit words).
void add_windows(std::set<Window> &out, const uint8_t secret[32]) {
  for (int i = 0; i < 8; ++i) {
    Window w;
    std::memcpy(w.data(), secret + 4 * i, 4);
    std::memcpy(w.data() + 4, secret + 4 * i, 4);  // word repeated (broadcast, word-sliced)
    out.insert(w);
    if (i < 7) {
      std::memcpy(w.data() + 4, secret + 4 * i + 4, 4);  // adjacent words
      out.insert(w);
    }
  }
}

size_t count_hits(const uint8_t *p, size_t n, const std::set<Window> &secrets) {
  size_t hits = 0;
  for (size_t i = 0; i + 8 <= n; i += 4) {
    Window w;
    std::memcpy(w.data(), p + i, 8);
    hits += secrets.count(w);
  }
  return hits;
}

// Snapshot of the vector registers, taken right after the call returns.
struct Registers {
  alignas(64) uint8_t bytes[32 * 64];
  size_t size = 0;
};

#if defined(__x86_64__)
__attribute__((target("avx512f"), noinline)) void capture_zmm(Registers &r) {
  __asm__ __volatile__(
      "vmovdqu64 %%zmm0, 0(%0)\n\t"     "vmovdqu64 %%zmm1, 64(%0)\n\t"
      "vmovdqu64 %%zmm2, 128(%0)\n\t"   "vmovdqu64 %%zmm3, 192(%0)\n\t"
      "vmovdqu64 %%zmm4, 256(%0)\n\t"   "vmovdqu64 %%zmm5, 320(%0)\n\t"
      "vmovdqu64 %%zmm6, 384(%0)\n\t"   "vmovdqu64 %%zmm7, 448(%0)\n\t"
      "vmovdqu64 %%zmm8, 512(%0)\n\t"   "vmovdqu64 %%zmm9, 576(%0)\n\t"
      "vmovdqu64 %%zmm10, 640(%0)\n\t"  "vmovdqu64 %%zmm11, 704(%0)\n\t"
      "vmovdqu64 %%zmm12, 768(%0)\n\t"  "vmovdqu64 %%zmm13, 832(%0)\n\t"
      "vmovdqu64 %%zmm14, 896(%0)\n\t"  "vmovdqu64 %%zmm15, 960(%0)\n\t"
      "vmovdqu64 %%zmm16, 1024(%0)\n\t" "vmovdqu64 %%zmm17, 1088(%0)\n\t"
      "vmovdqu64 %%zmm18, 1152(%0)\n\t" "vmovdqu64 %%zmm19, 1216(%0)\n\t"
      "vmovdqu64 %%zmm20, 1280(%0)\n\t" "vmovdqu64 %%zmm21, 1344(%0)\n\t"
      "vmovdqu64 %%zmm22, 1408(%0)\n\t" "vmovdqu64 %%zmm23, 1472(%0)\n\t"
      "vmovdqu64 %%zmm24, 1536(%0)\n\t" "vmovdqu64 %%zmm25, 1600(%0)\n\t"
      "vmovdqu64 %%zmm26, 1664(%0)\n\t" "vmovdqu64 %%zmm27, 1728(%0)\n\t"
      "vmovdqu64 %%zmm28, 1792(%0)\n\t" "vmovdqu64 %%zmm29, 1856(%0)\n\t"
      "vmovdqu64 %%zmm30, 1920(%0)\n\t" "vmovdqu64 %%zmm31, 1984(%0)\n\t"
      :
      : "r"(r.bytes)
      : "memory");
  r.size = 32 * 64;
}

__attribute__((noinline)) void capture_xmm(Registers &r) {
  __asm__ __volatile__(
      "movdqu %%xmm0, 0(%0)\n\t"    "movdqu %%xmm1, 16(%0)\n\t"   "movdqu %%xmm2, 32(%0)\n\t"
      "movdqu %%xmm3, 48(%0)\n\t"   "movdqu %%xmm4, 64(%0)\n\t"   "movdqu %%xmm5, 80(%0)\n\t"
      "movdqu %%xmm6, 96(%0)\n\t"   "movdqu %%xmm7, 112(%0)\n\t"  "movdqu %%xmm8, 128(%0)\n\t"
      "movdqu %%xmm9, 144(%0)\n\t"  "movdqu %%xmm10, 160(%0)\n\t" "movdqu %%xmm11, 176(%0)\n\t"
      "movdqu %%xmm12, 192(%0)\n\t" "movdqu %%xmm13, 208(%0)\n\t" "movdqu %%xmm14, 224(%0)\n\t"
      "movdqu %%xmm15, 240(%0)\n\t"
      :
      : "r"(r.bytes)
      : "memory");
  r.size = 16 * 16;
}
#else
// Other ISAs: no register snapshot yet (the stack is still checked).
void capture_zmm(Registers &r) { r.size = 0; }
void capture_xmm(Registers &r) { r.size = 0; }
#endif

// Copies the `depth` bytes of stack below this function's frame into `out` (no calls, so
// nothing of ours lands there first).
__attribute__((noinline)) void copy_stack_below(uint8_t *out, size_t depth) {
  const volatile uint8_t *src =
      static_cast<const volatile uint8_t *>(__builtin_frame_address(0)) - depth;
  for (size_t i = 0; i < depth; ++i) out[i] = src[i];
}

// Deeper than the burn, so a kernel frame that outgrew it is caught.
const size_t kScanDepth = std::max<size_t>(128 * 1024, 2 * chapoly::internal::stack_burn_bytes());

// Everything a probe needs, allocated before the call so the probe itself calls nothing.
struct Probe {
  Registers regs;
  Bytes stack = Bytes(kScanDepth);
};

// One seal, open, xseal or xopen, then the snapshot from the same frame depth. Runs on a fresh
// thread. `nonce` is 24 bytes for the X calls (their first 12 for the others).
enum class Call { kSeal, kOpen, kXSeal, kXOpen };
__attribute__((noinline)) int call_then_snapshot(Call call, const Backend *b, Probe *probe,
                                                 bool zmm, const uint8_t *key,
                                                 const uint8_t *nonce, uint8_t *out,
                                                 const uint8_t *in, size_t len, uint8_t *tag) {
  using namespace chapoly::internal;
  int rc = call == Call::kSeal    ? seal_with(*b, out, tag, in, len, nullptr, 0, nonce, key)
           : call == Call::kOpen  ? open_with(*b, out, in, len, tag, nullptr, 0, nonce, key)
           : call == Call::kXSeal ? xseal_with(*b, out, tag, in, len, nullptr, 0, nonce, key)
                                  : xopen_with(*b, out, in, len, tag, nullptr, 0, nonce, key);
  if (zmm) {
    capture_zmm(probe->regs);
  } else {
    capture_xmm(probe->regs);
  }
  copy_stack_below(probe->stack.data(), kScanDepth);
  return rc;
}

// The keystream's windows: 8 consecutive bytes at every 4-byte step (serialised blocks, scalar
// code), and word j of block k next to word j of block k + 1 (word-sliced vectors).
void add_keystream_windows(std::set<Window> &out, const Bytes &ks) {
  for (size_t i = 0; i + 8 <= ks.size(); i += 4) {
    Window w;
    std::memcpy(w.data(), ks.data() + i, 8);
    out.insert(w);
  }
  for (size_t k = 0; 64 * (k + 2) <= ks.size(); ++k) {
    for (size_t j = 0; j < 16; ++j) {
      Window w;
      std::memcpy(w.data(), ks.data() + 64 * k + 4 * j, 4);
      std::memcpy(w.data() + 4, ks.data() + 64 * (k + 1) + 4 * j, 4);
      out.insert(w);
    }
  }
}

class Hygiene : public BackendTest {};

// For ChaCha20-Poly1305 and XChaCha20-Poly1305: no window of the key, the one-time Poly1305 key,
// the XChaCha20 subkey or the keystream is left in the vector registers or on the stack below the
// caller after seal or open returns.
TEST_P(Hygiene, NoKeyOneTimeKeyOrKeystreamLeftOnStackOrInRegisters) {
  ShortKernelsReset reset;
  Rng rng(0x41e7);
  // zmm0-31 are only inspected (and cleared first) where this build has the AVX-512 code.
  const bool zmm = CHAPOLY_TEST_HAVE_AVX512 && chapoly::internal::avx512_missing_feature() == nullptr;
  for (bool x : {false, true}) {
    uint8_t key[32], nonce[24], otk[32], subkey[32], tag[16];
    rng.fill(key, sizeof key);
    rng.fill(nonce, sizeof nonce);
    std::set<Window> secrets;
    add_windows(secrets, key);
    if (x) {
      // draft-irtf-cfrg-xchacha: the kernel runs on the subkey and nonce 0^4 || nonce[16..24).
      uint8_t nonce12[12] = {0};
      std::memcpy(nonce12 + 4, nonce + 16, 8);
      chapoly::internal::hchacha20(subkey, key, nonce);
      add_windows(secrets, subkey);
      chapoly::internal::poly1305_key_gen(otk, subkey, nonce12);
    } else {
      chapoly::internal::poly1305_key_gen(otk, key, nonce);
    }
    add_windows(secrets, otk);
    // Each length with the backend's own kernels and with its short kernels forced on (another
    // family, with its own, smaller stack depth: Backend::short_kernels), 5 and 100 bytes
    // reaching each of avx512's two short families.
    for (auto [len, mode] : {std::pair{size_t{5}, 0}, std::pair{size_t{5}, 1}, std::pair{size_t{100}, 0},
                             std::pair{size_t{100}, 1}, std::pair{size_t{300}, -1},
                             std::pair{size_t{4096 + 17}, -1}}) {
      chapoly::internal::set_short_kernels_for_testing(mode);
      Bytes pt = rng.bytes(len), ct(len), back(len);
      Probe after_seal, after_open;
      int seal_rc = -100, open_rc = -100;
      std::thread([&] {
        // A new thread inherits the vector registers of its parent, which handled the secrets
        // above: start from clean registers so that only the calls under test can leave any.
#if CHAPOLY_TEST_HAVE_AVX512
        if (zmm) chapoly::internal::scrub_avx512_registers();
#endif
        chapoly::internal::scrub_sse_registers();
        seal_rc = call_then_snapshot(x ? Call::kXSeal : Call::kSeal, &b(), &after_seal, zmm, key,
                                     nonce, ct.data(), pt.data(), len, tag);
        open_rc = call_then_snapshot(x ? Call::kXOpen : Call::kOpen, &b(), &after_open, zmm, key,
                                     nonce, back.data(), ct.data(), len, tag);
      }).join();
      ASSERT_EQ(seal_rc, CHAPOLY_OK);
      ASSERT_EQ(open_rc, CHAPOLY_OK);
      ASSERT_EQ(back, pt);
      // The keystream is ct XOR pt.
      Bytes ks(len);
      for (size_t i = 0; i < len; ++i) ks[i] = static_cast<uint8_t>(ct[i] ^ pt[i]);
      std::set<Window> stream;
      add_keystream_windows(stream, ks);
      const char *regs = zmm ? "zmm" : "xmm";
      const char *aead = x ? "xchacha" : "chacha";
      for (auto [what, p] : {std::pair{"seal", &after_seal}, std::pair{"open", &after_open}}) {
        EXPECT_EQ(count_hits(p->regs.bytes, p->regs.size, secrets), 0u)
            << b().name << " " << aead << " " << what << " len=" << len << " short mode " << mode << ": key words in "
            << regs << " registers after the call";
        EXPECT_EQ(count_hits(p->stack.data(), p->stack.size(), secrets), 0u)
            << b().name << " " << aead << " " << what << " len=" << len << " short mode " << mode
            << ": key words on the stack below the caller";
        EXPECT_EQ(count_hits(p->regs.bytes, p->regs.size, stream), 0u)
            << b().name << " " << aead << " " << what << " len=" << len << " short mode " << mode << ": keystream in "
            << regs << " registers after the call";
        EXPECT_EQ(count_hits(p->stack.data(), p->stack.size(), stream), 0u)
            << b().name << " " << aead << " " << what << " len=" << len << " short mode " << mode
            << ": keystream on the stack below the caller";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, Hygiene, testing::ValuesIn(all_backends()), backend_param_name);

// A caller-owned context is wiped by its final call: the portable incremental Poly1305 state
// (r, s, the accumulator, the pending partial block) reads all zero after poly1305_final, read
// through the caller's own memory.
TEST(HygieneContext, Poly1305StateIsZeroAfterFinal) {
  Rng rng(0x9051);
  for (size_t len : {size_t{0}, size_t{7}, size_t{16}, size_t{100}}) {
    uint8_t key[32], tag[16], want[16];
    rng.fill(key, sizeof key);
    Bytes msg = rng.bytes(len);
    chapoly::internal::Poly1305State st;
    std::memset(&st, 0xa5, sizeof st);
    chapoly::internal::poly1305_init(st, key);
    chapoly::internal::poly1305_update(st, msg.data(), msg.size());
    chapoly::internal::poly1305_final(st, tag);
    chapoly::internal::poly1305(want, msg.data(), msg.size(), key);
    EXPECT_EQ(to_hex(tag, 16), to_hex(want, 16));
    const auto *raw = reinterpret_cast<const uint8_t *>(&st);
    size_t nonzero = 0;
    for (size_t i = 0; i < sizeof st; ++i) nonzero += raw[i] != 0;
    EXPECT_EQ(nonzero, 0u) << "len=" << len << ": poly1305_final left " << nonzero
                           << " nonzero bytes of the state";
  }
}

}  // namespace
}  // namespace chapoly::test
