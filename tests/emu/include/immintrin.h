// immintrin.h (tests only): what `#include <immintrin.h>` in an emitted kernel resolves to in the
// emulated build (tests/emu/CMakeLists.txt puts this folder first on the include path). Every
// Intel intrinsic name becomes a portable function: SIMDe's native aliases, then the shim
// (chapoly_emu_shim.h) for what SIMDe 0.7.4 lacks. The kernel's text is compiled unmodified.
#ifndef CHAPOLY_EMU_IMMINTRIN_H
#define CHAPOLY_EMU_IMMINTRIN_H

// An emulated kernel must not contain a single real AVX-512 instruction: with these enabled,
// SIMDe would use the native instructions instead of its portable code.
#if defined(__AVX512F__) || defined(__AVX512IFMA__) || defined(__AVX512BW__) || defined(__AVX512VL__)
#error "tests/emu: the emulated kernels must be compiled without AVX-512 flags (-mno-avx512f)"
#endif

// Clang 16's SSE2 header already names a bf16 vector `__m128bh`, which SIMDe's alias of the same
// name would redefine as another type: take the compiler's header first, and give SIMDe's alias
// another name while SIMDe is read (no kernel uses bf16).
#include <emmintrin.h>
#define __m128bh chapoly_emu_simde_m128bh
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>
#undef __m128bh

#include "../chapoly_emu_shim.h"

// Mask and immediate types the kernels name (the compilers' headers define them; SIMDe's aliases
// do not).
typedef simde__mmask8 __mmask8;
typedef simde__mmask16 __mmask16;
typedef simde__mmask32 __mmask32;
typedef simde__mmask64 __mmask64;
#define _MM_PERM_ENUM chapoly_emu_perm_enum

// The shim under the Intel names.
#define _mm512_madd52lo_epu64(a, b, c) chapoly_emu_mm512_madd52lo_epu64((a), (b), (c))
#define _mm512_madd52hi_epu64(a, b, c) chapoly_emu_mm512_madd52hi_epu64((a), (b), (c))
#define _mm256_madd52lo_epu64(a, b, c) chapoly_emu_mm256_madd52lo_epu64((a), (b), (c))
#define _mm256_madd52hi_epu64(a, b, c) chapoly_emu_mm256_madd52hi_epu64((a), (b), (c))
#define _mm512_maskz_loadu_epi8(k, p) chapoly_emu_mm512_maskz_loadu_epi8((k), (p))
#define _mm256_maskz_loadu_epi8(k, p) chapoly_emu_mm256_maskz_loadu_epi8((k), (p))
#define _mm_maskz_loadu_epi8(k, p) chapoly_emu_mm_maskz_loadu_epi8((k), (p))
#define _mm512_mask_storeu_epi8(p, k, a) chapoly_emu_mm512_mask_storeu_epi8((p), (k), (a))
#define _mm256_maskz_set1_epi8(k, v) chapoly_emu_mm256_maskz_set1_epi8((k), (v))
#define _mm256_maskz_set1_epi64(k, v) chapoly_emu_mm256_maskz_set1_epi64((k), (v))
#define _mm512_shuffle_epi32(a, imm) chapoly_emu_mm512_shuffle_epi32((a), (int)(imm))
#define _mm512_shuffle_i64x2(a, b, imm) chapoly_emu_mm512_shuffle_i64x2((a), (b), (imm))
#define _bzhi_u32(x, n) chapoly_emu_bzhi_u32((x), (n))
#define _bzhi_u64(x, n) chapoly_emu_bzhi_u64((x), (n))

#endif  // CHAPOLY_EMU_IMMINTRIN_H
