// tune.cpp: chapoly-tune's knob space, spec editing, processes, check and benchmark (tune.hpp).
#include "tune.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

extern char **environ;

namespace chapoly::tune {

namespace {

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// Splits a TOML value from a trailing comment: the first '#' outside a basic string.
void split_comment(const std::string &rest, std::string &value, std::string &comment) {
  bool in_str = false;
  for (size_t i = 0; i < rest.size(); ++i) {
    char c = rest[i];
    if (c == '\\' && in_str) {
      ++i;
      continue;
    }
    if (c == '"') in_str = !in_str;
    if (c == '#' && !in_str) {
      value = rest.substr(0, i);
      comment = rest.substr(i);
      return;
    }
  }
  value = rest;
  comment.clear();
}

// One parsed line: the table it is in, its key (empty if not a key line), value and comment.
struct Line {
  std::string table, key, indent, sep, value, comment;
  bool multiline_start = false;
};

const std::regex k_key_re(R"(^(\s*)([A-Za-z0-9_]+)(\s*=\s*)(.*)$)");

}  // namespace

Knobs read_knobs(const std::string &spec_text, const std::vector<std::string> &keys) {
  Knobs out;
  std::istringstream in(spec_text);
  std::string line, table;
  bool in_multi = false;
  while (std::getline(in, line)) {
    if (in_multi) {
      if (line.find("\"\"\"") != std::string::npos) in_multi = false;
      continue;
    }
    std::string t = trim(line);
    if (t.rfind("[", 0) == 0) {
      table = trim(t.substr(1, t.find(']') - 1));
      continue;
    }
    std::smatch m;
    if (!std::regex_match(line, m, k_key_re)) continue;
    std::string value, comment;
    split_comment(m[4].str(), value, comment);
    value = trim(value);
    if (value.rfind("\"\"\"", 0) == 0 && value.find("\"\"\"", 3) == std::string::npos) in_multi = true;
    std::string full = table.empty() ? m[2].str() : table + "." + m[2].str();
    if (std::find(keys.begin(), keys.end(), full) != keys.end()) out[full] = value;
  }
  return out;
}

std::string edit_spec(const std::string &spec_text, const Knobs &set, const std::string &name,
                      const std::string &rationale, const std::vector<std::string> &header) {
  std::ostringstream out;
  std::istringstream in(spec_text);
  std::string line, table;
  bool in_multi = false, skipping = false, header_done = header.empty();
  Knobs left = set;
  while (std::getline(in, line)) {
    if (in_multi) {
      if (line.find("\"\"\"") != std::string::npos) in_multi = false;
      if (!skipping) out << line << "\n";
      if (!in_multi) skipping = false;
      continue;
    }
    std::string t = trim(line);
    if (!header_done && t.rfind("#", 0) != 0) {
      for (const auto &h : header) out << h << "\n";
      header_done = true;
    }
    if (t.rfind("[", 0) == 0) {
      table = trim(t.substr(1, t.find(']') - 1));
      out << line << "\n";
      continue;
    }
    std::smatch m;
    if (!std::regex_match(line, m, k_key_re)) {
      out << line << "\n";
      continue;
    }
    std::string value, comment;
    split_comment(m[4].str(), value, comment);
    std::string v = trim(value);
    bool multi = v.rfind("\"\"\"", 0) == 0 && v.find("\"\"\"", 3) == std::string::npos;
    std::string full = table.empty() ? m[2].str() : table + "." + m[2].str();
    if (full == "name") {
      out << m[1].str() << "name" << m[3].str() << "\"" << name << "\"\n";
    } else if (full == "rationale" && !rationale.empty()) {
      out << "rationale = \"\"\"\n" << rationale << "\n\"\"\"\n";
      if (multi) {
        in_multi = true;
        skipping = true;
      }
    } else if (auto it = left.find(full); it != left.end()) {
      // A changed value gets a comment saying what it replaced (the base's comment may describe
      // the old value); an unchanged one keeps its comment.
      if (trim(value) != it->second) comment = "# chapoly-tune: " + trim(value) + " in the base spec";
      std::string pad;
      if (!comment.empty()) {
        // keep the comment in its column where the new value fits
        size_t col = value.size();
        pad = it->second.size() + 1 < col ? std::string(col - it->second.size(), ' ') : "  ";
      }
      out << m[1].str() << m[2].str() << m[3].str() << it->second << pad << comment << "\n";
      left.erase(it);
    } else {
      out << line << "\n";
      if (multi) in_multi = true;
    }
  }
  if (!left.empty())
    throw std::runtime_error(fmt::format("the base spec has no key {} to set", left.begin()->first));
  return out.str();
}

std::vector<Knob> knob_space(const std::string &isa, const Knobs &base) {
  std::vector<Knob> space;
  if (isa == "x86_64-avx512") {
    space = {{"chacha20.bulk_blocks", {"16", "8"}},
             {"chacha20.rotate", {"\"vprold\"", "\"vpshufb\""}},
             {"poly1305.lanes", {"8", "4"}},
             {"schedule.interleave", {"0", "1", "2"}},
             {"cutoffs.short_max_bytes", {"192", "448"}},
             {"poly1305.carry_chain",
              {"[\"1>2\", \"2>0\", \"0>1\"]", "[\"0>1\", \"1>2\", \"2>0\", \"0>1\"]"}}};
  } else if (isa == "x86_64-avx2") {
    space = {{"schedule.interleave", {"0", "1", "2", "3", "4"}}};
  } else if (isa == "scalar") {
    space = {{"chacha20.gpr_blocks", {"1", "2"}}};
  }
  // The base spec's value first (added when it is not one of the listed ones).
  for (auto &k : space) {
    auto b = base.find(k.key);
    if (b == base.end()) continue;
    auto it = std::find(k.values.begin(), k.values.end(), b->second);
    if (it != k.values.end()) k.values.erase(it);
    k.values.insert(k.values.begin(), b->second);
  }
  return space;
}

std::vector<Knobs> enumerate(const std::vector<Knob> &space, const Knobs &base, size_t max) {
  std::vector<std::pair<int, Knobs>> all;
  std::vector<size_t> idx(space.size(), 0);
  while (true) {
    Knobs k = base;
    int distance = 0;
    for (size_t i = 0; i < space.size(); ++i) {
      k[space[i].key] = space[i].values[idx[i]];
      if (idx[i] != 0) ++distance;
    }
    all.emplace_back(distance, k);
    size_t i = 0;
    while (i < space.size() && ++idx[i] == space[i].values.size()) idx[i++] = 0;
    if (i == space.size()) break;
  }
  std::stable_sort(all.begin(), all.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<Knobs> out;
  for (auto &p : all) {
    if (out.size() >= max) break;
    out.push_back(std::move(p.second));
  }
  return out;
}

std::string variant_id(const Knobs &k) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a 64 over "key=value\n" in key order
  for (const auto &[key, v] : k) {
    for (char c : key + "=" + v + "\n") {
      h ^= static_cast<unsigned char>(c);
      h *= 1099511628211ull;
    }
  }
  return fmt::format("tune_{:08x}", static_cast<uint32_t>(h ^ (h >> 32)));
}

volatile std::sig_atomic_t g_interrupted = 0;

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = [](int) { g_interrupted = 1; };
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking waitpid returns EINTR and kills its child
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
}

RunResult run_argv(const std::vector<std::string> &args, const std::string &log_path, double timeout_s) {
  RunResult r;
  auto t0 = std::chrono::steady_clock::now();
  std::vector<char *> argv;
  for (const auto &a : args) argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid = 0;
  int err = posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err != 0) {
    r.output = fmt::format("could not start {}: {}", args[0], std::strerror(err));
    return r;
  }
  int st = 0;
  bool killed = false, interrupted = false;
  while (true) {
    pid_t w = waitpid(pid, &st, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (g_interrupted && !interrupted) {
      kill(pid, SIGKILL);  // the tuner was told to stop: its child must not outlive it
      interrupted = true;
    }
    double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!killed && el > timeout_s) {
      kill(pid, SIGKILL);
      killed = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (interrupted) r.status = 130;
  else if (killed) r.status = 124;
  else if (WIFEXITED(st)) r.status = WEXITSTATUS(st);
  else if (WIFSIGNALED(st)) r.status = 128 + WTERMSIG(st);
  std::ifstream f(log_path, std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  r.output = all.size() > 2000 ? all.substr(all.size() - 2000) : all;
  if (killed) r.output += fmt::format("\n(killed after {:.0f} s)", timeout_s);
  return r;
}

std::string cpu_model() {
#if defined(__x86_64__)
  unsigned regs[12] = {};
  if (__get_cpuid_max(0x80000000u, nullptr) >= 0x80000004u) {
    for (unsigned i = 0; i < 3; ++i)
      __get_cpuid(0x80000002u + i, &regs[4 * i], &regs[4 * i + 1], &regs[4 * i + 2], &regs[4 * i + 3]);
    char brand[49] = {};
    std::memcpy(brand, regs, 48);
    std::string s = trim(brand);
    if (!s.empty()) return s;
  }
#endif
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) == 0 || line.rfind("uarch", 0) == 0) {
      auto c = line.find(':');
      if (c != std::string::npos) return trim(line.substr(c + 1));
    }
  }
  return "unknown-cpu";
}

std::string cpu_signature() {
#if defined(__x86_64__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return "";
  unsigned family = (a >> 8) & 0xf, model = (a >> 4) & 0xf;
  if (family == 0xf) family += (a >> 20) & 0xff;
  if (family == 0x6 || family >= 0xf) model |= ((a >> 16) & 0xf) << 4;
  return fmt::format("fam{:x}h-model{:x}h", family, model);
#else
  return "";
#endif
}

std::string file_safe(const std::string &s) {
  std::string out;
  for (char c : s) {
    char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if ((l >= 'a' && l <= 'z') || (l >= '0' && l <= '9')) out += l;
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "unknown-cpu" : out;
}

void write_atomic(const std::string &path, const std::string &text) {
  std::string tmp = fmt::format("{}.tmp.{}", path, getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text;
    f.flush();
    if (!f) throw std::runtime_error("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw std::runtime_error(fmt::format("cannot rename {} to {}: {}", tmp, path, std::strerror(errno)));
  }
}

// --- check -------------------------------------------------------------------------------------

std::vector<size_t> check_lengths(size_t chunk_bytes, size_t short_max) {
  // The key and tail passes' cut-overs: avx2 2/4/6/8 blocks at 64/192/320/448 bytes and tails of
  // 256/384 after a 512-byte chunk; avx512 one to four states at 192/448/704 bytes, 960 (the last
  // 4-block pass), and the update tails' 256/512/768.
  std::vector<size_t> l = {0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 191, 192, 193,
                           255, 256, 257, 319, 320, 321, 447, 448, 449, 511, 512, 513, 703, 704, 705,
                           767, 768, 769, 896, 897, 961, 1023, 1024, 1025, 4096 + 3, 16384 + 17};
  for (size_t k = 1; chunk_bytes && k <= 3; ++k)
    for (size_t d : {k * chunk_bytes - 1, k * chunk_bytes, k * chunk_bytes + 1, k * chunk_bytes + 64})
      l.push_back(d);
  if (short_max) {
    l.push_back(short_max - 1);
    l.push_back(short_max);
    l.push_back(short_max + 1);
  }
  std::sort(l.begin(), l.end());
  l.erase(std::unique(l.begin(), l.end()), l.end());
  return l;
}

namespace {

struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  void fill(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(next());
  }
};

std::string first_diff(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return fmt::format("byte {} is {:02x}, the reference has {:02x}", i, a[i], b[i]);
  return "";
}

}  // namespace

std::string check_against_reference(const Kernels &k, const std::vector<size_t> &lengths) {
  const auto &ref = chapoly::internal::portable_backend();
  Rng rng{0x636861706f6c79ull};
  const size_t aads[] = {0, 1, 13, 16, 17, 63, 64, 65, 200};
  size_t ai = 0;
  for (size_t len : lengths) {
    for (int rep = 0; rep < 2; ++rep) {
      size_t aad_len = aads[ai++ % (sizeof aads / sizeof aads[0])];
      uint8_t key[32], nonce[12];
      rng.fill(key, 32);
      rng.fill(nonce, 12);
      // +1: misaligned buffers; outputs sized len + 1 so the byte past the end is checked too.
      std::vector<uint8_t> pt(len + 1), aad(aad_len + 1);
      rng.fill(pt.data(), pt.size());
      rng.fill(aad.data(), aad.size());
      std::vector<uint8_t> ct_ref(len + 2, 0xa5), ct(len + 2, 0xa5), tag_ref(16), tag(16);
      ref.seal(ct_ref.data() + 1, tag_ref.data(), pt.data() + 1, len, aad.data() + 1, aad_len, nonce, key);
      k.seal(ct.data() + 1, tag.data(), pt.data() + 1, len, aad.data() + 1, aad_len, nonce, key);
      if (auto d = first_diff(ct, ct_ref); !d.empty())
        return fmt::format("seal len={} aad={}: ciphertext {}", len, aad_len, d);
      if (auto d = first_diff(tag, tag_ref); !d.empty())
        return fmt::format("seal len={} aad={}: tag {}", len, aad_len, d);
      std::vector<uint8_t> back(len + 2, 0x5a), back_ref(len + 2, 0x5a), otag(16);
      std::copy(pt.begin() + 1, pt.begin() + 1 + static_cast<long>(len), back_ref.begin() + 1);
      k.open(back.data() + 1, otag.data(), ct.data() + 1, len, aad.data() + 1, aad_len, nonce, key);
      if (auto d = first_diff(back, back_ref); !d.empty())
        return fmt::format("open len={} aad={}: plaintext {}", len, aad_len, d);
      if (auto d = first_diff(otag, tag_ref); !d.empty())
        return fmt::format("open len={} aad={}: tag {}", len, aad_len, d);
      // Poly1305 alone, on a 32-byte key r || s.
      uint8_t pkey[32];
      rng.fill(pkey, 32);
      std::vector<uint8_t> ptag(16), ptag_ref(16);
      ref.poly1305(ptag_ref.data(), pt.data() + 1, len, pkey);
      k.poly1305(ptag.data(), pt.data() + 1, len, pkey);
      if (auto d = first_diff(ptag, ptag_ref); !d.empty()) return fmt::format("poly1305 len={}: tag {}", len, d);
      // ChaCha20 alone: counter 1 and the largest legal counter (its last block is 2^32 - 1).
      uint64_t blocks = (len + 63) / 64;
      uint32_t counter = rep == 0 ? 1u : static_cast<uint32_t>((1ull << 32) - (blocks ? blocks : 1));
      std::vector<uint8_t> ks(len + 2, 0x33), ks_ref(len + 2, 0x33);
      ref.chacha20(ks_ref.data() + 1, pt.data() + 1, len, nonce, key, counter);
      k.chacha20(ks.data() + 1, pt.data() + 1, len, nonce, key, counter);
      if (auto d = first_diff(ks, ks_ref); !d.empty())
        return fmt::format("chacha20 len={} counter={}: {}", len, counter, d);
    }
  }
  return "";
}

// --- benchmark -----------------------------------------------------------------------------------

namespace {

double time_calls(chapoly::internal::SealFn f, size_t n, uint8_t *ct, uint8_t *tag, const uint8_t *pt,
                  size_t len, const uint8_t *aad, const uint8_t *nonce, const uint8_t *key) {
  auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < n; ++i) f(ct, tag, pt, len, aad, 13, nonce, key);
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n == 0 ? 0 : (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
}

}  // namespace

std::vector<SizeResult> bench_seal(const Kernels &def, const Kernels &variant,
                                   const std::vector<size_t> &sizes, int rounds, double batch_ms) {
  std::vector<SizeResult> out;
  uint8_t key[32], nonce[12], aad[13], tag[16];
  Rng rng{42};
  rng.fill(key, 32);
  rng.fill(nonce, 12);
  rng.fill(aad, 13);
  for (size_t len : sizes) {
    std::vector<uint8_t> pt(len + 64), ct(len + 64);
    rng.fill(pt.data(), pt.size());
    // Calibrate on the default: calls per batch so one batch takes about batch_ms (warms both).
    size_t n = 1;
    time_calls(variant.seal, 4, ct.data(), tag, pt.data(), len, aad, nonce, key);
    while (true) {
      double ns = time_calls(def.seal, n, ct.data(), tag, pt.data(), len, aad, nonce, key);
      if (ns >= batch_ms * 1e6 || n >= (1u << 26)) break;
      n = ns < 1000 ? n * 8 : static_cast<size_t>(static_cast<double>(n) * batch_ms * 1e6 / ns) + 1;
    }
    std::vector<double> td, tv, ratio;
    for (int r = 0; r < rounds; ++r) {
      // A round's time of each kernel is its fastest of three batches, run A B, B A, A B: on a
      // shared machine a preemption only ever adds time, and the two kernels see the same slices.
      double a = 1e300, b = 1e300;
      for (int k = 0; k < 3; ++k) {
        if ((r + k) % 2 == 0) {
          a = std::min(a, time_calls(def.seal, n, ct.data(), tag, pt.data(), len, aad, nonce, key));
          b = std::min(b, time_calls(variant.seal, n, ct.data(), tag, pt.data(), len, aad, nonce, key));
        } else {
          b = std::min(b, time_calls(variant.seal, n, ct.data(), tag, pt.data(), len, aad, nonce, key));
          a = std::min(a, time_calls(def.seal, n, ct.data(), tag, pt.data(), len, aad, nonce, key));
        }
      }
      double bytes = static_cast<double>(n) * static_cast<double>(len ? len : 1);
      td.push_back(a / bytes);
      tv.push_back(b / bytes);
      ratio.push_back(a / b);
    }
    out.push_back({len, median(td), median(tv), median(ratio)});
  }
  return out;
}

}  // namespace chapoly::tune
