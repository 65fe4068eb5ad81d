// stack_positions.hpp: chapoly-bench --stack-positions: how each chapoly backend's seal time
// depends on where the caller's stack lies (docs/benchmarks.md, "Where the kernel's stack lies").
#ifndef CHAPOLY_BENCH_STACK_POSITIONS_HPP
#define CHAPOLY_BENCH_STACK_POSITIONS_HPP

#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

namespace chapoly::bench {

/// run_stack_positions calls every backend this CPU runs (the raw seal kernel, in place, AAD
/// `aad_len` bytes) for each message length in `sizes` (bytes) from 256 stack positions: the
/// kernel's caller moved down by 0, 16, ..., 4080 bytes, which is every 16-byte-aligned stack
/// address mod 4096 the ABI allows. At each position the time is the fastest of `rounds` batches
/// of a few calls, each batch interleaved with one from position 0 (the reference), and is
/// reported as its ratio to that reference, so that a stretch of time in which the whole machine
/// runs slower cancels out; a position whose ratio is more than 1.25 times the median ratio is
/// counted as slow. Prints a line and a 256-character map ('#' slow, '.' not) per backend and
/// size; returns the same as JSON ({"tsc": true, "rows": [{backend, size, median_ratio,
/// worst_ratio, worst_offset, slow_positions, map}]}). The caller has pinned the process to one CPU.
nlohmann::json run_stack_positions(const std::vector<size_t> &sizes, size_t aad_len, int rounds);

}  // namespace chapoly::bench

#endif
