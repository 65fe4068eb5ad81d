// proofs.cpp: semantic obligations over the emitted code (see proofs.h).
//
//  final-reduction / final-add-s (obligation (d)): the final-reduction helper, evaluated bit-exactly
//    on symbolic inputs limited to the bounds the interval pass proved at its call sites, yields
//    the fully reduced h mod 2^130-5 and then (h + s) mod 2^128 as the 16 tag bytes.
//  chacha-round (obligation (f)): every ChaCha20 round loop, evaluated on symbolic state, equals
//    RFC 8439's double round (quarter rounds on columns, then on diagonals) in every block lane,
//    for the row layout (4 blocks per zmm, one block per 128-bit lane) and the word-sliced layout
//    (16 blocks, register xk = word k, one block per 32-bit lane).
#include "proofs.h"
#include "answers.h"
#include "rvv.h"
#include "poly.h"

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "contracts.h"
#include "scalar64.h"
#include "symbolic.h"

namespace cv {

// Proves `claim` for all values of the free constants under `pre`; fills cex with `shown`.
Res prove(z3::context &c, const std::vector<z3::expr> &pre, const z3::expr &claim, unsigned timeoutMs,
          const std::vector<std::pair<std::string, z3::expr>> &shown, std::string &cex) {
  z3::expr simp = claim.simplify();
  if (simp.is_true()) return Res::OK;
  z3::solver s(c);
  z3::params p(c);
  p.set("timeout", timeoutMs);
  s.set(p);
  for (const auto &e : pre) s.add(e);
  s.add(!claim);
  z3::check_result r = answers::checkCached(s);
  if (r == z3::unsat) return Res::OK;
  if (r == z3::unknown) {
    cex = "solver returned unknown (" + s.reason_unknown() + ")";
    return Res::TIMEOUT;
  }
  z3::model m = s.get_model();
  cex = "Z3 model:";
  for (const auto &[name, e] : shown) {
    z3::expr v = m.eval(e, true);
    cex += (cex == "Z3 model:" ? " " : ", ") + name + " = " + (v.is_numeral() ? "0x" + [&] {
      std::string d = v.get_decimal_string(0), h;
      // decimal -> hex by repeated division on the string
      std::string n = d;
      if (n == "0") return std::string("0");
      while (!(n.size() == 1 && n[0] == '0')) {
        std::string q;
        int rem = 0;
        for (char ch : n) {
          int cur = rem * 10 + (ch - '0');
          if (!q.empty() || cur / 16) q += (char)('0' + cur / 16);
          rem = cur % 16;
        }
        h.insert(h.begin(), "0123456789abcdef"[rem]);
        n = q.empty() ? "0" : q;
      }
      return h;
    }() : v.to_string());
  }
  return Res::FAILED;
}

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

std::string where(const File &f, SrcLoc l) {
  return f.path + ":" + std::to_string(l.line) + ":" + std::to_string(l.col);
}

Obligation &addObl(KernelResult &kr, const File &f, const std::string &kind, SrcLoc l, const std::string &what,
                   const std::string &intr) {
  Obligation o;
  o.kind = kind;
  o.file = f.path;
  o.loc = l;
  o.what = what;
  o.intrinsic = intr;
  o.id = (int)kr.obligations.size() + 1;
  kr.obligations.push_back(o);
  return kr.obligations.back();
}

bool selected(const BoundsOptions &opt, const Obligation &o) {
  if (opt.onlyObligation.empty()) return true;
  return opt.onlyObligation == std::to_string(o.id) || opt.onlyObligation == o.kind ||
         opt.onlyObligation == o.kind + ":" + std::to_string(o.loc.line) ||
         opt.onlyObligation == std::to_string(o.loc.line);
}


// Free constants of a term (inputs of the claim).
void freeConsts(const z3::expr &e, std::set<unsigned> &seen, std::vector<z3::expr> &out) {
  if (!seen.insert(e.id()).second) return;
  if (e.is_app()) {
    if (e.num_args() == 0 && !e.is_numeral() && e.decl().decl_kind() == Z3_OP_UNINTERPRETED) out.push_back(e);
    for (unsigned i = 0; i < e.num_args(); ++i) freeConsts(e.arg(i), seen, out);
  }
}

// Refutes an equivalence claim by evaluation on random inputs before any solver call: a differing
// word on one input is a counterexample. Returns true (and the inputs) when refuted.
bool randomRefute(z3::context &c, const std::vector<z3::expr> &eqs,
                  const std::vector<std::pair<std::string, z3::expr>> &shown, std::string &cex) {
  std::set<unsigned> seen;
  std::vector<z3::expr> vars;
  for (const auto &e : eqs) freeConsts(e, seen, vars);
  std::mt19937_64 rng(0xf00d);
  for (int trial = 0; trial < 4; ++trial) {
    z3::expr_vector from(c), to(c);
    for (const auto &v : vars) {
      from.push_back(v);
      to.push_back(c.bv_val((uint64_t)(rng() & (v.get_sort().bv_size() >= 64 ? ~0ull : ((1ull << v.get_sort().bv_size()) - 1))),
                            v.get_sort().bv_size()));
    }
    for (const auto &e : eqs) {
      z3::expr r = z3::expr(e).substitute(from, to).simplify();
      if (r.is_false()) {
        cex = "evaluation differs from RFC 8439 on";
        for (const auto &[name, x] : shown) {
          z3::expr v = z3::expr(x).substitute(from, to).simplify();
          char b[40];
          std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)(v.is_numeral() ? v.get_numeral_uint64() : 0));
          cex += std::string(cex.back() == 'n' ? " " : ", ") + name + " = " + b;
        }
        return true;
      }
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// (d) the final reduction helper

void proveFinal(const File &f, Prover &prover, const BoundsOptions &opt, KernelResult &kr) {
  std::set<int> done;
  for (const FinalCall &fc : kr.finalCalls) {
    if (done.count(fc.fn)) continue;
    done.insert(fc.fn);
    const Function &fn = f.funcs[(size_t)fc.fn];
    auto t0 = Clock::now();
    // Input bounds: the join over every call site in this kernel.
    std::vector<Itv> bnd(fn.params.size(), Itv{~(u128)0, 0});
    for (const FinalCall &c2 : kr.finalCalls)
      if (c2.fn == fc.fn)
        for (size_t i = 0; i < c2.args.size() && i < bnd.size(); ++i) {
          bnd[i].lo = std::min(bnd[i].lo, c2.args[i].lo);
          bnd[i].hi = std::max(bnd[i].hi, c2.args[i].hi);
        }
    // Parameters: the tag (first non-const byte pointer), h limbs (h*), s limbs or s bytes.
    std::string tag;
    std::vector<std::pair<std::string, size_t>> hs, ss;
    std::string sBytes;
    Contract ct = contractOf(fn);
    for (size_t i = 0; i < fn.params.size(); ++i) {
      const Var &v = f.vars[(size_t)fn.params[i]];
      if (v.ty.kind == Type::Ptr) {
        if (tag.empty() && v.ty.spelling.find("const") == std::string::npos) tag = v.name;
        else sBytes = v.name;
      } else if (v.ty.kind == Type::Int && v.ty.bits == 64 && !ct.present) {
        (v.name[0] == 'h' ? hs : ss).push_back({v.name, i});
      }
    }
    // With a poly1305.final contract the limbs are the ones it names, in its order.
    if (ct.present) {
      for (const auto &n : ct.acc)
        for (size_t i = 0; i < fn.params.size(); ++i)
          if (f.vars[(size_t)fn.params[i]].name == n) hs.push_back({n, i});
      for (const auto &n : ct.s)
        for (size_t i = 0; i < fn.params.size(); ++i)
          if (f.vars[(size_t)fn.params[i]].name == n) ss.push_back({n, i});
      if (hs.size() != ct.acc.size() || ss.size() != ct.s.size()) hs.clear();
    }
    Obligation &o = addObl(kr, f, "final-reduction", fn.loc,
                           "tag = (h mod 2^130-5 + s) mod 2^128 in " + fn.name, fn.name);
    Obligation *oS = nullptr;
    if (!selected(opt, o)) {
      o.skipped = true;
      continue;
    }
    unsigned radix = hs.size() == 3 ? 44 : hs.size() == 5 ? 26 : 0;
    // radix 2^64: h = h0 + 2^64 h1 + 2^128 h2, s = s0 + 2^64 s1.
    bool r64 = ct.present && ct.radix == 64;
    if (r64) radix = hs.size() == 3 && ss.size() == 2 ? 64 : 0;
    if (tag.empty() || radix == 0 || (ss.empty() && sBytes.empty()) ||
        (!ss.empty() && ss.size() != hs.size() && !r64)) {
      o.res = Res::FAILED;
      o.cex = "cannot identify the tag pointer, the h limbs (h0..) and s in " + fn.name + "'s parameters";
      continue;
    }
    z3::context c;
    SymEval ev(f, c);
    std::vector<z3::expr> pre;
    std::vector<std::pair<std::string, z3::expr>> shown;
    std::string note = "input bounds:";
    auto bindLimb = [&](const std::string &name, size_t idx) {
      z3::expr x = c.bv_const(name.c_str(), 64);
      SVal v;
      v.k = SVal::Int;
      v.bits = 64;
      v.w.push_back(x);
      ev.bindParam(name, v);
      if (bnd[idx].lo <= bnd[idx].hi) {
        pre.push_back(z3::ule(x, c.bv_val((uint64_t)bnd[idx].hi, 64)));
        note += " " + name + " <= " + hex(bnd[idx].hi);
      } else {
        note += " " + name + " unbounded";
      }
      shown.push_back({name, x});
      return x;
    };
    std::vector<z3::expr> H, S;
    for (auto &[n, i] : hs) H.push_back(bindLimb(n, i));
    for (auto &[n, i] : ss) S.push_back(bindLimb(n, i));
    std::vector<std::string> hn, sn;
    for (auto &[n, i] : hs) hn.push_back(n);
    for (auto &[n, i] : ss) sn.push_back(n);
    if (!sBytes.empty()) sn.push_back(sBytes);
    ev.snapshotOnRead(sn, hn);
    o.note = note + " (from the interval pass at the call sites)";
    if (!ev.runFunction(fn)) {
      o.res = Res::FAILED;
      o.cex = "cannot evaluate " + fn.name + " bit-exactly: " + ev.error() + " (line " +
              std::to_string(ev.errorLoc().line) + ")";
      o.ms = msSince(t0);
      continue;
    }
    std::vector<z3::expr> tb;
    if (!ev.written(tag, 16, tb)) {
      o.res = Res::FAILED;
      o.cex = fn.name + " does not write all 16 tag bytes at constant offsets";
      continue;
    }
    const unsigned W = 192;  // h < 2^152 for 64-bit limbs; R + s < 2^131
    z3::expr T = tb[0];
    for (size_t i = 1; i < 16; ++i) T = z3::concat(tb[i], T);
    auto limbs = [&](const std::vector<z3::expr> &L) {
      z3::expr v = c.bv_val(0, W);
      for (size_t i = 0; i < L.size(); ++i)
        v = v + z3::shl(z3::zext(L[i], W - L[i].get_sort().bv_size()), c.bv_val(radix * (unsigned)i, W));
      return v;
    };
    z3::expr Hv = limbs(H);
    z3::expr Sv = c.bv_val(0, W);
    if (!S.empty()) {
      Sv = limbs(S);
    } else {
      z3::expr sb = c.bv_const((sBytes + "[0]").c_str(), 8);
      for (int i = 1; i < 16; ++i) sb = z3::concat(c.bv_const((sBytes + "[" + std::to_string(i) + "]").c_str(), 8), sb);
      Sv = z3::zext(sb, W - 128);
      shown.push_back({"s", sb});
    }
    // h = k*p + R with 0 <= R < p defines R = h mod p; k*p = k*2^130 - 5k needs no multiplier.
    z3::expr P = z3::shl(c.bv_val(1, W), c.bv_val(130, W)) - c.bv_val(5, W);
    z3::expr k = z3::zext(c.bv_const("k", 32), W - 32), R = c.bv_const("R", W);
    z3::expr kP = z3::shl(k, c.bv_val(130, W)) - (z3::shl(k, c.bv_val(2, W)) + k);
    std::vector<z3::expr> preR = pre;
    preR.push_back(Hv == kP + R);
    preR.push_back(z3::ult(R, P));
    std::map<std::string, SVal> snap;
    // Radix 2^64 keeps only bits 0..127 of h mod p before + s: one claim, the tag.
    bool split = !r64 && ev.snapshot(snap) && snap.size() == hn.size();
    std::string cex;
    if (split) {
      std::vector<z3::expr> Rl;
      for (auto &n : hn) Rl.push_back(snap[n].w[0]);
      z3::expr Ri = limbs(Rl);
      o.what = "h is fully reduced mod 2^130-5 before + s, in " + fn.name;
      o.res = prove(c, preR, Ri == R, prover.timeoutMs(), shown, cex);
      o.cex = cex;
      o.ms = msSince(t0);
      auto t1 = Clock::now();
      oS = &addObl(kr, f, "final-add-s", fn.loc, "tag = (h + s) mod 2^128, little-endian, in " + fn.name, fn.name);
      oS->note = o.note;
      std::string cex2;
      oS->res = prove(c, pre, T == (Ri + Sv).extract(127, 0), prover.timeoutMs(), shown, cex2);
      oS->cex = cex2;
      oS->ms = msSince(t1);
    } else {
      if (r64) o.what = "tag = ((h mod 2^130-5) + s) mod 2^128, little-endian, in " + fn.name;
      o.res = prove(c, preR, T == (R + Sv).extract(127, 0), prover.timeoutMs(), shown, cex);
      o.cex = cex;
      o.ms = msSince(t0);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// (f) ChaCha20 rounds

int countIntrinsic(const Stmt &s, const std::string &name);
int countIntrinsicE(const Expr &e, const std::string &name) {
  int n = e.kind == Expr::Intrin && e.name == name ? 1 : 0;
  for (const auto &a : e.args)
    if (a) n += countIntrinsicE(*a, name);
  return n;
}
int countIntrinsic(const Stmt &s, const std::string &name) {
  int n = 0;
  if (s.e) n += countIntrinsicE(*s.e, name);
  if (s.inc) n += countIntrinsicE(*s.inc, name);
  if (s.init) n += countIntrinsic(*s.init, name);
  if (s.then) n += countIntrinsic(*s.then, name);
  if (s.els) n += countIntrinsic(*s.els, name);
  for (const auto &b : s.body) n += countIntrinsic(*b, name);
  return n;
}

void loopsIn(const Stmt &s, std::vector<const Stmt *> &out) {
  if (s.kind == Stmt::For || s.kind == Stmt::While || s.kind == Stmt::DoWhile) out.push_back(&s);
  if (s.init) loopsIn(*s.init, out);
  if (s.then) loopsIn(*s.then, out);
  if (s.els) loopsIn(*s.els, out);
  for (const auto &b : s.body) loopsIn(*b, out);
}

// The kernel and every function it calls, transitively (indices into File::funcs).
std::set<int> reachable(const File &f, const Function &kernel) {
  std::set<int> reach;
  std::function<void(const Stmt &)> walkS;
  std::function<void(const Expr &)> walkE = [&](const Expr &e) {
    if (e.kind == Expr::Call && e.fn >= 0 && reach.insert(e.fn).second) walkS(*f.funcs[(size_t)e.fn].body);
    for (const auto &a : e.args)
      if (a) walkE(*a);
  };
  walkS = [&](const Stmt &s) {
    if (s.e) walkE(*s.e);
    if (s.inc) walkE(*s.inc);
    if (s.init) walkS(*s.init);
    if (s.then) walkS(*s.then);
    if (s.els) walkS(*s.els);
    for (const auto &b : s.body) walkS(*b);
  };
  reach.insert(f.findFunc(kernel.name));
  walkS(*kernel.body);
  return reach;
}

// The 32-bit rotations a round loop writes: vprold (zmm, ymm), vprord, and, without AVX-512, a
// byte shuffle (16 and 8) or a shift pair (x << k | x >> (32 - k), counted once by its left shift).
// The trip count of `for (T i = 0; i < N; ++i)` (also i++ and i += 1) with a constant N and i
// assigned nowhere in the body; -1 for any other loop.
static int64_t constantTrips(const Stmt &lp) {
  if (lp.kind != Stmt::For || !lp.init || !lp.e || !lp.inc || !lp.then) return -1;
  const Stmt *d = lp.init.get();
  if (d->kind == Stmt::Block && d->body.size() == 1 && d->body[0]) d = d->body[0].get();
  if (d->kind != Stmt::Decl || !d->e || d->e->kind != Expr::Const || d->e->value != 0) return -1;
  const int i = d->var;
  const Expr &cnd = *lp.e;
  if (cnd.kind != Expr::Bin || cnd.name != "<" || cnd.args.size() != 2 || !cnd.args[0] || !cnd.args[1] ||
      cnd.args[0]->kind != Expr::Var || cnd.args[0]->var != i || cnd.args[1]->kind != Expr::Const)
    return -1;
  const Expr &inc = *lp.inc;
  const bool step1 = (inc.kind == Expr::IncDec && inc.name.find("++") != std::string::npos && inc.args.size() == 1 && inc.args[0] &&
                      inc.args[0]->kind == Expr::Var && inc.args[0]->var == i) ||
                     (inc.kind == Expr::Assign && inc.name == "+" && inc.args.size() == 2 && inc.args[0] && inc.args[1] &&
                      inc.args[0]->kind == Expr::Var && inc.args[0]->var == i && inc.args[1]->kind == Expr::Const && inc.args[1]->value == 1);
  if (!step1) return -1;
  bool touched = false;
  forEachExprIn(*lp.then, [&](const Expr &e) {
    touched = touched || ((e.kind == Expr::Assign || e.kind == Expr::IncDec) && !e.args.empty() && e.args[0] &&
                          e.args[0]->kind == Expr::Var && e.args[0]->var == i);
  });
  return touched ? -1 : (int64_t)cnd.args[1]->value;
}

int countRotations(const Stmt &s) {
  int n = 0;
  for (const char *r : {"_mm512_rol_epi32", "_mm256_rol_epi32", "_mm512_ror_epi32", "_mm512_shuffle_epi8",
                        "_mm256_shuffle_epi8", "_mm512_slli_epi32", "_mm256_slli_epi32"})
    n += countIntrinsic(s, r);
  return n;
}

// Expressions that read no variable (literals and intrinsics of literals): a constant such as a
// byte-rotation mask declared before the round loop can be evaluated ahead of it.
bool readsNoVariable(const Expr &e) {
  if (e.kind == Expr::Var || e.kind == Expr::Call || e.kind == Expr::Deref || e.kind == Expr::Index) return false;
  for (const auto &a : e.args)
    if (a && !readsNoVariable(*a)) return false;
  return true;
}
void constantDecls(const Stmt &s, const Stmt *stop, std::vector<const Stmt *> &out) {
  if (&s == stop) return;
  if (s.kind == Stmt::Decl && s.e && readsNoVariable(*s.e)) out.push_back(&s);
  if (s.kind == Stmt::Block)
    for (const auto &b : s.body) constantDecls(*b, stop, out);
}

}  // namespace

RoundLayout chachaRoundLayout(const File &f, const Function &fn, const Stmt &lp) {
  RoundLayout lay;
  lay.rols = lp.then ? countRotations(*lp.then) : 0;
  if (lay.rols == 0) return lay;
  // Layout: four vector reference parameters (rows a..d) or variables x0..x15.
  for (int p : fn.params) {
    const Var &v = f.vars[(size_t)p];
    if (v.isRef && v.ty.kind == Type::Vec && v.ty.bits == 512) lay.rows.push_back(v.name);
  }
  // Without row references: local row vectors a<s>, b<s>, c<s>, d<s> of this function (one set s
  // per state, e.g. two blocks per ymm, one per 128-bit lane).
  if (lay.rows.empty()) {
    auto local = [&](const std::string &n) {
      for (const Var &v : f.vars)
        if (v.name == n && !v.isParam && !v.isGlobal && v.ty.kind == Type::Vec && (v.ty.bits == 256 || v.ty.bits == 512) &&
            v.loc.line > fn.loc.line && v.loc.line < fn.endLoc.line)
          return true;
      return false;
    };
    for (int st = 0; st < 16; ++st) {
      std::string k = std::to_string(st);
      if (!(local("a" + k) && local("b" + k) && local("c" + k) && local("d" + k))) break;
      for (const char *r : {"a", "b", "c", "d"}) lay.rows.push_back(r + k);
    }
  }
  // Row layout: 4 row vectors per state (a, b, c, d), one or more independent states whose rounds
  // are issued side by side; 8 rotations per state and double round.
  const size_t nstates = lay.rows.size() / 4;
  // Word registers x0..x15: local vectors of the function the loop assigns, all sixteen.
  std::set<std::string> words;
  forEachExprIn(lp, [&](const Expr &x) {
    if (x.kind != Expr::Assign || x.args.empty() || !x.args[0] || x.args[0]->kind != Expr::Var) return;
    const Var &v = f.vars[(size_t)x.args[0]->var];
    if (v.isParam || v.ty.kind != Type::Vec || v.name.size() < 2 || v.name.size() > 3 || v.name[0] != 'x' ||
        v.name.find_first_not_of("0123456789", 1) != std::string::npos)
      return;
    if (std::stoi(v.name.substr(1)) < 16) words.insert(v.name);
  });
  const bool rowShuffles = countIntrinsic(*lp.then, "_mm512_shuffle_epi32") > 0 || countIntrinsic(*lp.then, "_mm256_shuffle_epi32") > 0;
  // Mixed: row states from the function's 512-bit reference parameters (four per state) beside
  // the sixteen word registers, 8 per state + 32 rotations per double round.
  bool rowRefs = nstates >= 1 && lay.rows.size() % 4 == 0;
  for (const std::string &r : lay.rows) {
    bool ref = false;
    for (int p : fn.params) ref = ref || (f.vars[(size_t)p].name == r && f.vars[(size_t)p].isRef);
    rowRefs = rowRefs && ref;
  }
  const int mixedPerDr = 8 * (int)nstates + 32;
  lay.mixed = rowRefs && words.size() == 16 && rowShuffles && lay.rols % mixedPerDr == 0;
  lay.x4 = lay.mixed || (nstates >= 1 && lay.rows.size() % 4 == 0 && lay.rols % (8 * (int)nstates) == 0 && rowShuffles);
  lay.x16 = lay.mixed || (!lay.x4 && lay.rols % 32 == 0);
  lay.ndr = lay.mixed ? lay.rols / mixedPerDr : lay.x4 ? lay.rols / (8 * (int)nstates) : lay.rols / 32;
  lay.pure = true;
  forEachExprIn(lp, [&](const Expr &x) {
    if (x.kind == Expr::Call || (x.kind == Expr::Intrin && (x.name.find("load") != std::string::npos || x.name.find("store") != std::string::npos)))
      lay.pure = false;
  });
  lay.trips = constantTrips(lp);
  return lay;
}

namespace {

void proveChacha(const File &f, const Function &kernel, Prover &prover, const BoundsOptions &opt,
                 KernelResult &kr) {
  std::set<int> reach = reachable(f, kernel);
  for (int fi : reach) {
    const Function &fn = f.funcs[(size_t)fi];
    std::vector<const Stmt *> loops;
    loopsIn(*fn.body, loops);
    for (const Stmt *lp : loops) {
      const RoundLayout lay = chachaRoundLayout(f, fn, *lp);
      const int rols = lay.rols;
      if (rols == 0) continue;
      const std::vector<std::string> &rows = lay.rows;
      const size_t nstates = rows.size() / 4;
      const bool x4 = lay.x4, x16 = lay.x16;
      auto t0 = Clock::now();
      Obligation &o = addObl(kr, f, "chacha-round", lp->loc, "", "_mm512_rol_epi32");
      if (!selected(opt, o)) {
        o.skipped = true;
        continue;
      }
      if (!x4 && !x16) {
        o.what = "round loop in " + fn.name;
        o.res = Res::FAILED;
        o.cex = "unrecognised ChaCha20 layout (" + std::to_string(rols) +
                " rotations; expected 4 row reference parameters or word registers x0..x15)";
        continue;
      }
      const int ndr = lay.ndr;
      z3::context c;
      SymEval ev(f, c);
      std::vector<const Stmt *> consts;
      constantDecls(*fn.body, lp, consts);
      bool constsOK = true;
      for (const Stmt *d : consts) constsOK = constsOK && ev.runStmt(fn, *d);
      if (!constsOK || !ev.runStmt(fn, *lp->then)) {
        o.what = "round loop in " + fn.name;
        o.res = Res::FAILED;
        o.cex = "cannot evaluate the round loop bit-exactly: " + ev.error() + " (line " +
                std::to_string(ev.errorLoc().line) + ")";
        continue;
      }
      // The state registers: the rows (x4), then the words x0..x15 (x16); a mixed loop has both.
      std::vector<std::string> names;
      if (x4) names = rows;
      if (x16)
        for (int k = 0; k < 16; ++k) names.push_back("x" + std::to_string(k));
      const size_t nrows = x4 ? rows.size() : 0;
      std::vector<SVal> in(names.size()), out(names.size());
      bool ok = true;
      // Where each iteration's state comes from: carried (every word read before the body sets
      // it: the last iteration's state) or fresh (every word set first: the fused chunk loop's
      // declarations, the same in each iteration).
      std::string restarts, carriedWord;
      for (size_t k = 0; k < in.size(); ++k) {
        const std::string &n = names[k];
        if (ev.input(n, in[k])) {
          if (carriedWord.empty()) carriedWord = n;
        } else if (ev.firstValue(n, in[k])) {
          if (restarts.empty()) restarts = n;
        } else {
          ok = false;
        }
        if (!ev.value(n, out[k])) ok = false;
        if (ok && (in[k].k != SVal::Vec || out[k].k != SVal::Vec || in[k].w.size() != in[0].w.size() ||
                   out[k].w.size() != in[k].w.size() || (in[k].w.size() != 16 && in[k].w.size() != 8)))
          ok = false;
      }
      // Word-sliced: one block per 32-bit lane (16 in zmm, 8 in ymm). Rows: one block per 128-bit
      // lane (4 in zmm, 2 in ymm).
      const unsigned slices = ok && x16 ? (unsigned)in[nrows].w.size() : 16;
      const unsigned perRow = ok && x4 ? (unsigned)in[0].w.size() / 4 : 4;
      const std::string reg = perRow == 4 ? "zmm" : "ymm";
      const std::string rowsWhat = x4 ? "rows " + rows[0] + ".." + rows.back() +
                                            (nstates == 1 ? " (" + std::to_string(perRow) + " blocks per " + reg + ")"
                                                          : " (" + std::to_string(nstates) + " states of " + std::to_string(perRow) +
                                                                " blocks per " + reg + ")")
                                      : "";
      const std::string wordsWhat = x16 ? "words x0..x15 (" + std::to_string(slices) + " blocks word-sliced in " +
                                              (slices == 16 ? "zmm" : "ymm") + ")"
                                        : "";
      o.what = rowsWhat + (x4 && x16 ? " and " : "") + wordsWhat + ": " + std::to_string(ndr) +
               " double round(s) = RFC 8439 column + diagonal quarter rounds, in " + fn.name;
      if (!ok) {
        o.res = Res::FAILED;
        o.cex = "the state registers are not all assigned as vectors in the loop";
        continue;
      }
      // The rounds in all (found by the stop-29 and stop-30 reviews: `i < 9` made 18 rounds, a
      // body of 10 double rounds run twice made 40, `x12 = s12;` at the top of a counted body
      // restarted word 12 each double round; all proved). A carried state must be a counted loop
      // `for (int i = 0; i < N; ++i)` (i touched by nothing else) with N times the body's double
      // rounds = 10; a fresh one only in a loop that also calls and stores (the fused chunk loop,
      // whose every iteration makes whole blocks from its declarations) with a body of 10.
      const int64_t trips = lay.trips;
      std::string bad;
      if (!restarts.empty() && !carriedWord.empty())
        bad = "state word " + restarts + " is set in the loop's body before it is read and " + carriedWord +
              " is not: an iteration would continue part of the last one's state";
      else if (!carriedWord.empty() && (trips < 0 || ndr <= 0 || trips * ndr != 10))
        bad = "the loop's body is " + std::to_string(ndr) + " double round(s), and " +
              (trips < 0 ? std::string("it is not a counted loop for (int i = 0; i < N; ++i) with a constant N")
                         : "it runs " + std::to_string(trips) + " time(s)") +
              ": RFC 8439 2.3 takes 10 double rounds (20 rounds) in all";
      else if (carriedWord.empty() && (lay.pure || ndr != 10))
        bad = "state word " + restarts + " is set in the loop's body before it is read: " +
              (lay.pure ? std::string("a loop that only computes rounds must continue from the last iteration's state")
                        : "a body of " + std::to_string(ndr) + " double round(s) that restarts its state makes no whole blocks");
      if (!bad.empty()) {
        o.res = Res::FAILED;
        o.cex = bad;
        continue;
      }
      if (getenv("CHAPOLY_VERIFY_TRACE"))
        fprintf(stderr, "chacha %s:%u evaluated in %.0f ms\n", fn.name.c_str(), lp->loc.line, msSince(t0));
      std::vector<z3::expr> eqs;
      std::vector<std::pair<std::string, z3::expr>> shown;
      const unsigned rowBlocks = x4 ? perRow * (unsigned)nstates : 0;
      const unsigned blocks = rowBlocks + (x16 ? slices : 0);
      for (unsigned b = 0; b < blocks; ++b) {
        std::vector<z3::expr> s, got;
        for (unsigned j = 0; j < 16; ++j) {
          if (b < rowBlocks) {
            // block b: state b/perRow, 128-bit lane b%perRow; row j/4 of that state holds words j.
            s.push_back(in[4 * (b / perRow) + j / 4].w[4 * (b % perRow) + j % 4]);
            got.push_back(out[4 * (b / perRow) + j / 4].w[4 * (b % perRow) + j % 4]);
          } else {
            s.push_back(in[nrows + j].w[b - rowBlocks]);
            got.push_back(out[nrows + j].w[b - rowBlocks]);
          }
          if (b == 0) shown.push_back({"word" + std::to_string(j), s.back()});
        }
        for (int r = 0; r < ndr; ++r) rfcDoubleRound(s);
        // Syntactically identical terms (Z3 shares equal subterms) need no solver call.
        for (unsigned j = 0; j < 16; ++j)
          if (!z3::eq(got[j], s[j])) eqs.push_back(got[j] == s[j]);
      }
      std::string cex;
      if (eqs.empty()) {
        o.res = Res::OK;
        o.note = "equal as terms: every output word is the RFC expression of the input words";
      } else if (randomRefute(c, eqs, shown, cex)) {
        o.res = Res::FAILED;
      } else {
        z3::expr all = c.bool_val(true);
        for (auto &e : eqs) all = all && e;
        o.res = prove(c, {}, all, prover.timeoutMs(), shown, cex);
      }
      o.cex = cex.empty() ? "" : cex + " (block 0 input words)";
      o.ms = msSince(t0);
    }
  }
}

}  // namespace

unsigned prover32Timeout() { return 10000; }

// A string field of a contract's JSON text ("" when absent); the Contract struct does not keep
// the chacha20.block fields "in" and "xor".
static std::string contractField(const std::string &json, const std::string &key) {
  size_t k = json.find("\"" + key + "\"");
  if (k == std::string::npos) return "";
  size_t colon = json.find(':', k);
  if (colon == std::string::npos) return "";
  size_t v = json.find_first_not_of(" \t", colon + 1);
  if (v == std::string::npos) return "";
  if (json[v] == '"') {
    size_t e = json.find('"', v + 1);
    return e == std::string::npos ? "" : json.substr(v + 1, e - v - 1);
  }
  size_t e = json.find_first_of(",}", v);
  return json.substr(v, e == std::string::npos ? std::string::npos : e - v);
}

// RFC 8439 2.3's initial state for the block counter `counter`: the four constants, key words
// 0..7 and nonce words 0..2, each the little-endian word of the bytes the symbolic evaluator names
// key[i] and nonce[i] (a pointer parameter's bytes, by the parameter's name).
static std::vector<z3::expr> rfcInitialState(z3::context &c, const std::string &key, const std::string &nonce,
                                             const z3::expr &counter) {
  auto word = [&](const std::string &r, int i) {
    z3::expr w = c.bv_const((r + "[" + std::to_string(4 * i + 3) + "]").c_str(), 8);
    for (int k = 2; k >= 0; --k) w = z3::concat(w, c.bv_const((r + "[" + std::to_string(4 * i + k) + "]").c_str(), 8));
    return w;
  };
  std::vector<z3::expr> st = {c.bv_val(0x61707865u, 32), c.bv_val(0x3320646eu, 32), c.bv_val(0x79622d32u, 32),
                              c.bv_val(0x6b206574u, 32)};
  for (int i = 0; i < 8; ++i) st.push_back(word(key, i));
  st.push_back(counter);
  for (int i = 0; i < 3; ++i) st.push_back(word(nonce, i));
  return st;
}

// The vector form of a `chacha20.block` helper: the input state is held in vectors, either
// word-sliced (j0..j15, word k of block b in 32-bit lane b of jk) or one block per 128-bit lane
// (rows ja, jb, jc and jd0, jd1, ..., block 2s + l in 128-bit lane l of row set s). After the
// bit-exact evaluation of the whole function (rounds unrolled; the evaluator rewrites the
// rotation idioms to rotate_left, the form rfcDoubleRound uses):
//  1. every state word of every block is proved equal to RFC 8439 2.3's (counter + block);
//  2. the RFC 20-round output words R[b][j] of the code's state words are built; the same terms
//     occur in the code's output when its rounds are RFC 8439's quarter rounds as terms;
//  3. each R[b][j] is replaced by a fresh 32-bit variable in the code's output bytes, and the
//     solver proves, for all values of those variables (hence for the RFC values), that each byte
//     is byte k of R[b][j] + state[b][j] (XOR in[64b + 4j + k] for an xor contract). Rounds that
//     are not RFC terms leave round structure behind, which the solver cannot prove in time: a
//     failure, never a pass.
static void proveChachaBlockVec(z3::context &c, SymEval &ev, const Function &fn, unsigned blocks,
                                const std::vector<z3::expr> &rfcState, const z3::expr &ctr, bool xorIn,
                                const std::string &inP, const std::string &outP,
                                std::vector<std::pair<std::string, z3::expr>> &shown, Obligation &o) {
  if (xorIn) o.what = std::to_string(blocks) + " block(s) XOR " + inP + " = RFC 8439 2.3 keystream (20 rounds, feed-forward, little-endian) for counter..counter+" + std::to_string(blocks - 1) + ", in " + fn.name;
  // 1. The state words, by layout.
  std::vector<std::vector<z3::expr>> st(blocks);
  SVal v;
  std::string layout;
  if (ev.firstValue("j0", v) && v.k == SVal::Vec) {
    layout = "word-sliced";
    for (unsigned j = 0; j < 16; ++j) {
      if (!ev.firstValue("j" + std::to_string(j), v) || v.k != SVal::Vec || v.w.size() < blocks) {
        o.res = Res::FAILED;
        o.cex = "the input state vectors j0..j15 of " + fn.name + " are not all vectors of " + std::to_string(blocks) + " 32-bit lanes";
        return;
      }
      for (unsigned b = 0; b < blocks; ++b) st[b].push_back(v.w[b]);
    }
  } else {
    layout = "one block per 128-bit lane";
    SVal rows[3];
    const char *rn[3] = {"ja", "jb", "jc"};
    unsigned per = 0;
    for (int r = 0; r < 3; ++r)
      if (!ev.firstValue(rn[r], rows[r]) || rows[r].k != SVal::Vec || rows[r].w.size() % 4 || (per && rows[r].w.size() / 4 != per)) {
        o.res = Res::FAILED;
        o.cex = "the input state rows ja, jb, jc of " + fn.name + " are not vectors of whole 128-bit lanes";
        return;
      } else {
        per = (unsigned)rows[r].w.size() / 4;
      }
    for (unsigned b = 0; b < blocks; ++b) {
      SVal d;
      if (!ev.firstValue("jd" + std::to_string(b / per), d) || d.k != SVal::Vec || d.w.size() != 4 * per) {
        o.res = Res::FAILED;
        o.cex = "the input state row jd" + std::to_string(b / per) + " of " + fn.name + " is missing or not a vector of " + std::to_string(per) + " 128-bit lanes";
        return;
      }
      unsigned l = b % per;
      for (unsigned j = 0; j < 16; ++j) st[b].push_back(j < 12 ? rows[j / 4].w[4 * l + j % 4] : d.w[4 * l + j % 4]);
    }
  }
  std::string cex;
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned j = 0; j < 16; ++j) {
      z3::expr want = j == 12 ? ctr + c.bv_val(b, 32) : rfcState[j];
      Res r = prove(c, {}, st[b][j] == want, prover32Timeout(), shown, cex);
      if (r != Res::OK) {
        o.res = Res::FAILED;
        o.cex = "state word " + std::to_string(j) + " of block " + std::to_string(b) + " (" + layout + ") is not RFC 8439's: " + cex;
        return;
      }
    }
  std::vector<z3::expr> out;
  if (!ev.written(outP, (int)(64 * blocks), out)) {
    o.res = Res::FAILED;
    o.cex = fn.name + " does not write all " + std::to_string(64 * blocks) + " bytes of " + outP + " at constant offsets";
    return;
  }
  // 2./3. RFC round outputs, abstracted by fresh variables in the code's output bytes.
  z3::expr_vector from(c), to(c);
  std::vector<std::vector<z3::expr>> X(blocks);
  for (unsigned b = 0; b < blocks; ++b) {
    std::vector<z3::expr> x = st[b];
    for (int r = 0; r < 10; ++r) rfcDoubleRound(x);
    for (unsigned j = 0; j < 16; ++j) {
      X[b].push_back(c.bv_const(("R" + std::to_string(b) + "_" + std::to_string(j)).c_str(), 32));
      from.push_back(x[j]);
      to.push_back(X[b][j]);
    }
  }
  auto inByte = [&](unsigned i) { return c.bv_const((inP + "[" + std::to_string(i) + "]").c_str(), 8); };
  std::vector<z3::expr> eqs;
  unsigned leftover = 0;
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned j = 0; j < 16; ++j) {
      z3::expr w = X[b][j] + st[b][j];
      for (unsigned k = 0; k < 4; ++k) {
        unsigned i = 64 * b + 4 * j + k;
        z3::expr want = w.extract(8 * k + 7, 8 * k);
        if (xorIn) want = want ^ inByte(i);
        z3::expr got = out[i].substitute(from, to);
        // Bytes whose normal forms are the same term need no solver call; only the rest go into
        // the one query below (with every byte in it, the query took ~45 s for 8 ymm blocks).
        if (z3::eq(got.simplify(), want.simplify())) {
          ++leftover;
          continue;
        }
        eqs.push_back(got == want);
      }
    }
  if (randomRefute(c, eqs, shown, cex)) {
    o.res = Res::FAILED;
    o.cex = cex;
    return;
  }
  // One query per byte: each is a few 32-bit adds and extracts once the rounds are abstracted
  // (the whole conjunction in one query took the solver ~45 s for 8 word-sliced ymm blocks; 512
  // small queries take well under a second). A byte still holding round structure times out.
  Res r = Res::OK;
  {
    z3::solver s = z3::tactic(c, "qfbv").mk_solver();
    z3::params p(c);
    p.set("timeout", prover32Timeout());
    s.set(p);
    for (size_t e = 0; e < eqs.size() && r == Res::OK; ++e) {
      s.push();
      s.add(!eqs[e]);
      z3::check_result cr = answers::checkCached(s);
      s.pop();
      if (cr == z3::unsat) continue;
      // Not proved (or refuted): the general prover gives the counterexample or the timeout.
      r = prove(c, {}, eqs[e], prover32Timeout(), shown, cex);
    }
  }
  if (r != Res::OK) {
    o.res = Res::FAILED;
    o.cex = "the output bytes are not RFC 8439's serialisation of the RFC round outputs plus the input state" +
            std::string(xorIn ? " XOR " + inP : "") + " (" + (cex.empty() ? "not proved in time: the rounds are not RFC 8439 2.1's quarter rounds as terms" : cex) + ")";
    return;
  }
  o.note = std::string("state words (") + layout + ") proved equal to RFC 8439's; the code's rounds are the RFC rounds as terms; every output byte proved equal to the serialised feed-forward" + (xorIn ? " XOR the input" : "") +
           " (" + std::to_string(leftover) + " of " + std::to_string(64 * blocks) + " bytes equal as normal-form terms, the rest by the solver)";
}

// A scalar `chacha20.block` helper f(out, key, nonce, counter): evaluated bit-exactly on symbolic
// key, nonce and counter, the 64 * blocks bytes written to out must be RFC 8439 2.3's blocks for
// counter, counter + 1, ...: 10 double rounds, the feed-forward, little-endian serialisation.
static void proveChachaBlockOnce(const File &f, const Function &fn, const Contract &ct, const BoundsOptions &opt, KernelResult &kr);

// A helper's proof kept in its File for the later kernels that reach it (File::helperProofs):
// the one kept under `key`, or nullptr; keep one (made for `kernel`; an empty key keeps nothing);
// and fill a later kernel's obligation from it.
static const Obligation *keptProof(const File &f, const std::string &key) {
  auto it = f.helperProofs.find(key);
  return key.empty() || it == f.helperProofs.end() ? nullptr : &std::any_cast<const Obligation &>(it->second);
}
static void keepProof(const File &f, const std::string &key, Obligation o, const std::string &kernel) {
  if (key.empty()) return;
  o.context = kernel;
  f.helperProofs[key] = std::move(o);
}
static void reuseProof(Obligation &o, const Obligation &done) {
  o.what = done.what;
  o.res = done.res;
  o.cex = done.cex;
  o.note = done.note.empty() ? "" : done.note + " (proved once for " + done.context + ")";
}
// Obligation o about helper fn, whose proof reads the helper alone, proved once per file and run:
// filled from the kept proof of `kind` when there is one, else by prove() and kept for the later
// kernels that reach fn (made for `kernel`).
template <class Prove>
static void provedOnce(const File &f, const Function &fn, const std::string &kind, const std::string &kernel, Obligation &o,
                       Prove &&prove) {
  const std::string key = helperKey(f, fn, kind);
  if (const Obligation *done = keptProof(f, key)) {
    reuseProof(o, *done);
    return;
  }
  prove();
  keepProof(f, key, o, kernel);
}

// Each kernel that reaches a keystream helper lists its chacha-block obligation; the helper's
// body is the same for all of them, so it is evaluated and proved once per file and run, and the
// later kernels' obligations carry that result (a failure fails every kernel that reaches it).
void proveChachaBlock(const File &f, const Function &fn, const Contract &ct, const BoundsOptions &opt, KernelResult &kr) {
  const std::string key = helperKey(f, fn, "chacha-block");
  if (const Obligation *done = keptProof(f, key)) {
    Obligation &o = addObl(kr, f, "chacha-block", fn.loc, "", fn.name);
    if (!selected(opt, o)) {
      o.skipped = true;
      return;
    }
    reuseProof(o, *done);
    return;
  }
  size_t before = kr.obligations.size();
  proveChachaBlockOnce(f, fn, ct, opt, kr);
  if (kr.obligations.size() > before && !kr.obligations[before].skipped) keepProof(f, key, kr.obligations[before], kr.kernel);
}

static void proveChachaBlockOnce(const File &f, const Function &fn, const Contract &ct, const BoundsOptions &opt, KernelResult &kr) {
  auto t0 = Clock::now();
  Obligation &o = addObl(kr, f, "chacha-block", fn.loc, "", fn.name);
  unsigned blocks = 1;
  {
    // "blocks" is not in Contract: read it from the JSON text.
    size_t k = fn.contract.find("\"blocks\"");
    if (k != std::string::npos) blocks = (unsigned)std::strtoul(fn.contract.c_str() + fn.contract.find(':', k) + 1, nullptr, 10);
    if (blocks == 0 || blocks > 16) blocks = 1;
  }
  std::string outP = ct.out.empty() ? "out" : ct.out[0], keyP = ct.keyPtr.empty() ? "key" : ct.keyPtr;
  std::string nonceP = "nonce", ctrP = "counter";
  o.what = std::to_string(blocks) + " block(s) = RFC 8439 2.3 (20 rounds, feed-forward, little-endian) for " + ctrP +
           (blocks > 1 ? ".." + ctrP + "+" + std::to_string(blocks - 1) : "") + ", in " + fn.name;
  if (!selected(opt, o)) {
    o.skipped = true;
    return;
  }
  if (usesRvv(fn)) {  // word-sliced in RVV vectors, "blocks": "vl" (rvv.cpp)
    proveChachaBlockRvv(f, fn, ct, o);
    o.ms = msSince(t0);
    return;
  }
  z3::context c;
  SymEval ev(f, c);
  z3::expr ctr = c.bv_const(ctrP.c_str(), 32);
  SVal cv;
  cv.k = SVal::Int;
  cv.bits = 32;
  cv.w.push_back(ctr);
  ev.bindParam(ctrP, cv);
  // An xor helper may be called in place (out == in, the kernel ABI's one overlap): each byte of
  // in must be read before out's byte at its offset is written, and a stitched MAC's message
  // (which the kernel may point anywhere in that buffer) before any byte of out is.
  const bool xorIn = contractField(fn.contract, "xor") == "true";
  const std::string inP = contractField(fn.contract, "in").empty() ? "in" : contractField(fn.contract, "in");
  const std::string macP = contractField(fn.contract, "msg");
  if (xorIn) ev.watchInPlace(outP, inP, macP.empty() ? std::vector<std::string>{} : std::vector<std::string>{macP});
  if (!ev.runFunction(fn)) {
    o.res = Res::FAILED;
    o.cex = "cannot evaluate " + fn.name + " bit-exactly: " + ev.error() + " (line " + std::to_string(ev.errorLoc().line) + ")";
    o.ms = msSince(t0);
    return;
  }
  if (xorIn) {
    SrcLoc at;
    const std::string why = ev.inPlaceViolation(at);
    if (!why.empty()) {
      o.res = Res::FAILED;
      o.cex = "in place (line " + std::to_string(at.line) + "): " + fn.name + " " + why;
      o.ms = msSince(t0);
      return;
    }
  }
  std::vector<z3::expr> out;
  if (!ev.written(outP, (int)(64 * blocks), out)) {
    o.res = Res::FAILED;
    o.cex = fn.name + " does not write all " + std::to_string(64 * blocks) + " bytes of " + outP + " at constant offsets";
    o.ms = msSince(t0);
    return;
  }
  std::vector<std::pair<std::string, z3::expr>> shown;
  shown.push_back({ctrP, ctr});
  // 1. The input state: the code's j0..j15 are RFC 8439 2.3's constants, key words, counter and
  //    nonce words (small 32-bit equivalences; the byte-wise loads are proved here).
  const std::vector<z3::expr> rfcState = rfcInitialState(c, keyP, nonceP, ctr);
  {
    SVal probe;
    if ((ev.firstValue("j0", probe) && probe.k == SVal::Vec) || ev.firstValue("ja", probe)) {
      proveChachaBlockVec(c, ev, fn, blocks, rfcState, ctr, xorIn, inP, outP, shown, o);
      o.ms = msSince(t0);
      return;
    }
  }
  std::vector<z3::expr> st;
  std::string cex;
  for (int j = 0; j < 16 && o.res == Res::OK; ++j) {
    SVal v;
    if (!ev.firstValue("j" + std::to_string(j), v) || v.k != SVal::Int || v.bits != 32) {
      o.res = Res::FAILED;
      o.cex = "the input state words j0..j15 of " + fn.name + " are not all 32-bit variables";
      break;
    }
    st.push_back(v.w[0]);
    o.res = prove(c, {}, v.w[0] == rfcState[(size_t)j], prover32Timeout(), shown, cex);
    if (o.res != Res::OK) o.cex = "state word j" + std::to_string(j) + " is not RFC 8439's: " + cex;
  }
  if (o.res != Res::OK) {
    o.ms = msSince(t0);
    return;
  }
  // 2. The output: 10 double rounds (quarter rounds as RFC 8439 2.1 writes them, the rotation
  //    as (x << k) | (x >> (32 - k))) plus the input state, little-endian; block b has
  //    counter j12 + b. Compared as terms after Z3's simplifier (identical DAGs).
  std::vector<z3::expr> eqs;
  auto rotl = [&](const z3::expr &x, unsigned k) {
    return z3::shl(x, c.bv_val(k, 32)) | z3::lshr(x, c.bv_val(32 - k, 32));
  };
  auto dround = [&](std::vector<z3::expr> &x) {
    auto qr = [&](int a, int b, int cc, int d) {
      x[a] = x[a] + x[b]; x[d] = x[d] ^ x[a]; x[d] = rotl(x[d], 16);
      x[cc] = x[cc] + x[d]; x[b] = x[b] ^ x[cc]; x[b] = rotl(x[b], 12);
      x[a] = x[a] + x[b]; x[d] = x[d] ^ x[a]; x[d] = rotl(x[d], 8);
      x[cc] = x[cc] + x[d]; x[b] = x[b] ^ x[cc]; x[b] = rotl(x[b], 7);
    };
    qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15);
    qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14);
  };
  for (unsigned b = 0; b < blocks; ++b) {
    std::vector<z3::expr> s0 = st;
    if (b) s0[12] = st[12] + c.bv_val(b, 32);
    std::vector<z3::expr> x = s0;
    for (int r = 0; r < 10; ++r) dround(x);
    for (unsigned j = 0; j < 16; ++j) {
      // Byte k of the word, as a little-endian store writes it: (uint8_t)(w >> 8k).
      z3::expr w = x[j] + s0[j];
      for (unsigned k = 0; k < 4; ++k) {
        z3::expr want = (k ? z3::lshr(w, c.bv_val(8 * k, 32)) : w).extract(7, 0);
        // extract(7, 0) of an 8-bit term is the term itself (stores re-split the byte they write).
        z3::expr got = out[64 * b + 4 * j + k];
        while (got.is_app() && got.decl().decl_kind() == Z3_OP_EXTRACT && got.num_args() == 1 &&
               got.arg(0).get_sort().bv_size() == 8)
          got = got.arg(0);
        if (!z3::eq(got, want)) {
          if (getenv("CHAPOLY_VERIFY_TRACE") && eqs.empty())
            fprintf(stderr, "chacha-block got %s\nwant %s\n", got.to_string().c_str(),
                    want.to_string().c_str());
          eqs.push_back(got == want);
        }
      }
    }
  }
  if (eqs.empty()) {
    o.note = "state words proved equal to RFC 8439's; every output byte equal as a term to the RFC expression";
  } else if (randomRefute(c, eqs, shown, cex)) {
    o.res = Res::FAILED;
  } else {
    // Not the same terms and not refuted by evaluation: a full equivalence proof of 20 rounds
    // is out of reach for the solver, so this is a failure, never a pass.
    o.res = Res::FAILED;
    cex = std::to_string(eqs.size()) + " output byte(s) are not the RFC expression as terms (the rounds are not "
          "written as RFC 8439 2.1's quarter rounds, or are reordered)";
  }
  o.cex = cex;
  o.ms = msSince(t0);
}

// 64x64->128 multiplies: `*` on unsigned __int128.
int countMul128E(const Expr &e) {
  int n = e.kind == Expr::Bin && e.name == "*" && e.ty.kind == Type::Int && e.ty.bits == 128 ? 1 : 0;
  for (const auto &a : e.args)
    if (a) n += countMul128E(*a);
  return n;
}
int countMul128(const Stmt &s) {
  int n = 0;
  if (s.e) n += countMul128E(*s.e);
  if (s.inc) n += countMul128E(*s.inc);
  for (const StmtP *c : {&s.init, &s.then, &s.els})
    if (*c) n += countMul128(**c);
  for (const auto &b : s.body)
    if (b) n += countMul128(*b);
  return n;
}

// Calls of helpers whose contract role is poly1305.blocks (the block step) in an expression tree.
int countBlockCallsE(const File &f, const Expr &e) {
  int n = 0;
  if (e.kind == Expr::Call && e.fn >= 0 && contractOf(f.funcs[(size_t)e.fn]).role == "poly1305.blocks") n = 1;
  for (const auto &a : e.args)
    if (a) n += countBlockCallsE(f, *a);
  return n;
}
int countBlockCalls(const File &f, const Stmt &s) {
  int n = 0;
  if (s.e) n += countBlockCallsE(f, *s.e);
  if (s.inc) n += countBlockCallsE(f, *s.inc);
  for (const StmtP *c : {&s.init, &s.then, &s.els})
    if (*c) n += countBlockCalls(f, **c);
  for (const auto &b : s.body)
    if (b) n += countBlockCalls(f, *b);
  return n;
}

// Block-step calls inside loops of `body` that no poly1305.blocks loop contract covers: a loop
// that absorbs blocks through the proved block-step helper still needs its own contract, or the
// verifier would not check which blocks it reads and how far it moves (deleting the contract line
// must not switch the loop's proof off).
int uncoveredLoopBlockCalls(const File &f, const Stmt &body) {
  std::vector<const Stmt *> loops;
  loopsIn(body, loops);
  int inLoops = 0, covered = 0;
  for (const Stmt *lp : loops) {
    if (contractOf(*lp).role == "poly1305.blocks") covered += countBlockCalls(f, *lp);
  }
  // Count each call once, in its outermost loop.
  std::vector<const Stmt *> outer;
  for (const Stmt *lp : loops) {
    bool nested = false;
    for (const Stmt *o : loops) {
      if (o == lp) continue;
      std::vector<const Stmt *> inner;
      loopsIn(*o, inner);
      for (const Stmt *i : inner)
        if (i == lp && o != lp) nested = true;
    }
    if (!nested) outer.push_back(lp);
  }
  for (const Stmt *lp : outer) inLoops += countBlockCalls(f, *lp);
  return inLoops > covered ? inLoops - covered : 0;
}

// A kernel whose job ends in a Poly1305 tag: by its contract role, else by its ABI name
// (chapoly_k_<target>_seal / _open / _poly1305, emitted/README.md).
bool producesTag(const Function &k) {
  Contract ct = contractOf(k);
  if (ct.present)
    return ct.role == "aead.seal" || ct.role == "aead.open" || ct.role == "poly1305.oneshot" ||
           ct.role == "poly1305.finish";
  auto ends = [&](const std::string &suf) {
    return k.name.size() > suf.size() && k.name.compare(k.name.size() - suf.size(), suf.size(), suf) == 0;
  };
  return k.name.rfind("chapoly_k_", 0) == 0 && (ends("_seal") || ends("_open") || ends("_poly1305"));
}

// Closed world for files with contracts: every reachable helper has a contract whose role this
// verifier proves, or is glue with no multiply and no loop (its value is part of the proofs it is
// inlined into); every 64x64->128 multiply lies in a contract-covered helper or loop.
void closedWorld(const File &f, const Function &kernel, const BoundsOptions &opt, KernelResult &kr) {
  for (int fi : reachable(f, kernel)) {
    const Function &fn = f.funcs[(size_t)fi];
    if (&fn == &kernel) continue;
    Contract ct = contractOf(fn);
    std::vector<const Stmt *> loops;
    loopsIn(*fn.body, loops);
    int muls = countMul128(*fn.body), covered = 0;
    for (const Stmt *lp : loops)
      if (contractOf(*lp).role == "poly1305.blocks") covered += countMul128(*lp->then);
    if (ct.role == "bytes.load_partial") {
      auto t0 = Clock::now();
      Obligation &op = addObl(kr, f, "partial-block", fn.loc, "", fn.name);
      std::string what, cex;
      if (!selected(opt, op)) op.skipped = true;
      else if (!provePartialLoad(f, fn, what, cex)) op.res = Res::FAILED, op.cex = cex;
      op.what = what;
      op.ms = msSince(t0);
    }
    if (ct.role == "chacha20.block") proveChachaBlock(f, fn, ct, opt, kr);
    Obligation &o = addObl(kr, f, "closed-world", fn.loc, "helper " + fn.name, fn.name);
    if (!selected(opt, o)) {
      o.skipped = true;
      continue;
    }
    if (ct.present) {
      o.what = "helper " + fn.name + ": contract " + ct.role;
      bool proved = ct.role == "poly1305.clamp" || ct.role == "poly1305.final" || ct.role == "chacha20.block" ||
                    ct.role == "poly1305.blocks" || ct.role == "bytes.load_partial" ||
                    ct.role == "poly1305.state_load" || ct.role == "poly1305.state_store";

      if (ct.role == "poly1305.blocks" || ct.role == "poly1305.clamp" || ct.role == "poly1305.final") {
        // its proof is an obligation of the same kernel (block-step / clamp / final-reduction)
      }
      if (!proved) {
        o.res = Res::FAILED;
        o.cex = "role " + ct.role + " is not a helper role the verifier proves";
      } else if (muls > covered && ct.role != "poly1305.blocks") {
        o.res = Res::FAILED;
        o.cex = std::to_string(muls - covered) + " 64x64->128 multiply(ies) in " + fn.name +
                " outside a poly1305.blocks loop contract";
      }
      continue;
    }
    if (int u = uncoveredLoopBlockCalls(f, *fn.body); u > 0) {
      o.res = Res::FAILED;
      o.cex = std::to_string(u) + " block-step call(s) in a loop of " + fn.name +
              " without a poly1305.blocks loop contract (closed world)";
    } else if (muls > covered) {
      o.res = Res::FAILED;
      o.cex = std::to_string(muls - covered) + " 64x64->128 multiply(ies) in " + fn.name +
              " with no chapoly-contract covering them (closed world)";
    } else if (!loops.empty() && covered == 0) {
      o.res = Res::FAILED;
      o.cex = fn.name + " has a loop and no chapoly-contract: the verifier has no proof for it";
    } else {
      o.what = "helper " + fn.name + ": glue without multiplies or loops, proved where it is inlined";
    }
  }
  // The kernel's own loops with 64x64->128 multiplies need a poly1305.blocks contract too.
  std::vector<const Stmt *> loops;
  loopsIn(*kernel.body, loops);
  int muls = countMul128(*kernel.body), covered = 0;
  for (const Stmt *lp : loops)
    if (contractOf(*lp).role == "poly1305.blocks") covered += countMul128(*lp->then);
  if (muls > covered) {
    Obligation &o = addObl(kr, f, "closed-world", kernel.loc, "kernel " + kernel.name, kernel.name);
    if (!selected(opt, o)) {
      o.skipped = true;
    } else {
      o.res = Res::FAILED;
      o.cex = std::to_string(muls - covered) + " 64x64->128 multiply(ies) in " + kernel.name +
              " outside a poly1305.blocks loop contract";
    }
  }
  if (int u = uncoveredLoopBlockCalls(f, *kernel.body); u > 0) {
    Obligation &o = addObl(kr, f, "closed-world", kernel.loc, "kernel " + kernel.name, kernel.name);
    if (!selected(opt, o)) {
      o.skipped = true;
    } else {
      o.res = Res::FAILED;
      o.cex = std::to_string(u) + " block-step call(s) in a loop of " + kernel.name +
              " without a poly1305.blocks loop contract (closed world)";
    }
  }
}

// Per parameter of helper `fi`, the join of its intervals over the call sites the interval pass
// recorded in `calls` (an empty interval, lo > hi, where it recorded none).
static std::vector<Itv> callSiteBounds(const std::vector<FinalCall> &calls, int fi, size_t nparams) {
  std::vector<Itv> bnd(nparams, Itv{~(u128)0, 0});
  for (const FinalCall &sc : calls)
    if (sc.fn == fi)
      for (size_t i = 0; i < sc.args.size() && i < bnd.size(); ++i) {
        bnd[i].lo = std::min(bnd[i].lo, sc.args[i].lo);
        bnd[i].hi = std::max(bnd[i].hi, sc.args[i].hi);
      }
  return bnd;
}

// The AVX-512 dialect's streaming state (issue 9): the 24-byte state every family shares holds
// h = le64(acc[0..8)) + 2^64 le64(acc[8..16)) + 2^128 acc[16] (radix 2^64); p1305_state_load
// converts it to the 44-bit limbs h0 + 2^44 h1 + 2^88 h2 (lane 0 of three vectors) and
// p1305_state_store back. Both are evaluated bit-exactly:
//  state-load:  for every state, the limbs equal h minus a multiple of p = 2^130 - 5 (so the same
//               value mod p), h0 < 2^44, h1 <= 2^44, h2 < 2^42 (the bounds the fused loop's
//               invariants take as a settled h), every other lane 0 (the lane sums add them all);
//  state-store: for the limbs the interval pass saw at every call site, the three words written to
//               acc[0..24) equal h0 + 2^44 h1 + 2^88 h2 exactly and the top word is <= 4 (the
//               state's documented form; the other families' loads rely on bytes 17..23 = 0).
// Together with state-handover (the update kernels reach both), h crosses calls unchanged mod p.
void proveStateHelpers44(const File &f, const Function &kernel, Prover &prover, const BoundsOptions &opt,
                         KernelResult &kr) {
  const unsigned W = 256;
  for (int fi : reachable(f, kernel)) {
    const Function &fn = f.funcs[(size_t)fi];
    const std::string role = roleOf(fn);
    const bool load = role == "ifma.state_load", store = role == "ifma.state_store";
    if (!load && !store) continue;
    auto t0 = Clock::now();
    Obligation &o = addObl(kr, f, load ? "state-load" : "state-store", fn.loc, "", fn.name);
    if (!selected(opt, o)) {
      o.skipped = true;
      continue;
    }
    o.what = std::string(load ? "the state-load role" : "the state-store role") + " of " + fn.name;  // refined below
    z3::context c;
    SymEval ev(f, c);
    std::vector<z3::expr> pre;
    std::vector<std::pair<std::string, z3::expr>> shown;
    auto wide = [&](const z3::expr &x) { return z3::zext(x, W - x.get_sort().bv_size()); };
    auto fail = [&](const std::string &why) {
      o.res = Res::FAILED;
      o.cex = why;
      o.ms = msSince(t0);
    };
    if (store) {
      // Input bounds: the join over this kernel's call sites (interval pass).
      const std::vector<Itv> bnd = callSiteBounds(kr.stateStoreCalls, fi, fn.params.size());
      std::vector<z3::expr> H;
      std::string note = "input bounds (from the interval pass at the call sites):";
      for (const char *name : {"h0", "h1", "h2"}) {
        size_t idx = fn.params.size();
        for (size_t i = 0; i < fn.params.size(); ++i)
          if (f.vars[(size_t)fn.params[i]].name == name) idx = i;
        if (idx == fn.params.size() || f.vars[(size_t)fn.params[idx]].ty.kind != Type::Int) {
          fail(fn.name + " has no 64-bit parameter " + name);
          break;
        }
        z3::expr x = c.bv_const(name, 64);
        SVal v;
        v.k = SVal::Int;
        v.bits = 64;
        v.w.push_back(x);
        ev.bindParam(name, v);
        if (bnd[idx].lo > bnd[idx].hi) {
          fail(fn.name + " is reached but the interval pass recorded no call of it");
          break;
        }
        pre.push_back(z3::ule(x, c.bv_val((uint64_t)bnd[idx].hi, 64)));
        note += std::string(" ") + name + " <= " + hex(bnd[idx].hi);
        shown.push_back({name, x});
        H.push_back(x);
      }
      if (o.res == Res::FAILED) continue;
      o.note = note;
      o.what = "acc[0..24) = h0 + 2^44 h1 + 2^88 h2 as three little-endian words, exactly, top word <= 4, in " + fn.name;
      if (!ev.runFunction(fn)) {
        fail("cannot evaluate " + fn.name + " bit-exactly: " + ev.error() + " (line " + std::to_string(ev.errorLoc().line) + ")");
        continue;
      }
      std::vector<z3::expr> bytes;
      if (!ev.written("acc", 24, bytes)) {
        fail(fn.name + " does not write all 24 state bytes at constant offsets");
        continue;
      }
      z3::expr A = bytes[0];
      for (int i = 1; i < 24; ++i) A = z3::concat(bytes[(size_t)i], A);
      z3::expr top = A.extract(191, 128);
      z3::expr Hv = wide(H[0]) + z3::shl(wide(H[1]), c.bv_val(44, W)) + z3::shl(wide(H[2]), c.bv_val(88, W));
      std::string cex;
      o.res = prove(c, pre, wide(A) == Hv && z3::ule(top, c.bv_val(4, 64)), prover.timeoutMs(), shown, cex);
      o.cex = cex;
      o.ms = msSince(t0);
      continue;
    }
    // state-load: acc is the input (fresh bytes acc[i]); h0, h1, h2 the outputs. The helper's
    // body alone decides it (no call-site bounds): proved once per file and run (provedOnce).
    provedOnce(f, fn, "state-load", kr.kernel, o, [&] {
      o.what = "h0 + 2^44 h1 + 2^88 h2 = h - k p for the state's h (k >= 0), h0 < 2^44, h1 <= 2^44, h2 < 2^42 in "
               "lane 0, every other lane 0, in " + fn.name;
      if (!ev.runFunction(fn)) {
        fail("cannot evaluate " + fn.name + " bit-exactly: " + ev.error() + " (line " + std::to_string(ev.errorLoc().line) + ")");
        return;
      }
      std::vector<SVal> out(3);
      bool ok = true;
      for (int k = 0; k < 3; ++k) ok = ok && ev.value("h" + std::to_string(k), out[(size_t)k]) && out[(size_t)k].k == SVal::Vec;
      if (!ok) {
        fail(fn.name + " does not set the limb vectors h0, h1, h2");
        return;
      }
      z3::expr a = c.bv_const("acc[0]", 8);
      for (int i = 1; i < 17; ++i) a = z3::concat(c.bv_const(("acc[" + std::to_string(i) + "]").c_str(), 8), a);
      shown.push_back({"h (acc[0..17), little-endian)", a});
      const unsigned lanes = out[0].bits / 64;
      std::vector<z3::expr> L;
      z3::expr rest = c.bool_val(true);
      for (int k = 0; k < 3; ++k) {
        L.push_back(ev.word(out[(size_t)k], 64, 0));
        for (unsigned j = 1; j < lanes; ++j) rest = rest && ev.word(out[(size_t)k], 64, j) == c.bv_val(0, 64);
      }
      z3::expr Lv = wide(L[0]) + z3::shl(wide(L[1]), c.bv_val(44, W)) + z3::shl(wide(L[2]), c.bv_val(88, W));
      // h - L = k p with k >= 0: h < 2^136 and L < 2^131, so k < 2^7 and k p = k 2^130 - 5k with
      // 5k < 2^130; a non-zero multiple then has (h - L) >> 130 = k - 1, which names k without a
      // division (Z3 answers the shift-and-add form at once, a 65-way case split not in 10 s).
      z3::expr dlt = wide(a) - Lv;
      z3::expr kk = z3::lshr(dlt, c.bv_val(130, W)) + c.bv_val(1, W);
      z3::expr kP = z3::shl(kk, c.bv_val(130, W)) - (z3::shl(kk, c.bv_val(2, W)) + kk);
      z3::expr same = z3::ule(Lv, wide(a)) && (dlt == c.bv_val(0, W) || dlt == kP);
      z3::expr bounds = z3::ult(L[0], c.bv_val(uint64_t{1} << 44, 64)) && z3::ule(L[1], c.bv_val(uint64_t{1} << 44, 64)) &&
                        z3::ult(L[2], c.bv_val(uint64_t{1} << 42, 64));
      std::string cex;
      o.res = prove(c, pre, same && bounds && rest, prover.timeoutMs(), shown, cex);
      o.cex = cex;
    });
    o.ms = msSince(t0);
  }
}

// The AVX-512 dialect's key-power state (issue 9): chapoly_k_*_stream_keys makes the lane powers
// once per message and stores them (p1305_powers_store); the update kernels load them
// (p1305_powers_load) instead of making them on every call. What crosses the calls is the
// invariant "pw[64 i + 8 j .. + 8) = limb i of lane j of the q the key setup made for the
// message's one-time key", proved where it is made and assumed (trust base) where it is read:
//  powers-store: for the limbs the interval pass saw at every call site, each below 2^b_i (the
//                contract's limb_bits), the 192 bytes written are those limbs, little-endian,
//                exactly;
//  powers-load:  for every state, q limb i lane j = the state's word (64 i + 8 j) masked to b_i
//                bits (so, under the invariant, the key setup's q itself), qs = 20 q, every lane of
//                rl = lane 0 of q (r^8, as the key setup's rl is, mod p) and rls = 20 rl.
// Every powers_store / powers_load contract of the file names the same limb widths.
void provePowersHelpers(const File &f, const Function &kernel, Prover &prover, const BoundsOptions &opt,
                        KernelResult &kr) {
  // The widths every key-power helper of the file states (the store's proof uses them, the load's
  // mask is proved against them): one set per file.
  std::vector<unsigned> bits;
  std::string clash;
  for (const Function &g : f.funcs) {
    const Contract gc = contractOf(g);
    if (gc.role != "ifma.powers_store" && gc.role != "ifma.powers_load") continue;
    if (bits.empty()) bits = gc.limbBits;
    else if (gc.limbBits != bits) clash = g.name + " states other limb widths than the file's other key-power helpers";
  }
  for (int fi : reachable(f, kernel)) {
    const Function &fn = f.funcs[(size_t)fi];
    const Contract ct = contractOf(fn);
    const bool load = ct.role == "ifma.powers_load", store = ct.role == "ifma.powers_store";
    if (!load && !store) continue;
    auto t0 = Clock::now();
    Obligation &o = addObl(kr, f, load ? "powers-load" : "powers-store", fn.loc, "", fn.name);
    if (!selected(opt, o)) {
      o.skipped = true;
      continue;
    }
    o.what = std::string(load ? "the powers-load role" : "the powers-store role") + " of " + fn.name;
    auto fail = [&](const std::string &why) {
      o.res = Res::FAILED;
      o.cex = why;
      o.ms = msSince(t0);
    };
    if (!clash.empty() || ct.limbBits.size() != 3) {
      fail(clash.empty() ? fn.name + " names no three limb widths" : clash);
      continue;
    }
    const std::vector<unsigned> b = ct.limbBits;
    auto mask = [&](unsigned i) { return b[i] >= 64 ? ~uint64_t{0} : (uint64_t{1} << b[i]) - 1; };
    auto run = [&](z3::context &c, SymEval &ev) {
      if (ev.runFunction(fn)) return true;
      fail("cannot evaluate " + fn.name + " bit-exactly: " + ev.error() + " (line " + std::to_string(ev.errorLoc().line) + ")");
      return false;
    };
    // Lanes per limb vector: every key-power parameter has the width of the first (256 or 512 bits).
    // The limbs, and the load's outputs, by the contract's names (keys: q0, q1, q2[, qs1, qs2];
    // loop_keys: rl0, rl1, rl2, rls1, rls2), the same names the bounds pass follows; every one a
    // vector parameter of one width, 256 or 512 bits.
    std::vector<std::string> names = ct.keys;
    names.insert(names.end(), ct.loopKeys.begin(), ct.loopKeys.end());
    unsigned lanes = 0;
    std::string bad;
    for (const std::string &nm : names) {
      int var = -1;
      for (int p : fn.params)
        if (f.vars[(size_t)p].name == nm) var = p;
      const unsigned l = var >= 0 && f.vars[(size_t)var].ty.kind == Type::Vec ? f.vars[(size_t)var].ty.bits / 64 : 0;
      if (lanes == 0) lanes = l;
      if (l == 0 || l != lanes) bad = nm;
    }
    if (names.size() != (load ? 10u : 3u) || !bad.empty() || (lanes != 4 && lanes != 8)) {
      fail(fn.name + ": the contract's key-power names are not " + (load ? "ten" : "three") +
           " vector parameters of one width, 256 or 512 bits" + (bad.empty() ? "" : " (" + bad + ")"));
      continue;
    }
    const unsigned stride = 8 * lanes, total = 3 * stride;  // bytes per limb vector, bytes of the state used
    // The key-power state: the helper's one pointer (or array) parameter, of bytes.
    std::string pw;
    int nptr = 0;
    for (int p : fn.params) {
      const Type &t = f.vars[(size_t)p].ty;
      if (t.kind == Type::Ptr || t.kind == Type::Array) ++nptr, pw = f.vars[(size_t)p].name;
    }
    if (nptr != 1) {
      fail(fn.name + " takes " + std::to_string(nptr) + " pointer parameters: the key-power state must be its only one");
      continue;
    }
    auto vecOut = [&](SymEval &ev, const std::string &name, SVal &v) {
      if (ev.value(name, v) && v.k == SVal::Vec && v.bits == 64 * lanes) return true;
      fail(fn.name + " has no " + std::to_string(64 * lanes) + "-bit vector " + name);
      return false;
    };
    if (store) {
      // The limbs' bounds: the join over this kernel's call sites (interval pass).
      const std::vector<Itv> bnd = callSiteBounds(kr.powersStoreCalls, fi, fn.params.size());
      z3::context c;
      SymEval ev(f, c);
      if (!run(c, ev)) continue;
      std::vector<z3::expr> bytes, pre;
      std::set<int64_t> offs;
      bool unknown = false;
      ev.touched(pw, offs, unknown);
      if (!ev.written(pw, (int)total, bytes) || unknown || (!offs.empty() && (*offs.begin() < 0 || *offs.rbegin() >= (int64_t)total))) {
        fail(fn.name + " does not write exactly bytes 0.." + std::to_string(total - 1) + " of " + pw + " at constant offsets");
        continue;
      }
      std::string note = "limb bounds (from the interval pass at the call sites):";
      z3::expr all = c.bool_val(true);
      std::vector<std::pair<std::string, z3::expr>> shown;
      bool ok = true;
      for (unsigned i = 0; i < 3 && ok; ++i) {
        const std::string nm = ct.keys[i];
        size_t idx = fn.params.size();
        for (size_t k = 0; k < fn.params.size(); ++k)
          if (f.vars[(size_t)fn.params[k]].name == nm) idx = k;
        SVal q;
        if (idx == fn.params.size() || !vecOut(ev, nm, q)) {
          if (o.res != Res::FAILED) fail(fn.name + " has no parameter " + nm);
          ok = false;
          break;
        }
        if (bnd[idx].lo > bnd[idx].hi) {
          fail(fn.name + " is reached but the interval pass recorded no call of it");
          ok = false;
          break;
        }
        if (bnd[idx].hi > mask(i)) {
          fail("limb " + std::to_string(i) + " (" + nm + ") handed to " + fn.name + " may reach " + hex(bnd[idx].hi) +
               ", above 2^" + std::to_string(b[i]) + " - 1: p1305_powers_load's mask would change it");
          ok = false;
          break;
        }
        note += " " + nm + " <= " + hex(bnd[idx].hi);
        for (unsigned j = 0; j < lanes; ++j) {
          z3::expr l = ev.word(q, 64, j);
          pre.push_back(z3::ule(l, c.bv_val((uint64_t)bnd[idx].hi, 64)));
          z3::expr w = bytes[stride * i + 8 * j];
          for (unsigned k = 1; k < 8; ++k) w = z3::concat(bytes[stride * i + 8 * j + k], w);
          all = all && w == l;
          if (j == 0) shown.push_back({nm + " lane 0", l});
        }
      }
      if (!ok) continue;
      o.note = note;
      o.what = "pw[" + std::to_string(stride) + " i + 8 j .. + 8) = limb i of lane j of q, little-endian, exactly, each limb < 2^(" +
               std::to_string(b[0]) + ", " + std::to_string(b[1]) + ", " + std::to_string(b[2]) + ") (the load's masks), in " + fn.name;
      std::string cex;
      o.res = prove(c, pre, all, prover.timeoutMs(), shown, cex);
      o.cex = cex;
      o.ms = msSince(t0);
      continue;
    }
    // powers-load: pw is the input (fresh bytes pw[i]); the helper's body alone decides it.
    provedOnce(f, fn, "powers-load", kr.kernel, o, [&] {
      o.what = "q limb i lane j = pw's word " + std::to_string(lanes) + " i + j masked to (" + std::to_string(b[0]) + ", " + std::to_string(b[1]) + ", " +
               std::to_string(b[2]) + ") bits, qs = 20 q, every lane of rl = lane 0 of q, rls = 20 rl, in " + fn.name;
      z3::context c;
      SymEval ev(f, c);
      if (!run(c, ev)) return;
      if (ev.wrote(pw)) {
        fail(fn.name + " writes to the key-power state it loads (a later call of the message would load other powers)");
        return;
      }
      // out[k]: the contract's names in order: q0, q1, q2, qs1, qs2, rl0, rl1, rl2, rls1, rls2.
      std::vector<SVal> out(10);
      for (size_t k = 0; k < 10; ++k)
        if (!vecOut(ev, names[k], out[k])) return;
      auto pwb = [&](unsigned k) { return c.bv_const((pw + "[" + std::to_string(k) + "]").c_str(), 8); };
      z3::expr all = c.bool_val(true);
      const z3::expr twenty = c.bv_val(20, 64);
      for (unsigned i = 0; i < 3; ++i)
        for (unsigned j = 0; j < lanes; ++j) {
          z3::expr w = pwb(stride * i + 8 * j);
          for (unsigned k = 1; k < 8; ++k) w = z3::concat(pwb(stride * i + 8 * j + k), w);
          const SVal &q = out[i], &rl = out[5 + i];
          all = all && ev.word(q, 64, j) == (w & c.bv_val(mask(i), 64));
          all = all && ev.word(rl, 64, j) == ev.word(q, 64, 0);
          if (i > 0) {
            all = all && ev.word(out[2 + i], 64, j) == twenty * ev.word(q, 64, j);
            all = all && ev.word(out[7 + i], 64, j) == twenty * ev.word(rl, 64, j);
          }
        }
      std::string cex;
      o.res = prove(c, {}, all, prover.timeoutMs(), {}, cex);
      o.cex = cex;
    });
    o.ms = msSince(t0);
  }
}

// e with its casts taken off (the state and otk pointers reach calls through casts).
static const Expr *stripCasts(const Expr *e) {
  while (e && e->kind == Expr::Cast && !e->args.empty()) e = e->args[0].get();
  return e;
}

// Where a buffer parameter goes (stateFlow, proveTagFlow): from variable `var0` of function `fi0`,
// every use must be an argument of a call of a helper with a body; the calls of a `sink` helper
// are recorded in `sinks`, any other helper is followed into the parameter that receives it. ""
// when so, else where `what` is used otherwise.
struct FlowSite {
  int fn = -1;                // the function holding the call
  const Stmt *top = nullptr;  // the top-level statement of that function's body holding it
  const Expr *call = nullptr;
};
static std::string followParam(const File &f, int fi0, int var0, const std::string &what,
                               const std::function<bool(const Function &)> &sink, std::vector<FlowSite> &sinks) {
  std::string err;
  auto at = [&](SrcLoc l) { return f.path + ":" + std::to_string(l.line) + ": "; };
  std::set<std::pair<int, int>> seen;  // (function, variable) already followed
  std::function<void(int, int)> follow = [&](int fi, int v) {
    if (!err.empty() || !seen.insert({fi, v}).second) return;
    const Function &fn = f.funcs[(size_t)fi];
    const Stmt *top = nullptr;
    std::function<void(const Expr &)> walkE = [&](const Expr &e) {
      if (!err.empty()) return;
      if (e.kind == Expr::Var && e.var == v) {
        err = at(e.loc) + what + " is used other than as a call argument in " + fn.name + " ('" + e.text + "')";
        return;
      }
      if (e.kind == Expr::Call && e.fn >= 0) {
        const Function &g = f.funcs[(size_t)e.fn];
        for (size_t i = 0; i < e.args.size(); ++i) {
          const Expr *a = stripCasts(e.args[i].get());
          if (!a || a->kind != Expr::Var || a->var != v) {
            if (e.args[i]) walkE(*e.args[i]);
            continue;
          }
          if (sink(g)) sinks.push_back({fi, top, &e});
          else if (i < g.params.size()) follow(e.fn, g.params[i]);
          else err = at(e.loc) + what + " is passed to " + g.name + " beyond its parameters";
        }
        return;
      }
      for (const auto &a : e.args)
        if (a) walkE(*a);
    };
    std::function<void(const Stmt &)> walkS = [&](const Stmt &s) {
      if (s.kind == Stmt::Decl && s.var == v) err = at(s.loc) + what + " is redeclared in " + fn.name;
      if (s.e) walkE(*s.e);
      if (s.inc) walkE(*s.inc);
      forEachChild(s, walkS);
    };
    if (fn.body->kind == Stmt::Block) {
      for (const auto &b : fn.body->body) {
        top = b.get();
        if (b) walkS(*b);
      }
    } else {
      walkS(*fn.body);
    }
  };
  follow(fi0, var0);
  return err;
}

// The flow of the 24-byte state through an update kernel (state-handover, beyond reachability):
// the kernel's state parameter `statePar` is only ever handed on, unchanged, as a call argument;
// it reaches exactly one load helper and one store helper (roles `loadRole`/`storeRole`), both
// called in the same function as top-level statements, the load before the store and the store
// (when `needStore`) the last statement of that function; the store is handed the very limb
// variables the load set (directly or through an ifma.lane0 helper), in order. Any other use of
// the state (a read, a write, another buffer loaded, a write after the store, a copy of the loaded
// h stored) is a failure. Returns "" when the flow holds, else why not ("file:line: ...").
static std::string stateFlow(const File &f, const Function &kernel, int statePar, const std::string &loadRole,
                             const std::string &storeRole, bool needStore) {
  using Site = FlowSite;
  auto at = [&](SrcLoc l) { return f.path + ":" + std::to_string(l.line) + ": "; };
  std::vector<Site> sinks, loads, stores;
  std::string err = followParam(f, f.findFunc(kernel.name), statePar, "the state",
                                [&](const Function &g) { const std::string r = roleOf(g); return r == loadRole || r == storeRole; },
                                sinks);
  if (!err.empty()) return err;
  for (const Site &x : sinks) (roleOf(f.funcs[(size_t)x.call->fn]) == loadRole ? loads : stores).push_back(x);
  if (loads.size() != 1) return at(kernel.loc) + "the state reaches " + std::to_string(loads.size()) + " " + loadRole + " calls (one needed)";
  if (stores.size() != (needStore ? 1u : 0u))
    return at(kernel.loc) + "the state reaches " + std::to_string(stores.size()) + " " + storeRole + " calls (" +
           (needStore ? "one" : "none") + " needed)";
  const Site &ld = loads[0];
  const Function &g = f.funcs[(size_t)ld.fn];
  auto topIndex = [&](const Site &s) -> long {
    if (g.body->kind != Stmt::Block) return -1;
    for (size_t i = 0; i < g.body->body.size(); ++i) {
      const Stmt *b = g.body->body[i].get();
      if (b == s.top && b->kind == Stmt::ExprS && b->e.get() == s.call) return (long)i;
    }
    return -1;
  };
  const long li = topIndex(ld);
  if (li < 0) return at(ld.call->loc) + "the state load is not a statement of its own at the top of " + g.name;
  if (!needStore) return "";
  const Site &st = stores[0];
  if (st.fn != ld.fn) return at(st.call->loc) + "the state is stored in " + f.funcs[(size_t)st.fn].name + ", loaded in " + g.name;
  const long si = topIndex(st);
  if (si < 0) return at(st.call->loc) + "the state store is not a statement of its own at the top of " + g.name;
  if (si != (long)g.body->body.size() - 1 || si <= li)
    return at(st.call->loc) + "the state store must be the last statement of " + g.name + ", after the load";
  // The limbs: the load's h0..h2 arguments (the helper's parameters of those names, or its
  // contract's "acc" names) are the variables the store is handed.
  auto limbArgs = [&](const Expr &call, std::vector<int> &vars) -> std::string {
    const Function &h = f.funcs[(size_t)call.fn];
    Contract hc = contractOf(h);
    std::vector<std::string> names = hc.acc.size() == 3 ? hc.acc : std::vector<std::string>{"h0", "h1", "h2"};
    for (const auto &n : names) {
      size_t k = h.params.size();
      for (size_t i = 0; i < h.params.size(); ++i)
        if (f.vars[(size_t)h.params[i]].name == n) k = i;
      if (k >= h.params.size() || k >= call.args.size()) return h.name + " has no limb parameter " + n;
      const Expr *a = stripCasts(call.args[k].get());
      if (a && a->kind == Expr::Call && a->fn >= 0 && roleOf(f.funcs[(size_t)a->fn]) == "ifma.lane0" && a->args.size() == 1)
        a = stripCasts(a->args[0].get());
      if (!a || a->kind != Expr::Var) return "the limb " + n + " handed to " + h.name + " is not a variable ('" + call.args[k]->text + "')";
      vars.push_back(a->var);
    }
    return "";
  };
  std::vector<int> lv, sv;
  std::string e1 = limbArgs(*ld.call, lv), e2 = limbArgs(*st.call, sv);
  if (!e1.empty()) return at(ld.call->loc) + e1;
  if (!e2.empty()) return at(st.call->loc) + e2;
  if (lv != sv) return at(st.call->loc) + "the store is not handed the limbs the load set (h0, h1, h2 in order)";
  return "";
}

// The kernel's parameter of this name (its Var index), or -1.
static int paramNamed(const File &f, const Function &k, const std::string &name) {
  for (int p : k.params)
    if (f.vars[(size_t)p].name == name) return p;
  return -1;
}

// A kernel of the AVX-512 dialect (no contracts) that continues a streamed message: its ABI name
// (the AEAD update entries, and the MAC of text whose keystream the stream parked).
bool isNameStreamKernel(const Function &k) {
  auto ends = [&](const std::string &suf) {
    return k.name.size() > suf.size() && k.name.compare(k.name.size() - suf.size(), suf.size(), suf) == 0;
  };
  return !contractOf(k).present && k.name.rfind("chapoly_k_", 0) == 0 &&
         (ends("_seal_update") || ends("_open_update") || ends("_poly1305_update"));
}

// The stream-keys kernel's key setup reads its r and s from otk (RFC 8439 2.6: r || s): the one
// ifma.key_powers call in the kernel's own body is handed, for its two 128-bit vector parameters
// (r, then s), exactly _mm_loadu_si128 of otk and of otk + 16 (the key-setup proof then gives
// r = clamp(otk[0..16)) and the s limbs). "" when so, else why not.
static std::string setupTakesOtk(const File &f, const Function &kernel, int otk) {
  auto loadOf = [&](const Expr *e, u128 off) {
    e = stripCasts(e);
    if (!e || e->kind != Expr::Intrin || e->name != "_mm_loadu_si128" || e->args.size() != 1) return false;
    const Expr *p = stripCasts(e->args[0].get());
    if (off == 0) return p && p->kind == Expr::Var && p->var == otk;
    if (!p || p->kind != Expr::Bin || p->name != "+" || p->args.size() != 2) return false;
    const Expr *b = stripCasts(p->args[0].get()), *k = stripCasts(p->args[1].get());
    return b && b->kind == Expr::Var && b->var == otk && k && k->kind == Expr::Const && k->value == off;
  };
  std::vector<const Expr *> calls;
  forEachExprIn(*kernel.body, [&](const Expr &e) {
    if (e.kind == Expr::Call && e.fn >= 0 && roleOf(f.funcs[(size_t)e.fn]) == "ifma.key_powers") calls.push_back(&e);
  });
  if (calls.size() != 1) return kernel.name + " calls the key setup " + std::to_string(calls.size()) + " times in its own body (once needed)";
  const Expr &call = *calls[0];
  const Function &g = f.funcs[(size_t)call.fn];
  std::vector<size_t> halves;
  for (size_t i = 0; i < g.params.size(); ++i) {
    const Var &v = f.vars[(size_t)g.params[i]];
    if (!v.isRef && v.ty.kind == Type::Vec && v.ty.bits == 128) halves.push_back(i);
  }
  if (halves.size() != 2 || halves[1] >= call.args.size()) return g.name + " does not take r and s as two 128-bit vectors";
  if (!loadOf(call.args[halves[0]].get(), 0) || !loadOf(call.args[halves[1]].get(), 16))
    return f.path + ":" + std::to_string(call.loc.line) + ": the key setup is not handed r = _mm_loadu_si128(" + f.vars[(size_t)otk].name +
           ") and s = _mm_loadu_si128(" + f.vars[(size_t)otk].name + " + 16), the one-time key (RFC 8439 2.6)";
  return "";
}

bool isNameStreamKeysKernel(const Function &k) {
  const std::string suf = "_stream_keys";
  return !contractOf(k).present && k.name.rfind("chapoly_k_", 0) == 0 && k.name.size() > suf.size() &&
         k.name.compare(k.name.size() - suf.size(), suf.size(), suf) == 0;
}

// The claims of the IFMA dialect's ChaCha20 lane helpers (role chacha20.lanes with a "claim";
// docs/verification.md, `chacha-lanes`). Each helper is evaluated bit-exactly on fresh inputs
// (its parameters by position) and every word or byte it produces is proved equal to what the
// claim says, from RFC 8439 2.3's state layout: constants, key words, counter, nonce words.
//   ctr4   v(c0, c1, c2, c3) -> 128-bit lane l = (c_l, 0, 0, 0)
//   init4  (a, b, c, d, key, nonce, ctr): lane l of a = the constants, of b = key words 0..3, of
//          c = key words 4..7, of d = (0, nonce words 0..2) + lane l of ctr
//   blocks4 (o0..o3, x a..d, s a..d): word j of o_k = lane k word j % 4 of row j / 4 of x + s
//          (block k, serialised: RFC 8439 2.3 step 3, the feed-forward)
//   xor64  (out, in, n, ks), n <= 64: out[j] = in[j] ^ byte j of ks for j < n, out[j] unchanged
//          for n <= j < 64; no other byte of out or in touched
//   The word-sliced claims, B = 16 blocks in zmm or 8 in ymm (the vectors' width says which):
//   sliced_init (s0..s15, key, nonce): every lane of s_w = state word w, s12 = 0 (the counter slot)
//   sliced_ctr  v(ctr) -> lane l = ctr + l
//   sliced_xor (out, in, x0..x15, s0..s15): out[64 l + 4 w + k] = in[...] ^ byte k of lane l of
//          x_w + s_w (block l); exactly out[0, 64 B) written
static void proveChachaLanesOnce(const File &f, const Function &fn, const std::string &claim, Obligation &o) {
  static const std::map<std::string, std::string> says = {
      {"ctr4", "128-bit lane l = (c_l, 0, 0, 0)"},
      {"init4", "rows a, b, c, d of every 128-bit lane = RFC 8439 2.3's constants, key words 0..3, 4..7, (0, nonce) + the lane's counter words"},
      {"blocks4", "o_k = block k of rows x + s (feed-forward, 128-bit lane k, words in RFC order)"},
      {"xor64", "for n <= 64: out[j] = in[j] XOR byte j of ks for j < n, out[n..64) unchanged, nothing else touched"},
      {"sliced_init", "every lane of s_w = RFC 8439 2.3 state word w (s12 = 0: the counter is added per chunk)"},
      {"sliced_ctr", "lane l = ctr + l"},
      {"sliced_xor", "out[64 l + 4 w + k] = in[64 l + 4 w + k] XOR byte k of lane l of x_w + s_w, for every block l (one per 32-bit lane); exactly out[0, 64 lanes) written"}};
  auto it = says.find(claim);
  o.what = "claim " + claim + " of " + fn.name + ": " + (it == says.end() ? "?" : it->second);
  auto failWith = [&](const std::string &why) {
    o.res = Res::FAILED;
    o.cex = why;
  };
  if (it == says.end()) return failWith("unknown chacha20.lanes claim \"" + claim + "\" (the verifier proves ctr4, init4, blocks4, xor64, sliced_init, sliced_ctr, sliced_xor)");
  z3::context c;
  SymEval ev(f, c);
  if (!ev.runFunction(fn))
    return failWith("cannot evaluate " + fn.name + " bit-exactly: " + ev.error() + " (line " + std::to_string(ev.errorLoc().line) + ")");
  auto bv = [&](uint64_t v, unsigned w) { return c.bv_val(v, w); };
  // Parameter k by position: its type, its value on entry, its value at the end.
  auto param = [&](size_t k) -> const Var * { return k < fn.params.size() ? &f.vars[(size_t)fn.params[k]] : nullptr; };
  // The vectors' width: 512 bits, or for the word-sliced claims that of their first vector.
  unsigned width = 512;
  if (claim.rfind("sliced_", 0) == 0) {
    const Var *v0 = claim == "sliced_xor" ? param(2) : param(0);
    if (claim == "sliced_ctr") width = fn.ret.kind == Type::Vec ? fn.ret.bits : 0;
    else width = v0 && v0->ty.kind == Type::Vec ? v0->ty.bits : 0;
    if (width != 256 && width != 512) width = 512;
  }
  const unsigned B = width / 32;  // word-sliced: blocks, one per 32-bit lane
  auto needVec = [&](size_t k, bool ref) {
    const Var *v = param(k);
    if (!v || v->ty.kind != Type::Vec || v->ty.bits != width || v->isRef != ref)
      failWith("claim " + claim + ": parameter " + std::to_string(k + 1) + " of " + fn.name + " must be a " + (ref ? "reference to a " : "") + std::to_string(width) + "-bit vector");
    return v ? v->name : std::string();
  };
  auto needPtr = [&](size_t k) {
    const Var *v = param(k);
    if (!v || (v->ty.kind != Type::Ptr && v->ty.kind != Type::Array) || v->isRef)
      failWith("claim " + claim + ": parameter " + std::to_string(k + 1) + " of " + fn.name + " must be a byte pointer");
    return v ? v->name : std::string();
  };
  auto needInt = [&](size_t k, unsigned bits) {
    const Var *v = param(k);
    if (!v || v->ty.kind != Type::Int || v->ty.bits != bits || v->isRef)
      failWith("claim " + claim + ": parameter " + std::to_string(k + 1) + " of " + fn.name + " must be a " + std::to_string(bits) + "-bit integer");
    return v ? v->name : std::string();
  };
  std::string bad;
  auto in = [&](const std::string &n) -> SVal {
    SVal v;
    if (!ev.input(n, v) && bad.empty()) bad = fn.name + " never reads its parameter " + n;
    return v;
  };
  auto out = [&](const std::string &n) -> SVal {
    SVal v;
    if (!ev.value(n, v) && bad.empty()) bad = fn.name + " never sets " + n;
    return v;
  };
  auto w32 = [&](const SVal &v, unsigned i) -> z3::expr {
    if (v.k == SVal::Vec && i < v.w.size()) return v.w[i];
    if (v.k == SVal::Int && i == 0) return v.w[0].get_sort().bv_size() == 32 ? v.w[0] : v.w[0].extract(31, 0);
    return bv(0, 32);
  };
  auto byteOf = [&](const std::string &r, unsigned i) { return c.bv_const((r + "[" + std::to_string(i) + "]").c_str(), 8); };
  std::vector<std::pair<std::string, z3::expr>> eqs;  // what, got == want
  auto want = [&](const std::string &what, const z3::expr &got, const z3::expr &w) { eqs.push_back({what, got == w}); };
  std::vector<z3::expr> pre;
  // Out's bytes the run touched lie in [0, hi) (all of them, with mustAll).
  auto only = [&](const std::string &r, int64_t hi, bool mustAll) {
    std::set<int64_t> offs;
    bool unknown = false;
    ev.touched(r, offs, unknown);
    if (unknown && bad.empty()) bad = fn.name + " writes " + r + " at an offset not known";
    for (int64_t x : offs)
      if ((x < 0 || x >= hi) && bad.empty()) bad = fn.name + " touches " + r + "[" + std::to_string(x) + "], outside [0, " + std::to_string(hi) + ")";
    if (mustAll && (int64_t)offs.size() != hi && bad.empty()) bad = fn.name + " does not touch all of " + r + "[0, " + std::to_string(hi) + ")";
  };
  if (claim == "ctr4") {
    std::string cn[4];
    for (size_t k = 0; k < 4; ++k) cn[k] = needInt(k, 32);
    SVal r;
    if (o.res == Res::OK && !ev.result(r)) bad = fn.name + " returns no value";
    for (unsigned l = 0; l < 4 && o.res == Res::OK && bad.empty(); ++l)
      for (unsigned j = 0; j < 4; ++j)
        want("lane " + std::to_string(l) + " word " + std::to_string(j), w32(r, 4 * l + j), j == 0 ? w32(in(cn[l]), 0) : bv(0, 32));
  } else if (claim == "init4") {
    std::string rows[4], key, nonce, ctr;
    for (size_t k = 0; k < 4; ++k) rows[k] = needVec(k, true);
    key = needPtr(4), nonce = needPtr(5), ctr = needVec(6, false);
    if (o.res == Res::OK) {
      SVal rv[4], cv = in(ctr);
      for (int k = 0; k < 4; ++k) rv[k] = out(rows[k]);
      // Row r word j is state word 4 r + j; row d adds the lane's counter words (to counter 0).
      const std::vector<z3::expr> st = rfcInitialState(c, key, nonce, bv(0, 32));
      for (unsigned l = 0; l < 4 && bad.empty(); ++l)
        for (unsigned r = 0; r < 4; ++r)
          for (unsigned j = 0; j < 4; ++j)
            want(std::string("row ") + "abcd"[r] + " lane " + std::to_string(l) + " word " + std::to_string(j), w32(rv[r], 4 * l + j),
                 r < 3 ? st[4 * r + j] : st[12 + j] + w32(cv, 4 * l + j));
    }
  } else if (claim == "blocks4") {
    std::string o4[4], x[4], sv[4];
    for (size_t k = 0; k < 4; ++k) o4[k] = needVec(k, true), x[k] = needVec(4 + k, false), sv[k] = needVec(8 + k, false);
    if (o.res == Res::OK) {
      SVal ov[4], xv[4], svv[4];
      for (int k = 0; k < 4; ++k) ov[k] = out(o4[k]), xv[k] = in(x[k]), svv[k] = in(sv[k]);
      for (unsigned k = 0; k < 4 && bad.empty(); ++k)
        for (unsigned j = 0; j < 16; ++j)
          want("block " + std::to_string(k) + " word " + std::to_string(j), w32(ov[k], j),
               w32(xv[j / 4], 4 * k + j % 4) + w32(svv[j / 4], 4 * k + j % 4));
    }
  } else if (claim == "xor64") {
    const std::string op = needPtr(0), ip = needPtr(1), n = needInt(2, 64), ks = needVec(3, false);
    if (o.res == Res::OK) {
      std::vector<z3::expr> got;
      SVal kv = in(ks), nv = in(n);
      if (bad.empty() && !ev.written(op, 64, got)) bad = fn.name + " leaves bytes of " + op + "[0, 64) unknown";
      if (bad.empty()) {
        pre.push_back(z3::ule(nv.w[0], bv(64, 64)));
        for (unsigned j = 0; j < 64; ++j) {
          z3::expr b = w32(kv, j / 4).extract(8 * (j % 4) + 7, 8 * (j % 4));
          want("byte " + std::to_string(j), got[j], z3::ite(z3::ult(bv(j, 64), nv.w[0]), byteOf(ip, j) ^ b, byteOf(op, j)));
        }
        only(op, 64, false);
      }
    }
  } else if (claim == "sliced_init") {
    std::string sn[16];
    for (size_t k = 0; k < 16; ++k) sn[k] = needVec(k, true);
    const std::string key = needPtr(16), nonce = needPtr(17);
    const std::vector<z3::expr> st = rfcInitialState(c, key, nonce, bv(0, 32));  // s12 = 0
    for (unsigned w = 0; w < 16 && o.res == Res::OK && bad.empty(); ++w) {
      SVal v = out(sn[w]);
      for (unsigned l = 0; l < B && bad.empty(); ++l) want("s" + std::to_string(w) + " lane " + std::to_string(l), w32(v, l), st[w]);
    }
  } else if (claim == "sliced_ctr") {
    const std::string cn = needInt(0, 32);
    SVal r;
    if (o.res == Res::OK && !ev.result(r)) bad = fn.name + " returns no value";
    if (o.res == Res::OK && bad.empty() && (r.k != SVal::Vec || r.w.size() != B)) bad = fn.name + " does not return a vector of " + std::to_string(B) + " 32-bit lanes";
    for (unsigned l = 0; l < B && o.res == Res::OK && bad.empty(); ++l)
      want("lane " + std::to_string(l), w32(r, l), w32(in(cn), 0) + bv(l, 32));
  } else if (claim == "sliced_xor") {
    const std::string op = needPtr(0), ip = needPtr(1);
    std::string x[16], sv[16];
    for (size_t k = 0; k < 16; ++k) x[k] = needVec(2 + k, false), sv[k] = needVec(18 + k, false);
    if (o.res == Res::OK) {
      std::vector<z3::expr> got;
      if (!ev.written(op, (int)(64 * B), got)) bad = fn.name + " leaves bytes of " + op + "[0, " + std::to_string(64 * B) + ") unknown";
      SVal xv[16], svv[16];
      for (int k = 0; k < 16 && bad.empty(); ++k) xv[k] = in(x[k]), svv[k] = in(sv[k]);
      for (unsigned l = 0; l < B && bad.empty(); ++l)
        for (unsigned w = 0; w < 16; ++w) {
          const z3::expr word = w32(xv[w], l) + w32(svv[w], l);
          for (unsigned k = 0; k < 4; ++k) {
            const unsigned q = 64 * l + 4 * w + k;
            want("block " + std::to_string(l) + " byte " + std::to_string(4 * w + k), got[q], byteOf(ip, q) ^ word.extract(8 * k + 7, 8 * k));
          }
        }
      if (bad.empty()) only(op, 64 * B, true);
    }
  }
  // Memory: the xor claims write their out (parameter 1) and nothing else; the others write
  // through no pointer (a store through `in` would overwrite the plaintext, or in place the
  // ciphertext: found by the stop-29 review).
  for (size_t k = 0; k < fn.params.size() && o.res == Res::OK && bad.empty(); ++k) {
    const Var &v = f.vars[(size_t)fn.params[k]];
    const bool isOut = k == 0 && (claim == "xor64" || claim == "sliced_xor");
    if ((v.ty.kind == Type::Ptr || v.ty.kind == Type::Array) && !isOut && ev.wrote(v.name))
      bad = fn.name + " stores through " + v.name + ", which its claim " + claim + " does not write";
  }
  if (o.res != Res::OK) return;
  if (!bad.empty()) return failWith(bad);
  // Equal normal forms need no solver; the rest one small query each (qfbv).
  z3::solver sv = z3::tactic(c, "qfbv").mk_solver();
  z3::params ps(c);
  ps.set("timeout", prover32Timeout());
  sv.set(ps);
  for (const auto &p : pre) sv.add(p);
  unsigned bySolver = 0;
  for (const auto &[what, eq] : eqs) {
    if (z3::eq(eq.arg(0).simplify(), eq.arg(1).simplify())) continue;
    ++bySolver;
    sv.push();
    sv.add(!eq);
    const z3::check_result r = answers::checkCached(sv);
    sv.pop();
    if (r == z3::unsat) continue;
    std::vector<std::pair<std::string, z3::expr>> shown;
    std::string cex;
    if (getenv("CHAPOLY_VERIFY_TRACE")) fprintf(stderr, "chacha-lanes %s: %s\n", what.c_str(), eq.to_string().c_str());
    prove(c, pre, eq, prover32Timeout(), shown, cex);
    return failWith(what + " is not what the claim says" + (cex.empty() ? std::string(" (not proved in time)") : ": " + cex));
  }
  o.note = std::to_string(eqs.size()) + " words/bytes, " + std::to_string(eqs.size() - bySolver) + " equal as normal-form terms, the rest by the solver";
}

// Each kernel reaching a claimed lane helper lists its chacha-lanes obligation; proved once per
// file and run (as chacha-block).
static void proveChachaLanes(const File &f, const Function &fn, const std::string &claim, const BoundsOptions &opt, KernelResult &kr) {
  Obligation &o = addObl(kr, f, "chacha-lanes", fn.loc, "", fn.name);
  if (!selected(opt, o)) {
    o.skipped = true;
    return;
  }
  const std::string key = helperKey(f, fn, "chacha-lanes");
  if (const Obligation *done = keptProof(f, key)) {
    reuseProof(o, *done);
    return;
  }
  auto t0 = Clock::now();
  proveChachaLanesOnce(f, fn, claim, o);
  o.ms = msSince(t0);
  keepProof(f, key, o, kr.kernel);
}

// A chacha20.lanes helper without a claim composes: it calls helpers, copies vectors and runs
// ChaCha20 round loops (each proved by chacha-round, with the constants declared before them:
// the byte-shuffle rotation masks); a vector intrinsic anywhere else would carry no proof. ""
// when that holds, else where it does not.
static std::string unclaimedLanes(const File &f, const Function &fn) {
  std::string why;
  auto isRoundLoop = [](const Stmt &s) {
    return (s.kind == Stmt::For || s.kind == Stmt::While || s.kind == Stmt::DoWhile) && s.then && countRotations(*s.then) > 0;
  };
  // Reads of a variable outside the round loops (a constant may serve the rounds only).
  std::function<bool(const Expr &, int)> readsE = [&](const Expr &e, int v) {
    if (e.kind == Expr::Var && e.var == v) return true;
    for (const auto &a : e.args)
      if (a && readsE(*a, v)) return true;
    return false;
  };
  std::function<bool(const Stmt &, int, const Stmt *)> usedOutside = [&](const Stmt &s, int v, const Stmt *self) {
    if (isRoundLoop(s)) return false;
    if (&s != self && ((s.e && readsE(*s.e, v)) || (s.inc && readsE(*s.inc, v)))) return true;
    bool used = false;
    forEachChild(s, [&](const Stmt &ch) { used = used || usedOutside(ch, v, self); });
    return used;
  };
  // What a round loop may assign: its counter, its own locals and the state chacha-round
  // compares (the row reference parameters, or the word registers x0..x15).
  auto roundLoopWrites = [&](const Stmt &lp) -> std::string {
    std::set<int> inner;
    std::string bad;
    std::function<void(const Expr &)> walkE = [&](const Expr &e) {
      if ((e.kind == Expr::Assign || e.kind == Expr::IncDec) && !e.args.empty() && e.args[0] && e.args[0]->kind == Expr::Var &&
          bad.empty()) {
        const int v = e.args[0]->var;
        const Var &var = f.vars[(size_t)v];
        bool state = var.ty.kind == Type::Vec && (var.isRef || (!var.isParam && var.name.size() >= 2 && var.name[0] == 'x' &&
                                                                var.name.find_first_not_of("0123456789", 1) == std::string::npos));
        if (!inner.count(v) && !state) bad = var.name;
      }
      for (const auto &a : e.args)
        if (a) walkE(*a);
    };
    std::function<void(const Stmt &)> walkS = [&](const Stmt &s) {
      if (s.kind == Stmt::Decl) inner.insert(s.var);
      if (s.e) walkE(*s.e);
      if (s.inc) walkE(*s.inc);
      forEachChild(s, walkS);
    };
    if (lp.init) walkS(*lp.init);
    if (lp.then) walkS(*lp.then);
    return bad;
  };
  std::function<bool(const Expr &)> readsVar = [&](const Expr &e) {
    if (e.kind == Expr::Var || e.kind == Expr::Call) return true;
    for (const auto &a : e.args)
      if (a && readsVar(*a)) return true;
    return false;
  };
  std::function<void(const Expr &)> walkE = [&](const Expr &e) {
    if (!why.empty()) return;
    if (e.kind == Expr::Intrin && e.ty.kind == Type::Vec)
      why = fn.name + " has no claim in its chacha20.lanes contract, and " + e.name + " (line " + std::to_string(e.loc.line) +
            ") lies outside its round loops: no proof covers it";
    for (const auto &a : e.args)
      if (a) walkE(*a);
  };
  std::function<void(const Stmt &)> walkS = [&](const Stmt &s) {
    if (!why.empty()) return;
    if (isRoundLoop(s)) {
      if (std::string v = roundLoopWrites(s); !v.empty())
        why = fn.name + "'s round loop (line " + std::to_string(s.loc.line) + ") assigns " + v +
              ", which is not its state (row reference parameters or x0..x15) nor its own: no proof covers it";
      return;
    }
    // A constant the round loops use and nothing else (a byte-shuffle rotation mask).
    if (s.kind == Stmt::Decl && s.e && !readsVar(*s.e) && !usedOutside(*fn.body, s.var, &s)) return;
    // The state a round helper hands back changes only in its round loops: a copy into a row
    // reference parameter outside them (`xb = xc;` before the loop) is covered by no proof.
    if (s.e && s.e->kind == Expr::Assign && !s.e->args.empty() && s.e->args[0] && s.e->args[0]->kind == Expr::Var) {
      const Var &v = f.vars[(size_t)s.e->args[0]->var];
      if (v.isRef && v.ty.kind == Type::Vec) {
        why = fn.name + " assigns its state " + v.name + " outside its round loops (line " + std::to_string(s.loc.line) +
              "): no proof covers it";
        return;
      }
    }
    if (s.e) walkE(*s.e);
    if (s.inc) walkE(*s.inc);
    forEachChild(s, walkS);
  };
  if (fn.body) walkS(*fn.body);
  return why;
}

// The glue roles of the IFMA dialect, which no value proof covers by themselves (their loops are
// proved as block steps, their calls by contract): "" when `fn` has the shape its role allows,
// else why not. ifma.aead: returns nothing and takes no vector and no reference parameter (the
// AEAD drivers take buffers, lengths and flags). chacha20.lanes: no 64-bit lane arithmetic (IFMA
// multiply-adds, 64-bit adds or shifts: Poly1305 limb work), no call of an ifma.* or
// poly1305.* helper, and no scalar result. Other roles: "".
static std::string glueShape(const File &f, const Function &fn) {
  const std::string role = roleOf(fn);
  if (role == "ifma.aead") {
    if (fn.ret.kind != Type::Void) return "an ifma.aead helper returns nothing, " + fn.name + " returns a value";
    for (int p : fn.params) {
      const Var &v = f.vars[(size_t)p];
      if (v.isRef || v.ty.kind == Type::Vec || v.ty.kind == Type::Mask || v.ty.elemIsVec)
        return "an ifma.aead helper takes buffers, lengths and flags, " + fn.name + " takes " +
               (v.isRef ? "the reference parameter " : "the vector parameter ") + v.name;
    }
    return "";
  }
  if (role != "chacha20.lanes") return "";
  if (fn.ret.kind == Type::Int || fn.ret.kind == Type::Bool)
    return "a chacha20.lanes helper returns vectors or nothing, " + fn.name + " returns a scalar";
  std::string why;
  std::function<void(const Expr &)> walkE = [&](const Expr &e) {
    if (!why.empty()) return;
    if (e.kind == Expr::Intrin) {
      static const char *limbOps[] = {"madd52", "add_epi64", "sub_epi64", "slli_epi64", "srli_epi64", "sllv_epi64",
                                      "srlv_epi64", "mul_epu32", "mullo_epi64"};
      for (const char *op : limbOps)
        if (e.name.find(op) != std::string::npos)
          why = "a chacha20.lanes helper does 32-bit lane work; " + fn.name + " uses " + e.name + " (line " +
                std::to_string(e.loc.line) + "), 64-bit limb arithmetic";
    }
    if (e.kind == Expr::Call && e.fn >= 0) {
      const std::string r = roleOf(f.funcs[(size_t)e.fn]);
      if (r.rfind("ifma.", 0) == 0 || r.rfind("poly1305.", 0) == 0)
        why = "a chacha20.lanes helper computes no Poly1305; " + fn.name + " calls the " + r + " helper " +
              f.funcs[(size_t)e.fn].name + " (line " + std::to_string(e.loc.line) + ")";
    }
    for (const auto &a : e.args)
      if (a) walkE(*a);
  };
  std::function<void(const Stmt &)> walkS = [&](const Stmt &s) {
    if (s.e) walkE(*s.e);
    if (s.inc) walkE(*s.inc);
    forEachChild(s, walkS);
  };
  if (fn.body) walkS(*fn.body);
  return why;
}

// The helpers a kernel of the IFMA dialect may reach, by their contract's role: a helper without a
// role this verifier proves would carry no value proof, so it is a failure, never skipped (a helper
// whose contract line is lost fails loudly; names play no part).
static bool knownHelper(const Function &fn, const BoundsOptions &opt) {
  static const std::set<std::string> roles = {
      // proved by role (mul-helper, key-setup, partial-block, helper, state-load, state-store)
      "ifma.mul", "ifma.wrap", "ifma.carry", "ifma.lane_sum", "ifma.key_powers", "ifma.settle",
      "ifma.load_partial", "ifma.step_partial", "ifma.lengths", "ifma.short_step", "ifma.lane0",
      "ifma.state_load", "ifma.state_store", "ifma.powers_store", "ifma.powers_load",
      // glue whose loops are proved as block steps and whose calls are checked by contract
      "ifma.absorb", "ifma.aead",
      // ChaCha20 set-up, rounds and output: the round loops are proved by chacha-round
      "chacha20.lanes"};
  return roles.count(roleOf(fn)) > 0 || opt.finalReduction.count(fn.name) > 0;
}

// The closed world of the entry points: every function of the file with external linkage is a
// kernel the runtime links by its C name, in a role whose obligations this verifier makes. With
// contracts (the mul64 dialect) the kernel's own contract names one of the kernel roles, and an ABI
// name suffix it carries (emitted/README.md) names the same one, since some walks read the name;
// without (the IFMA dialect) the ABI name chapoly_k_<family>_<entry> says what it is, for an entry
// that dialect proves. Before stop 44 an exported function with neither made only `kernel-bytes`:
// a copy of the plaintext with a zero tag, named `_seal2`, proved "1 obligations OK", and a C++
// function with external linkage was not proved at all.
namespace {
// Each entry's C signature (emitted/README.md, "Kernel ABI"; runtime/src/internal/chapoly_internal.h
// calls the kernels by position): the parameters' names, which the proofs read the buffers and
// lengths by, in order, and their types. Kind 'o' uint8_t * (written), 'i' const uint8_t *, 'z'
// size_t, 'c' uint32_t; n > 0: written T p[n], the buffer's size the proofs take (0: a plain
// pointer, sized by a length parameter). Since stop 44: a kernel whose nonce and key parameters
// were swapped against the header's order proved (the runtime would hand it the nonce as the key).
struct AbiParam {
  const char *name;
  char kind;
  unsigned n;
};
using Sig = std::vector<AbiParam>;

// The kernel entries: ABI name suffix, contract role (mul64 dialect; "" for an entry only the
// IFMA dialect has), whether the IFMA dialect proves an entry of that name, and the signature
// (the IFMA dialect's where it differs: its update entries take the key-power state pw).
struct KernelEntry {
  const char *suffix;
  const char *role;
  bool ifma;
  Sig sig, ifmaSig;
};
const std::vector<KernelEntry> &kernelEntries() {
  static const AbiParam nonce{"nonce", 'i', 12}, key{"key", 'i', 32}, len{"len", 'z', 0}, counter{"counter", 'c', 0},
      tag{"tag", 'o', 16}, acc{"acc", 'o', 24}, otk{"otk", 'i', 32}, pw{"pw", 'i', 192};
  auto update = [&](const char *out, const char *in, const AbiParam &keys) {
    return Sig{{out, 'o', 0}, {in, 'i', 0}, len, acc, keys, nonce, key, counter};
  };
  // Longer suffixes first: "_seal_update" before "_seal".
  static const std::vector<KernelEntry> e = {
      {"_seal_update", "aead.seal_update", true, update("ct", "pt", otk), update("ct", "pt", pw)},
      {"_open_update", "aead.open_update", true, update("pt", "ct", otk), update("pt", "ct", pw)},
      {"_poly1305_update", "poly1305.update", true, {acc, {"msg", 'i', 0}, len, otk}, {acc, {"msg", 'i', 0}, len, pw}},
      {"_poly1305_finish", "poly1305.finish", false, {tag, {"acc", 'i', 24}, otk}, {}},
      {"_stream_keys", "", true, {}, {{"pw", 'o', 192}, otk}},
      {"_seal", "aead.seal", true, {{"ct", 'o', 0}, tag, {"pt", 'i', 0}, len, {"aad", 'i', 0}, {"aad_len", 'z', 0}, nonce, key}, {}},
      {"_open", "aead.open", true, {{"pt", 'o', 0}, tag, {"ct", 'i', 0}, len, {"aad", 'i', 0}, {"aad_len", 'z', 0}, nonce, key}, {}},
      {"_poly1305", "poly1305.oneshot", true, {tag, {"msg", 'i', 0}, len, key}, {}},
      {"_chacha20", "chacha20.xor", true, {{"out", 'o', 0}, {"in", 'i', 0}, len, nonce, key, counter}, {}}};
  return e;
}

// "" when `k`'s parameters are the ABI's, else the first difference.
std::string abiMismatch(const File &f, const Function &k, const Sig &want) {
  std::string sig;
  for (const AbiParam &a : want) {
    static const std::map<char, std::string> ty = {{'o', "uint8_t *"}, {'i', "const uint8_t *"}, {'z', "size_t "}, {'c', "uint32_t "}};
    sig += std::string(sig.empty() ? "" : ", ") + (a.n ? (a.kind == 'i' ? "const uint8_t " : "uint8_t ") + std::string(a.name) + "[" + std::to_string(a.n) + "]"
                                                       : ty.at(a.kind) + a.name);
  }
  auto bad = [&](const std::string &what) { return k.name + " " + what + ": its role's C signature is (" + sig + ")"; };
  if (k.params.size() != want.size()) return bad("has " + std::to_string(k.params.size()) + " parameters");
  if (k.ret.kind != Type::Void) return bad("returns a value");
  for (size_t i = 0; i < want.size(); ++i) {
    const Var &v = f.vars[(size_t)k.params[i]];
    const AbiParam &a = want[i];
    const std::string at = "parameter " + std::to_string(i + 1) + " (" + v.name + ")";
    if (v.name != a.name) return bad(at + " is not named " + a.name);
    if (v.isRef) return bad(at + " is a reference");
    if (a.kind == 'z' || a.kind == 'c') {
      const unsigned bits = a.kind == 'z' ? 64 : 32;
      if (v.ty.kind != Type::Int || v.ty.bits != bits || v.ty.isSigned) return bad(at + " is not an unsigned " + std::to_string(bits) + "-bit integer");
      continue;
    }
    if ((v.ty.kind != Type::Ptr && v.ty.kind != Type::Array) || v.ty.bits != 8 || v.ty.isSigned || v.ty.elemIsVec)
      return bad(at + " is not a pointer to bytes");
    if (v.ty.pointeeConst != (a.kind == 'i')) return bad(at + (a.kind == 'i' ? " is not const" : " is const"));
    if (v.paramCount != a.n) return bad(at + " is written with " + (v.paramCount ? "[" + std::to_string(v.paramCount) + "]" : std::string("no size")));
  }
  return "";
}
}  // namespace

static void proveKernelRole(const File &f, const Function &kernel, const BoundsOptions &opt, KernelResult &kr) {
  Obligation &o = addObl(kr, f, "kernel-role", kernel.loc,
                         kernel.name + " is a kernel entry point (a C name, and a role whose obligations this verifier makes)",
                         kernel.name);
  if (!selected(opt, o)) {
    o.skipped = true;
    return;
  }
  if (markedBoundsOnly(kernel)) {  // hand-written samples only (--allow-bounds-only)
    o.what = kernel.name + ": a hand-written sample marked // chapoly-bounds-only: no role, no value proof";
    return;
  }
  auto fail = [&](const std::string &why) {
    o.res = Res::FAILED;
    o.cex = why;
  };
  if (!kernel.hasCName) {
    fail(kernel.name + " has external linkage but no C name: a kernel file defines extern \"C\" kernels (the names "
         "the runtime links, emitted/README.md) and static helpers, so this function is linked into the library "
         "with no role and no proof of what it computes");
    return;
  }
  const KernelEntry *byName = nullptr, *byRole = nullptr;
  const Contract kc = contractOf(kernel);
  std::string roles;
  for (const KernelEntry &e : kernelEntries()) {
    const std::string suf = e.suffix;
    if (byName == nullptr && kernel.name.rfind("chapoly_k_", 0) == 0 && kernel.name.size() > suf.size() &&
        kernel.name.compare(kernel.name.size() - suf.size(), suf.size(), suf) == 0)
      byName = &e;
    if (*e.role == 0) continue;
    if (kc.present && kc.role == e.role) byRole = &e;
    roles += std::string(roles.empty() ? "" : ", ") + e.role;
  }
  if (usesContracts(f)) {
    if (byRole == nullptr) {
      fail(kernel.name + (kc.present ? " has the contract role " + kc.role + ", which is not a kernel's"
                                     : std::string(" has no chapoly-contract")) +
           ": an exported function of a file with contracts must name its kernel role (" + roles +
           "), which says what it must prove; without one it would be linked with no proof of what it computes");
    } else if (byName != nullptr && byName != byRole) {
      fail(kernel.name + "'s name says " + byName->role + " (ABI suffix " + byName->suffix + ") but its contract says " +
           kc.role + ": the two must agree");
    } else if (std::string why = abiMismatch(f, kernel, byRole->sig); !why.empty()) {
      fail(why);
    } else {
      o.what = kernel.name + " is a kernel entry point of role " + kc.role + ", with its role's C signature";
    }
    return;
  }
  if (byName == nullptr || !byName->ifma) {
    fail(kernel.name + " is not the ABI name of an entry this dialect proves (chapoly_k_<family>_ followed by seal, open, "
         "poly1305, chacha20, seal_update, open_update, poly1305_update or stream_keys; files with contracts name the role in one): "
         "it would be linked with no proof of what it computes");
    return;
  }
  if (std::string why = abiMismatch(f, kernel, byName->ifmaSig.empty() ? byName->sig : byName->ifmaSig); !why.empty()) fail(why);
  else o.what = kernel.name + " is a kernel entry point (ABI name suffix " + byName->suffix + "), with its C signature";
}

// A kernel that ends in a tag writes its tag buffer only through the final-reduction helper
// (role poly1305.final; in contract-free samples, one finalReductionHelpers names), whose proof
// (`final-reduction`, `final-add-s`) covers what it stores: the
// tag parameter, and every helper parameter it is handed to, may appear only as a call argument,
// and only calls of the final helper use it. Since stop 44 (the closed-world review: `tag[0] ^= 1`
// after the final call proved in the scalar seal, poly1305 and poly1305_finish kernels and in the
// AVX-512 poly1305 kernel).
static void proveTagFlow(const File &f, const Function &kernel, const BoundsOptions &opt, KernelResult &kr) {
  if (!producesTag(kernel)) return;
  const int tagVar = paramNamed(f, kernel, "tag");
  Obligation &o = addObl(kr, f, "tag-flow", kernel.loc,
                         "the tag buffer is written only by the final-reduction helper (poly1305.final): every use of it, "
                         "in the kernel and in the helpers it is handed to, is an argument of a call that leads there",
                         kernel.name);
  if (!selected(opt, o)) {
    o.skipped = true;
    return;
  }
  std::string why;
  if (tagVar < 0) {
    why = kernel.name + " makes a tag but has no parameter named tag (the kernel ABI, emitted/README.md)";
  } else {
    // The final helpers the `final-reduction` proofs cover: role poly1305.final, or (the
    // hand-written samples without contracts) marked or named as such.
    std::vector<FlowSite> finals;
    why = followParam(f, f.findFunc(kernel.name), tagVar, "the tag buffer",
                      [&](const Function &g) { return roleOf(g) == "poly1305.final" || opt.finalReduction.count(g.name) != 0; },
                      finals);
    if (why.empty() && finals.empty()) why = kernel.name + " never hands its tag buffer to the final-reduction helper";
  }
  if (!why.empty()) {
    o.res = Res::FAILED;
    o.cex = why;
  }
}

void proveSemantics(const File &f, const Function &kernel, Prover &prover, const BoundsOptions &opt,
                    KernelResult &kr) {
  proveKernelRole(f, kernel, opt, kr);
  proveTagFlow(f, kernel, opt, kr);
  proveFinal(f, prover, opt, kr);
  const bool contracts = usesContracts(f);
  if (contracts) proveScalarContracts(f, kernel, opt, kr);
  {
    // A kernel that computes Poly1305 must end in a proved final reduction: one that multiplies
    // with IFMA or 64x64->128, or whose role (contract, else the ABI name) produces a tag.
    bool poly = false, fin = false;
    for (int fi : reachable(f, kernel))
      poly = poly ||
             countIntrinsic(*f.funcs[(size_t)fi].body, "_mm512_madd52lo_epu64") +
                     countIntrinsic(*f.funcs[(size_t)fi].body, "_mm256_madd52lo_epu64") > 0 ||
             countMul128(*f.funcs[(size_t)fi].body) > 0;
    poly = poly || producesTag(kernel);
    // The streaming entries that continue an accumulator (poly1305.update, aead.*_update) hand h
    // on through the proved state helpers instead; only poly1305.finish ends in a tag.
    Contract kc = contractOf(kernel);
    if (kc.present && isStreamRole(kc.role) && kc.role != "poly1305.finish") poly = false;
    if (isNameStreamKernel(kernel)) {
      // The AVX-512 dialect's update kernels: h enters through p1305_state_load and leaves through
      // p1305_state_store, both proved bit-exactly (proveStateHelpers44).
      poly = false;
      bool load = false, store = false;
      for (int fi : reachable(f, kernel)) {
        load = load || roleOf(f.funcs[(size_t)fi]) == "ifma.state_load";
        store = store || roleOf(f.funcs[(size_t)fi]) == "ifma.state_store";
      }
      Obligation &o = addObl(kr, f, "state-handover", kernel.loc,
                             "h enters through an ifma.state_load helper and leaves through an ifma.state_store helper; "
                             "the state parameter is used only there, the store comes last and is handed the loaded limbs",
                             kernel.name);
      if (!selected(opt, o)) {
        o.skipped = true;
      } else if (!load || !store) {
        o.res = Res::FAILED;
        o.cex = std::string("the update kernel reaches no ") + (!load ? "ifma.state_load" : "ifma.state_store") + " helper" +
                ": h would cross calls unproved";
      } else if (const int acc = paramNamed(f, kernel, "acc"); acc < 0) {
        o.res = Res::FAILED;
        o.cex = kernel.name + " has no state parameter acc[24] (the update ABI, kernel-role)";
      } else {
        // The state parameter, by name (its position is the ABI's, which kernel-role checks).
        std::string why = stateFlow(f, kernel, acc, "ifma.state_load", "ifma.state_store", true);
        if (!why.empty()) {
          o.res = Res::FAILED;
          o.cex = why;
        }
      }
      proveStateHelpers44(f, kernel, prover, opt, kr);
      // The lane key powers come from the key-power state (the parameter pw)
      // through one ifma.powers_load helper, and the state is used nowhere else.
      Obligation &ok = addObl(kr, f, "key-handover", kernel.loc,
                              "the lane key powers enter through one ifma.powers_load helper from the key-power state "
                              "parameter, which is used nowhere else",
                              kernel.name);
      if (!selected(opt, ok)) {
        ok.skipped = true;
      } else {
        const int pw = paramNamed(f, kernel, "pw");
        std::string why = pw < 0 ? kernel.name + " has no key-power state parameter pw[192] (the update ABI, kernel-role)"
                                 : stateFlow(f, kernel, pw, "ifma.powers_load", "ifma.powers_store", false);
        if (!why.empty()) ok.res = Res::FAILED, ok.cex = why;
      }
      provePowersHelpers(f, kernel, prover, opt, kr);
    }
    if (isNameStreamKeysKernel(kernel)) {
      // chapoly_k_*_stream_keys (pw, otk): one key setup, its lane powers stored into pw by one
      // ifma.powers_store helper (the call-contract check: exactly the setup's q), pw used nowhere else.
      poly = false;  // it makes no tag: its key setup is proved by key-setup, its store by powers-store
      bool setup = false;
      for (int fi : reachable(f, kernel)) setup = setup || roleOf(f.funcs[(size_t)fi]) == "ifma.key_powers";
      Obligation &ok = addObl(kr, f, "key-handover", kernel.loc,
                              "the key-power state parameter is written by one ifma.powers_store helper, handed the lane "
                              "powers of the kernel's key setup, which takes r and s from otk[0..16) and otk[16..32); pw is "
                              "used nowhere else",
                              kernel.name);
      if (!selected(opt, ok)) {
        ok.skipped = true;
      } else {
        std::string why = !setup ? kernel.name + " reaches no key setup (ifma.key_powers)"
                          : kernel.params.size() != 2 ? kernel.name + " does not have the stream-keys ABI (pw[192], otk[32])"
                                                      : stateFlow(f, kernel, kernel.params[0], "ifma.powers_store", "", false);
        if (why.empty()) why = setupTakesOtk(f, kernel, kernel.params[1]);
        if (!why.empty()) ok.res = Res::FAILED, ok.cex = why;
      }
      provePowersHelpers(f, kernel, prover, opt, kr);
    }
    if (kc.present && isStreamRole(kc.role)) {
      // The accumulator crosses calls only through the proved state helpers: a streaming kernel
      // loads it with a poly1305.state_load helper and (unless it ends in the tag) stores it back
      // with a poly1305.state_store helper.
      bool load = false, store = false;
      for (int fi : reachable(f, kernel)) {
        Contract hc = contractOf(f.funcs[(size_t)fi]);
        load = load || (hc.present && hc.role == "poly1305.state_load");
        store = store || (hc.present && hc.role == "poly1305.state_store");
      }
      const bool need_store = kc.role != "poly1305.finish";
      Obligation &o = addObl(kr, f, "state-handover", kernel.loc,
                             "h enters through a poly1305.state_load helper" +
                                 std::string(need_store ? " and leaves through a poly1305.state_store helper; the state "
                                                          "parameter is used only there, the store comes last and is "
                                                          "handed the loaded limbs"
                                                        : "; the state parameter is used only there"),
                             kernel.name);
      if (!selected(opt, o)) {
        o.skipped = true;
      } else if (!load || (need_store && !store)) {
        o.res = Res::FAILED;
        o.cex = std::string("the ") + kc.role + " kernel reaches no " +
                (!load ? "poly1305.state_load" : "poly1305.state_store") + " helper: h would cross calls unproved";
      } else {
        const int sp = paramNamed(f, kernel, kc.state);
        std::string why = sp < 0 ? kernel.name + " has no parameter \"" + kc.state + "\" (the contract's state)"
                                 : stateFlow(f, kernel, sp, "poly1305.state_load", "poly1305.state_store", need_store);
        if (!why.empty()) {
          o.res = Res::FAILED;
          o.cex = why;
        }
      }
    }
    for (const auto &o : kr.obligations) fin = fin || o.kind == "final-reduction";
    if (poly && !fin) {
      Obligation &o = addObl(kr, f, "final-reduction", kernel.loc, "no final-reduction helper", kernel.name);
      if (selected(opt, o)) {
        o.res = Res::FAILED;
        o.cex = "the kernel computes Poly1305 (it multiplies with IFMA or 64x64->128, or its role makes a tag) but "
                "calls no final-reduction helper (a function named *final* or marked // chapoly-final-reduction, "
                "taking the tag pointer and the limbs): the tag is unproved";
      } else {
        o.skipped = true;
      }
    }
    if (contracts) closedWorld(f, kernel, opt, kr);
    // The obligation maker the kernel-body walks take: one of `kind`, or nullptr when not selected.
    auto adder = [&](const std::string &kind) {
      return [&, kind](SrcLoc l, const std::string &what) -> Obligation * {
        Obligation &o = addObl(kr, f, kind, l, what, kernel.name);
        if (!selected(opt, o)) o.skipped = true;
        return o.skipped ? nullptr : &o;
      };
    };
    if (contracts) {
      proveKernelBytes(f, kernel, adder("kernel-bytes"));  // the body's own memory accesses (kernelbytes.cpp)
      proveKeystream(f, kernel, adder("keystream"));       // which keystream byte each output byte gets
      proveOutCoverage(f, kernel, adder("out-coverage"));  // every output byte is written
      proveKeystreamLoopsRvv(f, kernel, adder("chacha-block"));  // RVV loops: counter, offsets follow vl (rvv.cpp)
    }
    for (int fi : reachable(f, kernel)) {
      const Function &fn = f.funcs[(size_t)fi];
      if (contracts) break;  // helpers are known by their contracts (closedWorld), not by name
      const bool boundsOnly = markedBoundsOnly(fn);  // hand-written samples only: no value proof
      if (&fn != &kernel) {
        // The glue roles carry no value proof of their own: a proved helper relabelled as glue
        // would lose its proof, so glue must have a shape no proved role has. A chacha20.lanes
        // helper proves its claim, or without one only composes (unclaimedLanes).
        std::string what = "helper " + fn.name + " has the shape of its role " + roleOf(fn);
        std::string why = glueShape(f, fn);
        if (why.empty() && roleOf(fn) == "chacha20.lanes") {
          const std::string claim = contractField(fn.contract, "claim");
          if (!claim.empty()) proveChachaLanes(f, fn, claim, opt, kr);
          else if (!boundsOnly) why = unclaimedLanes(f, fn), what = "helper " + fn.name + " (chacha20.lanes without a claim)";
        }
        if (!why.empty()) {
          Obligation &o = addObl(kr, f, "helper", fn.loc, what, fn.name);
          if (!selected(opt, o)) {
            o.skipped = true;
          } else {
            o.res = Res::FAILED;
            o.cex = why;
          }
          continue;
        }
      }
      if (&fn == &kernel || knownHelper(fn, opt)) continue;
      Obligation &o = addObl(kr, f, "helper", fn.loc, "unknown helper " + fn.name, fn.name);
      if (!selected(opt, o)) {
        o.skipped = true;
        continue;
      }
      if (boundsOnly) {  // hand-written test kernels only: the generator never emits the marker
        o.what = "helper " + fn.name + ": bounds only (marked // chapoly-bounds-only), no value proof";
        continue;
      }
      o.res = Res::FAILED;
      o.cex = "chapoly-verify has no value proof for helper '" + fn.name + "'" +
              (roleOf(fn).empty() ? std::string(": it has no chapoly-contract line") : ": its role " + roleOf(fn) + " is not one the IFMA dialect proves") +
              " (verify/src/proofs.cpp, knownHelper; docs/verification.md, \"Contracts\")";
    }
  }
  proveChacha(f, kernel, prover, opt, kr);
  // (e) outside the block loops: the multiply helper used by the key setup, the settle and the
  // partial steps, and the 20*b helper, when this kernel reaches them.
  (void)prover;
  for (int fi : reachable(f, kernel)) {
    const Function &fn = f.funcs[(size_t)fi];
    const std::string role = roleOf(fn);
    bool mul = role == "ifma.mul", wrap = role == "ifma.wrap";
    if (!mul && !wrap) continue;
    auto t0 = Clock::now();
    Obligation &o = addObl(kr, f, "mul-helper", fn.loc, "", fn.name);
    if (!selected(opt, o)) {
      o.skipped = true;
      continue;
    }
    BlockStepResult r = proveMulHelper(f, fn, wrap);
    o.what = r.what;
    o.res = r.res;
    o.cex = r.cex;
    o.note = r.note;
    o.ms = msSince(t0);
  }
  // (d)/(e) the other helpers, each with the multiply replaced by its proved contract: the key
  // powers, the radix hand-offs (lane sum, settle, length block), the partial blocks.
  for (int fi : reachable(f, kernel)) {
    const Function &fn = f.funcs[(size_t)fi];
    static const std::map<std::string, std::string> kinds = {
        {"ifma.key_powers", "key-setup"}, {"ifma.load_partial", "partial-block"},
        {"ifma.carry", "helper"},         {"ifma.lane_sum", "helper"},
        {"ifma.settle", "helper"},        {"ifma.step_partial", "helper"},
        {"ifma.lengths", "helper"},       {"ifma.short_step", "helper"},
        {"ifma.lane0", "helper"}};
    auto k = kinds.find(roleOf(fn));
    if (k == kinds.end()) continue;
    auto t0 = Clock::now();
    Obligation &o = addObl(kr, f, k->second, fn.loc, "", fn.name);
    if (!selected(opt, o)) {
      o.skipped = true;
      continue;
    }
    // proveHelper reads the helper alone: proved once per file and run (provedOnce).
    provedOnce(f, fn, "helper:" + k->second, kr.kernel, o, [&] {
      BlockStepResult r = proveHelper(f, fn);
      o.what = r.what;
      o.res = r.res;
      o.cex = r.cex;
      o.note = r.note;
    });
    o.ms = msSince(t0);
  }
  if (!usesContracts(f)) {
    // The IFMA dialect's memory bounds (kernelbytes.cpp: every helper walked, vector loads and
    // stores by their footprints). The slowest semantic walk, so it comes last; under --fail-fast
    // a kernel that has already failed skips it (a mutant needs one failure).
    auto adderFF = [&](const std::string &kind) {
      return [&, kind](SrcLoc l, const std::string &what) -> Obligation * {
        bool failedYet = !kr.errors.empty();  // (the walks before this one count too)
        for (const auto &o : kr.obligations) failedYet = failedYet || (!o.skipped && o.res != Res::OK);
        Obligation &o = addObl(kr, f, kind, l, what, kernel.name);
        if (!selected(opt, o) || (opt.failFast && failedYet)) o.skipped = true;
        return o.skipped ? nullptr : &o;
      };
    };
    proveKernelBytes(f, kernel, adderFF("kernel-bytes"));
    proveMacOrderIfma(f, kernel, adderFF("mac-order"));
    proveOutCoverage(f, kernel, adderFF("out-coverage"));
    proveKeystreamIfma(f, kernel, adderFF("keystream"));  // which block each xor helper call gets
  }
}

}  // namespace cv
