// tests/verify/samples/poly_sample.cpp: a hand-written stand-in for the generator's Poly1305 code,
// in the emitted dialect (emitted/README.md) and the shape of docs/internal-plan.md: radix 2^44
// limbs (44/44/42), 8 lanes, madd52lo/hi products, hi-fold, carry chain 0>1 1>2 2>0 0>1,
// `chapoly-invariant` comments before loops, final reduction in its own helper.
// Used as verifier test input only; it is checked against OpenSSL by tests/verify.
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

// spec: sample.toml:1 poly1305.multiply
// chapoly-bounds-only (a hand-written sample: its helpers are checked for bounds, not values)
static inline void poly_mul(__m512i &h0, __m512i &h1, __m512i &h2, __m512i r0, __m512i r1,
                            __m512i r2, __m512i s1, __m512i s2) {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i m44 = _mm512_set1_epi64(0xfffffffffffULL);
  const __m512i m42 = _mm512_set1_epi64(0x3ffffffffffULL);
  __m512i d0lo = _mm512_madd52lo_epu64(zero, h0, r0);
  __m512i d0hi = _mm512_madd52hi_epu64(zero, h0, r0);
  __m512i d1lo = _mm512_madd52lo_epu64(zero, h0, r1);
  __m512i d1hi = _mm512_madd52hi_epu64(zero, h0, r1);
  __m512i d2lo = _mm512_madd52lo_epu64(zero, h0, r2);
  __m512i d2hi = _mm512_madd52hi_epu64(zero, h0, r2);
  d0lo = _mm512_madd52lo_epu64(d0lo, h1, s2);
  d0hi = _mm512_madd52hi_epu64(d0hi, h1, s2);
  d1lo = _mm512_madd52lo_epu64(d1lo, h1, r0);
  d1hi = _mm512_madd52hi_epu64(d1hi, h1, r0);
  d2lo = _mm512_madd52lo_epu64(d2lo, h1, r1);
  d2hi = _mm512_madd52hi_epu64(d2hi, h1, r1);
  d0lo = _mm512_madd52lo_epu64(d0lo, h2, s1);
  d0hi = _mm512_madd52hi_epu64(d0hi, h2, s1);
  d1lo = _mm512_madd52lo_epu64(d1lo, h2, s2);
  d1hi = _mm512_madd52hi_epu64(d1hi, h2, s2);
  d2lo = _mm512_madd52lo_epu64(d2lo, h2, r0);
  d2hi = _mm512_madd52hi_epu64(d2hi, h2, r0);
  // spec: sample.toml:2 poly1305.hi_fold
  d1lo = _mm512_add_epi64(d1lo, _mm512_slli_epi64(d0hi, 8));
  d2lo = _mm512_add_epi64(d2lo, _mm512_slli_epi64(d1hi, 8));
  __m512i t = _mm512_slli_epi64(d2hi, 10);
  d0lo = _mm512_add_epi64(d0lo, _mm512_add_epi64(t, _mm512_slli_epi64(t, 2)));
  // spec: sample.toml:3 poly1305.carry_chain
  __m512i c = _mm512_srli_epi64(d0lo, 44);
  d0lo = _mm512_and_si512(d0lo, m44);
  d1lo = _mm512_add_epi64(d1lo, c);
  c = _mm512_srli_epi64(d1lo, 44);
  d1lo = _mm512_and_si512(d1lo, m44);
  d2lo = _mm512_add_epi64(d2lo, c);
  c = _mm512_srli_epi64(d2lo, 42);
  d2lo = _mm512_and_si512(d2lo, m42);
  d0lo = _mm512_add_epi64(d0lo, _mm512_add_epi64(c, _mm512_slli_epi64(c, 2)));
  c = _mm512_srli_epi64(d0lo, 44);
  d0lo = _mm512_and_si512(d0lo, m44);
  d1lo = _mm512_add_epi64(d1lo, c);
  h0 = d0lo;
  h1 = d1lo;
  h2 = d2lo;
}

// spec: sample.toml:4 poly1305.message_limbs
// chapoly-bounds-only (a hand-written sample: its helpers are checked for bounds, not values)
static inline void poly_load8(__m512i &m0, __m512i &m1, __m512i &m2, const uint8_t *p) {
  const __m512i m44 = _mm512_set1_epi64(0xfffffffffffULL);
  const __m512i m24 = _mm512_set1_epi64(0xffffffULL);
  const __m512i even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
  const __m512i odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
  __m512i v0 = _mm512_loadu_si512(p);
  __m512i v1 = _mm512_loadu_si512(p + 64);
  __m512i lo = _mm512_permutex2var_epi64(v0, even, v1);
  __m512i hi = _mm512_permutex2var_epi64(v0, odd, v1);
  m0 = _mm512_and_si512(lo, m44);
  m1 = _mm512_or_si512(_mm512_srli_epi64(lo, 44), _mm512_slli_epi64(_mm512_and_si512(hi, m24), 20));
  m2 = _mm512_or_si512(_mm512_srli_epi64(hi, 24), _mm512_set1_epi64(1ULL << 40));
}

// chapoly-bounds-only (a hand-written sample: its helpers are checked for bounds, not values)
static inline uint64_t load_le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// chapoly-final-reduction
// spec: sample.toml:5 poly1305.final
static inline void poly_final(uint8_t tag[16], uint64_t h0, uint64_t h1, uint64_t h2,
                              const uint8_t s[16]) {
  const uint64_t m44 = 0xfffffffffffULL;
  const uint64_t m42 = 0x3ffffffffffULL;
  uint64_t c = h1 >> 44;
  h1 &= m44;
  h2 += c;
  c = h2 >> 42;
  h2 &= m42;
  h0 += c + (c << 2);
  c = h0 >> 44;
  h0 &= m44;
  h1 += c;
  c = h1 >> 44;
  h1 &= m44;
  h2 += c;
  c = h2 >> 42;
  h2 &= m42;
  h0 += c + (c << 2);
  c = h0 >> 44;
  h0 &= m44;
  h1 += c;
  // g = h + 5 - 2^130; select g when it did not borrow
  uint64_t g0 = h0 + 5;
  c = g0 >> 44;
  g0 &= m44;
  uint64_t g1 = h1 + c;
  c = g1 >> 44;
  g1 &= m44;
  uint64_t g2 = h2 + c;
  uint64_t sel = g2 >> 42;
  g2 &= m42;
  uint64_t mask = sel * 0xffffffffffffffffULL;
  h0 = (h0 & ~mask) | (g0 & mask);
  h1 = (h1 & ~mask) | (g1 & mask);
  h2 = (h2 & ~mask) | (g2 & mask);
  // + s mod 2^128, in 44-bit limbs
  uint64_t s0 = load_le64(s);
  uint64_t s1 = load_le64(s + 8);
  h0 += s0 & m44;
  c = h0 >> 44;
  h0 &= m44;
  h1 += ((s0 >> 44) | (s1 << 20)) & m44;
  h1 += c;
  c = h1 >> 44;
  h1 &= m44;
  h2 += (s1 >> 24) + c;
  uint64_t t0 = h0 | (h1 << 44);
  uint64_t t1 = (h1 >> 20) | (h2 << 24);
  for (int i = 0; i < 8; ++i) {
    tag[i] = (uint8_t)(t0 >> (8 * i));
    tag[8 + i] = (uint8_t)(t1 >> (8 * i));
  }
}

extern "C" void chapoly_k_sample_poly1305(uint8_t tag[16], const uint8_t *msg, size_t len,
                                          const uint8_t key[32]) {
  const uint64_t m44 = 0xfffffffffffULL;
  // spec: sample.toml:6 poly1305.key_setup
  uint64_t k0 = load_le64(key) & 0x0ffffffc0fffffffULL;
  uint64_t k1 = load_le64(key + 8) & 0x0ffffffc0ffffffcULL;
  __m512i r0 = _mm512_set1_epi64(k0 & m44);
  __m512i r1 = _mm512_set1_epi64((k0 >> 44) | ((k1 & 0xffffffULL) << 20));
  __m512i r2 = _mm512_set1_epi64(k1 >> 24);
  __m512i s1 = _mm512_add_epi64(_mm512_slli_epi64(r1, 4), _mm512_slli_epi64(r1, 2));
  __m512i s2 = _mm512_add_epi64(_mm512_slli_epi64(r2, 4), _mm512_slli_epi64(r2, 2));
  // lane j holds r^(8-j): multiply the lanes that still need a higher power
  __m512i p0 = r0, p1 = r1, p2 = r2;
  __m512i q0 = r0, q1 = r1, q2 = r2;
  poly_mul(q0, q1, q2, r0, r1, r2, s1, s2);
  p0 = _mm512_mask_blend_epi64(0x7f, p0, q0);
  p1 = _mm512_mask_blend_epi64(0x7f, p1, q1);
  p2 = _mm512_mask_blend_epi64(0x7f, p2, q2);
  for (int k = 3; k <= 8; ++k) {
    poly_mul(q0, q1, q2, r0, r1, r2, s1, s2);
    __mmask8 sel = (__mmask8)((1u << (9 - k)) - 1);
    p0 = _mm512_mask_blend_epi64(sel, p0, q0);
    p1 = _mm512_mask_blend_epi64(sel, p1, q1);
    p2 = _mm512_mask_blend_epi64(sel, p2, q2);
  }
  __m512i r8_0 = _mm512_permutexvar_epi64(_mm512_setzero_si512(), p0);
  __m512i r8_1 = _mm512_permutexvar_epi64(_mm512_setzero_si512(), p1);
  __m512i r8_2 = _mm512_permutexvar_epi64(_mm512_setzero_si512(), p2);
  __m512i r8s1 = _mm512_add_epi64(_mm512_slli_epi64(r8_1, 4), _mm512_slli_epi64(r8_1, 2));
  __m512i r8s2 = _mm512_add_epi64(_mm512_slli_epi64(r8_2, 4), _mm512_slli_epi64(r8_2, 2));
  __m512i ps1 = _mm512_add_epi64(_mm512_slli_epi64(p1, 4), _mm512_slli_epi64(p1, 2));
  __m512i ps2 = _mm512_add_epi64(_mm512_slli_epi64(p2, 4), _mm512_slli_epi64(p2, 2));

  __m512i acc0 = _mm512_setzero_si512();
  __m512i acc1 = _mm512_setzero_si512();
  __m512i acc2 = _mm512_setzero_si512();
  // spec: sample.toml:7 poly1305.bulk
  // chapoly-invariant: acc0 <= 0xfffffffffff
  // chapoly-invariant: acc1 <= 0x10000000007f
  // chapoly-invariant: acc2 <= 0x3ffffffffff
  while (len >= 256) {
    __m512i m0, m1, m2;
    poly_load8(m0, m1, m2, msg);
    acc0 = _mm512_add_epi64(acc0, m0);
    acc1 = _mm512_add_epi64(acc1, m1);
    acc2 = _mm512_add_epi64(acc2, m2);
    poly_mul(acc0, acc1, acc2, r8_0, r8_1, r8_2, r8s1, r8s2);
    msg += 128;
    len -= 128;
  }
  uint64_t h0 = 0, h1 = 0, h2 = 0;
  if (len >= 128) {
    __m512i m0, m1, m2;
    poly_load8(m0, m1, m2, msg);
    acc0 = _mm512_add_epi64(acc0, m0);
    acc1 = _mm512_add_epi64(acc1, m1);
    acc2 = _mm512_add_epi64(acc2, m2);
    poly_mul(acc0, acc1, acc2, p0, p1, p2, ps1, ps2);
    msg += 128;
    len -= 128;
    // spec: sample.toml:8 poly1305.lane_sum
    h0 = (uint64_t)_mm512_reduce_add_epi64(acc0);
    h1 = (uint64_t)_mm512_reduce_add_epi64(acc1);
    h2 = (uint64_t)_mm512_reduce_add_epi64(acc2);
    uint64_t c = h0 >> 44;
    h0 &= m44;
    h1 += c;
    c = h1 >> 44;
    h1 &= m44;
    h2 += c;
    c = h2 >> 42;
    h2 &= 0x3ffffffffffULL;
    h0 += c + (c << 2);
    c = h0 >> 44;
    h0 &= m44;
    h1 += c;
  }
  // spec: sample.toml:9 poly1305.tail
  // chapoly-invariant: h0 <= 0xfffffffffff
  // chapoly-invariant: h1 <= 0x10000000007f
  // chapoly-invariant: h2 <= 0x3ffffffffff
  while (len >= 16) {
    uint64_t lo = load_le64(msg);
    uint64_t hi = load_le64(msg + 8);
    __m512i t0 = _mm512_set1_epi64(h0 + (lo & m44));
    __m512i t1 = _mm512_set1_epi64(h1 + ((lo >> 44) | ((hi & 0xffffffULL) << 20)));
    __m512i t2 = _mm512_set1_epi64(h2 + ((hi >> 24) | (1ULL << 40)));
    poly_mul(t0, t1, t2, r0, r1, r2, s1, s2);
    h0 = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(t0));
    h1 = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(t1));
    h2 = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(t2));
    msg += 16;
    len -= 16;
  }
  // spec: sample.toml:10 poly1305.partial_block
  if (len > 0) {
    uint8_t buf[16] = {0};
    for (size_t i = 0; i < len; ++i) buf[i] = msg[i];
    buf[len] = 1;
    uint64_t lo = load_le64(buf);
    uint64_t hi = load_le64(buf + 8);
    __m512i t0 = _mm512_set1_epi64(h0 + (lo & m44));
    __m512i t1 = _mm512_set1_epi64(h1 + ((lo >> 44) | ((hi & 0xffffffULL) << 20)));
    __m512i t2 = _mm512_set1_epi64(h2 + (hi >> 24));
    poly_mul(t0, t1, t2, r0, r1, r2, s1, s2);
    h0 = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(t0));
    h1 = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(t1));
    h2 = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(t2));
  }
  poly_final(tag, h0, h1, h2, key + 16);
}
