// poly.cpp: the Poly1305 block-step algebra (see poly.h).
#include "poly.h"
#include "contracts.h"

#include <z3++.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "interp.h"
#include "intrinsics.h"

namespace cv {

namespace {

struct Stop {};

u128 maxOf(unsigned bits) { return bits >= 128 ? ~(u128)0 : (((u128)1 << bits) - 1); }

struct PV {
  enum K { None, Int, Vec, Ptr } k = None;
  unsigned bits = 0;
  std::vector<z3::expr> l;  // lanes (integers); Int: one
  std::vector<Itv> b;       // per-lane bounds
  std::string base;         // Ptr
  bool offKnown = true;
  long long off = 0;
  unsigned elemBits = 8;
};

struct Eval : Interp<Eval, PV> {
  const File &F;
  z3::context &c;
  const PolySeedFn &seedFn;
  std::string err;
  SrcLoc errLoc;
  int fresh = 0;
  std::set<std::string> memAtoms, opaqueAtoms;  // atom names by origin
  std::map<std::string, z3::expr> atoms;
  std::map<std::string, std::string> pretty;  // seeded atom -> the variable it was first read as
  std::map<std::pair<unsigned, unsigned>, z3::expr> quot;   // (x id, k) -> floor(x / 2^k)
  std::map<std::pair<unsigned, unsigned>, z3::expr> hi52;   // (a id, b id) -> floor(a*b / 2^52)
  std::set<std::string> memDerived;  // atoms whose value depends on message memory
  std::string firstLoadBase;
  bool haveLoad = false;
  // Block steps inside one body: a step ends when the accumulator, written since the last cut,
  // is read again as a multiplicand; each step is proved on its own (Horner: composing the
  // steps is the recurrence acc <- acc*R + m).
  std::vector<std::pair<int, int>> accKeys;
  std::vector<std::string> accNames;
  bool accDirty = false;  // the accumulator was written after this step's multiply
  bool stepMul = false;   // this step has multiplied the accumulator
  struct Step {
    std::vector<std::vector<z3::expr>> in, out;
  };
  std::vector<Step> steps;
  std::vector<std::vector<z3::expr>> curIn;
  bool isAcc(const std::pair<int, int> &k) {
    for (auto &a : accKeys)
      if (a == k) return true;
    return false;
  }
  std::vector<std::vector<z3::expr>> accValues() {
    std::vector<std::vector<z3::expr>> v;
    for (auto &k : accKeys) {
      auto it = slots.find(k);
      if (it == slots.end() || it->second.k != PV::Vec || (it->second.l.size() != 8 && it->second.l.size() != 4))
        fail({}, "accumulator is not a vector");
      v.push_back(it->second.l);
    }
    return v;
  }
  void cut() {
    Step st;
    st.in = curIn;
    st.out = accValues();
    steps.push_back(st);
    curIn.clear();
    for (size_t i = 0; i < accKeys.size(); ++i) {
      PV h = slots.at(accKeys[i]);
      std::vector<z3::expr> l;
      for (unsigned j = 0; j < h.l.size(); ++j)
        l.push_back(atom(accNames[i] + "@" + std::to_string(steps.size()) + "[" + std::to_string(j) + "]"));
      h.l = l;
      slots.erase(accKeys[i]);
      slots.emplace(accKeys[i], h);
      curIn.push_back(l);
    }
    accDirty = false;
    stepMul = false;
  }
  // Compositional mode (the helper proofs): a call of p1305_mul is not inlined but replaced by
  // its proved contract (proveMulHelper): the call site must pass bs_j = 20*b_j exactly, and the
  // outputs are fresh per lane: h0 = H - 2^44 h1 - 2^88 h2 with H, h1, h2 atoms and the
  // definition H = A*B (mod 2^130-5) recorded, so that h's value is H whatever the limbs.
  bool abstractMul = false;
  std::vector<std::pair<z3::expr, z3::expr>> mulDefs;  // H atom -> A*B
  int mulCalls = 0;
  // Scalar `x & C` with a C that is not 2^k-1 (the clamp): an atom named "(x & 0x...)".
  std::set<std::string> maskAtoms;

  Eval(const File &f, z3::context &cc, const PolySeedFn &s) : F(f), c(cc), seedFn(s) {}

  [[noreturn]] void fail(SrcLoc l, const std::string &m) {
    if (err.empty()) err = m, errLoc = l;
    throw Stop{};
  }

  z3::expr num(u128 v) {
    if (v <= (u128)~0ull) return c.int_val((uint64_t)v);
    return c.int_val((uint64_t)(v >> 64)) * c.int_val("18446744073709551616") + c.int_val((uint64_t)v);
  }
  z3::expr pow2(unsigned k) {
    if (k < 64) return c.int_val((uint64_t)1 << k);
    z3::expr r = c.int_val((uint64_t)1 << 63);
    for (k -= 63; k >= 63; k -= 63) r = r * c.int_val((uint64_t)1 << 63);
    return (r * c.int_val((uint64_t)1 << k)).simplify();
  }
  z3::expr atom(const std::string &name, bool mem = false, bool opaque = false) {
    auto it = atoms.find(name);
    if (it != atoms.end()) return it->second;
    z3::expr a = c.int_const(name.c_str());
    atoms.emplace(name, a);
    if (mem) memDerived.insert(name), memAtoms.insert(name);
    if (opaque) opaqueAtoms.insert(name);
    return a;
  }
  bool dependsOnMem(const z3::expr &e, std::set<unsigned> &seen) {
    if (!seen.insert(e.id()).second) return false;
    if (e.is_app() && e.num_args() == 0 && !e.is_numeral()) return memDerived.count(e.decl().name().str()) > 0;
    for (unsigned i = 0; i < e.num_args(); ++i)
      if (dependsOnMem(e.arg(i), seen)) return true;
    return false;
  }

  PV opaque(unsigned bits, bool vec, const std::string &why) {
    PV v;
    v.k = vec ? PV::Vec : PV::Int;
    v.bits = bits;
    unsigned n = vec ? bits / 64 : 1;
    for (unsigned i = 0; i < n; ++i) {
      v.l.push_back(atom(why + "?" + std::to_string(fresh++), false, true));
      v.b.push_back(Itv{0, maxOf(vec ? 64 : bits)});
    }
    return v;
  }
  PV opaqueOf(const Type &t, const std::string &why) {
    if (t.kind == Type::Vec) return opaque(t.bits, true, why);
    if (t.kind == Type::Ptr) {
      PV p;
      p.k = PV::Ptr;
      p.base = why + "@" + std::to_string(fresh++);
      p.elemBits = t.bits;
      return p;
    }
    if (t.kind == Type::Int || t.kind == Type::Mask || t.kind == Type::Bool)
      return opaque(t.kind == Type::Bool ? 1 : t.bits, false, why);
    PV n;
    return n;
  }

  PV seedOf(int var) {
    const Var &v = F.vars[(size_t)var];
    PolySeed s;
    if (!seedFn(var, s)) return opaqueOf(v.ty, v.name);
    PV p;
    if (s.k == PolySeed::Ptr) {
      p.k = PV::Ptr;
      p.base = v.name + "@head";
      p.elemBits = v.ty.bits;
      return p;
    }
    if (s.k == PolySeed::Other) return opaqueOf(v.ty, v.name);
    p.k = s.k == PolySeed::Vec ? PV::Vec : PV::Int;
    p.bits = v.ty.kind == Type::Vec ? v.ty.bits : v.ty.bits;
    for (size_t j = 0; j < s.lanes.size(); ++j) {
      Itv b = s.lanes[j];
      p.b.push_back(b);
      if (b.exact()) {
        p.l.push_back(num(b.lo));
      } else if (j < s.terms.size() && s.terms[j].second >= 0 && s.terms[j].first != 0) {
        // A tracked linear relation: this lane is coef * (a value shared with other variables).
        u128 cf = s.terms[j].first;
        std::string an = "v" + std::to_string(s.terms[j].second);
        if (!pretty.count(an))
          pretty[an] = (cf == 1 ? "" : "(1/" + std::to_string((unsigned long long)cf) + ")*") + v.name +
                       (p.k == PV::Vec ? "[" + std::to_string(j) + "]" : "");
        p.l.push_back(num(cf) * atom(an));
      } else {
        p.l.push_back(atom(v.name + (p.k == PV::Vec ? "[" + std::to_string(j) + "]" : "")));
      }
    }
    return p;
  }

  PV &slot(int var) {
    auto k = key(var);
    auto it = slots.find(k);
    if (it != slots.end()) return it->second;
    const Var &v = F.vars[(size_t)var];
    PV init = (k.first == 1 || k.first == 0) ? seedOf(var) : opaqueOf(v.ty, v.name);
    return slots.emplace(k, init).first->second;
  }
  void assign(int var, const PV &v) {
    auto k = key(var);
    if (isAcc(k) && stepMul) accDirty = true;
    slots.erase(k);
    slots.emplace(k, v);
  }

  // ---- statements (interp.h), with this evaluator's hooks ----
  void declare(const Stmt &s) {
    const Var &v = F.vars[(size_t)s.var];
    if (v.ty.kind == Type::Array) {
      assign(s.var, opaqueOf(v.ty, v.name));
      return;
    }
    assign(s.var, s.e ? convert(eval(*s.e), v.ty) : opaqueOf(v.ty, v.name));
  }

  int decide(const PV &v, SrcLoc l) {
    if (v.k != PV::Int) fail(l, "condition is not a scalar");
    z3::expr e = v.l[0].simplify();
    if (!e.is_numeral()) fail(l, "control flow depends on data in the block step");
    return e.get_decimal_string(0) != "0";
  }

  PV convert(const PV &v, const Type &t, SrcLoc) { return convert(v, t); }
  PV convert(const PV &v, const Type &t) {
    if (t.kind == Type::Int || t.kind == Type::Mask || t.kind == Type::Bool) {
      unsigned w = t.kind == Type::Bool ? 1 : t.bits;
      if (v.k != PV::Int) return opaqueOf(t, "conv");
      if (v.b[0].hi <= maxOf(w)) {
        PV r = v;
        r.bits = w;
        return r;
      }
      return opaqueOf(t, "trunc");
    }
    if (t.kind == Type::Ptr) {
      if (v.k == PV::Ptr) {
        PV r = v;
        r.elemBits = t.bits;
        return r;
      }
      return opaqueOf(t, "ptr");
    }
    return v;
  }

  PV intV(z3::expr e, Itv b, unsigned bits) {
    PV v;
    v.k = PV::Int;
    v.bits = bits;
    v.l.push_back(e);
    v.b.push_back(b);
    return v;
  }

  PV eval(const Expr &e) {
    switch (e.kind) {
      case Expr::Const: {
        if (e.ty.kind == Type::Ptr) return opaqueOf(e.ty, "null");
        if (e.ty.kind == Type::Vec) return opaqueOf(e.ty, "const");
        unsigned w = e.ty.kind == Type::Bool ? 1 : e.ty.bits;
        u128 v = e.value & maxOf(w);
        return intV(num(v), Itv{v, v}, w);
      }
      case Expr::Var: {
        const Var &v = F.vars[(size_t)e.var];
        if (v.ty.kind == Type::Array) return opaqueOf(v.ty, v.name);
        return slot(e.var);
      }
      case Expr::Cast: return convert(eval(*e.args[0]), e.ty);
      case Expr::Bin: return binary(e);
      case Expr::Un: {
        eval(*e.args[0]);
        return opaqueOf(e.ty, "unop");
      }
      case Expr::Cond: {
        int d = decide(eval(*e.args[0]), e.loc);
        return eval(*e.args[d ? 1 : 2]);
      }
      case Expr::Index:
      case Expr::Deref:
        eval(*e.args[0]);
        return opaqueOf(e.ty, "read");
      case Expr::AddrOf: return opaqueOf(e.ty, "addr");
      case Expr::Assign: {
        PV rhs = eval(*e.args[1]);
        PV v;
        if (e.name.empty()) {
          v = convert(rhs, e.args[0]->ty);
        } else {
          PV cur = eval(*e.args[0]);
          // p += n keeps n an integer (the pointer arithmetic rule scales it).
          v = arith(e.name, cur, e.args[0]->ty.kind == Type::Ptr ? rhs : convert(rhs, e.args[0]->ty), e.args[0]->ty, e.loc);
        }
        if (e.args[0]->kind == Expr::Var) assign(e.args[0]->var, v);
        return v;
      }
      case Expr::IncDec: {
        PV cur = eval(*e.args[0]);
        PV one = intV(num(1), Itv{1, 1}, 64);
        PV v = arith(e.name.find("++") != std::string::npos ? "+" : "-", cur, one, e.args[0]->ty, e.loc);
        if (e.args[0]->kind == Expr::Var) assign(e.args[0]->var, v);
        return e.name.rfind("post", 0) == 0 ? cur : v;
      }
      case Expr::Call: return call(e);
      case Expr::Intrin: return intrinsic(e);
      case Expr::InitList: return opaqueOf(e.ty, "init");
    }
    return opaqueOf(e.ty, "expr");
  }

  PV binary(const Expr &e) {
    const std::string &op = e.name;
    PV a = eval(*e.args[0]);
    PV b = eval(*e.args[1]);
    if (op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=" || op == "&&" || op == "||") {
      if (a.k == PV::Int && b.k == PV::Int) {
        z3::expr x = a.l[0], y = b.l[0];
        z3::expr r = op == "==" ? x == y : op == "!=" ? x != y : op == "<" ? x < y : op == "<=" ? x <= y
                   : op == ">" ? x > y : op == ">=" ? x >= y : op == "&&" ? (x != 0 && y != 0) : (x != 0 || y != 0);
        return intV(z3::ite(r, c.int_val(1), c.int_val(0)), Itv{0, 1}, 1);
      }
      return opaqueOf(e.ty, "cmp");
    }
    return arith(op, a, b, e.ty, e.loc);
  }

  PV arith(const std::string &op, const PV &a, const PV &b, const Type &t, SrcLoc) {
    if (a.k == PV::Ptr && b.k == PV::Int && (op == "+" || op == "-")) {
      PV r = a;
      z3::expr s = b.l[0].simplify();
      if (!a.offKnown || !s.is_numeral()) {
        r.base = a.base + "+?" + std::to_string(fresh++);
        r.off = 0;
        r.offKnown = true;
        return r;
      }
      long long d = std::stoll(s.get_decimal_string(0)) * (long long)(a.elemBits / 8 ? a.elemBits / 8 : 1);
      r.off = op == "+" ? a.off + d : a.off - d;
      return r;
    }
    if (a.k != PV::Int || b.k != PV::Int) return opaqueOf(t, "arith");
    unsigned w = t.kind == Type::Bool ? 1 : t.bits;
    // Lengths, counters and pointers wrap in C; only their exact values matter here.
    if (a.b[0].exact() && b.b[0].exact()) {
      u128 x = a.b[0].lo, y = b.b[0].lo, r;
      if (op == "+") r = x + y;
      else if (op == "-") r = x - y;
      else if (op == "*") r = x * y;
      else if (op == "&") r = x & y;
      else if (op == "|") r = x | y;
      else if (op == "^") r = x ^ y;
      else if (op == "<<") r = y < 128 ? x << (unsigned)y : 0;
      else if (op == ">>") r = y < 128 ? x >> (unsigned)y : 0;
      else if (op == "/" && y) r = x / y;
      else if (op == "%" && y) r = x % y;
      else return opaqueOf(t, "arith");
      r &= maxOf(w);
      return intV(num(r), Itv{r, r}, w);
    }
    // Scalar limb arithmetic (the key split, the length block): the same exact identities as
    // the vector rules, with this evaluator's own bounds guarding against wrap-around.
    const Itv &ba = a.b[0], &bb = b.b[0];
    if (op == "+" && ba.hi + bb.hi <= maxOf(w)) return intV(a.l[0] + b.l[0], Itv{ba.lo + bb.lo, ba.hi + bb.hi}, w);
    if (op == "*" && (ba.hi == 0 || bb.hi <= maxOf(w) / ba.hi))
      return intV(a.l[0] * b.l[0], Itv{ba.lo * bb.lo, ba.hi * bb.hi}, w);
    if ((op == "<<" || op == ">>") && bb.exact() && bb.lo < w) {
      unsigned k = (unsigned)bb.lo;
      if (op == "<<" && (ba.hi << k) <= maxOf(w)) return intV(a.l[0] * pow2(k), Itv{ba.lo << k, ba.hi << k}, w);
      if (op == ">>") {
        Itv bq;
        z3::expr q = quotient(a.l[0], k, ba, bq);
        return intV(q, bq, w);
      }
    }
    if (op == "&" && (ba.exact() || bb.exact())) {
      const PV &x = bb.exact() ? a : b;
      u128 mask = (bb.exact() ? bb : ba).lo;
      unsigned k = log2exact(mask);
      if (x.b[0].hi <= mask && k != 999) return x;
      if (k != 999) {
        Itv bq;
        z3::expr q = quotient(x.l[0], k, x.b[0], bq);
        return intV(x.l[0] - pow2(k) * q, Itv{0, std::min(x.b[0].hi, mask)}, w);
      }
      // Any other constant mask (the clamp): one atom per (operand, mask), named after both, so
      // that a claim can name exactly which bits were kept.
      std::string xn = x.l[0].is_const() && !x.l[0].is_numeral() ? x.l[0].decl().name().str() : "x" + std::to_string(fresh++);
      std::string an = "(" + xn + " & " + hex(mask) + ")";
      maskAtoms.insert(an);
      return intV(atom(an), Itv{0, std::min(x.b[0].hi, mask)}, w);
    }
    if (op == "|") {
      for (int side = 0; side < 2; ++side) {
        const PV &x = side ? b : a, &y = side ? a : b;
        unsigned v = valuation(y.l[0]);
        if (v >= 128 || x.b[0].hi < ((u128)1 << v))
          return intV(a.l[0] + b.l[0], Itv{std::max(ba.lo, bb.lo), std::min(ba.hi + bb.hi, maxOf(w))}, w);
      }
    }
    return opaqueOf(t, "scalar");
  }

  PV call(const Expr &e) {
    if (e.fn < 0) return opaqueOf(e.ty, "call");
    const Function &fn = F.funcs[(size_t)e.fn];
    checkNotRecursive(e, fn);
    bool hasRef = false;
    for (int p : fn.params) hasRef = hasRef || F.vars[(size_t)p].isRef;
    if (!hasRef && fn.ret.kind == Type::Void) return opaqueOf(fn.ret, fn.name);  // keystream helpers: only memory effects
    if (abstractMul && roleOf(fn) == "ifma.mul") return mulContract(e, fn);
    return runFrame(bindCall(e, fn)).ret;
  }

  // p1305_mul(h0&, h1&, h2&, a0, a1, a2, b0, b1, b2, bs1, bs2) by its contract (see abstractMul).
  PV mulContract(const Expr &e, const Function &fn) {
    if (fn.params.size() != 11 || e.args.size() != 11) fail(e.loc, "p1305_mul: expected 11 arguments");
    std::vector<PV> v;
    size_t L = 0;  // lanes: 8 in zmm, 4 in ymm; all operands alike
    for (size_t i = 3; i < 11; ++i) {
      v.push_back(eval(*e.args[i]));
      if (L == 0 && v.back().k == PV::Vec) L = v.back().l.size();
      if (v.back().k != PV::Vec || v.back().l.size() != L || (L != 8 && L != 4))
        fail(e.loc, "p1305_mul: operand is not a vector of 8 (zmm) or 4 (ymm) lanes");
    }
    z3::params som(c);
    som.set("som", true);
    for (unsigned j = 0; j < L; ++j)
      for (int t = 0; t < 2; ++t) {
        z3::expr d = (v[6 + (size_t)t].l[j] - c.int_val(20) * v[4 + (size_t)t].l[j]).simplify(som);
        if (!(d.is_numeral() && d.get_decimal_string(0) == "0")) {
          std::string ds;
          for (char ch : d.to_string()) {  // one line: Z3 prints nested terms over several
            if (ch == '\n' || ch == ' ') {
              if (!ds.empty() && ds.back() != ' ') ds += ' ';
            } else {
              ds += ch;
            }
          }
          if (ds.size() > 120) ds = ds.substr(0, 117) + "...";
          fail(e.loc, "the p1305_mul call at line " + std::to_string(e.loc.line) + " passes a bs" + std::to_string(t + 1) +
                          " that is not 20*b" + std::to_string(t + 1) + " of its own b (lane " + std::to_string(j) +
                          ": bs - 20*b = " + ds + ")");
        }
      }
    int id = mulCalls++;
    std::vector<PV> out(3);
    for (auto &o : out) o.k = PV::Vec, o.bits = 64 * (unsigned)L;
    for (unsigned j = 0; j < L; ++j) {
      std::string sfx = "#" + std::to_string(id) + "[" + std::to_string(j) + "]";
      z3::expr H = atom("@H" + sfx), h1 = atom("@h1" + sfx), h2 = atom("@h2" + sfx);
      z3::expr A = v[0].l[j] + pow2(44) * v[1].l[j] + pow2(88) * v[2].l[j];
      z3::expr B = v[3].l[j] + pow2(44) * v[4].l[j] + pow2(88) * v[5].l[j];
      mulDefs.push_back({H, A * B});
      out[0].l.push_back(H - pow2(44) * h1 - pow2(88) * h2);
      out[1].l.push_back(h1);
      out[2].l.push_back(h2);
      // The limb bounds the interval pass proved for the helper's outputs hold here too; the
      // algebra needs only that they fit a 64-bit lane.
      for (auto &o : out) o.b.push_back(Itv{0, maxOf(64)});
    }
    for (int i = 0; i < 3; ++i) {
      const Expr *a = e.args[(size_t)i].get();
      while (a->kind == Expr::Cast) a = a->args[0].get();
      if (a->kind != Expr::Var) fail(a->loc, "reference argument must be a variable");
      assign(a->var, out[(size_t)i]);
    }
    PV none;
    return none;
  }
  // e with every H atom replaced by its definition A*B (latest first: definitions refer to
  // earlier H atoms only).
  z3::expr expandMul(z3::expr e) {
    for (size_t i = mulDefs.size(); i-- > 0;) {
      z3::expr_vector from(c), to(c);
      from.push_back(mulDefs[i].first);
      to.push_back(mulDefs[i].second);
      e = e.substitute(from, to);
    }
    return e;
  }

  // ---- intrinsics ----
  static bool exactVal(const PV &v, Bits &out) {
    out = Bits{};
    if (v.k != PV::Int && v.k != PV::Vec) return false;
    for (size_t i = 0; i < v.b.size(); ++i) {
      if (!v.b[i].exact()) return false;
      if (v.k == PV::Int) {
        out.w[0] = (uint64_t)v.b[0].lo;
        out.w[1] = (uint64_t)(v.b[0].lo >> 64);
      } else {
        out.w[i] = (uint64_t)v.b[i].lo;
      }
    }
    return true;
  }
  PV vec(unsigned bits, std::vector<z3::expr> l, std::vector<Itv> b) {
    PV v;
    v.k = PV::Vec;
    v.bits = bits;
    v.l = std::move(l);
    v.b = std::move(b);
    return v;
  }

  z3::expr quotient(const z3::expr &x, unsigned k, const Itv &bx, Itv &bq) {
    bq = Itv{bx.lo >> k, bx.hi >> k};
    if (bq.exact()) return num(bq.lo);  // the bounds decide it (0 below 2^k, a set pad bit above)
    auto key2 = std::make_pair(x.id(), k);
    auto it = quot.find(key2);
    if (it != quot.end()) return it->second;
    std::string n = "@q" + std::to_string(fresh++);
    z3::expr q = atom(n);
    std::set<unsigned> seen;
    if (dependsOnMem(x, seen)) memDerived.insert(n);
    quot.emplace(key2, q);
    return q;
  }

  static unsigned log2exact(u128 m) {  // k when m = 2^k - 1, else 999
    unsigned k = 0;
    while (k < 128 && (m >> k) & 1) ++k;
    return (k == 128 || (m >> k) == 0) ? k : 999;
  }

  // 2-adic valuation of every coefficient of a polynomial (the largest k with 2^k | all).
  unsigned valuation(const z3::expr &e) {
    z3::params p(c);
    p.set("som", true);
    z3::expr s = e.simplify(p);
    std::vector<z3::expr> terms;
    if (s.is_app() && s.decl().decl_kind() == Z3_OP_ADD)
      for (unsigned i = 0; i < s.num_args(); ++i) terms.push_back(s.arg(i));
    else
      terms.push_back(s);
    unsigned v = 128;
    for (auto &t : terms) {
      std::string cf = "1";
      if (t.is_numeral()) cf = t.get_decimal_string(0);
      else if (t.is_app() && t.decl().decl_kind() == Z3_OP_MUL && t.arg(0).is_numeral()) cf = t.arg(0).get_decimal_string(0);
      if (cf == "0") continue;
      if (!cf.empty() && cf[0] == '-') cf = cf.substr(1);
      // valuation of a decimal string
      unsigned k = 0;
      std::string n = cf;
      while (n != "0" && k < 128) {
        int last = n.back() - '0';
        if (last % 2) break;
        std::string q;
        int rem = 0;
        for (char ch : n) {
          int cur = rem * 10 + (ch - '0');
          if (!q.empty() || cur / 2) q += (char)('0' + cur / 2);
          rem = cur % 2;
        }
        n = q.empty() ? "0" : q;
        ++k;
      }
      v = std::min(v, k);
    }
    return v;
  }

  PV intrinsic(const Expr &e) {
    const Intrinsic *in = findIntrinsic(e.name);
    if (!in) fail(e.loc, "intrinsic '" + e.name + "' is not in the semantics table");
    std::vector<const Expr *> ax;
    if (!in->argmap.empty())
      for (int i : in->argmap) ax.push_back(e.args[(size_t)i].get());
    else
      for (auto &a : e.args) ax.push_back(a.get());
    if (in->name.rfind("_mm512_madd52", 0) == 0 || in->name.rfind("_mm256_madd52", 0) == 0)
      for (const Expr *x : ax)
        if (x->kind == Expr::Var && isAcc(key(x->var))) {
          if (accDirty) cut();
          stepMul = true;
          break;
        }
    std::vector<PV> a;
    for (const Expr *x : ax) a.push_back(eval(*x));
    const std::string n = ruleName(in->name);  // 256-bit forms: the 512-bit rule over their lanes
    const unsigned rb = in->resultBits, NL = rb >= 128 ? rb / 64 : 1;
    Type rt;
    rt.kind = in->resultBits >= 128 ? Type::Vec : Type::Int;
    rt.bits = in->resultBits;
    auto vecOK = [&](size_t i) { return a[i].k == PV::Vec && a[i].l.size() == NL; };
    if (in->model && in->cls != Cls::Load && in->cls != Cls::Store) {
      // Every operand a known constant (index vectors, masks from lengths): run the table's model.
      std::vector<Bits> A(a.size());
      bool all = !a.empty();
      for (size_t i = 0; i < a.size() && all; ++i) all = exactVal(a[i], A[i]);
      if (all) {
        Bits r = in->model(A);
        if (in->resultBits >= 128) {
          std::vector<z3::expr> l;
          std::vector<Itv> b;
          for (unsigned o = 0; o < in->resultBits / 64; ++o) l.push_back(num(r.w[o])), b.push_back(Itv{r.w[o], r.w[o]});
          return vec(in->resultBits, l, b);
        }
        u128 x = ((u128)r.w[1] << 64 | r.w[0]) & maxOf(in->resultBits);
        return intV(num(x), Itv{x, x}, in->resultBits);
      }
    }
    if ((n == "_mm512_maskz_loadu_epi8" || n == "_mm256_maskz_loadu_epi8") && a.size() == 2 && a[1].k == PV::Ptr && a[1].offKnown) {
      // The bytes the mask selects, as byte atoms of their address; zero elsewhere.
      Bits m;
      if (!exactVal(a[0], m)) return opaqueOf(rt, "load");
      std::vector<z3::expr> l;
      std::vector<Itv> b;
      for (unsigned j = 0; j < NL; ++j) {
        z3::expr x = c.int_val(0);
        u128 hi = 0;
        for (unsigned i = 0; i < 8; ++i)
          if ((m.w[0] >> (8 * j + i)) & 1) {
            x = x + pow2(8 * i) * atom("mem8:" + a[1].base + "+" + std::to_string(a[1].off + 8 * (long long)j + i), true);
            hi += (u128)255 << (8 * i);
          }
        l.push_back(x);
        b.push_back(Itv{0, hi});
      }
      return vec(rb, l, b);
    }
    if (n == "_mm512_madd52lo_epu64" || n == "_mm512_madd52hi_epu64") {
      if (!vecOK(0) || !vecOK(1) || !vecOK(2)) return opaqueOf(rt, "madd");
      bool lo = n == "_mm512_madd52lo_epu64";
      std::vector<z3::expr> l;
      std::vector<Itv> b;
      for (unsigned j = 0; j < NL; ++j) {
        const z3::expr &x = a[1].l[j], &y = a[2].l[j];
        u128 pmax = a[1].b[j].hi * a[2].b[j].hi;
        auto k2 = std::make_pair(std::min(x.id(), y.id()), std::max(x.id(), y.id()));
        z3::expr h = c.int_val(0);
        if (pmax >= ((u128)1 << 52)) {
          auto it = hi52.find(k2);
          if (it == hi52.end()) {
            std::string nm = "@hi" + std::to_string(fresh++);
            h = atom(nm);
            std::set<unsigned> s1, s2;
            if (dependsOnMem(x, s1) || dependsOnMem(y, s2)) memDerived.insert(nm);
            hi52.emplace(k2, h);
          } else {
            h = it->second;
          }
        }
        // lo52(x*y) = x*y - 2^52 * hi52(x*y): operands < 2^52 (proved by the interval pass).
        z3::expr part = lo ? x * y - pow2(52) * h : h;
        Itv pb = lo ? Itv{0, std::min(pmax, ((u128)1 << 52) - 1)} : Itv{0, pmax >> 52};
        l.push_back(a[0].l[j] + part);
        b.push_back(Itv{a[0].b[j].lo, a[0].b[j].hi + pb.hi});
      }
      return vec(rb, l, b);
    }
    if (n == "_mm512_add_epi64" && vecOK(0) && vecOK(1)) {
      std::vector<z3::expr> l;
      std::vector<Itv> b;
      for (unsigned j = 0; j < NL; ++j) {
        l.push_back(a[0].l[j] + a[1].l[j]);
        b.push_back(Itv{a[0].b[j].lo + a[1].b[j].lo, a[0].b[j].hi + a[1].b[j].hi});
      }
      return vec(rb, l, b);
    }
    if ((n == "_mm512_slli_epi64" || n == "_mm512_srli_epi64") && vecOK(0)) {
      Bits kb;
      if (!exactVal(a[1], kb)) return opaqueOf(rt, "shift");
      unsigned k = (unsigned)(kb.w[0] & 0xffffffffu);
      if (k > 63) return opaqueOf(rt, "shift");
      std::vector<z3::expr> l;
      std::vector<Itv> b;
      for (unsigned j = 0; j < NL; ++j) {
        if (n == "_mm512_slli_epi64") {
          l.push_back(a[0].l[j] * pow2(k));  // no set bit is shifted out (proved)
          b.push_back(Itv{a[0].b[j].lo << k, a[0].b[j].hi << k});
        } else {
          Itv bq;
          l.push_back(quotient(a[0].l[j], k, a[0].b[j], bq));
          b.push_back(bq);
        }
      }
      return vec(rb, l, b);
    }
    if ((n == "_mm512_and_si512" || n == "_mm512_and_epi64") && vecOK(0) && vecOK(1)) {
      std::vector<z3::expr> l;
      std::vector<Itv> b;
      for (unsigned j = 0; j < NL; ++j) {
        int xi = a[1].b[j].exact() ? 0 : a[0].b[j].exact() ? 1 : -1;
        if (xi < 0) return opaqueOf(rt, "and");
        const PV &x = a[(size_t)xi], &m = a[(size_t)(1 - xi)];
        u128 mask = m.b[j].lo;
        unsigned k = log2exact(mask);
        if (x.b[j].exact()) {
          u128 r = x.b[j].lo & mask;
          l.push_back(num(r));
          b.push_back(Itv{r, r});
        } else if (x.b[j].hi <= mask && k != 999) {
          l.push_back(x.l[j]);
          b.push_back(x.b[j]);
        } else if (k != 999) {
          Itv bq;
          z3::expr q = quotient(x.l[j], k, x.b[j], bq);
          l.push_back(x.l[j] - pow2(k) * q);
          b.push_back(Itv{0, std::min(x.b[j].hi, mask)});
        } else {
          return opaqueOf(rt, "and");
        }
      }
      return vec(rb, l, b);
    }
    if ((n == "_mm512_or_si512" || n == "_mm512_or_epi64") && vecOK(0) && vecOK(1)) {
      std::vector<z3::expr> l;
      std::vector<Itv> b;
      for (unsigned j = 0; j < NL; ++j) {
        // x | y = x + y when x < 2^k and every coefficient of y is a multiple of 2^k.
        bool ok = false;
        for (int side = 0; side < 2 && !ok; ++side) {
          const PV &x = a[(size_t)side], &y = a[(size_t)(1 - side)];
          unsigned v = valuation(y.l[j]);
          if (v >= 128 || x.b[j].hi < ((u128)1 << v)) ok = true;
        }
        if (!ok) fail(e.loc, "cannot show that the operands of " + n + " are bit-disjoint");
        l.push_back(a[0].l[j] + a[1].l[j]);
        b.push_back(Itv{std::max(a[0].b[j].lo, a[1].b[j].lo), a[0].b[j].hi + a[1].b[j].hi});
      }
      return vec(rb, l, b);
    }
    if (n == "_mm512_loadu_si512" || n == "_mm256_loadu_si256") {
      const PV &p = a[0];
      if (p.k != PV::Ptr) return opaqueOf(rt, "load");
      if (!haveLoad) firstLoadBase = p.base, haveLoad = true;
      std::vector<z3::expr> l;
      std::vector<Itv> b;
      for (unsigned j = 0; j < NL; ++j) {
        l.push_back(atom("mem:" + p.base + "+" + std::to_string(p.off + 8 * (long long)j), true));
        b.push_back(Itv{0, maxOf(64)});
      }
      return vec(rb, l, b);
    }
    if (in->cls == Cls::Move) {
      // 64-bit lane moves with constant selectors, by tracing the table's model.
      std::vector<Bits> A1(a.size()), A2(a.size());
      std::mt19937_64 rng(0x901);
      for (size_t i = 0; i < a.size(); ++i) {
        if (in->roles[i] != Role::Data) {
          if (!exactVal(a[i], A1[i])) return opaqueOf(rt, "move");
          A2[i] = A1[i];
        } else {
          for (unsigned w = 0; w < 8; ++w) A1[i].w[w] = rng() | 1, A2[i].w[w] = rng() | 1;
          if (a[i].k == PV::Int && a[i].bits < 64) A1[i].w[0] &= (uint64_t)maxOf(a[i].bits), A2[i].w[0] &= (uint64_t)maxOf(a[i].bits);
        }
      }
      Bits r1 = in->model(A1), r2 = in->model(A2);
      unsigned nl = in->resultBits >= 128 ? in->resultBits / 64 : 1;
      std::vector<z3::expr> l;
      std::vector<Itv> b;
      for (unsigned o = 0; o < nl; ++o) {
        bool found = false;
        if (r1.w[o] == 0 && r2.w[o] == 0) {
          l.push_back(c.int_val(0));
          b.push_back(Itv{0, 0});
          continue;
        }
        for (size_t i = 0; i < a.size() && !found; ++i) {
          if (in->roles[i] != Role::Data || a[i].k == PV::Ptr || a[i].k == PV::None) continue;
          for (unsigned s = 0; s < a[i].l.size(); ++s)
            if (A1[i].w[s] == r1.w[o] && A2[i].w[s] == r2.w[o]) {
              l.push_back(a[i].l[s]);
              b.push_back(a[i].b[s]);
              found = true;
              break;
            }
        }
        if (!found) return opaqueOf(rt, "move");
      }
      if (nl == 1) return intV(l[0], b[0], in->resultBits);
      return vec(in->resultBits, l, b);
    }
    return opaqueOf(rt, n);  // ChaCha20 words, stores, masks: not part of the algebra
  }
};

// Monomials of a normalised polynomial: coefficient (decimal) and the sorted atom names.
bool monomials(const z3::expr &e, std::vector<std::pair<std::string, std::vector<std::string>>> &out) {
  std::vector<z3::expr> terms;
  if (e.is_app() && e.decl().decl_kind() == Z3_OP_ADD)
    for (unsigned i = 0; i < e.num_args(); ++i) terms.push_back(e.arg(i));
  else
    terms.push_back(e);
  for (const auto &t : terms) {
    std::string cf = "1";
    std::vector<std::string> vars;
    std::function<bool(const z3::expr &)> factor = [&](const z3::expr &x) -> bool {
      if (x.is_numeral()) {
        cf = x.get_decimal_string(0);
        return true;
      }
      if (x.is_app() && x.decl().decl_kind() == Z3_OP_MUL) {
        for (unsigned i = 0; i < x.num_args(); ++i)
          if (!factor(x.arg(i))) return false;
        return true;
      }
      if (x.is_app() && x.decl().decl_kind() == Z3_OP_UMINUS) {
        if (!factor(x.arg(0))) return false;
        cf = cf[0] == '-' ? cf.substr(1) : "-" + cf;
        return true;
      }
      if (x.is_app() && x.decl().decl_kind() == Z3_OP_POWER && x.arg(1).is_numeral()) {
        int k = std::stoi(x.arg(1).get_decimal_string(0));
        for (int i = 0; i < k; ++i) vars.push_back(x.arg(0).decl().name().str());
        return true;
      }
      if (x.is_app() && x.num_args() == 0) {
        vars.push_back(x.decl().name().str());
        return true;
      }
      return false;
    };
    if (!factor(t)) return false;
    std::sort(vars.begin(), vars.end());
    if (cf != "0") out.push_back({cf, vars});
  }
  return true;
}

// The first monomial whose coefficient does not vanish: is not 0, or (modp) not a multiple of
// 2^130-5. nullptr when every coefficient vanishes.
const std::pair<std::string, std::vector<std::string>> *firstNonzero(
    z3::context &c, const std::vector<std::pair<std::string, std::vector<std::string>>> &mons, bool modp) {
  z3::expr P = c.int_val("1361129467683753853853498429727072845819");  // 2^130 - 5
  for (const auto &m : mons) {
    if (m.first == "0") continue;
    if (modp && z3::mod(c.int_val(m.first.c_str()), P).simplify().get_decimal_string(0) == "0") continue;
    return &m;
  }
  return nullptr;
}

}  // namespace

BlockStepResult proveBlockStep(const File &f, const Function &fn, const Stmt &loop,
                               const std::vector<std::pair<int, std::string>> &acc, const PolySeedFn &seed,
                               unsigned timeoutMs,
                               const std::vector<std::vector<std::pair<u128, long long>>> *rl) {
  std::vector<std::string> accNames;
  std::vector<int> accVars;
  for (auto &[v, n] : acc) accVars.push_back(v), accNames.push_back(n);
  BlockStepResult res;
  (void)timeoutMs;
  z3::context c;
  Eval ev(f, c, seed);
  ev.frames.push_back(Eval::Frame{1, &fn, {}, false, PV{}});
  // The accumulator at the head: one atom per lane (its value is whatever the loop carries).
  res.what = "block step: acc' = acc * R + m + c (mod 2^130-5) in every lane";
  unsigned radix = accNames.size() == 3 ? 44 : accNames.size() == 5 ? 26 : 0;
  if (radix == 0) {
    res.res = Res::FAILED;
    res.cex = "the loop's chapoly-invariant names " + std::to_string(accNames.size()) + " limbs; expected 3 or 5";
    return res;
  }
  ev.accNames = accNames;
  // Lanes: 8 (zmm accumulator, 128-byte groups) or 4 (ymm, 64-byte groups).
  const unsigned L = accVars[0] >= 0 && f.vars[(size_t)accVars[0]].ty.bits == 256 ? 4 : 8;
  const long long G = 16LL * L;
  std::vector<int> hinVars;
  std::vector<PV> hinHead, hinEnd;
  try {
    for (size_t i = 0; i < accVars.size(); ++i) {
      if (accVars[i] < 0) throw Stop{};
      PV h;
      h.k = PV::Vec;
      h.bits = 64 * L;
      for (unsigned j = 0; j < L; ++j) {
        h.l.push_back(ev.atom(accNames[i] + "[" + std::to_string(j) + "]"));
        h.b.push_back(Itv{0, maxOf(64)});
      }
      PolySeed s;
      if (seed(accVars[i], s) && s.lanes.size() == L) h.b = s.lanes;
      ev.slots.emplace(ev.key(accVars[i]), h);
      ev.accKeys.push_back(ev.key(accVars[i]));
      ev.curIn.push_back(h.l);
    }
    // h carried into the loop (hin0..hin2 of this function): its value at the head, as seeded.
    for (int i = 0; i < 3; ++i)
      for (size_t v = 0; v < f.vars.size(); ++v)
        if (f.vars[v].name == "hin" + std::to_string(i) && f.vars[v].ty.kind == Type::Vec &&
            f.vars[v].loc.line >= fn.loc.line && f.vars[v].loc.line <= fn.endLoc.line) {
          hinVars.push_back((int)v);
          hinHead.push_back(ev.slot((int)v));
          break;
        }
    if (hinVars.size() != 3) hinVars.clear(), hinHead.clear();
    ev.exec(*loop.then);
    Eval::Step last;
    last.in = ev.curIn;
    last.out = ev.accValues();
    ev.steps.push_back(last);
    for (int v : hinVars) hinEnd.push_back(ev.slot(v));
  } catch (const Stop &) {
    res.res = Res::FAILED;
    res.cex = "cannot evaluate the block step algebraically: " +
              (ev.err.empty() ? std::string("accumulator variable not found") : ev.err) +
              (ev.errLoc.line ? " (line " + std::to_string(ev.errLoc.line) + ")" : "");
    return res;
  }
  z3::expr P = ev.pow2(130) - c.int_val(5);
  z3::params som(c);
  som.set("som", true);
  auto modp = [&](const std::string &cf) {
    z3::expr r = z3::mod(c.int_val(cf.c_str()), P).simplify();
    return r.get_decimal_string(0);
  };
  std::string shown;
  res.what = std::to_string(ev.steps.size()) + " block step(s): acc' = acc * R + m + c (mod 2^130-5) in every lane";
  for (size_t i = 0; i < hinEnd.size(); ++i)
    for (size_t j = 0; j < hinEnd[i].l.size(); ++j) {
      z3::expr e = hinEnd[i].l[j].simplify();
      if (!(e.is_numeral() && e.get_decimal_string(0) == "0")) {
        res.res = Res::FAILED;
        res.cex = "hin" + std::to_string(i) + " lane " + std::to_string(j) +
                  " is not 0 at the end of the body: h from before the loop would be added again";
        return res;
      }
    }
  long long firstGroup = 0;
  std::string firstBase;
  for (size_t k = 0; k < ev.steps.size(); ++k) {
    const Eval::Step &stp = ev.steps[k];
    std::string sk = ev.steps.size() > 1 ? "step " + std::to_string(k + 1) + ", " : "";
    // The message group this step absorbs: the memory words its result depends on.
    std::set<unsigned> seen;
    std::vector<z3::expr> consts;
    std::function<void(const z3::expr &)> collect = [&](const z3::expr &e) {
      if (!seen.insert(e.id()).second) return;
      if (e.is_app() && e.num_args() == 0 && !e.is_numeral()) consts.push_back(e);
      for (unsigned i = 0; i < e.num_args(); ++i) collect(e.arg(i));
    };
    for (auto &limb : stp.out)
      for (auto &x : limb) collect(x);
    std::string base;
    long long lo = -1;
    for (auto &x : consts) {
      std::string n = x.decl().name().str();
      if (n.rfind("mem:", 0) != 0) continue;
      size_t plus = n.rfind('+');
      long long off = std::stoll(n.substr(plus + 1));
      std::string b = n.substr(4, plus - 4);
      if (lo < 0 || off < lo) lo = off, base = b;
    }
    if (lo < 0) {
      res.res = Res::FAILED;
      res.cex = sk + "the step's result does not depend on any message word";
      return res;
    }
    long long g = lo - (lo % G + G) % G;
    if (k == 0) {
      firstGroup = g;
      firstBase = base;
    } else if (base != firstBase || g != firstGroup + G * (long long)k) {
      res.res = Res::FAILED;
      res.cex = sk + "reads the " + std::to_string(G) + "-byte group at " + base + "+" + std::to_string(g) + ", not the next one after step " +
                std::to_string(k) + " (" + firstBase + "+" + std::to_string(firstGroup + G * (long long)k) + ")";
      return res;
    }
    for (unsigned j = 0; j < L; ++j) {
      z3::expr out = c.int_val(0);
      for (size_t i = 0; i < stp.out.size(); ++i) out = out + ev.pow2(radix * (unsigned)i) * stp.out[i][j];
      long long o0 = g + 16LL * j;
      z3::expr M = ev.atom("mem:" + base + "+" + std::to_string(o0), true) +
                   ev.pow2(64) * ev.atom("mem:" + base + "+" + std::to_string(o0 + 8), true) + ev.pow2(128);
      z3::expr E = (out - M).simplify(som);
      if (getenv("CHAPOLY_VERIFY_TRACE") && j == 0)
        fprintf(stderr, "block-step line %u %slane 0: %s\n", loop.loc.line, sk.c_str(), E.to_string().c_str());
      std::vector<std::pair<std::string, std::vector<std::string>>> mons;
      if (!monomials(E, mons)) {
        res.res = Res::FAILED;
        res.cex = sk + "lane " + std::to_string(j) + ": the lane value is not a polynomial the check can read";
        return res;
      }
      std::map<std::string, size_t> accIdx;
      for (size_t i = 0; i < stp.in.size(); ++i) accIdx[stp.in[i][j].decl().name().str()] = i;
      // Split E = sum_i acc_i * C_i + D.
      std::vector<z3::expr> C(stp.in.size(), c.int_val(0));
      z3::expr D = c.int_val(0);
      std::string problem;
      for (const auto &[cf, vars] : mons) {
        int nacc = 0;
        size_t which = 0;
        z3::expr rest = c.int_val(cf.c_str());
        for (const auto &vn : vars) {
          auto it = accIdx.find(vn);
          if (it != accIdx.end()) {
            if (nacc++ == 0) {
              which = it->second;
              continue;
            }
          }
          rest = rest * ev.atom(vn);
        }
        if (nacc > 1 && modp(cf) != "0") problem = "a product of two accumulator limbs appears";
        if (nacc == 1) C[which] = C[which] + rest;
        else if (nacc == 0) D = D + rest;
      }
      if (!problem.empty()) {
        res.res = Res::FAILED;
        res.cex = sk + "lane " + std::to_string(j) + ": " + problem;
        return res;
      }
      // R is the same for every limb: C_i = 2^(radix*i) * C_0 (mod p), coefficient by coefficient.
      for (size_t i = 1; i < C.size(); ++i) {
        z3::expr d = (C[i] - ev.pow2(radix * (unsigned)i) * C[0]).simplify(som);
        std::vector<std::pair<std::string, std::vector<std::string>>> dm;
        monomials(d, dm);
        for (const auto &[cf, vars] : dm)
          if (modp(cf) != "0") {
            res.res = Res::FAILED;
            std::string mono;
            for (auto &v : vars) mono += "*" + v;
            res.cex = sk + "lane " + std::to_string(j) + ": limb " + std::to_string(i) +
                      " of the accumulator is not multiplied by the same R as limb 0 (mod p): the coefficient of " +
                      (mono.empty() ? "1" : mono.substr(1)) + " differs by " + cf;
            return res;
          }
      }
      // The message enters as acc*R + m (Horner after the multiply): D - m must be free of
      // constants, message words and unmodelled operations. The (acc + m)*R form is correct only
      // with a settle that adds the last group before multiplying by the lane powers; the emitted
      // p1305_settle (proved: sum acc_j q_j + h) does not, so a file that has it must use
      // acc*R + m. Hand-written kernels that settle their own way (tests/verify/samples) may use
      // either, and then c is 0.
      std::string form = "acc*R + m";
      if (std::none_of(f.funcs.begin(), f.funcs.end(), [](const Function &g) { return roleOf(g) == "ifma.settle"; })) {
        z3::expr alt = (D + M - M * C[0]).simplify(som);
        std::vector<std::pair<std::string, std::vector<std::string>>> am;
        monomials(alt, am);
        bool memLeft = false;
        for (const auto &[cf, vars] : am)
          if (modp(cf) != "0")
            for (const auto &v : vars) memLeft = memLeft || ev.memDerived.count(v) > 0;
        std::vector<std::pair<std::string, std::vector<std::string>>> dmm;
        monomials(D.simplify(som), dmm);
        bool memDirect = false;
        for (const auto &[cf, vars] : dmm)
          if (modp(cf) != "0")
            for (const auto &v : vars) memDirect = memDirect || ev.memDerived.count(v) > 0;
        if (memDirect && !memLeft) {
          D = alt;
          form = "(acc + m)*R";
        }
      }
      auto zeroModP = [&](const z3::expr &x) {
        std::vector<std::pair<std::string, std::vector<std::string>>> zm;
        return monomials(x.simplify(som), zm) && firstNonzero(c, zm, true) == nullptr;
      };
      // The carried-in term is h from before the loop on the first step only.
      {
        z3::expr HIN = c.int_val(0);
        if (!hinHead.empty() && k == 0)
          for (size_t i = 0; i < 3; ++i) HIN = HIN + ev.pow2(radix * (unsigned)i) * hinHead[i].l[j];
        if (!zeroModP(D - HIN)) {
          res.res = Res::FAILED;
          res.cex = sk + "lane " + std::to_string(j) + ": the term carried into the step is not " +
                    (hinHead.empty() ? std::string("0 (the function has no hin0..hin2)")
                     : k == 0       ? std::string("the h from before the loop (hin)")
                                    : std::string("0 (h from before the loop was added on an earlier step)"));
          return res;
        }
      }
      // R is the r^8 p1305_setup made (its identities, as the interval pass tracked them).
      if (rl && rl->size() == 3) {
        z3::expr want = c.int_val(0);
        bool known = true;
        for (size_t i = 0; i < 3; ++i) {
          if (j >= (*rl)[i].size() || (*rl)[i][j].second < 0) {
            known = false;
            break;
          }
          want = want + ev.pow2(radix * (unsigned)i) * ev.num((*rl)[i][j].first) *
                            ev.atom("v" + std::to_string((*rl)[i][j].second));
        }
        if (!known || !zeroModP(C[0] - want)) {
          res.res = Res::FAILED;
          res.cex = sk + "lane " + std::to_string(j) + ": the step multiplies by an R that is not the r^" + std::to_string(L) +
                    " (rl0, rl1, rl2) p1305_setup returned";
          return res;
        }
      }
      for (int part = 0; part < 2; ++part) {
        z3::expr x = (part == 0 ? D : C[0]).simplify(som);
        std::vector<std::pair<std::string, std::vector<std::string>>> dm;
        monomials(x, dm);
        for (const auto &[cf, vars] : dm) {
          if (modp(cf) == "0") continue;
          bool bad = vars.empty() && part == 0;
          std::string why = "a constant " + cf + " is left over (the 2^128 pad or a fold constant is wrong)";
          for (const auto &v : vars) {
            bool inner = v.rfind("@hi", 0) == 0 || v.rfind("@q", 0) == 0;  // made inside the body
            if (inner && !ev.memDerived.count(v)) {
              bad = true;
              why = std::string("an intermediate ") + (v[1] == 'h' ? "IFMA hi half" : "carry quotient") + " (" + v +
                    ") does not cancel mod p: a fold, wrap or carry constant is wrong";
            }
            if (ev.memDerived.count(v)) {
              bad = true;
              why = "a message-dependent term (" + v + ") is not the block value (the message limbs are split wrongly)";
            } else if (ev.opaqueAtoms.count(v)) {
              bad = true;
              why = "the result depends on an operation the algebra does not model (" + v + ")";
            }
          }
          if (bad) {
            res.res = Res::FAILED;
            res.cex = sk + "lane " + std::to_string(j) + ": " + why + (part ? " in R" : "");
            return res;
          }
        }
      }
      if (j == 0 && k == 0) {
        // Readable mod-p form: coefficients reduced, powers of two as 2^k, atoms by variable.
        auto show = [&](const z3::expr &x) {
          std::vector<std::pair<std::string, std::vector<std::string>>> dm;
          monomials(x.simplify(som), dm);
          std::string out;
          for (const auto &[cf, vars] : dm) {
            std::string r = modp(cf);
            if (r == "0") continue;
            std::string coef = r;
            // power of two?
            z3::expr rv = c.int_val(r.c_str());
            for (unsigned e = 0; e < 130; ++e)
              if (z3::expr(rv == ev.pow2(e)).simplify().is_true()) {
                coef = e == 0 ? "" : "2^" + std::to_string(e);
                break;
              }
            std::string mono = coef;
            for (const auto &v : vars) {
              auto it = ev.pretty.find(v);
              mono += (mono.empty() ? "" : "*") + (it == ev.pretty.end() ? v : it->second);
            }
            out += (out.empty() ? "" : " + ") + (mono.empty() ? "1" : mono);
          }
          if (out.size() > 200) out = out.substr(0, 197) + "...";
          return out.empty() ? std::string("0") : out;
        };
        shown = "form " + form + "; lane 0: R = " + show(C[0]) + "; c = " + show(D);
      }
    }
  }
  // A loop-carried message pointer must move on by exactly the groups the body read.
  const std::string headSfx = "@head";
  if (firstBase.size() > headSfx.size() && firstBase.compare(firstBase.size() - headSfx.size(), headSfx.size(), headSfx) == 0) {
    std::string pn = firstBase.substr(0, firstBase.size() - headSfx.size());
    for (size_t v = 0; v < f.vars.size(); ++v) {
      if (f.vars[v].name != pn || f.vars[v].ty.kind != Type::Ptr) continue;
      if (f.vars[v].loc.line < fn.loc.line || f.vars[v].loc.line > fn.endLoc.line) continue;
      auto it = ev.slots.find(ev.key((int)v));
      if (it == ev.slots.end() || it->second.k != PV::Ptr) continue;
      const PV &pe = it->second;
      long long want = firstGroup + G * (long long)ev.steps.size();
      if (pe.base != firstBase || !pe.offKnown || pe.off != want) {
        res.res = Res::FAILED;
        res.cex = "at the end of the body " + pn + " is " + (pe.base == firstBase && pe.offKnown ? pn + "+" + std::to_string(pe.off) : std::string("not a known offset of its value at the head (" + pe.base + ")")) +
                  ", not " + pn + "+" + std::to_string(want) + ": the next iteration would not read the next group";
        return res;
      }
      break;
    }
  }
  res.res = Res::OK;
  res.note = shown;
  return res;
}

BlockStepResult proveMulHelper(const File &f, const Function &fn, bool wrap) {
  BlockStepResult res;
  res.what = wrap ? "key-power helper " + fn.name + ": bs1 = 20*b1, bs2 = 20*b2 exactly, in every lane"
                  : "multiply helper " + fn.name + ": h = a * b (mod 2^130-5) in every lane, given bs_j = 20*b_j";
  const size_t want = wrap ? 4 : 11;
  if (fn.params.size() != want) {
    res.res = Res::FAILED;
    res.cex = "expected " + std::to_string(want) + " parameters, found " + std::to_string(fn.params.size());
    return res;
  }
  // Lanes: 8 for zmm operands, 4 for ymm (the width of the helper's first parameter).
  const unsigned L = f.vars[(size_t)fn.params[0]].ty.bits == 256 ? 4 : 8;
  z3::context c;
  PolySeedFn none = [](int, PolySeed &) { return false; };
  Eval ev(f, c, none);
  ev.frames.push_back(Eval::Frame{1, &fn, {}, false, PV{}});
  auto vec = [&](const std::function<z3::expr(unsigned)> &lane, unsigned bits) {
    PV v;
    v.k = PV::Vec;
    v.bits = 64 * L;
    for (unsigned j = 0; j < L; ++j) {
      v.l.push_back(lane(j));
      v.b.push_back(Itv{0, maxOf(bits)});
    }
    return v;
  };
  auto at = [&](const std::string &n, unsigned j) { return ev.atom(n + "[" + std::to_string(j) + "]"); };
  const z3::expr twenty = c.int_val(20);
  std::vector<int> outs;
  try {
    if (wrap) {
      // p1305_wrap(bs1&, bs2&, b1, b2)
      ev.slots.emplace(ev.key(fn.params[2]), vec([&](unsigned j) { return at("b1", j); }, 52));
      ev.slots.emplace(ev.key(fn.params[3]), vec([&](unsigned j) { return at("b2", j); }, 52));
      outs = {fn.params[0], fn.params[1]};
    } else {
      // p1305_mul(h0&, h1&, h2&, a0, a1, a2, b0, b1, b2, bs1, bs2)
      for (int i = 0; i < 3; ++i) {
        std::string an = "a" + std::to_string(i), bn = "b" + std::to_string(i);
        ev.slots.emplace(ev.key(fn.params[3 + i]), vec([&](unsigned j) { return at(an, j); }, 52));
        ev.slots.emplace(ev.key(fn.params[6 + i]), vec([&](unsigned j) { return at(bn, j); }, 52));
      }
      ev.slots.emplace(ev.key(fn.params[9]), vec([&](unsigned j) { return twenty * at("b1", j); }, 52));
      ev.slots.emplace(ev.key(fn.params[10]), vec([&](unsigned j) { return twenty * at("b2", j); }, 52));
      outs = {fn.params[0], fn.params[1], fn.params[2]};
    }
    ev.exec(*fn.body);
  } catch (const Stop &) {
    res.res = Res::FAILED;
    res.cex = "cannot evaluate the helper algebraically: " + ev.err +
              (ev.errLoc.line ? " (line " + std::to_string(ev.errLoc.line) + ")" : "");
    return res;
  }
  z3::params som(c);
  som.set("som", true);
  for (unsigned j = 0; j < L; ++j) {
    std::vector<z3::expr> diffs;
    std::vector<std::string> labels;
    std::vector<z3::expr> lanes;
    for (int o : outs) {
      auto it = ev.slots.find(ev.key(o));
      if (it == ev.slots.end() || it->second.k != PV::Vec || it->second.l.size() != L) {
        res.res = Res::FAILED;
        res.cex = "output " + f.vars[(size_t)o].name + " is not written as a vector";
        return res;
      }
      lanes.push_back(it->second.l[j]);
    }
    if (wrap) {
      diffs.push_back(lanes[0] - twenty * at("b1", j));
      labels.push_back("bs1 - 20*b1");
      diffs.push_back(lanes[1] - twenty * at("b2", j));
      labels.push_back("bs2 - 20*b2");
    } else {
      z3::expr H = lanes[0] + ev.pow2(44) * lanes[1] + ev.pow2(88) * lanes[2];
      z3::expr A = at("a0", j) + ev.pow2(44) * at("a1", j) + ev.pow2(88) * at("a2", j);
      z3::expr B = at("b0", j) + ev.pow2(44) * at("b1", j) + ev.pow2(88) * at("b2", j);
      diffs.push_back(H - A * B);
      labels.push_back("h - a*b");
    }
    for (size_t d = 0; d < diffs.size(); ++d) {
      std::vector<std::pair<std::string, std::vector<std::string>>> mons;
      if (!monomials(diffs[d].simplify(som), mons)) {
        res.res = Res::FAILED;
        res.cex = "lane " + std::to_string(j) + ": " + labels[d] + " is not a polynomial the check can read";
        return res;
      }
      if (const auto *nz = firstNonzero(c, mons, !wrap)) {
        const auto &[cf, vars] = *nz;
        std::string mono;
        for (const auto &v : vars) {
          auto it = ev.pretty.find(v);
          mono += (mono.empty() ? "" : "*") + (it == ev.pretty.end() ? v : it->second);
        }
        bool inner = false;
        for (const auto &v : vars) inner = inner || v.rfind("@hi", 0) == 0 || v.rfind("@q", 0) == 0;
        res.res = Res::FAILED;
        res.cex = "lane " + std::to_string(j) + ": in " + labels[d] + ", the coefficient of " +
                  (mono.empty() ? std::string("1") : mono) + " is " + cf + (wrap ? ", not 0" : ", not 0 mod 2^130-5") +
                  (inner ? " (an IFMA hi half or carry quotient does not cancel: a fold, wrap or carry constant is wrong)"
                         : " (a product or limb weight is wrong)");
        return res;
      }
    }
  }
  res.res = Res::OK;
  res.note = wrap ? "bs_j = 20*b_j as integers (20 = 2^132 mod 2^130-5)"
                  : "h0 + 2^44 h1 + 2^88 h2 = (a0 + 2^44 a1 + 2^88 a2)(b0 + 2^44 b1 + 2^88 b2) mod 2^130-5, per lane; "
                    "assumes callers pass bs from p1305_wrap of the same b (proved separately)";
  return res;
}

namespace {

// One helper proof: an evaluator over `fn` with its parameters seeded, and the claims checked
// after the body ran. Claims are polynomial identities, either exact (every coefficient 0) or
// mod 2^130-5 (every coefficient a multiple of p), after the multiply contract's H atoms are
// expanded to their A*B.
// The lane count of a helper: 8 when its vector parameters are zmm, 4 when they are ymm (the
// 4-lane schedules keep r^4..r^1 in one ymm).
unsigned helperLanes(const File &f, const Function &fn) {
  for (int p : fn.params) {
    const Type &t = f.vars[(size_t)p].ty;
    if (t.kind == Type::Vec && t.bits >= 256) return t.bits == 256 ? 4 : 8;
  }
  return 8;
}

struct HelperProof {
  const File &f;
  const Function &fn;
  z3::context &c;
  PolySeedFn none = [](int, PolySeed &) { return false; };
  Eval ev;
  z3::params som;
  std::string problem;  // the first failed claim, in words

  HelperProof(const File &ff, const Function &fnn, z3::context &cc) : f(ff), fn(fnn), c(cc), ev(ff, cc, none), som(cc) {
    som.set("som", true);
    som.set("som_blowup", 100000u);  // r^8 of a two-word r expands to thousands of monomials
    ev.abstractMul = true;
    ev.frames.push_back(Eval::Frame{1, &fn, {}, false, PV{}});
    L = helperLanes(ff, fnn);
  }
  unsigned L = 8;
  z3::expr at(const std::string &n, unsigned j) { return ev.atom(n + "[" + std::to_string(j) + "]"); }
  PV vecOf(const std::function<z3::expr(unsigned)> &lane, u128 hi = ~(u128)0 >> 64) {
    PV v;
    v.k = PV::Vec;
    v.bits = 64 * L;
    for (unsigned j = 0; j < L; ++j) v.l.push_back(lane(j)), v.b.push_back(Itv{0, hi});
    return v;
  }
  PV atoms(const std::string &n, u128 hi = ~(u128)0 >> 64) {
    return vecOf([&](unsigned j) { return at(n, j); }, hi);
  }
  void seed(size_t param, const PV &v) {
    int var = fn.params.at(param);
    ev.slots.erase(ev.key(var));
    ev.slots.emplace(ev.key(var), v);
  }
  PV scalar(u128 value, unsigned bits) {
    PV v;
    v.k = PV::Int;
    v.bits = bits;
    v.l.push_back(ev.num(value));
    v.b.push_back(Itv{value, value});
    return v;
  }
  bool run() {
    try {
      ev.exec(*fn.body);
      return true;
    } catch (const Stop &) {
      problem = "cannot evaluate " + fn.name + " algebraically: " + ev.err +
                (ev.errLoc.line ? " (line " + std::to_string(ev.errLoc.line) + ")" : "");
      return false;
    }
  }
  const PV &out(size_t param) {
    auto it = ev.slots.find(ev.key(fn.params.at(param)));
    if (it == ev.slots.end() || it->second.l.empty()) {
      static PV empty;
      return empty;
    }
    return it->second;
  }
  z3::expr lane(const PV &v, unsigned j) { return j < v.l.size() ? v.l[j] : c.int_val(0); }
  // b0[j] + 2^44 b1[j] + 2^88 b2[j] of the seeded atoms named b0, b1, b2.
  z3::expr V(const std::string &b, unsigned j) {
    return at(b + "0", j) + ev.pow2(44) * at(b + "1", j) + ev.pow2(88) * at(b + "2", j);
  }
  // A 64-bit scalar parameter as one unconstrained atom (a length).
  PV scalarAtom(const std::string &n) {
    PV v;
    v.k = PV::Int;
    v.bits = 64;
    v.l.push_back(ev.atom(n));
    v.b.push_back(Itv{0, ~(u128)0 >> 64});
    return v;
  }
  z3::expr value(const PV &l0, const PV &l1, const PV &l2, unsigned j) {
    return lane(l0, j) + ev.pow2(44) * lane(l1, j) + ev.pow2(88) * lane(l2, j);
  }
  // Checks got - want == 0 (exactly, or mod p); records the first problem. `what` names the claim.
  bool claim(const std::string &what, const z3::expr &got, const z3::expr &want, bool modp) {
    if (!problem.empty()) return false;
    z3::expr d = ev.expandMul(got - want).simplify(som);
    if (getenv("CHAPOLY_VERIFY_TRACE"))
      fprintf(stderr, "%s: %s: got %s\n  want %s\n", fn.name.c_str(), what.c_str(), got.simplify(som).to_string().c_str(),
              want.simplify(som).to_string().c_str());
    std::vector<std::pair<std::string, std::vector<std::string>>> mons;
    if (!monomials(d, mons)) {
      if (getenv("CHAPOLY_VERIFY_TRACE")) fprintf(stderr, "unreadable: %s\n", d.to_string().c_str());
      problem = what + ": not a polynomial the check can read";
      return false;
    }
    if (const auto *nz = firstNonzero(c, mons, modp)) {
      const auto &[cf, vars] = *nz;
      std::string mono;
      bool inner = false;
      for (size_t i = 0; i < vars.size();) {  // sorted: equal factors are adjacent, shown as x^k
        size_t k = i;
        while (k < vars.size() && vars[k] == vars[i]) ++k;
        mono += (mono.empty() ? "" : "*") + vars[i] + (k - i > 1 ? "^" + std::to_string(k - i) : "");
        inner = inner || vars[i][0] == '@';
        i = k;
      }
      if (mono.size() > 160) mono = mono.substr(0, 157) + "...";
      problem = what + ": the coefficient of " + (mono.empty() ? std::string("1") : mono) + " is " +
                (cf.size() > 48 ? cf.substr(0, 45) + "..." : cf) + (modp ? ", not 0 mod 2^130-5" : ", not 0") +
                (inner ? " (a carry quotient, IFMA half or multiply output does not cancel: a constant, a lane "
                         "or a limb is wrong)"
                       : "");
      return false;
    }
    return true;
  }
};

z3::expr powE(const z3::expr &x, unsigned k, z3::context &c) {
  z3::expr r = c.int_val(1);
  for (unsigned i = 0; i < k; ++i) r = r * x;
  return r;
}

}  // namespace

BlockStepResult proveHelper(const File &f, const Function &fn) {
  BlockStepResult res;
  z3::context c;
  const std::string n = roleOf(fn);  // proved by its contract's role, never by its name
  auto params = [&](size_t k) {
    if (fn.params.size() == k) return true;
    res.res = Res::FAILED;
    res.cex = "expected " + std::to_string(k) + " parameters, found " + std::to_string(fn.params.size());
    return false;
  };
  auto fail = [&](const std::string &why) {
    res.res = Res::FAILED;
    res.cex = why;
    return res;
  };
  const z3::expr twenty = c.int_val(20);
  {
    // The value proofs below read the lane key powers by position; the bounds pass checks that
    // each call hands the key setup's powers by the contract's names (`keys`, `loop_keys`). Both
    // must mean the same parameters: a helper whose names and positions disagree (its q and rl
    // parameters renamed into each other, the lists swapped) would be proved for one and checked
    // for the other.
    static const std::map<std::string, std::pair<int, int>> at = {{"ifma.key_powers", {0, 5}},
                                                                  {"ifma.settle", {9, -1}},
                                                                  {"ifma.step_partial", {7, -1}},
                                                                  {"ifma.lengths", {5, -1}},
                                                                  {"ifma.short_step", {13, -1}}};
    const Contract ct = contractOf(fn);
    auto it = at.find(n);
    if (it != at.end()) {
      auto same = [&](const std::vector<std::string> &names, int first, const char *field) -> std::string {
        if (first < 0) return names.empty() ? "" : std::string("a contract \"") + field + "\" its value proof does not read";
        for (size_t k = 0; k < names.size(); ++k) {
          const size_t pos = (size_t)first + k;
          if (pos >= fn.params.size() || f.vars[(size_t)fn.params[pos]].name != names[k])
            return std::string("the contract's \"") + field + "\" name " + names[k] + " where the value proof reads parameter " +
                   std::to_string(pos + 1) + (pos < fn.params.size() ? " (" + f.vars[(size_t)fn.params[pos]].name + ")" : "");
        }
        return "";
      };
      std::string why = same(ct.keys, it->second.first, "keys");
      if (why.empty()) why = same(ct.loopKeys, it->second.second, "loop_keys");
      if (!why.empty()) return fail(fn.name + ": " + why);
    }
  }
  // 8 lanes (q = r^8..r^1, groups of 128 bytes) or 4 (r^4..r^1, 64 bytes): the claims below are
  // stated for L lanes and read exactly as before for 8.
  const unsigned L = helperLanes(f, fn);
  const std::string Ls = std::to_string(L), L1 = std::to_string(L - 1), GB = std::to_string(16 * L);
  if (n == "ifma.carry") {
    res.what = "carry helper " + fn.name + ": h0 + 2^44 h1 + 2^88 h2 unchanged mod 2^130-5, in every lane";
    if (!params(3)) return res;
    HelperProof hp(f, fn, c);
    for (size_t i = 0; i < 3; ++i) hp.seed(i, hp.atoms("h" + std::to_string(i)));
    if (!hp.run()) return fail(hp.problem);
    for (unsigned j = 0; j < L; ++j)
      hp.claim("lane " + std::to_string(j) + ", h' - h",
               hp.value(hp.out(0), hp.out(1), hp.out(2), j),
               hp.at("h0", j) + hp.ev.pow2(44) * hp.at("h1", j) + hp.ev.pow2(88) * hp.at("h2", j), true);
    if (!hp.problem.empty()) return fail(hp.problem);
    res.note = "the carries move 2^44 / 2^42 multiples between limbs; 2>0 folds 2^130 as 5";
    return res;
  }
  if (n == "ifma.lane_sum") {
    res.what = "lane sum " + fn.name + ": lane 0 = x[0] + ... + x[" + L1 + "], lanes 1.." + L1 + " = 0, exactly";
    if (!params(1)) return res;
    HelperProof hp(f, fn, c);
    hp.seed(0, hp.atoms("x"));
    if (!hp.run()) return fail(hp.problem);
    const PV &r = hp.ev.frames.back().ret;
    if (r.k != PV::Vec || r.l.size() != L) return fail("the result is not a vector of " + Ls + " lanes the algebra can follow");
    z3::expr sum = c.int_val(0);
    for (unsigned j = 0; j < L; ++j) sum = sum + hp.at("x", j);
    hp.claim("lane 0", r.l[0], sum, false);
    for (unsigned j = 1; j < L; ++j) hp.claim("lane " + std::to_string(j), r.l[j], c.int_val(0), false);
    if (!hp.problem.empty()) return fail(hp.problem);
    res.note = "no wrap: the interval pass bounds every lane sum";
    return res;
  }
  if (n == "ifma.lane0") {
    res.what = "lane read " + fn.name + ": the result is lane 0 of x, exactly";
    if (!params(1)) return res;
    HelperProof hp(f, fn, c);
    hp.seed(0, hp.atoms("x"));
    if (!hp.run()) return fail(hp.problem);
    const PV &r = hp.ev.frames.back().ret;
    if (r.k != PV::Int || r.l.size() != 1) return fail("the result is not a scalar the algebra can follow");
    hp.claim("result", r.l[0], hp.at("x", 0), false);
    if (!hp.problem.empty()) return fail(hp.problem);
    return res;
  }
  if (n == "ifma.key_powers") {
    res.what = "key setup " + fn.name + ": r = clamp(key[0..15]) (RFC 8439 2.5), lane j of q = r^(" + Ls +
               "-j) and every lane of rl = r^" + Ls + " mod 2^130-5, qs/rls = 20*q/rl, s limbs = key[16..31]";
    if (!params(15)) return res;
    HelperProof hp(f, fn, c);
    auto pair = [&](const std::string &nm) {
      PV v;
      v.k = PV::Vec;
      v.bits = 128;
      for (unsigned j = 0; j < 2; ++j) v.l.push_back(hp.at(nm, j)), v.b.push_back(Itv{0, ~(u128)0 >> 64});
      return v;
    };
    hp.seed(13, pair("k"));
    hp.seed(14, pair("s"));
    if (!hp.run()) return fail(hp.problem);
    // RFC 8439 2.5: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff, as two little-endian 64-bit words.
    const u128 clampLo = 0x0ffffffc0fffffffULL, clampHi = 0x0ffffffc0ffffffcULL;
    z3::expr r = hp.ev.atom("(k[0] & " + hex(clampLo) + ")") + hp.ev.pow2(64) * hp.ev.atom("(k[1] & " + hex(clampHi) + ")");
    for (unsigned j = 0; j < L; ++j) {
      std::string lj = "lane " + std::to_string(j);
      hp.claim(lj + ", q - r^" + std::to_string(L - j), hp.value(hp.out(0), hp.out(1), hp.out(2), j), powE(r, L - j, c), true);
      hp.claim(lj + ", qs1 - 20*q1", hp.lane(hp.out(3), j), twenty * hp.lane(hp.out(1), j), false);
      hp.claim(lj + ", qs2 - 20*q2", hp.lane(hp.out(4), j), twenty * hp.lane(hp.out(2), j), false);
      hp.claim(lj + ", rl - r^" + Ls, hp.value(hp.out(5), hp.out(6), hp.out(7), j), powE(r, L, c), true);
      hp.claim(lj + ", rls1 - 20*rl1", hp.lane(hp.out(8), j), twenty * hp.lane(hp.out(6), j), false);
      hp.claim(lj + ", rls2 - 20*rl2", hp.lane(hp.out(9), j), twenty * hp.lane(hp.out(7), j), false);
    }
    hp.claim("s limbs - s", hp.value(hp.out(10), hp.out(11), hp.out(12), 0), hp.at("s", 0) + hp.ev.pow2(64) * hp.at("s", 1), false);
    if (!hp.problem.empty()) return fail(hp.problem);
    res.note = std::to_string(hp.ev.mulCalls) + " multiplies by their proved contract; every call passes bs = 20*b of its own b";
    return res;
  }
  if (n == "ifma.settle") {
    res.what = "settle " + fn.name + ": lane 0 of h = sum_j acc_j * q_j + hin_0, lanes 1.." + L1 + " = hin_j, mod 2^130-5";
    if (!params(14)) return res;
    HelperProof hp(f, fn, c);
    for (size_t i = 0; i < 3; ++i) {
      hp.seed(3 + i, hp.atoms("acc" + std::to_string(i)));
      hp.seed(6 + i, hp.atoms("hin" + std::to_string(i)));
      hp.seed(9 + i, hp.atoms("q" + std::to_string(i)));
    }
    hp.seed(12, hp.vecOf([&](unsigned j) { return twenty * hp.at("q1", j); }));
    hp.seed(13, hp.vecOf([&](unsigned j) { return twenty * hp.at("q2", j); }));
    if (!hp.run()) return fail(hp.problem);
    z3::expr want = hp.V("hin", 0);
    for (unsigned j = 0; j < L; ++j) want = want + hp.V("acc", j) * hp.V("q", j);
    hp.claim("lane 0", hp.value(hp.out(0), hp.out(1), hp.out(2), 0), want, true);
    for (unsigned j = 1; j < L; ++j)
      hp.claim("lane " + std::to_string(j), hp.value(hp.out(0), hp.out(1), hp.out(2), j), hp.V("hin", j), true);
    if (!hp.problem.empty()) return fail(hp.problem);
    res.note = "with q lane j = r^(" + Ls + "-j) (key setup) this is the Horner settle of the " + Ls + " lanes";
    return res;
  }
  if (n == "ifma.step_partial") {
    res.what = "partial step " + fn.name + ", nblocks = 1.." + Ls + ": lane 0 of h = sum_{j<n} (h_j + m_j) * q_(j+" +
               Ls + "-n) mod 2^130-5, lanes 1.." + L1 + " = 0";
    if (!params(12)) return res;
    for (unsigned nb = 1; nb <= L; ++nb) {
      HelperProof hp(f, fn, c);
      for (size_t i = 0; i < 3; ++i) {
        hp.seed(i, hp.atoms("h" + std::to_string(i)));
        hp.seed(3 + i, hp.atoms("m" + std::to_string(i)));
        hp.seed(7 + i, hp.atoms("q" + std::to_string(i)));
      }
      hp.seed(6, hp.scalar(nb, 64));
      hp.seed(10, hp.vecOf([&](unsigned j) { return twenty * hp.at("q1", j); }));
      hp.seed(11, hp.vecOf([&](unsigned j) { return twenty * hp.at("q2", j); }));
      if (!hp.run()) return fail("nblocks = " + std::to_string(nb) + ": " + hp.problem);
      z3::expr want = c.int_val(0);
      for (unsigned j = 0; j < nb; ++j) want = want + (hp.V("h", j) + hp.V("m", j)) * hp.V("q", j + L - nb);
      std::string pre = "nblocks = " + std::to_string(nb) + ", ";
      hp.claim(pre + "lane 0", hp.value(hp.out(0), hp.out(1), hp.out(2), 0), want, true);
      for (unsigned j = 1; j < L; ++j)
        for (size_t i = 0; i < 3; ++i)
          hp.claim(pre + "lane " + std::to_string(j) + " of h" + std::to_string(i), hp.lane(hp.out(i), j), c.int_val(0), false);
      if (!hp.problem.empty()) return fail(hp.problem);
    }
    res.note = "with q lane k = r^(" + Ls + "-k): h' = (h + m_0) r^n + m_1 r^(n-1) + ... + m_(n-1) r";
    return res;
  }
  if (n == "ifma.lengths") {
    res.what = "length block " + fn.name + ": lane 0 of h = (h_0 + aad_len + 2^64 len + 2^128) * q_" + L1 +
               " mod 2^130-5 (RFC 8439 2.8), lanes 1.." + L1 + " = 0";
    if (!params(10)) return res;
    HelperProof hp(f, fn, c);
    for (size_t i = 0; i < 3; ++i) {
      hp.seed(i, hp.atoms("h" + std::to_string(i)));
      hp.seed(5 + i, hp.atoms("q" + std::to_string(i)));
    }
    hp.seed(3, hp.scalarAtom("aad_len"));
    hp.seed(4, hp.scalarAtom("len"));
    hp.seed(8, hp.vecOf([&](unsigned j) { return twenty * hp.at("q1", j); }));
    hp.seed(9, hp.vecOf([&](unsigned j) { return twenty * hp.at("q2", j); }));
    if (!hp.run()) return fail(hp.problem);
    z3::expr Lw = hp.ev.atom("aad_len") + hp.ev.pow2(64) * hp.ev.atom("len") + hp.ev.pow2(128);
    hp.claim("lane 0", hp.value(hp.out(0), hp.out(1), hp.out(2), 0), (hp.V("h", 0) + Lw) * hp.V("q", L - 1), true);
    for (unsigned j = 1; j < L; ++j)
      for (size_t i = 0; i < 3; ++i)
        hp.claim("lane " + std::to_string(j) + " of h" + std::to_string(i), hp.lane(hp.out(i), j), c.int_val(0), false);
    if (!hp.problem.empty()) return fail(hp.problem);
    res.note = "the 64-bit lengths split into 44-bit limbs without loss; q_" + L1 + " = r";
    return res;
  }
  if (n == "ifma.short_step") {
    res.what = "one-step short MAC " + fn.name + ", every na + nc <= " + L1 + ": lane 0 of h = sum_j A_j q_(j+" + Ls +
               "-n) + sum_i C_i q_(na+i+" + Ls + "-n) + (aad_len + 2^64 len + 2^128) q_" + L1 +
               " mod 2^130-5, n = na + nc + 1";
    if (!params(18)) return res;
    unsigned cases = 0;
    for (unsigned na = 0; na <= L - 1; ++na)
      for (unsigned nc = 0; na + nc <= L - 1; ++nc, ++cases) {
        HelperProof hp(f, fn, c);
        // a: AAD blocks in lanes 0..na-1, c: ciphertext blocks in lanes 0..nc-1, zero elsewhere
        // (what p1305_load_partial returns, proved separately).
        for (size_t i = 0; i < 3; ++i) {
          std::string an = "a" + std::to_string(i), cn = "c" + std::to_string(i);
          hp.seed(3 + i, hp.vecOf([&](unsigned j) { return j < na ? hp.at(an, j) : c.int_val(0); }));
          hp.seed(6 + i, hp.vecOf([&](unsigned j) { return j < nc ? hp.at(cn, j) : c.int_val(0); }));
          hp.seed(13 + i, hp.atoms("q" + std::to_string(i)));
        }
        for (size_t i = 3; i < 9; ++i) {  // exact zeros are exact
          PV &v = hp.ev.slots.at(hp.ev.key(fn.params[i]));
          for (unsigned j = 0; j < L; ++j)
            if (v.l[j].is_numeral()) v.b[j] = Itv{0, 0};
            else v.b[j] = Itv{0, (u128)1 << 44};
        }
        hp.seed(9, hp.scalar(na, 64));
        hp.seed(10, hp.scalar(nc, 64));
        hp.seed(11, hp.scalarAtom("aad_len"));
        hp.seed(12, hp.scalarAtom("len"));
        hp.seed(16, hp.vecOf([&](unsigned j) { return twenty * hp.at("q1", j); }));
        hp.seed(17, hp.vecOf([&](unsigned j) { return twenty * hp.at("q2", j); }));
        std::string pre = "na = " + std::to_string(na) + ", nc = " + std::to_string(nc) + ": ";
        if (!hp.run()) return fail(pre + hp.problem);
        unsigned nn = na + nc + 1;
        z3::expr want = (hp.ev.atom("aad_len") + hp.ev.pow2(64) * hp.ev.atom("len") + hp.ev.pow2(128)) * hp.V("q", L - 1);
        for (unsigned j = 0; j < na; ++j) want = want + hp.V("a", j) * hp.V("q", j + L - nn);
        for (unsigned i = 0; i < nc; ++i) want = want + hp.V("c", i) * hp.V("q", na + i + L - nn);
        hp.claim(pre + "lane 0", hp.value(hp.out(0), hp.out(1), hp.out(2), 0), want, true);
        for (unsigned j = 1; j < L; ++j)
          for (size_t i = 0; i < 3; ++i)
            hp.claim(pre + "lane " + std::to_string(j) + " of h" + std::to_string(i), hp.lane(hp.out(i), j), c.int_val(0), false);
        if (!hp.problem.empty()) return fail(hp.problem);
      }
    res.note = std::to_string(cases) + " (na, nc) cases; with q lane k = r^(" + Ls +
               "-k) this is the RFC 8439 2.8 MAC of AAD | ciphertext | lengths";
    return res;
  }
  if (n == "ifma.load_partial") {
    res.what = "partial-block loader " + fn.name + ", n = 0.." + GB + ", pad01 = 0/1: lane j = bytes 16j..16j+15 "
               "(those < n) little-endian, + 2^128 (zero-padded AEAD block, or a full block) or + 2^(8*(n-16j)) "
               "(the 0x01 byte after a short plain Poly1305 block); 0 past the end; exactly";
    if (!params(6)) return res;
    for (unsigned pad = 0; pad < 2; ++pad)
      for (unsigned len = 0; len <= 16 * L; ++len) {
        HelperProof hp(f, fn, c);
        PV ptr;
        ptr.k = PV::Ptr;
        ptr.base = "p";
        ptr.elemBits = 8;
        hp.seed(3, ptr);
        hp.seed(4, hp.scalar(len, 64));
        hp.seed(5, hp.scalar(pad, 32));
        std::string pre = "n = " + std::to_string(len) + ", pad01 = " + std::to_string(pad) + ": ";
        if (!hp.run()) return fail(pre + hp.problem);
        for (unsigned j = 0; j < L; ++j) {
          z3::expr want = c.int_val(0);
          for (unsigned i = 0; i < 16 && 16 * j + i < len; ++i)
            want = want + hp.ev.pow2(8 * i) * hp.ev.atom("mem8:p+" + std::to_string(16 * j + i), true);
          if (16 * j < len) {
            if (!pad || 16 * j + 16 <= len) want = want + hp.ev.pow2(128);
            else want = want + hp.ev.pow2(8 * (len - 16 * j));
          }
          hp.claim(pre + "lane " + std::to_string(j), hp.value(hp.out(0), hp.out(1), hp.out(2), j), want, false);
        }
        if (!hp.problem.empty()) return fail(hp.problem);
      }
    res.note = std::to_string(2 * (16 * L + 1)) + " cases; the limbs are the block split at bits 44 and 88 with no bit lost or doubled";
    return res;
  }
  res.res = Res::FAILED;
  res.cex = "no helper proof for " + n;
  return res;
}

}  // namespace cv
