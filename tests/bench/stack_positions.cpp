// stack_positions.cpp: chapoly-bench --stack-positions (stack_positions.hpp).
//
// Why: a kernel that spills vector registers to slots aligned less than their width can have one
// of them straddle a 4 KiB page at some stack positions, and then every spill and reload of it is
// a page-split access (the avx2 family before stop 43: the 8 KiB seal 1.8x slower at about one
// position in forty). A benchmark run in one process sees one position; this sees all of them.
#include "stack_positions.hpp"

#include "internal/chapoly_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "measure.hpp"

namespace chapoly::bench {

namespace {

using chapoly::internal::Backend;

struct Call {
  const Backend *b;
  uint8_t *buf;
  size_t len;
  const uint8_t *aad;
  size_t aad_len;
  uint8_t key[32];
  uint8_t nonce[12];
  uint8_t tag[16];
  int calls;
};

// Ticks for c.calls seals made from a frame `shift` bytes below this function's caller's.
__attribute__((noinline)) uint64_t seal_below(size_t shift, Call &c) {
  volatile uint8_t *pad = static_cast<uint8_t *>(__builtin_alloca(shift + 1));
  pad[0] = 0;
  const uint64_t t0 = ticks();
  for (int i = 0; i < c.calls; ++i) c.b->seal(c.buf, c.tag, c.buf, c.len, c.aad, c.aad_len, c.nonce, c.key);
  const uint64_t t = ticks() - t0;
  pad[0] = 1;
  return t;
}

}  // namespace

nlohmann::json run_stack_positions(const std::vector<size_t> &sizes, size_t aad_len, int rounds) {
  constexpr size_t kStep = 16, kPositions = 4096 / kStep;
  constexpr double kSlow = 1.25;  // a slow position's ratio against the median ratio
  const std::vector<const Backend *> backends = usable_kernel_backends();
  nlohmann::json j = {{"tsc", true}, {"positions", kPositions}, {"step_bytes", kStep}, {"rows", nlohmann::json::array()}};
  fmt::print("\nStack positions: each backend's seal (in place, {} bytes AAD) from {} caller stack positions\n"
             "(16-byte steps over 4 KiB), each the fastest of {} batches interleaved with position 0; ratio to\n"
             "position 0, '#' = more than {}x the median ratio in three measurements\n",
             aad_len, kPositions, rounds, kSlow);
  const size_t max_len = sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end());
  std::vector<uint8_t> buf(max_len + 64, 0x5a), aad(aad_len, 0xa5);
  for (const Backend *b : backends) {
    for (size_t len : sizes) {
      Call c{b, buf.data(), len, aad.data(), aad_len, {}, {}, {}, 0};
      for (size_t i = 0; i < 32; ++i) c.key[i] = static_cast<uint8_t>(i + 1);
      for (size_t i = 0; i < 12; ++i) c.nonce[i] = static_cast<uint8_t>(0x30 + i);
      // About 40 microseconds of calls per batch (at least one), calibrated at position 0.
      c.calls = 1;
      const uint64_t one = std::max<uint64_t>(1, seal_below(0, c));
      c.calls = static_cast<int>(std::clamp<uint64_t>(100000 / one, 1, 1000));
      auto measure = [&](size_t p) {
        uint64_t best = UINT64_MAX, ref = UINT64_MAX;
        for (int r = 0; r < rounds; ++r) {
          ref = std::min(ref, seal_below(0, c));
          best = std::min(best, seal_below(p * kStep, c));
        }
        return static_cast<double>(best) / static_cast<double>(std::max<uint64_t>(ref, 1));
      };
      std::vector<double> ratio(kPositions);
      for (size_t p = 0; p < kPositions; ++p) ratio[p] = measure(p);
      const double med = median(ratio);
      // A slow position is measured twice more and keeps its fastest ratio: a stretch of time in
      // which this core ran slower does not repeat at the same position, a placement effect does.
      for (size_t p = 0; p < kPositions; ++p)
        for (int again = 0; again < 2 && ratio[p] > kSlow * med; ++again) ratio[p] = std::min(ratio[p], measure(p));
      if (b->scrub) b->scrub();
      size_t worst = 0, slow = 0;
      std::string map;
      for (size_t p = 0; p < kPositions; ++p) {
        if (ratio[p] > ratio[worst]) worst = p;
        const bool is_slow = ratio[p] > kSlow * med;
        slow += is_slow;
        map += is_slow ? '#' : '.';
      }
      fmt::print("{:>10} {:>7} B: median ratio {:.3f}, worst {:.3f} at -{} bytes; {} of {} positions slow\n{}\n", b->name, len,
                 med, ratio[worst], worst * kStep, slow, kPositions, map);
      j["rows"].push_back({{"backend", b->name},
                           {"size", len},
                           {"median_ratio", med},
                           {"worst_ratio", ratio[worst]},
                           {"worst_offset", worst * kStep},
                           {"slow_positions", slow},
                           {"map", map}});
    }
  }
  return j;
}

}  // namespace chapoly::bench
