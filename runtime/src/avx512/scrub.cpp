// avx512/scrub.cpp: zero every vector register an AVX-512 kernel may have left key material in.
// Compiled with -mavx512f (so the assembler accepts zmm16-31 and the clobber list may name them);
// called only after an AVX-512 kernel ran, i.e. on a CPU and OS that support AVX-512F.
#include "internal/chapoly_internal.h"

namespace chapoly::internal {

__attribute__((noinline)) void scrub_avx512_registers() {
  // vpxord x, x, x zeroes all 512 bits of x; a VEX/EVEX write of an xmm/ymm register would also
  // zero the upper bits, but the explicit zmm form states the intent. vzeroupper afterwards
  // marks the upper halves clean so later SSE code pays no transition penalty.
  __asm__ __volatile__(
      "vpxord %%zmm0, %%zmm0, %%zmm0\n\t"
      "vpxord %%zmm1, %%zmm1, %%zmm1\n\t"
      "vpxord %%zmm2, %%zmm2, %%zmm2\n\t"
      "vpxord %%zmm3, %%zmm3, %%zmm3\n\t"
      "vpxord %%zmm4, %%zmm4, %%zmm4\n\t"
      "vpxord %%zmm5, %%zmm5, %%zmm5\n\t"
      "vpxord %%zmm6, %%zmm6, %%zmm6\n\t"
      "vpxord %%zmm7, %%zmm7, %%zmm7\n\t"
      "vpxord %%zmm8, %%zmm8, %%zmm8\n\t"
      "vpxord %%zmm9, %%zmm9, %%zmm9\n\t"
      "vpxord %%zmm10, %%zmm10, %%zmm10\n\t"
      "vpxord %%zmm11, %%zmm11, %%zmm11\n\t"
      "vpxord %%zmm12, %%zmm12, %%zmm12\n\t"
      "vpxord %%zmm13, %%zmm13, %%zmm13\n\t"
      "vpxord %%zmm14, %%zmm14, %%zmm14\n\t"
      "vpxord %%zmm15, %%zmm15, %%zmm15\n\t"
      "vpxord %%zmm16, %%zmm16, %%zmm16\n\t"
      "vpxord %%zmm17, %%zmm17, %%zmm17\n\t"
      "vpxord %%zmm18, %%zmm18, %%zmm18\n\t"
      "vpxord %%zmm19, %%zmm19, %%zmm19\n\t"
      "vpxord %%zmm20, %%zmm20, %%zmm20\n\t"
      "vpxord %%zmm21, %%zmm21, %%zmm21\n\t"
      "vpxord %%zmm22, %%zmm22, %%zmm22\n\t"
      "vpxord %%zmm23, %%zmm23, %%zmm23\n\t"
      "vpxord %%zmm24, %%zmm24, %%zmm24\n\t"
      "vpxord %%zmm25, %%zmm25, %%zmm25\n\t"
      "vpxord %%zmm26, %%zmm26, %%zmm26\n\t"
      "vpxord %%zmm27, %%zmm27, %%zmm27\n\t"
      "vpxord %%zmm28, %%zmm28, %%zmm28\n\t"
      "vpxord %%zmm29, %%zmm29, %%zmm29\n\t"
      "vpxord %%zmm30, %%zmm30, %%zmm30\n\t"
      "vpxord %%zmm31, %%zmm31, %%zmm31\n\t"
      "vzeroupper\n\t"
      :
      :
      : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
        "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20",
        "xmm21", "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30",
        "xmm31", "memory");
}

}  // namespace chapoly::internal

namespace chapoly::internal {

// The avx512 registry entry's SCRUB: after each kernel, vector registers may still hold key
// words, keystream or Poly1305 key powers. (The kernel's spilled frames below ours: the generated
// scrub_k_avx512_ifma_fused zeroes them after this, backends.cpp.)
void scrub_after_avx512() { scrub_avx512_registers(); }

}  // namespace chapoly::internal
