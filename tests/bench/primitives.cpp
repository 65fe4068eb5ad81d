// primitives.cpp: chapoly-bench --primitives (primitives.hpp).
//
// Cycles are TSC ticks (rdtsc), labelled as such: the TSC runs at a fixed rate (measured here
// against the steady clock), which under turbo is not the core clock. The floors come from
// micro-benchmarks run in the same process: the latency of a chain of dependent vector ARX ops
// (vpaddd/vpxord/vprold) and of dependent IFMA ops, and the throughput of independent ops in the
// AVX-512 kernel's ARX:IFMA mix, times the op counts of the algorithm (ChaCha20: 20 rounds x 4
// quarter-rounds x 12 ops per 64-byte block; Poly1305 radix 2^44: 9 lo + 9 hi products per
// 16-byte block).
#include "primitives.hpp"
#include "measure.hpp"

#include "internal/chapoly_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace chapoly::bench {

namespace {

using chapoly::internal::Backend;

// TSC ticks per nanosecond, measured over 200 ms of the steady clock.
double tsc_ghz() {
  auto t0 = std::chrono::steady_clock::now();
  uint64_t c0 = ticks();
  while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(200)) {
  }
  uint64_t c1 = ticks();
  double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
  return static_cast<double>(c1 - c0) / ns;
}

#if defined(__x86_64__)
// Micro-benchmarks (AVX-512 F + IFMA; run only where the avx512 backend runs). Each returns TSC
// ticks per op over `iters` loop iterations.
__attribute__((target("avx512f,avx512ifma"))) double lat_arx(uint64_t iters) {
  uint64_t n = iters, t0 = ticks();
  asm volatile(
      "vpxord %%zmm0, %%zmm0, %%zmm0\n"
      "1:\n"
      ".rept 16\n"
      "vpaddd %%zmm1, %%zmm0, %%zmm0\n"
      "vpxord %%zmm2, %%zmm0, %%zmm0\n"
      "vprold $7, %%zmm0, %%zmm0\n"
      ".endr\n"
      "dec %0\n"
      "jnz 1b\n"
      : "+r"(n)::"xmm0", "xmm1", "xmm2", "cc");
  return static_cast<double>(ticks() - t0) / static_cast<double>(iters * 48);
}

__attribute__((target("avx512f,avx512ifma"))) double lat_ifma(uint64_t iters) {
  uint64_t n = iters, t0 = ticks();
  asm volatile(
      "vpxord %%zmm0, %%zmm0, %%zmm0\n"
      "1:\n"
      ".rept 32\n"
      "vpmadd52luq %%zmm1, %%zmm2, %%zmm0\n"
      ".endr\n"
      "dec %0\n"
      "jnz 1b\n"
      : "+r"(n)::"xmm0", "xmm1", "xmm2", "cc");
  return static_cast<double>(ticks() - t0) / static_cast<double>(iters * 32);
}

// Twelve independent chains, each 7 ARX ops and 1 IFMA op per iteration (the kernels' mix:
// 62 ARX to 9 IFMA per 64 bytes): ticks per op when nothing waits on a dependency.
__attribute__((target("avx512f,avx512ifma"))) double thr_mix(uint64_t iters) {
  uint64_t n = iters, t0 = ticks();
  asm volatile(
      "1:\n"
      ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11\n"
      "vpaddd %%zmm12, %%zmm\\r, %%zmm\\r\n"
      ".endr\n"
      ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11\n"
      "vpxord %%zmm13, %%zmm\\r, %%zmm\\r\n"
      ".endr\n"
      ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11\n"
      "vprold $16, %%zmm\\r, %%zmm\\r\n"
      ".endr\n"
      ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11\n"
      "vpmadd52luq %%zmm14, %%zmm15, %%zmm\\r\n"
      ".endr\n"
      ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11\n"
      "vpaddd %%zmm12, %%zmm\\r, %%zmm\\r\n"
      ".endr\n"
      ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11\n"
      "vpxord %%zmm13, %%zmm\\r, %%zmm\\r\n"
      ".endr\n"
      ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11\n"
      "vprold $12, %%zmm\\r, %%zmm\\r\n"
      ".endr\n"
      ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11\n"
      "vpaddd %%zmm12, %%zmm\\r, %%zmm\\r\n"
      ".endr\n"
      "dec %0\n"
      "jnz 1b\n"
      : "+r"(n)::"xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
        "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "cc");
  return static_cast<double>(ticks() - t0) / static_cast<double>(iters * 96);
}

// The zmm upper halves are dirty after the micro-benchmarks: clear them before SSE code runs.
__attribute__((target("avx"))) void upper_clear() { _mm256_zeroupper(); }

// The fastest of 41 short runs of a micro-benchmark (~0.1 ms each): a run that was preempted or
// interrupted only gets slower (on a loaded machine a long run is nearly always cut into), and a
// latency or port bound is the best the CPU does.
template <class F>
double micro(F f) {
  double best = 1e300;
  f(20000);  // warm the vector unit up
  for (int i = 0; i < 41; ++i) best = std::min(best, f(2000));
  upper_clear();
  return best;
}
#endif

constexpr double kChachaArxPer64 = 62;  // (20*4*12 + 16 + 16) 32-bit ops / 16 lanes
constexpr double kIfmaPer64 = 9;        // 4 blocks * 18 products / 8 lanes
constexpr double kChainArx = 240;       // one block: 20 rounds * 12 dependent ops

}  // namespace

nlohmann::json run_primitives(const std::vector<size_t> &sizes, size_t aad_len, int rounds,
                              double batch_ms) {
  nlohmann::json out;
  const double ghz = tsc_ghz();
  out["tsc_ghz"] = ghz;
  out["unit"] = "TSC cycles per byte (rdtsc ticks; the TSC runs at a fixed rate, measured above, not the core clock)";

  // Backends: the linked kernels this CPU runs, then the portable reference.
  std::vector<const Backend *> backends = usable_kernel_backends();
  backends.push_back(&chapoly::internal::portable_backend());

  // Floors (AVX-512 IFMA CPUs): micro-benchmarks, then per size max(latency chain, port bound).
  bool floors = false;
  double l_arx = 0, l_ifma = 0, t_mix = 0;
#if defined(__x86_64__)
  if (const Backend *b = chapoly::internal::linked_backend("avx512"); b && !b->missing()) {
    l_arx = micro(lat_arx);
    l_ifma = micro(lat_ifma);
    t_mix = micro(thr_mix);
    floors = true;
    out["micro"] = {{"arx_latency_ticks", l_arx},
                    {"ifma_latency_ticks", l_ifma},
                    {"mix_ticks_per_op", t_mix},
                    {"chacha_arx_ops_per_64B", kChachaArxPer64},
                    {"ifma_ops_per_64B", kIfmaPer64},
                    {"block_chain_ops", kChainArx}};
  }
#endif
  auto floor_cpb = [&](size_t len) {
    double poly_blocks = std::ceil(static_cast<double>(aad_len) / 16) + std::ceil(static_cast<double>(len) / 16) + 1;
    double chain = kChainArx * l_arx + std::ceil(poly_blocks / 8) * l_ifma;
    double port = static_cast<double>(len) / 64 * (kChachaArxPer64 + kIfmaPer64) * t_mix;
    return std::max(chain, port) / static_cast<double>(len);
  };

  std::vector<uint8_t> key(32, 7), nonce(12, 9), aad(std::max<size_t>(aad_len, 1), 3), tag(16);
  // ticks[b][s][op]: per round, ticks per byte; op 0 seal, 1 chacha20, 2 poly1305.
  std::vector<std::vector<std::vector<std::vector<double>>>> t(
      backends.size(), std::vector<std::vector<std::vector<double>>>(sizes.size(), std::vector<std::vector<double>>(3)));
  std::vector<std::vector<size_t>> msgs(backends.size(), std::vector<size_t>(sizes.size(), 1));
  size_t max_len = *std::max_element(sizes.begin(), sizes.end());
  std::vector<uint8_t> in(max_len + 64, 0x5c), buf(max_len + 64);
  auto run = [&](const Backend &b, int op, size_t len, size_t count) {
    uint64_t c0 = ticks();
    for (size_t i = 0; i < count; ++i) {
      if (op == 0) b.seal(buf.data(), tag.data(), in.data(), len, aad.data(), aad_len, nonce.data(), key.data());
      else if (op == 1) b.chacha20(buf.data(), in.data(), len, nonce.data(), key.data(), 1);
      else b.poly1305(tag.data(), in.data(), len, key.data());
    }
    return static_cast<double>(ticks() - c0);
  };
  for (size_t bi = 0; bi < backends.size(); ++bi)
    for (size_t s = 0; s < sizes.size(); ++s) {
      double tk = run(*backends[bi], 0, sizes[s], 16) / 16;  // ticks per seal
      msgs[bi][s] = std::max<size_t>(4, static_cast<size_t>(batch_ms * 1e6 * ghz / std::max(tk, 1.0)));
    }
  for (int r = 0; r < rounds; ++r)
    for (size_t s = 0; s < sizes.size(); ++s)
      for (size_t j = 0; j < backends.size(); ++j) {
        size_t bi = (j + static_cast<size_t>(r)) % backends.size();
        for (int op = 0; op < 3; ++op) {
          // A round's figure is the fastest of three batches: on a shared machine a preemption
          // only adds time, and with one batch per round a loaded machine corrupts the median.
          double tk = 1e300;
          for (int k = 0; k < 3; ++k) tk = std::min(tk, run(*backends[bi], op, sizes[s], msgs[bi][s]));
          t[bi][s][static_cast<size_t>(op)].push_back(tk / static_cast<double>(msgs[bi][s] * sizes[s]));
        }
        if (backends[bi]->scrub) backends[bi]->scrub();
      }

  fmt::print("\nprimitives (TSC cycles per byte, TSC {:.3f} GHz measured; median over {} rounds of the "
             "fastest of 3 batches; "
             "two-pass = chacha20 + poly1305, i.e. 1/(1/chacha + 1/poly) in throughput)\n",
             ghz, rounds);
  if (floors)
    fmt::print("micro-benchmarks: dependent ARX op {:.2f}, dependent IFMA op {:.2f}, ARX:IFMA 7:1 mix "
               "{:.3f} ticks per op\n",
               l_arx, l_ifma, t_mix);
  fmt::print("{:>10} {:>7} {:>9} {:>9} {:>9} {:>9} {:>9}\n", "backend", "bytes", "aead", "chacha20",
             "poly1305", "two-pass", "floor");
  out["rows"] = nlohmann::json::array();
  for (size_t bi = 0; bi < backends.size(); ++bi)
    for (size_t s = 0; s < sizes.size(); ++s) {
      double seal = median(t[bi][s][0]), cc = median(t[bi][s][1]), pp = median(t[bi][s][2]);
      // The floor is that of the AVX-512 IFMA kernels' work: shown on their row only.
      const bool has_floor = floors && std::string(backends[bi]->name) == "avx512";
      double fl = has_floor ? floor_cpb(sizes[s]) : 0;
      fmt::print("{:>10} {:>7} {:>9.3f} {:>9.3f} {:>9.3f} {:>9.3f} {:>9}\n", backends[bi]->name, sizes[s], seal,
                 cc, pp, cc + pp, has_floor ? fmt::format("{:.3f}", fl) : "-");
      nlohmann::json row = {{"backend", backends[bi]->name}, {"size", sizes[s]},  {"aead_cpb", seal},
                            {"chacha20_cpb", cc},           {"poly1305_cpb", pp}, {"two_pass_cpb", cc + pp}};
      if (has_floor) row["floor_cpb"] = fl;
      out["rows"].push_back(row);
    }
  return out;
}

}  // namespace chapoly::bench
