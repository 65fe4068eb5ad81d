// chapoly-verify: proves, over the emitted C++ (not the spec), that the kernels' limb arithmetic
// cannot overflow and that the Poly1305 / ChaCha20 steps compute what RFC 8439 says.
//
//   chapoly-verify [--report-json F] [--report F] [--stamp F] [--kernel K] [--obligation ID]
//                  [--timeout-ms N] [--fail-fast] FILE.cpp... [-- <compile flags>]
//                  [--stamp-input F]... [--depfile F] [--allow-bounds-only] [--proof-cache DIR]
//   chapoly-verify --check-stamp STAMP [--stamp-input F]... FILE.cpp... [-- <compile flags>]
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
#include <z3.h>
#include <cstdlib>
#include <set>

#include "answers.h"
#include "bounds.h"
#include "contracts.h"
#include "intrinsics.h"
#include "ir.h"
#include "proofs.h"
#include "report.h"
#include "reuse.h"
#include "smt.h"

namespace {

// cv::digestOf the bytes of a regular file, read whole: what the stamp records of a file. ""
// when the path is not a regular file or its bytes cannot all be read.
std::string fileDigest(const std::string &path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return "";
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::string s = ss.str();
  if ((off_t)s.size() != st.st_size) return "";
  return cv::digestOf(s);
}

// Whether a name or flag would break a stamp's one-item-per-line format.
bool hasLineBreak(const std::string &s) { return s.find_first_of("\n\r") != std::string::npos; }

// The compile flags a stamped proof may be made with: include paths, macros, the language
// standard, target and ISA selection, warnings and optimisation levels. Others (-include-pch,
// -fmodules, --config, -ivfsoverlay, ...) make clang read files the stamp cannot follow.
bool stampableFlag(const std::string &f) {
  for (const char *p : {"-I", "-D", "-U", "-std=", "-m", "--target=", "-march=", "-O", "-W"})
    if (f.rfind(p, 0) == 0 && f.size() > std::strlen(p)) return !hasLineBreak(f);
  return false;
}

// The toolchain a proof depends on beyond the files it read: the Clang the front end parsed
// with and the Z3 that decided the queries (shared libraries: a package update changes them
// without changing this binary).
std::string toolchainLine() {
  unsigned ma = 0, mi = 0, bu = 0, re = 0;
  Z3_get_version(&ma, &mi, &bu, &re);
  return cv::clangVersion() + "; Z3 " + std::to_string(ma) + "." + std::to_string(mi) + "." + std::to_string(bu) + "." +
         std::to_string(re);
}

// The real path of a file ("" if it has none).
std::string realPath(const std::string &p) {
  char *r = ::realpath(p.c_str(), nullptr);
  if (!r) return "";
  std::string out = r;
  std::free(r);
  return out;
}

// --check-stamp: whether `stamp`, written by a run with --stamp, is a current proof of `files`
// (each one it proved), with `inputs` among the files it records (the spec and header the proof
// gate records), made with exactly `flags` (one `flag` line each, in order) by this verifier
// binary on this toolchain, every obligation OK and no bounds-only helper honoured; every file it
// records (the proved sources, the inputs, every header the parse read) still has the bytes it
// was proved with; and parsing the files again with `flags` reads exactly the headers it records
// (a header found first on the search path now, another libstdc++, would be other code). Files
// are compared by real path. The build's proof gate (verify/CMakeLists.txt) writes the stamp;
// the verify.kernel.* tests ask this instead of proving the same bytes a second time.
// 0: a current proof (its kernel lines printed), 1: missing, failed, incomplete, stale or foreign.
int checkStamp(const std::string &stamp, const std::vector<std::string> &files, const std::vector<std::string> &inputs,
               const std::vector<std::string> &flags) {
  struct stat sst {};
  std::ifstream in;
  if (::stat(stamp.c_str(), &sst) == 0 && S_ISREG(sst.st_mode)) in.open(stamp);
  if (!in.is_open() || !in) {
    std::cerr << stamp << ": error: no proof stamp (build the project: its proof gate runs chapoly-verify and writes it)\n";
    return 1;
  }
  std::vector<std::string> problems, kernels, recordedFlags;
  std::set<std::string> proved, recordedInputs;
  std::map<std::string, std::string> headers;  // real path -> digest
  std::string line, last;
  bool first = true, sawVerifier = false, sawToolchain = false;
  while (std::getline(in, line)) {
    last = line;
    if (first) {
      first = false;
      if (line != "chapoly-verify proof stamp: all obligations OK") problems.push_back("its first line is not \"all obligations OK\"");
      continue;
    }
    std::istringstream ls(line);
    std::string tag, digest;
    ls >> tag;
    if (tag == "proved" || tag == "input" || tag == "header") {
      ls >> digest;
      std::string path;
      std::getline(ls >> std::ws, path);
      const std::string real = realPath(path);  // ("" when it is gone: reported below, matches nothing)
      if (!real.empty() && tag == "proved") proved.insert(real);
      if (!real.empty() && tag == "input") recordedInputs.insert(real);
      if (!real.empty() && tag == "header") headers[real] = digest;
      const std::string now = fileDigest(path);
      if (now.empty()) problems.push_back(path + " is gone or unreadable");
      else if (now != digest) problems.push_back(path + " changed since it was proved");
    } else if (tag == "verifier") {
      ls >> digest;
      sawVerifier = true;
      const std::string self = fileDigest("/proc/self/exe");
      if (self.empty()) problems.push_back("this chapoly-verify cannot read its own binary (/proc/self/exe) to compare");
      else if (self != digest) problems.push_back("it was written by another chapoly-verify binary than this one");
    } else if (tag == "toolchain") {
      sawToolchain = true;
      const std::string rest = line.size() > 10 ? line.substr(10) : "";
      if (rest != toolchainLine()) problems.push_back("it was proved with " + rest + ", and this is " + toolchainLine());
    } else if (tag == "flag") {
      recordedFlags.push_back(line.size() > 5 ? line.substr(5) : "");
    } else if (tag == "mode") {
      problems.push_back("it honoured // chapoly-bounds-only markers (--allow-bounds-only): some helpers have no value proof");
    } else if (tag == "kernel") {
      kernels.push_back(line);
    } else if (line != "end") {
      problems.push_back("a line this verifier does not know: " + line);
    }
  }
  if (first) problems.push_back("it is empty");
  else if (last != "end") problems.push_back("it is incomplete (no \"end\" line)");
  if (!sawVerifier || !sawToolchain) problems.push_back("it names no verifier binary or toolchain (an older stamp)");
  if (kernels.empty() && !first) problems.push_back("it lists no kernel");
  if (recordedFlags != flags) {
    std::string was, now;
    for (const auto &f : recordedFlags) was += " '" + f + "'";
    for (const auto &f : flags) now += " '" + f + "'";
    problems.push_back("it was proved with the compile flags [" + was + " ] and these are [" + now + " ]");
  }
  for (const auto &f : files)
    if (!proved.count(realPath(f))) problems.push_back("it does not prove " + f);
  for (const auto &f : inputs)
    if (!recordedInputs.count(realPath(f)) && !headers.count(realPath(f))) problems.push_back("it does not record the input " + f);
  // The headers a parse reads now, against the ones the proof read.
  if (problems.empty()) {
    std::map<std::string, std::string> now;
    for (const auto &f : files) {
      cv::File file;
      std::vector<cv::FrontendError> errs;
      if (!cv::parseKernelFile(f, flags, file, errs)) {
        problems.push_back(f + " does not parse with these flags now" + (errs.empty() ? "" : ": " + errs[0].msg));
        continue;
      }
      for (const auto &r : file.readFiles)
        if (!proved.count(r.path) && !recordedInputs.count(r.path)) now[r.path] = r.digest;
    }
    for (const auto &[path, digest] : now) {
      auto it = headers.find(path);
      if (it == headers.end()) problems.push_back("the parse now reads " + path + ", which the proof did not read");
      else if (it->second != digest) problems.push_back("the parse reads other bytes of " + path + " than the proof did");
    }
    if (problems.empty())
      for (const auto &[path, digest] : headers)
        if (!now.count(path)) problems.push_back("the proof read " + path + ", which the parse no longer reads");
  }
  if (!problems.empty()) {
    for (const auto &p : problems) std::cerr << stamp << ": error: not a current proof: " << p << "\n";
    std::cerr << stamp << ": remove it and build again (the proof gate then proves the kernels again)\n";
    return 1;
  }
  std::cout << stamp << ": a current proof of";
  for (const auto &f : files) std::cout << " " << f;
  std::cout << " (every obligation OK; the same bytes, headers, flags, verifier and toolchain)\n";
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
  std::string jsonPath, textPath, stampPath, only, kernelOnly, checkStampPath, depfilePath;
  unsigned timeoutMs = 10000;
  bool verbose = false, dumpTable = false, quiet = false, failFast = false;
  std::vector<std::string> stampInputs;
  app.add_option("files", files, "emitted kernel sources (.cpp)");
  app.add_option("--report-json", jsonPath, "write the JSON report here");
  app.add_option("--report", textPath, "write the text report here (default: standard output)");
  app.add_option("--stamp", stampPath, "on success, write this proof stamp (removed on failure)");
  app.add_option("--stamp-input", stampInputs, "extra file recorded in the stamp (spec, header); with --check-stamp, a file the stamp must record")
      ->allow_extra_args(false);
  app.add_option("--depfile", depfilePath,
                 "with --stamp: also write a Makefile-style depfile, the stamp depending on every file the proof read "
                 "(the build's proof gate re-runs when a system header changes)");
  app.add_option("--check-stamp", checkStampPath,
                 "prove nothing: exit 0 if this stamp is a current proof of FILE... (the same bytes, inputs, headers "
                 "read, compile flags, verifier binary and toolchain), else 1");
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
  std::string cacheDir;
  app.add_option("--proof-cache", cacheDir,
                 "a directory of proofs to reuse and add to: a kernel whose file has the same code as one proved in full "
                 "before (locations, comments and the family part of kernel names aside) with the same flags and verifier "
                 "takes that proof (obligation identical-ir); fully proved kernels are added")
      ->check(CLI::ExistingDirectory);
  std::string queryCacheDir;
  app.add_option("--query-cache", queryCacheDir,
                 "a directory of proved Z3 answers to reuse and add to (the mutant tests, verify/src/answers.h): a "
                 "query this verifier binary proved before on this Z3 is taken as proved (so it cannot time out); "
                 "only proved answers are stored; not with --proof-cache")
      ->check(CLI::ExistingDirectory);
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
  if (app.count("--check-stamp") > 0) {
    if (checkStampPath.empty() || files.empty() || !stampPath.empty() || !only.empty() || !kernelOnly.empty() || allowBoundsOnly) {
      std::cerr << "chapoly-verify: error: --check-stamp STAMP takes a stamp, the proved files, --stamp-input and the "
                   "-- flags (no --stamp, --kernel, --obligation or --allow-bounds-only)\n";
      return 2;
    }
    return checkStamp(checkStampPath, files, stampInputs, flags);
  }
  // From here on every failure leaves no stamp: a stale one would pass the gate.
  if (!stampPath.empty()) {
    std::remove(stampPath.c_str());
    std::remove((stampPath + ".tmp").c_str());
  }
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
  // A stamped proof: flags whose every file read the stamp can record, paths that fit its lines,
  // and the inputs' bytes as they are before the proof starts (a later edit is a newer file).
  std::map<std::string, std::string> inputDigest;
  if (!stampPath.empty()) {
    if (!only.empty() || !kernelOnly.empty()) {
      std::cerr << "chapoly-verify: error: a stamp needs every obligation of every kernel (drop "
                   "--obligation/--kernel)\n";
      return 2;
    }
    for (const auto &f : flags)
      if (!stampableFlag(f)) {
        std::cerr << "chapoly-verify: error: --stamp: the compile flag '" << f
                  << "' is not one a stamped proof takes (-I -D -U -std= -m --target= -march= -O -W, each with its value "
                     "joined): it could make clang read files the stamp does not record\n";
        return 2;
      }
    for (const auto &f : files)
      if (hasLineBreak(f)) {
        std::cerr << "chapoly-verify: error: --stamp: a file name with a line break\n";
        return 2;
      }
    for (const auto &f : stampInputs) {
      const std::string d = hasLineBreak(f) ? "" : fileDigest(f);
      if (d.empty()) {
        std::cerr << "chapoly-verify: error: --stamp-input " << f << " is not a readable regular file (or its name has a line break)\n";
        return 2;
      }
      inputDigest[realPath(f)] = d;
    }
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
  std::string selfDigest;  // this binary's digest (the proof cache's keys and the stamp), read when first needed
  if (!queryCacheDir.empty()) {
    if (!cacheDir.empty()) {
      // A proof made with reused answers must not become a stored proof that later runs, the
      // build's gate among them, take without the answers (answers.h).
      std::cerr << "chapoly-verify: error: --query-cache and --proof-cache cannot be used together\n";
      return 2;
    }
    selfDigest = fileDigest("/proc/self/exe");
    if (selfDigest.empty() || !cv::answers::load(queryCacheDir, selfDigest)) {
      std::cerr << "chapoly-verify: error: cannot use --query-cache " << queryCacheDir
                << " (the directory, or this binary through /proc/self/exe, cannot be read)\n";
      return 2;
    }
  }
  std::vector<cv::KernelResult> results;
  std::map<std::string, std::string> readAll;  // every file the parses read: real path -> digest of the bytes parsed
  for (const auto &path : files) {
    cv::File file;
    std::vector<cv::FrontendError> errs;
    if (!cv::parseKernelFile(path, flags, file, errs)) {
      for (const auto &e : errs)
        std::cerr << e.file << ":" << e.loc.line << ":" << e.loc.col << ": error: " << e.msg << "\n";
      return 2;
    }
    for (const auto &r : file.readFiles) readAll[r.path] = r.digest;
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
    // The proof cache (reuse.h): not for a run of one obligation (its other obligations are not
    // proved, so it neither stores nor takes a whole kernel's proof).
    std::string canonical, toolchain;
    if (!cacheDir.empty() && only.empty()) {
      if (selfDigest.empty()) selfDigest = fileDigest("/proc/self/exe");
      if (!selfDigest.empty()) canonical = cv::canonicalIr(file), toolchain = toolchainLine();
    }
    // A kernel file exports extern "C" kernels; one with none is not a kernel file (a C++ function
    // with external linkage beside them is an entry point that fails its kernel-role obligation).
    bool anyCName = false;
    for (const auto &fn : file.funcs) anyCName = anyCName || (fn.isExported && fn.hasCName);
    for (const auto &fn : file.funcs) {
      if (!fn.isExported || !anyCName) continue;
      if (!kernelOnly.empty() && fn.name != kernelOnly) continue;
      any = true;
      if (stopped) continue;
      std::string key;
      if (!canonical.empty()) {
        key = cv::proofKeyText(selfDigest, toolchain, flags, allowBoundsOnly, canonical, fn.name,
                               (size_t)(&fn - file.funcs.data()));
        cv::KernelResult reused;
        if (cv::loadProof(cacheDir, key, file, fn, reused)) {
          results.push_back(std::move(reused));
          continue;
        }
      }
      cv::KernelResult kr = cv::proveBounds(file, fn, prover, bo);
      stopped = failFast && failed(kr);
      if (!stopped) cv::proveSemantics(file, fn, prover, bo, kr);
      stopped = stopped || (failFast && failed(kr));
      if (!key.empty() && !failed(kr)) cv::storeProof(cacheDir, key, kr);
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
  if (!cv::answers::store())
    std::cerr << "chapoly-verify: warning: cannot write this run's answers to --query-cache " << queryCacheDir
              << " (the proofs are not affected)\n";

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
    if (selfDigest.empty()) selfDigest = fileDigest("/proc/self/exe");
    const std::string &self = selfDigest;
    if (self.empty()) {
      std::cerr << "chapoly-verify: error: cannot read this binary (/proc/self/exe) to record it in the stamp\n";
      return 2;
    }
    // The digests are of the bytes clang parsed (the inputs clang did not read, the spec: as they
    // were before the proof began).
    std::vector<std::string> lines;
    std::set<std::string> own;
    for (const auto &f : files) {
      const std::string real = realPath(f);
      auto it = readAll.find(real);
      if (it == readAll.end() || it->second.empty()) {
        std::cerr << "chapoly-verify: error: cannot record " << f << " in the stamp (not among the files the parse read)\n";
        return 2;
      }
      lines.push_back("proved " + it->second + " " + f);
      own.insert(real);
    }
    for (const auto &f : stampInputs) {
      const std::string real = realPath(f);
      auto it = readAll.find(real);
      if (it != readAll.end() && it->second != inputDigest[real]) {
        std::cerr << "chapoly-verify: error: " << f << " changed while it was being proved\n";
        return 2;
      }
      lines.push_back("input  " + inputDigest[real] + " " + f);
      own.insert(real);
    }
    // Every other file the parse read: the kernel's own header, the compiler's intrinsic headers,
    // the C library's (a different immintrin.h or riscv_vector.h is other code).
    for (const auto &[path, digest] : readAll) {
      if (own.count(path)) continue;
      if (digest.empty() || hasLineBreak(path)) {
        std::cerr << "chapoly-verify: error: cannot record " << path << " (a file the parse read) in the stamp\n";
        return 2;
      }
      lines.push_back("header " + digest + " " + path);
    }
    // Written whole to a temporary file, then renamed: a stamp is either complete (ending in
    // "end") or absent.
    const std::string tmp = stampPath + ".tmp";
    std::ofstream st(tmp);
    st << "chapoly-verify proof stamp: all obligations OK\n";
    for (const auto &l : lines) st << l << "\n";
    // What made the proof: this binary, the toolchain, the compile flags (one line each).
    st << "verifier " << self << "\n";
    st << "toolchain " << toolchainLine() << "\n";
    for (const auto &f : flags) st << "flag " << f << "\n";
    if (allowBoundsOnly) st << "mode allow-bounds-only\n";
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
    st << "end\n";
    const bool complete = written(st, tmp);
    st.close();
    if (!complete || std::rename(tmp.c_str(), stampPath.c_str()) != 0) {
      if (complete) std::cerr << "chapoly-verify: error: cannot write " << stampPath << "\n";
      std::remove(tmp.c_str());
      return 2;
    }
    if (!depfilePath.empty()) {
      // stamp: every file read (spaces escaped as Make and Ninja read them).
      auto esc = [](const std::string &p) {
        std::string o;
        for (char ch : p) {
          if (ch == ' ' || ch == '#' || ch == '\\') o += '\\';
          if (ch == '$') o += '$';
          o += ch;
        }
        return o;
      };
      std::ofstream d(depfilePath);
      d << esc(stampPath) << ":";
      for (const auto &[path, digest] : readAll) d << " \\\n  " << esc(path);
      for (const auto &f : stampInputs) d << " \\\n  " << esc(f);
      d << "\n";
      if (!written(d, depfilePath)) {
        std::remove(stampPath.c_str());
        return 2;
      }
    }
  }
  return 0;
}
