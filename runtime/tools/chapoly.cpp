// chapoly: a small command-line front end to libchapoly (ChaCha20-Poly1305, RFC 8439).
//
//   chapoly keygen --out K             32 random bytes (getrandom), mode 0600, never overwrites
//   chapoly seal --key-file K --in F --out G [--aad STR]   G = nonce(12) || ct || tag(16)
//   chapoly open --key-file K --in G --out F [--aad STR]   exit 1 and write nothing on a bad tag
//   chapoly info                       backend in use, backends available, CPU features
//
// Files are read whole (v1: no streaming), so a message is limited by memory and by the AEAD's
// own limit, CHAPOLY_MAX_LEN bytes. Outputs are written to a temporary file beside the target
// and renamed over it only when everything succeeded, so a failed command leaves no output.
// Exit status: 0 success, 1 authentication failure (open), 2 any other error.
#include <chapoly/chapoly.h>

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "chapoly_registry.h"  // generated from the kernel registry (emitted/CMakeLists.txt)

namespace {

constexpr size_t kKeyLen = 32;
constexpr size_t kNonceLen = 12;
constexpr size_t kTagLen = 16;
constexpr int kExitAuth = 1;
constexpr int kExitError = 2;

// An error that ends the command with a message and an exit status.
struct Failure {
  int status;
  std::string message;
};

[[noreturn]] void fail(std::string message, int status = kExitError) {
  throw Failure{status, std::move(message)};
}

std::string errno_text() { return std::strerror(errno); }

// Buffer that is wiped when it goes away: it may hold a key or plaintext.
struct Secret {
  std::vector<uint8_t> bytes;
  Secret() = default;
  Secret(const Secret &) = delete;
  Secret &operator=(const Secret &) = delete;
  ~Secret() {
    if (!bytes.empty()) explicit_bzero(bytes.data(), bytes.size());
  }
};

// Reads all of `path` into out.bytes[offset..); fails before reading if the file is larger than
// max_len, so an oversized input never has to fit in memory.
void read_file(const std::string &path, Secret &out, size_t offset, size_t extra, uint64_t max_len,
               const char *what) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(fmt::format("cannot open {} '{}': {}", what, path, errno_text()));
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    fail(fmt::format("{} '{}' is not a regular file", what, path));
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size > max_len) {
    ::close(fd);
    fail(fmt::format("{} '{}' has {} bytes; the limit is {} bytes", what, path, size, max_len));
  }
  out.bytes.assign(offset + static_cast<size_t>(size) + extra, 0);
  size_t got = 0;
  while (got < size) {
    ssize_t n = ::read(fd, out.bytes.data() + offset + got, static_cast<size_t>(size) - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      fail(fmt::format("cannot read {} '{}': {}", what, path, n < 0 ? errno_text() : "file shrank"));
    }
    got += static_cast<size_t>(n);
  }
  ::close(fd);
}

// Writes data to `path` through a temporary file in the same directory: write, fsync, then
// rename over the target (replace = true) or hard-link it into place, failing if the target
// exists (replace = false). On any error the temporary file is removed and the target is
// untouched. New files get mode 0600.
void write_file(const std::string &path, const uint8_t *data, size_t len, bool replace) {
  std::string tmp = path + ".chapoly-XXXXXX";
  int fd = mkstemp(tmp.data());
  if (fd < 0) fail(fmt::format("cannot create a temporary file beside '{}': {}", path, errno_text()));
  auto abandon = [&](const std::string &why) {
    ::close(fd);
    ::unlink(tmp.c_str());
    fail(fmt::format("cannot write '{}': {}", path, why));
  };
  size_t put = 0;
  while (put < len) {
    ssize_t n = ::write(fd, data + put, len - put);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) abandon(errno_text());
    put += static_cast<size_t>(n);
  }
  if (fsync(fd) != 0) abandon(errno_text());
  if (::close(fd) != 0) {
    ::unlink(tmp.c_str());
    fail(fmt::format("cannot write '{}': {}", path, errno_text()));
  }
  if (replace) {
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
      std::string why = errno_text();
      ::unlink(tmp.c_str());
      fail(fmt::format("cannot rename the output into '{}': {}", path, why));
    }
  } else {
    if (::link(tmp.c_str(), path.c_str()) != 0) {
      std::string why = errno == EEXIST ? "it exists (use --force to replace it)" : errno_text();
      ::unlink(tmp.c_str());
      fail(fmt::format("cannot create '{}': {}", path, why));
    }
    ::unlink(tmp.c_str());
  }
}

void random_bytes(uint8_t *p, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = getrandom(p + got, n - got, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) fail(fmt::format("getrandom failed: {}", errno_text()));
    got += static_cast<size_t>(r);
  }
}

void load_key(const std::string &path, Secret &key) {
  read_file(path, key, 0, 0, 1024, "key file");
  if (key.bytes.size() != kKeyLen)
    fail(fmt::format("key file '{}' has {} bytes; a key is exactly {} bytes (make one with "
                     "'chapoly keygen --out FILE')",
                     path, key.bytes.size(), kKeyLen));
}

const char *api_error(int rc) {
  switch (rc) {
    case CHAPOLY_OK: return "ok";
    case CHAPOLY_ERR_AUTH: return "authentication failed";
    case CHAPOLY_ERR_TOO_LONG: return "message too long";
    case CHAPOLY_ERR_ARG: return "invalid argument";
    case CHAPOLY_ERR_UNSUPPORTED:
      return "backend unknown or not supported on this CPU or build (see CHAPOLY_BACKEND)";
    default: return "unknown error";
  }
}

const uint8_t *aad_ptr(const std::string &aad) {
  return reinterpret_cast<const uint8_t *>(aad.data());
}

// seal: out = nonce || ChaCha20-Poly1305(key, nonce, aad, plaintext) || tag, nonce random.
void cmd_seal(const std::string &key_file, const std::string &in, const std::string &out,
              const std::string &aad) {
  Secret key, buf;
  load_key(key_file, key);
  read_file(in, buf, kNonceLen, kTagLen, CHAPOLY_MAX_LEN, "input");
  const size_t len = buf.bytes.size() - kNonceLen - kTagLen;
  uint8_t *nonce = buf.bytes.data();
  uint8_t *text = nonce + kNonceLen;  // sealed in place
  random_bytes(nonce, kNonceLen);
  int rc = chapoly_seal(text, text + len, text, len, aad_ptr(aad), aad.size(), nonce,
                        key.bytes.data());
  if (rc != CHAPOLY_OK) fail(fmt::format("seal failed: {} ({})", api_error(rc), rc));
  write_file(out, buf.bytes.data(), buf.bytes.size(), true);
}

// open: reverses seal; on a bad tag nothing is written and the exit status is 1.
void cmd_open(const std::string &key_file, const std::string &in, const std::string &out,
              const std::string &aad) {
  Secret key, buf;
  load_key(key_file, key);
  read_file(in, buf, 0, 0, CHAPOLY_MAX_LEN + kNonceLen + kTagLen, "input");
  if (buf.bytes.size() < kNonceLen + kTagLen)
    fail(fmt::format("input '{}' has {} bytes; a sealed file has at least {} (nonce and tag)", in,
                     buf.bytes.size(), kNonceLen + kTagLen));
  const size_t len = buf.bytes.size() - kNonceLen - kTagLen;
  const uint8_t *nonce = buf.bytes.data();
  uint8_t *text = buf.bytes.data() + kNonceLen;  // opened in place
  int rc = chapoly_open(text, text, len, text + len, aad_ptr(aad), aad.size(), nonce,
                        key.bytes.data());
  if (rc == CHAPOLY_ERR_AUTH)
    fail(fmt::format("'{}' failed authentication: wrong key, wrong --aad, or the file was "
                     "modified; nothing was written",
                     in),
         kExitAuth);
  if (rc != CHAPOLY_OK) fail(fmt::format("open failed: {} ({})", api_error(rc), rc));
  write_file(out, text, len, true);
}

void cmd_keygen(const std::string &out, bool force) {
  Secret key;
  key.bytes.resize(kKeyLen);
  random_bytes(key.bytes.data(), kKeyLen);
  write_file(out, key.bytes.data(), kKeyLen, force);
}

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0) {
      auto p = line.find(':');
      if (p != std::string::npos && p + 2 <= line.size()) return line.substr(p + 2);
    }
  return "unknown";
}

void cmd_info(bool forced) {
  const std::string current = chapoly_backend();
  const char *env = std::getenv("CHAPOLY_BACKEND");
  std::string why = forced ? " (forced by --backend)"
                    : env  ? fmt::format(" (CHAPOLY_BACKEND={})", env)
                           : std::string(" (chosen by CPU)");
  fmt::print("library:  libchapoly {} (header {})\n", chapoly_version(), CHAPOLY_VERSION_STRING);
  fmt::print("backend:  {}{}\n", current, why);
  // Every backend of the kernel registry, in dispatch order: usable here, or what it needs.
  fmt::print("backends: (dispatch order: the first usable one is chosen)\n");
#define CHAPOLY_INFO_ROW(name, needs, linked)                                               \
  fmt::print("  {:<9} {}\n", name,                                                          \
             !(linked) ? std::string("not in this build (not proved by chapoly-verify yet, or "  \
                                     "not for this architecture)")                            \
             : chapoly_select_backend(name) == CHAPOLY_OK                                    \
                 ? std::string("usable")                                                     \
                 : fmt::format("unusable here: needs {}", needs));
  CHAPOLY_REGISTRY(CHAPOLY_INFO_ROW)
#undef CHAPOLY_INFO_ROW
  if (current != "none") chapoly_select_backend(current.c_str());  // put back what was in use
  fmt::print("cpu:      {}\n", cpu_model());
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  fmt::print("features: avx512f={} avx512vl={} avx512bw={} avx512ifma={} avx512vbmi={}\n",
             __builtin_cpu_supports("avx512f") ? "yes" : "no",
             __builtin_cpu_supports("avx512vl") ? "yes" : "no",
             __builtin_cpu_supports("avx512bw") ? "yes" : "no",
             __builtin_cpu_supports("avx512ifma") ? "yes" : "no",
             __builtin_cpu_supports("avx512vbmi") ? "yes" : "no");
#else
  fmt::print("features: (not an x86-64 build)\n");
#endif
  fmt::print("limit:    {} bytes per message (CHAPOLY_MAX_LEN)\n",
             static_cast<unsigned long long>(CHAPOLY_MAX_LEN));
}

}  // namespace

int main(int argc, char **argv) {
  CLI::App app{"chapoly: ChaCha20-Poly1305 (RFC 8439) file encryption with libchapoly"};
  app.require_subcommand(1);
  std::string backend;
  app.add_option("--backend", backend, "force a backend: auto, avx512, scalar or portable (see `chapoly info`)");

  std::string key_file, in, out, aad;
  bool force = false;
  auto add_io = [&](CLI::App *c, const char *in_help, const char *out_help) {
    c->add_option("--key-file", key_file, "32-byte key file (from 'chapoly keygen')")->required();
    c->add_option("--in", in, in_help)->required();
    c->add_option("--out", out, out_help)->required();
    c->add_option("--aad", aad, "associated data: authenticated, not encrypted, not stored; "
                                "open needs the same string");
  };
  CLI::App *seal = app.add_subcommand("seal", "encrypt a file: writes nonce || ciphertext || tag");
  add_io(seal, "plaintext file", "sealed output file");
  CLI::App *open = app.add_subcommand("open", "decrypt a sealed file; exit 1 if it fails "
                                              "authentication (nothing is written)");
  add_io(open, "sealed file", "plaintext output file");
  CLI::App *keygen = app.add_subcommand("keygen", "write a new random 32-byte key (mode 0600)");
  keygen->add_option("--out", out, "key file to create")->required();
  keygen->add_flag("--force", force, "replace the file if it exists");
  CLI::App *info = app.add_subcommand("info", "print the backend in use and the CPU features");
  CLI11_PARSE(app, argc, argv);

  try {
    if (!backend.empty()) {
      int rc = chapoly_select_backend(backend.c_str());
      if (rc != CHAPOLY_OK) fail(fmt::format("--backend {}: {}", backend, api_error(rc)));
    }
    if (*seal) cmd_seal(key_file, in, out, aad);
    if (*open) cmd_open(key_file, in, out, aad);
    if (*keygen) cmd_keygen(out, force);
    if (*info) cmd_info(!backend.empty());
  } catch (const Failure &f) {
    std::fprintf(stderr, "chapoly: error: %s\n", f.message.c_str());
    return f.status;
  }
  return 0;
}
