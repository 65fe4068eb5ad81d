// ir.h: the verifier's own model of an emitted kernel file.
//
// The Clang front end (frontend.cpp) lowers the emitted dialect (emitted/README.md) into this
// small tree so that the interpreters never see Clang types: one node per C expression or
// statement, intrinsic calls by their Intel name, constants folded, every node tied to its
// emitted file:line:col. Nothing here knows about Poly1305 or ChaCha20.
#pragma once

#include <any>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cv {

using u128 = unsigned __int128;

struct SrcLoc {
  unsigned line = 0, col = 0;
};

// The types the dialect allows. Vectors carry their width in bits; masks their lane count;
// integers their width and signedness; pointers and arrays the element width.
struct Type {
  enum Kind { Void, Bool, Int, Vec, Mask, Ptr, Array } kind = Void;
  unsigned bits = 0;       // Int: width; Vec: 128/256/512; Mask: lanes; Ptr/Array: element width
  bool isSigned = false;   // Int (and Ptr/Array element)
  bool elemIsVec = false;  // Ptr/Array of vectors
  bool pointeeConst = false;  // Ptr: points to const (a helper's input, not an output)
  uint64_t count = 0;      // Array: element count
  // RVV (scalable) vectors, e.g. vuint32m1_t: kind Vec, bits 0 (the width depends on VLEN),
  // laneBits the element width, lmul the register group (1, 2, 4, 8).
  bool scalable = false;
  unsigned laneBits = 0, lmul = 0;
  std::string spelling;    // as written (typedef sugar kept): "uint64_t", "__m512i", ...
};

// A limb type: an unsigned scalar of 64 bits or more whose arithmetic the bounds pass proves does
// not wrap; size_t, uintptr_t and ptrdiff_t are lengths and indices there, not checked, and the
// mul64 value proofs take their values as exact only under their no-wrap conditions. One rule for
// both (bounds.cpp, scalar64.cpp): a type checked by one and trusted by the other must agree.
inline bool isLimbType(const Type &t) {
  if (t.kind != Type::Int || t.isSigned || t.bits < 64) return false;
  const std::string &s = t.spelling;
  return s.find("size_t") == std::string::npos && s.find("uintptr_t") == std::string::npos &&
         s.find("ptrdiff_t") == std::string::npos;
}

struct Expr;
using ExprP = std::shared_ptr<Expr>;

struct Expr {
  enum Kind {
    Const,     // integer constant (value), folded by Clang from a constant expression
    Var,       // reference to variable `var`
    Intrin,    // Intel or RVV intrinsic `name` (macro intrinsics: the macro's name), args
    Call,      // call of file-local helper `name` (function index `fn`), args
    Bin,       // op in {+,-,*,/,%,<<,>>,&,|,^,==,!=,<,<=,>,>=,&&,||}
    Un,        // op in {-,~,!}
    Cast,      // conversion to `ty` of args[0] (integer width change or vector bitcast)
    Index,     // args[0][args[1]] (array or pointer element, lvalue)
    Deref,     // *args[0]
    AddrOf,    // &args[0]
    Cond,      // args[0] ? args[1] : args[2]
    Assign,    // args[0] = args[1]   (op empty) or args[0] op= args[1]
    IncDec,    // op in {"++pre","--pre","post++","post--"} of args[0]
    InitList,  // { args... } (array initialisers)
  } kind;
  Type ty;
  SrcLoc loc;
  std::string name;  // Intrin/Call name, Bin/Un/Assign/IncDec op, Var name
  std::string builtin;  // Intrin: the __builtin_ia32_* a macro intrinsic expanded to ("" for functions)
  int var = -1;      // Var: variable index in File::vars
  int fn = -1;       // Call: function index in File::funcs
  u128 value = 0;    // Const (two's complement in ty.bits)
  std::vector<ExprP> args;
  std::string text;  // source text (short), for messages
};

// `// chapoly-invariant: VAR <= 0xHEX` immediately before a loop.
struct Invariant {
  std::string var;
  u128 bound = 0;
  SrcLoc loc;
};

struct Stmt;
using StmtP = std::shared_ptr<Stmt>;

struct Stmt {
  enum Kind { Decl, ExprS, If, While, For, DoWhile, Return, Block, Break, Continue, Null } kind;
  SrcLoc loc;
  int var = -1;          // Decl
  ExprP e;               // Decl init (may be null) / ExprS / If, While, For cond / Return value
  ExprP inc;             // For increment
  StmtP init;            // For init
  StmtP then, els;       // If branches; loops: then = body
  std::vector<StmtP> body;  // Block
  std::vector<Invariant> invariants;  // loops
  std::string contract;  // loops: the JSON of a `// chapoly-contract:` line above the invariants
  SrcLoc contractLoc;
  bool noScope = false;  // Block made from one declaration group: no scope of its own
};

struct Var {
  std::string name;
  Type ty;
  bool isParam = false;
  bool isRef = false;     // T & parameter (aliases the caller's variable)
  uint64_t paramCount = 0;  // a parameter written T p[N] (a pointer to N elements): N
  bool isGlobal = false;  // file-scope (static const tables)
  bool isConst = false;
  ExprP init;             // globals: initialiser
  SrcLoc loc;
};

struct Function {
  std::string name;
  Type ret;
  std::vector<int> params;  // indices into File::vars
  StmtP body;
  // Defined with external linkage: an entry point, proved as a kernel (and one with no C name, or
  // no kernel role, fails its `kernel-role` obligation: proofs.cpp, proveKernelRole).
  bool isExported = false;
  bool hasCName = false;  // extern "C": the name the runtime links (emitted/README.md)
  bool isStaticInline = false;
  SrcLoc loc;
  SrcLoc endLoc;
  std::vector<std::string> markers;  // `// chapoly-...` marker comments just above the function
  std::string contract;  // the JSON of a `// chapoly-contract:` line just above it ("" if none)
  SrcLoc contractLoc;
};

// Calls f on each statement directly inside s (a For's init, the If branches or loop body, a
// Block's statements), in that order: the one shape of every statement walk over the IR.
template <class F> void forEachChild(const Stmt &s, F &&f) {
  for (const StmtP *c : {&s.init, &s.then, &s.els})
    if (*c) f(**c);
  for (const auto &b : s.body)
    if (b) f(*b);
}

// Calls f on every expression node under s: each statement's condition or expression and
// increment, then their operands, depth first, over s and every statement inside it.
template <class F> void forEachExprIn(const Stmt &s, F &&f) {
  struct Walk {
    F &f;
    void expr(const Expr &e) {
      f(e);
      for (const auto &a : e.args)
        if (a) expr(*a);
    }
    void stmt(const Stmt &st) {
      if (st.e) expr(*st.e);
      if (st.inc) expr(*st.inc);
      forEachChild(st, [&](const Stmt &c) { stmt(c); });
    }
  } w{f};
  w.stmt(s);
}

// Whether a function carries the hand-written samples' `// chapoly-bounds-only` marker (checked
// for bounds, no value proof; chapoly-verify honours it only with --allow-bounds-only).
inline bool markedBoundsOnly(const Function &fn) {
  for (const auto &m : fn.markers)
    if (m.rfind("chapoly-bounds-only", 0) == 0) return true;
  return false;
}

struct File {
  std::string path;
  std::vector<std::string> lines;  // the source, for messages and comment scanning
  std::vector<Var> vars;
  std::vector<Function> funcs;
  std::vector<int> globals;
  // Every file the parse read (the kernel included), by real path (sorted), with digestOf the
  // bytes clang parsed ("" when its buffer was not loaded).
  struct ReadFile {
    std::string path, digest;
  };
  std::vector<ReadFile> readFiles;
  // Proofs of a helper that read the helper alone (chacha-block, chacha-lanes, the RVV MAC
  // segments), made for the first kernel that reaches it and reused for the others, keyed by
  // "kind#index into funcs". They live and die with this File: no proof crosses to another file
  // or test (a process-wide cache keyed by addresses could, when a later File reused them).
  mutable std::map<std::string, std::any> helperProofs;
  int findFunc(const std::string &n) const {
    for (size_t i = 0; i < funcs.size(); ++i)
      if (funcs[i].name == n) return (int)i;
    return -1;
  }
};

// The key of a helper's proof in File::helperProofs: its kind and the helper's index in funcs
// (two helpers of one name, overloads, keep apart); "" for a function that is not one of f's
// (from a copy of the File), whose proof is then made and not kept.
inline std::string helperKey(const File &f, const Function &fn, const std::string &kind) {
  for (size_t i = 0; i < f.funcs.size(); ++i)
    if (&f.funcs[i] == &fn) return kind + "#" + std::to_string(i);
  return "";
}

// Lowering failures are reported with a location and end the run with exit status 2.
struct FrontendError {
  std::string file;
  SrcLoc loc;
  std::string msg;
};

// Parse `path` with the given compile flags (the ones the runtime compiles it with).
// Returns false and fills `errs` on parse errors or constructs outside the dialect.
bool parseKernelFile(const std::string &path, const std::vector<std::string> &flags, File &out,
                     std::vector<FrontendError> &errs);

// Checks the compile flags the way the Clang driver reads them: returns one message per argument
// the driver does not know ("unknown argument '-fbogus-flag'", with the nearest known spelling
// when there is one) or per option missing its value. The driver only prints those and carries
// on, so without this check a mistyped flag would be ignored and the proof reported as made.
std::vector<std::string> checkCompileFlags(const std::vector<std::string> &flags);

// The Clang the front end is built on ("Debian clang version 16.0.6 ..."), for proof stamps.
std::string clangVersion();

// FNV-1a (64-bit) of `bytes` as 16 hex digits: what a proof stamp records of a file. It notices a
// change; it is no signature.
std::string digestOf(std::string_view bytes);

std::string hex(u128 v);

}  // namespace cv
