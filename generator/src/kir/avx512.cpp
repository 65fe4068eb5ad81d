// avx512.cpp: the fused AVX-512 IFMA AEAD as KIR (see avx512.hpp).
//
// The straight-line lane ops (double rounds, the Poly1305 multiply, carry chain and lane step,
// the scheduled fused loop body) are the lane-op IR of src/ir.cpp; this file builds everything
// around them: helpers, key powers, partial and length blocks, the final reduction, the short and
// bulk kernels and their tails, and the exported kernels. The target table spells every op.
#include "avx512.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "../bounds.hpp"
#include "shared.hpp"

namespace chapoly::gen::kir {

namespace {

using K = Type::Kind;
using json = nlohmann::json;

// Spec keys.
const char *const kShort = "chacha20.short_blocks_per_vector";
const char *const kBulk = "chacha20.bulk_blocks";
const char *const kMul = "poly1305.multiplier";
const char *const kChain = "poly1305.carry_chain";
const char *const kLanes = "poly1305.lanes";
const char *const kCut = "cutoffs.short_max_bytes";
const char *const kSched = "schedule.interleave";

// --- expression and statement shorthands --------------------------------------------------------
Expr v(const std::string &n) { return var(n); }
Expr n(uint64_t x) { return lit(x, K::Size); }                 // decimal
Expr u32(uint64_t x) { return lit(x, K::U32); }                // 0x%08x above 255
Expr lx(const std::string &text, uint64_t x) {                 // a literal spelled as the reader expects
  Expr e = lit(x, K::U64);
  e.name = text;
  return e;
}
Expr hex(uint64_t x, const char *suffix = "") { return lx(fmt::format("0x{:x}{}", x, suffix), x); }
Expr w(const char *o, int bits, std::vector<Expr> a, int imm = -1) {
  Expr e = op(o, std::move(a), imm);
  e.bits = bits;
  return e;
}
Expr o2(const char *o, Expr a, Expr b) { return op(o, {std::move(a), std::move(b)}); }
Expr at(Expr p, uint64_t k) { return o2("offset", std::move(p), n(k)); }
Expr at(const std::string &p, uint64_t k) { return at(v(p), k); }
Expr brk(Expr e, int spaces) {
  e.brk = spaces;
  return e;
}
Expr c(K k, Expr e) { return cast(k, std::move(e)); }
Expr cmask(int bits, Expr e) {
  Expr x = cast(K::Mask, std::move(e));
  x.bits = bits;  // (__mmaskN): the renderer spells mask types by width
  return x;
}
std::vector<Expr> vs(const std::vector<std::string> &names) {
  std::vector<Expr> out;
  for (const auto &x : names) out.push_back(v(x));
  return out;
}
Stmt set(const std::string &l, Expr r, const std::string &note = "", int col = 0) {
  return noted(assign(v(l), std::move(r)), note, col);
}
Stmt cset(const char *opc, const std::string &l, Expr r) {
  Stmt s = assign(v(l), std::move(r));
  s.text = opc;
  return s;
}
Stmt dl(Type t, const std::string &name, Expr init = Expr{}, bool konst = false, const std::string &note = "",
        int col = 0) {
  Stmt s = decl(t, name, std::move(init));
  s.konst = konst;
  return noted(s, note, col);
}
Stmt dcl(Type t, const std::string &name, Expr init, const std::string &note = "", int col = 0) {
  return dl(t, name, std::move(init), true, note, col);
}
// One declaration of several names: `T a = x, b = y;` (an empty init: no initialiser).
Stmt dmany(Type t, std::vector<std::pair<std::string, Expr>> names, bool konst = false, const std::string &note = "") {
  Stmt s = decl(t, names[0].first, names[0].second);
  s.konst = konst;
  for (size_t i = 1; i < names.size(); ++i) s.more.push_back(names[i]);
  return noted(s, note);
}
Stmt dnames(Type t, const std::vector<std::string> &names, const std::string &note = "") {
  std::vector<std::pair<std::string, Expr>> x;
  for (const auto &nm : names) x.push_back({nm, Expr{}});
  return dmany(t, x, false, note);
}
Stmt ev(Expr e, const std::string &note = "") { return noted(eval(std::move(e)), note); }
Stmt fn(const std::string &f, std::vector<Expr> args, const std::string &note = "") {
  return ev(call(f, std::move(args)), note);
}
Stmt if1(Expr cond, Stmt then) {
  Stmt s = if_(std::move(cond), {std::move(then)});
  s.inline_body = true;
  return s;
}
Stmt if1e(Expr cond, Stmt then, Stmt orelse) {
  Stmt s = if_(std::move(cond), {std::move(then)}, {std::move(orelse)});
  s.inline_body = true;
  return s;
}
Stmt forn(K k, const std::string &i, Expr from, Expr bound, std::vector<Stmt> body) {
  return for_(Type::val(k), i, std::move(from), std::move(bound), std::move(body));
}
Param P(Type t, const std::string &name, int brk = 0) { return {t, name, brk}; }
const Type kU8p = Type::ptr(K::U8, false), kU8c = Type::ptr(K::U8, true);
const Type kKey = Type::array(K::U8, 32, true), kNonce = Type::array(K::U8, 12, true),
           kTag = Type::array(K::U8, 16, false);
const Type kSize = Type::val(K::Size), kU32 = Type::val(K::U32), kU64 = Type::val(K::U64),
           kInt = Type::val(K::Int);
const Type kRef64 = Type::ref(K::U64);
// The streaming key-power state: three vectors of eight 64-bit lanes (limbs 0, 1, 2 of q).
const uint64_t kPowersBytes = 192;

// --- the builder ----------------------------------------------------------------------------------
struct Avx512 {
  const Spec &s;
  const Derived &d;
  const json &blocks;
  const std::vector<std::string> &inv;
  int PW, CW, L, B, CH, GB, G, S, NS, VB;
  Type pv, cv, zv;  // Poly1305 vector, bulk ChaCha20 vector, zmm

  Avx512(const Spec &s_, const Derived &d_, const json &b_, const std::vector<std::string> &i_)
      : s(s_), d(d_), blocks(b_), inv(i_), PW(d_.poly_width), CW(d_.bulk_width), L(s_.lanes),
        B(s_.bulk_blocks), CH(d_.chunk_bytes), GB(d_.group_bytes), G(d_.groups_per_chunk),
        S(s_.short_max_bytes), NS(d_.short_states), VB(d_.poly_width / 8), pv(Type::vec(d_.poly_width)),
        cv(Type::vec(d_.bulk_width)), zv(Type::vec(512)) {}

  Function helper(const std::string &name, Type ret, std::vector<Param> params, const std::string &doc,
                  std::vector<Stmt> body, const std::string &spec = "") const {
    Function f;
    f.name = name;
    f.ret = ret;
    f.params = std::move(params);
    f.doc = doc;
    f.body = std::move(body);
    f.spec = spec;
    f.spec_after_doc = true;
    return f;
  }

  // --- lane-op IR (src/ir.cpp) -> statements ------------------------------------------------------
  // A pointer operand of the lane-op IR ("mp", "mp + 128") as an expression.
  static Expr ptr_expr(const std::string &p) {
    auto plus = p.find(" + ");
    if (plus == std::string::npos) return v(p);
    return at(v(p.substr(0, plus)), std::stoull(p.substr(plus + 3)));
  }
  Expr lane_op(const json &o) const {
    const std::string op = o["op"];
    const int bits = o["width"];
    std::vector<Expr> a;
    for (const auto &x : o["args"]) a.push_back(v(x.get<std::string>()));
    const int imm = o["imm"];
    if (op == "add32") return w("vadd32", bits, a);
    if (op == "xor") return w("vxor", bits, a);
    if (op == "rotl32") {
      // vprold, or a byte shuffle for the byte-multiple rotations when the spec says vpshufb.
      if (s.rotate == "vpshufb" && (imm == 16 || imm == 8))
        return w("vshufb", bits, {a[0], v(fmt::format("ROT{}", imm))});
      return w("vrotl32", bits, a, imm);
    }
    if (op == "shufrow32") return w("vshufrow32", bits, a, imm);
    if (op == "add64") return w("vadd64", bits, a);
    if (op == "and") return w("vand", bits, a);
    if (op == "or") return w("vor", bits, a);
    if (op == "shr64") return w("vshr64", bits, a, imm);
    if (op == "shl64") return w("vshl64", bits, a, imm);
    if (op == "madd52lo") return w("vmadd52lo", bits, a);
    if (op == "madd52hi") return w("vmadd52hi", bits, a);
    if (op == "mov") return a[0];
    if (op == "zero") return w("vzero", bits, {});
    if (op == "deinterleave_lo" || op == "deinterleave_hi") {
      const std::string src = o["args"][0];
      return w("vpermx2var64", bits, {v(src + "0"), v(op == "deinterleave_lo" ? "IDX_LO" : "IDX_HI"), v(src + "1")});
    }
    throw std::logic_error("avx512: unknown lane op " + op);
  }
  std::vector<Stmt> lane_ops(const char *block) const {
    std::vector<Stmt> out;
    for (const auto &o : blocks.at(block)) {
      const std::string op = o["op"], note = o["note"], dst = o["dst"];
      if (op == "comment") {
        out.push_back(comment(fmt::format("---- {}  [spec line {}: {}]", note, o["line"].get<int>(),
                                          o["spec"].get<std::string>())));
        continue;
      }
      Stmt st;
      if (op == "load_blocks") {
        const int bits = o["width"];
        Expr p = ptr_expr(o["args"][0]);
        st = line({set(dst + "0", w("vloadblk", bits, {p})), set(dst + "1", w("vloadblk", bits, {at(p, bits / 8)}))});
      } else {
        st = set(dst, lane_op(o));
      }
      out.push_back(noted(st, note, 56));
    }
    out.push_back(blank());
    return out;
  }

  // --- shared constants -------------------------------------------------------------------------
  // Poly1305 vector constants by name (limb masks, the 2^128 bit, the deinterleave indices).
  std::vector<Stmt> pconsts(const std::vector<std::string> &want, bool trailing_blank = true) const {
    auto has = [&](const char *k) { return std::find(want.begin(), want.end(), k) != want.end(); };
    std::vector<Stmt> out;
    const uint64_t m44 = (1ull << s.radix_bits) - 1, m42 = (1ull << d.top_bits) - 1;
    const uint64_t m24 = (1ull << (s.radix_bits * 2 - 64)) - 1;  // limb 1's bits in the high word
    auto set1 = [&](Expr x) { return w("vbroadcast64", PW, {std::move(x)}); };
    if (has("ZERO")) out.push_back(dcl(pv, "ZERO", w("vzero", PW, {})));
    if (has("M44")) out.push_back(dcl(pv, "M44", set1(hex(m44, "LL")), fmt::format("2^{} - 1", s.radix_bits)));
    if (has("M42")) out.push_back(dcl(pv, "M42", set1(hex(m42, "LL")), fmt::format("2^{} - 1", d.top_bits)));
    if (has("M24")) {
      std::string text = fmt::format("2^{} - 1", s.radix_bits * 2 - 64);
      out.push_back(dcl(pv, "M24", set1(hex(m24, "LL")), text, -7));
    }
    if (has("HIBIT")) {
      const int b = 128 - 2 * s.radix_bits;
      out.push_back(dcl(pv, "HIBIT", set1(op("shl64", {lx("1LL", 1)}, b)),
                        fmt::format("2^128 in limb 2 (weight 2^{})", 2 * s.radix_bits), -6));
    }
    if (has("IDX")) {
      std::vector<Expr> lo, hi;
      for (int j = 0; j < L; ++j) {
        lo.push_back(n(2 * j));
        hi.push_back(n(2 * j + 1));
      }
      const int col = PW == 512 ? -3 : -17;
      out.push_back(dcl(pv, "IDX_LO", w("vlanes64", PW, lo), fmt::format("word 0 of blocks 0..{}", L - 1), col));
      out.push_back(dcl(pv, "IDX_HI", w("vlanes64", PW, hi), fmt::format("word 1 of blocks 0..{}", L - 1), col));
    }
    if (trailing_blank) out.push_back(blank());
    return out;
  }

  // vpshufb masks for the rotations by 16 and 8 (when the spec asks for byte shuffles): byte j
  // of each word takes byte j - r/8 (mod 4) of the same word.
  std::vector<Stmt> rotconsts(int bits) const {
    std::vector<Stmt> out;
    if (s.rotate == "vpshufb") {
      for (int r : {16, 8}) {
        std::vector<Expr> words;
        for (int k = 0; k < 4; ++k) {
          uint32_t m = 0;
          for (int j = 3; j >= 0; --j) m = (m << 8) | static_cast<uint32_t>(4 * k + ((j - r / 8) & 3));
          words.push_back(lx(fmt::format("0x{:08x}", m), m));
        }
        Stmt st = dcl(Type::vec(bits), fmt::format("ROT{}", r), w("vbroadcast128", bits, {w("vlanes32", 128, words)}));
        // both notes in one column: ROT8's line is one character shorter
        out.push_back(noted(st, fmt::format("bytes for <<< {}", r), r == 16 ? 0 : -3));
      }
    }
    out.push_back(blank());
    return out;
  }

  std::vector<Stmt> invariant() const {
    std::vector<Stmt> out;
    for (int k = 0; k < 3; ++k) out.push_back(comment(fmt::format("chapoly-invariant: acc{} <= {}", k, inv[k])));
    out.push_back(blank());
    return out;
  }
  Stmt polytemps() const {
    return dnames(pv, {"w0", "w1", "mlo", "mhi", "m0", "m1", "m2", "t", "c", "p0", "p1", "p2", "d0lo", "d0hi",
                       "d1lo", "d1hi", "d2lo", "d2hi"});
  }

  std::vector<Param> keyparams(int brk0 = 0) const {
    std::vector<Param> out;
    int i = 0;
    for (const char *x : {"q0", "q1", "q2", "qs1", "qs2"}) out.push_back(P(pv, x, i++ == 0 ? brk0 : 0));
    return out;
  }
  std::vector<Param> rlparams() const {
    std::vector<Param> out;
    for (const char *x : {"rl0", "rl1", "rl2", "rls1", "rls2"}) out.push_back(P(pv, x));
    return out;
  }
  std::vector<Expr> keyargs() const { return vs({"q0", "q1", "q2", "qs1", "qs2"}); }
  std::vector<Expr> keyrlargs() const {
    return vs({"q0", "q1", "q2", "qs1", "qs2", "rl0", "rl1", "rl2", "rls1", "rls2"});
  }

  // --- ChaCha20, 4 blocks per zmm -----------------------------------------------------------------
  std::vector<Function> chacha_x4() const {
    std::vector<Function> out;
    {
      std::vector<Expr> lanes;
      for (int k = 0; k < 4; ++k) {
        lanes.push_back(c(K::Int, v(fmt::format("c{}", k))));
        for (int z = 0; z < 3; ++z) lanes.push_back(n(0));
      }
      Function f = helper("chacha20_x4_ctr", zv, {P(kU32, "c0"), P(kU32, "c1"), P(kU32, "c2"), P(kU32, "c3")},
                          "Block counters c0..c3 for the four lanes (word 0 of each row-d lane).",
                          {ret(w("vlanes32", 512, lanes))});
      f.section = "ChaCha20, 4 blocks per zmm: one block per 128-bit lane, rows a, b, c, d (RFC 8439 2.3)";
      f.section_spec = kShort;
      out.push_back(f);
    }
    {
      std::vector<Expr> sig;
      for (uint32_t x : chacha20_sigma()) sig.push_back(u32(x));
      out.push_back(helper(
          "chacha20_x4_init", Type::vec(0),
          {P(Type::vref(512), "xa"), P(Type::vref(512), "xb"), P(Type::vref(512), "xc"), P(Type::vref(512), "xd"),
           P(kKey, "key", 30), P(kNonce, "nonce"), P(zv, "ctr")},
          "Initial state: constants, key, key, counter || nonce (RFC 8439 2.3), counters added from ctr.",
          {set("xa", w("vbroadcast128", 512, {w("vlanes32", 128, sig)})),
           set("xb", w("vbroadcast128", 512, {w("vload", 128, {v("key")})})),
           set("xc", w("vbroadcast128", 512, {w("vload", 128, {at("key", 16)})})),
           set("xd", w("vadd32", 512, {w("vbroadcast128", 512, {nonce_word_vector()}), v("ctr")}))}));
      out.back().ret = Type::val(K::Void);
    }
    auto rounds = [&](const char *name, const char *doc, int nst, const char *block) {
      const char *pre[4] = {"x", "y", "z", "w"};
      std::vector<Param> ps;
      for (int k = 0; k < nst; ++k)
        for (char r : {'a', 'b', 'c', 'd'})
          ps.push_back(P(Type::vref(512), fmt::format("{}{}", pre[k], r), k > 0 && r == 'a' ? 33 : 0));
      std::vector<Stmt> body = rotconsts(512);
      body.push_back(forn(K::Int, "i", n(0), n(10), lane_ops(block)));
      return helper(name, Type::val(K::Void), ps, doc, body);
    };
    out.push_back(rounds("chacha20_x4_rounds", "20 rounds (10 double rounds) on one 4-block state.", 1, "chacha_dr_x4_one"));
    out.push_back(rounds("chacha20_x4_rounds2",
                         "20 rounds on two independent 4-block states, interleaved for instruction-level parallelism.",
                         2, "chacha_dr_x4_two"));
    out.push_back(rounds("chacha20_x4_rounds3",
                         "20 rounds on three independent 4-block states (12 blocks): the one-time key pass of a tail of 8\n"
                         "to 11 blocks, or an update tail of 9 to 12; a quarter less vector work than four states.",
                         3, "chacha_dr_x4_three"));
    out.push_back(rounds("chacha20_x4_rounds4",
                         "20 rounds on four independent 4-block states (16 blocks), for tails of 12 blocks or more (13 in\n"
                         "the update entries): four dependency chains side by side instead of passes one after the other.",
                         4, "chacha_dr_x4_four"));
    {
      std::vector<Param> ps = {P(Type::vref(512), "o0"), P(Type::vref(512), "o1"), P(Type::vref(512), "o2"),
                               P(Type::vref(512), "o3")};
      int i = 0;
      for (const char *x : {"xa", "xb", "xc", "xd", "sa", "sb", "sc", "sd"}) ps.push_back(P(zv, x, i++ % 4 == 0 ? 32 : 0));
      std::vector<Stmt> body;
      for (char r : {'a', 'b', 'c', 'd'})
        body.push_back(set(fmt::format("x{}", r), w("vadd32", 512, {v(fmt::format("x{}", r)), v(fmt::format("s{}", r))})));
      // 128-bit lane transpose: t = (a, b) and (c, d) lane pairs, then block i = lane i of each row.
      body.push_back(dcl(zv, "t0", w("vshuf128", 512, {v("xa"), v("xb")}, 0x44), "a0 a1 b0 b1"));
      body.push_back(dcl(zv, "t1", w("vshuf128", 512, {v("xc"), v("xd")}, 0x44), "c0 c1 d0 d1"));
      body.push_back(dcl(zv, "t2", w("vshuf128", 512, {v("xa"), v("xb")}, 0xee), "a2 a3 b2 b3"));
      body.push_back(dcl(zv, "t3", w("vshuf128", 512, {v("xc"), v("xd")}, 0xee), "c2 c3 d2 d3"));
      const char *notes[4] = {"a0 b0 c0 d0 = block 0", "block 1", "block 2", "block 3"};
      for (int k = 0; k < 4; ++k)
        body.push_back(set(fmt::format("o{}", k),
                           w("vshuf128", 512, {v(k < 2 ? "t0" : "t2"), v(k < 2 ? "t1" : "t3")}, k % 2 ? 0xdd : 0x88),
                           notes[k], 56));
      out.push_back(helper("chacha20_x4_blocks", Type::val(K::Void), ps,
                           "Adds the input state (RFC 8439 2.3 step 3) and transposes rows to blocks: o_i = block i.",
                           body));
    }
    out.push_back(helper(
        "chacha20_xor_block", Type::val(K::Void), {P(kU8p, "out"), P(kU8c, "in"), P(kSize, "n"), P(zv, "ks")},
        "out[0..n) = in[0..n) ^ ks[0..n) for n <= 64: masked load and store, no byte outside touched.",
        {dcl(Type::mask(64), "k", cmask(64, o2("bzhi64", lx("~0ULL", ~0ull), c(K::Uns, v("n"))))),
         ev(w("vmask_store8", 512, {v("out"), v("k"), w("vxor", 512, {v("ks"), w("vmaskz_load8", 512, {v("k"), v("in")})})}))}));
    {
      // One pass: nst (1 or 2) 4-block row states from block ctr, their rounds interleaved, then
      // up to 256 nst bytes xored; the loop below takes two states while more than 256 bytes remain
      // (8 blocks for about the latency of 4: the stream's parked batches, STREAM_PARK 8).
      auto pass = [&](int nst) {
        std::vector<std::string> rows = x4_rows(nst), names = rows;
        for (int k = 0; k < 4 * nst; ++k) names.push_back(fmt::format("o{}", k));
        std::vector<Stmt> body = {dnames(zv, names)};
        for (int k = 0; k < nst; ++k)
          body.push_back(fn("chacha20_x4_init",
                            {v(rows[4 * k]), v(rows[4 * k + 1]), v(rows[4 * k + 2]), v(rows[4 * k + 3]), v("key"), v("nonce"),
                             call("chacha20_x4_ctr", {ctr_plus("ctr", 4 * k), ctr_plus("ctr", 4 * k + 1),
                                                      ctr_plus("ctr", 4 * k + 2), ctr_plus("ctr", 4 * k + 3)})}));
        std::vector<std::pair<std::string, Expr>> saved;
        for (int k = 0; k < 4 * nst; ++k) saved.push_back({fmt::format("{}{}", "st"[k / 4], "abcd"[k % 4]), v(rows[k])});
        body.push_back(dmany(zv, saved, true));
        body.push_back(x4_rounds_call(nst));
        for (int k = 0; k < nst; ++k) {
          std::vector<std::string> a;
          for (int j = 0; j < 4; ++j) a.push_back(fmt::format("o{}", 4 * k + j));
          for (int j = 0; j < 4; ++j) a.push_back(rows[4 * k + j]);
          for (int j = 0; j < 4; ++j) a.push_back(fmt::format("{}{}", "st"[k], "abcd"[j]));
          body.push_back(fn("chacha20_x4_blocks", vs(a)));
        }
        for (int k = 0; k < 4 * nst; ++k) body.push_back(xor_block_at("n", "out", "in", k, fmt::format("o{}", k)));
        body.push_back(dcl(kSize, "step", op("select", {o2("lt", v("n"), n(256 * nst)), v("n"), n(256 * nst)})));
        body.push_back(cset("+", "out", v("step")));
        body.push_back(cset("+", "in", v("step")));
        body.push_back(cset("-", "n", v("step")));
        body.push_back(cset("+", "ctr", n(4 * nst)));
        return body;
      };
      out.push_back(helper("chacha20_x4_stream", Type::val(K::Void),
                           {P(kU8p, "out"), P(kU8c, "in"), P(kSize, "n"), P(kKey, "key", 32), P(kNonce, "nonce"),
                            P(kU32, "ctr")},
                           "out[0..n) = in[0..n) ^ keystream from block ctr, any n: 8 blocks (512 bytes) per pass in\n"
                           "two interleaved 4-block states while more than 256 bytes remain, then 4 per pass.",
                           {while_(o2("gt", v("n"), n(0)), {if_(o2("gt", v("n"), n(256)), pass(2), pass(1))})}));
    }
    return out;
  }

  // The nonce as a 128-bit vector in words 1..3 (word 0, the counter, zero): a 12-byte masked load
  // shifted up one word.
  static Expr nonce_word_vector() {
    return w("vbslli", 128, {w("vmaskz_load8", 128, {lx("0x0fff", 0x0fff), v("nonce")})}, 4);
  }

  // `if (len > 64 k) chacha20_xor_block(out + at + 64 k, in + at + 64 k, min(len - 64 k, 64), ks);`
  // (k = 0: unconditional, unless `guard0`). `base` is an extra offset expression name ("" none).
  Stmt xor_block_at(const std::string &len, const std::string &out, const std::string &in, int k,
                    const std::string &ks, const std::string &base = "", bool guard0 = false) const {
    auto p = [&](const std::string &x) {
      Expr e = v(x);
      if (!base.empty()) e = o2("offset", e, v(base));
      return k == 0 ? e : at(e, 64 * k);
    };
    Expr rem = k == 0 ? v(len) : o2("subsz", v(len), n(64 * k));
    Expr take = op("select", {o2("lt", rem, n(64)), rem, n(64)});
    Stmt st = fn("chacha20_xor_block", {p(out), p(in), take, v(ks)});
    if (k == 0 && !guard0) return st;
    return if1(o2("gt", v(len), n(64 * k)), st);
  }

  // --- ChaCha20, word-sliced --------------------------------------------------------------------
  std::vector<Function> chacha_bulk() const {
    std::vector<Function> out;
    const std::string CP = CW == 512 ? "_mm512" : "_mm256";
    {
      std::vector<Param> ps;
      for (int k = 0; k < 16; ++k) ps.push_back(P(Type::vref(CW), fmt::format("s{}", k), 4));
      ps.push_back(P(kKey, "key", 4));
      ps.push_back(P(kNonce, "nonce"));
      std::vector<Stmt> body = {dcl(Type::vec(128), "k0", w("vload", 128, {v("key")})),
                                dcl(Type::vec(128), "k1", w("vload", 128, {at("key", 16)})),
                                dcl(Type::vec(128), "nv", nonce_word_vector())};
      const char *sig_notes[4] = {"\"expa\"", "\"nd 3\"", "\"2-by\"", "\"te k\""};
      for (int k = 0; k < 4; ++k) body.push_back(set(fmt::format("s{}", k), w("vbroadcast32", CW, {u32(chacha20_sigma()[k])}), sig_notes[k]));
      for (int k = 0; k < 8; ++k)
        body.push_back(set(fmt::format("s{}", 4 + k), w("vbroadcastword32", CW, {v(k < 4 ? "k0" : "k1")}, k % 4),
                           fmt::format("key word {}", k)));
      body.push_back(set("s12", w("vzero", CW, {})));
      for (int k = 1; k < 4; ++k)
        body.push_back(set(fmt::format("s{}", 12 + k), w("vbroadcastword32", CW, {v("nv")}, k), fmt::format("nonce word {}", k - 1)));
      Function f = helper("chacha20_bulk_init", Type::val(K::Void), ps,
                          "Input state words s0..s15 (s12, the counter, is set per chunk).", body);
      f.section = fmt::format("ChaCha20, {} blocks word-sliced: register xk holds state word k of all {} blocks", B, B);
      f.section_spec = kBulk;
      out.push_back(f);
    }
    out.push_back(helper("chacha20_bulk_ctr", cv, {P(kU32, "ctr")},
                         fmt::format("Block counters ctr, ctr+1, ..., ctr+{} (word 12 of each block).", B - 1),
                         {ret(w("vadd32", CW, {w("vbroadcast32", CW, {c(K::Int, v("ctr"))}), w("viota32", CW, {})}))}));
    {
      std::vector<Param> ps = {P(kU8p, "out"), P(kU8c, "in")};
      for (int k = 0; k < 16; ++k) ps.push_back(P(cv, fmt::format("x{}", k), 4));
      for (int k = 0; k < 16; ++k) ps.push_back(P(cv, fmt::format("s{}", k), 4));
      std::vector<Stmt> body;
      for (int k = 0; k < 16; ++k)
        body.push_back(set(fmt::format("x{}", k), w("vadd32", CW, {v(fmt::format("x{}", k)), v(fmt::format("s{}", k))})));
      body.push_back(comment("32-bit interleave of word pairs: aK lane l = words (2g, 2g+1) of blocks 4l.., 4l+1.. ."));
      for (int g = 0; g < 8; ++g) {
        body.push_back(dcl(cv, fmt::format("a{}", 2 * g), w("vunpacklo32", CW, {v(fmt::format("x{}", 2 * g)), v(fmt::format("x{}", 2 * g + 1))})));
        body.push_back(dcl(cv, fmt::format("a{}", 2 * g + 1), w("vunpackhi32", CW, {v(fmt::format("x{}", 2 * g)), v(fmt::format("x{}", 2 * g + 1))})));
      }
      body.push_back(comment("64-bit interleave: b(4g+i) 128-bit lane l = words 4g..4g+3 of block 4l+i."));
      for (int g = 0; g < 4; ++g) {
        auto a = [&](int k) { return v(fmt::format("a{}", 4 * g + k)); };
        body.push_back(dcl(cv, fmt::format("b{}", 4 * g), w("vunpacklo64", CW, {a(0), a(2)})));
        body.push_back(dcl(cv, fmt::format("b{}", 4 * g + 1), w("vunpackhi64", CW, {a(0), a(2)})));
        body.push_back(dcl(cv, fmt::format("b{}", 4 * g + 2), w("vunpacklo64", CW, {a(1), a(3)})));
        body.push_back(dcl(cv, fmt::format("b{}", 4 * g + 3), w("vunpackhi64", CW, {a(1), a(3)})));
      }
      auto b = [](int k) { return v(fmt::format("b{}", k)); };
      auto xor_store = [&](int bits, int off, Expr ks, const std::string &note) {
        return ev(w("vstore", bits, {at("out", off), w("vxor", bits, {ks, w("vload", bits, {at("in", off)})})}), note);
      };
      if (CW == 512) {
        body.push_back(comment("128-bit lane transpose: block 4l+i = (b(i), b(4+i), b(8+i), b(12+i)) lane l."));
        for (int i = 0; i < 4; ++i) {
          std::vector<Stmt> sc = {dcl(zv, "t0", w("vshuf128", 512, {b(i), b(4 + i)}, 0x44)),
                                  dcl(zv, "t1", w("vshuf128", 512, {b(8 + i), b(12 + i)}, 0x44)),
                                  dcl(zv, "t2", w("vshuf128", 512, {b(i), b(4 + i)}, 0xee)),
                                  dcl(zv, "t3", w("vshuf128", 512, {b(8 + i), b(12 + i)}, 0xee))};
          for (int k = 0; k < 4; ++k)
            sc.push_back(xor_store(512, 64 * (4 * k + i),
                                   w("vshuf128", 512, {v(k < 2 ? "t0" : "t2"), v(k < 2 ? "t1" : "t3")}, k % 2 ? 0xdd : 0x88),
                                   fmt::format("block {}", 4 * k + i)));
          body.push_back(scope(sc));
        }
      } else {
        body.push_back(comment("128-bit lane transpose: block 4l+i = (b(i), b(4+i)) lane l then (b(8+i), b(12+i)) lane l."));
        for (int i = 0; i < 4; ++i)
          for (int k = 0; k < 2; ++k) {
            const int sel = k == 0 ? 0x20 : 0x31, off = 64 * (4 * k + i);
            body.push_back(xor_store(256, off, w("vperm2x128", 256, {b(i), b(4 + i)}, sel),
                                     fmt::format("block {}, words 0..7", 4 * k + i)));
            body.push_back(xor_store(256, off + 32, w("vperm2x128", 256, {b(8 + i), b(12 + i)}, sel), "words 8..15"));
          }
      }
      out.push_back(helper("chacha20_bulk_finish", Type::val(K::Void), ps,
                           fmt::format("Adds the input state, transposes words to blocks, and writes out = in ^ keystream for the\n"
                                       "whole {}-byte chunk.", CH),
                           body));
    }
    // One chunk of keystream (nst = 0); with nst = 1 or 2 the one-time key pass's row states (4
    // blocks each) run their rounds in the same loop (only where chunk and rows share zmm width).
    for (int nst = 0; nst <= (CW == 512 ? 2 : 0); ++nst) {
      std::vector<Param> ps;
      for (const std::string &r : x4_rows(nst)) ps.push_back(P(Type::vref(512), r));
      ps.push_back(P(kU8p, "out"));
      ps.push_back(P(kU8c, "in"));
      for (int k = 0; k < 16; ++k) ps.push_back(P(cv, fmt::format("s{}", k), 4));
      ps.push_back(P(kU32, "ctr", 4));
      std::vector<Stmt> body = rotconsts(CW);
      body.push_back(set("s12", call("chacha20_bulk_ctr", {v("ctr")})));
      for (int k = 0; k < 16; ++k) body.push_back(dl(cv, fmt::format("x{}", k), v(fmt::format("s{}", k))));
      std::vector<Stmt> dr = nst == 0 ? std::vector<Stmt>{} : lane_ops(nst == 1 ? "chacha_dr_x4_one" : "chacha_dr_x4_two");
      for (auto &x : lane_ops("chacha_dr_sliced")) dr.push_back(std::move(x));
      body.push_back(forn(K::Int, "i", n(0), n(10), std::move(dr)));
      body.push_back(fn("chacha20_bulk_finish", finish_args("", "", 0)));
      const std::string doc =
          nst == 0 ? fmt::format("One {}-byte chunk of keystream from block ctr, XORed into out (no MAC work).", CH)
                   : fmt::format("chacha20_bulk_chunk, and in the same loop the 20 rounds of {} (the one-time\n"
                                 "key pass): independent dependency chains side by side, where one after the other each\n"
                                 "waits out its own latency (a seal of whole {}-byte chunks and a tail of at most {} blocks).",
                                 nst == 1 ? "the 4-block row state xa..xd" : "the two 4-block row states xa..xd, ya..yd", CH,
                                 nst == 1 ? 3 : 7);
      out.push_back(helper(bulk_chunk_name(nst), Type::val(K::Void), ps, doc, body));
    }
    return out;
  }
  static std::vector<Expr> cat(std::vector<Expr> a, const std::vector<Expr> &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }
  // chacha20_bulk_finish's arguments: out, in (at chunk `chunk` of CH bytes if not empty),
  // x0..x15, then s0..s15 with s12 replaced by `c12` if given.
  static std::vector<Expr> finish_args(const std::string &chunk, const std::string &c12, int CH) {
    std::vector<Expr> a;
    if (chunk.empty()) {
      a = {v("out"), v("in")};
    } else {
      a = {o2("offset", v("out"), o2("mulsz", v(chunk), n(CH))), o2("offset", v("in"), o2("mulsz", v(chunk), n(CH)))};
    }
    for (int k = 0; k < 16; ++k) a.push_back(v(fmt::format("x{}", k)));
    for (int k = 0; k < 16; ++k) a.push_back(v(k == 12 && !c12.empty() ? c12 : fmt::format("s{}", k)));
    return a;
  }

  // --- Poly1305 --------------------------------------------------------------------------------
  std::vector<Function> poly() const {
    std::vector<Function> out;
    const int WF = d.wrap_factor;
    {
      std::vector<Stmt> body = {dnames(pv, {"t"})};
      for (auto &x : lane_ops("poly_wrap")) body.push_back(x);
      Function f = helper("p1305_wrap", Type::val(K::Void), {P(Type::vref(PW), "bs1"), P(Type::vref(PW), "bs2"), P(pv, "b1"), P(pv, "b2")},
                          fmt::format("bs1 = {0}*b1, bs2 = {0}*b2 ({0} = 2^{1} mod 2^130-5, derived from the limb weights).", WF,
                                      s.radix_bits * s.limbs),
                          body);
      f.section = fmt::format("Poly1305, radix 2^{}, {} lanes on AVX-512 IFMA (RFC 8439 2.5)", s.radix_bits, L);
      f.section_spec = kMul;
      out.push_back(f);
    }
    {
      std::vector<Param> ps = {P(Type::vref(PW), "h0"), P(Type::vref(PW), "h1"), P(Type::vref(PW), "h2"), P(pv, "a0"), P(pv, "a1"), P(pv, "a2"),
                               P(pv, "b0", 23), P(pv, "b1"), P(pv, "b2"), P(pv, "bs1"), P(pv, "bs2")};
      std::vector<Stmt> body = pconsts({"ZERO", "M44", "M42"});
      body.push_back(dnames(pv, {"d0lo", "d0hi", "d1lo", "d1hi", "d2lo", "d2hi", "t", "c"}));
      for (auto &x : lane_ops("poly_mul")) body.push_back(x);
      out.push_back(helper("p1305_mul", Type::val(K::Void), ps,
                           fmt::format("h = a * b (mod 2^130-5), lane-wise, carried by the spec's chain. b comes with bs = {}*b.", WF),
                           body, kChain));
    }
    {
      std::vector<Stmt> body = pconsts({"M44", "M42"});
      body.push_back(dnames(pv, {"c"}));
      for (auto &x : lane_ops("poly_carry")) body.push_back(x);
      out.push_back(helper("p1305_carry", Type::val(K::Void), {P(Type::vref(PW), "h0"), P(Type::vref(PW), "h1"), P(Type::vref(PW), "h2")},
                           "The spec's carry chain on h.", body));
    }
    {
      std::vector<Stmt> body;
      auto add = [&](Expr y, const std::string &note, int col) { body.push_back(set("x", w("vadd64", PW, {v("x"), y}), note, col)); };
      if (PW == 512) {
        add(w("vshuf64x2", 512, {v("x"), v("x")}, 0x4e), "+ lanes 4..7 / 0..3", 72);
        add(w("vshuf64x2", 512, {v("x"), v("x")}, 0xb1), "+ the neighbouring pair", 72);
        add(w("vshufrow32", 512, {v("x")}, 2), "+ the other lane of the pair", 72);
      } else {
        add(w("vpermq", 256, {v("x")}, 0x4e), "+ lanes 2,3 / 0,1", 72);
        add(w("vshufrow32", 256, {v("x")}, 2), "+ the other lane of the pair", 72);
      }
      body.push_back(ret(w("vmaskz_mov64", PW, {n(1), v("x")})));
      out.push_back(helper("p1305_hsum", pv, {P(pv, "x")}, fmt::format("Sum of the {} lanes in lane 0, zeros elsewhere.", L), body));
    }
    out.push_back(setup());
    {
      std::vector<Param> ps = {P(Type::vref(PW), "h0"), P(Type::vref(PW), "h1"), P(Type::vref(PW), "h2"), P(pv, "acc0"), P(pv, "acc1"), P(pv, "acc2"),
                               P(pv, "hin0", 26), P(pv, "hin1"), P(pv, "hin2")};
      for (auto &p : keyparams()) ps.push_back(p);
      std::vector<Stmt> body = {fn("p1305_mul", vs({"h0", "h1", "h2", "acc0", "acc1", "acc2", "q0", "q1", "q2", "qs1", "qs2"}))};
      for (int k = 0; k < 3; ++k)
        body.push_back(set(fmt::format("h{}", k), w("vadd64", PW, {call("p1305_hsum", {v(fmt::format("h{}", k))}), v(fmt::format("hin{}", k))})));
      body.push_back(fn("p1305_carry", vs({"h0", "h1", "h2"})));
      out.push_back(helper("p1305_settle", Type::val(K::Void), ps,
                           "h = sum over lanes of (acc * q) + hin, carried: the Horner lanes settle into lane 0.", body));
    }
    out.push_back(load_partial());
    {
      std::vector<Param> ps = {P(Type::vref(PW), "h0"), P(Type::vref(PW), "h1"), P(Type::vref(PW), "h2"), P(pv, "m0"), P(pv, "m1"), P(pv, "m2"),
                               P(kSize, "nblocks", 32)};
      for (auto &p : keyparams()) ps.push_back(p);
      std::vector<Stmt> body = {dcl(pv, "idx", shifted_index("nblocks")),
                                dcl(Type::mask(8), "k", cmask(8, o2("bzhi32", lx("0xffU", 0xff), c(K::Uns, v("nblocks"))))),
                                comment(fmt::format("lane j takes r^(n-j): q shifted down by {}-n lanes, zero past n.", L))};
      for (const char *b : {"0", "1", "2", "s1", "s2"})
        body.push_back(dcl(pv, fmt::format("b{}", b), w("vmaskz_permvar64", PW, {v("k"), v("idx"), v(fmt::format("q{}", b))})));
      body.push_back(fn("p1305_mul", {v("h0"), v("h1"), v("h2"), w("vadd64", PW, {v("h0"), v("m0")}), w("vadd64", PW, {v("h1"), v("m1")}),
                                      w("vadd64", PW, {v("h2"), v("m2")}), v("b0"), v("b1"), v("b2"), v("bs1"), v("bs2")}));
      for (int k = 0; k < 3; ++k) body.push_back(set(fmt::format("h{}", k), call("p1305_hsum", {v(fmt::format("h{}", k))})));
      body.push_back(fn("p1305_carry", vs({"h0", "h1", "h2"})));
      out.push_back(helper("p1305_step_partial", Type::val(K::Void), ps,
                           fmt::format("h = (h + m_0) r^n + m_1 r^(n-1) + ... + m_(n-1) r for n = nblocks <= {} blocks in lanes 0..n-1.", L),
                           body));
    }
    out.push_back(absorb());
    {
      std::vector<Param> ps = {P(Type::vref(PW), "h0"), P(Type::vref(PW), "h1"), P(Type::vref(PW), "h2"), P(kU64, "aad_len"), P(kU64, "len")};
      for (auto &p : keyparams()) ps.push_back(p);
      std::vector<Stmt> body;
      auto lens = length_limbs();
      for (int k = 0; k < 3; ++k) body.push_back(dcl(pv, fmt::format("m{}", k), w("vmaskz_set1_64", PW, {n(1), c(K::I64, lens[k])})));
      body.push_back(fn("p1305_step_partial", cat(vs({"h0", "h1", "h2", "m0", "m1", "m2"}), cat({n(1)}, keyargs()))));
      out.push_back(helper("p1305_lengths", Type::val(K::Void), ps,
                           "The AEAD length block: le64(aad_len) || le64(len) (RFC 8439 2.8), one full block.", body));
    }
    out.push_back(short_step());
    out.push_back(helper("p1305_lane0", kU64, {P(pv, "x")}, "Lane 0 of a limb vector.",
                         {ret(c(K::U64, w("vcvt64", 128, {w("vlow128", PW, {v("x")})})))}));
    out.push_back(final_());
    return out;
  }

  // lane index vector (L - k) & (L - 1) + lane: rotates q down by L - k lanes.
  Expr shifted_index(const std::string &k) const {
    return w("vadd64", PW, {w("vbroadcast64", PW, {c(K::I64, o2("andsz", o2("subsz", n(L), v(k)), n(L - 1)))}), w("viota64", PW, {})});
  }

  // The 44-bit limbs of the length block le64(aad_len) || le64(len) and its 2^128 bit.
  std::vector<Expr> length_limbs() const {
    const int R = s.radix_bits, lo_bits = 2 * R - 64;
    return {o2("and64", v("aad_len"), hex((1ull << R) - 1, "ULL")),
            o2("or64", op("shr64", {v("aad_len")}, R), op("shl64", {o2("and64", v("len"), hex((1ull << lo_bits) - 1, "ULL"))}, 64 - R)),
            o2("or64", op("shr64", {v("len")}, lo_bits), op("shl64", {lx("1ULL", 1)}, 128 - 2 * R))};
  }

  Function setup() const {
    std::vector<Param> ps = {P(Type::vref(PW), "q0"), P(Type::vref(PW), "q1"), P(Type::vref(PW), "q2"), P(Type::vref(PW), "qs1"), P(Type::vref(PW), "qs2"),
                             P(Type::vref(PW), "rl0", 25), P(Type::vref(PW), "rl1"), P(Type::vref(PW), "rl2"), P(Type::vref(PW), "rls1"), P(Type::vref(PW), "rls2"),
                             P(kRef64, "sk0", 25), P(kRef64, "sk1"), P(kRef64, "sk2"), P(Type::vec(128), "rk"), P(Type::vec(128), "sk")};
    const auto [cl0, cl1] = poly1305_clamp_masks();
    const int R = s.radix_bits, lo_bits = 2 * R - 64;
    // The three 44-bit limbs of a 128-bit number held as two 64-bit words (a0, a1).
    auto limbs = [&](const std::string &a0, const std::string &a1) -> std::vector<Expr> {
      return {o2("and64", v(a0), hex((1ull << R) - 1, "ULL")),
              o2("or64", op("shr64", {v(a0)}, R), op("shl64", {o2("and64", v(a1), hex((1ull << lo_bits) - 1, "ULL"))}, 64 - R)),
              op("shr64", {v(a1)}, lo_bits)};
    };
    std::vector<Stmt> body = {
        dl(kU64, "k0", c(K::U64, w("vcvt64", 128, {v("rk")}))),
        dl(kU64, "k1", c(K::U64, w("vextract64", 128, {v("rk")}, 1))),
        set("k0", o2("and64", v("k0"), lx(fmt::format("0x{:016x}ULL", cl0), cl0)), "clamp(r)"),
        set("k1", o2("and64", v("k1"), lx(fmt::format("0x{:016x}ULL", cl1), cl1)))};
    auto r = limbs("k0", "k1");
    const char *rnotes[3] = {"bits 0..43", "bits 44..87", "bits 88..127"};
    for (int k = 0; k < 3; ++k) body.push_back(dcl(kU64, fmt::format("r{}", k), r[k], rnotes[k], k == 1 ? -5 : 64));
    for (int k = 0; k < 3; ++k)
      body.push_back(dcl(pv, fmt::format("p1_{}", k), w("vbroadcast64", PW, {c(K::I64, v(fmt::format("r{}", k)))})));
    body.push_back(dnames(pv, {"p1_s1", "p1_s2"}));
    body.push_back(fn("p1305_wrap", vs({"p1_s1", "p1_s2", "p1_1", "p1_2"})));
    auto pw = [](int k, const char *limb) { return fmt::format("p{}_{}", k, limb); };
    int prev = 1;
    for (int k : {2, 4, 8}) {
      if (k > L) break;
      body.push_back(dnames(pv, {pw(k, "0"), pw(k, "1"), pw(k, "2"), pw(k, "s1"), pw(k, "s2")}, fmt::format("r^{}", k)));
      body.push_back(fn("p1305_mul", vs({pw(k, "0"), pw(k, "1"), pw(k, "2"), pw(prev, "0"), pw(prev, "1"), pw(prev, "2"),
                                         pw(prev, "0"), pw(prev, "1"), pw(prev, "2"), pw(prev, "s1"), pw(prev, "s2")})));
      body.push_back(fn("p1305_wrap", vs({pw(k, "s1"), pw(k, "s2"), pw(k, "1"), pw(k, "2")})));
      prev = k;
    }
    body.push_back(comment(fmt::format("Lane j needs r^{{{}-j}} = r * r^(bit0) * r^(2 bit1){} with {}-j = (bits).", L,
                                       L == 8 ? " * r^(4 bit2)" : "", L - 1)));
    for (const char *x : {"0", "1", "2", "s1", "s2"}) body.push_back(set(fmt::format("q{}", x), v(pw(1, x))));
    for (int bit = 0; (1 << bit) < L && bit < 3; ++bit) {
      int m = 0;
      for (int j = 0; j < L; ++j)
        if (((L - 1 - j) >> bit) & 1) m |= 1 << j;
      const int p = 1 << bit;
      std::vector<Stmt> sc = {dnames(pv, {"t0", "t1", "t2"}),
                              fn("p1305_mul", vs({"t0", "t1", "t2", "q0", "q1", "q2", pw(p, "0"), pw(p, "1"), pw(p, "2"), pw(p, "s1"), pw(p, "s2")}))};
      for (int k = 0; k < 3; ++k) {
        Expr mk = lx(fmt::format("0x{:02x}", m), static_cast<uint64_t>(m));
        sc.push_back(set(fmt::format("q{}", k), w("vmask_blend64", PW, {mk, v(fmt::format("q{}", k)), v(fmt::format("t{}", k))}),
                         k == 0 ? fmt::format("lanes whose exponent has bit {}", bit) : ""));
      }
      body.push_back(scope(sc));
    }
    body.push_back(fn("p1305_wrap", vs({"qs1", "qs2", "q1", "q2"})));
    for (const char *x : {"0", "1", "2", "s1", "s2"}) body.push_back(set(fmt::format("rl{}", x), v(pw(L, x))));
    body.push_back(dcl(kU64, "t0", c(K::U64, w("vcvt64", 128, {v("sk")}))));
    body.push_back(dcl(kU64, "t1", c(K::U64, w("vextract64", 128, {v("sk")}, 1))));
    auto sl = limbs("t0", "t1");
    for (int k = 0; k < 3; ++k) body.push_back(set(fmt::format("sk{}", k), sl[k]));
    return helper("p1305_setup", Type::val(K::Void), ps,
                  fmt::format("Key setup from r and s (RFC 8439 2.5.1): q lane j = r^{{{0}-j}}, rl = r^{0} in every lane, s in 44-bit limbs.\n"
                              "Powers above r^1 come from the multiply's carries only: they are not clamped.",
                              L),
                  body, kLanes);
  }

  Function load_partial() const {
    const int mb = PW == 512 ? 64 : 32;
    auto ones = [&]() { return PW == 512 ? lx("~0ULL", ~0ull) : lx("~0U", 0xffffffffu); };
    auto bz = [&](Expr cnt) { return o2(PW == 512 ? "bzhi64" : "bzhi32", ones(), c(K::Uns, std::move(cnt))); };
    auto mask_upto = [&](Expr cnt) { return cmask(mb, bz(std::move(cnt))); };
    // The byte after the message: bit n of the byte mask.
    auto marker = [&](Expr cnt) {
      Expr next = o2("addsz", cnt, n(1));
      return cmask(mb, o2(PW == 512 ? "xor64" : "xor32", bz(next), bz(cnt)));
    };
    std::vector<Stmt> body = pconsts({"M44", "M24", "IDX"});
    body.push_back(dcl(kSize, "nfull", op("select", {v("pad01"), o2("divsz", v("n"), n(16)),
                                                    o2("divsz", o2("addsz", v("n"), n(15)), n(16))})));
    body.push_back(dl(pv, "w0", w("vmaskz_load8", PW, {mask_upto(v("n")), v("p")})));
    body.push_back(dl(pv, "w1", w("vzero", PW, {})));
    Expr rest = o2("subsz", v("n"), n(VB));
    body.push_back(if1(o2("gt", v("n"), n(VB)), set("w1", w("vmaskz_load8", PW, {mask_upto(rest), at("p", VB)}))));
    body.push_back(if_(o2("land", v("pad01"), o2("ne", o2("andsz", v("n"), n(15)), n(0))),
                       {if1e(o2("lt", v("n"), n(VB)),
                             set("w0", w("vor", PW, {v("w0"), w("vmaskz_set1_8", PW, {marker(v("n")), n(1)})})),
                             set("w1", w("vor", PW, {v("w1"), w("vmaskz_set1_8", PW, {marker(rest), n(1)})})))}));
    body.push_back(dcl(pv, "mlo", w("vpermx2var64", PW, {v("w0"), v("IDX_LO"), v("w1")})));
    body.push_back(dcl(pv, "mhi", w("vpermx2var64", PW, {v("w0"), v("IDX_HI"), v("w1")})));
    const int R = s.radix_bits, lo_bits = 2 * R - 64;
    body.push_back(set("m0", w("vand", PW, {v("mlo"), v("M44")})));
    body.push_back(set("m1", w("vor", PW, {w("vshr64", PW, {v("mlo")}, R),
                                          w("vshl64", PW, {w("vand", PW, {v("mhi"), v("M24")})}, 64 - R)})));
    body.push_back(set("m2", w("vor", PW, {w("vshr64", PW, {v("mhi")}, lo_bits),
                                          w("vmaskz_set1_64", PW, {cmask(8, o2("bzhi32", lx("0xffU", 0xff), c(K::Uns, v("nfull")))),
                                                                   op("shl64", {lx("1LL", 1)}, 128 - 2 * R)})})));
    return helper("p1305_load_partial", Type::val(K::Void),
                  {P(Type::vref(PW), "m0"), P(Type::vref(PW), "m1"), P(Type::vref(PW), "m2"), P(kU8c, "p"), P(kSize, "n"), P(kInt, "pad01")},
                  fmt::format("Message limbs of the n bytes at p (0 < n <= {}), lane j = block j, zero past the end.\n"
                              "pad01 = 0 (AEAD, RFC 8439 2.8): a short block is zero-padded to 16 bytes and gets 2^128.\n"
                              "pad01 = 1 (plain Poly1305, 2.5.1): a short block gets a 0x01 byte after its end and no 2^128.",
                              GB),
                  body);
  }

  Function absorb() const {
    std::vector<Param> ps = {P(Type::vref(PW), "h0"), P(Type::vref(PW), "h1"), P(Type::vref(PW), "h2"), P(kU8c, "p"), P(kSize, "n"), P(kInt, "pad01")};
    for (auto &p : keyparams(26)) ps.push_back(p);
    for (auto &p : rlparams()) ps.push_back(p);
    std::vector<Stmt> groups = pconsts({"ZERO", "M44", "M42", "M24", "HIBIT", "IDX"});
    groups.push_back(dmany(pv, {{"acc0", v("ZERO")}, {"acc1", v("ZERO")}, {"acc2", v("ZERO")}}));
    groups.push_back(dmany(pv, {{"hin0", v("h0")}, {"hin1", v("h1")}, {"hin2", v("h2")}}));
    groups.push_back(polytemps());
    groups.push_back(blank());
    groups.push_back(dl(kU8c, "mp", v("p")));
    for (auto &x : invariant()) groups.push_back(x);
    std::vector<Stmt> step = lane_ops("poly_group");
    step.push_back(cset("+", "mp", n(GB)));
    step.push_back(cset("-", "n", n(GB)));
    groups.push_back(while_(o2("ge", v("n"), n(GB)), step));
    groups.push_back(set("p", v("mp")));
    groups.push_back(fn("p1305_settle", cat(vs({"h0", "h1", "h2", "acc0", "acc1", "acc2", "hin0", "hin1", "hin2"}), keyargs())));
    std::vector<Stmt> body = {
        if_(o2("ge", v("n"), n(GB)), groups),
        if_(o2("ne", v("n"), n(0)),
            {dnames(pv, {"m0", "m1", "m2"}), fn("p1305_load_partial", vs({"m0", "m1", "m2", "p", "n", "pad01"})),
             fn("p1305_step_partial", cat(vs({"h0", "h1", "h2", "m0", "m1", "m2"}),
                                          cat({o2("divsz", o2("addsz", v("n"), n(15)), n(16))}, keyargs())))})};
    return helper("p1305_absorb", Type::val(K::Void), ps,
                  fmt::format("Absorbs the n bytes at p into the settled h (lane 0): whole {}-byte groups by the\n"
                              "{}-lane Horner step, the rest by one partial step.",
                              GB, L),
                  body);
  }

  Function short_step() const {
    std::vector<Param> ps = {P(Type::vref(PW), "h0"), P(Type::vref(PW), "h1"), P(Type::vref(PW), "h2"), P(pv, "a0"), P(pv, "a1"), P(pv, "a2"),
                             P(pv, "c0", 30), P(pv, "c1"), P(pv, "c2"), P(kSize, "na"), P(kSize, "nc"), P(kU64, "aad_len"), P(kU64, "len")};
    for (auto &p : keyparams(30)) ps.push_back(p);
    auto bz = [](Expr cnt) { return o2("bzhi32", lx("0xffU", 0xff), c(K::Uns, std::move(cnt))); };
    Expr nanc = o2("addsz", v("na"), v("nc"));
    std::vector<Stmt> body = {
        dcl(pv, "idx", shifted_index("na")),
        comment(fmt::format("lane j >= na takes ciphertext block j - na (permutes read idx mod {}); lane na + nc the lengths.", L)),
        dcl(Type::mask(8), "kc", cmask(8, o2("xor32", bz(nanc), bz(v("na"))))),
        dcl(Type::mask(8), "kl", cmask(8, o2("xor32", bz(o2("addsz", nanc, n(1))), bz(nanc))))};
    auto lens = length_limbs();
    for (int k = 0; k < 3; ++k)
      body.push_back(dcl(pv, fmt::format("m{}", k),
                         w("vor", PW, {v(fmt::format("a{}", k)),
                                       w("vor", PW, {w("vmaskz_permvar64", PW, {v("kc"), v("idx"), v(fmt::format("c{}", k))}),
                                                     brk(w("vmaskz_set1_64", PW, {v("kl"), c(K::I64, lens[k])}), 4)})})));
    body.push_back(set("h0", w("vzero", PW, {})));
    body.push_back(set("h1", v("h0")));
    body.push_back(set("h2", v("h0")));
    body.push_back(fn("p1305_step_partial", cat(vs({"h0", "h1", "h2", "m0", "m1", "m2"}), cat({o2("addsz", nanc, n(1))}, keyargs()))));
    return helper("p1305_short_step", Type::val(K::Void), ps,
                  fmt::format("A short message in one step: h = 0 absorbs [AAD blocks (na) | ciphertext blocks (nc) | lengths]\n"
                              "placed in lanes 0..na+nc (na + nc < {}), each segment zero-padded to 16 bytes (RFC 8439 2.8).",
                              L),
                  body);
  }

  Function final_() const {
    const bool settled = s.carry_chain.size() >= 2 && s.carry_chain[s.carry_chain.size() - 2].from == 2 &&
                         s.carry_chain[s.carry_chain.size() - 2].to == 0 && s.carry_chain.back().from == 0 &&
                         s.carry_chain.back().to == 1;
    const int R = s.radix_bits, T = d.top_bits;
    const uint64_t mR = (1ull << R) - 1, mT = (1ull << T) - 1;
    std::string doc = "tag = (h mod 2^130-5 + s) mod 2^128, little-endian (RFC 8439 2.5.1), in scalar 44-bit limbs:\n";
    if (settled)
      doc +=
          "a constant-time conditional subtraction of p, then + s. The spec's carry chain ends 2>0, 0>1,\n"
          "so every call site hands over h0 < 2^44, h1 <= 2^44 + 7, h2 < 2^42: h < 2^130 + 2^48 < 2p and\n"
          "one subtraction reduces it, with no carry first (the g and f chains absorb an h1 at or just\n"
          "above 2^44). chapoly-verify proves the bounds at each call and this function for them, and\n"
          "rejects it if any carry or mask below is missing.";
    else
      doc +=
          "a full carry (the spec's chain does not end 2>0, 0>1), a constant-time conditional subtraction\n"
          "of p, then + s.";
    auto carry = [&](const std::string &from, int bits, const std::string &to, bool times5) {
      std::vector<Stmt> l = {set("c", op("shr64", {v(from)}, bits)), cset("&", from, v(bits == R ? "M44" : "M42"))};
      l.push_back(cset("+", to, times5 ? o2("mul64", v("c"), n(5)) : v("c")));
      return line(l);
    };
    std::vector<Stmt> body = {dmany(kU64, {{"M44", hex(mR, "ULL")}, {"M42", hex(mT, "ULL")}}, true), dnames(kU64, {"c"})};
    if (!settled) {
      body.push_back(noted(carry("h0", R, "h1", false), "full carry: 0>1", 45));
      body.push_back(noted(carry("h1", R, "h2", false), "1>2", 45));
      body.push_back(noted(carry("h2", T, "h0", true), "2>0, 2^130 = 5 (mod p)", 45));
      body.push_back(noted(carry("h0", R, "h1", false), "0>1", 45));
      body.push_back(noted(carry("h1", R, "h2", false), "1>2: now h < 2^130 + 2^88 < 2p", 45));
    }
    auto step = [&](const std::string &x) { return line({set("c", op("shr64", {v(x)}, R)), cset("&", x, v("M44"))}); };
    body.push_back(dl(kU64, "g0", o2("add64", v("h0"), n(5)), false, "g = h + 5 - 2^130 = h - p", 45));
    body.push_back(step("g0"));
    body.push_back(dl(kU64, "g1", o2("add64", v("h1"), v("c"))));
    body.push_back(step("g1"));
    body.push_back(dl(kU64, "g2", o2("add64", v("h2"), v("c"))));
    body.push_back(dcl(kU64, "sel", op("shr64", {v("g2")}, T), "1 iff h >= p", 45));
    body.push_back(cset("&", "g2", v("M42")));
    body.push_back(dcl(kU64, "mask", o2("mul64", v("sel"), lx("0xffffffffffffffffULL", ~0ull))));
    for (int k = 0; k < 3; ++k) {
      std::string h = fmt::format("h{}", k), g = fmt::format("g{}", k);
      body.push_back(set(h, o2("or64", o2("and64", v(h), op("not64", {v("mask")})), o2("and64", v(g), v("mask"))),
                         k == 0 ? "h mod p, constant time" : "", 45));
    }
    body.push_back(dl(kU64, "f0", o2("add64", v("h0"), v("sk0")), false, "+ s (mod 2^128)", 46));
    body.push_back(step("f0"));
    body.push_back(dl(kU64, "f1", o2("add64", o2("add64", v("h1"), v("sk1")), v("c"))));
    body.push_back(step("f1"));
    body.push_back(dcl(kU64, "f2", o2("add64", o2("add64", v("h2"), v("sk2")), v("c")), "bits 88..127 (and the carry out of bit 127)", 47));
    body.push_back(dcl(kU64, "lo", o2("or64", v("f0"), op("shl64", {v("f1")}, R)), "bits 0..63: f1's bits 20..43 leave the word", 47));
    body.push_back(dcl(kU64, "hi", o2("or64", op("shr64", {v("f1")}, 64 - R), op("shl64", {v("f2")}, 2 * R - 64)),
                       "bits 64..127: so do f2's bits 40 and up (mod 2^128)", 47));
    body.push_back(ev(w("vstore", 128, {v("tag"), w("vset64x2", 128, {c(K::I64, v("hi")), c(K::I64, v("lo"))})})));
    return helper("p1305_final", Type::val(K::Void),
                  {P(kTag, "tag"), P(kU64, "h0"), P(kU64, "h1"), P(kU64, "h2"), P(kU64, "sk0"), P(kU64, "sk1"), P(kU64, "sk2")}, doc,
                  body);
  }

  // --- AEAD kernels ------------------------------------------------------------------------------
  static std::vector<Param> aead_params(int brk) {
    return {P(kU8p, "out"), P(kTag, "tag"), P(kU8c, "in"), P(kSize, "len"), P(kU8c, "aad"), P(kSize, "aad_len", brk),
            P(kNonce, "nonce"), P(kKey, "key"), P(kInt, "encrypt")};
  }
  // The one-time key pass's shared tail: key setup from block 0 and h = 0.
  std::vector<Stmt> key_setup(Expr rk, Expr sk, const std::string &note) const {
    return {dnames(pv, {"q0", "q1", "q2", "qs1", "qs2", "rl0", "rl1", "rl2", "rls1", "rls2"}),
            dnames(kU64, {"sk0", "sk1", "sk2"}),
            fn("p1305_setup", {v("q0"), v("q1"), v("q2"), v("qs1"), v("qs2"), v("rl0"), v("rl1"), v("rl2"), v("rls1"), v("rls2"),
                               v("sk0"), v("sk1"), v("sk2"), brk(rk, 12), sk},
               note),
            dmany(pv, {{"h0", w("vzero", PW, {})}, {"h1", v("h0")}, {"h2", v("h0")}})};
  }
  Stmt absorb_call(Expr p, Expr len, int pad01) const {
    return fn("p1305_absorb", cat({v("h0"), v("h1"), v("h2"), p, len, n(pad01)}, keyrlargs()));
  }
  Stmt finalize() const {
    return fn("p1305_final", {v("tag"), call("p1305_lane0", {v("h0")}), call("p1305_lane0", {v("h1")}),
                              call("p1305_lane0", {v("h2")}), v("sk0"), v("sk1"), v("sk2")});
  }
  Stmt x4_init(const std::string &pre, std::vector<Expr> ctrs) const {
    return fn("chacha20_x4_init", {v(pre + "a"), v(pre + "b"), v(pre + "c"), v(pre + "d"), v("key"), v("nonce"),
                                   call("chacha20_x4_ctr", std::move(ctrs))});
  }
  static Expr ctr_plus(const std::string &base, int k) { return k == 0 ? v(base) : o2("add32", v(base), n(k)); }

  // The row vectors of nst 4-block states: xa..xd, then ya..yd.
  static std::vector<std::string> x4_rows(int nst) {
    std::vector<std::string> r;
    for (int k = 0; k < nst; ++k)
      for (char c : {'a', 'b', 'c', 'd'}) r.push_back(fmt::format("{}{}", "xyzw"[k], c));
    return r;
  }
  // The chunk helper with nst key-pass row states in its loop (0: none).
  static std::string bulk_chunk_name(int nst) {
    return nst == 0 ? "chacha20_bulk_chunk" : nst == 1 ? "chacha20_bulk_chunk_key" : "chacha20_bulk_chunk_key2";
  }
  // The 20 rounds of the key pass's nst (1 or 2) row states, alone.
  static Stmt x4_rounds_call(int nst) {
    return fn(nst == 1 ? std::string("chacha20_x4_rounds") : fmt::format("chacha20_x4_rounds{}", nst), vs(x4_rows(nst)));
  }
  // s0..s15, the word-sliced input state.
  static std::vector<Expr> svars() {
    std::vector<Expr> a;
    for (int k = 0; k < 16; ++k) a.push_back(v(fmt::format("s{}", k)));
    return a;
  }

  // s0..s15 declared and set by chacha20_bulk_init (the word-sliced input state, counter word 0).
  std::vector<Stmt> bulk_state(bool init = true) const {
    std::vector<Stmt> body;
    for (int k = 0; k < 16; ++k) body.push_back(dl(cv, fmt::format("s{}", k)));
    if (init) body.push_back(bulk_init());
    return body;
  }
  static Stmt bulk_init() { return fn("chacha20_bulk_init", cat(svars(), {v("key"), v("nonce")})); }

  // The fused loop over the nch whole chunks at out/in (encrypt: the MAC of chunk i-1's ciphertext
  // inside chunk i's rounds, the last chunk's after the loop; decrypt: chunk i's inside its own),
  // chunk 0 with block counter ctr0, then the settle of the Horner lanes into h. Reads h0..h2 (the
  // h so far, lane 0), nch, out, in, key, nonce, encrypt and the key powers of the caller.
  // caller_chunk0: where it holds the caller has set s0..s15 and encrypted chunk 0 already (the key
  // pass inside chunk 0, chacha20_bulk_chunk_key); the caller then declares s0..s15 and this sets
  // them and encrypts chunk 0 only where it does not hold.
  std::vector<Stmt> fused_loops(Expr ctr0, std::optional<Expr> caller_chunk0 = std::nullopt) const {
    std::vector<Stmt> body;
    for (auto &x : pconsts({"ZERO", "M44", "M42", "M24", "HIBIT", "IDX"})) body.push_back(x);
    for (auto &x : rotconsts(CW)) body.push_back(x);
    body.push_back(noted(dmany(pv, {{"acc0", v("ZERO")}, {"acc1", v("ZERO")}, {"acc2", v("ZERO")}}),
                         fmt::format("Horner lanes, pending r^({}-j)", L), -3));
    body.push_back(noted(dmany(pv, {{"hin0", v("h0")}, {"hin1", v("h1")}, {"hin2", v("h2")}}),
                         "h so far, added into the first lane step", -9));
    body.push_back(polytemps());
    body.push_back(blank());
    const std::vector<Expr> init_args = svars();
    if (caller_chunk0) body.push_back(if1(op("lnot", {*caller_chunk0}), bulk_init()));
    else
      for (auto &x : bulk_state()) body.push_back(std::move(x));
    // One fused iteration over chunk i: the MAC of the chunk at mp woven into the rounds.
    auto fused_iter = [&](const std::string &mac_src, const std::string &mac_note) {
      std::vector<Stmt> it = {
          dl(kU8c, "mp", mac_src == "out" ? o2("offset", v("out"), o2("mulsz", o2("subsz", v("i"), n(1)), n(CH)))
                                           : o2("offset", v("in"), o2("mulsz", v("i"), n(CH))),
              false, mac_note),
          dcl(cv, "c12", call("chacha20_bulk_ctr", {c(K::U32, o2("addsz", ctr0, o2("mulsz", v("i"), n(B))))}))};
      for (int k = 0; k < 16; ++k) it.push_back(dl(cv, fmt::format("x{}", k), v(k == 12 ? "c12" : fmt::format("s{}", k))));
      for (auto &x : lane_ops("fused")) it.push_back(x);
      it.push_back(fn("chacha20_bulk_finish", finish_args("i", "c12", CH)));
      return it;
    };
    Stmt chunk0 = fn("chacha20_bulk_chunk", cat({v("out"), v("in")}, cat(init_args, {ctr0})));
    std::vector<Stmt> enc = {caller_chunk0 ? if1(op("lnot", {*caller_chunk0}), std::move(chunk0)) : std::move(chunk0)};
    for (auto &x : invariant()) enc.push_back(x);
    enc.push_back(forn(K::Size, "i", n(1), v("nch"), fused_iter("out", "MAC: ciphertext of chunk i-1")));
    enc.push_back(comment("MAC of the last chunk's ciphertext."));
    enc.push_back(dl(kU8c, "mp", o2("offset", v("out"), o2("mulsz", o2("subsz", v("nch"), n(1)), n(CH)))));
    for (auto &x : invariant()) enc.push_back(x);
    std::vector<Stmt> g = lane_ops("poly_group");
    g.push_back(cset("+", "mp", n(GB)));
    enc.push_back(forn(K::Int, "g", n(0), n(G), g));
    std::vector<Stmt> dec = invariant();
    dec.push_back(forn(K::Size, "i", n(0), v("nch"), fused_iter("in", "MAC: ciphertext of chunk i, read before it is overwritten")));
    body.push_back(if_(v("encrypt"), {if_(o2("gt", v("nch"), n(0)), enc)}, dec));
    body.push_back(fn("p1305_settle", cat(vs({"h0", "h1", "h2", "acc0", "acc1", "acc2", "hin0", "hin1", "hin2"}), keyargs())));
    return body;
  }

  // chacha20_x4_blocks into o0..o3 from state x and its input s; into o<first>.. from state x.
  static Stmt blocks_of(const std::string &o, const std::string &x, const std::string &s) {
    return fn("chacha20_x4_blocks", vs({o + "0", o + "1", o + "2", o + "3", x + "a", x + "b", x + "c", x + "d", s + "a", s + "b", s + "c", s + "d"}));
  }
  static Stmt blocks4(int first, const std::string &x, const std::string &s) {
    std::vector<Expr> a;
    for (int k = 0; k < 4; ++k) a.push_back(v(fmt::format("o{}", first + k)));
    for (const auto &p : {x, s})
      for (char r : {'a', 'b', 'c', 'd'}) a.push_back(v(p + r));
    return fn("chacha20_x4_blocks", a);
  }
  // The rows of state b kept as a's input (`sa = xa`, ...).
  static std::vector<std::pair<std::string, Expr>> keep(const std::vector<std::pair<std::string, std::string>> &pairs) {
    std::vector<std::pair<std::string, Expr>> x;
    for (const auto &[a, b] : pairs)
      for (char r : {'a', 'b', 'c', 'd'}) x.push_back({a + r, v(b + r)});
    return x;
  }
  // One keystream pass of up to 16 blocks, rows in zmm: state x with the counters xc, and as many
  // more states (y, z, w: counters base + first_y ..) side by side as a tail of `tail` bytes needs
  // past x's first_y blocks; the blocks land in o0..o15 (zero where no state made them). No more
  // chains than the blocks need: a tail of 4..7 blocks costs half the vector work of four chains,
  // one of 8..11 three quarters (what a CPU whose vector ALUs are the limit pays: Intel's two
  // 512-bit ports), and no more latency. `one` and `two_rounds` replace the rounds of the one- and
  // two-state passes (the key pass's rounds inside chunk 0's loop).
  std::vector<Stmt> x4_pass16(std::vector<Expr> xc, const std::string &base, int first_y, const Expr &tail,
                              std::vector<Stmt> one = {}, std::vector<Stmt> two_rounds = {}) const {
    std::vector<Stmt> body = {dnames(zv, {"xa", "xb", "xc", "xd", "o0", "o1", "o2", "o3"}), dcl(zv, "zero", w("vzero", 512, {}))};
    std::vector<std::pair<std::string, Expr>> zs1, zs2;
    for (int k = 4; k < 12; ++k) zs1.push_back({fmt::format("o{}", k), v("zero")});
    for (int k = 12; k < 16; ++k) zs2.push_back({fmt::format("o{}", k), v("zero")});
    body.push_back(dmany(zv, zs1));
    body.push_back(dmany(zv, zs2));
    body.push_back(x4_init("x", std::move(xc)));
    body.push_back(dmany(zv, keep({{"s", "x"}}), true));
    // m more states beside x: their rows, counters, kept inputs, the m + 1 states' rounds, blocks.
    const char *st[3] = {"y", "z", "w"}, *in[3] = {"t", "u", "v"};
    auto more = [&](int m, std::vector<Stmt> rounds) {
      const std::vector<std::string> rows = x4_rows(m + 1);
      std::vector<Stmt> b = {dnames(zv, std::vector<std::string>(rows.begin() + 4, rows.end()))};
      std::vector<std::pair<std::string, std::string>> kept;
      for (int k = 0; k < m; ++k) {
        b.push_back(x4_init(st[k], {ctr_plus(base, first_y + 4 * k), ctr_plus(base, first_y + 1 + 4 * k),
                                    ctr_plus(base, first_y + 2 + 4 * k), ctr_plus(base, first_y + 3 + 4 * k)}));
        kept.push_back({in[k], st[k]});
      }
      b.push_back(dmany(zv, keep(kept), true));
      if (rounds.empty()) rounds.push_back(x4_rounds_call(m + 1));
      for (auto &x : rounds) b.push_back(std::move(x));
      for (int k = 0; k < m; ++k) b.push_back(blocks4(4 * (k + 1), st[k], in[k]));
      return b;
    };
    // m more states where the tail passes the blocks m - 1 more would make.
    auto needs = [&](int m) { return o2("gt", tail, n(64 * (first_y + 4 * (m - 1)))); };
    if (one.empty()) one.push_back(x4_rounds_call(1));
    body.push_back(if_(needs(3), more(3, {}), {if_(needs(2), more(2, {}), {if_(needs(1), more(1, std::move(two_rounds)), std::move(one))})}));
    body.push_back(blocks_of("o", "x", "s"));
    return body;
  }

  std::vector<Function> aead() const {
    std::vector<Function> out;
    Expr rk = w("vlow128", 512, {v("o0")}), sk = w("vextract128", 512, {v("o0")}, 1);
    const char *otk = "one-time key = block 0 (2.6)";
    {
      std::vector<Stmt> body = {dnames(zv, {"xa", "xb", "xc", "xd", "o0", "o1", "o2", "o3"}),
                                x4_init("x", {n(0), n(1), n(2), n(3)}), dmany(zv, keep({{"s", "x"}}), true)};
      if (NS == 2) {
        body.push_back(dnames(zv, {"ya", "yb", "yc", "yd", "o4", "o5", "o6", "o7"}));
        body.push_back(x4_init("y", {n(4), n(5), n(6), n(7)}));
        body.push_back(dmany(zv, keep({{"t", "y"}}), true));
        body.push_back(fn("chacha20_x4_rounds2", vs({"xa", "xb", "xc", "xd", "ya", "yb", "yc", "yd"})));
        body.push_back(blocks4(4, "y", "t"));
      } else {
        body.push_back(fn("chacha20_x4_rounds", vs({"xa", "xb", "xc", "xd"})));
      }
      body.push_back(blocks_of("o", "x", "s"));
      body.push_back(blank());
      for (auto &x : key_setup(rk, sk, otk)) body.push_back(x);
      body.push_back(dcl(kSize, "nc", o2("divsz", o2("addsz", v("len"), n(15)), n(16))));
      Expr na = o2("divsz", o2("addsz", v("aad_len"), n(15)), n(16));
      body.push_back(dcl(kInt, "one_step", o2("land", o2("le", v("aad_len"), n(16 * (L - 1))), o2("lt", o2("addsz", na, v("nc")), n(L)))));
      body.push_back(dmany(pv, {{"a0", v("h0")}, {"a1", v("h0")}, {"a2", v("h0")}, {"c0", v("h0")}, {"c1", v("h0")}, {"c2", v("h0")}}));
      body.push_back(if_(v("one_step"),
                         {comment(fmt::format("AAD, ciphertext and lengths fit in one {}-lane step: one multiply instead of three.", L)),
                          fn("p1305_load_partial", cat(vs({"a0", "a1", "a2", "aad", "aad_len"}), {n(0)})),
                          if1(op("lnot", {v("encrypt")}), fn("p1305_load_partial", cat(vs({"c0", "c1", "c2", "in", "len"}), {n(0)}),
                                                             "before an in-place decrypt overwrites it")),
                         },
                         {absorb_call(v("aad"), v("aad_len"), 0), if1(op("lnot", {v("encrypt")}), absorb_call(v("in"), v("len"), 0))}));
      for (int k = 0; k < 4 * NS - 1; ++k) body.push_back(xor_block_at("len", "out", "in", k, fmt::format("o{}", k + 1), "", true));
      body.push_back(if_(v("one_step"),
                         {if1(v("encrypt"), fn("p1305_load_partial", cat(vs({"c0", "c1", "c2", "out", "len"}), {n(0)}))),
                          fn("p1305_short_step", cat(vs({"h0", "h1", "h2", "a0", "a1", "a2", "c0", "c1", "c2"}),
                                                     cat({na, v("nc"), v("aad_len"), v("len")}, keyargs())))},
                         {if1(v("encrypt"), absorb_call(v("out"), v("len"), 0)),
                          fn("p1305_lengths", cat(vs({"h0", "h1", "h2", "aad_len", "len"}), keyargs()))}));
      body.push_back(finalize());
      out.push_back(helper("aead_short", Type::val(K::Void), aead_params(24),
                           fmt::format("Short kernel: len <= {}. One ChaCha20 pass of {} blocks makes the one-time key\n"
                                       "(block 0) and the keystream (blocks 1..{}) together.",
                                       S, 4 * NS, 4 * NS - 1),
                           body, kCut));
      out.back().section = "AEAD kernels (RFC 8439 2.8)";
    }
    {
      std::vector<Stmt> body = {
          dcl(kSize, "nch", o2("divsz", v("len"), n(CH))),
          dcl(kSize, "tail_at", o2("mulsz", v("nch"), n(CH))),
          dcl(kSize, "tail", o2("subsz", v("len"), v("tail_at"))),
          dcl(kU32, "tail_ctr", c(K::U32, o2("addsz", n(1), o2("divsz", v("tail_at"), n(64))))),
          comment(std::string("Key pass: block 0 (the one-time key) and the first tail blocks. A tail of 4 to 7 blocks gets\n"
                              "7 of them here in two states side by side, one of 8 to 11 blocks 11 in three, a longer one\n"
                              "15 in four.") +
                  (CW == 512 ? " A seal of whole chunks\n"
                               "and a tail of at most 7 blocks runs this pass's rounds in chunk 0's loop instead (its\n"
                               "keystream needs no MAC work): the latency chains at once, not one after the other."
                             : ""))};
      std::vector<Stmt> one, two_rounds;
      const Expr chunk0_ctr = n(1);  // chunk 0's first block: block 0 is the one-time key
      if (CW == 512) {
        // Seal of whole chunks and a tail of at most 7 blocks: chunk 0 needs no MAC work, so its rounds
        // and the key pass's one or two row states run in one loop (chacha20_bulk_chunk_key, _key2)
        // instead of one after the other.
        body.push_back(dcl(kInt, "key_in_chunk0", o2("land", o2("land", v("encrypt"), o2("gt", v("nch"), n(0))), o2("le", v("tail"), n(448))),
                           "a seal of whole chunks, tail <= 7 blocks"));
        for (auto &x : bulk_state(false)) body.push_back(std::move(x));
        // nst row states: inside chunk 0 where key_in_chunk0 holds, else alone.
        auto rounds = [&](int nst) {
          std::vector<Expr> a = cat(vs(x4_rows(nst)), cat(vs({"out", "in"}), cat(svars(), {chunk0_ctr})));
          return if_(v("key_in_chunk0"), {bulk_init(), fn(bulk_chunk_name(nst), std::move(a))}, {x4_rounds_call(nst)});
        };
        one.push_back(rounds(1));
        two_rounds.push_back(rounds(2));
      }
      for (auto &x : x4_pass16({n(0), ctr_plus("tail_ctr", 0), ctr_plus("tail_ctr", 1), ctr_plus("tail_ctr", 2)}, "tail_ctr", 3, v("tail"),
                               std::move(one), std::move(two_rounds)))
        body.push_back(x);
      body.push_back(blank());
      for (auto &x : key_setup(rk, sk, otk)) body.push_back(x);
      body.push_back(absorb_call(v("aad"), v("aad_len"), 0));
      body.push_back(blank());
      for (auto &x : CW == 512 ? fused_loops(chunk0_ctr, v("key_in_chunk0")) : fused_loops(chunk0_ctr)) body.push_back(x);
      body.push_back(blank());
      body.push_back(comment(fmt::format("Tail: the last len % {} bytes.", CH)));
      body.push_back(if1(op("lnot", {v("encrypt")}), absorb_call(o2("offset", v("in"), v("tail_at")), v("tail"), 0)));
      for (int k = 0; k < 15; ++k) body.push_back(xor_block_at("tail", "out", "in", k, fmt::format("o{}", k + 1), "tail_at", true));
      body.push_back(if1(o2("gt", v("tail"), n(960)),
                         fn("chacha20_x4_stream", {at(o2("offset", v("out"), v("tail_at")), 960), at(o2("offset", v("in"), v("tail_at")), 960),
                                                   o2("subsz", v("tail"), n(960)), v("key"), v("nonce"), o2("add32", v("tail_ctr"), n(15))})));
      body.push_back(if1(v("encrypt"), absorb_call(o2("offset", v("out"), v("tail_at")), v("tail"), 0)));
      body.push_back(fn("p1305_lengths", cat(vs({"h0", "h1", "h2", "aad_len", "len"}), keyargs())));
      body.push_back(finalize());
      out.push_back(helper("aead_bulk", Type::val(K::Void), aead_params(23),
                           fmt::format("Bulk kernel: len > {}. Whole {}-byte chunks run in the fused loop; the one-time key pass\n"
                                       "also makes the first 3, 7, 11 or 15 blocks of the tail (one to four 4-block states side by\n"
                                       "side); the rest of a longer tail runs in 4-block passes.",
                                       S, CH),
                           body, kSched));
    }
    for (auto &f : stream()) out.push_back(std::move(f));
    return out;
  }

  // --- streaming entries (issue 9) ----------------------------------------------------------------
  // The runtime's chapoly_stream hands every run of whole 64-byte chunks of a long message to the
  // seal/open update entries below (shorter runs, the AAD and the length block go through the mul64
  // family's entries: emitted/CMakeLists.txt, STREAM_BULK). The accumulator travels between calls
  // in the 24-byte state `acc` every family shares: h = le64(acc[0..8)) + 2^64 le64(acc[8..16)) +
  // 2^128 acc[16] (radix 2^64, bytes 17..23 zero). These two helpers convert it to and from the
  // 44-bit limbs; chapoly-verify proves both bit-exactly (state-load, state-store).
  // A streaming entry's start: the lane powers from the key-power state pw, h from the state acc
  // (aead_stream and the MAC entry alike).
  std::vector<Stmt> stream_state_in() const {
    return {dnames(pv, {"q0", "q1", "q2", "qs1", "qs2", "rl0", "rl1", "rl2", "rls1", "rls2"}),
            fn("p1305_powers_load", vs({"q0", "q1", "q2", "qs1", "qs2", "rl0", "rl1", "rl2", "rls1", "rls2", "pw"}),
               "made once per message by chapoly_k_*_stream_keys"),
            dmany(pv, {{"h0", w("vzero", PW, {})}, {"h1", v("h0")}, {"h2", v("h0")}}),
            fn("p1305_state_load", vs({"h0", "h1", "h2", "acc"}))};
  }
  // Its end: h (lane 0 of each limb) back into acc.
  Stmt stream_state_out() const {
    return fn("p1305_state_store", {v("acc"), call("p1305_lane0", {v("h0")}), call("p1305_lane0", {v("h1")}),
                                    call("p1305_lane0", {v("h2")})});
  }

  std::vector<Function> stream() const {
    std::vector<Function> out;
    const int R = s.radix_bits, T = d.top_bits, lo = 2 * R - 64;  // 44, 42, 24
    const uint64_t mR = (1ull << R) - 1, mLo = (1ull << lo) - 1, mHi = (1ull << (64 - R)) - 1, mTop = (1ull << (128 - 2 * R)) - 1;
    {
      std::vector<Stmt> body = {
          dcl(Type::vec(128), "w", w("vload", 128, {v("acc")}), "h bits 0..127"),
          dcl(kU64, "a0", c(K::U64, w("vcvt64", 128, {v("w")}))),
          dcl(kU64, "a1", c(K::U64, w("vextract64", 128, {v("w")}, 1))),
          dcl(kU64, "a2", o2("and64", c(K::U64, w("vcvt64", 128, {w("vmaskz_load8", 128, {n(1), at("acc", 16)})})), hex(0xff)),
              "h bits 128.. (byte 16 only)"),
          dcl(kU64, "t", op("shr64", {v("a2")}, 2), "bits 130.. of h: 2^130 = 5 (mod p)"),
          dl(kU64, "l0", o2("add64", o2("add64", o2("and64", v("a0"), hex(mR, "ULL")), v("t")), op("shl64", {v("t")}, 2)), false,
             "bits 0..43 + 5 t"),
          dcl(kU64, "c", op("shr64", {v("l0")}, R)),
          set("l0", o2("and64", v("l0"), hex(mR, "ULL"))),
          dcl(kU64, "l1", o2("add64", o2("or64", op("shr64", {v("a0")}, R), op("shl64", {o2("and64", v("a1"), hex(mLo, "ULL"))}, 64 - R)), v("c")),
              fmt::format("bits {}..{}, + the carry", R, 2 * R - 1)),
          dcl(kU64, "l2", o2("or64", op("shr64", {v("a1")}, lo), op("shl64", {o2("and64", v("a2"), n(3))}, 128 - 2 * R)),
              fmt::format("bits {}..129", 2 * R)),
          set("h0", w("vmaskz_set1_64", PW, {n(1), c(K::I64, v("l0"))})),
          set("h1", w("vmaskz_set1_64", PW, {n(1), c(K::I64, v("l1"))})),
          set("h2", w("vmaskz_set1_64", PW, {n(1), c(K::I64, v("l2"))}))};
      out.push_back(helper("p1305_state_load", Type::val(K::Void),
                           {P(Type::vref(PW), "h0"), P(Type::vref(PW), "h1"), P(Type::vref(PW), "h2"), P(Type::array(K::U8, 24, true), "acc")},
                           fmt::format("h from the streaming state, in {}-bit limbs in lane 0 (zeros elsewhere): h0 + 2^{} h1 + 2^{} h2 =\n"
                                       "h (mod 2^130-5) with h0 < 2^{}, h1 <= 2^{}, h2 < 2^{}: the bits of acc[16] above bit 1 fold in\n"
                                       "as 5 each (2^130 = 5 mod p), so any byte there loads, as the mul64 families' load does.",
                                       R, R, 2 * R, R, R, T),
                           body, kMul));
      out.back().section = "Streaming entries (issue 9): the state's radix-2^64 accumulator and the fused loop";
    }
    {
      std::vector<Stmt> body = {
          dcl(kU64, "c", op("shr64", {v("h1")}, R), "h1 may exceed 2^44 by a few: carry 1>2 first"),
          dcl(kU64, "g1", o2("and64", v("h1"), hex(mR, "ULL"))),
          dcl(kU64, "g2", o2("add64", v("h2"), v("c")), "< 2^42 + 1"),
          dcl(kU64, "w0", o2("or64", v("h0"), op("shl64", {o2("and64", v("g1"), hex(mHi, "ULL"))}, R)), "bits 0..63"),
          dcl(kU64, "w1", o2("or64", op("shr64", {v("g1")}, 64 - R), op("shl64", {o2("and64", v("g2"), hex(mTop, "ULL"))}, lo)),
              "bits 64..127"),
          dcl(kU64, "w2", op("shr64", {v("g2")}, 128 - 2 * R), "bits 128..: <= 4"),
          ev(w("vstore", 128, {v("acc"), w("vset64x2", 128, {c(K::I64, v("w1")), c(K::I64, v("w0"))})})),
          ev(w("vstore", 128, {at("acc", 8), w("vset64x2", 128, {c(K::I64, v("w2")), c(K::I64, v("w1"))})}), "bytes 8..23")};
      out.push_back(helper("p1305_state_store", Type::val(K::Void),
                           {P(Type::array(K::U8, 24, false), "acc"), P(kU64, "h0"), P(kU64, "h1"), P(kU64, "h2")},
                           fmt::format("acc = h0 + 2^{} h1 + 2^{} h2 as three little-endian 64-bit words, exactly, for a settled h\n"
                                       "(h0 < 2^{}, h1 <= 2^{} + 7, h2 < 2^{}: the carry chain's output), so the top word is <= 4.",
                                       R, 2 * R, R, R, T),
                           body, kMul));
    }
    // The key-power state (kPowersBytes bytes): the update entries take the lane powers q (r^(L-j)
    // in lane j) from it instead of making them on every call; chapoly_k_*_stream_keys fills it
    // once per message. Bytes 64 i + 8 j .. + 8 hold limb i of lane j, little-endian.
    const std::vector<int> kb = key_power_bits(s, blocks);
    const int VB8 = PW / 8;  // bytes per limb vector (64 for 8 lanes)
    auto limb_mask = [&](int i) { return (kb[(size_t)i] >= 64 ? ~0ull : (1ull << kb[(size_t)i]) - 1); };
    {
      std::vector<Stmt> body;
      for (int i = 0; i < 3; ++i)
        body.push_back(ev(w("vstore", PW, {at("pw", (uint64_t)(VB8 * i)), v(fmt::format("q{}", i))}),
                          fmt::format("limb {} of lanes 0..{} (< 2^{})", i, L - 1, kb[(size_t)i])));
      out.push_back(helper("p1305_powers_store", Type::val(K::Void),
                           {P(Type::array(K::U8, kPowersBytes, false), "pw"), P(pv, "q0"), P(pv, "q1"), P(pv, "q2")},
                           fmt::format("The key-power state: pw[{} i + 8 j .. + 8) = limb i of lane j of q (r^({}-j)), little-endian,\n"
                                       "exactly{}; the key setup's limbs are below 2^{}, 2^{}, 2^{} (limb 0, 1, 2),\n"
                                       "which p1305_powers_load's masks keep.",
                                       VB8, L, 3 * VB8 < (int)kPowersBytes ? fmt::format(" (bytes {}.. unused)", 3 * VB8) : "",
                                       kb[0], kb[1], kb[2]),
                           body, kMul));
    }
    {
      std::vector<Stmt> body;
      for (int i = 0; i < 3; ++i)
        body.push_back(set(fmt::format("q{}", i), w("vand", PW, {w("vload", PW, {at("pw", (uint64_t)(VB8 * i))}), w("vbroadcast64", PW, {hex(limb_mask(i), "LL")})}),
                           fmt::format("limb {}, masked to {} bits: any bytes load as limbs the multiplies take", i, kb[(size_t)i])));
      body.push_back(fn("p1305_wrap", vs({"qs1", "qs2", "q1", "q2"})));
      body.push_back(dcl(pv, "ZERO", w("vzero", PW, {})));
      for (int i = 0; i < 3; ++i)
        body.push_back(set(fmt::format("rl{}", i), w("vmaskz_permvar64", PW, {cmask(8, hex((1ull << L) - 1)), v("ZERO"), v(fmt::format("q{}", i))}),
                           i == 0 ? fmt::format("lane 0 (r^{}) in every lane", L) : ""));
      body.push_back(fn("p1305_wrap", vs({"rls1", "rls2", "rl1", "rl2"})));
      std::vector<Param> ps;
      for (const char *x : {"q0", "q1", "q2", "qs1", "qs2", "rl0", "rl1", "rl2", "rls1", "rls2"})
        ps.push_back(P(Type::vref(PW), x, std::string(x) == "rl0" ? 29 : 0));
      ps.push_back(P(Type::array(K::U8, kPowersBytes, true), "pw"));
      out.push_back(helper("p1305_powers_load", Type::val(K::Void), ps,
                           fmt::format("The lane key powers from the key-power state (p1305_powers_store): q limb i = pw's limb i\n"
                                       "masked to {}/{}/{} bits, rl = lane 0 of q (r^{}) in every lane, qs/rls = {}*q/rl.",
                                       kb[0], kb[1], kb[2], L, d.wrap_factor),
                           body, kMul));
    }
    {
      std::vector<Stmt> body = {
          dcl(kSize, "nch", o2("divsz", v("len"), n(CH))),
          dcl(kSize, "tail_at", o2("mulsz", v("nch"), n(CH))),
          dcl(kSize, "tail", o2("subsz", o2("subsz", v("len"), o2("andsz", v("len"), n(63))), v("tail_at")), "whole 64-byte chunks only")};
      for (auto &x : stream_state_in()) body.push_back(x);
      body.push_back(blank());
      for (auto &x : fused_loops(v("counter"))) body.push_back(x);
      body.push_back(blank());
      body.push_back(comment(fmt::format("Tail: the last (len % {}) / 64 chunks (at most 15 blocks), one pass of 4 blocks, of 8\n"
                                         "in two states side by side above 4, of 12 in three above 8, or of 16 in four above 12.", CH)));
      body.push_back(if1(op("lnot", {v("encrypt")}), absorb_call(o2("offset", v("in"), v("tail_at")), v("tail"), 0)));
      std::vector<Stmt> tb = {dcl(kU32, "tail_ctr", c(K::U32, o2("addsz", v("counter"), o2("mulsz", v("nch"), n(B)))))};
      for (auto &x : x4_pass16({ctr_plus("tail_ctr", 0), ctr_plus("tail_ctr", 1), ctr_plus("tail_ctr", 2), ctr_plus("tail_ctr", 3)},
                               "tail_ctr", 4, v("tail")))
        tb.push_back(x);
      for (int k = 0; k < 15; ++k) tb.push_back(xor_block_at("tail", "out", "in", k, fmt::format("o{}", k), "tail_at", true));
      body.push_back(if_(o2("gt", v("tail"), n(0)), tb, {}));
      body.push_back(if1(v("encrypt"), absorb_call(o2("offset", v("out"), v("tail_at")), v("tail"), 0)));
      body.push_back(stream_state_out());
      out.push_back(helper("aead_stream", Type::val(K::Void),
                           {P(kU8p, "out"), P(kU8c, "in"), P(kSize, "len"), P(Type::array(K::U8, 24, false), "acc"),
                            P(Type::array(K::U8, kPowersBytes, true), "pw"), P(kNonce, "nonce", 24), P(kKey, "key"), P(kU32, "counter"),
                            P(kInt, "encrypt")},
                           fmt::format("Streaming kernel: the len / 64 whole 64-byte chunks of a message (len % 64 ignored) from block\n"
                                       "counter on: whole {}-byte chunks in the fused loop, the rest in one pass of one to four\n"
                                       "4-block states side by side; h continues from acc and goes back there.",
                                       CH),
                           body, kSched));
    }
    return out;
  }

  // --- exported kernels ---------------------------------------------------------------------------
  std::vector<Function> exported() const {
    std::vector<Function> out;
    auto ex = [&](const std::string &what, std::vector<Param> ps, const std::string &doc, std::vector<Stmt> body) {
      Function f;
      f.name = fmt::format("chapoly_k_{}_{}", s.name, what);
      f.exported = true;
      f.doc_in_source = false;
      f.params = std::move(ps);
      f.doc = doc;
      f.body = std::move(body);
      return f;
    };
    for (bool seal : {true, false}) {
      const char *o = seal ? "ct" : "pt", *i = seal ? "pt" : "ct";
      std::vector<Expr> args = {v(o), v("tag"), v(i), v("len"), v("aad"), v("aad_len"), v("nonce"), v("key"), n(seal ? 1 : 0)};
      out.push_back(ex(seal ? "seal" : "open",
                       {P(kU8p, o), P(kTag, "tag"), P(kU8c, i), P(kSize, "len"), P(kU8c, "aad", 4), P(kSize, "aad_len"), P(kNonce, "nonce"),
                        P(kKey, "key")},
                       seal ? fmt::format("chapoly_k_{}_seal: AEAD encryption, RFC 8439 section 2.8. Writes len bytes of\n"
                                          "ciphertext to ct and the 16-byte tag to tag. ct may equal pt exactly (in place); otherwise the\n"
                                          "buffers must not overlap. Requires len <= 2^38 - 64 (checked by the caller).",
                                          s.name)
                            : fmt::format("chapoly_k_{}_open: AEAD decryption without the tag comparison. Writes len bytes of\n"
                                          "plaintext to pt and the tag computed over (aad, ct) to tag; the caller compares it with the\n"
                                          "received tag in constant time and wipes pt on mismatch. pt may equal ct exactly.",
                                          s.name),
                       {if1e(o2("le", v("len"), n(S)), fn("aead_short", args), fn("aead_bulk", args))}));
    }
    out.front().section = "Exported kernels (emitted/README.md)";
    {
      std::vector<Stmt> body = {dnames(pv, {"q0", "q1", "q2", "qs1", "qs2", "rl0", "rl1", "rl2", "rls1", "rls2"}),
                                dnames(kU64, {"sk0", "sk1", "sk2"}),
                                fn("p1305_setup", {v("q0"), v("q1"), v("q2"), v("qs1"), v("qs2"), v("rl0"), v("rl1"), v("rl2"), v("rls1"),
                                                   v("rls2"), v("sk0"), v("sk1"), v("sk2"), brk(w("vload", 128, {v("key")}), 12),
                                                   w("vload", 128, {at("key", 16)})}),
                                dmany(pv, {{"h0", w("vzero", PW, {})}, {"h1", v("h0")}, {"h2", v("h0")}}),
                                absorb_call(v("msg"), v("len"), 1), finalize()};
      out.push_back(ex("poly1305", {P(kTag, "tag"), P(kU8c, "msg"), P(kSize, "len"), P(kKey, "key")},
                       fmt::format("chapoly_k_{}_poly1305: one-shot Poly1305, RFC 8439 section 2.5, over len bytes of msg\n"
                                   "with the 32-byte one-time key (r || s); writes the 16-byte tag.",
                                   s.name),
                       body));
    }
    {
      std::vector<Stmt> whole;
      std::vector<Expr> sargs;
      for (int k = 0; k < 16; ++k) {
        whole.push_back(dl(cv, fmt::format("s{}", k)));
        sargs.push_back(v(fmt::format("s{}", k)));
      }
      whole.push_back(fn("chacha20_bulk_init", cat(sargs, {v("key"), v("nonce")})));
      Stmt loop = forn(K::Size, "i", n(0), v("nch"),
                       {fn("chacha20_bulk_chunk",
                           cat({o2("offset", v("out"), o2("mulsz", v("i"), n(CH))), o2("offset", v("in"), o2("mulsz", v("i"), n(CH)))},
                               cat(sargs, {c(K::U32, o2("addsz", v("counter"), o2("mulsz", v("i"), n(B))))})))});
      loop.inline_body = true;
      whole.push_back(loop);
      std::vector<Stmt> body = {
          dcl(kSize, "nch", o2("divsz", v("len"), n(CH))), if_(o2("gt", v("nch"), n(0)), whole),
          dcl(kSize, "done", o2("mulsz", v("nch"), n(CH))),
          if1(o2("gt", v("len"), v("done")),
              fn("chacha20_x4_stream", {o2("offset", v("out"), v("done")), o2("offset", v("in"), v("done")), o2("subsz", v("len"), v("done")),
                                        v("key"), v("nonce"), c(K::U32, o2("addsz", v("counter"), o2("mulsz", v("nch"), n(B))))}))};
      out.push_back(ex("chacha20",
                       {P(kU8p, "out"), P(kU8c, "in"), P(kSize, "len"), P(kNonce, "nonce", 4), P(kKey, "key"), P(kU32, "counter")},
                       fmt::format("chapoly_k_{}_chacha20: ChaCha20, RFC 8439 section 2.4: out = in XOR keystream\n"
                                   "starting at block `counter`. Requires counter + ceil(len / 64) <= 2^32. out may equal in.",
                                   s.name),
                       body));
    }
    for (bool seal : {true, false}) {
      const char *o = seal ? "ct" : "pt", *i = seal ? "pt" : "ct";
      std::vector<Expr> args = {v(o), v(i), v("len"), v("acc"), v("pw"), v("nonce"), v("key"), v("counter"), n(seal ? 1 : 0)};
      out.push_back(ex(seal ? "seal_update" : "open_update",
                       {P(kU8p, o), P(kU8c, i), P(kSize, "len"), P(Type::array(K::U8, 24, false), "acc"),
                        P(Type::array(K::U8, kPowersBytes, true), "pw", 4), P(kNonce, "nonce"), P(kKey, "key"), P(kU32, "counter")},
                       fmt::format("chapoly_k_{}_{}_update: the whole 64-byte chunks of a streamed AEAD (RFC 8439 2.8): for the\n"
                                   "len / 64 chunks (len % 64 bytes at the end are ignored), {} = {} XOR the ChaCha20 keystream\n"
                                   "of blocks counter, counter + 1, ... (RFC 8439 2.4), and the ciphertext absorbed into acc\n"
                                   "({}). {} may equal {} exactly. Requires counter + len / 64 <= 2^32.\n"
                                   "acc is the 24-byte Poly1305 state (h0, h1, h2 little-endian, h2 <= 4; zero before the first block),\n"
                                   "pw the {}-byte key-power state chapoly_k_{}_stream_keys made from the message's one-time key.",
                                   s.name, seal ? "seal" : "open", o, i, seal ? "after encrypting" : "before decrypting", o, i,
                                   kPowersBytes, s.name),
                       {fn("aead_stream", args)}));
    }
    {
      // The MAC of a text run whose keystream the stream parked (made ahead in batches of 8
      // blocks): the lane powers from pw, the 8-lane loop of p1305_absorb over whole 16-byte
      // blocks. A 256-byte streamed update then costs a quarter less than the seal/open update
      // entry's, whose 4-block ChaCha20 pass is one 20-round latency chain per call.
      std::vector<Stmt> body = stream_state_in();
      body.push_back(absorb_call(v("msg"), o2("subsz", v("len"), o2("andsz", v("len"), n(15))), 0));
      body.push_back(stream_state_out());
      out.push_back(ex("poly1305_update",
                       {P(Type::array(K::U8, 24, false), "acc"), P(kU8c, "msg"), P(kSize, "len"),
                        P(Type::array(K::U8, kPowersBytes, true), "pw")},
                       fmt::format("chapoly_k_{}_poly1305_update: Poly1305 (RFC 8439 2.5) over the len / 16 whole 16-byte blocks of\n"
                                   "msg (len % 16 bytes at the end are ignored), each with 2^128 added, continuing the 24-byte state\n"
                                   "acc (h0, h1, h2 little-endian, h2 <= 4; zero before the first block) and storing h back there.\n"
                                   "pw is the {}-byte key-power state chapoly_k_{}_stream_keys made from the message's one-time key\n"
                                   "(the mul64 families' entry of this name takes the one-time key itself).",
                                   s.name, kPowersBytes, s.name),
                       body));
    }
    {
      std::vector<Stmt> body = {dnames(pv, {"q0", "q1", "q2", "qs1", "qs2", "rl0", "rl1", "rl2", "rls1", "rls2"}),
                                dnames(kU64, {"sk0", "sk1", "sk2"}),
                                fn("p1305_setup", {v("q0"), v("q1"), v("q2"), v("qs1"), v("qs2"), v("rl0"), v("rl1"), v("rl2"), v("rls1"),
                                                   v("rls2"), v("sk0"), v("sk1"), v("sk2"), brk(w("vload", 128, {v("otk")}), 12),
                                                   w("vload", 128, {at("otk", 16)})}),
                                fn("p1305_powers_store", vs({"pw", "q0", "q1", "q2"}))};
      out.push_back(ex("stream_keys", {P(Type::array(K::U8, kPowersBytes, false), "pw"), P(kKey, "otk")},
                       fmt::format("chapoly_k_{}_stream_keys: the {}-byte key-power state of a streamed message, which its\n"
                                   "seal_update/open_update calls read instead of making the powers again: the lane powers r^{}..r^1\n"
                                   "of r = clamp(otk[0..16)) (RFC 8439 2.5), limb i of lane j at bytes {} i + 8 j, little-endian.\n"
                                   "otk is the 32-byte one-time key r || s (RFC 8439 2.6); s is not used.",
                                   s.name, kPowersBytes, L, PW / 8),
                       body));
    }
    return out;
  }
};

}  // namespace

// The contract of each helper (docs/verification.md, "Contracts"): chapoly-verify proves a helper
// by its role, never by its name. `keys` / `loop_keys` name the parameters that carry the lane
// key powers q, qs (r^(L-j) in lane j) and the loop power rl, rls (r^L in every lane) that
// p1305_setup made; the verifier checks every call passes exactly those.
static std::string avx512_contract(const Function &f, const Spec &s, const std::vector<int> &key_bits) {
  static const std::map<std::string, std::string> roles = {
      {"p1305_mul", "ifma.mul"},
      {"p1305_wrap", "ifma.wrap"},
      {"p1305_carry", "ifma.carry"},
      {"p1305_hsum", "ifma.lane_sum"},
      {"p1305_setup", "ifma.key_powers"},
      {"p1305_settle", "ifma.settle"},
      {"p1305_load_partial", "ifma.load_partial"},
      {"p1305_step_partial", "ifma.step_partial"},
      {"p1305_absorb", "ifma.absorb"},
      {"p1305_lengths", "ifma.lengths"},
      {"p1305_short_step", "ifma.short_step"},
      {"p1305_lane0", "ifma.lane0"},
      {"p1305_final", "poly1305.final"},
      {"p1305_state_load", "ifma.state_load"},
      {"p1305_state_store", "ifma.state_store"},
      {"p1305_powers_store", "ifma.powers_store"},
      {"p1305_powers_load", "ifma.powers_load"},
      {"aead_short", "ifma.aead"},
      {"aead_bulk", "ifma.aead"},
      {"aead_stream", "ifma.aead"}};
  std::string role;
  if (auto it = roles.find(f.name); it != roles.end()) role = it->second;
  else if (f.name.rfind("chacha20_", 0) == 0) role = "chacha20.lanes";
  else throw std::logic_error("avx512: no contract role for helper " + f.name);
  nlohmann::ordered_json c = {{"role", role}};
  auto has = [&](const char *p) {
    return std::any_of(f.params.begin(), f.params.end(), [&](const Param &x) { return x.name == p; });
  };
  if (role == "poly1305.final") {
    c["acc"] = {"h0", "h1", "h2"};
    c["s"] = {"sk0", "sk1", "sk2"};
    c["radix"] = s.radix_bits;
  } else if (role == "chacha20.lanes") {
    // What chapoly-verify proves of the helper (its `chacha-lanes` obligation), by the helper's
    // job; the round and composing helpers carry none (their round loops are proved by
    // chacha-round, the rest is calls).
    static const std::map<std::string, std::string> claims = {
        {"chacha20_x4_ctr", "ctr4"},       {"chacha20_x4_init", "init4"}, {"chacha20_x4_blocks", "blocks4"},
        {"chacha20_xor_block", "xor64"},   {"chacha20_bulk_init", "sliced_init"}, {"chacha20_bulk_ctr", "sliced_ctr"},
        {"chacha20_bulk_finish", "sliced_xor"}};
    if (auto cl = claims.find(f.name); cl != claims.end()) c["claim"] = cl->second;
  } else if (role == "ifma.powers_store") {
    c["keys"] = {"q0", "q1", "q2"};
    c["limb_bits"] = key_bits;
  } else if (role.rfind("ifma.", 0) == 0) {
    if (has("q0")) c["keys"] = {"q0", "q1", "q2", "qs1", "qs2"};
    if (has("rl0")) c["loop_keys"] = {"rl0", "rl1", "rl2", "rls1", "rls2"};
    if (role == "ifma.powers_load") c["limb_bits"] = key_bits;
  }
  return c.dump();
}

Module build_avx512(const Spec &s, const Derived &d, const json &blocks, const std::vector<std::string> &acc_invariant) {
  Avx512 b(s, d, blocks, acc_invariant);
  const std::vector<int> key_bits = key_power_bits(s, blocks);
  Module m;
  m.name = s.name;
  for (auto part : {&Avx512::chacha_x4, &Avx512::chacha_bulk, &Avx512::poly, &Avx512::aead, &Avx512::exported})
    for (auto &f : (b.*part)()) {
      if (!f.exported) f.contract = avx512_contract(f, s, key_bits);
      m.functions.push_back(std::move(f));
    }
  return m;
}

std::vector<std::string> avx512_notes(const Spec &s, const Derived &d) {
  auto line = [&](const char *k) { return s.line_of.at(k); };
  std::vector<std::string> chain;
  for (const auto &c : s.carry_chain) chain.push_back(fmt::format("carry {}>{}", c.from, c.to));
  const int L = s.lanes, S = s.short_max_bytes, CH = d.chunk_bytes;
  std::vector<std::string> n = {
      fmt::format("Representation (spec lines {}-{}):", line("poly1305.radix_bits"), line("poly1305.carry_chain")),
      fmt::format("  Poly1305 accumulator h = h0 + h1*2^44 + h2*2^88, limbs of {} bits when carried,", fmt::join(s.limb_bits, "/")),
      fmt::format("  {} lanes of 64 bits ({}-bit vectors); lane j of the key-power vector q holds r^{{{}-j}}.", L, d.poly_width, L),
      fmt::format("  Derived: 2^132 = {} (mod 2^130-5), so a product that lands at 2^132 is folded in as", d.wrap_factor),
      fmt::format("  {}*b_j; IFMA hi halves (bits 52..103) land {} bits up the next limb; the top", d.wrap_factor, d.hi_shift),
      fmt::format("  limb's hi half lands at 2^130 * 2^{}. Carry chain: {}.", d.top_hi_shift, fmt::join(chain, ", ")),
      "",
      fmt::format("ChaCha20 (spec lines {}-{}): {} blocks per fused iteration, word-sliced", line("chacha20.bulk_blocks"),
                  line("chacha20.rotate"), s.bulk_blocks),
      fmt::format("  ({}-bit vectors, {} bytes); short kernel and tails: 4 blocks per zmm; rotations: {}.", d.bulk_width, CH, s.rotate),
      "",
      fmt::format("Kernels by message length (spec lines {}, {}):", line("schedule.interleave"), line("cutoffs.short_max_bytes")),
      fmt::format("  len <= {}: short kernel, one pass of {} blocks: block 0 is the one-time key, blocks 1.. the keystream.", S,
                  4 * d.short_states),
      fmt::format("  len  > {}: bulk kernel: whole {}-byte chunks in the fused loop ({} Poly1305 lane steps per chunk,", S, CH,
                  d.groups_per_chunk),
      fmt::format("               {} per double round{}), the last len % {} bytes in one to four 4-block states side by side.", s.interleave,
                  s.interleave == 0 ? ", i.e. two passes inside each iteration" : "", CH),
      "  Encrypt: the MAC of chunk i's ciphertext runs inside chunk i+1's rounds; decrypt: inside chunk i's.",
      "",
      "Verification: chapoly-verify proves this file before the build links it (docs/verification.md).",
      "Every `chapoly-invariant` line states a bound assumed at a loop head; the verifier proves it on",
      "entry and at the end of the body.",
      "",
      "Design note (spec `rationale`):",
  };
  std::string r = s.rationale;
  while (!r.empty() && (r.back() == '\n' || r.back() == ' ')) r.pop_back();
  size_t b = r.find_first_not_of(" \n");
  r = b == std::string::npos ? "" : r.substr(b);
  std::istringstream in(r);
  for (std::string l; std::getline(in, l);) n.push_back("  " + l);
  return n;
}

}  // namespace chapoly::gen::kir
