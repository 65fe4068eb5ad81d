// render.cpp: KIR -> C++ text through a target's op table (see render.hpp).
#include "render.hpp"

#include <fmt/args.h>
#include <fmt/format.h>

#include <cctype>
#include <sstream>
#include <stdexcept>
#include <toml++/toml.h>

namespace chapoly::gen::kir {

Target load_target(const std::string &path) {
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error &e) {
    throw std::runtime_error(fmt::format("{}:{}:{}: {}", path, e.source().begin.line,
                                         e.source().begin.column, e.description()));
  }
  Target t;
  t.path = path;
  auto str = [&](const char *k) {
    auto v = root.at_path(k).value<std::string>();
    if (!v) throw std::runtime_error(fmt::format("{}: missing string '{}'", path, k));
    return *v;
  };
  t.name = str("target.name");
  t.helper_linkage = str("target.helper_linkage");
  if (auto *inc = root.at_path("target.includes").as_array())
    for (const auto &e : *inc) t.includes.push_back(e.value_or(std::string{}));
  if (auto *types = root.at_path("types").as_table())
    for (const auto &[k, v] : *types) t.types[std::string(k.str())] = v.value_or(std::string{});
  if (auto *ops = root.at_path("ops").as_table()) {
    for (const auto &[k, v] : *ops) {
      const auto *arr = v.as_array();
      if (!arr || arr->size() != 2 || !(*arr)[0].is_string() || !(*arr)[1].is_integer())
        throw std::runtime_error(fmt::format("{}: ops.{} must be [\"spelling\", precedence]", path, k.str()));
      t.ops[std::string(k.str())] = {(*arr)[0].value_or(std::string{}),
                                     static_cast<int>((*arr)[1].value_or(int64_t{1}))};
    }
  }
  return t;
}

namespace {

const char *kind_key(Type::Kind k) {
  switch (k) {
    case Type::Void: return "void";
    case Type::U8: return "u8";
    case Type::U32: return "u32";
    case Type::U64: return "u64";
    case Type::U128: return "u128";
    case Type::Size: return "size";
    case Type::Vec: return "vec";
    case Type::VecX: return "vecx";
  }
  return "?";
}

struct Writer {
  const Target &t;
  const RenderMeta &meta;
  std::ostringstream out;
  int depth = 0;

  std::string type_name(Type::Kind k) const {
    auto it = t.types.find(kind_key(k));
    if (it == t.types.end())
      throw std::runtime_error(fmt::format("{}: no spelling for type '{}'", t.path, kind_key(k)));
    return with_params(it->second);
  }

  // A spelling with the render parameters ({lmul}, ...) filled in; spellings without any are
  // returned unchanged (a target without parameters may use literal braces nowhere else).
  std::string with_params(const std::string &text) const {
    if (meta.params.empty() || text.find('{') == std::string::npos) return text;
    fmt::dynamic_format_arg_store<fmt::format_context> store;
    for (const auto &[k, v] : meta.params) store.push_back(fmt::arg(k.c_str(), v));
    return fmt::vformat(text, store);
  }

  std::string declare(const Type &ty, const std::string &name) const {
    std::string base;
    if (ty.kind == Type::Vec) {
      auto it = t.types.find("vec" + std::to_string(ty.bits));
      if (it == t.types.end())
        throw std::runtime_error(fmt::format("{}: no spelling for type 'vec{}'", t.path, ty.bits));
      base = it->second;
    } else {
      base = type_name(ty.kind);
    }
    switch (ty.form) {
      case Type::Value: return base + " " + name;
      case Type::Ptr: return base + " *" + name;
      case Type::ConstPtr: return "const " + base + " *" + name;
      case Type::Array: return fmt::format("{} {}[{}]", base, name, ty.extent);
      case Type::ConstArray: return fmt::format("const {} {}[{}]", base, name, ty.extent);
      case Type::Ref: return base + " &" + name;
    }
    return base + " " + name;
  }

  const Spelling &spelling(const std::string &op) const {
    auto it = t.ops.find(op);
    if (it == t.ops.end())
      throw std::runtime_error(fmt::format("{}: target '{}' has no spelling for op '{}'", t.path, t.name, op));
    return it->second;
  }

  // Precedence of an expression as rendered (leaves bind tightest).
  int prec_of(const Expr &e) const {
    if (e.op == "var" || e.op == "lit") return 1;
    if (e.op == "call") return 1;
    return spelling(e.op).prec;
  }

  // An operand needs parentheses unless it binds tighter than a unary op, or it is a product in
  // a sum, or the same op on the left (a + b + c). Everything else is bracketed for the reader
  // (`(a << 8) | b`), whatever C++ precedence would allow.
  std::string operand(const Expr &child, const Expr &parent, size_t slot) const {
    std::string s = expr(child);
    int c = prec_of(child), p = spelling(parent.op).prec;
    bool bare = c <= 2 || (c == 3 && p == 4) || (slot == 0 && child.op == parent.op) ||
                (parent.op == "index" && slot == 1);
    return bare ? s : "(" + s + ")";
  }

  std::string literal(const Expr &e) const {
    if (e.kind == Type::Size || e.kind == Type::U8 || e.value < 256) return std::to_string(e.value);
    int digits = e.kind == Type::U32 ? 8 : (e.value > 0xffffffffull ? 16 : 8);
    return fmt::format("0x{:0{}x}", e.value, digits);
  }

  std::string expr(const Expr &e) const {
    if (e.op == "var") return e.name;
    if (e.op == "lit") return literal(e);
    if (e.op == "call") {
      std::string s = e.name + "(";
      for (size_t i = 0; i < e.args.size(); ++i) s += (i ? ", " : "") + expr(e.args[i]);
      return s + ")";
    }
    const Spelling &sp = spelling(e.op);
    fmt::dynamic_format_arg_store<fmt::format_context> store;
    for (size_t i = 0; i < e.args.size(); ++i) store.push_back(operand(e.args[i], e, i));
    store.push_back(fmt::arg("imm", e.imm));
    store.push_back(fmt::arg("cimm", 32 - e.imm));
    store.push_back(fmt::arg("type", e.op == "cast" ? type_name(e.kind) : std::string{}));
    store.push_back(fmt::arg("name", e.name));
    for (const auto &[k, v] : meta.params) store.push_back(fmt::arg(k.c_str(), v));
    return fmt::vformat(sp.text, store);
  }

  void line(const std::string &s) {
    if (s.empty()) {
      out << "\n";
      return;
    }
    out << std::string(2 * depth, ' ') << s << "\n";
  }

  void spec_comment(const std::string &key) {
    auto it = meta.line_of.find(key);
    if (it == meta.line_of.end()) throw std::logic_error("render: spec key not in the spec: " + key);
    line(fmt::format("// spec: {}:{} {}", meta.spec_path, it->second, key));
  }

  void comment_lines(const std::string &text) {
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) line(l.empty() ? "//" : "// " + l);
  }

  void stmts(const std::vector<Stmt> &ss, std::string current_spec) {
    for (const auto &s : ss) {
      if (!s.spec.empty() && s.spec != current_spec && s.kind != Stmt::Blank) {
        spec_comment(s.spec);
        current_spec = s.spec;
      }
      stmt(s, current_spec);
    }
  }

  void stmt(const Stmt &s, const std::string &spec) {
    switch (s.kind) {
      case Stmt::Blank: line(""); break;
      case Stmt::Comment: comment_lines(s.text); break;
      case Stmt::Decl:
        line(declare(s.type, s.name) + (s.rhs.op.empty() ? "" : " = " + expr(s.rhs)) + ";");
        break;
      case Stmt::Assign: line(expr(s.lhs) + " = " + expr(s.rhs) + ";"); break;
      case Stmt::Eval: line(expr(s.rhs) + ";"); break;
      case Stmt::Return: line(s.rhs.op.empty() ? "return;" : "return " + expr(s.rhs) + ";"); break;
      case Stmt::If:
        line("if (" + expr(s.rhs) + ") {");
        block(s.body, spec);
        if (!s.orelse.empty()) {
          line("} else {");
          block(s.orelse, spec);
        }
        line("}");
        break;
      case Stmt::While:
      case Stmt::For:
        if (!s.contract.empty()) line("// chapoly-contract: " + s.contract);
        for (const auto &inv : s.invariants) line("// chapoly-invariant: " + inv);
        if (s.kind == Stmt::While) {
          line("while (" + expr(s.rhs) + ") {");
        } else {
          line(fmt::format("for ({} = {}; {} < {}; ++{}) {{", declare(s.type, s.name), expr(s.from),
                           s.name, expr(s.rhs), s.name));
        }
        block(s.body, spec);
        line("}");
        break;
    }
  }

  void block(const std::vector<Stmt> &ss, const std::string &spec) {
    ++depth;
    stmts(ss, spec);
    --depth;
  }

  std::string signature(const Function &f) const {
    std::string s = type_name(f.ret.kind) + " " + f.name + "(";
    for (size_t i = 0; i < f.params.size(); ++i) s += (i ? ", " : "") + declare(f.params[i].type, f.params[i].name);
    return s + ")";
  }

  void banner() {
    for (const auto &b : meta.banner) line(b.empty() ? "//" : "// " + b);
  }
};

}  // namespace

std::string render_source(const Module &m, const Target &t, const RenderMeta &meta) {
  check(m);
  Writer w{t, meta, {}, 0};
  w.banner();
  w.line("//");
  for (const auto &n : meta.notes) w.line(n.empty() ? "//" : "// " + n);
  w.line("");
  for (const auto &inc : t.includes) w.line("#include <" + inc + ">");
  w.line("");
  w.line("#include \"chapoly_" + m.name + ".h\"");
  for (const auto &f : m.functions) {
    w.line("");
    if (!f.spec.empty()) w.spec_comment(f.spec);
    if (!f.doc.empty()) w.comment_lines(f.doc);
    if (!f.contract.empty()) w.line("// chapoly-contract: " + f.contract);
    w.line((f.exported ? "" : t.helper_linkage + " ") + w.signature(f) + " {");
    w.block(f.body, f.spec);
    w.line("}");
  }
  return w.out.str();
}

std::string render_header(const Module &m, const Target &t, const RenderMeta &meta) {
  Writer w{t, meta, {}, 0};
  w.banner();
  std::string guard = "CHAPOLY_K_" + m.name + "_H";
  for (auto &c : guard) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  w.line("#ifndef " + guard);
  w.line("#define " + guard);
  w.line("");
  w.line("#include <stddef.h>");
  w.line("#include <stdint.h>");
  w.line("");
  w.line("#ifdef __cplusplus");
  w.line("extern \"C\" {");
  w.line("#endif");
  for (const auto &f : m.functions) {
    if (!f.exported) continue;
    w.line("");
    std::istringstream in(f.doc);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    for (size_t i = 0; i < lines.size(); ++i)
      w.line((i == 0 ? "/* " : " * ") + lines[i] + (i + 1 == lines.size() ? " */" : ""));
    w.line(w.signature(f) + ";");
  }
  w.line("");
  w.line("#ifdef __cplusplus");
  w.line("}");
  w.line("#endif");
  w.line("");
  w.line("#endif");
  return w.out.str();
}

}  // namespace chapoly::gen::kir
