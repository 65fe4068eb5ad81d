// kir.cpp: KIR builders, the op vocabulary, the well-formedness check and the JSON dump.
#include "kir.hpp"

#include <fmt/format.h>

#include <map>
#include <stdexcept>

namespace chapoly::gen::kir {

const std::vector<OpInfo> &vocabulary() {
  static const std::vector<OpInfo> ops = {
      // leaves and plumbing
      {"var", 0, "a named value"},
      {"lit", 0, "an unsigned literal of the given type"},
      {"call", -1, "a call of a function of the module"},
      {"cast", 1, "conversion to another scalar type (truncating or zero-extending)"},
      {"index", 2, "p[i]: the element at index i of pointer p (load, or store target)"},
      {"offset", 2, "p + i: pointer to element i of p"},
      // 32-bit words (ChaCha20: wrap mod 2^32 by design)
      {"add32", 2, "a + b mod 2^32"},
      {"xor32", 2, "a ^ b on 32 bits"},
      {"rotl32", 1, "rotate left by imm bits on 32 bits"},
      {"or32", 2, "a | b on 32 bits"},
      {"shl32", 1, "a << imm on 32 bits"},
      {"shr32", 1, "a >> imm on 32 bits"},
      // 64-bit words (Poly1305: must not wrap; the verifier proves it)
      {"add64", 2, "a + b on 64 bits"},
      {"xor64", 2, "a ^ b on 64 bits"},
      {"and64", 2, "a & b on 64 bits"},
      {"or64", 2, "a | b on 64 bits"},
      {"not64", 1, "~a on 64 bits"},
      {"shl64", 1, "a << imm on 64 bits"},
      {"shr64", 1, "a >> imm on 64 bits"},
      {"mul64", 2, "a * b on 64 bits (the low half; must not wrap)"},
      // 128-bit values
      {"widen128", 1, "a 64-bit value as a 128-bit one"},
      {"add128", 2, "a + b on 128 bits"},
      {"mul64x64", 2, "the full 128-bit product of two 64-bit values"},
      {"lo64", 1, "the low 64 bits of a 128-bit value"},
      {"hi64", 1, "the high 64 bits of a 128-bit value"},
      // lengths and counters (size_t)
      {"addsz", 2, "a + b on size_t"},
      {"subsz", 2, "a - b on size_t (a >= b)"},
      {"mulsz", 2, "a * b on size_t"},
      {"andsz", 2, "a & b on size_t"},
      {"shrsz", 1, "a >> imm on size_t"},
      {"lt", 2, "a < b"},
      {"ge", 2, "a >= b"},
      {"ne", 2, "a != b"},
      // vector lane ops (the AVX-512 IR's vocabulary; vector width from the operands' type)
      {"vadd32", 2, "lane-wise 32-bit add"},
      {"vxor", 2, "bitwise xor"},
      {"vrotl32", 1, "lane-wise 32-bit rotate left by imm"},
      {"vshufrow32", 1, "rotate the 32-bit words of every 128-bit lane by imm words"},
      {"vadd64", 2, "lane-wise 64-bit add"},
      {"vand", 2, "bitwise and"},
      {"vor", 2, "bitwise or"},
      {"vshr64", 1, "lane-wise 64-bit shift right by imm"},
      {"vshl64", 1, "lane-wise 64-bit shift left by imm"},
      {"vmadd52lo", 3, "a + low 52 bits of b*c (52-bit lanes)"},
      {"vmadd52hi", 3, "a + high 52 bits of b*c (52-bit lanes)"},
      {"vbroadcast32", 1, "a 32-bit scalar in every 32-bit lane"},
      {"viota32", 0, "lane i holds i (32-bit lanes)"},
      {"vsetr32", 8, "a 256-bit vector of eight 32-bit scalars, lane 0 first"},
      {"vconst8", 0, "a byte-vector constant; `name` lists the bytes"},
      {"vload", 1, "an unaligned vector load from a byte pointer"},
      {"vstore", 2, "an unaligned vector store of b to the byte pointer a"},
      {"vshl32", 1, "lane-wise 32-bit shift left by imm"},
      {"vshr32", 1, "lane-wise 32-bit shift right by imm"},
      {"vshufb", 2, "byte shuffle within 128-bit lanes: byte i = a[b[i]]"},
      {"vunpacklo32", 2, "interleave the low 32-bit words of each 128-bit lane"},
      {"vunpackhi32", 2, "interleave the high 32-bit words of each 128-bit lane"},
      {"vunpacklo64", 2, "interleave the low 64-bit words of each 128-bit lane"},
      {"vunpackhi64", 2, "interleave the high 64-bit words of each 128-bit lane"},
      {"vperm2x128", 2, "pick two 128-bit lanes of a and b (imm as vperm2i128)"},
      // scalable vectors (RVV): every op above on a VecX value works on the first vl lanes, vl the
      // value the last vsetvl32 returned (the target names it: render parameter `vl`)
      {"vsetvl32", 1, "the number of 32-bit lanes the vector unit processes of n requested (<= n)"},
      {"vload_strided32", 2, "lane i = the little-endian 32-bit word at p + i * stride bytes"},
      {"vstore_strided32", 3, "the 32-bit word at p + i * stride bytes = lane i of v (p, stride, v)"},
      // byte vectors (RVV e8), their length the value the last vsetvl8 returned (render parameter `vl8`)
      {"vsetvl8", 1, "the number of byte lanes the vector unit processes of n requested (<= n)"},
      {"vload8", 2, "lane i = the byte at (uint8_t *)p + off + i (p, off)"},
      {"vstore8", 3, "the byte at (uint8_t *)p + off + i = lane i of v (p, off, v)"},
      {"vxor8", 2, "bitwise xor of byte vectors"},
      {"aligned4x2", 2, "both pointers are 4-byte aligned"},
      // more lane ops (the AVX-512 kernel: masks, permutes across lanes, 128-bit pieces)
      {"vzero", 0, "all-zero vector"},
      {"vlanes32", -1, "a vector of 32-bit scalars, lane 0 first (one per lane)"},
      {"vlanes64", -1, "a vector of 64-bit scalars, lane 0 first (one per lane)"},
      {"viota64", 0, "lane i holds i (64-bit lanes)"},
      {"vbroadcast64", 1, "a 64-bit scalar in every 64-bit lane"},
      {"vbroadcast128", 1, "a 128-bit vector in every 128-bit lane"},
      {"vbroadcastword32", 1, "32-bit word imm of a 128-bit vector in every 32-bit lane"},
      {"vbslli", 1, "a 128-bit vector shifted left by imm bytes"},
      {"vmaskz_load8", 2, "bytes of pointer b where mask a is set, zero elsewhere (nothing else read)"},
      {"vmask_store8", 3, "store the bytes of c where mask b is set to pointer a (nothing else written)"},
      {"vloadblk", 1, "an unaligned vector load from a byte pointer (Poly1305 message blocks)"},
      {"vshuf128", 2, "128-bit lanes of a (low half) and b (high half), picked by imm (vshufi32x4)"},
      {"vshuf64x2", 2, "128-bit lanes of a and b picked by imm (vshufi64x2)"},
      {"vpermq", 1, "64-bit lanes of a picked by imm (vpermq)"},
      {"vmaskz_mov64", 2, "64-bit lanes of b where mask a is set, zero elsewhere"},
      {"vmask_blend64", 3, "64-bit lanes of c where mask a is set, of b elsewhere"},
      {"vmaskz_permvar64", 3, "lane j = c[b[j]] where mask a is set, zero elsewhere"},
      {"vpermx2var64", 3, "lane j = (a:c)[b[j]], a two-vector table of 64-bit lanes"},
      {"vmaskz_set1_64", 2, "a 64-bit scalar b in the lanes where mask a is set, zero elsewhere"},
      {"vmaskz_set1_8", 2, "a byte b in the bytes where mask a is set, zero elsewhere"},
      {"vlow128", 1, "the low 128 bits of a vector"},
      {"vextract128", 1, "128-bit lane imm of a vector"},
      {"vcvt64", 1, "64-bit lane 0 of a 128-bit vector"},
      {"vextract64", 1, "64-bit lane imm of a 128-bit vector"},
      {"vset64x2", 2, "a 128-bit vector of two 64-bit scalars, the high one (a) first"},
      // scalar helpers of the vector kernels
      {"bzhi64", 2, "a with the bits from bit b up cleared (64 bits)"},
      {"bzhi32", 2, "a with the bits from bit b up cleared (32 bits)"},
      {"divsz", 2, "a / b on size_t"},
      {"le", 2, "a <= b"},
      {"gt", 2, "a > b"},
      {"land", 2, "a && b"},
      {"lnot", 1, "!a"},
      {"select", 3, "a ? b : c"},
  };
  return ops;
}

Expr var(const std::string &name) {
  Expr e;
  e.op = "var";
  e.name = name;
  return e;
}
Expr lit(uint64_t v, Type::Kind k) {
  Expr e;
  e.op = "lit";
  e.value = v;
  e.kind = k;
  return e;
}
Expr op(const std::string &name, std::vector<Expr> args, int imm) {
  Expr e;
  e.op = name;
  e.args = std::move(args);
  e.imm = imm;
  return e;
}
static Expr lower_rotate(const Expr &e, bool byte_shuffles) {
  Expr out = e;
  for (auto &a : out.args) a = lower_rotate(a, byte_shuffles);
  if (out.op != "vrotl32") return out;
  const Expr x = out.args[0];
  if (byte_shuffles && out.imm == 16) return op("vshufb", {x, var("rot16")});
  if (byte_shuffles && out.imm == 8) return op("vshufb", {x, var("rot8")});
  return op("vor", {op("vshl32", {x}, out.imm), op("vshr32", {x}, 32 - out.imm)});
}

void lower_rotates(std::vector<Stmt> &ss, bool byte_shuffles) {
  for (auto &st : ss) {
    if (!st.rhs.op.empty()) st.rhs = lower_rotate(st.rhs, byte_shuffles);
    lower_rotates(st.body, byte_shuffles);
    lower_rotates(st.orelse, byte_shuffles);
  }
}

Expr call(const std::string &fn, std::vector<Expr> args) {
  Expr e = op("call", std::move(args));
  e.name = fn;
  return e;
}
Expr cast(Type::Kind k, Expr x) {
  Expr e = op("cast", {std::move(x)});
  e.kind = k;
  return e;
}

Stmt decl(Type t, const std::string &name, Expr init, const std::string &spec) {
  Stmt s;
  s.kind = Stmt::Decl;
  s.type = t;
  s.name = name;
  s.rhs = std::move(init);
  s.spec = spec;
  return s;
}
Stmt decl(Type t, const std::string &name, const std::string &spec) { return decl(t, name, Expr{}, spec); }
Stmt assign(Expr lhs, Expr rhs, const std::string &spec) {
  Stmt s;
  s.kind = Stmt::Assign;
  s.lhs = std::move(lhs);
  s.rhs = std::move(rhs);
  s.spec = spec;
  return s;
}
Stmt eval(Expr e, const std::string &spec) {
  Stmt s;
  s.kind = Stmt::Eval;
  s.rhs = std::move(e);
  s.spec = spec;
  return s;
}
Stmt if_(Expr cond, std::vector<Stmt> then, std::vector<Stmt> orelse, const std::string &spec) {
  Stmt s;
  s.kind = Stmt::If;
  s.rhs = std::move(cond);
  s.body = std::move(then);
  s.orelse = std::move(orelse);
  s.spec = spec;
  return s;
}
Stmt while_(Expr cond, std::vector<Stmt> body, const std::string &spec) {
  Stmt s;
  s.kind = Stmt::While;
  s.rhs = std::move(cond);
  s.body = std::move(body);
  s.spec = spec;
  return s;
}
Stmt for_(Type t, const std::string &v, Expr from, Expr bound, std::vector<Stmt> body,
          const std::string &spec) {
  Stmt s;
  s.kind = Stmt::For;
  s.type = t;
  s.name = v;
  s.from = std::move(from);
  s.rhs = std::move(bound);
  s.body = std::move(body);
  s.spec = spec;
  return s;
}
Stmt ret(Expr e, const std::string &spec) {
  Stmt s;
  s.kind = Stmt::Return;
  s.rhs = std::move(e);
  s.spec = spec;
  return s;
}
Stmt comment(const std::string &text, const std::string &spec) {
  Stmt s;
  s.kind = Stmt::Comment;
  s.text = text;
  s.spec = spec;
  return s;
}
Stmt blank() { return Stmt{}; }
Stmt scope(std::vector<Stmt> body) {
  Stmt s;
  s.kind = Stmt::Scope;
  s.body = std::move(body);
  return s;
}
Stmt line(std::vector<Stmt> parts) {
  Stmt s;
  s.kind = Stmt::Line;
  s.body = std::move(parts);
  return s;
}
Stmt spec_mark(const std::string &spec) {
  Stmt s;
  s.kind = Stmt::SpecMark;
  s.spec = spec;
  return s;
}
Stmt noted(Stmt s, const std::string &note, int col) {
  s.note = note;
  s.note_col = col;
  return s;
}

namespace {

void check_expr(const Expr &e, const std::map<std::string, int> &arity) {
  if (e.op.empty()) return;
  auto it = arity.find(e.op);
  if (it == arity.end()) throw std::logic_error("kir: unknown op '" + e.op + "'");
  if (it->second >= 0 && static_cast<int>(e.args.size()) != it->second)
    throw std::logic_error(fmt::format("kir: op '{}' takes {} operands, not {}", e.op, it->second,
                                       e.args.size()));
  for (const auto &a : e.args) check_expr(a, arity);
}

void check_stmts(const std::vector<Stmt> &ss, const std::map<std::string, int> &arity) {
  for (const auto &s : ss) {
    check_expr(s.lhs, arity);
    check_expr(s.rhs, arity);
    check_expr(s.from, arity);
    for (const auto &m : s.more) check_expr(m.second, arity);
    check_stmts(s.body, arity);
    check_stmts(s.orelse, arity);
  }
}

const char *kind_name(Type::Kind k) {
  switch (k) {
    case Type::Void: return "void";
    case Type::U8: return "u8";
    case Type::U32: return "u32";
    case Type::U64: return "u64";
    case Type::U128: return "u128";
    case Type::Size: return "size";
    case Type::Vec: return "vec";
    case Type::VecX: return "vecx";
    case Type::Int: return "int";
    case Type::Uns: return "unsigned";
    case Type::I64: return "i64";
    case Type::Mask: return "mask";
  }
  return "?";
}

nlohmann::json type_json(const Type &t) {
  static const char *forms[] = {"value", "ptr", "const_ptr", "array", "const_array", "ref"};
  nlohmann::json j = {{"kind", kind_name(t.kind)}, {"form", forms[t.form]}};
  if (t.extent) j["extent"] = t.extent;
  if (t.bits) j["bits"] = t.bits;
  return j;
}

nlohmann::json expr_json(const Expr &e) {
  if (e.op.empty()) return nullptr;
  nlohmann::json j = {{"op", e.op}};
  if (!e.name.empty()) j["name"] = e.name;
  if (e.op == "lit") j["value"] = e.value;
  if (e.op == "lit" || e.op == "cast") j["type"] = kind_name(e.kind);
  if (e.imm >= 0) j["imm"] = e.imm;
  if (e.bits) j["bits"] = e.bits;
  if (!e.args.empty()) {
    j["args"] = nlohmann::json::array();
    for (const auto &a : e.args) j["args"].push_back(expr_json(a));
  }
  return j;
}

nlohmann::json stmts_json(const std::vector<Stmt> &ss) {
  static const char *kinds[] = {"decl", "assign", "eval", "if", "while", "for", "return", "comment", "blank",
                                "scope", "line", "spec"};
  nlohmann::json out = nlohmann::json::array();
  for (const auto &s : ss) {
    nlohmann::json j = {{"stmt", kinds[s.kind]}};
    if (!s.spec.empty()) j["spec"] = s.spec;
    if (s.kind == Stmt::Decl || s.kind == Stmt::For) {
      j["type"] = type_json(s.type);
      j["name"] = s.name;
    }
    if (!s.lhs.op.empty()) j["lhs"] = expr_json(s.lhs);
    if (!s.rhs.op.empty()) j["rhs"] = expr_json(s.rhs);
    if (!s.from.op.empty()) j["from"] = expr_json(s.from);
    if (!s.body.empty()) j["body"] = stmts_json(s.body);
    if (!s.orelse.empty()) j["else"] = stmts_json(s.orelse);
    if (!s.invariants.empty()) j["invariants"] = s.invariants;
    if (!s.contract.empty()) j["contract"] = nlohmann::json::parse(s.contract);
    if (!s.text.empty()) j["text"] = s.text;
    if (!s.note.empty()) j["note"] = s.note;
    if (s.konst) j["const"] = true;
    for (const auto &[n, e] : s.more) j["more"].push_back({{"name", n}, {"init", expr_json(e)}});
    out.push_back(j);
  }
  return out;
}

}  // namespace

void check(const Module &m) {
  std::map<std::string, int> arity;
  for (const auto &o : vocabulary()) arity[o.name] = o.arity;
  for (const auto &f : m.functions) check_stmts(f.body, arity);
}

nlohmann::json to_json(const Module &m) {
  nlohmann::json fns = nlohmann::json::array();
  for (const auto &f : m.functions) {
    nlohmann::json params = nlohmann::json::array();
    for (const auto &p : f.params) params.push_back({{"name", p.name}, {"type", type_json(p.type)}});
    nlohmann::json j = {{"name", f.name}, {"exported", f.exported}, {"ret", type_json(f.ret)},
                        {"params", params}, {"body", stmts_json(f.body)}};
    if (!f.spec.empty()) j["spec"] = f.spec;
    if (!f.contract.empty()) j["contract"] = nlohmann::json::parse(f.contract);
    fns.push_back(j);
  }
  return {{"module", m.name}, {"notes", m.header_notes}, {"functions", fns}};
}

}  // namespace chapoly::gen::kir
