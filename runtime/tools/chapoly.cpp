// chapoly: a small command-line front end to libchapoly (README.md in this folder).
//
//   chapoly keygen --out K [--force]          32 random bytes (getrandom), mode 0600
//   chapoly seal --key-file K --in F --out G [--aad STR] [--chunk-log2 N]
//   chapoly open --key-file K --in G --out F [--aad STR]
//   chapoly info                              backend in use, backends available, CPU features
//   chapoly --version
//
// seal and open stream: the sealed file is a sequence of XChaCha20-Poly1305 chunks
// (docs/file-format.md), each authenticated and the last one marked, so memory stays bounded by
// one chunk (64 KiB by default) whatever the file size, and truncation, reordering or appended
// data are detected. `-` as --in or --out means stdin or stdout. A file output is written to an
// unnamed temporary file (O_TMPFILE) in the target's directory and linked into place only when
// the whole command succeeded, so a failed or killed command leaves no output and no temporary.
// Exit status: 0 success, 1 authentication failed (open), 2 any other error, usage errors too.
#include <chapoly/chapoly.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "chapoly_registry.h"  // generated from the kernel registry (emitted/CMakeLists.txt)

namespace {

constexpr size_t kKeyLen = 32;
constexpr size_t kTagLen = 16;
constexpr int kExitAuth = 1;
constexpr int kExitError = 2;

// --- the sealed-file format (docs/file-format.md) ------------------------------------------------
constexpr uint8_t kMagic[8] = {'C', 'H', 'A', 'P', 'O', 'L', 'Y', 0};
constexpr uint8_t kVersion = 1;
constexpr uint8_t kAlgXChaCha20Poly1305 = 1;
constexpr size_t kHeaderLen = 28;  // magic 8, version 1, algorithm 1, chunk_log2 1, reserved 1, prefix 16
constexpr int kMinChunkLog2 = 10, kMaxChunkLog2 = 24, kDefaultChunkLog2 = 16;
constexpr uint64_t kMaxChunks = uint64_t{1} << 56;  // the 7-byte chunk counter

// An error that ends the command with a message and an exit status.
struct Failure {
  int status;
  std::string message;
};

[[noreturn]] void fail(std::string message, int status = kExitError) {
  throw Failure{status, std::move(message)};
}

std::string errno_text(int e = errno) { return std::strerror(e); }

// Buffer that is wiped when it goes away: it may hold a key or plaintext.
struct Secret {
  std::vector<uint8_t> bytes;
  Secret() = default;
  explicit Secret(size_t n) : bytes(n) {}
  Secret(const Secret &) = delete;
  Secret &operator=(const Secret &) = delete;
  ~Secret() {
    if (!bytes.empty()) explicit_bzero(bytes.data(), bytes.size());
  }
};

// --- signals: a named temporary file is removed on every signal that can be caught ---------------
// Only async-signal-safe calls in the handler: unlink, then the default action of the signal.
char g_temp_path[PATH_MAX];
volatile sig_atomic_t g_temp_armed = 0;

extern "C" void on_fatal_signal(int sig) {
  if (g_temp_armed) unlink(g_temp_path);
  // SA_RESETHAND restored the default action; SA_NODEFER lets the signal through at once.
  raise(sig);
}

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_fatal_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND | SA_NODEFER;
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF,
                  SIGXCPU, SIGPOLL}) {
    sigaction(sig, &sa, nullptr);
  }
  // A full disk quota (SIGXFSZ) or a closed pipe (SIGPIPE) become write errors (EFBIG, EPIPE),
  // handled like any other: temporary removed, exit 2.
  signal(SIGXFSZ, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);
}

void arm_temp(const std::string &path) {
  if (path.size() >= sizeof g_temp_path) fail(fmt::format("path too long: '{}'", path));
  g_temp_armed = 0;
  std::memcpy(g_temp_path, path.c_str(), path.size() + 1);
  g_temp_armed = 1;
}
void disarm_temp() { g_temp_armed = 0; }

// --- reading ---------------------------------------------------------------------------------------

// An input: a file, or stdin for "-". Read to EOF whatever st_size says (/proc files, pipes).
struct Input {
  std::string name;  // for messages
  int fd = -1;
  bool owned = false;
  struct stat st {};

  // `nonblock`: open without waiting for a writer (a FIFO given as the key file is refused, not
  // waited on).
  Input(const std::string &path, const char *what, bool nonblock = false) {
    if (path == "-") {
      name = "stdin";
      fd = STDIN_FILENO;
    } else {
      name = "'" + path + "'";
      fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | (nonblock ? O_NONBLOCK : 0));
      if (fd < 0) fail(fmt::format("cannot open {} {}: {}", what, name, errno_text()));
      owned = true;
    }
    if (fstat(fd, &st) != 0) fail(fmt::format("cannot stat {} {}: {}", what, name, errno_text()));
    if (S_ISDIR(st.st_mode)) fail(fmt::format("{} {} is a directory", what, name));
  }
  ~Input() {
    if (owned) ::close(fd);
  }
  Input(const Input &) = delete;
  Input &operator=(const Input &) = delete;

  // Reads until `n` bytes or EOF; returns how many were read.
  size_t read_full(uint8_t *p, size_t n) {
    size_t got = 0;
    while (got < n) {
      ssize_t r = ::read(fd, p + got, n - got);
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) fail(fmt::format("cannot read {}: {}", name, errno_text()));
      if (r == 0) break;
      got += static_cast<size_t>(r);
    }
    return got;
  }
};

bool same_file(const struct stat &a, const struct stat &b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

const char *file_kind(mode_t m) {
  if (S_ISLNK(m)) return "a symbolic link";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISDIR(m)) return "a directory";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

// Reads the key file: a regular file of exactly 32 bytes. Warns when group or others may access it.
void load_key(const std::string &path, Secret &key, struct stat &key_st) {
  if (path == "-") fail("the key must come from a file (--key-file -: stdin is not supported)");
  Input in(path, "key file", /*nonblock=*/true);
  if (!S_ISREG(in.st.st_mode))
    fail(fmt::format("key file {} is {}, not a regular file", in.name, file_kind(in.st.st_mode)));
  key_st = in.st;
  key.bytes.assign(kKeyLen + 1, 0);
  size_t got = in.read_full(key.bytes.data(), kKeyLen + 1);
  if (got != kKeyLen)
    fail(fmt::format("key file {} has {} bytes; a key is exactly {} bytes (make one with "
                     "'chapoly keygen --out FILE')",
                     in.name, got > kKeyLen ? "more than 32" : std::to_string(got), kKeyLen));
  key.bytes.resize(kKeyLen);
  if ((in.st.st_mode & 077) != 0)
    std::fprintf(stderr,
                 "chapoly: warning: key file %s can be accessed by group or others (mode %04o); "
                 "run: chmod 600 %s\n",
                 in.name.c_str(), static_cast<unsigned>(in.st.st_mode & 07777), path.c_str());
}

// --- writing ---------------------------------------------------------------------------------------

// An output: stdout for "-", else a regular file created or replaced only by commit(). Until then
// the data goes to an unnamed O_TMPFILE file in the target's directory (nothing to clean up even
// after SIGKILL), or, where the file system lacks O_TMPFILE, to a mkstemp file that the signal
// handlers and the destructor remove.
class Output {
 public:
  // `avoid` lists files the output must not be (the key file, the input). `keep_mode`: a file
  // this one replaces passes on its permission bits (seal, open); else the result is 0600 (a key).
  Output(const std::string &path, bool replace, const std::vector<struct stat> &avoid, bool keep_mode)
      : path_(path), replace_(replace), keep_mode_(keep_mode) {
    if (path == "-") {
      // `chapoly seal --in f --out - >> f` would read its own output until the disk is full,
      // and `open --out - >> sealed` would append plaintext to the sealed file: stdout must not
      // be the input or the key file either.
      struct stat st {};
      if (fstat(STDOUT_FILENO, &st) != 0) fail(fmt::format("cannot check stdout: {}", errno_text()));
      for (const auto &a : avoid)
        if (S_ISREG(st.st_mode) && same_file(st, a))
          fail("stdout is the same file as the key file or the input: refusing to write to it");
      fd_ = STDOUT_FILENO;
      stdout_ = true;
      return;
    }
    check_target(avoid);
    std::string dir = ".";
    if (auto slash = path.rfind('/'); slash != std::string::npos) dir = slash == 0 ? "/" : path.substr(0, slash);
    // Temporary names beside the target but of a fixed length (a long target name must not make
    // them too long): "<dir>/.chapoly-XXXXXX".
    tmp_prefix_ = (dir == "/" ? std::string() : dir) + "/.chapoly-";
    fd_ = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (fd_ >= 0) return;
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
      fail(fmt::format("cannot create a temporary file in '{}' for '{}': {}", dir, path, errno_text()));
    // No O_TMPFILE here: a named temporary beside the target.
    std::string tmp = tmp_prefix_ + "XXXXXX";
    arm_temp(tmp);  // armed before it exists: unlinking a missing name is harmless
    fd_ = mkstemp(tmp.data());
    if (fd_ < 0) {
      disarm_temp();
      fail(fmt::format("cannot create a temporary file beside '{}': {}", path, errno_text()));
    }
    arm_temp(tmp);
    named_tmp_ = tmp;
  }
  ~Output() { abandon(); }
  Output(const Output &) = delete;
  Output &operator=(const Output &) = delete;

  bool is_stdout() const { return stdout_; }
  uint64_t written() const { return written_; }

  void write(const uint8_t *p, size_t n) {
    while (n > 0) {
      ssize_t r = ::write(fd_, p, n);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) fail(fmt::format("cannot write {}: {}", describe(), r < 0 ? errno_text() : "no progress"));
      p += r;
      n -= static_cast<size_t>(r);
      written_ += static_cast<uint64_t>(r);
    }
  }

  // Makes the output visible: flush, then link the temporary into place (replacing a regular file
  // when `replace`, else failing if the target exists).
  void commit() {
    if (stdout_) {
      if (fsync(fd_) != 0 && errno != EINVAL && errno != EROFS && errno != ENOTSUP)
        fail(fmt::format("cannot flush stdout: {}", errno_text()));
      return;
    }
    if (fsync(fd_) != 0) fail(fmt::format("cannot write '{}': {}", path_, errno_text()));
    std::string tmp = named_tmp_;
    if (tmp.empty()) {
      // Give the unnamed file a name beside the target, then rename it over the target.
      const std::string proc = fmt::format("/proc/self/fd/{}", fd_);
      for (int attempt = 0;; ++attempt) {
        uint8_t r[6];
        random_fill(r, sizeof r);
        tmp = fmt::format("{}{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}", tmp_prefix_, r[0], r[1], r[2], r[3], r[4], r[5]);
        arm_temp(tmp);
        if (linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) == 0) break;
        int e = errno;
        disarm_temp();
        if (e != EEXIST || attempt > 8)
          fail(fmt::format("cannot create the output '{}': {}", path_, errno_text(e)));
      }
      named_tmp_ = tmp;
    }
    // The target may have changed since the check: look again right before replacing it.
    struct stat st {};
    const bool exists = lstat(path_.c_str(), &st) == 0;
    if (exists && !S_ISREG(st.st_mode))
      fail(fmt::format("'{}' is {}: refusing to replace it", path_, file_kind(st.st_mode)));
    // As cp does over an existing file: the replacement keeps its permission bits (a new file
    // stays 0600; a key always is).
    if (replace_ && keep_mode_ && exists && fchmod(fd_, st.st_mode & 0777) != 0)
      fail(fmt::format("cannot give the output the mode of '{}': {}", path_, errno_text()));
    if (replace_) {
      if (::rename(tmp.c_str(), path_.c_str()) != 0)
        fail(fmt::format("cannot rename the output into '{}': {}", path_, errno_text()));
    } else {
      if (::link(tmp.c_str(), path_.c_str()) != 0)
        fail(fmt::format("cannot create '{}': {}", path_,
                         errno == EEXIST ? "it exists (use --force to replace it)" : errno_text()));
      ::unlink(tmp.c_str());
    }
    disarm_temp();
    named_tmp_.clear();
    ::close(fd_);
    fd_ = -1;
    committed_ = true;
  }

  static void random_fill(uint8_t *p, size_t n) {
    size_t got = 0;
    while (got < n) {
      ssize_t r = getrandom(p + got, n - got, 0);
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) fail(fmt::format("getrandom failed: {}", errno_text()));
      got += static_cast<size_t>(r);
    }
  }

 private:
  std::string describe() const { return stdout_ ? "stdout" : "'" + path_ + "'"; }

  void check_target(const std::vector<struct stat> &avoid) {
    struct stat st {};
    if (lstat(path_.c_str(), &st) != 0) {
      if (errno == ENOENT) return;
      fail(fmt::format("cannot check the output '{}': {}", path_, errno_text()));
    }
    if (!S_ISREG(st.st_mode))
      fail(fmt::format("output '{}' is {}: refusing to replace it (only regular files are written; "
                       "use --out - for stdout)",
                       path_, file_kind(st.st_mode)));
    for (const auto &a : avoid)
      if (same_file(st, a))
        fail(fmt::format("output '{}' is the same file as the key file or the input: refusing to "
                         "overwrite it",
                         path_));
    if (!replace_) fail(fmt::format("cannot create '{}': it exists (use --force to replace it)", path_));
  }

  void abandon() {
    if (stdout_ || committed_) return;
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (!named_tmp_.empty()) {
      ::unlink(named_tmp_.c_str());
      disarm_temp();
      named_tmp_.clear();
    }
  }

  std::string path_;
  bool replace_ = true;
  bool keep_mode_ = false;
  int fd_ = -1;
  bool stdout_ = false;
  bool committed_ = false;
  std::string named_tmp_;
  std::string tmp_prefix_;  // "<dir>/.chapoly-": temporary names beside the target
  uint64_t written_ = 0;
};

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

// The XChaCha20 nonce of chunk `index`: prefix (16) || index (7 bytes, little-endian) || final.
void chunk_nonce(uint8_t nonce[24], const uint8_t *header, uint64_t index, bool final) {
  std::memcpy(nonce, header + 12, 16);
  for (int i = 0; i < 7; ++i) nonce[16 + i] = static_cast<uint8_t>(index >> (8 * i));
  nonce[23] = final ? 1 : 0;
}

// Each chunk's AAD: the whole header, then the user's --aad.
std::vector<uint8_t> chunk_aad(const uint8_t *header, const std::string &aad) {
  std::vector<uint8_t> v(header, header + kHeaderLen);
  v.insert(v.end(), aad.begin(), aad.end());
  return v;
}

void cmd_seal(const std::string &key_file, const std::string &in_path, const std::string &out_path,
              const std::string &aad, int chunk_log2) {
  Secret key;
  struct stat key_st {};
  load_key(key_file, key, key_st);
  Input in(in_path, "input");
  if (out_path == "-" && isatty(STDOUT_FILENO))
    fail("refusing to write a sealed file to a terminal (redirect stdout or use --out FILE)");
  Output out(out_path, true, {key_st, in.st}, true);

  uint8_t header[kHeaderLen] = {};
  std::memcpy(header, kMagic, sizeof kMagic);
  header[8] = kVersion;
  header[9] = kAlgXChaCha20Poly1305;
  header[10] = static_cast<uint8_t>(chunk_log2);
  header[11] = 0;
  Output::random_fill(header + 12, 16);
  out.write(header, kHeaderLen);
  const std::vector<uint8_t> ad = chunk_aad(header, aad);

  const size_t chunk = size_t{1} << chunk_log2;
  Secret buf(chunk + kTagLen);
  for (uint64_t index = 0;; ++index) {
    if (index >= kMaxChunks) fail("input too long for the chunk counter (2^56 chunks)");
    const size_t n = in.read_full(buf.bytes.data(), chunk);
    const bool final = n < chunk;  // a full chunk is never the last: an empty one follows
    uint8_t nonce[24];
    chunk_nonce(nonce, header, index, final);
    int rc = chapoly_xseal(buf.bytes.data(), buf.bytes.data() + n, buf.bytes.data(), n, ad.data(),
                           ad.size(), nonce, key.bytes.data());
    if (rc != CHAPOLY_OK) fail(fmt::format("seal failed: {} ({})", api_error(rc), rc));
    out.write(buf.bytes.data(), n + kTagLen);
    if (final) break;
  }
  out.commit();
}

void cmd_open(const std::string &key_file, const std::string &in_path, const std::string &out_path,
              const std::string &aad) {
  Secret key;
  struct stat key_st {};
  load_key(key_file, key, key_st);
  Input in(in_path, "input");
  uint8_t header[kHeaderLen];
  const size_t got = in.read_full(header, kHeaderLen);
  if (got < sizeof kMagic || std::memcmp(header, kMagic, sizeof kMagic) != 0)
    fail(fmt::format("{} is not a chapoly sealed file (no CHAPOLY header; files sealed before the "
                     "chunked format of docs/file-format.md cannot be opened by this version)",
                     in.name));
  if (got < kHeaderLen)
    fail(fmt::format("{} is truncated: the header has {} of {} bytes", in.name, got, kHeaderLen),
         kExitAuth);
  if (header[8] != kVersion)
    fail(fmt::format("{} has format version {}; this chapoly reads version {}", in.name, header[8],
                     kVersion));
  if (header[9] != kAlgXChaCha20Poly1305)
    fail(fmt::format("{} uses algorithm {}, unknown to this chapoly", in.name, header[9]));
  if (header[10] < kMinChunkLog2 || header[10] > kMaxChunkLog2 || header[11] != 0)
    fail(fmt::format("{} has an invalid header (chunk size 2^{}, reserved byte {})", in.name,
                     header[10], header[11]));
  Output out(out_path, true, {key_st, in.st}, true);
  const std::vector<uint8_t> ad = chunk_aad(header, aad);

  const size_t chunk = size_t{1} << header[10];
  Secret buf(chunk + kTagLen);
  for (uint64_t index = 0;; ++index) {
    const size_t n = in.read_full(buf.bytes.data(), chunk + kTagLen);
    const bool final = n < chunk + kTagLen;
    auto reject = [&](const std::string &why) {
      std::string partial =
          out.is_stdout() && out.written() > 0
              ? fmt::format(" ({} bytes of authenticated chunks were already written to stdout)",
                            out.written())
              : std::string("; nothing was written");
      fail(fmt::format("{} failed authentication: {}{}", in.name, why, partial), kExitAuth);
    };
    if (index >= kMaxChunks) reject("too many chunks");
    if (final && n < kTagLen)
      reject(index == 0 && n == 0 ? "it ends after the header (truncated)"
                                  : "it is truncated (the final chunk is missing or cut)");
    const size_t len = n - kTagLen;
    uint8_t nonce[24];
    chunk_nonce(nonce, header, index, final);
    int rc = chapoly_xopen(buf.bytes.data(), buf.bytes.data(), len, buf.bytes.data() + len,
                           ad.data(), ad.size(), nonce, key.bytes.data());
    if (rc == CHAPOLY_ERR_AUTH)
      reject(fmt::format("chunk {} does not verify: wrong key, wrong --aad, or the file was "
                         "modified, truncated or reordered",
                         index));
    if (rc != CHAPOLY_OK) fail(fmt::format("open failed: {} ({})", api_error(rc), rc));
    out.write(buf.bytes.data(), len);
    if (final) break;
  }
  out.commit();
}

void cmd_keygen(const std::string &out_path, bool force) {
  if (out_path == "-") fail("keygen writes a key file (mode 0600); --out - is not supported");
  Secret key(kKeyLen);
  Output::random_fill(key.bytes.data(), kKeyLen);
  Output out(out_path, force, {}, false);
  out.write(key.bytes.data(), kKeyLen);
  out.commit();
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
#define CHAPOLY_INFO_ROW(name, needs, why_not)                                              \
  fmt::print("  {:<9} {}\n", name,                                                          \
             *(why_not) ? fmt::format("not in this build: {}", why_not)                      \
             : chapoly_select_backend(name) == CHAPOLY_OK                                    \
                 ? std::string("usable")                                                     \
                 : fmt::format("unusable here: needs {}", needs));
  CHAPOLY_REGISTRY(CHAPOLY_INFO_ROW)
#undef CHAPOLY_INFO_ROW
  if (current != "none") chapoly_select_backend(current.c_str());  // put back what was in use
  // Short one-shot messages served by another family's kernels on some CPUs (speed only: every
  // family is proved for every length; docs/kernels.md).
#define CHAPOLY_INFO_SHORT(name, what, when) \
  fmt::print("short:    {}: one-shot messages {} where {}() holds\n", name, what, when);
  CHAPOLY_REGISTRY_SHORT(CHAPOLY_INFO_SHORT)
#undef CHAPOLY_INFO_SHORT
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
  fmt::print("format:   sealed files are chunked XChaCha20-Poly1305, version {} "
             "(docs/file-format.md)\n",
             kVersion);
}

}  // namespace

int main(int argc, char **argv) {
  install_signal_handlers();
  CLI::App app{"chapoly: ChaCha20-Poly1305 file encryption with libchapoly (sealed files: chunked "
               "XChaCha20-Poly1305, docs/file-format.md)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", fmt::format("chapoly {} (libchapoly {})", CHAPOLY_VERSION_STRING,
                                                chapoly_version()));
  std::string backend;
  app.add_option("--backend", backend,
                 "force a backend: auto, avx512, avx2, scalar or portable (see `chapoly info`)");

  std::string key_file, in, out, aad;
  bool force = false;
  int chunk_log2 = kDefaultChunkLog2;
  auto add_io = [&](CLI::App *c, const char *in_help, const char *out_help) {
    c->add_option("--key-file", key_file, "32-byte key file (from 'chapoly keygen')")->required();
    c->add_option("--in", in, in_help)->required();
    c->add_option("--out", out, out_help)->required();
    c->add_option("--aad", aad, "associated data: authenticated, not encrypted, not stored; "
                                "open needs the same string");
  };
  CLI::App *seal = app.add_subcommand("seal", "encrypt a file or stdin into the chunked sealed format");
  add_io(seal, "plaintext file, or - for stdin", "sealed output file, or - for stdout");
  seal->add_option("--chunk-log2", chunk_log2, "plaintext bytes per chunk as a power of two (default 16: 64 KiB)")
      ->check(CLI::Range(kMinChunkLog2, kMaxChunkLog2));
  CLI::App *open = app.add_subcommand("open", "decrypt a sealed file; exit 1 if it fails "
                                              "authentication (no output file is left)");
  add_io(open, "sealed file, or - for stdin", "plaintext output file, or - for stdout");
  CLI::App *keygen = app.add_subcommand("keygen", "write a new random 32-byte key (mode 0600)");
  keygen->add_option("--out", out, "key file to create")->required();
  keygen->add_flag("--force", force, "replace the file if it exists (a regular file only)");
  CLI::App *info = app.add_subcommand("info", "print the backend in use and the CPU features");

  // Usage errors as every other error: "chapoly: error: ..." (README).
  app.failure_message([](const CLI::App *, const CLI::Error &e) {
    return fmt::format("chapoly: error: {}\nRun with --help for more information.\n", e.what());
  });
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int rc = app.exit(e);  // prints help, the version or the usage error
    return rc == 0 ? 0 : kExitError;
  }

  try {
    if (!backend.empty()) {
      int rc = chapoly_select_backend(backend.c_str());
      if (rc != CHAPOLY_OK) fail(fmt::format("--backend {}: {}", backend, api_error(rc)));
    }
    if (*seal) cmd_seal(key_file, in, out, aad, chunk_log2);
    if (*open) cmd_open(key_file, in, out, aad);
    if (*keygen) cmd_keygen(out, force);
    if (*info) cmd_info(!backend.empty());
  } catch (const Failure &f) {
    std::fprintf(stderr, "chapoly: error: %s\n", f.message.c_str());
    return f.status;
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "chapoly: error: out of memory\n");
    return kExitError;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "chapoly: error: %s\n", e.what());
    return kExitError;
  }
  return 0;
}
