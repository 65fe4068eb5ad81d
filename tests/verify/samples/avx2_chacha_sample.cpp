// tests/verify/samples/avx2_chacha_sample.cpp: a hand-written stand-in for the ChaCha20 code of an
// AVX2 kernel, in the emitted dialect (emitted/README.md): 8 blocks word-sliced in ymm registers
// (register xj holds word j of blocks 0..7, one block per 32-bit lane), 10 double rounds in a loop,
// and, as AVX2 has no vprold, rotations by 12 and 7 as a shift pair joined with or and by 16 and 8
// as byte shuffles. chapoly-verify must prove the round loop equal to RFC 8439's quarter rounds
// (obligation chacha-round); tests/verify/CMakeLists.txt also makes two bad twins of this file (a
// wrong shift count, a wrong shuffle mask) that it must reject. Used as verifier input only.
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

// spec: sample.toml:1 chacha20.transpose
// Eight word registers (words w..w+7 of blocks 0..7) -> eight ymm rows, row b = words w..w+7 of
// block b.
// This sample is about the round loop: the transpose has no claim the verifier proves
// (chacha-lanes), so it is marked bounds-only (a sample-only marker the generator never emits).
// chapoly-bounds-only
// chapoly-contract: {"role":"chacha20.lanes"}
static inline void chacha20_avx2_transpose(__m256i &r0, __m256i &r1, __m256i &r2, __m256i &r3, __m256i &r4,
                                           __m256i &r5, __m256i &r6, __m256i &r7) {
  __m256i t0 = _mm256_unpacklo_epi32(r0, r1);  // blocks 0, 1 | 4, 5 of words w, w+1
  __m256i t1 = _mm256_unpackhi_epi32(r0, r1);  // blocks 2, 3 | 6, 7
  __m256i t2 = _mm256_unpacklo_epi32(r2, r3);
  __m256i t3 = _mm256_unpackhi_epi32(r2, r3);
  __m256i t4 = _mm256_unpacklo_epi32(r4, r5);
  __m256i t5 = _mm256_unpackhi_epi32(r4, r5);
  __m256i t6 = _mm256_unpacklo_epi32(r6, r7);
  __m256i t7 = _mm256_unpackhi_epi32(r6, r7);
  __m256i u0 = _mm256_unpacklo_epi64(t0, t2);  // words w..w+3 of block 0 | block 4
  __m256i u1 = _mm256_unpackhi_epi64(t0, t2);  // block 1 | block 5
  __m256i u2 = _mm256_unpacklo_epi64(t1, t3);  // block 2 | block 6
  __m256i u3 = _mm256_unpackhi_epi64(t1, t3);  // block 3 | block 7
  __m256i v0 = _mm256_unpacklo_epi64(t4, t6);  // words w+4..w+7 of block 0 | block 4
  __m256i v1 = _mm256_unpackhi_epi64(t4, t6);
  __m256i v2 = _mm256_unpacklo_epi64(t5, t7);
  __m256i v3 = _mm256_unpackhi_epi64(t5, t7);
  r0 = _mm256_permute2x128_si256(u0, v0, 0x20);
  r1 = _mm256_permute2x128_si256(u1, v1, 0x20);
  r2 = _mm256_permute2x128_si256(u2, v2, 0x20);
  r3 = _mm256_permute2x128_si256(u3, v3, 0x20);
  r4 = _mm256_permute2x128_si256(u0, v0, 0x31);
  r5 = _mm256_permute2x128_si256(u1, v1, 0x31);
  r6 = _mm256_permute2x128_si256(u2, v2, 0x31);
  r7 = _mm256_permute2x128_si256(u3, v3, 0x31);
}

// spec: sample.toml:1 chacha20.kernel
// out[0..512) = in[0..512) XOR the 8 ChaCha20 blocks of `state` (RFC 8439 2.3: 16 words, constants,
// key, counter, nonce) with counters state[12] + 0..7. out and in: 512 bytes each; state: 16 words.
// chapoly-bounds-only (a hand-written sample: its name is no kernel ABI name, so it has no role)
extern "C" void chapoly_sample_chacha20_avx2_x8(uint8_t out[512], const uint8_t in[512], const uint32_t state[16]) {
  // spec: sample.toml:1 chacha20.rotate
  const __m256i ROT16 = _mm256_setr_epi32(0x01000302, 0x05040706, 0x09080b0a, 0x0d0c0f0e, 0x01000302, 0x05040706,
                                          0x09080b0a, 0x0d0c0f0e);  // bytes for <<< 16
  const __m256i ROT8 = _mm256_setr_epi32(0x02010003, 0x06050407, 0x0a09080b, 0x0e0d0c0f, 0x02010003, 0x06050407,
                                         0x0a09080b, 0x0e0d0c0f);   // bytes for <<< 8
  // spec: sample.toml:1 chacha20.init
  const __m256i s0 = _mm256_set1_epi32((int)state[0]);
  const __m256i s1 = _mm256_set1_epi32((int)state[1]);
  const __m256i s2 = _mm256_set1_epi32((int)state[2]);
  const __m256i s3 = _mm256_set1_epi32((int)state[3]);
  const __m256i s4 = _mm256_set1_epi32((int)state[4]);
  const __m256i s5 = _mm256_set1_epi32((int)state[5]);
  const __m256i s6 = _mm256_set1_epi32((int)state[6]);
  const __m256i s7 = _mm256_set1_epi32((int)state[7]);
  const __m256i s8 = _mm256_set1_epi32((int)state[8]);
  const __m256i s9 = _mm256_set1_epi32((int)state[9]);
  const __m256i s10 = _mm256_set1_epi32((int)state[10]);
  const __m256i s11 = _mm256_set1_epi32((int)state[11]);
  const __m256i s12 = _mm256_add_epi32(_mm256_set1_epi32((int)state[12]), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256i s13 = _mm256_set1_epi32((int)state[13]);
  const __m256i s14 = _mm256_set1_epi32((int)state[14]);
  const __m256i s15 = _mm256_set1_epi32((int)state[15]);
  __m256i x0 = s0;
  __m256i x1 = s1;
  __m256i x2 = s2;
  __m256i x3 = s3;
  __m256i x4 = s4;
  __m256i x5 = s5;
  __m256i x6 = s6;
  __m256i x7 = s7;
  __m256i x8 = s8;
  __m256i x9 = s9;
  __m256i x10 = s10;
  __m256i x11 = s11;
  __m256i x12 = s12;
  __m256i x13 = s13;
  __m256i x14 = s14;
  __m256i x15 = s15;
  // spec: sample.toml:1 chacha20.rounds
  for (int i = 0; i < 10; ++i) {
    // column round: QR(0,4,8,12) QR(1,5,9,13) QR(2,6,10,14) QR(3,7,11,15)
    x0 = _mm256_add_epi32(x0, x4);
    x1 = _mm256_add_epi32(x1, x5);
    x2 = _mm256_add_epi32(x2, x6);
    x3 = _mm256_add_epi32(x3, x7);
    x12 = _mm256_shuffle_epi8(_mm256_xor_si256(x12, x0), ROT16);
    x13 = _mm256_shuffle_epi8(_mm256_xor_si256(x13, x1), ROT16);
    x14 = _mm256_shuffle_epi8(_mm256_xor_si256(x14, x2), ROT16);
    x15 = _mm256_shuffle_epi8(_mm256_xor_si256(x15, x3), ROT16);
    x8 = _mm256_add_epi32(x8, x12);
    x9 = _mm256_add_epi32(x9, x13);
    x10 = _mm256_add_epi32(x10, x14);
    x11 = _mm256_add_epi32(x11, x15);
    x4 = _mm256_xor_si256(x4, x8);
    x5 = _mm256_xor_si256(x5, x9);
    x6 = _mm256_xor_si256(x6, x10);
    x7 = _mm256_xor_si256(x7, x11);
    x4 = _mm256_or_si256(_mm256_slli_epi32(x4, 12), _mm256_srli_epi32(x4, 20));
    x5 = _mm256_or_si256(_mm256_slli_epi32(x5, 12), _mm256_srli_epi32(x5, 20));
    x6 = _mm256_or_si256(_mm256_slli_epi32(x6, 12), _mm256_srli_epi32(x6, 20));
    x7 = _mm256_or_si256(_mm256_slli_epi32(x7, 12), _mm256_srli_epi32(x7, 20));
    x0 = _mm256_add_epi32(x0, x4);
    x1 = _mm256_add_epi32(x1, x5);
    x2 = _mm256_add_epi32(x2, x6);
    x3 = _mm256_add_epi32(x3, x7);
    x12 = _mm256_shuffle_epi8(_mm256_xor_si256(x12, x0), ROT8);
    x13 = _mm256_shuffle_epi8(_mm256_xor_si256(x13, x1), ROT8);
    x14 = _mm256_shuffle_epi8(_mm256_xor_si256(x14, x2), ROT8);
    x15 = _mm256_shuffle_epi8(_mm256_xor_si256(x15, x3), ROT8);
    x8 = _mm256_add_epi32(x8, x12);
    x9 = _mm256_add_epi32(x9, x13);
    x10 = _mm256_add_epi32(x10, x14);
    x11 = _mm256_add_epi32(x11, x15);
    x4 = _mm256_xor_si256(x4, x8);
    x5 = _mm256_xor_si256(x5, x9);
    x6 = _mm256_xor_si256(x6, x10);
    x7 = _mm256_xor_si256(x7, x11);
    x4 = _mm256_or_si256(_mm256_slli_epi32(x4, 7), _mm256_srli_epi32(x4, 25));
    x5 = _mm256_or_si256(_mm256_slli_epi32(x5, 7), _mm256_srli_epi32(x5, 25));
    x6 = _mm256_or_si256(_mm256_slli_epi32(x6, 7), _mm256_srli_epi32(x6, 25));
    x7 = _mm256_or_si256(_mm256_slli_epi32(x7, 7), _mm256_srli_epi32(x7, 25));
    // diagonal round: QR(0,5,10,15) QR(1,6,11,12) QR(2,7,8,13) QR(3,4,9,14)
    x0 = _mm256_add_epi32(x0, x5);
    x1 = _mm256_add_epi32(x1, x6);
    x2 = _mm256_add_epi32(x2, x7);
    x3 = _mm256_add_epi32(x3, x4);
    x15 = _mm256_shuffle_epi8(_mm256_xor_si256(x15, x0), ROT16);
    x12 = _mm256_shuffle_epi8(_mm256_xor_si256(x12, x1), ROT16);
    x13 = _mm256_shuffle_epi8(_mm256_xor_si256(x13, x2), ROT16);
    x14 = _mm256_shuffle_epi8(_mm256_xor_si256(x14, x3), ROT16);
    x10 = _mm256_add_epi32(x10, x15);
    x11 = _mm256_add_epi32(x11, x12);
    x8 = _mm256_add_epi32(x8, x13);
    x9 = _mm256_add_epi32(x9, x14);
    x5 = _mm256_xor_si256(x5, x10);
    x6 = _mm256_xor_si256(x6, x11);
    x7 = _mm256_xor_si256(x7, x8);
    x4 = _mm256_xor_si256(x4, x9);
    x5 = _mm256_or_si256(_mm256_slli_epi32(x5, 12), _mm256_srli_epi32(x5, 20));
    x6 = _mm256_or_si256(_mm256_slli_epi32(x6, 12), _mm256_srli_epi32(x6, 20));
    x7 = _mm256_or_si256(_mm256_slli_epi32(x7, 12), _mm256_srli_epi32(x7, 20));
    x4 = _mm256_or_si256(_mm256_slli_epi32(x4, 12), _mm256_srli_epi32(x4, 20));
    x0 = _mm256_add_epi32(x0, x5);
    x1 = _mm256_add_epi32(x1, x6);
    x2 = _mm256_add_epi32(x2, x7);
    x3 = _mm256_add_epi32(x3, x4);
    x15 = _mm256_shuffle_epi8(_mm256_xor_si256(x15, x0), ROT8);
    x12 = _mm256_shuffle_epi8(_mm256_xor_si256(x12, x1), ROT8);
    x13 = _mm256_shuffle_epi8(_mm256_xor_si256(x13, x2), ROT8);
    x14 = _mm256_shuffle_epi8(_mm256_xor_si256(x14, x3), ROT8);
    x10 = _mm256_add_epi32(x10, x15);
    x11 = _mm256_add_epi32(x11, x12);
    x8 = _mm256_add_epi32(x8, x13);
    x9 = _mm256_add_epi32(x9, x14);
    x5 = _mm256_xor_si256(x5, x10);
    x6 = _mm256_xor_si256(x6, x11);
    x7 = _mm256_xor_si256(x7, x8);
    x4 = _mm256_xor_si256(x4, x9);
    x5 = _mm256_or_si256(_mm256_slli_epi32(x5, 7), _mm256_srli_epi32(x5, 25));
    x6 = _mm256_or_si256(_mm256_slli_epi32(x6, 7), _mm256_srli_epi32(x6, 25));
    x7 = _mm256_or_si256(_mm256_slli_epi32(x7, 7), _mm256_srli_epi32(x7, 25));
    x4 = _mm256_or_si256(_mm256_slli_epi32(x4, 7), _mm256_srli_epi32(x4, 25));
  }
  // spec: sample.toml:1 chacha20.output
  x0 = _mm256_add_epi32(x0, s0);
  x1 = _mm256_add_epi32(x1, s1);
  x2 = _mm256_add_epi32(x2, s2);
  x3 = _mm256_add_epi32(x3, s3);
  x4 = _mm256_add_epi32(x4, s4);
  x5 = _mm256_add_epi32(x5, s5);
  x6 = _mm256_add_epi32(x6, s6);
  x7 = _mm256_add_epi32(x7, s7);
  x8 = _mm256_add_epi32(x8, s8);
  x9 = _mm256_add_epi32(x9, s9);
  x10 = _mm256_add_epi32(x10, s10);
  x11 = _mm256_add_epi32(x11, s11);
  x12 = _mm256_add_epi32(x12, s12);
  x13 = _mm256_add_epi32(x13, s13);
  x14 = _mm256_add_epi32(x14, s14);
  x15 = _mm256_add_epi32(x15, s15);
  chacha20_avx2_transpose(x0, x1, x2, x3, x4, x5, x6, x7);
  chacha20_avx2_transpose(x8, x9, x10, x11, x12, x13, x14, x15);
  // block b: words 0..7 in x(b), words 8..15 in x(8 + b)
  _mm256_storeu_si256((__m256i *)(out + 0), _mm256_xor_si256(x0, _mm256_loadu_si256((const __m256i *)(in + 0))));
  _mm256_storeu_si256((__m256i *)(out + 32), _mm256_xor_si256(x8, _mm256_loadu_si256((const __m256i *)(in + 32))));
  _mm256_storeu_si256((__m256i *)(out + 64), _mm256_xor_si256(x1, _mm256_loadu_si256((const __m256i *)(in + 64))));
  _mm256_storeu_si256((__m256i *)(out + 96), _mm256_xor_si256(x9, _mm256_loadu_si256((const __m256i *)(in + 96))));
  _mm256_storeu_si256((__m256i *)(out + 128), _mm256_xor_si256(x2, _mm256_loadu_si256((const __m256i *)(in + 128))));
  _mm256_storeu_si256((__m256i *)(out + 160), _mm256_xor_si256(x10, _mm256_loadu_si256((const __m256i *)(in + 160))));
  _mm256_storeu_si256((__m256i *)(out + 192), _mm256_xor_si256(x3, _mm256_loadu_si256((const __m256i *)(in + 192))));
  _mm256_storeu_si256((__m256i *)(out + 224), _mm256_xor_si256(x11, _mm256_loadu_si256((const __m256i *)(in + 224))));
  _mm256_storeu_si256((__m256i *)(out + 256), _mm256_xor_si256(x4, _mm256_loadu_si256((const __m256i *)(in + 256))));
  _mm256_storeu_si256((__m256i *)(out + 288), _mm256_xor_si256(x12, _mm256_loadu_si256((const __m256i *)(in + 288))));
  _mm256_storeu_si256((__m256i *)(out + 320), _mm256_xor_si256(x5, _mm256_loadu_si256((const __m256i *)(in + 320))));
  _mm256_storeu_si256((__m256i *)(out + 352), _mm256_xor_si256(x13, _mm256_loadu_si256((const __m256i *)(in + 352))));
  _mm256_storeu_si256((__m256i *)(out + 384), _mm256_xor_si256(x6, _mm256_loadu_si256((const __m256i *)(in + 384))));
  _mm256_storeu_si256((__m256i *)(out + 416), _mm256_xor_si256(x14, _mm256_loadu_si256((const __m256i *)(in + 416))));
  _mm256_storeu_si256((__m256i *)(out + 448), _mm256_xor_si256(x7, _mm256_loadu_si256((const __m256i *)(in + 448))));
  _mm256_storeu_si256((__m256i *)(out + 480), _mm256_xor_si256(x15, _mm256_loadu_si256((const __m256i *)(in + 480))));
  _mm256_zeroupper();
}
