// shared.hpp: RFC 8439 constants every KIR builder derives its code from (scalar.cpp, avx512.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <utility>

namespace chapoly::gen::kir {

/// The ChaCha20 constant words "expand 32-byte k" (RFC 8439 2.3), little-endian.
const std::array<uint32_t, 4> &chacha20_sigma();

/// The Poly1305 clamp of r (RFC 8439 2.5) as two little-endian 64-bit masks (low, high), built
/// byte by byte from the RFC's rule.
std::pair<uint64_t, uint64_t> poly1305_clamp_masks();

}  // namespace chapoly::gen::kir
