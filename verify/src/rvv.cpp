// rvv.cpp: the RVV 1.0 word-sliced ChaCha20 helpers (emitted/rvv), proved for a symbolic vl.
//
// A `chacha20.block` helper with "blocks": "vl" computes vl = vsetvl(blocks asked for) ChaCha20
// blocks at once, word k of block i in lane i of vector x<k>. Every RVV operation it uses works on
// each lane i < vl alone (the table's lane models, intrinsics.cpp), except vid (lane i gets i) and
// the loads/stores, whose address depends on i. So the helper is evaluated ONCE for one symbolic
// lane i < vl (Z3 bit-vectors): every vector value is the term of its lane i; a store is kept as a
// function of the lane (its address base + i * stride, its value with i free), and a read of memory
// is resolved against the stores before it for every lane that may have written the bytes read.
// vl itself is an unknown that satisfies what vsetvl guarantees for every VLEN 128..1024
// (0 iff AVL = 0, vl <= AVL, vl <= VLMAX at VLEN 1024; the table's row, tested under QEMU).
//
// Control flow: `if`s on symbolic values split the evaluation into paths (each proved on its own,
// under its path condition); loops with a constant trip count are unrolled; a stitched Poly1305
// loop (a `poly1305.blocks` contract, no vector operation, no store, writing only the contract's
// accumulator) is skipped here (its block steps are proved by `block-step`); a strip-mined loop
// `while (o < N) { vl8 = vsetvl(N - o); <unit-stride loads and one store at + o>; o = o + vl8; }`
// from o = 0 is proved to be a map: one iteration is evaluated for a symbolic o, vl8 and lane e,
// the value stored at o + e must depend on o + e alone, so the loop writes exactly bytes [0, N)
// with that value (the iterations cover [0, N) in order, each byte once: 1 <= vl8 <= N - o).
// Anything else (another loop, a scalar store, an intrinsic not in the table) fails the proof.
//
// The claim, on every path and for both pointer relations the kernels allow (out == in, or the
// two buffers disjoint): the helper returns vl, 1 <= vl <= the blocks asked for when those are
// >= 1, vl <= 32; every byte it writes through `out` lies in out[0, 64 vl); and for every lane
// i < vl and byte j < 64, out[64 i + j] = in[64 i + j] XOR byte j of RFC 8439 2.3's block for
// counter + i. The state words are proved first (lane i of x12 = counter + i: the vid), then the
// output bytes with the RFC round outputs abstracted (as the x86 vector proof does, proofs.cpp).
#include "rvv.h"

#include <z3++.h>

#include <chrono>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "answers.h"
#include "intrinsics.h"
#include "proofs.h"
#include "symbolic.h"

namespace cv {

bool usesRvv(const Function &fn) {
  bool found = false;
  std::function<void(const Expr &)> ex = [&](const Expr &e) {
    if (e.kind == Expr::Intrin && isRvvIntrinsic(e.name)) found = true;
    for (const auto &a : e.args)
      if (a) ex(*a);
  };
  std::function<void(const Stmt &)> st = [&](const Stmt &s) {
    if (s.e) ex(*s.e);
    if (s.inc) ex(*s.inc);
    for (const StmtP *c : {&s.init, &s.then, &s.els})
      if (*c) st(**c);
    for (const auto &b : s.body)
      if (b) st(*b);
  };
  if (fn.body) st(*fn.body);
  return found;
}

namespace {

// The string field `key` of a contract's JSON text ("" when absent).
std::string field(const std::string &json, const std::string &key) {
  size_t k = json.find("\"" + key + "\"");
  if (k == std::string::npos) return "";
  size_t colon = json.find(':', k);
  size_t v = json.find_first_not_of(" \t", colon + 1);
  if (v == std::string::npos) return "";
  if (json[v] == '"') return json.substr(v + 1, json.find('"', v + 1) - v - 1);
  size_t e = json.find_first_of(",}", v);
  return json.substr(v, e == std::string::npos ? std::string::npos : e - v);
}

// A value during the lane evaluation.
struct LV {
  enum K { None, Int, Bool, Vec, Ptr } k = None;
  unsigned bits = 0;             // Int: width; Vec: lane width
  std::shared_ptr<z3::expr> e;   // Int/Vec: bit-vector of `bits` (Vec: lane i's value); Bool: bool;
                                 // Ptr: the byte offset (64 bits) from the region's start
  std::string region;            // Ptr
  unsigned elemBytes = 1;        // Ptr: pointee size (pointer arithmetic unit)
};

// One store, kept as a function of its lane variable.
struct StoreRec {
  std::string region;
  enum { Strided, Map } kind = Strided;
  // Strided/unit: lane l writes eb bytes at off + l * stride, l < vl; value: lane l's element.
  std::shared_ptr<z3::expr> off, stride, vl, value, laneVar;
  unsigned eb = 4;
  // Map (strip-mined loop): byte x written for x < n with value fn(x) (xVar free in mapVal).
  std::shared_ptr<z3::expr> n, mapVal, xVar;
  SrcLoc loc;
};

struct Stop {};

class LaneEval {
 public:
  LaneEval(const File &f, z3::context &c, const Function &fn, bool inPlace, const std::string &outP,
           const std::string &inP, std::vector<bool> choices)
      : F(f), c(c), fn(fn), inPlace(inPlace), outP(outP), inP(inP), choices(std::move(choices)),
        lane(c.bv_const("i", 64)), vlmaxCap(c.bv_val(0, 64)) {}

  const File &F;
  z3::context &c;
  const Function &fn;
  bool inPlace;
  std::string outP, inP;
  std::vector<bool> choices;
  size_t nextChoice = 0;
  bool moreChoices = false;  // a symbolic branch beyond `choices` was taken as `false`
  z3::expr lane;             // the symbolic lane i
  z3::expr vlmaxCap;
  std::vector<z3::expr> pathCond;  // path condition and vsetvl assumptions
  std::vector<z3::expr> vlAssume;  // per vsetvl: its assumptions (also in pathCond)
  std::vector<std::pair<z3::expr, z3::expr>> setvls;  // (vl, AVL)
  std::vector<const Intrinsic *> setvlRows;           // their table rows (SEW, LMUL)
  // VLEN: one unknown per run, 128..1024 (a power of two); VLMAX for SEW/LMUL.
  z3::expr vlen() {
    z3::expr v = c.bv_const("VLEN", 64);
    if (!vlenAssumed) {
      vlenAssumed = true;
      pathCond.push_back(v == c.bv_val(128, 64) || v == c.bv_val(256, 64) || v == c.bv_val(512, 64) || v == c.bv_val(1024, 64));
    }
    return v;
  }
  bool vlenAssumed = false;
  z3::expr vlmax(unsigned sew, unsigned lmul) { return z3::udiv(vlen() * c.bv_val(lmul, 64), c.bv_val(sew, 64)); }
  std::vector<StoreRec> stores;
  std::string err;
  SrcLoc errLoc;
  int fresh = 0;
  std::map<int, LV> env;  // variable id -> value (this evaluator inlines helpers with their own ids)
  std::vector<std::map<int, int>> refAlias;  // per inline frame: ref param var -> caller var
  LV retVal;
  bool returned = false;
  std::map<std::string, z3::func_decl> orig;  // region -> original bytes (bv64 -> bv8)
  // Kernel mode (keystream loops): calls of "blocks": "vl" helpers are recorded, not inlined, and
  // a variable read before it is written here is an unknown.
  bool kernelMode = false;
  struct KsCall {
    const Function *fn;
    LV out, in;
    z3::expr nb, ctr, ret;
    SrcLoc loc;
    LV mac;                       // stitched Poly1305 ("mac" in the contract): its message
    std::shared_ptr<z3::expr> nmac;  // and its block count
  };
  std::vector<KsCall> ksCalls;

  [[noreturn]] void fail(SrcLoc l, const std::string &m) {
    err = m;
    errLoc = l;
    throw Stop{};
  }

  std::string regionOf(const std::string &param) const { return inPlace && param == inP ? outP : param; }

  z3::func_decl origOf(const std::string &region) {
    auto it = orig.find(region);
    if (it != orig.end()) return it->second;
    z3::func_decl d = c.function((region + "@orig").c_str(), c.bv_sort(64), c.bv_sort(8));
    orig.emplace(region, d);
    return d;
  }

  LV intV(const z3::expr &e, unsigned bits) {
    LV v;
    v.k = LV::Int;
    v.bits = bits;
    v.e = std::make_shared<z3::expr>(e);
    return v;
  }
  LV boolV(const z3::expr &e) {
    LV v;
    v.k = LV::Bool;
    v.bits = 1;
    v.e = std::make_shared<z3::expr>(e);
    return v;
  }
  LV vecV(const z3::expr &e, unsigned bits) {
    LV v = intV(e, bits);
    v.k = LV::Vec;
    return v;
  }
  z3::expr asBool(const LV &v, SrcLoc l) {
    if (v.k == LV::Bool) return *v.e;
    if (v.k == LV::Int) return *v.e != c.bv_val(0, v.bits);
    fail(l, "condition is not a scalar");
  }
  z3::expr asInt(const LV &v, unsigned bits, SrcLoc l) {
    z3::expr e = v.k == LV::Bool ? z3::ite(*v.e, c.bv_val(1, 64), c.bv_val(0, 64)) : v.k == LV::Int ? *v.e : ptrInt(v, l);
    unsigned w = e.get_sort().bv_size();
    if (w == bits) return e;
    if (w > bits) return e.extract(bits - 1, 0);
    return z3::zext(e, bits - w);
  }
  // A pointer as an integer: the region's base address + offset (an input; one per region).
  z3::expr ptrInt(const LV &v, SrcLoc l) {
    if (v.k != LV::Ptr) fail(l, "not a pointer");
    return c.bv_const(("&" + v.region).c_str(), 64) + *v.e;
  }

  // ---- memory ----
  // A read is kept lazy: `mem:<region>:<n>(off)`, the byte at `off` as the first n stores of the
  // run left it; resolve() replaces it once the offset is known (after the claim's substitutions).
  std::map<std::string, std::pair<std::string, size_t>> memDecls;  // decl name -> (region, stores)
  z3::expr readByte(const std::string &r, const z3::expr &off) {
    if (!recordRegion.empty() && r == recordRegion) recorded.push_back(off);
    std::string name = "mem:" + r + ":" + std::to_string(stores.size());
    memDecls.emplace(name, std::make_pair(r, stores.size()));
    return c.function(name.c_str(), c.bv_sort(64), c.bv_sort(8))(off);
  }
  std::map<unsigned, z3::expr> resolved;
  z3::expr resolve(const z3::expr &e) {
    auto it = resolved.find(e.id());
    if (it != resolved.end()) return it->second;
    z3::expr r = e;
    if (e.is_app() && e.num_args() > 0) {
      z3::expr_vector args(c);
      for (unsigned k = 0; k < e.num_args(); ++k) args.push_back(resolve(e.arg(k)));
      std::string n = e.decl().name().str();
      auto md = memDecls.find(n);
      if (md != memDecls.end()) r = resolveRead(md->second.first, md->second.second, args[0].simplify());
      else r = e.decl()(args);
    }
    resolved.emplace(e.id(), r);
    return r;
  }
  // The byte at `off` of region r after the first n stores.
  z3::expr resolveRead(const std::string &r, size_t n, const z3::expr &off) {
    z3::expr v = origOf(r)(off);
    for (size_t k = 0; k < n && k < stores.size(); ++k) {
      const StoreRec &s = stores[k];
      if (s.region != r) continue;
      if (s.kind == StoreRec::Map) {
        z3::expr_vector from(c), to(c);
        from.push_back(*s.xVar);
        to.push_back(off);
        z3::expr inRange = z3::ult(off, *s.n).simplify();
        if (inRange.is_false()) continue;
        z3::expr val = resolve(s.mapVal->substitute(from, to));
        v = inRange.is_true() ? val : z3::ite(inRange, val, v);
        continue;
      }
      uint64_t S = s.stride->get_numeral_uint64();
      // Lane l writes [off_s + S l, off_s + S l + eb). With D = off - off_s - S i a constant, the
      // lane that can write `off` is i + m, m = floor(D / S), byte D - S m (if < eb).
      z3::expr D = (off - *s.off - *s.laneVar * *s.stride).simplify();
      z3::expr val = *s.value, hit = c.bool_val(true);
      unsigned byteAt = 0;
      bool generic = !D.is_numeral();
      if (!generic) {
        int64_t d = (int64_t)D.get_numeral_uint64();
        int64_t m = d >= 0 ? d / (int64_t)S : -((-d + (int64_t)S - 1) / (int64_t)S);
        int64_t rem = d - m * (int64_t)S;
        if (rem >= (int64_t)s.eb) continue;  // no lane of this store writes `off`
        byteAt = (unsigned)rem;
        if (m != 0) {
          z3::expr l2 = *s.laneVar + c.bv_val((uint64_t)m, 64);
          z3::expr_vector from(c), to(c);
          from.push_back(*s.laneVar);
          to.push_back(l2);
          val = s.value->substitute(from, to);
          hit = z3::ult(l2, *s.vl) && (m > 0 ? z3::uge(l2, *s.laneVar) : z3::ult(l2, *s.laneVar));
        } else {
          hit = z3::ult(*s.laneVar, *s.vl);
        }
      }
      if (generic) {
        z3::expr d = off - *s.off;
        z3::expr l = z3::udiv(d, *s.stride), t = z3::urem(d, *s.stride);
        z3::expr_vector from(c), to(c);
        from.push_back(*s.laneVar);
        to.push_back(l);
        z3::expr gv = resolve(s.value->substitute(from, to));
        unsigned w = gv.get_sort().bv_size();
        z3::expr byte = gv.extract(7, 0);
        for (unsigned k2 = 1; k2 < s.eb; ++k2)
          byte = z3::ite(t == c.bv_val(k2, 64), z3::lshr(gv, c.bv_val(8 * k2, w)).extract(7, 0), byte);
        v = z3::ite(z3::uge(off, *s.off) && z3::ult(t, c.bv_val(s.eb, 64)) && z3::ult(l, *s.vl), byte, v);
        continue;
      }
      val = resolve(val);
      unsigned w = val.get_sort().bv_size();
      z3::expr byte = byteAt ? z3::lshr(val, c.bv_val(8 * byteAt, w)).extract(7, 0) : val.extract(7, 0);
      z3::expr h = hit.simplify();
      v = h.is_true() ? byte : z3::ite(h, byte, v);
    }
    return v;
  }
  z3::expr readWord(const std::string &r, const z3::expr &off, unsigned bytes) {
    z3::expr w = readByte(r, off);
    for (unsigned k = 1; k < bytes; ++k) w = z3::concat(readByte(r, off + c.bv_val(k, 64)), w);
    return w;
  }

  // ---- evaluation ----
  LV &slot(int var, SrcLoc l) {
    int v = var;
    for (int guard = 0; guard < 64; ++guard) {
      bool moved = false;
      for (auto it = refAlias.rbegin(); it != refAlias.rend(); ++it) {
        auto a = it->find(v);
        if (a != it->end()) {
          v = a->second;
          moved = true;
          break;
        }
      }
      if (!moved) break;
    }
    auto it = env.find(v);
    if (it == env.end() && kernelMode && F.vars[(size_t)v].ty.kind == Type::Int) {
      const Var &x = F.vars[(size_t)v];
      env[v] = intV(c.bv_const((x.name + "@?" + std::to_string(fresh++)).c_str(), x.ty.bits), x.ty.bits);
      return env[v];
    }
    if (it == env.end()) fail(l, "variable '" + F.vars[(size_t)var].name + "' read before it is written");
    return it->second;
  }
  void setVar(int var, const LV &val) {
    int v = var;
    for (auto it = refAlias.rbegin(); it != refAlias.rend(); ++it) {
      auto a = it->find(v);
      if (a != it->end()) {
        v = a->second;
        it = refAlias.rbegin();  // restart: aliases may chain
        auto b = it->find(v);
        if (b == it->end()) break;
      }
    }
    env[v] = val;
  }

  LV convert(const LV &v, const Type &t, SrcLoc l) {
    if (t.kind == Type::Ptr) {
      if (v.k != LV::Ptr) fail(l, "integer converted to a pointer");
      LV p = v;
      p.elemBytes = t.bits >= 8 ? t.bits / 8 : 1;
      return p;
    }
    if (t.kind == Type::Int) return intV(asInt(v, t.bits, l), t.bits);
    if (t.kind == Type::Bool) return boolV(asBool(v, l));
    if (t.kind == Type::Vec && v.k == LV::Vec) return v;
    fail(l, "conversion outside the RVV dialect");
  }

  LV eval(const Expr &e) {
    switch (e.kind) {
      case Expr::Const:
        if (e.ty.kind == Type::Bool) return boolV(c.bool_val(e.value != 0));
        if (e.ty.kind != Type::Int) fail(e.loc, "constant of a non-integer type");
        return intV(c.bv_val((uint64_t)e.value, 64).extract(e.ty.bits > 64 ? 63 : e.ty.bits - 1, 0), e.ty.bits > 64 ? 64 : e.ty.bits);
      case Expr::Var:
        return slot(e.var, e.loc);
      case Expr::Cast:
        return convert(eval(*e.args[0]), e.ty, e.loc);
      case Expr::Un: {
        LV a = eval(*e.args[0]);
        if (e.name == "!") return boolV(!asBool(a, e.loc));
        z3::expr x = asInt(a, e.ty.bits, e.loc);
        return intV(e.name == "~" ? ~x : -x, e.ty.bits);
      }
      case Expr::Bin: return binary(e);
      case Expr::Cond: {
        z3::expr cnd = asBool(eval(*e.args[0]), e.loc);
        LV a = eval(*e.args[1]), b = eval(*e.args[2]);
        if (a.k != LV::Int || b.k != LV::Int) fail(e.loc, "conditional on non-integers");
        return intV(z3::ite(cnd, asInt(a, e.ty.bits, e.loc), asInt(b, e.ty.bits, e.loc)), e.ty.bits);
      }
      case Expr::Index: {
        LV p = eval(*e.args[0]);
        LV i = eval(*e.args[1]);
        if (p.k != LV::Ptr) fail(e.loc, "index of a non-pointer");
        unsigned eb = e.ty.bits / 8;
        z3::expr off = *p.e + asInt(i, 64, e.loc) * c.bv_val(eb, 64);
        return intV(readWord(p.region, off, eb), e.ty.bits);
      }
      case Expr::Deref: {
        LV p = eval(*e.args[0]);
        if (p.k != LV::Ptr) fail(e.loc, "dereference of a non-pointer");
        return intV(readWord(p.region, *p.e, e.ty.bits / 8), e.ty.bits);
      }
      case Expr::Assign: {
        const Expr &lhs = *e.args[0];
        if (lhs.kind != Expr::Var) fail(e.loc, "store through a pointer outside the vector stores (not in the RVV dialect)");
        LV rhs = eval(*e.args[1]);
        LV v;
        if (e.name.empty()) {
          v = convert(rhs, lhs.ty, e.loc);
        } else {
          LV cur = eval(lhs);
          v = arith(e.name, cur, rhs, lhs.ty, e.loc);
        }
        setVar(lhs.var, v);
        return v;
      }
      case Expr::IncDec: {
        const Expr &lhs = *e.args[0];
        if (lhs.kind != Expr::Var) fail(e.loc, "increment of a non-variable");
        LV cur = eval(lhs);
        LV one = intV(c.bv_val(1, lhs.ty.bits), lhs.ty.bits);
        LV v = arith(e.name.find("++") != std::string::npos ? "+" : "-", cur, one, lhs.ty, e.loc);
        setVar(lhs.var, v);
        return e.name.rfind("post", 0) == 0 ? cur : v;
      }
      case Expr::Call: return call(e);
      case Expr::Intrin: return intrinsic(e);
      default:
        fail(e.loc, "expression outside the RVV dialect");
    }
  }

  LV arith(const std::string &op, const LV &a, const LV &b, const Type &t, SrcLoc l) {
    if (a.k == LV::Ptr && (op == "+" || op == "-")) {
      LV r = a;
      z3::expr d = asInt(b, 64, l) * c.bv_val(a.elemBytes, 64);
      r.e = std::make_shared<z3::expr>(op == "+" ? *a.e + d : *a.e - d);
      return r;
    }
    unsigned w = t.kind == Type::Int ? t.bits : 64;
    z3::expr x = asInt(a, w, l), y = asInt(b, w, l);
    if (op == "+") return intV(x + y, w);
    if (op == "-") return intV(x - y, w);
    if (op == "*") return intV(x * y, w);
    if (op == "&") return intV(x & y, w);
    if (op == "|") return intV(x | y, w);
    if (op == "^") return intV(x ^ y, w);
    if (op == "<<") return intV(z3::shl(x, y), w);
    if (op == ">>") return intV(z3::lshr(x, y), w);
    if (op == "/") return intV(z3::udiv(x, y), w);
    if (op == "%") return intV(z3::urem(x, y), w);
    fail(l, "operator " + op + " outside the RVV dialect");
  }

  LV binary(const Expr &e) {
    const std::string &op = e.name;
    if (op == "&&" || op == "||") {
      z3::expr a = asBool(eval(*e.args[0]), e.loc), b = asBool(eval(*e.args[1]), e.loc);
      return boolV(op == "&&" ? (a && b) : (a || b));
    }
    LV a = eval(*e.args[0]), b = eval(*e.args[1]);
    if (op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=") {
      if (a.k == LV::Ptr || b.k == LV::Ptr) fail(e.loc, "pointer comparison outside the RVV dialect");
      unsigned w = std::max(a.k == LV::Int ? a.bits : 1u, b.k == LV::Int ? b.bits : 1u);
      z3::expr x = asInt(a, w, e.loc), y = asInt(b, w, e.loc);
      if (op == "==") return boolV(x == y);
      if (op == "!=") return boolV(x != y);
      if (op == "<") return boolV(z3::ult(x, y));
      if (op == "<=") return boolV(z3::ule(x, y));
      if (op == ">") return boolV(z3::ugt(x, y));
      return boolV(z3::uge(x, y));
    }
    if (a.k == LV::Ptr) return arith(op, a, b, e.ty, e.loc);
    Type t = e.ty;
    return arith(op, a, b, t, e.loc);
  }

  // A helper call: inlined (its parameters fresh slots, reference parameters aliasing the caller's
  // variables); a stitched Poly1305 helper is not expected here (the block steps are in loops).
  LV call(const Expr &e) {
    if (e.fn < 0) fail(e.loc, "call of an unknown function");
    const Function &g = F.funcs[(size_t)e.fn];
    if (kernelMode) {
      Contract gc = contractOf(g);
      if (gc.present && gc.role == "chacha20.block" && field(g.contract, "blocks") == "vl") return keystreamCall(e, g);
    }
    std::map<int, int> alias;
    std::vector<std::pair<int, LV>> vals;
    for (size_t k = 0; k < g.params.size() && k < e.args.size(); ++k) {
      int pv = g.params[k];
      if (F.vars[(size_t)pv].isRef) {
        const Expr *a = e.args[k].get();
        while (a->kind == Expr::Cast) a = a->args[0].get();
        if (a->kind != Expr::Var) fail(e.loc, "reference argument that is not a variable");
        alias[pv] = a->var;
      } else {
        vals.push_back({pv, convert(eval(*e.args[k]), F.vars[(size_t)pv].ty, e.loc)});
      }
    }
    refAlias.push_back(alias);
    for (auto &[pv, v] : vals) env[pv] = v;
    bool savedRet = returned;
    LV savedVal = retVal;
    returned = false;
    exec(*g.body);
    LV r = retVal;
    returned = savedRet;
    retVal = savedVal;
    refAlias.pop_back();
    return r;
  }

  // The (first) vsetvl row a helper uses.
  const Intrinsic *helperSetvl(const Function &g) {
    const Intrinsic *r = nullptr;
    std::function<void(const Expr &)> ex = [&](const Expr &e) {
      if (!r && e.kind == Expr::Intrin && isRvvSetvl(e.name)) r = findIntrinsic(e.name);
      for (const auto &a : e.args)
        if (a) ex(*a);
    };
    std::function<void(const Stmt &)> st = [&](const Stmt &x) {
      if (x.e) ex(*x.e);
      if (x.inc) ex(*x.inc);
      for (const StmtP *ch : {&x.init, &x.then, &x.els})
        if (*ch) st(**ch);
      for (const auto &b : x.body)
        if (b) st(*b);
    };
    if (g.body) st(*g.body);
    return r;
  }

  // A call of a proved "blocks": "vl" keystream helper: its result is what its chacha-block
  // obligation proves (1 <= vl <= the blocks asked when those are >= 1); its reference arguments
  // (the stitched accumulator) become unknowns.
  LV keystreamCall(const Expr &e, const Function &g) {
    auto arg = [&](const std::string &name) -> const Expr * {
      for (size_t k = 0; k < g.params.size() && k < e.args.size(); ++k)
        if (F.vars[(size_t)g.params[k]].name == name) return e.args[k].get();
      return nullptr;
    };
    std::string nbP;
    for (int pv : g.params) {
      const Var &v = F.vars[(size_t)pv];
      if (v.ty.kind == Type::Int && v.ty.bits == 64 && !v.isRef && v.ty.spelling.find("size_t") != std::string::npos) {
        nbP = v.name;
        break;
      }
    }
    std::string o = field(g.contract, "out"), in = field(g.contract, "in"), ct = field(g.contract, "counter");
    const Expr *eo = arg(o.empty() ? "out" : o), *ei = arg(in.empty() ? "in" : in), *ec = arg(ct.empty() ? "counter" : ct),
               *en = arg(nbP);
    if (!eo || !ei || !ec || !en) fail(e.loc, "call of " + g.name + " whose out, in, counter or block-count argument is not found");
    KsCall kc{&g, eval(*eo), eval(*ei), asInt(eval(*en), 64, e.loc), asInt(eval(*ec), 32, e.loc),
              c.bv_const(("ret#" + std::to_string(fresh++)).c_str(), 64), e.loc};
    pathCond.push_back(z3::ule(kc.ret, kc.nb));
    pathCond.push_back(z3::implies(z3::uge(kc.nb, c.bv_val(1, 64)), z3::uge(kc.ret, c.bv_val(1, 64))));
    pathCond.push_back(z3::ule(kc.ret, c.bv_val(32, 64)));
    if (const Intrinsic *row = helperSetvl(g))
      pathCond.push_back(z3::implies(z3::ule(kc.nb, c.bv_val(32, 64)) && z3::ule(kc.nb, vlmax(row->laneBits, row->lmul)), kc.ret == kc.nb));
    for (size_t k = 0; k < g.params.size() && k < e.args.size(); ++k)
      if (F.vars[(size_t)g.params[k]].isRef) {
        const Expr *a = e.args[k].get();
        while (a->kind == Expr::Cast) a = a->args[0].get();
        if (a->kind == Expr::Var)
          setVar(a->var, intV(c.bv_const(("ref#" + std::to_string(fresh++)).c_str(), a->ty.bits ? a->ty.bits : 64), a->ty.bits ? a->ty.bits : 64));
      }
    size_t mp = g.contract.find("\"mac\":{");
    if (mp != std::string::npos) {
      std::string sub = g.contract.substr(mp + 6);
      const Expr *em = arg(field(sub, "msg")), *eb = arg(field(sub, "blocks"));
      if (em && eb) {
        kc.mac = eval(*em);
        kc.nmac = std::make_shared<z3::expr>(asInt(eval(*eb), 64, e.loc));
      }
    }
    ksCalls.push_back(kc);
    LV r = intV(kc.ret, 64);
    return r;
  }

  // ---- RVV intrinsics, lane i ----
  z3::expr laneOf(const LV &v, SrcLoc l) {
    if (v.k != LV::Vec) fail(l, "vector operand that is not a vector");
    return *v.e;
  }

  LV intrinsic(const Expr &e) {
    const Intrinsic *in = findIntrinsic(e.name);
    if (!in || !in->rvv) fail(e.loc, "intrinsic '" + e.name + "' is not an RVV row of the semantics table (verify/src/intrinsics.cpp)");
    if (in->builtin != e.builtin && !(in->builtin.empty() && e.builtin.empty()))
      fail(e.loc, "intrinsic '" + e.name + "' expands to '" + e.builtin + "', the table expects '" + in->builtin + "'");
    std::vector<const Expr *> ax;
    if (!in->argmap.empty()) {
      for (int k : in->argmap) {
        if ((size_t)k >= e.args.size()) fail(e.loc, "intrinsic '" + e.name + "' has fewer arguments than the table expects");
        ax.push_back(e.args[(size_t)k].get());
      }
    } else {
      for (auto &a : e.args) ax.push_back(a.get());
    }
    if (ax.size() != in->roles.size()) fail(e.loc, "intrinsic '" + e.name + "' called with the wrong number of arguments");
    const unsigned sew = in->laneBits;
    const std::string base = e.name.substr(8, e.name.find('_', 8) - 8);  // vadd, vxor, vsetvl, ...
    if (in->cls == Cls::SetVL) {
      z3::expr avl = asInt(eval(*ax[0]), 64, e.loc);
      z3::expr vl = c.bv_const(("vl" + std::to_string(setvls.size())).c_str(), 64);
      // The row's relation (RVV 1.0 section 6.3, tested under QEMU) at VLMAX = VLEN * LMUL / SEW,
      // one VLEN for the whole run, any of 128, 256, 512, 1024.
      z3::expr vm = vlmax(sew, in->lmul);
      std::vector<z3::expr> as = {z3::implies(z3::ule(avl, vm), vl == avl),
                                  z3::implies(z3::uge(avl, vm * c.bv_val(2, 64)), vl == vm),
                                  z3::implies(z3::ugt(avl, vm) && z3::ult(avl, vm * c.bv_val(2, 64)),
                                              z3::uge(vl, z3::lshr(avl + c.bv_val(1, 64), c.bv_val(1, 64))) && z3::ule(vl, vm))};
      for (auto &a : as) pathCond.push_back(a);
      setvls.push_back({vl, avl});
      setvlRows.push_back(in);
      return intV(vl, 64);
    }
    // The VL argument (last) bounds the lanes; the lane evaluated is i < that vl (checked below).
    z3::expr vl = asInt(eval(*ax.back()), 64, e.loc);
    bool seenVl = false;
    for (size_t k = activeBase; k < activeVls.size(); ++k) seenVl = seenVl || z3::eq(activeVls[k], vl);
    if (!seenVl) activeVls.push_back(vl);
    // Its vl must fit the register group of its own type (a vl from a vsetvl of another SEW/LMUL
    // may exceed it: RVV 1.0 section 6 reserves vl > VLMAX).
    {
      z3::expr vm = vlmax(sew, in->lmul);
      bool seen = false;  // one check per (vl, SEW/LMUL): the rest ask the solver the same question
      for (const auto &ov : opVls) seen = seen || (z3::eq(ov.vl, vl) && z3::eq(ov.vlmax, vm));
      if (!seen) opVls.push_back({vl, vm, e.name, e.loc});
    }
    auto vec = [&](size_t k) { return laneOf(eval(*ax[k]), ax[k]->loc); };
    auto scalar = [&](size_t k) { return asInt(eval(*ax[k]), 64, ax[k]->loc); };
    z3::expr sewMask = c.bv_val(sew - 1, 64);
    if (base == "vmv") return vecV(scalar(0).extract(sew - 1, 0), sew);
    if (base == "vid") return vecV(laneVar().extract(sew - 1, 0), sew);
    if (base == "vadd") return vecV(vec(0) + vec(1), sew);
    if (base == "vxor") return vecV(vec(0) ^ vec(1), sew);
    if (base == "vor") {
      z3::expr a = vec(0), b = vec(1);
      return vecV(rotIdiom(a, b, sew), sew);
    }
    if (base == "vsll" || base == "vsrl") {
      // Only the low log2(SEW) bits of the amount count (the row's model); a constant amount is
      // kept as a shift by that constant, so that the rotation idiom is recognised.
      z3::expr a = vec(0), s = (scalar(1) & sewMask).simplify();
      z3::expr amt = s.is_numeral() ? c.bv_val(s.get_numeral_uint64(), sew) : s.extract(sew - 1, 0);
      return vecV(base == "vsll" ? z3::shl(a, amt) : z3::lshr(a, amt), sew);
    }
    if (in->cls == Cls::Load) {
      LV p = eval(*ax[0]);
      if (p.k != LV::Ptr) fail(e.loc, "load from a non-pointer");
      z3::expr stride = in->roles.size() == 3 ? scalar(1) : c.bv_val(sew / 8, 64);
      z3::expr off = *p.e + laneVar() * stride;
      loads.push_back({p.region, off, stride, sew / 8, vl, e.loc});
      return vecV(readWord(p.region, off, sew / 8), sew);
    }
    if (in->cls == Cls::Store) {
      LV p = eval(*ax[0]);
      if (p.k != LV::Ptr) fail(e.loc, "store to a non-pointer");
      bool strided = in->roles.size() == 4;
      z3::expr stride = strided ? scalar(1) : c.bv_val(sew / 8, 64);
      z3::expr val = laneOf(eval(*ax[strided ? 2 : 1]), e.loc);
      if (!stride.simplify().is_numeral()) fail(e.loc, "store stride is not a constant");
      uint64_t st = stride.simplify().get_numeral_uint64();
      if (st < sew / 8) fail(e.loc, "store stride " + std::to_string(st) + " is smaller than the element: lanes overlap");
      StoreRec s;
      s.region = p.region;
      s.off = std::make_shared<z3::expr>(p.e->simplify());
      s.stride = std::make_shared<z3::expr>(stride.simplify());
      s.vl = std::make_shared<z3::expr>(vl);
      s.value = std::make_shared<z3::expr>(val);
      s.laneVar = std::make_shared<z3::expr>(laneVar());
      s.eb = sew / 8;
      s.loc = e.loc;
      stores.push_back(s);
      return LV{};
    }
    fail(e.loc, "RVV intrinsic '" + e.name + "' has no symbolic rule here (verify/src/rvv.cpp)");
  }

  // (x << k) | (x >> (w - k)) with the same x is x rotated left by k (an identity on the terms).
  z3::expr rotIdiom(const z3::expr &a, const z3::expr &b, unsigned w) {
    auto shiftBy = [&](const z3::expr &x, Z3_decl_kind k, unsigned &amt, z3::expr &src) {
      if (!x.is_app() || x.decl().decl_kind() != k || x.num_args() != 2 || !x.arg(1).is_numeral()) return false;
      amt = (unsigned)x.arg(1).get_numeral_uint64();
      src = x.arg(0);
      return true;
    };
    unsigned ka = 0, kb = 0;
    z3::expr sa = a, sb = b;
    if (shiftBy(a, Z3_OP_BSHL, ka, sa) && shiftBy(b, Z3_OP_BLSHR, kb, sb) && z3::eq(sa, sb) && ka + kb == w && ka > 0 && ka < w)
      return sa.rotate_left(ka);
    return a | b;
  }

  // The lane variable of the current scope (the symbolic lane i, or a map loop's lane e).
  std::vector<z3::expr> laneStack;
  z3::expr laneVar() { return laneStack.empty() ? lane : laneStack.back(); }
  std::vector<z3::expr> activeVls;  // the distinct vls of the vector operations (the lane is below each)
  struct OpVl {
    z3::expr vl, vlmax;  // the operation's vl and VLMAX = VLEN * LMUL / SEW of its type
    std::string name;
    SrcLoc loc;
  };
  std::vector<OpVl> opVls;
  size_t activeBase = 0;            // where the current scope's (a strip-mined loop's) vls start
  struct LoadRec {
    std::string region;
    z3::expr off, stride;
    unsigned eb;
    z3::expr vl;
    SrcLoc loc;
  };
  std::vector<LoadRec> loads;

  // ---- segment mode (a stitched helper's Poly1305 loops, proveMacLoopRvv) ----
  // Each poly1305.blocks loop `for (k = A; k < B; ++k)` absorbs blocks [E, E + 16 (B - A)) of its
  // message, E the offset its first iteration reads (its block-step obligation proves one block
  // per iteration, the next 16 bytes on).
  bool segMode = false;
  struct Segment {
    z3::expr a, b, e;
    std::string region;
    SrcLoc loc;
    // The loop's accumulator limbs (its contract's acc, low first) as the loop found them and as it
    // left them (fresh constants: the Horner result its block-step obligation proves): the helper's
    // accumulator must run through the loops in order, entry -> first loop -> ... -> exit.
    std::vector<z3::expr> hin, hout;
  };
  std::vector<Segment> segments;
  std::string recordRegion;
  std::vector<z3::expr> recorded;
  void segment(const Stmt &s, const Contract &ct) {
    if (s.kind != Stmt::For || !s.init || !s.e || !s.inc || s.e->kind != Expr::Bin || s.e->name != "<" ||
        s.e->args[0]->kind != Expr::Var)
      fail(s.loc, "a Poly1305 loop that is not `for (k = A; k < B; ++k)`");
    const Expr &inc = *s.inc;
    if (!(inc.kind == Expr::IncDec && inc.name.find("++") != std::string::npos && inc.args[0]->kind == Expr::Var &&
          inc.args[0]->var == s.e->args[0]->var))
      fail(s.loc, "a Poly1305 loop whose counter does not step by one");
    auto saved = env;
    exec(*s.init);
    int kv = s.e->args[0]->var;
    z3::expr A = asInt(slot(kv, s.loc), 64, s.loc), B = asInt(eval(*s.e->args[1]), 64, s.loc);
    LV msg = slot(varNamed(ct.msg, s.loc), s.loc);
    if (msg.k != LV::Ptr) fail(s.loc, "the Poly1305 loop's message " + ct.msg + " is not a pointer");
    recordRegion = msg.region;
    recorded.clear();
    exec(*s.then);
    recordRegion.clear();
    if (recorded.empty()) fail(s.loc, "the Poly1305 loop reads no byte of " + ct.msg);
    segments.push_back({A, B, recorded[0], msg.region, s.loc});
    env = saved;
  }
  int varNamed(const std::string &n, SrcLoc l) {
    for (const auto &[id, v] : env)
      if (F.vars[(size_t)id].name == n) return id;
    fail(l, "no variable " + n);
  }

  // ---- statements ----
  void exec(const Stmt &s) {
    if (returned) return;
    switch (s.kind) {
      case Stmt::Null:
      case Stmt::Break:
      case Stmt::Continue:
        if (s.kind != Stmt::Null) fail(s.loc, "break/continue outside the RVV dialect");
        return;
      case Stmt::Block:
        for (const auto &b : s.body)
          if (b && !returned) exec(*b);
        return;
      case Stmt::Decl: {
        const Var &v = F.vars[(size_t)s.var];
        if (v.ty.kind == Type::Array) {
          LV p;
          p.k = LV::Ptr;
          p.region = "@" + v.name + "#" + std::to_string(fresh++);
          p.e = std::make_shared<z3::expr>(c.bv_val(0, 64));
          p.elemBytes = v.ty.bits / 8;
          env[s.var] = p;
          arrBytes[p.region] = v.ty.count * (v.ty.bits / 8);
          arrAlign[p.region] = v.ty.bits / 8;
          if (s.e) fail(s.loc, "initialised local array outside the RVV dialect");
          return;
        }
        if (s.e) {
          env[s.var] = convert(eval(*s.e), v.ty, s.loc);
          if (v.ty.kind == Type::Vec && !firstVals.count(v.name)) firstVals.emplace(v.name, *env[s.var].e);
        }
        else if (v.ty.kind == Type::Int) env[s.var] = intV(c.bv_const((v.name + "#u" + std::to_string(fresh++)).c_str(), v.ty.bits), v.ty.bits);
        return;
      }
      case Stmt::ExprS:
        if (s.e) eval(*s.e);
        return;
      case Stmt::Return:
        if (s.e) retVal = eval(*s.e);
        returned = true;
        return;
      case Stmt::If: {
        z3::expr cnd = asBool(eval(*s.e), s.loc).simplify();
        bool take;
        if (cnd.is_true()) take = true;
        else if (cnd.is_false()) take = false;
        else {
          if (nextChoice < choices.size()) take = choices[nextChoice];
          else {
            take = false;
            moreChoices = true;
            choices.push_back(false);
          }
          ++nextChoice;
          pathCond.push_back(take ? cnd : !cnd);
        }
        if (take) exec(*s.then);
        else if (s.els) exec(*s.els);
        return;
      }
      case Stmt::For:
      case Stmt::While:
      case Stmt::DoWhile:
        loop(s);
        return;
    }
  }

  // Variables a statement assigns (directly, or as reference arguments of calls).
  void assigned(const Stmt &s, std::set<int> &out, std::set<int> &decl, bool &stores) {
    std::function<void(const Expr &)> ex = [&](const Expr &e) {
      if ((e.kind == Expr::Assign || e.kind == Expr::IncDec) && e.args[0]) {
        if (e.args[0]->kind == Expr::Var) out.insert(e.args[0]->var);
        else stores = true;
      }
      if (e.kind == Expr::Intrin && (isRvvIntrinsic(e.name) || e.ty.kind == Type::Void)) stores = true;
      if (e.kind == Expr::Call && e.fn >= 0) {
        const Function &g = F.funcs[(size_t)e.fn];
        for (size_t k = 0; k < g.params.size() && k < e.args.size(); ++k)
          if (F.vars[(size_t)g.params[k]].isRef) {
            const Expr *a = e.args[k].get();
            while (a->kind == Expr::Cast) a = a->args[0].get();
            if (a->kind == Expr::Var) out.insert(a->var);
            else stores = true;
          }
        std::set<int> o2, d2;
        bool st2 = false;
        assigned(*g.body, o2, d2, st2);
        if (st2) stores = true;
      }
      for (const auto &a : e.args)
        if (a) ex(*a);
    };
    if (s.kind == Stmt::Decl) decl.insert(s.var);
    if (s.e) ex(*s.e);
    if (s.inc) ex(*s.inc);
    for (const StmtP *ch : {&s.init, &s.then, &s.els})
      if (*ch) assigned(**ch, out, decl, stores);
    for (const auto &b : s.body)
      if (b) assigned(*b, out, decl, stores);
  }

  void loop(const Stmt &s) {
    Contract ct = contractOf(s);
    // A stitched Poly1305 loop: proved by block-step; here it must leave the keystream alone.
    if (ct.present && ct.role == "poly1305.blocks") {
      std::set<int> out, decl;
      bool st = false;
      assigned(s, out, decl, st);
      if (segMode) {
        std::vector<z3::expr> hin;
        for (const auto &a : ct.acc) hin.push_back(asInt(slot(varNamed(a, s.loc), s.loc), 64, s.loc));
        segment(s, ct);
        segments.back().hin = std::move(hin);
      }
      if (st) fail(s.loc, "the Poly1305 loop stores to memory or runs vector code: it is not independent of the keystream");
      // Its message may be the text this helper writes (an in-place open MACs its ciphertext at
      // any offset of the buffer): every MAC read comes before the first store into out.
      for (const StoreRec &w : stores)
        if (w.region == outP)
          fail(s.loc, "in place: the Poly1305 loop reads its message after a store into " + outP + " (line " +
                          std::to_string(w.loc.line) + "): its MAC reads must all come first, the message may be the text it writes");
      for (int v : out) {
        if (decl.count(v)) continue;
        bool acc = false;
        for (const auto &a : ct.acc) acc = acc || F.vars[(size_t)v].name == a;
        if (!acc) fail(s.loc, "the Poly1305 loop writes '" + F.vars[(size_t)v].name + "', not only its accumulator");
      }
      for (int v : out)  // the accumulator: unknown afterwards (the keystream never reads it)
        if (!decl.count(v) && env.count(v)) env[v] = intV(c.bv_const(("h#" + std::to_string(fresh++)).c_str(), F.vars[(size_t)v].ty.bits), F.vars[(size_t)v].ty.bits);
      if (segMode)
        for (const auto &a : ct.acc) segments.back().hout.push_back(asInt(slot(varNamed(a, s.loc), s.loc), 64, s.loc));
      return;
    }
    if (s.kind == Stmt::For) {
      if (s.init) exec(*s.init);
      for (int it = 0; it < 64; ++it) {
        z3::expr cnd = s.e ? asBool(eval(*s.e), s.loc).simplify() : c.bool_val(true);
        if (cnd.is_false()) return;
        if (!cnd.is_true()) fail(s.loc, "loop whose trip count is not a constant (not a strip-mined map or a contract loop)");
        exec(*s.then);
        if (s.inc) eval(*s.inc);
      }
      fail(s.loc, "loop of more than 64 iterations");
    }
    if (s.kind == Stmt::While) return stripMined(s);
    fail(s.loc, "loop outside the RVV dialect");
  }

  // while (o < N) { vl8 = vsetvl(N - o); ...loads at + o, one store at out + o...; o = o + vl8; }
  void stripMined(const Stmt &s) {
    const Expr &cnd = *s.e;
    if (cnd.kind != Expr::Bin || cnd.name != "<" || cnd.args[0]->kind != Expr::Var)
      fail(s.loc, "a while loop that is not a strip-mined map `while (o < N)`");
    int ov = cnd.args[0]->var;
    LV o0 = slot(ov, s.loc);
    z3::expr N = asInt(eval(*cnd.args[1]), 64, s.loc);
    if (!asInt(o0, 64, s.loc).simplify().is_numeral() || asInt(o0, 64, s.loc).simplify().get_numeral_uint64() != 0)
      fail(s.loc, "strip-mined loop whose index does not start at 0");
    vlen();  // (the VLEN assumption stays when the iteration's conditions are dropped below)
    z3::expr oh = c.bv_const(("o#" + std::to_string(fresh++)).c_str(), 64);
    z3::expr e = c.bv_const(("e#" + std::to_string(fresh++)).c_str(), 64);
    env[ov] = intV(oh, 64);
    size_t s0 = stores.size(), v0 = setvls.size(), a0 = activeVls.size(), p0 = pathCond.size(), l0 = loads.size();
    const size_t ov0 = opVls.size();
    laneStack.push_back(e);
    size_t savedBase = activeBase;
    activeBase = activeVls.size();
    exec(*s.then);
    activeBase = savedBase;
    laneStack.pop_back();
    z3::expr oEnd = asInt(slot(ov, s.loc), 64, s.loc);
    if (stores.size() != s0 + 1 || setvls.size() != v0 + 1)
      fail(s.loc, "strip-mined loop body with other than one vsetvl and one store");
    StoreRec st = stores.back();
    stores.pop_back();
    z3::expr vl8 = setvls.back().first, avl = setvls.back().second;
    std::vector<z3::expr> hyp(pathCond.begin(), pathCond.end());
    hyp.push_back(z3::ult(oh, N));
    hyp.push_back(z3::ult(e, vl8));
    // The pieces of the strip-mining lemma, each a small query.
    std::string why;
    auto holds = [&](const z3::expr &claim) {
      z3::solver sv(c);
      for (auto &h : hyp) sv.add(h);
      sv.add(!claim);
      return answers::checkCached(sv) == z3::unsat;
    };
    if (!holds(avl == N - oh)) fail(s.loc, "the strip-mined loop's vsetvl does not ask for the bytes left (N - o)");
    if (!holds(oEnd == oh + vl8)) fail(s.loc, "the strip-mined loop does not advance its index by the vl its vsetvl returned");
    for (size_t k = a0; k < activeVls.size(); ++k)
      if (!holds(activeVls[k] == vl8)) fail(s.loc, "a vector operation of the strip-mined loop runs at another vl than its vsetvl's");
    for (size_t k = ov0; k < opVls.size(); ++k)
      if (!holds(z3::ule(opVls[k].vl, opVls[k].vlmax)))
        fail(opVls[k].loc, opVls[k].name + " may run at a vl above VLMAX of its type (VLEN * LMUL / SEW): its vl comes "
                           "from a vsetvl of another SEW/LMUL");
    opVls.erase(opVls.begin() + (long)ov0, opVls.end());
    if (st.eb != 1 || !z3::eq(st.stride->simplify(), c.bv_val(1, 64).simplify()))
      fail(st.loc, "the strip-mined store is not a unit-stride byte store");
    // Store at (region, off + e): off must be o (the loop writes x = o + e).
    if (!holds(*st.off == oh)) fail(st.loc, "the strip-mined store is not at the loop index o");
    for (size_t k = l0; k < loads.size(); ++k) {
      if (!holds(loads[k].off == oh + e * loads[k].stride) || !z3::eq(loads[k].stride.simplify(), c.bv_val(loads[k].eb, 64).simplify()) || loads[k].eb != 1)
        fail(loads[k].loc, "a strip-mined load is not a unit-stride byte load at the loop index o");
      if (loads[k].region.rfind("@", 0) == 0) arrMapReads.push_back({loads[k].region, N, loads[k].loc});
    }
    // The stored value depends on x = o + e only.
    z3::expr x = c.bv_const(("x#" + std::to_string(fresh++)).c_str(), 64);
    z3::expr_vector from(c), to(c);
    from.push_back(oh);
    from.push_back(e);
    to.push_back(x);
    to.push_back(c.bv_val(0, 64));
    z3::expr vx = st.value->substitute(from, to);
    {
      z3::expr_vector f2(c), t2(c);
      f2.push_back(x);
      t2.push_back(oh + e);
      if (!holds(vx.substitute(f2, t2) == *st.value))
        fail(st.loc, "the value the strip-mined loop stores at o + e is not a function of o + e");
    }
    // In place (out == in): an iteration's loads read only bytes at or above o; earlier
    // iterations wrote only below o. Disjoint buffers: no interference at all.
    // Keep what came before the loop, replace the iteration by its map.
    pathCond.erase(pathCond.begin() + (long)p0, pathCond.end());
    setvls.erase(setvls.begin() + (long)v0, setvls.end());
    activeVls.erase(activeVls.begin() + (long)a0, activeVls.end());
    loads.erase(loads.begin() + (long)l0, loads.end());
    StoreRec m;
    m.region = st.region;
    m.kind = StoreRec::Map;
    m.n = std::make_shared<z3::expr>(N);
    m.mapVal = std::make_shared<z3::expr>(vx);
    m.xVar = std::make_shared<z3::expr>(x);
    m.loc = st.loc;
    stores.push_back(m);
    env[ov] = intV(N, 64);
    mapLoops.push_back({st.region, N, st.loc});
  }
  struct MapLoop {
    std::string region;
    z3::expr n;
    SrcLoc loc;
  };
  std::vector<MapLoop> mapLoops;
  // Local arrays: their size in bytes (region "@name#k"), and the byte ranges [0, n) strip-mined
  // loops read from them (each iteration's loads are dropped once the loop is a map).
  std::map<std::string, uint64_t> arrBytes;
  std::map<std::string, uint64_t> arrAlign;  // and their alignment (the element's size)
  std::vector<MapLoop> arrMapReads;
  std::map<std::string, z3::expr> firstVals;  // vector variables: the value they are declared with

  // The word-sliced input state: the values x0..x15 are declared with (lane i).
  bool firstState(std::vector<z3::expr> &st) {
    st.clear();
    for (unsigned k = 0; k < 16; ++k) {
      auto it = firstVals.find("x" + std::to_string(k));
      if (it == firstVals.end()) return false;
      st.push_back(it->second);
    }
    return true;
  }

  void bindParams() {
    for (int pv : fn.params) {
      const Var &v = F.vars[(size_t)pv];
      if (v.ty.kind == Type::Ptr || v.ty.kind == Type::Array) {
        LV p;
        p.k = LV::Ptr;
        p.region = regionOf(v.name);
        p.e = std::make_shared<z3::expr>(c.bv_val(0, 64));
        p.elemBytes = v.ty.bits >= 8 ? v.ty.bits / 8 : 1;
        env[pv] = p;
      } else if (v.ty.kind == Type::Int) {
        env[pv] = intV(c.bv_const(v.name.c_str(), v.ty.bits), v.ty.bits);
      }
    }
  }
};

using Clock = std::chrono::steady_clock;


unsigned dagSize(const z3::expr &e, std::set<unsigned> &seen) {
  if (!seen.insert(e.id()).second) return 0;
  unsigned n = 1;
  if (e.is_app())
    for (unsigned k = 0; k < e.num_args(); ++k) n += dagSize(e.arg(k), seen);
  return n;
}

}  // namespace

// Whether the conjunction of `claims` proves under `hyp` (true for none): claims that share their
// hypotheses are asked at once, and one at a time only when this fails (for the message).
static bool allProve(z3::context &c, const std::vector<z3::expr> &hyp, const std::vector<z3::expr> &claims,
                     const std::vector<std::pair<std::string, z3::expr>> &shown) {
  if (claims.empty()) return true;
  z3::expr_vector all(c);
  for (const auto &e : claims) all.push_back(e);
  std::string ignored;
  return prove(c, hyp, z3::mk_and(all), 20000, shown, ignored) == Res::OK;
}

void proveChachaBlockRvv(const File &f, const Function &fn, const Contract &ct, Obligation &o) {
  (void)ct;
  const std::string outP = field(fn.contract, "out").empty() ? "out" : field(fn.contract, "out");
  const std::string inP = field(fn.contract, "in").empty() ? "in" : field(fn.contract, "in");
  const std::string keyP = field(fn.contract, "key").empty() ? "key" : field(fn.contract, "key");
  const std::string nonceP = field(fn.contract, "nonce").empty() ? "nonce" : field(fn.contract, "nonce");
  const std::string ctrP = field(fn.contract, "counter").empty() ? "counter" : field(fn.contract, "counter");
  const bool xorIn = field(fn.contract, "xor") == "true";
  o.what = "lane i < vl (symbolic vl, every VLEN 128..1024): " + outP + "[64 i .. 64 i + 64) = " +
           (xorIn ? inP + " XOR " : "") + "RFC 8439 2.3 block for " + ctrP + " + i; writes only " + outP +
           "[0, 64 vl); 1 <= vl <= the blocks asked for, in " + fn.name;
  if (field(fn.contract, "blocks") != "vl") {
    o.res = Res::FAILED;
    o.cex = fn.name + ": a helper with RVV vectors must say \"blocks\": \"vl\" in its chacha20.block contract";
    return;
  }
  // The blocks asked for: the helper's size_t parameter that is not a pointer, the counter or a limb.
  std::string nbP;
  for (int pv : fn.params) {
    const Var &v = f.vars[(size_t)pv];
    if (v.ty.kind == Type::Int && v.ty.bits == 64 && !v.isRef && v.ty.spelling.find("size_t") != std::string::npos) {
      nbP = v.name;
      break;
    }
  }
  if (nbP.empty()) {
    o.res = Res::FAILED;
    o.cex = fn.name + " has no size_t parameter for the number of blocks asked for";
    return;
  }
  unsigned paths = 0, queries = 0, mapped = 0, maxDag = 0;
  for (int mode = 0; mode < (xorIn ? 2 : 1); ++mode) {
    const bool inPlace = mode == 1;
    std::vector<bool> choices;
    for (int guard = 0; guard < 64; ++guard) {
      z3::context c;
      LaneEval ev(f, c, fn, inPlace, outP, xorIn ? inP : "", choices);
      std::string where = std::string(inPlace ? "out == in" : "disjoint buffers") + ", path " + std::to_string(paths + 1);
      try {
        ev.bindParams();
        ev.exec(*fn.body);
      } catch (Stop &) {
        o.res = Res::FAILED;
        o.cex = "cannot evaluate " + fn.name + " lane by lane: " + ev.err + " (line " + std::to_string(ev.errLoc.line) + ")";
        return;
      }
      ++paths;
      // Inputs and hypotheses.
      z3::expr i = ev.lane;
      z3::expr nb0 = c.bv_const(nbP.c_str(), 64), ctr = c.bv_const(ctrP.c_str(), 32);
      if (!ev.returned || ev.retVal.k != LV::Int) {
        o.res = Res::FAILED;
        o.cex = fn.name + " does not return the number of blocks it computed (" + where + ")";
        return;
      }
      z3::expr ret = ev.asInt(ev.retVal, 64, fn.loc);
      std::vector<z3::expr> hyp = ev.pathCond;
      std::vector<std::pair<std::string, z3::expr>> shown = {{nbP, nb0}, {"vl (returned)", ret}, {"lane i", i}, {ctrP, ctr}};
      std::string cex;
      bool collecting = false;      // gather the claims of (2)-(4) instead of asking them
      size_t batchBase = 0;         // hyp's size when gathering began
      std::vector<z3::expr> pending;
      auto check = [&](const z3::expr &claim, const std::string &what, unsigned ms = 20000) {
        if (collecting) {
          z3::expr_vector extra(c);
          for (size_t k = batchBase; k < hyp.size(); ++k) extra.push_back(hyp[k]);
          pending.push_back(extra.empty() ? claim : z3::implies(z3::mk_and(extra), claim));
          return true;
        }
        ++queries;
        Res r = prove(c, hyp, claim, ms, shown, cex);
        if (r != Res::OK) {
          o.res = r;
          o.cex = what + " (" + where + "): " + cex;
          return false;
        }
        return true;
      };
      // The first byte lane l of a (strided or unit-stride) store writes: its offset with the lane
      // variable replaced by l, plus l strides.
      auto storeByte = [&](const StoreRec &s, const z3::expr &l) {
        z3::expr_vector from(c), to(c);
        from.push_back(*s.laneVar);
        to.push_back(l);
        return s.off->substitute(from, to) + l * *s.stride;
      };
      // (1) vl: returned, within what was asked for and what the buffers hold.
      if (!check(z3::ule(ret, nb0), "the helper may return more blocks than it was asked for (" + nbP + ")")) return;
      if (!check(z3::implies(z3::uge(nb0, c.bv_val(1, 64)), z3::uge(ret, c.bv_val(1, 64))), "the helper may return 0 blocks when asked for some")) return;
      if (!check(z3::ule(ret, c.bv_val(32, 64)), "the helper may compute more than 32 blocks (its keystream buffer and the callers' limit)")) return;
      // (RVV: vsetvl gives exactly the AVL when it fits VLMAX, so a caller that asks for at most
      // VLMAX blocks of the same SEW/LMUL, and at most 32, gets exactly those.)
      if (ev.setvlRows.empty()) {
        o.res = Res::FAILED;
        o.cex = fn.name + " has no vsetvl";
        return;
      }
      {
        z3::expr vm = ev.vlmax(ev.setvlRows[0]->laneBits, ev.setvlRows[0]->lmul);
        hyp = ev.pathCond;
        if (!check(z3::implies(z3::ule(nb0, c.bv_val(32, 64)) && z3::ule(nb0, vm), ret == nb0),
                   "the helper may return fewer blocks than asked although they fit VLMAX and 32")) return;
      }
      // The lane evaluated is a lane every vector operation computes: i < vl = every op's vl.
      hyp.push_back(z3::ult(i, ret));
      // These claims share one hypothesis set: their conjunction is asked first, and only when it
      // does not prove is each asked alone (for the failure to name).
      std::vector<std::pair<z3::expr, std::string>> vlClaims;
      for (size_t k = 0; k < ev.activeVls.size(); ++k)
        vlClaims.push_back({ev.activeVls[k] == ret, "a vector operation runs at a vl other than the one returned"});
      for (const auto &ov : ev.opVls)
        vlClaims.push_back({z3::ule(ov.vl, ov.vlmax), ov.name + " (line " + std::to_string(ov.loc.line) +
                            ") may run at a vl above VLMAX of its type (VLEN * LMUL / SEW): its vl comes from a vsetvl of another SEW/LMUL"});
      std::vector<z3::expr> vlExprs;
      for (const auto &vc : vlClaims) vlExprs.push_back(vc.first);
      ++queries;
      if (!allProve(c, hyp, vlExprs, shown))
        for (const auto &[claim, what] : vlClaims)
          if (!check(claim, what)) return;
      // (2)-(4) are asked as one conjunction (each claim under its own extra hypotheses, as an
      // implication) and, only when that does not prove, again one by one in the same order for the
      // failure to name: the first pass (`collecting`) gathers the claims, the second asks them.
      auto obligations = [&]() -> bool {
        // (2) Every store through out stays in out[0, 64 vl); stores elsewhere go to local arrays.
        //     A strided store of the state keeps lane l inside block l (bytes [64 l, 64 l + 64)).
        for (const StoreRec &s : ev.stores) {
          if (s.kind == StoreRec::Strided) {
            z3::expr l = c.bv_const("l", 64), t = c.bv_const("t", 64);
            z3::expr at = storeByte(s, l) + t;
            std::vector<z3::expr> h2 = hyp;
            hyp.push_back(z3::ult(l, *s.vl));
            hyp.push_back(z3::ult(t, c.bv_val(s.eb, 64)));
            hyp.push_back(z3::ule(l, c.bv_val(64, 64)));
            shown.push_back({"store lane", l});
            bool ok = check(z3::ule(l * c.bv_val(64, 64), at) && z3::ult(at, l * c.bv_val(64, 64) + c.bv_val(64, 64)),
                            "the store at line " + std::to_string(s.loc.line) + " (stride " + std::to_string(s.stride->get_numeral_uint64()) +
                                ") writes lane l outside block l, bytes [64 l, 64 l + 64) of " + s.region, 5000);
            shown.pop_back();
            hyp = h2;
            if (!ok) return false;
          }
          // Where the store may write: out[0, 64 vl), or a local array [0, its size) at every VLEN.
          const bool local = s.region.rfind("@", 0) == 0;
          std::string dest = outP + "[0, 64 vl)";
          z3::expr limit = ret * c.bv_val(64, 64);
          if (local) {
            auto ab = ev.arrBytes.find(s.region);
            if (ab == ev.arrBytes.end()) {
              o.res = Res::FAILED;
              o.cex = "a store at line " + std::to_string(s.loc.line) + " writes a local array of unknown size (" + where + ")";
              return false;
            }
            dest = s.region.substr(1, s.region.find('#') - 1) + " (" + std::to_string(ab->second) + " bytes)";
            limit = c.bv_val(ab->second, 64);
          } else if (s.region != outP) {
            o.res = Res::FAILED;
            o.cex = "a store at line " + std::to_string(s.loc.line) + " writes through '" + s.region + "', not " + outP + " (" + where + ")";
            return false;
          }
          if (s.kind == StoreRec::Map) {
            if (!check(z3::ule(*s.n, limit), "the strip-mined store at line " + std::to_string(s.loc.line) + " writes past " + dest)) return false;
            continue;
          }
          z3::expr l = c.bv_const("l", 64), t = c.bv_const("t", 64);
          z3::expr lo = storeByte(s, l) + t;
          std::vector<z3::expr> h2 = hyp;
          hyp.push_back(z3::ult(l, *s.vl));
          hyp.push_back(z3::ult(t, c.bv_val(s.eb, 64)));
          shown.push_back({"store lane", l});
          bool ok = check(z3::ult(lo, limit) && z3::ule(*s.off, lo),
                          "the store at line " + std::to_string(s.loc.line) + " may write outside " + dest + (local ? " at some VLEN" : ""));
          shown.pop_back();
          hyp = h2;
          if (!ok) return false;
        }
        // (2b) Every read of a local array lies inside it: vector loads of lane i (every lane below
        //      vl), and the byte ranges the strip-mined loops read.
        for (const auto &ld : ev.loads) {
          if (ld.region.rfind("@", 0) != 0) continue;
          auto ab = ev.arrBytes.find(ld.region);
          if (ab == ev.arrBytes.end()) continue;
          const std::string arr = ld.region.substr(1, ld.region.find('#') - 1);
          z3::expr t = c.bv_const("t", 64);
          std::vector<z3::expr> h2 = hyp;
          hyp.push_back(z3::ult(t, c.bv_val(ld.eb, 64)));
          bool ok = check(z3::ult(ld.off + t, c.bv_val(ab->second, 64)), "the load at line " + std::to_string(ld.loc.line) +
                                                                             " may read past the end of " + arr + " (" + std::to_string(ab->second) + " bytes)");
          hyp = h2;
          if (!ok) return false;
        }
        for (const auto &rd : ev.arrMapReads) {
          auto ab = ev.arrBytes.find(rd.region);
          if (ab == ev.arrBytes.end()) continue;
          const std::string arr = rd.region.substr(1, rd.region.find('#') - 1);
          if (!check(z3::ule(rd.n, c.bv_val(ab->second, 64)), "the strip-mined loop at line " + std::to_string(rd.loc.line) +
                                                                  " reads past the end of " + arr + " (" + std::to_string(ab->second) + " bytes)")) return false;
        }
        // (2c) Every vector element access wider than a byte is naturally aligned (RVV 1.0 lets a
        //      core trap a misaligned element access; QEMU does not, so no test would see it): the
        //      parameters' addresses are unknown (uint8_t *), so the code's own alignment test on the
        //      path must imply it; a local array is aligned to its element type.
        {
          std::vector<z3::expr> h2 = hyp;
          for (const auto &[r, al] : ev.arrAlign)
            if (al > 1) hyp.push_back((c.bv_const(("&" + r).c_str(), 64) & c.bv_val(al - 1, 64)) == c.bv_val(0, 64));
          bool ok = true;
          for (const StoreRec &s : ev.stores) {
            if (s.kind != StoreRec::Strided || s.eb <= 1) continue;
            z3::expr l = c.bv_const("l", 64);
            z3::expr at = c.bv_const(("&" + s.region).c_str(), 64) + storeByte(s, l);
            std::vector<z3::expr> h3 = hyp;
            hyp.push_back(z3::ult(l, *s.vl));
            ok = check((at & c.bv_val(s.eb - 1, 64)) == c.bv_val(0, 64), "the " + std::to_string(8 * s.eb) + "-bit element store at line " +
                                                                            std::to_string(s.loc.line) + " may be misaligned (no alignment test on its path implies it)");
            hyp = h3;
            if (!ok) break;
          }
          for (const auto &ld : ev.loads) {
            if (!ok) break;
            if (ld.eb <= 1) continue;
            z3::expr at = c.bv_const(("&" + ld.region).c_str(), 64) + ld.off;
            ok = check((at & c.bv_val(ld.eb - 1, 64)) == c.bv_val(0, 64), "the " + std::to_string(8 * ld.eb) + "-bit element load at line " +
                                                                             std::to_string(ld.loc.line) + " may be misaligned (no alignment test on its path implies it)");
          }
          hyp = h2;
          if (!ok) return false;
        }
        // (3) The state words of lane i (key and nonce are read before any store: original bytes).
        std::vector<z3::expr> rfc = {c.bv_val(0x61707865u, 32), c.bv_val(0x3320646eu, 32), c.bv_val(0x79622d32u, 32),
                                     c.bv_val(0x6b206574u, 32)};
        {
          z3::func_decl kd = ev.origOf(ev.regionOf(keyP)), nd = ev.origOf(ev.regionOf(nonceP));
          for (unsigned k = 0; k < 8; ++k) {
            z3::expr w = kd(c.bv_val(4 * k, 64));
            for (unsigned b = 1; b < 4; ++b) w = z3::concat(kd(c.bv_val(4 * k + b, 64)), w);
            rfc.push_back(w);
          }
          rfc.push_back(ctr + i.extract(31, 0));
          for (unsigned k = 0; k < 3; ++k) {
            z3::expr w = nd(c.bv_val(4 * k, 64));
            for (unsigned b = 1; b < 4; ++b) w = z3::concat(nd(c.bv_val(4 * k + b, 64)), w);
            rfc.push_back(w);
          }
        }
        std::vector<z3::expr> st;
        // The state is read from the first values of x0..x15: re-evaluate them as assigned first.
        if (!ev.firstState(st)) {
          o.res = Res::FAILED;
          o.cex = "the word-sliced state vectors x0..x15 of " + fn.name + " are not declared as vectors";
          return false;
        }
        for (auto &w : st) w = ev.resolve(w);
        for (unsigned k = 0; k < 16; ++k)
          if (!check(st[k] == rfc[k], "state word " + std::to_string(k) + " of lane i is not RFC 8439's" + (k == 12 ? " (counter + i: the vid)" : ""))) return false;
        // (4) Output bytes, RFC round outputs abstracted.
        // RFC 8439's 10 double rounds on the code's own state words: the same terms as the code's
        // rounds when those are RFC's quarter rounds (rotations recognised), so they abstract away.
        std::vector<z3::expr> X = st;
        for (int r = 0; r < 10; ++r) rfcDoubleRound(X);
        z3::expr_vector from(c), to(c);
        std::vector<z3::expr> R;
        for (unsigned k = 0; k < 16; ++k) {
          R.push_back(c.bv_const(("R" + std::to_string(k)).c_str(), 32));
          from.push_back(X[k]);
          to.push_back(R[k]);
        }
        std::string outR = ev.regionOf(outP), inR = xorIn ? ev.regionOf(inP) : "";
        for (unsigned k = 0; k < 16; ++k)
          for (unsigned t = 0; t < 4; ++t) {
            z3::expr off = i * c.bv_val(64, 64) + c.bv_val(4 * k + t, 64);
            z3::expr got = ev.resolve(ev.readByte(outR, off));
            z3::expr w = R[k] + rfc[k];
            z3::expr want = z3::lshr(w, c.bv_val(8 * t, 32)).extract(7, 0);
            if (xorIn) want = want ^ ev.origOf(inR)(off.simplify());
            z3::expr g = got.substitute(from, to);
            std::set<unsigned> seen;
            unsigned size = dagSize(g, seen);
            maxDag = std::max(maxDag, size);
            if (size > 400) {
              o.res = Res::FAILED;
              o.cex = "byte " + std::to_string(4 * k + t) + " of lane i is not RFC 8439's serialisation of the RFC round outputs plus the input state (" + where +
                      "): the rounds are not RFC 8439 2.1's quarter rounds as terms";
              return false;
            }
            if (!check(g == want, "byte " + std::to_string(4 * k + t) + " of block i written to " + outP + " is not " +
                                      (xorIn ? inP + " XOR " : "") + "the RFC 8439 keystream for " + ctrP + " + i", 30000))
              return false;
          }
        return true;
      };
      collecting = true;
      batchBase = hyp.size();
      pending.clear();
      const bool gathered = obligations();  // false: a failure that needs no query (o says which)
      collecting = false;
      ++queries;
      if (!gathered || !allProve(c, hyp, pending, shown))
        if (!obligations()) return;  // one by one: the first claim that fails, or the same failure
      mapped += (unsigned)ev.mapLoops.size();
      // Next path: flip the last branch taken `false` (depth-first over the symbolic ifs).
      std::vector<bool> cur = ev.choices;
      cur.resize(ev.nextChoice);
      while (!cur.empty() && cur.back()) cur.pop_back();
      if (cur.empty()) break;
      cur.back() = true;
      choices = cur;
    }
  }
  o.note = std::to_string(paths) + " path(s) (both pointer relations: out == in, disjoint) each for a symbolic lane i < vl, " +
           std::to_string(queries) + " queries; vl <= 32, vl <= blocks asked, every store inside " + outP + "[0, 64 vl)" +
           (mapped ? "; the strip-mined xor loop proved a map over [0, 64 vl)" : "") +
           "; output bytes with the RFC round outputs abstracted: at most " + std::to_string(maxDag) + " term nodes";
}

// ---- keystream loops ----

namespace {

void loopsOf(const Stmt &s, std::vector<const Stmt *> &out) {
  if (s.kind == Stmt::For || s.kind == Stmt::While || s.kind == Stmt::DoWhile) out.push_back(&s);
  for (const StmtP *ch : {&s.init, &s.then, &s.els})
    if (*ch) loopsOf(**ch, out);
  for (const auto &b : s.body)
    if (b) loopsOf(*b, out);
}

// The keystream helper a loop body calls directly (not inside an inner loop), if any.
const Expr *vlKeystreamCall(const File &f, const Stmt &s) {
  const Expr *found = nullptr;
  std::function<void(const Expr &)> ex = [&](const Expr &e) {
    if (e.kind == Expr::Call && e.fn >= 0) {
      const Function &g = f.funcs[(size_t)e.fn];
      Contract gc = contractOf(g);
      if (gc.present && gc.role == "chacha20.block" && field(g.contract, "blocks") == "vl") found = &e;
    }
    for (const auto &a : e.args)
      if (a) ex(*a);
  };
  std::function<void(const Stmt &)> st = [&](const Stmt &x) {
    if (x.kind == Stmt::For || x.kind == Stmt::While || x.kind == Stmt::DoWhile) return;
    if (x.e) ex(*x.e);
    for (const StmtP *ch : {&x.then, &x.els})
      if (*ch) st(**ch);
    for (const auto &b : x.body)
      if (b) st(*b);
  };
  if (s.then) st(*s.then);
  return found;
}

// The initialiser of variable `var` in `body` (nullptr if it has none or is not declared there).
const Expr *declInit(const Stmt &body, int var) {
  const Expr *r = nullptr;
  std::function<void(const Stmt &)> st = [&](const Stmt &x) {
    if (x.kind == Stmt::Decl && x.var == var) r = x.e.get();
    for (const StmtP *ch : {&x.init, &x.then, &x.els})
      if (*ch) st(**ch);
    for (const auto &b : x.body)
      if (b) st(*b);
  };
  st(body);
  return r;
}

}  // namespace

void proveKeystreamLoopsRvv(const File &f, const Function &kernel, const std::function<Obligation *(SrcLoc, const std::string &)> &add) {
  std::vector<const Stmt *> loops;
  if (kernel.body) loopsOf(*kernel.body, loops);
  Contract kc = contractOf(kernel);
  for (const Stmt *lp : loops) {
    const Expr *call = vlKeystreamCall(f, *lp);
    if (!call) continue;
    const Function &g = f.funcs[(size_t)call->fn];
    Obligation *o = add(lp->loc, "keystream loop of " + g.name + ": each iteration xors the vl blocks " + g.name +
                                     " returns at out + off, then off += 64 vl and the block counter += vl");
    if (!o) continue;
    auto t0 = std::chrono::steady_clock::now();
    std::vector<bool> choices;
    unsigned paths = 0;
    std::string offName, ctrName;
    for (int guard = 0; guard < 16 && o->res == Res::OK; ++guard) {
      z3::context c;
      LaneEval ev(f, c, kernel, false, "", "", choices);
      ev.kernelMode = true;
      std::map<int, z3::expr> head;
      try {
        ev.bindParams();
        // Head of an arbitrary iteration: every variable the loop writes is an unknown.
        std::set<int> out, decl;
        bool stores = false;
        ev.assigned(*lp, out, decl, stores);
        for (int v : out) {
          const Var &x = f.vars[(size_t)v];
          if (decl.count(v) || x.ty.kind != Type::Int) continue;
          z3::expr h = c.bv_const((x.name + "@head").c_str(), x.ty.bits);
          ev.env[v] = ev.intV(h, x.ty.bits);
          head.emplace(v, h);
        }
        if (lp->e) ev.pathCond.push_back(ev.asBool(ev.eval(*lp->e), lp->loc));
        ev.exec(*lp->then);
        if (lp->inc) ev.eval(*lp->inc);
      } catch (Stop &) {
        o->res = Res::FAILED;
        o->cex = "cannot evaluate the loop body: " + ev.err + " (line " + std::to_string(ev.errLoc.line) + ")";
        break;
      }
      ++paths;
      auto fail = [&](const std::string &why) {
        o->res = Res::FAILED;
        o->cex = why + " (path " + std::to_string(paths) + ")";
      };
      if (ev.ksCalls.size() != 1) {
        fail("the loop body calls " + g.name + " " + std::to_string(ev.ksCalls.size()) + " times");
        break;
      }
      const auto &k = ev.ksCalls[0];
      if (k.out.k != LV::Ptr || k.in.k != LV::Ptr) {
        fail("the out/in arguments of " + g.name + " are not pointers");
        break;
      }
      // The byte offset: out's offset must be one loop variable's head value, and in's the same.
      int offVar = -1;
      for (auto &[v, h] : head)
        if (z3::eq(k.out.e->simplify(), h)) offVar = v;
      if (offVar < 0) {
        fail("the output of " + g.name + " is not at its base plus a loop-carried byte offset");
        break;
      }
      offName = f.vars[(size_t)offVar].name;
      std::vector<z3::expr> hyp = ev.pathCond;
      std::string cex;
      std::vector<std::pair<std::string, z3::expr>> shown = {{offName, head.at(offVar)}, {"vl", k.ret}, {"blocks asked", k.nb}};
      auto holds = [&](const z3::expr &claim, const std::string &why) {
        Res r = prove(c, hyp, claim, 20000, shown, cex);
        if (r != Res::OK) {
          o->res = r;
          o->cex = why + " (path " + std::to_string(paths) + "): " + cex;
          return false;
        }
        return true;
      };
      if (!holds(*k.in.e == *k.out.e, "the input of " + g.name + " is not at the same offset as its output")) break;
      // The blocks asked for lie inside the message: 64 nb <= len - off.
      z3::expr len = c.bv_const("len", 64);
      bool haveLen = false;
      for (int pv : kernel.params)
        if (f.vars[(size_t)pv].name == "len") haveLen = true;
      if (!haveLen) {
        fail(kernel.name + " has no len parameter");
        break;
      }
      // Inductive: off <= len at the head (0 on entry) gives the blocks asked inside len and
      // off <= len again at the end.
      hyp.push_back(z3::ule(head.at(offVar), len));
      if (!holds(z3::ule(k.nb, z3::udiv(len - head.at(offVar), c.bv_val(64, 64))), "the blocks " + g.name + " is asked for may run past len"))
        break;
      int ctrVar = -1;
      for (auto &[v, h] : head)
        if (h.get_sort().bv_size() == 32 && z3::eq(k.ctr.simplify(), h)) ctrVar = v;
      if (ctrVar < 0) {
        fail("the block counter passed to " + g.name + " is not a loop-carried 32-bit counter");
        break;
      }
      ctrName = f.vars[(size_t)ctrVar].name;
      z3::expr offEnd = ev.asInt(ev.env.at(offVar), 64, lp->loc), ctrEnd = ev.asInt(ev.env.at(ctrVar), 32, lp->loc);
      if (!holds(offEnd == head.at(offVar) + k.ret * c.bv_val(64, 64), offName + " does not move on by 64 * the vl " + g.name + " returned")) break;
      if (!holds(ctrEnd == head.at(ctrVar) + k.ret.extract(31, 0), "the block counter " + ctrName + " does not advance by the vl " + g.name + " returned")) break;
      if (!holds(z3::ule(offEnd, len), offName + " may pass len at the end of an iteration")) break;
      // Entry: off = 0; the counter starts at 1 (AEAD, RFC 8439 2.8) or is the kernel's counter.
      const Expr *oi = declInit(*kernel.body, offVar);
      if (!(oi && oi->kind == Expr::Const && oi->value == 0)) {
        fail(offName + " does not start at 0");
        break;
      }
      const Var &cvv = f.vars[(size_t)ctrVar];
      bool aead = kc.present && (kc.role == "aead.seal" || kc.role == "aead.open");
      if (aead) {
        const Expr *ci = declInit(*kernel.body, ctrVar);
        if (!(ci && ci->kind == Expr::Const && ci->value == 1)) {
          fail("the AEAD keystream counter " + ctrName + " does not start at 1 (RFC 8439 2.8: block 0 is the one-time key)");
          break;
        }
      } else if (!cvv.isParam) {
        fail("the keystream counter " + ctrName + " is not the kernel's counter parameter");
        break;
      }
      std::vector<bool> cur = ev.choices;
      cur.resize(ev.nextChoice);
      while (!cur.empty() && cur.back()) cur.pop_back();
      if (cur.empty()) break;
      cur.back() = true;
      choices = cur;
    }
    if (o->res == Res::OK)
      o->note = std::to_string(paths) + " path(s); block b of the stream at byte 64 b of the message has counter " +
                (kc.role == "aead.seal" || kc.role == "aead.open" ? std::string("1") : std::string("counter")) + " + b (" + offName +
                " from 0 by 64 vl, " + ctrName + " by vl)";
    o->ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
}

// ---- Poly1305 loops that absorb a variable number of blocks per iteration ----

namespace {

// The stitched helper's Poly1305 loops absorb, in order, consecutive runs of blocks that together
// are exactly its nmac blocks at mac (for nmac <= 128, every path). Proved once per helper.
bool proveMacSegments(const File &f, const Function &g, std::string &cex, std::string &note) {
  using Done = std::pair<bool, std::pair<std::string, std::string>>;
  const std::string key = helperKey(f, g, "mac-segments");
  if (auto it = f.helperProofs.find(key); it != f.helperProofs.end()) {
    const Done &done = std::any_cast<const Done &>(it->second);
    cex = done.second.first;
    note = done.second.second;
    return done.first;
  }
  size_t mp = g.contract.find("\"mac\":{");
  std::string sub = mp == std::string::npos ? "" : g.contract.substr(mp + 6);
  std::string macP = field(sub, "msg"), nP = field(sub, "blocks");
  bool ok = true;
  unsigned paths = 0, segs = 0;
  if (macP.empty() || nP.empty()) {
    ok = false;
    cex = g.name + ": the mac contract names no msg or blocks parameter";
  }
  // The helper's accumulator limbs (the mac contract's acc): the object after "mac": by brace count.
  Contract macCt;
  {
    size_t open = mp == std::string::npos ? std::string::npos : g.contract.find('{', mp + 5);
    size_t close = open;
    for (int depth = 0; close != std::string::npos && close < g.contract.size(); ++close) {
      depth += g.contract[close] == '{' ? 1 : g.contract[close] == '}' ? -1 : 0;
      if (depth == 0) break;
    }
    std::string err;
    if (ok && (open == std::string::npos || close >= g.contract.size() ||
               !parseContract(g.contract.substr(open, close - open + 1), g.contractLoc, macCt, err) || macCt.acc.empty())) {
      ok = false;
      cex = g.name + ": the mac contract names no accumulator (acc)" + (err.empty() ? "" : ": " + err);
    }
  }
  std::vector<bool> choices;
  for (int guard = 0; ok && guard < 64; ++guard) {
    z3::context c;
    LaneEval ev(f, c, g, false, "", "", choices);
    ev.segMode = true;
    std::vector<z3::expr> accIn;
    try {
      ev.bindParams();
      for (const auto &a : macCt.acc) accIn.push_back(ev.asInt(ev.slot(ev.varNamed(a, g.loc), g.loc), 64, g.loc));
      ev.exec(*g.body);
    } catch (Stop &) {
      ok = false;
      cex = "cannot evaluate " + g.name + ": " + ev.err + " (line " + std::to_string(ev.errLoc.line) + ")";
      break;
    }
    ++paths;
    z3::expr n = c.bv_const(nP.c_str(), 64);
    std::vector<z3::expr> hyp = ev.pathCond;
    hyp.push_back(z3::ule(n, c.bv_val(128, 64)));
    std::vector<std::pair<std::string, z3::expr>> shown = {{nP, n}};
    auto holds = [&](const z3::expr &claim, const std::string &why) {
      std::string cx;
      Res r = prove(c, hyp, claim, 20000, shown, cx);
      if (r != Res::OK) cex = why + " (path " + std::to_string(paths) + "): " + cx;
      return r == Res::OK;
    };
    if (ev.segments.empty()) {
      ok = false;
      cex = g.name + " has no Poly1305 loop";
      break;
    }
    z3::expr at = c.bv_val(0, 64), total = c.bv_val(0, 64);
    for (size_t j = 0; j < ev.segments.size() && ok; ++j) {
      const auto &sg = ev.segments[j];
      std::string where = "the Poly1305 loop at line " + std::to_string(sg.loc.line);
      if (sg.region != macP) {
        ok = false;
        cex = where + " reads " + sg.region + ", not " + macP;
        break;
      }
      ok = holds(z3::ule(sg.a, sg.b), where + " may start past its end (a negative block count)") &&
           holds(sg.e == at, where + " does not start where the previous one ended (block " + std::to_string(j) + " of the run)");
      at = at + (sg.b - sg.a) * c.bv_val(16, 64);
      total = total + (sg.b - sg.a);
    }
    if (ok) ok = holds(total == n, "the Poly1305 loops of " + g.name + " do not absorb exactly " + nP + " blocks");
    // The accumulator runs through the loops in order: the first takes the helper's entry value,
    // each next one what the one before left, and the helper returns what the last one left (a
    // statement that changes it between or after the loops, or a copy-back of the wrong limb, fails).
    for (size_t j = 0; ok && j <= ev.segments.size(); ++j) {
      const std::vector<z3::expr> &want = j == 0 ? accIn : ev.segments[j - 1].hout;
      std::vector<z3::expr> got;
      std::string where;
      if (j < ev.segments.size()) {
        got = ev.segments[j].hin;
        where = "the Poly1305 loop at line " + std::to_string(ev.segments[j].loc.line) + " does not start from " +
                (j == 0 ? "the accumulator " + g.name + " was called with" : "what the loop before it left");
      } else {
        try {
          for (const auto &a : macCt.acc) got.push_back(ev.asInt(ev.slot(ev.varNamed(a, g.loc), g.loc), 64, g.loc));
        } catch (Stop &) {
          ok = false;
          cex = "cannot evaluate " + g.name + "'s accumulator at its return: " + ev.err;
          break;
        }
        where = g.name + " does not return the accumulator its last Poly1305 loop left";
      }
      if (got.size() != want.size()) {
        ok = false;
        cex = where + " (its limbs differ in number)";
        break;
      }
      for (size_t i = 0; ok && i < got.size(); ++i)
        ok = holds(got[i] == want[i], where + " (limb " + std::to_string(i) + ")");
    }
    segs = (unsigned)ev.segments.size();
    if (!ok) break;
    std::vector<bool> cur = ev.choices;
    cur.resize(ev.nextChoice);
    while (!cur.empty() && cur.back()) cur.pop_back();
    if (cur.empty()) break;
    cur.back() = true;
    choices = cur;
  }
  if (ok)
    note = g.name + "'s " + std::to_string(segs) + " Poly1305 loops absorb consecutive runs that are exactly its " + nP +
           " blocks at " + macP + " (" + nP + " <= 128, " + std::to_string(paths) + " paths)";
  if (!key.empty()) f.helperProofs[key] = Done{ok, {cex, note}};
  return ok;
}

void probeAssigned(const File &f, const Function &fn, const Stmt &s, std::set<int> &out, std::set<int> &decl, bool &st) {
  z3::context c0;
  LaneEval probe(f, c0, fn, false, "", "", {});
  probe.assigned(s, out, decl, st);
}

// Variables a statement list assigns directly (not through calls).
void directAssigns(const Stmt &s, std::set<int> &out) {
  std::function<void(const Expr &)> ex = [&](const Expr &e) {
    if ((e.kind == Expr::Assign || e.kind == Expr::IncDec) && e.args[0] && e.args[0]->kind == Expr::Var) out.insert(e.args[0]->var);
    for (const auto &a : e.args)
      if (a) ex(*a);
  };
  if (s.e) ex(*s.e);
  if (s.inc) ex(*s.inc);
  for (const StmtP *ch : {&s.init, &s.then, &s.els})
    if (*ch) directAssigns(**ch, out);
  for (const auto &b : s.body)
    if (b) directAssigns(*b, out);
}

// The block that directly holds `target`, and its index there.
bool enclosing(const Stmt &s, const Stmt *target, const Stmt *&block, size_t &idx) {
  for (size_t k = 0; k < s.body.size(); ++k)
    if (s.body[k].get() == target) {
      block = &s;
      idx = k;
      return true;
    }
  for (const StmtP *ch : {&s.init, &s.then, &s.els})
    if (*ch && enclosing(**ch, target, block, idx)) return true;
  for (const auto &b : s.body)
    if (b && enclosing(*b, target, block, idx)) return true;
  return false;
}

}  // namespace

bool hasVariableMacCall(const File &f, const Stmt &loop) {
  const Expr *call = vlKeystreamCall(f, loop);
  return call && f.funcs[(size_t)call->fn].contract.find("\"mac\":{") != std::string::npos;
}

bool proveMacLoopRvv(const File &f, const Function &kernel, const Stmt &loop, const Contract &ct, std::string &cex,
                     std::string &note) {
  const Expr *call = vlKeystreamCall(f, loop);
  if (!call) {
    cex = "the loop calls no stitched keystream helper";
    return false;
  }
  const Function &g = f.funcs[(size_t)call->fn];
  std::string segNote;
  if (!proveMacSegments(f, g, cex, segNote)) return false;
  size_t mp = g.contract.find("\"mac\":{");
  std::string sub = g.contract.substr(mp + 6);
  std::string macP = field(sub, "msg");
  const Expr *macArg = nullptr;
  for (size_t k = 0; k < g.params.size() && k < call->args.size(); ++k)
    if (f.vars[(size_t)g.params[k]].name == macP) macArg = call->args[k].get();
  if (!macArg) {
    cex = "the call of " + g.name + " has no " + macP + " argument";
    return false;
  }
  // Nothing but the helper changes the accumulator in the loop body.
  {
    std::set<int> direct;
    directAssigns(*loop.then, direct);
    for (int v : direct)
      for (const auto &a : ct.acc)
        if (f.vars[(size_t)v].name == a) {
          cex = "the loop body assigns " + a + " outside " + g.name;
          return false;
        }
  }
  // Candidate invariants of the loop-carried byte counts: v % 64 == 0 and v <= 2048, for those
  // declared with such a constant right before the loop (nothing in between assigns them); kept
  // when every iteration preserves them (checked below, dropped otherwise).
  const Stmt *blk = nullptr;
  size_t li = 0;
  enclosing(*kernel.body, &loop, blk, li);
  std::set<int> carried, declIn;
  bool st = false;
  {
    z3::context c0;
    LaneEval probe(f, c0, kernel, false, "", "", {});
    probe.assigned(loop, carried, declIn, st);
  }
  struct Cand {
    int var;
    int kind;  // 0: % 64 == 0, 1: <= 2048
  };
  std::vector<Cand> cands;
  if (blk)
    for (int v : carried) {
      const Var &x = f.vars[(size_t)v];
      if (declIn.count(v) || x.ty.kind != Type::Int || x.ty.bits != 64) continue;
      const Expr *init = nullptr;
      bool clean = false;
      for (size_t k = 0; k < li; ++k) {
        const Stmt &b = *blk->body[k];
        if (b.kind == Stmt::Decl && b.var == v) {
          init = b.e.get();
          clean = true;
          continue;
        }
        if (!clean) continue;
        std::set<int> o2, d2;
        bool s2 = false;
        probeAssigned(f, kernel, b, o2, d2, s2);
        if (o2.count(v)) clean = false;
      }
      if (!clean || !init || init->kind != Expr::Const) continue;
      if ((uint64_t)init->value % 64 == 0) cands.push_back({v, 0});
      if ((uint64_t)init->value <= 2048) cands.push_back({v, 1});
    }
  unsigned paths = 0;
  std::vector<bool> choices;
  for (int guard = 0; guard < 16; ++guard) {
    z3::context c;
    LaneEval ev(f, c, kernel, false, "", "", choices);
    ev.kernelMode = true;
    std::map<int, z3::expr> head;
    LV sEnd;
    try {
      ev.bindParams();
      for (int v : carried) {
        const Var &x = f.vars[(size_t)v];
        if (declIn.count(v) || x.ty.kind != Type::Int) continue;
        z3::expr h = c.bv_const((x.name + "@head").c_str(), x.ty.bits);
        ev.env[v] = ev.intV(h, x.ty.bits);
        head.emplace(v, h);
      }
      if (loop.e) ev.pathCond.push_back(ev.asBool(ev.eval(*loop.e), loop.loc));
      ev.exec(*loop.then);
      if (loop.inc) ev.eval(*loop.inc);
      sEnd = ev.eval(*macArg);
    } catch (Stop &) {
      cex = "cannot evaluate the loop body: " + ev.err + " (line " + std::to_string(ev.errLoc.line) + ")";
      return false;
    }
    ++paths;
    if (ev.ksCalls.size() != 1 || !ev.ksCalls[0].nmac) {
      cex = "the loop body does not call " + g.name + " exactly once with its Poly1305 arguments";
      return false;
    }
    const auto &k = ev.ksCalls[0];
    auto candExpr = [&](const Cand &cd, bool end) {
      z3::expr v = end ? ev.asInt(ev.env.at(cd.var), 64, loop.loc) : head.at(cd.var);
      return cd.kind == 0 ? (v & c.bv_val(63, 64)) == c.bv_val(0, 64) : z3::ule(v, c.bv_val(2048, 64));
    };
    std::vector<std::pair<std::string, z3::expr>> shown = {{"vl", k.ret}, {"blocks absorbed", *k.nmac}};
    std::vector<Cand> kept = cands;
    for (bool changed = true; changed;) {
      changed = false;
      std::vector<z3::expr> hyp = ev.pathCond;
      for (auto &cd : kept) hyp.push_back(candExpr(cd, false));
      {
        // All kept candidates at once first: when their conjunction proves, each does.
        std::vector<z3::expr> all;
        for (auto &cd : kept) all.push_back(candExpr(cd, true));
        if (allProve(c, hyp, all, shown)) break;
      }
      for (size_t j = 0; j < kept.size(); ++j) {
        std::string cx;
        if (prove(c, hyp, candExpr(kept[j], true), 20000, shown, cx) != Res::OK) {
          kept.erase(kept.begin() + (long)j);
          changed = true;
          break;
        }
      }
    }
    std::vector<z3::expr> hyp = ev.pathCond;
    for (auto &cd : kept) hyp.push_back(candExpr(cd, false));
    std::string cx;
    if (k.mac.k != LV::Ptr || sEnd.k != LV::Ptr || k.mac.region != ct.msg || sEnd.region != ct.msg) {
      cex = "the blocks " + g.name + " absorbs are not read from " + ct.msg;
      return false;
    }
    if (prove(c, hyp, z3::ule(*k.nmac, c.bv_val(128, 64)), 20000, shown, cx) != Res::OK) {
      cex = "the block count passed to " + g.name + " may exceed 128 (path " + std::to_string(paths) + "): " + cx;
      return false;
    }
    if (prove(c, hyp, *sEnd.e == *k.mac.e + *k.nmac * c.bv_val(16, 64), 20000, shown, cx) != Res::OK) {
      cex = "the next iteration's blocks do not start where this iteration's end (path " + std::to_string(paths) + "): " + cx;
      return false;
    }
    std::vector<bool> cur = ev.choices;
    cur.resize(ev.nextChoice);
    while (!cur.empty() && cur.back()) cur.pop_back();
    if (cur.empty()) break;
    cur.back() = true;
    choices = cur;
  }
  note = "each iteration absorbs the run of blocks " + g.name + " is given (" + segNote + "), the next iteration's run starts where it ends (" +
         std::to_string(paths) + " paths); each block step by the inner loops' block-step obligations";
  return true;
}

}  // namespace cv
