// shim_test.cpp: every function of the emulation shim (chapoly_emu_shim.h) against the real
// instruction on random and edge inputs, where this CPU has it (GTEST_SKIP naming the missing
// feature otherwise); and the masked loads/stores against a guard page, on any CPU.
//
// Compiled for baseline x86-64: only the real_* functions carry a target attribute, and they run
// after has() found their features (CPUID and, for AVX-512, the OS's ZMM state: libgcc's
// __builtin_cpu_supports checks XGETBV).
#include <immintrin.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <initializer_list>
#include <utility>
#include <string>

#include "emu/chapoly_emu_shim.h"
#include "support/harness.h"

namespace chapoly::test {
namespace {

#define ISA_IFMA __attribute__((target("avx512f,avx512ifma")))
#define ISA_IFMA_VL __attribute__((target("avx512f,avx512ifma,avx512vl")))
#define ISA_F512 __attribute__((target("avx512f")))
#define ISA_F_VL __attribute__((target("avx512f,avx512vl")))
#define ISA_BW __attribute__((target("avx512f,avx512bw")))
#define ISA_BW_VL __attribute__((target("avx512f,avx512bw,avx512vl")))
#define ISA_BMI2 __attribute__((target("bmi2")))

// The first of `features` this CPU (and OS) lacks, upper case as in the manuals; "" if none.
std::string lacks(std::initializer_list<const char *> features) {
  for (const char *f : features) {
    const std::string s = f;
    const bool ok = s == "avx512f"      ? __builtin_cpu_supports("avx512f")
                    : s == "avx512vl"   ? __builtin_cpu_supports("avx512vl")
                    : s == "avx512bw"   ? __builtin_cpu_supports("avx512bw")
                    : s == "avx512ifma" ? __builtin_cpu_supports("avx512ifma")
                    : s == "bmi2"       ? __builtin_cpu_supports("bmi2")
                                        : false;
    if (!ok) {
      std::string up = s;
      for (char &c : up) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
      return up;
    }
  }
  return "";
}

#define REQUIRE_CPU(...)                                                                         \
  do {                                                                                           \
    const std::string missing_ = lacks({__VA_ARGS__});                                           \
    if (!missing_.empty()) GTEST_SKIP() << "CPU lacks " << missing_ << ", needed by the real instruction"; \
  } while (0)

// 64 bytes of input: random words, with edge values of 52-bit and 64-bit arithmetic mixed in.
struct V64 {
  alignas(64) uint8_t b[64];
};
V64 input(Rng &rng) {
  static const uint64_t edges[] = {0, 1, (1ull << 52) - 1, 1ull << 52, (1ull << 44) - 1, 1ull << 63,
                                   ~0ull, 0x000fffffffffffffull, 0xfff0000000000000ull};
  V64 v;
  for (int i = 0; i < 8; ++i) {
    uint64_t w = rng.next();
    switch (rng.below(4)) {
      case 0: w = edges[rng.below(sizeof edges / sizeof edges[0])]; break;
      case 1: w &= (1ull << 52) - 1; break;
      default: break;
    }
    std::memcpy(v.b + 8 * i, &w, 8);
  }
  return v;
}
template <typename T>
T from(const V64 &v) {
  T t;
  std::memcpy(&t, v.b, sizeof t);
  return t;
}
template <typename T>
V64 to(const T &t) {
  V64 v{};
  std::memcpy(v.b, &t, sizeof t);
  return v;
}
std::string hex(const V64 &v, size_t n) { return to_hex(v.b, n); }

const int kIters = 20000;

// --- the real instructions --------------------------------------------------------------------
ISA_IFMA V64 real_madd52lo_512(const V64 &a, const V64 &b, const V64 &c) {
  return to(_mm512_madd52lo_epu64(_mm512_loadu_si512(a.b), _mm512_loadu_si512(b.b), _mm512_loadu_si512(c.b)));
}
ISA_IFMA V64 real_madd52hi_512(const V64 &a, const V64 &b, const V64 &c) {
  return to(_mm512_madd52hi_epu64(_mm512_loadu_si512(a.b), _mm512_loadu_si512(b.b), _mm512_loadu_si512(c.b)));
}
ISA_IFMA_VL V64 real_madd52lo_256(const V64 &a, const V64 &b, const V64 &c) {
  return to(_mm256_madd52lo_epu64(_mm256_loadu_si256((const __m256i *)a.b), _mm256_loadu_si256((const __m256i *)b.b),
                                  _mm256_loadu_si256((const __m256i *)c.b)));
}
ISA_IFMA_VL V64 real_madd52hi_256(const V64 &a, const V64 &b, const V64 &c) {
  return to(_mm256_madd52hi_epu64(_mm256_loadu_si256((const __m256i *)a.b), _mm256_loadu_si256((const __m256i *)b.b),
                                  _mm256_loadu_si256((const __m256i *)c.b)));
}
ISA_BW V64 real_maskz_loadu_epi8_512(uint64_t k, const void *p) { return to(_mm512_maskz_loadu_epi8(k, p)); }
ISA_BW_VL V64 real_maskz_loadu_epi8_256(uint32_t k, const void *p) { return to(_mm256_maskz_loadu_epi8(k, p)); }
ISA_BW_VL V64 real_maskz_loadu_epi8_128(uint16_t k, const void *p) { return to(_mm_maskz_loadu_epi8(k, p)); }
ISA_BW void real_mask_storeu_epi8_512(void *p, uint64_t k, const V64 &a) {
  _mm512_mask_storeu_epi8(p, k, _mm512_loadu_si512(a.b));
}
ISA_BW_VL V64 real_maskz_set1_epi8_256(uint32_t k, char v) { return to(_mm256_maskz_set1_epi8(k, v)); }
ISA_F_VL V64 real_maskz_set1_epi64_256(uint8_t k, long long v) { return to(_mm256_maskz_set1_epi64(k, v)); }
template <int I>
ISA_F512 V64 real_shuffle_epi32(const V64 &a) {
  return to(_mm512_shuffle_epi32(_mm512_loadu_si512(a.b), (_MM_PERM_ENUM)I));
}
template <int I>
ISA_F512 V64 real_shuffle_i64x2(const V64 &a, const V64 &b) {
  return to(_mm512_shuffle_i64x2(_mm512_loadu_si512(a.b), _mm512_loadu_si512(b.b), I));
}
ISA_BMI2 uint64_t real_bzhi_u64(uint64_t x, uint64_t n) { return _bzhi_u64(x, n); }
ISA_BMI2 uint32_t real_bzhi_u32(uint32_t x, uint32_t n) { return _bzhi_u32(x, n); }

// --- the shim on the same bytes ------------------------------------------------------------------
V64 shim_madd52(bool hi, bool w512, const V64 &a, const V64 &b, const V64 &c) {
  if (w512) {
    auto f = hi ? chapoly_emu_mm512_madd52hi_epu64 : chapoly_emu_mm512_madd52lo_epu64;
    return to(f(from<simde__m512i>(a), from<simde__m512i>(b), from<simde__m512i>(c)));
  }
  auto f = hi ? chapoly_emu_mm256_madd52hi_epu64 : chapoly_emu_mm256_madd52lo_epu64;
  return to(f(from<simde__m256i>(a), from<simde__m256i>(b), from<simde__m256i>(c)));
}

void check_madd52(bool hi, bool w512, V64 (*real)(const V64 &, const V64 &, const V64 &)) {
  Rng rng(0xe1a0 + 2 * hi + w512);
  for (int it = 0; it < kIters; ++it) {
    V64 a = input(rng), b = input(rng), c = input(rng);
    V64 want = real(a, b, c), got = shim_madd52(hi, w512, a, b, c);
    const size_t n = w512 ? 64 : 32;
    ASSERT_EQ(hex(got, n), hex(want, n)) << "a=" << hex(a, n) << " b=" << hex(b, n) << " c=" << hex(c, n);
  }
}

TEST(EmuShim, Mm512Madd52loMatchesVpmadd52luq) {
  REQUIRE_CPU("avx512f", "avx512ifma");
  check_madd52(false, true, real_madd52lo_512);
}
TEST(EmuShim, Mm512Madd52hiMatchesVpmadd52huq) {
  REQUIRE_CPU("avx512f", "avx512ifma");
  check_madd52(true, true, real_madd52hi_512);
}
TEST(EmuShim, Mm256Madd52loMatchesVpmadd52luq) {
  REQUIRE_CPU("avx512f", "avx512ifma", "avx512vl");
  check_madd52(false, false, real_madd52lo_256);
}
TEST(EmuShim, Mm256Madd52hiMatchesVpmadd52huq) {
  REQUIRE_CPU("avx512f", "avx512ifma", "avx512vl");
  check_madd52(true, false, real_madd52hi_256);
}

TEST(EmuShim, MaskzLoaduEpi8MatchesVmovdqu8) {
  REQUIRE_CPU("avx512f", "avx512bw", "avx512vl");
  Rng rng(0xe1a1);
  for (int it = 0; it < kIters; ++it) {
    V64 src = input(rng);
    uint64_t k = rng.next();
    if (it % 5 == 0) k = (it % 2) ? ~0ull : 0;
    if (it % 5 == 1) k = (1ull << rng.below(64)) - 1;  // a prefix, as the kernels use
    ASSERT_EQ(hex(to(chapoly_emu_mm512_maskz_loadu_epi8(k, src.b)), 64), hex(real_maskz_loadu_epi8_512(k, src.b), 64));
    ASSERT_EQ(hex(to(chapoly_emu_mm256_maskz_loadu_epi8((uint32_t)k, src.b)), 32),
              hex(real_maskz_loadu_epi8_256((uint32_t)k, src.b), 32));
    ASSERT_EQ(hex(to(chapoly_emu_mm_maskz_loadu_epi8((uint16_t)k, src.b)), 16),
              hex(real_maskz_loadu_epi8_128((uint16_t)k, src.b), 16));
  }
}

TEST(EmuShim, MaskStoreuEpi8MatchesVmovdqu8) {
  REQUIRE_CPU("avx512f", "avx512bw");
  Rng rng(0xe1a2);
  for (int it = 0; it < kIters; ++it) {
    V64 a = input(rng), want = input(rng), got = want;
    uint64_t k = (it % 3 == 0) ? (1ull << rng.below(64)) - 1 : rng.next();
    real_mask_storeu_epi8_512(want.b, k, a);
    chapoly_emu_mm512_mask_storeu_epi8(got.b, k, from<simde__m512i>(a));
    ASSERT_EQ(hex(got, 64), hex(want, 64)) << "k=" << k;
  }
}

TEST(EmuShim, Mm256MaskzSet1MatchesTheInstructions) {
  REQUIRE_CPU("avx512f", "avx512bw", "avx512vl");
  Rng rng(0xe1a3);
  for (int it = 0; it < kIters; ++it) {
    uint64_t k = rng.next(), v = rng.next();
    ASSERT_EQ(hex(to(chapoly_emu_mm256_maskz_set1_epi8((uint32_t)k, (char)v)), 32),
              hex(real_maskz_set1_epi8_256((uint32_t)k, (char)v), 32));
    ASSERT_EQ(hex(to(chapoly_emu_mm256_maskz_set1_epi64((uint8_t)k, (long long)v)), 32),
              hex(real_maskz_set1_epi64_256((uint8_t)k, (long long)v), 32));
  }
}

template <int I>
void check_shuffles(Rng &rng) {
  for (int it = 0; it < 200; ++it) {
    V64 a = input(rng), b = input(rng);
    ASSERT_EQ(hex(to(chapoly_emu_mm512_shuffle_epi32(from<simde__m512i>(a), I)), 64), hex(real_shuffle_epi32<I>(a), 64))
        << "imm " << I;
    ASSERT_EQ(hex(to(chapoly_emu_mm512_shuffle_i64x2(from<simde__m512i>(a), from<simde__m512i>(b), I)), 64),
              hex(real_shuffle_i64x2<I>(a, b), 64))
        << "imm " << I;
  }
}
template <int... I>
void check_all_shuffles(Rng &rng, std::integer_sequence<int, I...>) {
  (check_shuffles<I>(rng), ...);
}

TEST(EmuShim, ShuffleEpi32AndI64x2MatchTheInstructionsForEveryImmediate) {
  REQUIRE_CPU("avx512f");
  Rng rng(0xe1a4);
  check_all_shuffles(rng, std::make_integer_sequence<int, 256>{});
}

TEST(EmuShim, BzhiMatchesTheInstruction) {
  REQUIRE_CPU("bmi2");
  Rng rng(0xe1a5);
  for (int it = 0; it < kIters; ++it) {
    uint64_t x = rng.next(), n = it < 512 ? (uint64_t)it : rng.next();
    if (it % 3 == 0) n = (n & ~0xffull) | rng.below(80);  // index bits above 7 ignored
    ASSERT_EQ(chapoly_emu_bzhi_u64(x, n), real_bzhi_u64(x, n)) << x << " " << n;
    ASSERT_EQ(chapoly_emu_bzhi_u32((uint32_t)x, (uint32_t)n), real_bzhi_u32((uint32_t)x, (uint32_t)n)) << x << " " << n;
  }
}

// The masked loads and stores touch only the selected bytes, like the instructions' fault
// suppression: a 64-byte window whose tail lies in an inaccessible page, masked to the accessible
// head, is read and written without a fault. Any CPU.
TEST(EmuShim, MaskedLoadsAndStoresTouchOnlySelectedBytes) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  auto *base = static_cast<uint8_t *>(mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(base, MAP_FAILED);
  ASSERT_EQ(mprotect(base + page, page, PROT_NONE), 0);
  for (size_t head = 0; head <= 64; ++head) {
    uint8_t *p = base + page - head;  // bytes [head, 64) of the window are in the guard page
    for (size_t i = 0; i < head; ++i) p[i] = static_cast<uint8_t>(0xa0 + i);
    const uint64_t k = head == 64 ? ~0ull : (1ull << head) - 1;
    V64 got = to(chapoly_emu_mm512_maskz_loadu_epi8(k, p));
    for (size_t i = 0; i < 64; ++i) ASSERT_EQ(got.b[i], i < head ? p[i] : 0) << "head " << head << " byte " << i;
    if (head <= 32) {
      V64 g256 = to(chapoly_emu_mm256_maskz_loadu_epi8(static_cast<uint32_t>(k), p));
      ASSERT_EQ(hex(g256, 32), hex(got, 32)) << "head " << head;
    }
    if (head <= 16) {
      V64 g128 = to(chapoly_emu_mm_maskz_loadu_epi8(static_cast<uint16_t>(k), p));
      ASSERT_EQ(hex(g128, 16), hex(got, 16)) << "head " << head;
    }
    V64 ones;
    std::memset(ones.b, 0x5a, 64);
    chapoly_emu_mm512_mask_storeu_epi8(p, k, from<simde__m512i>(ones));
    for (size_t i = 0; i < head; ++i) ASSERT_EQ(p[i], 0x5a) << "head " << head;
  }
  munmap(base, 2 * page);
}

}  // namespace
}  // namespace chapoly::test
