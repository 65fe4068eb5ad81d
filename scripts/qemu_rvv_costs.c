// qemu_rvv_costs.c: what one RVV instruction costs under qemu-riscv64, against a scalar one, as a
// Markdown table (scripts/qemu-rvv-costs.sh builds and runs it; docs/benchmarks.md, "RISC-V").
// Each row times a loop of one kind of instruction with the process CPU clock: ChaCha20-shaped
// vector arithmetic (add, xor, shift-shift-or rotate) at e32 with vl = VLMAX and vl = VLMAX - 1,
// at LMUL 1, 2 and 4 (no register spills: four live groups); strided (64-byte stride, as the rvv
// kernel's word-sliced loads and stores) and unit-stride 32-bit loads and stores; dependent scalar
// multiply-adds and xors. Not a test: the figures are the emulator's cost model on this host.
#include <riscv_vector.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint32_t sink[1024];
static uint32_t buf[64 * 64];

// 40 arithmetic instructions per inner step: 4 x (2 adds, 2 xors, 2 rotates of 3 instructions).
#define ARITH(LM)                                                                                 \
  static double arith_##LM(size_t avl) {                                                          \
    const size_t n = 20000;                                                                       \
    size_t vl = __riscv_vsetvl_e32##LM(avl);                                                      \
    vuint32##LM##_t a = __riscv_vid_v_u32##LM(vl), b = __riscv_vmv_v_x_u32##LM(3, vl), c = a,    \
                    d = b;                                                                        \
    double t = now();                                                                             \
    for (size_t i = 0; i < n; ++i) {                                                              \
      for (int k = 0; k < 4; ++k) {                                                               \
        a = __riscv_vadd_vv_u32##LM(a, b, vl);                                                    \
        d = __riscv_vxor_vv_u32##LM(d, a, vl);                                                    \
        d = __riscv_vor_vv_u32##LM(__riscv_vsll_vx_u32##LM(d, 16, vl),                            \
                                   __riscv_vsrl_vx_u32##LM(d, 16, vl), vl);                       \
        c = __riscv_vadd_vv_u32##LM(c, d, vl);                                                    \
        b = __riscv_vxor_vv_u32##LM(b, c, vl);                                                    \
        b = __riscv_vor_vv_u32##LM(__riscv_vsll_vx_u32##LM(b, 12, vl),                            \
                                   __riscv_vsrl_vx_u32##LM(b, 20, vl), vl);                       \
      }                                                                                           \
      __asm__ volatile("" ::: "memory");                                                          \
    }                                                                                             \
    t = now() - t;                                                                                \
    __riscv_vse32_v_u32##LM(sink,                                                                 \
        __riscv_vadd_vv_u32##LM(a, __riscv_vadd_vv_u32##LM(b, __riscv_vxor_vv_u32##LM(c, d, vl),  \
                                                           vl), vl), vl);                         \
    return t / (double)n / 40.0 * 1e9;                                                            \
  }
ARITH(m1)
ARITH(m2)
ARITH(m4)

// 16 loads and 16 stores of vl 32-bit elements (each with one xor), strided or unit-stride.
static double memory(size_t avl, int strided, size_t *elems) {
  const size_t n = 20000;
  size_t vl = __riscv_vsetvl_e32m1(avl);
  vuint32m1_t x = __riscv_vid_v_u32m1(vl);
  double t = now();
  for (size_t i = 0; i < n; ++i) {
    for (int k = 0; k < 16; ++k) {
      if (strided) {
        vuint32m1_t v = __riscv_vlse32_v_u32m1(buf + k, 64, vl);
        __riscv_vsse32_v_u32m1(buf + k, 64, __riscv_vxor_vv_u32m1(v, x, vl), vl);
      } else {
        vuint32m1_t v = __riscv_vle32_v_u32m1(buf + 64 * k, vl);
        __riscv_vse32_v_u32m1(buf + 64 * k, __riscv_vxor_vv_u32m1(v, x, vl), vl);
      }
    }
    __asm__ volatile("" ::: "memory");
  }
  t = now() - t;
  *elems = vl;
  return t / (double)n / 16.0 * 1e9;  // per load + xor + store
}

static double scalar(void) {
  const size_t n = 20000;
  uint64_t s = 1, u = 2;
  double t = now();
  for (size_t i = 0; i < n; ++i) {
    for (int k = 0; k < 40; ++k) {
      s = s * 0x9e3779b97f4a7c15ull + u;  // mul, add
      u ^= s >> 7;                        // shift, xor
    }
    __asm__ volatile("" : "+r"(s), "+r"(u) : : "memory");
  }
  t = now() - t;
  sink[0] = (uint32_t)(s + u);
  return t / (double)n / 160.0 * 1e9;
}

int main(void) {
  const size_t vlmax = __riscv_vsetvlmax_e32m1();
  printf("| instruction (VLEN %zu) | elements | ns per instruction | ns per element |\n", vlmax * 32);
  printf("|---|---:|---:|---:|\n");
  const double sc = scalar();
  printf("| scalar integer (mul, add, shift, xor; dependent) | 1 | %.2f | %.2f |\n", sc, sc);
  struct { const char *lmul; double (*f)(size_t); size_t mul; } rows[] = {
      {"m1", arith_m1, 1}, {"m2", arith_m2, 2}, {"m4", arith_m4, 4}};
  for (int r = 0; r < 3; ++r) {
    const size_t vmax = vlmax * rows[r].mul;
    const double full = rows[r].f(vmax), part = rows[r].f(vmax - 1);
    printf("| vector add/xor/shift/or, e32 %s, vl = VLMAX | %zu | %.2f | %.3f |\n", rows[r].lmul, vmax, full, full / (double)vmax);
    printf("| vector add/xor/shift/or, e32 %s, vl = VLMAX - 1 | %zu | %.2f | %.3f |\n", rows[r].lmul, vmax - 1, part, part / (double)(vmax - 1));
  }
  size_t e;
  double st = memory(vlmax, 1, &e);
  printf("| vlse32 + vxor + vsse32 (stride 64 B), e32 m1, vl = VLMAX | %zu | %.2f (the three) | %.2f |\n", e, st, st / (double)(2 * e));
  double us = memory(vlmax, 0, &e);
  printf("| vle32 + vxor + vse32, e32 m1, vl = VLMAX | %zu | %.2f (the three) | %.2f |\n", e, us, us / (double)(2 * e));
  return sink[1] == 12345u ? 1 : 0;
}
