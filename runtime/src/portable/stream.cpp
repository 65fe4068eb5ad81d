// stream.cpp (portable): the streaming kernel ABI (chapoly_internal.h, emitted/README.md
// "Streaming entries") in plain C++, for backends without generated streaming entries. The
// accumulator state has the generated kernels' layout: h0, h1, h2 little-endian 64-bit words,
// h in radix 2^64 with h2 <= 4 between calls.
#include <string.h>

#include "internal/chapoly_internal.h"

namespace chapoly::internal {
namespace {

using u128 = unsigned __int128;

uint64_t load64(const uint8_t *p) {
  return static_cast<uint64_t>(load32_le(p)) | (static_cast<uint64_t>(load32_le(p + 4)) << 32);
}
void store64(uint8_t *p, uint64_t v) {
  store32_le(p, static_cast<uint32_t>(v));
  store32_le(p + 4, static_cast<uint32_t>(v >> 32));
}

// Poly1305 in radix 2^64 (RFC 8439 2.5): h = (h + m + 2^128) * r mod 2^130 - 5, partially reduced.
struct Acc {
  uint64_t h0, h1, h2, r0, r1, s1;

  Acc(const uint8_t acc[24], const uint8_t otk[32]) {
    r0 = load64(otk) & 0x0ffffffc0fffffffULL;
    r1 = load64(otk + 8) & 0x0ffffffc0ffffffcULL;
    s1 = r1 + (r1 >> 2);  // 2^128 * r1 = 5/4 * r1 (mod p): r1 % 4 == 0
    uint64_t hh = acc[16];  // h2 <= 4: byte 16 holds it; fold its bits above bit 1 in as 5 * (hh >> 2)
    u128 t = static_cast<u128>(load64(acc)) + ((hh >> 2) * 5);
    h0 = static_cast<uint64_t>(t);
    t = static_cast<u128>(load64(acc + 8)) + static_cast<uint64_t>(t >> 64);
    h1 = static_cast<uint64_t>(t);
    h2 = (hh & 3) + static_cast<uint64_t>(t >> 64);
  }
  void block(const uint8_t m[16]) {
    u128 t = static_cast<u128>(h0) + load64(m);
    uint64_t a0 = static_cast<uint64_t>(t);
    t = static_cast<u128>(h1) + load64(m + 8) + static_cast<uint64_t>(t >> 64);
    uint64_t a1 = static_cast<uint64_t>(t);
    uint64_t a2 = h2 + 1 + static_cast<uint64_t>(t >> 64);
    u128 d0 = static_cast<u128>(a0) * r0 + static_cast<u128>(a1) * s1;
    u128 d1 = static_cast<u128>(a0) * r1 + static_cast<u128>(a1) * r0 + a2 * s1;
    uint64_t d2 = a2 * r0;
    d1 += static_cast<uint64_t>(d0 >> 64);
    d2 += static_cast<uint64_t>(d1 >> 64);
    uint64_t c = (d2 >> 2) + (d2 & ~uint64_t{3});
    t = static_cast<u128>(static_cast<uint64_t>(d0)) + c;
    h0 = static_cast<uint64_t>(t);
    t = static_cast<u128>(static_cast<uint64_t>(d1)) + static_cast<uint64_t>(t >> 64);
    h1 = static_cast<uint64_t>(t);
    h2 = (d2 & 3) + static_cast<uint64_t>(t >> 64);
  }
  void store(uint8_t acc[24]) const {
    store64(acc, h0);
    store64(acc + 8, h1);
    store64(acc + 16, h2);
  }
};

void p_poly_update(uint8_t acc[24], const uint8_t *msg, size_t len, const uint8_t otk[32]) {
  Acc a(acc, otk);
  for (size_t i = 0; i + 16 <= len; i += 16) a.block(msg + i);
  a.store(acc);
}

void p_poly_finish(uint8_t tag[16], const uint8_t acc[24], const uint8_t otk[32]) {
  Acc a(acc, otk);
  // g = h + 5 >= 2^130 exactly when h >= p (h < 2p); select in constant time.
  u128 t = static_cast<u128>(a.h0) + 5;
  uint64_t g0 = static_cast<uint64_t>(t);
  t = static_cast<u128>(a.h1) + static_cast<uint64_t>(t >> 64);
  uint64_t g1 = static_cast<uint64_t>(t);
  uint64_t g2 = a.h2 + static_cast<uint64_t>(t >> 64);
  uint64_t mask = 0 - (g2 >> 2);
  uint64_t h0 = (a.h0 & ~mask) | (g0 & mask), h1 = (a.h1 & ~mask) | (g1 & mask);
  t = static_cast<u128>(h0) + load64(otk + 16);
  store64(tag, static_cast<uint64_t>(t));
  t = static_cast<u128>(h1) + load64(otk + 24) + static_cast<uint64_t>(t >> 64);
  store64(tag + 8, static_cast<uint64_t>(t));
}

void p_text_update(bool seal, uint8_t *out, const uint8_t *in, size_t len, uint8_t acc[24],
                   const uint8_t otk[32], const uint8_t nonce[12], const uint8_t key[32],
                   uint32_t counter) {
  Acc a(acc, otk);
  uint8_t ks[64];
  for (size_t off = 0; off + 64 <= len; off += 64, ++counter) {
    if (!seal)
      for (int k = 0; k < 4; ++k) a.block(in + off + 16 * k);
    chacha20_block(ks, key, counter, nonce);
    for (int i = 0; i < 64; ++i) out[off + i] = static_cast<uint8_t>(in[off + i] ^ ks[i]);
    if (seal)
      for (int k = 0; k < 4; ++k) a.block(out + off + 16 * k);
  }
  secure_wipe(ks, sizeof ks);
  a.store(acc);
}

void p_seal_update(uint8_t *out, const uint8_t *in, size_t len, uint8_t acc[24], const uint8_t otk[32],
                   const uint8_t nonce[12], const uint8_t key[32], uint32_t counter) {
  p_text_update(true, out, in, len, acc, otk, nonce, key, counter);
}
void p_open_update(uint8_t *out, const uint8_t *in, size_t len, uint8_t acc[24], const uint8_t otk[32],
                   const uint8_t nonce[12], const uint8_t key[32], uint32_t counter) {
  p_text_update(false, out, in, len, acc, otk, nonce, key, counter);
}

const char *p_missing() { return nullptr; }
void p_scrub() {
  scrub_sse_registers();
  burn_stack();
}

const StreamKernels kPortableStream = {"portable", p_poly_update, p_poly_finish, p_seal_update,
                                       p_open_update, p_missing, p_scrub};

}  // namespace

const StreamKernels &portable_stream_kernels() { return kPortableStream; }

}  // namespace chapoly::internal
