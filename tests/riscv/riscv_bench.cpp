// riscv_bench.cpp: chapoly-riscv-bench — Poly1305 and AEAD seal throughput of every backend of the
// riscv64 build (portable reference, scalar = rv64_mul64, rvv = rvv_mul64) at the sizes,
// one run, under whatever runs it (scripts/bench-riscv.sh: qemu-riscv64 at VLEN 256). Prints a
// Markdown table: MB/s (per CPU second, best of 3 batches) per backend and the ratios to the portable reference. Before timing, every
// backend's tag and ciphertext must equal the portable reference's at every size (exit 2 if not).
// MB/s under QEMU measure the emulator's translated code, not a RISC-V core: the ratios compare
// instruction streams, and the static instructions per byte (scripts/riscv_loops.py) say why.
#include <chapoly/chapoly.h>

#include <time.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "internal/chapoly_internal.h"

namespace {

using chapoly::internal::Backend;
// This thread's CPU time in seconds: under QEMU user mode the emulator's, so a loaded host
// (other jobs on the same cores) does not count.
double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

const size_t kSizes[] = {1, 16, 64, 127, 128, 200, 256, 511, 512, 1024, 3173, 4096, 16384};

// Bytes per CPU second of fn(len): calibrated to batches of about `ms` milliseconds, best of 3.
template <class F>
double rate(size_t len, double ms, F fn) {
  size_t n = 1;
  double best = 0;
  for (int runs = 0; runs < 3;) {
    double t0 = cpu_seconds();
    for (size_t i = 0; i < n; ++i) fn();
    double s = cpu_seconds() - t0;
    if (s * 1000 >= ms) {
      best = std::max(best, static_cast<double>(len) * static_cast<double>(n) / s);
      ++runs;
      continue;
    }
    n = s <= 0 ? n * 16 : std::max(n * 2, static_cast<size_t>(static_cast<double>(n) * ms / 1000 / s * 1.1));
  }
  return best;
}

}  // namespace

int main(int argc, char **argv) {
  const double ms = argc > 1 ? std::atof(argv[1]) : 40.0;
  std::vector<const Backend *> bs = {&chapoly::internal::portable_backend()};
  for (const char *name : {"scalar", "rvv"}) {
    const Backend *b = chapoly::internal::linked_backend(name);
    if (b && !b->missing()) bs.push_back(b);
    else std::fprintf(stderr, "note: backend %s not usable here; left out\n", name);
  }
  uint8_t key[32], nonce[12], aad[13];
  for (int i = 0; i < 32; ++i) key[i] = static_cast<uint8_t>(i * 29 + 3);
  for (int i = 0; i < 12; ++i) nonce[i] = static_cast<uint8_t>(i * 7);
  for (int i = 0; i < 13; ++i) aad[i] = static_cast<uint8_t>(i);
  std::vector<uint8_t> pt(16384), ct(16384), ref(16384);
  for (size_t i = 0; i < pt.size(); ++i) pt[i] = static_cast<uint8_t>(i * 131 + 7);
  for (size_t len : kSizes) {
    uint8_t st[16], t0[16], t1[16];
    chapoly::internal::seal_with(*bs[0], ref.data(), st, pt.data(), len, aad, sizeof aad, nonce, key);
    for (const Backend *b : bs) {
      chapoly::internal::seal_with(*b, ct.data(), t1, pt.data(), len, aad, sizeof aad, nonce, key);
      if (std::memcmp(st, t1, 16) != 0 || std::memcmp(ref.data(), ct.data(), len) != 0) {
        std::fprintf(stderr, "error: %s seal differs from portable at %zu bytes\n", b->name, len);
        return 2;
      }
      bs[0]->poly1305(t0, pt.data(), len, key);
      b->poly1305(t1, pt.data(), len, key);
      if (std::memcmp(t0, t1, 16) != 0) {
        std::fprintf(stderr, "error: %s poly1305 differs from portable at %zu bytes\n", b->name, len);
        return 2;
      }
    }
  }
  std::string head = "| bytes |", rule = "|---:|";
  for (const char *what : {"Poly1305", "AEAD seal"}) {
    for (const Backend *b : bs) {
      head += std::string(" ") + what + " " + b->name + " MB/s |";
      rule += "---:|";
    }
    for (size_t i = 1; i < bs.size(); ++i) {
      head += std::string(" ") + what + " " + bs[i]->name + " / portable |";
      rule += "---:|";
    }
  }
  std::printf("%s\n%s\n", head.c_str(), rule.c_str());
  for (size_t len : kSizes) {
    std::vector<double> p, a;
    uint8_t tag[16];
    for (const Backend *b : bs)
      p.push_back(rate(len, ms, [&] { b->poly1305(tag, pt.data(), len, key); }) / 1e6);
    for (const Backend *b : bs)
      a.push_back(rate(len, ms, [&] {
                    chapoly::internal::seal_with(*b, ct.data(), tag, pt.data(), len, aad, sizeof aad, nonce, key);
                  }) / 1e6);
    std::printf("| %zu |", len);
    for (const auto *v : {&p, &a}) {
      for (double x : *v) std::printf(" %.1f |", x);
      for (size_t i = 1; i < v->size(); ++i) std::printf(" %.2fx |", (*v)[i] / (*v)[0]);
    }
    std::printf("\n");
  }
  return 0;
}
