// ir.hpp: the ISA-neutral kernel IR and the schedule that interleaves it.
//
// An Op is one lane-wise vector operation on named values (32- or 64-bit lanes; vector width in
// bits). A Block is a straight-line list of Ops. The generator builds the ChaCha20 double rounds
// and the Poly1305 multiply/carry/absorb steps as Blocks from the spec, then the schedule weaves
// Poly1305 steps into the double rounds at the spec's interleave ratio. kir/avx512.cpp turns each
// op into a KIR statement (the AVX-512 kernel's straight-line code) and builds the control flow
// around them; targets/avx512/target.toml spells each op as an intrinsic.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "spec.hpp"

namespace chapoly::gen {

/// One IR operation. `op` is one of:
///   add32 xor rotl32 shufrow32        (32-bit lanes; rotl32 imm = bits; shufrow32 imm = words)
///   add64 and or shr64 shl64 madd52lo madd52hi   (64-bit lanes; shifts imm = bits)
///   load_blocks                      (args: ptr expression; two vectors of 64-bit words)
///   deinterleave_lo deinterleave_hi  (64-bit word k of every block: k = 0 or 1)
///   zero mov                         (dst = 0; dst = src)
/// Operands are value names; `note` is the algebraic comment; `spec` the spec key it realises.
struct Op {
  std::string op;
  std::string dst;
  std::vector<std::string> args;
  int imm = -1;
  int width = 512;          ///< vector width in bits (512, 256)
  std::string note;
  std::string spec;         ///< dotted spec key
  int group = -1;           ///< Poly1305 step this op belongs to (for comments), -1 for none
};

struct Block {
  std::string name;
  std::vector<Op> ops;
};

/// Derived constants of the representation (never typed in the spec).
struct Derived {
  int top_bits = 42;          ///< width of the top limb
  int wrap_factor = 20;       ///< 2^(radix*limbs) mod p, e.g. 2^132 mod 2^130-5 = 20
  int hi_shift = 8;           ///< a 52-bit hi half lands this many bits up the next limb
  int top_hi_shift = 10;      ///< the top limb's hi half: 2^(radix*(limbs-1)+52-130)
  int poly_width = 512;       ///< bits per Poly1305 vector = lanes*64
  int bulk_width = 512;       ///< bits per word-sliced ChaCha20 vector = bulk_blocks*32
  int chunk_bytes = 1024;     ///< bytes per fused-loop iteration = 64*bulk_blocks
  int group_bytes = 128;      ///< bytes per Poly1305 lane step = 16*lanes
  int groups_per_chunk = 8;   ///< Poly1305 lane steps per fused-loop iteration
  int short_states = 1;       ///< zmm states (4 blocks each) in the short kernel
};

Derived derive(const Spec &s);

/// Builds every lane-op block the AVX-512 kernel uses, and returns the IR document as JSON
/// (params, spec line numbers, blocks).
nlohmann::json build_ir(const Spec &s, const Derived &d);

}  // namespace chapoly::gen
