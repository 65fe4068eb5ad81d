// answers.cpp: see answers.h.
#include "answers.h"

#include "cachefile.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace cv::answers {
namespace {

struct Store {
  std::string dir, tag;  // dir: set by load() (a --query-cache run), "" otherwise
  std::unordered_set<std::string> keys;
  std::vector<std::string> fresh;
};
Store &store_() {
  static Store s;
  return s;
}

// A 128-bit digest as two 64-bit lanes, each mixed with its own seed.
struct D128 {
  uint64_t a = 0x9e3779b97f4a7c15ULL, b = 0xc2b2ae3d27d4eb4fULL;
};
uint64_t mix(uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}
void feed(D128 &d, uint64_t v) {
  d.a = mix(d.a ^ v) + 0x632be59bd9b4e019ULL;
  d.b = mix(d.b + (v ^ 0x8cb92ba72f3d8dd7ULL)) ^ (d.b >> 17);
}
void feed(D128 &d, const std::string &s) {
  feed(d, s.size());
  for (size_t i = 0; i < s.size(); i += 8) {
    uint64_t w = 0;
    for (size_t j = 0; j < 8 && i + j < s.size(); ++j) w |= (uint64_t)(unsigned char)s[i + j] << (8 * j);
    feed(d, w);
  }
}

// The structural digest of an expression: its declaration (declText: kind, name, domain and range
// sorts, parameters such as extract's indices), a numeral's sort and exact value, and its
// arguments' digests, in order; a quantifier or a bound variable has none (such a set is not
// stored). Memoised per query only: the ASTs belong to contexts this file does not see die, and Z3
// reuses the ids of freed ASTs.
struct Digester {
  std::unordered_map<unsigned, D128> memo;
  std::unordered_map<unsigned, std::string> decls;
  bool ok = true;
  // A declaration as text: its kind, its name, domain and range as Z3 prints them, and its
  // parameters, which Z3 does not print ((_ extract 7 0) and (_ extract 15 8) print alike, as do
  // rotations by 7 and by 9): each with its kind. "" for a parameter that is itself a term or a
  // declaration (none of this verifier's queries has one).
  static std::string declText(const z3::func_decl &f) {
    z3::context &c = f.ctx();
    std::string t = std::to_string((int)f.decl_kind()) + "|" + f.to_string() + "|" + f.name().str();
    const unsigned n = Z3_get_decl_num_parameters(c, f);
    for (unsigned i = 0; i < n; ++i) {
      switch (Z3_get_decl_parameter_kind(c, f, i)) {
        case Z3_PARAMETER_INT: t += "|i" + std::to_string(Z3_get_decl_int_parameter(c, f, i)); break;
        case Z3_PARAMETER_DOUBLE: t += "|d" + std::to_string(Z3_get_decl_double_parameter(c, f, i)); break;
        case Z3_PARAMETER_RATIONAL: t += std::string("|q") + Z3_get_decl_rational_parameter(c, f, i); break;
        case Z3_PARAMETER_SYMBOL: t += "|s" + z3::symbol(c, Z3_get_decl_symbol_parameter(c, f, i)).str(); break;
        case Z3_PARAMETER_SORT: t += "|t" + z3::sort(c, Z3_get_decl_sort_parameter(c, f, i)).to_string(); break;
        default: return "";
      }
    }
    return t;
  }
  // Iterative (an explicit stack): the walks build terms thousands of levels deep.
  D128 of(const z3::expr &root) {
    std::vector<std::pair<z3::expr, bool>> work{{root, false}};  // (node, its arguments are done)
    while (!work.empty()) {
      auto [e, argsDone] = work.back();
      work.pop_back();
      if (memo.count(e.id())) continue;
      // Only terms of the sorts this verifier's queries use, over declarations the digest reads
      // whole: not a quantifier or bound variable, not a datatype (its constructors are not in
      // the digest), not a Z3 fresh name ("x!1", which a user constant may also spell).
      const Z3_sort_kind sk = e.is_app() ? e.get_sort().sort_kind() : Z3_UNKNOWN_SORT;
      const bool plainSort = sk == Z3_BOOL_SORT || sk == Z3_INT_SORT || sk == Z3_REAL_SORT || sk == Z3_BV_SORT;
      if (!e.is_app() || !plainSort ||
          (e.decl().decl_kind() == Z3_OP_UNINTERPRETED && e.decl().name().str().find('!') != std::string::npos)) {
        ok = false;
        memo.emplace(e.id(), D128{});
        continue;
      }
      const unsigned n = e.is_numeral() ? 0 : e.num_args();
      if (!argsDone) {
        work.emplace_back(e, true);
        for (unsigned i = 0; i < n; ++i)
          if (!memo.count(e.arg(i).id())) work.emplace_back(e.arg(i), false);
        continue;
      }
      D128 d;
      if (e.is_numeral()) {
        feed(d, 1);
        feed(d, e.get_sort().to_string());
        feed(d, std::string(Z3_get_numeral_string(e.ctx(), e)));  // exact (a rational as p/q)
      } else {
        feed(d, 2);
        const z3::func_decl f = e.decl();
        auto di = decls.find(f.id());
        if (di == decls.end()) di = decls.emplace(f.id(), declText(f)).first;
        if (di->second.empty()) ok = false;  // a parameter this digest does not read: not stored
        feed(d, di->second);
        feed(d, n);
        for (unsigned i = 0; i < n; ++i) {
          const D128 c = memo.at(e.arg(i).id());
          feed(d, c.a);
          feed(d, c.b);
        }
      }
      memo.emplace(e.id(), d);
    }
    return memo.at(root.id());
  }
};

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)v);
  return buf;
}

}  // namespace

bool load(const std::string &dir, const std::string &tag) {
  Store &S = store_();
  DIR *d = ::opendir(dir.c_str());
  if (!d) return false;
  S.dir = dir;
  // The tag names this binary and the Z3 library it runs on (linked dynamically: an upgrade is
  // another tag).
  std::string z3v = Z3_get_full_version();
  for (char &ch : z3v)
    if (ch == ' ' || ch == '\n' || ch == '\t') ch = '_';
  S.tag = tag + "/" + z3v;
  const std::string suffix = ".answers", prefix = S.tag + " ";
  std::vector<std::string> names;
  while (const dirent *e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) names.push_back(n);
  }
  ::closedir(d);
  for (const auto &n : names) {
    const std::string path = dir + "/" + n;
    const std::optional<std::string> text = readCacheFile(path, (size_t)256 << 20);  // no FIFO, no symlink
    if (!text) continue;
    size_t at = 0;
    bool first = true;
    while (at < text->size()) {
      size_t end = text->find('\n', at);
      if (end == std::string::npos) break;  // a line cut short: not read
      const std::string_view line(text->data() + at, end - at);
      at = end + 1;
      const bool ours = line.size() > prefix.size() && line.compare(0, prefix.size(), prefix) == 0;
      if (first && !ours) {  // another binary's answers (a file holds one binary's): stale
        std::remove(path.c_str());
        break;
      }
      first = false;
      if (ours) S.keys.emplace(line.substr(prefix.size()));
    }
  }
  return true;
}

bool enabled() { return !store_().dir.empty(); }

bool known(const std::string &key) {
  const Store &S = store_();
  return enabled() && S.keys.count(key) > 0;
}

void add(const std::string &key) {
  Store &S = store_();
  if (enabled() && S.keys.insert(key).second) S.fresh.push_back(key);
}

bool store() {
  Store &S = store_();
  if (!enabled() || S.fresh.empty()) return true;
  std::string text;
  for (const auto &k : S.fresh) text += S.tag + " " + k + "\n";
  // A name no other run has (this process, the time in nanoseconds), written whole, then renamed
  // into place: a reader sees all of the file or none of it.
  const auto ns = std::chrono::steady_clock::now().time_since_epoch().count();
  const bool ok = writeCacheFile(S.dir + "/run-" + std::to_string(::getpid()) + "-" + std::to_string(ns) + ".answers", text);
  S.fresh.clear();
  return ok;
}

z3::check_result checkCached(z3::solver &s) {
  if (!enabled()) return s.check();
  Digester g;  // the assertions (held by `as`) stay alive, so their ids are theirs meanwhile
  const z3::expr_vector as = s.assertions();
  std::vector<std::pair<uint64_t, uint64_t>> parts;  // the set's digests, sorted: order-free
  for (unsigned i = 0; i < as.size(); ++i) {
    const D128 d = g.of(as[i]);
    parts.emplace_back(d.a, d.b);
  }
  if (!g.ok) return s.check();
  std::sort(parts.begin(), parts.end());
  D128 all;
  feed(all, parts.size());
  for (const auto &[a, b] : parts) feed(all, a), feed(all, b);
  const std::string key = "unsat " + hex64(all.a) + hex64(all.b);
  if (known(key)) return z3::unsat;
  const z3::check_result r = s.check();
  if (r == z3::unsat) add(key);
  return r;
}

}  // namespace cv::answers
