// scalar64.cpp: contract-driven Poly1305 algebra for the scalar radix-2^64 dialect (scalar64.h).
#include "scalar64.h"

#include <z3++.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <set>
#include <tuple>

#include "answers.h"
#include "contracts.h"
#include "interp.h"
#include "rvv.h"

namespace cv {

namespace {

struct Stop {};

const char *kP = "1361129467683753853853498429727072845819";  // 2^130 - 5
const u128 kClamp0 = 0x0ffffffc0fffffffULL, kClamp1 = 0x0ffffffc0ffffffcULL;

u128 maxOf(unsigned bits) { return bits >= 128 ? ~(u128)0 : (((u128)1 << bits) - 1); }
u128 satAdd(u128 a, u128 b) { return a + b < a ? ~(u128)0 : a + b; }
u128 satMul(u128 a, u128 b) {
  if (a == 0 || b == 0) return 0;
  if (a > ~(u128)0 / b) return ~(u128)0;
  return a * b;
}
unsigned bitLen(u128 v) {
  unsigned n = 0;
  while (v) ++n, v >>= 1;
  return n;
}

// A value: an integer polynomial with an upper bound, a pointer (region + byte offset as a
// polynomial) or a local array.
struct V {
  enum K { None, Int, Ptr, Arr } k = None;
  unsigned bits = 0;  // Int width; Ptr/Arr element width
  std::shared_ptr<z3::expr> v;  // Int value / Ptr offset in bytes
  u128 hi = 0;                  // Int: upper bound (values are >= 0)
  std::string region;           // Ptr
  std::shared_ptr<std::vector<V>> arr;  // Arr elements (shared only while copying frames)
  // Ghost data for the joins between proved pieces (Int only; a value computed from others
  // carries none): accTag/accLimb: limb accLimb of the Poly1305 accumulator named accTag (one
  // name per block step, state load, loop head or branch join); marker: the marker byte a
  // bytes.load_partial call was given (-1: not a partial block, -2: a marker that is no constant).
  std::string accTag;
  int accLimb = -1;
  int marker = -1;
  // A comparison's result: the condition it is 1 for (the branch walk keeps it as a path fact).
  std::shared_ptr<z3::expr> cond;
  // When the value is the C value: null, always; else the condition (no 64-bit sum, product or
  // shift above 2^64 - 1, no difference below 0, in what it was computed from). The limb
  // arithmetic's no-wrap is proved by the bounds pass; size_t glue's is not, so a comparison is
  // a path fact only under it. condExact: the same for a comparison's operands.
  std::shared_ptr<z3::expr> exactIf, condExact;
  // The words of a partial block: the buffer and offset its loader read from (marker != -1).
  std::string partRegion;
  std::shared_ptr<z3::expr> partOff;
};

struct Eval : Interp<Eval, V> {
  const File &F;
  z3::context &c;
  z3::params som;
  std::string err;
  SrcLoc errLoc;
  int fresh = 0;
  std::map<std::string, z3::expr> atoms;
  std::map<std::tuple<unsigned, unsigned, unsigned>, std::string> quotName;  // (x id, k, exactIf id or 0) -> atom floor(x/2^k)
  std::vector<z3::expr> keepAlive;
  struct AndAtom {
    z3::expr x;
    u128 mask;
    unsigned shift;
  };
  std::map<std::string, AndAtom> andAtoms;
  std::map<std::pair<unsigned, std::string>, std::string> andName;  // (x id, mask) -> atom
  std::map<std::string, V> mem;  // external memory written: "region|off|bits" -> value
  std::map<std::string, std::string> memAtomAt;  // "region|off" -> byte atom name
  struct Read {
    std::string region;
    z3::expr off;
    z3::expr val;
  };
  std::vector<Read> *reads = nullptr;  // recording (block loops)
  std::vector<std::string> chain;
  // Results, reported by the caller.
  struct Claim {
    std::string kind, what, cex, note;
    SrcLoc loc;
    bool ok = true;
  };
  std::vector<Claim> claims;
  unsigned unrollCap = 64;

  Eval(const File &f, z3::context &cc) : F(f), c(cc), som(cc) {
    som.set("som", true);
    som.set("som_blowup", 1000000u);  // expand products fully (the default gives up on (h + m) * r)
  }

  [[noreturn]] void fail(SrcLoc l, const std::string &m) {
    if (err.empty()) err = m, errLoc = l;
    throw Stop{};
  }

  z3::expr num(u128 v) {
    if (v <= (u128)~0ull) return c.int_val((uint64_t)v);
    return c.int_val((uint64_t)(v >> 64)) * c.int_val("18446744073709551616") + c.int_val((uint64_t)v);
  }
  z3::expr pow2(unsigned k) { return num((u128)1 << k).simplify(); }
  z3::expr pow2big(unsigned k) {  // k may be >= 128
    z3::expr r = c.int_val(1);
    while (k >= 64) r = r * c.int_val("18446744073709551616"), k -= 64;
    return (r * c.int_val((uint64_t)1 << k)).simplify();
  }
  z3::expr atom(const std::string &name) {
    auto it = atoms.find(name);
    if (it != atoms.end()) return it->second;
    z3::expr a = c.int_const(name.c_str());
    atoms.emplace(name, a);
    return a;
  }
  V intV(const z3::expr &e, unsigned bits, u128 hi) {
    V r;
    r.k = V::Int;
    r.bits = bits;
    r.v = std::make_shared<z3::expr>(e);
    r.hi = std::min(hi, maxOf(bits));
    return r;
  }
  V opaque(const Type &t, const std::string &why) {
    if (t.kind == Type::Ptr) {
      V p;
      p.k = V::Ptr;
      p.bits = t.bits;
      p.region = why + "#" + std::to_string(fresh++);
      p.v = std::make_shared<z3::expr>(c.int_val(0));
      return p;
    }
    if (t.kind == Type::Array) {
      V a;
      a.k = V::Arr;
      a.bits = t.bits;
      a.arr = std::make_shared<std::vector<V>>();
      for (uint64_t i = 0; i < t.count; ++i) {
        Type et;
        et.kind = Type::Int;
        et.bits = t.bits;
        a.arr->push_back(opaque(et, why + "[" + std::to_string(i) + "]"));
      }
      return a;
    }
    unsigned w = t.kind == Type::Bool ? 1 : t.bits ? t.bits : 64;
    z3::expr a = atom(why + "?" + std::to_string(fresh++));
    addFact(a, a <= num(maxOf(w)));
    return intV(a, w, maxOf(w));
  }

  // 2-adic valuation of every coefficient of the normalised polynomial (0 if unknown), at most
  // 200. Remembered per term (the shift and mask rules ask it of the same limb again and again).
  std::map<unsigned, unsigned> val2Memo;
  static unsigned trailingZeroBits(std::string d) {  // d: a decimal numeral, "-" allowed
    if (!d.empty() && d[0] == '-') d.erase(0, 1);
    unsigned k = 0;
    while (k < 200 && !d.empty() && d != "0") {
      if ((d.back() - '0') % 2) break;
      std::string q;  // d / 2 in decimal
      unsigned rem = 0;
      for (char ch : d) {
        unsigned cur = rem * 10 + (unsigned)(ch - '0');
        if (!q.empty() || cur / 2) q.push_back((char)('0' + cur / 2));
        rem = cur % 2;
      }
      d = q.empty() ? "0" : q;
      ++k;
    }
    return k;
  }
  unsigned val2(const z3::expr &e0) {
    auto memo = val2Memo.find(e0.id());
    if (memo != val2Memo.end()) return memo->second;
    z3::expr e = e0.simplify(som);
    std::vector<z3::expr> terms;
    if (e.is_app() && e.decl().decl_kind() == Z3_OP_ADD)
      for (unsigned i = 0; i < e.num_args(); ++i) terms.push_back(e.arg(i));
    else
      terms.push_back(e);
    unsigned best = 200;
    for (const auto &t : terms) {
      z3::expr cf = c.int_val(1);
      if (t.is_numeral()) cf = t;
      else if (t.is_app() && t.decl().decl_kind() == Z3_OP_MUL && t.arg(0).is_numeral()) cf = t.arg(0);
      std::string d = cf.get_decimal_string(0);
      if (d == "0") continue;
      best = std::min(best, trailingZeroBits(d));
    }
    keepAlive.push_back(e0);  // Z3 ids are unique only while the term lives
    val2Memo.emplace(e0.id(), best);
    return best;
  }

  // floor(x / 2^k) as an atom (one per value, k and exactness condition). Its definition
  // 0 <= x - 2^k q < 2^k holds where x is the C value (`exactIf`: null, always): where the size_t
  // glue x is computed by wraps (len - off with off > len), q is the quotient of another number,
  // and nothing may be learnt from it.
  z3::expr quot(const z3::expr &x, unsigned k, const std::shared_ptr<z3::expr> &exactIf = nullptr) {
    std::optional<z3::expr> ex;
    if (exactIf && !exactIf->simplify().is_true()) ex = *exactIf;
    auto key = std::make_tuple(x.id(), k, ex ? ex->id() : 0u);
    auto it = quotName.find(key);
    if (it != quotName.end()) return atoms.at(it->second);
    std::string n = "q" + std::to_string(quotName.size()) + "_" + std::to_string(k);
    quotName[key] = n;
    keepAlive.push_back(x);  // Z3 ids are unique only while the term lives
    if (ex) keepAlive.push_back(*ex);
    quotDefs.push_back(QuotDef{x, k, atom(n), ex});
    return atom(n);
  }
  struct QuotDef {
    z3::expr x;
    unsigned k;
    z3::expr q;                     // q = floor(x / 2^k)
    std::optional<z3::expr> exact;  // where x is the C value (none: always)
  };
  std::vector<QuotDef> quotDefs;
  std::vector<z3::expr> pathCond;  // the conditions of the undecided branches being walked
  // Facts about fresh atoms (a branch join's value under each branch condition, a loop's exit
  // values): (atom, fact), true wherever the atom occurs; solve() takes those of its atoms.
  std::vector<std::pair<z3::expr, z3::expr>> facts;
  void addFact(const z3::expr &atomE, const z3::expr &f) { facts.emplace_back(atomE, f); }
  // The uninterpreted constant a fresh value is built on (2^k * atom, or the atom itself).
  z3::expr freshAtomOf(const z3::expr &e) {
    if (e.is_app() && e.num_args() == 0) return e;
    for (unsigned i = 0; i < e.num_args(); ++i)
      if (!e.arg(i).is_numeral()) return freshAtomOf(e.arg(i));
    return e;
  }
  // ---- the MAC cursor: where in the message the next absorbed block must start ----
  // The message is the kernel role's: pad16(AAD) || pad16(ciphertext) || lengths (RFC 8439 2.8),
  // a Poly1305 message (2.5), or the streaming entries' whole blocks; a buffer's byte o is at
  // position base(buffer) + o. Every absorbing piece (a block loop, a partial block, the lengths
  // block) must start at the cursor and moves it on; unset: no role, or lost (a failure follows).
  std::optional<z3::expr> cursor;
  int loopDepth = 0;  // > 0 while a block loop's body is evaluated (the loop is the piece)
  // Whether `bad` can hold on the path being walked (its branch conditions), over the integers:
  // every atom a value >= 0, every quotient atom its floor(x / 2^k). 1: it can, `model` is a case
  // ("name = value" for each of `show`, preferring 64-bit values and the facts `prefer`);
  // 0: it cannot (Z3 proved it); -1: no answer within 2 s.
  int solve(const z3::expr &bad, const std::vector<std::pair<std::string, z3::expr>> &show,
            const std::vector<z3::expr> &prefer, std::string &model) {
    z3::solver sv(c);
    z3::params p(c);
    p.set("timeout", 2000u);
    sv.set(p);
    sv.add(bad);
    for (const auto &pc : pathCond) sv.add(pc);
    std::set<unsigned> seen;
    std::vector<z3::expr> todo{bad}, wide;
    todo.insert(todo.end(), pathCond.begin(), pathCond.end());
    for (const auto &[n, e] : show) todo.push_back(e);
    auto atomsOf = [&](std::vector<z3::expr> &work) {
      while (!work.empty()) {
        z3::expr e = work.back();
        work.pop_back();
        if (!e.is_app() || !seen.insert(e.id()).second) continue;
        if (e.num_args() == 0) {
          if (!e.is_numeral() && e.is_int()) sv.add(e >= 0), wide.push_back(e <= num(maxOf(64)));
          continue;
        }
        for (unsigned i = 0; i < e.num_args(); ++i) work.push_back(e.arg(i));
      }
    };
    atomsOf(todo);
    std::set<unsigned> defined;
    std::vector<bool> factIn(facts.size(), false);
    for (bool more = true; more;) {  // the definitions and facts of every atom in play
      more = false;
      for (const auto &d : quotDefs) {
        if (!seen.count(d.q.id()) || !defined.insert(d.q.id()).second) continue;
        z3::expr r = d.x - pow2big(d.k) * d.q;
        sv.add(d.exact ? z3::implies(*d.exact, r >= 0 && r < pow2big(d.k)) : (r >= 0 && r < pow2big(d.k)));
        std::vector<z3::expr> w{d.x};
        if (d.exact) w.push_back(*d.exact);
        atomsOf(w);
        more = true;
      }
      for (size_t i = 0; i < facts.size(); ++i) {
        if (factIn[i] || !seen.count(facts[i].first.id())) continue;
        factIn[i] = true;
        sv.add(facts[i].second);
        std::vector<z3::expr> w{facts[i].second};
        atomsOf(w);
        more = true;
      }
    }
    z3::check_result r = answers::checkCached(sv);
    if (getenv("CHAPOLY_VERIFY_TRACE_SOLVE")) fprintf(stderr, "SOLVE %d\n%s\n", (int)r, sv.to_smt2().c_str());
    if (r != z3::sat) return r == z3::unsat ? 0 : -1;
    // The preferred facts (a case the kernel can reach) as long as they leave a model.
    sv.push();
    for (const auto &f : prefer) sv.add(f);
    for (const auto &f : wide) sv.add(f);
    if (sv.check() != z3::sat) {
      sv.pop();
      if (sv.check() != z3::sat) return 1;
    }
    z3::model m = sv.get_model();
    model.clear();
    for (const auto &[n, e] : show) model += (model.empty() ? "" : ", ") + n + " = " + m.eval(e, true).get_decimal_string(0);
    return 1;
  }
  // x >> k exactly: x / 2^k when every coefficient is a multiple of 2^k, else the quotient atom.
  z3::expr shr(const V &a, unsigned k) {
    if (k == 0) return *a.v;
    if (bitLen(a.hi) <= k) return c.int_val(0);
    if (val2(*a.v) >= k) return (*a.v / pow2big(k)).simplify(som);
    return quot(*a.v, k, a.exactIf);
  }
  // x mod 2^k (exact): x - 2^k * floor(x/2^k), or x when x < 2^k.
  z3::expr low(const V &a, unsigned k) {
    if (k >= 128 || bitLen(a.hi) <= k) return *a.v;
    if (val2(*a.v) >= k) return c.int_val(0);
    return *a.v - pow2big(k) * shr(a, k);
  }
  // The value reduced to `bits` bits (wrapping or truncating conversion): exact when it fits.
  V wrapTo(const V &a, unsigned bits) {
    if (bitLen(a.hi) <= bits) {  // the same value: its ghost data goes with it
      V r = a;
      r.bits = bits;
      return r;
    }
    V r = intV(low(a, bits), bits, maxOf(bits));
    r.exactIf = a.exactIf;
    return r;
  }

  V &slot(int var) {
    auto k = key(var);
    auto it = slots.find(k);
    if (it != slots.end()) return it->second;
    const Var &v = F.vars[(size_t)var];
    V init = opaque(v.ty, v.name);
    if (v.ty.kind == Type::Ptr && v.isParam) {
      init.region = v.name;
    } else if (v.ty.kind == Type::Int && v.isParam) {
      init = intV(atom(v.name), v.ty.bits, maxOf(v.ty.bits));
      addFact(atom(v.name), atom(v.name) <= num(maxOf(v.ty.bits)));
    }
    if (v.isGlobal && v.init) init = initValue(v.ty, *v.init);
    return slots.emplace(k, init).first->second;
  }
  void setSlot(int var, const V &val) {
    auto k = key(var);
    slots.erase(k);
    slots.emplace(k, val);
  }

  V initValue(const Type &t, const Expr &e) {
    if (t.kind == Type::Array) {
      V a = opaque(t, "init");
      if (e.kind == Expr::InitList) {
        Type et;
        et.kind = Type::Int;
        et.bits = t.bits;
        for (size_t i = 0; i < e.args.size() && i < a.arr->size(); ++i) (*a.arr)[i] = convert(eval(*e.args[i]), et);
        for (size_t i = e.args.size(); i < a.arr->size(); ++i) (*a.arr)[i] = intV(c.int_val(0), t.bits, 0);
      }
      return a;
    }
    return convert(eval(e), t);
  }

  V convert(const V &v, const Type &t, SrcLoc) { return convert(v, t); }
  V convert(const V &v, const Type &t) {
    if (t.kind == Type::Int || t.kind == Type::Bool) {
      // A pointer's address as an integer (the RVV helpers' alignment test): an unknown.
      if (v.k == V::Ptr && t.kind == Type::Int) return opaque(t, "address");
      if (v.k != V::Int) fail({}, "conversion of a non-integer to an integer");
      unsigned w = t.kind == Type::Bool ? 1 : t.bits;
      if (t.kind == Type::Bool) {
        if (v.hi == 0) return intV(c.int_val(0), 1, 0);
        z3::expr s = v.v->simplify();
        if (s.is_numeral()) return intV(c.int_val(s.get_decimal_string(0) == "0" ? 0 : 1), 1, 1);
        return intV(atom("bool?" + std::to_string(fresh++)), 1, 1);
      }
      if (t.isSigned && w < 128) {
        // Signed values appear only as small counters in the dialect: exact when they fit.
        if (bitLen(v.hi) < w) {
          V r = intV(*v.v, w, v.hi);
          r.exactIf = v.exactIf;
          return r;
        }
        return opaque(t, "signed");
      }
      // Into a limb type (a block-step word, an accumulator limb, a 128-bit product's operand):
      // only the exact C value; size_t glue that may have wrapped becomes an unknown.
      if (limbType(t) && inexact(v.exactIf)) return opaque(t, "inexact");
      return wrapTo(v, w);
    }
    if (t.kind == Type::Ptr) {
      if (v.k == V::Arr) fail({}, "array to pointer conversion outside an expression");
      V p = v;
      if (p.k == V::Ptr && t.bits != p.bits) {
        if (t.bits != 8 && p.bits != 8) fail({}, "pointer reinterpretation outside bytes");
        p.bits = t.bits;
      }
      return p;
    }
    return v;
  }

  // ---- memory ----
  std::string offKey(const z3::expr &off) { return off.simplify(som).to_string(); }
  struct Place {
    int var = -1;          // a scalar variable
    int arrVar = -1;       // a local array element
    long long idx = -1;    //   at this index (-1: unknown)
    std::string region;    // external memory
    std::shared_ptr<z3::expr> off;
    unsigned bits = 8;
  };
  Place place(const Expr &e) {
    Place p;
    if (e.kind == Expr::Var) {
      p.var = e.var;
      return p;
    }
    if (e.kind == Expr::Cast) return place(*e.args[0]);
    V ptr;
    z3::expr idx = c.int_val(0);
    unsigned elem = e.ty.bits;
    if (e.kind == Expr::Index) {
      const Expr &b = *e.args[0];
      V iv = eval(*e.args[1]);
      if (iv.k != V::Int) fail(e.loc, "index is not an integer");
      const Expr *bb = &b;
      while (bb->kind == Expr::Cast) bb = bb->args[0].get();
      if (bb->kind == Expr::Var && F.vars[(size_t)bb->var].ty.kind == Type::Array) {
        p.arrVar = bb->var;
        z3::expr s = iv.v->simplify();
        p.idx = s.is_numeral() ? (long long)s.get_numeral_uint64() : -1;
        p.bits = F.vars[(size_t)bb->var].ty.bits;
        return p;
      }
      ptr = eval(b);
      idx = *iv.v;
    } else if (e.kind == Expr::Deref) {
      ptr = eval(*e.args[0]);
    } else {
      fail(e.loc, "unsupported place");
    }
    if (ptr.k != V::Ptr) fail(e.loc, "dereference of a non-pointer");
    p.region = ptr.region;
    p.bits = elem ? elem : ptr.bits;
    p.off = std::make_shared<z3::expr>((*ptr.v + idx * c.int_val((int)(ptr.bits / 8 ? ptr.bits / 8 : 1))).simplify(som));
    return p;
  }
  V readPlace(const Place &p, const Type &t) {
    if (p.var >= 0) return slot(p.var);
    if (p.arrVar >= 0) {
      V &a = slot(p.arrVar);
      if (a.k != V::Arr || p.idx < 0 || (size_t)p.idx >= a.arr->size()) return opaque(t, "elem");
      return (*a.arr)[(size_t)p.idx];
    }
    // Local arrays reached through a pointer: region "@arr:ctx:var".
    if (p.region.rfind("@arr:", 0) == 0) {
      int ctx = 0, var = 0;
      std::sscanf(p.region.c_str(), "@arr:%d:%d", &ctx, &var);
      auto it = slots.find({ctx, var});
      z3::expr o = p.off->simplify();
      if (it == slots.end() || it->second.k != V::Arr || !o.is_numeral() || p.bits != it->second.bits) {
        V r = opaque(t, "elem");
        if (reads) reads->push_back(Read{p.region, *p.off, *r.v});
        return r;
      }
      size_t i = (size_t)o.get_numeral_uint64() / (p.bits / 8);
      if (i >= it->second.arr->size()) return opaque(t, "elem");
      V r = (*it->second.arr)[i];
      if (r.k == V::Int && p.bits == 8) noteByte(p.region, *p.off, *r.v);
      if (reads && r.k == V::Int) reads->push_back(Read{p.region, *p.off, *r.v});
      return r;
    }
    std::string k = p.region + "|" + offKey(*p.off) + "|" + std::to_string(p.bits);
    auto it = mem.find(k);
    // A buffer the kernel MACs is read as memory even where the kernel stored into it (a seal's
    // ciphertext, read back for its MAC after the keystream xor): the read is that buffer's byte
    // atom at this epoch, which names the bytes by their place in the message. What the bytes
    // hold is proved elsewhere: out-coverage proves every such read comes after the kernel wrote
    // the byte, and keystream that every byte the kernel writes there is the ciphertext byte of
    // RFC 8439 2.8, so the buffer holds its final bytes when the MAC reads them.
    if (it != mem.end() && !macRegion(p.region)) {
      if (reads && it->second.k == V::Int) reads->push_back(Read{p.region, *p.off, *it->second.v});
      return it->second;
    }
    // Memory outside the kernel's local arrays: one atom per place and write epoch (any write to
    // it, through any pointer, or any forgotten effect starts a new epoch: pointers may alias).
    std::string er = p.region + (epoch ? "@" + std::to_string(epoch) : "");
    std::string name = er + "[" + offKey(*p.off) + "]" + (p.bits == 8 ? "" : ":" + std::to_string(p.bits));
    V r = intV(atom(name), p.bits, maxOf(p.bits));
    if (p.bits == 8) noteByte(er, *p.off, *r.v);
    if (reads) reads->push_back(Read{p.region, *p.off, *r.v});
    return r;
  }
  void writePlace(const Place &p, const V &val) {
    if (p.var >= 0) return setSlot(p.var, val);
    if (p.arrVar >= 0) {
      V &a = slot(p.arrVar);
      if (a.k != V::Arr) return;
      if (p.idx < 0) {  // unknown element: every element is now unknown
        a = opaque(F.vars[(size_t)p.arrVar].ty, F.vars[(size_t)p.arrVar].name);
        return;
      }
      if ((size_t)p.idx < a.arr->size()) {
        auto copy = std::make_shared<std::vector<V>>(*a.arr);
        (*copy)[(size_t)p.idx] = val;
        a.arr = copy;
      }
      return;
    }
    if (p.region.rfind("@arr:", 0) == 0) {
      int ctx = 0, var = 0;
      std::sscanf(p.region.c_str(), "@arr:%d:%d", &ctx, &var);
      auto it = slots.find({ctx, var});
      if (it == slots.end() || it->second.k != V::Arr) return;
      z3::expr o = p.off->simplify();
      size_t n = it->second.arr->size();
      auto copy = std::make_shared<std::vector<V>>(*it->second.arr);
      if (!o.is_numeral() || p.bits != it->second.bits || (size_t)o.get_numeral_uint64() / (p.bits / 8) >= n) {
        Type t = F.vars[(size_t)var].ty;
        it->second = opaque(t, F.vars[(size_t)var].name);
        return;
      }
      (*copy)[(size_t)o.get_numeral_uint64() / (p.bits / 8)] = val;
      it->second.arr = copy;
      return;
    }
    // A write through one pointer may change what any other pointer reads: later reads of other
    // places get fresh atoms (the writes themselves are kept and read back exactly).
    ++epoch;
    mem[p.region + "|" + offKey(*p.off) + "|" + std::to_string(p.bits)] = val;
  }
  unsigned epoch = 0;

  // ---- expressions ----
  int decide(const V &v) {
    if (v.k != V::Int) return -1;
    if (v.exactIf && !v.exactIf->simplify().is_true()) return -1;  // the C value may differ
    if (v.hi == 0) return 0;
    z3::expr s = v.v->simplify();
    if (!s.is_numeral()) return -1;
    return s.get_decimal_string(0) == "0" ? 0 : 1;
  }

  V eval(const Expr &e) {
    switch (e.kind) {
      case Expr::Const: {
        if (e.ty.kind == Type::Ptr) {
          V p;
          p.k = V::Ptr;
          p.region = "null";
          p.v = std::make_shared<z3::expr>(c.int_val(0));
          return p;
        }
        unsigned w = e.ty.kind == Type::Bool ? 1 : e.ty.bits;
        return intV(num(e.value), w, e.value);
      }
      case Expr::Var: {
        const Var &v = F.vars[(size_t)e.var];
        if (v.ty.kind == Type::Array) {
          slot(e.var);
          auto k = key(e.var);
          V p;
          p.k = V::Ptr;
          p.bits = v.ty.bits;
          p.region = "@arr:" + std::to_string(k.first) + ":" + std::to_string(k.second);
          p.v = std::make_shared<z3::expr>(c.int_val(0));
          return p;
        }
        return slot(e.var);
      }
      case Expr::Cast: {
        V a = eval(*e.args[0]);
        const Type &from = e.args[0]->ty;
        // A signed value is kept as its bit pattern, and C sign-extends it when it widens: one
        // whose sign bit may be set becomes an unknown there (`(uint64_t)(~(uint8_t)x)`, an int
        // promoted, negated or decremented below 0, then widened).
        if (a.k == V::Int && from.kind == Type::Int && from.isSigned && e.ty.kind == Type::Int &&
            e.ty.bits > from.bits && bitLen(a.hi) >= from.bits)
          return opaque(e.ty, "sign-extension");
        return convert(a, e.ty);
      }
      case Expr::Bin: return binary(e);
      case Expr::Un: {
        V a = eval(*e.args[0]);
        if (a.k != V::Int) fail(e.loc, "unary operator on a non-integer");
        unsigned w = e.ty.bits;
        if (e.name == "~" || e.name == "-") {
          // -a = (2^w - a) mod 2^w: 2^w itself where a = 0, so reduced unless a is the constant 0
          // (no lower bound is tracked: a's may be 0).
          if (e.name == "-" && w >= 128 && a.hi != 0) return opaque(e.ty, "neg");
          V r = e.name == "~" ? intV(num(maxOf(w)) - *a.v, w, maxOf(w))  // exact for unsigned
                : a.hi == 0   ? intV(c.int_val(0), w, 0)
                              : wrapTo(intV(num(maxOf(w)) + 1 - *a.v, w + 1, (u128)maxOf(w) + 1), w);
          r.exactIf = a.exactIf;
          return r;
        }
        int d = decide(a);
        if (d >= 0) return intV(c.int_val(d ? 0 : 1), 1, d ? 0 : 1);
        return opaque(e.ty, "not");
      }
      case Expr::Cond: {
        int d = decide(eval(*e.args[0]));
        if (d < 0) return opaque(e.ty, "cond");
        return eval(*e.args[d ? 1 : 2]);
      }
      case Expr::Index:
      case Expr::Deref: return readPlace(place(e), e.ty);
      case Expr::AddrOf: {
        const Expr &in = *e.args[0];
        if (in.kind == Expr::Index) return ptrAdd(eval(*in.args[0]), eval(*in.args[1]), false, e.loc);
        return opaque(e.ty, "addr");
      }
      case Expr::Assign: {
        V rhs = eval(*e.args[1]);
        V v;
        if (e.name.empty()) {
          v = convert(rhs, e.args[0]->ty);
        } else {
          V cur = eval(*e.args[0]);
          std::string op = e.name.substr(0, e.name.size() - (e.name.back() == '=' ? 1 : 0));
          if (cur.k == V::Ptr) v = ptrAdd(cur, rhs, op == "-", e.loc);
          else v = arith(op, cur, convert(rhs, e.args[0]->ty), e.args[0]->ty, e.loc);
        }
        writePlace(place(*e.args[0]), v);
        return v;
      }
      case Expr::IncDec: {
        V cur = eval(*e.args[0]);
        bool inc = e.name.find("++") != std::string::npos;
        V one = intV(c.int_val(1), 64, 1);
        V v = cur.k == V::Ptr ? ptrAdd(cur, one, !inc, e.loc) : arith(inc ? "+" : "-", cur, one, e.args[0]->ty, e.loc);
        writePlace(place(*e.args[0]), v);
        return e.name.rfind("post", 0) == 0 ? cur : v;
      }
      case Expr::Call: return call(e);
      case Expr::Intrin:
        // Vector work (a stitched keystream helper's rounds, proved by its chacha-block
        // obligation): vector values are unknown here, and a store forgets all memory.
        if (e.ty.kind == Type::Vec) return V{};
        // RVV: vsetvl's vl is a value this evaluator does not track (an unknown size_t), at most
        // the AVL it is handed (RVV 1.0, 6.3: vl <= min(AVL, VLMAX); kernel-bytes and the
        // intrinsic table's vsetvl entry, tested on the instruction, model the same). (A stitched
        // "blocks": "vl" helper's body is walked, so its result has these facts too.)
        if (isRvvSetvl(e.name)) {
          V vl = opaque(e.ty, "vl");
          if (!e.args.empty() && e.args[0]) {  // (AVL; then the SEW and LMUL codes)
            V avl = eval(*e.args[0]);
            // and at least 1 when AVL is (6.3: vl = AVL up to VLMAX, else >= ceil(AVL / 2)).
            if (vl.k == V::Int && avl.k == V::Int)
              factWhereExact(vl, avl, *vl.v <= *avl.v && z3::implies(*avl.v >= 1, *vl.v >= 1));
          }
          return vl;
        }
        if (e.ty.kind == Type::Void && (e.name.find("store") != std::string::npos || isRvvStore(e.name))) {
          havocMemory();
          return V{};
        }
        fail(e.loc, "intrinsic '" + e.name + "' in the scalar dialect");
      case Expr::InitList: fail(e.loc, "initialiser list outside a declaration");
    }
    fail(e.loc, "unsupported expression");
  }

  // The fact f about a fresh value r, where `from` (what f relates it to) is the C value.
  void factWhereExact(const V &r, const V &from, const z3::expr &f) {
    addFact(freshAtomOf(*r.v), from.exactIf ? z3::implies(*from.exactIf, f) : f);
  }

  V ptrAdd(const V &p, const V &n, bool minus, SrcLoc l) {
    if (p.k != V::Ptr || n.k != V::Int) fail(l, "pointer arithmetic on non-pointers");
    V r = p;
    z3::expr d = *n.v * c.int_val((int)(p.bits / 8 ? p.bits / 8 : 1));
    r.v = std::make_shared<z3::expr>((minus ? *p.v - d : *p.v + d).simplify(som));
    return r;
  }

  V binary(const Expr &e) {
    const std::string &op = e.name;
    if (op == "&&" || op == "||") {
      int a = decide(eval(*e.args[0]));
      if (a == 0 && op == "&&") return intV(c.int_val(0), 1, 0);
      if (a == 1 && op == "||") return intV(c.int_val(1), 1, 1);
      int b = decide(eval(*e.args[1]));
      if (a >= 0 && b >= 0) return intV(c.int_val(b), 1, (u128)b);
      return opaque(e.ty, "logic");
    }
    V a = eval(*e.args[0]), b = eval(*e.args[1]);
    if (a.k == V::Ptr && (op == "+" || op == "-") && b.k == V::Int) return ptrAdd(a, b, op == "-", e.loc);
    if (a.k != V::Int || b.k != V::Int) return opaque(e.ty, "cmp");
    if (op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=") {
      z3::expr x = a.v->simplify(), y = b.v->simplify();
      z3::expr r = op == "==" ? x == y : op == "!=" ? x != y : op == "<" ? x < y : op == "<=" ? x <= y
                   : op == ">" ? x > y : x >= y;
      std::shared_ptr<z3::expr> ex = bothExact(a, b);
      const bool exactNow = !ex || ex->simplify().is_true();
      if (x.is_numeral() && y.is_numeral() && exactNow) {
        const bool t = r.simplify().is_true();
        return intV(c.int_val(t ? 1 : 0), 1, t ? 1 : 0);
      }
      V out = opaque(e.ty, "cmp");
      // (The model is unsigned: a signed comparison is no path fact.)
      if (!e.args[0]->ty.isSigned && !e.args[1]->ty.isSigned) {
        out.cond = std::make_shared<z3::expr>(r);
        out.condExact = ex;
      }
      return out;
    }
    return arith(op, a, b, e.ty, e.loc);
  }

  // The condition under which both values (and `own`) are exact; null: always.
  std::shared_ptr<z3::expr> bothExact(const V &a, const V &b, const std::optional<z3::expr> &own = std::nullopt) {
    std::optional<z3::expr> r;
    auto add = [&](const z3::expr &e) { r = r ? (*r && e) : e; };
    if (a.exactIf) add(*a.exactIf);
    if (b.exactIf) add(*b.exactIf);
    if (own) add(*own);
    return r ? std::make_shared<z3::expr>(*r) : nullptr;
  }
  // A limb type (ir.h, isLimbType): the bounds pass proves its arithmetic does not wrap.
  static bool limbType(const Type &t) { return isLimbType(t); }
  static bool inexact(const std::shared_ptr<z3::expr> &ex) { return ex && !ex->simplify().is_true(); }
  V arith(const std::string &op, const V &a, const V &b, const Type &t, SrcLoc l) {
    V r = arith0(op, a, b, t, l);
    if (r.k != V::Int || a.k != V::Int || b.k != V::Int) return r;
    const unsigned w = t.bits ? t.bits : a.bits;
    if (w >= 64 && limbType(t)) {
      // Limb arithmetic: exact (the bounds pass proves it does not wrap), but only on exact
      // operands. An operand that is the C value only under a condition (size_t glue that may
      // have wrapped) makes the result unknown: it may not reach a claim as the integer it would
      // be without the wrap.
      if (inexact(bothExact(a, b))) return opaque(t, "inexact");
      r.exactIf = nullptr;
      return r;
    }
    std::optional<z3::expr> own;  // the C operation's own no-wrap condition
    if (w >= 64) {
      if (op == "-") {
        z3::expr d = (*a.v - *b.v).simplify();
        if (!(d.is_numeral() && d.get_decimal_string(0)[0] != '-')) own = *b.v <= *a.v;
      } else if (op == "+" && satAdd(a.hi, b.hi) > maxOf(w)) {
        own = *a.v + *b.v <= num(maxOf(w));
      } else if (op == "*" && satMul(a.hi, b.hi) > maxOf(w)) {
        own = *a.v * *b.v <= num(maxOf(w));
      } else if (op == "<<") {
        z3::expr k = b.v->simplify();
        if (k.is_numeral() && bitLen(a.hi) + (unsigned)k.get_numeral_uint64() > w)
          own = *a.v * pow2big((unsigned)k.get_numeral_uint64()) <= num(maxOf(w));
      }
    }
    r.exactIf = bothExact(a, b, own);
    // A difference that may borrow: its bound is not a's (the shortcuts of ^, |, & and >> read it).
    if (op == "-" && own) r.hi = maxOf(w);
    return r;
  }
  V arith0(const std::string &op, const V &a, const V &b, const Type &t, SrcLoc l) {
    unsigned w = t.bits ? t.bits : a.bits;
    // 64- and 128-bit limb arithmetic is exact (the bounds pass proved that it does not wrap);
    // narrower arithmetic (ChaCha20's uint32_t) wraps by design: reduced exactly mod 2^w.
    bool exact = w >= 64;
    auto fin = [&](const z3::expr &x, u128 hi, bool over) -> V {
      if (!over) return intV(x, w, hi);
      if (exact) return intV(x, w, maxOf(w));  // the bounds pass proved that it does not wrap
      V raw{V::Int, 200, std::make_shared<z3::expr>(x), hi, "", nullptr};
      return wrapTo(raw, w);
    };
    if (op == "+") {
      u128 hi = satAdd(a.hi, b.hi);
      return fin(*a.v + *b.v, hi, hi > maxOf(w) || hi == ~(u128)0);
    }
    if (op == "*") {
      u128 hi = satMul(a.hi, b.hi);
      return fin(*a.v * *b.v, hi, hi > maxOf(w) || hi == ~(u128)0);
    }
    if (op == "-") {
      // The bounds pass proves limb differences do not borrow; narrower ones wrap.
      if (exact) return intV(*a.v - *b.v, w, a.hi);
      return wrapTo(V{V::Int, 200, std::make_shared<z3::expr>(*a.v - *b.v + pow2big(w)), satAdd(a.hi, (u128)1 << w), "", nullptr}, w);
    }
    if (op == "<<" || op == ">>") {
      z3::expr s = b.v->simplify();
      if (!s.is_numeral()) fail(l, "shift by a non-constant");
      unsigned k = (unsigned)s.get_numeral_uint64();
      if (op == ">>") return intV(shr(a, k), w, a.hi >> k);
      u128 hi = bitLen(a.hi) + k >= 128 ? ~(u128)0 : a.hi << k;
      return fin(*a.v * pow2big(k), hi, bitLen(a.hi) + k > w);
    }
    if (op == "&") {
      z3::expr bs = b.v->simplify(), as = a.v->simplify();
      const V &x = bs.is_numeral() ? a : b;
      z3::expr cs = bs.is_numeral() ? bs : as;
      if (!cs.is_numeral()) return opaque(t, "and");
      u128 C = 0;
      {
        std::string d = cs.get_decimal_string(0);
        for (char ch : d) C = C * 10 + (u128)(ch - '0');
      }
      C &= maxOf(w);
      if (C == 0) return intV(c.int_val(0), w, 0);
      unsigned lo = 0;
      while (!((C >> lo) & 1)) ++lo;
      u128 top = C >> lo;
      unsigned ones = bitLen(top);
      if (top == maxOf(ones)) {
        // A run of ones from bit lo: (x >> lo mod 2^ones) << lo.
        V q = intV(shr(x, lo), w, x.hi >> lo);
        q.exactIf = x.exactIf;  // (its quotient atoms are x's C value's)
        if (ones + lo >= w && bitLen(x.hi) <= w) return intV(pow2big(lo) * *q.v, w, x.hi);
        z3::expr m = low(q, ones);
        return intV(pow2big(lo) * m, w, maxOf(ones) << lo);
      }
      // Any other mask (the clamp): 2^lo times an atom named after x and the mask.
      auto key = std::make_pair(x.v->id(), hex(C));
      auto it = andName.find(key);
      std::string n;
      if (it != andName.end()) {
        n = it->second;
      } else {
        n = "(and" + std::to_string(andName.size()) + " " + hex(C) + ")";
        andName[key] = n;
        andAtoms.emplace(n, AndAtom{*x.v, C, lo});
      }
      return intV(pow2big(lo) * atom(n), w, C);
    }
    if (op == "|") {
      // x | y = x + y when the bits cannot overlap: x < 2^k and y a multiple of 2^k.
      for (int sw = 0; sw < 2; ++sw) {
        const V &x = sw ? b : a, &y = sw ? a : b;
        if (y.hi == 0) return x;
        unsigned k = val2(*y.v);
        if (bitLen(x.hi) <= k) return intV(*x.v + *y.v, w, satAdd(x.hi, y.hi));
      }
      return opaque(t, "or");
    }
    if (op == "^") {
      if (b.hi == 0) return a;
      if (a.hi == 0) return b;
      return opaque(t, "xor");
    }
    if (op == "/" || op == "%") {
      z3::expr s = b.v->simplify();
      if (s.is_numeral()) {
        u128 d = 0;
        for (char ch : s.get_decimal_string(0)) d = d * 10 + (u128)(ch - '0');
        if (d && (d & (d - 1)) == 0) {
          unsigned k = bitLen(d) - 1;
          if (op == "/") return intV(shr(a, k), w, a.hi >> k);
          return intV(low(a, k), w, std::min(a.hi, d - 1));
        }
      }
      return opaque(t, "div");
    }
    return opaque(t, "op");
  }

  // ---- calls ----
  V call(const Expr &e) {
    if (e.fn < 0) fail(e.loc, "call of an unknown function");
    const Function &fn = F.funcs[(size_t)e.fn];
    Contract ct = contractOf(fn);
    // A keystream helper with a stitched Poly1305 part ("mac" in its contract) is evaluated like any
    // other call, so the block steps it performs are part of the caller's block-step proof.
    if (ct.present && ct.role.rfind("chacha20.", 0) == 0 && fn.contract.find("\"mac\":{") == std::string::npos) {
      // Keystream: proved on its own (chacha20.block); here only its effects are forgotten.
      for (size_t i = 0; i < fn.params.size() && i < e.args.size(); ++i)
        if (F.vars[(size_t)fn.params[i]].isRef) {
          const Expr *a = e.args[i].get();
          while (a->kind == Expr::Cast) a = a->args[0].get();
          if (a->kind == Expr::Var) setSlot(a->var, opaque(F.vars[(size_t)a->var].ty, fn.name));
        }
      for (size_t i = 0; i < fn.params.size() && i < e.args.size(); ++i) {
        const Var &pv = F.vars[(size_t)fn.params[i]];
        if (pv.isRef || pv.ty.kind != Type::Ptr) continue;
        V p = eval(*e.args[i]);
        if (p.k == V::Ptr && p.region.rfind("@arr:", 0) == 0) {
          int ctx = 0, var = 0;
          std::sscanf(p.region.c_str(), "@arr:%d:%d", &ctx, &var);
          auto it2 = slots.find({ctx, var});
          if (it2 != slots.end()) it2->second = opaque(F.vars[(size_t)var].ty, fn.name + ":" + F.vars[(size_t)var].name);
        }
      }
      havocMemory();
      return opaque(fn.ret, fn.name);
    }
    Frame fr = bindCall(e, fn);
    const int ctx = fr.ctx;
    // A stitched keystream helper that absorbs a variable run of blocks, called in the body of the
    // block loop being proved: where its run starts is where that loop's iteration starts.
    if (loopDepth == 1 && !macPtr) {
      const std::string &cj = fn.contract;
      size_t mp = cj.find("\"mac\":{");
      size_t mm = mp == std::string::npos ? mp : cj.find("\"msg\":\"", mp);
      if (mm != std::string::npos && cj.find("\"blocks\":\"", mp) != std::string::npos) {
        size_t b = mm + 7, e2 = cj.find('"', b);
        int pv = e2 == std::string::npos ? -1 : paramByName(fn, cj.substr(b, e2 - b));
        auto it2 = pv < 0 ? slots.end() : slots.find({ctx, pv});
        if (it2 != slots.end() && it2->second.k == V::Ptr) macPtr.emplace(it2->second.region, *it2->second.v);
      }
    }
    const bool step = ct.present && ct.role == "poly1305.blocks" && ct.msgWords.size() == 2;
    StepCall sc(c);
    if (step) beginStep(fn, ct, fr, ctx, sc);
    // The joins, on the arguments as handed over (before the helper's body changes its copies).
    if (ct.present && ct.role == "poly1305.final") {
      checkAccJoin(fn, ct, fr, ctx, e.loc, "the final reduction");
      checkLengthsBlock(e.loc);
      checkMessageEnd(e.loc, "the final reduction");
    }
    if (ct.present && ct.role == "poly1305.state_store") {
      checkAccJoin(fn, ct, fr, ctx, e.loc, "the state store");
      checkMessageEnd(e.loc, "the state store");
    }
    if (ct.present && ct.role == "bytes.load_partial") checkPartialJoin(fn, ct, ctx, e.loc);
    frames.push_back(fr);
    chain.push_back(F.path + ":" + std::to_string(e.loc.line));
    exec(*fn.body);
    if (ct.present && ct.role == "poly1305.clamp") checkClamp(fn, ct, e.loc);
    if (step) endStep(fn, ct, sc, e.loc);
    if (ct.present && ct.role == "poly1305.final") checkFinalCall(fn, ct, ctx, e.loc);
    if (ct.present && (ct.role == "poly1305.state_load" || ct.role == "poly1305.state_store"))
      checkStateHandover(fn, ct, ctx, e.loc, ct.role == "poly1305.state_load");
    if (ct.present && ct.role == "poly1305.state_load") tagAcc(frames.back(), fn, ct, "S#" + std::to_string(fresh++));
    if (ct.present && ct.role == "bytes.load_partial") {
      int mk = -2;
      int mp = paramByName(fn, ct.marker);
      auto mit = mp < 0 ? slots.end() : slots.find({ctx, mp});
      if (mit != slots.end() && mit->second.k == V::Int) {
        z3::expr mv = mit->second.v->simplify();
        if (mv.is_numeral()) mk = std::stoi(mv.get_decimal_string(0));
      }
      for (const auto &o : ct.out) {
        int pv = paramByName(fn, o);
        auto r = pv < 0 ? frames.back().refs.end() : frames.back().refs.find(pv);
        if (r != frames.back().refs.end() && slots.count(r->second)) {
          V &w = slots.at(r->second);
          w.marker = mk;
          if (lastPartial) w.partRegion = lastPartial->first, w.partOff = std::make_shared<z3::expr>(lastPartial->second);
        }
      }
      lastPartial.reset();
    }
    Frame done = frames.back();
    frames.pop_back();
    chain.pop_back();
    return done.ret;
  }

  // ---- a block-step helper (poly1305.blocks on a function, the message as two words) ----
  // Each call is proved on its own, with the accumulator replaced by fresh atoms:
  //   H' = (H + m0 + 2^64 m1 + pad 2^128) (r0 + 2^64 r1) (mod p), r the clamped key;
  // then the caller's accumulator becomes a fresh value Hk with the proved relation recorded
  // (stepDefs), so that steps compose without expanding every carry of every step.
  struct StepCall {
    explicit StepCall(z3::context &cc) : hold(cc) {}
    std::vector<std::pair<int, int>> acc;  // caller slots of the accumulator limbs
    z3::expr hold;
    std::vector<z3::expr> hin;
    std::string accIn;  // "" when the step is handed the current accumulator, else why not
    int m0 = -1, m1 = -1, pad = -1, r0 = -1, r1 = -1;
    int ctx = 0;
  };
  struct StepDef {
    std::string atom;
    z3::expr def;                 // (hold + m + pad 2^128) r
    z3::expr hold, m, pad, r;     // its parts, for the loop's Horner check (hornerMatches)
  };
  std::vector<StepDef> stepDefs;
  std::map<int, unsigned> loopStride;  // the block loop being proved: variable -> 2-adic valuation of its step
  // The block loop being proved, for the MAC cursor: its head values (variable -> head atom),
  // their values at the end of the body, its condition at the head, and the offset (into region)
  // of the first byte an iteration absorbs, in head values.
  struct LoopInfo {
    std::map<int, z3::expr> head, end;
    std::optional<z3::expr> cond, exitCond, rawCond, blk;  // cond / exitCond: where the loop runs / stops
    std::string region;
  };
  LoopInfo loopInfo;
  std::optional<std::pair<std::string, z3::expr>> lastPartial;  // the partial-block load being called
  std::optional<std::pair<std::string, z3::expr>> macPtr;  // a stitched helper's MAC pointer in the loop body
  int paramByName(const Function &fn, const std::string &n) {
    for (int p : fn.params)
      if (F.vars[(size_t)p].name == n) return p;
    return -1;
  }
  void beginStep(const Function &fn, const Contract &ct, Frame &fr, int ctx, StepCall &sc) {
    sc.ctx = ctx;
    {  // the join: the limbs handed in are the current accumulator (before they become atoms)
      std::vector<std::pair<int, int>> in;
      for (int i = 0; i < 3; ++i) {
        int pv = paramByName(fn, ct.acc[(size_t)i]);
        if (pv >= 0 && fr.refs.count(pv)) in.push_back(fr.refs.at(pv));
      }
      sc.accIn = in.size() == 3 ? accIsCurrent(in) : "the accumulator limbs are not reference parameters";
    }
    z3::expr hold = c.int_val(0);
    for (int i = 0; i < 3; ++i) {
      int pv = paramByName(fn, ct.acc[(size_t)i]);
      if (pv < 0 || !fr.refs.count(pv)) fail(fn.loc, "accumulator limb " + ct.acc[(size_t)i] + " is not a reference parameter");
      auto k = fr.refs.at(pv);
      sc.acc.push_back(k);
      V &cur = slots.at(k);
      if (cur.k != V::Int) fail(fn.loc, "accumulator limb " + ct.acc[(size_t)i] + " is not an integer");
      hold = hold + pow2big(64 * (unsigned)i) * *cur.v;
      z3::expr a = atom(ct.acc[(size_t)i] + "@in#" + std::to_string(fresh++));
      sc.hin.push_back(a);
      cur = intV(a, 64, maxOf(64));
    }
    sc.hold = hold;
    sc.m0 = paramByName(fn, ct.msgWords[0]);
    sc.m1 = paramByName(fn, ct.msgWords[1]);
    sc.pad = ct.padConst ? -1 : paramByName(fn, ct.pad);
    sc.r0 = paramByName(fn, ct.key[0]);
    sc.r1 = paramByName(fn, ct.key[1]);
    if (sc.m0 < 0 || sc.m1 < 0 || sc.r0 < 0 || sc.r1 < 0 || (!ct.padConst && sc.pad < 0))
      fail(fn.loc, "the poly1305.blocks contract of " + fn.name + " names a parameter it does not have");
  }
  z3::expr paramVal(const StepCall &sc, int pv) {
    auto it = slots.find({sc.ctx, pv});
    if (it == slots.end() || it->second.k != V::Int) fail({}, "a block-step argument is not an integer");
    return *it->second.v;
  }
  void endStep(const Function &fn, const Contract &ct, StepCall &sc, SrcLoc at) {
    Claim cl;
    cl.kind = "block-step";
    cl.loc = fn.loc;
    cl.what = "every call of " + fn.name + ": h' = (h + m0 + 2^64 m1 + pad*2^128) * r mod 2^130-5, r the clamped key";
    z3::expr Hf = sc.hin[0] + pow2big(64) * sc.hin[1] + pow2big(128) * sc.hin[2];
    z3::expr H2 = c.int_val(0);
    for (int i = 0; i < 3; ++i) H2 = H2 + pow2big(64 * (unsigned)i) * *slots.at(sc.acc[(size_t)i]).v;
    z3::expr M = paramVal(sc, sc.m0) + pow2big(64) * paramVal(sc, sc.m1);
    z3::expr P = ct.padConst ? c.int_val(ct.padValue) : paramVal(sc, sc.pad);
    z3::expr r0 = paramVal(sc, sc.r0), r1 = paramVal(sc, sc.r1);
    z3::expr R = r0 + pow2big(64) * r1;
    std::string k0, k1;
    std::string why = clampedLimb(r0, kClamp0, k0, 0);
    if (why.empty()) why = clampedLimb(r1, kClamp1, k1, 1);
    if (why.empty() && !offsetPair(k0, k1)) why = "r1's key bytes do not follow r0's";
    if (why.empty()) {
      z3::expr D = (H2.simplify(som) - ((Hf + M + P * pow2big(128)) * R).simplify(som)).simplify(som);
      std::string bad1 = firstNonzeroModP(D);
      if (!bad1.empty()) why = "h' - (h + m + pad*2^128)*r is not 0 mod 2^130-5: " + bad1;
    } else {
      why = "r = r0 + 2^64 r1 passed is not the clamped key: " + why;
    }
    if (!why.empty()) {
      cl.ok = false;
      cl.cex = why + " (call at " + where(at) + ")";
    } else {
      cl.note = "r = " + k0 + " & 0x0ffffffc0fffffff + 2^64 (" + k1 + " & 0x0ffffffc0ffffffc)";
    }
    claims.push_back(cl);
    checkStepJoin(sc, M, P, at);
    // The caller continues with the proved value: a fresh Hk = (H + m + pad 2^128) r (mod p).
    std::string hk = "H#" + std::to_string(fresh++);
    z3::expr Hk = atom(hk);
    z3::expr h1k = atom(hk + ".1"), h2k = atom(hk + ".2");
    stepDefs.push_back(StepDef{hk, (sc.hold + M + P * pow2big(128)) * R, sc.hold, M, P, R});
    slots.at(sc.acc[0]) = intV(Hk - pow2big(64) * h1k - pow2big(128) * h2k, 64, maxOf(64));
    slots.at(sc.acc[1]) = intV(h1k, 64, maxOf(64));
    slots.at(sc.acc[2]) = intV(h2k, 64, maxOf(64));
    for (int i = 0; i < 3; ++i) slots.at(sc.acc[(size_t)i]).accTag = hk, slots.at(sc.acc[(size_t)i]).accLimb = i;
    lastAcc = hk;
    stepMsg.erase(hk);
    stepMsg.emplace(hk, std::make_pair(M, P));
  }

  // ---- the joins between proved pieces (ghost accumulator names) ----
  // Every block step, the final reduction and the state store must be handed the accumulator the
  // previous proved piece left (limbs in order, nothing done to them in between); an AEAD's last
  // block before the final reduction is the lengths block le64(aad_len) || le64(len) with its pad
  // bit; every AEAD block has the pad bit and a partial block zero padding (RFC 8439 2.8), a
  // Poly1305 message's partial block the 0x01 marker and no pad bit (RFC 8439 2.5.1).
  std::string kernelRole;                 // the exported kernel's contract role
  std::string loopAccName;                // the accumulator name of the block loop being proved
  std::string lastAcc = "0";              // the accumulator last produced ("0": h = 0, nothing absorbed)
  std::map<std::string, std::pair<z3::expr, z3::expr>> stepMsg;  // step name -> (m, pad) it absorbed
  std::map<std::pair<std::string, std::string>, std::string> joinNames;  // branch join of two names
  std::string tagOf(const V &v, int limb) {
    if (v.k != V::Int) return "";
    if (v.accLimb == limb && !v.accTag.empty()) return v.accTag;
    z3::expr e = v.v->simplify();
    if (e.is_numeral() && e.get_decimal_string(0) == "0") return "0";
    return "";
  }
  // "" when the three slots hold limbs 0, 1, 2 of the current accumulator, else why not.
  std::string accIsCurrent(const std::vector<std::pair<int, int>> &acc) {
    for (size_t i = 0; i < acc.size(); ++i) {
      auto it = slots.find(acc[i]);
      std::string t = it == slots.end() ? "" : tagOf(it->second, (int)i);
      if (t != lastAcc) {
        std::string name = F.vars[(size_t)acc[i].second].name;
        return "limb " + std::to_string(i) + " (" + name + ") is " +
               (t.empty() ? "not limb " + std::to_string(i) + " of an accumulator a proved piece produced"
                          : "limb " + std::to_string(i) + " of an earlier accumulator, not of the last one");
      }
    }
    return "";
  }
  // A claim of one of the walk's checks (why: "" when it holds, else the counterexample).
  void addClaim(const std::string &kind, SrcLoc at, const std::string &what, const std::string &why) {
    Claim cl;
    cl.kind = kind;
    cl.loc = at;
    cl.what = what;
    if (!why.empty()) cl.ok = false, cl.cex = why;
    claims.push_back(cl);
  }
  void addJoinClaim(SrcLoc at, const std::string &what, const std::string &why) { addClaim("join", at, what, why); }
  static bool isAead(const std::string &r) {
    return r == "aead.seal" || r == "aead.open" || r == "aead.seal_update" || r == "aead.open_update";
  }
  static bool isMac(const std::string &r) { return r == "poly1305.oneshot" || r == "poly1305.update"; }
  // The buffers a kernel's Poly1305 may read, by its role and the C ABI (runtime/src/internal/
  // chapoly_internal.h): seal (ct, tag, pt, len, aad, ...) MACs its output ct and the AAD, open
  // (pt, tag, ct, len, aad, ...) its input ct and the AAD, seal_update (ct, pt, ...) its output,
  // open_update (pt, ct, ...) its input, poly1305 / poly1305_update (x, msg, ...) msg.
  bool macRegion(const std::string &region) {
    if (!macRegionsKept) macRegionsKept = macRegions();
    return macRegionsKept->count(region) != 0;
  }
  std::optional<std::set<std::string>> macRegionsKept;  // macRegions(), once the kernel is known
  std::set<std::string> macRegions() {
    const Function &k = *frames.front().fn;
    std::vector<size_t> idx;
    if (kernelRole == "aead.seal") idx = {0, 4};
    else if (kernelRole == "aead.open") idx = {2, 4};
    else if (kernelRole == "aead.seal_update") idx = {0};
    else if (kernelRole == "aead.open_update" || isMac(kernelRole)) idx = {1};
    std::set<std::string> out;
    for (size_t i : idx)
      if (i < k.params.size()) out.insert(F.vars[(size_t)k.params[i]].name);
    return out;
  }
  // "" when every memory byte in m is from a buffer the kernel may MAC, else the first that is not.
  // (Byte atoms are named REGION[@EPOCH][OFFSET]; other atoms, unknowns named NAME?N among them,
  // are no byte read from memory; a partial block's source is checked at its loader's call.)
  std::string foreignBytes(const z3::expr &m) {
    std::set<std::string> ok = macRegions();
    if (ok.empty()) return "";
    std::vector<z3::expr> todo{m};
    std::set<unsigned> seen;
    while (!todo.empty()) {
      z3::expr e = todo.back();
      todo.pop_back();
      if (!seen.insert(e.id()).second) continue;
      if (e.is_const() && !e.is_numeral()) {
        std::string n = e.decl().name().str();
        size_t b = n.find('[');
        // An unknown is NAME?N (its name may hold a '[': buf[15]?7); a byte read's offset may name
        // one (ct@2[off@L12?3]), so only a trailing ?N marks an unknown.
        const size_t q = n.rfind('?');
        const bool unknown = q != std::string::npos && q + 1 < n.size() &&
                             n.find_first_not_of("0123456789", q + 1) == std::string::npos;
        if (b == std::string::npos || b == 0 || n[0] == '@' || unknown) continue;  // not a byte read
        std::string region = unEpoch(n.substr(0, b));
        if (!ok.count(region)) return n;
        continue;
      }
      if (e.is_app())
        for (unsigned i = 0; i < e.num_args(); ++i) todo.push_back(e.arg(i));
    }
    return "";
  }
  void checkStepJoin(const StepCall &sc, const z3::expr &M, const z3::expr &P, SrcLoc at) {
    std::string why = sc.accIn.empty() ? "" : "the step is not handed the accumulator the previous piece left: " + sc.accIn;
    z3::expr p = P.simplify();
    const std::string pv = p.is_numeral() ? p.get_decimal_string(0) : "?";
    auto mit = slots.find({sc.ctx, sc.m0});
    const int mk = mit == slots.end() ? -1 : mit->second.marker;
    const std::string mks = mk == -2 ? std::string("?") : std::to_string(mk);
    if (why.empty() && isAead(kernelRole)) {
      if (pv != "1")
        why = "an AEAD block is absorbed with pad " + pv + " (RFC 8439 2.8: every block is 16 bytes, zero-padded, 2^128 added)";
      else if (mk != -1 && mk != 0)
        why = "an AEAD partial block is padded with marker byte " + mks + " (RFC 8439 2.8 pads with zeros)";
    }
    if (why.empty() && isMac(kernelRole)) {
      if (mk == -1 && pv != "1") why = "a whole 16-byte Poly1305 block is absorbed with pad " + pv + " (RFC 8439 2.5.1: 2^128 added)";
      if (mk != -1 && (mk != 1 || pv != "0"))
        why = "a partial Poly1305 block has marker " + mks + " and pad " + pv +
              " (RFC 8439 2.5.1: the 0x01 byte right after its bytes, no 2^128)";
    }
    if (why.empty()) {
      std::string b = foreignBytes(M);
      if (!b.empty()) why = "the block absorbed holds " + b + ", a byte of a buffer this " + kernelRole + " kernel does not MAC";
    }
    addJoinClaim(at, "the block step at " + where(at) + " is handed the last accumulator, its block padded as RFC 8439 says "
                 "and read from a buffer the kernel MACs", why);
    if (cursor && loopDepth == 0) placeStep(mit == slots.end() ? nullptr : &mit->second, M, at);
  }
  // The MAC cursor across a block step outside the block loops: a partial block (16 bytes of
  // the message, from its loader's offset) or an AEAD's lengths block (at the end of the padded
  // ciphertext); any other is a block the verifier cannot place.
  void placeStep(const V *m0, const z3::expr &M, SrcLoc at) {
    const std::string w = "the block step at " + where(at) + " absorbs the message where the previous piece ended";
    if (m0 && m0->marker != -1 && m0->partOff) {
      auto base = macBase(m0->partRegion);
      if (!base) {
        addOrderClaim(at, w, "its partial block is from " + m0->partRegion + ", a buffer the kernel's message does not hold");
        cursor.reset();
        return;
      }
      z3::expr pos = (*base + *m0->partOff).simplify(som);
      addOrderClaim(at, w, cursorAt(pos, "the partial block's start"));
      cursor = (pos + 16).simplify(som);
      return;
    }
    if ((kernelRole == "aead.seal" || kernelRole == "aead.open") && frames.front().fn->params.size() >= 6) {
      const Function &k = *frames.front().fn;
      z3::expr L = atom(F.vars[(size_t)k.params[3]].name), A = atom(F.vars[(size_t)k.params[5]].name);
      if (isLengthsBlock(M)) {
        addOrderClaim(at, "the lengths block at " + where(at) + " follows the padded AAD and ciphertext (RFC 8439 2.8)",
                      cursorAt(ceil16(A) + ceil16(L), "the end of the padded AAD and ciphertext"));
        cursor = (ceil16(A) + ceil16(L) + 16).simplify(som);
        return;
      }
    }
    // A whole block of the message (a stitched keystream helper's step outside the block loops:
    // seal's last chunk absorbed beside the keystream pass of the bytes after it): M is exactly
    // the 16 bytes at an offset o of a buffer the message holds, little-endian, and must start
    // where the previous piece ended.
    std::string region;
    std::optional<z3::expr> o;
    if (isLe128(M, region, o)) {
      if (auto base = macBase(unEpoch(region))) {
        z3::expr pos = (*base + *o).simplify(som);
        addOrderClaim(at, w, cursorAt(pos, "the whole block's start"));
        cursor = (pos + 16).simplify(som);
        return;
      }
    }
    addOrderClaim(at, w, "a block step outside the block loops that is neither a whole block of the message, a partial "
                         "block nor the lengths block");
    cursor.reset();
  }
  void checkAccJoin(const Function &fn, const Contract &ct, const Frame &fr, int ctx, SrcLoc at, const std::string &what) {
    std::vector<std::pair<int, int>> acc;
    std::string why;
    for (size_t i = 0; i < 3 && why.empty(); ++i) {
      int pv = i < ct.acc.size() ? paramByName(fn, ct.acc[i]) : -1;
      if (pv < 0) why = "the contract's \"acc\" does not name three parameters of " + fn.name;
      else if (F.vars[(size_t)pv].isRef) acc.push_back(fr.refs.at(pv));
      else acc.push_back({ctx, pv});
    }
    if (why.empty()) why = accIsCurrent(acc);
    addJoinClaim(at, what + " at " + where(at) + " is handed the accumulator the last proved piece left, limbs in order", why);
  }
  // The kernel's Poly1305 message by its role and the C ABI (runtime/src/internal/
  // chapoly_internal.h): each buffer it MACs, where that buffer's byte 0 sits in the message and
  // how many of its bytes are MACed (seal/open: the AAD, aad_len bytes at 0, then the ciphertext,
  // len bytes at 16 ceil(aad_len / 16); a one-shot Poly1305: msg, len bytes; the streaming
  // entries: 64 floor(len / 64) bytes of text, 16 floor(len / 16) of a Poly1305 message), and
  // where the message ends (after the lengths block for seal/open). Empty for any other role.
  struct MsgPart {
    std::string region;
    z3::expr base, len;
  };
  struct Message {
    std::vector<MsgPart> parts;
    std::optional<z3::expr> end;
    std::string endName;
  };
  Message message() {
    const Function &k = *frames.front().fn;
    Message m;
    if (k.params.size() < 3) return m;
    auto name = [&](size_t i) { return i < k.params.size() ? F.vars[(size_t)k.params[i]].name : std::string("?"); };
    auto whole = [&](size_t i, unsigned lg) { return (pow2(lg) * quot(atom(name(i)), lg)).simplify(som); };
    const std::string &r = kernelRole;
    if ((r == "aead.seal" || r == "aead.open") && k.params.size() >= 6) {
      z3::expr A = atom(name(5)), L = atom(name(3));
      m.parts.push_back({name(4), c.int_val(0), A});
      m.parts.push_back({name(r == "aead.seal" ? 0 : 2), ceil16(A), L});
      m.end = ceil16(A) + ceil16(L) + 16, m.endName = "the end of AAD, ciphertext and lengths block";
    } else if (r == "aead.seal_update" || r == "aead.open_update") {
      m.parts.push_back({name(r == "aead.seal_update" ? 0 : 1), c.int_val(0), whole(2, 6)});
      m.end = m.parts[0].len, m.endName = "the end of the whole 64-byte chunks";
    } else if (r == "poly1305.oneshot") {
      m.parts.push_back({name(1), c.int_val(0), atom(name(2))});
      m.end = ceil16(m.parts[0].len), m.endName = "the end of the message";
    } else if (r == "poly1305.update") {
      m.parts.push_back({name(1), c.int_val(0), whole(2, 4)});
      m.end = m.parts[0].len, m.endName = "the end of the whole 16-byte blocks";
    }
    return m;
  }
  const MsgPart *messagePart(const Message &m, const std::string &region) {
    for (const auto &p : m.parts)
      if (p.region == region) return &p;
    return nullptr;
  }
  std::optional<z3::expr> macLength(const std::string &region) {
    Message m = message();
    const MsgPart *p = messagePart(m, region);
    return p ? std::optional<z3::expr>(p->len) : std::nullopt;
  }
  // A byte atom's region without its write epoch ("ct@2" -> "ct"; a local array's "@arr:.." -> "").
  static std::string unEpoch(const std::string &region) { return region.substr(0, region.find('@')); }
  std::optional<z3::expr> macBase(const std::string &region) {
    Message m = message();
    const MsgPart *p = messagePart(m, region);
    return p ? std::optional<z3::expr>(p->base) : std::nullopt;
  }
  // The join of a partial block (on the arguments as handed over): its loader reads from a buffer
  // the kernel MACs, at a 16-byte block boundary o of it, and the n bytes it loads end where that
  // buffer's MACed bytes end (o + n = L). With n <= max_len <= 15 (kernel-bytes proves it at the
  // call) that is exactly the last L mod 16 bytes, the partial block of RFC 8439 2.5.1 / 2.8.
  void checkPartialJoin(const Function &fn, const Contract &ct, int ctx, SrcLoc at) {
    std::set<std::string> ok = macRegions();
    int sp = paramByName(fn, ct.src), lp = paramByName(fn, ct.len);
    auto sit = sp < 0 ? slots.end() : slots.find({ctx, sp});
    auto lit = lp < 0 ? slots.end() : slots.find({ctx, lp});
    std::string why;
    if (ok.empty()) {
      // (no exported kernel role: nothing to tie the block to)
    } else if (sit == slots.end() || sit->second.k != V::Ptr || lit == slots.end() || lit->second.k != V::Int) {
      why = "the contract's \"src\" and \"len\" do not name a pointer and a length of " + fn.name;
    } else {
      const V &src = sit->second;
      lastPartial.emplace(src.region, src.v->simplify(som));
      if (!ok.count(src.region)) {
        why = "the partial block is loaded from " + src.region + ", a buffer this " + kernelRole + " kernel does not MAC";
      } else if (auto L = macLength(src.region)) {
        z3::expr o = src.v->simplify(som), n = lit->second.v->simplify(som);
        z3::expr gap = (*L - o - n).simplify(som);
        const bool aligned = val2(o) >= 4, ends = gap.is_numeral() && gap.get_decimal_string(0) == "0";
        // A concrete case: the kernel's lengths, and where the block starts and how long it is.
        std::vector<z3::expr> small{o + n <= *L, n >= 1, n <= 15};
        std::vector<std::pair<std::string, z3::expr>> show = lengthsShown(small);
        show.push_back({"offset", o});
        show.push_back({"bytes", n});
        std::string ex;
        if (!aligned || !ends) {
          if (solve(aligned ? gap != 0 : z3::mod(o, 16) != 0, show, small, ex) != 1) ex.clear();
          why = aligned ? "the partial block's bytes do not end where the " + L->to_string() + " bytes the kernel MACs from " +
                              src.region + " end (they end " + gap.to_string() + " bytes before)"
                        : "the partial block does not start at a multiple of 16 of " + src.region +
                              " (RFC 8439 2.5.1: the message is cut into 16-byte blocks from its start)";
          why += ex.empty() ? ": it is " + n.to_string() + " bytes at " + src.region + " + " + o.to_string()
                            : "; e.g. " + ex;
        } else if (int r = solve(n < 1, show, {}, ex); r != 0) {
          // The loader is reached only with bytes left (a 0-byte "partial block" would absorb an
          // extra block 2^128 or the marker alone): its branch conditions must exclude n = 0.
          why = "the partial block may be 0 bytes: the conditions on the path to it do not exclude a length that "
                "ends on a 16-byte boundary (RFC 8439 2.8 pads only a partial block)" +
                (r == 1 ? "; e.g. " + ex : std::string(" (Z3 gave no answer within 2 s)"));
        }
      } else {
        why = "this " + kernelRole + " kernel MACs no length of " + src.region + " its ABI names";
      }
    }
    addJoinClaim(at, "the partial block loaded at " + where(at) + " is the last L mod 16 bytes of a buffer the kernel MACs, "
                 "L the bytes it MACs from it", why);
  }
  // Is m exactly le64(aad_len) + 2^64 le64(len), the kernel's own lengths (ABI: len is
  // parameter 3, aad_len 5)?
  bool isLengthsBlock(const z3::expr &m) {
    const Function &k = *frames.front().fn;
    z3::expr L = atom(F.vars[(size_t)k.params[3]].name), A = atom(F.vars[(size_t)k.params[5]].name);
    z3::expr d = (m - (A + pow2big(64) * L)).simplify(som);
    return d.is_numeral() && d.get_decimal_string(0) == "0";
  }
  // An AEAD's final reduction follows the lengths block: the last step absorbed
  // le64(aad_len) + 2^64 le64(len) with the pad bit (the kernel ABI: len is parameter 3, aad_len 5).
  void checkLengthsBlock(SrcLoc at) {
    if (kernelRole != "aead.seal" && kernelRole != "aead.open") return;
    const Function &k = *frames.front().fn;
    std::string why;
    auto it = stepMsg.find(lastAcc);
    if (k.params.size() < 6) {
      why = k.name + " does not have the seal/open ABI";
    } else if (it == stepMsg.end()) {
      why = "the final reduction does not follow a block step";
    } else {
      if (!isLengthsBlock(it->second.first))
        why = "the last block absorbed is " + it->second.first.simplify(som).to_string() + ", not " +
              F.vars[(size_t)k.params[5]].name + " + 2^64 " + F.vars[(size_t)k.params[3]].name;
    }
    addClaim("lengths-block", at, "the block before the final reduction is the lengths block le64(aad_len) || le64(len) (RFC 8439 2.8)", why);
  }
  // Names the accumulator limbs a helper (state load) set in the caller: they are the new accumulator.
  void tagAcc(const Frame &fr, const Function &fn, const Contract &ct, const std::string &name) {
    for (size_t i = 0; i < 3 && i < ct.acc.size(); ++i) {
      int pv = paramByName(fn, ct.acc[i]);
      auto r = pv < 0 ? fr.refs.end() : fr.refs.find(pv);
      if (r == fr.refs.end() || !slots.count(r->second)) return;
      V &v = slots.at(r->second);
      if (v.k == V::Int) v.accTag = name, v.accLimb = (int)i;
    }
    lastAcc = name;
  }
  // Replaces the step atoms recorded from index `from` on by their definitions, latest first.
  // Is h2[0] + 2^64 h2[1] + 2^128 h2[2], with the step definitions from `from` on substituted,
  // exactly (...((H + Ms[0] + pad 2^128) R + Ms[1] + pad 2^128) R ...) R? True when there is one
  // step per block, the first is handed H, each later one the atom of the one before, step k
  // absorbs Ms[k] with this pad and key (each an identity of polynomials), and the limbs at the
  // end recombine to the last step's atom: the substitution then rebuilds X exactly.
  bool hornerMatches(const std::vector<z3::expr> &h2, size_t from, const z3::expr &H, const std::vector<z3::expr> &Ms,
                     const z3::expr &pad, const z3::expr &R) {
    if (stepDefs.size() < from || stepDefs.size() - from != Ms.size() || Ms.empty()) return false;
    auto same = [&](const z3::expr &a, const z3::expr &b) { return z3::eq((a - b).simplify(som), c.int_val(0)); };
    z3::expr prev = H;
    for (size_t k = 0; k < Ms.size(); ++k) {
      const StepDef &d = stepDefs[from + k];
      if (!same(d.hold, prev) || !same(d.m, Ms[k]) || !same(d.pad, pad) || !same(d.r, R)) return false;
      prev = atom(d.atom);
    }
    return same(h2[0] + pow2big(64) * h2[1] + pow2big(128) * h2[2], prev);
  }

  z3::expr expandSteps(z3::expr e, size_t from) {
    for (size_t i = stepDefs.size(); i-- > from;) {
      z3::expr_vector a(c), b(c);
      a.push_back(atom(stepDefs[i].atom));
      b.push_back(stepDefs[i].def);
      e = e.substitute(a, b);
    }
    return e;
  }

  void havocMemory() {
    mem.clear();
    ++epoch;
  }

  // ---- statements ----
  // ---- statements (interp.h), with this evaluator's hooks: a declaration; a condition no
  // constant decides, both branches joined; a loop by its invariant or unrolled (loop) ----
  void declare(const Stmt &s) {
    const Var &v = F.vars[(size_t)s.var];
    setSlot(s.var, s.e ? initValue(v.ty, *s.e) : opaque(v.ty, v.name));
  }
  void execLoop(const Stmt &s) { loop(s); }
  void execIf(const Stmt &s) {
    const V cv = eval(*s.e);
    int d = decide(cv);
    if (d == 1) return exec(*s.then);
    if (d == 0) {
      if (s.els) exec(*s.els);
      return;
    }
    // Undecided: both branches (each under its condition, where it is a comparison), then
    // every variable either changed becomes unknown.
    auto before = slots;
    auto memBefore = mem;
    const std::string accBefore = lastAcc;
    const size_t depth = pathCond.size();
    struct Restore {  // (a failure inside a branch unwinds past it)
      std::vector<z3::expr> &v;
      size_t n;
      ~Restore() { v.erase(v.begin() + (std::ptrdiff_t)std::min(n, v.size()), v.end()); }
    } restore{pathCond, depth};
    const std::optional<z3::expr> cursorBefore = cursor;
    // (Each branch's condition as a path fact, where the operands are the C values.)
    std::optional<z3::expr> thenC, elseC;
    if (cv.cond) {
      thenC = cv.condExact ? *cv.condExact && *cv.cond : *cv.cond;
      elseC = cv.condExact ? *cv.condExact && !*cv.cond : !*cv.cond;
      pathCond.push_back(cv.condExact ? z3::implies(*cv.condExact, *cv.cond) : *cv.cond);
    }
    exec(*s.then);
    pathCond.erase(pathCond.begin() + (std::ptrdiff_t)depth, pathCond.end());
    if (cv.cond) pathCond.push_back(cv.condExact ? z3::implies(*cv.condExact, !*cv.cond) : !*cv.cond);
    auto afterThen = slots;
    const std::string accThen = lastAcc;
    const std::optional<z3::expr> cursorThen = cursor;
    cursor = cursorBefore;
    bool retThen = frames.back().returned;
    frames.back().returned = false;
    slots = before;
    mem = memBefore;
    lastAcc = accBefore;
    if (s.els) exec(*s.els);
    pathCond.erase(pathCond.begin() + (std::ptrdiff_t)depth, pathCond.end());
    const std::string accEls = lastAcc;
    bool retEls = frames.back().returned;
    if (retThen || retEls) fail(s.loc, "return inside a data-dependent branch");
    // The accumulator after the branch: one name for the pair of names the branches left.
    auto joinName = [&](const std::string &a, const std::string &b) {
      if (a == b) return a;
      auto jk = std::make_pair(a, b);
      auto jt = joinNames.find(jk);
      if (jt != joinNames.end()) return jt->second;
      return joinNames[jk] = "J#" + std::to_string(fresh++);
    };
    for (auto &[k, v] : slots) {
      auto t = afterThen.find(k);
      if (t == afterThen.end()) continue;
      if (same(v, t->second)) continue;
      V j = joinV(v, t->second);
      if (j.k == v.k && j.k == t->second.k && (j.k == V::Int || (j.k == V::Ptr && j.region == v.region))) {
        // The joined value is one of the two, the then-branch's where its condition held. A value
        // that is the C value only under its no-wrap condition (size_t glue, exactIf) equals its
        // integer there alone: every query takes the joined atom >= 0, so an unguarded equation
        // with a difference that may borrow (rem = len - off) would assume that it does not (the
        // stop-50 review); the joined value is exact where the branch it came from was.
        z3::expr a = freshAtomOf(*j.v);
        const bool ints = j.k == V::Int;
        const z3::expr et = ints && t->second.exactIf ? *t->second.exactIf : c.bool_val(true);
        const z3::expr ee = ints && v.exactIf ? *v.exactIf : c.bool_val(true);
        addFact(a, z3::implies(et && ee, *j.v == *t->second.v || *j.v == *v.v));
        if (thenC) {
          addFact(a, z3::implies(*thenC && et, *j.v == *t->second.v));
          addFact(a, z3::implies(*elseC && ee, *j.v == *v.v));
        }
        if (ints && (inexact(t->second.exactIf) || inexact(v.exactIf)))
          j.exactIf = std::make_shared<z3::expr>(thenC ? z3::implies(*thenC, et) && z3::implies(*elseC, ee) : et && ee);
      }
      for (int limb = 0; limb < 3 && j.k == V::Int; ++limb) {
        std::string ta = tagOf(t->second, limb), tb = tagOf(v, limb);
        if (!ta.empty() && !tb.empty() && (t->second.accLimb == limb || v.accLimb == limb)) {
          j.accTag = joinName(ta, tb);
          j.accLimb = limb;
          break;
        }
      }
      v = j;
    }
    lastAcc = joinName(accThen, accEls);
    if (cursor && cursorThen && !z3::eq(*cursor, *cursorThen)) {
      z3::expr j = atom("pos?" + std::to_string(fresh++));
      addFact(j, j == *cursorThen || j == *cursor);
      if (thenC) {
        addFact(j, z3::implies(*thenC, j == *cursorThen));
        addFact(j, z3::implies(*elseC, j == *cursor));
      }
      cursor = j;
    } else if (!cursorThen) {
      cursor.reset();
    }
    mem.clear();
  }

  bool same(const V &a, const V &b) {
    if (a.k != b.k) return false;
    if (a.k == V::Int || a.k == V::Ptr) return a.region == b.region && z3::eq(*a.v, *b.v);
    if (a.k == V::Arr) return a.arr == b.arr;
    return true;
  }
  V joinV(const V &a, const V &b) {
    if (a.k == V::Int && b.k == V::Int) {  // a multiple of 2^k on both paths stays one
      unsigned k = std::min({val2(*a.v), val2(*b.v), 63u});
      z3::expr j = atom("join?" + std::to_string(fresh++));
      return intV(k ? pow2(k) * j : j, a.bits, std::max(a.hi, b.hi));
    }
    if (a.k == V::Arr) {
      Type t;
      t.kind = Type::Array;
      t.bits = a.bits;
      t.count = a.arr->size();
      return opaque(t, "join");
    }
    if (a.k == V::Ptr && b.k == V::Ptr && a.region == b.region) {
      V p = a;
      p.v = std::make_shared<z3::expr>(atom("joinoff?" + std::to_string(fresh++)));
      return p;
    }
    Type t;
    t.kind = Type::Ptr;
    t.bits = a.bits;
    return opaque(t, "join");
  }

  // Variables (caller slots) and local arrays a statement may write, calls included.
  void assigned(const Stmt &s, std::set<int> &vars) {
    std::function<void(const Expr &)> ex = [&](const Expr &e) {
      if (e.kind == Expr::Assign || e.kind == Expr::IncDec) {
        const Expr *t = e.args[0].get();
        while (t->kind == Expr::Cast || t->kind == Expr::Index) t = t->args[0].get();
        if (t->kind == Expr::Var) vars.insert(t->var);
      }
      if (e.kind == Expr::Call && e.fn >= 0) {
        const Function &fn = F.funcs[(size_t)e.fn];
        for (size_t i = 0; i < fn.params.size() && i < e.args.size(); ++i)
          if (F.vars[(size_t)fn.params[i]].isRef) {
            const Expr *a = e.args[i].get();
            while (a->kind == Expr::Cast) a = a->args[0].get();
            if (a->kind == Expr::Var) vars.insert(a->var);
          }
      }
      for (const auto &a : e.args)
        if (a) ex(*a);
    };
    std::function<void(const Stmt &)> st = [&](const Stmt &x) {
      if (x.kind == Stmt::Decl) vars.insert(x.var);
      if (x.e) ex(*x.e);
      if (x.inc) ex(*x.inc);
      for (const StmtP *c2 : {&x.init, &x.then, &x.els})
        if (*c2) st(**c2);
      for (const auto &b : x.body)
        if (b) st(*b);
    };
    st(s);
  }

  std::map<int, Invariant> invariantsOf(const Stmt &s) {
    std::map<int, Invariant> out;
    for (const auto &inv : s.invariants) {
      int v = varByName(inv.var);
      if (v >= 0) out[v] = inv;
    }
    return out;
  }

  // Whether `s` (with the helpers it calls) may store to memory other than a local array of
  // its own function: only then must later reads of pointer memory start a new epoch.
  bool mayWriteMemory(const Stmt &s) {
    bool any = false;
    std::set<const Function *> seen;
    std::function<void(const Stmt &)> st;
    std::function<void(const Expr &)> ex = [&](const Expr &e) {
      if (any) return;
      if (e.kind == Expr::Assign || e.kind == Expr::IncDec) {
        const Expr *t = e.args[0].get();
        while (t->kind == Expr::Cast) t = t->args[0].get();
        if (t->kind == Expr::Deref) any = true;
        if (t->kind == Expr::Index) {
          const Expr *b = t->args[0].get();
          while (b->kind == Expr::Cast) b = b->args[0].get();
          if (!(b->kind == Expr::Var && F.vars[(size_t)b->var].ty.kind == Type::Array && !F.vars[(size_t)b->var].isParam))
            any = true;
        }
      }
      if (e.kind == Expr::Call && e.fn >= 0) {
        const Function &fn = F.funcs[(size_t)e.fn];
        if (seen.insert(&fn).second && fn.body) st(*fn.body);
      }
      for (const auto &a : e.args)
        if (a) ex(*a);
    };
    st = [&](const Stmt &x) {
      if (any) return;
      if (x.e) ex(*x.e);
      if (x.inc) ex(*x.inc);
      for (const StmtP *c2 : {&x.init, &x.then, &x.els})
        if (*c2) st(**c2);
      for (const auto &b : x.body)
        if (b) st(*b);
    };
    st(s);
    return any;
  }

  void havocLoop(const Stmt &s, const std::set<int> &vars, const std::map<int, Invariant> &inv) {
    // Local arrays may be written through pointers the loop moves: forget them all.
    for (auto &[k, v] : slots)
      if (v.k == V::Arr) {
        Type t;
        t.kind = Type::Array;
        t.bits = v.bits;
        t.count = v.arr->size();
        v = opaque(t, F.vars[(size_t)k.second].name + "@L" + std::to_string(s.loc.line));
      }
    for (int v : vars) {
      const Var &var = F.vars[(size_t)v];
      auto k = key(v);
      if (!slots.count(k)) continue;
      V cur = slots.at(k);
      V n = opaque(var.ty, var.name + "@L" + std::to_string(s.loc.line));
      if (cur.k == V::Ptr) {
        n = cur;
        n.v = std::make_shared<z3::expr>(atom(var.name + "@L" + std::to_string(s.loc.line) + "off#" + std::to_string(fresh++)));
      }
      auto it = inv.find(v);
      if (it != inv.end() && n.k == V::Int) n.hi = std::min(n.hi, it->second.bound);
      setSlot(v, n);
    }
    if (mayWriteMemory(s)) {
      havocMemory();
    } else {
      mem.clear();  // values written before the loop are still there, but keep it simple: re-read
    }
  }

  std::map<int, unsigned> strideAt;  // the loop just summarised: variable -> its proved factor 2^k
  // The MAC cursor across a block loop (which absorbs the bytes from its first iteration's block
  // to where its exit iteration's would start, consecutively: its block-step claim): the loop
  // must start at the cursor, and the cursor moves to the block offset at the exit. The exit
  // values are related to the entry by facts every iteration keeps (a <= b among the loop's
  // variables, the kernel's lengths and the condition's operands, Houdini-style: each holds on
  // entry and, all assumed at the head with the condition and the strides, after the body), and
  // the condition is false there.
  void placeLoop(const Stmt &s, const std::map<std::pair<int, int>, V> &entry) {
    LoopInfo li = loopInfo;
    const std::string at = where(s.loc);
    auto base = li.blk ? macBase(li.region) : std::nullopt;
    if (!base) {
      addOrderClaim(s.loc, "the loop at " + at + " absorbs the message from where the previous piece ended",
                    li.blk ? "it reads " + li.region + ", a buffer the kernel's message does not hold"
                           : "the verifier cannot tell which bytes the loop absorbs");
      cursor.reset();
      return;
    }
    z3::expr_vector from(c), toEntry(c), toExit(c);
    std::vector<std::pair<int, z3::expr>> headInts;
    for (const auto &[v, hv] : li.head) {
      auto e0 = entry.find(key(v));
      auto x = slots.find(key(v));
      if (e0 == entry.end() || x == slots.end() || !(hv.is_app() && hv.num_args() == 0)) continue;
      if (e0->second.k != x->second.k || (e0->second.k != V::Int && e0->second.k != V::Ptr)) continue;
      from.push_back(hv);
      toEntry.push_back(*e0->second.v);
      toExit.push_back(*x->second.v);
      if (e0->second.k == V::Int) headInts.emplace_back(v, hv);
    }
    z3::expr startAt = (*base + li.blk->substitute(from, toEntry)).simplify(som);
    std::string ex;
    std::vector<z3::expr> small;
    auto show = lengthsShown(small);
    show.push_back({"previous piece's end", *cursor});
    show.push_back({"loop start", startAt});
    int r = solve(*cursor != startAt, show, small, ex);
    addOrderClaim(s.loc, "the loop at " + at + " absorbs the message from where the previous piece ended",
                  r == 0 ? "" : "its first block is at message position " + startAt.to_string() + ", the previous piece ended at " +
                                cursor->to_string() + (r == 1 ? "; e.g. " + ex : std::string(" (no answer within 2 s)")));
    // The facts each iteration keeps.
    std::vector<z3::expr> terms;
    for (auto &[v, hv] : headInts) terms.push_back(hv);
    const Function &k = *frames.front().fn;
    for (int pv : k.params)
      if (F.vars[(size_t)pv].ty.kind == Type::Int && atoms.count(F.vars[(size_t)pv].name)) terms.push_back(atom(F.vars[(size_t)pv].name));
    if (li.rawCond && li.rawCond->num_args() == 2 && li.rawCond->arg(0).is_int())
      terms.push_back(li.rawCond->arg(0)), terms.push_back(li.rawCond->arg(1));
    std::vector<z3::expr> cands;
    std::function<bool(const z3::expr &, const z3::expr &)> has = [&](const z3::expr &e, const z3::expr &a) {
      if (z3::eq(e, a)) return true;
      for (unsigned i = 0; e.is_app() && i < e.num_args(); ++i)
        if (has(e.arg(i), a)) return true;
      return false;
    };
    auto mentionsHead = [&](const z3::expr &e) {
      for (auto &[v, hv] : headInts)
        if (has(e, hv)) return true;
      return false;
    };
    for (size_t i = 0; i < terms.size(); ++i)
      for (size_t j = 0; j < terms.size(); ++j)
        if (i != j && (mentionsHead(terms[i]) || mentionsHead(terms[j]))) cands.push_back(terms[i] <= terms[j]);
    // On entry.
    std::vector<z3::expr> kept;
    for (auto cd : cands) {
      std::string unused;
      if (solve(!cd.substitute(from, toEntry), {}, {}, unused) == 0) kept.push_back(cd);
    }
    // Kept by an iteration, all assumed at the head (with the condition and the strides).
    z3::expr_vector toEnd(c);
    for (unsigned i = 0; i < from.size(); ++i) {
      z3::expr hv = from[(int)i];
      z3::expr e = hv;
      for (const auto &[v, h2] : li.head)
        if (z3::eq(h2, hv) && li.end.count(v)) e = li.end.at(v);
      toEnd.push_back(e);
    }
    // At a head: the kept facts, `cond` (the loop's condition) and the strides, as path conditions.
    auto assumeHead = [&](const std::optional<z3::expr> &cond) {
      const size_t depth = pathCond.size();
      for (const auto &cd : kept) pathCond.push_back(cd);
      if (cond) pathCond.push_back(*cond);
      for (auto &[v, hv] : headInts)
        if (strideAt.count(v)) pathCond.push_back(z3::mod(hv, pow2(strideAt.at(v))) == 0);
      return depth;
    };
    for (bool changed = true; changed && !kept.empty();) {
      changed = false;
      const size_t depth = assumeHead(li.cond);
      std::vector<z3::expr> next;
      for (auto cd : kept) {
        std::string unused;
        if (solve(!cd.substitute(from, toEnd), {}, {}, unused) == 0) next.push_back(cd);
        else changed = true;
      }
      pathCond.erase(pathCond.begin() + (std::ptrdiff_t)depth, pathCond.end());
      kept = next;
    }
    // The loop ends (every proof here is of what a kernel computes if it returns): its condition
    // a < b, a <= b, a > b or a >= b gives a measure, b - a or a - b, bounded below where the
    // condition holds as the C comparison; each iteration, from a head where it does (with the
    // kept facts and the strides), must lower it by at least 1 and keep the comparison the C one.
    // (An rvv loop that asks its helper for 0 blocks, vsetvl(0) = 0, spins and proved before.)
    {
      std::string why;
      std::optional<z3::expr> m;
      if (li.rawCond && li.cond && li.exitCond && li.rawCond->num_args() == 2 && li.rawCond->arg(0).is_int()) {
        const Z3_decl_kind dk = li.rawCond->decl().decl_kind();
        const z3::expr a = li.rawCond->arg(0), b = li.rawCond->arg(1);
        if (dk == Z3_OP_LT || dk == Z3_OP_LE) m = b - a;
        if (dk == Z3_OP_GT || dk == Z3_OP_GE) m = a - b;
      }
      if (!m) {
        why = "the verifier cannot tell that it ends: its condition is no <, <=, > or >= comparison of integers";
      } else {
        // (cond = exact -> c and exitCond = exact -> !c: both hold exactly where the comparison
        // is not the C one.)
        z3::expr exact = !(*li.cond && *li.exitCond);
        const size_t depth = assumeHead(exact && *li.cond);  // the C comparison, true
        // Exact at the next head: the condition is a C comparison there too (true or false).
        z3::expr exactNext = exact.substitute(from, toEnd);
        z3::expr down = m->substitute(from, toEnd) <= *m - 1;
        std::string ex;
        std::vector<z3::expr> small;
        auto show = lengthsShown(small);
        show.push_back({"measure at the head", *m});
        show.push_back({"after one iteration", m->substitute(from, toEnd)});
        int r = solve(!(exactNext && down), show, small, ex);
        pathCond.erase(pathCond.begin() + (std::ptrdiff_t)depth, pathCond.end());
        if (r != 0)
          why = "an iteration can leave " + m->to_string() + " where it was (or raise it, or wrap the condition's operands)" +
                (r == 1 ? "; e.g. " + ex : std::string(" (no answer within 2 s)"));
      }
      addOrderClaim(s.loc, "the loop at " + at + " ends: each iteration brings it closer to its exit" +
                    (m ? " (" + m->to_string() + " goes down)" : std::string()), why);
    }
    // At the exit: the kept facts, and the condition false.
    z3::expr exitFacts = c.bool_val(true);
    for (auto cd : kept) exitFacts = exitFacts && cd.substitute(from, toExit);
    if (li.exitCond) exitFacts = exitFacts && li.exitCond->substitute(from, toExit);
    // A loop whose condition is false on entry (and is the C comparison there) runs no iteration:
    // it exits with the entry values (a counterexample is then a case the loop can reach).
    if (li.cond) {
      z3::expr same = c.bool_val(true);
      for (unsigned i = 0; i < toExit.size(); ++i) same = same && toExit[(int)i] == toEntry[(int)i];
      exitFacts = exitFacts && z3::implies(!li.cond->substitute(from, toEntry), same);
    }
    // Only on this path: the kept facts were proved under its branch conditions (pathCond), and a
    // fact is asked wherever its atom is in play, also past the branch join where another path's
    // value is joined with the one read here. A kept fact that names no loop variable (the entry
    // condition `0 < rem >> 4` of a loop inside `if (off < whole)`) would otherwise be assumed on
    // every path and make the other branch's claims vacuous (stop 50: a streaming seal that
    // absorbed 31 of its last chunk's 32 blocks proved).
    if (!pathCond.empty()) {
      z3::expr_vector pc(c);
      for (const auto &e : pathCond) pc.push_back(e);
      exitFacts = z3::implies(z3::mk_and(pc), exitFacts);
    }
    for (unsigned i = 0; i < toExit.size(); ++i) addFact(freshAtomOf(toExit[(int)i]), exitFacts);
    cursor = (*base + li.blk->substitute(from, toExit)).simplify(som);
  }
  // The whole message is absorbed, in order, when the final reduction or the state store is
  // reached: the cursor is at its end (seal/open: after the lengths block; a one-shot Poly1305:
  // its padded length; the streaming entries: their whole chunks or blocks).
  void checkMessageEnd(SrcLoc at, const std::string &what) {
    if (!cursorRole) return;
    Message m = message();
    if (!m.end) return;
    addOrderClaim(at, what + " at " + where(at) + " follows the whole message, every block absorbed once and in order (RFC 8439 2.5, 2.8)",
                  cursorAt(m.end->simplify(som), m.endName));
  }
  bool cursorRole = false;  // the kernel's role names its message: the cursor is followed
  void addOrderClaim(SrcLoc at, const std::string &what, const std::string &why) { addClaim("mac-order", at, what, why); }
  static z3::expr ceil16(const z3::expr &x) { return 16 * ((x + 15) / 16); }
  // The kernel's length parameters, to show in a counterexample, and small values for them (a
  // readable case where there is one).
  std::vector<std::pair<std::string, z3::expr>> lengthsShown(std::vector<z3::expr> &small) {
    std::vector<std::pair<std::string, z3::expr>> out;
    const Function &k = *frames.front().fn;
    for (int pv : k.params) {
      const std::string &n = F.vars[(size_t)pv].name;
      if (F.vars[(size_t)pv].ty.kind != Type::Int || !atoms.count(n)) continue;
      out.push_back({n, atom(n)});
      small.push_back(atom(n) <= 4096);
    }
    return out;
  }
  // Checks that the cursor is at `want` (the end of the message or of its padded text): "" or why not.
  std::string cursorAt(const z3::expr &want, const std::string &what) {
    if (!cursor) return "the verifier lost track of where the message ends (a failure above says where)";
    std::string ex;
    std::vector<z3::expr> small;
    auto show = lengthsShown(small);
    show.push_back({"absorbed up to", *cursor});
    show.push_back({what, want});
    int r = solve(*cursor != want, show, small, ex);
    if (r == 0) return "";
    return "the pieces absorbed end at message position " + cursor->to_string() + ", not at " + what + " " + want.to_string() +
           (r == 1 ? "; e.g. " + ex : std::string(" (no answer within 2 s)"));
  }

  void loop(const Stmt &s) {
    Contract ct = contractOf(s);
    if (s.kind == Stmt::For && s.init) exec(*s.init);
    std::set<int> vars;
    assigned(*s.then, vars);
    for (const ExprP *x : {&s.inc, &s.e}) {  // (a condition with a side effect writes too)
      if (!*x) continue;
      Stmt tmp;
      tmp.kind = Stmt::ExprS;
      tmp.e = *x;
      assigned(tmp, vars);
    }
    auto inv = invariantsOf(s);
    if (ct.present && ct.role == "poly1305.blocks" && s.e) {
      // The walk takes a block loop's exit state to be a head state with the condition false: a
      // condition that writes a variable (`(off += 64) <= len`) leaves another one.
      std::set<int> condVars;
      Stmt tmp;
      tmp.kind = Stmt::ExprS;
      tmp.e = s.e;
      assigned(tmp, condVars);
      if (!condVars.empty()) {
        addOrderClaim(s.loc, "the loop at " + where(s.loc) + " absorbs the message from where the previous piece ended",
                      "its condition writes " + F.vars[(size_t)*condVars.begin()].name +
                          ": a block loop's condition must be free of side effects");
        cursor.reset();
      }
    }
    if (ct.present && ct.role == "poly1305.blocks") {
      loopAccName.clear();
      loopStride.clear();
      strideAt.clear();
      const auto entry = slots;
      blockStep(s, ct, vars, inv);
      havocLoop(s, vars, inv);
      // A variable every iteration moves by a multiple of 2^k, entered as a multiple of 2^k, leaves
      // as one (induction over the iterations; the arithmetic is exact, as everywhere here).
      for (const auto &[v, k2] : loopStride) {
        auto kk = key(v);
        auto e0 = entry.find(kk);
        auto x = slots.find(kk);
        if (e0 == entry.end() || x == slots.end() || e0->second.k != V::Int || x->second.k != V::Int) continue;
        unsigned a = std::min({k2, val2(*e0->second.v), 63u});
        if (a > 0) x->second.v = std::make_shared<z3::expr>(pow2(a) * *x->second.v);
        if (a > 0) strideAt[v] = a;
      }
      if (cursor && loopDepth == 0) placeLoop(s, entry);
      // After the loop the accumulator is its head value at the exit: the loop's name.
      if (!loopAccName.empty()) {
        for (size_t i = 0; i < 3 && i < ct.acc.size(); ++i) {
          int v = varByName(ct.acc[i]);
          if (v < 0 || !slots.count(key(v))) continue;
          V &x = slots.at(key(v));
          if (x.k == V::Int) x.accTag = loopAccName, x.accLimb = (int)i;
        }
        lastAcc = loopAccName;
      }
      return;
    }
    // A loop whose condition stays decided is unrolled (up to a cap); any other is summarised
    // by forgetting what it writes.
    auto saved = slots;
    auto savedMem = mem;
    bool unrolled = false;
    try {
      for (unsigned it = 0; it <= unrollCap; ++it) {
        int d = s.kind == Stmt::DoWhile && it == 0 ? 1 : s.e ? decide(eval(*s.e)) : 1;
        if (d < 0) break;
        if (d == 0) {
          unrolled = true;
          break;
        }
        if (it == unrollCap) break;
        exec(*s.then);
        if (frames.back().returned) fail(s.loc, "return inside a loop");
        if (s.inc) eval(*s.inc);
      }
    } catch (Stop &) {
      if (err.find("break/continue") == std::string::npos) throw;
      err.clear();
    }
    if (unrolled) return;
    slots = saved;
    mem = savedMem;
    havocLoop(s, vars, inv);
  }

  // ---- the proofs ----
  std::string where(SrcLoc l) { return F.path + ":" + std::to_string(l.line); }

  // Byte atoms by place: "region|offset text" -> atom name, and offset text -> offset.
  std::map<std::string, z3::expr> offExprs;
  void noteByte(const std::string &region, const z3::expr &off, const z3::expr &val) {
    if (!(val.is_app() && val.num_args() == 0 && !val.is_numeral())) return;
    std::string t = offKey(off);
    offExprs.emplace(t, off.simplify(som));
    memAtomAt.emplace(region + "|" + t, val.decl().name().str());
  }
  bool byteAt(const std::string &region, const z3::expr &off, z3::expr &out) {
    auto it = memAtomAt.find(region + "|" + offKey(off));
    if (it == memAtomAt.end()) return false;
    out = atom(it->second);
    return true;
  }
  // Is `e` exactly sum_{i<n} byte(region, o + i) 2^(8i) for bytes the code read (n little-endian
  // bytes at o)? Gives the region (as the byte atoms name it: with its write epoch), o and o's text.
  bool leBytes(const z3::expr &e, unsigned n, std::string &region, std::optional<z3::expr> &o, std::string &offText) {
    z3::expr x0 = e.simplify(som);
    // Only a place whose byte atom occurs in x0 can start the n bytes (every byte's coefficient is
    // positive, so none cancels): the places are tried in the same order as over all of memAtomAt.
    std::set<std::string> names;
    std::set<unsigned> seen;
    std::vector<z3::expr> todo{x0};
    while (!todo.empty()) {
      z3::expr x = todo.back();
      todo.pop_back();
      if (!x.is_app() || !seen.insert(x.id()).second) continue;
      if (x.num_args() == 0) {
        if (!x.is_numeral()) names.insert(x.decl().name().str());
        continue;
      }
      for (unsigned i = 0; i < x.num_args(); ++i) todo.push_back(x.arg(i));
    }
    for (const auto &[ak, name] : memAtomAt) {
      if (!names.count(name)) continue;
      size_t bar = ak.rfind('|');
      auto oe = offExprs.find(ak.substr(bar + 1));
      if (oe == offExprs.end()) continue;
      z3::expr want = c.int_val(0);
      bool ok = true;
      for (unsigned i = 0; i < n && ok; ++i) {
        z3::expr b = c.int_val(0);
        ok = byteAt(ak.substr(0, bar), (oe->second + c.int_val((int)i)).simplify(som), b);
        if (ok) want = want + pow2big(8 * i) * b;
      }
      if (ok && z3::eq((x0 - want).simplify(som), c.int_val(0))) {
        region = ak.substr(0, bar);
        o = oe->second;
        offText = ak.substr(bar + 1);
        return true;
      }
    }
    return false;
  }
  // Is `e` exactly le64 of 8 bytes the code read? Names it.
  bool isLe64(const z3::expr &e, std::string &what) {
    std::string region, offText;
    std::optional<z3::expr> o;
    if (!leBytes(e, 8, region, o, offText)) return false;
    what = "le64(" + region + " + " + offText + ")";
    return true;
  }
  // Is `e` exactly one 16-byte little-endian block of bytes the code read? Gives its region and offset.
  bool isLe128(const z3::expr &e, std::string &region, std::optional<z3::expr> &o) {
    std::string offText;
    return leBytes(e, 16, region, o, offText);
  }
  bool offsetDiff(const std::string &a, const std::string &b, unsigned i) {
    auto ia = offExprs.find(a), ib = offExprs.find(b);
    if (ia == offExprs.end() || ib == offExprs.end()) return false;
    z3::expr d = (ib->second - ia->second).simplify(som);
    return d.is_numeral() && d.get_decimal_string(0) == std::to_string(i);
  }

  // r0 (resp. r1) is exactly le64(key bytes) & the RFC 8439 clamp mask: returns "" or why not.
  std::string clampedLimb(const z3::expr &r, u128 mask, std::string &key, unsigned limb) {
    z3::expr n = r.simplify(som);
    for (const auto &[name, aa] : andAtoms) {
      if (aa.mask != mask) continue;
      z3::expr want = (pow2big(aa.shift) * atom(name)).simplify(som);
      if (!z3::eq((n - want).simplify(som), c.int_val(0))) continue;
      std::string w;
      if (!isLe64(aa.x, w)) return "r" + std::to_string(limb) + " masks a value that is not 8 little-endian key bytes";
      key = w;
      return "";
    }
    return "r" + std::to_string(limb) + " is not (8 key bytes, little-endian) & " + hex(mask) + " (RFC 8439 2.5.1)";
  }

  void checkClamp(const Function &fn, const Contract &ct, SrcLoc at) {
    Claim cl;
    cl.kind = "clamp";
    cl.loc = fn.loc;
    cl.what = "r = le128(key[0..15]) & 0x0ffffffc0ffffffc0ffffffc0fffffff, s1 = r1 + (r1 >> 2), in " + fn.name;
    auto val = [&](const std::string &n, z3::expr &out) {
      for (int p : fn.params)
        if (F.vars[(size_t)p].name == n) {
          V &v = slot(p);
          if (v.k != V::Int) return false;
          out = *v.v;
          return true;
        }
      return false;
    };
    z3::expr r0(c), r1(c);
    if (!val(ct.out[0], r0) || !val(ct.out[1], r1)) {
      cl.ok = false;
      cl.cex = "the contract's \"out\" names no integer (reference) parameters of " + fn.name;
      claims.push_back(cl);
      return;
    }
    std::string k0, k1;
    std::string why = clampedLimb(r0, kClamp0, k0, 0);
    if (why.empty()) why = clampedLimb(r1, kClamp1, k1, 1);
    if (why.empty() && !offsetPair(k0, k1)) why = "r1's key bytes do not follow r0's (" + k0 + ", " + k1 + ")";
    for (const auto &d : ct.derivedOut) {
      if (!why.empty()) break;
      z3::expr s(c);
      if (!val(d, s)) {
        why = "derived limb " + d + " is not an integer parameter";
        break;
      }
      // s1 = r1 + (r1 >> 2), exactly: r1 is 4 times an atom, so r1 >> 2 divides exactly.
      V r1v = intV(r1, 64, kClamp1);
      z3::expr want = r1 + shr(r1v, 2);
      if (!z3::eq((s - want).simplify(som), c.int_val(0))) why = d + " is not r1 + (r1 >> 2)";
    }
    if (!why.empty()) {
      cl.ok = false;
      cl.cex = why + " (called at " + where(at) + ")";
    } else {
      cl.note = "r0 = " + k0 + " & 0x0ffffffc0fffffff, r1 = " + k1 + " & 0x0ffffffc0ffffffc";
      clampKey = k0;
    }
    claims.push_back(cl);
  }
  // "le64(R + a)" and "le64(R + b)" with b = a + 8.
  bool offsetPair(const std::string &a, const std::string &b, unsigned d = 8) {
    size_t pa = a.find(" + "), pb = b.find(" + ");
    if (pa == std::string::npos || pb == std::string::npos || a.substr(0, pa) != b.substr(0, pb)) return false;
    return offsetDiff(a.substr(pa + 3, a.size() - pa - 4), b.substr(pb + 3, b.size() - pb - 4), d);
  }

  // At a call of the poly1305.final helper: s = s0 + 2^64 s1 is le128 of the 16 key bytes right
  // after the 16 the clamp read (RFC 8439 2.5: the key is r || s).
  std::string clampKey;  // "le64(region + offset)" of r0, from the last clamp that proved
  void checkFinalCall(const Function &fn, const Contract &ct, int ctx, SrcLoc at) {
    Claim cl;
    cl.kind = "final-call";
    cl.loc = at;
    cl.what = "s passed to " + fn.name + " = le128(key[16..31]) of the key the clamp read";
    std::string why;
    std::string w[2];
    for (int i = 0; i < 2 && why.empty(); ++i) {
      int pv = i < (int)ct.s.size() ? paramByName(fn, ct.s[(size_t)i]) : -1;
      auto it = pv < 0 ? slots.end() : slots.find({ctx, pv});
      if (it == slots.end() || it->second.k != V::Int) {
        why = "the contract's \"s\" does not name two integer parameters";
        break;
      }
      if (!isLe64(*it->second.v, w[i])) why = ct.s[(size_t)i] + " is not 8 little-endian bytes read from memory";
    }
    if (why.empty() && clampKey.empty()) why = "no proved poly1305.clamp precedes it";
    if (why.empty() && !offsetPair(clampKey, w[0], 16)) why = "s0 is " + w[0] + ", not 16 bytes after r0's " + clampKey;
    if (why.empty() && !offsetPair(clampKey, w[1], 24)) why = "s1 is " + w[1] + ", not 24 bytes after r0's " + clampKey;
    if (!why.empty()) {
      cl.ok = false;
      cl.cex = why;
    } else {
      cl.note = "s = " + w[0] + " + 2^64 " + w[1] + ", r0 = " + clampKey + " & ...";
    }
    claims.push_back(cl);
  }

  // ---- the streaming kernels' accumulator hand-over (poly1305.state_load / .state_store) ----
  // load: at the return of the helper, h0 + 2^64 h1 + 2^128 h2 = le64(state[0..8)) +
  //   2^64 le64(state[8..16)) + 2^128 state[16] (mod 2^130 - 5), the bytes the helper read;
  // store: the 24 bytes it wrote are h0, h1, h2 little-endian, exactly (h = the bytes' value).
  // A kernel that hands h over through anything else is caught by closed-world (the helpers are
  // the only code that touches the state) and by these claims.
  void checkStateHandover(const Function &fn, const Contract &ct, int ctx, SrcLoc at, bool load) {
    Claim cl;
    cl.kind = load ? "state-load" : "state-store";
    cl.loc = fn.loc;
    cl.what = load ? "h = le64(state) + 2^64 le64(state + 8) + 2^128 state[16] mod 2^130-5, in " + fn.name
                   : "state[0..24) = h0, h1, h2 little-endian, in " + fn.name;
    std::string why = load ? stateLoadAt(fn, ct, ctx) : stateStoreAlone(fn, ct);
    if (!why.empty()) {
      cl.ok = false;
      cl.cex = why + " (called at " + where(at) + ")";
    }
    claims.push_back(cl);
  }

  // h0 + 2^64 h1 + 2^128 h2 from the helper's reference parameters (in the frame it returns from).
  std::string accValue(const Function &fn, const Contract &ct, z3::expr &H, std::vector<z3::expr> *bounds) {
    H = c.int_val(0);
    for (int i = 0; i < 3; ++i) {
      int pv = i < (int)ct.acc.size() ? paramByName(fn, ct.acc[(size_t)i]) : -1;
      if (pv < 0) return "the contract's \"acc\" does not name three parameters of " + fn.name;
      V hv = slot(pv);
      if (hv.k != V::Int) return ct.acc[(size_t)i] + " is not an integer";
      H = H + pow2big(64 * (unsigned)i) * *hv.v;
      if (bounds) {
        bounds->push_back(*hv.v >= c.int_val(0));
        bounds->push_back(*hv.v <= num(hv.hi));
      }
    }
    return "";
  }

  // The load, where it is called: the bytes it read, against the h it returns, mod p.
  std::string stateLoadAt(const Function &fn, const Contract &ct, int ctx) {
    z3::expr H(c);
    std::string why = accValue(fn, ct, H, nullptr);
    if (!why.empty()) return why;
    int sp = paramByName(fn, ct.state);
    auto it = sp < 0 ? slots.end() : slots.find({ctx, sp});
    if (it == slots.end() || it->second.k != V::Ptr)
      return "the contract's \"state\" does not name a pointer parameter of " + fn.name;
    const V st = it->second;
    z3::expr S = c.int_val(0);
    for (unsigned k = 0; k < 17; ++k) {
      z3::expr b = c.int_val(0);
      if (!byteAt(st.region, (*st.v + c.int_val((int)k)).simplify(som), b))
        return "byte " + std::to_string(k) + " of the state is not read";
      S = S + pow2big(8 * k) * b;
    }
    z3::expr D = (H.simplify(som) - S.simplify(som)).simplify(som);
    std::string bad = firstNonzeroModP(D);
    return bad.empty() ? "" : "h - (the state's value) is not 0 mod 2^130-5: " + bad;
  }

  // The store, on its own (its inputs fresh atoms): byte 8i + j of the state is written with
  // byte j of h_i, (h_i >> 8j) mod 2^8, for i < 3 and j < 8, the very terms (and quotient atoms)
  // the evaluator gives that byte of that value: h0 + 2^64 h1 + 2^128 h2 = le(state[0..24)).
  std::string stateStoreAlone(const Function &fn, const Contract &ct) {
    Eval ev(F, c);
    ev.frames.push_back(Frame{1, &fn, {}, false, V{}});
    try {
      ev.exec(*fn.body);
    } catch (Stop &) {
      return "cannot evaluate " + fn.name + ": " + ev.err;
    }
    int sp = paramByName(fn, ct.state);
    if (sp < 0) return "the contract's \"state\" does not name a parameter of " + fn.name;
    V st = ev.slot(sp);
    if (st.k != V::Ptr) return "the contract's \"state\" is not a pointer";
    for (unsigned k = 0; k < 24; ++k) {
      unsigned i = k / 8, j = k % 8;
      int pv = i < ct.acc.size() ? paramByName(fn, ct.acc[i]) : -1;
      if (pv < 0) return "the contract's \"acc\" does not name three parameters of " + fn.name;
      V hv = ev.slot(pv);
      if (hv.k != V::Int) return ct.acc[i] + " is not an integer";
      V want = ev.wrapTo(ev.intV(ev.shr(hv, 8 * j), 64, hv.hi >> (8 * j)), 8);
      z3::expr off = (*st.v + c.int_val((int)k)).simplify(som);
      auto m = ev.mem.find(st.region + "|" + ev.offKey(off) + "|8");
      if (m == ev.mem.end() || m->second.k != V::Int) return "byte " + std::to_string(k) + " of the state is not written";
      if (!z3::eq(m->second.v->simplify(som), want.v->simplify(som)))
        return "byte " + std::to_string(k) + " of the state is " + m->second.v->to_string() + ", not byte " +
               std::to_string(j) + " of " + ct.acc[i];
    }
    return "";
  }

  int varByName(const std::string &n, unsigned at = 0) {
    // The innermost visible variable of that name (the current frame's, else a global).
    const Function *fn = frames.back().fn;
    std::set<int> inFn;
    std::function<void(const Stmt &)> st = [&](const Stmt &x) {
      if (x.kind == Stmt::Decl) inFn.insert(x.var);
      for (const StmtP *c2 : {&x.init, &x.then, &x.els})
        if (*c2) st(**c2);
      for (const auto &b : x.body)
        if (b) st(*b);
    };
    st(*fn->body);
    for (int p : fn->params) inFn.insert(p);
    // Several declarations of the name (one per branch): the one declared last before the
    // statement being proved (`at`), among those that hold a value in this frame.
    int best = -1;
    for (int v : inFn) {
      const Var &x = F.vars[(size_t)v];
      if (x.name != n) continue;
      if (best < 0) {
        best = v;
        continue;
      }
      bool vs = slots.count(key(v)) > 0, bs = slots.count(key(best)) > 0;
      bool vBefore = !at || x.loc.line <= at, bBefore = !at || F.vars[(size_t)best].loc.line <= at;
      if (std::make_tuple(vs, vBefore, vBefore ? x.loc.line : 0u) >
          std::make_tuple(bs, bBefore, bBefore ? F.vars[(size_t)best].loc.line : 0u))
        best = v;
    }
    return best;
  }

  void blockStep(const Stmt &s, const Contract &ct, const std::set<int> &vars, const std::map<int, Invariant> &inv) {
    Claim cl;
    cl.kind = "block-step";
    cl.loc = s.loc;
    cl.what = "h' = (...((h + m_1 + pad*2^128) r + m_2 + ...) r for the " + std::to_string(ct.blockBytes / 16) +
              " block(s) of each iteration, mod 2^130-5, r the clamped key, the next iteration " +
              std::to_string(ct.blockBytes) + " bytes on, in " + frames.back().fn->name;
    auto bad = [&](const std::string &why) {
      cl.ok = false;
      cl.cex = why;
      claims.push_back(cl);
    };
    int acc[3], keyv[2], msg = varByName(ct.msg, s.loc.line), pad = ct.pad.empty() ? -1 : varByName(ct.pad, s.loc.line);
    for (int i = 0; i < 3; ++i) acc[i] = varByName(ct.acc[(size_t)i]);
    for (int i = 0; i < 2; ++i) keyv[i] = varByName(ct.key[(size_t)i]);
    for (int i = 0; i < 3; ++i)
      if (acc[i] < 0) return bad("accumulator limb " + ct.acc[(size_t)i] + " is not a variable here");
    for (int i = 0; i < 2; ++i) {
      if (keyv[i] < 0) return bad("key limb " + ct.key[(size_t)i] + " is not a variable here");
      if (vars.count(keyv[i])) return bad("key limb " + ct.key[(size_t)i] + " changes inside the loop");
    }
    for (const auto &[d, text] : ct.derived) {
      int dv = varByName(d);
      if (dv >= 0 && vars.count(dv)) return bad("derived limb " + d + " changes inside the loop");
    }
    if (msg < 0) return bad("message pointer " + ct.msg + " is not a variable here");
    for (int i = 0; i < 3; ++i)
      if (!inv.count(acc[i])) return bad("no chapoly-invariant line for " + ct.acc[(size_t)i]);
    z3::expr r0 = *slot(keyv[0]).v, r1 = *slot(keyv[1]).v;
    // The key limbs are the RFC clamp of 16 consecutive key bytes.
    std::string k0, k1;
    std::string why = clampedLimb(r0, kClamp0, k0, 0);
    if (why.empty()) why = clampedLimb(r1, kClamp1, k1, 1);
    if (why.empty() && !offsetPair(k0, k1)) why = "r1's key bytes do not follow r0's";
    if (!why.empty()) return bad("r = r0 + 2^64 r1 at the loop is not the clamped key: " + why);
    // Head state: every variable the loop writes is unknown (accumulator bounded by the invariants).
    // The join: the loop is entered with the last accumulator, and its head value gets a name of
    // its own (the same name after the loop: the body hands the next head what its last step left).
    std::vector<std::pair<int, int>> accKeys;
    for (int i = 0; i < 3; ++i) accKeys.push_back(key(acc[i]));
    const std::string entryWhy = accIsCurrent(accKeys);
    auto saved = slots;
    auto savedMem = mem;
    havocLoop(s, vars, inv);
    loopAccName = "L#" + std::to_string(fresh++);
    for (int i = 0; i < 3; ++i) {
      V &x = slots.at(accKeys[(size_t)i]);
      if (x.k == V::Int) x.accTag = loopAccName, x.accLimb = i;
    }
    lastAcc = loopAccName;
    std::vector<z3::expr> headAtoms, h;
    std::map<int, z3::expr> headVal;
    for (int v : vars) {
      auto k = key(v);
      if (!slots.count(k)) continue;
      V &x = slots.at(k);
      if (x.k == V::Int || x.k == V::Ptr) headVal.emplace(v, *x.v);
    }
    for (int i = 0; i < 3; ++i) h.push_back(*slot(acc[i]).v);
    V m0 = slot(msg);
    if (m0.k != V::Ptr) return bad("message " + ct.msg + " is not a pointer");
    std::vector<Read> rd;
    reads = &rd;
    const size_t defs0 = stepDefs.size();
    // (A block loop inside this one's body, in a stitched helper, has its own: this one's is
    // published after the body.)
    LoopInfo li;
    for (auto &[v, hv] : headVal) li.head.emplace(v, hv);
    const bool outerLoop = loopDepth == 0;
    if (outerLoop) macPtr.reset();
    try {
      struct Depth {  // (a failure inside the body unwinds past it)
        int &d;
        explicit Depth(int &x) : d(x) { ++d; }
        ~Depth() { --d; }
      } depth(loopDepth);
      if (s.e) {
        V cv = eval(*s.e);
        if (cv.cond) li.cond = cv.condExact ? z3::implies(*cv.condExact, *cv.cond) : *cv.cond;
        if (cv.cond) li.exitCond = cv.condExact ? z3::implies(*cv.condExact, !*cv.cond) : !*cv.cond;
        if (cv.cond) li.rawCond = *cv.cond;
      }
      exec(*s.then);
      if (s.inc) eval(*s.inc);
    } catch (Stop &) {
      reads = nullptr;
      slots = saved;
      mem = savedMem;
      std::string e2 = err;
      err.clear();
      return bad("cannot evaluate the loop body: " + e2 + " (line " + std::to_string(errLoc.line) + ")");
    }
    reads = nullptr;
    // The strides: a variable the body moves by a multiple of 2^k, or sets to one, keeps its entry
    // value mod 2^k (loop() gives its exit value that form: a partial block's offset is proved a
    // block boundary).
    for (auto &[v, hv] : headVal) {
      auto k = key(v);
      if (!slots.count(k) || !(hv.is_app() && hv.num_args() == 0 && !hv.is_numeral())) continue;
      const V &x = slots.at(k);
      if (x.k == V::Int) loopStride[v] = std::max(val2(*x.v - hv), val2(*x.v));
      if (x.k == V::Int || x.k == V::Ptr) li.end.emplace(v, *x.v);
    }
    if (outerLoop && macPtr) li.region = macPtr->first, li.blk = macPtr->second;  // a stitched helper's run
    if (outerLoop) macPtr.reset();
    loopInfo = li;
    // (From one iteration to the next the loop's block-step claim below is the join: it proves the
    // accumulator at the end of the body is the head's with the iteration's blocks absorbed.)
    {
      std::string why = entryWhy.empty() ? "" : "the loop is entered with an accumulator that is not the last one: " + entryWhy;
      std::set<std::string> ok = macRegions();
      // (A local array is a staging buffer: what was copied into it is checked where a step reads it.)
      if (why.empty() && !ok.empty() && m0.k == V::Ptr && !ok.count(m0.region) && m0.region.rfind("@arr:", 0) != 0)
        why = "the loop MACs " + m0.region + ", a buffer this " + kernelRole + " kernel does not MAC";
      addJoinClaim(s.loc, "the loop at " + where(s.loc) + " is entered with the accumulator the last proved piece left and "
                   "reads a buffer the kernel MACs", why);
    }
    std::vector<z3::expr> h2;
    for (int i = 0; i < 3; ++i) h2.push_back(*slot(acc[i]).v);
    // The message block: the bytes read from the message's region, at 16 consecutive offsets.
    std::vector<Read> mr;
    for (auto &r : rd)
      if (r.region == m0.region) mr.push_back(r);
    if (mr.empty() && hasVariableMacCall(F, s)) {
      // The body's blocks are absorbed by a stitched RVV helper, a variable number per iteration
      // (its inner loops' steps are proved above, as their own block-step obligations).
      slots = saved, mem = savedMem;
      std::string why, note;
      cl.what = "every iteration absorbs the run of blocks its stitched keystream helper is given, and the next "
                "iteration's run starts where it ends (each step h' = (h + m + pad*2^128) r mod 2^130-5, r the clamped key, "
                "by the helper's loops), in " + frames.back().fn->name;
      if (!proveMacLoopRvv(F, *frames.back().fn, s, ct, why, note)) return bad(why);
      cl.note = note;
      claims.push_back(cl);
      return;
    }
    if (mr.empty()) {
      if (getenv("CHAPOLY_VERIFY_TRACE")) {
        fprintf(stderr, "block-step: message %s region %s; reads:", ct.msg.c_str(), m0.region.c_str());
        for (auto &r : rd) fprintf(stderr, " %s", r.region.c_str());
        fprintf(stderr, "\n");
      }
      slots = saved, mem = savedMem;
      return bad("the loop body reads no byte of " + ct.msg);
    }
    z3::expr base = mr[0].off;
    long long lo = 0, hi = 0;
    std::map<long long, z3::expr> byOff;
    for (auto &r : mr) {
      z3::expr d = (r.off - base).simplify(som);
      if (!d.is_numeral()) {
        slots = saved, mem = savedMem;
        return bad("message reads at offsets that are not a fixed distance apart");
      }
      long long dv = std::stoll(d.get_decimal_string(0));
      lo = std::min(lo, dv), hi = std::max(hi, dv);
      if (!byOff.count(dv)) byOff.emplace(dv, r.val);
    }
    if (hi - lo + 1 != (long long)ct.blockBytes || byOff.size() != ct.blockBytes) {
      // (a loop body reads exactly block_bytes consecutive bytes of the message)
      slots = saved, mem = savedMem;
      return bad("the body reads " + std::to_string(byOff.size()) + " bytes spanning " + std::to_string(hi - lo + 1) +
                 " of " + ct.msg + ", not one " + std::to_string(ct.blockBytes) + "-byte block");
    }
    z3::expr blk = (base + c.int_val((int)lo)).simplify(som);
    loopInfo.region = m0.region, loopInfo.blk = blk;
    std::vector<z3::expr> Ms;
    for (unsigned b = 0; b < ct.blockBytes / 16; ++b) {
      z3::expr M = c.int_val(0);
      for (unsigned j = 0; j < 16; ++j) M = M + pow2big(8 * j) * byOff.at(lo + (long long)(16 * b + j));
      Ms.push_back(M);
    }
    // Next iteration: the block offset with the head values replaced by the end values.
    {
      z3::expr_vector from(c), to(c);
      for (auto &[v, hv] : headVal) {
        auto k = key(v);
        if (!slots.count(k)) continue;
        const V &x = slots.at(k);
        if (!(hv.is_app() && hv.num_args() == 0 && !hv.is_numeral())) continue;
        if (x.k == V::Int || x.k == V::Ptr) {
          from.push_back(hv);
          to.push_back(*x.v);
        }
      }
      z3::expr next = blk.substitute(from, to);
      // A moved message pointer moves its offset atom.
      V mEnd = slot(msg);
      if (mEnd.region != m0.region) {
        slots = saved, mem = savedMem;
        return bad(ct.msg + " points elsewhere at the end of the body");
      }
      z3::expr step = (next - blk).simplify(som);
      if (!(step.is_numeral() && step.get_decimal_string(0) == std::to_string(ct.blockBytes))) {
        slots = saved, mem = savedMem;
        return bad("the next iteration reads its block " + step.to_string() + " bytes on, not " +
                   std::to_string(ct.blockBytes));
      }
    }
    z3::expr padEntry = ct.padConst ? c.int_val(ct.padValue) : c.int_val(0);
    if (pad >= 0) padEntry = *slot(pad).v;
    z3::expr two64 = pow2big(64), two128 = pow2big(128);
    z3::expr H = h[0] + two64 * h[1] + two128 * h[2];
    z3::expr H2 = expandSteps(h2[0] + two64 * h2[1] + two128 * h2[2], defs0);
    z3::expr R = r0 + two64 * r1;
    z3::expr X = H;
    for (const auto &M : Ms) X = (X + M + padEntry * two128) * R;
    // The body's steps are the Horner chain itself when each hands the next exactly its
    // result and absorbs the next block with this loop's pad and key: then H2 (the steps'
    // definitions substituted) is X term for term, and the expansion of both (9619 monomials for
    // a 32-block body) is not needed. Otherwise both are expanded and compared mod p.
    z3::expr D = c.int_val(0);
    if (!hornerMatches(h2, defs0, H, Ms, padEntry, R)) {
      X = X.simplify(som);
      D = (H2.simplify(som) - X).simplify(som);
    }
    stepDefs.erase(stepDefs.begin() + (long)defs0, stepDefs.end());
    if (getenv("CHAPOLY_VERIFY_TRACE")) fprintf(stderr, "X = %s\n", X.to_string().substr(0, 600).c_str());
    slots = saved;
    mem = savedMem;
    std::string bad1 = firstNonzeroModP(D);
    if (getenv("CHAPOLY_VERIFY_TRACE"))
      fprintf(stderr, "block-step H = %s\nR = %s\nM = %s\npad = %s\nD = %s\n", H.to_string().c_str(), R.to_string().c_str(),
              Ms[0].simplify().to_string().c_str(), padEntry.to_string().c_str(), D.to_string().c_str());
    if (!bad1.empty()) return bad("h' - (h + m + pad*2^128)*r is not 0 mod 2^130-5: " + bad1);
    cl.note = "r = " + k0 + " & 0x0ffffffc0fffffff + 2^64 (" + k1 + " & 0x0ffffffc0ffffffc); pad = " +
              padEntry.simplify().to_string();
    claims.push_back(cl);
  }

  // "" when every coefficient of the normalised polynomial is a multiple of 2^130-5, else the
  // first monomial that is not (coefficient mod p and its atoms).
  std::string firstNonzeroModP(const z3::expr &e) {
    std::vector<z3::expr> terms;
    if (e.is_app() && e.decl().decl_kind() == Z3_OP_ADD)
      for (unsigned i = 0; i < e.num_args(); ++i) terms.push_back(e.arg(i));
    else
      terms.push_back(e);
    z3::expr P = c.int_val(kP);
    for (const auto &t : terms) {
      z3::expr cf = c.int_val(1);
      std::string rest;
      if (t.is_numeral()) {
        cf = t;
      } else if (t.is_app() && t.decl().decl_kind() == Z3_OP_MUL) {
        for (unsigned i = 0; i < t.num_args(); ++i) {
          if (t.arg(i).is_numeral()) cf = t.arg(i);
          else rest += (rest.empty() ? "" : "*") + t.arg(i).to_string();
        }
      } else {
        rest = t.to_string();
      }
      z3::expr r = z3::mod(cf, P).simplify();
      if (r.get_decimal_string(0) != "0")
        return "the coefficient of " + (rest.empty() ? std::string("1") : rest) + " is " + r.get_decimal_string(0) +
               " mod p";
    }
    return "";
  }
};

}  // namespace

bool provePartialLoad(const File &f, const Function &fn, std::string &what, std::string &cex) {
  Contract ct = contractOf(fn);
  what = "for every " + ct.len + " = 0.." + std::to_string(ct.maxLen) + ": " + ct.out[0] + " + 2^64 " + ct.out[1] +
         " = le(" + ct.src + "[0.." + ct.len + ")) + " + (ct.marker.empty() ? std::string("0") : ct.marker) + " * 2^(8 " +
         ct.len + "), in " + fn.name;
  for (unsigned n = 0; n <= ct.maxLen; ++n) {
    z3::context c;
    Eval ev(f, c);
    ev.frames.push_back(Eval::Frame{1, &fn, {}, false, V{}});
    int outv[2] = {-1, -1}, src = -1, len = -1, marker = -1;
    for (int p : fn.params) {
      const Var &v = f.vars[(size_t)p];
      if (v.name == ct.out[0]) outv[0] = p;
      if (v.name == ct.out[1]) outv[1] = p;
      if (v.name == ct.src) src = p;
      if (v.name == ct.len) len = p;
      if (v.name == ct.marker) marker = p;
    }
    if (outv[0] < 0 || outv[1] < 0 || src < 0 || len < 0 || !f.vars[(size_t)outv[0]].isRef ||
        !f.vars[(size_t)outv[1]].isRef) {
      cex = "the contract names parameters " + fn.name + " does not have (out must be references)";
      return false;
    }
    for (int i = 0; i < 2; ++i) {
      ev.frames.back().refs[outv[i]] = {0x7fff, outv[i]};
      ev.slots.emplace(std::make_pair(0x7fff, outv[i]), ev.intV(ev.atom("unset" + std::to_string(i)), 64, maxOf(64)));
    }
    V sp;
    sp.k = V::Ptr;
    sp.bits = 8;
    sp.region = ct.src;
    sp.v = std::make_shared<z3::expr>(c.int_val(0));
    ev.slots.emplace(std::make_pair(1, src), sp);
    ev.slots.emplace(std::make_pair(1, len), ev.intV(c.int_val(n), f.vars[(size_t)len].ty.bits, n));
    z3::expr mk = c.int_val(0);
    if (marker >= 0) {
      mk = ev.atom(ct.marker);
      ev.slots.emplace(std::make_pair(1, marker), ev.intV(mk, f.vars[(size_t)marker].ty.bits, maxOf(f.vars[(size_t)marker].ty.bits)));
    }
    try {
      ev.exec(*fn.body);
    } catch (Stop &) {
      cex = ct.len + " = " + std::to_string(n) + ": cannot evaluate " + fn.name + ": " + ev.err;
      return false;
    }
    z3::expr got = *ev.slots.at({0x7fff, outv[0]}).v + ev.pow2big(64) * *ev.slots.at({0x7fff, outv[1]}).v;
    z3::expr want = mk * ev.pow2big(8 * n);
    for (unsigned i = 0; i < n; ++i) {
      z3::expr b(c);
      if (!ev.byteAt(ct.src, c.int_val((int)i), b)) {
        cex = ct.len + " = " + std::to_string(n) + ": byte " + std::to_string(i) + " of " + ct.src + " is never read";
        return false;
      }
      want = want + ev.pow2big(8 * i) * b;
    }
    z3::expr d = (got - want).simplify(ev.som);
    if (!(d.is_numeral() && d.get_decimal_string(0) == "0")) {
      cex = ct.len + " = " + std::to_string(n) + ": the words differ from the padded block by " + d.to_string();
      return false;
    }
  }
  return true;
}

void proveScalarContracts(const File &f, const Function &kernel, const BoundsOptions &opt, KernelResult &kr) {
  {
    // --obligation KIND (or KIND:LINE) of a kind this walk never makes (closed-world, kernel-bytes,
    // keystream, ...): every claim below would be skipped, so the walk is not run (the mutant
    // tests select one kind; a whole-kernel evaluation of a mutant costs up to 45 s).
    static const std::set<std::string> made = {"block-step", "clamp", "final-call", "state-load",
                                               "state-store", "join", "lengths-block", "mac-order"};
    const std::string &q = opt.onlyObligation;
    const std::string kind = q.substr(0, q.find(':'));
    const bool number = !q.empty() && q.find_first_not_of("0123456789") == std::string::npos;
    if (!q.empty() && !number && !made.count(kind)) return;
  }
  const size_t first = kr.obligations.size();
  auto t0 = std::chrono::steady_clock::now();
  z3::context c;
  Eval ev(f, c);
  ev.kernelRole = contractOf(kernel).role;
  {
    const std::string &r = ev.kernelRole;
    ev.cursorRole = r == "aead.seal" || r == "aead.open" || r == "aead.seal_update" || r == "aead.open_update" ||
                    r == "poly1305.oneshot" || r == "poly1305.update";
    if (ev.cursorRole) ev.cursor = c.int_val(0);
  }
  ev.frames.push_back(Eval::Frame{1, &kernel, {}, false, V{}});
  std::string fatal;
  SrcLoc fatalLoc;
  try {
    ev.exec(*kernel.body);
  } catch (Stop &) {
    fatal = ev.err;
    fatalLoc = ev.errLoc;
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  // One obligation per (kind, location): failed if any context failed.
  std::map<std::pair<std::string, unsigned>, size_t> idx;
  for (const auto &cl : ev.claims) {
    auto k = std::make_pair(cl.kind, cl.loc.line);
    auto it = idx.find(k);
    if (it == idx.end()) {
      Obligation o;
      o.kind = cl.kind;
      o.file = f.path;
      o.loc = cl.loc;
      o.what = cl.what;
      o.intrinsic = "";
      o.note = cl.note;
      o.ms = ms;
      o.id = (int)kr.obligations.size() + 1;
      kr.obligations.push_back(o);
      it = idx.emplace(k, kr.obligations.size() - 1).first;
    }
    Obligation &o = kr.obligations[it->second];
    // (Two claims at one line, such as a loop's start and its end, are one obligation saying both.)
    if (o.what.find(cl.what) == std::string::npos) o.what += "; " + cl.what;
    if (!cl.ok && o.res == Res::OK) {
      o.res = Res::FAILED;
      o.cex = cl.cex;
    }
  }
  // --obligation: the claims are all evaluated (one walk of the kernel), but only the selected
  // ones count.
  if (!opt.onlyObligation.empty())
    for (size_t i = first; i < kr.obligations.size(); ++i) {
      Obligation &o = kr.obligations[i];
      const std::string &q = opt.onlyObligation;
      bool sel = q == std::to_string(o.id) || q == o.kind || q == o.kind + ":" + std::to_string(o.loc.line) ||
                 q == std::to_string(o.loc.line);
      if (!sel) o.skipped = true;
    }
  if (!fatal.empty()) {
    Obligation o;
    o.kind = "block-step";
    o.file = f.path;
    o.loc = fatalLoc;
    o.what = "the Poly1305 algebra of " + kernel.name;
    o.res = Res::FAILED;
    o.cex = "cannot evaluate " + kernel.name + " over the integers: " + fatal;
    o.id = (int)kr.obligations.size() + 1;
    kr.obligations.push_back(o);
  }
}

}  // namespace cv
