// render.hpp: the generic KIR renderer. It walks a kir::Module and spells every type and op through
// a target's op table (generator/targets/<target>/target.toml); statement syntax is C++'s, shared
// by every target. No kernel logic here or in a target table: the builder decides what is computed.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "kir.hpp"

namespace chapoly::gen::kir {

/// How one op is written: a format string over {0}, {1}, ... (operands), {args} (all operands),
/// {imm}, {immx} (imm in hex), {cimm} (32 - imm, for rotations), {rot4} (the vpshufd pattern that
/// rotates the words of a lane by imm), {type}, {name}, and the width names of the target's
/// [width.N] table; {(0)} is operand 0 bracketed unless it is a leaf or unary. prec is the C++
/// precedence (0: function-like, its operands are never bracketed; 1 binds tightest; 2 unary/cast,
/// 3 *, 4 +, 5 shifts, 6 relational, 7 equality, 8 &, 9 ^, 10 |, 11 &&), used to decide where
/// parentheses go.
struct Spelling {
  std::string text;
  int prec = 1;
};

/// A target's op table, read from generator/targets/<name>/target.toml.
struct Target {
  std::string name;                         ///< "scalar"
  std::string path;                         ///< the table's file (named in errors)
  std::vector<std::string> includes;        ///< system headers of the emitted source
  std::string helper_linkage;               ///< e.g. "static inline"
  std::map<std::string, std::string> types; ///< u8 u32 u64 u128 size void -> spelling
  std::map<std::string, Spelling> ops;      ///< vocabulary op -> spelling; "op@BITS": for one width
  /// Per vector width (`[width.512]`): names usable in spellings as {P}, {SI}, ... (e.g. P = "_mm512").
  std::map<int, std::map<std::string, std::string>> widths;
  bool brace_newline = false;               ///< a function's `{` on its own line
  std::string export_linkage;               ///< written before exported definitions (`extern "C"`)
  /// "reader" (default): bracket every operand that is not a leaf, unary, or a product in a sum.
  /// "arith": also leave sums/products bare inside comparisons, comparisons inside && and
  /// a - b + c bare (bitwise operands stay bracketed).
  std::string parens = "reader";
};

/// Reads a target table; throws std::runtime_error naming the file on a missing or bad entry.
Target load_target(const std::string &path);

/// What the renderer writes around the code: the header comment lines (without `// `) and the
/// spec's key -> line map for `// spec: FILE:LINE key` comments.
struct RenderMeta {
  std::vector<std::string> banner;   ///< first lines of both files
  std::vector<std::string> header_banner;  ///< the header's first lines, if not `banner`
  std::vector<std::string> notes;    ///< design notes for the source file's header comment
  std::string spec_path;
  std::map<std::string, int> line_of;
  std::string features;              ///< "" or a feature list, for the header's description
  /// Named values substituted into the target's type and op spellings ({lmul}, {vl}: RVV's
  /// register grouping from the spec and the name of the active vector length).
  std::map<std::string, std::string> params;
};

/// The emitted source (chapoly_NAME.cpp) and header (chapoly_NAME.h).
std::string render_source(const Module &m, const Target &t, const RenderMeta &meta);
std::string render_header(const Module &m, const Target &t, const RenderMeta &meta);

}  // namespace chapoly::gen::kir
