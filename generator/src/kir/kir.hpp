// kir.hpp: the structured kernel IR (KIR): whole kernels (functions, loops, branches on lengths)
// in an ISA-neutral op vocabulary, rendered through a per-target op table (render.hpp).
//
// A Module is a list of Functions. A Function has typed parameters and a body of Stmts; every Stmt
// carries the dotted spec key it realises (rendered as `// spec: FILE:LINE key`). Expressions are
// trees of Ops from one fixed vocabulary (kOps in kir.cpp): the builder (e.g. scalar.cpp) says
// *what* is computed (add64, mul64x64, rotl32, load64le, ...), the target's op table says how each
// op is spelled (`{0} + {1}`, `_mm512_add_epi32({0}, {1})`, ...). Nothing target specific lives
// here, and no kernel logic lives in a target table.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace chapoly::gen::kir {

/// A value type. Scalars are unsigned integers of 8/32/64/128 bits or size_t; Ptr and Ref point
/// at a scalar; Vec is an N-bit vector of lanes (the lane ops of the AVX-512 IR).
struct Type {
  enum Kind { Void, U8, U32, U64, U128, Size, Vec, VecX, Int, Uns, I64, Mask };
  enum Form { Value, Ptr, ConstPtr, Array, ConstArray, Ref };
  Kind kind = Void;
  Form form = Value;
  int extent = 0;  ///< Array/ConstArray: element count shown in the declaration (uint8_t tag[16])
  int bits = 0;    ///< Vec, Mask: width in bits (lanes for a mask)

  static Type val(Kind k) { return {k, Value, 0, 0}; }
  static Type ptr(Kind k, bool is_const) { return {k, is_const ? ConstPtr : Ptr, 0, 0}; }
  static Type array(Kind k, int n, bool is_const) { return {k, is_const ? ConstArray : Array, n, 0}; }
  static Type ref(Kind k) { return {k, Ref, 0, 0}; }
  static Type vec(int bits) { return {Vec, Value, 0, bits}; }
  /// A scalable vector of 32-bit lanes (RVV: vuint32m<LMUL>_t), its length set at run time by the
  /// op vsetvl32; the target's types.vecx spells it (with {lmul} from the render parameters).
  static Type vecx() { return {VecX, Value, 0, 0}; }
  static Type mask(int bits) { return {Mask, Value, 0, bits}; }
  static Type vref(int bits) { return {Vec, Ref, 0, bits}; }
};

/// An expression: an op of the vocabulary applied to sub-expressions. Leaves are `var` (name) and
/// `lit` (value, with the literal's type kind). `call` names a function; `cast` converts to `type`.
struct Expr {
  std::string op;
  std::vector<Expr> args;
  std::string name;          ///< var, call
  uint64_t value = 0;        ///< lit
  Type::Kind kind = Type::U64;  ///< lit: literal type; cast: target type
  int imm = -1;              ///< shift and rotate counts
  int bits = 0;              ///< vector ops: the vector width (spelling by width: target [width.N])
  int brk = 0;               ///< > 0: this operand starts a new line, indented brk spaces past the statement
};

/// One statement. Every statement names the spec key it realises (may be empty: inherits the
/// enclosing one).
struct Stmt {
  enum Kind { Decl, Assign, Eval, If, While, For, Return, Comment, Blank, Scope, Line, SpecMark };
  Kind kind = Blank;
  Type type;                        ///< Decl; For (the counter)
  std::string name;                 ///< Decl, For: variable name
  Expr lhs;                         ///< Assign: target (var or index)
  Expr rhs;                         ///< Decl init (op empty: none), Assign value, Eval, If/While cond, For bound
  Expr from;                        ///< For: first value of the counter (counter < rhs, step 1)
  std::vector<Stmt> body, orelse;   ///< If/While/For
  std::vector<std::string> invariants;  ///< While/For: `chapoly-invariant` lines
  std::string contract;             ///< While/For: one-line JSON `chapoly-contract`
  std::string spec;                 ///< dotted spec key
  std::string text;                 ///< Comment text (may hold several lines)
  // Layout (what the reader sees; never what is computed):
  std::string note;                 ///< trailing `// note` on the statement's line
  int note_col = 0;                 ///< note column past the indentation (0: two spaces after the code, -k: k spaces)
  bool konst = false;               ///< Decl: `const`
  std::vector<std::pair<std::string, Expr>> more;  ///< Decl: further declarators `, name = init`
  bool inline_body = false;         ///< If/For: one statement without braces (If: on the same line)
};

struct Param {
  Type type;
  std::string name;
  int brk = 0;  ///< > 0: starts a new line of the signature, indented brk spaces
};

/// A function: exported kernels have C linkage and a header declaration; helpers are
/// `static inline`. `contract` is the one-line JSON written as `// chapoly-contract:` above it.
struct Function {
  std::string name;
  Type ret = Type::val(Type::Void);
  std::vector<Param> params;
  bool exported = false;
  std::string doc;       ///< comment above the function (several lines allowed)
  std::string contract;  ///< JSON object on one line, or empty
  std::string spec;      ///< spec key of the function as a whole
  std::vector<Stmt> body;
  std::string section;   ///< a section banner (`// ====`, then these lines) above the function
  std::string section_spec;  ///< spec key of the section (its `// spec:` line and a blank line)
  bool spec_after_doc = false;  ///< the function's `// spec:` line goes below its doc
  bool doc_in_source = true;    ///< exported: the doc is written above the definition too
};

struct Module {
  std::string name;              ///< spec name: files chapoly_NAME.{cpp,h}
  std::vector<Function> functions;
  std::vector<std::string> header_notes;  ///< derived facts written into the file header
};

// --- lowering passes -------------------------------------------------------------------------------
/// Rewrites every 32-bit lane rotation (op `vrotl32`) in `ss` for a target without a vector rotate
/// (AVX2, RVV 1.0 without Zvkb): x <<< k becomes (x << k) | (x >> (32 - k)); with `byte_shuffles`,
/// the rotations by 16 and 8 become byte shuffles (`vshufb`) with the constants `rot16` / `rot8`,
/// which the function being lowered must declare.
void lower_rotates(std::vector<Stmt> &ss, bool byte_shuffles);

// --- builders: one function per vocabulary op, so builder code reads like the algorithm ----------
Expr var(const std::string &name);
Expr lit(uint64_t v, Type::Kind k = Type::U64);
Expr op(const std::string &name, std::vector<Expr> args, int imm = -1);
Expr call(const std::string &fn, std::vector<Expr> args);
Expr cast(Type::Kind k, Expr e);

Stmt decl(Type t, const std::string &name, Expr init, const std::string &spec = "");
Stmt decl(Type t, const std::string &name, const std::string &spec = "");
Stmt assign(Expr lhs, Expr rhs, const std::string &spec = "");
Stmt eval(Expr e, const std::string &spec = "");
Stmt if_(Expr cond, std::vector<Stmt> then, std::vector<Stmt> orelse = {}, const std::string &spec = "");
Stmt while_(Expr cond, std::vector<Stmt> body, const std::string &spec = "");
Stmt for_(Type t, const std::string &var, Expr from, Expr bound, std::vector<Stmt> body,
          const std::string &spec = "");
Stmt ret(Expr e, const std::string &spec = "");
Stmt comment(const std::string &text, const std::string &spec = "");
Stmt blank();
Stmt scope(std::vector<Stmt> body);
/// Several statements on one line (`a = x; b = y;`), one note after them.
Stmt line(std::vector<Stmt> parts);
/// Just the `// spec: FILE:LINE key` line.
Stmt spec_mark(const std::string &spec);
/// The statement with a trailing comment (column col past the indentation, 0: two spaces).
Stmt noted(Stmt s, const std::string &note, int col = 0);

/// One op of the vocabulary: its name, operand count (-1: any), and what it computes.
struct OpInfo {
  const char *name;
  int arity;
  const char *meaning;
};
/// The op vocabulary, in documentation order (generator/README.md lists it).
const std::vector<OpInfo> &vocabulary();
/// Throws std::logic_error when an expression uses an op outside the vocabulary or with the wrong
/// operand count (a generator bug, caught before rendering).
void check(const Module &m);

/// The module as JSON (for `chapoly-gen --emit-ir`).
nlohmann::json to_json(const Module &m);

}  // namespace chapoly::gen::kir
