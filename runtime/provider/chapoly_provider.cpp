// chapoly_provider.cpp: the OpenSSL 3 provider module `chapoly` (provider/README.md). One
// algorithm, "ChaCha20-Poly1305" with the property "provider=chapoly", answering the parameters
// OpenSSL 3.0's default provider answers for it, so that EVP and libssl treat it as that AEAD:
//
//  - generic messages (EVP_*Update with out == NULL for AAD, then text, then EVP_*Final; TLS 1.3
//    records) stream through chapoly_stream, i.e. the fused streaming kernels of the backend
//    libchapoly selects (CHAPOLY_BACKEND honoured);
//  - TLS 1.2 records (RFC 7905: "tlsivfixed", then per record "tlsaad" and one update over
//    payload || tag) go through the backend's one-shot seal/open kernel: nonce = fixed IV XOR the
//    64-bit sequence number (the first 8 AAD bytes) in its last 8 bytes, the tag appended on seal,
//    checked in constant time and stripped on open, the output zeroed when it does not match.
//
// With CHAPOLY_PROVIDER_STATS=PREFIX in the environment, the provider writes PREFIX.<pid> when it
// is unloaded: one line of counters (messages and bytes sealed and opened, TLS 1.2 records,
// authentication failures) that the interop tests read to prove chapoly did the work.
#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/proverr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>

#include <chapoly/chapoly.h>

#include "internal/chapoly_internal.h"

namespace {

using chapoly::internal::Backend;

constexpr size_t kKeyLen = 32, kIvLen = 12, kTagLen = 16, kTlsAadLen = 13;
constexpr size_t kNoTls = ~size_t{0};

// --- counters (CHAPOLY_PROVIDER_STATS) ------------------------------------------------------------
struct Stats {
  std::atomic<unsigned long long> seal_msgs{0}, open_msgs{0}, sealed_bytes{0}, opened_bytes{0},
      tls12_sealed{0}, tls12_opened{0}, auth_failures{0};
};
Stats g_stats;
std::atomic<bool> g_stats_written{false};
// Whether anything counts: CHAPOLY_PROVIDER_STATS was set when the module was loaded. A locked
// add per EVP_*Update was ~11% of a 16-byte update's time (`openssl speed -bytes 16`, Zen 5) and
// a cache line every thread writes, paid by every program for counters only the tests read.
// (Atomic: a second library context may load the module while another thread encrypts.)
std::atomic<bool> g_counting{false};

// count adds n to a counter when the counters are on.
inline void count(std::atomic<unsigned long long> &c, unsigned long long n) {
  if (g_counting.load(std::memory_order_relaxed)) c.fetch_add(n, std::memory_order_relaxed);
}

void write_stats() {
  // secure_getenv: a setuid/setgid program (one that loads the provider through a system-wide
  // OPENSSL_CONF) ignores the variable. The file is created new (O_EXCL), never through a
  // symbolic link (O_NOFOLLOW), mode 0600: an existing name, planted link or not, is left alone.
  const char *prefix = secure_getenv("CHAPOLY_PROVIDER_STATS");
  if (prefix == nullptr || prefix[0] == '\0' || g_stats_written.exchange(true)) return;
  char path[4096];
  int n = snprintf(path, sizeof path, "%s.%ld", prefix, static_cast<long>(getpid()));
  if (n < 0 || static_cast<size_t>(n) >= sizeof path) return;
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return;
  FILE *f = fdopen(fd, "w");
  if (f == nullptr) {
    close(fd);
    return;
  }
  fprintf(f,
          "chapoly-provider backend=%s seal_msgs=%llu open_msgs=%llu sealed_bytes=%llu opened_bytes=%llu "
          "tls12_sealed=%llu tls12_opened=%llu auth_failures=%llu\n",
          chapoly_backend(), g_stats.seal_msgs.load(), g_stats.open_msgs.load(), g_stats.sealed_bytes.load(),
          g_stats.opened_bytes.load(), g_stats.tls12_sealed.load(), g_stats.tls12_opened.load(),
          g_stats.auth_failures.load());
  fclose(f);
}

// A process that exits without unloading providers still leaves its counters.
__attribute__((destructor)) void write_stats_at_exit() { write_stats(); }

// --- the cipher context -----------------------------------------------------------------------------
struct Ctx {
  const Backend *b;
  uint8_t key[kKeyLen];
  uint8_t iv[kIvLen];  // the nonce; for TLS 1.2 the fixed IV ("tlsivfixed")
  bool key_set, iv_set, enc;
  bool started;        // `st` holds the message in progress
  chapoly_stream st;
  uint8_t tag[kTagLen];  // encrypt: the tag after final; decrypt: the expected tag ("tag")
  size_t tag_len;
  uint8_t tls_aad[kTlsAadLen];
  size_t tls_payload;  // kNoTls, or the payload length of the TLS 1.2 record announced by "tlsaad"
  size_t tls_aad_pad;  // "tlsaadpad": the tag length once "tlsaad" was set
};

void wipe_ctx(Ctx *c) {
  chapoly_stream_wipe(&c->st);
  OPENSSL_cleanse(c, sizeof *c);
}

void *newctx(void *) {
  Ctx *c = static_cast<Ctx *>(OPENSSL_zalloc(sizeof(Ctx)));
  if (c == nullptr) return nullptr;
  c->b = chapoly::internal::current_backend();
  c->tls_payload = kNoTls;
  return c;
}

void freectx(void *vc) {
  Ctx *c = static_cast<Ctx *>(vc);
  if (c == nullptr) return;
  wipe_ctx(c);
  OPENSSL_free(c);
}

void *dupctx(void *vc) {
  Ctx *c = static_cast<Ctx *>(vc);
  if (c == nullptr) return nullptr;
  Ctx *d = static_cast<Ctx *>(OPENSSL_malloc(sizeof(Ctx)));
  if (d != nullptr) memcpy(d, c, sizeof *c);  // the stream state is position independent
  return d;
}

// --- parameters -----------------------------------------------------------------------------------

int get_params(OSSL_PARAM params[]) {
  OSSL_PARAM *p;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE)) != nullptr && !OSSL_PARAM_set_uint(p, 0)) goto bad;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD)) != nullptr && !OSSL_PARAM_set_int(p, 1)) goto bad;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CUSTOM_IV)) != nullptr && !OSSL_PARAM_set_int(p, 1)) goto bad;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CTS)) != nullptr && !OSSL_PARAM_set_int(p, 0)) goto bad;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK)) != nullptr && !OSSL_PARAM_set_int(p, 0))
    goto bad;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_HAS_RAND_KEY)) != nullptr && !OSSL_PARAM_set_int(p, 0))
    goto bad;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) != nullptr && !OSSL_PARAM_set_size_t(p, kKeyLen))
    goto bad;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE)) != nullptr && !OSSL_PARAM_set_size_t(p, 1))
    goto bad;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) != nullptr && !OSSL_PARAM_set_size_t(p, kIvLen))
    goto bad;
  return 1;
bad:
  ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_SET_PARAMETER);
  return 0;
}

const OSSL_PARAM kGettable[] = {
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, nullptr),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, nullptr),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, nullptr),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, nullptr),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, nullptr),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, nullptr),
    OSSL_PARAM_END};
const OSSL_PARAM *gettable_params(void *) { return kGettable; }

int get_ctx_params(void *vc, OSSL_PARAM params[]) {
  Ctx *c = static_cast<Ctx *>(vc);
  OSSL_PARAM *p;
  if (((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) != nullptr && !OSSL_PARAM_set_size_t(p, kIvLen)) ||
      ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) != nullptr && !OSSL_PARAM_set_size_t(p, kKeyLen)) ||
      ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAGLEN)) != nullptr &&
       !OSSL_PARAM_set_size_t(p, c->tag_len)) ||
      ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD)) != nullptr &&
       !OSSL_PARAM_set_size_t(p, c->tls_aad_pad))) {
    ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_SET_PARAMETER);
    return 0;
  }
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAG)) != nullptr) {
    if (p->data_type != OSSL_PARAM_OCTET_STRING) {
      ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_SET_PARAMETER);
      return 0;
    }
    if (!c->enc) {  // the tag is an output of encryption only
      ERR_raise(ERR_LIB_PROV, PROV_R_TAG_NOT_SET);
      return 0;
    }
    if (p->data_size == 0 || p->data_size > kTagLen) {
      ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_TAG_LENGTH);
      return 0;
    }
    memcpy(p->data, c->tag, p->data_size);
  }
  return 1;
}

const OSSL_PARAM kGettableCtx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, nullptr),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, nullptr, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, nullptr),
    OSSL_PARAM_END};
const OSSL_PARAM *gettable_ctx_params(void *, void *) { return kGettableCtx; }

// "tlsaad": the 13-byte TLS 1.2 AAD (seq_num(8) || type || version(2) || length(2), RFC 5246
// 6.2.3.3). Decrypting, the length includes the tag: it must be at least 16 and is reduced by it.
// Returns the tag length to pad the record by, or 0 when the AAD is refused.
size_t tls_init(Ctx *c, const uint8_t *aad, size_t len) {
  if (len != kTlsAadLen) return 0;
  memcpy(c->tls_aad, aad, kTlsAadLen);
  size_t plen = static_cast<size_t>(aad[11]) << 8 | aad[12];
  if (!c->enc) {
    if (plen < kTagLen) return 0;  // shorter than its tag: refused before anything is read
    plen -= kTagLen;
    c->tls_aad[11] = static_cast<uint8_t>(plen >> 8);
    c->tls_aad[12] = static_cast<uint8_t>(plen);
  }
  c->tls_payload = plen;
  if (c->started) chapoly_stream_wipe(&c->st);
  c->started = false;
  return kTagLen;
}

int set_ctx_params(void *vc, const OSSL_PARAM params[]) {
  Ctx *c = static_cast<Ctx *>(vc);
  if (params == nullptr) return 1;
  const OSSL_PARAM *p;
  size_t len;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN)) != nullptr) {
    if (!OSSL_PARAM_get_size_t(p, &len)) {
      ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_GET_PARAMETER);
      return 0;
    }
    if (len != kKeyLen) {
      ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_KEY_LENGTH);
      return 0;
    }
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_IVLEN)) != nullptr) {
    if (!OSSL_PARAM_get_size_t(p, &len)) {
      ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_GET_PARAMETER);
      return 0;
    }
    if (len != kIvLen) {  // the 96-bit nonce only (RFC 8439 2.8)
      ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_IV_LENGTH);
      return 0;
    }
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG)) != nullptr) {
    if (p->data_type != OSSL_PARAM_OCTET_STRING) {
      ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_GET_PARAMETER);
      return 0;
    }
    if (p->data_size == 0 || p->data_size > kTagLen) {
      ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_TAG_LENGTH);
      return 0;
    }
    if (p->data != nullptr) {
      if (c->enc) {
        ERR_raise(ERR_LIB_PROV, PROV_R_TAG_NOT_NEEDED);
        return 0;
      }
      memcpy(c->tag, p->data, p->data_size);
    }
    c->tag_len = p->data_size;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD)) != nullptr) {
    if (p->data_type != OSSL_PARAM_OCTET_STRING) {
      ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_GET_PARAMETER);
      return 0;
    }
    size_t pad = tls_init(c, static_cast<const uint8_t *>(p->data), p->data_size);
    if (pad == 0) {
      ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_DATA);
      return 0;
    }
    c->tls_aad_pad = pad;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED)) != nullptr) {
    if (p->data_type != OSSL_PARAM_OCTET_STRING) {
      ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_GET_PARAMETER);
      return 0;
    }
    if (p->data_size != kIvLen) {  // RFC 7905: the whole 12-byte IV is fixed
      ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_IV_LENGTH);
      return 0;
    }
    memcpy(c->iv, p->data, kIvLen);
    c->iv_set = true;
  }
  return 1;
}

const OSSL_PARAM kSettableCtx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, nullptr),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, nullptr, 0),
    OSSL_PARAM_END};
const OSSL_PARAM *settable_ctx_params(void *, void *) { return kSettableCtx; }

// --- init, update, final --------------------------------------------------------------------------

int init(void *vc, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
         const OSSL_PARAM params[], bool enc) {
  Ctx *c = static_cast<Ctx *>(vc);
  if (c->b == nullptr || c->b->seal == nullptr) {  // CHAPOLY_BACKEND names nothing usable here
    ERR_raise(ERR_LIB_PROV, PROV_R_CIPHER_OPERATION_FAILED);
    return 0;
  }
  c->enc = enc;
  if (key != nullptr) {
    if (keylen != kKeyLen) {
      ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_KEY_LENGTH);
      return 0;
    }
    memcpy(c->key, key, kKeyLen);
    c->key_set = true;
  }
  if (iv != nullptr) {
    if (ivlen != kIvLen) {
      ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_IV_LENGTH);
      return 0;
    }
    memcpy(c->iv, iv, kIvLen);
    c->iv_set = true;
  }
  if (c->started) chapoly_stream_wipe(&c->st);
  c->started = false;
  c->tls_payload = kNoTls;
  if (c->tag_len == 0) c->tag_len = kTagLen;
  return set_ctx_params(c, params);
}

int einit(void *c, const unsigned char *k, size_t kl, const unsigned char *iv, size_t ivl, const OSSL_PARAM p[]) {
  return init(c, k, kl, iv, ivl, p, true);
}
int dinit(void *c, const unsigned char *k, size_t kl, const unsigned char *iv, size_t ivl, const OSSL_PARAM p[]) {
  return init(c, k, kl, iv, ivl, p, false);
}

bool start(Ctx *c) {
  if (c->started) return true;
  if (!c->key_set || !c->iv_set) {
    ERR_raise(ERR_LIB_PROV, PROV_R_NO_KEY_SET);
    return false;
  }
  if (chapoly::internal::stream_init_with(*c->b, &c->st, c->key, c->iv) != CHAPOLY_OK) {
    ERR_raise(ERR_LIB_PROV, PROV_R_CIPHER_OPERATION_FAILED);
    return false;
  }
  c->started = true;
  return true;
}

// One TLS 1.2 record (RFC 7905) in one call through the one-shot kernel: `in` is payload || tag
// (decrypting) or payload || room for the tag (encrypting); `inl` is exactly payload + 16.
int tls_record(Ctx *c, unsigned char *out, size_t *outl, const unsigned char *in, size_t inl) {
  const size_t plen = c->tls_payload;
  c->tls_payload = kNoTls;
  if (inl != plen + kTagLen || !c->key_set || !c->iv_set) return 0;
  uint8_t nonce[kIvLen];
  memcpy(nonce, c->iv, kIvLen);
  for (int i = 0; i < 8; ++i) nonce[4 + i] ^= c->tls_aad[i];  // the 64-bit sequence number
  int rc;
  if (c->enc) {
    rc = chapoly::internal::seal_with(*c->b, out, out + plen, in, plen, c->tls_aad, kTlsAadLen, nonce, c->key);
    if (rc == CHAPOLY_OK) {
      count(g_stats.tls12_sealed, 1);
      count(g_stats.sealed_bytes, plen);
      *outl = inl;
    }
  } else {
    rc = chapoly::internal::open_with(*c->b, out, in, plen, in + plen, c->tls_aad, kTlsAadLen, nonce, c->key);
    if (rc == CHAPOLY_OK) {
      count(g_stats.tls12_opened, 1);
      count(g_stats.opened_bytes, plen);
      *outl = plen;  // the tag stripped
    } else if (rc == CHAPOLY_ERR_AUTH) {
      count(g_stats.auth_failures, 1);  // open_with zeroed `out`
    } else {
      OPENSSL_cleanse(out, plen);
    }
  }
  OPENSSL_cleanse(nonce, sizeof nonce);
  return rc == CHAPOLY_OK;
}

int update(void *vc, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in, size_t inl) {
  Ctx *c = static_cast<Ctx *>(vc);
  if (inl == 0) {
    *outl = 0;
    return 1;
  }
  if (outsize < inl) {
    ERR_raise(ERR_LIB_PROV, PROV_R_OUTPUT_BUFFER_TOO_SMALL);
    return 0;
  }
  if (c->tls_payload != kNoTls && out != nullptr && !c->started) {
    if (!tls_record(c, out, outl, in, inl)) {
      *outl = 0;
      ERR_raise(ERR_LIB_PROV, PROV_R_CIPHER_OPERATION_FAILED);
      return 0;
    }
    return 1;
  }
  if (!start(c)) return 0;
  if (c->tls_payload != kNoTls) {  // "tlsaad" set, but not a whole record: it is the AAD
    chapoly_stream_aad(&c->st, c->tls_aad, kTlsAadLen);
    c->tls_payload = kNoTls;
  }
  int rc;
  if (out == nullptr) {
    rc = chapoly_stream_aad(&c->st, in, inl);
  } else {
    rc = c->enc ? chapoly_stream_encrypt(&c->st, out, in, inl) : chapoly_stream_decrypt(&c->st, out, in, inl);
    if (rc == CHAPOLY_OK) count(c->enc ? g_stats.sealed_bytes : g_stats.opened_bytes, inl);
  }
  if (rc != CHAPOLY_OK) {
    *outl = 0;
    ERR_raise(ERR_LIB_PROV, PROV_R_CIPHER_OPERATION_FAILED);
    return 0;
  }
  *outl = inl;
  return 1;
}

int final(void *vc, unsigned char *, size_t *outl, size_t) {
  Ctx *c = static_cast<Ctx *>(vc);
  *outl = 0;
  if (!start(c)) return 0;  // an empty message still has a tag
  uint8_t computed[kTagLen];
  chapoly::internal::stream_tag_any(&c->st, computed);
  c->started = false;
  int ok = 1;
  if (c->enc) {
    memcpy(c->tag, computed, kTagLen);
    count(g_stats.seal_msgs, 1);
  } else {
    // As the default provider: the first tag_len bytes (the length "tag" was set with).
    ok = c->tag_len >= 1 && c->tag_len <= kTagLen && CRYPTO_memcmp(computed, c->tag, c->tag_len) == 0;
    if (ok) {
      count(g_stats.open_msgs, 1);
    } else {
      count(g_stats.auth_failures, 1);
    }
  }
  OPENSSL_cleanse(computed, sizeof computed);
  return ok;
}

int cipher(void *vc, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in, size_t inl) {
  return update(vc, out, outl, outsize, in, inl);
}

#define FN(f) reinterpret_cast<void (*)(void)>(f)
const OSSL_DISPATCH kCipherFunctions[] = {
    {OSSL_FUNC_CIPHER_NEWCTX, FN(newctx)},
    {OSSL_FUNC_CIPHER_FREECTX, FN(freectx)},
    {OSSL_FUNC_CIPHER_DUPCTX, FN(dupctx)},
    {OSSL_FUNC_CIPHER_ENCRYPT_INIT, FN(einit)},
    {OSSL_FUNC_CIPHER_DECRYPT_INIT, FN(dinit)},
    {OSSL_FUNC_CIPHER_UPDATE, FN(update)},
    {OSSL_FUNC_CIPHER_FINAL, FN(final)},
    {OSSL_FUNC_CIPHER_CIPHER, FN(cipher)},
    {OSSL_FUNC_CIPHER_GET_PARAMS, FN(get_params)},
    {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, FN(gettable_params)},
    {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, FN(get_ctx_params)},
    {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, FN(gettable_ctx_params)},
    {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, FN(set_ctx_params)},
    {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, FN(settable_ctx_params)},
    {0, nullptr}};

const OSSL_ALGORITHM kCiphers[] = {
    {"ChaCha20-Poly1305", "provider=chapoly", kCipherFunctions,
     "ChaCha20-Poly1305 (RFC 8439) from chapoly's generated, proved kernels"},
    {nullptr, nullptr, nullptr, nullptr}};

// --- the provider ----------------------------------------------------------------------------------

const OSSL_ALGORITHM *query_operation(void *, int operation_id, int *no_cache) {
  *no_cache = 0;
  return operation_id == OSSL_OP_CIPHER ? kCiphers : nullptr;
}

const OSSL_PARAM kProvGettable[] = {
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, nullptr, 0),
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, nullptr, 0),
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, nullptr, 0),
    OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, nullptr),
    OSSL_PARAM_END};
const OSSL_PARAM *prov_gettable_params(void *) { return kProvGettable; }

int prov_get_params(void *, OSSL_PARAM params[]) {
  OSSL_PARAM *p;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) != nullptr &&
      !OSSL_PARAM_set_utf8_ptr(p, "chapoly ChaCha20-Poly1305 provider"))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) != nullptr &&
      !OSSL_PARAM_set_utf8_ptr(p, CHAPOLY_VERSION_STRING))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) != nullptr &&
      !OSSL_PARAM_set_utf8_ptr(p, chapoly_backend()))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) != nullptr && !OSSL_PARAM_set_int(p, 1)) return 0;
  return 1;
}

void teardown(void *) { write_stats(); }

const OSSL_DISPATCH kProviderFunctions[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, FN(teardown)},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, FN(prov_gettable_params)},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, FN(prov_get_params)},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, FN(query_operation)},
    {0, nullptr}};

}  // namespace

// OSSL_provider_init: the module's only exported symbol (provider/chapoly_provider.map). Refuses
// to load when CHAPOLY_BACKEND names a backend that cannot run here (nothing is silently
// replaced, as in libchapoly).
extern "C" __attribute__((visibility("default"))) int OSSL_provider_init(const OSSL_CORE_HANDLE *,
                                                                         const OSSL_DISPATCH *,
                                                                         const OSSL_DISPATCH **out,
                                                                         void **provctx) {
  if (chapoly::internal::current_backend()->seal == nullptr) return 0;
  const char *stats = secure_getenv("CHAPOLY_PROVIDER_STATS");  // as write_stats reads it
  g_counting.store(stats != nullptr && stats[0] != '\0', std::memory_order_relaxed);
  *out = kProviderFunctions;
  *provctx = nullptr;
  return 1;
}
