// tests/verify/samples/mul64_sample.cpp: a hand-written Poly1305 (RFC 8439 2.5) in the scalar
// radix-2^64 ("mul64") dialect of docs/verification.md: uint64_t limbs h0, h1, h2 (h2 the bits
// from 128 up), 64x64->128 products by `(unsigned __int128)a * b`, lo/hi halves by `(uint64_t)x`
// and `(uint64_t)(x >> 64)`, byte-wise little-endian loads and stores, and one
// `// chapoly-contract:` line above the clamp, the block step, the block loop, the partial-block
// loader and the final reduction (the partial block through a bytes.load_partial helper, as the
// generated kernels do: `mac-order` places the pieces of the message by their loaders).
// Used as verifier test input only (verify.sample.mul64); its bad twins under samples/ are the
// same file with one defect each.
#include <stddef.h>
#include <stdint.h>

static inline uint64_t load64_le(const uint8_t *p) {
  return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24) |
         ((uint64_t)p[4] << 32) | ((uint64_t)p[5] << 40) | ((uint64_t)p[6] << 48) | ((uint64_t)p[7] << 56);
}

static inline void store64_le(uint8_t *p, uint64_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
  p[4] = (uint8_t)(v >> 32);
  p[5] = (uint8_t)(v >> 40);
  p[6] = (uint8_t)(v >> 48);
  p[7] = (uint8_t)(v >> 56);
}

// chapoly-contract: {"role": "poly1305.clamp", "out": ["r0", "r1"], "derived": ["s1"], "key": "key", "radix": 64, "spec": "sample64.toml:1"}
static inline void p1305_clamp(uint64_t &r0, uint64_t &r1, uint64_t &s1, const uint8_t key[32]) {
  r0 = load64_le(key) & 0x0ffffffc0fffffffULL;
  r1 = load64_le(key + 8) & 0x0ffffffc0ffffffcULL;
  s1 = r1 + (r1 >> 2);
}

// One block step: h = (h + m0 + 2^64 m1 + pad * 2^128) * r mod 2^130 - 5 (partially reduced).
// chapoly-contract: {"role": "poly1305.blocks", "acc": ["h0", "h1", "h2"], "key": ["r0", "r1"], "derived": {"s1": "r1 + (r1 >> 2)"}, "msg": ["m0", "m1"], "block_bytes": 16, "pad": "pad", "radix": 64, "limbs": [64, 64, 2], "spec": "sample64.toml:2"}
static inline void p1305_block(uint64_t &h0, uint64_t &h1, uint64_t &h2, uint64_t r0, uint64_t r1,
                               uint64_t s1, uint64_t m0, uint64_t m1, uint64_t pad) {
  unsigned __int128 t;
  t = (unsigned __int128)h0 + m0;
  h0 = (uint64_t)t;
  t = (unsigned __int128)h1 + m1 + (uint64_t)(t >> 64);
  h1 = (uint64_t)t;
  h2 = h2 + pad + (uint64_t)(t >> 64);
  unsigned __int128 d0 = (unsigned __int128)h0 * r0 + (unsigned __int128)h1 * s1;
  unsigned __int128 d1 = (unsigned __int128)h0 * r1 + (unsigned __int128)h1 * r0 + (unsigned __int128)h2 * s1;
  uint64_t d2 = h2 * r0;
  d1 += (uint64_t)(d0 >> 64);
  h0 = (uint64_t)d0;
  d2 += (uint64_t)(d1 >> 64);
  h1 = (uint64_t)d1;
  const uint64_t c = (d2 >> 2) + (d2 & ~(uint64_t)3);
  h2 = d2 & 3;
  t = (unsigned __int128)h0 + c;
  h0 = (uint64_t)t;
  t = (unsigned __int128)h1 + (uint64_t)(t >> 64);
  h1 = (uint64_t)t;
  h2 = h2 + (uint64_t)(t >> 64);
}

// The last n < 16 bytes of the message as one block with the 0x01 byte after them (2.5.1).
// chapoly-contract: {"role": "bytes.load_partial", "out": ["m0", "m1"], "src": "p", "len": "n", "max_len": 15, "marker": "marker", "spec": "sample64.toml:5"}
static inline void p1305_load_partial(uint64_t &m0, uint64_t &m1, const uint8_t *p, size_t n, uint8_t marker) {
  uint8_t buf[16];
  for (size_t i = 0; i < 16; ++i) buf[i] = 0;
  for (size_t i = 0; i < n; ++i) buf[i] = p[i];
  buf[n] = marker;
  m0 = load64_le(buf);
  m1 = load64_le(buf + 8);
}

// chapoly-contract: {"role": "poly1305.final", "acc": ["h0", "h1", "h2"], "s": ["s0", "s1"], "radix": 64, "spec": "sample64.toml:3"}
static inline void p1305_final(uint8_t tag[16], uint64_t h0, uint64_t h1, uint64_t h2, uint64_t s0, uint64_t s1) {
  unsigned __int128 t = (unsigned __int128)h0 + 5;  // g = h + 5: g >= 2^130 iff h >= p
  const uint64_t g0 = (uint64_t)t;
  t = (unsigned __int128)h1 + (uint64_t)(t >> 64);
  const uint64_t g1 = (uint64_t)t;
  const uint64_t g2 = h2 + (uint64_t)(t >> 64);
  const uint64_t mask = (g2 >> 2) * 0xffffffffffffffffULL;
  h0 = (h0 & ~mask) | (g0 & mask);
  h1 = (h1 & ~mask) | (g1 & mask);
  t = (unsigned __int128)h0 + s0;
  const uint64_t f0 = (uint64_t)t;
  t = (unsigned __int128)h1 + s1 + (uint64_t)(t >> 64);
  const uint64_t f1 = (uint64_t)t;
  store64_le(tag, f0);
  store64_le(tag + 8, f1);
}

// chapoly-contract: {"role": "poly1305.oneshot", "spec": "sample64.toml:4"}
extern "C" void chapoly_k_sample64_poly1305(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32]) {
  uint64_t r0, r1, s1;
  p1305_clamp(r0, r1, s1, key);
  uint64_t h0 = 0, h1 = 0, h2 = 0;
  // chapoly-contract: {"role": "poly1305.blocks", "acc": ["h0", "h1", "h2"], "key": ["r0", "r1"], "derived": {"s1": "r1 + (r1 >> 2)"}, "msg": "msg", "block_bytes": 16, "pad": 1, "radix": 64, "limbs": [64, 64, 2], "spec": "sample64.toml:2"}
  // chapoly-invariant: h0 <= 0xffffffffffffffff
  // chapoly-invariant: h1 <= 0xffffffffffffffff
  // chapoly-invariant: h2 <= 0x4
  for (size_t i = 0; i < len / 16; ++i) {
    p1305_block(h0, h1, h2, r0, r1, s1, load64_le(msg + i * 16), load64_le(msg + i * 16 + 8), 1);
  }
  const size_t rem = len % 16;
  if (rem != 0) {
    uint64_t m0 = 0, m1 = 0;
    p1305_load_partial(m0, m1, msg + (len - rem), rem, 1);
    p1305_block(h0, h1, h2, r0, r1, s1, m0, m1, 0);
  }
  p1305_final(tag, h0, h1, h2, load64_le(key + 16), load64_le(key + 24));
}
