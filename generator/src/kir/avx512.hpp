// avx512.hpp: the fused AVX-512 IFMA AEAD as KIR (ChaCha20 on zmm/ymm, Poly1305 in radix 2^44 on
// the 52-bit multiplier), spelled by generator/targets/avx512/target.toml.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../ir.hpp"
#include "../spec.hpp"
#include "kir.hpp"

namespace chapoly::gen::kir {

/// The whole kernel file: the 4-blocks-per-zmm ChaCha20 helpers (short kernel and tails), the
/// word-sliced bulk ChaCha20, the IFMA Poly1305 helpers (multiply, carry, key powers, partial and
/// length blocks, final reduction), the short and bulk AEAD kernels and the four exported kernels.
/// `blocks` is the lane-op IR of src/ir.cpp (build_ir: double rounds, Poly1305 multiply, carry,
/// lane step, the scheduled fused loop body); `acc_invariant` the accumulator bounds of
/// src/bounds.cpp, written as `chapoly-invariant` lines at the loop heads.
Module build_avx512(const Spec &s, const Derived &d, const nlohmann::json &blocks,
                    const std::vector<std::string> &acc_invariant);

/// The design notes of the file header (representation, ChaCha20 layout, kernels by length).
std::vector<std::string> avx512_notes(const Spec &s, const Derived &d);

}  // namespace chapoly::gen::kir
