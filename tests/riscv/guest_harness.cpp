// guest_harness.cpp: tests/support/harness.h for the riscv64 guest (no OpenSSL there; the
// OpenSSL answers come from the host, answers.h). The backends under test: portable, the kernels
// libchapoly links (rvv, scalar), the registry kernels built into the tests only, the
// tests/riscv/specs variants (rvv_l2_i0: LMUL 2, no interleave).
#include "harness.h"

namespace chapoly::test {

std::vector<const Backend *> all_backends() {
  std::vector<const Backend *> out;
  out.push_back(&chapoly::internal::portable_backend());
  size_t n = 0;
  const Backend *const *linked = chapoly::internal::kernel_backends(n);
  for (size_t i = 0; i < n; ++i) out.push_back(linked[i]);
  for (const Backend *b : test_only_backends()) out.push_back(b);
  for (const Backend *b : variant_backends()) out.push_back(b);  // tests/riscv/specs
  return out;
}

// The oracle (harness.h): the portable reference, checked in this guest against OpenSSL's
// answers computed on the host (test_riscv.cpp, OpenSslAnswers.*).
void oracle_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len, const uint8_t *aad,
                 size_t aad_len, const uint8_t nonce[12], const uint8_t key[32]) {
  chapoly::internal::portable_backend().seal(ct, tag, pt, len, aad, aad_len, nonce, key);
}

void oracle_chacha20(uint8_t *out, const uint8_t *in, size_t len, const uint8_t nonce[12],
                     const uint8_t key[32], uint32_t counter) {
  chapoly::internal::portable_backend().chacha20(out, in, len, nonce, key, counter);
}

std::vector<const Backend *> emu_backends() { return {}; }
const Backend *emu_native_counterpart(const Backend &) { return nullptr; }

std::string backend_param_name(const testing::TestParamInfo<const Backend *> &info) {
  std::string s = info.param->name;
  for (char &c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '_';
  }
  return s;
}

void BackendTest::SetUp() {
  if (const char *missing = b().missing()) {
    GTEST_SKIP() << "backend " << b().name << " cannot run here: the CPU/OS lacks " << missing;
  }
}

uint64_t Rng::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void Rng::fill(uint8_t *p, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint64_t v = next();
    for (int k = 0; k < 8 && i < n; ++k, ++i) p[i] = static_cast<uint8_t>(v >> (8 * k));
  }
}

}  // namespace chapoly::test
