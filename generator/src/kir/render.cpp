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
  t.brace_newline = root.at_path("target.brace_newline").value_or(false);
  t.export_linkage = root.at_path("target.export_linkage").value_or(std::string{});
  t.parens = root.at_path("target.parens").value_or(std::string("reader"));
  if (t.parens != "reader" && t.parens != "arith")
    throw std::runtime_error(fmt::format("{}: target.parens must be \"reader\" or \"arith\"", path));
  if (auto *ws = root.at_path("width").as_table())
    for (const auto &[k, v] : *ws) {
      int bits = std::atoi(std::string(k.str()).c_str());
      if (auto *tab = v.as_table())
        for (const auto &[n, x] : *tab) t.widths[bits][std::string(n.str())] = x.value_or(std::string{});
    }
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
    case Type::Int: return "int";
    case Type::Uns: return "unsigned";
    case Type::I64: return "i64";
    case Type::Mask: return "mask";
  }
  return "?";
}

std::string rstrip_lines(const std::string &text) {
  std::string out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    while (!l.empty() && (l.back() == ' ' || l.back() == '\t')) l.pop_back();
    out += l + "\n";
  }
  return out;
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

  // A vector or mask type by width: types.vecN / types.maskN.
  std::string vector_type(const Type &ty) const {
    std::string key = (ty.kind == Type::Vec ? "vec" : "mask") + std::to_string(ty.bits);
    auto it = t.types.find(key);
    if (it == t.types.end()) throw std::runtime_error(fmt::format("{}: no spelling for type '{}'", t.path, key));
    return it->second;
  }

  std::string declare(const Type &ty, const std::string &name) const {
    std::string base;
    if (ty.kind == Type::Vec || ty.kind == Type::Mask) {
      base = vector_type(ty);
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

  const Spelling &spelling(const Expr &e) const {
    if (e.bits) {
      auto w = t.ops.find(e.op + "@" + std::to_string(e.bits));
      if (w != t.ops.end()) return w->second;
    }
    return spelling(e.op);
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
    return spelling(e).prec;
  }

  // An operand needs parentheses unless it binds tighter than a unary op, or it is a product in
  // a sum, or the same op on the left (a + b + c). Everything else is bracketed for the reader
  // (`(a << 8) | b`), whatever C++ precedence would allow.
  std::string operand(const Expr &child, const Expr &parent, size_t slot) const {
    std::string s = expr(child);
    int c = prec_of(child), p = spelling(parent).prec;
    bool bare = p == 0 || c <= 2 || (c == 3 && p == 4) || (slot == 0 && child.op == parent.op) ||
                (parent.op == "index" && slot == 1);
    if (t.parens == "arith")
      bare = bare || ((c == 3 || c == 4) && (p == 6 || p == 7)) || (slot == 0 && c == 4 && p == 4) ||
             ((c == 6 || c == 7) && p == 11);
    return bare ? s : "(" + s + ")";
  }

  std::string literal(const Expr &e) const {
    if (!e.name.empty()) return e.name;  // a spelling chosen by the builder (0x44, 1ULL << 40)
    if (e.kind == Type::Size || e.kind == Type::U8 || e.value < 256) return std::to_string(e.value);
    int digits = e.kind == Type::U32 ? 8 : (e.value > 0xffffffffull ? 16 : 8);
    return fmt::format("0x{:0{}x}", e.value, digits);
  }

  std::string expr(const Expr &e) const {
    if (e.op == "var") return e.name;
    if (e.op == "lit") return literal(e);
    if (e.op == "call") {
      std::string s = e.name + "(";
      for (size_t i = 0; i < e.args.size(); ++i)
        s += (i ? "," : "") + (e.args[i].brk > 0 ? "\n" + std::string(static_cast<size_t>(e.args[i].brk), ' ')
                                                 : std::string(i ? " " : "")) + expr(e.args[i]);
      return s + ")";
    }
    const Spelling &sp = spelling(e);
    std::vector<std::string> ops;
    for (size_t i = 0; i < e.args.size(); ++i) {
      std::string o = operand(e.args[i], e, i);
      if (e.args[i].brk > 0) o = "\n" + std::string(static_cast<size_t>(e.args[i].brk), ' ') + o;
      ops.push_back(o);
    }
    return format(sp.text, e, ops);
  }

  int sp_prec(const Expr &e) const { return spelling(e).prec; }

  // Expands a spelling (see Spelling): {N}, {(N)}, {args}, {imm}, {immx}, {cimm}, {rot4}, {type},
  // {name}, and the [width.N] names; `{{` and `}}` are literal braces.
  std::string format(const std::string &f, const Expr &e, const std::vector<std::string> &ops) const {
    std::string out;
    for (size_t i = 0; i < f.size(); ++i) {
      if (f.compare(i, 2, "{{") == 0 || f.compare(i, 2, "}}") == 0) {
        out += f[i++];
        continue;
      }
      if (f[i] != '{') {
        out += f[i];
        continue;
      }
      size_t j = f.find('}', i);
      if (j == std::string::npos) throw std::runtime_error(fmt::format("{}: unclosed '{{' in '{}'", t.path, f));
      std::string key = f.substr(i + 1, j - i - 1);
      i = j;
      bool unary = key.size() > 2 && key.front() == '(' && key.back() == ')';
      if (unary) key = key.substr(1, key.size() - 2);
      if (!key.empty() && std::isdigit(static_cast<unsigned char>(key[0]))) {
        size_t n = static_cast<size_t>(std::stoul(key));
        if (n >= ops.size()) throw std::runtime_error(fmt::format("{}: '{}' has no operand {}", t.path, f, n));
        bool bracket = unary && sp_prec(e) == 0 && prec_of(e.args[n]) > 2;  // else operand() did
        out += bracket ? "(" + ops[n] + ")" : ops[n];
      } else if (key == "args") {
        for (size_t k = 0; k < ops.size(); ++k) out += (k ? ", " : "") + ops[k];
      } else if (key == "imm") {
        out += std::to_string(e.imm);
      } else if (key == "immx") {
        out += fmt::format("0x{:02x}", e.imm);
      } else if (key == "cimm") {
        out += std::to_string(32 - e.imm);
      } else if (key == "rot4") {
        int m = 0;
        for (int w = 0; w < 4; ++w) m |= ((e.imm + w) & 3) << (2 * w);
        out += fmt::format("0x{:02x}", m);
      } else if (key == "type") {
        if (e.op == "cast") out += e.kind == Type::Mask ? vector_type(Type::mask(e.bits)) : type_name(e.kind);
      } else if (key == "name") {
        out += e.name;
      } else if (auto pv = meta.params.find(key); pv != meta.params.end()) {
        out += pv->second;  // a render parameter of the target ({lmul}, {vl}, ...)
      } else {
        auto w = t.widths.find(e.bits);
        auto it = w == t.widths.end() ? decltype(w->second.end()){} : w->second.find(key);
        if (w == t.widths.end() || it == w->second.end())
          throw std::runtime_error(fmt::format("{}: op '{}' at width {}: no '{}' in [width.{}]", t.path, e.op,
                                               e.bits, key, e.bits));
        out += it->second;
      }
    }
    // An operand that starts a new line: no space after the comma before it.
    for (size_t k; (k = out.find(", \n")) != std::string::npos;) out.erase(k + 1, 1);
    return out;
  }

  // One line of code at the current depth; continuation lines (from operands that start a new
  // line) are indented past the statement's own indentation.
  void line(const std::string &s) {
    if (s.empty()) {
      out << "\n";
      return;
    }
    std::string ind(2 * static_cast<size_t>(depth), ' ');
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);) out << ind << l << "\n";
  }

  // A statement's code with its trailing note.
  static std::string with_note(const std::string &code, const Stmt &s) {
    if (s.note.empty()) return code;
    size_t last = code.rfind('\n');
    size_t len = code.size() - (last == std::string::npos ? 0 : last + 1);
    size_t col = static_cast<size_t>(s.note_col);
    std::string pad = s.note_col == 0  ? "  "
                      : s.note_col < 0 ? std::string(static_cast<size_t>(-s.note_col), ' ')
                      : len < col      ? std::string(col - len, ' ')
                                       : " ";
    return code + pad + "// " + s.note;
  }

  // The code of a simple statement (no newline, no note).
  std::string simple(const Stmt &s) const {
    switch (s.kind) {
      case Stmt::Decl: {
        std::string d = (s.konst ? "const " : "") + declare(s.type, s.name) + (s.rhs.op.empty() ? "" : " = " + expr(s.rhs));
        for (const auto &[n, e] : s.more) d += ", " + n + (e.op.empty() ? "" : " = " + expr(e));
        return d + ";";
      }
      case Stmt::Assign:
        return expr(s.lhs) + (s.text.empty() ? " = " : " " + s.text + "= ") + expr(s.rhs) + ";";
      case Stmt::Eval: return expr(s.rhs) + ";";
      case Stmt::Return: return s.rhs.op.empty() ? "return;" : "return " + expr(s.rhs) + ";";
      case Stmt::Line: {
        std::string l;
        for (const auto &p : s.body) l += (l.empty() ? "" : " ") + simple(p);
        return l;
      }
      default: throw std::logic_error("render: not a one-line statement");
    }
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
      if (s.kind == Stmt::SpecMark) {
        spec_comment(s.spec);
        continue;
      }
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
      case Stmt::Assign:
      case Stmt::Eval:
      case Stmt::Return:
      case Stmt::Line: line(with_note(simple(s), s)); break;
      case Stmt::SpecMark: break;
      case Stmt::Scope:
        line("{");
        block(s.body, spec);
        line("}");
        break;
      case Stmt::If:
        if (s.inline_body) {
          if (s.body.size() != 1 || s.orelse.size() > 1) throw std::logic_error("render: inline if needs one statement");
          line(with_note("if (" + expr(s.rhs) + ") " + simple(s.body[0]), s.body[0]));
          if (!s.orelse.empty()) line(with_note("else " + simple(s.orelse[0]), s.orelse[0]));
          break;
        }
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
          line(fmt::format("for ({} = {}; {} < {}; ++{}){}", declare(s.type, s.name), expr(s.from),
                           s.name, expr(s.rhs), s.name, s.inline_body ? "" : " {"));
        }
        block(s.body, spec);
        if (!s.inline_body) line("}");
        break;
    }
  }

  void block(const std::vector<Stmt> &ss, const std::string &spec) {
    ++depth;
    stmts(ss, spec);
    --depth;
  }

  std::string signature(const Function &f) const {
    std::string s = declare(f.ret, f.name) + "(";
    for (size_t i = 0; i < f.params.size(); ++i) {
      const Param &p = f.params[i];
      s += (i ? "," : "") + (p.brk > 0 ? "\n" + std::string(static_cast<size_t>(p.brk), ' ') : std::string(i ? " " : "")) +
           declare(p.type, p.name);
    }
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
    if (!f.section.empty()) {
      w.line("// ============================================================================================");
      w.comment_lines(f.section);
      if (!f.section_spec.empty()) w.spec_comment(f.section_spec);
      w.line("");
    }
    if (!f.spec.empty() && !f.spec_after_doc) w.spec_comment(f.spec);
    if (!f.doc.empty() && (f.doc_in_source || !f.exported)) w.comment_lines(f.doc);
    if (!f.spec.empty() && f.spec_after_doc) w.spec_comment(f.spec);
    if (!f.contract.empty()) w.line("// chapoly-contract: " + f.contract);
    std::string linkage = f.exported ? t.export_linkage : t.helper_linkage;
    w.line((linkage.empty() ? "" : linkage + " ") + w.signature(f) + (t.brace_newline ? "" : " {"));
    if (t.brace_newline) w.line("{");
    w.block(f.body, f.spec);
    w.line("}");
  }
  return rstrip_lines(w.out.str());
}

std::string render_header(const Module &m, const Target &t, const RenderMeta &meta) {
  Writer w{t, meta, {}, 0};
  for (const auto &b : meta.header_banner.empty() ? meta.banner : meta.header_banner)
    w.line(b.empty() ? "//" : "// " + b);
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
