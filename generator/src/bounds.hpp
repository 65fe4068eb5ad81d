// bounds.hpp: the generator's own interval estimate of limb magnitudes, used only to state the
// loop invariants written into the emitted code (`// chapoly-invariant: acc0 <= 0x...`).
// Nothing here is trusted: chapoly-verify proves each stated invariant from the code itself.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ir.hpp"

namespace chapoly::gen {

/// Bounds (inclusive maxima, hex strings) of the loop-carried Poly1305 accumulator limbs
/// acc0..acc2 at the head of every absorb loop, as the least fixpoint of the lane step from the
/// key setup and settled-state bounds. Throws std::runtime_error if no fixpoint below 2^64 exists
/// within 64 rounds (the carry chain cannot hold the limbs: the spec is too lazy). In that case
/// the caller states the bound 2^64-1 and the verifier rejects the kernel.
/// The accumulator invariant holds for key powers loaded from the streaming key-power state as
/// well as for the ones the key setup makes: it is computed for powers whose limbs fill the widths
/// key_power_bits() gives.
std::vector<std::string> accumulator_invariant(const Spec &s, const nlohmann::json &blocks);

/// Bit widths of the three limbs of the lane key powers r^1..r^L (RFC 8439 2.5.1: r clamped, the
/// powers out of the multiply block's carries), as this estimate bounds them: limb i of every
/// power is below 2^bits[i]. The streaming entries keep the powers between calls
/// (p1305_powers_store / p1305_powers_load) and mask each loaded limb to these widths, so any
/// state bytes load as limbs the multiplies can take; chapoly-verify proves the stored limbs fit.
std::vector<int> key_power_bits(const Spec &s, const nlohmann::json &blocks);

}  // namespace chapoly::gen
