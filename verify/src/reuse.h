// reuse.h: proofs reused between kernel files whose code is the same (--proof-cache).
//
// Two emitted files can hold the same code under other names: `emitted/rv64` is the scalar
// family's schedule spelled for riscv64, and its code differs from `emitted/scalar`'s only in
// comments and in the family part of the exported names (chapoly_k_rv64_mul64_seal against
// chapoly_k_scalar_mul64_seal). Every proof this verifier makes is a function of the parsed file
// (ir.h: functions, variables, types, contracts, invariants, markers, and the order of the lines
// they sit on, which some proofs compare) and of the compile flags, the verifier binary and the
// toolchain; line numbers, comments other than those the IR keeps, a contract's "spec" reference
// and the family part of an exported name only label its reports (the proofs read an exported
// name through its "chapoly_k_" prefix and its ABI suffix, proofs.cpp). So a kernel whose file
// has the same canonical text below as a file whose same kernel was proved in full has that
// proof: the cache entry of the first run is the second run's result, with one obligation,
// `identical-ir`, saying where the proof was made.
//
// Only kernels with every obligation OK (none skipped, no error) are stored, so a cache entry
// never turns a failure into a success or the reverse; a file that differs in anything the IR
// holds (one operator, constant, type, contract field or invariant bound) has another key.
#pragma once

#include <string>
#include <vector>

#include "bounds.h"
#include "ir.h"

namespace cv {

/// The exported kernel name with its family part replaced by "@": "chapoly_k_@_seal" for
/// chapoly_k_<family>_seal, for each suffix of the kernel ABI (emitted/README.md: seal, open,
/// poly1305, chacha20, seal_update, open_update, poly1305_update, poly1305_finish). A name of
/// another shape is returned unchanged (it then matches only itself).
std::string normalKernelName(const std::string &name);

/// The canonical text of a parsed file: every function (exported ones by normalKernelName), every
/// variable at its first use with its type and flags, every statement and expression with its
/// kind, type, operator, constant, callee (by index) and operands, every contract, invariant and
/// marker ("spec" values of the generator's shape as "@"), and where each sits as the rank of its
/// line among all the lines the IR names (proofs compare lines; comment lines move them). No line
/// or column number (no proof reads a column; a kernel name's length moves its parameters'), no
/// source text. Equal texts mean equal inputs to every proof.
std::string canonicalIr(const File &f);

/// What a kernel's proof depends on, as text: the verifier binary's digest, the toolchain line,
/// the compile flags other than include paths (-I: what they found is in the IR), the verifier's
/// mode (bounds-only allowed or not), the kernel's index among the file's functions and its normal
/// name, and the canonical file. An entry is
/// found by a digest of this text and taken only when its stored text is equal to it, byte for byte
/// (the digest is FNV-1a, which a crafted file could collide).
std::string proofKeyText(const std::string &selfDigest, const std::string &toolchain, const std::vector<std::string> &flags,
                         bool allowBoundsOnly, const std::string &canonical, const std::string &kernel, size_t kernelIndex);

/// Reads the cache entry of `key` (a proofKeyText) in `dir` into `out` (its obligations as the first run proved
/// them, naming that run's file and lines) and adds the `identical-ir` obligation at `kernel`'s
/// location in `file`. False when there is no entry or it cannot be read whole.
bool loadProof(const std::string &dir, const std::string &key, const File &file, const Function &kernel,
               KernelResult &out);

/// Stores a fully proved kernel's result under `key` (a proofKeyText) in `dir` (written to a temporary file and
/// renamed: an entry is whole or absent). Kernels with a failed, skipped or timed-out obligation
/// or an error are not stored. Errors writing are ignored: the cache only saves time.
void storeProof(const std::string &dir, const std::string &key, const KernelResult &kr);

}  // namespace cv
