// test_riscv.cpp: the riscv64 suite run under qemu-riscv64 at VLEN 128..1024 (and with V off):
// the OpenSSL cross-check from host-computed answers (answers.h), the Poly1305 port checks a new
// architecture's kernels get (every length to 4096, split points, guard pages, overlap and in
// place, every alignment 0..63, wiping after final), and the dispatch (rvv when the kernel reports
// V in AT_HWCAP, else scalar). The RFC 8439, BoringSSL and edge-case vectors (including the all-ones
// MAC-of-MACs and the reductions at and above 2^130 - 5) come from tests/test_vectors.cpp and
// tests/test_rfc8439.cpp, compiled into the same program.
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chapoly/chapoly.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "answers.h"
#include "support/harness.h"

namespace chapoly::test {
namespace {

using chapoly::internal::open_with;
using chapoly::internal::seal_with;
using namespace chapoly::riscv_answers;

// --- OpenSSL answers ------------------------------------------------------------------------------

struct Answers {
  std::vector<std::vector<std::string>> aead, poly, chacha;
};

// Reads the file named by CHAPOLY_RISCV_ANSWERS (set by ctest: the riscv.answers fixture).
const Answers &answers() {
  static const Answers a = [] {
    Answers r;
    const char *path = std::getenv("CHAPOLY_RISCV_ANSWERS");
    if (!path) return r;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream ls(line);
      std::vector<std::string> f;
      for (std::string w; ls >> w;) f.push_back(w);
      if (f[0] == "aead") r.aead.push_back(f);
      else if (f[0] == "poly") r.poly.push_back(f);
      else if (f[0] == "chacha") r.chacha.push_back(f);
    }
    return r;
  }();
  return a;
}

std::string hex64(uint64_t x) {
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(x));
  return b;
}

class OpenSslAnswers : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped()) return;
    ASSERT_NE(std::getenv("CHAPOLY_RISCV_ANSWERS"), nullptr)
        << "CHAPOLY_RISCV_ANSWERS is not set: run through ctest (fixture riscv.answers)";
    ASSERT_FALSE(answers().aead.empty()) << "no answers read from " << std::getenv("CHAPOLY_RISCV_ANSWERS");
  }
};

TEST_P(OpenSslAnswers, AeadSealAndOpen) {
  ASSERT_EQ(answers().aead.size(), cross_lengths().size());
  for (const auto &f : answers().aead) {
    const uint64_t seed = std::stoull(f[1]);
    const size_t len = std::stoul(f[2]), aad_len = std::stoul(f[3]);
    Inputs in(seed, len, aad_len);
    Bytes ct(len), back(len);
    uint8_t tag[16];
    ASSERT_EQ(seal_with(b(), ct.data(), tag, in.msg.data(), len, in.aad.data(), aad_len, in.nonce, in.key), CHAPOLY_OK);
    ASSERT_EQ(to_hex(tag, 16), f[4]) << "seal tag, len " << len << " aad " << aad_len;
    ASSERT_EQ(hex64(fnv1a64(ct.data(), len)), f[5]) << "ciphertext, len " << len;
    ASSERT_EQ(open_with(b(), back.data(), ct.data(), len, tag, in.aad.data(), aad_len, in.nonce, in.key), CHAPOLY_OK)
        << "open, len " << len;
    ASSERT_TRUE(back == in.msg) << "open, len " << len;
  }
}

TEST_P(OpenSslAnswers, ChaCha20) {
  ASSERT_EQ(answers().chacha.size(), cross_lengths().size());
  for (const auto &f : answers().chacha) {
    const uint64_t seed = std::stoull(f[1]);
    const size_t len = std::stoul(f[2]);
    const uint32_t counter = static_cast<uint32_t>(std::stoul(f[3]));
    Inputs in(seed, len, 0);
    Bytes out(len);
    b().chacha20(out.data(), in.msg.data(), len, in.nonce, in.key, counter);
    ASSERT_EQ(hex64(fnv1a64(out.data(), len)), f[4]) << "len " << len << " counter " << counter;
  }
}

// Every length 0..4096.
TEST_P(OpenSslAnswers, Poly1305EveryLengthTo4096) {
  ASSERT_EQ(answers().poly.size(), 4097u);
  for (const auto &f : answers().poly) {
    Inputs in(std::stoull(f[1]), std::stoul(f[2]), 0);
    uint8_t tag[16];
    b().poly1305(tag, in.msg.data(), in.msg.size(), in.key);
    ASSERT_EQ(to_hex(tag, 16), f[3]) << "len " << in.msg.size();
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, OpenSslAnswers, testing::ValuesIn(all_backends()), backend_param_name);

// --- the Poly1305 port checks ----------------------------------------------------------------------

class PortChecks : public BackendTest {};

// Reference: the portable one-shot Poly1305.
void ref_poly(uint8_t tag[16], const uint8_t *m, size_t n, const uint8_t key[32]) {
  chapoly::internal::portable_backend().poly1305(tag, m, n, key);
}

// Incremental updates at arbitrary split points (the portable streaming state, the one
// incremental Poly1305 the library has) agree with this backend's one-shot entry point.
TEST_P(PortChecks, SplitPointsAgreeWithOneShot) {
  Rng rng(0x5eed0001);
  for (size_t len : {0u, 1u, 15u, 16u, 17u, 63u, 64u, 255u, 256u, 1000u, 4096u}) {
    Bytes key = rng.bytes(32), msg = rng.bytes(len);
    uint8_t want[16];
    b().poly1305(want, msg.data(), len, key.data());
    for (int trial = 0; trial < 16; ++trial) {
      chapoly::internal::Poly1305State st;
      chapoly::internal::poly1305_init(st, key.data());
      size_t off = 0;
      while (off < len) {
        size_t n = std::min<size_t>(len - off, rng.below(trial < 8 ? 20 : 300));
        chapoly::internal::poly1305_update(st, msg.data() + off, n);
        off += n;
      }
      uint8_t got[16];
      chapoly::internal::poly1305_final(st, got);
      ASSERT_EQ(to_hex(got, 16), to_hex(want, 16)) << "len " << len << " trial " << trial;
    }
  }
}

// The state is wiped by final (the context zeroization check of the kernel port suite).
TEST(RiscvPortChecks, Poly1305StateWipedAfterFinal) {
  uint8_t key[32];
  std::memset(key, 0x5a, sizeof key);
  chapoly::internal::Poly1305State st;
  chapoly::internal::poly1305_init(st, key);
  const uint8_t msg[40] = {1, 2, 3};
  chapoly::internal::poly1305_update(st, msg, sizeof msg);
  uint8_t tag[16];
  chapoly::internal::poly1305_final(st, tag);
  const uint8_t *p = reinterpret_cast<const uint8_t *>(&st);
  for (size_t i = 0; i < sizeof st; ++i) ASSERT_EQ(p[i], 0) << "byte " << i << " of the state survived final";
}

// Three pages: PROT_NONE, read-write, PROT_NONE; data placed flush against either guard.
struct Guarded {
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  uint8_t *base = nullptr;
  Guarded() {
    void *p = mmap(nullptr, 3 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return;
    base = static_cast<uint8_t *>(p);
    if (mprotect(base + page, page, PROT_READ | PROT_WRITE) != 0) base = nullptr;
  }
  ~Guarded() {
    if (base) munmap(base, 3 * page);
  }
  uint8_t *at_start() const { return base + page; }
  uint8_t *at_end(size_t n) const { return base + 2 * page - n; }
};

TEST_P(PortChecks, GuardPagesAtBothEnds) {
  Guarded g1, g2;
  ASSERT_NE(g1.base, nullptr);
  ASSERT_NE(g2.base, nullptr);
  Rng rng(0x5eed0002);
  Bytes key = rng.bytes(32), nonce = rng.bytes(12);
  for (size_t len = 0; len <= 1100; len += (len < 300 ? 1 : 37)) {
    Bytes msg = rng.bytes(len);
    const size_t aad_len = len % 37;
    Bytes aad = rng.bytes(aad_len);
    uint8_t want_tag[16], want_ptag[16];
    Bytes want_ct(len);
    ASSERT_EQ(seal_with(chapoly::internal::portable_backend(), want_ct.data(), want_tag, msg.data(), len,
                        aad.data(), aad_len, nonce.data(), key.data()), CHAPOLY_OK);
    ref_poly(want_ptag, msg.data(), len, key.data());
    for (int end = 0; end < 2; ++end) {
      uint8_t *in = end ? g1.at_end(len) : g1.at_start();
      uint8_t *out = end ? g2.at_end(len) : g2.at_start();
      uint8_t *a = end ? g1.at_start() : g1.at_end(aad_len);  // the other end of the same page
      if (len + aad_len > g1.page) continue;
      std::memcpy(in, msg.data(), len);
      std::memcpy(a, aad.data(), aad_len);
      uint8_t tag[16];
      ASSERT_EQ(seal_with(b(), out, tag, in, len, a, aad_len, nonce.data(), key.data()), CHAPOLY_OK);
      ASSERT_EQ(0, std::memcmp(out, want_ct.data(), len)) << "len " << len << " end " << end;
      ASSERT_EQ(to_hex(tag, 16), to_hex(want_tag, 16)) << "len " << len << " end " << end;
      ASSERT_EQ(open_with(b(), in, out, len, tag, a, aad_len, nonce.data(), key.data()), CHAPOLY_OK);
      ASSERT_EQ(0, std::memcmp(in, msg.data(), len)) << "len " << len << " end " << end;
      b().poly1305(tag, in, len, key.data());
      ASSERT_EQ(to_hex(tag, 16), to_hex(want_ptag, 16)) << "poly1305 len " << len << " end " << end;
      uint8_t *k = g2.at_end(32);
      std::memcpy(k, key.data(), 32);
      b().poly1305(tag, in, len, k);
      ASSERT_EQ(to_hex(tag, 16), to_hex(want_ptag, 16)) << "poly1305, key at the guard, len " << len;
    }
  }
}

// In place (out == in) for the AEAD and ChaCha20, and Poly1305's tag written over its own message.
TEST_P(PortChecks, InPlaceAndOverlap) {
  Rng rng(0x5eed0003);
  Bytes key = rng.bytes(32), nonce = rng.bytes(12), aad = rng.bytes(20);
  for (size_t len : {0u, 1u, 63u, 64u, 65u, 127u, 128u, 200u, 511u, 512u, 1023u, 1024u, 3173u, 4096u}) {
    Bytes msg = rng.bytes(len), want(len), buf = msg;
    uint8_t want_tag[16], tag[16];
    ASSERT_EQ(seal_with(chapoly::internal::portable_backend(), want.data(), want_tag, msg.data(), len,
                        aad.data(), aad.size(), nonce.data(), key.data()), CHAPOLY_OK);
    ASSERT_EQ(seal_with(b(), buf.data(), tag, buf.data(), len, aad.data(), aad.size(), nonce.data(), key.data()),
              CHAPOLY_OK);
    ASSERT_TRUE(buf == want) << "seal in place, len " << len;
    ASSERT_EQ(to_hex(tag, 16), to_hex(want_tag, 16)) << "len " << len;
    ASSERT_EQ(open_with(b(), buf.data(), buf.data(), len, tag, aad.data(), aad.size(), nonce.data(), key.data()),
              CHAPOLY_OK);
    ASSERT_TRUE(buf == msg) << "open in place, len " << len;
    Bytes c1(len), c2 = msg;
    chapoly::internal::portable_backend().chacha20(c1.data(), msg.data(), len, nonce.data(), key.data(), 7);
    b().chacha20(c2.data(), c2.data(), len, nonce.data(), key.data(), 7);
    ASSERT_TRUE(c1 == c2) << "chacha20 in place, len " << len;
    if (len >= 16) {
      uint8_t want_p[16];
      ref_poly(want_p, msg.data(), len, key.data());
      Bytes m = msg;
      b().poly1305(m.data(), m.data(), len, key.data());  // tag over the start of its own input
      ASSERT_EQ(to_hex(m.data(), 16), to_hex(want_p, 16)) << "poly1305 tag over its input, len " << len;
    }
  }
}

// The same result at every alignment 0..63 of every buffer.
TEST_P(PortChecks, EveryAlignment0To63) {
  Rng rng(0x5eed0004);
  Bytes key = rng.bytes(32), nonce = rng.bytes(12);
  for (size_t len : {1u, 17u, 64u, 200u, 1024u + 33u}) {
    Bytes msg = rng.bytes(len), aad = rng.bytes(13), want(len);
    uint8_t want_tag[16], want_p[16];
    ASSERT_EQ(seal_with(chapoly::internal::portable_backend(), want.data(), want_tag, msg.data(), len,
                        aad.data(), aad.size(), nonce.data(), key.data()), CHAPOLY_OK);
    ref_poly(want_p, msg.data(), len, key.data());
    Bytes ibuf(len + 64), obuf(len + 64), abuf(13 + 64);
    for (size_t al = 0; al < 64; ++al) {
      uint8_t *i = ibuf.data() + al, *o = obuf.data() + (63 - al), *a = abuf.data() + ((al * 5) % 64);
      std::memcpy(i, msg.data(), len);
      std::memcpy(a, aad.data(), aad.size());
      uint8_t tag[16];
      ASSERT_EQ(seal_with(b(), o, tag, i, len, a, aad.size(), nonce.data(), key.data()), CHAPOLY_OK);
      ASSERT_EQ(0, std::memcmp(o, want.data(), len)) << "len " << len << " alignment " << al;
      ASSERT_EQ(to_hex(tag, 16), to_hex(want_tag, 16)) << "len " << len << " alignment " << al;
      b().poly1305(tag, i, len, key.data());
      ASSERT_EQ(to_hex(tag, 16), to_hex(want_p, 16)) << "poly1305 len " << len << " alignment " << al;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, PortChecks, testing::ValuesIn(all_backends()), backend_param_name);

// --- dispatch ---------------------------------------------------------------------------------------

// chapoly_backend() is rvv when the kernel reports the V extension (AT_HWCAP bit 'V' - 'A'), else
// scalar: what the tests' -cpu (v=true / v=false) asked QEMU for. rvv_mul64 is GATED (proved by the
// host build's chapoly-verify), so libchapoly links it.
TEST(RiscvDispatch, BackendFollowsHwcapV) {
  const bool v = (getauxval(AT_HWCAP) >> ('V' - 'A')) & 1;
  ASSERT_NE(chapoly::internal::linked_backend("rvv"), nullptr) << "the proved rvv backend is not in libchapoly";
  const char *want = v ? "rvv" : "scalar";
  EXPECT_STREQ(chapoly_backend(), want) << "AT_HWCAP V bit: " << v;
  const char *forced = std::getenv("CHAPOLY_RISCV_EXPECT_V");
  if (forced) EXPECT_EQ(v, std::string(forced) == "1") << "QEMU's -cpu and AT_HWCAP disagree";
}

}  // namespace
}  // namespace chapoly::test
