// portable/poly1305.cpp: Poly1305 written from RFC 8439 section 2.5 in plain C++ (no SIMD, no
// 128-bit integers). The 130-bit accumulator is five 26-bit limbs, so every product of a limb of
// h (< 2^27) with a limb of r or 5*r (< 2^29) fits in 56 bits and a sum of five in 59 bits.
//
// Equivalent math, per 16-byte block m (with 2^128 added for a full block, or a 0x01 byte
// appended for the final partial block): h = (h + m) * r mod 2^130 - 5; tag = (h mod p + s)
// mod 2^128. A deliberately different representation from the 2^44 IFMA kernels.
#include <string.h>

#include "internal/chapoly_internal.h"

namespace chapoly::internal {
namespace {

constexpr uint64_t kMask26 = (uint64_t{1} << 26) - 1;

uint64_t load64_le(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// Split the 128-bit little-endian number (lo, hi) into 26-bit limbs; bits 104..127 go to limb 4.
void split26(uint64_t lo, uint64_t hi, uint64_t out[5]) {
  out[0] = lo & kMask26;
  out[1] = (lo >> 26) & kMask26;
  out[2] = ((lo >> 52) | (hi << 12)) & kMask26;
  out[3] = (hi >> 14) & kMask26;
  out[4] = hi >> 40;
}

// One block: h = (h + m) * r mod 2^130 - 5 with a partial carry chain. `hibit` is 1 for a full
// 16-byte block (the 2^128 term), 0 for the padded final block (whose 0x01 byte is in `block`).
void absorb_block(Poly1305State &st, const uint8_t block[16], uint64_t hibit) {
  uint64_t m[5];
  split26(load64_le(block), load64_le(block + 8), m);
  m[4] |= hibit << 24;  // 2^128 = 2^(104 + 24)

  uint64_t h0 = st.h[0] + m[0], h1 = st.h[1] + m[1], h2 = st.h[2] + m[2];
  uint64_t h3 = st.h[3] + m[3], h4 = st.h[4] + m[4];
  const uint64_t r0 = st.r[0], r1 = st.r[1], r2 = st.r[2], r3 = st.r[3], r4 = st.r[4];
  // 2^130 = 5 (mod p): a limb product that lands at weight 2^(26*k), k >= 5, folds down as *5.
  const uint64_t s1 = r1 * 5, s2 = r2 * 5, s3 = r3 * 5, s4 = r4 * 5;

  uint64_t d0 = h0 * r0 + h1 * s4 + h2 * s3 + h3 * s2 + h4 * s1;
  uint64_t d1 = h0 * r1 + h1 * r0 + h2 * s4 + h3 * s3 + h4 * s2;
  uint64_t d2 = h0 * r2 + h1 * r1 + h2 * r0 + h3 * s4 + h4 * s3;
  uint64_t d3 = h0 * r3 + h1 * r2 + h2 * r1 + h3 * r0 + h4 * s4;
  uint64_t d4 = h0 * r4 + h1 * r3 + h2 * r2 + h3 * r1 + h4 * r0;

  uint64_t c;
  c = d0 >> 26; d0 &= kMask26; d1 += c;
  c = d1 >> 26; d1 &= kMask26; d2 += c;
  c = d2 >> 26; d2 &= kMask26; d3 += c;
  c = d3 >> 26; d3 &= kMask26; d4 += c;
  c = d4 >> 26; d4 &= kMask26; d0 += c * 5;
  c = d0 >> 26; d0 &= kMask26; d1 += c;

  st.h[0] = static_cast<uint32_t>(d0);
  st.h[1] = static_cast<uint32_t>(d1);
  st.h[2] = static_cast<uint32_t>(d2);
  st.h[3] = static_cast<uint32_t>(d3);
  st.h[4] = static_cast<uint32_t>(d4);
}

// Fold the bits at and above 2^130 of the 5-word value w (w[4] holds bits 128..) back in as *5.
void fold130(uint64_t w[5]) {
  uint64_t top = w[4] >> 2;
  w[4] &= 3;
  uint64_t c = top * 5;
  for (int i = 0; i < 5; ++i) {
    c += w[i];
    w[i] = c & 0xffffffffu;
    c >>= 32;
  }
}

}  // namespace

void poly1305_init(Poly1305State &st, const uint8_t key[32]) {
  // Section 2.5: r = key[0..16) with the clamp 0x0ffffffc0ffffffc0ffffffc0fffffff.
  uint64_t lo = load64_le(key) & 0x0ffffffc0fffffffull;
  uint64_t hi = load64_le(key + 8) & 0x0ffffffc0ffffffcull;
  uint64_t r[5];
  split26(lo, hi, r);
  for (int i = 0; i < 5; ++i) st.r[i] = static_cast<uint32_t>(r[i]);
  for (int i = 0; i < 5; ++i) st.h[i] = 0;
  for (int i = 0; i < 4; ++i) st.s[i] = load32_le(key + 16 + 4 * i);
  st.buf_len = 0;
  secure_wipe(r, sizeof r);
}

void poly1305_update(Poly1305State &st, const uint8_t *msg, size_t len) {
  if (st.buf_len > 0) {
    size_t take = 16 - st.buf_len;
    if (take > len) take = len;
    memcpy(st.buf + st.buf_len, msg, take);
    st.buf_len += take;
    msg += take;
    len -= take;
    if (st.buf_len < 16) return;
    absorb_block(st, st.buf, 1);
    st.buf_len = 0;
  }
  while (len >= 16) {
    absorb_block(st, msg, 1);
    msg += 16;
    len -= 16;
  }
  if (len > 0) {
    memcpy(st.buf, msg, len);
    st.buf_len = len;
  }
}

void poly1305_final(Poly1305State &st, uint8_t tag[16]) {
  if (st.buf_len > 0) {
    // Final partial block: append 0x01, zero-fill to 16 bytes, no 2^128 term.
    st.buf[st.buf_len] = 1;
    for (size_t i = st.buf_len + 1; i < 16; ++i) st.buf[i] = 0;
    absorb_block(st, st.buf, 0);
  }
  // Repack the limbs (each < 2^27) into 32-bit words by exact addition: limb k has weight
  // 2^(26k), i.e. bit offset 26k - 32j inside word j.
  uint64_t w[5];
  uint64_t acc = st.h[0] + (static_cast<uint64_t>(st.h[1]) << 26);
  w[0] = acc & 0xffffffffu;
  acc = (acc >> 32) + (static_cast<uint64_t>(st.h[2]) << 20);
  w[1] = acc & 0xffffffffu;
  acc = (acc >> 32) + (static_cast<uint64_t>(st.h[3]) << 14);
  w[2] = acc & 0xffffffffu;
  acc = (acc >> 32) + (static_cast<uint64_t>(st.h[4]) << 8);
  w[3] = acc & 0xffffffffu;
  w[4] = acc >> 32;  // bits 128 and up (a few bits)
  // h < 2^131 here; two folds of 2^130 = 5 bring it below 2^130 (after the first fold
  // h < 2^130 + 20, after the second the high part is 0 unless h was tiny, and then it is < 25).
  fold130(w);
  fold130(w);
  // Full reduction: if h + 5 >= 2^130, i.e. h >= p, the result is h + 5 - 2^130. Constant time.
  uint64_t g[5];
  uint64_t c = 5;
  for (int i = 0; i < 5; ++i) {
    c += w[i];
    g[i] = c & 0xffffffffu;
    c >>= 32;
  }
  uint64_t use_g = 0 - (g[4] >> 2);  // all ones when bit 130 of h + 5 is set
  for (int i = 0; i < 4; ++i) w[i] = (w[i] & ~use_g) | (g[i] & use_g);
  // tag = (h + s) mod 2^128.
  c = 0;
  for (int i = 0; i < 4; ++i) {
    c += w[i] + st.s[i];
    store32_le(tag + 4 * i, static_cast<uint32_t>(c));
    c >>= 32;
  }
  secure_wipe(w, sizeof w);
  secure_wipe(g, sizeof g);
  secure_wipe(&st, sizeof st);
}

void poly1305(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32]) {
  Poly1305State st;
  poly1305_init(st, key);
  if (len > 0) poly1305_update(st, msg, len);
  poly1305_final(st, tag);
}

}  // namespace chapoly::internal
