// report.cpp: reports in the CryptoLine spirit (numbered obligations tied to emitted file:line,
// OK / FAILED / TIMEOUT) and failures in the LLVM diagnostic style.
#include "report.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iomanip>
#include <map>
#include <sstream>

#include "intrinsics.h"

namespace cv {

std::vector<std::string> trustBase() {
  return {
      "Clang 16 parses the emitted C++ with the kernel's ISA flags and language standard (the AST is what is proved); the build's other flags (optimisation, -g, -fPIC, -DNDEBUG) change no code the kernel does not ask for, and it may not ask: a conditional directive in the kernel or its own headers is refused, but for an include guard and #ifdef __cplusplus",
      "Z3 4.8.12 decides each query (unsat = proved; unknown is reported as TIMEOUT, never a pass)",
      "the intrinsic semantics table (verify/src/intrinsics.cpp), each entry tested against the real "
      "instruction by tests/verify/intrinsics_test.cpp (x86) and tests/riscv/rvv_intrinsics_test.cpp "
      "(RVV, under qemu-riscv64 at VLEN 128..1024)",
      "kernel inputs are arbitrary: every byte of message, key, nonce and AAD, every length, "
      "counter and pointer value the parameter types allow (no caller contract is assumed for the "
      "bounds)",
      "the Poly1305 helpers' value proofs cover fixed ranges (loader n <= 128, 1..8 blocks, short-MAC "
      "na + nc <= 7; with 4 lanes n <= 64, 1..4 blocks, na + nc <= 3); that their callers stay inside, and pass lengths, padding mode and buffers in the "
      "right order, is tested (RFC 8439, BoringSSL, OpenSSL differential), not proved",
      "memory outside the kernel's own local arrays is arbitrary on every read (loads are unbounded)",
      "the AVX-512 update kernels' key-power state pw holds, between calls, the bytes the file's "
      "*_stream_keys kernel wrote for the message's one-time key (libchapoly keeps it in the stream "
      "state beside that key): the store and the masked load are proved (powers-store, powers-load), "
      "the hand-over between calls is the runtime's",
      "`// chapoly-invariant:` comments are assumptions at loop heads only after they are proved on "
      "entry and at the end of the body",
      "this verifier's own code: the interval rules (every step re-checked by Z3), the inliner and "
      "the symbolic evaluators",
      "with --proof-cache: its directory holds only what this verifier wrote there (an entry is taken "
      "for a kernel whose key text, the canonical code, flags and verifier, is the entry's byte for "
      "byte; the build's is build/proofs/cache, trusted as its stamps are)",
      "with --query-cache (the mutant tests; never the build's gate, refused beside --proof-cache): its "
      "directory holds only the answers this verifier binary proved on this Z3 (range queries that held, "
      "unsatisfiable assertion sets by a 128-bit structural digest, not collision-resistant against a "
      "crafted file); whoever can write it can mark a query proved",
  };
}

std::vector<std::pair<std::string, std::string>> obligationKinds() {
  return {
      {"identical-ir", "the file's code is that of one whose same kernel was proved in full with the same flags and "
                       "verifier (--proof-cache): its obligations hold here, at the lines of that file"},
      {"ifma-operand", "a vpmadd52 multiplicand is < 2^52 (the instruction ignores bits 63:52)"},
      {"mul32-operand", "a vpmuludq operand is < 2^32"},
      {"add-no-wrap", "a 64-bit lane sum (add or IFMA accumulate) does not wrap"},
      {"sub-no-borrow", "a 64-bit lane difference does not go below zero"},
      {"shl-no-drop", "a 64-bit lane left shift drops no set bit"},
      {"hsum-fits", "a horizontal sum of the lanes fits in 64 bits"},
      {"scalar-add-no-wrap", "a 64/128-bit scalar limb sum does not wrap"},
      {"scalar-sub-no-borrow", "a 64/128-bit scalar limb difference does not borrow"},
      {"scalar-mul-no-wrap", "a 64/128-bit scalar limb product does not wrap"},
      {"scalar-shl-no-drop", "a 64/128-bit scalar limb left shift drops no set bit"},
      {"invariant-entry", "a chapoly-invariant bound holds when the loop is entered"},
      {"invariant-close", "a chapoly-invariant bound holds again at the end of the loop body"},
      {"loop-bound", "a loop-carried limb without an invariant keeps a finite bound"},
      {"bound", "an intermediate interval proposed by interval arithmetic, confirmed by Z3"},
      {"final-reduction-input", "bounds of the final-reduction helper's inputs (used by its proof)"},
      {"final-reduction", "the final reduction yields h mod 2^130-5 (fully reduced) for all inputs "
                          "within the proven bounds"},
      {"final-add-s", "the tag is (h mod p + s) mod 2^128, little-endian"},
      {"block-step", "a Poly1305 loop step is acc*R + m (+ h from before, first step only) mod 2^130-5 in every "
                     "lane, R the r^8 p1305_setup made, the steps reading consecutive 128-byte groups"},
      {"mul-helper", "the multiply helper computes h = a*b mod 2^130-5 per lane given bs = 20*b; the 20*b "
                     "helper is exact"},
      {"key-setup", "r = clamp(key) as RFC 8439 2.5; lane j of the lane powers is r^(8-j) and the loop power "
                    "r^8 mod 2^130-5; the s limbs are the key's second half"},
      {"partial-block", "the partial-block loader's limbs are the padded 16-byte blocks, for every length "
                        "and both paddings"},
      {"helper", "a Poly1305 helper (carry, lane sum, settle, partial/length/short step) computes its stated "
                 "value mod 2^130-5, with the multiply by its proved contract"},
      {"call-contract", "a helper that takes key powers receives exactly the q/qs/rl/rls p1305_setup returned"},
      {"chacha-round", "a vector double round equals RFC 8439's quarter rounds on columns and diagonals, and the loop "
                       "makes 10 double rounds in all (a counted loop carrying its state, or the fused chunk loop's "
                       "fresh state)"},
      {"chacha-lanes", "a ChaCha20 lane helper (IFMA dialect) computes what its contract's claim says: state set-up, "
                       "counters, feed-forward and transpose, xor (RFC 8439 2.3, 2.4)"},
      {"clamp", "a poly1305.clamp helper: r = le128(key[0..15]) & RFC 8439's clamp mask, s1 = r1 + (r1 >> 2) "
                "exactly"},
      {"closed-world", "a reachable helper has a contract the verifier proves (or is loop- and multiply-free "
                       "glue); every 64x64->128 multiply is covered by a contract"},
      {"final-call", "a call of the poly1305.final helper passes s = le128(key[16..31]) of the key the clamp read"},
      {"join", "the joins between proved pieces: each block step, loop, final reduction and state store is "
               "handed the accumulator the last proved piece left, limbs in order; every block is padded as RFC "
               "8439 says (AEAD: pad bit, zero padding; Poly1305: 0x01 marker and no pad bit on a partial block)"},
      {"mac-order", "the pieces a kernel absorbs (block loops, partial blocks, the lengths block) follow one another "
                    "through its message in order, from its start to its end: pad16(AAD) || pad16(ciphertext) || "
                    "lengths (RFC 8439 2.8), a Poly1305 message (2.5), or a streaming entry's whole blocks; and every "
                    "block loop ends (a measure from its condition goes down each iteration); AVX-512 kernels: each "
                    "absorbing helper, the tag and the state store take the last h's limbs in order"},
      {"lengths-block", "an AEAD's last Poly1305 block before the final reduction is le64(aad_len) || le64(len) "
                        "with the pad bit (RFC 8439 2.8)"},
      {"chacha-block", "a chacha20.block helper: 20 rounds + feed-forward equal RFC 8439 2.3 (XOR in; in place, each input byte read before its output byte is written)"},
      {"kernel-bytes", "every byte a kernel's own body reads or writes, and every buffer it hands to a helper, lies inside "
                       "its buffer (len, aad_len, declared array sizes)"},
      {"keystream", "every byte a kernel stores into its output text is the input byte XOR the RFC 8439 2.4 keystream "
                    "byte for its offset (block counter and byte), with the kernel's key and nonce (AVX-512 kernels: each "
                    "xor helper call gets block base + q / 64 at text offset q); an AEAD's r and s come from block 0 (2.6)"},
      {"out-coverage", "on every path to a kernel's return, each byte of its output text [0, len) has been written, "
                       "every read of it (a seal's MAC) is of bytes already written, and every read of the input "
                       "text comes before the output's byte there is written (in place)"},
  };
}

bool allOk(const std::vector<KernelResult> &ks) {
  for (const auto &k : ks) {
    if (!k.errors.empty()) return false;
    for (const auto &o : k.obligations)
      if (!o.skipped && o.res != Res::OK) return false;
  }
  return true;
}

static std::string headroom(const Obligation &o) {
  if (!o.hasLimit || o.limit == 0) return "-";
  double h = log2u(o.limit + (o.limit == ~(u128)0 ? 0 : 1)) - log2u(o.max + 1);
  if (o.limit == ~(u128)0) h = 128 - log2u(o.max + 1);
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", h < 0 ? 0.0 : h);
  return b;
}

static std::string base(const std::string &p) {
  size_t k = p.find_last_of('/');
  return k == std::string::npos ? p : p.substr(k + 1);
}

void printText(std::ostream &os, const RunInfo &run, const std::vector<KernelResult> &ks, bool verbose) {
  os << "chapoly-verify report\n";
  os << "files:";
  for (const auto &f : run.files) os << " " << f;
  os << "\ncompile flags:";
  for (const auto &f : run.flags) os << " " << f;
  os << "\nper-query timeout: " << run.timeoutMs << " ms\n\ntrust base (assumed, not proved):\n";
  for (const auto &t : trustBase()) os << "  - " << t << "\n";
  for (const auto &k : ks) {
    size_t ok = 0, failed = 0, to = 0, bound = 0, skipped = 0;
    for (const auto &o : k.obligations) {
      if (o.skipped) {
        ++skipped;
        continue;
      }
      if (o.kind == "bound") {
        ++bound;
        if (o.res != Res::OK) (o.res == Res::TIMEOUT ? to : failed)++;
        continue;
      }
      (o.res == Res::OK ? ok : o.res == Res::TIMEOUT ? to : failed)++;
    }
    os << "\nkernel " << k.kernel << " (" << k.file << ")\n";
    os << "  " << std::left << std::setw(5) << "#" << std::setw(22) << "kind" << std::setw(12) << "line:col"
       << std::setw(20) << "proven max" << std::setw(20) << "limit" << std::setw(9) << "headroom"
       << std::setw(9) << "ms" << std::setw(8) << "result" << "what\n";
    for (const auto &o : k.obligations) {
      if (o.skipped) continue;
      if (o.kind == "bound" && !verbose && o.res == Res::OK) continue;
      std::ostringstream ms;
      ms << std::fixed << std::setprecision(1) << o.ms;
      os << "  " << std::left << std::setw(5) << o.id << std::setw(22) << o.kind << std::setw(12)
         << (std::to_string(o.loc.line) + ":" + std::to_string(o.loc.col)) << std::setw(20)
         << (o.hasLimit || o.kind == "bound" ? hex(o.max) : "-") << std::setw(20)
         << (o.hasLimit ? hex(o.limit) : "-") << std::setw(9) << headroom(o) << std::setw(9) << ms.str()
         << std::setw(8) << resName(o.res) << o.what << "\n";
    }
    for (const auto &e : k.errors) os << "  " << e << "\n";
    std::ostringstream ms;
    ms << std::fixed << std::setprecision(0) << k.ms;
    os << "  summary: " << ok << " obligations OK, " << failed << " FAILED, " << to << " TIMEOUT";
    if (skipped) os << ", " << skipped << " not selected";
    os << "; " << bound << " intermediate bounds confirmed by Z3; " << k.errors.size() << " errors; "
       << ms.str() << " ms\n";
  }
  std::ostringstream ms;
  ms << std::fixed << std::setprecision(0) << run.totalMs;
  os << "\nresult: " << (allOk(ks) ? "OK" : "FAILED") << " (" << run.queries << " Z3 queries, "
     << run.cacheHits << " answered from cache, " << ms.str() << " ms)\n";
}

void printDiagnostics(std::ostream &os, const RunInfo &run, const std::vector<KernelResult> &ks) {
  for (const auto &k : ks) {
    for (const auto &e : k.errors) os << e << "\n";
    for (const auto &o : k.obligations) {
      if (o.skipped || o.res == Res::OK) continue;
      os << o.file << ":" << o.loc.line << ":" << o.loc.col << ": error: kernel " << k.kernel
         << ": obligation " << o.id << " (" << o.kind << ") " << (o.res == Res::TIMEOUT ? "timed out" : "failed")
         << ": " << o.what;
      if (o.hasLimit) os << ": computed bound " << hex(o.max) << " exceeds required " << hex(o.limit);
      os << "\n";
      if (!o.cex.empty())
        os << o.file << ":" << o.loc.line << ":" << o.loc.col << ": note: "
           << (o.res == Res::FAILED ? "counterexample: " : "") << o.cex << "\n";
      if (!o.note.empty()) os << "note: " << o.note << "\n";
      if (!o.context.empty()) os << "note: " << o.context << "\n";
      if (!o.spec.empty()) os << "note: spec: " << o.spec << "\n";
      // KIND:LINE, not the number: numbers depend on which obligations a run creates.
      os << "note: re-run alone: chapoly-verify --kernel " << k.kernel << " --obligation " << o.kind << ":" << o.loc.line;
      for (const auto &f : run.files) os << " " << f;
      if (!run.flags.empty()) {
        os << " --";
        for (const auto &f : run.flags) os << " " << f;
      }
      os << "\n";
    }
  }
}

nlohmann::json obligationJson(const Obligation &o) {
  nlohmann::json oj;
  oj["id"] = o.id;
  oj["kind"] = o.kind;
  oj["file"] = o.file;
  oj["line"] = o.loc.line;
  oj["col"] = o.loc.col;
  oj["what"] = o.what;
  oj["intrinsic"] = o.intrinsic;
  return oj;
}

std::string jsonReport(const RunInfo &run, const std::vector<KernelResult> &ks) {
  using nlohmann::json;
  json j;
  j["tool"] = "chapoly-verify";
  j["files"] = run.files;
  j["compile_flags"] = run.flags;
  j["timeout_ms"] = run.timeoutMs;
  j["trust_base"] = trustBase();
  json kinds = json::object();
  for (auto &[k, v] : obligationKinds()) kinds[k] = v;
  j["obligation_kinds"] = kinds;
  j["intrinsic_table_entries"] = intrinsicTable().size();
  j["result"] = allOk(ks) ? "OK" : "FAILED";
  j["time_ms"] = run.totalMs;
  j["z3_queries"] = run.queries;
  j["z3_cache_hits"] = run.cacheHits;
  json karr = json::array();
  for (const auto &k : ks) {
    json kj;
    kj["kernel"] = k.kernel;
    kj["file"] = k.file;
    kj["time_ms"] = k.ms;
    kj["errors"] = k.errors;
    json oarr = json::array();
    size_t ok = 0, bad = 0;
    for (const auto &o : k.obligations) {
      json oj = obligationJson(o);
      if (o.hasLimit || o.kind == "bound") oj["max"] = hex(o.max);
      if (o.hasLimit) {
        oj["limit"] = hex(o.limit);
        oj["headroom_bits"] = std::stod(headroom(o) == "-" ? "0" : headroom(o));
      }
      oj["time_ms"] = o.ms;
      oj["queries"] = o.queries;
      oj["result"] = o.skipped ? "SKIPPED" : resName(o.res);
      if (!o.cex.empty()) oj["counterexample"] = o.cex;
      if (!o.context.empty()) oj["context"] = o.context;
      if (!o.spec.empty()) oj["spec"] = o.spec;
      if (!o.note.empty()) oj["note"] = o.note;
      if (!o.skipped) (o.res == Res::OK ? ok : bad)++;
      oarr.push_back(oj);
    }
    kj["obligations"] = oarr;
    kj["ok"] = ok;
    kj["not_ok"] = bad;
    karr.push_back(kj);
  }
  j["kernels"] = karr;
  return j.dump(2) + "\n";
}

}  // namespace cv
