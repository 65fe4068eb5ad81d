// frontend.cpp: Clang libTooling -> cv::File (ir.h).
//
// The only translation unit that includes Clang headers (keeps the build to one heavy TU).
// It parses an emitted kernel with its ISA flags and language standard and lowers every function defined
// in the main file. Intrinsics that Clang implements as macros over __builtin_ia32_* are
// recognised by the outermost `_mm*` macro name written in the emitted file; the builtin they
// expand to is recorded so the semantics table can check it. Anything outside the dialect is a
// front-end error (exit status 2), never silently skipped.
#include "ir.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Basic/Version.h>
#include <clang/Driver/Options.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Option/ArgList.h>
#include <llvm/Option/OptTable.h>

#include <fstream>
#include <cstdio>
#include <optional>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

namespace cv {

namespace {

using namespace clang;

struct Lowerer {
  ASTContext &ctx;
  SourceManager &sm;
  const LangOptions &lo;
  File &file;
  std::vector<FrontendError> &errs;
  std::unordered_map<const VarDecl *, int> varIds;
  std::unordered_map<const FunctionDecl *, int> fnIds;

  Lowerer(ASTContext &c, File &f, std::vector<FrontendError> &e)
      : ctx(c), sm(c.getSourceManager()), lo(c.getLangOpts()), file(f), errs(e) {}

  SrcLoc loc(SourceLocation l) {
    SrcLoc r;
    if (l.isInvalid()) return r;
    SourceLocation x = sm.getExpansionLoc(l);
    r.line = sm.getExpansionLineNumber(x);
    r.col = sm.getExpansionColumnNumber(x);
    return r;
  }

  void error(SourceLocation l, const std::string &m) { errs.push_back({file.path, loc(l), m}); }

  std::string text(SourceRange r) {
    CharSourceRange cr = sm.getExpansionRange(r);
    std::string s = Lexer::getSourceText(cr, sm, lo).str();
    std::string o;
    bool sp = false;
    for (char ch : s) {
      if (ch == '\n' || ch == '\t' || ch == ' ') {
        if (!sp && !o.empty()) o += ' ';
        sp = true;
      } else {
        o += ch;
        sp = false;
      }
    }
    if (o.size() > 80) o = o.substr(0, 77) + "...";
    return o;
  }

  // Whether an explicit cast removes a const qualifier from what a pointer or reference refers
  // to (const_cast, or a C-style cast to a pointer to non-const): a write through it could change
  // a const table the interpreters read as its initialiser.
  bool castDropsConst(const ExplicitCastExpr *c) {
    QualType to = c->getType(), from = c->getSubExpr()->getType();
    if (isa<CXXConstCastExpr>(c)) return true;
    if (c->getValueKind() != VK_PRValue || to->isReferenceType()) {
      // A cast to a reference (lvalue result): compare the referred-to objects.
      return from.isConstQualified() && !to.getNonReferenceType().isConstQualified();
    }
    if (!to->isPointerType() || !from->isPointerType()) return false;
    return from->getPointeeType().isConstQualified() && !to->getPointeeType().isConstQualified();
  }

  Type lowerType(QualType qt, SourceLocation where) {
    Type t;
    t.spelling = qt.getUnqualifiedType().getAsString();
    QualType c = qt.getCanonicalType();
    if (const auto *rt = c->getAs<LValueReferenceType>()) c = rt->getPointeeType().getCanonicalType();
    if (c->isVoidType()) {
      t.kind = Type::Void;
    } else if (c->isBooleanType()) {
      t.kind = Type::Bool;
      t.bits = 1;
    } else if (c->isIntegerType()) {
      t.kind = Type::Int;
      t.bits = (unsigned)ctx.getTypeSize(c);
      t.isSigned = c->isSignedIntegerType();
    } else if (c->isRVVType()) {
      // A scalable RVV vector: its width is VLEN * LMUL, unknown here (bits stay 0).
      const auto *bt = c->getAs<BuiltinType>();
      ASTContext::BuiltinVectorTypeInfo info = ctx.getBuiltinVectorTypeInfo(bt);
      t.kind = Type::Vec;
      t.scalable = true;
      t.laneBits = (unsigned)ctx.getTypeSize(info.ElementType);
      t.isSigned = info.ElementType->isSignedIntegerType();
      // Known minimum elements at vscale = 1 (VLEN 64): LMUL = that * element width / 64.
      t.lmul = (unsigned)(info.EC.getKnownMinValue() * t.laneBits / 64);
      if (info.NumVectors != 1 || !info.ElementType->isIntegerType() || t.lmul == 0)
        error(where, "RVV type '" + t.spelling + "' is outside the emitted dialect (integer, LMUL >= 1, no tuples)");
    } else if (c->isVectorType()) {
      t.kind = Type::Vec;
      t.bits = (unsigned)ctx.getTypeSize(c);
    } else if (c->isPointerType()) {
      t.kind = Type::Ptr;
      QualType pt = c->getPointeeType().getCanonicalType();
      t.pointeeConst = pt.isConstQualified();
      if (pt->isVoidType()) {
        t.bits = 8;
      } else {
        t.bits = (unsigned)ctx.getTypeSize(pt);
        t.elemIsVec = pt->isVectorType();
        t.isSigned = pt->isSignedIntegerType();
      }
    } else if (const auto *at = ctx.getAsConstantArrayType(c)) {
      t.kind = Type::Array;
      QualType et = at->getElementType().getCanonicalType();
      t.bits = (unsigned)ctx.getTypeSize(et);
      t.elemIsVec = et->isVectorType();
      t.isSigned = et->isSignedIntegerType();
      t.count = at->getSize().getZExtValue();
    } else {
      error(where, "type '" + t.spelling + "' is outside the emitted dialect");
    }
    return t;
  }

  int varId(const VarDecl *vd) {
    auto it = varIds.find(vd);
    if (it != varIds.end()) return it->second;
    Var v;
    v.name = vd->getNameAsString();
    v.ty = lowerType(vd->getType(), vd->getLocation());
    v.isParam = isa<ParmVarDecl>(vd);
    if (const auto *pd = dyn_cast<ParmVarDecl>(vd))
      if (const auto *at = dyn_cast<ConstantArrayType>(pd->getOriginalType().getCanonicalType().getTypePtr()))
        v.paramCount = at->getSize().getZExtValue();
    v.isRef = vd->getType()->isLValueReferenceType();
    v.isGlobal = vd->hasGlobalStorage();
    v.isConst = vd->getType().isConstQualified();
    // Closed world: a kernel's result depends on its arguments alone. A variable with static or
    // thread storage (namespace scope, `static` local, `thread_local`) that is not const could
    // carry a value from one call into the next (a counter bumped per call, a cached key), which
    // no interpreter models (they read a global as its initialiser), so it is outside the dialect.
    if (v.isGlobal && !ctx.getBaseElementType(vd->getType()).isConstQualified())
      error(vd->getLocation(), "mutable variable '" + v.name +
                                   "' with static storage is outside the emitted dialect (a value kept "
                                   "between calls is not proved: make it const or a local)");
    v.loc = loc(vd->getLocation());
    int id = (int)file.vars.size();
    file.vars.push_back(v);
    varIds[vd] = id;
    if (v.isGlobal && vd->hasInit()) file.vars[id].init = lowerExpr(vd->getInit());
    return id;
  }

  ExprP mk(Expr::Kind k, const clang::Expr *e) {
    auto r = std::make_shared<cv::Expr>();
    r->kind = k;
    r->loc = loc(e->getBeginLoc());
    r->ty = lowerType(e->getType(), e->getBeginLoc());
    r->text = text(e->getSourceRange());
    return r;
  }

  // The outermost `_mm*`-style macro whose expansion produced location `l` (see DESIGN: macro
  // intrinsics are recognised by the name written in the emitted file).
  std::string intrinsicMacroName(SourceLocation l) {
    std::string name;
    int guard = 0;
    while (l.isMacroID() && guard++ < 64) {
      if (sm.isMacroArgExpansion(l)) {
        l = sm.getImmediateSpellingLoc(l);
        continue;
      }
      name = Lexer::getImmediateMacroName(l, sm, lo).str();
      l = sm.getImmediateExpansionRange(l).getBegin();
    }
    return name;
  }

  static bool looksIntrinsic(const std::string &n) {
    return n.rfind("_mm", 0) == 0 || n.rfind("__riscv_", 0) == 0 || n.rfind("_k", 0) == 0 || n.rfind("_cvt", 0) == 0 ||
           n.rfind("_load_mask", 0) == 0 || n.rfind("_store_mask", 0) == 0;
  }

  // Casts and parentheses that Clang's intrinsic macro bodies wrap around arguments.
  const clang::Expr *peelMacroBody(const clang::Expr *e) {
    for (;;) {
      SourceLocation b = e->getBeginLoc();
      bool inBody = b.isMacroID() && !sm.isMacroArgExpansion(b);
      if (const auto *p = dyn_cast<ParenExpr>(e)) {
        if (!inBody) return e;
        e = p->getSubExpr();
      } else if (const auto *c = dyn_cast<CStyleCastExpr>(e)) {
        if (!inBody) return e;
        e = c->getSubExpr();
      } else if (const auto *ic = dyn_cast<ImplicitCastExpr>(e)) {
        e = ic->getSubExpr();
      } else {
        return e;
      }
    }
  }

  // (RVV intrinsics are builtins that Clang declares lazily at their first use, located in the
  // main file: a builtin is never the file's own function.)
  bool isUserFunction(const FunctionDecl *fd) {
    return fd && !fd->getBuiltinID() && sm.isInMainFile(sm.getExpansionLoc(fd->getLocation()));
  }

  // Deepest expression nesting the dialect allows. Clang's constant folder and this verifier's
  // tree walkers recurse once per level; an emitted expression is a few dozen levels deep, so a
  // deeper one is rejected here (with its location) before anything recurses into it.
  static constexpr unsigned kMaxExprDepth = 1000;
  unsigned lowerDepth = 0;

  // Depth of the expression tree under `e`, walked iteratively (never recursion over `e`);
  // stops counting at `cap`.
  static unsigned exprDepth(const clang::Stmt *e, unsigned cap) {
    unsigned best = 0;
    std::vector<std::pair<const clang::Stmt *, unsigned>> todo{{e, 1}};
    while (!todo.empty()) {
      auto [s, d] = todo.back();
      todo.pop_back();
      if (!s) continue;
      if (d > best) best = d;
      if (best > cap) return best;
      for (const clang::Stmt *c : s->children()) todo.push_back({c, d + 1});
    }
    return best;
  }

  ExprP lowerExpr(const clang::Expr *e, bool rvalue = true) {
    if (!e) return nullptr;
    if (lowerDepth == 0 && exprDepth(e, kMaxExprDepth) > kMaxExprDepth) {
      error(e->getBeginLoc(), "expression nested deeper than " + std::to_string(kMaxExprDepth) +
                                  " levels is outside the emitted dialect");
      auto r = std::make_shared<cv::Expr>();
      r->kind = Expr::Const;
      r->loc = loc(e->getBeginLoc());
      r->ty.kind = Type::Int;
      r->ty.bits = 64;
      return r;
    }
    struct DepthGuard {
      unsigned &d;
      explicit DepthGuard(unsigned &x) : d(x) { ++d; }
      ~DepthGuard() { --d; }
    } depthGuard(lowerDepth);
    // Integer constant expressions (literals, enumerators, _MM_SHUFFLE, sizeof, const locals
    // with constant initialisers) are folded by Clang.
    if (rvalue && !e->isValueDependent() && e->getType()->isIntegralOrEnumerationType()) {
      clang::Expr::EvalResult res;
      if (!e->HasSideEffects(ctx) && e->EvaluateAsInt(res, ctx)) {
        auto r = mk(Expr::Const, e);
        llvm::APSInt v = res.Val.getInt();
        unsigned bits = r->ty.kind == Type::Bool ? 1 : r->ty.bits;
        llvm::APInt a = v.extOrTrunc(bits ? bits : 64);
        u128 val = 0;
        for (unsigned i = 0; i < a.getBitWidth() && i < 128; ++i)
          if (a[i]) val |= (u128)1 << i;
        r->value = val;
        return r;
      }
    }
    // Macro intrinsic: the outermost node of the expansion of an `_mm*` macro.
    SourceLocation b = e->getBeginLoc();
    if (b.isMacroID() && !sm.isMacroArgExpansion(b)) {
      std::string mname = intrinsicMacroName(b);
      if (looksIntrinsic(mname)) {
        const clang::Expr *core = peelMacroBody(e);
        const auto *call = dyn_cast<CallExpr>(core);
        if (!call) {
          error(b, "intrinsic macro '" + mname + "' does not expand to a call");
          return mk(Expr::Const, e);
        }
        auto r = mk(Expr::Intrin, e);
        r->name = mname;
        if (const FunctionDecl *fd = call->getDirectCallee())
          r->builtin = fd->getNameAsString();
        for (const clang::Expr *a : call->arguments()) r->args.push_back(lowerExpr(peelMacroBody(a)));
        return r;
      }
    }
    if (const auto *p = dyn_cast<ParenExpr>(e)) return lowerExpr(p->getSubExpr(), rvalue);
    if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(e)) return lowerExpr(m->getSubExpr(), rvalue);
    if (const auto *c = dyn_cast<ExprWithCleanups>(e)) return lowerExpr(c->getSubExpr(), rvalue);
    if (const auto *c = dyn_cast<ConstantExpr>(e)) return lowerExpr(c->getSubExpr(), rvalue);
    if (const auto *ic = dyn_cast<ImplicitCastExpr>(e)) {
      switch (ic->getCastKind()) {
        case CK_LValueToRValue:
        case CK_NoOp:
        case CK_ArrayToPointerDecay:
        case CK_FunctionToPointerDecay:
          return lowerExpr(ic->getSubExpr(), rvalue);
        default:
          break;
      }
      auto r = mk(Expr::Cast, e);
      r->args.push_back(lowerExpr(ic->getSubExpr()));
      return r;
    }
    if (const auto *c = dyn_cast<ExplicitCastExpr>(e)) {
      if (castDropsConst(c)) {
        error(e->getBeginLoc(), "cast drops const ('" + c->getSubExpr()->getType().getAsString() + "' to '" +
                                    c->getType().getAsString() +
                                    "'): writing through it is outside the emitted dialect");
        return mk(Expr::Const, e);
      }
      if (c->getCastKind() == CK_NoOp || c->getCastKind() == CK_LValueToRValue)
        return lowerExpr(c->getSubExpr(), rvalue);
      auto r = mk(Expr::Cast, e);
      r->args.push_back(lowerExpr(c->getSubExpr()));
      return r;
    }
    if (const auto *il = dyn_cast<IntegerLiteral>(e)) {
      auto r = mk(Expr::Const, e);
      llvm::APInt a = il->getValue();
      u128 val = 0;
      for (unsigned i = 0; i < a.getBitWidth() && i < 128; ++i)
        if (a[i]) val |= (u128)1 << i;
      r->value = val;
      return r;
    }
    if (const auto *bl = dyn_cast<CXXBoolLiteralExpr>(e)) {
      auto r = mk(Expr::Const, e);
      r->value = bl->getValue() ? 1 : 0;
      return r;
    }
    if (const auto *dr = dyn_cast<DeclRefExpr>(e)) {
      if (const auto *vd = dyn_cast<VarDecl>(dr->getDecl())) {
        auto r = mk(Expr::Var, e);
        r->var = varId(vd);
        r->name = vd->getNameAsString();
        return r;
      }
      error(e->getBeginLoc(), "reference to '" + dr->getDecl()->getNameAsString() +
                                  "' is outside the emitted dialect");
      return mk(Expr::Const, e);
    }
    if (const auto *bo = dyn_cast<BinaryOperator>(e)) {
      // Vector arithmetic is written with intrinsics (each with its table entry): an operator on
      // a vector type (GCC's vector extension: `xd ^= xa`, `a + b` on __m512i) would be lane
      // work no intrinsic-based check sees (found by the stop-29 review). A plain `=` copies.
      if ((bo->getLHS()->getType()->isVectorType() || bo->getRHS()->getType()->isVectorType()) &&
          bo->getOpcode() != BO_Assign)
        error(e->getBeginLoc(), "operator '" + bo->getOpcodeStr().str() +
                                    "' on a vector type is outside the emitted dialect (write the intrinsic)");
      if (bo->isAssignmentOp()) {
        auto r = mk(Expr::Assign, e);
        std::string op = bo->getOpcodeStr().str();
        r->name = op == "=" ? "" : op.substr(0, op.size() - 1);
        r->args.push_back(lowerExpr(bo->getLHS(), false));
        r->args.push_back(lowerExpr(bo->getRHS()));
        return r;
      }
      if (bo->getOpcode() == BO_Comma) {
        error(e->getBeginLoc(), "comma operator is outside the emitted dialect");
        return mk(Expr::Const, e);
      }
      auto r = mk(Expr::Bin, e);
      r->name = bo->getOpcodeStr().str();
      r->args.push_back(lowerExpr(bo->getLHS()));
      r->args.push_back(lowerExpr(bo->getRHS()));
      return r;
    }
    if (const auto *uo = dyn_cast<UnaryOperator>(e)) {
      if (uo->getSubExpr()->getType()->isVectorType())
        error(e->getBeginLoc(), "operator '" + UnaryOperator::getOpcodeStr(uo->getOpcode()).str() +
                                    "' on a vector type is outside the emitted dialect (write the intrinsic)");
      switch (uo->getOpcode()) {
        case UO_Minus:
        case UO_Not:
        case UO_LNot: {
          auto r = mk(Expr::Un, e);
          r->name = uo->getOpcode() == UO_Minus ? "-" : uo->getOpcode() == UO_Not ? "~" : "!";
          r->args.push_back(lowerExpr(uo->getSubExpr()));
          return r;
        }
        case UO_Plus:
          return lowerExpr(uo->getSubExpr(), rvalue);
        case UO_Deref: {
          auto r = mk(Expr::Deref, e);
          r->args.push_back(lowerExpr(uo->getSubExpr()));
          return r;
        }
        case UO_AddrOf: {
          auto r = mk(Expr::AddrOf, e);
          r->args.push_back(lowerExpr(uo->getSubExpr(), false));
          return r;
        }
        case UO_PreInc:
        case UO_PreDec:
        case UO_PostInc:
        case UO_PostDec: {
          auto r = mk(Expr::IncDec, e);
          r->name = uo->getOpcode() == UO_PreInc    ? "++pre"
                    : uo->getOpcode() == UO_PreDec  ? "--pre"
                    : uo->getOpcode() == UO_PostInc ? "post++"
                                                    : "post--";
          r->args.push_back(lowerExpr(uo->getSubExpr(), false));
          return r;
        }
        default:
          break;
      }
      error(e->getBeginLoc(), "unary operator is outside the emitted dialect");
      return mk(Expr::Const, e);
    }
    if (const auto *co = dyn_cast<ConditionalOperator>(e)) {
      auto r = mk(Expr::Cond, e);
      r->args.push_back(lowerExpr(co->getCond()));
      r->args.push_back(lowerExpr(co->getTrueExpr()));
      r->args.push_back(lowerExpr(co->getFalseExpr()));
      return r;
    }
    if (const auto *as = dyn_cast<ArraySubscriptExpr>(e)) {
      auto r = mk(Expr::Index, e);
      r->args.push_back(lowerExpr(as->getBase()));
      r->args.push_back(lowerExpr(as->getIdx()));
      return r;
    }
    if (const auto *il = dyn_cast<InitListExpr>(e)) {
      auto r = mk(Expr::InitList, e);
      for (const clang::Expr *a : il->inits()) r->args.push_back(lowerExpr(a));
      return r;
    }
    if (const auto *ce = dyn_cast<CallExpr>(e)) {
      const FunctionDecl *fd = ce->getDirectCallee();
      if (!fd) {
        error(e->getBeginLoc(), "indirect call is outside the emitted dialect");
        return mk(Expr::Const, e);
      }
      std::string n = fd->getNameAsString();
      if (isUserFunction(fd)) {
        auto r = mk(Expr::Call, e);
        r->name = n;
        auto it = fnIds.find(fd->getCanonicalDecl());
        r->fn = it == fnIds.end() ? -1 : it->second;
        if (r->fn < 0) error(e->getBeginLoc(), "call of '" + n + "', which has no body in this file");
        for (const clang::Expr *a : ce->arguments()) r->args.push_back(lowerExpr(a, false));
        // One variable bound to two non-const reference parameters of one call aliases them: each
        // helper's proof (a round loop's rows, a multiply's limbs) takes its references as
        // distinct variables (found by the stop-30 review: rounds2(xa, xb, xc, xd, xa, xb, xc,
        // xd) ran every round twice on one state and proved).
        std::map<int, unsigned> bound;
        for (unsigned k = 0; k < fd->getNumParams() && k < r->args.size(); ++k) {
          const clang::QualType t = fd->getParamDecl(k)->getType();
          if (!t->isLValueReferenceType() || t.getNonReferenceType().isConstQualified() || !r->args[k] || r->args[k]->kind != Expr::Var) continue;
          auto [it, fresh] = bound.emplace(r->args[k]->var, k);
          if (!fresh)
            error(ce->getArg(k)->getBeginLoc(), "variable '" + file.vars[(size_t)r->args[k]->var].name + "' is bound to two reference parameters of '" + n + "' (" +
                      fd->getParamDecl(it->second)->getNameAsString() + " and " + fd->getParamDecl(k)->getNameAsString() +
                      "): aliased references are outside the emitted dialect");
        }
        return r;
      }
      auto r = mk(Expr::Intrin, e);
      r->name = n;
      for (const clang::Expr *a : ce->arguments()) r->args.push_back(lowerExpr(a));
      return r;
    }
    error(e->getBeginLoc(),
          std::string("expression kind '") + e->getStmtClassName() + "' is outside the emitted dialect");
    return mk(Expr::Const, e);
  }

  // `// chapoly-invariant: NAME <= VALUE` lines in the comment block right above `line`.
  std::vector<Invariant> invariantsAbove(unsigned line) {
    std::vector<Invariant> out;
    for (int l = (int)line - 2; l >= 0; --l) {
      std::string s = file.lines[(size_t)l];
      size_t p = s.find_first_not_of(" \t\r");
      if (p == std::string::npos) continue;  // blank lines may separate the comment block
      if (s.compare(p, 2, "//") != 0) break;
      size_t k = s.find("chapoly-invariant:");
      if (k == std::string::npos) continue;
      std::string rest = s.substr(k + 18);
      for (char &ch : rest)
        if (ch == ',' || ch == ';') ch = '\n';
      std::istringstream items(rest);
      std::string item;
      while (std::getline(items, item)) {
        size_t le = item.find("<=");
        if (le == std::string::npos) continue;
        auto trim = [](std::string x) {
          size_t a = x.find_first_not_of(" \t"), z = x.find_last_not_of(" \t");
          return a == std::string::npos ? std::string() : x.substr(a, z - a + 1);
        };
        std::string name = trim(item.substr(0, le)), val = trim(item.substr(le + 2));
        Invariant inv;
        inv.var = name;
        inv.loc = {(unsigned)l + 1, (unsigned)p + 1};
        u128 v = 0;
        bool ok = !val.empty();
        size_t i = 0;
        int base = 10;
        if (val.size() > 2 && val[0] == '0' && (val[1] == 'x' || val[1] == 'X')) base = 16, i = 2;
        for (; i < val.size(); ++i) {
          char ch = val[i];
          if (ch == '\'' || ch == '_') continue;
          int d = (ch >= '0' && ch <= '9') ? ch - '0'
                  : (ch >= 'a' && ch <= 'f') ? ch - 'a' + 10
                  : (ch >= 'A' && ch <= 'F') ? ch - 'A' + 10
                                             : 99;
          if (d >= base) {
            // Trailing integer suffixes (ULL) end the number.
            if (ch == 'u' || ch == 'U' || ch == 'l' || ch == 'L') break;
            ok = false;
            break;
          }
          v = v * (u128)base + (u128)d;
        }
        if (!ok || name.empty()) {
          errs.push_back({file.path, inv.loc, "malformed chapoly-invariant '" + trim(item) + "'"});
          continue;
        }
        inv.bound = v;
        out.push_back(inv);
      }
    }
    std::reverse(out.begin(), out.end());
    return out;
  }

  // `// chapoly-contract: {json}` in the comment block right above `line` (above the invariants).
  std::pair<std::string, SrcLoc> contractAbove(unsigned line) {
    for (int l = (int)line - 2; l >= 0; --l) {
      const std::string &s = file.lines[(size_t)l];
      size_t p = s.find_first_not_of(" \t\r");
      if (p == std::string::npos) continue;
      if (s.compare(p, 2, "//") != 0) break;
      size_t k = s.find("chapoly-contract:");
      if (k == std::string::npos) continue;
      // One contract per declaration: a second line in the same comment block is an error.
      for (int m = l - 1; m >= 0; --m) {
        const std::string &t = file.lines[(size_t)m];
        size_t q = t.find_first_not_of(" \t\r");
        if (q == std::string::npos) continue;
        if (t.compare(q, 2, "//") != 0) break;
        size_t k2 = t.find("chapoly-contract:");
        if (k2 != std::string::npos)
          errs.push_back({file.path, SrcLoc{(unsigned)l + 1, (unsigned)k + 1},
                          "a second chapoly-contract line above one declaration (the other at line " +
                              std::to_string(m + 1) + "): one contract per helper or loop"});
      }
      return {s.substr(k + 17), SrcLoc{(unsigned)l + 1, (unsigned)k + 1}};
    }
    return {"", SrcLoc{}};
  }

  void loopContract(cv::Stmt &r) {
    auto [c, l] = contractAbove(r.loc.line);
    r.contract = c;
    r.contractLoc = l;
  }

  StmtP mkS(Stmt::Kind k, const clang::Stmt *s) {
    auto r = std::make_shared<cv::Stmt>();
    r->kind = k;
    r->loc = loc(s->getBeginLoc());
    return r;
  }

  void lowerStmtInto(const clang::Stmt *s, std::vector<StmtP> &out) {
    if (const auto *ds = dyn_cast<DeclStmt>(s)) {
      for (const Decl *d : ds->decls()) {
        const auto *vd = dyn_cast<VarDecl>(d);
        if (!vd) {
          error(d->getLocation(), "declaration kind is outside the emitted dialect");
          continue;
        }
        auto st = mkS(Stmt::Decl, s);
        st->loc = loc(vd->getLocation());
        st->var = varId(vd);
        if (vd->hasInit()) st->e = lowerExpr(vd->getInit());
        out.push_back(st);
      }
      return;
    }
    out.push_back(lowerStmt(s));
  }

  StmtP lowerStmt(const clang::Stmt *s) {
    if (!s) return nullptr;
    if (const auto *cs = dyn_cast<CompoundStmt>(s)) {
      auto r = mkS(Stmt::Block, s);
      for (const clang::Stmt *c : cs->body()) lowerStmtInto(c, r->body);
      return r;
    }
    if (isa<DeclStmt>(s)) {
      auto r = mkS(Stmt::Block, s);
      lowerStmtInto(s, r->body);
      r->noScope = true;
      return r;
    }
    if (const auto *is = dyn_cast<IfStmt>(s)) {
      if (is->getInit() || is->getConditionVariable())
        error(s->getBeginLoc(), "if with an init statement is outside the emitted dialect");
      auto r = mkS(Stmt::If, s);
      r->e = lowerExpr(is->getCond());
      r->then = lowerStmt(is->getThen());
      r->els = lowerStmt(is->getElse());
      return r;
    }
    if (const auto *ws = dyn_cast<WhileStmt>(s)) {
      auto r = mkS(Stmt::While, s);
      r->e = lowerExpr(ws->getCond());
      r->then = lowerStmt(ws->getBody());
      r->invariants = invariantsAbove(r->loc.line);
      loopContract(*r);
      return r;
    }
    if (const auto *fs = dyn_cast<ForStmt>(s)) {
      auto r = mkS(Stmt::For, s);
      if (fs->getInit()) {
        auto blk = std::make_shared<cv::Stmt>();
        blk->kind = Stmt::Block;
        blk->noScope = true;
        lowerStmtInto(fs->getInit(), blk->body);
        r->init = blk;
      }
      r->e = fs->getCond() ? lowerExpr(fs->getCond()) : nullptr;
      r->inc = fs->getInc() ? lowerExpr(fs->getInc()) : nullptr;
      r->then = lowerStmt(fs->getBody());
      r->invariants = invariantsAbove(r->loc.line);
      loopContract(*r);
      return r;
    }
    if (const auto *ds = dyn_cast<DoStmt>(s)) {
      auto r = mkS(Stmt::DoWhile, s);
      r->e = lowerExpr(ds->getCond());
      r->then = lowerStmt(ds->getBody());
      r->invariants = invariantsAbove(r->loc.line);
      loopContract(*r);
      return r;
    }
    if (const auto *rs = dyn_cast<ReturnStmt>(s)) {
      auto r = mkS(Stmt::Return, s);
      r->e = rs->getRetValue() ? lowerExpr(rs->getRetValue()) : nullptr;
      return r;
    }
    if (isa<BreakStmt>(s)) return mkS(Stmt::Break, s);
    if (isa<ContinueStmt>(s)) return mkS(Stmt::Continue, s);
    if (isa<NullStmt>(s)) return mkS(Stmt::Null, s);
    if (const auto *e = dyn_cast<clang::Expr>(s)) {
      auto r = mkS(Stmt::ExprS, s);
      r->e = lowerExpr(e, false);
      return r;
    }
    error(s->getBeginLoc(),
          std::string("statement kind '") + s->getStmtClassName() + "' is outside the emitted dialect");
    return mkS(Stmt::Null, s);
  }

  std::vector<std::string> markersAbove(unsigned line) {
    std::vector<std::string> out;
    for (int l = (int)line - 2; l >= 0; --l) {
      const std::string &s = file.lines[(size_t)l];
      size_t p = s.find_first_not_of(" \t");
      if (p == std::string::npos || s.compare(p, 2, "//") != 0) break;
      size_t k = s.find("chapoly-");
      if (k != std::string::npos && s.find("chapoly-invariant") == std::string::npos)
        out.push_back(s.substr(k));
    }
    return out;
  }

  // The dialect's shape at file level (since stop 44; the closed-world review found each of these
  // proving with code the library would link unproved). Outside system headers: the only function
  // definitions are top-level `static` helpers and extern "C" kernels in the main file (none in a
  // namespace, a class, a template, a nested linkage block or an included header, which this
  // lowering would not read); nothing renames a symbol or adds one (asm labels, including
  // `#pragma redefine_extname`, aliases, ifuncs, weak symbols, file-scope asm); and no attribute
  // runs code that no kernel calls (constructor, destructor, cleanup) or keeps code no kernel
  // reaches (used, section). The attributes the generator writes (always_inline,
  // force_align_arg_pointer), alignment and `unused` are the only ones allowed. Each is a
  // front-end error naming the file and line.
  struct ShapeGate : RecursiveASTVisitor<ShapeGate> {
    Lowerer &lw;
    explicit ShapeGate(Lowerer &l) : lw(l) {}
    bool shouldVisitTemplateInstantiations() const { return false; }
    bool shouldVisitImplicitCode() const { return false; }
    void fail(const Decl *d, const std::string &m) {
      SourceLocation x = lw.sm.getExpansionLoc(d->getLocation());
      FrontendError e;
      e.file = lw.sm.getFilename(x).str();
      if (e.file.empty()) e.file = lw.file.path;
      e.loc = lw.loc(d->getLocation());
      e.msg = m;
      lw.errs.push_back(e);
    }
    bool user(const Decl *d) const {
      SourceLocation x = lw.sm.getExpansionLoc(d->getLocation());
      return x.isValid() && !lw.sm.isInSystemHeader(x);
    }
    static std::string nameOf(const Decl *d) {
      if (const auto *nd = dyn_cast<NamedDecl>(d)) return "'" + nd->getNameAsString() + "'";
      return "a declaration";
    }
    bool VisitDecl(Decl *d) {
      if (!user(d)) return true;
      if (isa<FileScopeAsmDecl>(d)) fail(d, "file-scope asm is outside the emitted dialect (it can define or rename symbols no proof covers)");
      if (isa<NamespaceDecl>(d)) fail(d, "namespace " + nameOf(d) + " is outside the emitted dialect (kernel files define top-level static helpers and extern \"C\" kernels only)");
      if (isa<FunctionTemplateDecl>(d) || isa<ClassTemplateDecl>(d) || isa<VarTemplateDecl>(d))
        fail(d, "template " + nameOf(d) + " is outside the emitted dialect");
      for (const Attr *a : d->attrs()) {
        const attr::Kind k = a->getKind();
        const bool allowed = k == attr::AlwaysInline || k == attr::X86ForceAlignArgPointer || k == attr::Aligned || k == attr::Unused;
        const bool symbol = k == attr::AsmLabel || k == attr::Alias || k == attr::IFunc || k == attr::Weak ||
                            k == attr::WeakRef || k == attr::WeakImport || k == attr::Section || k == attr::Used ||
                            k == attr::Retain || k == attr::Constructor || k == attr::Destructor || k == attr::Cleanup;
        if (symbol || (!allowed && !a->isImplicit()))
          fail(d, std::string("attribute '") + a->getSpelling() + "' on " + nameOf(d) +
                      " is outside the emitted dialect (allowed: always_inline, force_align_arg_pointer, aligned, unused): " +
                      (symbol ? "it names, adds or keeps a symbol, or runs code, that no proof covers" : "not one the verifier knows"));
      }
      if (const auto *vd = dyn_cast<VarDecl>(d); vd && !isa<ParmVarDecl>(vd)) {
        if (vd->isStaticLocal())
          fail(d, "the static local " + nameOf(d) + " is outside the emitted dialect (its value would cross calls: a "
                  "non-constant initialiser runs once, at the first call, and the proofs read it as each call's)");
        else if (vd->hasGlobalStorage() && vd->hasInit() && !vd->hasConstantInitialization())
          fail(d, "the file-scope variable " + nameOf(d) + " has an initialiser that is not a constant: outside the emitted dialect");
        if (vd->getTLSKind() != VarDecl::TLS_None) fail(d, "the thread-local " + nameOf(d) + " is outside the emitted dialect");
      }
      if (const auto *fd = dyn_cast<FunctionDecl>(d); fd && fd->doesThisDeclarationHaveABody()) {
        const DeclContext *dc = fd->getLexicalDeclContext();
        const bool top = dc->isTranslationUnit() ||
                         (isa<LinkageSpecDecl>(dc) && cast<LinkageSpecDecl>(dc)->getLanguage() == LinkageSpecDecl::lang_c &&
                          dc->getLexicalParent() != nullptr && dc->getLexicalParent()->isTranslationUnit());
        std::string where;
        if (!lw.sm.isInMainFile(lw.sm.getExpansionLoc(fd->getLocation()))) where = "in an included file, not the kernel file";
        else if (isa<CXXMethodDecl>(fd)) where = "as a member of a class";
        else if (fd->getTemplatedKind() != FunctionDecl::TK_NonTemplate) where = "as a template";
        else if (!top) where = "inside a namespace or a nested linkage block";
        if (!where.empty())
          fail(d, "function " + nameOf(d) + " is defined " + where +
                      ": outside the emitted dialect (kernel files define top-level static helpers and extern \"C\" kernels "
                      "only, each proved; this one would be linked unread)");
      }
      return true;
    }
  };

  void run(TranslationUnitDecl *tu) {
    std::vector<const FunctionDecl *> defs;
    {
      ShapeGate g(*this);
      g.TraverseDecl(tu);
    }
    for (const Decl *d : tu->decls()) {
      const Decl *dd = d;
      if (const auto *lsd = dyn_cast<LinkageSpecDecl>(d)) {
        for (const Decl *in : lsd->decls()) {
          if (const auto *fd = dyn_cast<FunctionDecl>(in))
            if (fd->doesThisDeclarationHaveABody() && isUserFunction(fd)) defs.push_back(fd);
        }
        continue;
      }
      if (const auto *fd = dyn_cast<FunctionDecl>(dd)) {
        if (fd->doesThisDeclarationHaveABody() && isUserFunction(fd)) defs.push_back(fd);
        continue;
      }
      if (const auto *vd = dyn_cast<VarDecl>(dd)) {
        if (sm.isInMainFile(sm.getExpansionLoc(vd->getLocation()))) file.globals.push_back(varId(vd));
      }
    }
    for (const FunctionDecl *fd : defs) {
      fnIds[fd->getCanonicalDecl()] = (int)file.funcs.size();
      Function f;
      f.name = fd->getNameAsString();
      file.funcs.push_back(f);
    }
    for (size_t i = 0; i < defs.size(); ++i) {
      const FunctionDecl *fd = defs[i];
      Function &f = file.funcs[i];
      f.loc = loc(fd->getLocation());
      f.endLoc = loc(fd->getEndLoc());
      f.ret = lowerType(fd->getReturnType(), fd->getLocation());
      for (const ParmVarDecl *p : fd->parameters()) f.params.push_back(varId(p));
      // Every definition another translation unit can call is an entry point: extern "C" (what the
      // runtime links) or not (a C++ function of the kernel file is still linked into the library).
      f.isExported = fd->isExternallyVisible() && fd->getStorageClass() != SC_Static;
      f.hasCName = fd->isExternC();
      f.isStaticInline = fd->getStorageClass() == SC_Static;
      f.markers = markersAbove(loc(fd->getOuterLocStart()).line);
      {
        auto [c, l] = contractAbove(loc(fd->getOuterLocStart()).line);
        f.contract = c;
        f.contractLoc = l;
      }
      f.body = lowerStmt(fd->getBody());
    }
  }
};

}  // namespace

// Every statement and expression under `root`, with an explicit stack (the IR depth is bounded
// by the front end, but nothing here needs to recurse); a visitor returning false stops the walk.
static void walkIR(const Stmt *root, const std::function<bool(const Stmt &)> &onStmt, const std::function<bool(const Expr &)> &onExpr) {
  std::vector<const Stmt *> ss{root};
  std::vector<const Expr *> es;
  while (!ss.empty() || !es.empty()) {
    if (!ss.empty()) {
      const Stmt *s = ss.back();
      ss.pop_back();
      if (!onStmt(*s)) return;
      for (const StmtP *c : {&s->init, &s->then, &s->els})
        if (*c) ss.push_back(c->get());
      for (const auto &b : s->body)
        if (b) ss.push_back(b.get());
      for (const ExprP *e : {&s->e, &s->inc})
        if (*e) es.push_back(e->get());
      continue;
    }
    const Expr *e = es.back();
    es.pop_back();
    if (!onExpr(*e)) return;
    for (const auto &a : e->args)
      if (a) es.push_back(a.get());
  }
}

// The calls each function makes (callee index, call location).
static std::vector<std::vector<std::pair<int, SrcLoc>>> callGraph(const File &f) {
  std::vector<std::vector<std::pair<int, SrcLoc>>> g(f.funcs.size());
  for (size_t i = 0; i < f.funcs.size(); ++i)
    if (f.funcs[i].body)
      walkIR(
          f.funcs[i].body.get(), [](const Stmt &) { return true; },
          [&](const Expr &e) {
            if (e.kind == Expr::Call && e.fn >= 0) g[i].push_back({e.fn, e.loc});
            return true;
          });
  return g;
}

// A helper that can reach itself (directly or through others) cannot be inlined: the dialect
// has none, and every interpreter here inlines. Reported at the call that closes the cycle.
static void rejectRecursion(const File &f, std::vector<FrontendError> &errs) {
  auto g = callGraph(f);
  std::vector<int> state(f.funcs.size(), 0);  // 0 new, 1 on the path, 2 done
  for (size_t root = 0; root < f.funcs.size(); ++root) {
    if (state[root]) continue;
    std::vector<std::pair<int, size_t>> path{{(int)root, 0}};
    state[root] = 1;
    while (!path.empty()) {
      auto &[fn, next] = path.back();
      if (next == g[(size_t)fn].size()) {
        state[(size_t)fn] = 2;
        path.pop_back();
        continue;
      }
      auto [callee, at] = g[(size_t)fn][next++];
      if (state[(size_t)callee] == 1) {
        errs.push_back({f.path, at,
                        "recursive call of '" + f.funcs[(size_t)callee].name + "' (from '" +
                            f.funcs[(size_t)fn].name + "') is outside the emitted dialect"});
        return;
      }
      if (state[(size_t)callee] == 0) {
        state[(size_t)callee] = 1;
        path.push_back({callee, 0});
      }
    }
  }
}

// Paths the interpreters would not see. They join a function's paths only at its end and walk
// both arms of `?:` (and both operands of && and ||) as values, so (1) a `return` before the
// last statement of a function, and (2) a side effect in an arm of `?:` or the right operand of
// && / || (an assignment, an increment, a store intrinsic, or a call of a helper that takes a
// reference or a pointer to non-const) are outside the dialect: a walk would count the effect on
// paths that skip it, or drop the path that returns early (the stop-28 review's holes in
// out-coverage). The generator emits neither. Reported at the statement or operand.
static bool storeIntrinsic(const std::string &n) {
  for (const char *w : {"store", "stream", "scatter", "maskmov"})
    if (n.find(w) != std::string::npos) return true;
  for (const char *p : {"__riscv_vsse", "__riscv_vsoxei", "__riscv_vsuxei", "__riscv_vsseg", "__riscv_vssseg", "__riscv_vsoxseg", "__riscv_vsuxseg", "__riscv_vsm_"})
    if (n.rfind(p, 0) == 0) return true;
  return n.rfind("__riscv_vse", 0) == 0 && n.size() > 11 && std::isdigit((unsigned char)n[11]);  // vse8/16/32/64 (not vsext)
}
static void rejectHiddenPaths(const File &f, std::vector<FrontendError> &errs) {
  auto writes = [&](int fn) {
    for (int pv : f.funcs[(size_t)fn].params) {
      const Var &v = f.vars[(size_t)pv];
      if (v.isRef || ((v.ty.kind == Type::Ptr || v.ty.kind == Type::Array) && !v.ty.pointeeConst)) return true;
    }
    return false;
  };
  // The first side effect under e (nullptr: none), iteratively.
  auto effect = [&](const Expr *root) -> const Expr * {
    std::vector<const Expr *> es{root};
    while (!es.empty()) {
      const Expr *e = es.back();
      es.pop_back();
      if (e->kind == Expr::Assign || e->kind == Expr::IncDec || (e->kind == Expr::Intrin && storeIntrinsic(e->name)) ||
          (e->kind == Expr::Call && e->fn >= 0 && writes(e->fn)))
        return e;
      for (const auto &a : e->args)
        if (a) es.push_back(a.get());
    }
    return nullptr;
  };
  for (const Function &fn : f.funcs) {
    if (!fn.body) continue;
    const Stmt *last = fn.body->kind == Stmt::Block && !fn.body->body.empty() ? fn.body->body.back().get() : nullptr;
    bool bad = false;
    walkIR(
        fn.body.get(),
        [&](const Stmt &s) {
          if (s.kind != Stmt::Return || &s == last) return true;
          errs.push_back({f.path, s.loc, "a return before the end of '" + fn.name + "' is outside the emitted dialect (the verifier joins a function's paths at its end)"});
          return !(bad = true);
        },
        [&](const Expr &e) {
          std::vector<const Expr *> guarded;
          if (e.kind == Expr::Cond && e.args.size() == 3) guarded = {e.args[1].get(), e.args[2].get()};
          if (e.kind == Expr::Bin && (e.name == "&&" || e.name == "||") && e.args.size() == 2) guarded = {e.args[1].get()};
          for (const Expr *g : guarded)
            if (const Expr *x = g ? effect(g) : nullptr) {
              errs.push_back({f.path, x->loc, "a side effect ('" + x->text + "') under a condition inside an expression (an arm of ?: or the right operand of " +
                                                  "&& or ||) is outside the emitted dialect: write it as an if statement"});
              return !(bad = true);
            }
          return true;
        });
    if (bad) return;
  }
}

// The build compiles a kernel with flags the verifier does not parse it with (optimisation, -g,
// -fPIC, the build type's -DNDEBUG, a user's CMAKE_CXX_FLAGS): they change no code unless the code
// asks for them, and the only way it can ask without failing to parse here is a conditional
// directive (#ifdef NDEBUG ... #endif compiles one branch in the build and the other here; found
// by the stop-42 review, which flipped a tag bit that way past the proof gate). So the files the
// kernel brings (every file clang read that is not a system header: the kernel source and its own
// headers) may hold none, but for a header's include guard (#ifndef G as the file's first
// directive, then #define G) and #ifdef / #ifndef __cplusplus (C++ in both, -std is part of both
// flag sets); an #endif closes one of those, as any other opener fails. Since stop 44 the other
// directives too (below): #include, the guard's #define and #endif are the only ones allowed.
static void rejectDirectives(clang::ASTContext &ctx, std::vector<FrontendError> &errs) {
  clang::SourceManager &sm = ctx.getSourceManager();
  const clang::LangOptions &lo = ctx.getLangOpts();
  for (unsigned i = 0; i < sm.local_sloc_entry_size(); ++i) {
    const clang::SrcMgr::SLocEntry &e = sm.getLocalSLocEntry(i);
    if (!e.isFile() || clang::SrcMgr::isSystem(e.getFile().getFileCharacteristic())) continue;
    if (!e.getFile().getContentCache().OrigEntry) continue;  // <built-in>, <command line>: no file
    const clang::FileID fid = sm.getFileID(clang::SourceLocation::getFromRawEncoding(e.getOffset()));
    if (fid.isInvalid()) continue;
    std::optional<llvm::MemoryBufferRef> buf = sm.getBufferOrNone(fid);
    if (!buf) continue;
    const bool isMain = fid == sm.getMainFileID();
    // The directives, in order: (name, its first argument, location).
    struct Dir { std::string name, arg; clang::SourceLocation loc; };
    std::vector<Dir> dirs;
    clang::Lexer lex(fid, *buf, sm, lo);
    lex.SetCommentRetentionState(false);
    clang::Token t;
    bool afterHash = false, wantArg = false;
    clang::SourceLocation hashLoc;
    for (lex.LexFromRawLexer(t); t.isNot(clang::tok::eof); lex.LexFromRawLexer(t)) {
      if (t.is(clang::tok::raw_identifier) && t.getRawIdentifier() == "_Pragma") dirs.push_back({"_Pragma", "", t.getLocation()});
      if (afterHash && !t.isAtStartOfLine() && t.is(clang::tok::numeric_constant)) {
        afterHash = false;
        dirs.push_back({"line marker", "", hashLoc});
      }
      if (wantArg) {
        wantArg = false;
        if (!t.isAtStartOfLine() && t.is(clang::tok::raw_identifier)) dirs.back().arg = t.getRawIdentifier().str();
      }
      if (afterHash) {
        afterHash = false;
        if (!t.isAtStartOfLine() && t.is(clang::tok::raw_identifier)) {
          dirs.push_back({t.getRawIdentifier().str(), "", hashLoc});
          wantArg = true;
        }
      }
      if (t.is(clang::tok::hash) && t.isAtStartOfLine()) afterHash = true, hashLoc = t.getLocation();
    }
    // (An #endif closes one of the allowed openers; any other opener fails. The guard is
    // directives 0 and 1.)
    static const std::set<std::string> opener = {"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else"};
    const bool guarded = !isMain && dirs.size() >= 2 && dirs[0].name == "ifndef" && dirs[1].name == "define" &&
                         !dirs[0].arg.empty() && dirs[1].arg == dirs[0].arg;
    // Since stop 44 (the second closed-world review): no directive but #include, the include
    // guard's #define and #endif either. A macro of the file's own can read what the build's flags
    // define without a conditional (a stringized __OPTIMIZE__ flipped a tag bit under -O2 only);
    // #line, line markers and #pragma GCC system_header make the file's code look like a system
    // header's, which the shape gate does not read; other pragmas (`#pragma clang section`, `weak`,
    // `redefine_extname`, `_Pragma`) place or rename code.
    static const std::set<std::string> allowed = {"include", "endif"};
    for (size_t k = 0; k < dirs.size(); ++k) {
      const Dir &d = dirs[k];
      const bool cond = opener.count(d.name) != 0;
      if (allowed.count(d.name) || (guarded && k <= 1) ||
          (cond && (d.name == "ifdef" || d.name == "ifndef") && d.arg == "__cplusplus"))
        continue;
      errs.push_back({sm.getFileEntryForID(fid)->getName().str(),
                      SrcLoc{sm.getSpellingLineNumber(d.loc), sm.getSpellingColumnNumber(d.loc)},
                      cond ? "conditional preprocessing ('#" + d.name + (d.arg.empty() ? "" : " " + d.arg) +
                                 "') in a file the kernel brings: the build compiles it with flags this parse does not "
                                 "see (-DNDEBUG, -O2, -fPIC, ...), so it may build the other branch; only a header's "
                                 "include guard and #ifdef __cplusplus are allowed"
                           : (d.name == "_Pragma" || d.name == "line marker" ? d.name : "'#" + d.name + "'") +
                                 " in a file the kernel brings is outside the emitted dialect (only #include, a header's "
                                 "include guard and #ifdef __cplusplus): a macro can read the build's flags, which this "
                                 "parse does not see, and a pragma, #line or line marker can place, rename or hide code"});
    }
  }
}

namespace {
// Prints clang's diagnostics as the compiler would, and remembers where the first error is.
struct FirstError : clang::DiagnosticConsumer {
  clang::TextDiagnosticPrinter print{llvm::errs(), new clang::DiagnosticOptions()};  // (ref-counted: the printer owns it)
  std::string file, msg;
  SrcLoc loc;
  void BeginSourceFile(const clang::LangOptions &lo, const clang::Preprocessor *pp) override {
    print.BeginSourceFile(lo, pp);
  }
  void EndSourceFile() override { print.EndSourceFile(); }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic &d) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, d);
    print.HandleDiagnostic(level, d);
    if (level < clang::DiagnosticsEngine::Error || !msg.empty()) return;
    llvm::SmallString<128> text;
    d.FormatDiagnostic(text);
    msg = text.str().str();
    if (d.hasSourceManager() && d.getLocation().isValid()) {
      clang::PresumedLoc pl = d.getSourceManager().getPresumedLoc(d.getLocation());
      if (pl.isValid()) file = pl.getFilename(), loc = SrcLoc{pl.getLine(), pl.getColumn()};
    }
  }
};
}  // namespace

bool parseKernelFile(const std::string &path, const std::vector<std::string> &flags, File &out,
                     std::vector<FrontendError> &errs) {
  out.path = path;
  std::string ownDigest;  // of the bytes the lines below come from
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      errs.push_back({path, {}, "cannot read file"});
      return false;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    const std::string bytes = ss.str();
    ownDigest = digestOf(bytes);
    std::istringstream ls(bytes);
    std::string line;
    while (std::getline(ls, line)) out.lines.push_back(line);
  }
  std::vector<std::string> args = flags;
  bool haveResource = false;
  for (const auto &a : args)
    if (a.rfind("-resource-dir", 0) == 0) haveResource = true;
  if (!haveResource) args.push_back("-resource-dir=" CHAPOLY_CLANG_RESOURCE_DIR);
  args.push_back("-fsyntax-only");
  args.push_back("-Wno-unused");
  clang::tooling::FixedCompilationDatabase db(".", args);
  clang::tooling::ClangTool tool(db, {path});
  FirstError diag;
  tool.setDiagnosticConsumer(&diag);
  std::vector<std::unique_ptr<clang::ASTUnit>> asts;
  int rc = tool.buildASTs(asts);
  if (rc != 0 || asts.size() != 1 || asts[0]->getDiagnostics().hasErrorOccurred()) {
    // Clang's own diagnostics are printed above; the summary names the first error's place.
    std::string msg = "clang could not parse the file with the given flags";
    if (!diag.msg.empty()) msg += " (first error: " + diag.msg + ")";
    errs.push_back({diag.file.empty() ? path : diag.file, diag.loc, msg});
    return false;
  }
  clang::ASTContext &ctx = asts[0]->getASTContext();
  {
    // Every file the parse read (the kernel, its headers, the compiler's and the system's), with a
    // digest of the very bytes clang parsed: what a proof stamp records, so that the proof stays
    // about the same code. The kernel's own bytes must be the ones its lines (contracts, messages)
    // were read from.
    clang::SourceManager &sm = ctx.getSourceManager();  // (a buffer not loaded yet is loaded)
    std::map<std::string, std::string> seen;
    for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
      llvm::StringRef real = it->first->tryGetRealPathName();
      const std::string name = (real.empty() ? it->first->getName() : real).str();
      std::optional<llvm::MemoryBufferRef> buf = sm.getMemoryBufferForFileOrNone(it->first);
      seen[name] = buf ? digestOf(std::string_view(buf->getBufferStart(), buf->getBufferSize())) : "";
    }
    for (auto &[name, digest] : seen) out.readFiles.push_back({name, digest});
    const clang::FileEntry *main = sm.getFileEntryForID(sm.getMainFileID());
    std::optional<llvm::MemoryBufferRef> mainBuf = main ? sm.getMemoryBufferForFileOrNone(main) : std::nullopt;
    if (!mainBuf || digestOf(std::string_view(mainBuf->getBufferStart(), mainBuf->getBufferSize())) != ownDigest) {
      errs.push_back({path, {}, "the file changed while it was read (parse it again)"});
      return false;
    }
  }
  rejectDirectives(ctx, errs);
  if (!errs.empty()) return false;
  Lowerer L(ctx, out, errs);
  L.run(ctx.getTranslationUnitDecl());
  if (errs.empty()) rejectRecursion(out, errs);
  if (errs.empty()) rejectHiddenPaths(out, errs);
  return errs.empty();
}

std::string clangVersion() { return clang::getClangFullVersion(); }

std::string digestOf(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a, 64-bit: the offset basis, then xor and multiply by the prime
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ull;
  char b[32];
  std::snprintf(b, sizeof b, "%016llx", (unsigned long long)h);
  return b;
}

std::vector<std::string> checkCompileFlags(const std::vector<std::string> &flags) {
  namespace opts = clang::driver::options;
  // The option kinds the plain (not clang-cl, not DXC, not Flang) driver does not accept.
  const unsigned exclude = opts::NoDriverOption | opts::CLOption | opts::DXCOption |
                           opts::CLDXCOption | opts::FlangOnlyOption;
  std::vector<const char *> argv;
  for (const auto &f : flags) argv.push_back(f.c_str());
  unsigned missingIndex = 0, missingCount = 0;
  const llvm::opt::OptTable &table = clang::driver::getDriverOptTable();
  llvm::opt::InputArgList args = table.ParseArgs(argv, missingIndex, missingCount, 0, exclude);
  std::vector<std::string> problems;
  if (missingCount != 0)
    problems.push_back("compile flag '" + std::string(args.getArgString(missingIndex)) +
                       "' is missing its value");
  for (const llvm::opt::Arg *a : args.filtered(opts::OPT_UNKNOWN)) {
    std::string spelled = a->getAsString(args), nearest;
    std::string msg = "unknown compile flag '" + spelled + "'";
    if (table.findNearest(spelled, nearest, 0, exclude, 4, 1) <= 1)
      msg += " (did you mean '" + nearest + "'?)";
    problems.push_back(msg);
  }
  return problems;
}

}  // namespace cv
