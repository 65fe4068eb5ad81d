// measure.hpp: what the kernel-level timings (--primitives, --stack-positions) share: the clock,
// the median, and the list of chapoly backends this CPU runs.
#ifndef CHAPOLY_BENCH_MEASURE_HPP
#define CHAPOLY_BENCH_MEASURE_HPP

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "internal/chapoly_internal.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace chapoly::bench {

/// ticks returns the time stamp counter (rdtsc) on x86-64, which runs at a fixed rate (not the
/// core clock under turbo), else the steady clock in nanoseconds.
inline uint64_t ticks() {
#if defined(__x86_64__)
  return __rdtsc();
#else
  return static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

/// median of `v` (the mean of the two middle values for an even count; 0 when empty).
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : (v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2);
}

/// usable_kernel_backends lists the generated-kernel backends this library links whose CPU
/// features this CPU has, in dispatch order (the portable reference not among them).
inline std::vector<const chapoly::internal::Backend *> usable_kernel_backends() {
  std::vector<const chapoly::internal::Backend *> out;
  size_t n = 0;
  const chapoly::internal::Backend *const *k = chapoly::internal::kernel_backends(n);
  for (size_t i = 0; i < n; ++i)
    if (!k[i]->missing()) out.push_back(k[i]);
  return out;
}

}  // namespace chapoly::bench

#endif
