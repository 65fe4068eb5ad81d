// chapoly_emu_shim.h (tests only): portable versions of the few intrinsics the emitted kernels
// use that SIMDe 0.7.4 lacks or implements with a different memory footprint, for the emulated
// backends (tests/emu/README.md). Each has a unit test against the real instruction
// (tests/emu/shim_test.cpp).
//
// Written against SIMDe's own types (simde__m128i, simde__m256i, simde__m512i), so the unit
// test can include this header beside the real <immintrin.h>; include/immintrin.h maps the
// Intel names onto these functions for the emulated kernels.
//
// CHAPOLY_EMU_BROKEN_IFMA_HI (a compile definition, used only by the deliberately broken build
// of tests/emu/CMakeLists.txt) makes the IFMA hi half take the product's bits from 51 instead of
// 52: the emulated suites must then fail.
#ifndef CHAPOLY_EMU_SHIM_H
#define CHAPOLY_EMU_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <simde/x86/avx512.h>

// The shift that takes the IFMA hi half out of the 104-bit product (52; 51 when broken on purpose).
#if defined(CHAPOLY_EMU_BROKEN_IFMA_HI)
#define CHAPOLY_EMU_IFMA_HI_SHIFT 51
#else
#define CHAPOLY_EMU_IFMA_HI_SHIFT 52
#endif

// The immediate type of _mm512_shuffle_epi32 (an enum in the compilers' headers; any 8-bit value).
typedef enum chapoly_emu_perm_enum { chapoly_emu_perm_max = 0xff } chapoly_emu_perm_enum;

// Internal linkage throughout: the deliberately broken build defines madd52hi_lane differently,
// and the two must never be merged by the linker.
namespace chapoly_emu_detail {
namespace {

// The 64-bit lanes of an n-byte vector, as an array (n = 16, 32 or 64).
template <size_t N>
struct U64s {
  uint64_t w[N / 8];
};

template <size_t N, typename V>
inline U64s<N> lanes(V v) {
  static_assert(sizeof(V) == N, "vector size");
  U64s<N> u;
  memcpy(u.w, &v, N);
  return u;
}

template <typename V, size_t N>
inline V vec(const U64s<N> &u) {
  static_assert(sizeof(V) == N, "vector size");
  V v;
  memcpy(&v, u.w, N);
  return v;
}

// One IFMA lane: a + bits [0, 52) (lo) or [52, 104) (hi) of b[51:0] * c[51:0] (Intel SDM,
// VPMADD52LUQ / VPMADD52HUQ).
inline uint64_t madd52lo_lane(uint64_t a, uint64_t b, uint64_t c) {
  const uint64_t m52 = (uint64_t{1} << 52) - 1;
  unsigned __int128 p = static_cast<unsigned __int128>(b & m52) * (c & m52);
  return a + (static_cast<uint64_t>(p) & m52);
}
inline uint64_t madd52hi_lane(uint64_t a, uint64_t b, uint64_t c) {
  const uint64_t m52 = (uint64_t{1} << 52) - 1;
  unsigned __int128 p = static_cast<unsigned __int128>(b & m52) * (c & m52);
  return a + static_cast<uint64_t>(p >> CHAPOLY_EMU_IFMA_HI_SHIFT);
}

template <typename V, bool Hi>
inline V madd52(V a, V b, V c) {
  constexpr size_t N = sizeof(V);
  U64s<N> x = lanes<N>(a), y = lanes<N>(b), z = lanes<N>(c);
  for (size_t i = 0; i < N / 8; ++i) {
    x.w[i] = Hi ? madd52hi_lane(x.w[i], y.w[i], z.w[i]) : madd52lo_lane(x.w[i], y.w[i], z.w[i]);
  }
  return vec<V>(x);
}

// Masked byte load: only the bytes whose mask bit is set are read (so a masked-off byte past the
// end of a buffer is never touched, as with the instruction's fault suppression); the others are 0.
template <typename V>
inline V maskz_loadu_epi8(uint64_t k, const void *p) {
  constexpr size_t N = sizeof(V);
  uint8_t b[N];
  const uint8_t *src = static_cast<const uint8_t *>(p);
  for (size_t i = 0; i < N; ++i) b[i] = ((k >> i) & 1) ? src[i] : 0;
  V v;
  memcpy(&v, b, N);
  return v;
}

}  // namespace
}  // namespace chapoly_emu_detail

// _mm512_madd52lo_epu64 / _mm512_madd52hi_epu64 (AVX512IFMA), 8 lanes.
static inline simde__m512i chapoly_emu_mm512_madd52lo_epu64(simde__m512i a, simde__m512i b, simde__m512i c) {
  return chapoly_emu_detail::madd52<simde__m512i, false>(a, b, c);
}
static inline simde__m512i chapoly_emu_mm512_madd52hi_epu64(simde__m512i a, simde__m512i b, simde__m512i c) {
  return chapoly_emu_detail::madd52<simde__m512i, true>(a, b, c);
}
// _mm256_madd52lo_epu64 / _mm256_madd52hi_epu64 (AVX512IFMA + AVX512VL), 4 lanes.
static inline simde__m256i chapoly_emu_mm256_madd52lo_epu64(simde__m256i a, simde__m256i b, simde__m256i c) {
  return chapoly_emu_detail::madd52<simde__m256i, false>(a, b, c);
}
static inline simde__m256i chapoly_emu_mm256_madd52hi_epu64(simde__m256i a, simde__m256i b, simde__m256i c) {
  return chapoly_emu_detail::madd52<simde__m256i, true>(a, b, c);
}

// _mm512/_mm256/_mm_maskz_loadu_epi8 (AVX512BW, +VL): bit i of k selects byte i of p.
static inline simde__m512i chapoly_emu_mm512_maskz_loadu_epi8(simde__mmask64 k, const void *p) {
  return chapoly_emu_detail::maskz_loadu_epi8<simde__m512i>(k, p);
}
static inline simde__m256i chapoly_emu_mm256_maskz_loadu_epi8(simde__mmask32 k, const void *p) {
  return chapoly_emu_detail::maskz_loadu_epi8<simde__m256i>(k, p);
}
static inline simde__m128i chapoly_emu_mm_maskz_loadu_epi8(simde__mmask16 k, const void *p) {
  return chapoly_emu_detail::maskz_loadu_epi8<simde__m128i>(k, p);
}

// _mm512_mask_storeu_epi8 (AVX512BW): writes byte i of a to p + i for each set bit i of k and
// touches no other byte (no read-modify-write of the masked-off bytes).
static inline void chapoly_emu_mm512_mask_storeu_epi8(void *p, simde__mmask64 k, simde__m512i a) {
  uint8_t b[64];
  memcpy(b, &a, 64);
  uint8_t *dst = static_cast<uint8_t *>(p);
  for (size_t i = 0; i < 64; ++i) {
    if ((k >> i) & 1) dst[i] = b[i];
  }
}

// _mm512_shuffle_epi32 (AVX512F): in each 128-bit lane, dword j = source dword (imm >> 2j) & 3.
static inline simde__m512i chapoly_emu_mm512_shuffle_epi32(simde__m512i a, int imm) {
  uint32_t s[16], d[16];
  memcpy(s, &a, 64);
  for (int lane = 0; lane < 4; ++lane) {
    for (int j = 0; j < 4; ++j) d[4 * lane + j] = s[4 * lane + ((imm >> (2 * j)) & 3)];
  }
  simde__m512i r;
  memcpy(&r, d, 64);
  return r;
}

// _mm512_shuffle_i64x2 (AVX512F): 128-bit lanes 0,1 from a and 2,3 from b, lane j chosen by
// imm bits [2j+1:2j].
static inline simde__m512i chapoly_emu_mm512_shuffle_i64x2(simde__m512i a, simde__m512i b, int imm) {
  uint64_t x[8], y[8], d[8];
  memcpy(x, &a, 64);
  memcpy(y, &b, 64);
  for (int j = 0; j < 4; ++j) {
    const uint64_t *src = j < 2 ? x : y;
    int sel = (imm >> (2 * j)) & 3;
    d[2 * j] = src[2 * sel];
    d[2 * j + 1] = src[2 * sel + 1];
  }
  simde__m512i r;
  memcpy(&r, d, 64);
  return r;
}

// _mm256_maskz_set1_epi8 (AVX512BW + VL) / _mm256_maskz_set1_epi64 (AVX512F + VL): element i is
// v where bit i of k is set, else 0.
static inline simde__m256i chapoly_emu_mm256_maskz_set1_epi8(simde__mmask32 k, char v) {
  uint8_t b[32];
  for (size_t i = 0; i < 32; ++i) b[i] = ((k >> i) & 1) ? static_cast<uint8_t>(v) : 0;
  simde__m256i r;
  memcpy(&r, b, 32);
  return r;
}
static inline simde__m256i chapoly_emu_mm256_maskz_set1_epi64(simde__mmask8 k, long long v) {
  uint64_t w[4];
  for (size_t i = 0; i < 4; ++i) w[i] = ((k >> i) & 1) ? static_cast<uint64_t>(v) : 0;
  simde__m256i r;
  memcpy(&r, w, 32);
  return r;
}

// _bzhi_u32 / _bzhi_u64 (BMI2): x with the bits from index n = idx[7:0] up cleared (x itself
// when n >= the width).
static inline uint32_t chapoly_emu_bzhi_u32(uint32_t x, uint32_t idx) {
  uint32_t n = idx & 0xff;
  return n >= 32 ? x : x & ((uint32_t{1} << n) - 1);
}
static inline uint64_t chapoly_emu_bzhi_u64(uint64_t x, uint64_t idx) {
  uint64_t n = idx & 0xff;
  return n >= 64 ? x : x & ((uint64_t{1} << n) - 1);
}

#endif  // CHAPOLY_EMU_SHIM_H
