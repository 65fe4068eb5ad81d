// ticks.hpp: the benchmark's clock for kernel-level timings (--primitives, --stack-positions).
#ifndef CHAPOLY_BENCH_TICKS_HPP
#define CHAPOLY_BENCH_TICKS_HPP

#include <chrono>
#include <cstdint>

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

}  // namespace chapoly::bench

#endif
