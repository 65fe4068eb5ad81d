// chapoly_internal.h: what libchapoly's sources share, and what its tests reach below the C API.
//
// Nothing here is exported from libchapoly.so (hidden visibility); the tests link the static
// library, where these symbols resolve. Sizes are in bytes.
#ifndef CHAPOLY_INTERNAL_H
#define CHAPOLY_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

namespace chapoly::internal {

/// load32_le reads the 4 bytes at p as a little-endian 32-bit word (RFC 8439 section 2.1 word order).
inline uint32_t load32_le(const uint8_t *p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

/// store32_le writes v to the 4 bytes at p, little-endian.
inline void store32_le(uint8_t *p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
  p[2] = static_cast<uint8_t>(v >> 16);
  p[3] = static_cast<uint8_t>(v >> 24);
}

// --- Kernel ABI (emitted/README.md) ------------------------------------------------------------
// Every backend provides these four entry points with exactly the emitted kernels' signatures, so
// that one table type covers the portable reference, the shipped kernels and test-only variants.
// Callers must already have checked lengths, NULLs and aliasing (kernels check nothing).

// SealFn: ct = pt XOR ChaCha20(counter 1..), tag = Poly1305 over AAD || pad || ct || pad || lens.
using SealFn = void (*)(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len,
                        const uint8_t *aad, size_t aad_len, const uint8_t nonce[12],
                        const uint8_t key[32]);
// OpenFn: pt = ct XOR keystream; tag = the tag COMPUTED over ct (no comparison).
using OpenFn = void (*)(uint8_t *pt, uint8_t tag[16], const uint8_t *ct, size_t len,
                        const uint8_t *aad, size_t aad_len, const uint8_t nonce[12],
                        const uint8_t key[32]);
// Poly1305Fn: one-shot Poly1305 (RFC 8439 section 2.5), `key` = r || s.
using Poly1305Fn = void (*)(uint8_t tag[16], const uint8_t *msg, size_t len,
                            const uint8_t key[32]);
// ChaCha20Fn: out = in XOR keystream from block `counter` (RFC 8439 section 2.4); requires
// counter + ceil(len / 64) <= 2^32.
using ChaCha20Fn = void (*)(uint8_t *out, const uint8_t *in, size_t len, const uint8_t nonce[12],
                            const uint8_t key[32], uint32_t counter);

// --- Streaming kernel ABI (emitted/README.md, "Streaming entries") -------------------------------
// The Poly1305 accumulator travels between calls in a 24-byte state `acc` (h0, h1, h2 as
// little-endian 64-bit words, h2 <= 4; all zero before the first block); `otk` is the 32-byte
// one-time key r || s (RFC 8439 2.6). Callers check everything, as for the one-shot ABI.

// PolyUpdateFn: absorb the len / 16 whole 16-byte blocks of msg (pad bit set) into acc.
using PolyUpdateFn = void (*)(uint8_t acc[24], const uint8_t *msg, size_t len, const uint8_t otk[32]);
// PolyFinishFn: tag = ((h mod p) + s) mod 2^128 for the h in acc and s = otk[16..32).
using PolyFinishFn = void (*)(uint8_t tag[16], const uint8_t acc[24], const uint8_t otk[32]);
// TextUpdateFn: the len / 64 whole 64-byte chunks: out = in XOR keystream of blocks counter..
// (RFC 8439 2.4), the ciphertext (seal: out, open: in) absorbed into acc. Requires
// counter + len / 64 <= 2^32; out may equal in. A family with a key-power state
// (StreamKernels::bulk_keys) takes that state (kStreamKeyBytes bytes) in place of otk.
using TextUpdateFn = void (*)(uint8_t *out, const uint8_t *in, size_t len, uint8_t acc[24],
                              const uint8_t otk[32], const uint8_t nonce[12], const uint8_t key[32],
                              uint32_t counter);

// StreamKeysFn: the key-power state (kStreamKeyBytes bytes) of a message from its one-time key
// otk (32 bytes, r || s): chapoly_k_<family>_stream_keys of a family whose update entries read it.
constexpr size_t kStreamKeyBytes = 192;
using StreamKeysFn = void (*)(uint8_t pw[kStreamKeyBytes], const uint8_t otk[32]);

// StreamKernels: the streaming entries of one kernel family, with their own CPU check and scrub
// (a backend may use another family's: avx512 streams short runs, the AAD and the lengths through
// avx2_mul64 and runs from bulk_min bytes through its own seal_bulk/open_bulk).
struct StreamKernels {
  const char *family;  // the kernel family ("avx2_mul64", "scalar_mul64", "portable")
  PolyUpdateFn poly1305_update;
  PolyFinishFn poly1305_finish;
  TextUpdateFn seal_update;
  TextUpdateFn open_update;
  const char *(*missing)();  // nullptr result: this CPU runs them
  void (*scrub)();           // run once after the kernels of one API call, or nullptr
  // Optional: the backend's own fused entries for runs of at least bulk_min bytes of whole
  // chunks (registry STREAM_BULK_MIN; their CPU check is the backend's, made at init), nullptr
  // where seal_update/open_update serve every run. Same state format as the entries above.
  TextUpdateFn seal_bulk = nullptr;
  TextUpdateFn open_bulk = nullptr;
  size_t bulk_min = 0;
  // Optional: the family's ChaCha20 entry for the keystream blocks chapoly_stream parks (block 0's
  // one-time key and the block after a partial run); nullptr: the backend's own.
  ChaCha20Fn chacha20 = nullptr;
  // Optional (registry STREAM_KEYS): seal_bulk/open_bulk take, in place of otk, the
  // kStreamKeyBytes-byte key-power state this entry makes from otk (the IFMA lane powers
  // r^8..r^1, once per message instead of once per call); nullptr: they take otk.
  StreamKeysFn bulk_keys = nullptr;
  // With bulk_keys: the lanes L of its key-power state (8: r^8..r^1, 4: r^4..r^1), whose 8-byte
  // word at 8 L i + 8 j is limb i (radix 2^44) of r^(L-j) (emitted/README.md, "Streaming
  // entries"); the registry reads it from the family's spec. 0 without bulk_keys.
  unsigned key_lanes = 0;
  // Optional (registry STREAM_PARK): from a message's second text call on (after any text), the
  // keystream of runs shorter than bulk_min (with mac_update: shorter than mac_below) and of
  // partial blocks is made park_blocks at a time (at most
  // kStreamParkBlocks) through park_chacha20, which makes that many for about the cost of one
  // (avx512's: eight blocks in one pass of two interleaved 4-block zmm states; avx2's: four in one
  // chacha20_lanes4 pass): a message streamed in small calls (`openssl speed`'s 16-byte updates)
  // then makes an eighth (a quarter) of the calls. nullptr: one block at a time, through `chacha20`.
  ChaCha20Fn park_chacha20 = nullptr;
  unsigned park_blocks = 1;
  // Optional (registry STREAM_MAC, with bulk_keys and park_chacha20): the family's Poly1305 update
  // over whole 16-byte blocks that reads the key-power state (bulk_keys) in place of otk; it MACs
  // every run of at least mac_min bytes of whole blocks, and from a message's second text call on
  // runs of fewer than mac_below whole bytes take parked keystream (park_chacha20) instead of
  // seal_bulk/open_bulk: the keystream made ahead in batches, the MAC on the IFMA lanes.
  PolyUpdateFn mac_update = nullptr;
  size_t mac_min = 0;
  size_t mac_below = 0;
};

// The most keystream blocks chapoly_stream parks at once (StreamKernels::park_blocks).
constexpr unsigned kStreamParkBlocks = 8;

// The portable streaming entries (always built; runtime/src/portable/stream.cpp).
const StreamKernels &portable_stream_kernels();

// ShortKernel: another linked family's one-shot AEAD kernels, which serve a backend's messages of
// at most max_len bytes on CPUs where they were measured faster there (registry SHORT, SHORT_ON;
// docs/kernels.md). Every family is proved for every length, so this choice is speed only. The
// family's CPU needs must be a subset of the backend's (scalar_mul64: none; avx2_mul64: AVX2 and
// BMI2, which every AVX-512 IFMA CPU has).
struct ShortKernel {
  size_t max_len;      // messages of len <= max_len bytes (not taken by an earlier entry)
  SealFn seal;
  OpenFn open;
  void (*scrub)();     // that family's scrub (registers, then its stack depth)
  bool (*on)();        // the CPU test under which this entry serves (cpu_is_amd_zen5, ...)
};

// Backend: one implementation of the kernel ABI plus what the runtime needs around it.
struct Backend {
  const char *name;           // "portable", "avx512", or a test variant's spec name
  SealFn seal;
  OpenFn open;
  Poly1305Fn poly1305;
  ChaCha20Fn chacha20;
  // missing() returns nullptr when this CPU and OS can run the backend, otherwise a static
  // string naming the first missing feature (e.g. "AVX512IFMA (CPUID.(EAX=7,ECX=0):EBX[21])").
  const char *(*missing)();
  // scrub(), if not null, runs after every kernel call: it clears vector registers and the stack
  // below the caller that the kernel may have left holding key material or keystream.
  void (*scrub)();
  // stream: the streaming entries chapoly_stream uses with this backend, or nullptr for the
  // portable ones (the tests give their variants and emulated builds their own: fused_stream).
  const StreamKernels *stream;
  // Short messages: short_kernels[0..short_count), ascending max_len; a message takes the first
  // entry with len <= max_len whose on() holds (CPU tests, cached once per process); nullptr/0
  // where the backend's own kernels serve every length.
  const ShortKernel *short_kernels = nullptr;
  size_t short_count = 0;
  // short_on: the CPU test of stream_short (registry SHORT_ON), or nullptr.
  bool (*short_on)() = nullptr;
  // stream_short: the streaming entries chapoly_stream uses in place of `stream` where short_on()
  // holds at chapoly_stream_init (registry STREAM_SHORT: another family's entries for short runs,
  // the AAD, the lengths and the parked blocks, this family's from bulk_min), or nullptr.
  const StreamKernels *stream_short = nullptr;
};

// The portable reference (always built).
const Backend &portable_backend();
// kernel_backends returns the generated-kernel backends this library links, in dispatch order
// (the kernel registry's order, fastest first; emitted/CMakeLists.txt), and sets `count` to their
// number; the portable reference is not among them (it comes after all of them). Generated:
// runtime/src/backends.cpp.in.
const Backend *const *kernel_backends(size_t &count);
// linked_backend returns the backend called `name` this library has (a linked kernel or
// "portable"; usable here or not), or nullptr.
const Backend *linked_backend(const char *name);
// The shipped AVX-512 IFMA kernels (linked_backend("avx512")), or nullptr when this build has none.
const Backend *avx512_backend();

// MISSING and SCRUB functions the registry names (emitted/CMakeLists.txt):
// no_missing_feature always returns nullptr (kernels in plain C++ for any 64-bit CPU).
const char *no_missing_feature();
// cpu_is_amd_zen5: an AMD CPU of family 1Ah (Zen 5; CPUID leaf 1 base family 0Fh + extended 0Bh),
// whose vector integer add, xor and rotate take 2 cycles of latency against 1 for general-purpose
// registers, so the general-register ChaCha20 block wins on short messages (SHORT_ON of the avx512
// and avx2 entries; measured in docs/benchmarks.md). Always false off x86-64.
bool cpu_is_amd_zen5();
// cpu_is_intel: an Intel CPU (CPUID vendor "GenuineIntel"), whose vector integer add, xor, rotate
// and shuffle take 1 cycle of latency; there avx2_mul64's one-, two- and three-set passes (no IFMA
// key powers) win the avx512 backend's short messages (SHORT route; docs/benchmarks.md, Emerald
// Rapids). Always false off x86-64.
bool cpu_is_intel();
// scrub_after_gpr_kernel zeroes xmm0-15 (the stack: the generated scrub_k_<family> after it).
void scrub_after_gpr_kernel();
// scrub_after_avx512 zeroes zmm0-31 (the stack: scrub_k_<family> after it); only after an AVX-512
// kernel ran.
// Defined only in builds with the avx512 backend.
void scrub_after_avx512();

// Checked AEAD on a given backend: exactly what chapoly_seal / chapoly_open do once the backend
// is known (argument, length and overlap checks; the backend's kernels, or for a short message its
// short kernels where they pay on this CPU (Backend::short_kernels); constant-time tag check;
// zeroing on failure; scrub). Return codes as in chapoly.h.
int seal_with(const Backend &b, uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len,
              const uint8_t *aad, size_t aad_len, const uint8_t nonce[12], const uint8_t key[32]);
int open_with(const Backend &b, uint8_t *pt, const uint8_t *ct, size_t len, const uint8_t tag[16],
              const uint8_t *aad, size_t aad_len, const uint8_t nonce[12], const uint8_t key[32]);
// short_kernels_on(b): whether b's stream_short applies now: b's short_on() holds on this CPU,
// or the test override below says so. (One-shot calls test each ShortKernel's own on().)
bool short_kernels_on(const Backend &b);
// set_short_kernels_for_testing(mode): whether seal_with/open_with and the X variants hand short
// messages to a backend's short kernels: -1 (default) where their CPU tests say so, 0 never (its
// own kernels serve every length), 1 always (the first entry covering the length, on any CPU; they
// run on every CPU the backend runs on), 2 + i entry i alone for every length up to its max_len
// (so the tests reach every route, also one that an earlier entry's range shadows in mode 1).
void set_short_kernels_for_testing(int mode);
// Checked XChaCha20-Poly1305 on a given backend: exactly what chapoly_xseal / chapoly_xopen do
// (the checks above with a 24-byte nonce, then HChaCha20 subkey and the backend's seal/open kernel
// for the length, chosen as for seal_with, with nonce 0^4 || nonce[16..24); the subkey is wiped). Return codes as in chapoly.h.
int xseal_with(const Backend &b, uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len,
               const uint8_t *aad, size_t aad_len, const uint8_t nonce[24], const uint8_t key[32]);
int xopen_with(const Backend &b, uint8_t *pt, const uint8_t *ct, size_t len, const uint8_t tag[16],
               const uint8_t *aad, size_t aad_len, const uint8_t nonce[24], const uint8_t key[32]);

// stream_init_with: chapoly_stream_init on a given backend (tests; chapoly_stream_init uses the
// selected one). Return codes as in chapoly.h.
int stream_init_with(const Backend &b, void *st, const uint8_t key[32], const uint8_t nonce[12]);
// stream_family names the streaming kernel family an initialized stream uses ("avx2_mul64",
// "scalar_mul64", "portable"), or nullptr for a stream not initialized.
const char *stream_family(const void *st);
// stream_tag_any writes the tag of the message streamed so far, whichever direction, and wipes
// the state (the provider compares a possibly truncated tag itself). CHAPOLY_ERR_STATE on a
// state not initialized or finished.
int stream_tag_any(void *st, uint8_t tag[16]);
// stream_set_counter_for_test (a test hook, not exported from libchapoly.so): moves an initialized
// stream to keystream block `counter` (1 .. 2^32 - 1) as if 64 * (counter - 1) bytes of text had
// been streamed (text_len is set to that, so the CHAPOLY_MAX_LEN check and the counter agree), to
// test the calls near the end of the 32-bit block counter without streaming 256 GiB. The skipped
// text is never absorbed, so the tag of such a message matches no oracle. CHAPOLY_ERR_STATE if the
// stream is not initialized or holds a parked partial block (text_len not a multiple of 64);
// CHAPOLY_ERR_ARG for counter 0 (block 0 makes the one-time key).
int stream_set_counter_for_test(void *st, uint32_t counter);

// --- Portable reference primitives (RFC 8439), for the AEAD and for the RFC A.1-A.4 tests ------

// chacha20_block writes the 64-byte keystream block for (`key`, `counter`, `nonce`): the
// serialized state after 20 rounds plus the input state (RFC 8439 section 2.3).
void chacha20_block(uint8_t out[64], const uint8_t key[32], uint32_t counter,
                    const uint8_t nonce[12]);
// chacha20_xor: out = in XOR keystream from block `counter` (section 2.4); out == in allowed.
void chacha20_xor(uint8_t *out, const uint8_t *in, size_t len, const uint8_t nonce[12],
                  const uint8_t key[32], uint32_t counter);
// poly1305_key_gen writes the 32-byte one-time key: the first 32 bytes of block 0 (section 2.6).
void poly1305_key_gen(uint8_t otk[32], const uint8_t key[32], const uint8_t nonce[12]);
// hchacha20 writes the 32-byte XChaCha20 subkey for (`key`, the first 16 bytes of the 24-byte
// nonce) (draft-irtf-cfrg-xchacha-03, section 2.2): words 0..3 and 12..15 of the state after the
// 20 rounds, without adding the input state.
void hchacha20(uint8_t subkey[32], const uint8_t key[32], const uint8_t nonce16[16]);
// poly1305: one-shot MAC of `len` bytes of `msg` under the 32-byte one-time key r || s (2.5).
void poly1305(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32]);

// Poly1305State: incremental Poly1305 over any split of the input (radix 2^26, 5 limbs).
struct Poly1305State {
  uint32_t r[5];    // clamped r, 26-bit limbs
  uint32_t h[5];    // accumulator, limbs < 2^26 + small between blocks
  uint32_t s[4];    // s as four little-endian 32-bit words
  uint8_t buf[16];  // pending partial block
  size_t buf_len;
};
void poly1305_init(Poly1305State &st, const uint8_t key[32]);
void poly1305_update(Poly1305State &st, const uint8_t *msg, size_t len);
// poly1305_final writes the tag and wipes `st`.
void poly1305_final(Poly1305State &st, uint8_t tag[16]);

// Portable AEAD in the kernel ABI (two passes: ChaCha20, then Poly1305).
void portable_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len, const uint8_t *aad,
                   size_t aad_len, const uint8_t nonce[12], const uint8_t key[32]);
void portable_open(uint8_t *pt, uint8_t tag[16], const uint8_t *ct, size_t len, const uint8_t *aad,
                   size_t aad_len, const uint8_t nonce[12], const uint8_t key[32]);

// --- Hygiene ------------------------------------------------------------------------------------

// secure_wipe sets `len` bytes at `p` to zero through a call the compiler cannot remove.
void secure_wipe(void *p, size_t len);
// ct_equal returns 1 if the `len` bytes at `a` and `b` are equal, else 0; its running time
// depends only on `len`.
int ct_equal(const uint8_t *a, const uint8_t *b, size_t len);
// declassify returns `v` unchanged. Under valgrind's memcheck it also marks `v` as defined: the
// constant-time check (tests/ct/README.md) marks the secrets undefined, so every value computed
// from them is undefined and any branch or address on one is reported; the one branch the AEAD
// must take on secret-derived data is accept/reject of open, which the return value makes public
// anyway, and only that result passes through here.
int declassify(int v);
// burn_stack zeroes stack_burn_bytes() of stack below the caller's frame (where a kernel's
// frames were): 8 KiB in optimized builds, 1 MiB in unoptimized or sanitized ones.
void burn_stack();
// burn_stack(bytes) zeroes `bytes` (rounded up to a multiple of 64) of stack below the caller's
// frame: after a kernel family whose frames reach that deep (CHAPOLY_KERNEL_STACK_<family>,
// measured from the compiler's frame sizes, runtime/CMakeLists.txt).
void burn_stack(size_t bytes);
size_t stack_burn_bytes();
// scrub_sse_registers zeroes xmm0-15 (baseline x86-64; a no-op elsewhere): after the portable
// code, which the compiler may have vectorized or copied through them.
void scrub_sse_registers();
// scrub_avx512_registers zeroes zmm0-zmm31 (then vzeroupper). Only call it on a CPU with
// AVX-512F, i.e. after an AVX-512 kernel ran. Defined only in builds with the avx512 backend.
void scrub_avx512_registers();

// --- CPU features (x86-64) ---------------------------------------------------------------------

// avx2_missing_feature returns nullptr if the CPU has AVX2 and BMI2 and the OS saves the YMM
// state (OSXSAVE, XCR0 bits 1 and 2); otherwise a static string naming the first missing piece.
const char *avx2_missing_feature();
// scrub_after_avx2 zeroes ymm0-15 (vzeroall; the stack: scrub_k_<family> after it); only after an
// AVX2 kernel ran.
void scrub_after_avx2();

// avx512_missing_feature returns nullptr if the CPU has AVX512F, AVX512VL, AVX512BW, AVX512IFMA
// and BMI2 and the OS saves the opmask and ZMM state (OSXSAVE, XCR0 bits 1, 2, 5, 6, 7);
// otherwise a static string naming the first missing piece.
const char *avx512_missing_feature();

// rvv_missing_feature returns nullptr on a riscv64 Linux whose kernel reports the V extension
// (getauxval(AT_HWCAP) bit 'V' - 'A', set only when the kernel also saves the vector state) on a
// core with VLEN <= 1024 (the range the kernels are proved for);
// otherwise a static string naming what is missing (cpu_riscv.cpp).
const char *rvv_missing_feature();
// scrub_after_rvv zeroes v0-v31 (the stack: scrub_k_<family> after it); only after the rvv kernel
// ran (riscv/scrub.cpp).
void scrub_after_rvv();

// CpuFeature bits for hide_cpu_features_for_testing.
enum CpuFeature : uint32_t {
  kCpuOsxsave = 1u << 0,
  kCpuXcr0Zmm = 1u << 1,  // XCR0 has SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM enabled
  kCpuAvx512F = 1u << 2,
  kCpuAvx512Vl = 1u << 3,
  kCpuAvx512Bw = 1u << 4,
  kCpuAvx512Ifma = 1u << 5,
  kCpuBmi2 = 1u << 6,
  kCpuAvx2 = 1u << 7,
  kCpuXcr0Ymm = 1u << 8,  // XCR0 has SSE and AVX (YMM) state enabled
};
// hide_cpu_features_for_testing makes detection report the features in `mask` as absent
// (0 restores the truth). Tests only; takes effect at the next backend decision.
void hide_cpu_features_for_testing(uint32_t mask);
// reset_backend_for_testing forgets the chosen backend, so the next call decides again from
// CHAPOLY_BACKEND and the CPU, exactly as on first use. Tests only.
void reset_backend_for_testing();
// current_backend returns the backend the C API uses now (deciding it on first use, exactly as
// chapoly_seal does): a linked backend, or the "none" backend whose entries are all nullptr.
const Backend *current_backend();

}  // namespace chapoly::internal

#endif  // CHAPOLY_INTERNAL_H
