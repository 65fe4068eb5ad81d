// scalar.hpp: the whole ChaCha20-Poly1305 AEAD for general-purpose registers, built as KIR
// (ChaCha20 on uint32_t words, Poly1305 on the mul64 representation), and the facts the
// generator derives for it (clamp masks, the 5/4 fold, the h2 bound).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../spec.hpp"
#include "kir.hpp"

namespace chapoly::gen::kir {

/// The mul64 representation (radix 2^64, limbs 64/64/2): every constant derived here, from
/// RFC 8439 and the radix, never typed in a spec or a target table.
struct Mul64 {
  uint64_t clamp0 = 0;   ///< r0 mask: the RFC 8439 2.5 clamp, low 64 bits
  uint64_t clamp1 = 0;   ///< r1 mask: high 64 bits
  uint64_t s1_max = 0;   ///< bound of s1 = r1 + (r1 >> 2)
  uint64_t wrap_mask = 0;///< d2 & wrap_mask = 4 * (d2 >> 2): with (d2 >> 2) it is 5 * (d2 >> 2)
  uint64_t h2_bound = 0; ///< h2 between blocks (interval fixpoint over the block step)
  uint64_t h2_absorb = 0;///< h2 after adding a block, before the multiply
  std::vector<std::string> derivation;  ///< how each fact was obtained (for the file header)
};

/// Derives the mul64 constants and, by interval evaluation of the block step built below, the
/// accumulator bound. Throws std::runtime_error if the step could wrap a 64- or 128-bit sum or
/// product, or the final reduction's single conditional subtraction would not suffice.
Mul64 derive_mul64(const Spec &s);

/// The whole kernel file: helpers (byte loads/stores, ChaCha20 block function(s), the Poly1305
/// clamp, block step, zero-padded partial load and final reduction) and the four exported
/// kernels of the kernel ABI (emitted/README.md), one pass over the message.
Module build_scalar(const Spec &s, const Mul64 &d);

}  // namespace chapoly::gen::kir
