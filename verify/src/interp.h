// interp.h: the statement interpreter every value-domain evaluator shares.
//
// Four of the verifier's evaluators walk the same emitted dialect the same way and differ only
// in what a value is: bounds.cpp (intervals, one state per path, joined where paths meet: the
// limb bounds), symbolic.cpp (Z3 bit-vectors: the ChaCha20 rounds, the final reduction),
// poly.cpp (integer polynomials with interval bounds: the IFMA block steps and helpers) and
// scalar64.cpp (integer polynomials with an upper bound and ghost tags: the mul64 contracts).
// This header is the part they had each written out: the call stack (one variable slot per
// variable per inlined call site, reference parameters bound to the caller's slot), argument
// binding, and the statements of a function body executed with control flow decided by
// constants. A domain supplies its values and these hooks (CRTP, no virtual calls):
//
//   Val   eval(const Expr &)                      an expression's value
//   Val   convert(const Val &, const Type &, SrcLoc)   a value converted to a C type
//   Val  &slot(int var)                           the variable's slot, made on first use
//   int   decide(const Val &, SrcLoc)             a condition's constant truth (0/1), or fail
//   void  declare(const Stmt &decl)               a declaration (initialiser or fresh value)
//   void  fail(SrcLoc, const std::string &)       an error: [[noreturn]], or recorded (the walk
//                                                 then goes on past the construct)
//
// and may override, by declaring a member of the same name: `execIf` and `execLoop` (a domain
// that joins both branches of a condition it cannot decide, or proves a loop by its invariant:
// bounds.cpp, scalar64.cpp), `execReturn` and `execJump` (a domain that keeps one state per
// path: a return or break parks the path's state), `halted` (the current path has ended),
// `bindParam` (where a value parameter's argument is stored), `onStatement` (where the walk is,
// for reports), and `loopLimit` (constant trip counts only: how many iterations before giving
// up). `allowsBreak` says whether break/continue are in the domain's dialect (the ChaCha20
// helpers' loops: symbolic.cpp) or a failure. `FrameExt` is what a domain keeps per inlined call
// beside the frame (bounds.cpp: the states of its returns).
//
// The path-sensitive walkers (kernelbytes.cpp, rvv.cpp) carry path conditions through both
// branches of every condition and keep their own statement walk.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ir.h"

namespace cv {

/// What a domain keeps per frame by default: nothing.
struct NoFrameExt {};

template <class Derived, class Val, class FrameExt = NoFrameExt>
struct Interp {
  /// One inlined call: its context id (1 for the function being proved, 0 for globals, one per
  /// call site from 2), its reference parameters' caller slots, and what it returned.
  struct Frame {
    int ctx;
    const Function *fn;
    std::map<int, std::pair<int, int>> refs;  // reference parameter -> caller slot
    bool returned = false;
    Val ret;
    FrameExt ext{};
  };
  std::vector<Frame> frames;
  std::map<std::pair<int, int>, Val> slots;  // (context, variable) -> value
  std::map<std::pair<int, const void *>, int> ctxIds;
  int nextCtx = 2;
  bool brk = false, cont = false;  // a break/continue unwinding to its loop (allowsBreak)

  static constexpr bool allowsBreak = false;
  int loopLimit() const { return 4096; }
  void onStatement(const Stmt &) {}

  Derived &self() { return static_cast<Derived &>(*this); }
  const Derived &self() const { return static_cast<const Derived &>(*this); }

  /// The slot of variable `var` as seen from the innermost frame.
  std::pair<int, int> key(int var) const {
    const Var &v = self().F.vars[(size_t)var];
    if (v.isGlobal) return {0, var};
    const Frame &fr = frames.back();
    auto it = fr.refs.find(var);
    if (it != fr.refs.end()) return it->second;
    return {fr.ctx, var};
  }

  /// Fails on a call of a function already on the stack (recursion is outside the dialect);
  /// false where it failed and the domain's fail returned.
  bool checkNotRecursive(const Expr &e, const Function &fn) {
    for (const auto &f : frames)
      if (f.fn == &fn) {
        self().fail(e.loc, "recursive call of '" + fn.name + "' is outside the emitted dialect");
        return false;
      }
    return true;
  }

  /// Stores value parameter `pv`'s argument in its slot of context `ctx`.
  void bindParam(int ctx, int pv, Val v) {
    slots.erase({ctx, pv});
    slots.emplace(std::make_pair(ctx, pv), std::move(v));
  }

  /// The frame of call `e` of `fn`: its context (the same one each time this call site runs in
  /// the same caller context), references bound to the caller's slots (an argument must be a
  /// variable), value parameters evaluated in the caller and stored in the callee's slots.
  Frame bindCall(const Expr &e, const Function &fn) {
    const auto ck = std::make_pair(frames.back().ctx, (const void *)&e);
    auto it = ctxIds.find(ck);
    const int ctx = it == ctxIds.end() ? (ctxIds[ck] = nextCtx++) : it->second;
    Frame fr{ctx, &fn, {}, false, Val{}};
    std::vector<std::pair<int, Val>> vals;
    const File &F = self().F;
    for (size_t i = 0; i < fn.params.size() && i < e.args.size(); ++i) {
      const int pv = fn.params[i];
      const Var &v = F.vars[(size_t)pv];
      if (v.isRef) {
        const Expr *a = e.args[i].get();
        while (a->kind == Expr::Cast) a = a->args[0].get();
        if (a->kind != Expr::Var) {
          self().fail(a->loc, "reference argument must be a variable");
          continue;
        }
        fr.refs[pv] = key(a->var);
        self().slot(a->var);
      } else {
        vals.push_back({pv, self().convert(self().eval(*e.args[i]), v.ty, e.loc)});
      }
    }
    for (auto &[pv, val] : vals) self().bindParam(ctx, pv, std::move(val));
    return fr;
  }

  /// Runs `fn`'s body in frame `fr` and returns the frame as the body left it (its `ret`: what
  /// it returned).
  Frame runFrame(Frame fr) {
    frames.push_back(std::move(fr));
    exec(*frames.back().fn->body);
    Frame done = std::move(frames.back());
    frames.pop_back();
    return done;
  }

  /// A call inlined: recursion refused, arguments bound, the body run.
  Val inlineCall(const Expr &e, const Function &fn) {
    if (!checkNotRecursive(e, fn)) return Val{};
    return runFrame(bindCall(e, fn)).ret;
  }

  /// The current path has ended (returned, or unwinding to its loop).
  bool halted() const { return frames.back().returned || brk || cont; }

  void exec(const Stmt &s) {
    if (self().halted()) return;
    self().onStatement(s);
    switch (s.kind) {
      case Stmt::Null: return;
      case Stmt::Block:
        for (const auto &x : s.body) exec(*x);
        return;
      case Stmt::Decl: self().declare(s); return;
      case Stmt::ExprS:
        if (s.e) self().eval(*s.e);
        return;
      case Stmt::If: self().execIf(s); return;
      case Stmt::While:
      case Stmt::For:
      case Stmt::DoWhile: self().execLoop(s); return;
      case Stmt::Return: self().execReturn(s); return;
      case Stmt::Break:
      case Stmt::Continue: self().execJump(s); return;
    }
  }

  /// A return: its value converted to the function's type, the frame done.
  void execReturn(const Stmt &s) {
    // Evaluate first: the value may call a helper, which pushes onto `frames` (a reference into
    // it taken before the call would dangle once the vector grows).
    if (s.e) {
      Val v = self().convert(self().eval(*s.e), frames.back().fn->ret, s.loc);
      frames.back().ret = std::move(v);
    }
    frames.back().returned = true;
  }

  /// A break or continue: unwinds to its loop (allowsBreak), else a failure.
  void execJump(const Stmt &s) {
    if (!Derived::allowsBreak) {
      self().fail(s.loc, "break/continue outside a loop this evaluator unrolls");
      return;
    }
    (s.kind == Stmt::Break ? brk : cont) = true;
  }

  /// A condition decided by a constant: the branch it picks.
  void execIf(const Stmt &s) {
    const int d = self().decide(self().eval(*s.e), s.loc);
    if (d) exec(*s.then);
    else if (s.els) exec(*s.els);
  }

  /// A loop whose every condition is decided by a constant, run iteration by iteration.
  void execLoop(const Stmt &s) {
    if (s.kind == Stmt::For && s.init) exec(*s.init);
    bool firstIt = true;
    for (int n = 0; n < self().loopLimit(); ++n) {
      if (!(s.kind == Stmt::DoWhile && firstIt) && s.e && !self().decide(self().eval(*s.e), s.loc)) return;
      firstIt = false;
      exec(*s.then);
      if (brk) {
        brk = false;
        return;
      }
      cont = false;
      if (frames.back().returned) return;
      if (s.kind == Stmt::For && s.inc) self().eval(*s.inc);
    }
    self().fail(s.loc, "loop does not end within " + std::to_string(self().loopLimit()) + " iterations");
  }

};

}  // namespace cv
