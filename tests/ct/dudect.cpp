// chapoly-dudect: a dudect-style statistical timing test of the tag check (issue 10, item 5;
// tests/ct/README.md). Reported, never asserted: timing depends on the machine and its load.
//
// For each backend this CPU runs, open() is timed on one 64-byte message with two classes of
// wrong tags, interleaved at random: FIXED = the right tag with its last byte changed (an
// early-exit comparison would run to the end), RANDOM = a random tag (an early-exit comparison
// would stop at the first byte). Both classes fail authentication and zero the same output, so a
// constant-time tag check gives both the same distribution. Welch's t statistic between the
// classes is printed for the raw samples and for samples below three percentiles (dudect's
// cropping against heavy tails); |t| > 10 is dudect's threshold for "leaks", below 4.5 for "no
// evidence". A control runs the same test on an early-exit comparison of 4 KiB buffers, which
// must show a large |t|: it proves the measurement can see a leak here.
//
// Usage: chapoly-dudect [--samples N] [--backend NAME]...   (default 200000 samples per class pair)
#include <x86intrin.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <chapoly/chapoly.h>

#include "internal/chapoly_internal.h"

namespace {

using chapoly::internal::Backend;

uint64_t ticks() {
  unsigned aux;
  _mm_lfence();
  uint64_t t = __rdtscp(&aux);
  _mm_lfence();
  return t;
}

// Welch's t over two running classes.
struct Welch {
  double n[2] = {0, 0}, mean[2] = {0, 0}, m2[2] = {0, 0};
  void add(int cls, double x) {
    n[cls] += 1;
    double d = x - mean[cls];
    mean[cls] += d / n[cls];
    m2[cls] += d * (x - mean[cls]);
  }
  double t() const {
    if (n[0] < 2 || n[1] < 2) return 0;
    double v0 = m2[0] / (n[0] - 1), v1 = m2[1] / (n[1] - 1);
    double den = std::sqrt(v0 / n[0] + v1 / n[1]);
    return den == 0 ? 0 : (mean[0] - mean[1]) / den;
  }
};

struct Result {
  double t_raw, t_crop[3];
};

// Measures `op(cls)` `samples` times with classes drawn at random; returns the t statistics.
template <class Op>
Result measure(size_t samples, Op op) {
  std::mt19937_64 rng(12345);
  std::vector<uint8_t> cls(samples);
  for (auto &c : cls) c = static_cast<uint8_t>(rng() & 1);
  std::vector<uint64_t> dt(samples);
  for (size_t i = 0; i < samples / 10; ++i) op(cls[i]);  // warm up
  for (size_t i = 0; i < samples; ++i) {
    uint64_t a = ticks();
    op(cls[i]);
    dt[i] = ticks() - a;
  }
  std::vector<uint64_t> sorted = dt;
  std::sort(sorted.begin(), sorted.end());
  const double pct[3] = {0.5, 0.75, 0.9};
  Welch raw, crop[3];
  for (size_t i = 0; i < samples; ++i) {
    raw.add(cls[i], static_cast<double>(dt[i]));
    for (int p = 0; p < 3; ++p)
      if (dt[i] <= sorted[static_cast<size_t>(pct[p] * (samples - 1))])
        crop[p].add(cls[i], static_cast<double>(dt[i]));
  }
  return {raw.t(), {crop[0].t(), crop[1].t(), crop[2].t()}};
}

void print(const char *name, const Result &r) {
  double worst = std::fabs(r.t_raw);
  for (double t : r.t_crop) worst = std::max(worst, std::fabs(t));
  const char *verdict = worst > 10 ? "LEAK LIKELY (|t| > 10)"
                        : worst > 4.5 ? "inconclusive (4.5 < |t| <= 10: rerun on an idle machine)"
                                      : "no evidence of a leak (|t| <= 4.5)";
  std::printf("%-22s t(raw)=%8.2f  t(<p50)=%8.2f  t(<p75)=%8.2f  t(<p90)=%8.2f  max|t|=%7.2f  %s\n",
              name, r.t_raw, r.t_crop[0], r.t_crop[1], r.t_crop[2], worst, verdict);
}

__attribute__((noinline)) int early_exit_equal(const uint8_t *a, const uint8_t *b, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return 0;
  return 1;
}

}  // namespace

int main(int argc, char **argv) {
  size_t samples = 200000;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--samples" && i + 1 < argc) {
      samples = std::strtoull(argv[++i], nullptr, 10);
    } else if (a == "--backend" && i + 1 < argc) {
      only.emplace_back(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: chapoly-dudect [--samples N] [--backend NAME]...\n");
      return 2;
    }
  }
  if (samples < 1000) samples = 1000;
  std::printf("chapoly-dudect: %zu timed open() calls per backend, 64-byte message, wrong tags: "
              "FIXED (last byte wrong) vs RANDOM\n", samples);

  std::vector<const Backend *> backends;
  size_t n = 0;
  const Backend *const *all = chapoly::internal::kernel_backends(n);
  for (size_t i = 0; i < n; ++i) backends.push_back(all[i]);
  backends.push_back(&chapoly::internal::portable_backend());

  std::mt19937_64 rng(777);
  uint8_t key[32], nonce[12], tag[16];
  for (auto &x : key) x = static_cast<uint8_t>(rng());
  for (auto &x : nonce) x = static_cast<uint8_t>(rng());
  std::vector<uint8_t> pt(64), ct(64), out(64);
  for (auto &x : pt) x = static_cast<uint8_t>(rng());
  // Precomputed tags: the classes differ only in the tag bytes.
  std::vector<std::array<uint8_t, 16>> random_tags(4096);
  for (auto &t : random_tags)
    for (auto &x : t) x = static_cast<uint8_t>(rng());

  int ran = 0;
  for (const Backend *b : backends) {
    if (!only.empty() && std::find(only.begin(), only.end(), b->name) == only.end()) continue;
    if (const char *missing = b->missing()) {
      std::printf("%-22s skipped: the CPU lacks %s\n", b->name, missing);
      continue;
    }
    if (chapoly::internal::seal_with(*b, ct.data(), tag, pt.data(), 64, nullptr, 0, nonce, key) !=
        CHAPOLY_OK) {
      std::fprintf(stderr, "chapoly-dudect: seal failed on %s\n", b->name);
      return 1;
    }
    uint8_t fixed[16];
    std::memcpy(fixed, tag, 16);
    fixed[15] ^= 1;
    size_t k = 0;
    Result r = measure(samples, [&](int cls) {
      const uint8_t *t = cls == 0 ? fixed : random_tags[k++ & 4095].data();
      volatile int rc = chapoly::internal::open_with(*b, out.data(), ct.data(), 64, t, nullptr, 0,
                                                     nonce, key);
      (void)rc;
    });
    print(b->name, r);
    ++ran;
  }
  // Control: an early-exit comparison of 4 KiB, equal but for the last byte (FIXED) or the first.
  std::vector<uint8_t> a(4096, 0x5a), same_but_last(4096, 0x5a), differ_first(4096, 0x5a);
  same_but_last[4095] ^= 1;
  differ_first[0] ^= 1;
  Result control = measure(samples, [&](int cls) {
    volatile int r = early_exit_equal(a.data(), cls == 0 ? same_but_last.data() : differ_first.data(), 4096);
    (void)r;
  });
  print("control(early-exit)", control);
  std::printf("chapoly-dudect: %d backend(s) measured; the control must show a leak, else the "
              "measurement is blind on this machine\n", ran);
  return 0;
}
