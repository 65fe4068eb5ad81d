// symbolic.cpp: the bit-exact symbolic evaluator (see symbolic.h).
#include "symbolic.h"

#include <map>
#include <random>
#include <set>

#include "interp.h"
#include "intrinsics.h"

namespace cv {

namespace {
struct Stop {};  // unwinds evaluation after an error has been recorded
}  // namespace

struct SymEval::Impl : Interp<SymEval::Impl, SVal> {
  const File &F;
  z3::context &c;
  std::string err;
  SrcLoc errLoc;
  std::map<std::string, SVal> bound;     // parameter bindings by name (top frame)
  std::map<std::string, SVal> first;     // first value assigned, by name (top frame)
  std::map<std::string, SVal> inputs;    // fresh inputs made for reads before writes (top frame)
  std::map<std::string, std::map<int64_t, z3::expr>> mem;  // region -> byte offset -> byte
  std::set<std::string> dirty;          // regions written at unknown offsets
  std::map<std::string, int> ncalls;
  std::vector<std::string> watch, snapVars;
  bool snapped = false;
  std::map<std::string, SVal> snap;
  int fresh = 0;
  // The in-place order watch (watchInPlace): reads of `in` against the bytes of `out` already
  // written, reads of the `early` regions against any write of `out`.
  struct OrderWatch {
    bool on = false;
    std::string out, in;
    std::set<std::string> early;
    std::set<int64_t> wrote;
    bool wroteAny = false, wroteUnknown = false;
    std::string why;
    SrcLoc loc;
  } ow;
  SrcLoc at;  // the statement being evaluated (for the watch's report)
  std::set<std::string> wroteRegions;  // regions any store wrote

  Impl(const File &f, z3::context &cc) : F(f), c(cc) {}

  void orderRead(const std::string &region, bool known, int64_t off) {
    if (!ow.on || !ow.why.empty()) return;
    if (region == ow.in && ((ow.wroteUnknown || !known) ? ow.wroteAny : ow.wrote.count(off) > 0)) {
      ow.why = "reads " + ow.in + (known ? "[" + std::to_string(off) + "]" : " at an offset not known") + " after " +
               ow.out + (known ? "[" + std::to_string(off) + "]" : "") + " may have been written (with " + ow.out + " == " + ow.in +
               ", the ABI's in-place call, it reads output, not input)";
      ow.loc = at;
    } else if (ow.early.count(region) && ow.wroteAny) {
      ow.why = "reads " + region + (known ? "[" + std::to_string(off) + "]" : "") + " after its first write of " + ow.out +
               " (its MAC reads must all come first: the message may be the text it writes)";
      ow.loc = at;
    }
  }
  void orderWrite(const std::string &region, bool known, int64_t off, size_t n) {
    if (!ow.on || region != ow.out) return;
    ow.wroteAny = true;
    if (!known) ow.wroteUnknown = true;
    else
      for (size_t i = 0; i < n; ++i) ow.wrote.insert(off + (int64_t)i);
  }

  [[noreturn]] void fail(SrcLoc l, const std::string &m) {
    if (err.empty()) {
      err = m;
      errLoc = l;
    }
    throw Stop{};
  }

  z3::expr bv(uint64_t v, unsigned w) { return c.bv_val((uint64_t)v, w); }
  z3::expr freshBv(const std::string &n, unsigned w) {
    return c.bv_const((n + "#" + std::to_string(fresh++)).c_str(), w);
  }

  SVal intV(z3::expr e, unsigned bits) {
    SVal v;
    v.k = SVal::Int;
    v.bits = bits;
    v.w.push_back(e);
    return v;
  }

  SVal freshOf(const Type &t, const std::string &name) {
    SVal v;
    switch (t.kind) {
      case Type::Int:
      case Type::Mask:
        return intV(freshBv(name, t.bits), t.bits);
      case Type::Bool: return intV(freshBv(name, 1), 1);
      case Type::Vec:
        v.k = SVal::Vec;
        v.bits = t.bits;
        for (unsigned i = 0; i < t.bits / 32; ++i) v.w.push_back(freshBv(name + "." + std::to_string(i), 32));
        return v;
      case Type::Ptr:
        v.k = SVal::Ptr;
        v.region = name;
        v.elemBits = t.bits;
        return v;
      case Type::Array:
        v.k = SVal::Arr;
        v.bits = t.bits;
        for (uint64_t i = 0; i < t.count; ++i) {
          if (t.elemIsVec) fail({}, "arrays of vectors are not supported by the symbolic evaluator");
          v.w.push_back(freshBv(name + "[" + std::to_string(i) + "]", t.bits));
        }
        return v;
      default: return v;
    }
  }

  SVal &slot(int var) {
    auto k = key(var);
    auto it = slots.find(k);
    if (it != slots.end()) return it->second;
    const Var &v = F.vars[(size_t)var];
    SVal init;
    if (v.isGlobal && v.init) {
      init = evalInit(v.ty, v.init);
    } else if (k.first == 1 && bound.count(v.name)) {
      init = bound[v.name];
    } else {
      init = freshOf(v.ty, v.name);
      if (k.first == 1) inputs.emplace(v.name, init);
    }
    return slots.emplace(k, init).first->second;
  }

  void noteRead(const std::string &name) {
    if (snapped || watch.empty()) return;
    for (const auto &w : watch)
      if (w == name) {
        snapped = true;
        for (const auto &vn : snapVars) {
          for (const auto &[k, val] : slots)
            if (k.first == 1 && F.vars[(size_t)k.second].name == vn) snap.emplace(vn, val);
        }
        return;
      }
  }

  void assign(int var, const SVal &v) {
    auto k = key(var);
    slots.erase(k);
    slots.emplace(k, v);
    if (k.first == 1) first.emplace(F.vars[(size_t)var].name, v);
  }

  // ---- statements (interp.h), with this evaluator's hooks ----
  static constexpr bool allowsBreak = true;  // (the ChaCha20 helpers' loops)
  int loopLimit() const { return 100000; }
  void onStatement(const Stmt &s) {
    if (s.kind != Stmt::Block && frames.size() <= 1) at = s.loc;  // the helper's own statement
  }
  void declare(const Stmt &s) {
    const Var &v = F.vars[(size_t)s.var];
    SVal val = s.e ? (v.ty.kind == Type::Array ? evalInit(v.ty, s.e) : convert(eval(*s.e), v.ty, s.loc)) : freshOf(v.ty, v.name);
    assign(s.var, val);
  }

  int decide(const SVal &v, SrcLoc l) {
    if (v.k != SVal::Int) fail(l, "condition is not a scalar");
    z3::expr e = v.w[0].simplify();
    if (!e.is_numeral()) fail(l, "condition depends on symbolic data (only constant control flow is evaluated)");
    return e.get_numeral_uint64() != 0;
  }

  SVal evalInit(const Type &t, const ExprP &init) {
    if (t.kind != Type::Array) return convert(eval(*init), t, init->loc);
    SVal a;
    a.k = SVal::Arr;
    a.bits = t.bits;
    for (uint64_t i = 0; i < t.count; ++i) {
      if (init->kind == Expr::InitList && i < init->args.size()) {
        SVal e = convert(eval(*init->args[i]), elemType(t), init->loc);
        a.w.push_back(e.w[0]);
      } else {
        a.w.push_back(bv(0, t.bits));
      }
    }
    return a;
  }
  static Type elemType(const Type &t) {
    Type e;
    e.kind = Type::Int;
    e.bits = t.bits;
    e.isSigned = t.isSigned;
    return e;
  }

  SVal convert(const SVal &v, const Type &t, SrcLoc l) {
    if (t.kind == Type::Int || t.kind == Type::Mask || t.kind == Type::Bool) {
      unsigned w = t.kind == Type::Bool ? 1 : t.bits;
      if (v.k != SVal::Int) fail(l, "conversion of a non-scalar to a scalar");
      z3::expr e = v.w[0];
      if (t.kind == Type::Bool) return intV(z3::ite(e != bv(0, v.bits), bv(1, 1), bv(0, 1)), 1);
      if (w == v.bits) return intV(e, w);
      if (w < v.bits) return intV(e.extract(w - 1, 0), w);
      return intV(srcSigned ? z3::sext(e, w - v.bits) : z3::zext(e, w - v.bits), w);
    }
    if (t.kind == Type::Vec) {
      if (v.k != SVal::Vec) fail(l, "conversion of a non-vector to a vector");
      if (v.bits == t.bits) return v;
      fail(l, "vector conversion between widths");
    }
    if (t.kind == Type::Ptr) {
      if (v.k == SVal::Ptr) {
        SVal r = v;
        r.elemBits = t.bits;
        return r;
      }
      fail(l, "conversion to a pointer from a non-pointer");
    }
    return v;
  }
  bool srcSigned = false;

  // ---- memory ----
  z3::expr readByte(const std::string &region, int64_t off) {
    noteRead(region);
    orderRead(region, true, off);
    auto &m = mem[region];
    auto it = m.find(off);
    if (it != m.end()) return it->second;
    z3::expr b = dirty.count(region) ? freshBv(region + "?", 8)
                                     : c.bv_const((region + "[" + std::to_string(off) + "]").c_str(), 8);
    m.emplace(off, b);
    return b;
  }
  std::vector<z3::expr> readBytes(const SVal &p, int n) {
    std::vector<z3::expr> out;
    if (p.k != SVal::Ptr) fail({}, "memory access through a non-pointer");
    if (!p.offKnown) orderRead(p.region, false, 0);
    for (int i = 0; i < n; ++i) out.push_back(p.offKnown ? readByte(p.region, p.off + i) : freshBv(p.region + "?", 8));
    return out;
  }
  void writeBytes(const SVal &p, const std::vector<z3::expr> &bytes) {
    if (p.k != SVal::Ptr) fail({}, "memory access through a non-pointer");
    orderWrite(p.region, p.offKnown, p.off, bytes.size());
    wroteRegions.insert(p.region);
    if (!p.offKnown) {
      dirty.insert(p.region);
      mem[p.region].clear();
      return;
    }
    auto &m = mem[p.region];
    for (size_t i = 0; i < bytes.size(); ++i) {
      m.erase(p.off + (int64_t)i);
      m.emplace(p.off + (int64_t)i, bytes[i]);
    }
  }
  // Local arrays are regions too: their bytes live in the SVal.
  bool isLocalArray(const SVal &p) { return p.region.rfind("@arr:", 0) == 0; }

  // ---- expressions ----
  SVal eval(const Expr &e) {
    switch (e.kind) {
      case Expr::Const: {
        if (e.ty.kind == Type::Int || e.ty.kind == Type::Bool || e.ty.kind == Type::Mask) {
          unsigned w = e.ty.kind == Type::Bool ? 1 : e.ty.bits;
          if (w <= 64) return intV(bv((uint64_t)e.value, w), w);
          z3::expr hi = bv((uint64_t)(e.value >> 64), w - 64), lo = bv((uint64_t)e.value, 64);
          return intV(z3::concat(hi, lo), w);
        }
        if (e.ty.kind == Type::Ptr) {
          SVal p;
          p.k = SVal::Ptr;
          p.region = "null";
          return p;
        }
        fail(e.loc, "constant of unsupported type");
      }
      case Expr::Var: {
        const Var &v = F.vars[(size_t)e.var];
        noteRead(v.name);
        if (v.ty.kind == Type::Array) {
          slot(e.var);
          SVal p;
          p.k = SVal::Ptr;
          auto k = key(e.var);
          p.region = "@arr:" + std::to_string(k.first) + ":" + std::to_string(k.second);
          p.elemBits = v.ty.bits;
          return p;
        }
        return slot(e.var);
      }
      case Expr::Cast: {
        SVal v = eval(*e.args[0]);
        srcSigned = e.args[0]->ty.isSigned;
        SVal r = convert(v, e.ty, e.loc);
        srcSigned = false;
        return r;
      }
      case Expr::Bin: return binary(e);
      case Expr::Un: {
        SVal a = eval(*e.args[0]);
        if (a.k != SVal::Int) fail(e.loc, "unary operator on a non-scalar");
        unsigned w = e.ty.kind == Type::Bool ? 1 : e.ty.bits;
        if (e.name == "~") return intV(~a.w[0], a.bits);
        if (e.name == "-") return intV(-a.w[0], a.bits);
        return intV(z3::ite(a.w[0] == bv(0, a.bits), bv(1, w), bv(0, w)), w);
      }
      case Expr::Cond: {
        int d = decide(eval(*e.args[0]), e.loc);
        return eval(*e.args[d ? 1 : 2]);
      }
      case Expr::Index:
      case Expr::Deref: return readPlace(e);
      case Expr::AddrOf: {
        const Expr &in = *e.args[0];
        if (in.kind == Expr::Index) return ptrAdd(eval(*in.args[0]), eval(*in.args[1]), false, in.loc);
        fail(e.loc, "address-of is only supported on array elements");
      }
      case Expr::Assign: {
        SVal rhs = eval(*e.args[1]);
        SVal v;
        if (e.name.empty()) {
          v = convert(rhs, e.args[0]->ty, e.loc);
        } else {
          SVal cur = eval(*e.args[0]);
          if (cur.k == SVal::Ptr) v = ptrAdd(cur, rhs, e.name == "-", e.loc);
          else v = arith(e.name, cur, convert(rhs, e.args[0]->ty, e.loc), e.args[0]->ty, e.loc);
        }
        writePlace(*e.args[0], v);
        return v;
      }
      case Expr::IncDec: {
        SVal cur = eval(*e.args[0]);
        bool inc = e.name.find("++") != std::string::npos;
        SVal v = cur.k == SVal::Ptr ? ptrAdd(cur, intV(bv(1, 64), 64), !inc, e.loc)
                                    : arith(inc ? "+" : "-", cur, intV(bv(1, cur.bits), cur.bits), e.args[0]->ty, e.loc);
        writePlace(*e.args[0], v);
        return e.name.rfind("post", 0) == 0 ? cur : v;
      }
      case Expr::Call: return call(e);
      case Expr::Intrin: return intrinsic(e);
      case Expr::InitList: fail(e.loc, "initialiser list outside a declaration");
    }
    fail(e.loc, "unsupported expression");
  }

  SVal ptrAdd(const SVal &p, const SVal &n, bool minus, SrcLoc l) {
    if (p.k != SVal::Ptr || n.k != SVal::Int) fail(l, "pointer arithmetic on non-pointers");
    SVal r = p;
    z3::expr s = n.w[0].simplify();
    if (!p.offKnown || !s.is_numeral()) {
      r.offKnown = false;
      return r;
    }
    int64_t d = (int64_t)s.get_numeral_uint64();
    if (n.bits < 64 && (d >> (n.bits - 1)) & 1) d -= (int64_t)1 << n.bits;
    d *= (int64_t)(p.elemBits / 8 ? p.elemBits / 8 : 1);
    r.off = minus ? p.off - d : p.off + d;
    return r;
  }

  SVal binary(const Expr &e) {
    const std::string &op = e.name;
    if (op == "&&" || op == "||") {
      int a = decide(eval(*e.args[0]), e.loc);
      if (op == "&&" && !a) return intV(bv(0, 1), 1);
      if (op == "||" && a) return intV(bv(1, 1), 1);
      int b = decide(eval(*e.args[1]), e.loc);
      return intV(bv((uint64_t)b, 1), 1);
    }
    SVal a = eval(*e.args[0]), b = eval(*e.args[1]);
    if (a.k == SVal::Ptr && (op == "+" || op == "-")) return ptrAdd(a, b, op == "-", e.loc);
    if (a.k != SVal::Int || b.k != SVal::Int) fail(e.loc, "operator '" + op + "' on non-scalars");
    bool sgn = e.args[0]->ty.isSigned || e.args[1]->ty.isSigned;
    if (op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=") {
      z3::expr x = a.w[0], y = b.w[0];
      z3::expr r = op == "==" ? x == y
                   : op == "!=" ? x != y
                   : op == "<"  ? (sgn ? x < y : z3::ult(x, y))
                   : op == "<=" ? (sgn ? x <= y : z3::ule(x, y))
                   : op == ">"  ? (sgn ? x > y : z3::ugt(x, y))
                                : (sgn ? x >= y : z3::uge(x, y));
      return intV(z3::ite(r, bv(1, 1), bv(0, 1)), 1);
    }
    return arith(op, a, b, e.ty, e.loc);
  }

  SVal arith(const std::string &op, const SVal &a, const SVal &b, const Type &t, SrcLoc l) {
    z3::expr x = a.w[0], y = b.w[0];
    unsigned w = a.bits;
    if (b.bits != w && op != "<<" && op != ">>") fail(l, "operand widths differ");
    if (op == "+") return intV(x + y, w);
    if (op == "-") return intV(x - y, w);
    if (op == "*") return intV(x * y, w);
    if (op == "&") return intV(x & y, w);
    if (op == "|") return intV(x | y, w);
    if (op == "^") return intV(x ^ y, w);
    if (op == "<<" || op == ">>") {
      z3::expr s = y.simplify();
      if (!s.is_numeral() || s.get_numeral_uint64() >= w) fail(l, "shift by a non-constant or too large amount");
      z3::expr k = bv(s.get_numeral_uint64(), w);
      if (op == "<<") return intV(z3::shl(x, k), w);
      return intV(t.isSigned ? z3::ashr(x, k) : z3::lshr(x, k), w);
    }
    if (op == "/" || op == "%") {
      if (t.isSigned) fail(l, "signed division");
      return intV(op == "/" ? z3::udiv(x, y) : z3::urem(x, y), w);
    }
    fail(l, "operator '" + op + "' is not modelled");
  }

  // Places.
  SVal readPlace(const Expr &e) {
    SVal base = eval(*e.args[0]);
    SVal idx = e.kind == Expr::Index ? eval(*e.args[1]) : intV(bv(0, 64), 64);
    SVal p = ptrAdd(base, idx, false, e.loc);
    unsigned eb = e.ty.bits;
    if (isLocalArray(p)) {
      SVal &arr = arrayOf(p);
      if (!p.offKnown || p.off % (arr.bits / 8) != 0 || eb != arr.bits) fail(e.loc, "array access at a non-constant index");
      size_t i = (size_t)(p.off / (arr.bits / 8));
      if (i >= arr.w.size()) fail(e.loc, "array access out of bounds");
      return intV(arr.w[i], arr.bits);
    }
    if (e.ty.kind != Type::Int) fail(e.loc, "memory read of a non-scalar");
    std::vector<z3::expr> bytes = readBytes(p, (int)(eb / 8));
    z3::expr v = bytes[0];
    for (size_t i = 1; i < bytes.size(); ++i) v = z3::concat(bytes[i], v);
    return intV(v, eb);
  }
  SVal &arrayOf(const SVal &p) {
    size_t a = p.region.find(':'), b = p.region.find(':', a + 1);
    int ctx = std::stoi(p.region.substr(a + 1, b - a - 1)), var = std::stoi(p.region.substr(b + 1));
    auto it = slots.find({ctx, var});
    if (it == slots.end()) fail({}, "array without storage");
    return it->second;
  }
  void writePlace(const Expr &lhs, const SVal &v) {
    if (lhs.kind == Expr::Var) {
      assign(lhs.var, v);
      return;
    }
    if (lhs.kind != Expr::Index && lhs.kind != Expr::Deref) fail(lhs.loc, "assignment to an unsupported place");
    SVal base = eval(*lhs.args[0]);
    SVal idx = lhs.kind == Expr::Index ? eval(*lhs.args[1]) : intV(bv(0, 64), 64);
    SVal p = ptrAdd(base, idx, false, lhs.loc);
    if (isLocalArray(p)) {
      SVal &arr = arrayOf(p);
      if (!p.offKnown || p.off % (arr.bits / 8) != 0) fail(lhs.loc, "array store at a non-constant index");
      size_t i = (size_t)(p.off / (arr.bits / 8));
      if (i >= arr.w.size()) fail(lhs.loc, "array store out of bounds");
      arr.w[i] = v.w[0];
      return;
    }
    std::vector<z3::expr> bytes;
    for (unsigned i = 0; i < v.bits / 8; ++i) bytes.push_back(v.w[0].extract(8 * i + 7, 8 * i));
    writeBytes(p, bytes);
  }

  SVal call(const Expr &e) {
    if (e.fn < 0) fail(e.loc, "call of an unknown function");
    return inlineCall(e, F.funcs[(size_t)e.fn]);
  }

  // ---- rotation idioms, rewritten to the rotation they compute (exact identities) ----
  // Without a vprold, a 32-bit rotation is written (x << k) | (x >> (32 - k)) or as a byte shuffle
  // (k = 8, 16, 24). Both are rewritten to x.rotate_left(k), the term the RFC reference uses, so a
  // round proof compares like terms; anything else is left as computed (and then must be proved
  // equal, or is refuted on random states).
  static bool shiftBy(const z3::expr &e, Z3_decl_kind k, uint64_t &by) {
    if (!e.is_app() || e.decl().decl_kind() != k || e.num_args() != 2 || !e.arg(1).is_numeral()) return false;
    by = e.arg(1).get_numeral_uint64();
    return true;
  }
  static z3::expr orRotate(const z3::expr &x, const z3::expr &y) {
    if (x.get_sort().is_bv() && x.get_sort().bv_size() == 32) {
      uint64_t l = 0, r = 0;
      for (int swap = 0; swap < 2; ++swap) {
        const z3::expr &a = swap ? y : x, &b = swap ? x : y;
        if (shiftBy(a, Z3_OP_BSHL, l) && shiftBy(b, Z3_OP_BLSHR, r) && l > 0 && l < 32 && l + r == 32 &&
            z3::eq(a.arg(0), b.arg(0)))
          return a.arg(0).rotate_left((unsigned)l);
      }
    }
    return x | y;
  }
  // Four bytes ls[i..i+3] that are bytes (j + t) mod 4 of one 32-bit term s: s rotated right by 8t.
  z3::expr bytesRotate(const std::vector<z3::expr> &ls, size_t i, const z3::expr &whole) {
    int t = -1;
    z3::expr src = whole;
    for (unsigned j = 0; j < 4; ++j) {
      const z3::expr &b = ls[i + j];
      if (!b.is_app() || b.decl().decl_kind() != Z3_OP_EXTRACT || b.arg(0).get_sort().bv_size() != 32) return whole;
      unsigned hi = (unsigned)Z3_get_decl_int_parameter(c, b.decl(), 0);
      unsigned lo = (unsigned)Z3_get_decl_int_parameter(c, b.decl(), 1);
      if (hi != lo + 7 || lo % 8) return whole;
      int tj = (int)((lo / 8 + 4 - j) % 4);
      if (j == 0) {
        t = tj;
        src = b.arg(0);
      } else if (tj != t || !z3::eq(b.arg(0), src)) {
        return whole;
      }
    }
    return t == 0 ? src : src.rotate_left((unsigned)(32 - 8 * t));
  }

  // ---- intrinsics ----
  z3::expr lane(const SVal &v, unsigned lb, unsigned i) {
    if (v.k == SVal::Int) {
      if (lb == v.bits && i == 0) return v.w[0];
      if (lb < v.bits) return v.w[0].extract(lb * (i + 1) - 1, lb * i);
      return z3::zext(v.w[0], lb - v.bits);
    }
    if (lb == 32) return v.w[i];
    if (lb == 64) return z3::concat(v.w[2 * i + 1], v.w[2 * i]);
    if (lb < 32) {
      unsigned per = 32 / lb;
      return v.w[i / per].extract(lb * (i % per + 1) - 1, lb * (i % per));
    }
    fail({}, "lane width");
  }
  SVal fromLanes(unsigned bits, unsigned lb, const std::vector<z3::expr> &ls) {
    SVal r;
    if (bits < 128) {
      z3::expr v = ls[0];
      for (size_t i = 1; i < ls.size(); ++i) v = z3::concat(ls[i], v);
      return intV(v.get_sort().bv_size() > bits ? v.extract(bits - 1, 0) : v, bits);
    }
    r.k = SVal::Vec;
    r.bits = bits;
    if (lb == 32) {
      r.w = ls;
    } else if (lb == 64) {
      for (auto &l : ls) {
        r.w.push_back(l.extract(31, 0));
        r.w.push_back(l.extract(63, 32));
      }
    } else {
      unsigned per = 32 / lb;
      for (size_t i = 0; i < ls.size(); i += per) {
        z3::expr v = ls[i];
        for (unsigned j = 1; j < per; ++j) v = z3::concat(ls[i + j], v);
        if (lb == 8) v = bytesRotate(ls, i, v);
        r.w.push_back(v);
      }
    }
    return r;
  }
  // Only terms built from numerals within a few operations are folded: a constant operand is
  // made from constants directly, and simplifying deep data terms would be slow.
  static bool constTerm(const z3::expr &e, int depth) {
    if (e.is_numeral()) return true;
    if (depth == 0 || !e.is_app() || e.num_args() == 0) return false;
    for (unsigned i = 0; i < e.num_args(); ++i)
      if (!constTerm(e.arg(i), depth - 1)) return false;
    return true;
  }
  static z3::expr small(const z3::expr &e) { return constTerm(e, 4) ? e.simplify() : e; }
  static bool constOf(const SVal &v, Bits &out) {
    out = Bits{};
    if (v.k == SVal::Int) {
      z3::expr s = small(v.w[0]);
      if (!s.is_numeral()) return false;
      if (v.bits <= 64) out.w[0] = s.get_numeral_uint64();
      else {
        out.w[0] = s.extract(63, 0).simplify().get_numeral_uint64();
        out.w[1] = s.extract(v.bits - 1, 64).simplify().get_numeral_uint64();
      }
      return true;
    }
    if (v.k == SVal::Vec) {
      for (size_t i = 0; i < v.w.size(); ++i) {
        z3::expr s = small(v.w[i]);
        if (!s.is_numeral()) return false;
        out.w[i / 2] |= s.get_numeral_uint64() << (32 * (i % 2));
      }
      return true;
    }
    return false;
  }

  SVal intrinsic(const Expr &e) {
    const Intrinsic *in = findIntrinsic(e.name);
    if (!in) fail(e.loc, "intrinsic '" + e.name + "' is not in the semantics table");
    ncalls[e.name]++;
    std::vector<const Expr *> ax;
    if (!in->argmap.empty())
      for (int i : in->argmap) ax.push_back(e.args[(size_t)i].get());
    else
      for (auto &a : e.args) ax.push_back(a.get());
    std::vector<SVal> a;
    for (const Expr *x : ax) a.push_back(eval(*x));
    // 256-bit forms share the 512-bit rules; the lane counts come from the result width.
    const std::string n = ruleName(in->name);
    unsigned rb = in->resultBits;
    auto imm = [&](size_t i) -> uint64_t {
      Bits b;
      if (!constOf(a[i], b)) fail(e.loc, "immediate of '" + n + "' is not constant");
      return b.w[0];
    };
    auto nl = [&](unsigned lb) { return (rb >= 128 ? rb : 64) / lb; };
    auto map2 = [&](unsigned lb, auto f) {
      std::vector<z3::expr> ls;
      for (unsigned i = 0; i < nl(lb); ++i) ls.push_back(f(lane(a[0], lb, i), lane(a[1], lb, i)));
      return fromLanes(rb, lb, ls);
    };
    if (in->cls == Cls::Load || in->cls == Cls::Store) return memoryOp(*in, a, e);
    if (n == "_mm512_add_epi32") return map2(32, [](z3::expr x, z3::expr y) { return x + y; });
    if (n == "_mm512_add_epi64" || n == "_mm256_add_epi64" || n == "_mm_add_epi64")
      return map2(64, [](z3::expr x, z3::expr y) { return x + y; });
    if (n == "_mm512_sub_epi64") return map2(64, [](z3::expr x, z3::expr y) { return x - y; });
    if (n == "_mm512_xor_si512" || n == "_mm512_xor_epi32" || n == "_mm512_xor_epi64")
      return map2(32, [](z3::expr x, z3::expr y) { return x ^ y; });
    if (n == "_mm512_and_si512" || n == "_mm512_and_epi64")
      return map2(32, [](z3::expr x, z3::expr y) { return x & y; });
    if (n == "_mm512_or_si512" || n == "_mm512_or_epi64")
      return map2(32, [](z3::expr x, z3::expr y) { return orRotate(x, y); });
    if (n == "_mm512_andnot_si512") return map2(32, [](z3::expr x, z3::expr y) { return ~x & y; });
    if (n == "_mm512_rol_epi32" || n == "_mm512_ror_epi32") {
      unsigned k = (unsigned)(imm(1) & 31);
      if (n == "_mm512_ror_epi32") k = (32 - k) & 31;
      std::vector<z3::expr> ls;
      for (unsigned i = 0; i < nl(32); ++i) ls.push_back(k ? lane(a[0], 32, i).rotate_left(k) : lane(a[0], 32, i));
      return fromLanes(rb, 32, ls);
    }
    if (n == "_mm512_slli_epi64" || n == "_mm512_srli_epi64" || n == "_mm512_slli_epi32" || n == "_mm512_srli_epi32") {
      unsigned lb = n.find("epi64") != std::string::npos ? 64 : 32;
      uint64_t k = imm(1) & 0xffffffffu;
      bool left = n.find("slli") != std::string::npos;
      std::vector<z3::expr> ls;
      for (unsigned i = 0; i < nl(lb); ++i) {
        z3::expr x = lane(a[0], lb, i);
        ls.push_back(k >= lb ? bv(0, lb) : left ? z3::shl(x, bv(k, lb)) : z3::lshr(x, bv(k, lb)));
      }
      return fromLanes(rb, lb, ls);
    }
    if (n == "_mm512_madd52lo_epu64" || n == "_mm512_madd52hi_epu64") {
      bool lo = n == "_mm512_madd52lo_epu64";
      std::vector<z3::expr> ls;
      for (unsigned i = 0; i < nl(64); ++i) {
        z3::expr x = z3::zext(lane(a[1], 64, i).extract(51, 0), 52), y = z3::zext(lane(a[2], 64, i).extract(51, 0), 52);
        z3::expr p = x * y;
        z3::expr part = lo ? z3::zext(p.extract(51, 0), 12) : z3::zext(p.extract(103, 52), 12);
        ls.push_back(lane(a[0], 64, i) + part);
      }
      return fromLanes(rb, 64, ls);
    }
    if (n == "_mm256_zeroupper") return SVal{};  // no value; clears no state the evaluator models
    if (n == "_mm512_mul_epu32") {
      return map2(64, [&](z3::expr x, z3::expr y) { return z3::zext(x.extract(31, 0), 32) * z3::zext(y.extract(31, 0), 32); });
    }
    if (n == "_mm512_reduce_add_epi64") {
      z3::expr s = lane(a[0], 64, 0);
      for (unsigned i = 1; i < 8; ++i) s = s + lane(a[0], 64, i);
      return intV(s, 64);
    }
    if (n == "_mm512_ternarylogic_epi64" || n == "_mm512_ternarylogic_epi32") {
      uint64_t t = imm(3) & 0xff;
      std::vector<z3::expr> ls;
      for (unsigned i = 0; i < nl(32); ++i) {
        z3::expr x = lane(a[0], 32, i), y = lane(a[1], 32, i), z = lane(a[2], 32, i);
        z3::expr r = bv(0, 32);
        for (unsigned m = 0; m < 8; ++m)
          if ((t >> m) & 1) r = r | (((m & 4) ? x : ~x) & ((m & 2) ? y : ~y) & ((m & 1) ? z : ~z));
        ls.push_back(r);
      }
      return fromLanes(rb, 32, ls);
    }
    if (n == "_bzhi_u64" || n == "_bzhi_u32") {
      unsigned w = n == "_bzhi_u64" ? 64 : 32;
      Bits nb;
      if (!constOf(a[1], nb)) {
        // A variable index: bits [0, k) of x for k = index[7:0] < w, all of x from w on (BMI2).
        const z3::expr x = lane(a[0], w, 0);
        const z3::expr k = z3::zext(lane(a[1], a[1].bits >= 8 ? a[1].bits : 8, 0).extract(7, 0), w - 8);
        return intV(z3::ite(z3::uge(k, bv(w, w)), x, x & (z3::shl(bv(1, w), k) - bv(1, w))), w);
      }
      uint64_t k = nb.w[0] & 0xff;
      z3::expr x = lane(a[0], w, 0);
      if (k >= w) return intV(x, w);
      return intV(k == 0 ? bv(0, w) : (x & bv(~0ull >> (64 - k), w)), w);
    }
    if (in->cls == Cls::Move) return move(*in, a, e);
    fail(e.loc, "intrinsic '" + n + "' has no symbolic rule");
  }

  // Data movement by tracing the table's model on tagged inputs (lane granularity g).
  SVal move(const Intrinsic &in, const std::vector<SVal> &a, const Expr &e) {
    unsigned g = in.laneBits == 8 ? 8 : 32;
    std::vector<Bits> A1(a.size()), A2(a.size());
    std::vector<std::vector<z3::expr>> units(a.size());
    bool allConst = true;
    std::mt19937_64 rng(0x7ace ^ in.name.size());
    unsigned tag8 = 1;
    for (size_t i = 0; i < a.size(); ++i) {
      Bits b;
      bool k = constOf(a[i], b);
      if (in.roles[i] != Role::Data) {
        // Unknown selector: the result is an opaque fresh value. Sound for equivalence claims:
        // a claim that depends on it cannot be proved.
        if (!k) return freshOf(resultType(in), in.name + "?");
        A1[i] = A2[i] = b;
        continue;
      }
      allConst = allConst && k;
      unsigned bits = a[i].k == SVal::Vec ? a[i].bits : a[i].bits;
      unsigned nu = (bits + g - 1) / g;
      for (unsigned u = 0; u < nu; ++u) {
        units[i].push_back(a[i].k == SVal::Vec ? lane(a[i], g, u)
                                                : (g <= a[i].bits ? a[i].w[0].extract(g * (u + 1) - 1, g * u)
                                                                  : z3::zext(a[i].w[0], g - a[i].bits)));
        uint64_t t1, t2;
        if (g == 8) {
          if (tag8 > 255) fail(e.loc, "too many byte lanes to trace in '" + in.name + "'");
          t1 = tag8;
          t2 = (tag8 * 97) % 251 + 1;
          ++tag8;
        } else {
          t1 = (rng() & 0xffffffffu) | 1;
          t2 = (rng() & 0xffffffffu) | 1;
        }
        A1[i].set(g, u, t1);
        A2[i].set(g, u, t2);
      }
    }
    if (allConst) {
      std::vector<Bits> A;
      for (const auto &x : a) {
        Bits b;
        constOf(x, b);
        A.push_back(b);
      }
      Bits r = in.model(A);
      unsigned ob = in.resultBits;
      std::vector<z3::expr> ls;
      for (unsigned u = 0; u < (ob >= 32 ? ob / 32 : 1); ++u) ls.push_back(bv(r.get(32, u), 32));
      if (ob < 32) return intV(bv(r.w[0] & ((1ull << ob) - 1), ob), ob);
      return fromLanes(ob, 32, ls);
    }
    Bits r1 = in.model(A1), r2 = in.model(A2);
    unsigned ob = in.resultBits;
    unsigned nu = (ob + g - 1) / g;
    std::vector<z3::expr> out;
    for (unsigned u = 0; u < nu; ++u) {
      uint64_t v1 = r1.get(g, u), v2 = r2.get(g, u);
      bool found = false;
      if (v1 == 0 && v2 == 0) {
        out.push_back(bv(0, g));
        continue;
      }
      for (size_t i = 0; i < a.size() && !found; ++i) {
        if (in.roles[i] != Role::Data) continue;
        for (unsigned s = 0; s < units[i].size(); ++s)
          if (A1[i].get(g, s) == v1 && A2[i].get(g, s) == v2) {
            out.push_back(units[i][s]);
            found = true;
            break;
          }
      }
      if (!found) fail(e.loc, "'" + in.name + "' does not move whole " + std::to_string(g) + "-bit lanes here");
    }
    if (ob < 128) {
      z3::expr v = out[0];
      for (size_t i = 1; i < out.size(); ++i) v = z3::concat(out[i], v);
      return intV(v, ob);
    }
    return fromLanes(ob, g, out);
  }

  static Type resultType(const Intrinsic &in) {
    Type t;
    t.kind = in.resultBits >= 128 ? Type::Vec : Type::Int;
    t.bits = in.resultBits;
    return t;
  }

  SVal memoryOp(const Intrinsic &in, const std::vector<SVal> &a, const Expr &e) {
    int pi = -1, ki = -1, di = -1, ci = -1;
    for (size_t i = 0; i < a.size(); ++i) {
      if (in.roles[i] == Role::Ptr) pi = (int)i;
      else if (in.roles[i] == Role::Mask) ki = (int)i;
      else if (in.roles[i] == Role::Ctrl) ki = ci = (int)i;  // vmaskmov: bit 31 of each dword
      else di = (int)i;
    }
    unsigned bytes = in.resultBits / 8;
    const SVal &p = a[(size_t)pi];
    if (isLocalArray(p)) fail(e.loc, "vector access to a local array is not supported symbolically");
    auto maskBit = [&](unsigned i) -> z3::expr {
      const SVal &k = a[(size_t)ki];
      if (ci >= 0) return lane(k, 32, i / 4).extract(31, 31) == bv(1, 1);
      unsigned lbits = in.laneBits;  // one mask bit per lane of laneBits
      unsigned bit = i * 8 / lbits;
      return k.w[0].extract(bit, bit) == bv(1, 1);
    };
    if (in.cls == Cls::Load) {
      std::vector<z3::expr> bs = readBytes(p, (int)bytes);
      if (ki >= 0)
        for (unsigned i = 0; i < bytes; ++i) bs[i] = z3::ite(maskBit(i), bs[i], bv(0, 8));
      return fromLanes(in.resultBits, 8, bs);
    }
    const SVal &v = a[(size_t)di];
    std::vector<z3::expr> bs;
    for (unsigned i = 0; i < bytes; ++i) bs.push_back(lane(v, 8, i));
    if (ki >= 0) {
      std::vector<z3::expr> old = readBytes(p, (int)bytes);
      for (unsigned i = 0; i < bytes; ++i) bs[i] = z3::ite(maskBit(i), bs[i], old[i]);
    }
    writeBytes(p, bs);
    return SVal{};
  }
};

SymEval::SymEval(const File &f, z3::context &c) : d(new Impl(f, c)) {}
SymEval::~SymEval() = default;

bool SymEval::runFunction(const Function &fn) { return runStmt(fn, *fn.body); }

bool SymEval::runStmt(const Function &fn, const Stmt &body) {
  d->frames.clear();
  d->frames.push_back(Impl::Frame{1, &fn, {}, false, SVal{}});
  try {
    d->exec(body);
  } catch (const Stop &) {
    return false;
  } catch (const z3::exception &ex) {
    d->err = std::string("Z3: ") + ex.msg();
    return false;
  }
  return true;
}

void SymEval::bindParam(const std::string &name, const SVal &v) {
  d->bound.erase(name);
  d->bound.emplace(name, v);
}

bool SymEval::value(const std::string &name, SVal &out) const {
  for (const auto &[k, v] : d->slots)
    if (k.first == 1 && d->F.vars[(size_t)k.second].name == name) {
      out = v;
      return true;
    }
  return false;
}

bool SymEval::input(const std::string &name, SVal &out) const {
  auto it = d->inputs.find(name);
  if (it == d->inputs.end()) return false;
  out = it->second;
  return true;
}

bool SymEval::firstValue(const std::string &name, SVal &out) const {
  auto it = d->first.find(name);
  if (it == d->first.end()) return false;
  out = it->second;
  return true;
}

bool SymEval::written(const std::string &param, int n, std::vector<z3::expr> &bytes) const {
  auto it = d->mem.find(param);
  if (it == d->mem.end() || d->dirty.count(param)) return false;
  bytes.clear();
  for (int i = 0; i < n; ++i) {
    auto b = it->second.find(i);
    if (b == it->second.end()) return false;
    bytes.push_back(b->second);
  }
  return true;
}

void SymEval::snapshotOnRead(const std::vector<std::string> &watch, const std::vector<std::string> &vars) {
  d->watch = watch;
  d->snapVars = vars;
}

bool SymEval::snapshot(std::map<std::string, SVal> &out) const {
  if (!d->snapped) return false;
  out = d->snap;
  return true;
}

int SymEval::calls(const std::string &name) const {
  auto it = d->ncalls.find(name);
  return it == d->ncalls.end() ? 0 : it->second;
}

void SymEval::watchInPlace(const std::string &out, const std::string &in, const std::vector<std::string> &readFirst) {
  d->ow = Impl::OrderWatch{};
  d->ow.on = true;
  d->ow.out = out;
  d->ow.in = in;
  d->ow.early.insert(readFirst.begin(), readFirst.end());
}
std::string SymEval::inPlaceViolation(SrcLoc &where) const {
  where = d->ow.loc;
  return d->ow.why;
}
bool SymEval::result(SVal &out) const {
  if (d->frames.empty() || !d->frames.front().returned) return false;
  out = d->frames.front().ret;
  return true;
}
bool SymEval::wrote(const std::string &param) const { return d->wroteRegions.count(param) > 0; }
void SymEval::touched(const std::string &param, std::set<int64_t> &offsets, bool &unknown) const {
  offsets.clear();
  unknown = d->dirty.count(param) > 0;
  auto it = d->mem.find(param);
  if (it == d->mem.end()) return;
  for (const auto &kv : it->second) offsets.insert(kv.first);
}
const std::string &SymEval::error() const { return d->err; }
SrcLoc SymEval::errorLoc() const { return d->errLoc; }

z3::expr SymEval::word(const SVal &v, unsigned laneBits, unsigned i) { return d->lane(v, laneBits, i); }
SVal SymEval::fromLanes(unsigned bits, unsigned laneBits, const std::vector<z3::expr> &lanes) {
  return d->fromLanes(bits, laneBits, lanes);
}

void rfcDoubleRound(std::vector<z3::expr> &x) {
  auto qr = [&](int a, int b, int c, int d) {
    x[a] = x[a] + x[b]; x[d] = x[d] ^ x[a]; x[d] = x[d].rotate_left(16);
    x[c] = x[c] + x[d]; x[b] = x[b] ^ x[c]; x[b] = x[b].rotate_left(12);
    x[a] = x[a] + x[b]; x[d] = x[d] ^ x[a]; x[d] = x[d].rotate_left(8);
    x[c] = x[c] + x[d]; x[b] = x[b] ^ x[c]; x[b] = x[b].rotate_left(7);
  };
  qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15);
  qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14);
}

}  // namespace cv
