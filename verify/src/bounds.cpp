// bounds.cpp: the interval interpreter (see bounds.h).
#include "bounds.h"
#include "contracts.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <random>

#include "interp.h"
#include "intrinsics.h"
#include "poly.h"

namespace cv {

namespace {

u128 maxOf(unsigned bits) { return bits >= 128 ? ~(u128)0 : (((u128)1 << bits) - 1); }
unsigned bitlen(u128 v) {
  unsigned n = 0;
  while (v) ++n, v >>= 1;
  return n;
}

struct AVal {
  enum K { Bot, Int, Vec, Ptr, Arr } k = Bot;
  unsigned bits = 0;        // Int: width; Vec: total bits
  bool isSigned = false;    // Int
  std::vector<Itv> lanes;   // Int: one; Vec: one per 64-bit lane
  // Ptr
  int region = -1;          // slot holding the array; -1: memory the kernel does not own
  bool offKnown = true;
  int64_t off = 0;          // bytes
  unsigned elemBits = 8;    // Ptr target / Arr element width
  bool elemIsVec = false;
  // Arr
  std::vector<AVal> elems;
  // Per lane: the value is coef * (a value shared with other variables), atom < 0: unknown.
  // Not part of the interval state (ignored by ==); used to seed the block-step algebra with
  // relations such as rls1 = 20 * rl1.
  std::vector<std::pair<u128, long long>> terms;

  bool operator==(const AVal &o) const {
    return k == o.k && bits == o.bits && lanes == o.lanes && region == o.region &&
           offKnown == o.offKnown && off == o.off && elems == o.elems;
  }
  bool exact() const {
    if (k != Int && k != Vec) return false;
    for (auto &l : lanes)
      if (!l.exact()) return false;
    return true;
  }
};

AVal intV(unsigned bits, u128 lo, u128 hi, bool sgn = false) {
  AVal v;
  v.k = AVal::Int;
  v.bits = bits;
  v.isSigned = sgn;
  v.lanes = {Itv{lo, hi}};
  return v;
}
AVal topOf(const Type &t);
AVal topVec(unsigned bits) {
  AVal v;
  v.k = AVal::Vec;
  v.bits = bits;
  v.lanes.assign(bits / 64, Itv{0, maxOf(64)});
  return v;
}
AVal topOf(const Type &t) {
  switch (t.kind) {
    case Type::Int:
    case Type::Mask: return intV(t.bits, 0, maxOf(t.bits), t.isSigned);
    case Type::Bool: return intV(1, 0, 1);
    case Type::Vec: return topVec(t.bits);
    case Type::Ptr: {
      AVal v;
      v.k = AVal::Ptr;
      v.region = -1;
      v.offKnown = false;
      v.elemBits = t.bits;
      v.elemIsVec = t.elemIsVec;
      return v;
    }
    case Type::Array: {
      AVal v;
      v.k = AVal::Arr;
      v.elemBits = t.bits;
      v.elemIsVec = t.elemIsVec;
      Type et;
      et.kind = t.elemIsVec ? Type::Vec : Type::Int;
      et.bits = t.bits;
      et.isSigned = t.isSigned;
      v.elems.assign(t.count, topOf(et));
      return v;
    }
    default: return AVal{};
  }
}

AVal join(const AVal &a, const AVal &b) {
  if (a.k == AVal::Bot) return b;
  if (b.k == AVal::Bot) return a;
  if (a.k != b.k) return a.k == AVal::Ptr || b.k == AVal::Ptr ? a : a;  // type-stable in practice
  AVal r = a;
  if (a.k == AVal::Int || a.k == AVal::Vec) {
    for (size_t i = 0; i < r.lanes.size() && i < b.lanes.size(); ++i) {
      r.lanes[i].lo = std::min(a.lanes[i].lo, b.lanes[i].lo);
      r.lanes[i].hi = std::max(a.lanes[i].hi, b.lanes[i].hi);
    }
    r.terms.clear();
    if (a.terms.size() == a.lanes.size() && b.terms == a.terms) r.terms = a.terms;
  } else if (a.k == AVal::Ptr) {
    if (a.region != b.region) {
      r.region = -1;
      r.offKnown = false;
    } else if (!(a.offKnown && b.offKnown && a.off == b.off)) {
      r.offKnown = false;
    }
  } else if (a.k == AVal::Arr) {
    for (size_t i = 0; i < r.elems.size() && i < b.elems.size(); ++i) r.elems[i] = join(a.elems[i], b.elems[i]);
  }
  return r;
}

struct State {
  std::vector<AVal> s;
  bool live = true;
  AVal &at(int slot) {
    if ((size_t)slot >= s.size()) s.resize((size_t)slot + 1);
    return s[(size_t)slot];
  }
};

State joinS(const State &a, const State &b) {
  if (!a.live) return b;
  if (!b.live) return a;
  State r;
  r.s.resize(std::max(a.s.size(), b.s.size()));
  for (size_t i = 0; i < r.s.size(); ++i) {
    const AVal *x = i < a.s.size() ? &a.s[i] : nullptr;
    const AVal *y = i < b.s.size() ? &b.s[i] : nullptr;
    r.s[i] = x && y ? join(*x, *y) : x ? *x : *y;
  }
  return r;
}

// Lane tracing for data-movement intrinsics: run the table's model on tagged inputs and see
// where each input 64-bit lane ends up.
struct Trace {
  // out lane -> (arg, lane) or (-1, 0) for constant zero, (-2, 0) for not a pure move
  std::vector<std::pair<int, int>> src;
};

// What the interval domain keeps per inlined call: the "inlined from" note of its call site and
// the state of each of its returns (joined into the caller's state after the body).
struct BoundsFrame {
  std::string chain;
  std::vector<State> rets;
};

}  // namespace

// The interval domain on the shared statement interpreter (interp.h): one State (an interval
// per slot) per path, the two states of an undecided condition joined where the branches meet,
// loops by fixpoint with the chapoly-invariant lines as their head assumption. `cur` is the state
// of the path being walked; an expression evaluated on a copy (a condition's refinement, one arm
// of `?:` or `&&`) walks any helper it calls on that copy (`On`).
class BoundsInterp : public Interp<BoundsInterp, AVal, BoundsFrame> {
  friend struct Interp<BoundsInterp, AVal, BoundsFrame>;

 public:
  BoundsInterp(const File &f, Prover &p, const BoundsOptions &o) : F(f), P(p), opt(o) {}

  KernelResult run(const Function &k) {
    auto t0 = std::chrono::steady_clock::now();
    res.kernel = k.name;
    res.file = F.path;
    State st;
    On on(*this, st);
    frames.push_back(Frame{1, &k, {}, false, AVal{}, BoundsFrame{}});
    // Globals (static const tables) with their initialisers.
    for (int g : F.globals) {
      const Var &v = F.vars[(size_t)g];
      AVal val = topOf(v.ty);
      if (v.init) val = initValue(v.ty, v.init, st);
      st.at(slotId(0, g)) = val;
    }
    for (int p : k.params) st.at(slotId(1, p)) = topOf(F.vars[(size_t)p].ty);
    exec(*k.body);
    frames.pop_back();
    res.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (size_t i = 0; i < res.obligations.size(); ++i) res.obligations[i].id = (int)i + 1;
    return res;
  }

 private:
  const File &F;
  Prover &P;
  BoundsOptions opt;
  KernelResult res;
  bool collect = true;

  // The state of the path being walked, and a scope that walks on another one.
  State *cur = nullptr;
  struct On {
    BoundsInterp &b;
    State *saved;
    On(BoundsInterp &bi, State &st) : b(bi), saved(bi.cur) { b.cur = &st; }
    ~On() { b.cur = saved; }
    On(const On &) = delete;
    On &operator=(const On &) = delete;
  };
  void execOn(const Stmt &s, State &st) {
    On on(*this, st);
    exec(s);
  }

  struct LoopCtx {
    std::vector<State> breaks, conts;
  };
  std::vector<LoopCtx> loops;

  std::map<std::pair<int, int>, int> slotIds;
  std::map<std::string, size_t> oblIdx;
  std::set<std::string> reported;

  // The key powers p1305_setup returned on the path being analysed (q0, q1, q2, qs1, qs2, rl0,
  // rl1, rl2, rls1, rls2: the identities of their lanes). Every helper that takes key powers must
  // receive exactly these (its value proof assumes them: poly.cpp), and every block-step loop must
  // multiply by the rl ones.
  bool haveKeyPowers = false;
  std::vector<std::vector<std::pair<u128, long long>>> keyPowers;
  struct KeyUse {
    std::vector<size_t> params;  // parameter indices of the 5 (q0..qs2 or rl0..rls2)
    size_t which;                // 0: q/qs, 5: rl/rls
  };
  // The parameter indices a contract's `keys` / `loop_keys` name (empty when a name is missing).
  std::vector<size_t> paramIndices(const Function &fn, const std::vector<std::string> &names) const {
    std::vector<size_t> out;
    for (const auto &n : names)
      for (size_t i = 0; i < fn.params.size(); ++i)
        if (F.vars[(size_t)fn.params[i]].name == n) out.push_back(i);
    if (out.size() != names.size()) out.clear();
    return out;
  }
  void checkKeyPowers(const Expr &e, const Function &fn, const std::vector<AVal> &args) {
    static const char *names[] = {"q0", "q1", "q2", "qs1", "qs2", "rl0", "rl1", "rl2", "rls1", "rls2"};
    Contract ct = contractOf(fn);
    if (ct.role == "ifma.key_powers" || ct.role == "ifma.powers_load") return;  // it makes them
    const size_t nkeys = ct.role == "ifma.powers_store" ? 3 : 5;  // the store takes q0, q1, q2 only
    std::vector<KeyUse> uses;
    if (!ct.keys.empty()) uses.push_back({paramIndices(fn, ct.keys), 0});
    if (!ct.loopKeys.empty()) uses.push_back({paramIndices(fn, ct.loopKeys), 5});
    for (const auto &u : uses) {
      if (!collect) continue;
      Obligation &o = obligation("call-contract", e.loc, fn.name + " receives the key powers the key setup made", fn.name);
      if (!selected(o)) {
        o.skipped = true;
        continue;
      }
      if (o.res != Res::OK) continue;
      std::string why;
      if (u.params.size() != nkeys) why = "its contract names key-power parameters it does not have";
      else if (!haveKeyPowers) why = "no key setup (ifma.key_powers) or key-power state load (ifma.powers_load) call precedes it on this path";
      for (size_t k = 0; k < nkeys && why.empty(); ++k) {
        size_t ai = u.params[k];
        const auto &want = keyPowers[u.which + k];
        if (ai >= args.size() || args[ai].k != AVal::Vec) {
          why = "argument " + std::to_string(ai + 1) + " is not a vector";
          break;
        }
        for (size_t j = 0; j < want.size(); ++j) {
          auto got = termAt(args[ai], j);
          if (want[j].second < 0 || got != want[j]) {
            why = "argument " + std::to_string(ai + 1) + " (" + F.vars[(size_t)fn.params[ai]].name + ") lane " +
                  std::to_string(j) + " is not the " + names[u.which + k] + " the key setup returned" +
                  (want[j].second < 0 ? " (its identity was lost)" : "");
            break;
          }
        }
      }
      if (!why.empty()) {
        o.res = Res::FAILED;
        o.cex = why;
        o.context = chainNote();
      }
    }
  }

  long long nextAtom = 0;
  // A value bound to a variable gets an identity per non-constant lane (kept by copies, scaled by
  // shifts, summed by adds of the same identity), so relations between variables survive.
  AVal named(AVal v) {
    if (v.k != AVal::Int && v.k != AVal::Vec) return v;
    if (v.terms.size() != v.lanes.size()) v.terms.assign(v.lanes.size(), {0, -1});
    for (size_t i = 0; i < v.lanes.size(); ++i)
      if (v.terms[i].second < 0 && !v.lanes[i].exact()) v.terms[i] = {1, nextAtom++};
    return v;
  }
  static std::pair<u128, long long> termAt(const AVal &v, size_t i) {
    if (i < v.terms.size()) return v.terms[i];
    return {0, -1};
  }

  // The index in a State of (context, variable)'s slot, made on first use.
  int slotId(int ctx, int var) {
    auto k = std::make_pair(ctx, var);
    auto it = slotIds.find(k);
    if (it != slotIds.end()) return it->second;
    int id = (int)slotIds.size();
    slotIds[k] = id;
    return id;
  }
  int slotId(std::pair<int, int> k) { return slotId(k.first, k.second); }
  // The slot of a variable as seen from the innermost frame (interp.h's key: a global, a
  // reference parameter's caller slot, or the frame's own).
  int varSlot(int var) { return slotId(key(var)); }

  std::string where(SrcLoc l) { return F.path + ":" + std::to_string(l.line) + ":" + std::to_string(l.col); }

  void error(SrcLoc l, const std::string &m) {
    std::string e = where(l) + ": error: " + m;
    if (reported.insert(e).second) res.errors.push_back(e);
  }

  std::string specAbove(unsigned line) {
    for (int l = (int)line - 1; l >= 0 && l < (int)F.lines.size(); --l) {
      const std::string &s = F.lines[(size_t)l];
      size_t k = s.find("// spec:");
      if (k != std::string::npos) return s.substr(k + 8 + (s.size() > k + 8 && s[k + 8] == ' ' ? 1 : 0));
    }
    return "";
  }

  std::string chainNote() {
    std::string c;
    for (size_t i = frames.size(); i-- > 1;) c += (c.empty() ? "" : ", ") + frames[i].ext.chain;
    return c;
  }

  // ---- obligations ----
  Obligation &obligation(const std::string &kind, SrcLoc l, const std::string &what,
                         const std::string &intr) {
    std::string key = kind + "@" + std::to_string(l.line) + ":" + std::to_string(l.col) + "@" + what;
    auto it = oblIdx.find(key);
    if (it != oblIdx.end()) return res.obligations[it->second];
    Obligation o;
    o.kind = kind;
    o.file = F.path;
    o.loc = l;
    o.what = what;
    o.intrinsic = intr;
    o.spec = specAbove(l.line);
    o.context = chainNote();
    oblIdx[key] = res.obligations.size();
    res.obligations.push_back(o);
    return res.obligations.back();
  }

  bool selected(const Obligation &o) {
    if (opt.onlyObligation.empty()) return true;
    std::string id = std::to_string(&o - res.obligations.data() + 1);
    return opt.onlyObligation == id || opt.onlyObligation == o.kind + ":" + std::to_string(o.loc.line) ||
           opt.onlyObligation == std::to_string(o.loc.line);
  }

  void record(Obligation &o, const Outcome &out, u128 max, const std::string &lane) {
    if (!out.cached) o.ms += out.ms;
    o.queries += 1;
    if (max > o.max) o.max = max;
    if (out.res != Res::OK && o.res == Res::OK) {
      o.res = out.res;
      o.cex = (lane.empty() ? "" : lane + ": ") + out.cex;
      o.context = chainNote();
    }
  }

  // Proves lo <= op <= hi for the lane; returns the interval to propagate.
  // With a limit: the obligation is that op <= limit (and >= limLo).
  Itv step(const std::string &kind, SrcLoc l, const std::string &what, const std::string &intr,
           const OpQuery &q, Itv proposed, bool hasLimit, u128 limLo, u128 limHi,
           const std::string &lane) {
    if (!collect) {
      if (hasLimit && (proposed.hi > limHi || proposed.lo < limLo)) {
        // Wraps or borrows: the lane value is anything of its width.
        return Itv{0, maxOf(q.width)};
      }
      return proposed;
    }
    if (!hasLimit) {
      ++res.boundSteps;
      Obligation &o = obligation("bound", l, what, intr);
      if (!opt.onlyObligation.empty() && !selected(o)) {
        o.skipped = true;
        if (proposed.hi > o.max) o.max = proposed.hi;
        return proposed;
      }
      Outcome out = P.checkRange(q, proposed.lo, proposed.hi);
      record(o, out, proposed.hi, lane);
      return proposed;
    }
    Obligation &o = obligation(kind, l, what, intr);
    o.hasLimit = true;
    o.limit = limHi;
    bool within = proposed.hi <= limHi && proposed.lo >= limLo;
    if (!opt.onlyObligation.empty() && !selected(o)) {
      o.skipped = true;
      if (proposed.hi > o.max) o.max = proposed.hi;
      return within ? proposed : Itv{0, maxOf(q.width)};
    }
    if (within) {
      Outcome out = P.checkRange(q, proposed.lo, proposed.hi);
      record(o, out, proposed.hi, lane);
      return proposed;
    }
    Outcome out = P.checkRange(q, limLo, limHi);
    if (out.res == Res::OK) {
      record(o, out, limHi, lane);
      return Itv{std::max(proposed.lo, limLo), std::min(proposed.hi, limHi)};
    }
    record(o, out, proposed.hi, lane);
    if (o.note.empty())
      o.note = "interval bound " + hex(proposed.lo) + ".." + hex(proposed.hi);
    return Itv{0, maxOf(q.width)};
  }

  // ---- statements (interp.h's walk; these are the interval domain's hooks) ----
  bool halted() const { return !cur->live; }
  void fail(SrcLoc l, const std::string &m) { error(l, m); }
  AVal &slot(int var) { return cur->at(varSlot(var)); }
  AVal eval(const Expr &e) { return eval(e, *cur); }
  void bindParam(int ctx, int pv, AVal v) { cur->at(slotId(ctx, pv)) = named(std::move(v)); }

  void declare(const Stmt &s) {
    State &st = *cur;
    const Var &v = F.vars[(size_t)s.var];
    int sl = slotId(frames.back().ctx, s.var);
    if (v.ty.kind == Type::Array) {
      AVal a = s.e ? initValue(v.ty, s.e, st) : topOf(v.ty);
      st.at(sl) = a;
    } else if (s.e) {
      AVal val = eval(*s.e, st);
      st.at(sl) = named(convert(val, v.ty, s.e->loc));
    } else {
      st.at(sl) = topOf(v.ty);
    }
  }

  // A condition decided by its interval runs one branch (refined by it); an undecided one runs
  // both on copies refined each way and joins them.
  void execIf(const Stmt &s) {
    State &st = *cur;
    AVal c = eval(*s.e, st);
    int d = decided(c);
    if (d == 1) {
      State t = st;
      refine(*s.e, true, t);
      execOn(*s.then, t);
      st = t;
      return;
    }
    if (d == 0) {
      refine(*s.e, false, st);
      if (s.els) exec(*s.els);
      return;
    }
    State t = st, e = st;
    refine(*s.e, true, t);
    refine(*s.e, false, e);
    // The key powers are per path: each branch starts from what came before the if.
    const bool hk0 = haveKeyPowers;
    const auto kp0 = keyPowers;
    if (t.live) execOn(*s.then, t);
    const bool hkT = haveKeyPowers;
    const auto kpT = keyPowers;
    haveKeyPowers = hk0;
    keyPowers = kp0;
    if (s.els && e.live) execOn(*s.els, e);
    if (hkT && (!haveKeyPowers || kpT != keyPowers)) {
      if (haveKeyPowers) haveKeyPowers = false;  // two different setups meet: no identity survives
      else keyPowers = kpT, haveKeyPowers = true;
    }
    st = joinS(t, e);
  }

  // A return parks the path's state with the frame (joined into the caller's after the body)
  // and joins its value into the frame's.
  void execReturn(const Stmt &s) {
    State &st = *cur;
    // Evaluate first: the value may call a helper, which pushes onto `frames` (a reference
    // into it taken before the call would dangle once the vector grows).
    AVal v;
    if (s.e) v = eval(*s.e, st);
    Frame &fr = frames.back();
    if (s.e) fr.ret = join(fr.ret, convert(v, fr.fn->ret, s.loc));
    fr.ext.rets.push_back(st);
    st.live = false;
  }

  // A break or continue parks the path's state with its loop.
  void execJump(const Stmt &s) {
    State &st = *cur;
    const bool brk = s.kind == Stmt::Break;
    if (loops.empty()) return error(s.loc, brk ? "break outside a loop" : "continue outside a loop");
    (brk ? loops.back().breaks : loops.back().conts).push_back(st);
    st.live = false;
  }

  static int decided(const AVal &c) {
    if (c.k != AVal::Int || c.lanes.empty()) return -1;
    if (c.lanes[0].hi == 0) return 0;
    if (c.lanes[0].lo > 0) return 1;
    return -1;
  }

  // Runs one iteration: body (+ continue states) and increment. Returns the state at the end.
  State iterate(const Stmt &s, State st) {
    loops.push_back({});
    execOn(*s.then, st);
    for (auto &c : loops.back().conts) st = joinS(st, c);
    breaksOut = std::move(loops.back().breaks);
    loops.pop_back();
    if (s.kind == Stmt::For && s.inc && st.live) eval(*s.inc, st);
    return st;
  }
  std::vector<State> breaksOut;

  void execLoop(const Stmt &s) {
    State &st = *cur;
    if (s.kind == Stmt::For && s.init) exec(*s.init);
    if (!st.live) return;
    std::vector<State> exits;
    // Invariant variables and their slots.
    std::vector<std::pair<int, const Invariant *>> inv;
    for (const auto &iv : s.invariants) {
      int var = findVar(iv.var, st);
      if (var < 0) {
        error(iv.loc, "chapoly-invariant names '" + iv.var + "', which is not a variable in scope");
        continue;
      }
      inv.push_back({var, &iv});
    }
    if (inv.empty() && collect && countMadd(*s.then) > 0 &&
        countIntr(*s.then, "_mm512_loadu_si512") + countIntr(*s.then, "_mm256_loadu_si256") > 0) {
      // A loop that loads message blocks and multiplies is a block-step loop, whatever its trip
      // count: without invariant lines (emitted/README.md: one per limb) it would only be
      // unrolled for bounds and its algebra (e) would silently go unchecked.
      Obligation &o = obligation("block-step", s.loc, "", "_mm512_madd52lo_epu64");
      if (!selected(o)) o.skipped = true;
      else if (o.res == Res::OK) {
        o.what = "IFMA loop in " + frames.back().fn->name + " without chapoly-invariant lines";
        o.res = Res::FAILED;
        o.cex = "the loop multiplies with IFMA but names no accumulator (`// chapoly-invariant: VAR <= BOUND` "
                "per limb above it), so its Poly1305 step cannot be checked";
        o.context = chainNote();
      }
    }
    bool first = true;
    if (inv.empty()) {
      // Iterate as written while the condition stays decided (constant trip counts).
      for (unsigned n = 0; n < opt.unrollCap; ++n) {
        int d = 1;
        if (s.kind != Stmt::DoWhile || !first) {
          if (s.e) d = decided(eval(*s.e, st));
        }
        first = false;
        if (d == 0) {
          refine(*s.e, false, st);
          for (auto &b : exits) st = joinS(st, b);
          return;
        }
        if (d < 0) break;
        State next = iterate(s, st);
        for (auto &b : breaksOut) exits.push_back(b);
        if (!next.live) {
          State out;
          out.live = false;
          for (auto &b : exits) out = joinS(out, b);
          st = out;
          return;
        }
        st = next;
      }
    }
    // Fixpoint with the invariants as the head assumption.
    State entry = st;
    for (auto &[var, iv] : inv) {
      int sl = varSlot(var);
      checkInvariant("invariant-entry", *iv, entry.at(sl), "holds on loop entry");
    }
    auto assume = [&](State &h) {
      for (auto &[var, iv] : inv) {
        AVal &v = h.at(varSlot(var));
        for (auto &l : v.lanes) l = Itv{0, iv->bound};
      }
    };
    State head = entry;
    assume(head);
    bool saved = collect;
    collect = false;
    bool converged = false;
    std::set<int> widened;
    size_t entrySlots = entry.s.size();
    for (unsigned n = 0; n < opt.loopCap + 4; ++n) {
      State b = head;
      if (s.e && (s.kind != Stmt::DoWhile)) refine(*s.e, true, b);
      State end = b.live ? iterate(s, b) : b;
      breaksOut.clear();
      State nh = joinS(entry, end);
      nh.s.resize(entrySlots);
      assume(nh);
      if (n >= 2) {
        // Widen what still grows to the whole range of its type: counters and lengths at once,
        // limbs (vector lanes, 64-bit scalars) only after opt.loopCap rounds, and reported.
        for (size_t i = 0; i < entrySlots; ++i) {
          if (i < head.s.size() && !(nh.s[i] == head.s[i])) {
            bool limb = isLimbSlot((int)i);
            if (limb && n < opt.loopCap) continue;
            for (auto &l : nh.s[i].lanes) l = Itv{0, nh.s[i].k == AVal::Vec ? maxOf(64) : maxOf(nh.s[i].bits)};
            if (limb) widened.insert((int)i);
          }
        }
      }
      bool same = nh.s.size() == head.s.size();
      for (size_t i = 0; same && i < nh.s.size(); ++i) same = nh.s[i] == head.s[i];
      head = nh;
      if (same) {
        converged = true;
        break;
      }
    }
    collect = saved;
    if (!converged) error(s.loc, "loop bounds did not reach a fixpoint");
    for (int w : widened) {
      std::string name = slotName(w);
      if (collect) {
        Obligation &o = obligation("loop-bound", s.loc, name, "loop");
        o.res = Res::FAILED;
        o.cex = "the bound of '" + name +
                "' grows on every iteration and has no `// chapoly-invariant:` comment";
      }
    }
    // Final pass: obligations inside the body, invariant closes at the end of the body.
    State b = head;
    if (s.e && s.kind != Stmt::DoWhile) refine(*s.e, true, b);
    State end = b.live ? iterate(s, b) : b;
    for (auto &br : breaksOut) exits.push_back(br);
    breaksOut.clear();
    if (end.live) {
      for (auto &[var, iv] : inv) checkInvariant("invariant-close", *iv, end.at(varSlot(var)), "re-established at the end of the loop body");
    }
    // (e) covers vector accumulators (every shipped block step); scalar-limb loops are bounded
    // above but not checked algebraically (docs/verification.md, "What is not proved").
    bool vecAcc = !inv.empty();
    for (auto &[var, iv] : inv) vecAcc = vecAcc && F.vars[(size_t)var].ty.kind == Type::Vec;
    if (collect && vecAcc && countMadd(*s.then) > 0) blockStep(s, head, inv);
    State out = head;
    if (s.e) refine(*s.e, false, out);
    for (auto &e : exits) out = joinS(out, e);
    st = out;
  }

  bool isLimbSlot(int sl) {
    for (auto &[k, v] : slotIds)
      if (v == sl && k.second >= 0) {
        const Type &t = F.vars[(size_t)k.second].ty;
        return t.kind == Type::Vec || checkedScalar(t);
      }
    return false;
  }

  // Intrinsic calls whose name starts with `prefix` in a statement (through called helpers).
  int countIntrE(const Expr &e, const char *prefix, int depth = 0) {
    int n = e.kind == Expr::Intrin && e.name.rfind(prefix, 0) == 0 ? 1 : 0;
    if (e.kind == Expr::Call && e.fn >= 0 && depth < 8) n += countIntr(*F.funcs[(size_t)e.fn].body, prefix, depth + 1);
    for (const auto &a : e.args)
      if (a) n += countIntrE(*a, prefix, depth);
    return n;
  }
  int countIntr(const Stmt &s, const char *prefix, int depth = 0) {
    int n = 0;
    if (s.e) n += countIntrE(*s.e, prefix, depth);
    if (s.inc) n += countIntrE(*s.inc, prefix, depth);
    for (const StmtP *p : {&s.init, &s.then, &s.els})
      if (*p) n += countIntr(**p, prefix, depth);
    for (const auto &b : s.body) n += countIntr(*b, prefix, depth);
    return n;
  }
  int countMadd(const Stmt &s) { return countIntr(s, "_mm512_madd52") + countIntr(s, "_mm256_madd52"); }

  // Obligation (e): the loop body is one Poly1305 block step in every lane.
  void blockStep(const Stmt &loop, State &head, const std::vector<std::pair<int, const Invariant *>> &inv) {
    Obligation &o = obligation("block-step", loop.loc, "", "_mm512_madd52lo_epu64");
    if (!opt.onlyObligation.empty() && !selected(o)) {
      o.skipped = true;
      return;
    }
    std::vector<std::pair<int, std::string>> acc;
    for (auto &[var, iv] : inv) acc.push_back({var, iv->var});
    auto seed = [&](int var, PolySeed &out) -> bool {
      const AVal &v = head.at(varSlot(var));
      if (v.k == AVal::Ptr) {
        out.k = PolySeed::Ptr;
        return true;
      }
      if (v.k != AVal::Int && v.k != AVal::Vec) return false;
      out.k = v.k == AVal::Vec ? PolySeed::Vec : PolySeed::Scalar;
      out.lanes = v.lanes;
      out.terms = v.terms;
      return true;
    };
    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::vector<std::pair<u128, long long>>> rl;
    if (haveKeyPowers && keyPowers.size() == 10) rl = {keyPowers[5], keyPowers[6], keyPowers[7]};
    BlockStepResult r = proveBlockStep(F, *frames.back().fn, loop, acc, seed, P.timeoutMs(), rl.empty() ? nullptr : &rl);
    o.ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    o.queries += 1;
    o.what = r.what + ", in " + frames.back().fn->name;
    if (o.note.empty()) o.note = r.note;
    if (r.res != Res::OK && o.res == Res::OK) {
      o.res = r.res;
      o.cex = r.cex;
      o.context = chainNote();
    }
  }

  std::string slotName(int sl) {
    for (auto &[k, v] : slotIds)
      if (v == sl) return k.second >= 0 ? F.vars[(size_t)k.second].name : "?";
    return "?";
  }

  int findVar(const std::string &name, State &) {
    // Innermost first: the current frame's locals and refs, then globals.
    const Frame &fr = frames.back();
    int best = -1;
    for (auto &[k, sl] : slotIds) {
      if (k.first == fr.ctx && F.vars[(size_t)k.second].name == name) best = k.second;
    }
    if (best >= 0) return best;
    for (auto &[var, sl] : fr.refs)
      if (F.vars[(size_t)var].name == name) return var;
    for (int g : F.globals)
      if (F.vars[(size_t)g].name == name) return g;
    return -1;
  }

  void checkInvariant(const std::string &kind, const Invariant &iv, const AVal &v, const std::string &what) {
    if (!collect) return;
    Obligation &o = obligation(kind, iv.loc, iv.var + " <= " + hex(iv.bound) + " " + what, "chapoly-invariant");
    o.hasLimit = true;
    o.limit = iv.bound;
    if (!opt.onlyObligation.empty() && !selected(o)) {
      o.skipped = true;
      return;
    }
    if (v.k != AVal::Int && v.k != AVal::Vec) {
      o.res = Res::FAILED;
      o.cex = "'" + iv.var + "' has no numeric value here";
      return;
    }
    for (size_t i = 0; i < v.lanes.size(); ++i) {
      OpQuery q;
      q.op = "id";
      q.width = v.k == AVal::Vec ? 64 : v.bits;
      q.in = {v.lanes[i]};
      q.names = {iv.var};
      std::string lane = v.k == AVal::Vec ? "lane " + std::to_string(i) : "";
      Outcome out = P.checkRange(q, 0, iv.bound);
      record(o, out, std::min(v.lanes[i].hi, v.lanes[i].hi), lane);
    }
  }

  // ---- conditions ----
  void refine(const Expr &c, bool truth, State &st) {
    if (!st.live) return;
    if (c.kind == Expr::Un && c.name == "!") return refine(*c.args[0], !truth, st);
    if (c.kind == Expr::Bin && (c.name == "&&" || c.name == "||")) {
      if ((c.name == "&&") == truth) {
        refine(*c.args[0], truth, st);
        refine(*c.args[1], truth, st);
      }
      return;
    }
    if (c.kind == Expr::Cast) return refine(*c.args[0], truth, st);
    std::string op;
    const Expr *lhs = nullptr, *rhs = nullptr;
    if (c.kind == Expr::Bin && (c.name == "<" || c.name == "<=" || c.name == ">" || c.name == ">=" ||
                                c.name == "==" || c.name == "!=")) {
      op = c.name;
      lhs = c.args[0].get();
      rhs = c.args[1].get();
    } else if (c.kind == Expr::Var) {
      op = "!=";
      lhs = &c;
    } else {
      return;
    }
    if (!truth) {
      static const std::map<std::string, std::string> neg = {{"<", ">="}, {"<=", ">"}, {">", "<="},
                                                             {">=", "<"}, {"==", "!="}, {"!=", "=="}};
      op = neg.at(op);
    }
    auto strip = [](const Expr *e) {
      while (e && e->kind == Expr::Cast && e->ty.kind == Type::Int && e->args[0]->ty.kind == Type::Int &&
             e->ty.bits >= e->args[0]->ty.bits && !e->args[0]->ty.isSigned)
        e = e->args[0].get();
      return e;
    };
    lhs = strip(lhs);
    rhs = rhs ? strip(rhs) : nullptr;
    State probe = st;
    bool saved = collect;
    collect = false;
    AVal lv = eval(*lhs, probe);
    AVal rv = rhs ? eval(*rhs, probe) : intV(lv.bits, 0, 0);
    collect = saved;
    if (lv.k != AVal::Int || rv.k != AVal::Int || lv.isSigned || rv.isSigned) return;
    Itv a = lv.lanes[0], b = rv.lanes[0];
    Itv na = a, nb = b;
    auto lt = [&](Itv &x, Itv &y, bool strict) {  // x < y (or <=)
      u128 d = strict ? 1 : 0;
      if (y.hi < d) {
        x.lo = 1, x.hi = 0;
        return;
      }
      x.hi = std::min(x.hi, y.hi - d);
      y.lo = std::max(y.lo, x.lo + d);
    };
    if (op == "<") lt(na, nb, true);
    else if (op == "<=") lt(na, nb, false);
    else if (op == ">") lt(nb, na, true);
    else if (op == ">=") lt(nb, na, false);
    else if (op == "==") {
      na.lo = nb.lo = std::max(a.lo, b.lo);
      na.hi = nb.hi = std::min(a.hi, b.hi);
    } else if (op == "!=") {
      if (b.exact()) {
        if (na.lo == b.lo) na.lo++;
        if (na.hi == b.lo && na.hi > 0) na.hi--;
        else if (na.hi == b.lo) na.lo = 1, na.hi = 0;
      }
    }
    if (na.lo > na.hi || nb.lo > nb.hi) {
      st.live = false;
      return;
    }
    auto put = [&](const Expr *e, Itv v) {
      if (e->kind != Expr::Var) return;
      AVal &x = st.at(varSlot(e->var));
      if (x.k == AVal::Int) x.lanes[0] = v;
    };
    put(lhs, na);
    if (rhs) put(rhs, nb);
  }

  // ---- values ----
  AVal convert(const AVal &v, const Type &t, SrcLoc) {
    if (v.k == AVal::Bot) return topOf(t);
    if (t.kind == Type::Int || t.kind == Type::Mask || t.kind == Type::Bool) {
      unsigned w = t.kind == Type::Bool ? 1 : t.bits;
      if (v.k != AVal::Int) return topOf(t);
      Itv x = v.lanes[0];
      if (t.kind == Type::Bool) {
        if (x.hi == 0) return intV(1, 0, 0);
        if (x.lo > 0) return intV(1, 1, 1);
        return intV(1, 0, 1);
      }
      // Sign extension of a negative signed value: only exact values are kept.
      if (v.isSigned && w > v.bits && (x.hi >> (v.bits - 1)) & 1) {
        if (x.exact()) {
          u128 val = x.lo | (maxOf(w) & ~maxOf(v.bits));
          return intV(w, val, val, t.isSigned);
        }
        return intV(w, 0, maxOf(w), t.isSigned);
      }
      if (x.hi <= maxOf(w)) return intV(w, x.lo, x.hi, t.isSigned);
      if (x.exact()) return intV(w, x.lo & maxOf(w), x.lo & maxOf(w), t.isSigned);
      return intV(w, 0, maxOf(w), t.isSigned);
    }
    if (t.kind == Type::Vec) {
      if (v.k == AVal::Vec && v.bits == t.bits) return v;
      if (v.k == AVal::Vec) {
        AVal r = v;
        r.bits = t.bits;
        r.lanes.resize(t.bits / 64, Itv{0, maxOf(64)});
        return r;
      }
      return topOf(t);
    }
    if (t.kind == Type::Ptr) {
      if (v.k == AVal::Ptr) {
        AVal r = v;
        r.elemBits = t.bits;
        r.elemIsVec = t.elemIsVec;
        return r;
      }
      if (v.k == AVal::Arr) {
        AVal r = topOf(t);
        return r;
      }
      return topOf(t);
    }
    return v;
  }

  AVal initValue(const Type &t, const ExprP &init, State &st) {
    if (t.kind != Type::Array) return convert(eval(*init, st), t, init->loc);
    AVal a = topOf(t);
    Type et;
    et.kind = t.elemIsVec ? Type::Vec : Type::Int;
    et.bits = t.bits;
    et.isSigned = t.isSigned;
    if (init->kind == Expr::InitList) {
      for (size_t i = 0; i < a.elems.size(); ++i) {
        if (i < init->args.size()) a.elems[i] = convert(eval(*init->args[i], st), et, init->loc);
        else a.elems[i] = t.elemIsVec ? vecConst(t.bits, 0) : intV(t.bits, 0, 0);
      }
    }
    return a;
  }

  static AVal vecConst(unsigned bits, uint64_t v) {
    AVal r;
    r.k = AVal::Vec;
    r.bits = bits;
    r.lanes.assign(bits / 64, Itv{v, v});
    return r;
  }

  // Places (lvalues).
  struct Place {
    enum K { None, Slot, Elem, Outside } k = None;
    int slot = -1;
    int64_t index = -1;  // Elem: element index; -1 unknown
    Type ty;
  };

  Place place(const Expr &e, State &st) {
    Place p;
    p.ty = e.ty;
    if (e.kind == Expr::Var) {
      p.k = Place::Slot;
      p.slot = varSlot(e.var);
      return p;
    }
    if (e.kind == Expr::Index || e.kind == Expr::Deref) {
      AVal base = eval(*e.args[0], st);
      AVal idx = e.kind == Expr::Index ? eval(*e.args[1], st) : intV(64, 0, 0);
      if (base.k != AVal::Ptr || base.region < 0) {
        p.k = Place::Outside;
        return p;
      }
      unsigned eb = e.ty.kind == Type::Vec ? e.ty.bits : e.ty.bits;
      AVal &arr = st.at(base.region);
      unsigned ab = arr.elemBits;
      p.k = Place::Elem;
      p.slot = base.region;
      if (base.offKnown && idx.k == AVal::Int && idx.lanes[0].exact() && eb == ab) {
        int64_t byteOff = base.off + (int64_t)(uint64_t)idx.lanes[0].lo * (int64_t)(eb / 8);
        if (idx.isSigned && (idx.lanes[0].lo >> (idx.bits - 1)) & 1) byteOff = -1;
        p.index = byteOff >= 0 && byteOff % (ab / 8) == 0 ? byteOff / (ab / 8) : -2;
        if (p.index >= (int64_t)arr.elems.size()) p.index = -2;
      } else {
        p.index = -1;
      }
      return p;
    }
    error(e.loc, "expression is not an assignable place");
    return p;
  }

  AVal readPlace(const Place &p, State &st) {
    switch (p.k) {
      case Place::Slot: {
        AVal v = st.at(p.slot);
        if (v.k == AVal::Bot) return topOf(p.ty);
        return v;
      }
      case Place::Elem: {
        AVal &arr = st.at(p.slot);
        if (p.index >= 0) return arr.elems[(size_t)p.index];
        if (p.index == -2) return topOf(p.ty);
        AVal r;
        for (auto &e : arr.elems) r = join(r, e);
        return r.k == AVal::Bot ? topOf(p.ty) : r;
      }
      default: return topOf(p.ty);
    }
  }

  void writePlace(const Place &p, const AVal &v, State &st) {
    switch (p.k) {
      case Place::Slot: st.at(p.slot) = named(v); return;
      case Place::Elem: {
        AVal &arr = st.at(p.slot);
        if (p.index >= 0) {
          arr.elems[(size_t)p.index] = v;
        } else {
          for (auto &e : arr.elems) e = join(e, v);
          if (p.index == -2)
            for (auto &e : arr.elems) e = topOf(p.ty);
        }
        return;
      }
      default: return;
    }
  }

  // Limb arithmetic on 64-bit (and 128-bit) unsigned scalars must not wrap; lengths, counters
  // and indices (size_t, int, uint32_t, ...) are not limbs.
  bool checkedScalar(const Type &t) { return isLimbType(t); }

  std::string nameOf(const Expr &e) { return e.text.empty() ? "?" : e.text; }

  // Scalar C operators.
  AVal scalarOp(const std::string &op, const Expr &e, const AVal &a, const AVal &b, const Type &t) {
    unsigned w = t.kind == Type::Bool ? 1 : t.bits;
    if (op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=") {
      if (a.k != AVal::Int || b.k != AVal::Int) return intV(1, 0, 1);
      Itv x = a.lanes[0], y = b.lanes[0];
      bool sgn = a.isSigned || b.isSigned;
      if (sgn && x.exact() && y.exact()) {
        unsigned wb = std::max(a.bits, b.bits);
        auto sv = [&](u128 v, unsigned bits, bool s) -> __int128 {
          if (s && bits < 128 && ((v >> (bits - 1)) & 1)) return (__int128)v - ((__int128)1 << bits);
          return (__int128)v;
        };
        __int128 X = sv(x.lo, a.bits, a.isSigned), Y = sv(y.lo, b.bits, b.isSigned);
        (void)wb;
        bool r = op == "==" ? X == Y : op == "!=" ? X != Y : op == "<" ? X < Y : op == "<=" ? X <= Y
                                                         : op == ">" ? X > Y : X >= Y;
        return intV(1, r, r);
      }
      if (sgn) return intV(1, 0, 1);
      int r = -1;
      if (op == "==") r = (x.exact() && y.exact()) ? x.lo == y.lo : (x.hi < y.lo || y.hi < x.lo) ? 0 : -1;
      else if (op == "!=") r = (x.exact() && y.exact()) ? x.lo != y.lo : (x.hi < y.lo || y.hi < x.lo) ? 1 : -1;
      else if (op == "<") r = x.hi < y.lo ? 1 : x.lo >= y.hi ? 0 : -1;
      else if (op == "<=") r = x.hi <= y.lo ? 1 : x.lo > y.hi ? 0 : -1;
      else if (op == ">") r = x.lo > y.hi ? 1 : x.hi <= y.lo ? 0 : -1;
      else r = x.lo >= y.hi ? 1 : x.hi < y.lo ? 0 : -1;
      return r < 0 ? intV(1, 0, 1) : intV(1, (u128)r, (u128)r);
    }
    if (op == "&&" || op == "||") {
      int da = decided(a), db = decided(b);
      if (op == "&&") {
        if (da == 0 || db == 0) return intV(1, 0, 0);
        if (da == 1 && db == 1) return intV(1, 1, 1);
      } else {
        if (da == 1 || db == 1) return intV(1, 1, 1);
        if (da == 0 && db == 0) return intV(1, 0, 0);
      }
      return intV(1, 0, 1);
    }
    if (a.k != AVal::Int || b.k != AVal::Int) return topOf(t);
    Itv x = a.lanes[0], y = b.lanes[0];
    bool checked = checkedScalar(t);
    bool sgn = t.isSigned;
    OpQuery q;
    q.width = w;
    q.in = {x, y};
    q.names = {nameOf(*e.args[0]), nameOf(*e.args[1])};
    u128 M = maxOf(w);
    auto wrapOr = [&](bool fits, Itv v, const std::string &qop, const std::string &kind, u128 limLo) -> AVal {
      if (checked) {
        q.op = qop;
        Itv r = step(kind, e.loc, nameOf(e), op, q, v, true, limLo, M, "");
        return intV(w, r.lo, r.hi, sgn);
      }
      if (fits) return intV(w, v.lo, v.hi, sgn);
      if (x.exact() && y.exact()) {
        u128 r = 0;
        if (op == "+") r = (x.lo + y.lo) & M;
        else if (op == "-") r = (x.lo - y.lo) & M;
        else if (op == "*") r = (x.lo * y.lo) & M;
        else if (op == "<<") r = (x.lo << (unsigned)y.lo) & M;
        return intV(w, r, r, sgn);
      }
      return intV(w, 0, M, sgn);
    };
    if (op == "+") {
      bool ovf = x.hi > M - y.hi || (w == 128 && x.hi + y.hi < x.hi);
      Itv v{x.lo + y.lo, ovf ? M : x.hi + y.hi};
      if (ovf && !checked) return wrapOr(false, v, "add", "", 0);
      if (ovf) {
        // Claimed range cannot be represented: the obligation fails with Z3's witness.
        q.op = "add";
        Itv r = step("scalar-add-no-wrap", e.loc, nameOf(e), op, q, Itv{x.lo + y.lo, M}, true, 0, M, "");
        return intV(w, r.lo, r.hi, sgn);
      }
      return wrapOr(true, v, "add", "scalar-add-no-wrap", 0);
    }
    if (op == "-") {
      if (x.lo >= y.hi) return wrapOr(true, Itv{x.lo - y.hi, x.hi - y.lo}, "sub", "scalar-sub-no-borrow", 0);
      if (checked) {
        q.op = "sub";
        Obligation &o = obligation("scalar-sub-no-borrow", e.loc, nameOf(e), op);
        o.hasLimit = true;
        o.limit = 0;
        if (collect) {
          Outcome out = P.checkRange(q, 0, M);
          record(o, out, 0, "");
        }
        return intV(w, 0, M, sgn);
      }
      return wrapOr(false, Itv{0, M}, "sub", "", 0);
    }
    if (op == "*") {
      bool ovf = y.hi != 0 && x.hi > M / y.hi;
      Itv v{x.lo * y.lo, ovf ? M : x.hi * y.hi};
      if (ovf && !checked) return wrapOr(false, v, "mul", "", 0);
      if (ovf) {
        q.op = "mul";
        Itv r = step("scalar-mul-no-wrap", e.loc, nameOf(e), op, q, v, true, 0, M - 1 == 0 ? 0 : M, "");
        return intV(w, r.lo, r.hi, sgn);
      }
      return wrapOr(true, v, "mul", "scalar-mul-no-wrap", 0);
    }
    if (op == "<<" || op == ">>") {
      if (!y.exact() || y.lo >= w) {
        if (op == ">>" && !sgn) return intV(w, 0, x.hi);
        return intV(w, 0, M, sgn);
      }
      unsigned k = (unsigned)y.lo;
      q.k = k;
      q.in = {x};
      q.names = {nameOf(*e.args[0])};
      if (op == ">>") {
        if (sgn) return x.exact() ? intV(w, x.lo >> k, x.lo >> k, true) : intV(w, 0, M, true);
        q.op = "shr";
        Itv r = step("bound", e.loc, nameOf(e), op, q, Itv{x.lo >> k, x.hi >> k}, false, 0, 0, "");
        return intV(w, r.lo, r.hi, sgn);
      }
      bool fits = bitlen(x.hi) + k <= w;
      Itv v{x.lo << k, fits ? x.hi << k : M};
      if (!checked) return wrapOr(fits, v, "shl", "", 0);
      q.op = "shl";
      if (!fits) {
        Itv r = step("scalar-shl-no-drop", e.loc, nameOf(e), op, q, Itv{x.lo << k, M}, true, 0, M, "");
        return intV(w, r.lo, r.hi, sgn);
      }
      Itv r = step("scalar-shl-no-drop", e.loc, nameOf(e), op, q, v, true, 0, M, "");
      return intV(w, r.lo, r.hi, sgn);
    }
    if (op == "&" || op == "|" || op == "^") {
      if (x.exact() && y.exact()) {
        u128 r = op == "&" ? (x.lo & y.lo) : op == "|" ? (x.lo | y.lo) : (x.lo ^ y.lo);
        return intV(w, r, r, sgn);
      }
      Itv v;
      if (op == "&") v = Itv{0, std::min(x.hi, y.hi)};
      else if (op == "|") {
        u128 cap = maxOf(bitlen(std::max(x.hi, y.hi)));
        u128 sum = x.hi > M - y.hi ? M : x.hi + y.hi;
        v = Itv{std::max(x.lo, y.lo), std::min(cap, sum)};
      } else {
        v = Itv{0, maxOf(bitlen(std::max(x.hi, y.hi)))};
      }
      if (!checked) return intV(w, v.lo, v.hi, sgn);
      q.op = op == "&" ? "and" : op == "|" ? "or" : "xor";
      Itv r = step("bound", e.loc, nameOf(e), op, q, v, false, 0, 0, "");
      return intV(w, r.lo, r.hi, sgn);
    }
    if (op == "/" || op == "%") {
      if (x.exact() && y.exact() && y.lo != 0 && !sgn) {
        u128 r = op == "/" ? x.lo / y.lo : x.lo % y.lo;
        return intV(w, r, r, sgn);
      }
      if (!sgn && y.lo > 0) {
        if (op == "/") return intV(w, x.lo / y.hi, x.hi / y.lo);
        return intV(w, 0, std::min(x.hi, y.hi - 1));
      }
      return intV(w, 0, M, sgn);
    }
    error(e.loc, "operator '" + op + "' is not modelled");
    return topOf(t);
  }

  AVal eval(const Expr &e, State &st) {
    switch (e.kind) {
      case Expr::Const: {
        if (e.ty.kind == Type::Int || e.ty.kind == Type::Bool || e.ty.kind == Type::Mask)
          return intV(e.ty.kind == Type::Bool ? 1 : e.ty.bits, e.value & maxOf(e.ty.bits ? e.ty.bits : 1),
                      e.value & maxOf(e.ty.bits ? e.ty.bits : 1), e.ty.isSigned);
        if (e.ty.kind == Type::Ptr) {  // null
          AVal p = topOf(e.ty);
          return p;
        }
        return topOf(e.ty);
      }
      case Expr::Var: {
        const Var &v = F.vars[(size_t)e.var];
        int sl = varSlot(e.var);
        AVal &val = st.at(sl);
        if (v.ty.kind == Type::Array) {
          AVal p;
          p.k = AVal::Ptr;
          p.region = sl;
          p.off = 0;
          p.offKnown = true;
          p.elemBits = v.ty.bits;
          p.elemIsVec = v.ty.elemIsVec;
          if (val.k == AVal::Bot) val = topOf(v.ty);
          return p;
        }
        if (val.k == AVal::Bot) return topOf(v.ty);
        return val;
      }
      case Expr::Cast: {
        AVal v = eval(*e.args[0], st);
        if (e.ty.kind == Type::Ptr && v.k == AVal::Ptr) return convert(v, e.ty, e.loc);
        return convert(v, e.ty, e.loc);
      }
      case Expr::Bin: {
        if (e.name == "&&" || e.name == "||") {
          AVal a = eval(*e.args[0], st);
          int da = decided(a);
          if (e.name == "&&" && da == 0) return intV(1, 0, 0);
          if (e.name == "||" && da == 1) return intV(1, 1, 1);
          State t = st;
          refine(*e.args[0], e.name == "&&", t);
          AVal b = t.live ? eval(*e.args[1], t) : intV(1, 0, 0);
          return scalarOp(e.name, e, a, b, e.ty);
        }
        AVal a = eval(*e.args[0], st);
        AVal b = eval(*e.args[1], st);
        if (a.k == AVal::Ptr && (e.name == "+" || e.name == "-")) return ptrAdd(a, b, e.name == "-");
        if (a.k == AVal::Ptr || b.k == AVal::Ptr) return topOf(e.ty);
        // Operands arrive already converted to the operation type by Clang's implicit casts.
        return scalarOp(e.name, e, a, b, e.ty);
      }
      case Expr::Un: {
        AVal a = eval(*e.args[0], st);
        if (a.k != AVal::Int) return topOf(e.ty);
        unsigned w = e.ty.bits;
        Itv x = a.lanes[0];
        if (e.name == "!") {
          int d = decided(a);
          return d < 0 ? intV(1, 0, 1) : intV(1, d == 0, d == 0);
        }
        if (e.name == "~") return intV(w, (~x.hi) & maxOf(w), (~x.lo) & maxOf(w), e.ty.isSigned);
        if (x.exact()) return intV(w, (0 - x.lo) & maxOf(w), (0 - x.lo) & maxOf(w), e.ty.isSigned);
        return intV(w, 0, maxOf(w), e.ty.isSigned);
      }
      case Expr::Cond: {
        AVal c = eval(*e.args[0], st);
        int d = decided(c);
        if (d == 1) return eval(*e.args[1], st);
        if (d == 0) return eval(*e.args[2], st);
        State t = st, f = st;
        refine(*e.args[0], true, t);
        refine(*e.args[0], false, f);
        AVal a = t.live ? eval(*e.args[1], t) : AVal{};
        AVal b = f.live ? eval(*e.args[2], f) : AVal{};
        return join(a, b);
      }
      case Expr::Index:
      case Expr::Deref: {
        Place p = place(e, st);
        return readPlace(p, st);
      }
      case Expr::AddrOf: {
        const Expr &in = *e.args[0];
        if (in.kind == Expr::Index) {
          AVal base = eval(*in.args[0], st);
          AVal idx = eval(*in.args[1], st);
          return ptrAdd(base, idx, false);
        }
        if (in.kind == Expr::Var) {
          error(e.loc, "address of a scalar variable is outside the emitted dialect");
        }
        return topOf(e.ty);
      }
      case Expr::Assign: {
        Place p = place(*e.args[0], st);
        AVal rhs = eval(*e.args[1], st);
        AVal v;
        if (e.name.empty()) {
          v = convert(rhs, e.args[0]->ty, e.loc);
        } else {
          AVal cur = readPlace(p, st);
          if (cur.k == AVal::Ptr) v = ptrAdd(cur, rhs, e.name == "-");
          else v = scalarOp(e.name, e, cur, convert(rhs, e.args[0]->ty, e.loc), e.args[0]->ty);
        }
        writePlace(p, v, st);
        return v;
      }
      case Expr::IncDec: {
        Place p = place(*e.args[0], st);
        AVal cur = readPlace(p, st);
        bool inc = e.name.find("++") != std::string::npos;
        AVal v;
        if (cur.k == AVal::Ptr) {
          v = ptrAdd(cur, intV(64, 1, 1), !inc);
        } else {
          Expr one;
          one.kind = Expr::Const;
          one.ty = e.args[0]->ty;
          one.value = 1;
          one.text = "1";
          Expr fake = e;
          fake.args = {e.args[0], std::make_shared<Expr>(one)};
          v = scalarOp(inc ? "+" : "-", fake, cur, intV(cur.bits, 1, 1), e.args[0]->ty);
        }
        writePlace(p, v, st);
        return e.name.rfind("post", 0) == 0 ? cur : v;
      }
      case Expr::Call: return call(e, st);
      case Expr::Intrin: return intrinsic(e, st);
      case Expr::InitList: return topOf(e.ty);
    }
    return topOf(e.ty);
  }

  AVal ptrAdd(const AVal &p, const AVal &n, bool minus) {
    AVal r = p;
    if (p.k != AVal::Ptr) return r;
    if (!(p.offKnown && n.k == AVal::Int && n.lanes[0].exact())) {
      r.offKnown = false;
      return r;
    }
    int64_t d = (int64_t)(uint64_t)n.lanes[0].lo;
    if (n.isSigned && n.bits < 64 && ((n.lanes[0].lo >> (n.bits - 1)) & 1)) d -= (int64_t)1 << n.bits;
    d *= (int64_t)(p.elemBits / 8 ? p.elemBits / 8 : 1);
    r.off = minus ? p.off - d : p.off + d;
    return r;
  }

  AVal call(const Expr &e, State &st) {
    if (e.fn < 0) return topOf(e.ty);
    const Function &fn = F.funcs[(size_t)e.fn];
    if (!checkNotRecursive(e, fn)) return topOf(e.ty);
    if (opt.finalReduction.count(fn.name)) {
      FinalCall fc;
      fc.fn = e.fn;
      fc.loc = e.loc;
      for (size_t i = 0; i < e.args.size(); ++i) {
        AVal a = eval(*e.args[i], st);
        fc.args.push_back(a.k == AVal::Int ? a.lanes[0] : Itv{0, 0});
      }
      if (collect) {
        Obligation &o = obligation("final-reduction-input", e.loc, fn.name + " inputs", fn.name);
        o.note = "input bounds handed to the bit-vector proof of " + fn.name;
        if (!selected(o)) o.skipped = true;
        res.finalCalls.push_back(fc);
      }
      for (size_t i = 0; i < fn.params.size() && i < e.args.size(); ++i) {
        const Var &pv = F.vars[(size_t)fn.params[i]];
        if (pv.isRef) {
          Place p = place(*e.args[i], st);
          writePlace(p, topOf(pv.ty), st);
        }
      }
      return topOf(fn.ret);
    }
    On on(*this, st);
    Frame fr = bindCall(e, fn);
    const int ctx = fr.ctx;
    fr.ext.chain = "inlined from " + F.path + ":" + std::to_string(e.loc.line);
    {
      std::vector<AVal> args;
      for (size_t i = 0; i < fn.params.size() && i < e.args.size(); ++i) {
        const Var &v = F.vars[(size_t)fn.params[i]];
        args.push_back(v.isRef ? AVal{} : st.at(slotId(ctx, fn.params[i])));
      }
      checkKeyPowers(e, fn, args);
      if (contractOf(fn).role == "ifma.powers_store" && collect) {
        FinalCall sc;
        sc.fn = e.fn;
        sc.loc = e.loc;
        for (const AVal &a : args) {
          Itv j{~(u128)0, 0};
          for (const Itv &l : a.lanes) j.lo = std::min(j.lo, l.lo), j.hi = std::max(j.hi, l.hi);
          sc.args.push_back(a.k == AVal::Vec && !a.lanes.empty() ? j : Itv{0, ~(u128)0});
        }
        res.powersStoreCalls.push_back(sc);
      }
      if (contractOf(fn).role == "ifma.state_store" && collect) {
        FinalCall sc;
        sc.fn = e.fn;
        sc.loc = e.loc;
        for (const AVal &a : args) sc.args.push_back(a.k == AVal::Int ? a.lanes[0] : Itv{0, 0});
        res.stateStoreCalls.push_back(sc);
      }
    }
    Frame done = runFrame(fr);
    Contract callee = contractOf(fn);
    std::vector<size_t> made;
    if (callee.role == "ifma.key_powers" || callee.role == "ifma.powers_load") {
      made = paramIndices(fn, callee.keys);
      std::vector<size_t> loop = paramIndices(fn, callee.loopKeys);
      made.insert(made.end(), loop.begin(), loop.end());
      if (made.size() != 10) error(fn.loc, "the " + callee.role + " contract of '" + fn.name + "' names parameters it does not have");
    }
    if (made.size() == 10) {
      if (haveKeyPowers && collect) {
        Obligation &o = obligation("call-contract", e.loc, "one key setup (ifma.key_powers or ifma.powers_load) per path", fn.name);
        if (!selected(o)) {
          o.skipped = true;
        } else if (o.res == Res::OK) {
          o.res = Res::FAILED;
          o.cex = "a second key setup on this path: the helpers after it would MAC with other key powers than the "
                  "ones before it";
          o.context = chainNote();
        }
      }
      keyPowers.clear();
      haveKeyPowers = true;
      for (size_t i : made) {
        auto rit = fr.refs.find(fn.params[i]);
        AVal v = rit == fr.refs.end() ? AVal{} : st.at(slotId(rit->second));
        std::vector<std::pair<u128, long long>> t;
        for (size_t j = 0; j < v.lanes.size(); ++j) t.push_back(termAt(v, j));
        if (v.k != AVal::Vec) haveKeyPowers = false;
        keyPowers.push_back(t);
      }
    }
    for (auto &r : done.ext.rets) st = joinS(st, r);
    if (fn.ret.kind == Type::Void) return AVal{};
    return done.ret.k == AVal::Bot ? topOf(fn.ret) : done.ret;
  }

  // ---- intrinsics ----
  static Bits bitsOf(const AVal &v) {
    Bits b;
    if (v.k == AVal::Vec)
      for (size_t i = 0; i < v.lanes.size() && i < 8; ++i) b.w[i] = (uint64_t)v.lanes[i].lo;
    else if (v.k == AVal::Int) {
      b.w[0] = (uint64_t)v.lanes[0].lo;
      b.w[1] = (uint64_t)(v.lanes[0].lo >> 64);
    }
    return b;
  }
  static AVal fromBits(const Bits &b, unsigned resultBits) {
    if (resultBits >= 128 && resultBits % 64 == 0 && resultBits <= 512) {
      AVal r;
      r.k = AVal::Vec;
      r.bits = resultBits;
      for (unsigned i = 0; i < resultBits / 64; ++i) r.lanes.push_back(Itv{b.w[i], b.w[i]});
      return r;
    }
    u128 v = b.w[0] & (u128)maxOf(resultBits);
    return intV(resultBits, v, v);
  }
  AVal resultTop(const Intrinsic &in, const Expr &e) {
    if (in.resultBits >= 128) return topVec(in.resultBits);
    return topOf(e.ty);
  }

  // Reads the 64 bytes at pointer `p` as lanes (only local arrays are tracked).
  AVal loadMem(const AVal &p, unsigned bits, State &st) {
    if (p.k != AVal::Ptr || p.region < 0 || !p.offKnown) return topVec(bits);
    AVal &arr = st.at(p.region);
    if (arr.k != AVal::Arr) return topVec(bits);
    AVal r = topVec(bits);
    unsigned eb = arr.elemBits;
    for (unsigned l = 0; l < bits / 64; ++l) {
      int64_t byte = p.off + l * 8;
      if (eb == 64) {
        if (byte % 8 == 0 && byte / 8 < (int64_t)arr.elems.size() && byte >= 0) {
          const AVal &el = arr.elems[(size_t)(byte / 8)];
          if (el.k == AVal::Int) r.lanes[l] = el.lanes[0];
        }
      } else if (eb < 64 && eb % 8 == 0) {
        unsigned per = 64 / eb;
        int64_t first = byte / (eb / 8);
        bool ok = byte % (eb / 8) == 0 && first >= 0 && first + per <= (int64_t)arr.elems.size();
        u128 lo = 0, hi = 0;
        for (unsigned j = 0; ok && j < per; ++j) {
          const AVal &el = arr.elems[(size_t)(first + j)];
          if (el.k != AVal::Int) {
            ok = false;
            break;
          }
          // Disjoint element bit ranges: the lane is the sum of the shifted elements.
          lo += el.lanes[0].lo << (j * eb);
          hi += el.lanes[0].hi << (j * eb);
        }
        if (ok) r.lanes[l] = Itv{lo, hi};
      }
    }
    return r;
  }

  void storeMem(const AVal &p, const AVal &v, State &st) {
    if (p.k != AVal::Ptr || p.region < 0) return;
    AVal &arr = st.at(p.region);
    if (arr.k != AVal::Arr) return;
    if (!p.offKnown) {
      for (auto &el : arr.elems) el = topOf(elemType(arr));
      return;
    }
    unsigned eb = arr.elemBits;
    for (unsigned l = 0; l < v.lanes.size(); ++l) {
      int64_t byte = p.off + l * 8;
      if (eb == 64 && byte % 8 == 0 && byte >= 0 && byte / 8 < (int64_t)arr.elems.size()) {
        arr.elems[(size_t)(byte / 8)] = intV(64, v.lanes[l].lo, v.lanes[l].hi);
      } else if (eb < 64 && eb % 8 == 0) {
        unsigned per = 64 / eb;
        for (unsigned j = 0; j < per; ++j) {
          int64_t idx = byte / (eb / 8) + j;
          if (idx < 0 || idx >= (int64_t)arr.elems.size()) continue;
          if (v.lanes[l].exact()) {
            u128 x = (v.lanes[l].lo >> (j * eb)) & maxOf(eb);
            arr.elems[(size_t)idx] = intV(eb, x, x);
          } else {
            arr.elems[(size_t)idx] = intV(eb, 0, maxOf(eb));
          }
        }
      } else {
        for (auto &el : arr.elems) el = topOf(elemType(arr));
      }
    }
  }
  static Type elemType(const AVal &arr) {
    Type t;
    t.kind = arr.elemIsVec ? Type::Vec : Type::Int;
    t.bits = arr.elemBits;
    return t;
  }

  Trace trace(const Intrinsic &in, const std::vector<AVal> &args) {
    Trace tr;
    std::mt19937_64 rng(0x5eed + in.name.size());
    std::vector<Bits> A1(args.size()), A2(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      A1[i] = bitsOf(args[i]);
      A2[i] = A1[i];
      if (in.roles[i] == Role::Data) {
        for (unsigned l = 0; l < 8; ++l) {
          A1[i].w[l] = rng() | 1;
          A2[i].w[l] = rng() | 1;
        }
        if (args[i].k == AVal::Int && args[i].bits < 64) {
          A1[i].w[0] &= maxOf(args[i].bits);
          A2[i].w[0] &= maxOf(args[i].bits);
        }
      }
    }
    Bits r1 = in.model(A1), r2 = in.model(A2);
    unsigned outLanes = in.resultBits >= 128 ? in.resultBits / 64 : 1;
    for (unsigned l = 0; l < outLanes; ++l) {
      std::pair<int, int> src{-2, 0};
      if (r1.w[l] == 0 && r2.w[l] == 0) src = {-1, 0};
      for (size_t i = 0; i < args.size() && src.first == -2; ++i) {
        if (in.roles[i] != Role::Data) continue;
        for (unsigned j = 0; j < 8; ++j)
          if (A1[i].w[j] == r1.w[l] && A2[i].w[j] == r2.w[l]) {
            src = {(int)i, (int)j};
            break;
          }
      }
      tr.src.push_back(src);
    }
    return tr;
  }

  std::string laneName(const Expr &e, size_t lane, bool vec) {
    return nameOf(e) + (vec ? "[" + std::to_string(lane) + "]" : "");
  }

  AVal intrinsic(const Expr &e, State &st) {
    const Intrinsic *in = findIntrinsic(e.name);
    if (!in) {
      error(e.loc, "intrinsic '" + e.name + "' is not in the semantics table (verify/src/intrinsics.cpp)");
      return topOf(e.ty);
    }
    if (in->builtin != e.builtin && !(in->builtin.empty() && e.builtin.empty())) {
      error(e.loc, "intrinsic '" + e.name + "' expands to '" + e.builtin + "', the table expects '" +
                       in->builtin + "'");
      return topOf(e.ty);
    }
    if (in->rvv) {
      // RVV (rvv.cpp proves the vector code): no limb arithmetic; vl <= VLMAX <= 1024 (VLEN <= 1024).
      for (auto &a : e.args) eval(*a, st);
      return in->cls == Cls::SetVL ? intV(64, 0, 1024) : topOf(e.ty);
    }
    std::vector<const Expr *> ax;
    if (!in->argmap.empty()) {
      for (int i : in->argmap) {
        if ((size_t)i >= e.args.size()) {
          error(e.loc, "intrinsic '" + e.name + "' has fewer arguments than the table expects");
          return topOf(e.ty);
        }
        ax.push_back(e.args[(size_t)i].get());
      }
    } else {
      for (auto &a : e.args) ax.push_back(a.get());
    }
    if (ax.size() != in->roles.size()) {
      error(e.loc, "intrinsic '" + e.name + "' called with " + std::to_string(ax.size()) +
                       " arguments, the table has " + std::to_string(in->roles.size()));
      return topOf(e.ty);
    }
    std::vector<AVal> args;
    for (const Expr *a : ax) args.push_back(eval(*a, st));
    for (size_t i = 0; i < args.size(); ++i) {
      if (in->roles[i] == Role::Imm && !args[i].exact()) {
        error(ax[i]->loc, "immediate operand of '" + e.name + "' is not a constant");
        return resultTop(*in, e);
      }
    }
    switch (in->cls) {
      case Cls::Load: {
        int pi = -1, ki = -1;
        for (size_t i = 0; i < args.size(); ++i) {
          if (in->roles[i] == Role::Ptr) pi = (int)i;
          if (in->roles[i] == Role::Mask) ki = (int)i;
        }
        AVal mem = loadMem(args[(size_t)pi], 512, st);
        bool known = mem.exact() && (ki < 0 || args[(size_t)ki].exact());
        if (known) {
          std::vector<Bits> A(args.size());
          for (size_t i = 0; i < args.size(); ++i) A[i] = bitsOf(i == (size_t)pi ? mem : args[i]);
          return fromBits(in->model(A), in->resultBits);
        }
        if (ki < 0 && in->laneBits <= 64) {
          AVal r = mem;
          r.bits = in->resultBits;
          r.lanes.resize(in->resultBits / 64);
          return r;
        }
        return resultTop(*in, e);
      }
      case Cls::Store: {
        int pi = -1, ki = -1, di = -1;
        for (size_t i = 0; i < args.size(); ++i) {
          if (in->roles[i] == Role::Ptr) pi = (int)i;
          else if (in->roles[i] == Role::Mask) ki = (int)i;
          else di = (int)i;
        }
        const AVal &p = args[(size_t)pi];
        if (p.k == AVal::Ptr && p.region >= 0) {
          if (ki < 0) {
            storeMem(p, args[(size_t)di], st);
          } else {
            AVal mem = loadMem(p, 512, st);
            if (mem.exact() && args[(size_t)ki].exact() && args[(size_t)di].exact()) {
              std::vector<Bits> A(args.size());
              for (size_t i = 0; i < args.size(); ++i) A[i] = bitsOf((int)i == pi ? mem : args[i]);
              storeMem(p, fromBits(in->model(A), 512), st);
            } else {
              AVal j = join(mem, args[(size_t)di]);
              for (auto &l : j.lanes) l.lo = 0;
              storeMem(p, j, st);
            }
          }
        }
        return AVal{};
      }
      case Cls::Modular: {
        bool allExact = true;
        for (auto &a : args) allExact = allExact && a.exact();
        if (allExact) {
          std::vector<Bits> A;
          for (auto &a : args) A.push_back(bitsOf(a));
          return fromBits(in->model(A), in->resultBits);
        }
        return resultTop(*in, e);
      }
      case Cls::Move: {
        bool ctrlKnown = true, allExact = true;
        for (size_t i = 0; i < args.size(); ++i) {
          if (in->roles[i] != Role::Data && !args[i].exact()) ctrlKnown = false;
          if (!args[i].exact()) allExact = false;
        }
        if (allExact) {
          std::vector<Bits> A;
          for (auto &a : args) A.push_back(bitsOf(a));
          return fromBits(in->model(A), in->resultBits);
        }
        if (!ctrlKnown) {
          // Unknown selector: each output lane is one of the data lanes (or zero): join them all.
          AVal r = resultTop(*in, e);
          if (in->laneBits != 64 || r.k != AVal::Vec) return r;
          Itv all{~(u128)0, 0};
          for (size_t i = 0; i < args.size(); ++i)
            if (in->roles[i] == Role::Data)
              for (auto &l : args[i].lanes) all.lo = std::min(all.lo, l.lo), all.hi = std::max(all.hi, l.hi);
          for (auto &l : r.lanes) l = Itv{0, all.hi};
          return r;
        }
        Trace tr = trace(*in, args);
        AVal r = resultTop(*in, e);
        std::vector<std::pair<u128, long long>> terms;
        for (size_t l = 0; l < tr.src.size(); ++l) {
          Itv v{0, maxOf(in->resultBits >= 64 ? 64 : in->resultBits)};
          std::pair<u128, long long> t{0, -1};
          auto [ai, aj] = tr.src[l];
          if (ai == -1) v = Itv{0, 0};
          else if (ai >= 0) {
            const AVal &a = args[(size_t)ai];
            if ((size_t)aj < a.lanes.size()) v = a.lanes[(size_t)aj];
            if (a.k == AVal::Vec || (a.k == AVal::Int && a.bits == 64)) t = termAt(a, (size_t)aj);
          }
          terms.push_back(t);
          if (r.k == AVal::Vec) r.lanes[l] = v;
          else r = intV(r.bits, v.lo, std::min(v.hi, maxOf(r.bits)));
        }
        if (r.k == AVal::Vec) r.terms = terms;
        return r;
      }
      case Cls::Arith: return arith(*in, e, ax, args);
      case Cls::SetVL: break;  // the RVV dialect (rvv.cpp) models vsetvl; here its vl is unknown (top)
    }
    return resultTop(*in, e);
  }

  AVal arith(const Intrinsic &in, const Expr &e, const std::vector<const Expr *> &ax, std::vector<AVal> &args) {
    const std::string &n = in.name;            // as written, for the obligations
    const std::string rn = ruleName(in.name);  // the rule: 256-bit forms share the 512-bit one
    AVal r = resultTop(in, e);
    size_t lanes = r.k == AVal::Vec ? r.lanes.size() : 1;
    auto lane = [&](const AVal &a, size_t i) -> Itv {
      if (a.k == AVal::Vec) return i < a.lanes.size() ? a.lanes[i] : Itv{0, maxOf(64)};
      if (a.k == AVal::Int) return a.lanes[0];
      return Itv{0, maxOf(64)};
    };
    auto set = [&](size_t i, Itv v) {
      if (r.k == AVal::Vec) r.lanes[i] = v;
      else r = intV(r.bits, v.lo, v.hi);
    };
    const u128 M64 = maxOf(64);
    std::string what = nameOf(e);
    if (rn == "_mm512_madd52lo_epu64" || rn == "_mm512_madd52hi_epu64") {
      bool lo = rn == "_mm512_madd52lo_epu64";
      for (size_t i = 0; i < lanes; ++i) {
        std::string ln = "lane " + std::to_string(i);
        Itv acc = lane(args[0], i);
        Itv ops[2] = {lane(args[1], i), lane(args[2], i)};
        for (int k = 0; k < 2; ++k) {
          OpQuery q;
          q.op = "id";
          q.in = {ops[k]};
          q.names = {laneName(*ax[(size_t)k + 1], i, true)};
          Itv v = step("ifma-operand", ax[(size_t)k + 1]->loc, nameOf(*ax[(size_t)k + 1]) + " (multiplicand of " + n + ")", n, q,
                       ops[k], true, 0, ((u128)1 << 52) - 1, ln);
          // The instruction reads bits 51:0 only.
          ops[k] = v.hi < ((u128)1 << 52) ? v : Itv{0, ((u128)1 << 52) - 1};
        }
        u128 pmax = ops[0].hi * ops[1].hi, pmin = ops[0].lo * ops[1].lo;
        Itv part = lo ? Itv{pmax < ((u128)1 << 52) ? pmin : 0, std::min(pmax, ((u128)1 << 52) - 1)}
                      : Itv{pmin >> 52, pmax >> 52};
        OpQuery q;
        q.op = lo ? "madd52lo" : "madd52hi";
        q.in = {acc, ops[0], ops[1]};
        q.names = {laneName(*ax[0], i, true), laneName(*ax[1], i, true), laneName(*ax[2], i, true)};
        Itv sum{acc.lo + part.lo, acc.hi + part.hi};
        set(i, step("add-no-wrap", e.loc, what + " (accumulate)", n, q, sum, true, 0, M64, ln));
      }
      return r;
    }
    if (rn == "_mm512_add_epi64" || rn == "_mm256_add_epi64" || rn == "_mm_add_epi64" ||
        rn == "_mm512_sub_epi64") {
      bool sub = rn == "_mm512_sub_epi64";
      for (size_t i = 0; i < lanes; ++i) {
        Itv a = lane(args[0], i), b = lane(args[1], i);
        OpQuery q;
        q.op = sub ? "sub" : "add";
        q.in = {a, b};
        q.names = {laneName(*ax[0], i, true), laneName(*ax[1], i, true)};
        std::string ln = "lane " + std::to_string(i);
        if (sub) {
          Itv v = a.lo >= b.hi ? Itv{a.lo - b.hi, a.hi - b.lo} : Itv{0, a.hi};
          if (a.lo >= b.hi) set(i, step("sub-no-borrow", e.loc, what, n, q, v, true, 0, M64, ln));
          else {
            Obligation &o = obligation("sub-no-borrow", e.loc, what, n);
            o.hasLimit = true;
            if (collect) record(o, P.checkRange(q, 0, M64), 0, ln);
            set(i, Itv{0, M64});
          }
        } else {
          set(i, step("add-no-wrap", e.loc, what, n, q, Itv{a.lo + b.lo, a.hi + b.hi}, true, 0, M64, ln));
        }
      }
      if (!sub && r.k == AVal::Vec) {
        r.terms.assign(lanes, {0, -1});
        for (size_t i = 0; i < lanes; ++i) {
          auto ta = termAt(args[0], i), tb = termAt(args[1], i);
          if (ta.second >= 0 && ta.second == tb.second) r.terms[i] = {ta.first + tb.first, ta.second};
        }
      }
      return r;
    }
    if (rn == "_mm512_slli_epi64" || rn == "_mm512_srli_epi64") {
      unsigned k = (unsigned)(args[1].lanes[0].lo & 0xffffffffu);
      bool left = rn == "_mm512_slli_epi64";
      for (size_t i = 0; i < lanes; ++i) {
        Itv a = lane(args[0], i);
        std::string ln = "lane " + std::to_string(i);
        if (k > 63) {
          set(i, Itv{0, 0});
          continue;
        }
        OpQuery q;
        q.op = left ? "shl" : "shr";
        q.k = k;
        q.in = {a};
        q.names = {laneName(*ax[0], i, true)};
        if (left) set(i, step("shl-no-drop", e.loc, what, n, q, Itv{a.lo << k, a.hi << k}, true, 0, M64, ln));
        else set(i, step("bound", e.loc, what, n, q, Itv{a.lo >> k, a.hi >> k}, false, 0, 0, ln));
      }
      if (left && args[0].k == AVal::Vec) {
        r.terms.assign(lanes, {0, -1});
        for (size_t i = 0; i < lanes; ++i) {
          auto t = termAt(args[0], i);
          if (t.second >= 0 && t.first < ((u128)1 << 64)) r.terms[i] = {t.first << k, t.second};
        }
      }
      return r;
    }
    if (rn == "_mm512_mul_epu32") {
      for (size_t i = 0; i < lanes; ++i) {
        std::string ln = "lane " + std::to_string(i);
        Itv ops[2] = {lane(args[0], i), lane(args[1], i)};
        for (int k = 0; k < 2; ++k) {
          OpQuery q;
          q.op = "id";
          q.in = {ops[k]};
          q.names = {laneName(*ax[(size_t)k], i, true)};
          Itv v = step("mul32-operand", ax[(size_t)k]->loc, nameOf(*ax[(size_t)k]) + " (multiplicand of " + n + ")", n, q,
                       ops[k], true, 0, maxOf(32), ln);
          ops[k] = v.hi <= maxOf(32) ? v : Itv{0, maxOf(32)};
        }
        OpQuery q;
        q.op = "mul";
        q.in = {ops[0], ops[1]};
        q.names = {laneName(*ax[0], i, true), laneName(*ax[1], i, true)};
        set(i, step("bound", e.loc, what, n, q, Itv{ops[0].lo * ops[1].lo, ops[0].hi * ops[1].hi}, false, 0, 0, ln));
      }
      return r;
    }
    if (rn == "_mm512_and_si512" || rn == "_mm512_and_epi64" || rn == "_mm512_or_si512" ||
        rn == "_mm512_or_epi64" || rn == "_mm512_xor_si512" || rn == "_mm512_xor_epi64" ||
        rn == "_mm512_andnot_si512" || rn == "_mm512_ternarylogic_epi64") {
      bool allExact = true;
      for (auto &a : args) allExact = allExact && a.exact();
      if (allExact) {
        std::vector<Bits> A;
        for (auto &a : args) A.push_back(bitsOf(a));
        return fromBits(in.model(A), in.resultBits);
      }
      if (rn == "_mm512_ternarylogic_epi64") return r;  // not used on bounded limbs: full range
      std::string op = n.find("andnot") != std::string::npos ? "andnot"
                       : n.find("and") != std::string::npos  ? "and"
                       : n.find("xor") != std::string::npos  ? "xor"
                                                             : "or";
      for (size_t i = 0; i < lanes; ++i) {
        Itv a = lane(args[0], i), b = lane(args[1], i);
        Itv v;
        if (op == "and") v = Itv{0, std::min(a.hi, b.hi)};
        else if (op == "andnot") v = Itv{0, b.hi};
        else if (op == "or") {
          u128 cap = maxOf(bitlen(std::max(a.hi, b.hi)));
          u128 s = a.hi + b.hi > M64 ? M64 : a.hi + b.hi;
          v = Itv{std::max(a.lo, b.lo), std::min(cap, s)};
        } else {
          v = Itv{0, maxOf(bitlen(std::max(a.hi, b.hi)))};
        }
        if (a.exact() && b.exact()) {
          u128 x = op == "and" ? (a.lo & b.lo) : op == "andnot" ? ((~a.lo & M64) & b.lo)
                   : op == "or" ? (a.lo | b.lo) : (a.lo ^ b.lo);
          set(i, Itv{x, x});
          continue;
        }
        OpQuery q;
        q.op = op;
        q.width = 64;
        q.in = {a, b};
        q.names = {laneName(*ax[0], i, true), laneName(*ax[1], i, true)};
        set(i, step("bound", e.loc, what, n, q, v, false, 0, 0, "lane " + std::to_string(i)));
      }
      return r;
    }
    if (rn == "_mm512_reduce_add_epi64") {
      OpQuery q;
      q.op = "add";
      u128 lo = 0, hi = 0;
      for (size_t i = 0; i < args[0].lanes.size(); ++i) {
        q.in.push_back(args[0].lanes[i]);
        q.names.push_back(laneName(*ax[0], i, true));
        lo += args[0].lanes[i].lo;
        hi += args[0].lanes[i].hi;
      }
      Itv v = step("hsum-fits", e.loc, what, n, q, Itv{lo, hi}, true, 0, M64, "");
      return intV(e.ty.bits ? e.ty.bits : 64, v.lo, std::min(v.hi, maxOf(e.ty.bits ? e.ty.bits : 64)),
                  e.ty.isSigned);
    }
    error(e.loc, "intrinsic '" + n + "' has no bound rule");
    return r;
  }
};

std::set<std::string> finalReductionHelpers(const File &f) {
  std::set<std::string> out;
  // The IFMA dialect names every helper's role in its contract: no marker or name fallback.
  const bool byContractOnly = isIfmaDialect(f);
  for (const auto &fn : f.funcs) {
    if (fn.isExported) continue;
    bool marked = contractOf(fn).role == "poly1305.final";
    if (byContractOnly) {
      if (marked) out.insert(fn.name);
      continue;
    }
    for (const auto &m : fn.markers)
      if (m.find("chapoly-final-reduction") != std::string::npos) marked = true;
    // Without a marker: a helper named *final* that takes the tag pointer and h0.. limbs.
    bool named = fn.name.find("final") != std::string::npos;
    int limbs = 0, ptrs = 0;
    for (int p : fn.params) {
      const Var &v = f.vars[(size_t)p];
      if (v.ty.kind == Type::Int && v.ty.bits == 64 && !v.name.empty() && v.name[0] == 'h') ++limbs;
      if (v.ty.kind == Type::Ptr) ++ptrs;
    }
    if (marked || (named && limbs >= 3 && ptrs >= 1 && fn.ret.kind == Type::Void)) out.insert(fn.name);
  }
  return out;
}

KernelResult proveBounds(const File &f, const Function &kernel, Prover &prover, const BoundsOptions &opt) {
  BoundsInterp bi(f, prover, opt);
  return bi.run(kernel);
}

}  // namespace cv
