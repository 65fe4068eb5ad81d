// rvv_intrinsics_cases.h: the RVV semantics-table cases (rvv_intrinsics_cases.cpp, compiled with
// -march=rv64gcv), run by rvv_intrinsics_test.cpp after its CPU check.
#pragma once

#include <cstddef>
#include <random>

#include "intrinsics.h"

// One case: runs the row's instruction against its lane model (GoogleTest assertions).
struct RvvCase {
  const char *name;  // the table row's name
  void (*run)(const cv::Intrinsic &, std::mt19937_64 &);
};
extern const RvvCase kRvvCases[];
extern const size_t kRvvCaseCount;
