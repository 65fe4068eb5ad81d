// test_kernels.cpp: each backend's raw Poly1305 and ChaCha20 entry points (the kernel ABI of
// emitted/README.md) against OpenSSL and the portable reference, below the AEAD.
#include <algorithm>
#include <cstring>

#include <chapoly/chapoly.h>

#include "support/harness.h"

namespace chapoly::test {
namespace {

class Kernels : public BackendTest {};

// Random keys and messages of every length 0..2000, plus keys that stress the reduction:
// r and s all ones (after clamping), r = 0, s = 0, s = 2^128 - 1.
TEST_P(Kernels, Poly1305EveryLengthTo2000VsOpenSsl) {
  Rng rng(0x9017);
  Bytes msg = rng.bytes(2000 + 8);
  for (size_t len = 0; len <= 2000; ++len) {
    uint8_t key[32], tag[16], want[16];
    rng.fill(key, sizeof key);
    switch (len % 5) {
      case 1: std::memset(key, 0xff, 32); break;
      case 2: std::memset(key, 0, 16); break;
      case 3: std::memset(key + 16, 0, 16); break;
      case 4: std::memset(key + 16, 0xff, 16); break;
      default: break;
    }
    const uint8_t *m = msg.data() + (len % 8);  // and misaligned
    if (len % 7 == 0) std::fill(msg.begin(), msg.end(), 0xff);
    b().poly1305(tag, m, len, key);
    openssl_poly1305(want, m, len, key);
    ASSERT_EQ(to_hex(tag, 16), to_hex(want, 16)) << b().name << " len=" << len;
    if (len % 7 == 0) rng.fill(msg.data(), msg.size());
  }
}

TEST_P(Kernels, Poly1305LongMessagesVsPortable) {
  Rng rng(0x9018);
  const size_t lens[] = {4095, 4096, 4097, 8191, 16384, 65537, 1 << 20};
  for (size_t len : lens) {
    uint8_t key[32], tag[16], want[16];
    rng.fill(key, sizeof key);
    Bytes msg = rng.bytes(len);
    b().poly1305(tag, msg.data(), len, key);
    chapoly::internal::poly1305(want, msg.data(), len, key);
    ASSERT_EQ(to_hex(tag, 16), to_hex(want, 16)) << b().name << " len=" << len;
  }
}

// ChaCha20 from various counters, random lengths, out of place, in place, misaligned; checked
// against the portable reference and (counters that cannot wrap) OpenSSL's EVP_chacha20.
TEST_P(Kernels, ChaCha20RandomLengthsAndCountersVsPortable) {
  Rng rng(0xc4a);
  for (int iter = 0; iter < 2500; ++iter) {
    size_t len = iter <= 2000 ? static_cast<size_t>(iter) : 2001 + rng.below(20000);
    const uint32_t blocks = static_cast<uint32_t>((len + 63) / 64);
    uint32_t counter;
    switch (iter % 4) {
      case 0: counter = 0; break;
      case 1: counter = 1; break;
      case 2: counter = rng.below(1u << 20); break;
      default: counter = static_cast<uint32_t>(UINT32_MAX - blocks + 1); break;  // last legal
    }
    if (len == 0 && iter % 4 == 3) counter = UINT32_MAX;
    uint8_t key[32], nonce[12];
    rng.fill(key, sizeof key);
    rng.fill(nonce, sizeof nonce);
    const size_t off = iter % 8;
    Bytes in = rng.bytes(len + off), out(len + off), want(len);
    chapoly::internal::chacha20_xor(want.data(), in.data() + off, len, nonce, key, counter);
    b().chacha20(out.data() + off, in.data() + off, len, nonce, key, counter);
    ASSERT_TRUE(std::equal(want.begin(), want.end(), out.begin() + off))
        << b().name << " len=" << len << " counter=" << counter;
    b().chacha20(in.data() + off, in.data() + off, len, nonce, key, counter);  // in place
    ASSERT_TRUE(std::equal(want.begin(), want.end(), in.begin() + off))
        << b().name << " len=" << len << " counter=" << counter << " in place";
    if (static_cast<uint64_t>(counter) + blocks < (uint64_t{1} << 32) - 1) {
      Bytes ossl(len);
      Bytes src = rng.bytes(len);
      openssl_chacha20(ossl.data(), src.data(), len, nonce, key, counter);
      b().chacha20(out.data(), src.data(), len, nonce, key, counter);
      ASSERT_TRUE(std::equal(ossl.begin(), ossl.end(), out.begin()))
          << b().name << " vs OpenSSL len=" << len << " counter=" << counter;
    }
  }
}

// The kernels write exactly `len` bytes: canaries on both sides of the output survive.
TEST_P(Kernels, WritesStayInsideTheOutput) {
  Rng rng(0xca1a);
  uint8_t key[32], nonce[12], tag[16];
  rng.fill(key, sizeof key);
  rng.fill(nonce, sizeof nonce);
  for (size_t len : cutoff_lengths()) {
    Bytes in = rng.bytes(len), aad = rng.bytes(len % 33);
    Bytes buf(len + 128, 0xc5);
    uint8_t *out = buf.data() + 64;
    auto intact = [&] {
      return std::all_of(buf.begin(), buf.begin() + 64, [](uint8_t x) { return x == 0xc5; }) &&
             std::all_of(buf.end() - 64, buf.end(), [](uint8_t x) { return x == 0xc5; });
    };
    b().seal(out, tag, in.data(), len, aad.data(), aad.size(), nonce, key);
    EXPECT_TRUE(intact()) << b().name << " seal len=" << len;
    b().open(out, tag, in.data(), len, aad.data(), aad.size(), nonce, key);
    EXPECT_TRUE(intact()) << b().name << " open len=" << len;
    b().chacha20(out, in.data(), len, nonce, key, 1);
    EXPECT_TRUE(intact()) << b().name << " chacha20 len=" << len;
  }
}

// The raw open entry point returns the computed tag and the plaintext, without comparing.
TEST_P(Kernels, RawOpenReturnsComputedTag) {
  Rng rng(0x0be1);
  for (size_t len : cutoff_lengths()) {
    uint8_t key[32], nonce[12], tag[16], got[16];
    rng.fill(key, sizeof key);
    rng.fill(nonce, sizeof nonce);
    Bytes pt = rng.bytes(len), aad = rng.bytes(len % 19), ct(len), back(len);
    openssl_seal(ct.data(), tag, pt.data(), len, aad.data(), aad.size(), nonce, key);
    b().open(back.data(), got, ct.data(), len, aad.data(), aad.size(), nonce, key);
    EXPECT_EQ(to_hex(got, 16), to_hex(tag, 16)) << b().name << " len=" << len;
    EXPECT_EQ(back, pt) << b().name << " len=" << len;
  }
}

// The checked calls with and without the backend's short kernels (Backend::short_kernels: another
// family serves messages up to each entry's max_len where the entry's CPU test holds): at every
// length around each cut-over the ciphertext and tag equal OpenSSL's, open round-trips and a
// flipped tag bit is refused, whichever kernel ran. Forced, so this runs on every CPU, not just
// where the short kernels pay: mode 1 (the first entry covering each length), 0 (none), and each
// entry alone (2 + i: every route, Zen 5's and Intel's, at every length up to its limit).
TEST_P(Kernels, ShortKernelsAgreeAcrossTheirCutOvers) {
  using chapoly::internal::set_short_kernels_for_testing;
  ShortKernelsReset reset;
  Rng rng(0x5407);
  std::vector<int> modes{1, 0};
  for (size_t i = 0; i < b().short_count; ++i) modes.push_back(2 + static_cast<int>(i));
  for (int mode : modes) {
    set_short_kernels_for_testing(mode);
    for (size_t len = 0; len <= 260; ++len) {
      uint8_t key[32], nonce[12], tag[16], want_tag[16];
      rng.fill(key, sizeof key);
      rng.fill(nonce, sizeof nonce);
      Bytes pt = rng.bytes(len), aad = rng.bytes(len % 29), ct(len), want(len), back(len);
      openssl_seal(want.data(), want_tag, pt.data(), len, aad.data(), aad.size(), nonce, key);
      ASSERT_EQ(chapoly::internal::seal_with(b(), ct.data(), tag, pt.data(), len, aad.data(),
                                             aad.size(), nonce, key), CHAPOLY_OK);
      ASSERT_EQ(ct, want) << b().name << " short mode " << mode << " len=" << len;
      ASSERT_EQ(to_hex(tag, 16), to_hex(want_tag, 16)) << b().name << " short mode " << mode << " len=" << len;
      ASSERT_EQ(chapoly::internal::open_with(b(), back.data(), ct.data(), len, tag, aad.data(),
                                             aad.size(), nonce, key), CHAPOLY_OK);
      ASSERT_EQ(back, pt) << b().name << " short mode " << mode << " len=" << len;
      tag[len % 16] ^= static_cast<uint8_t>(1u << (len % 8));
      ASSERT_EQ(chapoly::internal::open_with(b(), back.data(), ct.data(), len, tag, aad.data(),
                                             aad.size(), nonce, key), CHAPOLY_ERR_AUTH)
          << b().name << " short mode " << mode << " len=" << len;
    }
  }
}

// Every entry point wherever the caller's stack lies: called below a frame moved by 0, 16, 32 and
// 48 bytes (every 16-byte-aligned position mod 64), each result equal to the portable
// reference's. A family compiled to keep a wider stack alignment inside (the avx2 kernels:
// -mstack-alignment=32, their entries realigning on entry, emitted/CMakeLists.txt) would fault on
// an aligned spill in some of these positions if an entry did not realign. (Not instrumented by
// AddressSanitizer, which would round the alloca to 32 bytes and test one position mod 32.)
const uint8_t kStackTestAad[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};

__attribute__((noinline, no_sanitize("address"))) void call_entries_below(size_t shift, const Backend &b, const Bytes &in,
                                                  const uint8_t *key, const uint8_t *nonce,
                                                  Bytes &ct, Bytes &pt, Bytes &ks, uint8_t seal_tag[16],
                                                  uint8_t open_tag[16], uint8_t mac[16], Bytes &streamed,
                                                  uint8_t stream_tag[16], Bytes &unstreamed, int &verified) {
  volatile uint8_t *pad = static_cast<uint8_t *>(__builtin_alloca(shift + 1));
  pad[0] = 0;
  const size_t len = in.size();
  const uint8_t *aad = kStackTestAad;
  b.seal(ct.data(), seal_tag, in.data(), len, aad, sizeof kStackTestAad, nonce, key);
  b.open(pt.data(), open_tag, ct.data(), len, aad, sizeof kStackTestAad, nonce, key);
  b.chacha20(ks.data(), in.data(), len, nonce, key, 7);
  b.poly1305(mac, in.data(), len, key);
  chapoly_stream st;
  chapoly::internal::stream_init_with(b, &st, key, nonce);
  chapoly_stream_aad(&st, aad, sizeof kStackTestAad);
  chapoly_stream_encrypt(&st, streamed.data(), in.data(), len / 3);
  chapoly_stream_encrypt(&st, streamed.data() + len / 3, in.data() + len / 3, len - len / 3);
  chapoly_stream_final(&st, stream_tag);
  chapoly::internal::stream_init_with(b, &st, key, nonce);
  chapoly_stream_aad(&st, aad, sizeof kStackTestAad);
  chapoly_stream_decrypt(&st, unstreamed.data(), streamed.data(), len / 3);
  chapoly_stream_decrypt(&st, unstreamed.data() + len / 3, streamed.data() + len / 3, len - len / 3);
  verified = chapoly_stream_verify(&st, stream_tag);
  pad[0] = 1;
}

TEST_P(Kernels, EveryEntryWhereverTheStackLies) {
  Rng rng(0x57ac);
  uint8_t key[32], nonce[12];
  rng.fill(key, sizeof key);
  rng.fill(nonce, sizeof nonce);
  const uint8_t *aad = kStackTestAad;
  for (size_t len : {size_t{0}, size_t{64}, size_t{600}, size_t{3173}}) {
    const Bytes in = rng.bytes(len);
    Bytes want_ct(len), want_ks(len);
    uint8_t want_tag[16], want_mac[16];
    chapoly::internal::portable_seal(want_ct.data(), want_tag, in.data(), len, aad, sizeof kStackTestAad, nonce, key);
    chapoly::internal::chacha20_xor(want_ks.data(), in.data(), len, nonce, key, 7);
    chapoly::internal::poly1305(want_mac, in.data(), len, key);
    for (size_t shift : {0, 16, 32, 48}) {
      Bytes ct(len), pt(len), ks(len), streamed(len), unstreamed(len);
      uint8_t seal_tag[16], open_tag[16], mac[16], stream_tag[16];
      int verified = -99;
      call_entries_below(shift, b(), in, key, nonce, ct, pt, ks, seal_tag, open_tag, mac, streamed, stream_tag, unstreamed,
                         verified);
      const std::string at = std::string(b().name) + " len=" + std::to_string(len) + " stack moved by " + std::to_string(shift);
      EXPECT_EQ(ct, want_ct) << at;
      EXPECT_EQ(to_hex(seal_tag, 16), to_hex(want_tag, 16)) << at;
      EXPECT_EQ(pt, in) << at;
      EXPECT_EQ(to_hex(open_tag, 16), to_hex(want_tag, 16)) << at;
      EXPECT_EQ(ks, want_ks) << at;
      EXPECT_EQ(to_hex(mac, 16), to_hex(want_mac, 16)) << at;
      EXPECT_EQ(streamed, want_ct) << at;
      EXPECT_EQ(to_hex(stream_tag, 16), to_hex(want_tag, 16)) << at;
      EXPECT_EQ(unstreamed, in) << at;
      EXPECT_EQ(verified, CHAPOLY_OK) << at;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, Kernels, testing::ValuesIn(all_backends()), backend_param_name);

// Portable-only properties of the reference itself.
TEST(PortableReference, IncrementalPoly1305AnySplitEqualsOneShot) {
  Rng rng(0x5911);
  for (int iter = 0; iter < 300; ++iter) {
    size_t len = rng.below(600);
    uint8_t key[32], one[16], inc[16];
    rng.fill(key, sizeof key);
    Bytes msg = rng.bytes(len);
    chapoly::internal::poly1305(one, msg.data(), len, key);
    chapoly::internal::Poly1305State st;
    chapoly::internal::poly1305_init(st, key);
    size_t off = 0;
    while (off < len) {
      size_t n = std::min<size_t>(len - off, rng.below(40));
      chapoly::internal::poly1305_update(st, msg.data() + off, n);
      off += n;
    }
    chapoly::internal::poly1305_final(st, inc);
    ASSERT_EQ(to_hex(inc, 16), to_hex(one, 16)) << "len=" << len;
  }
}

TEST(PortableReference, ConstantTimeCompareAndWipe) {
  uint8_t a[16] = {0}, b[16] = {0};
  EXPECT_EQ(chapoly::internal::ct_equal(a, b, 16), 1);
  for (int i = 0; i < 128; ++i) {
    std::memset(b, 0, 16);
    b[i / 8] = static_cast<uint8_t>(1u << (i % 8));
    EXPECT_EQ(chapoly::internal::ct_equal(a, b, 16), 0) << i;
  }
  EXPECT_EQ(chapoly::internal::ct_equal(a, b, 0), 1);
  uint8_t secret[33];
  std::memset(secret, 0xee, sizeof secret);
  chapoly::internal::secure_wipe(secret, sizeof secret);
  EXPECT_TRUE(std::all_of(secret, secret + sizeof secret, [](uint8_t x) { return x == 0; }));
}

}  // namespace
}  // namespace chapoly::test
