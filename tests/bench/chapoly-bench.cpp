// chapoly-bench: ChaCha20-Poly1305 (RFC 8439) AEAD seal/open throughput, side by side in one
// process: chapoly (every backend this CPU runs), OpenSSL 3 EVP, libsodium and intel-ipsec-mb.
//
// Method (docs/benchmarks.md has the long form): pin to one core; check once that every
// implementation produces the same ciphertext and tag and rejects a tampered tag; warm up; then
// run interleaved rounds. A round times one batch of messages per (size, operation,
// implementation), with the implementation order rotated from round to round so that no one
// always runs first after a size change. Each cell's figure is the median over rounds, reported
// as MB/s of plaintext (1e6 bytes per second) and as the ratio chapoly / peer.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <sodium.h>
#include <intel-ipsec-mb.h>

#if CHAPOLY_BENCH_HAVE_CHAPOLY
#include <chapoly/chapoly.h>

#include "chapoly_registry.h"  // generated from the kernel registry (emitted/CMakeLists.txt)
#include "primitives.hpp"
#include "stack_positions.hpp"
#endif

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr size_t kKeyLen = 32;
constexpr size_t kNonceLen = 12;
constexpr size_t kTagLen = 16;

const std::vector<size_t> kDefaultSizes = {16, 64, 256, 1024, 8192, 16384};
const std::vector<size_t> kOptionalSizes = {1, 32, 128, 512, 1350, 4096, 65536};
// Extra lengths for the correctness check only: block and lane edges around 64 and 16.
const std::vector<size_t> kEdgeSizes = {1,  15,  16,  17,  63,  64,   65,   127,  128, 129,
                                        255, 256, 257, 511, 513, 1023, 1025, 4095, 4097};

[[noreturn]] void die(const std::string &msg) {
  std::fflush(stdout);
  std::fprintf(stderr, "chapoly-bench: error: %s\n", msg.c_str());
  std::exit(2);
}

// Deterministic filler so that runs are reproducible; the data's values do not matter for speed.
struct SplitMix64 {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  void fill(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(next() >> 56);
  }
};

// Constant-time tag comparison for peers whose API hands back the computed tag (ipsec-mb).
bool tags_equal(const uint8_t *a, const uint8_t *b) {
  uint8_t d = 0;
  for (size_t i = 0; i < kTagLen; ++i) d |= static_cast<uint8_t>(a[i] ^ b[i]);
  return d == 0;
}

// One AEAD implementation under test. `begin` runs before each batch and is not timed; `seal`
// and `open` are, once per message. Every peer pays the same virtual call.
class Aead {
 public:
  explicit Aead(std::string name, bool is_chapoly) : name_(std::move(name)), chapoly_(is_chapoly) {}
  virtual ~Aead() = default;
  const std::string &name() const { return name_; }
  bool is_chapoly() const { return chapoly_; }
  virtual std::string detail() const = 0;
  virtual void begin(size_t /*size*/) {}
  // Returns false if the library reported an error.
  virtual bool seal(uint8_t *ct, uint8_t *tag, const uint8_t *pt, size_t len, const uint8_t *aad,
                    size_t aad_len, const uint8_t *nonce, const uint8_t *key) = 0;
  // Returns true if the tag verified.
  virtual bool open(uint8_t *pt, const uint8_t *ct, size_t len, const uint8_t *tag,
                    const uint8_t *aad, size_t aad_len, const uint8_t *nonce,
                    const uint8_t *key) = 0;

 private:
  std::string name_;
  bool chapoly_;
};

#if CHAPOLY_BENCH_HAVE_CHAPOLY
// chapoly through its public C API, one instance per backend; the backend is forced before each
// batch (outside the timed region).
class ChapolyAead final : public Aead {
 public:
  explicit ChapolyAead(std::string backend)
      : Aead("chapoly-" + backend, true), backend_(std::move(backend)) {}
  static bool available(const std::string &backend) {
    return chapoly_select_backend(backend.c_str()) == CHAPOLY_OK;
  }
  std::string detail() const override {
    return fmt::format("libchapoly {} (chapoly_select_backend(\"{}\"))", chapoly_version(), backend_);
  }
  void begin(size_t) override {
    if (chapoly_select_backend(backend_.c_str()) != CHAPOLY_OK)
      die("chapoly_select_backend(\"" + backend_ + "\") failed after it had succeeded");
  }
  bool seal(uint8_t *ct, uint8_t *tag, const uint8_t *pt, size_t len, const uint8_t *aad,
            size_t aad_len, const uint8_t *nonce, const uint8_t *key) override {
    return chapoly_seal(ct, tag, pt, len, aad, aad_len, nonce, key) == CHAPOLY_OK;
  }
  bool open(uint8_t *pt, const uint8_t *ct, size_t len, const uint8_t *tag, const uint8_t *aad,
            size_t aad_len, const uint8_t *nonce, const uint8_t *key) override {
    return chapoly_open(pt, ct, len, tag, aad, aad_len, nonce, key) == CHAPOLY_OK;
  }

 private:
  std::string backend_;
};
#endif

// OpenSSL 3 EVP. Like a TLS stack, one EVP_CIPHER_CTX per direction is set up with the cipher
// once (here: once per message size) and then re-keyed with key and nonce for every message.
class OpensslAead final : public Aead {
 public:
  OpensslAead() : Aead("openssl", false) {
    cipher_ = EVP_CIPHER_fetch(nullptr, "ChaCha20-Poly1305", nullptr);
    if (!cipher_) die("OpenSSL: EVP_CIPHER_fetch(ChaCha20-Poly1305) failed");
  }
  ~OpensslAead() override {
    for (auto &[size, c] : ctx_) {
      EVP_CIPHER_CTX_free(c.enc);
      EVP_CIPHER_CTX_free(c.dec);
    }
    EVP_CIPHER_free(cipher_);
  }
  std::string detail() const override {
    return fmt::format("{} (EVP ChaCha20-Poly1305, default provider)", OpenSSL_version(OPENSSL_VERSION));
  }
  void begin(size_t size) override {
    auto it = ctx_.find(size);
    if (it == ctx_.end()) {
      Ctx c{EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_new()};
      if (!c.enc || !c.dec || EVP_EncryptInit_ex(c.enc, cipher_, nullptr, nullptr, nullptr) != 1 ||
          EVP_DecryptInit_ex(c.dec, cipher_, nullptr, nullptr, nullptr) != 1)
        die("OpenSSL: EVP_CIPHER_CTX setup failed");
      it = ctx_.emplace(size, c).first;
    }
    cur_ = it->second;
  }
  bool seal(uint8_t *ct, uint8_t *tag, const uint8_t *pt, size_t len, const uint8_t *aad,
            size_t aad_len, const uint8_t *nonce, const uint8_t *key) override {
    int n = 0, fin = 0;
    return EVP_EncryptInit_ex(cur_.enc, nullptr, nullptr, key, nonce) == 1 &&
           EVP_EncryptUpdate(cur_.enc, nullptr, &n, aad, static_cast<int>(aad_len)) == 1 &&
           EVP_EncryptUpdate(cur_.enc, ct, &n, pt, static_cast<int>(len)) == 1 &&
           EVP_EncryptFinal_ex(cur_.enc, ct + n, &fin) == 1 &&
           EVP_CIPHER_CTX_ctrl(cur_.enc, EVP_CTRL_AEAD_GET_TAG, kTagLen, tag) == 1;
  }
  bool open(uint8_t *pt, const uint8_t *ct, size_t len, const uint8_t *tag, const uint8_t *aad,
            size_t aad_len, const uint8_t *nonce, const uint8_t *key) override {
    int n = 0, fin = 0;
    return EVP_DecryptInit_ex(cur_.dec, nullptr, nullptr, key, nonce) == 1 &&
           EVP_DecryptUpdate(cur_.dec, nullptr, &n, aad, static_cast<int>(aad_len)) == 1 &&
           EVP_DecryptUpdate(cur_.dec, pt, &n, ct, static_cast<int>(len)) == 1 &&
           EVP_CIPHER_CTX_ctrl(cur_.dec, EVP_CTRL_AEAD_SET_TAG, kTagLen,
                               const_cast<uint8_t *>(tag)) == 1 &&
           EVP_DecryptFinal_ex(cur_.dec, pt + n, &fin) == 1;
  }

 private:
  struct Ctx {
    EVP_CIPHER_CTX *enc = nullptr;
    EVP_CIPHER_CTX *dec = nullptr;
  };
  EVP_CIPHER *cipher_ = nullptr;
  std::map<size_t, Ctx> ctx_;
  Ctx cur_;
};

// libsodium's IETF variant (96-bit nonce, 32-bit counter), detached tag.
class SodiumAead final : public Aead {
 public:
  SodiumAead() : Aead("libsodium", false) {
    if (sodium_init() < 0) die("libsodium: sodium_init failed");
  }
  std::string detail() const override {
    return fmt::format("libsodium {} (crypto_aead_chacha20poly1305_ietf_*_detached)",
                       sodium_version_string());
  }
  bool seal(uint8_t *ct, uint8_t *tag, const uint8_t *pt, size_t len, const uint8_t *aad,
            size_t aad_len, const uint8_t *nonce, const uint8_t *key) override {
    unsigned long long maclen = 0;
    return crypto_aead_chacha20poly1305_ietf_encrypt_detached(ct, tag, &maclen, pt, len, aad,
                                                              aad_len, nullptr, nonce, key) == 0;
  }
  bool open(uint8_t *pt, const uint8_t *ct, size_t len, const uint8_t *tag, const uint8_t *aad,
            size_t aad_len, const uint8_t *nonce, const uint8_t *key) override {
    return crypto_aead_chacha20poly1305_ietf_decrypt_detached(pt, nullptr, ct, len, tag, aad,
                                                              aad_len, nonce, key) == 0;
  }
};

// intel-ipsec-mb through its job API: one IMB_MGR (init_mb_mgr_auto picks the widest code path
// the CPU runs; with avx2 = true, init_mb_mgr_avx2 holds it to its AVX2 code path, which
// needs AVX2 and is what a CPU without AVX-512 gets), one job per message, submitted and collected at once. On open the library
// returns the computed tag; the comparison is ours (constant time), as in the chapoly kernels.
class IpsecMbAead final : public Aead {
 public:
  explicit IpsecMbAead(bool avx2) : Aead("ipsec-mb", false) {
    mgr_ = alloc_mb_mgr(0);
    if (!mgr_) die("intel-ipsec-mb: alloc_mb_mgr failed");
    if (avx2) {
      init_mb_mgr_avx2(mgr_);
      arch_ = IMB_ARCH_AVX2;
    } else {
      init_mb_mgr_auto(mgr_, &arch_);
    }
    if (imb_get_errno(mgr_) != 0)
      die(fmt::format("intel-ipsec-mb: manager initialisation failed: {}",
                      imb_get_strerror(imb_get_errno(mgr_))));
  }
  ~IpsecMbAead() override { free_mb_mgr(mgr_); }
  std::string detail() const override {
    static const char *const kArch[] = {"none", "no-aesni", "sse", "avx", "avx2", "avx512"};
    const char *arch = arch_ < IMB_ARCH_NUM ? kArch[arch_] : "?";
    return fmt::format("intel-ipsec-mb {} (job API, arch {})", imb_get_version_str(), arch);
  }
  bool seal(uint8_t *ct, uint8_t *tag, const uint8_t *pt, size_t len, const uint8_t *aad,
            size_t aad_len, const uint8_t *nonce, const uint8_t *key) override {
    return run(IMB_DIR_ENCRYPT, ct, tag, pt, len, aad, aad_len, nonce, key);
  }
  bool open(uint8_t *pt, const uint8_t *ct, size_t len, const uint8_t *tag, const uint8_t *aad,
            size_t aad_len, const uint8_t *nonce, const uint8_t *key) override {
    alignas(16) uint8_t computed[kTagLen];
    if (!run(IMB_DIR_DECRYPT, pt, computed, ct, len, aad, aad_len, nonce, key)) return false;
    if (tags_equal(computed, tag)) return true;
    std::memset(pt, 0, len);
    return false;
  }

 private:
  bool run(IMB_CIPHER_DIRECTION dir, uint8_t *dst, uint8_t *tag, const uint8_t *src, size_t len,
           const uint8_t *aad, size_t aad_len, const uint8_t *nonce, const uint8_t *key) {
    IMB_JOB *job = IMB_GET_NEXT_JOB(mgr_);
    job->cipher_mode = IMB_CIPHER_CHACHA20_POLY1305;
    job->hash_alg = IMB_AUTH_CHACHA20_POLY1305;
    job->cipher_direction = dir;
    job->chain_order = dir == IMB_DIR_ENCRYPT ? IMB_ORDER_CIPHER_HASH : IMB_ORDER_HASH_CIPHER;
    job->enc_keys = key;
    job->dec_keys = key;
    job->key_len_in_bytes = kKeyLen;
    job->src = src;
    job->dst = dst;
    job->cipher_start_src_offset_in_bytes = 0;
    job->msg_len_to_cipher_in_bytes = len;
    job->hash_start_src_offset_in_bytes = 0;
    job->msg_len_to_hash_in_bytes = len;
    job->iv = nonce;
    job->iv_len_in_bytes = kNonceLen;
    job->auth_tag_output = tag;
    job->auth_tag_output_len_in_bytes = kTagLen;
    job->u.CHACHA20_POLY1305.aad = aad;
    job->u.CHACHA20_POLY1305.aad_len_in_bytes = aad_len;
    job = IMB_SUBMIT_JOB(mgr_);
    while (!job) job = IMB_FLUSH_JOB(mgr_);
    return job->status == IMB_STATUS_COMPLETED;
  }

  IMB_MGR *mgr_ = nullptr;
  IMB_ARCH arch_ = IMB_ARCH_NONE;
};

std::string hex(const uint8_t *p, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += fmt::format("{:02x}", p[i]);
  return s;
}

std::string first_difference(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return fmt::format("byte {}: {:02x} vs {:02x}", i, a[i], b[i]);
  return "none";
}

// Before any timing: on the benchmark sizes and on block edges, every implementation's ct||tag
// must equal the first implementation's, every implementation must open the reference message,
// and every implementation must reject it with one tag bit flipped (and with one ciphertext bit
// flipped). Any disagreement ends the run with exit status 2.
void check_agreement(const std::vector<std::unique_ptr<Aead>> &impls, std::vector<size_t> sizes,
                     size_t aad_len) {
  sizes.insert(sizes.end(), kEdgeSizes.begin(), kEdgeSizes.end());
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  SplitMix64 rng{0x63686170'6f6c7921ULL};
  const Aead &ref_impl = *impls.front();
  for (size_t len : sizes) {
    std::vector<uint8_t> key(kKeyLen), nonce(kNonceLen), aad(std::max<size_t>(aad_len, 1)),
        pt(len);
    rng.fill(key.data(), key.size());
    rng.fill(nonce.data(), nonce.size());
    rng.fill(aad.data(), aad.size());
    rng.fill(pt.data(), pt.size());
    std::vector<uint8_t> ref(len + kTagLen);
    for (size_t i = 0; i < impls.size(); ++i) {
      Aead &a = *impls[i];
      a.begin(len);
      std::vector<uint8_t> out(len + kTagLen, 0xa5);
      if (!a.seal(out.data(), out.data() + len, pt.data(), len, aad.data(), aad_len, nonce.data(),
                  key.data()))
        die(fmt::format("{}: seal failed (len {}, aad {})", a.name(), len, aad_len));
      if (i == 0) {
        ref = out;
      } else if (out != ref) {
        die(fmt::format("{} and {} disagree on seal (len {}, aad {}): first difference at {}\n"
                        "  key {}\n  nonce {}\n  {} tag {}\n  {} tag {}",
                        ref_impl.name(), a.name(), len, aad_len, first_difference(ref, out),
                        hex(key.data(), kKeyLen), hex(nonce.data(), kNonceLen), ref_impl.name(),
                        hex(ref.data() + len, kTagLen), a.name(), hex(out.data() + len, kTagLen)));
      }
    }
    for (auto &ap : impls) {
      Aead &a = *ap;
      a.begin(len);
      std::vector<uint8_t> back(len, 0x5a);
      if (!a.open(back.data(), ref.data(), len, ref.data() + len, aad.data(), aad_len,
                  nonce.data(), key.data()))
        die(fmt::format("{}: open rejected {}'s valid message (len {}, aad {})", a.name(),
                        ref_impl.name(), len, aad_len));
      if (back != pt)
        die(fmt::format("{}: open returned the wrong plaintext (len {}, aad {})", a.name(), len,
                        aad_len));
      std::vector<uint8_t> bad = ref;
      bad[len + (len % kTagLen)] ^= 0x01;  // one tag bit
      if (a.open(back.data(), bad.data(), len, bad.data() + len, aad.data(), aad_len,
                 nonce.data(), key.data()))
        die(fmt::format("{}: open accepted a tampered tag (len {})", a.name(), len));
      bad = ref;
      bad[len / 2] ^= 0x80;  // one ciphertext bit
      if (a.open(back.data(), bad.data(), len, bad.data() + len, aad.data(), aad_len,
                 nonce.data(), key.data()))
        die(fmt::format("{}: open accepted a tampered ciphertext (len {})", a.name(), len));
    }
  }
  fmt::print("correctness: {} implementations agree on ct||tag at {} lengths (AAD {} bytes), "
             "all reject a flipped tag or ciphertext bit\n",
             impls.size(), sizes.size(), aad_len);
}

enum Op { kSeal = 0, kOpen = 1 };
const char *const kOpName[] = {"seal", "open"};

struct Config {
  std::vector<size_t> sizes;
  size_t aad_len = 13;
  int cpu = -1;
  int rounds = 0;
  int warmup_rounds = 0;
  double batch_ms = 0;  // target duration of one batch; message counts are calibrated to it
  bool quick = false;
};

// Buffers for one message size: the plaintext, a sealed reference message for open, outputs.
struct SizeData {
  size_t len = 0;
  std::vector<uint8_t> key, nonce, aad, pt, ct, tag, out, out_tag;
};

// Times one batch and returns nanoseconds. Seal uses a fresh nonce per message (a record
// sequence number in the last 8 bytes, as TLS does); open decrypts the same valid message, so
// every open verifies. A failure aborts: a benchmark of a failing call is meaningless.
double time_batch(Aead &a, Op op, SizeData &d, size_t aad_len, size_t msgs) {
  a.begin(d.len);
  uint8_t nonce[kNonceLen];
  std::memcpy(nonce, d.nonce.data(), kNonceLen);
  size_t failures = 0;
  auto t0 = std::chrono::steady_clock::now();
  if (op == kSeal) {
    for (size_t i = 0; i < msgs; ++i) {
      uint64_t seq = i;
      std::memcpy(nonce + 4, &seq, sizeof seq);
      failures += !a.seal(d.out.data(), d.out_tag.data(), d.pt.data(), d.len, d.aad.data(),
                          aad_len, nonce, d.key.data());
    }
  } else {
    for (size_t i = 0; i < msgs; ++i)
      failures += !a.open(d.out.data(), d.ct.data(), d.len, d.tag.data(), d.aad.data(), aad_len,
                          d.nonce.data(), d.key.data());
  }
  auto t1 = std::chrono::steady_clock::now();
  if (failures)
    die(fmt::format("{}: {} of {} {} calls failed during timing (len {})", a.name(), failures,
                    msgs, kOpName[op], d.len));
  return std::chrono::duration<double, std::nano>(t1 - t0).count();
}

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  double pos = q * static_cast<double>(v.size() - 1);
  size_t lo = static_cast<size_t>(pos);
  size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

struct Stats {
  double mbps_median, mbps_p25, mbps_p75, ns_per_msg;
};

Stats stats_of(const std::vector<double> &ns, size_t msgs, size_t len) {
  // Throughput is bytes / time, so the time quartiles swap places.
  double bytes = static_cast<double>(msgs) * static_cast<double>(len);
  double med = quantile(ns, 0.5), q1 = quantile(ns, 0.25), q3 = quantile(ns, 0.75);
  return {bytes / med * 1e3, bytes / q3 * 1e3, bytes / q1 * 1e3, med / static_cast<double>(msgs)};
}

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0) {
      auto p = line.find(':');
      if (p != std::string::npos) return line.substr(line.find_first_not_of(" \t", p + 1));
    }
  return "unknown";
}

std::string kernel_release() {
  utsname u{};
  return uname(&u) == 0 ? fmt::format("{} {}", u.sysname, u.release) : "unknown";
}

int pin_to_cpu(int want) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) die("sched_getaffinity failed");
  if (want < 0) {  // default: the highest-numbered CPU we may run on
    for (int c = CPU_SETSIZE - 1; c >= 0; --c)
      if (CPU_ISSET(c, &allowed)) {
        want = c;
        break;
      }
  }
  if (want < 0 || want >= CPU_SETSIZE || !CPU_ISSET(want, &allowed))
    die(fmt::format("--cpu {}: not in this process's allowed CPU set", want));
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(want, &one);
  if (sched_setaffinity(0, sizeof one, &one) != 0)
    die(fmt::format("sched_setaffinity(cpu {}) failed: {}", want, std::strerror(errno)));
  return want;
}

std::vector<size_t> parse_sizes(const std::vector<std::string> &args) {
  std::vector<size_t> out;
  for (const std::string &a : args) {
    if (a == "default") {
      out.insert(out.end(), kDefaultSizes.begin(), kDefaultSizes.end());
    } else if (a == "all") {
      out.insert(out.end(), kDefaultSizes.begin(), kDefaultSizes.end());
      out.insert(out.end(), kOptionalSizes.begin(), kOptionalSizes.end());
    } else {
      size_t pos = 0;
      unsigned long long v = 0;
      try {
        v = std::stoull(a, &pos);
      } catch (const std::exception &) {
        pos = 0;
      }
      if (pos != a.size() || v == 0 || v > (1u << 24))
        die(fmt::format("--sizes: '{}' is not a length in 1..16777216, 'default' or 'all'", a));
      out.push_back(static_cast<size_t>(v));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

int main(int argc, char **argv) {
  CLI::App app{"chapoly-bench: ChaCha20-Poly1305 AEAD throughput, chapoly against OpenSSL, "
               "libsodium and intel-ipsec-mb, side by side in one process"};
  Config cfg;
  std::vector<std::string> size_args = {"default"};
  std::vector<std::string> only;
  std::string json_path, md_path, ipsec_arch = "auto";
  int rounds = -1;
  double batch_ms = -1;
  app.set_version_flag("--version", std::string("chapoly-bench (libchapoly ") + chapoly_version() + ")");
  app.add_option("--sizes", size_args,
                 "message lengths in bytes, comma separated; 'default' = 16,64,256,1024,8192,"
                 "16384, 'all' adds 1,32,128,512,1350,4096,65536")
      ->delimiter(',');
  app.add_option("--aad", cfg.aad_len, "associated data length in bytes (TLS 1.2 uses 13)")
      ->check(CLI::Range(0, 1 << 20));
  app.add_option("--cpu", cfg.cpu, "CPU to pin to (default: the highest-numbered allowed CPU)");
  app.add_option("--rounds", rounds, "timed rounds (default 201, --quick 61)")
      ->check(CLI::Range(1, 100000));
  app.add_option("--batch-ms", batch_ms,
                 "target milliseconds per timed batch; the message count per size and "
                 "implementation is calibrated once (default 2, --quick 1)")
      ->check(CLI::Range(0.01, 1000.0));
  app.add_option("--only", only,
                 "run only these implementations, comma separated (chapoly-avx512, "
                 "chapoly-portable, openssl, libsodium, ipsec-mb)")
      ->delimiter(',');
  app.add_option("--ipsec-mb-arch", ipsec_arch,
                 "intel-ipsec-mb code path: 'auto' (the widest the CPU runs) or 'avx2' "
                 "(init_mb_mgr_avx2: its AVX2 path, for comparing AVX2 kernels)")
      ->check(CLI::IsMember({"auto", "avx2"}));
  app.add_flag("--quick", cfg.quick, "fewer rounds and smaller batches (about 10 s)");
  app.add_option("--json", json_path, "also write the results as JSON to this file");
  app.add_option("--markdown", md_path, "also write the results as Markdown tables to this file");
  bool stack_positions = false;
  app.add_flag("--stack-positions", stack_positions,
               "also time every chapoly backend's seal from 256 caller stack positions (16-byte steps over 4 KiB) at each size, "
               "as ratios to position 0, interleaved (docs/benchmarks.md, \"Where the kernel's stack lies\")");
  bool primitives = false;
  app.add_flag("--primitives", primitives,
               "also time every chapoly backend's AEAD, ChaCha20-only and Poly1305-only kernels in TSC "
               "cycles per byte, with the two-pass bound and this CPU's floor (micro-benchmarks)");
  CLI11_PARSE(app, argc, argv);

  cfg.sizes = parse_sizes(size_args);
  cfg.rounds = rounds > 0 ? rounds : (cfg.quick ? 61 : 201);
  cfg.warmup_rounds = cfg.quick ? 2 : 5;
  cfg.batch_ms = batch_ms > 0 ? batch_ms : (cfg.quick ? 1.0 : 2.0);
  cfg.cpu = pin_to_cpu(cfg.cpu);

  // Implementations, chapoly first: the first one is the reference for the agreement check and
  // the first chapoly one is the numerator of the ratios.
  std::vector<std::unique_ptr<Aead>> all;
#if CHAPOLY_BENCH_HAVE_CHAPOLY
  static const char *const kBackends[] = {
#define CHAPOLY_BENCH_NAME(name, needs, why_not) name,
      CHAPOLY_REGISTRY(CHAPOLY_BENCH_NAME)
#undef CHAPOLY_BENCH_NAME
  };
  for (const char *b : kBackends) {
    if (ChapolyAead::available(b))
      all.push_back(std::make_unique<ChapolyAead>(b));
    else
      fmt::print("note: chapoly backend '{}' is not supported on this CPU or build; skipped\n", b);
  }
  chapoly_select_backend("auto");
#endif
  all.push_back(std::make_unique<OpensslAead>());
  all.push_back(std::make_unique<SodiumAead>());
  all.push_back(std::make_unique<IpsecMbAead>(ipsec_arch == "avx2"));
  std::vector<std::unique_ptr<Aead>> impls;
  for (auto &a : all)
    if (only.empty() || std::find(only.begin(), only.end(), a->name()) != only.end())
      impls.push_back(std::move(a));
  for (const std::string &o : only)
    if (std::none_of(impls.begin(), impls.end(), [&](auto &a) { return a->name() == o; }))
      die(fmt::format("--only: no implementation named '{}' in this build", o));
  if (impls.empty()) die("no implementation to run");

  fmt::print("chapoly-bench: {} on CPU {} ({}), AAD {} bytes, {} rounds + {} warm-up\n",
             cpu_model(), cfg.cpu, kernel_release(), cfg.aad_len, cfg.rounds, cfg.warmup_rounds);
  for (auto &a : impls) fmt::print("  {:<17} {}\n", a->name(), a->detail());

  check_agreement(impls, cfg.sizes, cfg.aad_len);

  // Per-size inputs, and a reference message for open made by the first implementation.
  SplitMix64 rng{0x62656e63'68303031ULL};
  std::vector<SizeData> data(cfg.sizes.size());
  for (size_t s = 0; s < cfg.sizes.size(); ++s) {
    SizeData &d = data[s];
    d.len = cfg.sizes[s];
    d.key.resize(kKeyLen);
    d.nonce.resize(kNonceLen);
    d.aad.resize(std::max<size_t>(cfg.aad_len, 1));
    d.pt.resize(d.len);
    d.ct.resize(d.len);
    d.out.resize(d.len);
    d.tag.resize(kTagLen);
    d.out_tag.resize(kTagLen);
    rng.fill(d.key.data(), kKeyLen);
    rng.fill(d.nonce.data(), kNonceLen);
    rng.fill(d.aad.data(), d.aad.size());
    rng.fill(d.pt.data(), d.len);
    impls.front()->begin(d.len);
    if (!impls.front()->seal(d.ct.data(), d.tag.data(), d.pt.data(), d.len, d.aad.data(),
                             cfg.aad_len, d.nonce.data(), d.key.data()))
      die("reference seal failed");
  }

  // Calibrate the batch length per size and implementation: each one seals and opens a pilot
  // batch (best of 3), and gets the message count that makes its batch last about --batch-ms.
  // Every batch is then equally long in time, so a slow implementation (the portable
  // reference) neither dominates the run time nor gets batches too short to time well.
  const size_t n_impl = impls.size();
  std::vector<std::vector<size_t>> msgs(cfg.sizes.size(), std::vector<size_t>(n_impl));
  for (size_t s = 0; s < cfg.sizes.size(); ++s) {
    const size_t pilot = std::max<size_t>(8, (64u << 10) / cfg.sizes[s]);
    for (size_t i = 0; i < n_impl; ++i) {
      double log_sum = 0;
      for (int op : {kSeal, kOpen}) {
        double best = 1e300;
        for (int rep = 0; rep < 3; ++rep)
          best = std::min(best, time_batch(*impls[i], static_cast<Op>(op), data[s], cfg.aad_len, pilot));
        log_sum += std::log(best / static_cast<double>(pilot));
      }
      const double ns_per_msg = std::exp(log_sum / 2);
      msgs[s][i] = std::max<size_t>(16, static_cast<size_t>(cfg.batch_ms * 1e6 / ns_per_msg));
    }
  }

  // ns[op][size][impl]: batch times, one per timed round.
  std::vector<std::vector<std::vector<std::vector<double>>>> ns(
      2, std::vector<std::vector<std::vector<double>>>(
             cfg.sizes.size(), std::vector<std::vector<double>>(n_impl)));
  auto start = std::chrono::steady_clock::now();
  for (int r = -cfg.warmup_rounds; r < cfg.rounds; ++r) {
    for (size_t s = 0; s < cfg.sizes.size(); ++s) {
      for (int op : {kSeal, kOpen}) {
        for (size_t k = 0; k < n_impl; ++k) {
          // Rotate the order by round (and by size and op) so no implementation always runs first.
          size_t i = (k + static_cast<size_t>(r + cfg.warmup_rounds) + s + op) % n_impl;
          double t = time_batch(*impls[i], static_cast<Op>(op), data[s], cfg.aad_len, msgs[s][i]);
          if (r >= 0) ns[op][s][i].push_back(t);
        }
      }
    }
  }
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // Results.
  std::vector<size_t> peers;
  std::optional<size_t> primary;
  for (size_t i = 0; i < n_impl; ++i) {
    if (impls[i]->is_chapoly()) {
      if (!primary) primary = i;
    } else {
      peers.push_back(i);
    }
  }

  nlohmann::json j;
  j["tool"] = "chapoly-bench";
  j["unit"] = "MB/s = 1e6 bytes of plaintext per second";
  j["machine"] = {{"cpu_model", cpu_model()}, {"pinned_cpu", cfg.cpu}, {"kernel", kernel_release()}};
  j["config"] = {{"aad_len", cfg.aad_len},     {"rounds", cfg.rounds},
                 {"warmup_rounds", cfg.warmup_rounds}, {"batch_ms_target", cfg.batch_ms},
                 {"sizes", cfg.sizes},
                 {"statistic", "median over rounds; p25/p75 give the spread"}};
  j["implementations"] = nlohmann::json::array();
  for (auto &a : impls)
    j["implementations"].push_back({{"name", a->name()}, {"detail", a->detail()}});
  j["results"] = nlohmann::json::array();
  j["ratios"] = nlohmann::json::array();

  std::string md;
  md += fmt::format("CPU: {} (pinned to CPU {}), AAD {} bytes, median of {} rounds, MB/s = 1e6 "
                    "bytes of plaintext per second.\n\n",
                    cpu_model(), cfg.cpu, cfg.aad_len, cfg.rounds);

  double worst_spread = 0;
  std::string worst_cell;
  for (int op : {kSeal, kOpen}) {
    // Console table.
    std::string head = fmt::format("{:>7}", "bytes");
    std::string mdhead = "| bytes |", mdrule = "|---:|";
    for (auto &a : impls) {
      head += fmt::format(" {:>17}", a->name());
      mdhead += fmt::format(" {} |", a->name());
      mdrule += "---:|";
    }
    if (primary)
      for (size_t p : peers) {
        std::string h = fmt::format("/{}", impls[p]->name());
        head += fmt::format(" {:>10}", h);
        mdhead += fmt::format(" {} / {} |", impls[*primary]->name(), impls[p]->name());
        mdrule += "---:|";
      }
    fmt::print("\n{} (MB/s, median of {} rounds{})\n{}\n", kOpName[op], cfg.rounds,
               primary ? fmt::format("; ratios = {} / peer", impls[*primary]->name()) : "", head);
    md += fmt::format("### {}\n\n{}\n{}\n", kOpName[op], mdhead, mdrule);
    for (size_t s = 0; s < cfg.sizes.size(); ++s) {
      const size_t len = cfg.sizes[s];
      std::vector<Stats> st(n_impl);
      std::string row = fmt::format("{:>7}", len), mdrow = fmt::format("| {} |", len);
      for (size_t i = 0; i < n_impl; ++i) {
        st[i] = stats_of(ns[op][s][i], msgs[s][i], len);
        row += fmt::format(" {:>17.1f}", st[i].mbps_median);
        mdrow += fmt::format(" {:.1f} |", st[i].mbps_median);
        double spread = (st[i].mbps_p75 - st[i].mbps_p25) / st[i].mbps_median;
        if (spread > worst_spread) {
          worst_spread = spread;
          worst_cell = fmt::format("{} {} {} B", impls[i]->name(), kOpName[op], len);
        }
        j["results"].push_back({{"op", kOpName[op]},
                                {"size", len},
                                {"impl", impls[i]->name()},
                                {"msgs_per_batch", msgs[s][i]},
                                {"mbps_median", st[i].mbps_median},
                                {"mbps_p25", st[i].mbps_p25},
                                {"mbps_p75", st[i].mbps_p75},
                                {"ns_per_msg_median", st[i].ns_per_msg}});
      }
      if (primary)
        for (size_t p : peers) {
          double ratio = st[*primary].mbps_median / st[p].mbps_median;
          row += fmt::format(" {:>10.2f}", ratio);
          mdrow += fmt::format(" {:.2f} |", ratio);
          j["ratios"].push_back({{"op", kOpName[op]},
                                 {"size", len},
                                 {"chapoly", impls[*primary]->name()},
                                 {"peer", impls[p]->name()},
                                 {"ratio", ratio}});
        }
      fmt::print("{}\n", row);
      md += mdrow + "\n";
    }
    md += "\n";
  }
  fmt::print("\nspread: widest interquartile range {:.1f}% of the median ({}); {:.1f} s timed\n",
             100 * worst_spread, worst_cell, elapsed);
  j["elapsed_s"] = elapsed;
#if CHAPOLY_BENCH_HAVE_CHAPOLY
  if (primitives) {
    j["primitives"] = chapoly::bench::run_primitives(cfg.sizes, cfg.aad_len, std::min(cfg.rounds, 31), cfg.batch_ms);
    // Every cell of the main table in TSC cycles per byte too (labelled: TSC ticks, not core cycles).
    const double ghz = j["primitives"]["tsc_ghz"].get<double>();
    for (auto &r : j["results"]) r["tsc_cycles_per_byte"] = ghz * 1e3 / r["mbps_median"].get<double>();
  }
  if (stack_positions) j["stack_positions"] = chapoly::bench::run_stack_positions(cfg.sizes, cfg.aad_len, cfg.quick ? 5 : 11);
#else
  if (primitives) die("--primitives needs libchapoly (this build compares the peers only)");
  if (stack_positions) die("--stack-positions needs libchapoly (this build compares the peers only)");
#endif

  if (!json_path.empty()) {
    std::ofstream f(json_path);
    f << j.dump(2) << "\n";
    if (!f) die("cannot write " + json_path);
  }
  if (!md_path.empty()) {
    std::ofstream f(md_path);
    f << md;
    if (!f) die("cannot write " + md_path);
  }
  return 0;
}
