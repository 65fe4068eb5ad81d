// test_differential.cpp: every backend against OpenSSL's EVP_chacha20_poly1305 over many
// lengths, AAD lengths, alignments and aliasings; tampering; the checked wrapper's errors.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include <chapoly/chapoly.h>

#include "support/harness.h"

namespace chapoly::test {
namespace {

using chapoly::internal::open_with;
using chapoly::internal::seal_with;

class Differential : public BackendTest {
 protected:
  // Seal `len` random bytes with `aad_len` random AAD on the backend and with OpenSSL; compare
  // ciphertext and tag; open ours (and OpenSSL opens ours). `in_off`, `out_off`, `aad_off`
  // misalign the buffers; `in_place` seals and opens with out == in.
  void round_trip(Rng &rng, size_t len, size_t aad_len, size_t in_off = 0, size_t out_off = 0,
                  size_t aad_off = 0, bool in_place = false) {
    uint8_t key[32], nonce[12];
    rng.fill(key, sizeof key);
    rng.fill(nonce, sizeof nonce);
    Bytes in_buf(len + in_off), out_buf(len + out_off), aad_buf(aad_len + aad_off);
    rng.fill(in_buf.data(), in_buf.size());
    rng.fill(aad_buf.data(), aad_buf.size());
    const uint8_t *pt = in_buf.data() + in_off, *aad = aad_buf.data() + aad_off;
    Bytes want_ct(len);
    uint8_t want_tag[16], tag[16];
    openssl_seal(want_ct.data(), want_tag, pt, len, aad, aad_len, nonce, key);
    Bytes pt_copy(pt, pt + len);

    uint8_t *ct = in_place ? in_buf.data() + in_off : out_buf.data() + out_off;
    ASSERT_EQ(seal_with(b(), ct, tag, pt, len, aad, aad_len, nonce, key), CHAPOLY_OK);
    auto ctx = [&] {
      return testing::Message() << b().name << " len=" << len << " aad_len=" << aad_len
                                << " offsets(in,out,aad)=" << in_off << "," << out_off << ","
                                << aad_off << (in_place ? " in-place" : "");
    };
    ASSERT_TRUE(std::equal(want_ct.begin(), want_ct.end(), ct)) << ctx() << ": ciphertext differs";
    ASSERT_EQ(to_hex(tag, 16), to_hex(want_tag, 16)) << ctx() << ": tag differs";

    Bytes check(len);
    ASSERT_TRUE(openssl_open(check.data(), ct, len, tag, aad, aad_len, nonce, key)) << ctx();

    uint8_t *back = in_place ? ct : in_buf.data() + in_off;
    if (!in_place && len > 0) std::memset(back, 0xaa, len);
    ASSERT_EQ(open_with(b(), back, ct, len, tag, aad, aad_len, nonce, key), CHAPOLY_OK) << ctx();
    ASSERT_TRUE(std::equal(pt_copy.begin(), pt_copy.end(), back)) << ctx() << ": open differs";
  }
};

TEST_P(Differential, EveryLengthTo4096EveryAadLength) {
  Rng rng(0x5eed0001);
  for (size_t len = 0; len <= 4096; ++len) {
    for (size_t aad_len : aad_lengths()) {
      round_trip(rng, len, aad_len);
      if (HasFatalFailure()) return;
    }
  }
}

TEST_P(Differential, SpreadTo1MiB) {
  Rng rng(0x5eed0002);
  const size_t lens[] = {4097,   5000,   8191,   8192,   8193,    12345,   16383,   16384,
                         16385,  32767,  32768,  32769,  65535,   65536,   65537,   100003,
                         131071, 131072, 262144, 500001, 1048575, 1048576, 1048577 - 1};
  const size_t aads[] = {0, 13, 1000, 70001};
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; ++i) {
    round_trip(rng, lens[i], aads[i % 4]);
    if (HasFatalFailure()) return;
  }
}

TEST_P(Differential, CutoffLengthsEveryAadLengthInPlace) {
  Rng rng(0x5eed0003);
  for (size_t len : cutoff_lengths()) {
    for (size_t aad_len : aad_lengths()) {
      round_trip(rng, len, aad_len, 0, 0, 0, /*in_place=*/false);
      round_trip(rng, len, aad_len, 0, 0, 0, /*in_place=*/true);
      if (HasFatalFailure()) return;
    }
  }
}

TEST_P(Differential, UnalignedBuffers) {
  Rng rng(0x5eed0004);
  const size_t lens[] = {0, 1, 15, 63, 64, 65, 191, 255, 256, 449, 1025, 4099};
  for (size_t in_off = 0; in_off < 8; ++in_off) {
    for (size_t out_off = 0; out_off < 8; ++out_off) {
      for (size_t aad_off = 0; aad_off < 8; ++aad_off) {
        for (size_t len : lens) {
          round_trip(rng, len, 17 + in_off, in_off, out_off, aad_off);
          if (HasFatalFailure()) return;
        }
      }
    }
    // In place, misaligned.
    for (size_t len : lens) round_trip(rng, len, 13, in_off, 0, in_off, /*in_place=*/true);
  }
}

// Tampering: flipping any bit of the tag, the ciphertext or the AAD makes open return
// CHAPOLY_ERR_AUTH and leaves all `len` bytes of the output zero (out of place and in place).
TEST_P(Differential, TamperedInputsAreRejectedAndOutputZeroed) {
  Rng rng(0x5eed0005);
  // Short messages, plus each side of the short-kernel cutoffs (192, 448 bytes: the one-pass
  // kernel at its longest, the bulk kernel at its shortest) so every open path is tampered with.
  const size_t cases[][2] = {{0, 0},    {0, 17},  {1, 0},    {17, 13},  {64, 64}, {192, 0},
                             {193, 3},  {255, 1}, {448, 16}, {449, 0},  {1025, 16}};
  for (const auto &c : cases) {
    const size_t len = c[0], aad_len = c[1];
    uint8_t key[32], nonce[12], tag[16];
    rng.fill(key, sizeof key);
    rng.fill(nonce, sizeof nonce);
    Bytes pt = rng.bytes(len), aad = rng.bytes(aad_len), ct(len);
    ASSERT_EQ(seal_with(b(), ct.data(), tag, pt.data(), len, aad.data(), aad_len, nonce, key),
              CHAPOLY_OK);
    Bytes out(len);
    auto expect_rejected = [&](const uint8_t *ct_, const uint8_t *tag_, const uint8_t *aad_,
                               const char *what, size_t bit) {
      std::fill(out.begin(), out.end(), 0xaa);
      int rc = open_with(b(), out.data(), ct_, len, tag_, aad_, aad_len, nonce, key);
      EXPECT_EQ(rc, CHAPOLY_ERR_AUTH) << what << " bit " << bit << " len=" << len;
      EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](uint8_t x) { return x == 0; }))
          << what << " bit " << bit << ": output not zeroed";
      return rc == CHAPOLY_ERR_AUTH;
    };
    for (size_t bit = 0; bit < 128; ++bit) {
      uint8_t bad[16];
      std::memcpy(bad, tag, 16);
      bad[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
      if (!expect_rejected(ct.data(), bad, aad.data(), "tag", bit)) return;
    }
    for (size_t bit = 0; bit < 8 * len; ++bit) {
      Bytes bad = ct;
      bad[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
      if (!expect_rejected(bad.data(), tag, aad.data(), "ciphertext", bit)) return;
    }
    for (size_t bit = 0; bit < 8 * aad_len; ++bit) {
      Bytes bad = aad;
      bad[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
      if (!expect_rejected(ct.data(), tag, bad.data(), "aad", bit)) return;
    }
    // In place: the ciphertext buffer itself is zeroed.
    if (len > 0) {
      Bytes inplace = ct;
      inplace[len / 2] ^= 0x80;
      EXPECT_EQ(open_with(b(), inplace.data(), inplace.data(), len, tag, aad.data(), aad_len,
                          nonce, key),
                CHAPOLY_ERR_AUTH);
      EXPECT_TRUE(std::all_of(inplace.begin(), inplace.end(), [](uint8_t x) { return x == 0; }));
    }
    // A wrong key or nonce is rejected too.
    uint8_t key2[32];
    std::memcpy(key2, key, 32);
    key2[31] ^= 1;
    EXPECT_EQ(open_with(b(), out.data(), ct.data(), len, tag, aad.data(), aad_len, nonce, key2),
              CHAPOLY_ERR_AUTH);
    uint8_t nonce2[12];
    std::memcpy(nonce2, nonce, 12);
    nonce2[0] ^= 1;
    EXPECT_EQ(open_with(b(), out.data(), ct.data(), len, tag, aad.data(), aad_len, nonce2, key),
              CHAPOLY_ERR_AUTH);
  }
}

TEST_P(Differential, InPlaceOpenOfOpenSslCiphertext) {
  Rng rng(0x5eed0006);
  for (size_t len : cutoff_lengths()) {
    uint8_t key[32], nonce[12], tag[16];
    rng.fill(key, sizeof key);
    rng.fill(nonce, sizeof nonce);
    Bytes pt = rng.bytes(len), aad = rng.bytes(len % 29), buf(len);
    openssl_seal(buf.data(), tag, pt.data(), len, aad.data(), aad.size(), nonce, key);
    ASSERT_EQ(open_with(b(), buf.data(), buf.data(), len, tag, aad.data(), aad.size(), nonce, key),
              CHAPOLY_OK)
        << "len=" << len;
    EXPECT_EQ(buf, pt) << "len=" << len;
  }
}

// Length limit: len = 2^38 - 63 is rejected before any byte is touched, even though the buffers
// are tiny (a kernel that ran would write far past them).
TEST_P(Differential, TooLongIsRejectedBeforeTouching) {
  const size_t too_long = static_cast<size_t>((uint64_t{1} << 38) - 63);
  ASSERT_EQ(static_cast<uint64_t>(too_long), CHAPOLY_MAX_LEN + 1);
  uint8_t key[32] = {1}, nonce[12] = {2}, buf[64], tag[16], aad[4] = {3};
  std::memset(buf, 0x5a, sizeof buf);
  std::memset(tag, 0x33, sizeof tag);
  EXPECT_EQ(seal_with(b(), buf, tag, buf, too_long, aad, sizeof aad, nonce, key),
            CHAPOLY_ERR_TOO_LONG);
  EXPECT_EQ(open_with(b(), buf, buf, too_long, tag, aad, sizeof aad, nonce, key),
            CHAPOLY_ERR_TOO_LONG);
  EXPECT_EQ(seal_with(b(), buf, tag, buf, SIZE_MAX, nullptr, 0, nonce, key), CHAPOLY_ERR_TOO_LONG);
  EXPECT_TRUE(std::all_of(buf, buf + sizeof buf, [](uint8_t x) { return x == 0x5a; }));
  EXPECT_TRUE(std::all_of(tag, tag + sizeof tag, [](uint8_t x) { return x == 0x33; }));
}

// The same with every buffer (text, tag, AAD, nonce, key) inside a PROT_NONE page: any read or
// write before the length check faults, with or without AddressSanitizer. Lengths from just
// above the limit to SIZE_MAX, in place and not, seal and open.
TEST_P(Differential, TooLongTouchesNoBufferEvenUnreadable) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  auto *p = static_cast<uint8_t *>(
      mmap(nullptr, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(p, MAP_FAILED);
  uint8_t *key = p, *nonce = p + 32, *tag = p + 64, *aad = p + 128, *text = p + 256,
          *other = p + 1024;
  const uint64_t lens[] = {CHAPOLY_MAX_LEN + 1, uint64_t{1} << 38, uint64_t{1} << 39,
                           uint64_t{1} << 63, UINT64_MAX};
  for (uint64_t l : lens) {
    if (l > SIZE_MAX) continue;
    const auto len = static_cast<size_t>(l);
    EXPECT_EQ(seal_with(b(), text, tag, text, len, aad, 16, nonce, key), CHAPOLY_ERR_TOO_LONG)
        << "len=" << len;
    EXPECT_EQ(seal_with(b(), other, tag, text, len, aad, 16, nonce, key), CHAPOLY_ERR_TOO_LONG)
        << "len=" << len;
    EXPECT_EQ(open_with(b(), text, text, len, tag, aad, 16, nonce, key), CHAPOLY_ERR_TOO_LONG)
        << "len=" << len;
    EXPECT_EQ(open_with(b(), other, text, len, tag, aad, 16, nonce, key), CHAPOLY_ERR_TOO_LONG)
        << "len=" << len;
  }
  munmap(p, page);
}

TEST_P(Differential, ArgumentErrorsTouchNothing) {
  uint8_t key[32] = {1}, nonce[12] = {2}, tag[16], aad[32], buf[64], out[64];
  std::memset(aad, 7, sizeof aad);
  std::memset(buf, 9, sizeof buf);
  std::memset(out, 0x5a, sizeof out);
  std::memset(tag, 0x33, sizeof tag);
  const int A = CHAPOLY_ERR_ARG;
  // NULL key, nonce or tag: always an error, whatever the lengths.
  EXPECT_EQ(seal_with(b(), out, tag, buf, 16, aad, 4, nonce, nullptr), A);
  EXPECT_EQ(seal_with(b(), out, tag, buf, 16, aad, 4, nullptr, key), A);
  EXPECT_EQ(seal_with(b(), out, nullptr, buf, 16, aad, 4, nonce, key), A);
  EXPECT_EQ(seal_with(b(), nullptr, tag, nullptr, 0, nullptr, 0, nonce, nullptr), A);
  EXPECT_EQ(open_with(b(), out, buf, 16, nullptr, aad, 4, nonce, key), A);
  EXPECT_EQ(open_with(b(), out, buf, 16, tag, aad, 4, nullptr, key), A);
  EXPECT_EQ(open_with(b(), out, buf, 16, tag, aad, 4, nonce, nullptr), A);
  // NULL with a nonzero length.
  EXPECT_EQ(seal_with(b(), nullptr, tag, buf, 16, aad, 4, nonce, key), A);
  EXPECT_EQ(seal_with(b(), out, tag, nullptr, 16, aad, 4, nonce, key), A);
  EXPECT_EQ(seal_with(b(), out, tag, buf, 16, nullptr, 4, nonce, key), A);
  EXPECT_EQ(open_with(b(), nullptr, buf, 16, tag, aad, 4, nonce, key), A);
  EXPECT_EQ(open_with(b(), out, nullptr, 16, tag, aad, 4, nonce, key), A);
  EXPECT_EQ(open_with(b(), out, buf, 16, tag, nullptr, 4, nonce, key), A);
  // Partial overlaps of text input and output, both directions.
  EXPECT_EQ(seal_with(b(), buf + 1, tag, buf, 16, aad, 4, nonce, key), A);
  EXPECT_EQ(seal_with(b(), buf, tag, buf + 15, 16, aad, 4, nonce, key), A);
  EXPECT_EQ(open_with(b(), buf + 8, buf, 16, tag, aad, 4, nonce, key), A);
  EXPECT_EQ(open_with(b(), buf, buf + 1, 16, tag, aad, 4, nonce, key), A);
  // The output overlapping the AAD, tag, nonce or key.
  EXPECT_EQ(seal_with(b(), aad + 8, tag, buf, 16, aad, 16, nonce, key), A);
  EXPECT_EQ(seal_with(b(), out, out + 15, buf, 16, aad, 4, nonce, key), A);
  EXPECT_EQ(seal_with(b(), out, buf + 15, buf, 16, aad, 4, nonce, key), A);  // tag over pt
  EXPECT_EQ(seal_with(b(), out, aad + 2, buf, 16, aad, 4, nonce, key), A);   // tag over aad
  EXPECT_EQ(open_with(b(), out, buf, 16, out + 4, aad, 4, nonce, key), A);
  EXPECT_EQ(open_with(b(), aad, buf, 16, tag, aad + 15, 4, nonce, key), A);
  uint8_t blob[64] = {0};
  EXPECT_EQ(seal_with(b(), blob, tag, buf, 16, aad, 4, blob + 4, key), A);   // nonce in ct
  EXPECT_EQ(seal_with(b(), blob, tag, buf, 48, aad, 4, nonce, blob + 16), A);  // key in ct
  // Nothing written by any of the above.
  EXPECT_TRUE(std::all_of(out, out + sizeof out, [](uint8_t x) { return x == 0x5a; }));
  EXPECT_TRUE(std::all_of(buf, buf + sizeof buf, [](uint8_t x) { return x == 9; }));
  EXPECT_TRUE(std::all_of(aad, aad + sizeof aad, [](uint8_t x) { return x == 7; }));
  EXPECT_TRUE(std::all_of(tag, tag + sizeof tag, [](uint8_t x) { return x == 0x33; }));
  EXPECT_TRUE(std::all_of(blob, blob + sizeof blob, [](uint8_t x) { return x == 0; }));
}

TEST_P(Differential, NullPointersAllowedWithZeroLength) {
  uint8_t key[32], nonce[12], tag[16], want[16];
  Rng rng(0x5eed0007);
  rng.fill(key, sizeof key);
  rng.fill(nonce, sizeof nonce);
  openssl_seal(nullptr, want, nullptr, 0, nullptr, 0, nonce, key);
  ASSERT_EQ(seal_with(b(), nullptr, tag, nullptr, 0, nullptr, 0, nonce, key), CHAPOLY_OK);
  EXPECT_EQ(to_hex(tag, 16), to_hex(want, 16));
  EXPECT_EQ(open_with(b(), nullptr, nullptr, 0, tag, nullptr, 0, nonce, key), CHAPOLY_OK);
  tag[0] ^= 1;
  EXPECT_EQ(open_with(b(), nullptr, nullptr, 0, tag, nullptr, 0, nonce, key), CHAPOLY_ERR_AUTH);
  // Text NULL, AAD present; AAD NULL, text present.
  uint8_t aad[5] = {1, 2, 3, 4, 5}, pt[7] = {9, 8, 7, 6, 5, 4, 3}, ct[7], ct2[7];
  openssl_seal(nullptr, want, nullptr, 0, aad, 5, nonce, key);
  ASSERT_EQ(seal_with(b(), nullptr, tag, nullptr, 0, aad, 5, nonce, key), CHAPOLY_OK);
  EXPECT_EQ(to_hex(tag, 16), to_hex(want, 16));
  openssl_seal(ct2, want, pt, 7, nullptr, 0, nonce, key);
  ASSERT_EQ(seal_with(b(), ct, tag, pt, 7, nullptr, 0, nonce, key), CHAPOLY_OK);
  EXPECT_EQ(to_hex(tag, 16), to_hex(want, 16));
  EXPECT_EQ(to_hex(ct, 7), to_hex(ct2, 7));
}

// Kernels read and write only inside the buffers: AAD, input and output each end exactly at an
// inaccessible guard page, so a masked-tail overread or overwrite would fault.
TEST_P(Differential, BuffersEndingAtGuardPages) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t region = 5 * page, stride = region + page;  // 5 usable pages, then a guard
  auto *base = static_cast<uint8_t *>(mmap(nullptr, 3 * stride, PROT_READ | PROT_WRITE,
                                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(base, MAP_FAILED);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(mprotect(base + i * stride + region, page, PROT_NONE), 0);
  uint8_t *aad_end = base + region, *in_end = base + stride + region;
  uint8_t *out_end = base + 2 * stride + region;
  Rng rng(0x5eed0008);
  uint8_t key[32], nonce[12], tag[16], want_tag[16];
  rng.fill(key, sizeof key);
  rng.fill(nonce, sizeof nonce);
  for (size_t len : cutoff_lengths()) {
    if (len > region) continue;
    const size_t aad_len = len % 67;
    uint8_t *aad = aad_end - aad_len, *in = in_end - len, *out = out_end - len;
    rng.fill(in, len);
    rng.fill(aad, aad_len);
    Bytes pt(in, in + len), want(len);
    openssl_seal(want.data(), want_tag, in, len, aad, aad_len, nonce, key);
    ASSERT_EQ(seal_with(b(), out, tag, in, len, aad, aad_len, nonce, key), CHAPOLY_OK);
    EXPECT_TRUE(std::equal(want.begin(), want.end(), out)) << "len=" << len;
    EXPECT_EQ(to_hex(tag, 16), to_hex(want_tag, 16)) << "len=" << len;
    // Open from the flush input into the flush output, then in place at the flush end.
    if (len > 0) std::memcpy(in, want.data(), len);
    ASSERT_EQ(open_with(b(), out, in, len, tag, aad, aad_len, nonce, key), CHAPOLY_OK);
    EXPECT_TRUE(std::equal(pt.begin(), pt.end(), out)) << "len=" << len;
    ASSERT_EQ(seal_with(b(), out, tag, out, len, aad, aad_len, nonce, key), CHAPOLY_OK);
    EXPECT_TRUE(std::equal(want.begin(), want.end(), out)) << "len=" << len << " in place";
    // The raw Poly1305 and ChaCha20 entry points on the same layout.
    uint8_t mac[16], want_mac[16];
    b().poly1305(mac, in, len, key);
    openssl_poly1305(want_mac, in, len, key);
    EXPECT_EQ(to_hex(mac, 16), to_hex(want_mac, 16)) << "len=" << len;
    Bytes ks(len);
    chapoly::internal::chacha20_xor(ks.data(), in, len, nonce, key, 7);
    b().chacha20(out, in, len, nonce, key, 7);
    EXPECT_TRUE(std::equal(ks.begin(), ks.end(), out)) << "len=" << len;
  }
  munmap(base, 3 * stride);
}

// The other end: AAD, input and output each START right after an inaccessible guard page, at
// every offset 0..63 from it (offset 0: flush, so a read or write before the buffer faults; the
// other offsets: every alignment modulo 64), for lengths around every kernel cutoff to 1100 bytes;
// out of place and in place, seal and open, against OpenSSL. With BuffersEndingAtGuardPages this
// puts every buffer against a guard page at both ends. (Under the asan preset, the exact-size heap
// buffers of EveryLengthTo4096EveryAadLength add redzones at both ends for every length 0..4096.)
TEST_P(Differential, BuffersStartingAtGuardPagesEveryOffsetTo63) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t region = 2 * page, stride = page + region;  // a guard, then 2 usable pages
  auto *base = static_cast<uint8_t *>(mmap(nullptr, 3 * stride, PROT_READ | PROT_WRITE,
                                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(base, MAP_FAILED);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(mprotect(base + i * stride, page, PROT_NONE), 0);
  uint8_t *aad_start = base + page, *in_start = base + stride + page;
  uint8_t *out_start = base + 2 * stride + page;
  Rng rng(0x5eed0009);
  uint8_t key[32], nonce[12], tag[16], want_tag[16];
  rng.fill(key, sizeof key);
  rng.fill(nonce, sizeof nonce);
  const size_t lens[] = {0,   1,   15,  16,  17,  63,  64,  65,  127, 128,  129,  191,  192, 193,
                         255, 256, 257, 447, 448, 449, 511, 512, 513, 1023, 1024, 1025, 1100};
  for (size_t off = 0; off < 64; ++off) {
    for (size_t len : lens) {
      const size_t aad_len = (len + off) % 67;
      uint8_t *aad = aad_start + (63 - off), *in = in_start + off;
      uint8_t *out = out_start + (off * 37) % 64;
      rng.fill(in, len);
      rng.fill(aad, aad_len);
      Bytes pt(in, in + len), want(len);
      openssl_seal(want.data(), want_tag, in, len, aad, aad_len, nonce, key);
      ASSERT_EQ(seal_with(b(), out, tag, in, len, aad, aad_len, nonce, key), CHAPOLY_OK);
      ASSERT_TRUE(std::equal(want.begin(), want.end(), out)) << "len=" << len << " off=" << off;
      ASSERT_EQ(to_hex(tag, 16), to_hex(want_tag, 16)) << "len=" << len << " off=" << off;
      if (len > 0) std::memcpy(in, want.data(), len);
      ASSERT_EQ(open_with(b(), out, in, len, tag, aad, aad_len, nonce, key), CHAPOLY_OK);
      ASSERT_TRUE(std::equal(pt.begin(), pt.end(), out)) << "len=" << len << " off=" << off;
      // In place at the guard page.
      if (len > 0) std::memcpy(in, pt.data(), len);
      ASSERT_EQ(seal_with(b(), in, tag, in, len, aad, aad_len, nonce, key), CHAPOLY_OK);
      ASSERT_TRUE(std::equal(want.begin(), want.end(), in)) << "len=" << len << " off=" << off
                                                            << " in place";
      ASSERT_EQ(open_with(b(), in, in, len, tag, aad, aad_len, nonce, key), CHAPOLY_OK);
      ASSERT_TRUE(std::equal(pt.begin(), pt.end(), in)) << "len=" << len << " off=" << off
                                                        << " in place";
    }
  }
  munmap(base, 3 * stride);
}

INSTANTIATE_TEST_SUITE_P(Backends, Differential, testing::ValuesIn(all_backends()),
                         backend_param_name);

// The checked wrapper's length boundary, without a 256 GiB buffer: a recording backend whose
// kernels touch nothing shows that exactly CHAPOLY_MAX_LEN reaches the kernel and one more does
// not. The text buffers sit above every other buffer so the long range overlaps none of them.
struct Recorder {
  static inline size_t calls = 0, last_len = 0;
  static void seal(uint8_t *, uint8_t *, const uint8_t *, size_t len, const uint8_t *, size_t,
                   const uint8_t *, const uint8_t *) {
    ++calls;
    last_len = len;
  }
  static void open(uint8_t *, uint8_t *tag, const uint8_t *, size_t len, const uint8_t *, size_t,
                   const uint8_t *, const uint8_t *) {
    ++calls;
    last_len = len;
    std::memset(tag, 0, 16);
  }
};

TEST(CheckedWrapper, MaxLenIsAcceptedOneMoreIsNot) {
  const Backend rec = {"recorder", Recorder::seal, Recorder::open, nullptr, nullptr, nullptr,
                       nullptr};
  static uint8_t key[32], nonce[12], tag[16], aad[8];  // static storage: below the mapping
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  auto *text = static_cast<uint8_t *>(
      mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(text, MAP_FAILED);
  ASSERT_LT(reinterpret_cast<uintptr_t>(key), reinterpret_cast<uintptr_t>(text));
  ASSERT_LT(reinterpret_cast<uintptr_t>(aad), reinterpret_cast<uintptr_t>(text));
  const size_t max = static_cast<size_t>(CHAPOLY_MAX_LEN);
  EXPECT_EQ(seal_with(rec, text, tag, text, max, aad, 8, nonce, key), CHAPOLY_OK);
  EXPECT_EQ(Recorder::last_len, max);
  EXPECT_EQ(seal_with(rec, text, tag, text, max + 1, aad, 8, nonce, key), CHAPOLY_ERR_TOO_LONG);
  std::memset(tag, 0, 16);
  EXPECT_EQ(open_with(rec, text, text, max, tag, aad, 8, nonce, key), CHAPOLY_OK);
  EXPECT_EQ(open_with(rec, text, text, max + 1, tag, aad, 8, nonce, key), CHAPOLY_ERR_TOO_LONG);
  EXPECT_EQ(Recorder::calls, 2u);
  // The AAD has no limit of its own: a huge aad_len placed above the text passes the checks
  // (the overlap test must not overflow computing its end). The recorder does not read it.
  static uint8_t low_text[16];
  EXPECT_EQ(seal_with(rec, low_text, tag, low_text, 16, text, SIZE_MAX - 4096, nonce, key),
            CHAPOLY_OK);
  EXPECT_EQ(Recorder::calls, 3u);
  // ... but one that reaches back over the output is an overlap.
  EXPECT_EQ(seal_with(rec, text, tag, text, 16, aad, SIZE_MAX - 4096, nonce, key),
            CHAPOLY_ERR_ARG);
  munmap(text, page);
}

}  // namespace
}  // namespace chapoly::test
