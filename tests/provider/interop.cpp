// interop.cpp: chapoly-interop, the driver of the provider's process-level tests (ctest labels
// `provider`, `tls`). Every program runs from an argument vector (posix_spawn, never a shell),
// every server binds 127.0.0.1 on a free port, is bounded in time and is stopped here. Test
// certificates are made at test time with `openssl req` in the work folder.
//
//   chapoly-interop speed  OPENSSL PROVIDER_DIR WORKDIR [-decrypt]
//       `openssl speed` through the provider: runs, prints its table, and the provider's counters
//       show it sealed (opened) the data.
//   chapoly-interop tls    OPENSSL PROVIDER_DIR WORKDIR 1.2|1.3 server|client
//       openssl s_server and s_client on 127.0.0.1, the side named loading chapoly through an
//       OPENSSL_CONF file, the other with only the default provider: 16 MiB client -> server and
//       16 MiB server -> client, SHA-256 of what arrived checked, and chapoly's counters show it
//       sealed and opened the records (TLS 1.2: ECDHE-RSA-CHACHA20-POLY1305, one-shot records;
//       TLS 1.3: TLS_CHACHA20_POLY1305_SHA256, streamed records).
//   chapoly-interop nginx  OPENSSL PROVIDER_DIR WORKDIR NGINX CURL
//       Debian's nginx, chapoly loaded through OPENSSL_CONF, serves a 64 MiB file over TLS 1.3
//       (TLS_CHACHA20_POLY1305_SHA256) to Debian's curl (default provider); hash and counters checked.
// Exit status: 0 pass, 1 fail, 77 skip (a program is missing), 2 usage.
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char **environ;

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void die(const std::string &m) {
  fprintf(stderr, "chapoly-interop: FAIL: %s\n", m.c_str());
  exit(1);
}

std::string g_work;
std::string path(const std::string &name) { return g_work + "/" + name; }

// The environment for a child: ours without OPENSSL_CONF / CHAPOLY_* (so the "default only" side
// really is), plus `extra`.
std::vector<std::string> child_env(const std::vector<std::string> &extra) {
  std::vector<std::string> env;
  for (char **e = environ; *e != nullptr; ++e) {
    std::string s = *e;
    if (s.rfind("OPENSSL_CONF=", 0) == 0 || s.rfind("CHAPOLY_PROVIDER_STATS=", 0) == 0 ||
        s.rfind("OPENSSL_MODULES=", 0) == 0)
      continue;
    env.push_back(s);
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

struct Child {
  pid_t pid = -1;
  std::string what;
};

// Starts argv with stdin/stdout/stderr from/to the named files ("" = /dev/null; stderr appends
// to the log), in `cwd` when not empty.
// `in_fd` >= 0: stdin is that descriptor instead (the read end of a pipe the caller keeps open, so
// that a server never sees end of input: s_server ends its connection when its stdin ends).
Child spawn(const std::vector<std::string> &argv, const std::vector<std::string> &env, const std::string &in,
            const std::string &out, const std::string &log, const std::string &cwd = "", int in_fd = -1) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (in_fd >= 0) posix_spawn_file_actions_adddup2(&fa, in_fd, 0);
  else posix_spawn_file_actions_addopen(&fa, 0, in.empty() ? "/dev/null" : in.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.empty() ? "/dev/null" : out.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&fa, 2, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  std::vector<char *> a, e;
  for (const auto &s : argv) a.push_back(const_cast<char *>(s.c_str()));
  a.push_back(nullptr);
  for (const auto &s : env) e.push_back(const_cast<char *>(s.c_str()));
  e.push_back(nullptr);
  Child c;
  c.what = argv[0] + (argv.size() > 1 ? " " + argv[1] : "");
  int rc = posix_spawn(&c.pid, a[0], &fa, nullptr, a.data(), e.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) die("cannot start " + argv[0] + ": " + strerror(rc));
  return c;
}

// Waits up to `seconds`; on timeout kills the child and fails. Returns the exit status.
int wait_for(Child &c, double seconds) {
  auto end = Clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    int st = 0;
    pid_t r = waitpid(c.pid, &st, WNOHANG);
    if (r == c.pid) {
      c.pid = -1;
      return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    }
    if (Clock::now() > end) {
      kill(c.pid, SIGKILL);
      waitpid(c.pid, &st, 0);
      c.pid = -1;
      die(c.what + " did not finish within " + std::to_string(seconds) + " s (killed)");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Stops a server: `sig`, then SIGKILL after `grace` seconds.
void stop(Child &c, int sig, double grace) {
  if (c.pid < 0) return;
  kill(c.pid, sig);
  auto end = Clock::now() + std::chrono::duration<double>(grace);
  int st;
  while (waitpid(c.pid, &st, WNOHANG) == 0) {
    if (Clock::now() > end) {
      kill(c.pid, SIGKILL);
      waitpid(c.pid, &st, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  c.pid = -1;
}

int free_port() {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(s, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) die("bind 127.0.0.1:0");
  socklen_t l = sizeof a;
  getsockname(s, reinterpret_cast<sockaddr *>(&a), &l);
  close(s);
  return ntohs(a.sin_port);
}

bool port_open(int port) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = connect(s, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0;
  close(s);
  return ok;
}

std::string read_file(const std::string &p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void write_file(const std::string &p, const std::string &data) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
  if (!f) die("cannot write " + p);
}

std::string sha256(const std::string &data) {
  unsigned char md[32];
  unsigned int n = 0;
  EVP_Digest(data.data(), data.size(), md, &n, EVP_sha256(), nullptr);
  char hex[65];
  for (int i = 0; i < 32; ++i) snprintf(hex + 2 * i, 3, "%02x", md[i]);
  return hex;
}

// `n` bytes of a fixed pseudo-random stream (splitmix64 of `seed`).
std::string payload(size_t n, uint64_t seed) {
  std::string s(n, '\0');
  uint64_t x = seed;
  for (size_t i = 0; i < n; i += 8) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    for (size_t k = 0; k < 8 && i + k < n; ++k) s[i + k] = static_cast<char>(z >> (8 * k));
  }
  return s;
}

// The OPENSSL_CONF file that loads chapoly beside the default provider and prefers it.
std::string write_conf(const std::string &provider_dir) {
  std::string conf = path("chapoly-openssl.cnf");
  write_file(conf,
             "# chapoly-interop: load the chapoly provider beside the default one and prefer it\n"
             "openssl_conf = openssl_init\n"
             "[openssl_init]\nproviders = provider_sect\nalg_section = algorithm_sect\n"
             "[provider_sect]\ndefault = default_sect\nchapoly = chapoly_sect\n"
             "[default_sect]\nactivate = 1\n"
             "[chapoly_sect]\nmodule = " + provider_dir + "/chapoly.so\nactivate = 1\n"
             "[algorithm_sect]\ndefault_properties = ?provider=chapoly\n");
  return conf;
}

// Test certificate: RSA 2048 (for ECDHE-RSA), self-signed, one day, CN=localhost.
void make_cert(const std::string &openssl) {
  Child c = spawn({openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("key.pem"), "-out",
                   path("cert.pem"), "-days", "1", "-subj", "/CN=localhost"},
                  child_env({}), "", "", path("openssl-req.log"));
  if (wait_for(c, 60) != 0) die("openssl req failed: see " + path("openssl-req.log"));
}

// The counters every process that loaded chapoly with CHAPOLY_PROVIDER_STATS=prefix left, summed.
std::map<std::string, unsigned long long> read_stats(const std::string &prefix_name) {
  std::map<std::string, unsigned long long> sum;
  DIR *d = opendir(g_work.c_str());
  if (d == nullptr) die("cannot list " + g_work);
  int files = 0;
  while (dirent *e = readdir(d)) {
    std::string n = e->d_name;
    if (n.rfind(prefix_name + ".", 0) != 0) continue;
    ++files;
    std::string line = read_file(path(n));
    fprintf(stderr, "chapoly-interop: %s: %s", n.c_str(), line.c_str());
    std::istringstream ss(line);
    std::string tok;
    while (ss >> tok) {
      size_t eq = tok.find('=');
      if (eq == std::string::npos || tok.compare(0, eq, "backend") == 0) continue;
      sum[tok.substr(0, eq)] += strtoull(tok.c_str() + eq + 1, nullptr, 10);
    }
  }
  closedir(d);
  if (files == 0) die("no provider counters " + prefix_name + ".* in " + g_work + ": chapoly was not loaded");
  return sum;
}

void remove_stats(const std::string &prefix_name) {
  DIR *d = opendir(g_work.c_str());
  if (d == nullptr) return;
  while (dirent *e = readdir(d)) {
    std::string n = e->d_name;
    if (n.rfind(prefix_name + ".", 0) == 0) unlink(path(n).c_str());
  }
  closedir(d);
}

bool executable(const std::string &p) { return access(p.c_str(), X_OK) == 0; }

// --- speed ------------------------------------------------------------------------------------------

int cmd_speed(const std::string &openssl, const std::string &prov, bool decrypt) {
  remove_stats("speed-stats");
  std::vector<std::string> argv = {openssl, "speed", "-provider-path", prov, "-provider", "chapoly",
                                   "-provider", "default", "-propquery", "provider=chapoly", "-seconds", "1",
                                   "-bytes", "1024", "-evp", "chacha20-poly1305"};
  if (decrypt) argv.push_back("-decrypt");
  std::string out = path(decrypt ? "speed-decrypt.out" : "speed-encrypt.out");
  Child c = spawn(argv, child_env({"CHAPOLY_PROVIDER_STATS=" + path("speed-stats")}), "", out, path("speed.log"));
  int rc = wait_for(c, 60);
  std::string text = read_file(out);
  fprintf(stderr, "%s", text.c_str());
  if (rc != 0) die("openssl speed exited " + std::to_string(rc) + " (see " + path("speed.log") + ")");
  if (text.find("ChaCha20-Poly1305") == std::string::npos && text.find("chacha20-poly1305") == std::string::npos)
    die("openssl speed printed no chacha20-poly1305 row");
  auto s = read_stats("speed-stats");
  unsigned long long bytes = decrypt ? s["opened_bytes"] : s["sealed_bytes"];
  if (bytes < (1u << 20)) die("chapoly's counters show only " + std::to_string(bytes) + " bytes");
  printf("speed%s through chapoly: %llu bytes %s\n", decrypt ? " -decrypt" : "", bytes, decrypt ? "opened" : "sealed");
  return 0;
}

// --- s_server / s_client -------------------------------------------------------------------------------

std::vector<std::string> version_args(const std::string &v, bool server) {
  if (v == "1.2") return {"-tls1_2", "-cipher", "ECDHE-RSA-CHACHA20-POLY1305"};
  std::vector<std::string> a = {"-tls1_3", "-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256"};
  (void)server;
  return a;
}

// Runs s_client until it connects (a refused connection never reaches the server, so this does
// not use up its one accepted connection), bounded in time.
int run_client(const std::vector<std::string> &argv, const std::vector<std::string> &env, const std::string &in,
               const std::string &out, const std::string &log) {
  auto end = Clock::now() + std::chrono::seconds(20);
  for (;;) {
    Child c = spawn(argv, env, in, out, log);
    int rc = wait_for(c, 120);
    std::string l = read_file(log);
    bool refused = l.find("Connection refused") != std::string::npos || l.find("errno=111") != std::string::npos;
    if (rc == 0 || !refused || Clock::now() > end) return rc;
    write_file(log, "");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

int cmd_tls(const std::string &openssl, const std::string &prov, const std::string &ver, const std::string &side) {
  const size_t kBytes = size_t{16} << 20;
  make_cert(openssl);
  std::string conf = write_conf(prov);
  std::string data = payload(kBytes, ver == "1.2" ? 12 : 13);
  write_file(path("data.bin"), data);
  write_file(path("request.txt"), "GET /data.bin HTTP/1.0\r\n\r\n");
  const std::string want = sha256(data);
  const bool chapoly_server = side == "server";
  std::vector<std::string> chapoly_env = child_env({"OPENSSL_CONF=" + conf, "CHAPOLY_PROVIDER_STATS=" + path("tls-stats")});
  std::vector<std::string> plain_env = child_env({});
  remove_stats("tls-stats");

  for (int dir = 0; dir < 2; ++dir) {  // 0: client -> server, 1: server -> client (-WWW)
    int port = free_port();
    std::vector<std::string> sv = {openssl, "s_server", "-accept", "127.0.0.1:" + std::to_string(port), "-cert",
                                   path("cert.pem"), "-key", path("key.pem"), "-naccept", "1", "-quiet"};
    for (auto &a : version_args(ver, true)) sv.push_back(a);
    if (dir == 1) sv.push_back("-WWW");
    std::string srv_out = path(dir == 0 ? "server-received.bin" : "server.out");
    int hold[2];  // the server's stdin: never at end of input while it runs
    if (pipe2(hold, O_CLOEXEC) != 0) die("pipe");
    Child server = spawn(sv, chapoly_server ? chapoly_env : plain_env, "", srv_out, path("server.log"), g_work, hold[0]);
    close(hold[0]);
    std::vector<std::string> cv = {openssl, "s_client", "-connect", "127.0.0.1:" + std::to_string(port),
                                   "-servername", "localhost", "-nocommands"};  // the data is not commands
    for (auto &a : version_args(ver, false)) cv.push_back(a);
    if (dir == 1) cv.push_back("-quiet");  // print only the response; wait for the server to close
    std::string cli_out = path(dir == 0 ? "client.out" : "client-received.bin");
    int rc = run_client(cv, chapoly_server ? plain_env : chapoly_env, dir == 0 ? path("data.bin") : path("request.txt"),
                        cli_out, path("client.log"));
    if (rc != 0) {
      stop(server, SIGTERM, 2);
      close(hold[1]);
      die("s_client exited " + std::to_string(rc) + " (see " + path("client.log") + ")");
    }
    int src = wait_for(server, 60);
    close(hold[1]);
    if (src != 0) die("s_server exited " + std::to_string(src) + " (see " + path("server.log") + ")");
    std::string got = read_file(dir == 0 ? srv_out : cli_out);
    if (dir == 1) {
      size_t hdr = got.find("\r\n\r\n");
      if (hdr == std::string::npos) die("no HTTP response header from s_server -WWW");
      got = got.substr(hdr + 4);
    }
    std::string have = sha256(got);
    if (have != want)
      die(std::string(dir == 0 ? "client -> server" : "server -> client") + ": received " + std::to_string(got.size()) +
          " bytes, SHA-256 " + have + ", want " + std::to_string(kBytes) + " bytes " + want);
    printf("TLS %s %s: %zu bytes, SHA-256 %s ok\n", ver.c_str(), dir == 0 ? "client -> server" : "server -> client",
           got.size(), have.c_str());
  }
  auto s = read_stats("tls-stats");
  // The chapoly side sent 16 MiB one way and received 16 MiB the other (plus handshake records).
  if (s["sealed_bytes"] < kBytes || s["opened_bytes"] < kBytes)
    die("chapoly's counters: sealed " + std::to_string(s["sealed_bytes"]) + ", opened " +
        std::to_string(s["opened_bytes"]) + " bytes; want >= " + std::to_string(kBytes) + " each");
  if (ver == "1.2" && (s["tls12_sealed"] == 0 || s["tls12_opened"] == 0)) die("no TLS 1.2 record went through chapoly");
  if (ver == "1.3" && (s["seal_msgs"] == 0 || s["open_msgs"] == 0)) die("no TLS 1.3 record went through chapoly");
  printf("chapoly (%s side) sealed %llu and opened %llu bytes (TLS 1.2 records %llu/%llu, messages %llu/%llu)\n",
         side.c_str(), s["sealed_bytes"], s["opened_bytes"], s["tls12_sealed"], s["tls12_opened"], s["seal_msgs"],
         s["open_msgs"]);
  return 0;
}

// --- nginx + curl --------------------------------------------------------------------------------------

int cmd_nginx(const std::string &openssl, const std::string &prov, const std::string &nginx, const std::string &curl) {
  if (!executable(nginx) || !executable(curl)) {
    printf("SKIP: %s or %s is not installed (scripts/install-deps.sh installs nginx-light and curl)\n",
           nginx.c_str(), curl.c_str());
    return 77;
  }
  const size_t kBytes = size_t{64} << 20;
  make_cert(openssl);
  std::string conf = write_conf(prov);
  mkdir(path("www").c_str(), 0755);
  mkdir(path("nginx-tmp").c_str(), 0755);
  std::string data = payload(kBytes, 64);
  write_file(path("www/big.bin"), data);
  remove_stats("nginx-stats");
  int port = free_port();
  std::string nconf = path("nginx.conf");
  std::string t = path("nginx-tmp");
  write_file(nconf, std::string(geteuid() == 0 ? "user root;\n" : "") +
                        "daemon off;\nmaster_process on;\nworker_processes 1;\n"
                        "pid " + path("nginx.pid") + ";\nerror_log " + path("nginx-error.log") + " info;\n"
                        "env OPENSSL_CONF;\nenv CHAPOLY_PROVIDER_STATS;\n"
                        "events { worker_connections 64; }\n"
                        "http {\n  access_log off;\n  client_body_temp_path " + t + "/body;\n"
                        "  proxy_temp_path " + t + "/proxy;\n  fastcgi_temp_path " + t + "/fastcgi;\n"
                        "  uwsgi_temp_path " + t + "/uwsgi;\n  scgi_temp_path " + t + "/scgi;\n"
                        "  default_type application/octet-stream;\n"
                        "  server {\n    listen 127.0.0.1:" + std::to_string(port) + " ssl;\n"
                        "    ssl_certificate " + path("cert.pem") + ";\n    ssl_certificate_key " + path("key.pem") + ";\n"
                        "    ssl_protocols TLSv1.3;\n"
                        "    ssl_conf_command Ciphersuites TLS_CHACHA20_POLY1305_SHA256;\n"
                        "    root " + path("www") + ";\n  }\n}\n");
  Child srv = spawn({nginx, "-p", g_work, "-e", path("nginx-error.log"), "-c", nconf},
                    child_env({"OPENSSL_CONF=" + conf, "CHAPOLY_PROVIDER_STATS=" + path("nginx-stats")}), "", "",
                    path("nginx.log"));
  auto end = Clock::now() + std::chrono::seconds(20);
  while (!port_open(port)) {
    int st;
    if (waitpid(srv.pid, &st, WNOHANG) == srv.pid) die("nginx exited at start (see " + path("nginx-error.log") + ")");
    if (Clock::now() > end) {
      stop(srv, SIGKILL, 1);
      die("nginx did not listen within 20 s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  Child cl = spawn({curl, "--silent", "--show-error", "--fail", "--insecure", "--tlsv1.3", "--tls13-ciphers",
                    "TLS_CHACHA20_POLY1305_SHA256", "--max-time", "120", "-o", path("curl-received.bin"),
                    "https://127.0.0.1:" + std::to_string(port) + "/big.bin"},
                   child_env({}), "", "", path("curl.log"));
  int rc = wait_for(cl, 150);
  stop(srv, SIGQUIT, 20);  // graceful: the worker unloads OpenSSL's providers (counters written)
  if (rc != 0) die("curl exited " + std::to_string(rc) + " (see " + path("curl.log") + ")");
  std::string got = read_file(path("curl-received.bin"));
  if (sha256(got) != sha256(data))
    die("curl received " + std::to_string(got.size()) + " bytes, SHA-256 " + sha256(got) + "; want " + sha256(data));
  auto s = read_stats("nginx-stats");
  if (s["sealed_bytes"] < kBytes) die("chapoly's counters show only " + std::to_string(s["sealed_bytes"]) + " bytes sealed");
  printf("nginx -> curl over TLS 1.3: %zu bytes, SHA-256 ok; chapoly sealed %llu bytes in %llu records\n", got.size(),
         s["sealed_bytes"], s["seal_msgs"]);
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);
  if (argc < 5) {
    fprintf(stderr, "usage: chapoly-interop speed|tls|nginx OPENSSL PROVIDER_DIR WORKDIR ...\n");
    return 2;
  }
  std::string cmd = argv[1], openssl = argv[2], prov = argv[3];
  g_work = argv[4];
  std::error_code ec;
  std::filesystem::create_directories(g_work, ec);
  if (ec) die("cannot create " + g_work + ": " + ec.message());
  if (cmd == "speed") return cmd_speed(openssl, prov, argc > 5 && std::string(argv[5]) == "-decrypt");
  if (cmd == "tls" && argc == 7) return cmd_tls(openssl, prov, argv[5], argv[6]);
  if (cmd == "nginx" && argc == 7) return cmd_nginx(openssl, prov, argv[5], argv[6]);
  fprintf(stderr, "chapoly-interop: bad arguments\n");
  return 2;
}
