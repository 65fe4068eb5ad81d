// test_stream.cpp: the streaming API (chapoly.h, "Streaming AEAD") on every backend against the
// same backend's one-shot call and the oracle (harness.h: OpenSSL's EVP_chacha20_poly1305 on the
// host; the portable reference in the riscv64 guest, tests/riscv): every split point of the AAD
// and of the text (independently) for messages up to 300 bytes, many small calls, large calls
// that cross the fused kernels' 64- and 512-byte chunks, in place; then the state machine
// (CHAPOLY_ERR_STATE), CHAPOLY_ERR_TOO_LONG before any output, the end of the 32-bit block counter
// (through the test hook stream_set_counter_for_test) and the wipe of the whole state.
#include <algorithm>
#include <cstring>

#include <chapoly/chapoly.h>

#include "support/harness.h"

#if defined(__x86_64__)
#include <openssl/bn.h>
#endif

namespace chapoly::test {
namespace {

using chapoly::internal::open_with;
using chapoly::internal::seal_with;
using chapoly::internal::stream_family;
using chapoly::internal::stream_init_with;
using chapoly::internal::stream_set_counter_for_test;

bool all_zero(const chapoly_stream &st) {
  return std::all_of(std::begin(st.opaque), std::end(st.opaque), [](uint64_t w) { return w == 0; });
}

// A message cut into pieces: the AAD at the offsets `aad_cuts`, the text at `text_cuts`
// (ascending, each within the length; repeated cuts make empty calls).
struct Plan {
  std::vector<size_t> aad_cuts, text_cuts;
};

std::vector<std::pair<size_t, size_t>> pieces(size_t len, const std::vector<size_t> &cuts) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t at = 0;
  for (size_t c : cuts) {
    out.push_back({at, c - at});
    at = c;
  }
  out.push_back({at, len - at});
  return out;
}

class Stream : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped()) return;
    rng_.fill(key_, sizeof key_);
    rng_.fill(nonce_, sizeof nonce_);
  }

  // Streams seal and open of (aad, pt) on the backend under `plan`; checks against `want_ct` /
  // `want_tag`; `in_place` encrypts and decrypts with out == in.
  void check(const Bytes &aad, const Bytes &pt, const Bytes &want_ct, const uint8_t want_tag[16],
             const Plan &plan, bool in_place) {
    auto ctx = [&] {
      testing::Message m;
      m << b().name << " aad=" << aad.size() << " len=" << pt.size() << " aad cuts:";
      for (size_t c : plan.aad_cuts) m << " " << c;
      m << " text cuts:";
      for (size_t c : plan.text_cuts) m << " " << c;
      if (in_place) m << " in-place";
      return m;
    };
    chapoly_stream st;
    ASSERT_EQ(stream_init_with(b(), &st, key_, nonce_), CHAPOLY_OK);
    for (auto [at, n] : pieces(aad.size(), plan.aad_cuts))
      ASSERT_EQ(chapoly_stream_aad(&st, aad.data() + at, n), CHAPOLY_OK) << ctx();
    Bytes buf = pt, ct(pt.size());
    for (auto [at, n] : pieces(pt.size(), plan.text_cuts)) {
      uint8_t *out = in_place ? buf.data() + at : ct.data() + at;
      ASSERT_EQ(chapoly_stream_encrypt(&st, out, buf.data() + at, n), CHAPOLY_OK) << ctx();
    }
    if (in_place) ct = buf;
    uint8_t tag[16];
    ASSERT_EQ(chapoly_stream_final(&st, tag), CHAPOLY_OK) << ctx();
    ASSERT_TRUE(all_zero(st)) << ctx() << ": final left part of the state";
    ASSERT_TRUE(ct == want_ct) << ctx() << ": ciphertext differs";
    ASSERT_EQ(to_hex(tag, 16), to_hex(want_tag, 16)) << ctx() << ": tag differs";

    ASSERT_EQ(stream_init_with(b(), &st, key_, nonce_), CHAPOLY_OK);
    for (auto [at, n] : pieces(aad.size(), plan.aad_cuts))
      ASSERT_EQ(chapoly_stream_aad(&st, aad.data() + at, n), CHAPOLY_OK) << ctx();
    Bytes back = ct, dec(pt.size());
    for (auto [at, n] : pieces(pt.size(), plan.text_cuts)) {
      uint8_t *out = in_place ? back.data() + at : dec.data() + at;
      ASSERT_EQ(chapoly_stream_decrypt(&st, out, back.data() + at, n), CHAPOLY_OK) << ctx();
    }
    if (in_place) dec = back;
    ASSERT_EQ(chapoly_stream_verify(&st, tag), CHAPOLY_OK) << ctx();
    ASSERT_TRUE(all_zero(st)) << ctx() << ": verify left part of the state";
    ASSERT_TRUE(dec == pt) << ctx() << ": decryption differs";
  }

  // The reference: the oracle's seal, which the backend's one-shot call must match too.
  void reference(const Bytes &aad, const Bytes &pt, Bytes &ct, uint8_t tag[16]) {
    ct.assign(pt.size(), 0);
    oracle_seal(ct.data(), tag, pt.data(), pt.size(), aad.data(), aad.size(), nonce_, key_);
    Bytes mine(pt.size());
    uint8_t mine_tag[16];
    ASSERT_EQ(seal_with(b(), mine.data(), mine_tag, pt.data(), pt.size(), aad.data(), aad.size(), nonce_,
                        key_),
              CHAPOLY_OK);
    ASSERT_TRUE(mine == ct) << b().name << ": one-shot ciphertext differs from the oracle";
    ASSERT_EQ(to_hex(mine_tag, 16), to_hex(tag, 16)) << b().name << ": one-shot tag differs from the oracle";
  }

  // The streaming family this backend's streams use with the short kernels off (mode 0) or forced
  // on (1), the setting made here (ShortKernelsReset restores it).
  const chapoly::internal::StreamKernels *family_in_mode(int mode) {
    chapoly::internal::set_short_kernels_for_testing(mode);
    return mode == 1 && b().stream_short != nullptr ? b().stream_short : b().stream;
  }
  // A copy of the backend whose streams use `k` (wrapped entries).
  Backend streaming_through(const chapoly::internal::StreamKernels &k) {
    Backend copy = b();
    copy.stream = &k;
    copy.stream_short = nullptr;
    return copy;
  }

  // Seals and opens (aad, pt) through `via` (a copy of the backend with wrapped entries) in text
  // calls of the lengths `calls`; checks against the oracle's `want_ct` and `want_tag`.
  void stream_through(const Backend &via, const Bytes &aad, const Bytes &pt, const Bytes &want_ct,
                      const uint8_t want_tag[16], const std::vector<size_t> &calls, const std::string &what) {
    for (int dir = 0; dir < 2; ++dir) {
      chapoly_stream st;
      ASSERT_EQ(stream_init_with(via, &st, key_, nonce_), CHAPOLY_OK);
      ASSERT_EQ(chapoly_stream_aad(&st, aad.data(), aad.size()), CHAPOLY_OK);
      Bytes out(pt.size());
      const Bytes &in = dir == 0 ? pt : want_ct;
      size_t at = 0;
      for (size_t c : calls) {
        ASSERT_EQ((dir == 0 ? chapoly_stream_encrypt : chapoly_stream_decrypt)(&st, out.data() + at, in.data() + at, c),
                  CHAPOLY_OK) << what << " at " << at;
        at += c;
      }
      ASSERT_EQ(at, pt.size());
      if (dir == 0) {
        uint8_t got[16];
        ASSERT_EQ(chapoly_stream_final(&st, got), CHAPOLY_OK);
        EXPECT_TRUE(out == want_ct) << what << ": ciphertext differs from the oracle";
        EXPECT_EQ(to_hex(got, 16), to_hex(want_tag, 16)) << what;
      } else {
        EXPECT_EQ(chapoly_stream_verify(&st, want_tag), CHAPOLY_OK) << what;
        EXPECT_TRUE(out == pt) << what << ": plaintext differs";
      }
    }
  }

  Rng rng_{0x57ea0001};
  uint8_t key_[32], nonce_[12];
};

// The streaming family each backend uses: its own fused entries; avx512 the avx2 ones for short
// runs and its own fused entries for runs of whole chunks from the registry's STREAM_BULK_MIN;
// where the short kernels pay (Zen 5, or forced on here), avx512 and avx2 the scalar_mul64 ones
// for one-block runs and parked blocks (registry STREAM_SHORT).
TEST_P(Stream, UsesTheBackendsStreamingKernels) {
  ShortKernelsReset reset;
  for (int mode : {0, 1}) {
    chapoly::internal::set_short_kernels_for_testing(mode);
    chapoly_stream st;
    ASSERT_EQ(stream_init_with(b(), &st, key_, nonce_), CHAPOLY_OK);
    std::string fam = stream_family(&st);
    std::string name = b().name;
    SCOPED_TRACE("short kernels " + std::to_string(mode));
    if (name == "avx512") EXPECT_EQ(fam, mode ? "scalar_mul64+avx512_ifma_fused" : "avx2_mul64+avx512_ifma_fused");
    else if (name == "avx2") EXPECT_EQ(fam, mode ? "scalar_mul64+avx2_mul64" : "avx2_mul64");
#if defined(__riscv)
    else if (name == "scalar") EXPECT_EQ(fam, "rv64_mul64");  // riscv64's scalar backend (emitted/rv64)
#else
    else if (name == "scalar") EXPECT_EQ(fam, "scalar_mul64");
#endif
    else if (mode == 1 && b().stream_short != nullptr) EXPECT_EQ(fam, b().stream_short->family);
    else EXPECT_EQ(fam, b().stream != nullptr ? b().stream->family : "portable");
    chapoly_stream_wipe(&st);
  }
}

// Counting wrappers around one streaming family's entries (RoutesWholeChunkRunsToTheBulkEntries).
struct Routed {
  const chapoly::internal::StreamKernels *real = nullptr;
  int seal_update = 0, open_update = 0, seal_bulk = 0, open_bulk = 0, keys = 0;
  size_t bulk_bytes = 0;
  const uint8_t *keys_made = nullptr;  // the state bulk_keys wrote
  bool bulk_got_keys = true;           // every bulk call was handed that state (with bulk_keys)
};
Routed g_routed;

void routed_seal_update(uint8_t *out, const uint8_t *in, size_t len, uint8_t acc[24], const uint8_t otk[32],
                        const uint8_t nonce[12], const uint8_t key[32], uint32_t counter) {
  ++g_routed.seal_update;
  g_routed.real->seal_update(out, in, len, acc, otk, nonce, key, counter);
}
void routed_open_update(uint8_t *out, const uint8_t *in, size_t len, uint8_t acc[24], const uint8_t otk[32],
                        const uint8_t nonce[12], const uint8_t key[32], uint32_t counter) {
  ++g_routed.open_update;
  g_routed.real->open_update(out, in, len, acc, otk, nonce, key, counter);
}
void routed_bulk(bool seal, uint8_t *out, const uint8_t *in, size_t len, uint8_t acc[24], const uint8_t *keys,
                 const uint8_t nonce[12], const uint8_t key[32], uint32_t counter) {
  ++(seal ? g_routed.seal_bulk : g_routed.open_bulk);
  g_routed.bulk_bytes += len;
  if (g_routed.real->bulk_keys != nullptr && keys != g_routed.keys_made) g_routed.bulk_got_keys = false;
  (seal ? g_routed.real->seal_bulk : g_routed.real->open_bulk)(out, in, len, acc, keys, nonce, key, counter);
}
void routed_seal_bulk(uint8_t *out, const uint8_t *in, size_t len, uint8_t acc[24], const uint8_t *keys,
                      const uint8_t nonce[12], const uint8_t key[32], uint32_t counter) {
  routed_bulk(true, out, in, len, acc, keys, nonce, key, counter);
}
void routed_open_bulk(uint8_t *out, const uint8_t *in, size_t len, uint8_t acc[24], const uint8_t *keys,
                      const uint8_t nonce[12], const uint8_t key[32], uint32_t counter) {
  routed_bulk(false, out, in, len, acc, keys, nonce, key, counter);
}
void routed_keys(uint8_t pw[chapoly::internal::kStreamKeyBytes], const uint8_t otk[32]) {
  ++g_routed.keys;
  g_routed.keys_made = pw;
  g_routed.real->bulk_keys(pw, otk);
}

// A copy of `real` whose update, bulk and key-power entries count their calls in g_routed (reset
// here, with g_routed.real = &real).
chapoly::internal::StreamKernels routed(const chapoly::internal::StreamKernels &real) {
  g_routed = Routed{};
  g_routed.real = &real;
  chapoly::internal::StreamKernels wrapped = real;
  wrapped.seal_update = routed_seal_update;
  wrapped.open_update = routed_open_update;
  wrapped.seal_bulk = routed_seal_bulk;
  wrapped.open_bulk = routed_open_bulk;
  if (real.bulk_keys != nullptr) wrapped.bulk_keys = routed_keys;
  return wrapped;
}

// A family with bulk entries of its own (StreamKernels::seal_bulk: the avx512 families, the test
// variants and the emulated builds, whose bulk entries no other suite can tell apart from the
// entries beside them) gets every run of whole chunks from bulk_min bytes, and only those; its
// key-power state is made once per message, at the first bulk run, and handed to every bulk call.
// The family's entries wrapped in counters, streamed through a copy of the backend: runs of
// bulk_min - 64 (below it, where bulk_min allows), bulk_min and bulk_min + 3 blocks, each after 0
// or 37 parked bytes, in one message, both ways; the result checked against the oracle.
TEST_P(Stream, RoutesWholeChunkRunsToTheBulkEntries) {
  ShortKernelsReset reset;
  bool any = false;
  for (int mode : {0, 1}) {
    const chapoly::internal::StreamKernels *real = family_in_mode(mode);
    if (real == nullptr || real->seal_bulk == nullptr || real->missing() != nullptr) continue;
    any = true;
    SCOPED_TRACE(real->family);
    chapoly::internal::StreamKernels wrapped = routed(*real);
    wrapped.park_chacha20 = nullptr;  // one parked block at a time: the runs below are as planned
    const Backend copy = streaming_through(wrapped);
    const size_t min = (real->bulk_min + 63) / 64 * 64;  // the shortest run of whole chunks it takes
    std::vector<size_t> runs;
    if (min >= 128) runs.push_back(min - 64);  // below bulk_min
    runs.push_back(min);
    runs.push_back(min + 192);
    for (size_t extra : {size_t{0}, size_t{37}}) {
      // The text calls: `extra` bytes (parked), then each run (whole chunks after the parked
      // block's rest: 64 - extra bytes of it, the run, extra bytes parked again).
      std::vector<size_t> calls;
      if (extra != 0) calls.push_back(extra);
      size_t below = 0, at_or_above = 0, above_bytes = 0;
      for (size_t r : runs) {
        calls.push_back((extra != 0 ? 64 - extra : 0) + r + extra);
        (r >= min ? at_or_above : below) += 1;
        if (r >= min) above_bytes += r;
      }
      size_t len = 0;
      for (size_t c : calls) len += c;
      Bytes aad = rng_.bytes(13), pt = rng_.bytes(len), ct;
      uint8_t tag[16];
      reference(aad, pt, ct, tag);
      g_routed = Routed{};
      g_routed.real = real;
      stream_through(copy, aad, pt, ct, tag, calls, "extra " + std::to_string(extra));
      EXPECT_EQ(g_routed.seal_bulk, static_cast<int>(at_or_above)) << "extra " << extra;
      EXPECT_EQ(g_routed.open_bulk, static_cast<int>(at_or_above)) << "extra " << extra;
      EXPECT_EQ(g_routed.bulk_bytes, 2 * above_bytes) << "extra " << extra;
      EXPECT_EQ(g_routed.seal_update, static_cast<int>(below)) << "extra " << extra;
      EXPECT_EQ(g_routed.open_update, static_cast<int>(below)) << "extra " << extra;
      if (real->bulk_keys != nullptr) {
        EXPECT_EQ(g_routed.keys, 2) << "extra " << extra << ": the key-power state is made once per message";
        EXPECT_TRUE(g_routed.bulk_got_keys) << "extra " << extra << ": a bulk call was not handed the key-power state";
      }
      if (HasFailure()) return;
    }
  }
  if (!any) GTEST_SKIP() << b().name << ": its streaming family has no bulk entries of its own";
}

// Counting wrapper around a family's park_chacha20 (ParksLaterKeystreamBlocksInBatches).
chapoly::internal::ChaCha20Fn g_park_real = nullptr;
int g_park_calls = 0;
size_t g_park_bytes = 0;
void counted_park(uint8_t *out, const uint8_t *in, size_t len, const uint8_t nonce[12], const uint8_t key[32],
                  uint32_t counter) {
  ++g_park_calls;
  g_park_bytes += len;
  g_park_real(out, in, len, nonce, key, counter);
}

// A family with STREAM_PARK (park_chacha20: the avx512 families, the test variants, the emulated
// builds) makes a message's first parked keystream block alone and the later ones park_blocks at
// a time: a message streamed in 16-byte calls (`openssl speed`'s pattern) of 64 + 64 P m + t
// bytes makes ceil((len - 64) / 64 P) batches, each of P blocks, and gives the oracle's result.
TEST_P(Stream, ParksLaterKeystreamBlocksInBatches) {
  ShortKernelsReset reset;
  bool any = false;
  for (int mode : {0, 1}) {
    const chapoly::internal::StreamKernels *real = family_in_mode(mode);
    if (real == nullptr || real->park_chacha20 == nullptr || real->park_blocks < 2 || real->missing() != nullptr)
      continue;
    any = true;
    SCOPED_TRACE(real->family);
    const size_t p = real->park_blocks;
    chapoly::internal::StreamKernels wrapped = *real;
    g_park_real = real->park_chacha20;
    wrapped.park_chacha20 = counted_park;
    const Backend copy = streaming_through(wrapped);
    for (size_t len : {size_t{64 + 64 * 4 * 3 + 16}, size_t{1024}, size_t{1500}}) {
      Bytes aad = rng_.bytes(13), pt = rng_.bytes(len), ct;
      uint8_t tag[16];
      reference(aad, pt, ct, tag);
      g_park_calls = 0;
      g_park_bytes = 0;
      std::vector<size_t> calls;
      for (size_t at = 0; at < len; at += 16) calls.push_back(std::min<size_t>(16, len - at));
      stream_through(copy, aad, pt, ct, tag, calls, "len " + std::to_string(len));
      const size_t batches = (len - 64 + 64 * p - 1) / (64 * p);
      EXPECT_EQ(g_park_calls, static_cast<int>(2 * batches)) << "len " << len;
      EXPECT_EQ(g_park_bytes, 2 * batches * 64 * p) << "len " << len;
      if (HasFailure()) return;
    }
  }
  if (!any) GTEST_SKIP() << b().name << ": its streaming family parks one keystream block at a time";
}

// Counting wrapper around a family's mac_update (MacsLongRunsOnTheKeyPowerState).
chapoly::internal::PolyUpdateFn g_mac_real = nullptr;
int g_mac_calls = 0;
size_t g_mac_bytes = 0;
bool g_mac_whole = true;  // every call was handed whole 16-byte blocks of at least mac_min bytes
bool g_mac_got_keys = true;
void counted_mac(uint8_t acc[24], const uint8_t *msg, size_t len, const uint8_t *keys) {
  ++g_mac_calls;
  g_mac_bytes += len;
  if (len % 16 != 0 || len < g_routed.real->mac_min) g_mac_whole = false;
  if (keys != g_routed.keys_made) g_mac_got_keys = false;
  g_mac_real(acc, msg, len, keys);
}

// A family with STREAM_MAC (mac_update: the avx512 family, the test variants, the emulated builds)
// MACs every run of at least mac_min bytes of whole blocks, text or AAD, through its entry on the
// key-power state (made once per message, the state every call gets), and from the second text call
// on takes runs below mac_below from parked keystream, not from its bulk or update entries; a
// message's first text call, and later runs from mac_below on, still go to the bulk entries. A
// 300-byte AAD in one call, then text calls of bulk_min (rounded up to whole chunks: the first
// call's bulk run), 16, 37, 192..1000 bytes (those below mac_below) and one of mac_below + 576
// (a run of at least mac_below whole bytes after any parked keystream, < 512 bytes); the oracle's
// result both ways, and the calls of every entry counted.
TEST_P(Stream, MacsLongRunsOnTheKeyPowerState) {
  ShortKernelsReset reset;
  bool any = false;
  for (int mode : {0, 1}) {
    const chapoly::internal::StreamKernels *real = family_in_mode(mode);
    if (real == nullptr || real->mac_update == nullptr || real->missing() != nullptr) continue;
    any = true;
    SCOPED_TRACE(real->family);
    ASSERT_NE(real->bulk_keys, nullptr) << "STREAM_MAC needs the key-power state";
    ASSERT_NE(real->park_chacha20, nullptr) << "STREAM_MAC needs parked batches";
    chapoly::internal::StreamKernels wrapped = routed(*real);
    g_park_real = real->park_chacha20;
    wrapped.park_chacha20 = counted_park;
    g_mac_real = real->mac_update;
    wrapped.mac_update = counted_mac;
    const Backend copy = streaming_through(wrapped);
    const size_t first = (real->bulk_min + 63) / 64 * 64;
    ASSERT_LT(first, real->mac_below) << "a first call below mac_below that the bulk entry takes";
    std::vector<size_t> calls = {first, 16, 37};
    for (size_t c : {size_t{192}, size_t{256}, size_t{320}, size_t{1000}, real->mac_below - 1})
      if (c < real->mac_below) calls.push_back(c);
    calls.push_back(real->mac_below + 576);
    size_t len = 0;
    for (size_t c : calls) len += c;
    Bytes aad = rng_.bytes(300), pt = rng_.bytes(len), ct;
    uint8_t tag[16];
    reference(aad, pt, ct, tag);
    g_routed = Routed{};
    g_routed.real = real;
    g_mac_calls = 0;
    g_mac_bytes = 0;
    g_mac_whole = g_mac_got_keys = true;
    g_park_calls = 0;
    stream_through(copy, aad, pt, ct, tag, calls, "calls of bulk_min, 16, 37, 192, ...");
    // The AAD's 288 whole bytes and, of the text, at least every parked run's whole blocks of at
    // least mac_min bytes: bounded below by the AAD and the text's 192-byte call or longer.
    EXPECT_GE(g_mac_bytes, 2 * (288 + std::min<size_t>(192, real->mac_below - 64) - 64)) << "MAC bytes, both ways";
    EXPECT_TRUE(g_mac_whole) << "a MAC call of a partial block or below mac_min";
    EXPECT_TRUE(g_mac_got_keys) << "a MAC call was not handed the key-power state";
    EXPECT_EQ(g_routed.keys, 2) << "the key-power state is made once per message";
    EXPECT_EQ(g_routed.seal_bulk, 2) << "the first call's run and the run of mac_below bytes or more, no other";
    EXPECT_EQ(g_routed.open_bulk, 2);
    EXPECT_EQ(g_routed.seal_update, 0) << "a later short run went to the update entry, not to parked keystream";
    EXPECT_EQ(g_routed.open_update, 0);
    EXPECT_GT(g_park_calls, 0) << "no parked batch";
    if (HasFailure()) return;
  }
  if (!any) GTEST_SKIP() << b().name << ": its streaming family has no MAC entry on the key-power state";
}

#if defined(__x86_64__)
// The key-power state a family's bulk entries read in place of otk (StreamKernels::bulk_keys:
// the avx512 families' _stream_keys, emitted/README.md): with L lanes (StreamKernels::key_lanes, 8
// or 4) the 8-byte word at 8 L i + 8 j is limb i (radix 2^44) of a value equal to r^(L-j) mod
// 2^130 - 5, r = clamp(otk[0..16)) (RFC 8439 2.5), and each limb
// fits the widths the update entries' load masks it to (44, 45, 42 bits): else the load would
// change it. OpenSSL's BIGNUM is the oracle. Random one-time keys, r all ones after the clamp,
// r = 0 and r = 1.
TEST_P(Stream, KeyPowerStateHoldsTheLanePowersOfR) {
  const chapoly::internal::StreamKernels *fams[] = {b().stream, b().stream_short};
  bool any = false;
  for (const auto *k : fams) {
    if (k == nullptr || k->bulk_keys == nullptr) continue;
    any = true;
    SCOPED_TRACE(k->family);
    const unsigned lanes = k->key_lanes;
    ASSERT_TRUE(lanes == 8 || lanes == 4) << k->family << ": key_lanes " << lanes;
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *p = BN_new(), *r = BN_new(), *e = BN_new(), *want = BN_new(), *got = BN_new();
    ASSERT_TRUE(ctx && p && r && e && want && got);
    BN_set_bit(p, 130);
    BN_sub_word(p, 5);
    Rng rng(0x9e75);
    for (int iter = 0; iter < 300; ++iter) {
      uint8_t otk[32], pw[chapoly::internal::kStreamKeyBytes], rb[16];
      rng.fill(otk, sizeof otk);
      if (iter == 0) std::memset(otk, 0xff, 16);
      if (iter == 1) std::memset(otk, 0, 16);
      if (iter == 2) std::memset(otk, 0, 16), otk[0] = 1;
      k->bulk_keys(pw, otk);
      static const uint8_t clamp[16] = {0xff, 0xff, 0xff, 0x0f, 0xfc, 0xff, 0xff, 0x0f,
                                        0xfc, 0xff, 0xff, 0x0f, 0xfc, 0xff, 0xff, 0x0f};
      for (int i = 0; i < 16; ++i) rb[i] = static_cast<uint8_t>(otk[i] & clamp[i]);
      ASSERT_TRUE(BN_lebin2bn(rb, 16, r));
      for (unsigned j = 0; j < lanes; ++j) {
        uint64_t l[3];
        for (unsigned i = 0; i < 3; ++i) std::memcpy(&l[i], pw + 8 * lanes * i + 8 * j, 8);
        ASSERT_LT(l[0], uint64_t{1} << 44) << "lane " << j << ", iter " << iter;
        ASSERT_LT(l[1], uint64_t{1} << 45) << "lane " << j << ", iter " << iter;
        ASSERT_LT(l[2], uint64_t{1} << 42) << "lane " << j << ", iter " << iter;
        BN_set_word(got, l[2]);
        BN_lshift(got, got, 44);
        BN_add_word(got, l[1]);
        BN_lshift(got, got, 44);
        BN_add_word(got, l[0]);
        BN_mod(got, got, p, ctx);
        BN_set_word(e, static_cast<BN_ULONG>(lanes - j));
        BN_mod_exp(want, r, e, p, ctx);
        ASSERT_EQ(BN_cmp(got, want), 0) << "lane " << j << " is not r^" << lanes - j << " mod 2^130-5, iter " << iter;
      }
    }
    BN_free(p), BN_free(r), BN_free(e), BN_free(want), BN_free(got);
    BN_CTX_free(ctx);
  }
  if (!any) GTEST_SKIP() << b().name << ": no streaming family with a key-power state (only the avx512 families have one)";
}
#endif

// Every seventh split point for the emulated builds (tests/emu: each of their calls costs the
// emulation and a 512 KiB stack burn; at every split point ~40 s of the suite's time; their native
// twins, where the CPU has them, take every split) and for backends without streaming entries of
// their own (the riscv64 test variants: they stream through the portable entries, which the
// portable backend covers at every split, and under QEMU every split costs minutes).
size_t split_stride(const Backend &b) {
  const bool emulated = std::string(b.name).find("-emu") != std::string::npos;
  const bool borrowed = b.stream == nullptr && std::string(b.name) != "portable";
  return emulated || borrowed ? 7 : 1;
}

// Every text split point (two calls) of every length 0..300, the AAD (13, 16 or 37 bytes) split
// at a point that moves independently of the text's.
TEST_P(Stream, EveryTextSplitTo300) {
  const size_t aad_lens[] = {0, 13, 16, 37};
  for (size_t len = 0; len <= 300; ++len) {
    Bytes aad = rng_.bytes(aad_lens[len % 4]), pt = rng_.bytes(len), ct;
    uint8_t tag[16];
    reference(aad, pt, ct, tag);
    for (size_t k = 0; k <= len; k += split_stride(b())) {
      Plan p{{(k * 7) % (aad.size() + 1)}, {k}};
      check(aad, pt, ct, tag, p, k % 5 == 0);
      if (HasFatalFailure()) return;
    }
  }
}

// Every AAD split point (two calls) of every AAD length 0..300, with texts of 0..130 bytes split
// at a point that moves independently.
TEST_P(Stream, EveryAadSplitTo300) {
  for (size_t alen = 0; alen <= 300; ++alen) {
    Bytes aad = rng_.bytes(alen), pt = rng_.bytes(alen % 131), ct;
    uint8_t tag[16];
    reference(aad, pt, ct, tag);
    for (size_t j = 0; j <= alen; j += split_stride(b())) {
      Plan p{{j}, {(j * 11) % (pt.size() + 1)}};
      check(aad, pt, ct, tag, p, false);
      if (HasFatalFailure()) return;
    }
  }
}

// Many small calls (1..17 bytes, empty calls too) for both AAD and text, lengths up to 300.
TEST_P(Stream, ManySmallCalls) {
  for (size_t len = 0; len <= 300; len += 7) {
    Bytes aad = rng_.bytes(len % 41), pt = rng_.bytes(len), ct;
    uint8_t tag[16];
    reference(aad, pt, ct, tag);
    for (int rep = 0; rep < 3; ++rep) {
      Plan p;
      for (size_t at = 0; at < aad.size();) p.aad_cuts.push_back(at = std::min(aad.size(), at + rng_.below(6)));
      for (size_t at = 0; at < pt.size();) p.text_cuts.push_back(at = std::min(pt.size(), at + rng_.below(18)));
      check(aad, pt, ct, tag, p, rep == 1);
      if (HasFatalFailure()) return;
    }
  }
}

// Runs of 1..20 whole blocks (after 0 or 37 parked bytes), with the short-kernel setting forced
// off and on: on a CPU where the backend's short kernels pay (Zen 5), avx512 takes one-block runs
// (and the parked blocks) through scalar_mul64's entries and every longer run through its own fused
// entries (registry STREAM_SHORT), elsewhere the avx2 entries below STREAM_BULK_MIN (256 B) and its
// own from there; every route must give the oracle's ciphertext and tag on every CPU.
TEST_P(Stream, ShortRunsThroughEitherEntry) {
  ShortKernelsReset reset;
  for (int mode : {0, 1}) {
    chapoly::internal::set_short_kernels_for_testing(mode);
    for (size_t blocks = 1; blocks <= 20; ++blocks) {
      for (size_t extra : {0, 37}) {
        Bytes aad = rng_.bytes(13), pt = rng_.bytes(extra + 64 * blocks + 5), ct;
        uint8_t tag[16];
        reference(aad, pt, ct, tag);
        check(aad, pt, ct, tag, Plan{{}, {extra, extra + 64 * blocks}}, blocks % 2 == 0);
        if (HasFatalFailure()) break;
      }
      if (HasFatalFailure()) break;
    }
  }
}

// One text call of m KiB + 64 t bytes (+ 0 or 37 parked bytes) for every tail t = 0..15 blocks:
// avx512's streaming entries take every such run (at least 256 bytes: registry STREAM_BULK_MIN):
// whole 1 KiB chunks through the fused loop, the tail in one 4-block pass (t <= 4) or in four
// 4-block states side by side (t > 4); and the same runs after a first call of one block, so the
// run starts at block counter 2.
TEST_P(Stream, BulkRunsEveryTail) {
  for (size_t kib : {1, 2}) {
    for (size_t t = 0; t < 16; ++t) {
      for (size_t extra : {0, 37}) {
        size_t len = 1024 * kib + 64 * t + extra;
        Bytes aad = rng_.bytes(13), pt = rng_.bytes(len + 64), ct;
        uint8_t tag[16];
        reference(aad, pt, ct, tag);
        check(aad, pt, ct, tag, Plan{{}, {}}, t % 2 == 1);
        if (HasFatalFailure()) return;
        check(aad, pt, ct, tag, Plan{{5}, {64}}, false);
        if (HasFatalFailure()) return;
      }
    }
  }
}

// Large calls around the fused kernels' chunk sizes (64 bytes; 512 in the avx2 entries, 1024 in
// avx512's): random
// cuts, and cuts that leave whole runs of 1..20 chunks between parked blocks.
TEST_P(Stream, LargeCallsAcrossChunks) {
  const size_t lens[] = {511, 512, 513, 1023, 1024, 1088, 1600, 2047, 4096 + 37, 9000};
  for (size_t len : lens) {
    Bytes aad = rng_.bytes(len % 29), pt = rng_.bytes(len), ct;
    uint8_t tag[16];
    reference(aad, pt, ct, tag);
    for (int rep = 0; rep < 12; ++rep) {
      Plan p;
      size_t at = 0;
      while (at < len) {
        size_t step = rep % 3 == 0 ? rng_.below(1200) : rep % 3 == 1 ? 64 * (1 + rng_.below(20)) + rng_.below(3)
                                                                    : 1 + rng_.below(80);
        at = std::min(len, at + step);
        p.text_cuts.push_back(at);
      }
      check(aad, pt, ct, tag, p, rep % 4 == 1);
      if (HasFatalFailure()) return;
    }
  }
}

// A spread of lengths to 1 MiB, three random cuts each.
TEST_P(Stream, SpreadTo1MiB) {
  for (size_t len = 1000; len <= (size_t{1} << 20); len = len * 3 + 17) {
    Bytes aad = rng_.bytes(len % 50), pt = rng_.bytes(len), ct;
    uint8_t tag[16];
    reference(aad, pt, ct, tag);
    Plan p;
    std::vector<size_t> cuts = {rng_.below(static_cast<uint32_t>(len)), rng_.below(static_cast<uint32_t>(len)),
                                rng_.below(static_cast<uint32_t>(len))};
    std::sort(cuts.begin(), cuts.end());
    p.text_cuts = cuts;
    check(aad, pt, ct, tag, p, false);
    if (HasFatalFailure()) return;
  }
}

TEST_P(Stream, TamperedTagIsRejected) {
  Bytes aad = rng_.bytes(20), pt = rng_.bytes(100), ct;
  uint8_t tag[16];
  reference(aad, pt, ct, tag);
  for (int bit = 0; bit < 128; bit += 9) {
    uint8_t bad[16];
    std::memcpy(bad, tag, 16);
    bad[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    chapoly_stream st;
    ASSERT_EQ(stream_init_with(b(), &st, key_, nonce_), CHAPOLY_OK);
    ASSERT_EQ(chapoly_stream_aad(&st, aad.data(), aad.size()), CHAPOLY_OK);
    Bytes out(pt.size());
    ASSERT_EQ(chapoly_stream_decrypt(&st, out.data(), ct.data(), ct.size()), CHAPOLY_OK);
    ASSERT_EQ(chapoly_stream_verify(&st, bad), CHAPOLY_ERR_AUTH) << "bit " << bit;
    // verify wiped the state even on failure
    for (uint64_t w : st.opaque) ASSERT_EQ(w, 0u);
  }
}

// chapoly_stream_wipe in the middle of a message (AAD parked in the Poly1305 buffer, a parked
// keystream block after text, in either direction) zeroes the whole chapoly_stream, and the
// stream then refuses every call.
TEST_P(Stream, WipeMidMessageZeroesEverything) {
  Bytes aad = rng_.bytes(21), pt = rng_.bytes(150), out(150);
  for (int dir = 0; dir < 2; ++dir) {
    for (size_t text : {size_t{0}, size_t{37}, size_t{128}, size_t{150}}) {
      chapoly_stream st;
      ASSERT_EQ(stream_init_with(b(), &st, key_, nonce_), CHAPOLY_OK);
      ASSERT_EQ(chapoly_stream_aad(&st, aad.data(), aad.size()), CHAPOLY_OK);
      auto call = dir == 0 ? chapoly_stream_encrypt : chapoly_stream_decrypt;
      ASSERT_EQ(call(&st, out.data(), pt.data(), text), CHAPOLY_OK);
      chapoly_stream_wipe(&st);
      EXPECT_TRUE(all_zero(st)) << "dir " << dir << " text " << text;
      EXPECT_EQ(call(&st, out.data(), pt.data(), 1), CHAPOLY_ERR_STATE);
      EXPECT_EQ(chapoly_stream_final(&st, out.data()), CHAPOLY_ERR_STATE);
      EXPECT_EQ(chapoly_stream_verify(&st, out.data()), CHAPOLY_ERR_STATE);
      EXPECT_TRUE(all_zero(st)) << "a refused call after the wipe wrote to the state";
    }
  }
}

// The end of the 32-bit block counter (issue 10, item 3): the stream moved by the test hook to
// block 2^32 - k, k blocks (64k bytes) are left. Calls that stay within them, in one piece or
// split so that they run through the parked block and the fused kernels' whole-block runs (up to
// 17 blocks: past the avx2 entries' 8-block chunk and 16-block loops), give the keystream of
// blocks 2^32 - k .. 2^32 - 1 (the oracle's ChaCha20 from that counter); before
// every call, and after the last, a call one byte too long (the one that would need block 2^32,
// where the kernels' 32-bit counter would wrap to block 0, the one-time key's) returns
// CHAPOLY_ERR_TOO_LONG with the state and the canary-filled output unchanged, and the stream
// goes on (chapoly.h: a refused call leaves the stream usable).
TEST_P(Stream, RefusesTheCallThatWouldWrapTheBlockCounter) {
  struct Case {
    uint32_t k;                 // blocks left
    std::vector<size_t> calls;  // lengths, summing to 64 * k
  };
  const Case cases[] = {
      {1, {64}},      {1, {5, 59}},        {1, {63, 1}},           {1, {0, 64, 0}},
      {2, {128}},     {2, {1, 127}},       {2, {64, 64}},          {2, {70, 58}},
      {9, {576}},     {9, {13, 512, 51}},  {17, {1088}},           {17, {64 * 16 + 3, 61}},
      // Parked keystream batches (STREAM_PARK) that the end of the counter cuts to 2..8 blocks
      // (the last ending at block 2^32 - 1; avx512 parks 8, in one or two 4-block states).
      {3, {5, 60, 5, 122}}, {4, {5, 60, 5, 186}}, {5, {5, 60, 5, 250}},
      {6, {5, 60, 5, 314}}, {7, {5, 60, 5, 378}}, {8, {5, 60, 5, 442}}, {9, {5, 60, 5, 506}},
  };
  for (const Case &c : cases) {
    const uint32_t start = static_cast<uint32_t>((uint64_t{1} << 32) - c.k);
    const size_t total = size_t{64} * c.k;
    Bytes in = rng_.bytes(total), want(total), aad = rng_.bytes(5);
    oracle_chacha20(want.data(), in.data(), total, nonce_, key_, start);
    for (int dir = 0; dir < 2; ++dir) {
      auto ctx = [&] {
        testing::Message m;
        m << b().name << (dir == 0 ? " encrypt" : " decrypt") << " from block 2^32-" << c.k << " calls:";
        for (size_t n : c.calls) m << " " << n;
        return m;
      };
      auto call = dir == 0 ? chapoly_stream_encrypt : chapoly_stream_decrypt;
      chapoly_stream st;
      ASSERT_EQ(stream_init_with(b(), &st, key_, nonce_), CHAPOLY_OK);
      ASSERT_EQ(chapoly_stream_aad(&st, aad.data(), aad.size()), CHAPOLY_OK);
      ASSERT_EQ(stream_set_counter_for_test(&st, start), CHAPOLY_OK);
      // One extra byte of input, so that the refused calls pass valid buffers of their length.
      Bytes src = in, out(total + 1, 0xa5);
      src.push_back(0x3c);
      size_t at = 0;
      auto refused = [&](size_t len) {
        chapoly_stream snap = st;
        Bytes before = out;
        EXPECT_EQ(call(&st, out.data() + at, src.data() + at, len), CHAPOLY_ERR_TOO_LONG) << ctx() << " at " << at;
        EXPECT_TRUE(out == before) << ctx() << ": a refused call wrote to out";
        EXPECT_EQ(std::memcmp(&snap, &st, sizeof st), 0) << ctx() << ": a refused call changed the state";
      };
      for (size_t n : c.calls) {
        refused(total - at + 1);
        ASSERT_EQ(call(&st, out.data() + at, src.data() + at, n), CHAPOLY_OK) << ctx() << " at " << at;
        at += n;
      }
      ASSERT_EQ(at, total);
      refused(1);
      refused(64);
      refused(static_cast<size_t>(CHAPOLY_MAX_LEN));
      EXPECT_TRUE(std::equal(want.begin(), want.end(), out.begin())) << ctx() << ": keystream differs from the oracle";
      EXPECT_EQ(out[total], 0xa5) << ctx() << ": wrote past the text";
      EXPECT_EQ(call(&st, out.data() + total, src.data() + total, 0), CHAPOLY_OK) << ctx() << ": empty call";
      // Still usable: the message ends normally (its tag covers only the text streamed after the
      // hook, so it is checked for the wipe only).
      uint8_t tag[16] = {0};
      if (dir == 0) EXPECT_EQ(chapoly_stream_final(&st, tag), CHAPOLY_OK) << ctx();
      else EXPECT_EQ(chapoly_stream_verify(&st, tag), CHAPOLY_ERR_AUTH) << ctx();
      EXPECT_TRUE(all_zero(st)) << ctx();
      if (HasFailure()) return;
    }
  }
}

// The hook itself: counter 0 and a stream holding a parked partial block are refused.
TEST_P(Stream, CounterHookRefusesAParkedBlock) {
  chapoly_stream st;
  uint8_t buf[10] = {0};
  ASSERT_EQ(stream_init_with(b(), &st, key_, nonce_), CHAPOLY_OK);
  EXPECT_EQ(stream_set_counter_for_test(&st, 0), CHAPOLY_ERR_ARG);
  ASSERT_EQ(chapoly_stream_encrypt(&st, buf, buf, sizeof buf), CHAPOLY_OK);
  EXPECT_EQ(stream_set_counter_for_test(&st, 7), CHAPOLY_ERR_STATE);
  chapoly_stream_wipe(&st);
  EXPECT_EQ(stream_set_counter_for_test(&st, 7), CHAPOLY_ERR_STATE);
}

INSTANTIATE_TEST_SUITE_P(Backends, Stream, testing::ValuesIn(all_backends()), backend_param_name);

// --- the state machine and the errors, through the C API ------------------------------------------

class StreamApi : public testing::Test {
 protected:
  uint8_t key[32] = {1, 2, 3}, nonce[12] = {4, 5, 6};
  uint8_t buf[256] = {7}, out[256], tag[16];
};

TEST_F(StreamApi, CallsOutOfOrderReturnErrState) {
  chapoly_stream st;
  ASSERT_EQ(chapoly_stream_init(&st, key, nonce), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_encrypt(&st, out, buf, 10), CHAPOLY_OK);
  chapoly_stream snap = st;
  EXPECT_EQ(chapoly_stream_aad(&st, buf, 1), CHAPOLY_ERR_STATE);       // AAD after text
  EXPECT_EQ(chapoly_stream_decrypt(&st, out, buf, 1), CHAPOLY_ERR_STATE);  // decrypt after encrypt
  EXPECT_EQ(chapoly_stream_verify(&st, tag), CHAPOLY_ERR_STATE);        // verify after encrypt
  EXPECT_EQ(std::memcmp(&snap, &st, sizeof st), 0) << "a refused call changed the state";
  ASSERT_EQ(chapoly_stream_final(&st, tag), CHAPOLY_OK);
  EXPECT_TRUE(all_zero(st)) << "final must wipe the state";
  EXPECT_EQ(chapoly_stream_encrypt(&st, out, buf, 1), CHAPOLY_ERR_STATE);  // anything after final
  EXPECT_EQ(chapoly_stream_aad(&st, buf, 1), CHAPOLY_ERR_STATE);
  EXPECT_EQ(chapoly_stream_final(&st, tag), CHAPOLY_ERR_STATE);

  ASSERT_EQ(chapoly_stream_init(&st, key, nonce), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_decrypt(&st, out, buf, 10), CHAPOLY_OK);
  EXPECT_EQ(chapoly_stream_encrypt(&st, out, buf, 1), CHAPOLY_ERR_STATE);  // encrypt after decrypt
  EXPECT_EQ(chapoly_stream_final(&st, tag), CHAPOLY_ERR_STATE);            // final after decrypt
  EXPECT_EQ(chapoly_stream_verify(&st, tag), CHAPOLY_ERR_AUTH);            // a wrong tag, then wiped
  EXPECT_TRUE(all_zero(st)) << "verify must wipe the state";
  EXPECT_EQ(chapoly_stream_verify(&st, tag), CHAPOLY_ERR_STATE);

  ASSERT_EQ(chapoly_stream_init(&st, key, nonce), CHAPOLY_OK);
  chapoly_stream_wipe(&st);
  EXPECT_TRUE(all_zero(st));
  EXPECT_EQ(chapoly_stream_aad(&st, buf, 1), CHAPOLY_ERR_STATE);  // after wipe
  chapoly_stream_wipe(nullptr);
}

TEST_F(StreamApi, ArgumentErrors) {
  chapoly_stream st;
  EXPECT_EQ(chapoly_stream_init(nullptr, key, nonce), CHAPOLY_ERR_ARG);
  EXPECT_EQ(chapoly_stream_init(&st, nullptr, nonce), CHAPOLY_ERR_ARG);
  EXPECT_EQ(chapoly_stream_init(&st, key, nullptr), CHAPOLY_ERR_ARG);
  ASSERT_EQ(chapoly_stream_init(&st, key, nonce), CHAPOLY_OK);
  EXPECT_EQ(chapoly_stream_aad(&st, nullptr, 1), CHAPOLY_ERR_ARG);
  EXPECT_EQ(chapoly_stream_aad(&st, nullptr, 0), CHAPOLY_OK);
  EXPECT_EQ(chapoly_stream_encrypt(&st, nullptr, buf, 1), CHAPOLY_ERR_ARG);
  EXPECT_EQ(chapoly_stream_encrypt(&st, out, nullptr, 1), CHAPOLY_ERR_ARG);
  EXPECT_EQ(chapoly_stream_encrypt(&st, buf + 1, buf, 10), CHAPOLY_ERR_ARG);  // partial overlap
  // Output inside the stream object, also in its last bytes past the internal state's end
  // (accepted before stop 47): refused, before any keystream or state change.
  {
    const chapoly_stream before_text = st;
    uint8_t *tail = reinterpret_cast<uint8_t *>(&st) + sizeof st - 8;
    EXPECT_EQ(chapoly_stream_encrypt(&st, tail, buf, 8), CHAPOLY_ERR_ARG);
    EXPECT_EQ(chapoly_stream_encrypt(&st, reinterpret_cast<uint8_t *>(&st) + 100, buf, 8), CHAPOLY_ERR_ARG);
    EXPECT_EQ(std::memcmp(&st, &before_text, sizeof st), 0);
  }
  EXPECT_EQ(chapoly_stream_encrypt(&st, nullptr, nullptr, 0), CHAPOLY_OK);
  EXPECT_EQ(chapoly_stream_final(&st, nullptr), CHAPOLY_ERR_ARG);
  // A tag inside the state (found by the fresh-user review: final wrote the tag, then wiped it
  // with the state, and returned OK): refused, the state unchanged and still usable.
  chapoly_stream before = st;
  uint8_t *inside = reinterpret_cast<uint8_t *>(&st) + 100;
  EXPECT_EQ(chapoly_stream_final(&st, inside), CHAPOLY_ERR_ARG);
  EXPECT_EQ(chapoly_stream_final(&st, reinterpret_cast<uint8_t *>(&st) + sizeof st - 8), CHAPOLY_ERR_ARG);
  EXPECT_EQ(std::memcmp(&st, &before, sizeof st), 0);
  EXPECT_EQ(chapoly_stream_final(&st, tag), CHAPOLY_OK);
  chapoly_stream dec;
  ASSERT_EQ(chapoly_stream_init(&dec, key, nonce), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_decrypt(&dec, out, buf, 0), CHAPOLY_OK);
  EXPECT_EQ(chapoly_stream_verify(&dec, reinterpret_cast<const uint8_t *>(&dec) + 8), CHAPOLY_ERR_ARG);
  EXPECT_EQ(chapoly_stream_verify(&dec, tag), CHAPOLY_OK);
  chapoly_stream_wipe(&st);
}

// NULL pointers with zero lengths are accepted everywhere, also while a partial Poly1305 block of
// AAD or a partial keystream block is parked (fuzz_stream's first finding: those calls handed
// NULL to memcpy for 0 bytes, undefined behaviour that UBSan stops on; regressions/stream/), and
// the message still matches chapoly_seal.
TEST_F(StreamApi, NullWithZeroLengthWhileBlocksAreParked) {
  uint8_t aad[20] = {3, 1, 4}, ct[100], want[100], want_tag[16], back[100];
  ASSERT_EQ(chapoly_seal(want, want_tag, buf, 100, aad, 20, nonce, key), CHAPOLY_OK);
  chapoly_stream st;
  ASSERT_EQ(chapoly_stream_init(&st, key, nonce), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_aad(&st, nullptr, 0), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_aad(&st, aad, 7), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_aad(&st, nullptr, 0), CHAPOLY_OK);  // 7 AAD bytes parked
  ASSERT_EQ(chapoly_stream_aad(&st, aad + 7, 13), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_encrypt(&st, ct, buf, 10), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_encrypt(&st, nullptr, nullptr, 0), CHAPOLY_OK);  // a keystream block parked
  ASSERT_EQ(chapoly_stream_encrypt(&st, ct + 10, buf + 10, 90), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_encrypt(&st, nullptr, nullptr, 0), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_final(&st, tag), CHAPOLY_OK);
  EXPECT_EQ(std::memcmp(ct, want, 100), 0);
  EXPECT_EQ(std::memcmp(tag, want_tag, 16), 0);

  ASSERT_EQ(chapoly_stream_init(&st, key, nonce), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_aad(&st, aad, 20), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_decrypt(&st, back, ct, 33), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_decrypt(&st, nullptr, nullptr, 0), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_decrypt(&st, back + 33, ct + 33, 67), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_verify(&st, tag), CHAPOLY_OK);
  EXPECT_EQ(std::memcmp(back, buf, 100), 0);
}

// A text call that would pass 2^38 - 64 bytes returns CHAPOLY_ERR_TOO_LONG before it touches
// anything (the buffers are far too small: any write or keystream use would be caught by ASan or
// change `out`), also after earlier text.
TEST_F(StreamApi, TooLongBeforeAnyKeystream) {
  chapoly_stream st;
  ASSERT_EQ(chapoly_stream_init(&st, key, nonce), CHAPOLY_OK);
  std::memset(out, 0x5a, sizeof out);
  EXPECT_EQ(chapoly_stream_encrypt(&st, out, buf, static_cast<size_t>(CHAPOLY_MAX_LEN) + 1), CHAPOLY_ERR_TOO_LONG);
  ASSERT_EQ(chapoly_stream_encrypt(&st, out, buf, 100), CHAPOLY_OK);
  chapoly_stream snap = st;
  uint8_t mark[256];
  std::memcpy(mark, out, sizeof out);
  EXPECT_EQ(chapoly_stream_encrypt(&st, out, buf, static_cast<size_t>(CHAPOLY_MAX_LEN) - 99), CHAPOLY_ERR_TOO_LONG);
  EXPECT_EQ(std::memcmp(&snap, &st, sizeof st), 0);
  EXPECT_EQ(std::memcmp(mark, out, sizeof out), 0);
  chapoly_stream_wipe(&st);
}

// The C API streams on the selected backend and matches chapoly_seal.
TEST_F(StreamApi, MatchesOneShotOnTheSelectedBackend) {
  uint8_t aad[40] = {9}, ct[256], want[256], want_tag[16];
  ASSERT_EQ(chapoly_seal(want, want_tag, buf, 200, aad, 40, nonce, key), CHAPOLY_OK);
  chapoly_stream st;
  ASSERT_EQ(chapoly_stream_init(&st, key, nonce), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_aad(&st, aad, 17), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_aad(&st, aad + 17, 23), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_encrypt(&st, ct, buf, 70), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_encrypt(&st, ct + 70, buf + 70, 130), CHAPOLY_OK);
  ASSERT_EQ(chapoly_stream_final(&st, tag), CHAPOLY_OK);
  EXPECT_EQ(std::memcmp(ct, want, 200), 0);
  EXPECT_EQ(std::memcmp(tag, want_tag, 16), 0);
}

}  // namespace
}  // namespace chapoly::test
