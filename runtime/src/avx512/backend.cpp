// avx512/backend.cpp: the "avx512" backend: the generated AVX-512 IFMA kernels of
// emitted/avx512/chapoly_avx512_ifma_fused.cpp (proved by chapoly-verify before this library
// links them), called only after avx512_missing_feature() reported nothing missing.
// This file itself has no ISA flags: it only takes the kernels' addresses.
#include "avx512/chapoly_avx512_ifma_fused.h"
#include "internal/chapoly_internal.h"

namespace chapoly::internal {
namespace {

// After each kernel: vector registers may still hold key words, keystream or Poly1305 key
// powers, and the kernel's spilled frames lie just below ours.
void scrub_after_avx512() {
  scrub_avx512_registers();
  burn_stack();
}

const Backend kAvx512 = {
    "avx512",
    chapoly_k_avx512_ifma_fused_seal,
    chapoly_k_avx512_ifma_fused_open,
    chapoly_k_avx512_ifma_fused_poly1305,
    chapoly_k_avx512_ifma_fused_chacha20,
    avx512_missing_feature,
    scrub_after_avx512,
};

}  // namespace

const Backend *avx512_backend() { return &kAvx512; }

}  // namespace chapoly::internal
