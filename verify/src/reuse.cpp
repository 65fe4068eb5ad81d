// reuse.cpp: the canonical text of a parsed file and the proof cache (reuse.h).
#include "reuse.h"

#include "cachefile.h"
#include "report.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>
#include <optional>

namespace cv {

std::string normalKernelName(const std::string &name) {
  static const std::string prefix = "chapoly_k_";
  if (name.rfind(prefix, 0) != 0) return name;
  // Longest suffix first: "_seal_update" before "_seal".
  for (const char *s : {"_poly1305_update", "_poly1305_finish", "_seal_update", "_open_update", "_poly1305", "_chacha20",
                        "_seal", "_open"}) {
    const std::string suf = s;
    if (name.size() > prefix.size() + suf.size() && name.compare(name.size() - suf.size(), suf.size(), suf) == 0)
      return prefix + "@" + suf;
  }
  return name;
}

namespace {

// A contract (or marker) with the value of each "spec" field replaced by "@": the spec file and
// line a contract names are for reports (contracts.cpp checks the field is a string; no proof reads
// it), and they differ between two families made from one schedule. Only a value of the shape the
// generator writes, spec/<name>.toml:<line> with <name> of lowercase letters, digits, '_' and '/',
// is replaced: such a value holds no quote (so no "key" a raw search of the contract looks for)
// and no '-' (so no chapoly-... marker word); any other value is kept as written.
bool generatorSpec(const std::string &v) {
  static const std::string head = "spec/", toml = ".toml:";
  if (v.rfind(head, 0) != 0) return false;
  const size_t t = v.find(toml);
  if (t == std::string::npos || t == head.size()) return false;
  for (size_t i = head.size(); i < t; ++i)
    if (!(std::islower((unsigned char)v[i]) || std::isdigit((unsigned char)v[i]) || v[i] == '_' || v[i] == '/')) return false;
  if (t + toml.size() == v.size()) return false;
  for (size_t i = t + toml.size(); i < v.size(); ++i)
    if (!std::isdigit((unsigned char)v[i])) return false;
  return true;
}
std::string withoutSpec(const std::string &c) {
  static const std::string key = "\"spec\":\"";
  std::string out;
  size_t at = 0;
  for (size_t k = c.find(key); k != std::string::npos; k = c.find(key, at)) {
    const size_t v = k + key.size(), e = c.find('"', v);
    if (e == std::string::npos || !generatorSpec(c.substr(v, e - v))) {
      out += c.substr(at, v - at);
      at = v;
      continue;
    }
    out += c.substr(at, v - at) + "@\"";
    at = e + 1;
  }
  return out + c.substr(at);
}

struct Canon {
  const File &F;
  std::ostringstream os;
  std::map<int, int> varNo;  // variable index -> its number in order of first use
  // Source lines by rank: some proofs compare line numbers (a function's rows or variables are
  // those declared between its first and last line; of two declarations of one name the later
  // one), so the order of every line a variable, statement, expression, invariant or function
  // sits on is part of the text, while the numbers themselves (moved by comment lines) are not.
  std::map<unsigned, unsigned> lineRank;

  void loc(const SrcLoc &l) { os << "@" << lineRank[l.line]; }
  void collect() {
    std::function<void(const Expr *)> ex = [&](const Expr *e) {
      if (!e) return;
      lineRank[e->loc.line];
      for (const auto &a : e->args) ex(a.get());
    };
    std::function<void(const Stmt *)> st = [&](const Stmt *s) {
      if (!s) return;
      lineRank[s->loc.line];
      for (const auto &inv : s->invariants) lineRank[inv.loc.line];
      ex(s->e.get());
      ex(s->inc.get());
      st(s->init.get());
      st(s->then.get());
      st(s->els.get());
      for (const auto &b : s->body) st(b.get());
    };
    for (const auto &v : F.vars) {
      lineRank[v.loc.line];
      ex(v.init.get());
    }
    for (const auto &fn : F.funcs) {
      lineRank[fn.loc.line];
      lineRank[fn.endLoc.line];
      st(fn.body.get());
    }
    unsigned r = 0;
    for (auto &[line, rank] : lineRank) rank = r++;
  }

  std::string fnName(const Function &fn) { return fn.isExported || fn.body == nullptr ? normalKernelName(fn.name) : fn.name; }

  void type(const Type &t) {
    os << "T(" << (int)t.kind << "," << t.bits << "," << t.isSigned << t.elemIsVec << t.pointeeConst << "," << t.count << ","
       << t.scalable << "," << t.laneBits << "," << t.lmul << "," << t.spelling.size() << ":" << t.spelling << ")";
  }
  void str(const std::string &s) { os << s.size() << ":" << s; }

  void var(int v) {
    if (v < 0) {
      os << "v-";
      return;
    }
    auto it = varNo.find(v);
    if (it != varNo.end()) {
      os << "v" << it->second;
      return;
    }
    const int n = (int)varNo.size();
    varNo[v] = n;
    const Var &x = F.vars[(size_t)v];
    os << "v" << n << "{";
    loc(x.loc);
    str(x.name);
    type(x.ty);
    os << x.isParam << x.isRef << x.isGlobal << x.isConst << "," << x.paramCount << ",";
    expr(x.init.get());
    os << "}";
  }

  void expr(const Expr *e) {
    if (!e) {
      os << "E-";
      return;
    }
    os << "E" << (int)e->kind;
    loc(e->loc);
    type(e->ty);
    str(e->kind == Expr::Call && e->fn >= 0 ? fnName(F.funcs[(size_t)e->fn]) : e->name);
    str(e->builtin);
    os << "," << hex(e->value) << ",";
    if (e->kind == Expr::Var || e->var >= 0) var(e->var);
    if (e->fn >= 0) os << "f" << e->fn;  // the callee by its index: two exported names may normalise alike
    os << "(" << e->args.size() << ":";
    for (const auto &a : e->args) expr(a.get());
    os << ")";
  }

  void stmt(const Stmt *s) {
    if (!s) {
      os << "S-";
      return;
    }
    os << "S" << (int)s->kind << "," << s->noScope << ",";
    loc(s->loc);
    if (s->var >= 0) var(s->var);
    expr(s->e.get());
    expr(s->inc.get());
    stmt(s->init.get());
    stmt(s->then.get());
    stmt(s->els.get());
    os << "[" << s->body.size() << ":";
    for (const auto &b : s->body) stmt(b.get());
    os << "]I" << s->invariants.size() << ":";
    for (const auto &inv : s->invariants) {
      loc(inv.loc);
      str(inv.var);
      os << "<=" << hex(inv.bound) << ";";
    }
    str(withoutSpec(s->contract));
    os << "\n";
  }

  void function(const Function &fn) {
    os << "F";
    loc(fn.loc);
    loc(fn.endLoc);
    str(fnName(fn));
    type(fn.ret);
    os << fn.isExported << fn.isStaticInline << "(" << fn.params.size() << ":";
    for (int p : fn.params) var(p);
    os << ")M" << fn.markers.size() << ":";
    for (const auto &m : fn.markers) str(withoutSpec(m));
    str(withoutSpec(fn.contract));
    os << "\n";
    stmt(fn.body.get());
    os << "\n";
  }
};

// A u128 from cv::hex's "0x..." spelling (0 for anything else).
u128 fromHex(const std::string &s) {
  u128 v = 0;
  for (size_t i = s.rfind("0x", 0) == 0 ? 2 : 0; i < s.size(); ++i) {
    const char ch = s[i];
    const int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
    if (d < 0) return 0;
    v = v * 16 + (u128)d;
  }
  return v;
}

}  // namespace

std::string canonicalIr(const File &f) {
  Canon c{f, {}, {}, {}};
  c.collect();
  c.os << "chapoly-verify canonical IR v2\nG" << f.globals.size() << ":";
  for (int g : f.globals) c.var(g);
  c.os << "\n";
  for (const auto &fn : f.funcs) c.function(fn);
  return c.os.str();
}

std::string proofKeyText(const std::string &selfDigest, const std::string &toolchain, const std::vector<std::string> &flags,
                         bool allowBoundsOnly, const std::string &canonical, const std::string &kernel, size_t kernelIndex) {
  std::string k = "chapoly-verify proof cache v2\nverifier " + selfDigest + "\ntoolchain " + toolchain + "\n";
  for (const auto &fl : flags)
    if (fl.rfind("-I", 0) != 0) k += "flag " + std::to_string(fl.size()) + ":" + fl + "\n";
  // The kernel by its index among the file's functions as well as by its normal name: two exported
  // kernels of one file may share an ABI suffix (chapoly_k_a_seal, chapoly_k_b_seal).
  k += std::string("mode ") + (allowBoundsOnly ? "allow-bounds-only" : "all") + "\nkernel " + std::to_string(kernelIndex) + " " +
       normalKernelName(kernel) + "\n";
  k += canonical;
  return k;
}

namespace {
std::string entryPath(const std::string &dir, const std::string &key) { return dir + "/" + digestOf(key) + ".json"; }

}  // namespace

bool loadProof(const std::string &dir, const std::string &key, const File &file, const Function &kernel,
               KernelResult &out) {
  using nlohmann::json;
  const std::optional<std::string> text = readCacheFile(entryPath(dir, key), (size_t)64 << 20);
  if (!text) return false;
  json j;
  try {
    j = json::parse(*text);
    if (j.at("key").get<std::string>() != key) return false;  // another text with the same digest
    KernelResult kr;
    kr.kernel = kernel.name;
    kr.file = file.path;
    const std::string fromKernel = j.at("kernel").get<std::string>(), fromFile = j.at("file").get<std::string>();
    size_t claims = 0;
    for (const auto &oj : j.at("obligations")) {
      Obligation o;
      o.id = oj.at("id").get<int>();
      o.kind = oj.at("kind").get<std::string>();
      o.file = oj.at("file").get<std::string>();
      o.loc.line = oj.at("line").get<unsigned>();
      o.loc.col = oj.at("col").get<unsigned>();
      o.what = oj.at("what").get<std::string>();
      o.intrinsic = oj.at("intrinsic").get<std::string>();
      o.hasLimit = oj.at("has_limit").get<bool>();
      o.max = fromHex(oj.at("max").get<std::string>());
      o.limit = fromHex(oj.at("limit").get<std::string>());
      o.context = oj.at("context").get<std::string>();
      o.spec = oj.at("spec").get<std::string>();
      o.note = oj.at("note").get<std::string>();
      if (oj.at("result").get<std::string>() != "OK") return false;  // only proved kernels are stored
      if (o.kind != "bound") ++claims;
      kr.obligations.push_back(std::move(o));
    }
    kr.boundSteps = j.at("bound_steps").get<size_t>();
    Obligation same;
    same.id = (int)kr.obligations.size() + 1;
    same.kind = "identical-ir";
    same.file = file.path;
    same.loc = kernel.loc;
    same.what = "the code of this file (every function, variable, type, contract, invariant and marker; "
                "locations, comments and the family part of the kernel names aside) is that of " +
                fromFile + ", whose " + fromKernel + " this verifier proved with these flags: its " +
                std::to_string(claims) + " obligations, listed at their lines in that file, hold here";
    same.note = "proof cache entry " + entryPath(dir, key);
    kr.obligations.push_back(std::move(same));
    out = std::move(kr);
    return true;
  } catch (const std::exception &) {
    return false;
  }
}

void storeProof(const std::string &dir, const std::string &key, const KernelResult &kr) {
  using nlohmann::json;
  if (!kr.errors.empty()) return;
  json oarr = json::array();
  for (const auto &o : kr.obligations) {
    if (o.skipped || o.res != Res::OK || o.kind == "identical-ir") return;
    json oj = obligationJson(o);
    oj["has_limit"] = o.hasLimit;
    oj["max"] = hex(o.max);
    oj["limit"] = hex(o.limit);
    oj["context"] = o.context;
    oj["spec"] = o.spec;
    oj["note"] = o.note;
    oj["result"] = "OK";
    oarr.push_back(oj);
  }
  json j;
  j["key"] = key;
  j["kernel"] = kr.kernel;
  j["file"] = kr.file;
  j["bound_steps"] = kr.boundSteps;
  j["obligations"] = oarr;
  std::string text;
  try {
    text = j.dump();
  } catch (const nlohmann::json::exception &) {
    return;  // text that is not UTF-8 (a marker or a message with such bytes): not stored
  }
  // Written whole, then renamed over the entry: readers see the old entry or the whole new one.
  writeCacheFile(entryPath(dir, key), text + "\n");
}

}  // namespace cv
