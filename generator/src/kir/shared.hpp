// shared.hpp: RFC 8439 constants every KIR builder derives its code from (scalar.cpp, avx512.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <utility>

namespace chapoly::gen::kir {

/// The ChaCha20 constant words "expand 32-byte k" (RFC 8439 2.3), little-endian.
const std::array<uint32_t, 4> &chacha20_sigma();

/// The eight quarter rounds of a ChaCha20 double round (RFC 8439 2.3): the four columns, then the
/// four diagonals, as the state word indices (a, b, c, d) of each.
extern const int kChachaQuarterRounds[8][4];

/// One quarter round (RFC 8439 2.1) as twelve steps on (a, b, c, d) = (0, 1, 2, 3):
/// a += b; d ^= a; d <<<= 16; c += d; b ^= c; b <<<= 12; a += b; d ^= a; d <<<= 8; c += d;
/// b ^= c; b <<<= 7. rot < 0: dst += src; rot == 0: dst ^= src; rot > 0: dst <<<= rot. Every
/// third step is a rotation: steps 3t, 3t+1, 3t+2 are (add, xor, rotate) of one quarter step.
struct QrStep {
  int dst, src, rot;
};
extern const QrStep kChachaQuarterRoundSteps[12];

/// The Poly1305 clamp of r (RFC 8439 2.5) as two little-endian 64-bit masks (low, high), built
/// byte by byte from the RFC's rule.
std::pair<uint64_t, uint64_t> poly1305_clamp_masks();

}  // namespace chapoly::gen::kir
