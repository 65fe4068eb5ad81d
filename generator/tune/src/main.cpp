// chapoly-tune: searches a target's schedule space for the fastest kernel that the verifier proves
// and the portable reference agrees with, on this CPU. README.md beside src/ and docs/tuning.md.
//
// For each variant of the target's spec: chapoly-gen -> chapoly-verify (the registry's flags) ->
// clang++ to a shared object -> check against the portable reference on the boundary lengths ->
// benchmark in process against the committed kernel, interleaved, pinned to one core. A variant
// that fails a step is reported with the step and the reason and never chosen.
#include <dlfcn.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tune.hpp"

namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace chapoly::tune;

namespace {

std::string read_file(const std::string &p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + p);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::string fmt_duration(double s) {
  if (s < 0) s = 0;
  int t = static_cast<int>(s + 0.5);
  return t >= 60 ? fmt::format("{}m{:02d}s", t / 60, t % 60) : fmt::format("{}s", t);
}

// Last non-empty lines of a tool's output, joined, at most ~400 characters: the reason shown.
std::string reason_from(const std::string &out) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  std::string l;
  while (std::getline(in, l))
    if (l.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(l);
  std::string r;
  for (size_t i = lines.size() > 4 ? lines.size() - 4 : 0; i < lines.size(); ++i)
    r += (r.empty() ? "" : " | ") + lines[i];
  if (r.size() > 400) r = "..." + r.substr(r.size() - 400);
  return r.empty() ? "(no output)" : r;
}

// Runs of blanks collapsed to one space (the verifier's report is a fixed-width table).
std::string squeeze(const std::string &s) {
  std::string out;
  for (char c : s) {
    if ((c == ' ' || c == '\t') && (out.empty() || out.back() == ' ')) continue;
    out += c == '\t' ? ' ' : c;
  }
  return out;
}

// The registry's code-generation flags may carry CMake's "SHELL:" prefix (one item, several words).
std::vector<std::string> expand_flags(const json &arr) {
  std::vector<std::string> out;
  for (const auto &f : arr) {
    std::string s = f.get<std::string>();
    if (s.empty()) continue;
    if (s.rfind("SHELL:", 0) == 0) {
      std::istringstream in(s.substr(6));
      std::string w;
      while (in >> w) out.push_back(w);
    } else {
      out.push_back(s);
    }
  }
  return out;
}

struct Options {
  std::string target, out_dir, registry = CHAPOLY_TUNE_REGISTRY, sizes_arg = "64,256,576,1350,16384";
  double budget = 600, batch_ms = 2, step_timeout = 900, min_gain = 0.01;
  int rounds = 7, cpu = -1, corrupt = -1;
  size_t max_variants = 1000;
  bool keep_temp = false, fresh = false;
};

struct Progress {
  bool tty = isatty(2) != 0;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  // done: variants finished in this run (timed), total: the variants still to do at start.
  void show(size_t done, size_t total, double budget, const std::string &what) const {
    double el = elapsed();
    double eta = done ? el / static_cast<double>(done) * static_cast<double>(total - done) : 0;
    if (el + eta > budget) eta = budget - el;
    if (tty) {
      const int w = 24;
      int fill = total ? static_cast<int>(w * done / total) : w;
      std::fprintf(stderr, "\r\033[K[%s%s] %zu/%zu  %s elapsed  ETA %s  %s",
                   std::string(static_cast<size_t>(fill), '#').c_str(),
                   std::string(static_cast<size_t>(w - fill), '.').c_str(), done, total,
                   fmt_duration(el).c_str(), done ? fmt_duration(eta).c_str() : "?", what.c_str());
    } else {
      std::fprintf(stderr, "chapoly-tune: [%zu/%zu, %s elapsed] %s\n", done, total,
                   fmt_duration(el).c_str(), what.c_str());
    }
    std::fflush(stderr);
  }
  void end() const {
    if (tty) std::fprintf(stderr, "\n");
  }
};

// Runs one variant's check and benchmark in a child process (a crashing kernel kills the child,
// not the tuner); the child writes its result as JSON to `result_path`.
json check_and_bench(const std::string &so, const std::string &name, const Kernels &def,
                     const std::vector<size_t> &lengths, const std::vector<size_t> &sizes,
                     const Options &o, const std::string &result_path) {
  pid_t pid = fork();
  if (pid == 0) {
    json r;
    void *h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      r = {{"step", "load"}, {"reason", dlerror()}};
    } else {
      Kernels k;
      k.seal = reinterpret_cast<chapoly::internal::SealFn>(dlsym(h, ("chapoly_k_" + name + "_seal").c_str()));
      k.open = reinterpret_cast<chapoly::internal::OpenFn>(dlsym(h, ("chapoly_k_" + name + "_open").c_str()));
      k.poly1305 = reinterpret_cast<chapoly::internal::Poly1305Fn>(
          dlsym(h, ("chapoly_k_" + name + "_poly1305").c_str()));
      k.chacha20 = reinterpret_cast<chapoly::internal::ChaCha20Fn>(
          dlsym(h, ("chapoly_k_" + name + "_chacha20").c_str()));
      if (!k.seal || !k.open || !k.poly1305 || !k.chacha20) {
        r = {{"step", "load"}, {"reason", "the shared object lacks a chapoly_k_" + name + "_* entry point"}};
      } else if (std::string bad = check_against_reference(k, lengths); !bad.empty()) {
        r = {{"step", "check"}, {"reason", bad}};
      } else {
        json sz = json::array();
        for (const auto &s : bench_seal(def, k, sizes, o.rounds, o.batch_ms))
          sz.push_back({{"bytes", s.bytes}, {"default_ns_per_byte", s.default_ns_per_byte},
                        {"variant_ns_per_byte", s.variant_ns_per_byte}, {"speedup", s.speedup}});
        r = {{"step", ""}, {"sizes", sz}};
      }
    }
    std::ofstream(result_path) << r.dump();
    std::fflush(nullptr);
    _exit(0);
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    if (g_interrupted) kill(pid, SIGKILL);
  }
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    int sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    return {{"step", "check"},
            {"reason", sig ? fmt::format("the kernel killed the checking process: signal {} ({})", sig,
                                         strsignal(sig))
                           : "the checking process failed"}};
  }
  return json::parse(read_file(result_path));
}

std::string changed_text(const json &v) {
  std::string s;
  for (const auto &[k, val] : v["changed"].items()) s += (s.empty() ? "" : ", ") + k + " = " + val.get<std::string>();
  return s.empty() ? "none (the base spec)" : s;
}

// A path as the CMake option takes it: relative to the source tree when inside it.
std::string shown_path(const std::string &p) {
  std::error_code ec;
  auto abs = fs::weakly_canonical(p, ec);
  auto rel = fs::relative(abs, fs::weakly_canonical(CHAPOLY_SOURCE_DIR, ec), ec);
  if (!ec && !rel.empty() && rel.native().rfind("..", 0) != 0) return rel.string();
  return abs.string();
}

std::string markdown(const json &rep) {
  std::string md = fmt::format(
      "# chapoly-tune report: {} on {}\n\n"
      "Generated by chapoly-tune (docs/tuning.md). Command: `{}`\n\n"
      "Base spec `{}`; every variant was generated, proved by chapoly-verify, compiled with the "
      "registry's flags, checked (seal, open, poly1305, chacha20) against the portable reference on "
      "the boundary lengths (0, 1, 15, 16, 17, 63, 64, 65, ..., its bulk chunk and short cutoff +-1, "
      "1 KiB, 4 KiB + 3, 16 KiB + 17: each variant's list is in the JSON), then its seal (13-byte "
      "AAD) timed against the committed kernel, interleaved, {}, median of {} rounds "
      "(each the fastest of 3 batches). Speed: GB/s of the variant, with its speedup over the "
      "committed kernel (compare speedups across rows, not GB/s). Score: geometric mean of the "
      "speedups over the sizes.\n\n",
      rep["target"].get<std::string>(), rep["cpu"].get<std::string>(), rep["command"].get<std::string>(),
      rep["base_spec"].get<std::string>(),
      rep["pinned_cpu"].get<int>() >= 0 ? fmt::format("pinned to CPU {}", rep["pinned_cpu"].get<int>()) : std::string("not pinned"),
      rep["rounds"].get<int>());
  md += "| # | variant | knobs changed from the base | verdict |";
  std::string sep = "|---|---|---|---|";
  for (const auto &s : rep["sizes"]) {
    md += fmt::format(" {} B |", s.get<size_t>());
    sep += "---:|";
  }
  md += " score |\n" + sep + "---:|\n";
  int i = 0;
  size_t not_tried = 0;
  for (const auto &v : rep["variants"]) {
    std::string verdict = v["verdict"].get<std::string>();
    if (verdict == "not tried") {  // listed in the JSON; counted here
      ++not_tried;
      continue;
    }
    if (verdict == "fail")
      verdict = fmt::format("FAIL at {}: {}", v["step"].get<std::string>(), v["reason"].get<std::string>());
    if (rep.contains("winner") && v["id"] == rep["winner"]) verdict += " **(winner)**";
    for (char &c : verdict)
      if (c == '|' || c == '\n') c = ' ';
    md += fmt::format("| {} | {} | {} | {} |", ++i, v["id"].get<std::string>(), changed_text(v), verdict);
    for (size_t k = 0; k < rep["sizes"].size(); ++k) {
      if (v.contains("sizes") && k < v["sizes"].size()) {
        const auto &s = v["sizes"][k];
        md += fmt::format(" {:.2f} (x{:.3f}) |", 1.0 / s["variant_ns_per_byte"].get<double>(),
                          s["speedup"].get<double>());
      } else {
        md += " - |";
      }
    }
    md += v.contains("score") ? fmt::format(" {:.3f} |\n", v["score"].get<double>()) : " - |\n";
  }
  if (not_tried)
    md += fmt::format("\n{} more variant(s) not tried: the budget was spent (they are listed in the JSON "
                      "log; a second run with the same command resumes and tries them).\n",
                      not_tried);
  if (rep.contains("conclusion")) md += "\n" + rep["conclusion"].get<std::string>() + "\n";
  return md;
}

}  // namespace

static int tune_main(int argc, char **argv) {
  Options o;
  o.out_dir = std::string(CHAPOLY_SOURCE_DIR) + "/spec/tuned";
  CLI::App app{"chapoly-tune: find the fastest proven schedule of a kernel family on this CPU "
               "(docs/tuning.md)"};
  app.add_option("--target", o.target,
                 "registry kernel family (avx512_ifma_fused, avx2_mul64, scalar_mul64) or its backend "
                 "name (avx512, avx2, scalar); default: the first one this CPU runs, in dispatch order");
  app.add_option("--budget", o.budget, "seconds: no new variant starts after this (default 600)")
      ->check(CLI::PositiveNumber);
  app.add_option("--sizes", o.sizes_arg,
                 "message sizes in bytes to optimise, comma-separated (default 64,256,576,1350,16384: "
                 "a TLS-like mix of small records, the IPv4 minimum datagram, a packet that fits an "
                 "Ethernet MTU and a full 16 KiB record, weighted equally)");
  app.add_option("--out-dir", o.out_dir, "where the tuned spec and the reports go (default spec/tuned)");
  app.add_option("--max-variants", o.max_variants, "try at most this many variants (nearest the base first)")
      ->check(CLI::PositiveNumber);
  app.add_option("--rounds", o.rounds, "benchmark rounds per size (median; default 7)")->check(CLI::PositiveNumber);
  app.add_option("--batch-ms", o.batch_ms, "milliseconds per timed batch (default 2)")->check(CLI::PositiveNumber);
  app.add_option("--cpu", o.cpu, "pin to this CPU, one this process may run on (default: the one the tuner starts on)")
      ->check(CLI::Range(0, CPU_SETSIZE - 1));
  app.add_option("--min-gain", o.min_gain,
                 "a variant replaces the base only if its score beats 1 by more than this (default 0.01)");
  app.add_option("--step-timeout", o.step_timeout, "seconds one step (generate, verify, compile) may take");
  app.add_option("--registry", o.registry, "the kernel registry as JSON (written by the build)");
  app.add_flag("--fresh", o.fresh, "ignore the JSON log of an earlier run (default: resume from it)");
  app.add_flag("--keep-temp", o.keep_temp, "keep each variant's generated files");
  app.add_option("--test-corrupt", o.corrupt,
                 "TESTS ONLY: change one rotation constant in the emitted source of the variant at this "
                 "index (0 = the base), which the verifier must reject");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int rc = app.exit(e);  // --help: 0; a usage error: 2, as the other tools
    return rc == 0 ? 0 : 2;
  }

  std::string command = "chapoly-tune";
  for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];

  std::vector<size_t> sizes;
  try {
    std::istringstream in(o.sizes_arg);
    std::string t;
    while (std::getline(in, t, ',')) {
      size_t used = 0;
      unsigned long v = std::stoul(t, &used);
      if (used != t.size() || v == 0 || v > (64u << 20)) throw std::invalid_argument(t);
      sizes.push_back(v);
    }
    if (sizes.empty()) throw std::invalid_argument("");
  } catch (const std::exception &) {
    std::fprintf(stderr, "chapoly-tune: --sizes must be a comma-separated list of byte counts from 1 to 64 MiB\n");
    return 2;
  }

  json reg;
  try {
    reg = json::parse(read_file(o.registry));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "chapoly-tune: %s (the build writes the registry; --registry PATH)\n", e.what());
    return 2;
  }
  // The target: named, or the first registry family this CPU runs.
  json entry;
  const chapoly::internal::Backend *def_backend = nullptr;
  for (const auto &k : reg["kernels"]) {
    const auto *b = chapoly::internal::linked_backend(k["backend"].get<std::string>().c_str());
    bool named = !o.target.empty() && (k["name"] == o.target || k["backend"] == o.target);
    if (named || (o.target.empty() && b && !b->missing())) {
      entry = k;
      def_backend = b;
      break;
    }
  }
  if (entry.is_null()) {
    std::fprintf(stderr, "chapoly-tune: %s\n",
                 o.target.empty() ? "this CPU runs none of the registry's kernel families"
                                  : ("no kernel family '" + o.target + "' in the registry").c_str());
    return 2;
  }
  const std::string target = entry["name"];
  if (!def_backend) {
    std::fprintf(stderr, "chapoly-tune: libchapoly does not link %s (not proved?): nothing to compare with\n",
                 target.c_str());
    return 1;
  }
  if (const char *miss = def_backend->missing()) {
    std::fprintf(stderr, "chapoly-tune: this CPU cannot run %s: it lacks %s\n", target.c_str(), miss);
    return 1;
  }
  Kernels def{def_backend->seal, def_backend->open, def_backend->poly1305, def_backend->chacha20};

  const std::string base_path = entry["spec"];
  const std::string base_text = read_file(base_path);
  const std::string isa = entry["isa"];
  std::vector<std::string> keys = {"chacha20.bulk_blocks", "chacha20.rotate", "poly1305.lanes",
                                   "schedule.interleave", "cutoffs.short_max_bytes",
                                   "poly1305.carry_chain", "chacha20.gpr_blocks"};
  Knobs base = read_knobs(base_text, keys);
  auto space = knob_space(isa, base);
  std::erase_if(space, [&](const Knob &k) { return !base.count(k.key); });
  auto variants = enumerate(space, base, o.max_variants);

  // --cpu names a CPU of this process's affinity mask, checked before anything is written (a CPU
  // out of range used to be a warning, and the report still said "pinned").
  if (o.cpu >= 0) {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (o.cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof allowed, &allowed) != 0 || !CPU_ISSET(o.cpu, &allowed)) {
      std::string list;
      for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &allowed)) list += (list.empty() ? "" : ",") + std::to_string(c);
      std::fprintf(stderr, "chapoly-tune: error: --cpu %d: not a CPU this process may run on (allowed: %s)\n", o.cpu,
                   list.empty() ? "unknown" : list.c_str());
      return 2;
    }
  }
  const std::string cpu = cpu_model();
  fs::create_directories(o.out_dir);
  const std::string sig = cpu_signature();
  const std::string cpu_file = file_safe(cpu) + (sig.empty() ? "" : "-" + sig);
  const std::string stem = (fs::path(o.out_dir) / (cpu_file + "." + target)).string();
  const std::string report_path = stem + ".json", md_path = stem + ".md", spec_out = stem + ".toml";

  int pin = o.cpu >= 0 ? o.cpu : sched_getcpu();
  cpu_set_t set;
  CPU_ZERO(&set);
  if (pin >= 0 && pin < CPU_SETSIZE) CPU_SET(pin, &set);
  if (pin < 0 || pin >= CPU_SETSIZE || sched_setaffinity(0, sizeof set, &set) != 0) {
    std::fprintf(stderr, "chapoly-tune: warning: cannot pin to CPU %d: %s (timings unpinned)\n", pin,
                 pin < 0 || pin >= CPU_SETSIZE ? "no such CPU" : std::strerror(errno));
    pin = -1;
  }

  json rep = {{"tool", "chapoly-tune"}, {"format", 1}, {"cpu", cpu}, {"cpu_signature", sig}, {"target", target},
              {"isa", isa}, {"base_spec", fs::relative(base_path, CHAPOLY_SOURCE_DIR).string()},
              {"command", command}, {"sizes", sizes}, {"rounds", o.rounds}, {"pinned_cpu", pin},
              {"variants", json::array()}};
  // Resume: variants already finished (pass or fail) for the same CPU, target and sizes.
  std::map<std::string, json> done_before;
  if (!o.fresh && fs::exists(report_path)) {
    try {
      json old = json::parse(read_file(report_path));
      if (old["cpu"] == cpu && old["target"] == target && old["sizes"] == json(sizes)) {
        for (const auto &v : old["variants"])
          if (v["verdict"] == "pass" || v["verdict"] == "fail") done_before[v["id"]] = v;
        std::fprintf(stderr, "chapoly-tune: resuming from %s: %zu variant(s) already done\n",
                     report_path.c_str(), done_before.size());
      }
    } catch (const std::exception &e) {
      std::fprintf(stderr, "chapoly-tune: ignoring the unreadable log %s: %s\n", report_path.c_str(), e.what());
    }
  }

  install_interrupt_handlers();
  char tmpl[] = "/tmp/chapoly-tune.XXXXXX";
  std::string tmp_root = mkdtemp(tmpl) ? tmpl : "";
  if (tmp_root.empty()) {
    std::fprintf(stderr, "chapoly-tune: cannot make a temporary directory: %s\n", std::strerror(errno));
    return 1;
  }

  const std::string gen = reg["chapoly_gen"], verify = reg["chapoly_verify"], cxx = reg["cxx"];
  const auto flags = expand_flags(entry["flags"]), codegen = expand_flags(entry["codegen"]);
  const std::string vtimeout = std::to_string(reg.value("verify_timeout_ms", 60000));

  size_t todo = 0;
  for (const auto &k : variants) todo += done_before.count(variant_id(k)) ? 0 : 1;
  Progress prog;
  size_t done_now = 0;
  auto save = [&] {
    write_atomic(report_path, rep.dump(1) + "\n");
    write_atomic(md_path, markdown(rep));
  };

  // Search order: the base, then every one-knob change; after those, the remaining variants
  // best-predicted first, the prediction being the product of the measured gains of the one-knob
  // changes a variant combines (unmeasured or failed ones count as 1), so the budget goes to
  // combinations of the changes that helped.
  std::map<std::string, double> single_gain;  // "key=value" -> score of that one-knob variant
  auto record = [&](const json &v) {
    if (v.value("verdict", "") == "pass" && v["changed"].size() == 1)
      single_gain[v["changed"].begin().key() + "=" + v["changed"].begin()->get<std::string>()] =
          v["score"].get<double>();
  };
  for (const auto &[id, v] : done_before) record(v);
  auto distance = [&](const Knobs &k) {
    int d = 0;
    for (const auto &[key, val] : k) d += base.at(key) != val;
    return d;
  };
  auto predicted = [&](const Knobs &k) {
    double p = 1;
    for (const auto &[key, val] : k)
      if (base.at(key) != val)
        if (auto it = single_gain.find(key + "=" + val); it != single_gain.end()) p *= it->second;
    return p;
  };
  for (size_t vi = 0; vi < variants.size(); ++vi) {
    if (distance(variants[vi]) > 1)
      std::stable_sort(variants.begin() + static_cast<long>(vi), variants.end(),
                       [&](const Knobs &a, const Knobs &b) { return predicted(a) > predicted(b); });
    const Knobs &k = variants[vi];
    const std::string id = variant_id(k);
    json v = {{"id", id}, {"knobs", k}, {"changed", json::object()}};
    for (const auto &[key, val] : k)
      if (base.at(key) != val) v["changed"][key] = val;
    if (auto it = done_before.find(id); it != done_before.end() && static_cast<int>(vi) != o.corrupt) {
      v = it->second;
      v["resumed"] = true;
      rep["variants"].push_back(v);
      continue;
    }
    if (g_interrupted) break;
    if (prog.elapsed() >= o.budget) {
      v["verdict"] = "not tried";
      v["reason"] = "budget spent";
      rep["variants"].push_back(v);
      continue;
    }
    const fs::path dir = fs::path(tmp_root) / id;
    fs::create_directories(dir);
    auto fail = [&](const std::string &step, const std::string &why) {
      v["verdict"] = "fail";
      v["step"] = step;
      v["reason"] = why;
    };
    auto step = [&](const std::string &name, const std::vector<std::string> &args) {
      prog.show(done_now, todo, o.budget, id + ": " + name);
      RunResult r = run_argv(args, (dir / (name + ".log")).string(), o.step_timeout);
      v["seconds"][name] = r.seconds;
      if (r.status != 0) {
        fail(name, fmt::format("{} ({})", reason_from(r.output),
                               r.status == 124 ? "timed out" : fmt::format("exit status {}", r.status)));
        return false;
      }
      return true;
    };
    const std::string spec_path = (dir / (id + ".toml")).string();
    const std::string src = (dir / ("chapoly_" + id + ".cpp")).string();
    const std::string so = (dir / ("lib" + id + ".so")).string();
    try {
      write_atomic(spec_path, edit_spec(base_text, k, id, "", {}));
    } catch (const std::exception &e) {
      fail("spec", e.what());
    }
    bool ok = !v.contains("verdict") && step("generate", {gen, "--spec", spec_path, "--out-dir", dir.string()});
    if (ok && static_cast<int>(vi) == o.corrupt) {
      // Test only: one rotation by 16 becomes a rotation by 15, which the proof must catch.
      std::string text = read_file(src);
      static const std::pair<std::regex, const char *> pats[] = {
          {std::regex(R"(\((\w+) << 16\) \| \(\1 >> 16\))"), "($1 << 15) | ($1 >> 17)"},
          {std::regex(R"(rol_epi32\(([^,()]+), 16\))"), "rol_epi32($1, 15)"}};
      bool changed = false;
      for (const auto &[re, with] : pats) {
        std::smatch m;
        if (std::regex_search(text, m, re)) {
          text = m.prefix().str() + m.format(with) + m.suffix().str();
          changed = true;
          break;
        }
      }
      write_atomic(src, text);
      v["test_corrupted"] = changed;
    }
    if (ok) {
      // --fail-fast: a variant that fails one proof stage is dropped; the stages after it (the
      // whole-kernel walks, most of a full proof's time) would only add failures to its report.
      std::vector<std::string> a = {verify, "--quiet", "--fail-fast", "--timeout-ms", vtimeout, "--report",
                                    (dir / "verify.txt").string(), src, "--"};
      a.insert(a.end(), flags.begin(), flags.end());
      a.insert(a.end(), {"-std=c++20", "-I" + dir.string()});
      ok = step("verify", a);
      if (!ok && fs::exists(dir / "verify.txt")) {
        // The proof report names the failed obligation: show its FAIL lines.
        std::istringstream in(read_file((dir / "verify.txt").string()));
        std::string l, fails;
        while (std::getline(in, l))
          if (l.find("FAIL") != std::string::npos && fails.size() < 300) fails += (fails.empty() ? "" : " | ") + l;
        if (!fails.empty()) v["reason"] = squeeze(fails);
      }
    }
    if (ok) {
      std::vector<std::string> a = {cxx, "-std=c++20", "-shared", "-fPIC"};
      a.insert(a.end(), flags.begin(), flags.end());
      a.insert(a.end(), codegen.begin(), codegen.end());
      a.insert(a.end(), {"-I" + dir.string(), src, "-o", so});
      ok = step("compile", a);
    }
    if (ok) {
      prog.show(done_now, todo, o.budget, id + ": check + benchmark");
      auto t0 = std::chrono::steady_clock::now();
      size_t bulk = k.count("chacha20.bulk_blocks") ? std::stoul(k.at("chacha20.bulk_blocks")) : 1;
      size_t short_max = k.count("cutoffs.short_max_bytes") ? std::stoul(k.at("cutoffs.short_max_bytes")) : 0;
      auto lengths = check_lengths(64 * bulk, short_max);
      v["check_lengths"] = lengths;
      json r = check_and_bench(so, id, def, lengths, sizes, o, (dir / "result.json").string());
      v["seconds"]["check+bench"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (!r["step"].get<std::string>().empty()) {
        fail(r["step"], r["reason"]);
      } else {
        v["verdict"] = "pass";
        v["sizes"] = r["sizes"];
        double logsum = 0;
        for (const auto &s : r["sizes"]) logsum += std::log(s["speedup"].get<double>());
        v["score"] = std::exp(logsum / static_cast<double>(r["sizes"].size()));
      }
    }
    if (!o.keep_temp) fs::remove_all(dir);
    if (g_interrupted) break;  // this variant was cut short: nothing recorded for it
    ++done_now;
    prog.show(done_now, todo, o.budget,
              id + ": " + (v["verdict"] == "pass" ? fmt::format("pass, score {:.3f}", v["score"].get<double>())
                                                  : "FAIL at " + v["step"].get<std::string>()));
    record(v);
    rep["variants"].push_back(v);
    save();
  }
  prog.end();
  if (!o.keep_temp) fs::remove_all(tmp_root);
  if (g_interrupted) {
    rep["conclusion"] = "Interrupted by a signal: the variants above were measured; no spec was written. "
                        "Run the same command again to resume.";
    save();
    std::fprintf(stderr, "chapoly-tune: interrupted; nothing written but the resumable log %s\n", report_path.c_str());
    return 130;
  }

  // The winner: the best passing variant, if it beats the committed kernel by more than min_gain;
  // otherwise the base schedule stays (the written spec then equals the base's knobs).
  const json *best = nullptr, *base_v = nullptr;
  for (const auto &v : rep["variants"]) {
    if (v["verdict"] != "pass") continue;
    if (v["changed"].empty()) base_v = &v;
    if (!best || v["score"].get<double>() > (*best)["score"].get<double>()) best = &v;
  }
  if (!best) {
    rep["conclusion"] = "No variant passed every step: nothing written.";
    save();
    std::fprintf(stderr, "chapoly-tune: no variant passed; report: %s\n", md_path.c_str());
    return 1;
  }
  if (best->value("score", 0.0) <= 1.0 + o.min_gain && base_v) best = base_v;
  rep["winner"] = (*best)["id"];
  double gain = (*best)["score"].get<double>() - 1.0;
  std::string per_size;
  for (const auto &s : (*best)["sizes"])
    per_size += fmt::format("{}{} B x{:.3f}", per_size.empty() ? "" : ", ", s["bytes"].get<size_t>(),
                            s["speedup"].get<double>());
  bool is_base = (*best)["changed"].empty();
  rep["gain"] = gain;
  rep["conclusion"] = fmt::format(
      "Winner: {}, {}: score {:.3f} ({:+.1f}% over the committed kernel; {}). {}",
      (*best)["id"].get<std::string>(), changed_text(*best), (*best)["score"].get<double>(), 100 * gain, per_size,
      is_base ? fmt::format("No variant beat the committed schedule by more than {:.0f}%, so the tuned spec "
                            "keeps the base knobs.", 100 * o.min_gain)
              : "The tuned spec takes its knobs.");
  Knobs win;
  for (const auto &[key, val] : (*best)["knobs"].items()) win[key] = val.get<std::string>();
  std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  std::vector<std::string> header = {
      fmt::format("# Tuned by chapoly-tune on {} ({}) for the {} target.", cpu, date, target),
      fmt::format("# Command: {}", command),
      fmt::format("# Knobs changed from {}: {}", rep["base_spec"].get<std::string>(), changed_text(*best)),
      fmt::format("# Measured seal speedup over the committed kernel: {} (geometric mean {:+.1f}%).", per_size,
                  100 * gain),
      fmt::format("# Every variant tried: {}.md. Build with: -DCHAPOLY_SPEC_{}={}", fs::path(stem).filename().string(),
                  isa == "x86_64-avx512" ? "AVX512" : isa == "x86_64-avx2" ? "AVX2" : "SCALAR",
                  shown_path(spec_out))};
  std::string rationale =
      is_base ? fmt::format(
                    "Tuned for {} by chapoly-tune: the schedule of {}, unchanged: no variant that\n"
                    "chapoly-verify proved and that agreed with the portable reference beat it by more than\n"
                    "{:.0f}% (geometric mean of the seal speedups at {} bytes); see the report beside this file.",
                    cpu, rep["base_spec"].get<std::string>(), 100 * o.min_gain, o.sizes_arg)
              : fmt::format(
                    "Tuned for {} by chapoly-tune: the schedule of {} with {}.\nChosen because it had the "
                    "best score (geometric mean of the seal speedups at {} bytes)\nof the variants that "
                    "chapoly-verify proved and that agreed with the portable reference;\nsee the report "
                    "beside this file.",
                    cpu, rep["base_spec"].get<std::string>(), changed_text(*best), o.sizes_arg);
  write_atomic(spec_out, edit_spec(base_text, win, entry["name"], rationale, header));
  rep["tuned_spec"] = fs::path(spec_out).filename().string();
  save();
  std::printf("%s\n\nTuned spec: %s\nReport: %s, %s\n", rep["conclusion"].get<std::string>().c_str(),
              spec_out.c_str(), md_path.c_str(), report_path.c_str());
  return 0;
}

// Anything thrown past the checks (an unwritable --out-dir, a malformed --registry file) is a
// clear error with exit 2, never an abort; what the tuner already wrote stays as it was (every
// file goes through a temporary and a rename).
int main(int argc, char **argv) {
  try {
    return tune_main(argc, argv);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "chapoly-tune: error: %s\n", e.what());
    return 2;
  }
}
