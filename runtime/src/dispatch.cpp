// dispatch.cpp: the C API. Picks the backend once (CHAPOLY_BACKEND, else the CPU's best), keeps
// it in one atomic pointer, and forwards seal/open to the checked wrappers in checked.cpp.
//
// Decision rule (documented in chapoly.h at chapoly_backend):
//   CHAPOLY_BACKEND unset, "" or "auto" -> first usable of the linked backends in registry order
//                                          (avx512, avx2, scalar, when linked), then portable.
//   CHAPOLY_BACKEND = a usable backend  -> that backend.
//   CHAPOLY_BACKEND = anything else     -> "none": seal/open return CHAPOLY_ERR_UNSUPPORTED, so a
//                                          forced benchmark or test never silently runs another
//                                          backend. chapoly_select_backend() clears it.
#include <stdlib.h>
#include <string.h>

#include <atomic>

#include <chapoly/chapoly.h>

#include "internal/chapoly_internal.h"

namespace chapoly::internal {
namespace {

// Stands for "CHAPOLY_BACKEND asked for something we cannot run". Never called.
const Backend kNone = {"none", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};

// nullptr until the first decision; then a built-in backend or &kNone. Deciding twice
// concurrently gives the same answer, so a lost compare-exchange race is harmless.
std::atomic<const Backend *> g_current{nullptr};

const Backend *pick_auto() {
  size_t n = 0;
  const Backend *const *all = kernel_backends(n);
  for (size_t i = 0; i < n; ++i) {
    if (all[i]->missing() == nullptr) return all[i];
  }
  return &portable_backend();  // always runs
}

// The usable linked backend called `name`, or nullptr.
const Backend *find_usable(const char *name) {
  const Backend *b = linked_backend(name);
  return b != nullptr && b->missing() == nullptr ? b : nullptr;
}

const Backend *decide_from_env() {
  // secure_getenv: in a setuid/setgid program (AT_SECURE) the variable is ignored, so an
  // unprivileged caller cannot force a backend (or "none": a refusal) on it.
  const char *env = secure_getenv("CHAPOLY_BACKEND");
  if (env == nullptr || env[0] == '\0' || strcmp(env, "auto") == 0) return pick_auto();
  const Backend *b = find_usable(env);
  return b != nullptr ? b : &kNone;
}

const Backend *current() {
  const Backend *b = g_current.load(std::memory_order_acquire);
  if (b != nullptr) return b;
  const Backend *decided = decide_from_env();
  const Backend *expected = nullptr;
  if (g_current.compare_exchange_strong(expected, decided, std::memory_order_acq_rel)) {
    return decided;
  }
  return expected;  // another thread decided first
}

}  // namespace

const Backend *current_backend() { return current(); }

void reset_backend_for_testing() { g_current.store(nullptr, std::memory_order_release); }

const Backend *linked_backend(const char *name) {
  size_t n = 0;
  const Backend *const *all = kernel_backends(n);
  for (size_t i = 0; i < n; ++i) {
    if (strcmp(all[i]->name, name) == 0) return all[i];
  }
  const Backend &portable = portable_backend();
  return strcmp(portable.name, name) == 0 ? &portable : nullptr;
}

const Backend *avx512_backend() { return linked_backend("avx512"); }

}  // namespace chapoly::internal

using chapoly::internal::Backend;
using chapoly::internal::current;

extern "C" {

int chapoly_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len, const uint8_t *aad,
                 size_t aad_len, const uint8_t nonce[12], const uint8_t key[32]) {
  const Backend *b = current();
  if (b->seal == nullptr) return CHAPOLY_ERR_UNSUPPORTED;
  return chapoly::internal::seal_with(*b, ct, tag, pt, len, aad, aad_len, nonce, key);
}

int chapoly_open(uint8_t *pt, const uint8_t *ct, size_t len, const uint8_t tag[16],
                 const uint8_t *aad, size_t aad_len, const uint8_t nonce[12],
                 const uint8_t key[32]) {
  const Backend *b = current();
  if (b->open == nullptr) return CHAPOLY_ERR_UNSUPPORTED;
  return chapoly::internal::open_with(*b, pt, ct, len, tag, aad, aad_len, nonce, key);
}

int chapoly_xseal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len, const uint8_t *aad,
                  size_t aad_len, const uint8_t nonce[24], const uint8_t key[32]) {
  const Backend *b = current();
  if (b->seal == nullptr) return CHAPOLY_ERR_UNSUPPORTED;
  return chapoly::internal::xseal_with(*b, ct, tag, pt, len, aad, aad_len, nonce, key);
}

int chapoly_xopen(uint8_t *pt, const uint8_t *ct, size_t len, const uint8_t tag[16],
                  const uint8_t *aad, size_t aad_len, const uint8_t nonce[24],
                  const uint8_t key[32]) {
  const Backend *b = current();
  if (b->open == nullptr) return CHAPOLY_ERR_UNSUPPORTED;
  return chapoly::internal::xopen_with(*b, pt, ct, len, tag, aad, aad_len, nonce, key);
}

const char *chapoly_backend(void) { return current()->name; }

int chapoly_select_backend(const char *name) {
  if (name == nullptr) return CHAPOLY_ERR_ARG;
  const Backend *b = strcmp(name, "auto") == 0 ? chapoly::internal::pick_auto()
                                               : chapoly::internal::find_usable(name);
  if (b == nullptr) return CHAPOLY_ERR_UNSUPPORTED;
  chapoly::internal::g_current.store(b, std::memory_order_release);
  return CHAPOLY_OK;
}

const char *chapoly_version(void) { return CHAPOLY_VERSION_STRING; }

}  // extern "C"
