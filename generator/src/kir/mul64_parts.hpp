// mul64_parts.hpp: the pieces of the scalar mul64 builder (scalar.cpp) that other builders reuse
// (rvv.cpp): the byte helpers, the one-block ChaCha20 function, the Poly1305 helpers of the mul64
// representation, the loops that absorb message blocks with their contracts, the AEAD signature.
// Each returns exactly what build_scalar puts in its own module, so a vector target composes the
// same (verified) scalar pieces around its vector keystream instead of copying them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../spec.hpp"
#include "kir.hpp"
#include "scalar.hpp"

namespace chapoly::gen::kir::parts {

/// load32_le / load64_le (bits 32 or 64): a little-endian word from bytes.
Function load_le(int bits);
/// store32_le / store64_le (bits 32 or 64).
Function store_le(int bits);
/// chacha20_block(out[64], key, nonce, counter): one RFC 8439 2.3 block in 32-bit registers.
Function chacha20_block(const Spec &s);
/// poly1305_clamp, poly1305_block, poly1305_load_partial, poly1305_final (mul64 helpers).
Function poly_clamp(const Spec &s, const Mul64 &d);
Function poly_block(const Spec &s, const Mul64 &d);
Function poly_load_partial(const Spec &s);
Function poly_final(const Spec &s, const Mul64 &d);
/// chapoly_k_NAME_poly1305: the exported one-shot Poly1305.
Function poly_oneshot(const Spec &s, const Mul64 &d);
/// poly1305_block(h0, h1, h2, r0, r1, s1, m0, m1, pad) as a statement.
Stmt absorb(Expr m0, Expr m1, Expr pad);
/// The whole 16-byte block at p, pad 1.
Stmt absorb_at(Expr p);
/// Gives a loop that carries h = (h0, h1, h2) its poly1305.blocks contract and h2 invariant.
void carry_h(Stmt &loop, const Spec &s, const Mul64 &d, const std::string &msg, int block_bytes);
/// Poly1305 over len bytes at p zero-padded to 16 (the AEAD's AAD and ciphertext rule).
std::vector<Stmt> absorb_padded(const Spec &s, const Mul64 &d, const std::string &p, Expr len);
/// The parameters of chapoly_k_NAME_seal / _open.
std::vector<Param> aead_params(bool seal);
/// The exported chapoly_k_NAME_seal/open function: signature, docstring and `aead.*` contract,
/// with an empty body for the builder to fill.
Function aead_entry(const Spec &s, bool seal);
/// The representation fields of every mul64 contract (radix, limbs, spec line).
nlohmann::ordered_json common_fields(const Spec &s);
/// "spec-path:line" of a spec key.
std::string spec_ref(const Spec &s, const char *key);

}  // namespace chapoly::gen::kir::parts
