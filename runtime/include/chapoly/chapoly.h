/* chapoly.h: the public C API of libchapoly, one-shot ChaCha20-Poly1305 AEAD (RFC 8439).
 *
 * Every function is thread-safe and may be called concurrently. No function allocates memory.
 * Sizes are in bytes. Pointers to fixed-size arrays (`key[32]`, `nonce[12]`, `tag[16]`) must
 * never be NULL; a pointer paired with a length may be NULL exactly when that length is 0.
 *
 * Aliasing rule of this header: an output buffer and an input buffer of the same call either
 * are exactly equal (same start address, in-place operation, allowed only where stated) or do
 * not overlap at all. Partially overlapping buffers are rejected with `CHAPOLY_ERR_ARG`. */
#ifndef CHAPOLY_CHAPOLY_H
#define CHAPOLY_CHAPOLY_H

#include <stddef.h>
#include <stdint.h>

/* CHAPOLY_EXPORT marks the functions libchapoly.so exports; it expands to nothing for users. */
#if defined(CHAPOLY_BUILDING_LIBRARY) && (defined(__GNUC__) || defined(__clang__))
#define CHAPOLY_EXPORT __attribute__((visibility("default")))
#else
#define CHAPOLY_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Version of this header. `CHAPOLY_VERSION_STRING` equals the string `chapoly_version` returns
 * when the header and the linked library come from the same release. The build checks that
 * these numbers equal the CMake project version. */
#define CHAPOLY_VERSION_MAJOR 0
#define CHAPOLY_VERSION_MINOR 1
#define CHAPOLY_VERSION_PATCH 0
#define CHAPOLY_VERSION_STRING "0.1.0"

/* CHAPOLY_KEY_BYTES is the size of a ChaCha20-Poly1305 key (RFC 8439, section 2.8). */
#define CHAPOLY_KEY_BYTES 32
/* CHAPOLY_NONCE_BYTES is the size of the 96-bit IETF nonce (RFC 8439, section 2.3). */
#define CHAPOLY_NONCE_BYTES 12
/* CHAPOLY_TAG_BYTES is the size of the Poly1305 authentication tag (RFC 8439, section 2.5). */
#define CHAPOLY_TAG_BYTES 16
/* CHAPOLY_MAX_LEN is the largest plaintext or ciphertext length, 2^38 - 64 bytes: the 32-bit
 * block counter starts at 1 for the text (block 0 makes the Poly1305 key), so at most
 * 2^32 - 1 blocks of 64 bytes can be encrypted (RFC 8439, section 2.8). There is no limit on
 * the AAD length other than `size_t` (the RFC allows up to 2^64 - 1). */
#define CHAPOLY_MAX_LEN ((((uint64_t)1) << 38) - 64)

/* chapoly_status lists the return codes of this API. Every error is negative. */
enum chapoly_status {
  /* CHAPOLY_OK: the operation succeeded. */
  CHAPOLY_OK = 0,
  /* CHAPOLY_ERR_AUTH: `chapoly_open` found that the tag does not match; the output was zeroed. */
  CHAPOLY_ERR_AUTH = -1,
  /* CHAPOLY_ERR_TOO_LONG: the text length exceeds `CHAPOLY_MAX_LEN`; nothing was touched. */
  CHAPOLY_ERR_TOO_LONG = -2,
  /* CHAPOLY_ERR_ARG: a NULL pointer with a nonzero length, a NULL key, nonce, tag or name, or
   * buffers that overlap in a way this header forbids; nothing was touched. */
  CHAPOLY_ERR_ARG = -3,
  /* CHAPOLY_ERR_UNSUPPORTED: the requested backend is unknown, not built in, or cannot run on
   * this CPU and operating system; nothing was touched. */
  CHAPOLY_ERR_UNSUPPORTED = -4,
  /* CHAPOLY_ERR_STATE: a streaming call out of order (AAD after text, encrypt after decrypt or
   * the reverse, anything after final, verify or wipe, or a state never initialized); the state
   * is unchanged and nothing was written. */
  CHAPOLY_ERR_STATE = -5
};

/* chapoly_seal encrypts and authenticates `len` bytes of `pt` with the AEAD_CHACHA20_POLY1305
 * construction of RFC 8439, section 2.8: it writes `len` bytes of ciphertext to `ct` (ChaCha20,
 * section 2.4, block counter starting at 1) and the 16-byte tag to `tag` (Poly1305, section 2.5,
 * keyed from block 0 as in section 2.6, over `aad`, zero padding to 16 bytes, the ciphertext,
 * zero padding, and the two lengths as 64-bit little-endian numbers).
 *
 * `key` is 32 bytes and `nonce` 12 bytes; they must never be NULL. A (key, nonce) pair must never
 * be used for two different messages: doing so reveals the XOR of the plaintexts and lets an
 * attacker forge tags. `aad` holds `aad_len` bytes that are authenticated but not encrypted.
 * `pt` and `ct` may be NULL only if `len` is 0; `aad` may be NULL only if `aad_len` is 0.
 *
 * Aliasing: `ct` may equal `pt` (in-place encryption); otherwise they must not overlap. `tag`
 * must not overlap `ct`, `pt` or `aad`; `aad`, `nonce` and `key` must not overlap `ct`.
 *
 * It returns `CHAPOLY_OK` on success. It returns `CHAPOLY_ERR_ARG` for a NULL pointer that the
 * rules above forbid or for a forbidden overlap, `CHAPOLY_ERR_TOO_LONG` if `len` exceeds
 * `CHAPOLY_MAX_LEN`, and `CHAPOLY_ERR_UNSUPPORTED` if the `CHAPOLY_BACKEND` environment variable
 * names a backend that cannot run here (see `chapoly_backend`). Pointer checks come first, then
 * the length check, then the overlap checks. On any error, `ct` and `tag` are not written. */
CHAPOLY_EXPORT int chapoly_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len,
                                const uint8_t *aad, size_t aad_len, const uint8_t nonce[12],
                                const uint8_t key[32]);

/* chapoly_open authenticates and decrypts `len` bytes of `ct` with the AEAD_CHACHA20_POLY1305
 * construction of RFC 8439, section 2.8: it computes the Poly1305 tag over `aad` and `ct` exactly
 * as `chapoly_seal` does, compares it with the 16 bytes at `tag` in constant time (section 4),
 * and writes the `len` bytes of plaintext to `pt`. It never truncates or accepts a shorter tag.
 *
 * `key` is 32 bytes, `nonce` 12 bytes and `tag` 16 bytes; they must never be NULL. `pt` and `ct`
 * may be NULL only if `len` is 0; `aad` may be NULL only if `aad_len` is 0.
 *
 * Aliasing: `pt` may equal `ct` (in-place decryption); otherwise they must not overlap. `tag`,
 * `aad`, `nonce` and `key` must not overlap `pt`.
 *
 * It returns `CHAPOLY_OK` if the tag matches; `pt` then holds the plaintext. It returns
 * `CHAPOLY_ERR_AUTH` if the tag does not match; all `len` bytes of `pt` are then zero (when
 * decrypting in place, the ciphertext is lost) and no plaintext must be used. Callers must not
 * act on the output before checking the return value. The argument errors are as for
 * `chapoly_seal` (`CHAPOLY_ERR_ARG`, `CHAPOLY_ERR_TOO_LONG`, `CHAPOLY_ERR_UNSUPPORTED`); on any of
 * them `pt` is not written. */
CHAPOLY_EXPORT int chapoly_open(uint8_t *pt, const uint8_t *ct, size_t len, const uint8_t tag[16],
                                const uint8_t *aad, size_t aad_len, const uint8_t nonce[12],
                                const uint8_t key[32]);

/* --- XChaCha20-Poly1305 (issue 10, item 11) ------------------------------------------------------
 * AEAD_XChaCha20_Poly1305 of draft-irtf-cfrg-xchacha-03 (section 2.3): the 24-byte nonce is long
 * enough to be drawn at random for every message (2^96 messages per key before a collision is
 * likely, against 2^32 for the 12-byte nonce). It is ChaCha20-Poly1305 (above) keyed with the
 * subkey HChaCha20(key, nonce[0..16)) (section 2.2) and the 12-byte nonce 0x00000000 ||
 * nonce[16..24), run on the same backend and kernels as `chapoly_seal` / `chapoly_open`.
 * Compatible with libsodium's crypto_aead_xchacha20poly1305_ietf_*_detached and BoringSSL's
 * EVP_aead_xchacha20_poly1305. */

/* CHAPOLY_XNONCE_BYTES is the size of the XChaCha20-Poly1305 nonce (draft-irtf-cfrg-xchacha). */
#define CHAPOLY_XNONCE_BYTES 24

/* chapoly_xseal encrypts and authenticates `len` bytes of `pt` with XChaCha20-Poly1305: it writes
 * `len` bytes of ciphertext to `ct` and the 16-byte tag to `tag`. `nonce` is 24 bytes, `key` 32;
 * never NULL. A random nonce per message is safe. Lengths, NULL rules, aliasing (with the
 * 24-byte nonce in place of the 12-byte one), the order of the checks and the return codes are
 * exactly those of `chapoly_seal`; on any error `ct` and `tag` are not written. */
CHAPOLY_EXPORT int chapoly_xseal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len,
                                 const uint8_t *aad, size_t aad_len, const uint8_t nonce[24],
                                 const uint8_t key[32]);

/* chapoly_xopen authenticates and decrypts `len` bytes of `ct` sealed by `chapoly_xseal` (or any
 * AEAD_XChaCha20_Poly1305 implementation) with the same `aad`, 24-byte `nonce` and 32-byte `key`,
 * comparing the 16-byte `tag` in constant time. It returns `CHAPOLY_OK` with the plaintext in
 * `pt`, or `CHAPOLY_ERR_AUTH` with all `len` bytes of `pt` zeroed; the other errors, NULL rules
 * and aliasing rules are those of `chapoly_open` (with the 24-byte nonce); on them `pt` is not
 * written. */
CHAPOLY_EXPORT int chapoly_xopen(uint8_t *pt, const uint8_t *ct, size_t len, const uint8_t tag[16],
                                 const uint8_t *aad, size_t aad_len, const uint8_t nonce[24],
                                 const uint8_t key[32]);
/* --- end of XChaCha20-Poly1305 ------------------------------------------------------------------ */

/* chapoly_backend returns the name of the implementation that `chapoly_seal` and `chapoly_open`
 * use now: "avx512" (AVX-512 F, VL, BW and IFMA kernels), "avx2" (AVX2 and BMI2 kernels),
 * "scalar" (generated kernels in plain C++ for any 64-bit CPU), "portable" (the plain C++
 * reference) or "rvv" (RISC-V V kernels, proved on the host and linked into riscv64 builds);
 * each only in builds that link it. The string is static; never free it. Automatic choice takes
 * the first usable one in the order avx512, avx2, scalar, portable on x86-64 and rvv (where
 * getauxval(AT_HWCAP) has the V bit), scalar, portable on riscv64; `chapoly info` lists them.
 *
 * On first use the library picks a backend once: if the environment variable `CHAPOLY_BACKEND`
 * is unset, empty or "auto", the fastest backend this CPU and operating system can run; if it
 * names a backend that can run here, that backend. If it names an unknown backend or one that
 * cannot run here, no backend is picked: this function returns "none" and `chapoly_seal` and
 * `chapoly_open` return `CHAPOLY_ERR_UNSUPPORTED` (an explicit request is never silently
 * replaced), until `chapoly_select_backend` succeeds. A setuid or setgid program ignores
 * `CHAPOLY_BACKEND` (read with secure_getenv) and picks by CPU features. */
CHAPOLY_EXPORT const char *chapoly_backend(void);

/* chapoly_select_backend makes `name` the backend of all later calls in this process, for tests
 * and benchmarks. `name` is "auto" (pick by CPU features, ignoring `CHAPOLY_BACKEND`) or a name
 * that `chapoly_backend` can return. It returns `CHAPOLY_OK` on success, `CHAPOLY_ERR_ARG` if
 * `name` is NULL, and `CHAPOLY_ERR_UNSUPPORTED` if `name` is unknown, not built into this
 * library or cannot run on this CPU and operating system; on error the selection is unchanged.
 * Calls that run concurrently with it use either the old or the new backend. */
CHAPOLY_EXPORT int chapoly_select_backend(const char *name);

/* chapoly_version returns the library's version as "MAJOR.MINOR.PATCH", a static string. */
CHAPOLY_EXPORT const char *chapoly_version(void);

/* ---- Streaming AEAD (RFC 8439, section 2.8, over a message given in pieces) -------------------
 *
 * The same construction as `chapoly_seal` / `chapoly_open`, for a message whose AAD and text
 * arrive in any number of pieces: init, then any number of `chapoly_stream_aad` calls, then any
 * number of `chapoly_stream_encrypt` (or `chapoly_stream_decrypt`) calls of any length, then
 * `chapoly_stream_final` (or `chapoly_stream_verify`). The ciphertext and tag equal what the
 * one-shot call gives for the concatenated AAD and text, for every split. Partial ChaCha20 and
 * Poly1305 blocks are kept in the state between calls; every run of whole 64-byte blocks goes
 * through the streaming kernels of the backend selected at init (see `chapoly_backend`).
 *
 * A `chapoly_stream` holds key material: wipe it (`chapoly_stream_final`, `chapoly_stream_verify`
 * and `chapoly_stream_wipe` do) before its memory is reused. It may be copied within the process
 * that initialised it (a copy continues independently; it holds pointers into this library, so
 * a state saved to disk or sent to another process must never be used) but never used by two
 * threads at once; distinct states are independent. */

/* CHAPOLY_STREAM_WORDS is the size of `chapoly_stream` in 64-bit words (896 bytes: the state
 * holds the AVX-512 kernels' Poly1305 key powers and up to eight parked keystream blocks between
 * calls). It is part of the ABI: a program must be built against the header of the library it
 * runs with (the size grew from 40 words to 64, 80, then 112, during 0.1.0's development, before
 * any release). */
#define CHAPOLY_STREAM_WORDS 112

/* chapoly_stream is the state of one streamed AEAD message. Its contents are private. */
typedef struct chapoly_stream {
  uint64_t opaque[CHAPOLY_STREAM_WORDS];
} chapoly_stream;

/* chapoly_stream_init starts a message under the 32-byte `key` and 12-byte `nonce` (RFC 8439,
 * sections 2.3 and 2.8): it derives the one-time Poly1305 key from block 0 (section 2.6) with
 * the backend `chapoly_backend` names now, which the state keeps for all its later calls. The
 * (key, nonce) rule of `chapoly_seal` applies. `st`, `key` and `nonce` must not be NULL
 * (`CHAPOLY_ERR_ARG`); `CHAPOLY_ERR_UNSUPPORTED` if no backend can be selected (see
 * `chapoly_backend`). Any previous content of `*st` is overwritten. */
CHAPOLY_EXPORT int chapoly_stream_init(chapoly_stream *st, const uint8_t key[32], const uint8_t nonce[12]);

/* chapoly_stream_aad authenticates the next `aad_len` bytes of AAD. Allowed only before the
 * first text call (`CHAPOLY_ERR_STATE` otherwise). `aad` may be NULL only if `aad_len` is 0
 * (`CHAPOLY_ERR_ARG`). Returns `CHAPOLY_OK` on success. */
CHAPOLY_EXPORT int chapoly_stream_aad(chapoly_stream *st, const uint8_t *aad, size_t aad_len);

/* chapoly_stream_encrypt encrypts the next `len` bytes of plaintext `in` into `out` (ChaCha20,
 * section 2.4, block counter from 1) and authenticates the ciphertext. `out` may equal `in`
 * (in place); otherwise they must not overlap (`CHAPOLY_ERR_ARG`). `in` and `out` may be NULL
 * only if `len` is 0. `CHAPOLY_ERR_STATE` after any decrypt call; `CHAPOLY_ERR_TOO_LONG` if the
 * text of the message would exceed `CHAPOLY_MAX_LEN` bytes (the 32-bit block counter), checked
 * before any keystream for this call is made (so the call that would need block 2^32, where the
 * counter would wrap to block 0, is refused whole, not cut short); on any error the state and
 * `out` are unchanged and the stream stays usable: a shorter call, `chapoly_stream_final` or
 * `chapoly_stream_wipe` may follow. */
CHAPOLY_EXPORT int chapoly_stream_encrypt(chapoly_stream *st, uint8_t *out, const uint8_t *in, size_t len);

/* chapoly_stream_decrypt authenticates the next `len` bytes of ciphertext `in` and writes their
 * plaintext to `out`; rules and errors as for `chapoly_stream_encrypt` (`CHAPOLY_ERR_STATE`
 * after any encrypt call). The plaintext is released before the tag is checked and cannot be
 * recalled: the caller must not act on it before `chapoly_stream_verify` returned `CHAPOLY_OK`
 * (as with OpenSSL's EVP_DecryptUpdate). */
CHAPOLY_EXPORT int chapoly_stream_decrypt(chapoly_stream *st, uint8_t *out, const uint8_t *in, size_t len);

/* chapoly_stream_final writes the 16-byte tag of an encrypted message (section 2.8: Poly1305
 * over the padded AAD, the padded ciphertext and the two lengths) and wipes the state. Also
 * valid after AAD only (an empty text). `CHAPOLY_ERR_STATE` after a decrypt call or on a
 * finished state (the state is then unchanged); `CHAPOLY_ERR_ARG` if `tag` is NULL or lies
 * (even partly) inside `*st` (the state is then unchanged). */
CHAPOLY_EXPORT int chapoly_stream_final(chapoly_stream *st, uint8_t tag[16]);

/* chapoly_stream_verify computes the tag of a decrypted message, compares it with the 16 bytes
 * at `tag` in constant time (section 4) and wipes the state. Returns `CHAPOLY_OK` if they match,
 * `CHAPOLY_ERR_AUTH` if not (the plaintext already released must then be discarded),
 * `CHAPOLY_ERR_STATE` after an encrypt call or on a finished state (unchanged), and
 * `CHAPOLY_ERR_ARG` if `tag` is NULL or lies (even partly) inside `*st` (unchanged). */
CHAPOLY_EXPORT int chapoly_stream_verify(chapoly_stream *st, const uint8_t tag[16]);

/* chapoly_stream_wipe zeroes the state (key, one-time key, keystream, accumulator) through a call
 * the compiler cannot remove; later calls on it return `CHAPOLY_ERR_STATE`. NULL is ignored. */
CHAPOLY_EXPORT void chapoly_stream_wipe(chapoly_stream *st);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CHAPOLY_CHAPOLY_H */
