// rvv.hpp: the ChaCha20-Poly1305 AEAD for RISC-V with the V extension (RVV 1.0), built as KIR:
// ChaCha20 word-sliced in scalable vectors (VL blocks per iteration, VL from vsetvl, any VLEN),
// Poly1305 on the scalar mul64 representation of scalar.cpp, its block steps woven into the
// vector double rounds.
#pragma once

#include "../spec.hpp"
#include "kir.hpp"
#include "scalar.hpp"

namespace chapoly::gen::kir {

/// The whole kernel file for target.isa = "riscv64-rvv" (spelled through generator/targets/rvv).
Module build_rvv(const Spec &s, const Mul64 &d);

}  // namespace chapoly::gen::kir
