// chapoly-verify: proves, over the emitted C++ (not the spec), that the kernels' limb arithmetic
// cannot overflow and that the Poly1305 / ChaCha20 steps compute what RFC 8439 says.
//
//   chapoly-verify [--report-json F] [--report F] [--stamp F] [--kernel K] [--obligation ID]
//                  [--timeout-ms N] [--fail-fast] FILE.cpp... [-- <compile flags>]
//   chapoly-verify --check-stamp STAMP FILE.cpp... [-- <compile flags>]
//
// Exit status: 0 all obligations proved (--check-stamp: the stamp is a proof of exactly these
// files' bytes, inputs and flags by this verifier binary), 1 an obligation failed or timed out (or
// the code uses something the verifier cannot prove; --check-stamp: the stamp is missing, failed
// or stale), 2 usage or parse errors.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <sys/stat.h>

#include "bounds.h"
#include "contracts.h"
#include "intrinsics.h"
#include "ir.h"
#include "proofs.h"
#include "report.h"
#include "smt.h"

namespace {

// FNV-1a over the file bytes: the stamp records what was proved.
std::string fileDigest(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  char b[32];
  std::snprintf(b, sizeof b, "%016llx", (unsigned long long)h);
  return b;
}

// The compile flags as one line of the stamp (each flag after a space).
std::string flagsLine(const std::vector<std::string> &flags) {
  std::string line;
  for (const auto &f : flags) line += " " + f;
  return line;
}

// --check-stamp: whether `stamp`, written by a run with --stamp, proves `files` as they are now:
// its first line says every obligation proved, each `proved`/`input` file still has the digest it
// was proved with, the verifier that wrote it is this binary, the compile flags are `flags`, and
// each of `files` is one it proved. The build's proof gate (verify/CMakeLists.txt) writes the
// stamp; the verify.kernel.* tests ask this instead of proving the same bytes a second time.
// 0: a current proof (its kernel lines printed), 1: missing, failed, stale or of other files.
int checkStamp(const std::string &stamp, const std::vector<std::string> &files, const std::vector<std::string> &flags) {
  std::ifstream in(stamp);
  if (!in) {
    std::cerr << stamp << ": error: no proof stamp (build the project: its proof gate runs chapoly-verify and writes it)\n";
    return 1;
  }
  std::vector<std::string> problems, kernels, proved;
  std::string line;
  bool first = true, sawVerifier = false, sawFlags = false;
  while (std::getline(in, line)) {
    if (first) {
      first = false;
      if (line != "chapoly-verify proof stamp: all obligations OK") problems.push_back("its first line is not \"all obligations OK\"");
      continue;
    }
    std::istringstream ls(line);
    std::string tag, digest;
    ls >> tag;
    if (tag == "proved" || tag == "input") {
      ls >> digest;
      std::string path;
      std::getline(ls >> std::ws, path);
      if (tag == "proved") proved.push_back(path);
      struct stat st {};
      if (::stat(path.c_str(), &st) != 0) problems.push_back(path + " is gone");
      else if (fileDigest(path) != digest) problems.push_back(path + " changed since it was proved");
    } else if (tag == "verifier") {
      ls >> digest;
      sawVerifier = true;
      if (fileDigest("/proc/self/exe") != digest) problems.push_back("it was written by another chapoly-verify binary than this one");
    } else if (tag == "flags") {
      sawFlags = true;
      const std::string rest = line.substr(5);
      if (rest != flagsLine(flags)) problems.push_back("it was proved with the compile flags [" + rest + " ] and these are [" + flagsLine(flags) + " ]");
    } else if (tag == "kernel") {
      kernels.push_back(line);
    }
  }
  if (first) problems.push_back("it is empty");
  if (!sawVerifier || !sawFlags) problems.push_back("it names no verifier binary or compile flags (an older stamp)");
  for (const auto &f : files)
    if (std::find(proved.begin(), proved.end(), f) == proved.end()) problems.push_back("it does not prove " + f);
  if (!problems.empty()) {
    for (const auto &p : problems) std::cerr << stamp << ": error: stale or foreign proof: " << p << "\n";
    std::cerr << stamp << ": rebuild the project (its proof gate proves the kernels again)\n";
    return 1;
  }
  std::cout << stamp << ": a current proof of";
  for (const auto &f : files) std::cout << " " << f;
  std::cout << " (every obligation OK, by this chapoly-verify, with these flags)\n";
  for (const auto &k : kernels) std::cout << "  " << k << "\n";
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  std::vector<std::string> flags;
  int split = argc;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--") {
      split = i;
      break;
    }
  for (int i = split + 1; i < argc; ++i) flags.push_back(argv[i]);

  CLI::App app{"chapoly-verify: Z3 proofs over the emitted chapoly kernels"};
  std::vector<std::string> files;
  std::string jsonPath, textPath, stampPath, only, kernelOnly, checkStampPath;
  unsigned timeoutMs = 10000;
  bool verbose = false, dumpTable = false, quiet = false, failFast = false;
  std::vector<std::string> stampInputs;
  app.add_option("files", files, "emitted kernel sources (.cpp)");
  app.add_option("--report-json", jsonPath, "write the JSON report here");
  app.add_option("--report", textPath, "write the text report here (default: standard output)");
  app.add_option("--stamp", stampPath, "on success, write this proof stamp (removed on failure)");
  app.add_option("--stamp-input", stampInputs, "extra file recorded in the stamp (spec, header)")
      ->allow_extra_args(false);
  app.add_option("--check-stamp", checkStampPath,
                 "prove nothing: exit 0 if this stamp is a current proof of FILE... (same bytes, inputs, compile flags "
                 "and verifier binary), else 1");
  app.add_option("--kernel", kernelOnly, "prove only this exported function");
  app.add_option("--obligation", only, "re-run one obligation: its number, LINE or KIND:LINE");
  app.add_option("--timeout-ms", timeoutMs, "per-query Z3 timeout in milliseconds")->check(CLI::PositiveNumber);
  app.add_flag("--verbose", verbose, "list the intermediate bound steps too");
  app.add_flag("--quiet", quiet, "no text report on standard output");
  app.add_flag("--fail-fast", failFast,
               "stop after the first proof stage (a kernel's bounds, or its semantics) with a failed or timed-out "
               "obligation: the rest is not proved, the run fails (mutant tests)");
  app.add_flag("--list-intrinsics", dumpTable, "print the intrinsic semantics table and exit");
  bool allowBoundsOnly = false;
  app.add_flag("--allow-bounds-only", allowBoundsOnly,
               "hand-written samples only: honour // chapoly-bounds-only markers (helpers checked for bounds, "
               "with no value proof); without it such a marker is a usage error");
  try {
    app.parse(split, argv);
  } catch (const CLI::ParseError &e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  if (dumpTable) {
    for (const auto &in : cv::intrinsicTable())
      std::cout << in.name << "  [" << in.feature << ", " << in.laneBits << "-bit lanes]\n    value: "
                << in.semantics << "\n    side:  " << in.side << "\n";
    return 0;
  }
  if (!checkStampPath.empty()) {
    if (files.empty() || !stampPath.empty()) {
      std::cerr << "chapoly-verify: error: --check-stamp STAMP takes the proved files (and their -- flags), and no --stamp\n";
      return 2;
    }
    return checkStamp(checkStampPath, files, flags);
  }
  // From here on every failure leaves no stamp: a stale one would pass the gate.
  if (!stampPath.empty()) std::remove(stampPath.c_str());
  if (files.empty()) {
    std::cerr << "chapoly-verify: error: no input files (usage: chapoly-verify [options] FILE.cpp... -- "
                 "<compile flags>)\n";
    return 2;
  }
  // Usage errors end the run (exit 2, no stamp) before anything is parsed: flags the compiler
  // does not know, and inputs that are not regular files (a FIFO would hang the parser,
  // /dev/zero fill memory) or are larger than any kernel.
  if (auto bad = cv::checkCompileFlags(flags); !bad.empty()) {
    for (const auto &m : bad) std::cerr << "chapoly-verify: error: " << m << "\n";
    return 2;
  }
  for (const auto &path : files) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      std::cerr << path << ": error: cannot read the file: " << std::strerror(errno) << "\n";
      return 2;
    }
    if (!S_ISREG(st.st_mode)) {
      std::cerr << path << ": error: " << (S_ISDIR(st.st_mode) ? "is a directory" : "is not a regular file")
                << "; chapoly-verify reads emitted kernel sources (.cpp)\n";
      return 2;
    }
    constexpr off_t kMaxSource = 64 << 20;
    if (st.st_size > kMaxSource) {
      std::cerr << path << ": error: " << st.st_size << " bytes is larger than any kernel source (limit "
                << kMaxSource << ")\n";
      return 2;
    }
  }

  auto t0 = std::chrono::steady_clock::now();
  cv::Prover prover(timeoutMs);
  std::vector<cv::KernelResult> results;
  for (const auto &path : files) {
    cv::File file;
    std::vector<cv::FrontendError> errs;
    if (!cv::parseKernelFile(path, flags, file, errs)) {
      for (const auto &e : errs)
        std::cerr << e.file << ":" << e.loc.line << ":" << e.loc.col << ": error: " << e.msg << "\n";
      return 2;
    }
    // A bounds-only marker switches value proofs off: the generator never emits one, and in a
    // kernel it would be a bypass (found by the stop-29 review: a marked lane helper skipped its
    // checks), so only a run that asks for it (the hand-written samples) honours it.
    if (!allowBoundsOnly) {
      bool marked = false;
      for (const auto &fn : file.funcs)
        if (cv::markedBoundsOnly(fn)) {
          std::cerr << path << ":" << fn.loc.line << ":" << fn.loc.col << ": error: " << fn.name
                    << " is marked // chapoly-bounds-only (no value proof), which only hand-written samples "
                       "may carry (--allow-bounds-only)\n";
          marked = true;
        }
      if (marked) return 2;
    }
    {
      std::vector<std::string> cerrs = cv::checkContracts(file);
      if (!cerrs.empty()) {
        for (const auto &e : cerrs) std::cerr << e << "\n";
        return 2;
      }
    }
    cv::BoundsOptions bo;
    bo.finalReduction = cv::finalReductionHelpers(file);
    bo.onlyObligation = only;
    bo.failFast = failFast;
    bool any = false, stopped = false;
    auto failed = [](const cv::KernelResult &kr) {
      if (!kr.errors.empty()) return true;
      for (const auto &o : kr.obligations)
        if (!o.skipped && o.res != cv::Res::OK) return true;
      return false;
    };
    for (const auto &fn : file.funcs) {
      if (!fn.isExported) continue;
      if (!kernelOnly.empty() && fn.name != kernelOnly) continue;
      any = true;
      if (stopped) continue;
      cv::KernelResult kr = cv::proveBounds(file, fn, prover, bo);
      stopped = failFast && failed(kr);
      if (!stopped) cv::proveSemantics(file, fn, prover, bo, kr);
      stopped = stopped || (failFast && failed(kr));
      results.push_back(std::move(kr));
    }
    if (stopped) break;
    if (!any) {
      std::cerr << path << ": error: no exported kernel function"
                << (kernelOnly.empty() ? "" : " named '" + kernelOnly + "'") << " in this file\n";
      return 2;
    }
  }
  cv::RunInfo run;
  run.files = files;
  run.flags = flags;
  run.timeoutMs = timeoutMs;
  run.only = only;
  run.totalMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  run.queries = prover.queries();
  run.cacheHits = prover.cacheHits();

  if (!only.empty()) {
    bool matched = false;
    for (const auto &k : results)
      for (const auto &o : k.obligations) matched = matched || !o.skipped;
    if (!matched) {
      std::cerr << "chapoly-verify: error: no obligation matches --obligation " << only
                << " (a number, LINE, KIND:LINE or KIND from a report of the same file)\n";
      return 2;
    }
  }
  auto written = [](std::ofstream &out, const std::string &path) {
    out.flush();
    if (out) return true;
    std::cerr << "chapoly-verify: error: cannot write " << path << "\n";
    return false;
  };
  if (!textPath.empty()) {
    std::ofstream out(textPath);
    cv::printText(out, run, results, verbose);
    if (!written(out, textPath)) return 2;
  }
  if (!quiet) cv::printText(std::cout, run, results, verbose);
  if (!jsonPath.empty()) {
    std::ofstream out(jsonPath);
    out << cv::jsonReport(run, results);
    if (!written(out, jsonPath)) return 2;
  }
  bool ok = cv::allOk(results);
  if (!ok) {
    cv::printDiagnostics(std::cerr, run, results);
    return 1;
  }
  if (!stampPath.empty()) {
    if (!only.empty() || !kernelOnly.empty()) {
      std::cerr << "chapoly-verify: error: a stamp needs every obligation of every kernel (drop "
                   "--obligation/--kernel)\n";
      return 2;
    }
    std::ofstream st(stampPath);
    st << "chapoly-verify proof stamp: all obligations OK\n";
    for (const auto &f : files) st << "proved " << fileDigest(f) << " " << f << "\n";
    for (const auto &f : stampInputs) st << "input  " << fileDigest(f) << " " << f << "\n";
    // What made the proof: this binary and the compile flags (--check-stamp compares both).
    st << "verifier " << fileDigest("/proc/self/exe") << "\n";
    st << "flags" << flagsLine(flags) << "\n";
    // Per kernel: the obligations the text report lists, by kind, then the intermediate interval
    // steps (`bound`, --verbose) apart, so the count says what was claimed and proved.
    for (const auto &k : results) {
      std::map<std::string, size_t> kinds;
      size_t bounds = 0;
      for (const auto &o : k.obligations) {
        if (o.kind == "bound") ++bounds;
        else ++kinds[o.kind];
      }
      size_t claims = k.obligations.size() - bounds;
      st << "kernel " << k.kernel << " " << claims << " obligations (";
      const char *sep = "";
      for (const auto &[kind, n] : kinds) {
        st << sep << kind << " " << n;
        sep = ", ";
      }
      st << "), " << bounds << " intermediate bounds\n";
    }
    if (!written(st, stampPath)) {
      std::remove(stampPath.c_str());
      return 2;
    }
  }
  return 0;
}
