// fuzz_common.hpp: what the libFuzzer targets over the AEAD share: the OpenSSL oracle and the list
// of backends this CPU runs (each fuzz target is one translation unit, so these are inline).
#pragma once

#include <openssl/evp.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "internal/chapoly_internal.h"

namespace fuzz {

// RFC 8439 AEAD by OpenSSL's EVP one-shot sequence: ct (len bytes) and the 16-byte tag. Aborts
// (a finding) if OpenSSL itself fails.
inline void openssl_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len, const uint8_t *aad,
                         size_t aad_len, const uint8_t nonce[12], const uint8_t key[32]) {
  EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
  int n = 0;
  bool ok = c != nullptr && EVP_EncryptInit_ex(c, EVP_chacha20_poly1305(), nullptr, key, nonce) == 1 &&
            (aad_len == 0 || EVP_EncryptUpdate(c, nullptr, &n, aad, static_cast<int>(aad_len)) == 1) &&
            (len == 0 || EVP_EncryptUpdate(c, ct, &n, pt, static_cast<int>(len)) == 1) &&
            EVP_EncryptFinal_ex(c, ct + len, &n) == 1 &&
            EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag) == 1;
  EVP_CIPHER_CTX_free(c);
  if (!ok) {
    std::fprintf(stderr, "fuzz: OpenSSL failed\n");
    std::abort();
  }
}

// Every kernel backend this CPU and OS can run, then the portable reference.
inline std::vector<const chapoly::internal::Backend *> usable_backends() {
  std::vector<const chapoly::internal::Backend *> v;
  size_t n = 0;
  const chapoly::internal::Backend *const *all = chapoly::internal::kernel_backends(n);
  for (size_t i = 0; i < n; ++i)
    if (all[i]->missing() == nullptr) v.push_back(all[i]);
  v.push_back(&chapoly::internal::portable_backend());
  return v;
}

}  // namespace fuzz
