// scalar64.h: the Poly1305 algebra of the scalar radix-2^64 ("mul64") dialect, driven by
// `// chapoly-contract:` lines (contracts.h), and the closed-world checks of contract files.
//
// The exported kernel is evaluated from its entry over the integers, as polynomials in atoms
// (parameter values, bytes read from memory, one atom per quotient the code takes: x >> k,
// the hi half of a 128-bit value, the wrap of a 32-bit sum), inlining the static helpers.
// Lo/hi splits are the exact decompositions x = lo + 2^64 hi; 64- and 128-bit sums and
// products are exact because the bounds pass proved that none wraps (a kernel passes only when
// both hold). `x & C` for a clamp mask C = 2^t C' becomes 2^t times an atom named after x and C,
// so r1 = 4 A exactly and r1 >> 2 = A: the fold s1 = r1 + (r1 >> 2) = 5 r1 / 4 is exact.
//
// Obligations added (docs/verification.md):
//   clamp        at every return of a `poly1305.clamp` helper: out[0] = le64(key[0..7]) &
//                0x0ffffffc0fffffff, out[1] = le64(key[8..15]) & 0x0ffffffc0ffffffc (RFC 8439
//                2.5.1), each derived limb = r1 + (r1 >> 2) exactly.
//   block-step   every `poly1305.blocks` loop, in every context it is reached in: with h the
//                accumulator at the head, m the 16 bytes the iteration read (little-endian) and
//                r = r0 + 2^64 r1 (the contract's key limbs, loop-invariant, and equal to the
//                clamp of key bytes as above), h' = (h + m + pad 2^128) r (mod 2^130-5); the
//                next iteration reads the next 16 bytes.
//   closed-world a reachable helper or loop with a 64x64->128 multiply and no contract covering
//                it; a helper the verifier has no proof for.
#pragma once

#include "bounds.h"
#include "ir.h"

namespace cv {

/// Adds the clamp, block-step and closed-world obligations of `kernel` (a file with contracts).
void proveScalarContracts(const File &f, const Function &kernel, const BoundsOptions &opt, KernelResult &kr);

/// A `bytes.load_partial` helper: for every length n = 0..max_len, the two output words are the
/// n source bytes, little-endian, with the marker byte at n and zeros above (exactly).
bool provePartialLoad(const File &f, const Function &fn, std::string &what, std::string &cex);

}  // namespace cv
