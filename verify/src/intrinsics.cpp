// intrinsics.cpp: the semantics table. Each model is written from the Intel SDM / Intrinsics
// Guide description of the instruction (operation pseudo-code), lane by lane, without using the
// instruction; tests/verify/intrinsics_test.cpp compares every model with the real instruction.
#include "intrinsics.h"

#include <unordered_map>

namespace cv {

uint64_t Bits::get(unsigned laneBits, unsigned i) const {
  if (laneBits == 64) return w[i];
  unsigned per = 64 / laneBits;
  uint64_t m = laneBits == 64 ? ~0ull : ((1ull << laneBits) - 1);
  return (w[i / per] >> ((i % per) * laneBits)) & m;
}

void Bits::set(unsigned laneBits, unsigned i, uint64_t v) {
  if (laneBits == 64) {
    w[i] = v;
    return;
  }
  unsigned per = 64 / laneBits;
  uint64_t m = (1ull << laneBits) - 1;
  unsigned sh = (i % per) * laneBits;
  w[i / per] = (w[i / per] & ~(m << sh)) | ((v & m) << sh);
}

namespace {

using A = const std::vector<Bits> &;
constexpr uint64_t M52 = (1ull << 52) - 1;

uint64_t imm(A a, size_t i) { return a[i].w[0]; }
Bits scalar(uint64_t v) {
  Bits b;
  b.w[0] = v;
  return b;
}
Bits lanes(unsigned laneBits, unsigned n, uint64_t (*f)(A, unsigned), A a) {
  Bits r;
  for (unsigned i = 0; i < n; ++i) r.set(laneBits, i, f(a, i));
  return r;
}
uint64_t rotl32(uint64_t x, unsigned s) {
  x &= 0xffffffffu;
  s &= 31;
  return s == 0 ? x : (((x << s) | (x >> (32 - s))) & 0xffffffffu);
}
uint64_t rotr32(uint64_t x, unsigned s) { return rotl32(x, (32 - (s & 31)) & 31); }

// ---- 64-bit lane arithmetic (Poly1305) ----
Bits madd52lo(A a) {
  return lanes(64, 8, [](A a, unsigned i) {
    unsigned __int128 p = (unsigned __int128)(a[1].w[i] & M52) * (a[2].w[i] & M52);
    return a[0].w[i] + (uint64_t)(p & M52);
  }, a);
}
Bits madd52hi(A a) {
  return lanes(64, 8, [](A a, unsigned i) {
    unsigned __int128 p = (unsigned __int128)(a[1].w[i] & M52) * (a[2].w[i] & M52);
    return a[0].w[i] + (uint64_t)(p >> 52);
  }, a);
}
template <unsigned N>
Bits addq(A a) {
  return lanes(64, N, [](A a, unsigned i) { return a[0].w[i] + a[1].w[i]; }, a);
}
template <unsigned N>
Bits subq(A a) {
  return lanes(64, N, [](A a, unsigned i) { return a[0].w[i] - a[1].w[i]; }, a);
}
template <unsigned N>
Bits slliq(A a) {
  return lanes(64, N, [](A a, unsigned i) {
    uint64_t c = imm(a, 1) & 0xffffffffu;
    return c > 63 ? 0 : a[0].w[i] << c;
  }, a);
}
template <unsigned N>
Bits srliq(A a) {
  return lanes(64, N, [](A a, unsigned i) {
    uint64_t c = imm(a, 1) & 0xffffffffu;
    return c > 63 ? 0 : a[0].w[i] >> c;
  }, a);
}
Bits muludq(A a) {
  return lanes(64, 8, [](A a, unsigned i) {
    return (a[0].w[i] & 0xffffffffu) * (a[1].w[i] & 0xffffffffu);
  }, a);
}
template <unsigned N>
Bits and_(A a) {
  return lanes(64, N, [](A a, unsigned i) { return a[0].w[i] & a[1].w[i]; }, a);
}
template <unsigned N>
Bits or_(A a) {
  return lanes(64, N, [](A a, unsigned i) { return a[0].w[i] | a[1].w[i]; }, a);
}
template <unsigned N>
Bits xor_(A a) {
  return lanes(64, N, [](A a, unsigned i) { return a[0].w[i] ^ a[1].w[i]; }, a);
}
Bits andnot(A a) {
  return lanes(64, 8, [](A a, unsigned i) { return ~a[0].w[i] & a[1].w[i]; }, a);
}
Bits ternlog(A a) {
  Bits r;
  uint64_t t = imm(a, 3) & 0xff;
  for (unsigned i = 0; i < 8; ++i) {
    uint64_t out = 0;
    for (unsigned b = 0; b < 64; ++b) {
      unsigned idx = (unsigned)((((a[0].w[i] >> b) & 1) << 2) | (((a[1].w[i] >> b) & 1) << 1) |
                                ((a[2].w[i] >> b) & 1));
      out |= ((t >> idx) & 1) << b;
    }
    r.w[i] = out;
  }
  return r;
}
Bits reduceAddQ(A a) {
  uint64_t s = 0;
  for (unsigned i = 0; i < 8; ++i) s += a[0].w[i];
  return scalar(s);
}

// ---- lane movement and construction ----
Bits set1q(A a) {
  Bits r;
  for (unsigned i = 0; i < 8; ++i) r.w[i] = a[0].w[0];
  return r;
}
Bits setq(A a) {  // arguments e7 .. e0
  Bits r;
  for (unsigned i = 0; i < 8; ++i) r.w[i] = a[7 - i].w[0];
  return r;
}
Bits setrq(A a) {  // arguments e0 .. e7
  Bits r;
  for (unsigned i = 0; i < 8; ++i) r.w[i] = a[i].w[0];
  return r;
}
Bits setzero(A) { return Bits{}; }
Bits unpackloq(A a) {
  Bits r;
  for (unsigned j = 0; j < 4; ++j) r.w[2 * j] = a[0].w[2 * j], r.w[2 * j + 1] = a[1].w[2 * j];
  return r;
}
Bits unpackhiq(A a) {
  Bits r;
  for (unsigned j = 0; j < 4; ++j)
    r.w[2 * j] = a[0].w[2 * j + 1], r.w[2 * j + 1] = a[1].w[2 * j + 1];
  return r;
}
Bits permxvarq(A a) {  // (idx, a)
  Bits r;
  for (unsigned i = 0; i < 8; ++i) r.w[i] = a[1].w[a[0].w[i] & 7];
  return r;
}
Bits permx2varq(A a) {  // (a, idx, b)
  Bits r;
  for (unsigned i = 0; i < 8; ++i) {
    uint64_t k = a[1].w[i];
    r.w[i] = (k & 8) ? a[2].w[k & 7] : a[0].w[k & 7];
  }
  return r;
}
Bits shuf128(A a) {  // (a, b, imm): 128-bit blocks
  Bits r;
  uint64_t m = imm(a, 2);
  for (unsigned j = 0; j < 4; ++j) {
    const Bits &src = j < 2 ? a[0] : a[1];
    unsigned s = (unsigned)((m >> (2 * j)) & 3);
    r.w[2 * j] = src.w[2 * s];
    r.w[2 * j + 1] = src.w[2 * s + 1];
  }
  return r;
}
Bits blendq(A a) {  // (k, a, w)
  Bits r;
  for (unsigned i = 0; i < 8; ++i) r.w[i] = ((a[0].w[0] >> i) & 1) ? a[2].w[i] : a[1].w[i];
  return r;
}
Bits maskzmovq(A a) {  // (k, a)
  Bits r;
  for (unsigned i = 0; i < 8; ++i) r.w[i] = ((a[0].w[0] >> i) & 1) ? a[1].w[i] : 0;
  return r;
}
Bits maskmovq(A a) {  // (src, k, a)
  Bits r;
  for (unsigned i = 0; i < 8; ++i) r.w[i] = ((a[1].w[0] >> i) & 1) ? a[2].w[i] : a[0].w[i];
  return r;
}
Bits alignrq(A a) {  // (a, b, imm): (a:b) >> 64*imm
  Bits r;
  unsigned s = (unsigned)(imm(a, 2) & 7);
  for (unsigned i = 0; i < 8; ++i) r.w[i] = i + s < 8 ? a[1].w[i + s] : a[0].w[i + s - 8];
  return r;
}
Bits permutexq(A a) {  // (x, imm): within each 256-bit half
  Bits r;
  uint64_t m = imm(a, 1);
  for (unsigned h = 0; h < 2; ++h)
    for (unsigned j = 0; j < 4; ++j) r.w[4 * h + j] = a[0].w[4 * h + ((m >> (2 * j)) & 3)];
  return r;
}
Bits extract256(A a) {
  Bits r;
  unsigned h = (unsigned)(imm(a, 1) & 1);
  for (unsigned j = 0; j < 4; ++j) r.w[j] = a[0].w[4 * h + j];
  return r;
}
Bits insert256(A a) {  // (a, b256, imm)
  Bits r = a[0];
  unsigned h = (unsigned)(imm(a, 2) & 1);
  for (unsigned j = 0; j < 4; ++j) r.w[4 * h + j] = a[1].w[j];
  return r;
}
Bits low256(A a) {
  Bits r;
  for (unsigned j = 0; j < 4; ++j) r.w[j] = a[0].w[j];
  return r;
}
Bits low128(A a) {
  Bits r;
  r.w[0] = a[0].w[0];
  r.w[1] = a[0].w[1];
  return r;
}
Bits extract128of256(A a) {
  Bits r;
  unsigned h = (unsigned)(imm(a, 1) & 1);
  r.w[0] = a[0].w[2 * h];
  r.w[1] = a[0].w[2 * h + 1];
  return r;
}
Bits extract128of512(A a) {
  Bits r;
  unsigned h = (unsigned)(imm(a, 1) & 3);
  r.w[0] = a[0].w[2 * h];
  r.w[1] = a[0].w[2 * h + 1];
  return r;
}
Bits insert128(A a) {  // (a512, b128, imm)
  Bits r = a[0];
  unsigned h = (unsigned)(imm(a, 2) & 3);
  r.w[2 * h] = a[1].w[0];
  r.w[2 * h + 1] = a[1].w[1];
  return r;
}
Bits cvtsi128si64(A a) { return scalar(a[0].w[0]); }
Bits extractq128(A a) { return scalar(a[0].w[imm(a, 1) & 1]); }
Bits unpackhiq128(A a) {
  Bits r;
  r.w[0] = a[0].w[1];
  r.w[1] = a[1].w[1];
  return r;
}
Bits zext32to64(A a) {  // _mm512_cvtepu32_epi64(__m256i)
  Bits r;
  for (unsigned i = 0; i < 8; ++i) r.w[i] = a[0].get(32, i);
  return r;
}
Bits broadcast128(A a) {
  Bits r;
  for (unsigned j = 0; j < 4; ++j) r.w[2 * j] = a[0].w[0], r.w[2 * j + 1] = a[0].w[1];
  return r;
}

Bits broadcastd(A a) {
  return lanes(32, 16, [](A a, unsigned) { return a[0].get(32, 0); }, a);
}
Bits maskzpermxvarq(A a) {  // (k, idx, a)
  Bits r;
  for (unsigned i = 0; i < 8; ++i) r.w[i] = ((a[0].w[0] >> i) & 1) ? a[2].w[a[1].w[i] & 7] : 0;
  return r;
}
Bits maskzset1q(A a) {  // (k, x)
  Bits r;
  for (unsigned i = 0; i < 8; ++i) r.w[i] = ((a[0].w[0] >> i) & 1) ? a[1].w[0] : 0;
  return r;
}
Bits maskzset1b(A a) {  // (k, x)
  return lanes(8, 64, [](A a, unsigned i) -> uint64_t { return ((a[0].w[0] >> i) & 1) ? (a[1].w[0] & 0xff) : 0; }, a);
}
Bits bslli128(A a) {  // (a, imm): 128-bit value shifted left by imm bytes (0 when imm > 15)
  return lanes(8, 16, [](A a, unsigned i) -> uint64_t {
    uint64_t s = imm(a, 1) & 0xff;
    if (s > 15 || i < s) return 0;
    return a[0].get(8, (unsigned)(i - s));
  }, a);
}
Bits shufd128(A a) {  // (a, imm)
  return lanes(32, 4, [](A a, unsigned i) { return a[0].get(32, (unsigned)((imm(a, 1) >> (2 * i)) & 3)); }, a);
}
Bits setrd128(A a) {  // e0 .. e3
  return lanes(32, 4, [](A a, unsigned i) { return a[i].w[0] & 0xffffffffu; }, a);
}
Bits setq128(A a) {  // (e1, e0)
  Bits r;
  r.w[0] = a[1].w[0];
  r.w[1] = a[0].w[0];
  return r;
}
template <unsigned W>
Bits bzhi(A a) {  // (x, n): bits n[7:0] and up cleared
  uint64_t n = a[1].w[0] & 0xff;
  uint64_t x = W == 64 ? a[0].w[0] : (a[0].w[0] & 0xffffffffu);
  if (n < W) x &= (n == 0 ? 0 : (~0ull >> (64 - n)));
  return scalar(x);
}
Bits maskzloadb128(A a) {  // (k, p)
  Bits r;
  for (unsigned i = 0; i < 16; ++i)
    if ((a[0].w[0] >> i) & 1) r.set(8, i, a[1].get(8, i));
  return r;
}

// ---- 32-bit lane arithmetic (ChaCha20: wraps mod 2^32 by design) ----
Bits addd(A a) {
  return lanes(32, 16, [](A a, unsigned i) { return (a[0].get(32, i) + a[1].get(32, i)) & 0xffffffffu; }, a);
}
Bits rold(A a) {
  return lanes(32, 16, [](A a, unsigned i) { return rotl32(a[0].get(32, i), (unsigned)imm(a, 1)); }, a);
}
Bits rord(A a) {
  return lanes(32, 16, [](A a, unsigned i) { return rotr32(a[0].get(32, i), (unsigned)imm(a, 1)); }, a);
}
Bits sllid(A a) {
  return lanes(32, 16, [](A a, unsigned i) {
    uint64_t c = imm(a, 1) & 0xffffffffu;
    return c > 31 ? 0 : (a[0].get(32, i) << c) & 0xffffffffu;
  }, a);
}
Bits srlid(A a) {
  return lanes(32, 16, [](A a, unsigned i) {
    uint64_t c = imm(a, 1) & 0xffffffffu;
    return c > 31 ? 0 : a[0].get(32, i) >> c;
  }, a);
}
Bits shufd(A a) {  // (a, imm): dwords within each 128-bit block
  return lanes(32, 16, [](A a, unsigned i) {
    unsigned blk = i / 4, j = i % 4;
    return a[0].get(32, blk * 4 + (unsigned)((imm(a, 1) >> (2 * j)) & 3));
  }, a);
}
Bits pshufb(A a) {  // (a, b): bytes within each 128-bit block
  return lanes(8, 64, [](A a, unsigned i) -> uint64_t {
    uint64_t c = a[1].get(8, i);
    if (c & 0x80) return 0;
    return a[0].get(8, (i / 16) * 16 + (unsigned)(c & 15));
  }, a);
}
Bits set1d(A a) {
  return lanes(32, 16, [](A a, unsigned) { return a[0].w[0] & 0xffffffffu; }, a);
}
Bits setd(A a) {  // e15 .. e0
  return lanes(32, 16, [](A a, unsigned i) { return a[15 - i].w[0] & 0xffffffffu; }, a);
}
Bits setrd(A a) {  // e0 .. e15
  return lanes(32, 16, [](A a, unsigned i) { return a[i].w[0] & 0xffffffffu; }, a);
}
Bits unpacklod(A a) {
  return lanes(32, 16, [](A a, unsigned i) {
    unsigned blk = i / 4, j = i % 4;
    return a[j & 1].get(32, blk * 4 + j / 2);
  }, a);
}
Bits unpackhid(A a) {
  return lanes(32, 16, [](A a, unsigned i) {
    unsigned blk = i / 4, j = i % 4;
    return a[j & 1].get(32, blk * 4 + 2 + j / 2);
  }, a);
}
Bits permxvard(A a) {  // (idx, a)
  return lanes(32, 16, [](A a, unsigned i) { return a[1].get(32, (unsigned)(a[0].get(32, i) & 15)); }, a);
}
Bits permx2vard(A a) {  // (a, idx, b)
  return lanes(32, 16, [](A a, unsigned i) {
    uint64_t k = a[1].get(32, i);
    return (k & 16) ? a[2].get(32, (unsigned)(k & 15)) : a[0].get(32, (unsigned)(k & 15));
  }, a);
}

// ---- memory (the Ptr argument is the 64 bytes at the pointer) ----
Bits loadu512(A a) { return a[0]; }
Bits storeu512(A a) { return a[1]; }  // (p, v) -> memory after
Bits loadu128(A a) { return low128(a); }
Bits storeu128(A a) {  // (p, v)
  Bits r = a[0];
  r.w[0] = a[1].w[0];
  r.w[1] = a[1].w[1];
  return r;
}
Bits maskzloadb(A a) {  // (k, p)
  return lanes(8, 64, [](A a, unsigned i) -> uint64_t {
    return ((a[0].w[0] >> i) & 1) ? a[1].get(8, i) : 0;
  }, a);
}
Bits maskstoreb(A a) {  // (p, k, v)
  Bits r = a[0];
  for (unsigned i = 0; i < 64; ++i)
    if ((a[1].w[0] >> i) & 1) r.set(8, i, a[2].get(8, i));
  return r;
}
Bits maskzloadq(A a) {  // (k, p)
  Bits r;
  for (unsigned i = 0; i < 8; ++i) r.w[i] = ((a[0].w[0] >> i) & 1) ? a[1].w[i] : 0;
  return r;
}
Bits maskstoreq(A a) {  // (p, k, v)
  Bits r = a[0];
  for (unsigned i = 0; i < 8; ++i)
    if ((a[1].w[0] >> i) & 1) r.w[i] = a[2].w[i];
  return r;
}

// ---- 256-bit forms (ymm: the model's low four words; the high four words of the result are 0) ----
template <unsigned N>
Bits madd52loN(A a) {
  return lanes(64, N, [](A a, unsigned i) {
    unsigned __int128 p = (unsigned __int128)(a[1].w[i] & M52) * (a[2].w[i] & M52);
    return a[0].w[i] + (uint64_t)(p & M52);
  }, a);
}
template <unsigned N>
Bits madd52hiN(A a) {
  return lanes(64, N, [](A a, unsigned i) {
    unsigned __int128 p = (unsigned __int128)(a[1].w[i] & M52) * (a[2].w[i] & M52);
    return a[0].w[i] + (uint64_t)(p >> 52);
  }, a);
}
template <unsigned N>
Bits adddN(A a) {
  return lanes(32, N, [](A a, unsigned i) { return (a[0].get(32, i) + a[1].get(32, i)) & 0xffffffffu; }, a);
}
template <unsigned N>
Bits roldN(A a) {
  return lanes(32, N, [](A a, unsigned i) { return rotl32(a[0].get(32, i), (unsigned)imm(a, 1)); }, a);
}
template <unsigned N>
Bits slldN(A a) {
  return lanes(32, N, [](A a, unsigned i) {
    uint64_t c = imm(a, 1) & 0xffffffffu;
    return c > 31 ? 0 : (a[0].get(32, i) << c) & 0xffffffffu;
  }, a);
}
template <unsigned N>
Bits srldN(A a) {
  return lanes(32, N, [](A a, unsigned i) {
    uint64_t c = imm(a, 1) & 0xffffffffu;
    return c > 31 ? 0 : a[0].get(32, i) >> c;
  }, a);
}
template <unsigned N>
Bits pshufbN(A a) {  // (a, b): bytes within each 128-bit block
  return lanes(8, N, [](A a, unsigned i) -> uint64_t {
    uint64_t c = a[1].get(8, i);
    if (c & 0x80) return 0;
    return a[0].get(8, (i / 16) * 16 + (unsigned)(c & 15));
  }, a);
}
template <unsigned N>
Bits shufdN(A a) {  // (a, imm): dwords within each 128-bit block
  return lanes(32, N, [](A a, unsigned i) {
    unsigned blk = i / 4, j = i % 4;
    return a[0].get(32, blk * 4 + (unsigned)((imm(a, 1) >> (2 * j)) & 3));
  }, a);
}
template <unsigned N>
Bits unpacklodN(A a) {
  return lanes(32, N, [](A a, unsigned i) {
    unsigned blk = i / 4, j = i % 4;
    return a[j & 1].get(32, blk * 4 + j / 2);
  }, a);
}
template <unsigned N>
Bits unpackhidN(A a) {
  return lanes(32, N, [](A a, unsigned i) {
    unsigned blk = i / 4, j = i % 4;
    return a[j & 1].get(32, blk * 4 + 2 + j / 2);
  }, a);
}
Bits unpackloq256(A a) {
  Bits r;
  for (unsigned j = 0; j < 2; ++j) r.w[2 * j] = a[0].w[2 * j], r.w[2 * j + 1] = a[1].w[2 * j];
  return r;
}
Bits unpackhiq256(A a) {
  Bits r;
  for (unsigned j = 0; j < 2; ++j) r.w[2 * j] = a[0].w[2 * j + 1], r.w[2 * j + 1] = a[1].w[2 * j + 1];
  return r;
}
template <unsigned N>
Bits set1dN(A a) {
  return lanes(32, N, [](A a, unsigned) { return a[0].w[0] & 0xffffffffu; }, a);
}
template <unsigned N>
Bits setrdN(A a) {  // e0 .. e(N-1)
  return lanes(32, N, [](A a, unsigned i) { return a[i].w[0] & 0xffffffffu; }, a);
}
template <unsigned N>
Bits setrbN(A a) {  // e0 .. e(N-1), bytes
  return lanes(8, N, [](A a, unsigned i) -> uint64_t { return a[i].w[0] & 0xff; }, a);
}
template <unsigned N>
Bits broadcastdN(A a) {
  return lanes(32, N, [](A a, unsigned) { return a[0].get(32, 0); }, a);
}
Bits set1q256(A a) {
  Bits r;
  for (unsigned i = 0; i < 4; ++i) r.w[i] = a[0].w[0];
  return r;
}
Bits setrq256(A a) {  // e0 .. e3
  Bits r;
  for (unsigned i = 0; i < 4; ++i) r.w[i] = a[i].w[0];
  return r;
}
Bits broadcast128of256(A a) {
  Bits r;
  for (unsigned j = 0; j < 2; ++j) r.w[2 * j] = a[0].w[0], r.w[2 * j + 1] = a[0].w[1];
  return r;
}
Bits permute2x128(A a) {  // (a, b, imm): each half from a.lo, a.hi, b.lo, b.hi (imm bits 1:0, 5:4), bit 3/7 zeroes
  Bits r;
  uint64_t m = imm(a, 2);
  for (unsigned h = 0; h < 2; ++h) {
    unsigned f = (unsigned)((m >> (4 * h)) & 0xf);
    if (f & 8) continue;
    const Bits &src = (f & 2) ? a[1] : a[0];
    r.w[2 * h] = src.w[2 * (f & 1)];
    r.w[2 * h + 1] = src.w[2 * (f & 1) + 1];
  }
  return r;
}
Bits permute4x64(A a) {  // (x, imm)
  Bits r;
  uint64_t m = imm(a, 1);
  for (unsigned j = 0; j < 4; ++j) r.w[j] = a[0].w[(m >> (2 * j)) & 3];
  return r;
}
Bits insert128of256(A a) {  // (a256, b128, imm)
  Bits r = low256(a);
  unsigned h = (unsigned)(imm(a, 2) & 1);
  r.w[2 * h] = a[1].w[0];
  r.w[2 * h + 1] = a[1].w[1];
  return r;
}
Bits permx2varq256(A a) {  // (a, idx, b)
  Bits r;
  for (unsigned i = 0; i < 4; ++i) {
    uint64_t k = a[1].w[i];
    r.w[i] = (k & 4) ? a[2].w[k & 3] : a[0].w[k & 3];
  }
  return r;
}
Bits maskzpermxvarq256(A a) {  // (k, idx, a)
  Bits r;
  for (unsigned i = 0; i < 4; ++i) r.w[i] = ((a[0].w[0] >> i) & 1) ? a[2].w[a[1].w[i] & 3] : 0;
  return r;
}
Bits maskzset1q256(A a) {  // (k, x)
  Bits r;
  for (unsigned i = 0; i < 4; ++i) r.w[i] = ((a[0].w[0] >> i) & 1) ? a[1].w[0] : 0;
  return r;
}
Bits maskzset1b256(A a) {  // (k, x)
  return lanes(8, 32, [](A a, unsigned i) -> uint64_t { return ((a[0].w[0] >> i) & 1) ? (a[1].w[0] & 0xff) : 0; }, a);
}
Bits blendq256(A a) {  // (k, a, w)
  Bits r;
  for (unsigned i = 0; i < 4; ++i) r.w[i] = ((a[0].w[0] >> i) & 1) ? a[2].w[i] : a[1].w[i];
  return r;
}
Bits maskzmovq256(A a) {  // (k, a)
  Bits r;
  for (unsigned i = 0; i < 4; ++i) r.w[i] = ((a[0].w[0] >> i) & 1) ? a[1].w[i] : 0;
  return r;
}
Bits maskzloadb256(A a) {  // (k, p)
  Bits r;
  for (unsigned i = 0; i < 32; ++i)
    if ((a[0].w[0] >> i) & 1) r.set(8, i, a[1].get(8, i));
  return r;
}
Bits loadu256(A a) { return low256(a); }
Bits storeu256(A a) {  // (p, v)
  Bits r = a[0];
  for (unsigned j = 0; j < 4; ++j) r.w[j] = a[1].w[j];
  return r;
}
Bits maskloadd256(A a) {  // (p, m): dword i = m[i] bit 31 ? p[i] : 0
  return lanes(32, 8, [](A a, unsigned i) -> uint64_t { return (a[1].get(32, i) >> 31) ? a[0].get(32, i) : 0; }, a);
}
Bits maskstored256(A a) {  // (p, m, v)
  Bits r = a[0];
  for (unsigned i = 0; i < 8; ++i)
    if (a[1].get(32, i) >> 31) r.set(32, i, a[2].get(32, i));
  return r;
}
Bits none(A) { return Bits{}; }

// ---- masks ----
template <unsigned B>
Bits truncTo(A a) {
  return scalar(B == 64 ? a[0].w[0] : (a[0].w[0] & ((1ull << B) - 1)));
}

std::vector<int> rev(int n) {
  std::vector<int> v;
  for (int i = 0; i < n; ++i) v.push_back(n - 1 - i);
  return v;
}

// ---- RVV 1.0 (RISC-V V extension), one lane of a scalable vector ----
// Written from the RVV 1.0 specification (sections 6 vsetvl, 7.4-7.5 unit-stride and strided
// accesses, 11.1/11.5/11.6 integer add, bitwise and shift, 16.1 vmv.v.x, 15.9 vid.v): every
// element i < vl is computed from element i of its operands alone (vid: from i; loads and stores:
// at base + i * stride, stride = element bytes for unit-stride accesses). Lanes >= vl are not
// read or written (tail elements of a result are unspecified: the tests run rvv_ta_all_1s).
template <unsigned SEW>
uint64_t rvvMask(uint64_t x) { return SEW == 64 ? x : x & ((1ull << SEW) - 1); }
template <unsigned SEW>
uint64_t rvAdd(const std::vector<uint64_t> &a, uint64_t) { return rvvMask<SEW>(a[0] + a[1]); }
template <unsigned SEW>
uint64_t rvXor(const std::vector<uint64_t> &a, uint64_t) { return rvvMask<SEW>(a[0] ^ a[1]); }
template <unsigned SEW>
uint64_t rvOr(const std::vector<uint64_t> &a, uint64_t) { return rvvMask<SEW>(a[0] | a[1]); }
// Shifts by a scalar: only the low log2(SEW) bits of the shift amount are used.
template <unsigned SEW>
uint64_t rvSll(const std::vector<uint64_t> &a, uint64_t) { return rvvMask<SEW>(a[0] << (a[1] & (SEW - 1))); }
template <unsigned SEW>
uint64_t rvSrl(const std::vector<uint64_t> &a, uint64_t) { return rvvMask<SEW>(rvvMask<SEW>(a[0]) >> (a[1] & (SEW - 1))); }
template <unsigned SEW>
uint64_t rvMvX(const std::vector<uint64_t> &a, uint64_t) { return rvvMask<SEW>(a[0]); }
template <unsigned SEW>
uint64_t rvId(const std::vector<uint64_t> &, uint64_t i) { return rvvMask<SEW>(i); }
// Loads/stores: byte offset of element i. Unit stride: i * SEW/8; strided: i * stride (a[1]).
template <unsigned SEW>
uint64_t rvUnit(const std::vector<uint64_t> &, uint64_t i) { return i * (SEW / 8); }
uint64_t rvStrided(const std::vector<uint64_t> &a, uint64_t i) { return i * a[1]; }
// vsetvl (RVV 1.0 section 6.3): AVL = 0 gives 0; AVL <= VLMAX gives AVL; VLMAX < AVL < 2 VLMAX
// gives any value in [ceil(AVL / 2), VLMAX]; AVL >= 2 VLMAX gives VLMAX. What the verifier
// assumes of vl is implied: vl = 0 iff AVL = 0, vl <= AVL, vl <= VLMAX <= VLMAX(VLEN 1024).
uint64_t rvSetvl(const std::vector<uint64_t> &a, uint64_t vl) {
  uint64_t avl = a[0], vlmax = a[1];
  if (avl <= vlmax) return vl == avl;
  if (avl < 2 * vlmax) return vl >= (avl + 1) / 2 && vl <= vlmax;
  return vl == vlmax;
}

std::vector<Intrinsic> build() {
  using R = Role;
  const R D = R::Data, C = R::Ctrl, I = R::Imm, K = R::Mask, P = R::Ptr;
  std::vector<Intrinsic> t = {
      // Poly1305 arithmetic (64-bit lanes, bound obligations)
      {"_mm512_madd52lo_epu64", "", {}, {D, D, D}, 512, 64, Cls::Arith, "avx512ifma",
       "r[i] = a[i] + ((b[i][51:0] * c[i][51:0]) mod 2^52) mod 2^64",
       "b[i] < 2^52 and c[i] < 2^52 (higher bits are ignored); a[i] + lo < 2^64"},
      {"_mm512_madd52hi_epu64", "", {}, {D, D, D}, 512, 64, Cls::Arith, "avx512ifma",
       "r[i] = a[i] + floor((b[i][51:0] * c[i][51:0]) / 2^52) mod 2^64",
       "b[i] < 2^52 and c[i] < 2^52 (higher bits are ignored); a[i] + hi < 2^64"},
      {"_mm512_add_epi64", "", {}, {D, D}, 512, 64, Cls::Arith, "avx512f",
       "r[i] = a[i] + b[i] mod 2^64", "a[i] + b[i] < 2^64"},
      {"_mm512_sub_epi64", "", {}, {D, D}, 512, 64, Cls::Arith, "avx512f",
       "r[i] = a[i] - b[i] mod 2^64", "a[i] >= b[i]"},
      {"_mm512_slli_epi64", "", {}, {D, I}, 512, 64, Cls::Arith, "avx512f",
       "r[i] = a[i] << n mod 2^64 (0 when n > 63)", "no set bit is shifted out: a[i] < 2^(64-n)"},
      {"_mm512_srli_epi64", "", {}, {D, I}, 512, 64, Cls::Arith, "avx512f",
       "r[i] = a[i] >> n (0 when n > 63)", "none"},
      {"_mm512_mul_epu32", "", {}, {D, D}, 512, 64, Cls::Arith, "avx512f",
       "r[i] = a[i][31:0] * b[i][31:0]", "a[i] < 2^32 and b[i] < 2^32 (higher bits are ignored)"},
      {"_mm512_and_si512", "", {}, {D, D}, 512, 64, Cls::Arith, "avx512f", "r = a & b", "none"},
      {"_mm512_and_epi64", "", {}, {D, D}, 512, 64, Cls::Arith, "avx512f", "r = a & b", "none"},
      {"_mm512_or_si512", "", {}, {D, D}, 512, 64, Cls::Arith, "avx512f", "r = a | b", "none"},
      {"_mm512_or_epi64", "", {}, {D, D}, 512, 64, Cls::Arith, "avx512f", "r = a | b", "none"},
      {"_mm512_xor_si512", "", {}, {D, D}, 512, 64, Cls::Arith, "avx512f", "r = a ^ b", "none"},
      {"_mm512_xor_epi64", "", {}, {D, D}, 512, 64, Cls::Arith, "avx512f", "r = a ^ b", "none"},
      {"_mm512_andnot_si512", "", {}, {D, D}, 512, 64, Cls::Arith, "avx512f", "r = ~a & b", "none"},
      {"_mm512_ternarylogic_epi64", "__builtin_ia32_pternlogq512_mask", {0, 1, 2, 3}, {D, D, D, I}, 512,
       64, Cls::Arith, "avx512f",
       "bit j of r[i] = bit (a[i]_j*4 + b[i]_j*2 + c[i]_j) of imm8", "none"},
      {"_mm512_reduce_add_epi64", "", {}, {D}, 64, 64, Cls::Arith, "avx512f",
       "r = sum of the 8 lanes mod 2^64", "the sum of the lanes < 2^64 (horizontal sum fits)"},
      {"_mm256_add_epi64", "", {}, {D, D}, 256, 64, Cls::Arith, "avx2",
       "r[i] = a[i] + b[i] mod 2^64 (4 lanes)", "a[i] + b[i] < 2^64"},
      {"_mm_add_epi64", "", {}, {D, D}, 128, 64, Cls::Arith, "sse2",
       "r[i] = a[i] + b[i] mod 2^64 (2 lanes)", "a[i] + b[i] < 2^64"},
      // 64-bit lane movement and construction
      {"_mm512_set1_epi64", "", {}, {D}, 512, 64, Cls::Move, "avx512f", "r[i] = x", "none"},
      {"_mm512_set_epi64", "", {}, {D, D, D, D, D, D, D, D}, 512, 64, Cls::Move, "avx512f",
       "r[i] = e_i (arguments e7 first)", "none"},
      {"_mm512_setr_epi64", "_mm512_set_epi64", rev(8), {D, D, D, D, D, D, D, D}, 512, 64, Cls::Move,
       "avx512f", "r[i] = e_i (arguments e0 first)", "none"},
      {"_mm512_setzero_si512", "", {}, {}, 512, 64, Cls::Move, "avx512f", "r = 0", "none"},
      {"_mm512_unpacklo_epi64", "", {}, {D, D}, 512, 64, Cls::Move, "avx512f",
       "per 128-bit block j: r[2j] = a[2j], r[2j+1] = b[2j]", "none"},
      {"_mm512_unpackhi_epi64", "", {}, {D, D}, 512, 64, Cls::Move, "avx512f",
       "per 128-bit block j: r[2j] = a[2j+1], r[2j+1] = b[2j+1]", "none"},
      {"_mm512_permutexvar_epi64", "", {}, {C, D}, 512, 64, Cls::Move, "avx512f",
       "r[i] = a[idx[i] & 7]", "none"},
      {"_mm512_permutex2var_epi64", "", {}, {D, C, D}, 512, 64, Cls::Move, "avx512f",
       "r[i] = (idx[i] & 8 ? b : a)[idx[i] & 7]", "none"},
      {"_mm512_shuffle_i64x2", "__builtin_ia32_shuf_i64x2", {0, 1, 2}, {D, D, I}, 512, 128, Cls::Move,
       "avx512f", "128-bit blocks: r.blk[0,1] = a.blk[imm fields 0,1], r.blk[2,3] = b.blk[fields 2,3]",
       "none"},
      {"_mm512_shuffle_i32x4", "__builtin_ia32_shuf_i32x4", {0, 1, 2}, {D, D, I}, 512, 128, Cls::Move,
       "avx512f", "128-bit blocks: r.blk[0,1] = a.blk[imm fields 0,1], r.blk[2,3] = b.blk[fields 2,3]",
       "none"},
      {"_mm512_mask_blend_epi64", "", {}, {K, D, D}, 512, 64, Cls::Move, "avx512f",
       "r[i] = k_i ? w[i] : a[i]", "none"},
      {"_mm512_maskz_mov_epi64", "", {}, {K, D}, 512, 64, Cls::Move, "avx512f",
       "r[i] = k_i ? a[i] : 0", "none"},
      {"_mm512_mask_mov_epi64", "", {}, {D, K, D}, 512, 64, Cls::Move, "avx512f",
       "r[i] = k_i ? a[i] : src[i]", "none"},
      {"_mm512_alignr_epi64", "__builtin_ia32_alignq512", {0, 1, 2}, {D, D, I}, 512, 64, Cls::Move,
       "avx512f", "r = lanes imm..imm+7 of the 16-lane concatenation (a high, b low)", "none"},
      {"_mm512_permutex_epi64", "__builtin_ia32_permdi512", {0, 1}, {D, I}, 512, 64, Cls::Move,
       "avx512f", "per 256-bit half h: r[4h+j] = x[4h + imm field j]", "none"},
      {"_mm512_extracti64x4_epi64", "__builtin_ia32_extracti64x4_mask", {0, 1}, {D, I}, 256, 64,
       Cls::Move, "avx512f", "r = 256-bit half (imm & 1) of a", "none"},
      {"_mm512_inserti64x4", "__builtin_ia32_inserti64x4", {0, 1, 2}, {D, D, I}, 512, 64, Cls::Move,
       "avx512f", "r = a with 256-bit half (imm & 1) replaced by b", "none"},
      {"_mm512_castsi512_si256", "", {}, {D}, 256, 64, Cls::Move, "avx512f", "r = low 256 bits of a",
       "none"},
      {"_mm512_castsi512_si128", "", {}, {D}, 128, 64, Cls::Move, "avx512f", "r = low 128 bits of a",
       "none"},
      {"_mm256_castsi256_si128", "", {}, {D}, 128, 64, Cls::Move, "avx", "r = low 128 bits of a",
       "none"},
      {"_mm256_extracti128_si256", "__builtin_ia32_extract128i256", {0, 1}, {D, I}, 128, 64, Cls::Move,
       "avx2", "r = 128-bit half (imm & 1) of a", "none"},
      {"_mm512_extracti32x4_epi32", "__builtin_ia32_extracti32x4_mask", {0, 1}, {D, I}, 128, 64,
       Cls::Move, "avx512f", "r = 128-bit block (imm & 3) of a", "none"},
      {"_mm512_inserti32x4", "__builtin_ia32_inserti32x4", {0, 1, 2}, {D, D, I}, 512, 64, Cls::Move,
       "avx512f", "r = a with 128-bit block (imm & 3) replaced by b", "none"},
      {"_mm_cvtsi128_si64", "", {}, {D}, 64, 64, Cls::Move, "sse2", "r = a[0]", "none"},
      {"_mm_extract_epi64", "__builtin_ia32_vec_ext_v2di", {0, 1}, {D, I}, 64, 64, Cls::Move, "sse4.1",
       "r = a[imm & 1]", "none"},
      {"_mm_unpackhi_epi64", "", {}, {D, D}, 128, 64, Cls::Move, "sse2", "r = {a[1], b[1]}", "none"},
      {"_mm512_cvtepu32_epi64", "", {}, {D}, 512, 64, Cls::Move, "avx512f",
       "r[i] = zero-extended dword i of a (256-bit)", "none"},
      {"_mm512_broadcast_i32x4", "", {}, {D}, 512, 128, Cls::Move, "avx512f",
       "every 128-bit block of r = a", "none"},
      {"_mm512_broadcastd_epi32", "", {}, {D}, 512, 32, Cls::Move, "avx512f",
       "every dword of r = dword 0 of a (128-bit)", "none"},
      {"_mm512_maskz_permutexvar_epi64", "", {}, {K, C, D}, 512, 64, Cls::Move, "avx512f",
       "r[i] = k_i ? a[idx[i] & 7] : 0", "none"},
      {"_mm512_maskz_set1_epi64", "", {}, {K, D}, 512, 64, Cls::Move, "avx512f", "r[i] = k_i ? x : 0",
       "none"},
      {"_mm512_maskz_set1_epi8", "", {}, {K, D}, 512, 8, Cls::Move, "avx512bw",
       "byte i of r = k_i ? x[7:0] : 0", "none"},
      {"_mm_bslli_si128", "__builtin_ia32_pslldqi128_byteshift", {0, 1}, {D, I}, 128, 8, Cls::Move, "sse2",
       "r = a shifted left by imm bytes (0 when imm > 15)", "none"},
      {"_mm_shuffle_epi32", "__builtin_ia32_pshufd", {0, 1}, {D, I}, 128, 32, Cls::Move, "sse2",
       "dword j of r = dword (imm >> 2j) & 3 of a", "none"},
      {"_mm_setr_epi32", "", {}, {D, D, D, D}, 128, 32, Cls::Move, "sse2", "r[i] = e_i (e0 first)", "none"},
      {"_mm_set_epi64x", "", {}, {D, D}, 128, 64, Cls::Move, "sse2", "r = {e0, e1} (arguments e1, e0)",
       "none"},
      {"_bzhi_u64", "", {}, {D, D}, 64, 64, Cls::Modular, "bmi2",
       "r = x with bits n[7:0]..63 cleared (x when n[7:0] >= 64)", "none (masks and lengths only)"},
      {"_bzhi_u32", "", {}, {D, D}, 32, 32, Cls::Modular, "bmi2",
       "r = x with bits n[7:0]..31 cleared (x when n[7:0] >= 32)", "none (masks and lengths only)"},
      // ChaCha20 (32-bit lanes; wrap mod 2^32 is the intended semantics)
      {"_mm512_add_epi32", "", {}, {D, D}, 512, 32, Cls::Modular, "avx512f",
       "r[i] = a[i] + b[i] mod 2^32", "none (modular by design)"},
      {"_mm512_xor_epi32", "", {}, {D, D}, 512, 32, Cls::Modular, "avx512f", "r = a ^ b", "none"},
      {"_mm512_rol_epi32", "__builtin_ia32_prold512", {0, 1}, {D, I}, 512, 32, Cls::Modular, "avx512f",
       "r[i] = a[i] rotated left by imm mod 32", "none"},
      {"_mm512_ror_epi32", "__builtin_ia32_prord512", {0, 1}, {D, I}, 512, 32, Cls::Modular, "avx512f",
       "r[i] = a[i] rotated right by imm mod 32", "none"},
      {"_mm512_slli_epi32", "", {}, {D, I}, 512, 32, Cls::Modular, "avx512f",
       "r[i] = a[i] << n mod 2^32 (0 when n > 31)", "none (used for rotations)"},
      {"_mm512_srli_epi32", "", {}, {D, I}, 512, 32, Cls::Modular, "avx512f",
       "r[i] = a[i] >> n (0 when n > 31)", "none"},
      {"_mm512_ternarylogic_epi32", "__builtin_ia32_pternlogd512_mask", {0, 1, 2, 3}, {D, D, D, I}, 512,
       32, Cls::Modular, "avx512f", "bit j of r = bit (a_j*4 + b_j*2 + c_j) of imm8", "none"},
      {"_mm512_shuffle_epi32", "__builtin_ia32_pshufd512", {0, 1}, {D, I}, 512, 32, Cls::Move,
       "avx512f", "per 128-bit block: dword j = a dword (imm >> 2j) & 3", "none"},
      {"_mm512_shuffle_epi8", "", {}, {D, C}, 512, 8, Cls::Move, "avx512bw",
       "per 128-bit block: byte i = b_i & 0x80 ? 0 : a byte (b_i & 15)", "none"},
      {"_mm512_set1_epi32", "", {}, {D}, 512, 32, Cls::Move, "avx512f", "r[i] = x", "none"},
      {"_mm512_set_epi32", "", {}, {D, D, D, D, D, D, D, D, D, D, D, D, D, D, D, D}, 512, 32, Cls::Move,
       "avx512f", "r[i] = e_i (arguments e15 first)", "none"},
      {"_mm512_setr_epi32", "_mm512_set_epi32", rev(16),
       {D, D, D, D, D, D, D, D, D, D, D, D, D, D, D, D}, 512, 32, Cls::Move, "avx512f",
       "r[i] = e_i (arguments e0 first)", "none"},
      {"_mm512_unpacklo_epi32", "", {}, {D, D}, 512, 32, Cls::Move, "avx512f",
       "per 128-bit block: a0 b0 a1 b1", "none"},
      {"_mm512_unpackhi_epi32", "", {}, {D, D}, 512, 32, Cls::Move, "avx512f",
       "per 128-bit block: a2 b2 a3 b3", "none"},
      {"_mm512_permutexvar_epi32", "", {}, {C, D}, 512, 32, Cls::Move, "avx512f",
       "r[i] = a[idx[i] & 15]", "none"},
      {"_mm512_permutex2var_epi32", "", {}, {D, C, D}, 512, 32, Cls::Move, "avx512f",
       "r[i] = (idx[i] & 16 ? b : a)[idx[i] & 15]", "none"},
      // 256-bit forms (ymm). Lane-wise rules are the 512-bit ones over four 64-bit / eight 32-bit lanes.
      {"_mm256_madd52lo_epu64", "__builtin_ia32_vpmadd52luq256", {0, 1, 2}, {D, D, D}, 256, 64, Cls::Arith,
       "avx512ifma+avx512vl", "r[i] = a[i] + ((b[i][51:0] * c[i][51:0]) mod 2^52) mod 2^64 (4 lanes)",
       "b[i] < 2^52 and c[i] < 2^52 (higher bits are ignored); a[i] + lo < 2^64"},
      {"_mm256_madd52hi_epu64", "__builtin_ia32_vpmadd52huq256", {0, 1, 2}, {D, D, D}, 256, 64, Cls::Arith,
       "avx512ifma+avx512vl", "r[i] = a[i] + floor((b[i][51:0] * c[i][51:0]) / 2^52) mod 2^64 (4 lanes)",
       "b[i] < 2^52 and c[i] < 2^52 (higher bits are ignored); a[i] + hi < 2^64"},
      {"_mm256_slli_epi64", "", {}, {D, I}, 256, 64, Cls::Arith, "avx2",
       "r[i] = a[i] << n mod 2^64 (0 when n > 63; 4 lanes)", "no set bit is shifted out: a[i] < 2^(64-n)"},
      {"_mm256_srli_epi64", "", {}, {D, I}, 256, 64, Cls::Arith, "avx2", "r[i] = a[i] >> n (0 when n > 63; 4 lanes)",
       "none"},
      {"_mm256_and_si256", "", {}, {D, D}, 256, 64, Cls::Arith, "avx2", "r = a & b", "none"},
      {"_mm256_or_si256", "", {}, {D, D}, 256, 64, Cls::Arith, "avx2", "r = a | b", "none"},
      {"_mm256_xor_si256", "", {}, {D, D}, 256, 64, Cls::Arith, "avx2", "r = a ^ b", "none"},
      {"_mm256_add_epi32", "", {}, {D, D}, 256, 32, Cls::Modular, "avx2", "r[i] = a[i] + b[i] mod 2^32 (8 lanes)",
       "none (modular by design)"},
      {"_mm256_rol_epi32", "__builtin_ia32_prold256", {0, 1}, {D, I}, 256, 32, Cls::Modular, "avx512f+avx512vl",
       "r[i] = a[i] rotated left by imm mod 32 (8 lanes)", "none"},
      {"_mm256_slli_epi32", "", {}, {D, I}, 256, 32, Cls::Modular, "avx2",
       "r[i] = a[i] << n mod 2^32 (0 when n > 31; 8 lanes)", "none (used for rotations)"},
      {"_mm256_srli_epi32", "", {}, {D, I}, 256, 32, Cls::Modular, "avx2", "r[i] = a[i] >> n (0 when n > 31; 8 lanes)",
       "none"},
      {"_mm256_shuffle_epi8", "", {}, {D, C}, 256, 8, Cls::Move, "avx2",
       "per 128-bit block: byte i = b_i & 0x80 ? 0 : a byte (b_i & 15)", "none"},
      {"_mm256_shuffle_epi32", "__builtin_ia32_pshufd256", {0, 1}, {D, I}, 256, 32, Cls::Move, "avx2",
       "per 128-bit block: dword j = a dword (imm >> 2j) & 3", "none"},
      {"_mm256_unpacklo_epi32", "", {}, {D, D}, 256, 32, Cls::Move, "avx2", "per 128-bit block: a0 b0 a1 b1", "none"},
      {"_mm256_unpackhi_epi32", "", {}, {D, D}, 256, 32, Cls::Move, "avx2", "per 128-bit block: a2 b2 a3 b3", "none"},
      {"_mm256_unpacklo_epi64", "", {}, {D, D}, 256, 64, Cls::Move, "avx2",
       "per 128-bit block j: r[2j] = a[2j], r[2j+1] = b[2j]", "none"},
      {"_mm256_unpackhi_epi64", "", {}, {D, D}, 256, 64, Cls::Move, "avx2",
       "per 128-bit block j: r[2j] = a[2j+1], r[2j+1] = b[2j+1]", "none"},
      {"_mm256_permute2x128_si256", "__builtin_ia32_permti256", {0, 1, 2}, {D, D, I}, 256, 128, Cls::Move, "avx2",
       "128-bit half h of r = (a.lo, a.hi, b.lo, b.hi)[imm field h bits 1:0], or 0 when bit 3 of the field is set",
       "none"},
      {"_mm256_permute4x64_epi64", "__builtin_ia32_permdi256", {0, 1}, {D, I}, 256, 64, Cls::Move, "avx2",
       "r[j] = x[imm field j]", "none"},
      {"_mm256_inserti128_si256", "__builtin_ia32_insert128i256", {0, 1, 2}, {D, D, I}, 256, 64, Cls::Move, "avx2",
       "r = a with 128-bit half (imm & 1) replaced by b", "none"},
      {"_mm256_broadcastsi128_si256", "", {}, {D}, 256, 128, Cls::Move, "avx2", "both 128-bit halves of r = a",
       "none"},
      {"_mm256_broadcastd_epi32", "", {}, {D}, 256, 32, Cls::Move, "avx2", "every dword of r = dword 0 of a (128-bit)",
       "none"},
      {"_mm256_set1_epi32", "", {}, {D}, 256, 32, Cls::Move, "avx", "r[i] = x (8 lanes)", "none"},
      {"_mm256_setr_epi32", "", {}, {D, D, D, D, D, D, D, D}, 256, 32, Cls::Move, "avx",
       "r[i] = e_i (arguments e0 first)", "none"},
      {"_mm256_setr_epi8", "", {}, std::vector<Role>(32, D), 256, 8, Cls::Move, "avx",
       "byte i of r = e_i[7:0] (arguments e0 first)", "none"},
      {"_mm256_set1_epi64x", "", {}, {D}, 256, 64, Cls::Move, "avx", "r[i] = x (4 lanes)", "none"},
      {"_mm256_setr_epi64x", "", {}, {D, D, D, D}, 256, 64, Cls::Move, "avx", "r[i] = e_i (arguments e0 first)",
       "none"},
      {"_mm256_setzero_si256", "", {}, {}, 256, 64, Cls::Move, "avx", "r = 0", "none"},
      {"_mm256_permutex2var_epi64", "", {}, {D, C, D}, 256, 64, Cls::Move, "avx512f+avx512vl",
       "r[i] = (idx[i] & 4 ? b : a)[idx[i] & 3]", "none"},
      {"_mm256_maskz_permutexvar_epi64", "", {}, {K, C, D}, 256, 64, Cls::Move, "avx512f+avx512vl",
       "r[i] = k_i ? a[idx[i] & 3] : 0", "none"},
      {"_mm256_maskz_set1_epi64", "", {}, {K, D}, 256, 64, Cls::Move, "avx512f+avx512vl", "r[i] = k_i ? x : 0",
       "none"},
      {"_mm256_maskz_set1_epi8", "", {}, {K, D}, 256, 8, Cls::Move, "avx512bw+avx512vl",
       "byte i of r = k_i ? x[7:0] : 0 (32 bytes)", "none"},
      {"_mm256_mask_blend_epi64", "", {}, {K, D, D}, 256, 64, Cls::Move, "avx512f+avx512vl",
       "r[i] = k_i ? w[i] : a[i]", "none"},
      {"_mm256_maskz_mov_epi64", "", {}, {K, D}, 256, 64, Cls::Move, "avx512f+avx512vl", "r[i] = k_i ? a[i] : 0",
       "none"},
      {"_mm256_zeroupper", "", {}, {}, 0, 64, Cls::Move, "avx",
       "no value: clears bits 255:128 of every ymm register the compiler is not using", "none"},
      {"_mm256_loadu_si256", "", {}, {P}, 256, 8, Cls::Load, "avx", "r = the 32 bytes at p",
       "p valid for 32 bytes (caller contract)"},
      {"_mm256_storeu_si256", "", {}, {P, D}, 256, 8, Cls::Store, "avx", "the 32 bytes at p = a",
       "p valid for 32 bytes (caller contract)"},
      {"_mm256_maskz_loadu_epi8", "", {}, {K, P}, 256, 8, Cls::Load, "avx512bw+avx512vl",
       "byte i = k_i ? p[i] : 0 (32 bytes; masked-off bytes are not read)", "p valid for the selected bytes"},
      {"_mm256_maskload_epi32", "", {}, {P, C}, 256, 32, Cls::Load, "avx2",
       "dword i = bit 31 of m[i] ? p[i] : 0 (masked-off dwords are not read)", "p valid for the selected dwords"},
      {"_mm256_maskstore_epi32", "", {}, {P, C, D}, 256, 32, Cls::Store, "avx2",
       "p[i] = a[i] where bit 31 of m[i] (others untouched)", "p valid for the selected dwords"},
      // memory
      {"_mm512_loadu_si512", "", {}, {P}, 512, 8, Cls::Load, "avx512f", "r = the 64 bytes at p",
       "p valid for 64 bytes (caller contract)"},
      {"_mm512_storeu_si512", "", {}, {P, D}, 512, 8, Cls::Store, "avx512f", "the 64 bytes at p = a",
       "p valid for 64 bytes (caller contract)"},
      {"_mm_loadu_si128", "", {}, {P}, 128, 8, Cls::Load, "sse2", "r = the 16 bytes at p",
       "p valid for 16 bytes (caller contract)"},
      {"_mm_storeu_si128", "", {}, {P, D}, 128, 8, Cls::Store, "sse2", "the 16 bytes at p = a",
       "p valid for 16 bytes (caller contract)"},
      {"_mm512_maskz_loadu_epi8", "", {}, {K, P}, 512, 8, Cls::Load, "avx512bw",
       "byte i = k_i ? p[i] : 0 (masked-off bytes are not read)", "p valid for the selected bytes"},
      {"_mm512_mask_storeu_epi8", "", {}, {P, K, D}, 512, 8, Cls::Store, "avx512bw",
       "p[i] = a byte i where k_i (others untouched)", "p valid for the selected bytes"},
      {"_mm_maskz_loadu_epi8", "", {}, {K, P}, 128, 8, Cls::Load, "avx512bw+avx512vl",
       "byte i = k_i ? p[i] : 0 (16 bytes; masked-off bytes are not read)", "p valid for the selected bytes"},
      {"_mm512_maskz_loadu_epi64", "", {}, {K, P}, 512, 64, Cls::Load, "avx512f",
       "r[i] = k_i ? p[i] : 0", "p valid for the selected lanes"},
      {"_mm512_mask_storeu_epi64", "", {}, {P, K, D}, 512, 64, Cls::Store, "avx512f",
       "p[i] = a[i] where k_i", "p valid for the selected lanes"},
      // mask conversions
      {"_cvtu64_mask64", "", {}, {D}, 64, 64, Cls::Move, "avx512bw", "k = x", "none"},
      {"_cvtu32_mask16", "", {}, {D}, 16, 16, Cls::Move, "avx512f", "k = x[15:0]", "none"},
  };
  // Models, by name (kept apart from the rows above so each row stays one readable record).
  const std::unordered_map<std::string, Bits (*)(A)> models = {
      {"_mm512_madd52lo_epu64", madd52lo}, {"_mm512_madd52hi_epu64", madd52hi},
      {"_mm512_add_epi64", addq<8>}, {"_mm512_sub_epi64", subq<8>},
      {"_mm512_slli_epi64", slliq<8>}, {"_mm512_srli_epi64", srliq<8>},
      {"_mm512_mul_epu32", muludq}, {"_mm512_and_si512", and_<8>}, {"_mm512_and_epi64", and_<8>},
      {"_mm512_or_si512", or_<8>}, {"_mm512_or_epi64", or_<8>}, {"_mm512_xor_si512", xor_<8>},
      {"_mm512_xor_epi64", xor_<8>}, {"_mm512_andnot_si512", andnot},
      {"_mm512_ternarylogic_epi64", ternlog}, {"_mm512_reduce_add_epi64", reduceAddQ},
      {"_mm256_add_epi64", addq<4>}, {"_mm_add_epi64", addq<2>},
      {"_mm512_set1_epi64", set1q}, {"_mm512_set_epi64", setq}, {"_mm512_setr_epi64", setrq},
      {"_mm512_setzero_si512", setzero}, {"_mm512_unpacklo_epi64", unpackloq},
      {"_mm512_unpackhi_epi64", unpackhiq}, {"_mm512_permutexvar_epi64", permxvarq},
      {"_mm512_permutex2var_epi64", permx2varq}, {"_mm512_shuffle_i64x2", shuf128},
      {"_mm512_shuffle_i32x4", shuf128}, {"_mm512_mask_blend_epi64", blendq},
      {"_mm512_maskz_mov_epi64", maskzmovq}, {"_mm512_mask_mov_epi64", maskmovq},
      {"_mm512_alignr_epi64", alignrq}, {"_mm512_permutex_epi64", permutexq},
      {"_mm512_extracti64x4_epi64", extract256}, {"_mm512_inserti64x4", insert256},
      {"_mm512_castsi512_si256", low256}, {"_mm512_castsi512_si128", low128},
      {"_mm256_castsi256_si128", low128}, {"_mm256_extracti128_si256", extract128of256},
      {"_mm512_extracti32x4_epi32", extract128of512}, {"_mm512_inserti32x4", insert128},
      {"_mm_cvtsi128_si64", cvtsi128si64}, {"_mm_extract_epi64", extractq128},
      {"_mm_unpackhi_epi64", unpackhiq128}, {"_mm512_cvtepu32_epi64", zext32to64},
      {"_mm512_broadcast_i32x4", broadcast128},
      {"_mm512_add_epi32", addd}, {"_mm512_xor_epi32", xor_<8>}, {"_mm512_rol_epi32", rold},
      {"_mm512_ror_epi32", rord}, {"_mm512_slli_epi32", sllid}, {"_mm512_srli_epi32", srlid},
      {"_mm512_ternarylogic_epi32", ternlog}, {"_mm512_shuffle_epi32", shufd},
      {"_mm512_shuffle_epi8", pshufb}, {"_mm512_set1_epi32", set1d}, {"_mm512_set_epi32", setd},
      {"_mm512_setr_epi32", setrd}, {"_mm512_unpacklo_epi32", unpacklod},
      {"_mm512_unpackhi_epi32", unpackhid}, {"_mm512_permutexvar_epi32", permxvard},
      {"_mm512_permutex2var_epi32", permx2vard},
      {"_mm512_loadu_si512", loadu512}, {"_mm512_storeu_si512", storeu512},
      {"_mm_loadu_si128", loadu128}, {"_mm_storeu_si128", storeu128},
      {"_mm512_maskz_loadu_epi8", maskzloadb}, {"_mm512_mask_storeu_epi8", maskstoreb},
      {"_mm512_maskz_loadu_epi64", maskzloadq}, {"_mm512_mask_storeu_epi64", maskstoreq},
      {"_mm512_broadcastd_epi32", broadcastd}, {"_mm512_maskz_permutexvar_epi64", maskzpermxvarq},
      {"_mm512_maskz_set1_epi64", maskzset1q}, {"_mm512_maskz_set1_epi8", maskzset1b},
      {"_mm_bslli_si128", bslli128}, {"_mm_shuffle_epi32", shufd128}, {"_mm_setr_epi32", setrd128},
      {"_mm_set_epi64x", setq128}, {"_bzhi_u64", bzhi<64>}, {"_bzhi_u32", bzhi<32>},
      {"_mm_maskz_loadu_epi8", maskzloadb128},
      {"_mm256_madd52lo_epu64", madd52loN<4>}, {"_mm256_madd52hi_epu64", madd52hiN<4>},
      {"_mm256_slli_epi64", slliq<4>}, {"_mm256_srli_epi64", srliq<4>}, {"_mm256_and_si256", and_<4>},
      {"_mm256_or_si256", or_<4>}, {"_mm256_xor_si256", xor_<4>}, {"_mm256_add_epi32", adddN<8>},
      {"_mm256_rol_epi32", roldN<8>}, {"_mm256_slli_epi32", slldN<8>}, {"_mm256_srli_epi32", srldN<8>},
      {"_mm256_shuffle_epi8", pshufbN<32>}, {"_mm256_shuffle_epi32", shufdN<8>},
      {"_mm256_unpacklo_epi32", unpacklodN<8>}, {"_mm256_unpackhi_epi32", unpackhidN<8>},
      {"_mm256_unpacklo_epi64", unpackloq256}, {"_mm256_unpackhi_epi64", unpackhiq256},
      {"_mm256_permute2x128_si256", permute2x128}, {"_mm256_permute4x64_epi64", permute4x64},
      {"_mm256_inserti128_si256", insert128of256}, {"_mm256_broadcastsi128_si256", broadcast128of256},
      {"_mm256_broadcastd_epi32", broadcastdN<8>}, {"_mm256_set1_epi32", set1dN<8>},
      {"_mm256_setr_epi32", setrdN<8>}, {"_mm256_setr_epi8", setrbN<32>}, {"_mm256_set1_epi64x", set1q256}, {"_mm256_setr_epi64x", setrq256},
      {"_mm256_setzero_si256", setzero}, {"_mm256_permutex2var_epi64", permx2varq256},
      {"_mm256_maskz_permutexvar_epi64", maskzpermxvarq256}, {"_mm256_maskz_set1_epi64", maskzset1q256},
      {"_mm256_maskz_set1_epi8", maskzset1b256}, {"_mm256_mask_blend_epi64", blendq256},
      {"_mm256_maskz_mov_epi64", maskzmovq256}, {"_mm256_zeroupper", none},
      {"_mm256_loadu_si256", loadu256}, {"_mm256_storeu_si256", storeu256},
      {"_mm256_maskz_loadu_epi8", maskzloadb256}, {"_mm256_maskload_epi32", maskloadd256},
      {"_mm256_maskstore_epi32", maskstored256},
      {"_cvtu64_mask64", truncTo<64>}, {"_cvtu32_mask16", truncTo<16>},
  };
  for (auto &e : t) {
    auto it = models.find(e.name);
    e.model = it == models.end() ? nullptr : it->second;
  }
  // RVV rows (feature "v"): lane models (Intrinsic::rvv), no 512-bit model. Tested against the
  // real instructions under qemu-riscv64 at VLEN 128, 256, 512 and 1024
  // (tests/riscv/rvv_intrinsics_test.cpp, ctest label riscv).
  {
    using RV = uint64_t (*)(const std::vector<uint64_t> &, uint64_t);
    const Role D = Role::Data, P = Role::Ptr, L = Role::VL;
    auto row = [&](std::string name, std::string builtin, std::vector<int> argmap, std::vector<Role> roles,
                   unsigned resultBits, unsigned sew, unsigned lmul, Cls cls, std::string sem, std::string side, RV f) {
      Intrinsic in{name, builtin, argmap, roles, resultBits, sew, cls, "v", sem, side, nullptr};
      in.rvv = f;
      in.lmul = lmul;
      t.push_back(in);
    };
    const std::string vlside = "lanes i >= vl are not read or written (tail unspecified); vl from a vsetvl of the same SEW/LMUL";
    for (unsigned m : {1u, 2u}) {
      std::string ty = "u32m" + std::to_string(m);
      std::string e = "e32m" + std::to_string(m);
      row("__riscv_vsetvl_" + e, "__builtin_rvv_vsetvli", {0}, {D}, 64, 32, m, Cls::SetVL,
          "vl = 0 if AVL = 0; AVL if AVL <= VLMAX; in [ceil(AVL/2), VLMAX] if AVL < 2 VLMAX; else VLMAX (VLMAX = VLEN*" + std::to_string(m) + "/32)",
          "assumed: vl = 0 iff AVL = 0, vl <= AVL, vl <= " + std::to_string(rvvVlmax(kRvvVlenMax, 32, m)) + " (VLEN <= 1024)", rvSetvl);
      row("__riscv_vmv_v_x_" + ty, "", {}, {D, L}, 0, 32, m, Cls::Move, "lane i = x (low 32 bits)", vlside, rvMvX<32>);
      row("__riscv_vid_v_" + ty, "", {}, {L}, 0, 32, m, Cls::Move, "lane i = i", vlside, rvId<32>);
      row("__riscv_vadd_vv_" + ty, "", {}, {D, D, L}, 0, 32, m, Cls::Modular, "lane i = (a_i + b_i) mod 2^32", vlside, rvAdd<32>);
      row("__riscv_vxor_vv_" + ty, "", {}, {D, D, L}, 0, 32, m, Cls::Modular, "lane i = a_i ^ b_i", vlside, rvXor<32>);
      row("__riscv_vor_vv_" + ty, "", {}, {D, D, L}, 0, 32, m, Cls::Modular, "lane i = a_i | b_i", vlside, rvOr<32>);
      row("__riscv_vsll_vx_" + ty, "", {}, {D, D, L}, 0, 32, m, Cls::Modular, "lane i = (a_i << (s & 31)) mod 2^32", vlside, rvSll<32>);
      row("__riscv_vsrl_vx_" + ty, "", {}, {D, D, L}, 0, 32, m, Cls::Modular, "lane i = a_i >> (s & 31)", vlside, rvSrl<32>);
      row("__riscv_vlse32_v_" + ty, "", {}, {P, D, L}, 0, 32, m, Cls::Load,
          "lane i = the little-endian 32-bit word at p + i * stride", "p + i * stride valid and 4-byte aligned for every i < vl; " + vlside, rvStrided);
      row("__riscv_vsse32_v_" + ty, "", {}, {P, D, D, L}, 0, 32, m, Cls::Store,
          "the 4 bytes at p + i * stride = lane i, for i < vl", "p + i * stride valid and 4-byte aligned for every i < vl; nothing else written", rvStrided);
    }
    row("__riscv_vsetvl_e8m8", "__builtin_rvv_vsetvli", {0}, {D}, 64, 8, 8, Cls::SetVL,
        "vl = 0 if AVL = 0; AVL if AVL <= VLMAX; in [ceil(AVL/2), VLMAX] if AVL < 2 VLMAX; else VLMAX (VLMAX = VLEN)",
        "assumed: vl = 0 iff AVL = 0, vl <= AVL, vl <= 1024 (VLEN <= 1024)", rvSetvl);
    row("__riscv_vle8_v_u8m8", "", {}, {P, L}, 0, 8, 8, Cls::Load, "lane i = p[i]", "p[0..vl) valid; " + vlside, rvUnit<8>);
    row("__riscv_vse8_v_u8m8", "", {}, {P, D, L}, 0, 8, 8, Cls::Store, "p[i] = lane i, for i < vl", "p[0..vl) valid; nothing else written", rvUnit<8>);
    row("__riscv_vxor_vv_u8m8", "", {}, {D, D, L}, 0, 8, 8, Cls::Modular, "lane i = a_i ^ b_i", vlside, rvXor<8>);
  }
  return t;
}

}  // namespace

const std::vector<Intrinsic> &intrinsicTable() {
  static const std::vector<Intrinsic> t = build();
  return t;
}

const Intrinsic *findIntrinsic(const std::string &name) {
  static const std::unordered_map<std::string, const Intrinsic *> idx = [] {
    std::unordered_map<std::string, const Intrinsic *> m;
    for (const auto &e : intrinsicTable()) m[e.name] = &e;
    return m;
  }();
  auto it = idx.find(name);
  return it == idx.end() ? nullptr : it->second;
}

std::string ruleName(const std::string &name) {
  static const std::unordered_map<std::string, std::string> same = {
      {"_mm256_madd52lo_epu64", "_mm512_madd52lo_epu64"}, {"_mm256_madd52hi_epu64", "_mm512_madd52hi_epu64"},
      {"_mm256_add_epi64", "_mm512_add_epi64"},           {"_mm256_slli_epi64", "_mm512_slli_epi64"},
      {"_mm256_srli_epi64", "_mm512_srli_epi64"},         {"_mm256_and_si256", "_mm512_and_si512"},
      {"_mm256_or_si256", "_mm512_or_si512"},             {"_mm256_xor_si256", "_mm512_xor_si512"},
      {"_mm256_add_epi32", "_mm512_add_epi32"},           {"_mm256_rol_epi32", "_mm512_rol_epi32"},
      {"_mm256_slli_epi32", "_mm512_slli_epi32"},         {"_mm256_srli_epi32", "_mm512_srli_epi32"},
  };
  auto it = same.find(name);
  return it == same.end() ? name : it->second;
}

}  // namespace cv
