// rvv_intrinsics_cases.cpp: the cases of rvv_intrinsics_test.cpp, one per RVV row of chapoly-verify's intrinsic semantics table
// (verify/src/intrinsics.cpp, the rows with a lane model `rvv`) against the real instruction, in
// the riscv64 build under qemu-riscv64 at VLEN 128, 256, 512 and 1024 (ctest riscv.vlen*).
//
// The table itself is compiled into this test (intrinsics.cpp is plain C++): each case runs the
// instruction on random operands at random vl and compares every active lane with the row's lane
// model, and every byte a load/store touches (or must not touch) with the model's addressing.
// A row without a case here fails RvvTable.EveryRowHasACase, with or without V.
//
// This translation unit alone is compiled with -march=rv64gcv (and no auto-vectorisation,
// tests/riscv/CMakeLists.txt); nothing in it runs before main (the case table is constant-
// initialised), and rvv_intrinsics_test.cpp calls a case only after rvv_missing_feature() said
// the CPU has V.
#include <gtest/gtest.h>
#include <riscv_vector.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "intrinsics.h"
#include "rvv_intrinsics_cases.h"

namespace {

using Rng = std::mt19937_64;

constexpr unsigned kTrials = 200;

// VLEN of this machine in bits (vsetvlmax for SEW 8, LMUL 1 is VLEN / 8).
size_t vlen() { return __riscv_vsetvlmax_e8m1() * 8; }

uint32_t le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

// The VL the case runs at: an AVL in [1, vlmax] (vl = AVL there, RVV 1.0 section 6.3), so every
// vl from 1 to VLMAX is covered across the trials.
size_t pickVl(Rng &rng, size_t vlmax) { return 1 + rng() % vlmax; }

// A lane-wise 32-bit operation: run(a, b, scalar, out, vl) computes out[0..vl) from a, b.
using Run32 = void (*)(const uint32_t *a, const uint32_t *b, uint64_t s, uint32_t *out, size_t vl);
// Which arguments the row's lane model takes, in role order: 'a' lane of a, 'b' lane of b, 's' the
// scalar, 'l' the vl.
void lanewise32(const cv::Intrinsic &in, Rng &rng, size_t vlmax, const char *argOrder, Run32 run) {
  std::vector<uint32_t> a(vlmax), b(vlmax), out(vlmax);
  for (unsigned t = 0; t < kTrials; ++t) {
    size_t vl = pickVl(rng, vlmax);
    for (size_t i = 0; i < vlmax; ++i) a[i] = (uint32_t)rng(), b[i] = (uint32_t)rng(), out[i] = 0x5a5a5a5a;
    uint64_t s = t % 4 == 0 ? rng() % 64 : (t % 4 == 1 ? rng() : (uint32_t)rng());
    run(a.data(), b.data(), s, out.data(), vl);
    for (size_t i = 0; i < vl; ++i) {
      std::vector<uint64_t> args;
      for (const char *c = argOrder; *c; ++c)
        args.push_back(*c == 'a' ? a[i] : *c == 'b' ? b[i] : *c == 's' ? s : vl);
      ASSERT_EQ((uint64_t)out[i], in.rvv(args, i)) << in.name << " lane " << i << " of vl " << vl << " (VLEN " << vlen()
                                                     << "): a " << a[i] << " b " << b[i] << " s " << s;
    }
  }
}

// vsetvl: for AVL in [0, 3 VLMAX], the vl returned is one the row allows, and VLMAX is what the
// row's SEW/LMUL give at this VLEN (and VLEN is in the range the proofs cover).
void setvl(const cv::Intrinsic &in, Rng &rng, size_t vlmax, size_t (*run)(size_t)) {
  ASSERT_GE(vlen(), cv::kRvvVlenMin);
  ASSERT_LE(vlen(), cv::kRvvVlenMax) << "the proofs cover VLEN <= " << cv::kRvvVlenMax;
  ASSERT_EQ(vlmax, cv::rvvVlmax((unsigned)vlen(), in.laneBits, in.lmul)) << in.name;
  for (unsigned t = 0; t < kTrials; ++t) {
    size_t avl = t < 3 * vlmax + 1 ? t : rng() % (3 * vlmax + 1);
    if (t == kTrials - 1) avl = ~(size_t)0;
    size_t vl = run(avl);
    ASSERT_EQ(in.rvv({avl, vlmax}, vl), 1u) << in.name << " AVL " << avl << " gave vl " << vl << " at VLMAX " << vlmax;
    ASSERT_LE(vl, cv::rvvVlmax(cv::kRvvVlenMax, in.laneBits, in.lmul)) << in.name;
  }
}

// A load: run(base, stride, out, vl) loads vl elements from base (stride in bytes; unit-stride
// loads ignore it). Lane i must be the element at the offset the row's model gives.
using Load = void (*)(const uint8_t *base, ptrdiff_t stride, void *out, size_t vl);
void load(const cv::Intrinsic &in, Rng &rng, size_t vlmax, bool strided, Load run) {
  const unsigned eb = in.laneBits / 8;
  const ptrdiff_t strides[] = {4, 8, 64, 68, 128};
  for (unsigned t = 0; t < kTrials; ++t) {
    size_t vl = pickVl(rng, vlmax);
    ptrdiff_t stride = strided ? strides[t % 5] : (ptrdiff_t)eb;
    std::vector<uint8_t> mem(vlmax * (size_t)stride + 64);
    for (auto &x : mem) x = (uint8_t)rng();
    std::vector<uint32_t> out(vlmax, 0);
    std::vector<uint8_t> out8(vlmax, 0);
    run(mem.data(), stride, eb == 4 ? (void *)out.data() : (void *)out8.data(), vl);
    for (size_t i = 0; i < vl; ++i) {
      std::vector<uint64_t> args = strided ? std::vector<uint64_t>{0, (uint64_t)stride, vl} : std::vector<uint64_t>{0, vl};
      uint64_t off = in.rvv(args, i);
      ASSERT_LE(off + eb, mem.size());
      uint64_t want = eb == 4 ? le32(mem.data() + off) : mem[off];
      uint64_t got = eb == 4 ? out[i] : out8[i];
      ASSERT_EQ(got, want) << in.name << " lane " << i << " of vl " << vl << " stride " << stride << " (VLEN " << vlen() << ")";
    }
  }
}

// A store: run(base, stride, lanes, vl) stores vl elements. Every byte of the buffer must be the
// model's: lane i's element (little-endian) at its offset, every other byte unchanged.
using Store = void (*)(uint8_t *base, ptrdiff_t stride, const void *lanes, size_t vl);
void store(const cv::Intrinsic &in, Rng &rng, size_t vlmax, bool strided, Store run) {
  const unsigned eb = in.laneBits / 8;
  const ptrdiff_t strides[] = {4, 8, 64, 68, 128};
  for (unsigned t = 0; t < kTrials; ++t) {
    size_t vl = pickVl(rng, vlmax);
    ptrdiff_t stride = strided ? strides[t % 5] : (ptrdiff_t)eb;
    std::vector<uint8_t> mem(vlmax * (size_t)stride + 64);
    for (auto &x : mem) x = (uint8_t)rng();
    std::vector<uint32_t> lanes(vlmax);
    std::vector<uint8_t> lanes8(vlmax);
    for (size_t i = 0; i < vlmax; ++i) lanes[i] = (uint32_t)rng(), lanes8[i] = (uint8_t)rng();
    std::vector<uint8_t> want = mem;
    for (size_t i = 0; i < vl; ++i) {
      std::vector<uint64_t> args = strided ? std::vector<uint64_t>{0, (uint64_t)stride, lanes[i], vl}
                                           : std::vector<uint64_t>{0, eb == 4 ? lanes[i] : lanes8[i], vl};
      uint64_t off = in.rvv(args, i);
      ASSERT_LE(off + eb, want.size());
      for (unsigned k = 0; k < eb; ++k) want[off + k] = (uint8_t)((eb == 4 ? lanes[i] : lanes8[i]) >> (8 * k));
    }
    run(mem.data(), stride, eb == 4 ? (const void *)lanes.data() : (const void *)lanes8.data(), vl);
    for (size_t j = 0; j < mem.size(); ++j)
      ASSERT_EQ(mem[j], want[j]) << in.name << " byte " << j << " vl " << vl << " stride " << stride << " (VLEN " << vlen() << ")";
  }
}

// The cases of the u32 rows at one LMUL (M = m1, m2).
#define CHAPOLY_RVV_U32_CASES(M)                                                                                     \
  {"__riscv_vsetvl_e32" #M,                                                                                          \
   [](const cv::Intrinsic &in, Rng &rng) {                                                                           \
     setvl(in, rng, __riscv_vsetvlmax_e32##M(), [](size_t avl) { return __riscv_vsetvl_e32##M(avl); });             \
   }},                                                                                                               \
      {"__riscv_vmv_v_x_u32" #M,                                                                                     \
       [](const cv::Intrinsic &in, Rng &rng) {                                                                       \
         lanewise32(in, rng, __riscv_vsetvlmax_e32##M(), "sl",                                                       \
                    [](const uint32_t *, const uint32_t *, uint64_t s, uint32_t *o, size_t vl) {                     \
                      __riscv_vse32_v_u32##M(o, __riscv_vmv_v_x_u32##M((uint32_t)s, vl), vl);                        \
                    });                                                                                              \
       }},                                                                                                           \
      {"__riscv_vid_v_u32" #M,                                                                                       \
       [](const cv::Intrinsic &in, Rng &rng) {                                                                       \
         lanewise32(in, rng, __riscv_vsetvlmax_e32##M(), "l",                                                        \
                    [](const uint32_t *, const uint32_t *, uint64_t, uint32_t *o, size_t vl) {                       \
                      __riscv_vse32_v_u32##M(o, __riscv_vid_v_u32##M(vl), vl);                                       \
                    });                                                                                              \
       }},                                                                                                           \
      {"__riscv_vadd_vv_u32" #M,                                                                                     \
       [](const cv::Intrinsic &in, Rng &rng) {                                                                       \
         lanewise32(in, rng, __riscv_vsetvlmax_e32##M(), "abl",                                                      \
                    [](const uint32_t *a, const uint32_t *b, uint64_t, uint32_t *o, size_t vl) {                     \
                      __riscv_vse32_v_u32##M(                                                                        \
                          o, __riscv_vadd_vv_u32##M(__riscv_vle32_v_u32##M(a, vl), __riscv_vle32_v_u32##M(b, vl), vl), \
                          vl);                                                                                       \
                    });                                                                                              \
       }},                                                                                                           \
      {"__riscv_vxor_vv_u32" #M,                                                                                     \
       [](const cv::Intrinsic &in, Rng &rng) {                                                                       \
         lanewise32(in, rng, __riscv_vsetvlmax_e32##M(), "abl",                                                      \
                    [](const uint32_t *a, const uint32_t *b, uint64_t, uint32_t *o, size_t vl) {                     \
                      __riscv_vse32_v_u32##M(                                                                        \
                          o, __riscv_vxor_vv_u32##M(__riscv_vle32_v_u32##M(a, vl), __riscv_vle32_v_u32##M(b, vl), vl), \
                          vl);                                                                                       \
                    });                                                                                              \
       }},                                                                                                           \
      {"__riscv_vor_vv_u32" #M,                                                                                      \
       [](const cv::Intrinsic &in, Rng &rng) {                                                                       \
         lanewise32(in, rng, __riscv_vsetvlmax_e32##M(), "abl",                                                      \
                    [](const uint32_t *a, const uint32_t *b, uint64_t, uint32_t *o, size_t vl) {                     \
                      __riscv_vse32_v_u32##M(                                                                        \
                          o, __riscv_vor_vv_u32##M(__riscv_vle32_v_u32##M(a, vl), __riscv_vle32_v_u32##M(b, vl), vl), \
                          vl);                                                                                       \
                    });                                                                                              \
       }},                                                                                                           \
      {"__riscv_vsll_vx_u32" #M,                                                                                     \
       [](const cv::Intrinsic &in, Rng &rng) {                                                                       \
         lanewise32(in, rng, __riscv_vsetvlmax_e32##M(), "asl",                                                      \
                    [](const uint32_t *a, const uint32_t *, uint64_t s, uint32_t *o, size_t vl) {                    \
                      __riscv_vse32_v_u32##M(o, __riscv_vsll_vx_u32##M(__riscv_vle32_v_u32##M(a, vl), s, vl), vl);   \
                    });                                                                                              \
       }},                                                                                                           \
      {"__riscv_vsrl_vx_u32" #M,                                                                                     \
       [](const cv::Intrinsic &in, Rng &rng) {                                                                       \
         lanewise32(in, rng, __riscv_vsetvlmax_e32##M(), "asl",                                                      \
                    [](const uint32_t *a, const uint32_t *, uint64_t s, uint32_t *o, size_t vl) {                    \
                      __riscv_vse32_v_u32##M(o, __riscv_vsrl_vx_u32##M(__riscv_vle32_v_u32##M(a, vl), s, vl), vl);   \
                    });                                                                                              \
       }},                                                                                                           \
      {"__riscv_vlse32_v_u32" #M,                                                                                    \
       [](const cv::Intrinsic &in, Rng &rng) {                                                                       \
         load(in, rng, __riscv_vsetvlmax_e32##M(), true, [](const uint8_t *p, ptrdiff_t st, void *o, size_t vl) {    \
           __riscv_vse32_v_u32##M((uint32_t *)o, __riscv_vlse32_v_u32##M((const uint32_t *)p, st, vl), vl);          \
         });                                                                                                         \
       }},                                                                                                           \
  {                                                                                                                  \
    "__riscv_vsse32_v_u32" #M, [](const cv::Intrinsic &in, Rng &rng) {                                               \
      store(in, rng, __riscv_vsetvlmax_e32##M(), true, [](uint8_t *p, ptrdiff_t st, const void *l, size_t vl) {      \
        __riscv_vsse32_v_u32##M((uint32_t *)p, st, __riscv_vle32_v_u32##M((const uint32_t *)l, vl), vl);             \
      });                                                                                                            \
    }                                                                                                                \
  }

}  // namespace

// Constant-initialised (no code runs before main in this vector TU).
extern const RvvCase kRvvCases[];
constinit const RvvCase kRvvCases[] = {
      CHAPOLY_RVV_U32_CASES(m1),
      CHAPOLY_RVV_U32_CASES(m2),
      {"__riscv_vsetvl_e8m8",
       +[](const cv::Intrinsic &in, Rng &rng) {
         setvl(in, rng, __riscv_vsetvlmax_e8m8(), [](size_t avl) { return __riscv_vsetvl_e8m8(avl); });
       }},
      {"__riscv_vle8_v_u8m8",
       +[](const cv::Intrinsic &in, Rng &rng) {
         load(in, rng, __riscv_vsetvlmax_e8m8(), false, [](const uint8_t *p, ptrdiff_t, void *o, size_t vl) {
           __riscv_vse8_v_u8m8((uint8_t *)o, __riscv_vle8_v_u8m8(p, vl), vl);
         });
       }},
      {"__riscv_vse8_v_u8m8",
       +[](const cv::Intrinsic &in, Rng &rng) {
         store(in, rng, __riscv_vsetvlmax_e8m8(), false, [](uint8_t *p, ptrdiff_t, const void *l, size_t vl) {
           __riscv_vse8_v_u8m8(p, __riscv_vle8_v_u8m8((const uint8_t *)l, vl), vl);
         });
       }},
      {"__riscv_vxor_vv_u8m8",
       +[](const cv::Intrinsic &in, Rng &rng) {
         const size_t vlmax = __riscv_vsetvlmax_e8m8();
         std::vector<uint8_t> a(vlmax), b(vlmax), o(vlmax);
         for (unsigned t = 0; t < kTrials; ++t) {
           size_t vl = pickVl(rng, vlmax);
           for (size_t i = 0; i < vlmax; ++i) a[i] = (uint8_t)rng(), b[i] = (uint8_t)rng(), o[i] = 0xa5;
           __riscv_vse8_v_u8m8(o.data(), __riscv_vxor_vv_u8m8(__riscv_vle8_v_u8m8(a.data(), vl), __riscv_vle8_v_u8m8(b.data(), vl), vl), vl);
           for (size_t i = 0; i < vl; ++i)
             ASSERT_EQ((uint64_t)o[i], in.rvv({a[i], b[i], vl}, i)) << in.name << " lane " << i << " vl " << vl;
         }
       }},
};
extern const size_t kRvvCaseCount;
constinit const size_t kRvvCaseCount = sizeof kRvvCases / sizeof kRvvCases[0];

