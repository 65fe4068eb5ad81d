// report.h: human-readable and JSON reports, LLVM-style failure diagnostics, trust base.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

#include "bounds.h"

namespace cv {

struct RunInfo {
  std::vector<std::string> files;
  std::vector<std::string> flags;
  unsigned timeoutMs = 0;
  std::string only;
  double totalMs = 0;
  size_t queries = 0, cacheHits = 0;
};

// What the proofs assume, printed with every report (DESIGN.md "Trust base").
std::vector<std::string> trustBase();

// Obligation kinds with a one-line meaning each.
std::vector<std::pair<std::string, std::string>> obligationKinds();

void printText(std::ostream &os, const RunInfo &run, const std::vector<KernelResult> &ks, bool verbose);
void printDiagnostics(std::ostream &os, const RunInfo &run, const std::vector<KernelResult> &ks);
std::string jsonReport(const RunInfo &run, const std::vector<KernelResult> &ks);

// The JSON fields that name an obligation, as both the JSON report and the proof cache
// (reuse.cpp) write them: id, kind, file, line, col, what, intrinsic.
nlohmann::json obligationJson(const Obligation &o);

bool allOk(const std::vector<KernelResult> &ks);

}  // namespace cv
