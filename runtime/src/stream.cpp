// stream.cpp: the streaming C API (chapoly.h, "Streaming AEAD"). The state parks keystream (the
// partial ChaCha20 block, or a batch of up to eight blocks: StreamKernels::park_blocks) and the
// partial Poly1305 block (its bytes) between calls and
// hands every run of whole 64-byte blocks in between to the streaming kernels of the backend
// selected at init (emitted/README.md, "Streaming entries"); the AAD's whole 16-byte blocks and
// the lengths block go through the same family's Poly1305 update entry, or (a run of at least
// mac_min bytes, text or AAD, in a family with one) its MAC entry on the key-power state.
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <chapoly/chapoly.h>

#include "internal/chapoly_internal.h"

namespace chapoly::internal {
namespace {

constexpr uint64_t kMagic = 0x6d61657274737063ULL;  // "cpstream"

enum Phase : uint32_t { kAad = 1, kEncrypt = 2, kDecrypt = 3 };

struct State {
  uint64_t magic;             // kMagic while usable; 0 after final/verify/wipe
  const StreamKernels *k;     // the streaming entries of the backend chosen at init
  const Backend *b;           // its keystream entry (chacha20) makes the parked blocks
  uint64_t aad_len, text_len; // bytes so far
  uint32_t phase, counter;    // counter: the next keystream block not made yet
  uint32_t pbuf_len;          // bytes parked in pbuf (< 16)
  uint32_t keys_made;         // 1 once k->bulk_keys has filled keys (key_state: the first bulk or MAC run)
  // ks holds ks_len bytes of keystream (whole blocks, the last one block counter - 1), of which
  // the text used the first ks_used.
  uint32_t ks_len, ks_used;
  uint8_t key[32], otk[32], acc[24], pbuf[16], nonce[12];
  uint8_t ks[64 * kStreamParkBlocks];
  uint8_t keys[kStreamKeyBytes];  // the bulk and MAC entries' key-power state (k->bulk_keys), else unused
};
static_assert(sizeof(State) <= sizeof(chapoly_stream), "CHAPOLY_STREAM_WORDS too small");
static_assert(alignof(State) <= alignof(chapoly_stream), "chapoly_stream alignment");

State *as_state(chapoly_stream *st) { return reinterpret_cast<State *>(st); }

bool overlaps(const void *a, size_t alen, const void *b, size_t blen) {
  if (alen == 0 || blen == 0) return false;
  uintptr_t x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return x < y ? (y - x) < alen : (x - y) < blen;
}

// The input of the keystream entries (out = in XOR keystream) when they make keystream: zeros.
constexpr uint8_t kZeros[64 * kStreamParkBlocks] = {};

// `blocks` keystream blocks (at most kStreamParkBlocks) from block `counter` into out: several
// through the family's park_chacha20, one through its ChaCha20 entry or the backend's.
void keystream(const State &s, uint8_t *out, uint32_t blocks, uint32_t counter) {
  const ChaCha20Fn f = blocks > 1 ? s.k->park_chacha20 : s.k->chacha20 != nullptr ? s.k->chacha20 : s.b->chacha20;
  f(out, kZeros, size_t{64} * blocks, s.nonce, s.key, counter);
}

// The key-power state of the bulk and MAC entries (StreamKernels::bulk_keys), made from otk at
// the first call that needs it, once per message (a message that never needs it does not pay).
const uint8_t *key_state(State &s) {
  if (s.keys_made == 0) {
    s.k->bulk_keys(s.keys, s.otk);
    s.keys_made = 1;
  }
  return s.keys;
}

// Poly1305 over bytes, parking a partial block: whole blocks of `p` straight from the caller's
// buffer through the family's update entry (a run of at least mac_min bytes through mac_update,
// on the key-power state, where the family has one). `p` may be NULL when `n` is 0 (the API allows it):
// nothing reaches memcpy then, whose pointers must not be NULL even for 0 bytes.
void absorb_bytes(State &s, const uint8_t *p, size_t n) {
  if (n == 0) return;
  if (s.pbuf_len != 0) {
    size_t take = 16 - s.pbuf_len < n ? 16 - s.pbuf_len : n;
    memcpy(s.pbuf + s.pbuf_len, p, take);
    s.pbuf_len += static_cast<uint32_t>(take);
    p += take;
    n -= take;
    if (s.pbuf_len < 16) return;
    s.k->poly1305_update(s.acc, s.pbuf, 16, s.otk);
    s.pbuf_len = 0;
  }
  size_t whole = n & ~static_cast<size_t>(15);
  if (whole != 0 && s.k->mac_update != nullptr && whole >= s.k->mac_min) s.k->mac_update(s.acc, p, whole, key_state(s));
  else if (whole != 0) s.k->poly1305_update(s.acc, p, whole, s.otk);
  memcpy(s.pbuf, p + whole, n - whole);
  s.pbuf_len = static_cast<uint32_t>(n - whole);
}

// out = in XOR ks for n bytes of parked keystream (at most 64 * kStreamParkBlocks), the
// ciphertext absorbed: open absorbs `in` before it is overwritten (in == out allowed: each 16- or
// 8-byte word is read before it is written), seal absorbs `out` after.
void xor_span(State &s, bool seal, uint8_t *out, const uint8_t *in, const uint8_t *ks, size_t n) {
  if (!seal) absorb_bytes(s, in, n);
  size_t i = 0;
#if defined(__SSE2__)
  // 16 bytes at a time where the baseline ISA has them (every x86-64): half the loop of the
  // 8-byte words below, ~15 TSC ticks of a 256-byte update from parked keystream.
  for (; i + 16 <= n; i += 16) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(in + i));
    const __m128i k = _mm_loadu_si128(reinterpret_cast<const __m128i *>(ks + i));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out + i), _mm_xor_si128(a, k));
  }
#endif
  for (; i + 8 <= n; i += 8) {
    uint64_t a, k;
    memcpy(&a, in + i, 8);
    memcpy(&k, ks + i, 8);
    a ^= k;
    memcpy(out + i, &a, 8);
  }
  for (; i < n; ++i) out[i] = static_cast<uint8_t>(in[i] ^ ks[i]);
  if (seal) absorb_bytes(s, out, n);
}

// Zero padding to 16 bytes (RFC 8439 2.8) of the AAD or the ciphertext absorbed so far.
void pad16(State &s) {
  if (s.pbuf_len == 0) return;
  memset(s.pbuf + s.pbuf_len, 0, 16 - s.pbuf_len);
  s.k->poly1305_update(s.acc, s.pbuf, 16, s.otk);
  s.pbuf_len = 0;
}

// The register and stack scrub runs once per message, when final/verify end it (and in wipe): the
// state itself holds the key, the one-time key and the parked keystream between calls, so a
// scrub after every call would protect nothing more and cost ~100 ns per call.
// The backend's scrub covers its streaming family's registers too (avx512's zeroes zmm0-31, which
// holds ymm0-15 of the avx2 entries it also uses). The stack: the kernels ran from text()'s frame
// and this runs from final()'s or wipe()'s, whose depth below the caller differs, and the entries
// may be the portable ones (a backend without its STREAM family on this CPU), whose depth is not
// measured; so the default burn (8 KiB) follows the backend's own, once per message.
void scrub(const State &s) {
  if (s.b->scrub != nullptr) s.b->scrub();
  else if (s.k->scrub != nullptr) s.k->scrub();
  burn_stack();
}

int text(chapoly_stream *st, uint8_t *out, const uint8_t *in, size_t len, bool seal) {
  if (st == nullptr) return CHAPOLY_ERR_ARG;
  State &s = *as_state(st);
  if (s.magic != kMagic) return CHAPOLY_ERR_STATE;
  const Phase want = seal ? kEncrypt : kDecrypt;
  if (s.phase != kAad && s.phase != want) return CHAPOLY_ERR_STATE;
  if (len != 0 && (out == nullptr || in == nullptr)) return CHAPOLY_ERR_ARG;
  if (static_cast<uint64_t>(len) > CHAPOLY_MAX_LEN - s.text_len) return CHAPOLY_ERR_TOO_LONG;
  if (out != in && overlaps(out, len, in, len)) return CHAPOLY_ERR_ARG;
  // The whole chapoly_stream, as final and verify check their tag (the State inside it is a few
  // bytes shorter: found by the stop-47 adversarial run, output in its last 8 bytes was accepted).
  if (overlaps(out, len, st, sizeof *st)) return CHAPOLY_ERR_ARG;
  if (s.phase == kAad) {
    pad16(s);
    s.phase = want;
  }
  // 1. The parked keystream (in == out allowed: xor_span reads each word before writing it).
  if (s.ks_used < s.ks_len) {
    size_t n = s.ks_len - s.ks_used < len ? s.ks_len - s.ks_used : len;
    xor_span(s, seal, out, in, s.ks + s.ks_used, n);
    s.ks_used += static_cast<uint32_t>(n);
    in += n;
    out += n;
    len -= n;
    s.text_len += n;
  }
  // A message streamed in pieces (text before this call), where the family makes several
  // keystream blocks for about the cost of one (park_chacha20), takes its keystream for every run
  // shorter than the bulk entries' from parked batches of park_blocks blocks: `openssl speed`'s
  // 16- and 64-byte updates then make 1 / park_blocks of the ChaCha20 calls (an eighth on avx512,
  // a quarter on avx2).
  // A family with a MAC entry on the key-power state (mac_update) takes, in batch mode, runs
  // below mac_below from parked keystream too: a batch of eight blocks made in one pass of two
  // interleaved states, where the bulk entry's run of a few blocks waits out one state's
  // 20-round chain on every call.
  const size_t whole = len & ~static_cast<size_t>(63);
  const bool batch = s.text_len != 0 && s.k->park_chacha20 != nullptr && s.k->park_blocks > 1;
  const size_t bulk_from = batch && s.k->mac_update != nullptr && s.k->mac_below > s.k->bulk_min ? s.k->mac_below : s.k->bulk_min;
  const bool bulk = s.k->seal_bulk != nullptr && whole >= bulk_from;
  // 2. Whole 64-byte blocks through the fused kernels, from block `counter` (with len left, the
  // parked keystream is used up: the text is 64-byte aligned, the Poly1305 buffer empty).
  if (whole != 0 && (bulk || !batch)) {
    // A long run through the backend's own fused entries where it has them (from bulk_min bytes,
    // the registry's measured cut-over), else the streaming family's.
    TextUpdateFn run = seal ? (bulk ? s.k->seal_bulk : s.k->seal_update) : (bulk ? s.k->open_bulk : s.k->open_update);
    // Bulk entries with a key-power state take it in place of otk, made at the first bulk or MAC run
    // of the message (a message that never has one does not pay for it).
    const uint8_t *keys = bulk && s.k->bulk_keys != nullptr ? key_state(s) : s.otk;
    run(out, in, whole, s.acc, keys, s.nonce, s.key, s.counter);
    s.counter += static_cast<uint32_t>(whole / 64);
    in += whole;
    out += whole;
    len -= whole;
    s.text_len += whole;
  }
  // 3. The rest: new keystream, parked, and as much of it used as the rest needs; one block at a
  // time, or (batch) park_blocks at once, never past block 2^32 - 1 (the call's length check
  // above keeps every block the text needs at or below it).
  while (len != 0) {
    uint64_t n = 1;
    if (batch) {
      n = s.k->park_blocks < kStreamParkBlocks ? s.k->park_blocks : kStreamParkBlocks;
      const uint64_t left = (uint64_t{1} << 32) - s.counter;
      if (n > left) n = left;
    }
    const size_t bytes = static_cast<size_t>(64 * n);
    keystream(s, s.ks, static_cast<uint32_t>(n), s.counter);
    s.counter += static_cast<uint32_t>(n);
    const size_t use = len < bytes ? len : bytes;
    xor_span(s, seal, out, in, s.ks, use);
    s.ks_len = static_cast<uint32_t>(bytes);
    s.ks_used = static_cast<uint32_t>(use);
    in += use;
    out += use;
    len -= use;
    s.text_len += use;
  }
  return CHAPOLY_OK;
}

// The tag over what was absorbed, then the state is wiped.
void finish(State &s, uint8_t tag[16]) {
  pad16(s);
  uint8_t lens[16];
  for (int i = 0; i < 8; ++i) {
    lens[i] = static_cast<uint8_t>(s.aad_len >> (8 * i));
    lens[8 + i] = static_cast<uint8_t>(s.text_len >> (8 * i));
  }
  s.k->poly1305_update(s.acc, lens, 16, s.otk);
  s.k->poly1305_finish(tag, s.acc, s.otk);
  scrub(s);
  secure_wipe(&s, sizeof(chapoly_stream));  // `s` starts a chapoly_stream: wipe all of it
}

}  // namespace

int stream_init_with(const Backend &b, void *stp, const uint8_t key[32], const uint8_t nonce[12]) {
  if (stp == nullptr || key == nullptr || nonce == nullptr) return CHAPOLY_ERR_ARG;
  if (b.chacha20 == nullptr || b.missing == nullptr || b.missing() != nullptr) return CHAPOLY_ERR_UNSUPPORTED;
  State s;
  memset(&s, 0, sizeof s);
  s.b = &b;
  // The backend's own streaming family when this CPU runs it (avx512 uses avx2_mul64's too, whose
  // AVX2 check runs here even though every AVX-512 CPU has AVX2); where the backend's short
  // kernels pay (short_on: Zen 5) its STREAM_SHORT family's; else the portable entries.
  const StreamKernels *k = b.stream_short != nullptr && short_kernels_on(b) ? b.stream_short : b.stream;
  s.k = k != nullptr && k->missing() == nullptr ? k : &portable_stream_kernels();
  memcpy(s.key, key, 32);
  memcpy(s.nonce, nonce, 12);
  keystream(s, s.ks, 1, 0);  // block 0: the one-time key r || s (RFC 8439 2.6)
  memcpy(s.otk, s.ks, 32);
  secure_wipe(s.ks, 64);
  s.counter = 1;
  s.phase = kAad;
  s.magic = kMagic;
  secure_wipe(stp, sizeof(chapoly_stream));  // the words after State too: all zero after a wipe
  memcpy(stp, &s, sizeof s);
  secure_wipe(&s, sizeof s);
  return CHAPOLY_OK;
}

int stream_tag_any(void *stp, uint8_t tag[16]) {
  State &s = *static_cast<State *>(stp);
  if (s.magic != kMagic) return CHAPOLY_ERR_STATE;
  finish(s, tag);
  return CHAPOLY_OK;
}

int stream_set_counter_for_test(void *stp, uint32_t counter) {
  if (stp == nullptr) return CHAPOLY_ERR_ARG;
  State &s = *static_cast<State *>(stp);
  if (s.magic != kMagic || (s.text_len & 63) != 0) return CHAPOLY_ERR_STATE;
  if (counter == 0) return CHAPOLY_ERR_ARG;
  s.counter = counter;
  s.text_len = static_cast<uint64_t>(counter - 1) * 64;
  secure_wipe(s.ks, sizeof s.ks);  // parked whole blocks (a batch) belong to the old position
  s.ks_len = s.ks_used = 0;
  return CHAPOLY_OK;
}

const char *stream_family(const void *stp) {
  const State *s = static_cast<const State *>(stp);
  return s->magic == kMagic ? s->k->family : nullptr;
}

}  // namespace chapoly::internal

using chapoly::internal::State;
using chapoly::internal::as_state;

extern "C" {

int chapoly_stream_init(chapoly_stream *st, const uint8_t key[32], const uint8_t nonce[12]) {
  if (st == nullptr || key == nullptr || nonce == nullptr) return CHAPOLY_ERR_ARG;
  const chapoly::internal::Backend *b = chapoly::internal::current_backend();
  if (b->chacha20 == nullptr) return CHAPOLY_ERR_UNSUPPORTED;
  return chapoly::internal::stream_init_with(*b, st, key, nonce);
}

int chapoly_stream_aad(chapoly_stream *st, const uint8_t *aad, size_t aad_len) {
  if (st == nullptr) return CHAPOLY_ERR_ARG;
  State &s = *as_state(st);
  if (s.magic != chapoly::internal::kMagic) return CHAPOLY_ERR_STATE;
  if (s.phase != chapoly::internal::kAad) return CHAPOLY_ERR_STATE;
  if (aad_len != 0 && aad == nullptr) return CHAPOLY_ERR_ARG;
  chapoly::internal::absorb_bytes(s, aad, aad_len);
  s.aad_len += aad_len;
  return CHAPOLY_OK;
}

int chapoly_stream_encrypt(chapoly_stream *st, uint8_t *out, const uint8_t *in, size_t len) {
  return chapoly::internal::text(st, out, in, len, true);
}

int chapoly_stream_decrypt(chapoly_stream *st, uint8_t *out, const uint8_t *in, size_t len) {
  return chapoly::internal::text(st, out, in, len, false);
}

int chapoly_stream_final(chapoly_stream *st, uint8_t tag[16]) {
  if (st == nullptr) return CHAPOLY_ERR_ARG;
  State &s = *as_state(st);
  if (s.magic != chapoly::internal::kMagic || s.phase == chapoly::internal::kDecrypt) return CHAPOLY_ERR_STATE;
  // A tag inside the state would be wiped with it (final) or read after the wipe (verify).
  if (tag == nullptr || chapoly::internal::overlaps(tag, 16, st, sizeof *st)) return CHAPOLY_ERR_ARG;
  chapoly::internal::finish(s, tag);
  return CHAPOLY_OK;
}

int chapoly_stream_verify(chapoly_stream *st, const uint8_t tag[16]) {
  if (st == nullptr) return CHAPOLY_ERR_ARG;
  State &s = *as_state(st);
  if (s.magic != chapoly::internal::kMagic || s.phase == chapoly::internal::kEncrypt) return CHAPOLY_ERR_STATE;
  // A tag inside the state would be wiped with it (final) or read after the wipe (verify).
  if (tag == nullptr || chapoly::internal::overlaps(tag, 16, st, sizeof *st)) return CHAPOLY_ERR_ARG;
  uint8_t computed[16];
  chapoly::internal::finish(s, computed);
  int ok = chapoly::internal::ct_equal(computed, tag, 16);
  chapoly::internal::secure_wipe(computed, sizeof computed);
  return ok ? CHAPOLY_OK : CHAPOLY_ERR_AUTH;
}

void chapoly_stream_wipe(chapoly_stream *st) {
  if (st == nullptr) return;
  State &s = *as_state(st);
  if (s.magic == chapoly::internal::kMagic) chapoly::internal::scrub(s);
  chapoly::internal::secure_wipe(st, sizeof *st);
}

}  // extern "C"
