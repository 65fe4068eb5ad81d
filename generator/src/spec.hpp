// spec.hpp: the schedule spec, format v1 (docs/spec.md), and its reader.
//
// A spec is a TOML file (parsed with toml++) that says how ChaCha20 rounds and Poly1305 limbs are
// laid out and interleaved for one kernel family. load_spec() validates every key against the key
// table (spec_keys()) and the representation rules, and throws SpecError naming file:line:column.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace chapoly::gen {

/// A user error in a spec: where (1-based line and column) and what is wrong.
struct SpecError : std::runtime_error {
  std::string file;
  int line = 1;
  int column = 1;
  SpecError(std::string f, int l, int c, const std::string &what)
      : std::runtime_error(what), file(std::move(f)), line(l), column(c) {}
};

/// One entry of the key table: the single source of truth for the parser and docs/spec.md.
struct SpecKey {
  const char *path;     ///< dotted key, e.g. "poly1305.lanes"
  const char *type;     ///< "integer", "string", "array of strings", "array of integers"
  const char *unit;     ///< unit of the value ("blocks of 64 bytes", "bits", ...)
  const char *allowed;  ///< allowed values, as prose
  const char *meaning;  ///< what the key does to the straightforward loop
  const char *example;  ///< example value as written in TOML
  const char *targets;  ///< "all", or the target.isa values the key belongs to, space separated
};

/// The key table, in document order.
const std::vector<SpecKey> &spec_keys();

/// One carry of the carry chain: limb `from` sends its bits above its width to limb `to`.
struct Carry {
  int from = 0;
  int to = 0;
};

/// A validated spec. Every field has been checked against spec_keys() and the representation
/// rules; line_of maps each dotted key present in the file to its 1-based line (for emitted
/// comments). Keys of another target (SpecKey::targets) are neither required nor allowed; the
/// fields they would set keep their defaults.
struct Spec {
  std::string path;          ///< path as given on the command line
  std::string text;          ///< raw file contents (hashed into the emitted header)
  int version = 1;
  std::string name;          ///< kernel family name, [a-z0-9_]+; symbol prefix chapoly_k_<name>_
  std::string rationale;
  std::string isa;           ///< "x86_64-avx512", "x86_64-avx2" or "scalar"
  std::vector<std::string> features;
  int bulk_blocks = 16;      ///< ChaCha20 blocks per fused-loop iteration (8 or 16; avx2: 8)
  int short_blocks_per_vector = 4;
  std::string rotate;        ///< "vprold" or "vpshufb"
  int radix_bits = 44;
  int limbs = 3;
  std::vector<int> limb_bits;
  int lanes = 8;             ///< Poly1305 lanes = key powers r^lanes..r^1 (4 or 8)
  std::string multiplier;    ///< "ifma52" (x86_64-avx512) or "mul64" (scalar)
  std::vector<Carry> carry_chain;
  int interleave = 1;        ///< Poly1305 lane steps per ChaCha20 double round (0 = two passes)
  int short_max_bytes = 192; ///< messages of at most this many bytes take the short kernel
  int gpr_blocks = 1;        ///< scalar: ChaCha20 blocks computed together in general registers (1 or 2)
  int lmul = 1;              ///< riscv64-rvv: LMUL of the word-sliced ChaCha20 state vectors (1 or 2)
  std::map<std::string, int> line_of;
};

/// Reads and validates a spec. Throws SpecError (file:line:column, message) for a path that is
/// not a regular file (directory, device, FIFO, socket: refused before any read, never blocking),
/// a file over 1 MiB, a syntax error, an unknown key, a missing key, a value of the wrong type or
/// outside its allowed set, or an impossible representation (limbs*radix < 130, a top limb left
/// with no bits, limb widths that do not tile 2^130, lanes not a power of two, a carry chain that
/// names a missing limb or skips one).
Spec load_spec(const std::string &path);

}  // namespace chapoly::gen
