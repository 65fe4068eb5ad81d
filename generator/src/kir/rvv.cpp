// rvv.cpp: the riscv64-rvv AEAD as KIR (see rvv.hpp). The vector part is new here: the
// vector-length-agnostic keystream function chacha20_xorv (and its stitched twin with Poly1305
// block steps woven into the rounds); everything scalar (byte helpers, the one-block ChaCha20 for
// the one-time key and the last partial block, the mul64 Poly1305 helpers and their loops and
// contracts) comes from the scalar builder through mul64_parts.hpp.
#include "rvv.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "mul64_parts.hpp"
#include "shared.hpp"

namespace chapoly::gen::kir {

namespace {

using K = Type::Kind;
const Type kU32 = Type::val(K::U32), kU64 = Type::val(K::U64), kSize = Type::val(K::Size);
const Type kRef64 = Type::ref(K::U64);
const Type kIn = Type::ptr(K::U8, true), kOut = Type::ptr(K::U8, false);
const Type kV = Type::vecx();

const char *const kLmul = "chacha20.lmul";
const char *const kMul = "poly1305.multiplier";
const char *const kInterleave = "schedule.interleave";
// Blocks per chacha20_xorv call at most: its keystream buffer (ks, 2 KiB on the stack). VLMAX is
// VLEN / 32 * LMUL blocks: 32 at VLEN 1024, LMUL 1; wider vectors just take 32 at a time.
constexpr uint64_t kMaxBlocks = 32;

Expr v(const std::string &n) { return var(n); }
Expr u32(uint64_t x) { return lit(x, K::U32); }
Expr u64(uint64_t x) { return lit(x, K::U64); }
Expr sz(uint64_t x) { return lit(x, K::Size); }
Expr at(Expr p, Expr i) { return op("offset", {std::move(p), std::move(i)}); }
Expr load32(Expr p) { return call("load32_le", {std::move(p)}); }
Expr load64_at(const char *p, uint64_t k) { return call("load64_le", {at(v(p), sz(k))}); }

// One half of a double round (columns: half 0, diagonals: half 1) on x0..x15, the four quarter
// rounds' steps interleaved.
std::vector<Stmt> half_round(int half) {
  std::vector<Stmt> out;
  out.push_back(comment(half == 0 ? "Column round (four independent quarter rounds, step by step)."
                                  : "Diagonal round."));
  for (const auto &st : kChachaQuarterRoundSteps)
    for (int q = 0; q < 4; ++q) {
      const int *w = kChachaQuarterRounds[4 * half + q];
      Expr d = v(fmt::format("x{}", w[st.dst])), src = v(fmt::format("x{}", w[st.src]));
      Expr e = st.rot < 0 ? op("vadd32", {d, src}) : st.rot == 0 ? op("vxor", {d, src}) : op("vrotl32", {d}, st.rot);
      out.push_back(assign(d, e));
    }
  return out;
}

// size_t chacha20_xorv(out, in, nblocks, key, nonce, counter[, h0, h1, h2, r0, r1, s1, mac, nmac]):
// vl = vsetvl32(min(nblocks, 32)) blocks (1 <= vl <= nblocks for nblocks >= 1; vl = nblocks when
// nblocks <= min(VLMAX, 32)) at counters counter..counter+vl-1, word-sliced: lane b of vector k is word k of block
// b. The transpose back to blocks is in the memory access: word k of every block is a strided
// store (stride 64 bytes) into the aligned keystream buffer ks; then out[0..64 vl) = in[0..64 vl)
// XOR ks in byte vectors (any alignment of in and out). Returns vl.
// The stitched version also absorbs the nmac 16-byte Poly1305 blocks at mac into h: with
// schedule.interleave = 1, floor(nmac / 10) of them inside each double round (between its column
// and diagonal halves), the rest after the rounds; with 0 all of them after the rounds.
Function chacha20_xorv(const Spec &s, const Mul64 &d, bool mac) {
  Function f;
  f.name = mac ? "chacha20_xorv_mac" : "chacha20_xorv";
  f.ret = kSize;
  f.params = {{kOut, "out"}, {kIn, "in"}, {kSize, "nblocks"}, {Type::array(K::U8, 32, true), "key"},
              {Type::array(K::U8, 12, true), "nonce"}, {kU32, "counter"}};
  if (mac) {
    for (const char *h : {"acc0", "acc1", "acc2"}) f.params.push_back({kRef64, h});
    for (const char *r : {"r0", "r1", "s1"}) f.params.push_back({kU64, r});
    f.params.push_back({kIn, "mac"});
    f.params.push_back({kSize, "nmac"});
  }
  f.spec = mac ? kInterleave : kLmul;
  f.doc = "vl = vsetvl(nblocks) ChaCha20 blocks (RFC 8439 2.3) for counters counter..counter+vl-1, word-sliced in\n"
          "scalable vectors (lane b of x<k> is word k of block b), for any VLEN: out[0..64 vl) = in[0..64 vl) XOR\n"
          "their keystream, transposed back to blocks by strided stores (stride 64 bytes) into an aligned buffer and\n"
          "xored in byte vectors. Returns vl (>= 1 when nblocks >= 1; = nblocks when nblocks <= min(VLMAX, 32)).\n"
          "Requires counter + vl <= 2^32.";
  if (mac)
    f.doc += fmt::format("\nStitched: also h = Poly1305 of the nmac 16-byte blocks at mac absorbed into h (mul64 block\n"
                         "steps on the scalar pipes{}), nmac <= {}. mac may equal in.",
                         s.interleave ? ", floor(nmac / 10) inside each double round, the rest after" : ", after the rounds", 4 * kMaxBlocks);
  nlohmann::ordered_json c = {{"role", "chacha20.block"}, {"blocks", "vl"}, {"xor", true}, {"out", "out"},
                              {"in", "in"}, {"key", "key"}, {"nonce", "nonce"}, {"counter", "counter"},
                              {"spec", parts::spec_ref(s, kLmul)}};
  if (mac)
    c["mac"] = {{"role", "poly1305.blocks"}, {"acc", {"acc0", "acc1", "acc2"}}, {"key", {"r0", "r1"}},
                {"derived", {{"s1", "r1 + (r1 >> 2)"}}}, {"msg", "mac"}, {"blocks", "nmac"}, {"pad", 1},
                {"interleave", s.interleave}, {"spec", parts::spec_ref(s, kInterleave)}};
  f.contract = c.dump();
  auto &b = f.body;
  b.push_back(comment(fmt::format("The vector unit's share of the blocks: vl <= min(nblocks, {}) (the keystream buffer), all\n"
                                  "lanes below vl active.", kMaxBlocks), kLmul));
  b.push_back(if_(op("lt", {sz(kMaxBlocks), v("nblocks")}), {assign(v("nblocks"), sz(kMaxBlocks))}));
  b.push_back(decl(kSize, "vl", op("vsetvl32", {v("nblocks")})));
  if (mac) {
    b.push_back(comment(fmt::format("The most MAC blocks a call absorbs: {} (the kernels hand it 4 x the previous call's vl, which\n"
                                    "the value proofs hold to this). A larger count is cut here: the proof that its reads stay\n"
                                    "inside mac[0, 16 nmac) is then over small counts (for any 64-bit nmac it is beyond the solver).",
                                    4 * kMaxBlocks),
                        kInterleave));
    b.push_back(if_(op("lt", {sz(4 * kMaxBlocks), v("nmac")}), {assign(v("nmac"), sz(4 * kMaxBlocks))}));
    b.push_back(comment("h in locals, copied back before the return: through the references the compiler keeps h in\n"
                        "memory (out may alias it), a store and a load in every block step's dependency chain.",
                        kInterleave));
    for (int i = 0; i < 3; ++i) b.push_back(decl(kU64, fmt::format("h{}", i), v(fmt::format("acc{}", i))));
  }
  b.push_back(comment("Input state, word k of every block in x<k>; lane b of x12 is counter + b.", kLmul));
  const auto &sigma = chacha20_sigma();  // "expand 32-byte k"
  for (int i = 0; i < 8; ++i) b.push_back(decl(kU32, fmt::format("k{}", i), load32(at(v("key"), sz(4 * i)))));
  for (int i = 0; i < 3; ++i) b.push_back(decl(kU32, fmt::format("n{}", i), load32(at(v("nonce"), sz(4 * i)))));
  auto word = [&](int i) -> Expr {
    if (i < 4) return u32(sigma[i]);
    if (i < 12) return v(fmt::format("k{}", i - 4));
    return v(fmt::format("n{}", i - 13));
  };
  b.push_back(decl(kV, "j12", op("vadd32", {op("vbroadcast32", {v("counter")}), op("viota32", {})})));
  for (int i = 0; i < 16; ++i)
    b.push_back(decl(kV, fmt::format("x{}", i), i == 12 ? v("j12") : op("vbroadcast32", {word(i)})));
  std::vector<Stmt> round = half_round(0);
  if (mac && s.interleave) {
    Stmt steps = for_(kSize, "k", sz(0), v("per"),
                      {parts::absorb_at(at(v("mac"), op("mulsz", {op("addsz", {op("mulsz", {v("i"), v("per")}), v("k")}), sz(16)})))},
                      kInterleave);
    parts::carry_h(steps, s, d, "mac", 16);
    round.push_back(comment("Poly1305 block steps on the scalar pipes while the vector unit works.", kInterleave));
    round.push_back(std::move(steps));
  }
  for (auto &st : half_round(1)) round.push_back(std::move(st));
  if (mac && s.interleave) {
    b.push_back(comment("Block steps per double round: the chunk's blocks spread over the ten double rounds.", kInterleave));
    b.push_back(comment("per = floor(nmac / 10) (a division by a constant: the compiler's multiply-high and shift).", kInterleave));
    b.push_back(decl(kSize, "per", op("divsz", {v("nmac"), sz(10)})));
  }
  b.push_back(comment("20 rounds: 10 double rounds.", kLmul));
  Stmt rounds = for_(kSize, "i", sz(0), sz(10), std::move(round), kLmul);
  b.push_back(std::move(rounds));
  if (mac) {
    Expr first = s.interleave ? op("mulsz", {v("per"), sz(10)}) : sz(0);
    Stmt rest = for_(kSize, "k", first, v("nmac"), {parts::absorb_at(at(v("mac"), op("mulsz", {v("k"), sz(16)})))}, kInterleave);
    parts::carry_h(rest, s, d, "mac", 16);
    b.push_back(comment(s.interleave ? "The block steps left over (nmac % 10 of them)." : "The chunk's Poly1305 block steps.", kInterleave));
    b.push_back(std::move(rest));
  }
  b.push_back(comment("Feed-forward.", kLmul));
  for (int i = 0; i < 16; ++i) {
    Expr x = v(fmt::format("x{}", i));
    b.push_back(assign(x, op("vadd32", {x, i == 12 ? v("j12") : op("vbroadcast32", {word(i)})})));
  }
  // Word-aligned in and out (the usual case): word k of every block straight from in and to out
  // by strided 32-bit accesses.
  std::vector<Stmt> direct;
  for (int i = 0; i < 16; ++i) {
    Expr p = sz(static_cast<uint64_t>(4 * i));
    direct.push_back(eval(op("vstore_strided32", {at(v("out"), p), sz(64),
                                                  op("vxor", {op("vload_strided32", {at(v("in"), p), sz(64)}),
                                                              v(fmt::format("x{}", i))})})));
  }
  // Otherwise: through an aligned keystream buffer, xored in byte vectors.
  std::vector<Stmt> viabuf;
  viabuf.push_back(decl(Type::array(K::U32, 16 * kMaxBlocks, false), "ks"));
  for (int i = 0; i < 16; ++i)
    viabuf.push_back(eval(op("vstore_strided32", {at(v("ks"), sz(static_cast<uint64_t>(i))), sz(64), v(fmt::format("x{}", i))})));
  viabuf.push_back(decl(kSize, "nbytes", op("mulsz", {v("vl"), sz(64)})));
  viabuf.push_back(decl(kSize, "o", sz(0)));
  viabuf.push_back(while_(op("lt", {v("o"), v("nbytes")}),
                          {decl(kSize, "vl8", op("vsetvl8", {op("subsz", {v("nbytes"), v("o")})})),
                           eval(op("vstore8", {v("out"), v("o"), op("vxor8", {op("vload8", {v("in"), v("o")}),
                                                                              op("vload8", {v("ks"), v("o")})})})),
                           assign(v("o"), op("addsz", {v("o"), v("vl8")}))}));
  b.push_back(comment("The transpose back to blocks is in the memory access: word k of block b is at byte 64b + 4k.\n"
                      "in and out both 4-byte aligned: strided 32-bit loads and stores (stride 64) straight from in\n"
                      "to out. Otherwise (RVV lets a core trap a misaligned 32-bit element access): strided stores\n"
                      "into the aligned keystream buffer ks, then out = in ^ ks in byte vectors.", kLmul));
  b.push_back(if_(op("aligned4x2", {v("in"), v("out")}), std::move(direct), std::move(viabuf), kLmul));
  if (mac)
    for (int i = 0; i < 3; ++i) b.push_back(assign(v(fmt::format("acc{}", i)), v(fmt::format("h{}", i))));
  b.push_back(ret(v("vl")));
  lower_rotates(b, false);
  return f;
}

// out[0..n) = in[0..n) XOR ks[0..n), byte by byte (the last partial block).
Stmt xor_bytes(Expr o, Expr i, Expr n) {
  auto byte = [](Expr p, Expr k) { return op("index", {std::move(p), std::move(k)}); };
  return for_(kSize, "i", sz(0), std::move(n),
              {assign(byte(o, v("i")), cast(K::U8, op("xor32", {cast(K::U32, byte(i, v("i"))),
                                                                  cast(K::U32, byte(v("ks"), v("i")))})))});
}

Function aead(const Spec &s, const Mul64 &d, bool seal) {
  const std::string out = seal ? "ct" : "pt", in = seal ? "pt" : "ct";
  Function f = parts::aead_entry(s, seal);
  auto &b = f.body;
  b.push_back(comment("One-time Poly1305 key: the first 32 bytes of block 0 (RFC 8439 2.6)."));
  b.push_back(decl(Type::array(K::U8, 64, false), "ks", kLmul));
  b.push_back(eval(call("chacha20_block", {v("ks"), v("key"), v("nonce"), u32(0)})));
  b.push_back(decl(kU64, "r0", kMul));
  b.push_back(decl(kU64, "r1"));
  b.push_back(decl(kU64, "s1"));
  b.push_back(eval(call("poly1305_clamp", {v("r0"), v("r1"), v("s1"), v("ks")})));
  b.push_back(decl(kU64, "k0", load64_at("ks", 16)));
  b.push_back(decl(kU64, "k1", load64_at("ks", 24)));
  for (const char *h : {"h0", "h1", "h2", "m0", "m1"}) b.push_back(decl(kU64, h, u64(0)));
  b.push_back(comment("AAD, zero-padded to 16 bytes."));
  for (auto &st : parts::absorb_padded(s, d, "aad", v("aad_len"))) b.push_back(std::move(st));

  b.push_back(comment(seal ? "Whole blocks, VL per iteration (VL = what the vector unit takes of the blocks left). Each\n"
                             "iteration encrypts its chunk and absorbs the previous chunk's ciphertext (prev bytes before\n"
                             "off) in the same pass; the last chunk is absorbed after the loop."
                           : "Whole blocks, VL per iteration: each iteration absorbs the chunk it decrypts (its input) in\n"
                             "the same pass, so pt may equal ct.", kLmul));
  b.push_back(decl(kSize, "off", sz(0), kLmul));
  b.push_back(decl(kU32, "ctr", u32(1)));
  b.push_back(decl(kSize, "vl", sz(0)));
  std::vector<Stmt> body;
  Expr left = op("shrsz", {op("subsz", {v("len"), v("off")})}, 6);
  auto xorv = [&](Expr nblocks, Expr mac, Expr nmac) {
    return call("chacha20_xorv_mac", {at(v(out), v("off")), at(v(in), v("off")), std::move(nblocks), v("key"), v("nonce"),
                                      v("ctr"), v("h0"), v("h1"), v("h2"), v("r0"), v("r1"), v("s1"),
                                      std::move(mac), std::move(nmac)});
  };
  if (seal) {
    b.push_back(decl(kSize, "prev", sz(0)));
    body.push_back(assign(v("vl"), xorv(left, at(v("ct"), op("subsz", {v("off"), v("prev")})), op("shrsz", {v("prev")}, 4)), kLmul));
    body.push_back(assign(v("prev"), op("mulsz", {v("vl"), sz(64)})));
  } else {
    body.push_back(assign(v("vl"), op("vsetvl32", {left}), kLmul));
    body.push_back(comment(fmt::format("As many as chacha20_xorv_mac will take (at most {} blocks): it absorbs exactly these.", kMaxBlocks)));
    body.push_back(if_(op("lt", {sz(kMaxBlocks), v("vl")}), {assign(v("vl"), sz(kMaxBlocks))}));
    body.push_back(assign(v("vl"), xorv(v("vl"), at(v("ct"), v("off")), op("mulsz", {v("vl"), sz(4)}))));
  }
  body.push_back(assign(v("off"), op("addsz", {v("off"), op("mulsz", {v("vl"), sz(64)})})));
  body.push_back(assign(v("ctr"), op("add32", {v("ctr"), cast(K::U32, v("vl"))})));
  Stmt bulk = while_(op("ge", {op("subsz", {v("len"), v("off")}), sz(64)}), std::move(body), kLmul);
  parts::carry_h(bulk, s, d, "ct", 64);
  b.push_back(std::move(bulk));
  if (seal) {
    b.push_back(comment("The last chunk's ciphertext, encrypted by the last iteration.", kMul));
    Stmt last = for_(kSize, "i", sz(0), op("shrsz", {v("prev")}, 4),
                     {parts::absorb_at(at(at(v("ct"), op("subsz", {v("off"), v("prev")})), op("mulsz", {v("i"), sz(16)})))}, kMul);
    parts::carry_h(last, s, d, "ct", 16);
    b.push_back(std::move(last));
  }
  std::vector<Stmt> tail;
  tail.push_back(decl(kSize, "rem", op("subsz", {v("len"), v("off")})));
  tail.push_back(eval(call("chacha20_block", {v("ks"), v("key"), v("nonce"), v("ctr")})));
  tail.push_back(decl(kIn, "ct_tail", at(v("ct"), v("off"))));
  std::vector<Stmt> tmac = parts::absorb_padded(s, d, "ct_tail", v("rem"));
  if (!seal) tail.insert(tail.end(), tmac.begin(), tmac.end());
  tail.push_back(xor_bytes(at(v(out), v("off")), at(v(in), v("off")), v("rem")));
  if (seal) tail.insert(tail.end(), tmac.begin(), tmac.end());
  b.push_back(comment("The last len % 64 bytes: one block in general-purpose registers, xored byte by byte, then\n"
                      "absorbed zero-padded.", kLmul));
  b.push_back(if_(op("lt", {v("off"), v("len")}), std::move(tail), {}, kLmul));
  b.push_back(comment("Lengths block: le64(aad_len) || le64(len) (RFC 8439 2.8), then the tag.", kMul));
  b.push_back(parts::absorb(cast(K::U64, v("aad_len")), cast(K::U64, v("len")), u64(1)));
  b.push_back(eval(call("poly1305_final", {v("tag"), v("h0"), v("h1"), v("h2"), v("k0"), v("k1")}), kMul));
  return f;
}

Function chacha_oneshot(const Spec &s) {
  Function f;
  f.name = fmt::format("chapoly_k_{}_chacha20", s.name);
  f.exported = true;
  f.params = {{kOut, "out"}, {kIn, "in"}, {kSize, "len"}, {Type::array(K::U8, 12, true), "nonce"},
              {Type::array(K::U8, 32, true), "key"}, {kU32, "counter"}};
  f.spec = kLmul;
  f.doc = fmt::format("chapoly_k_{}_chacha20: ChaCha20, RFC 8439 section 2.4: out = in XOR keystream\n"
                      "starting at block `counter`. Requires counter + ceil(len / 64) <= 2^32. out may equal in.", s.name);
  nlohmann::ordered_json c = {{"role", "chacha20.xor"}, {"spec", parts::spec_ref(s, kLmul)}};
  f.contract = c.dump();
  auto &b = f.body;
  b.push_back(decl(Type::array(K::U8, 64, false), "ks"));
  b.push_back(decl(kSize, "off", sz(0)));
  b.push_back(decl(kSize, "vl", sz(0)));
  b.push_back(while_(op("ge", {op("subsz", {v("len"), v("off")}), sz(64)}),
                     {assign(v("vl"), call("chacha20_xorv", {at(v("out"), v("off")), at(v("in"), v("off")),
                                                              op("shrsz", {op("subsz", {v("len"), v("off")})}, 6),
                                                              v("key"), v("nonce"), v("counter")})),
                      assign(v("off"), op("addsz", {v("off"), op("mulsz", {v("vl"), sz(64)})})),
                      assign(v("counter"), op("add32", {v("counter"), cast(K::U32, v("vl"))}))}, kLmul));
  b.push_back(if_(op("lt", {v("off"), v("len")}),
                  {eval(call("chacha20_block", {v("ks"), v("key"), v("nonce"), v("counter")})),
                   xor_bytes(at(v("out"), v("off")), at(v("in"), v("off")), op("subsz", {v("len"), v("off")}))}));
  return f;
}

}  // namespace

Module build_rvv(const Spec &s, const Mul64 &d) {
  Module m;
  m.name = s.name;
  m.functions.push_back(parts::load_le(32));
  m.functions.push_back(parts::load_le(64));
  m.functions.push_back(parts::store_le(32));
  m.functions.push_back(parts::store_le(64));
  m.functions.push_back(parts::chacha20_block(s));
  m.functions.push_back(parts::poly_clamp(s, d));
  m.functions.push_back(parts::poly_block(s, d));
  m.functions.push_back(parts::poly_load_partial(s));
  m.functions.push_back(parts::poly_final(s, d));
  m.functions.push_back(chacha20_xorv(s, d, false));
  m.functions.push_back(chacha20_xorv(s, d, true));
  m.functions.push_back(aead(s, d, true));
  m.functions.push_back(aead(s, d, false));
  m.functions.push_back(parts::poly_oneshot(s, d));
  m.functions.push_back(chacha_oneshot(s));
  return m;
}

}  // namespace chapoly::gen::kir
