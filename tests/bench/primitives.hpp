// primitives.hpp: chapoly-bench --primitives: every chapoly backend's AEAD, ChaCha20-only and
// Poly1305-only kernels in TSC cycles per byte, the two-pass bound beside the fused AEAD, and the
// floor of each size on this CPU from micro-benchmarks (docs/benchmarks.md, "Cycles per byte").
#ifndef CHAPOLY_BENCH_PRIMITIVES_HPP
#define CHAPOLY_BENCH_PRIMITIVES_HPP

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace chapoly::bench {

/// run_primitives measures every backend this CPU runs at each size in `sizes` (bytes; AAD
/// `aad_len` bytes for the AEAD), `rounds` interleaved rounds, each the fastest of three batches of
/// about `batch_ms` milliseconds, median over rounds per cell; prints a table to stdout and returns it as JSON (see the
/// "primitives" object in docs/benchmarks.md). The caller has pinned the process to one CPU.
nlohmann::json run_primitives(const std::vector<size_t> &sizes, size_t aad_len, int rounds,
                              double batch_ms);

}  // namespace chapoly::bench

#endif
