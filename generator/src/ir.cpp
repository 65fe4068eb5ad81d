// ir.cpp: builds the kernel IR from a spec and schedules the fused loop. See ir.hpp.
#include "ir.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "kir/shared.hpp"

namespace chapoly::gen {

using nlohmann::json;

Derived derive(const Spec &s) {
  Derived d;
  const int R = s.radix_bits, L = s.limbs;
  d.top_bits = 130 - R * (L - 1);
  // 2^(R*L) = 2^130 * 2^(R*L-130) = 5 * 2^(R*L-130) (mod 2^130 - 5).
  d.wrap_factor = 5 << (R * L - 130);
  d.hi_shift = 52 - R;
  d.top_hi_shift = R * (L - 1) + 52 - 130;
  d.poly_width = s.lanes * 64;
  d.bulk_width = s.bulk_blocks * 32;
  d.chunk_bytes = 64 * s.bulk_blocks;
  d.group_bytes = 16 * s.lanes;
  d.groups_per_chunk = d.chunk_bytes / d.group_bytes;
  d.short_states = (s.short_max_bytes + 64) / 256;
  if (d.hi_shift < 0 || d.top_hi_shift < 0)
    throw std::logic_error("representation leaves no room for the IFMA hi half");
  return d;
}

namespace {

struct Emitter {
  std::vector<Op> ops;
  int width;
  std::string spec;
  int group = -1;

  void add(std::string op, std::string dst, std::vector<std::string> args, int imm = -1,
           std::string note = "") {
    Op o;
    o.op = std::move(op);
    o.dst = std::move(dst);
    o.args = std::move(args);
    o.imm = imm;
    o.width = width;
    o.note = std::move(note);
    o.spec = spec;
    o.group = group;
    ops.push_back(std::move(o));
  }
  // dst = src * k for a small constant k, as shifts and adds (no 64-bit multiply on AVX512F).
  void mul_const(const std::string &dst, const std::string &src, int k, const std::string &tmp,
                 const std::string &why) {
    std::vector<int> bits;
    for (int b = 0; (k >> b) != 0; ++b)
      if ((k >> b) & 1) bits.push_back(b);
    bool first = true;
    for (int b : bits) {
      std::string term = src;
      if (b != 0) {
        add("shl64", tmp, {src}, b, fmt::format("{} << {}", src, b));
        term = tmp;
      }
      if (first) {
        if (term != dst) add("mov", dst, {term}, -1, fmt::format("{} = {}*{} ({})", dst, src, k, why));
        first = false;
      } else {
        add("add64", dst, {dst, term}, -1, fmt::format("{} += {} << {}", dst, src, b));
      }
    }
  }
};

// ---------------------------------------------------------------------------------------------
// ChaCha20 (RFC 8439 section 2.1-2.3)

// One double round, word-sliced: register i holds state word i of every block. The quarter
// rounds and their steps are RFC 8439's, shared with the KIR builders (kir/shared.hpp).
std::vector<Op> chacha_dr_sliced(const Spec &s, int width) {
  Emitter e{{}, width, "chacha20.bulk_blocks"};
  auto x = [](int i) { return fmt::format("x{}", i); };
  const auto &steps = kir::kChachaQuarterRoundSteps;
  for (int half = 0; half < 2; ++half) {
    const int(*qrs)[4] = &kir::kChachaQuarterRounds[4 * half];
    // Steps of the 4 independent quarter rounds are issued side by side (4-way ILP): each
    // (add, xor, rotate) triple of the quarter round for all four, then the next triple.
    for (int t = 0; t < 4; ++t) {
      const kir::QrStep &add = steps[3 * t], &rot = steps[3 * t + 2];
      for (int q = 0; q < 4; ++q) {
        const int *w = qrs[q];
        int a = w[add.dst], b = w[add.src];
        e.add("add32", x(a), {x(a), x(b)}, -1,
              fmt::format("QR({},{},{},{}): x{} += x{}", w[0], w[1], w[2], w[3], a, b));
      }
      for (int q = 0; q < 4; ++q) {
        const int *w = qrs[q];
        int a = w[add.dst], d = w[rot.dst];
        e.add("xor", x(d), {x(d), x(a)}, -1, fmt::format("x{} ^= x{}", d, a));
      }
      e.spec = "chacha20.rotate";
      for (int q = 0; q < 4; ++q) {
        int d = qrs[q][rot.dst];
        e.add("rotl32", x(d), {x(d)}, rot.rot, fmt::format("x{} <<<= {}", d, rot.rot));
      }
      e.spec = "chacha20.bulk_blocks";
    }
  }
  (void)s;
  return e.ops;
}

// One double round on `n` (1 to 4) independent states of 4 blocks per zmm: rows a, b, c, d of
// state k are named {p}a..{p}d with p = "x", "y", "z", "w"; their ops are issued side by side.
// Diagonals (a_i, b_i+1, c_i+2, d_i+3) by rotating rows within each lane: with one or two states,
// whose pass is bound by its rounds' latency, rows a, c, d by 3, 1, 2 words, so that row b, the last
// one the column round writes, enters the diagonal round unshuffled and its vpshufd leaves the
// chain (as the avx2 one- to three-set passes, kir/scalar.cpp chacha20_lanes); with three or four
// states, throughput-bound on Intel's two 512-bit ports (45 or 60 ops per round), rows b, c, d by
// 1, 2, 3 (row b left in place was not measured for three zmm states: the avx2 three-set pass has
// three vector ports and a latency-bound share, docs/benchmarks.md stop 48).
std::vector<Op> chacha_dr_x4(int nstates) {
  Emitter e{{}, 512, "chacha20.short_blocks_per_vector"};
  const char *pre[4] = {"x", "y", "z", "w"};
  auto r = [&](int k, char row) { return fmt::format("{}{}", pre[k], row); };
  const auto &steps = kir::kChachaQuarterRoundSteps;  // RFC 8439 2.1, shared with the KIR builders
  auto quarter = [&](const char *what) {
    for (int t = 0; t < 4; ++t) {
      // (add, xor, rotate) triple t of the quarter round on rows a, b, c, d = words 0..3 of it
      const kir::QrStep &add = steps[3 * t], &rot = steps[3 * t + 2];
      const char A = "abcd"[add.dst], B = "abcd"[add.src], D = "abcd"[rot.dst];
      for (int k = 0; k < nstates; ++k)
        e.add("add32", r(k, A), {r(k, A), r(k, B)}, -1, fmt::format("{} rows: {} += {}", what, A, B));
      for (int k = 0; k < nstates; ++k)
        e.add("xor", r(k, D), {r(k, D), r(k, A)}, -1, fmt::format("{} ^= {}", D, A));
      e.spec = "chacha20.rotate";
      for (int k = 0; k < nstates; ++k)
        e.add("rotl32", r(k, D), {r(k, D)}, rot.rot, fmt::format("{} <<<= {}", D, rot.rot));
      e.spec = "chacha20.short_blocks_per_vector";
    }
  };
  quarter("column");
  // (row, words to turn by, note) before the diagonal quarter round and after it.
  struct Turn {
    char row;
    int by;
    const char *note;
  };
  static const Turn kBFixed[2][3] = {
      {{'a', 3, "diagonalise (row b stays): row a words (3,0,1,2)"}, {'c', 1, "row c words (1,2,3,0)"}, {'d', 2, "row d words (2,3,0,1)"}},
      {{'a', 1, "undo: row a words (1,2,3,0)"}, {'c', 3, "row c words (3,0,1,2)"}, {'d', 2, "row d words (2,3,0,1)"}}};
  static const Turn kAFixed[2][3] = {
      {{'b', 1, "diagonalise: row b words (1,2,3,0)"}, {'c', 2, "row c words (2,3,0,1)"}, {'d', 3, "row d words (3,0,1,2)"}},
      {{'b', 3, "undo: row b words (3,0,1,2)"}, {'c', 2, "row c words (2,3,0,1)"}, {'d', 1, "row d words (1,2,3,0)"}}};
  const auto &turns = nstates <= 2 ? kBFixed : kAFixed;
  auto turn = [&](int when) {
    for (int k = 0; k < nstates; ++k)
      for (const Turn &t : turns[when]) e.add("shufrow32", r(k, t.row), {r(k, t.row)}, t.by, t.note);
  };
  turn(0);
  quarter("diagonal");
  turn(1);
  return e.ops;
}

// ---------------------------------------------------------------------------------------------
// Poly1305 in radix 2^R with L limbs on the 52-bit multiplier (RFC 8439 section 2.5).

// Carry chain of the spec over limbs named h[0..L).
void poly_carry(Emitter &e, const Spec &s, const Derived &d, const std::vector<std::string> &h,
                const std::string &c) {
  e.spec = "poly1305.carry_chain";
  for (const auto &cr : s.carry_chain) {
    int bits = s.limb_bits[cr.from];
    e.add("shr64", c, {h[cr.from]}, bits, fmt::format("carry {}>{}: c = {} >> {}", cr.from, cr.to, h[cr.from], bits));
    e.add("and", h[cr.from], {h[cr.from], fmt::format("M{}", bits)}, -1, fmt::format("{} &= 2^{}-1", h[cr.from], bits));
    if (cr.to == 0 && cr.from == s.limbs - 1) {
      // c has weight 2^130 = 5 (mod p).
      e.add("add64", h[0], {h[0], c}, -1, fmt::format("{} += c * 5 (2^130 = 5 mod p): c", h[0]));
      e.add("shl64", c, {c}, 2, "c << 2");
      e.add("add64", h[0], {h[0], c}, -1, fmt::format("{} += c << 2", h[0]));
    } else {
      e.add("add64", h[cr.to], {h[cr.to], c}, -1, fmt::format("{} += c", h[cr.to]));
    }
  }
}

// out = a * b mod p, partially reduced. b has precomputed bs_j = wrap_factor * b_j.
void poly_mul(Emitter &e, const Spec &s, const Derived &d, const std::vector<std::string> &out,
              const std::vector<std::string> &a, const std::vector<std::string> &b,
              const std::vector<std::string> &bs) {
  const int L = s.limbs;
  e.spec = "poly1305.multiplier";
  std::vector<std::string> lo, hi;
  for (int k = 0; k < L; ++k) {
    lo.push_back(fmt::format("d{}lo", k));
    hi.push_back(fmt::format("d{}hi", k));
  }
  // d_k = sum_{i+j=k} a_i b_j + sum_{i+j=k+L} a_i (wrap*b_j), lo and hi 52-bit halves.
  for (int half = 0; half < 2; ++half) {
    const char *op = half == 0 ? "madd52lo" : "madd52hi";
    auto &acc = half == 0 ? lo : hi;
    for (int term = 0; term < L; ++term) {
      for (int k = 0; k < L; ++k) {
        int i = term, j = k - i;
        std::string bj;
        std::string why;
        if (j >= 0) {
          bj = b[j];
          why = fmt::format("{} * {}", a[i], b[j]);
        } else {
          j += L;
          bj = bs[j];
          why = fmt::format("{} * {}*{} (2^{} = {} mod p)", a[i], d.wrap_factor, b[j], s.radix_bits * L, d.wrap_factor);
        }
        e.add(op, acc[k], {term == 0 ? std::string("ZERO") : acc[k], a[i], bj}, -1,
              fmt::format("{} += {}({})", acc[k], half == 0 ? "lo52" : "hi52", why));
      }
    }
  }
  // Fold the hi halves: hi_k has weight 2^(R*k+52) = 2^(R*(k+1)) * 2^(52-R).
  e.spec = "poly1305.radix_bits";
  for (int k = 0; k < L; ++k) {
    if (k + 1 < L) {
      e.add("shl64", "t", {hi[k]}, d.hi_shift, fmt::format("{} * 2^52 = ({} << {}) * 2^{}", hi[k], hi[k], d.hi_shift, s.radix_bits * (k + 1)));
      e.add("add64", lo[k + 1], {lo[k + 1], "t"}, -1, fmt::format("{} += {} << {}", lo[k + 1], hi[k], d.hi_shift));
    } else {
      e.add("shl64", "t", {hi[k]}, d.top_hi_shift, fmt::format("{} * 2^{} = ({} << {}) * 2^130", hi[k], s.radix_bits * k + 52, hi[k], d.top_hi_shift));
      e.add("add64", lo[0], {lo[0], "t"}, -1, fmt::format("{} += t * 5 (2^130 = 5 mod p): t", lo[0]));
      e.add("shl64", "t", {"t"}, 2, "t << 2");
      e.add("add64", lo[0], {lo[0], "t"}, -1, fmt::format("{} += t << 2", lo[0]));
    }
  }
  poly_carry(e, s, d, lo, "c");
  e.spec = "poly1305.limbs";
  for (int k = 0; k < L; ++k) e.add("mov", out[k], {lo[k]}, -1, fmt::format("{} = {}", out[k], lo[k]));
}

std::vector<std::string> names(const char *p, int n) {
  std::vector<std::string> v;
  for (int i = 0; i < n; ++i) v.push_back(fmt::format("{}{}", p, i));
  return v;
}

// One lane step of the Horner scheme on `lanes` blocks at `ptr + offset`:
//   acc = acc * r^lanes + m + hin;  hin = 0
// (acc lane j holds the sum whose pending power is r^(lanes-j); hin carries a settled h into
// the first step; see docs/kernels.md).
std::vector<Op> poly_group(const Spec &s, const Derived &d, const std::string &ptr, int group) {
  Emitter e{{}, d.poly_width, "poly1305.lanes"};
  e.group = group;
  e.add("load_blocks", "w", {ptr}, -1, fmt::format("two vectors of 64-bit words of {} blocks", s.lanes));
  e.add("deinterleave_lo", "mlo", {"w"}, -1, "low 64 bits of each block, block j in lane j");
  e.add("deinterleave_hi", "mhi", {"w"}, -1, "high 64 bits of each block");
  e.spec = "poly1305.radix_bits";
  e.add("and", "m0", {"mlo", "M44"}, -1, "m0 = bits 0..43");
  e.add("shr64", "m1", {"mlo"}, 44, "m1 = bits 44..63 ...");
  e.add("and", "t", {"mhi", "M24"}, -1, "... | bits 64..87 (masked before the shift: no bit is lost)");
  e.add("shl64", "t", {"t"}, 20, "");
  e.add("or", "m1", {"m1", "t"}, -1, "");
  e.add("shr64", "m2", {"mhi"}, 24, "m2 = bits 88..127 ...");
  e.add("or", "m2", {"m2", "HIBIT"}, -1, "... | 2^128 (the 0x01 byte after each full block)");
  poly_mul(e, s, d, names("p", 3), names("acc", 3), names("rl", 3), {"", "rls1", "rls2"});
  e.spec = "poly1305.lanes";
  for (int k = 0; k < 3; ++k) {
    e.add("add64", fmt::format("acc{}", k), {fmt::format("p{}", k), fmt::format("m{}", k)}, -1,
          fmt::format("acc{} = (acc * r^{}){} + m{}", k, s.lanes, k, k));
    e.add("add64", fmt::format("acc{}", k), {fmt::format("acc{}", k), fmt::format("hin{}", k)}, -1,
          fmt::format("acc{} += hin{} (h from before, first step only)", k, k));
  }
  for (int k = 0; k < 3; ++k) e.add("zero", fmt::format("hin{}", k), {}, -1, "h is absorbed now");
  return e.ops;
}

// The fused loop body: 10 double rounds with `groups` Poly1305 lane steps woven in.
std::vector<Op> fused(const Spec &s, const Derived &d, int interleave) {
  auto dr = chacha_dr_sliced(s, d.bulk_width);
  std::vector<std::vector<Op>> steps;
  for (int g = 0; g < d.groups_per_chunk; ++g)
    steps.push_back(poly_group(s, d, fmt::format("mp + {}", g * d.group_bytes), g));
  std::vector<Op> out;
  size_t next = 0;
  for (int r = 0; r < 10; ++r) {
    std::vector<Op> poly;
    size_t take = interleave == 0 ? 0 : static_cast<size_t>(interleave);
    if (r == 9 && interleave != 0) take = steps.size() - next;  // leftovers go into the last round
    for (size_t k = 0; k < take && next < steps.size(); ++k, ++next)
      poly.insert(poly.end(), steps[next].begin(), steps[next].end());
    Op mark;
    mark.op = "comment";
    mark.note = fmt::format("double round {} of 10{}", r + 1,
                            poly.empty() ? std::string() : fmt::format(" + Poly1305 step(s) woven in"));
    mark.spec = "schedule.interleave";
    out.push_back(mark);
    // Spread the poly ops evenly: after ChaCha20 op i, emit poly ops up to (i+1)*m/n.
    size_t n = dr.size(), m = poly.size(), emitted = 0;
    for (size_t i = 0; i < n; ++i) {
      out.push_back(dr[i]);
      size_t upto = (i + 1) * m / n;
      for (; emitted < upto; ++emitted) out.push_back(poly[emitted]);
    }
  }
  // interleave = 0: the MAC runs after the keystream, inside the same iteration.
  for (; next < steps.size(); ++next) {
    Op mark;
    mark.op = "comment";
    mark.note = fmt::format("Poly1305 step {} (not interleaved)", next);
    mark.spec = "schedule.interleave";
    out.push_back(mark);
    out.insert(out.end(), steps[next].begin(), steps[next].end());
  }
  return out;
}

json to_json(const std::vector<Op> &ops, const Spec &s) {
  json a = json::array();
  for (const auto &o : ops) {
    json j = {{"op", o.op}, {"dst", o.dst}, {"args", o.args}, {"imm", o.imm}, {"width", o.width},
              {"note", o.note}, {"spec", o.spec}, {"group", o.group}};
    auto it = s.line_of.find(o.spec);
    j["line"] = it == s.line_of.end() ? 0 : it->second;
    a.push_back(std::move(j));
  }
  return a;
}

}  // namespace

json build_ir(const Spec &s, const Derived &d) {
  json ir;
  ir["params"] = {
      {"name", s.name}, {"bulk_blocks", s.bulk_blocks}, {"lanes", s.lanes},
      {"interleave", s.interleave}, {"short_max_bytes", s.short_max_bytes},
      {"rotate", s.rotate}, {"radix_bits", s.radix_bits}, {"limbs", s.limbs},
      {"limb_bits", s.limb_bits}, {"top_bits", d.top_bits}, {"wrap_factor", d.wrap_factor},
      {"hi_shift", d.hi_shift}, {"top_hi_shift", d.top_hi_shift}, {"poly_width", d.poly_width},
      {"bulk_width", d.bulk_width}, {"chunk_bytes", d.chunk_bytes}, {"group_bytes", d.group_bytes},
      {"groups_per_chunk", d.groups_per_chunk}, {"short_states", d.short_states},
      {"features", s.features},
  };
  json chain = json::array();  // "i>j", as in the spec
  for (const auto &cr : s.carry_chain) chain.push_back(fmt::format("{}>{}", cr.from, cr.to));
  ir["params"]["carry_chain"] = chain;
  json lines;
  for (const auto &[k, v] : s.line_of) lines[k] = v;
  ir["spec_lines"] = lines;

  // Multiply helper: h = a * b, b with bs_j = wrap*b_j.
  Emitter mul{{}, d.poly_width, ""};
  poly_mul(mul, s, d, names("h", 3), names("a", 3), names("b", 3), {"", "bs1", "bs2"});
  Emitter carry{{}, d.poly_width, ""};
  poly_carry(carry, s, d, names("h", 3), "c");
  Emitter wrap{{}, d.poly_width, "poly1305.radix_bits"};
  wrap.mul_const("bs1", "b1", d.wrap_factor, "t", fmt::format("2^{} mod p", s.radix_bits * s.limbs));
  wrap.mul_const("bs2", "b2", d.wrap_factor, "t", fmt::format("2^{} mod p", s.radix_bits * s.limbs));

  ir["blocks"] = {
      {"chacha_dr_sliced", to_json(chacha_dr_sliced(s, d.bulk_width), s)},
      {"chacha_dr_x4_one", to_json(chacha_dr_x4(1), s)},
      {"chacha_dr_x4_two", to_json(chacha_dr_x4(2), s)},
      {"chacha_dr_x4_three", to_json(chacha_dr_x4(3), s)},
      {"chacha_dr_x4_four", to_json(chacha_dr_x4(4), s)},
      {"poly_mul", to_json(mul.ops, s)},
      {"poly_carry", to_json(carry.ops, s)},
      {"poly_wrap", to_json(wrap.ops, s)},
      {"poly_group", to_json(poly_group(s, d, "mp", -1), s)},
      {"fused", to_json(fused(s, d, s.interleave), s)},
  };
  return ir;
}

}  // namespace chapoly::gen
