// intrinsics_test.cpp: every entry of chapoly-verify's intrinsic semantics table
// (verify/src/intrinsics.cpp) against the real instruction, on random and edge inputs.
// An entry without a test here fails; a CPU without the entry's feature skips it by name.
//
// This file is compiled for baseline x86-64 (no -m flags): only the functions below that execute
// an instruction carry a target attribute naming exactly the entry's feature (ISA_*), and they
// run only after cpuHas() found that feature, so GoogleTest's discovery, static initialisation
// and the skips run on any x86-64 CPU.
#include <gtest/gtest.h>
#include <immintrin.h>

#include <cctype>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "intrinsics.h"

namespace {

using cv::Bits;
using A = const std::vector<Bits> &;
using Real = Bits (*)(A);

// The code generation each table feature allows (GCC/Clang function attributes); sse2 is the
// x86-64 baseline and needs none.
#define ISA_AVX __attribute__((target("avx")))
#define ISA_AVX2 __attribute__((target("avx2")))
#define ISA_SSE41 __attribute__((target("sse4.1")))
#define ISA_BMI2 __attribute__((target("bmi2")))
#define ISA_F512 __attribute__((target("avx512f")))
#define ISA_BW __attribute__((target("avx512f,avx512bw")))
#define ISA_BWVL __attribute__((target("avx512f,avx512bw,avx512vl")))
#define ISA_IFMA __attribute__((target("avx512f,avx512ifma")))

ISA_F512 __m512i ld512(const Bits &b) { return _mm512_loadu_si512(b.w.data()); }
ISA_AVX __m256i ld256(const Bits &b) { return _mm256_loadu_si256((const __m256i *)b.w.data()); }
__m128i ld128(const Bits &b) { return _mm_loadu_si128((const __m128i *)b.w.data()); }
ISA_F512 Bits st(__m512i v) {
  Bits b;
  _mm512_storeu_si512(b.w.data(), v);
  return b;
}
ISA_AVX Bits st(__m256i v) {
  Bits b;
  _mm256_storeu_si256((__m256i *)b.w.data(), v);
  return b;
}
Bits st(__m128i v) {
  Bits b;
  _mm_storeu_si128((__m128i *)b.w.data(), v);
  return b;
}
Bits sc(uint64_t v) {
  Bits b;
  b.w[0] = v;
  return b;
}
uint64_t u(A a, size_t i) { return a[i].w[0]; }

struct Case {
  std::string name;
  std::vector<uint64_t> imm;  // values of the Imm arguments, in order
  Real real;
};

// Immediate-operand forms are instantiated once per tested immediate.
template <int I> ISA_F512 Bits slliq(A a) { return st(_mm512_slli_epi64(ld512(a[0]), I)); }
template <int I> ISA_F512 Bits srliq(A a) { return st(_mm512_srli_epi64(ld512(a[0]), I)); }
template <int I> ISA_F512 Bits sllid(A a) { return st(_mm512_slli_epi32(ld512(a[0]), I)); }
template <int I> ISA_F512 Bits srlid(A a) { return st(_mm512_srli_epi32(ld512(a[0]), I)); }
template <int I> ISA_F512 Bits rold(A a) { return st(_mm512_rol_epi32(ld512(a[0]), I)); }
template <int I> ISA_F512 Bits rord(A a) { return st(_mm512_ror_epi32(ld512(a[0]), I)); }
template <int I> ISA_F512 Bits ternq(A a) { return st(_mm512_ternarylogic_epi64(ld512(a[0]), ld512(a[1]), ld512(a[2]), I)); }
template <int I> ISA_F512 Bits ternd(A a) { return st(_mm512_ternarylogic_epi32(ld512(a[0]), ld512(a[1]), ld512(a[2]), I)); }
template <int I> ISA_F512 Bits shufi64(A a) { return st(_mm512_shuffle_i64x2(ld512(a[0]), ld512(a[1]), I)); }
template <int I> ISA_F512 Bits shufi32(A a) { return st(_mm512_shuffle_i32x4(ld512(a[0]), ld512(a[1]), I)); }
template <int I> ISA_F512 Bits alignrq(A a) { return st(_mm512_alignr_epi64(ld512(a[0]), ld512(a[1]), I)); }
template <int I> ISA_F512 Bits permutexq(A a) { return st(_mm512_permutex_epi64(ld512(a[0]), I)); }
template <int I> ISA_F512 Bits ext256(A a) { return st(_mm512_extracti64x4_epi64(ld512(a[0]), I)); }
template <int I> ISA_F512 Bits ins256(A a) { return st(_mm512_inserti64x4(ld512(a[0]), ld256(a[1]), I)); }
template <int I> ISA_AVX2 Bits ext128of256(A a) { return st(_mm256_extracti128_si256(ld256(a[0]), I)); }
template <int I> ISA_F512 Bits ext128of512(A a) { return st(_mm512_extracti32x4_epi32(ld512(a[0]), I)); }
template <int I> ISA_F512 Bits ins128(A a) { return st(_mm512_inserti32x4(ld512(a[0]), ld128(a[1]), I)); }
template <int I> ISA_SSE41 Bits extq(A a) { return sc((uint64_t)_mm_extract_epi64(ld128(a[0]), I)); }
template <int I> ISA_F512 Bits shufd(A a) { return st(_mm512_shuffle_epi32(ld512(a[0]), (_MM_PERM_ENUM)I)); }
template <int I> Bits shufd128(A a) { return st(_mm_shuffle_epi32(ld128(a[0]), I)); }
template <int I> Bits bslli(A a) { return st(_mm_bslli_si128(ld128(a[0]), I)); }

// 256-bit forms (ymm). AVX-512VL forms carry both features in their target.
#define ISA_F512VL __attribute__((target("avx512f,avx512vl")))
#define ISA_BWVL256 __attribute__((target("avx512f,avx512bw,avx512vl")))
#define ISA_IFMAVL __attribute__((target("avx512f,avx512ifma,avx512vl")))
template <int I> ISA_AVX2 Bits slliq256(A a) { return st(_mm256_slli_epi64(ld256(a[0]), I)); }
template <int I> ISA_AVX2 Bits srliq256(A a) { return st(_mm256_srli_epi64(ld256(a[0]), I)); }
template <int I> ISA_AVX2 Bits sllid256(A a) { return st(_mm256_slli_epi32(ld256(a[0]), I)); }
template <int I> ISA_AVX2 Bits srlid256(A a) { return st(_mm256_srli_epi32(ld256(a[0]), I)); }
template <int I> ISA_F512VL Bits rold256(A a) { return st(_mm256_rol_epi32(ld256(a[0]), I)); }
template <int I> ISA_AVX2 Bits shufd256(A a) { return st(_mm256_shuffle_epi32(ld256(a[0]), I)); }
template <int I> ISA_AVX2 Bits perm2x128(A a) { return st(_mm256_permute2x128_si256(ld256(a[0]), ld256(a[1]), I)); }
template <int I> ISA_AVX2 Bits perm4x64(A a) { return st(_mm256_permute4x64_epi64(ld256(a[0]), I)); }
template <int I> ISA_AVX2 Bits ins128of256(A a) { return st(_mm256_inserti128_si256(ld256(a[0]), ld128(a[1]), I)); }

std::vector<Case> cases() {
  std::vector<Case> c = {
      {"_mm512_madd52lo_epu64", {}, [](A a) ISA_IFMA { return st(_mm512_madd52lo_epu64(ld512(a[0]), ld512(a[1]), ld512(a[2]))); }},
      {"_mm512_madd52hi_epu64", {}, [](A a) ISA_IFMA { return st(_mm512_madd52hi_epu64(ld512(a[0]), ld512(a[1]), ld512(a[2]))); }},
      {"_mm512_add_epi64", {}, [](A a) ISA_F512 { return st(_mm512_add_epi64(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_sub_epi64", {}, [](A a) ISA_F512 { return st(_mm512_sub_epi64(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_mul_epu32", {}, [](A a) ISA_F512 { return st(_mm512_mul_epu32(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_and_si512", {}, [](A a) ISA_F512 { return st(_mm512_and_si512(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_and_epi64", {}, [](A a) ISA_F512 { return st(_mm512_and_epi64(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_or_si512", {}, [](A a) ISA_F512 { return st(_mm512_or_si512(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_or_epi64", {}, [](A a) ISA_F512 { return st(_mm512_or_epi64(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_xor_si512", {}, [](A a) ISA_F512 { return st(_mm512_xor_si512(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_xor_epi64", {}, [](A a) ISA_F512 { return st(_mm512_xor_epi64(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_andnot_si512", {}, [](A a) ISA_F512 { return st(_mm512_andnot_si512(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_reduce_add_epi64", {}, [](A a) ISA_F512 { return sc((uint64_t)_mm512_reduce_add_epi64(ld512(a[0]))); }},
      {"_mm256_add_epi64", {}, [](A a) ISA_AVX2 { return st(_mm256_add_epi64(ld256(a[0]), ld256(a[1]))); }},
      {"_mm_add_epi64", {}, [](A a) { return st(_mm_add_epi64(ld128(a[0]), ld128(a[1]))); }},
      {"_mm512_set1_epi64", {}, [](A a) ISA_F512 { return st(_mm512_set1_epi64((long long)u(a, 0))); }},
      {"_mm512_set_epi64", {}, [](A a) ISA_F512 {
         return st(_mm512_set_epi64((long long)u(a, 0), (long long)u(a, 1), (long long)u(a, 2), (long long)u(a, 3),
                                    (long long)u(a, 4), (long long)u(a, 5), (long long)u(a, 6), (long long)u(a, 7)));
       }},
      {"_mm512_setr_epi64", {}, [](A a) ISA_F512 {
         return st(_mm512_setr_epi64((long long)u(a, 0), (long long)u(a, 1), (long long)u(a, 2), (long long)u(a, 3),
                                     (long long)u(a, 4), (long long)u(a, 5), (long long)u(a, 6), (long long)u(a, 7)));
       }},
      {"_mm512_setzero_si512", {}, [](A) ISA_F512 { return st(_mm512_setzero_si512()); }},
      {"_mm512_unpacklo_epi64", {}, [](A a) ISA_F512 { return st(_mm512_unpacklo_epi64(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_unpackhi_epi64", {}, [](A a) ISA_F512 { return st(_mm512_unpackhi_epi64(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_permutexvar_epi64", {}, [](A a) ISA_F512 { return st(_mm512_permutexvar_epi64(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_permutex2var_epi64", {}, [](A a) ISA_F512 { return st(_mm512_permutex2var_epi64(ld512(a[0]), ld512(a[1]), ld512(a[2]))); }},
      {"_mm512_mask_blend_epi64", {}, [](A a) ISA_F512 { return st(_mm512_mask_blend_epi64((__mmask8)u(a, 0), ld512(a[1]), ld512(a[2]))); }},
      {"_mm512_maskz_mov_epi64", {}, [](A a) ISA_F512 { return st(_mm512_maskz_mov_epi64((__mmask8)u(a, 0), ld512(a[1]))); }},
      {"_mm512_mask_mov_epi64", {}, [](A a) ISA_F512 { return st(_mm512_mask_mov_epi64(ld512(a[0]), (__mmask8)u(a, 1), ld512(a[2]))); }},
      {"_mm512_castsi512_si256", {}, [](A a) ISA_F512 { return st(_mm512_castsi512_si256(ld512(a[0]))); }},
      {"_mm512_castsi512_si128", {}, [](A a) ISA_F512 { return st(_mm512_castsi512_si128(ld512(a[0]))); }},
      {"_mm256_castsi256_si128", {}, [](A a) ISA_AVX { return st(_mm256_castsi256_si128(ld256(a[0]))); }},
      {"_mm_cvtsi128_si64", {}, [](A a) { return sc((uint64_t)_mm_cvtsi128_si64(ld128(a[0]))); }},
      {"_mm_unpackhi_epi64", {}, [](A a) { return st(_mm_unpackhi_epi64(ld128(a[0]), ld128(a[1]))); }},
      {"_mm512_cvtepu32_epi64", {}, [](A a) ISA_F512 { return st(_mm512_cvtepu32_epi64(ld256(a[0]))); }},
      {"_mm512_broadcast_i32x4", {}, [](A a) ISA_F512 { return st(_mm512_broadcast_i32x4(ld128(a[0]))); }},
      {"_mm512_broadcastd_epi32", {}, [](A a) ISA_F512 { return st(_mm512_broadcastd_epi32(ld128(a[0]))); }},
      {"_mm512_maskz_permutexvar_epi64", {}, [](A a) ISA_F512 {
         return st(_mm512_maskz_permutexvar_epi64((__mmask8)u(a, 0), ld512(a[1]), ld512(a[2])));
       }},
      {"_mm512_maskz_set1_epi64", {}, [](A a) ISA_F512 { return st(_mm512_maskz_set1_epi64((__mmask8)u(a, 0), (long long)u(a, 1))); }},
      {"_mm512_maskz_set1_epi8", {}, [](A a) ISA_BW { return st(_mm512_maskz_set1_epi8((__mmask64)u(a, 0), (char)u(a, 1))); }},
      {"_mm_setr_epi32", {}, [](A a) { return st(_mm_setr_epi32((int)u(a, 0), (int)u(a, 1), (int)u(a, 2), (int)u(a, 3))); }},
      {"_mm_set_epi64x", {}, [](A a) { return st(_mm_set_epi64x((long long)u(a, 0), (long long)u(a, 1))); }},
      {"_bzhi_u64", {}, [](A a) ISA_BMI2 { return sc(_bzhi_u64(u(a, 0), u(a, 1))); }},
      {"_bzhi_u32", {}, [](A a) ISA_BMI2 { return sc(_bzhi_u32((unsigned)u(a, 0), (unsigned)u(a, 1))); }},
      {"_mm512_add_epi32", {}, [](A a) ISA_F512 { return st(_mm512_add_epi32(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_xor_epi32", {}, [](A a) ISA_F512 { return st(_mm512_xor_epi32(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_shuffle_epi8", {}, [](A a) ISA_BW { return st(_mm512_shuffle_epi8(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_set1_epi32", {}, [](A a) ISA_F512 { return st(_mm512_set1_epi32((int)u(a, 0))); }},
      {"_mm512_set_epi32", {}, [](A a) ISA_F512 {
         return st(_mm512_set_epi32((int)u(a, 0), (int)u(a, 1), (int)u(a, 2), (int)u(a, 3), (int)u(a, 4), (int)u(a, 5),
                                    (int)u(a, 6), (int)u(a, 7), (int)u(a, 8), (int)u(a, 9), (int)u(a, 10), (int)u(a, 11),
                                    (int)u(a, 12), (int)u(a, 13), (int)u(a, 14), (int)u(a, 15)));
       }},
      {"_mm512_setr_epi32", {}, [](A a) ISA_F512 {
         return st(_mm512_setr_epi32((int)u(a, 0), (int)u(a, 1), (int)u(a, 2), (int)u(a, 3), (int)u(a, 4), (int)u(a, 5),
                                     (int)u(a, 6), (int)u(a, 7), (int)u(a, 8), (int)u(a, 9), (int)u(a, 10), (int)u(a, 11),
                                     (int)u(a, 12), (int)u(a, 13), (int)u(a, 14), (int)u(a, 15)));
       }},
      {"_mm512_unpacklo_epi32", {}, [](A a) ISA_F512 { return st(_mm512_unpacklo_epi32(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_unpackhi_epi32", {}, [](A a) ISA_F512 { return st(_mm512_unpackhi_epi32(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_permutexvar_epi32", {}, [](A a) ISA_F512 { return st(_mm512_permutexvar_epi32(ld512(a[0]), ld512(a[1]))); }},
      {"_mm512_permutex2var_epi32", {}, [](A a) ISA_F512 { return st(_mm512_permutex2var_epi32(ld512(a[0]), ld512(a[1]), ld512(a[2]))); }},
      // memory: the pointer argument is a buffer holding the 64 bytes of its Bits
      {"_mm512_loadu_si512", {}, [](A a) ISA_F512 { return st(_mm512_loadu_si512(a[0].w.data())); }},
      {"_mm512_storeu_si512", {}, [](A a) ISA_F512 {
         Bits m = a[0];
         _mm512_storeu_si512(m.w.data(), ld512(a[1]));
         return m;
       }},
      {"_mm_loadu_si128", {}, [](A a) { return st(_mm_loadu_si128((const __m128i *)a[0].w.data())); }},
      {"_mm_storeu_si128", {}, [](A a) {
         Bits m = a[0];
         _mm_storeu_si128((__m128i *)m.w.data(), ld128(a[1]));
         return m;
       }},
      {"_mm512_maskz_loadu_epi8", {}, [](A a) ISA_BW { return st(_mm512_maskz_loadu_epi8((__mmask64)u(a, 0), a[1].w.data())); }},
      {"_mm_maskz_loadu_epi8", {}, [](A a) ISA_BWVL { return st(_mm_maskz_loadu_epi8((__mmask16)u(a, 0), a[1].w.data())); }},
      {"_mm512_mask_storeu_epi8", {}, [](A a) ISA_BW {
         Bits m = a[0];
         _mm512_mask_storeu_epi8(m.w.data(), (__mmask64)u(a, 1), ld512(a[2]));
         return m;
       }},
      {"_mm512_maskz_loadu_epi64", {}, [](A a) ISA_F512 { return st(_mm512_maskz_loadu_epi64((__mmask8)u(a, 0), a[1].w.data())); }},
      {"_mm512_mask_storeu_epi64", {}, [](A a) ISA_F512 {
         Bits m = a[0];
         _mm512_mask_storeu_epi64(m.w.data(), (__mmask8)u(a, 1), ld512(a[2]));
         return m;
       }},
      // 256-bit forms
      {"_mm256_madd52lo_epu64", {}, [](A a) ISA_IFMAVL { return st(_mm256_madd52lo_epu64(ld256(a[0]), ld256(a[1]), ld256(a[2]))); }},
      {"_mm256_madd52hi_epu64", {}, [](A a) ISA_IFMAVL { return st(_mm256_madd52hi_epu64(ld256(a[0]), ld256(a[1]), ld256(a[2]))); }},
      {"_mm256_and_si256", {}, [](A a) ISA_AVX2 { return st(_mm256_and_si256(ld256(a[0]), ld256(a[1]))); }},
      {"_mm256_or_si256", {}, [](A a) ISA_AVX2 { return st(_mm256_or_si256(ld256(a[0]), ld256(a[1]))); }},
      {"_mm256_xor_si256", {}, [](A a) ISA_AVX2 { return st(_mm256_xor_si256(ld256(a[0]), ld256(a[1]))); }},
      {"_mm256_add_epi32", {}, [](A a) ISA_AVX2 { return st(_mm256_add_epi32(ld256(a[0]), ld256(a[1]))); }},
      {"_mm256_shuffle_epi8", {}, [](A a) ISA_AVX2 { return st(_mm256_shuffle_epi8(ld256(a[0]), ld256(a[1]))); }},
      {"_mm256_unpacklo_epi32", {}, [](A a) ISA_AVX2 { return st(_mm256_unpacklo_epi32(ld256(a[0]), ld256(a[1]))); }},
      {"_mm256_unpackhi_epi32", {}, [](A a) ISA_AVX2 { return st(_mm256_unpackhi_epi32(ld256(a[0]), ld256(a[1]))); }},
      {"_mm256_unpacklo_epi64", {}, [](A a) ISA_AVX2 { return st(_mm256_unpacklo_epi64(ld256(a[0]), ld256(a[1]))); }},
      {"_mm256_unpackhi_epi64", {}, [](A a) ISA_AVX2 { return st(_mm256_unpackhi_epi64(ld256(a[0]), ld256(a[1]))); }},
      {"_mm256_broadcastsi128_si256", {}, [](A a) ISA_AVX2 { return st(_mm256_broadcastsi128_si256(ld128(a[0]))); }},
      {"_mm256_broadcastd_epi32", {}, [](A a) ISA_AVX2 { return st(_mm256_broadcastd_epi32(ld128(a[0]))); }},
      {"_mm256_set1_epi32", {}, [](A a) ISA_AVX { return st(_mm256_set1_epi32((int)u(a, 0))); }},
      {"_mm256_setr_epi32", {}, [](A a) ISA_AVX {
         return st(_mm256_setr_epi32((int)u(a, 0), (int)u(a, 1), (int)u(a, 2), (int)u(a, 3), (int)u(a, 4), (int)u(a, 5),
                                     (int)u(a, 6), (int)u(a, 7)));
       }},
      {"_mm256_setr_epi8", {}, [](A a) ISA_AVX {
         return st(_mm256_setr_epi8((char)u(a, 0), (char)u(a, 1), (char)u(a, 2), (char)u(a, 3), (char)u(a, 4), (char)u(a, 5), (char)u(a, 6), (char)u(a, 7), (char)u(a, 8), (char)u(a, 9), (char)u(a, 10), (char)u(a, 11), (char)u(a, 12), (char)u(a, 13), (char)u(a, 14), (char)u(a, 15), (char)u(a, 16), (char)u(a, 17), (char)u(a, 18), (char)u(a, 19), (char)u(a, 20), (char)u(a, 21), (char)u(a, 22), (char)u(a, 23), (char)u(a, 24), (char)u(a, 25), (char)u(a, 26), (char)u(a, 27), (char)u(a, 28), (char)u(a, 29), (char)u(a, 30), (char)u(a, 31)));
       }},
      {"_mm256_set1_epi64x", {}, [](A a) ISA_AVX { return st(_mm256_set1_epi64x((long long)u(a, 0))); }},
      {"_mm256_setr_epi64x", {}, [](A a) ISA_AVX {
         return st(_mm256_setr_epi64x((long long)u(a, 0), (long long)u(a, 1), (long long)u(a, 2), (long long)u(a, 3)));
       }},
      {"_mm256_setzero_si256", {}, [](A) ISA_AVX { return st(_mm256_setzero_si256()); }},
      {"_mm256_permutex2var_epi64", {}, [](A a) ISA_F512VL {
         return st(_mm256_permutex2var_epi64(ld256(a[0]), ld256(a[1]), ld256(a[2])));
       }},
      {"_mm256_maskz_permutexvar_epi64", {}, [](A a) ISA_F512VL {
         return st(_mm256_maskz_permutexvar_epi64((__mmask8)u(a, 0), ld256(a[1]), ld256(a[2])));
       }},
      {"_mm256_maskz_set1_epi64", {}, [](A a) ISA_F512VL { return st(_mm256_maskz_set1_epi64((__mmask8)u(a, 0), (long long)u(a, 1))); }},
      {"_mm256_maskz_set1_epi8", {}, [](A a) ISA_BWVL256 { return st(_mm256_maskz_set1_epi8((__mmask32)u(a, 0), (char)u(a, 1))); }},
      {"_mm256_mask_blend_epi64", {}, [](A a) ISA_F512VL { return st(_mm256_mask_blend_epi64((__mmask8)u(a, 0), ld256(a[1]), ld256(a[2]))); }},
      {"_mm256_maskz_mov_epi64", {}, [](A a) ISA_F512VL { return st(_mm256_maskz_mov_epi64((__mmask8)u(a, 0), ld256(a[1]))); }},
      {"_mm256_zeroupper", {}, [](A) ISA_AVX {
         // No value: the model is "nothing"; the test shows a ymm value stored after it is intact.
         _mm256_zeroupper();
         return Bits{};
       }},
      {"_mm256_loadu_si256", {}, [](A a) ISA_AVX { return st(_mm256_loadu_si256((const __m256i *)a[0].w.data())); }},
      {"_mm256_storeu_si256", {}, [](A a) ISA_AVX {
         Bits m = a[0];
         _mm256_storeu_si256((__m256i *)m.w.data(), ld256(a[1]));
         return m;
       }},
      {"_mm256_maskz_loadu_epi8", {}, [](A a) ISA_BWVL256 { return st(_mm256_maskz_loadu_epi8((__mmask32)u(a, 0), a[1].w.data())); }},
      {"_mm256_maskload_epi32", {}, [](A a) ISA_AVX2 { return st(_mm256_maskload_epi32((const int *)a[0].w.data(), ld256(a[1]))); }},
      {"_mm256_maskstore_epi32", {}, [](A a) ISA_AVX2 {
         Bits m = a[0];
         _mm256_maskstore_epi32((int *)m.w.data(), ld256(a[1]), ld256(a[2]));
         return m;
       }},
      {"_cvtu64_mask64", {}, [](A a) ISA_BW { return sc((uint64_t)_cvtu64_mask64(u(a, 0))); }},
      {"_cvtu32_mask16", {}, [](A a) ISA_F512 { return sc((uint64_t)_cvtu32_mask16((unsigned)u(a, 0))); }},
  };
  auto add = [&](const char *n, uint64_t i, Real r) { c.push_back({n, {i}, r}); };
  add("_mm512_slli_epi64", 0, slliq<0>), add("_mm512_slli_epi64", 2, slliq<2>), add("_mm512_slli_epi64", 20, slliq<20>);
  add("_mm512_slli_epi64", 63, slliq<63>), add("_mm512_slli_epi64", 64, slliq<64>), add("_mm512_slli_epi64", 200, slliq<200>);
  add("_mm512_srli_epi64", 0, srliq<0>), add("_mm512_srli_epi64", 24, srliq<24>), add("_mm512_srli_epi64", 44, srliq<44>);
  add("_mm512_srli_epi64", 63, srliq<63>), add("_mm512_srli_epi64", 64, srliq<64>), add("_mm512_srli_epi64", 255, srliq<255>);
  add("_mm512_slli_epi32", 7, sllid<7>), add("_mm512_slli_epi32", 32, sllid<32>);
  add("_mm512_srli_epi32", 25, srlid<25>), add("_mm512_srli_epi32", 40, srlid<40>);
  add("_mm512_rol_epi32", 7, rold<7>), add("_mm512_rol_epi32", 8, rold<8>), add("_mm512_rol_epi32", 12, rold<12>);
  add("_mm512_rol_epi32", 16, rold<16>), add("_mm512_rol_epi32", 0, rold<0>), add("_mm512_rol_epi32", 33, rold<33>);
  add("_mm512_ror_epi32", 7, rord<7>), add("_mm512_ror_epi32", 25, rord<25>);
  add("_mm512_ternarylogic_epi64", 0x96, ternq<0x96>), add("_mm512_ternarylogic_epi64", 0xe8, ternq<0xe8>);
  add("_mm512_ternarylogic_epi64", 0x01, ternq<0x01>);
  add("_mm512_ternarylogic_epi32", 0x96, ternd<0x96>), add("_mm512_ternarylogic_epi32", 0xca, ternd<0xca>);
  add("_mm512_shuffle_i64x2", 0x4e, shufi64<0x4e>), add("_mm512_shuffle_i64x2", 0xb1, shufi64<0xb1>);
  add("_mm512_shuffle_i64x2", 0x1b, shufi64<0x1b>);
  add("_mm512_shuffle_i32x4", 0x44, shufi32<0x44>), add("_mm512_shuffle_i32x4", 0xee, shufi32<0xee>);
  add("_mm512_shuffle_i32x4", 0x88, shufi32<0x88>), add("_mm512_shuffle_i32x4", 0xdd, shufi32<0xdd>);
  add("_mm512_alignr_epi64", 1, alignrq<1>), add("_mm512_alignr_epi64", 7, alignrq<7>);
  add("_mm512_permutex_epi64", 0x4e, permutexq<0x4e>), add("_mm512_permutex_epi64", 0x93, permutexq<0x93>);
  add("_mm512_extracti64x4_epi64", 0, ext256<0>), add("_mm512_extracti64x4_epi64", 1, ext256<1>);
  add("_mm512_inserti64x4", 0, ins256<0>), add("_mm512_inserti64x4", 1, ins256<1>);
  add("_mm256_extracti128_si256", 0, ext128of256<0>), add("_mm256_extracti128_si256", 1, ext128of256<1>);
  add("_mm512_extracti32x4_epi32", 1, ext128of512<1>), add("_mm512_extracti32x4_epi32", 3, ext128of512<3>);
  add("_mm512_inserti32x4", 2, ins128<2>), add("_mm512_inserti32x4", 0, ins128<0>);
  add("_mm_extract_epi64", 0, extq<0>), add("_mm_extract_epi64", 1, extq<1>);
  add("_mm512_shuffle_epi32", 0x39, shufd<0x39>), add("_mm512_shuffle_epi32", 0x4e, shufd<0x4e>);
  add("_mm512_shuffle_epi32", 0x93, shufd<0x93>), add("_mm512_shuffle_epi32", 0x1b, shufd<0x1b>);
  add("_mm_shuffle_epi32", 0, shufd128<0>), add("_mm_shuffle_epi32", 3, shufd128<3>);
  add("_mm_shuffle_epi32", 0x39, shufd128<0x39>);
  add("_mm_bslli_si128", 4, bslli<4>), add("_mm_bslli_si128", 0, bslli<0>), add("_mm_bslli_si128", 15, bslli<15>);
  add("_mm_bslli_si128", 16, bslli<16>);
  add("_mm256_slli_epi64", 0, slliq256<0>), add("_mm256_slli_epi64", 44, slliq256<44>), add("_mm256_slli_epi64", 64, slliq256<64>);
  add("_mm256_srli_epi64", 44, srliq256<44>), add("_mm256_srli_epi64", 63, srliq256<63>), add("_mm256_srli_epi64", 70, srliq256<70>);
  add("_mm256_slli_epi32", 7, sllid256<7>), add("_mm256_slli_epi32", 12, sllid256<12>), add("_mm256_slli_epi32", 32, sllid256<32>);
  add("_mm256_srli_epi32", 25, srlid256<25>), add("_mm256_srli_epi32", 20, srlid256<20>), add("_mm256_srli_epi32", 40, srlid256<40>);
  add("_mm256_rol_epi32", 7, rold256<7>), add("_mm256_rol_epi32", 12, rold256<12>), add("_mm256_rol_epi32", 33, rold256<33>);
  add("_mm256_shuffle_epi32", 0x39, shufd256<0x39>), add("_mm256_shuffle_epi32", 0x4e, shufd256<0x4e>);
  add("_mm256_shuffle_epi32", 0x93, shufd256<0x93>);
  add("_mm256_permute2x128_si256", 0x20, perm2x128<0x20>), add("_mm256_permute2x128_si256", 0x31, perm2x128<0x31>);
  add("_mm256_permute2x128_si256", 0x03, perm2x128<0x03>), add("_mm256_permute2x128_si256", 0x88, perm2x128<0x88>);
  add("_mm256_permute2x128_si256", 0x12, perm2x128<0x12>);
  add("_mm256_permute4x64_epi64", 0x4e, perm4x64<0x4e>), add("_mm256_permute4x64_epi64", 0x93, perm4x64<0x93>);
  add("_mm256_permute4x64_epi64", 0xd8, perm4x64<0xd8>);
  add("_mm256_inserti128_si256", 0, ins128of256<0>), add("_mm256_inserti128_si256", 1, ins128of256<1>);
  return c;
}

// The feature's name as the vendors' manuals write it ("avx512ifma" -> "AVX512IFMA").
std::string upper(std::string s) {
  for (char &c : s) c = (char)std::toupper((unsigned char)c);
  return s;
}

// cpuHas: every '+'-separated feature is present. __builtin_cpu_supports reads CPUID and, for the
// AVX and AVX-512 features, also XGETBV: it reports them only when the OS saves the YMM / opmask
// and ZMM state (libgcc's cpuinfo), so a "yes" here means the instruction can execute.
bool cpuHas(const std::string &features, std::string &missing) {
  size_t s = 0;
  while (s <= features.size()) {
    size_t e = features.find('+', s);
    std::string f = features.substr(s, e == std::string::npos ? std::string::npos : e - s);
    bool ok = f == "sse2" ? __builtin_cpu_supports("sse2")
              : f == "sse4.1" ? __builtin_cpu_supports("sse4.1")
              : f == "avx" ? __builtin_cpu_supports("avx")
              : f == "avx2" ? __builtin_cpu_supports("avx2")
              : f == "bmi2" ? __builtin_cpu_supports("bmi2")
              : f == "avx512f" ? __builtin_cpu_supports("avx512f")
              : f == "avx512bw" ? __builtin_cpu_supports("avx512bw")
              : f == "avx512vl" ? __builtin_cpu_supports("avx512vl")
              : f == "avx512ifma" ? __builtin_cpu_supports("avx512ifma")
                                  : false;
    if (!ok) {
      missing = f;
      return false;
    }
    if (e == std::string::npos) break;
    s = e + 1;
  }
  return true;
}

uint64_t edgeWord(std::mt19937_64 &rng) {
  static const uint64_t edges[] = {0,
                                   1,
                                   (1ull << 52) - 1,
                                   1ull << 52,
                                   (1ull << 44) - 1,
                                   1ull << 44,
                                   (1ull << 42) - 1,
                                   0xffffffffull,
                                   1ull << 32,
                                   1ull << 63,
                                   ~0ull,
                                   0x0ffffffc0fffffffull};
  switch (rng() % 4) {
    case 0: return edges[rng() % (sizeof edges / sizeof edges[0])];
    case 1: return rng() & ((1ull << 52) - 1);
    default: return rng();
  }
}

Bits randomArg(cv::Role role, std::mt19937_64 &rng, unsigned iter) {
  Bits b;
  for (auto &w : b.w) w = role == cv::Role::Data ? edgeWord(rng) : rng();
  if (role == cv::Role::Mask && iter % 8 == 0) b.w[0] = 0;
  if (role == cv::Role::Mask && iter % 8 == 1) b.w[0] = ~0ull;
  if (role == cv::Role::Data && iter % 5 == 0) b.w[0] = rng() % 80;  // small scalars: bzhi counts
  return b;
}

class TableEntry : public ::testing::TestWithParam<std::string> {};

TEST_P(TableEntry, MatchesRealInstruction) {
  const cv::Intrinsic *in = cv::findIntrinsic(GetParam());
  ASSERT_NE(in, nullptr);
  ASSERT_NE(in->model, nullptr) << in->name << " has no model";
  std::string missing;
  if (!cpuHas(in->feature, missing)) GTEST_SKIP() << "CPU lacks " << upper(missing) << ", needed by " << in->name;
  std::vector<Case> mine;
  for (auto &c : cases())
    if (c.name == in->name) mine.push_back(c);
  ASSERT_FALSE(mine.empty()) << in->name << " has no test against the real instruction";
  std::mt19937_64 rng(0xc4a9017ull ^ std::hash<std::string>{}(in->name));
  for (const Case &c : mine) {
    for (unsigned it = 0; it < 3000; ++it) {
      std::vector<Bits> args;
      size_t immi = 0;
      for (cv::Role r : in->roles) {
        if (r == cv::Role::Imm) {
          ASSERT_LT(immi, c.imm.size());
          args.push_back(sc(c.imm[immi++]));
        } else {
          args.push_back(randomArg(r, rng, it));
        }
      }
      Bits want = c.real(args), got = in->model(args);
      if (!(want == got)) {
        std::string s;
        for (size_t i = 0; i < args.size(); ++i) {
          char buf[40];
          s += " arg" + std::to_string(i) + "=";
          for (int w = 7; w >= 0; --w) {
            std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)args[i].w[w]);
            s += buf;
          }
        }
        FAIL() << in->name << (c.imm.empty() ? "" : " imm " + std::to_string(c.imm[0])) << " differs from the model:"
               << s;
      }
    }
  }
}

// The x86 rows. The RVV rows (feature "v", lane models) are tested against the real
// instructions by the riscv64 build under qemu-riscv64 (tests/riscv/rvv_intrinsics_test.cpp,
// ctest label riscv), which fails for a row without a case there.
std::vector<std::string> names() {
  std::vector<std::string> n;
  for (const auto &e : cv::intrinsicTable())
    if (!e.rvv) n.push_back(e.name);
  return n;
}

INSTANTIATE_TEST_SUITE_P(Table, TableEntry, ::testing::ValuesIn(names()),
                         [](const ::testing::TestParamInfo<std::string> &i) { return i.param; });

TEST(Table, EveryTestNamesAnEntry) {
  for (const auto &c : cases()) EXPECT_NE(cv::findIntrinsic(c.name), nullptr) << c.name << " is tested but not in the table";
}

TEST(Table, EveryRvvEntryHasALaneModelAndNoX86Model) {
  unsigned n = 0;
  for (const auto &e : cv::intrinsicTable()) {
    if (e.name.rfind("__riscv_", 0) != 0) continue;
    ++n;
    EXPECT_NE(e.rvv, nullptr) << e.name << ": an RVV row needs its lane model";
    EXPECT_EQ(e.model, nullptr) << e.name;
    EXPECT_EQ(e.feature, "v") << e.name;
    EXPECT_GE(e.lmul, 1u) << e.name;
  }
  EXPECT_GT(n, 0u);
}

TEST(Table, EveryEntryStatesLaneWidthSemanticsAndSideConditions) {
  for (const auto &e : cv::intrinsicTable()) {
    EXPECT_GT(e.laneBits, 0u) << e.name;
    EXPECT_FALSE(e.semantics.empty()) << e.name;
    EXPECT_FALSE(e.side.empty()) << e.name;
    EXPECT_FALSE(e.feature.empty()) << e.name;
    EXPECT_EQ(e.builtin.empty(), e.argmap.empty()) << e.name << ": macro intrinsics map their arguments";
  }
}

}  // namespace
