// smt.cpp: Z3 plumbing for the one-operation bound queries (see smt.h).
#include "smt.h"

#include <z3++.h>

#include <chrono>
#include <cmath>

#include "answers.h"

namespace cv {

const char *resName(Res r) {
  switch (r) {
    case Res::OK: return "OK";
    case Res::FAILED: return "FAILED";
    case Res::TIMEOUT: return "TIMEOUT";
  }
  return "?";
}

std::string hex(u128 v) {
  if (v == 0) return "0x0";
  std::string s;
  while (v) {
    s.insert(s.begin(), "0123456789abcdef"[(unsigned)(v & 15)]);
    v >>= 4;
  }
  return "0x" + s;
}

std::string dec(u128 v) {
  if (v == 0) return "0";
  std::string s;
  while (v) {
    s.insert(s.begin(), (char)('0' + (int)(v % 10)));
    v /= 10;
  }
  return s;
}

double log2u(u128 v) {
  if (v == 0) return 0;
  double hi = (double)(uint64_t)(v >> 64), lo = (double)(uint64_t)v;
  return std::log2(hi * 18446744073709551616.0 + lo);
}

static u128 parseDec(const std::string &s) {
  u128 v = 0;
  for (char c : s)
    if (c >= '0' && c <= '9') v = v * 10 + (u128)(c - '0');
  return v;
}

struct Prover::Impl {
  z3::context ctx;
};

Prover::Prover(unsigned timeoutMs) : impl_(new Impl), timeoutMs_(timeoutMs) {}
Prover::~Prover() = default;

static std::string key(const OpQuery &q, u128 lo, u128 hi) {
  std::string k = q.op + "/" + std::to_string(q.width) + "/" + std::to_string(q.k);
  for (const auto &i : q.in) k += "|" + hex(i.lo) + ":" + hex(i.hi);
  k += "=>" + hex(lo) + ":" + hex(hi);
  return k;
}

Outcome Prover::checkRange(const OpQuery &q, u128 lo, u128 hi) {
  std::string k = key(q, lo, hi);
  auto it = cache_.find(k);
  auto name = [&](const Outcome &o) {
    if (o.res != Res::FAILED || o.vals.empty()) return o.cex;
    std::string cex;
    for (size_t i = 0; i + 1 < o.vals.size(); ++i) {
      std::string nm = i < q.names.size() && !q.names[i].empty() ? q.names[i] : "x" + std::to_string(i);
      cex += (i ? ", " : "") + nm + " = " + o.vals[i];
    }
    return "Z3 model: " + cex + " -> result " + o.vals.back();
  };
  if (it != cache_.end()) {
    ++hits_;
    Outcome o = it->second;
    o.cached = true;
    o.cex = name(o);
    return o;
  }
  if (answers::known("range " + k)) {  // --query-cache: proved by an earlier run (answers.h)
    ++hits_;
    Outcome o;
    o.cached = true;
    cache_[k] = o;
    return o;
  }
  ++queries_;
  auto t0 = std::chrono::steady_clock::now();
  z3::context &c = impl_->ctx;
  z3::solver s(c);
  z3::params p(c);
  p.set("timeout", timeoutMs_);
  s.set(p);

  bool bitwise = q.op == "and" || q.op == "or" || q.op == "xor" || q.op == "andnot" || q.op == "not";
  std::vector<z3::expr> xs;
  z3::expr r(c);
  if (bitwise) {
    unsigned w = q.width;
    for (size_t i = 0; i < q.in.size(); ++i) {
      z3::expr x = c.bv_const(("x" + std::to_string(i)).c_str(), w);
      s.add(z3::uge(x, c.bv_val(dec(q.in[i].lo).c_str(), w)));
      s.add(z3::ule(x, c.bv_val(dec(q.in[i].hi).c_str(), w)));
      xs.push_back(x);
    }
    if (q.op == "and") r = xs[0] & xs[1];
    else if (q.op == "or") r = xs[0] | xs[1];
    else if (q.op == "xor") r = xs[0] ^ xs[1];
    else if (q.op == "andnot") r = ~xs[0] & xs[1];
    else r = ~xs[0];
    // The claimed range is compared without wrap: widen by one bit.
    z3::expr rw = z3::zext(r, 1);
    z3::expr L = c.bv_val(dec(lo).c_str(), w + 1), H = c.bv_val(dec(hi).c_str(), w + 1);
    s.add(z3::ult(rw, L) || z3::ugt(rw, H));
  } else {
    for (size_t i = 0; i < q.in.size(); ++i) {
      z3::expr x = c.int_const(("x" + std::to_string(i)).c_str());
      s.add(x >= c.int_val(dec(q.in[i].lo).c_str()));
      s.add(x <= c.int_val(dec(q.in[i].hi).c_str()));
      xs.push_back(x);
    }
    auto pow2 = [&](unsigned e) { return c.int_val(dec((u128)1 << e).c_str()); };
    if (q.op == "id") {
      r = xs[0];
    } else if (q.op == "add") {
      r = xs[0];
      for (size_t i = 1; i < xs.size(); ++i) r = r + xs[i];
    } else if (q.op == "sub") {
      r = xs[0] - xs[1];
    } else if (q.op == "mul") {
      r = xs[0] * xs[1];
    } else if (q.op == "shl") {
      r = xs[0] * pow2(q.k);
    } else if (q.op == "shr") {
      // x = r * 2^k + t, 0 <= t < 2^k
      z3::expr qq = c.int_const("q"), t = c.int_const("t");
      s.add(xs[0] == qq * pow2(q.k) + t);
      s.add(t >= 0 && t < pow2(q.k));
      r = qq;
    } else if (q.op == "madd52lo" || q.op == "madd52hi") {
      // x1 * x2 = hi * 2^52 + lo, 0 <= lo < 2^52
      z3::expr pl = c.int_const("p"), plo = c.int_const("plo"), phi = c.int_const("phi");
      s.add(pl == xs[1] * xs[2]);
      s.add(pl == phi * pow2(52) + plo);
      s.add(plo >= 0 && plo < pow2(52));
      r = xs[0] + (q.op == "madd52lo" ? plo : phi);
    } else {
      Outcome o;
      o.res = Res::FAILED;
      o.cex = "internal error: unknown query operation '" + q.op + "'";
      return o;
    }
    s.add(r < c.int_val(dec(lo).c_str()) || r > c.int_val(dec(hi).c_str()));
  }
  Outcome o;
  z3::check_result cr = s.check();
  if (cr == z3::unsat) {
    o.res = Res::OK;
  } else if (cr == z3::sat) {
    o.res = Res::FAILED;
    z3::model m = s.get_model();
    for (size_t i = 0; i < xs.size(); ++i) {
      z3::expr v = m.eval(xs[i], true);
      o.vals.push_back(hex(parseDec(v.get_decimal_string(0))));
    }
    z3::expr rv = m.eval(r, true);
    std::string rs = rv.get_decimal_string(0);
    o.vals.push_back(rs.size() && rs[0] == '-' ? "-" + hex(parseDec(rs)) : hex(parseDec(rs)));
    o.cex = name(o);
  } else {
    o.res = Res::TIMEOUT;
    o.cex = "solver returned unknown (" + s.reason_unknown() + ")";
  }
  o.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  totalMs_ += o.ms;
  cache_[k] = o;
  if (o.res == Res::OK) answers::add("range " + k);
  return o;
}

}  // namespace cv
