// poly.h: the Poly1305 block-step algebra (obligation (e)).
//
// One iteration of a block-step loop is evaluated over the integers, lane by lane, as
// polynomials in atoms: the accumulator limbs at the loop head, the loop-invariant operands (with
// the linear relations the interval pass tracked, e.g. rls1 = 20*rl1), the 64-bit message words
// read from memory, and one atom per quotient the code takes (x >> k, the IFMA hi half).
// Shifts, masks and IFMA halves are exact identities (x & (2^k-1) = x - 2^k*floor(x/2^k),
// lo52(a*b) = a*b - 2^52*hi52(a*b)); additions are exact because the interval pass proved that no
// 64-bit lane wraps. The claim, per lane:
//   acc' = acc * R + M + C (mod 2^130-5)
// where acc = acc0 + 2^44 acc1 + 2^88 acc2 at the head, acc' the same at the end of the body,
// M = the 16-byte block the lane read + 2^128, R does not depend on acc or the message (the key
// power), C depends on neither acc nor the message and has no constant term (h carried in).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir.h"
#include "smt.h"

namespace cv {

struct PolySeed {
  enum K { Scalar, Vec, Ptr, Other } k = Other;
  std::vector<Itv> lanes;                         // bounds (exact lanes are constants)
  std::vector<std::pair<u128, long long>> terms;  // per lane: coef * atom (atom < 0: none)
};
using PolySeedFn = std::function<bool(int var, PolySeed &out)>;

struct BlockStepResult {
  Res res = Res::OK;
  std::string what, cex, note;
};

/// `rl`, when given: the identities (coef, atom) per lane of the rl0, rl1, rl2 that p1305_setup
/// returned (bounds.cpp); R must then be rl0 + 2^44 rl1 + 2^88 rl2 of exactly those (mod p).
/// Also checked: the steps of one body read consecutive 128-byte groups of one pointer, and when
/// the function has hin0..hin2 (h carried into the loop), the carried-in term is hin on the
/// first step and 0 on the others, and hin is 0 again at the end of the body.
BlockStepResult proveBlockStep(const File &f, const Function &fn, const Stmt &loop,
                               const std::vector<std::pair<int, std::string>> &acc, const PolySeedFn &seed,
                               unsigned timeoutMs,
                               const std::vector<std::vector<std::pair<u128, long long>>> *rl = nullptr);

/// (e) for the multiply helpers outside block loops (called by the key setup, the settle and the
/// partial steps): `p1305_mul(h0, h1, h2, a0, a1, a2, b0, b1, b2, bs1, bs2)` computes, per lane,
/// h = a * b (mod 2^130-5) given bs_j = 20*b_j (radix 2^44, 3 limbs); `p1305_wrap(bs1, bs2, b1,
/// b2)` computes exactly bs_j = 20*b_j. Evaluated over the integers like the block steps (IFMA
/// halves and shifts as exact identities with quotient atoms); every coefficient of
/// h - a*b (resp. bs - 20*b) must vanish mod p (resp. exactly).
BlockStepResult proveMulHelper(const File &f, const Function &fn, bool wrap);

/// (d)/(e) for the other Poly1305 helpers, by name: p1305_carry (value unchanged mod p),
/// p1305_hsum (exact lane sum), p1305_setup (r = clamp(key), q lane j = r^(8-j), rl = r^8, the
/// 20*b companions, s), p1305_settle, p1305_step_partial (nblocks 1..8), p1305_lengths,
/// p1305_short_step (every na, nc) and p1305_load_partial (n 1..128, both paddings). Calls of
/// p1305_mul are replaced by its contract (proveMulHelper), checked to receive bs = 20*b.
/// FAILED with the first false claim (or for a name it has no proof for).
BlockStepResult proveHelper(const File &f, const Function &fn);

}  // namespace cv
