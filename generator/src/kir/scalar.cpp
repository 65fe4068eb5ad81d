// scalar.cpp: the scalar AEAD as KIR, and the mul64 derivations (see scalar.hpp).
#include "scalar.hpp"

#include "shared.hpp"

#include <array>
#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

namespace chapoly::gen::kir {

namespace {

using u128 = unsigned __int128;
using K = Type::Kind;

const Type kU8 = Type::val(K::U8), kU32 = Type::val(K::U32), kU64 = Type::val(K::U64),
           kU128 = Type::val(K::U128), kSize = Type::val(K::Size);
const Type kRef64 = Type::ref(K::U64);
const Type kIn = Type::ptr(K::U8, true), kOut = Type::ptr(K::U8, false);

// Spec keys the code realises (each becomes a `// spec: FILE:LINE key` comment).
const char *const kIsa = "target.isa";
const char *const kBlocks = "chacha20.gpr_blocks";
const char *const kMul = "poly1305.multiplier";
const char *const kRadix = "poly1305.radix_bits";
const char *const kLimbs = "poly1305.limb_bits";

// The spec key of the keystream schedule: chacha20.gpr_blocks (scalar, riscv64),
// chacha20.lmul (riscv64-rvv) or chacha20.bulk_blocks (avx2).
const char *bk(const Spec &s) {
  if (s.isa == "scalar" || s.isa == "riscv64") return kBlocks;
  return s.isa == "riscv64-rvv" ? "chacha20.lmul" : "chacha20.bulk_blocks";
}

Expr v(const std::string &n) { return var(n); }
Expr u32(uint64_t x) { return lit(x, K::U32); }
Expr u64(uint64_t x) { return lit(x, K::U64); }
Expr sz(uint64_t x) { return lit(x, K::Size); }
Expr at(Expr p, Expr i) { return op("offset", {std::move(p), std::move(i)}); }
Expr at(const std::string &p, uint64_t i) { return i == 0 ? v(p) : at(v(p), sz(i)); }
Expr load64(Expr p) { return call("load64_le", {std::move(p)}); }
Expr load32(Expr p) { return call("load32_le", {std::move(p)}); }

// --- the derived constants ----------------------------------------------------------------------

// The clamp masks and the ChaCha20 constants: kir/shared.cpp (shared with the avx512 builder).

// --- helpers ----------------------------------------------------------------------------------

Function load_le(int bits) {
  Function f;
  f.name = fmt::format("load{}_le", bits);
  f.ret = bits == 32 ? kU32 : kU64;
  f.params = {{kIn, "p"}};
  f.doc = fmt::format("The {} bytes at p as a little-endian {}-bit word (RFC 8439 2.1), byte by byte.",
                      bits / 8, bits);
  f.spec = kIsa;
  K k = bits == 32 ? K::U32 : K::U64;
  std::string orop = bits == 32 ? "or32" : "or64", shl = bits == 32 ? "shl32" : "shl64";
  Expr acc = cast(k, op("index", {v("p"), sz(0)}));
  for (int i = 1; i < bits / 8; ++i)
    acc = op(orop, {acc, op(shl, {cast(k, op("index", {v("p"), sz(static_cast<uint64_t>(i))}))}, 8 * i)});
  f.body = {ret(acc)};
  return f;
}

Function store_le(int bits) {
  Function f;
  f.name = fmt::format("store{}_le", bits);
  f.params = {{kOut, "p"}, {bits == 32 ? kU32 : kU64, "x"}};
  f.doc = fmt::format("Writes x to the {} bytes at p, little-endian.", bits / 8);
  f.spec = kIsa;
  std::string shr = bits == 32 ? "shr32" : "shr64";
  for (int i = 0; i < bits / 8; ++i) {
    Expr byte = i == 0 ? v("x") : op(shr, {v("x")}, 8 * i);
    f.body.push_back(assign(op("index", {v("p"), sz(static_cast<uint64_t>(i))}), cast(K::U8, byte)));
  }
  return f;
}

// The ChaCha20 block function (RFC 8439 2.3) for n blocks at counters counter..counter+n-1,
// their quarter rounds interleaved op by op (n independent dependency chains per column).
Function chacha20_blocks(int n, const Spec &s) {
  Function f;
  f.name = n == 1 ? "chacha20_block" : fmt::format("chacha20_block{}", n);
  f.params = {{Type::array(K::U8, 64 * n, false), "out"},
              {Type::array(K::U8, 32, true), "key"},
              {Type::array(K::U8, 12, true), "nonce"},
              {kU32, "counter"}};
  f.spec = bk(s);
  f.doc = n == 1 ? "One ChaCha20 block (RFC 8439 2.3): out = the 64-byte keystream block for counter."
                 : fmt::format("{} ChaCha20 blocks (RFC 8439 2.3) for counters counter..counter+{}, "
                               "their rounds interleaved\nfor instruction-level parallelism: out = "
                               "{} bytes of keystream.", n, n - 1, 64 * n);
  nlohmann::ordered_json c = {{"role", "chacha20.block"}, {"blocks", n}, {"out", "out"},
                              {"key", "key"}, {"nonce", "nonce"}, {"counter", "counter"},
                              {"spec", fmt::format("{}:{}", s.path, s.line_of.at(bk(s)))}};
  f.contract = c.dump();
  auto &b = f.body;
  b.push_back(comment("Input state j0..j15: constants, key, counter, nonce (shared by every block)."));
  const auto &sigma = chacha20_sigma();  // "expand 32-byte k"
  for (int i = 0; i < 4; ++i) b.push_back(decl(kU32, fmt::format("j{}", i), u32(sigma[i])));
  for (int i = 0; i < 8; ++i) b.push_back(decl(kU32, fmt::format("j{}", 4 + i), load32(at("key", 4 * i))));
  b.push_back(decl(kU32, "j12", v("counter")));
  for (int i = 0; i < 3; ++i) b.push_back(decl(kU32, fmt::format("j{}", 13 + i), load32(at("nonce", 4 * i))));
  auto x = [](int blk, int i) { return fmt::format("x{}_{}", blk, i); };
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < 16; ++i) {
      Expr init = v(fmt::format("j{}", i));
      if (i == 12 && k > 0) init = op("add32", {init, u32(static_cast<uint64_t>(k))});
      b.push_back(decl(kU32, x(k, i), init));
    }
  }
  // One double round: columns, then diagonals; each quarter round (a, b, c, d) is
  // a += b; d ^= a; d <<<= 16; c += d; b ^= c; b <<<= 12; a += b; d ^= a; d <<<= 8; c += d; b ^= c; b <<<= 7.
  const auto &qr = kChachaQuarterRounds;       // kir/shared.cpp
  const auto &steps = kChachaQuarterRoundSteps;
  std::vector<Stmt> round;
  for (int half = 0; half < 2; ++half) {
    round.push_back(comment(half == 0 ? "Column round." : "Diagonal round."));
    for (const auto &st : steps) {
      for (int q = 0; q < 4; ++q) {
        const int *w = qr[4 * half + q];
        for (int k = 0; k < n; ++k) {
          Expr d = v(x(k, w[st.dst])), src = v(x(k, w[st.src]));
          Expr e = st.rot < 0 ? op("add32", {d, src}) : st.rot == 0 ? op("xor32", {d, src})
                                                                  : op("rotl32", {d}, st.rot);
          round.push_back(assign(d, e));
        }
      }
    }
  }
  b.push_back(comment("20 rounds: 10 double rounds."));
  b.push_back(for_(kSize, "i", sz(0), sz(10), std::move(round)));
  b.push_back(comment("Feed-forward (add the input state) and serialize little-endian."));
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < 16; ++i) {
      Expr j = v(fmt::format("j{}", i));
      if (i == 12 && k > 0) j = op("add32", {j, u32(static_cast<uint64_t>(k))});
      b.push_back(eval(call("store32_le", {at("out", static_cast<uint64_t>(64 * k + 4 * i)),
                                            op("add32", {v(x(k, i)), j})})));
    }
  }
  return f;
}

std::string spec_ref(const Spec &s, const char *key) { return fmt::format("{}:{}", s.path, s.line_of.at(key)); }

// --- x86_64-avx2: 8 blocks word-sliced in 256-bit vectors -----------------------------------

const char *const kBulk = "chacha20.bulk_blocks";

Expr vconst8(const std::vector<int> &per_word) {
  std::string bytes;
  for (int lane = 0; lane < 8; ++lane)
    for (int b : per_word) bytes += (bytes.empty() ? "" : ", ") + std::to_string(b + 4 * (lane % 4));
  Expr e = op("vconst8", {});
  e.name = bytes;
  return e;
}

Stmt absorb_at(Expr base, uint64_t k);

// The schedule pass: `steps` (each a short statement list of the other dependency chain) spread
// evenly between the statements of `main`, step j after statement (j + 1) * |main| / (|steps| + 1),
// so one basic block holds both chains and neither waits for the other.
std::vector<Stmt> weave(std::vector<Stmt> main, std::vector<std::vector<Stmt>> steps) {
  std::vector<Stmt> out;
  const size_t n = main.size(), k = steps.size();
  size_t next = 0;
  for (size_t i = 0; i < n; ++i) {
    out.push_back(std::move(main[i]));
    while (next < k && (next + 1) * n / (k + 1) <= i) {
      for (auto &st : steps[next]) out.push_back(std::move(st));
      ++next;
    }
  }
  for (; next < k; ++next)
    for (auto &st : steps[next]) out.push_back(std::move(st));
  return out;
}

// The ten double rounds of a keystream helper (`round`: one double round's statements). Without
// MAC blocks (mac_blocks = 0), a loop. With them (a stitched helper: h0..h2 in locals, r0, r1, s1
// and the 16 * mac_blocks bytes at `mac` in scope), the mac_blocks Poly1305 block steps over
// mac[0..16 mac_blocks) join them: with schedule.interleave = N > 0, N steps are woven into each
// double round, so the general-purpose multiplier works beside the vector units; with 0 the steps
// follow the rounds. `rolled` (the bulk loop's helper, run once per 512 bytes) keeps the ten double
// rounds a loop of N steps each, the 16 * N bytes at mac + 16 N i, and the mac_blocks - 10 N left
// over after it (beside the feed-forward and the stores), where 10 N <= mac_blocks: unrolled, that
// helper was 2,679 instructions, about 15 KB of straight-line code, and ran 1.2x slower from two of
// its four callers than from the others on a Zen 3 (docs/benchmarks.md, stop 45). The tail passes
// (`rolled` false), run once per call, are unrolled with the leftovers in the last double round.
void rounds_with_mac(std::vector<Stmt> &b, const Spec &s, std::vector<Stmt> round, int mac_blocks, bool rolled = false) {
  const bool mac = mac_blocks > 0;
  const int per = s.interleave;
  if (mac && rolled && per > 0 && 10 * per <= mac_blocks) {
    b.push_back(comment(fmt::format("20 rounds: 10 double rounds, a loop, with {} Poly1305 block steps woven into each (the\n"
                                    "{} bytes at mac + {} i); the {} left over after it.", per, 16 * per, 16 * per,
                                    mac_blocks - 10 * per), "schedule.interleave"));
    const Expr base = at(v("mac"), op("mulsz", {v("i"), sz(static_cast<uint64_t>(16 * per))}));
    std::vector<std::vector<Stmt>> mine;
    for (uint64_t k = 0; k < static_cast<uint64_t>(per); ++k) mine.push_back({absorb_at(base, 16 * k)});
    b.push_back(for_(kSize, "i", sz(0), sz(10), weave(std::move(round), std::move(mine))));
    for (uint64_t k = static_cast<uint64_t>(10 * per); k < static_cast<uint64_t>(mac_blocks); ++k)
      b.push_back(absorb_at(v("mac"), 16 * k));
    return;
  }
  std::vector<std::vector<Stmt>> msteps;
  for (uint64_t k = 0; k < static_cast<uint64_t>(mac_blocks); ++k) msteps.push_back({absorb_at(v("mac"), 16 * k)});
  if (mac && s.interleave > 0) {
    b.push_back(comment(fmt::format("20 rounds: 10 double rounds, unrolled, with {} Poly1305 block steps woven into each\n"
                                    "(the leftovers into the last).", s.interleave), "schedule.interleave"));
    size_t done = 0;
    for (int dr = 0; dr < 10; ++dr) {
      size_t want = dr == 9 ? msteps.size() - done : std::min<size_t>(s.interleave, msteps.size() - done);
      std::vector<std::vector<Stmt>> mine(std::make_move_iterator(msteps.begin() + static_cast<long>(done)),
                                          std::make_move_iterator(msteps.begin() + static_cast<long>(done + want)));
      done += want;
      b.push_back(comment(fmt::format("Double round {}: Poly1305 blocks {}..{}.", dr, done - want,
                                      static_cast<long>(done) - 1)));
      for (auto &st : weave(round, std::move(mine))) b.push_back(std::move(st));
    }
  } else {
    b.push_back(comment("20 rounds: 10 double rounds."));
    b.push_back(for_(kSize, "i", sz(0), sz(10), std::move(round)));
    if (mac) {
      b.push_back(comment(fmt::format("Poly1305 over mac[0..{}), after the rounds (schedule.interleave = 0).", 16 * mac_blocks),
                          "schedule.interleave"));
      for (auto &st : msteps) b.push_back(std::move(st[0]));
    }
  }
}

// The stitched helpers' extra parameters, contract part and h locals (chacha20_xor8_mac,
// chacha20_lanes<n>_mac[k]): h = acc0..acc2 in, r0, r1, s1 the clamped key, mac the bytes absorbed.
void add_mac_params(Function &f) {
  for (const char *h : {"acc0", "acc1", "acc2"}) f.params.push_back({kRef64, h});
  for (const char *r : {"r0", "r1", "s1"}) f.params.push_back({kU64, r});
  f.params.push_back({kIn, "mac"});
}

nlohmann::ordered_json mac_contract(const Spec &s, int mac_blocks) {
  return {{"role", "poly1305.blocks"}, {"acc", {"acc0", "acc1", "acc2"}}, {"key", {"r0", "r1"}},
          {"derived", {{"s1", "r1 + (r1 >> 2)"}}}, {"msg", "mac"}, {"block_bytes", 16 * mac_blocks}, {"pad", 1},
          {"interleave", s.interleave}, {"spec", spec_ref(s, "schedule.interleave")}};
}

void mac_locals_in(std::vector<Stmt> &b) {
  b.push_back(comment("h in locals, copied back at the end: through the references the compiler keeps h in memory\n"
                      "(out may alias it), a store and a load in every block step's dependency chain (docs/benchmarks.md,\n"
                      "\"The avx2 kernels\": 6-9% of the 16 KiB seal and open on a Zen 3).", "schedule.interleave"));
  for (int i = 0; i < 3; ++i) b.push_back(decl(kU64, fmt::format("h{}", i), v(fmt::format("acc{}", i))));
}

// The name suffix of a row-layout pass that absorbs mac_blocks Poly1305 blocks: "" (none), "_mac"
// (a 512-byte chunk) or "_mac<k>".
std::string lanes_mac_suffix(int mac_blocks) {
  return mac_blocks == 0 ? "" : mac_blocks == 32 ? "_mac" : fmt::format("_mac{}", mac_blocks);
}

void mac_locals_out(std::vector<Stmt> &b) {
  for (int i = 0; i < 3; ++i) b.push_back(assign(v(fmt::format("acc{}", i)), v(fmt::format("h{}", i))));
}

// out[0..512) = in[0..512) XOR the keystream of blocks counter..counter+7 (RFC 8439 2.3, 2.4):
// vector k holds state word k of all 8 blocks (lane b: block counter + b); after the rounds an
// 8x8 transpose of 32-bit words per half turns them back into blocks. With mac_blocks > 0, the
// function also absorbs the Poly1305 blocks at mac[0..16 mac_blocks) into h (chacha20_xor8_mac for
// 32, a 512-byte chunk; chacha20_xor8_mac28 for the 448 bytes of seal's key pass): with
// schedule.interleave = N > 0, N mul64 block steps are woven into each of the ten double rounds, a
// loop where 10 N steps fit (rounds_with_mac, `rolled`), else unrolled, the general-purpose
// multiplier and the vector units working at the same time; with 0 the steps follow the rounds.
Function chacha20_xor8(const Spec &s, int mac_blocks) {
  const bool mac = mac_blocks > 0;
  Function f;
  f.name = "chacha20_xor8" + lanes_mac_suffix(mac_blocks);
  f.params = {{kOut, "out"}, {kIn, "in"}, {Type::array(K::U8, 32, true), "key"},
              {Type::array(K::U8, 12, true), "nonce"}, {kU32, "counter"}};
  if (mac) add_mac_params(f);
  f.spec = mac ? "schedule.interleave" : kBulk;
  f.doc = "Eight ChaCha20 blocks (RFC 8439 2.3) for counters counter..counter+7, word-sliced: vector k holds\n"
          "word k of all eight blocks. out[0..512) = in[0..512) XOR their keystream.";
  if (mac)
    f.doc += fmt::format("\nStitched: also h = Poly1305 blocks mac[0..{}) absorbed into h ({} poly1305_block steps,\n"
                         "{} per double round), so the multiplies run beside the vector rounds. mac may equal in.",
                         16 * mac_blocks, mac_blocks, s.interleave);
  nlohmann::ordered_json c = {{"role", "chacha20.block"}, {"blocks", 8}, {"xor", true}, {"out", "out"},
                              {"in", "in"}, {"key", "key"}, {"nonce", "nonce"}, {"counter", "counter"},
                              {"spec", spec_ref(s, kBulk)}};
  if (mac) c["mac"] = mac_contract(s, mac_blocks);
  f.contract = c.dump();
  const Type kV = Type::vec(256);
  auto &b = f.body;
  if (mac) mac_locals_in(b);
  b.push_back(comment("Byte shuffles that rotate every 32-bit word left by 16 and by 8."));
  b.push_back(decl(kV, "rot16", vconst8({2, 3, 0, 1})));
  b.push_back(decl(kV, "rot8", vconst8({3, 0, 1, 2})));
  b.push_back(comment("Input state, word k of every block in j<k>; lane b of j12 is counter + b."));
  const auto &sigma = chacha20_sigma();
  for (int i = 0; i < 4; ++i) b.push_back(decl(kV, fmt::format("j{}", i), op("vbroadcast32", {u32(sigma[i])})));
  for (int i = 0; i < 8; ++i)
    b.push_back(decl(kV, fmt::format("j{}", 4 + i), op("vbroadcast32", {load32(at("key", 4 * i))})));
  b.push_back(decl(kV, "j12", op("vadd32", {op("vbroadcast32", {v("counter")}), op("viota32", {})})));
  for (int i = 0; i < 3; ++i)
    b.push_back(decl(kV, fmt::format("j{}", 13 + i), op("vbroadcast32", {load32(at("nonce", 4 * i))})));
  for (int i = 0; i < 16; ++i) b.push_back(decl(kV, fmt::format("x{}", i), v(fmt::format("j{}", i))));
  const auto &qr = kChachaQuarterRounds;       // kir/shared.cpp
  const auto &steps = kChachaQuarterRoundSteps;
  std::vector<Stmt> round;
  for (int half = 0; half < 2; ++half) {
    round.push_back(comment(half == 0 ? "Column round." : "Diagonal round."));
    for (const auto &st : steps) {
      for (int q = 0; q < 4; ++q) {
        const int *w = qr[4 * half + q];
        Expr d = v(fmt::format("x{}", w[st.dst])), src = v(fmt::format("x{}", w[st.src]));
        Expr e = st.rot < 0 ? op("vadd32", {d, src}) : st.rot == 0 ? op("vxor", {d, src})
                                                                 : op("vrotl32", {d}, st.rot);
        round.push_back(assign(d, e));
      }
    }
  }
  rounds_with_mac(b, s, std::move(round), mac_blocks, /*rolled=*/true);
  b.push_back(comment("Feed-forward."));
  for (int i = 0; i < 16; ++i)
    b.push_back(assign(v(fmt::format("x{}", i)), op("vadd32", {v(fmt::format("x{}", i)), v(fmt::format("j{}", i))})));
  // Transpose words 8h..8h+7 of the 8 blocks (h = 0, 1) into the 32-byte halves of each block.
  for (int h = 0; h < 2; ++h) {
    b.push_back(comment(fmt::format("Words {}..{}: 8x8 transpose, then block b's 32 bytes at out + 64b + {}.",
                                    8 * h, 8 * h + 7, 32 * h)));
    auto x = [&](int k) { return v(fmt::format("x{}", 8 * h + k)); };
    auto t = [&](int k) { return fmt::format("t{}_{}", h, k); };
    auto u = [&](int k) { return fmt::format("u{}_{}", h, k); };
    for (int p = 0; p < 4; ++p) {  // pairs (x0,x1) (x2,x3) (x4,x5) (x6,x7)
      b.push_back(decl(kV, t(2 * p), op("vunpacklo32", {x(2 * p), x(2 * p + 1)})));
      b.push_back(decl(kV, t(2 * p + 1), op("vunpackhi32", {x(2 * p), x(2 * p + 1)})));
    }
    for (int g = 0; g < 2; ++g) {  // words 0-3 (t0..t3) and 4-7 (t4..t7)
      b.push_back(decl(kV, u(4 * g + 0), op("vunpacklo64", {v(t(4 * g + 0)), v(t(4 * g + 2))})));
      b.push_back(decl(kV, u(4 * g + 1), op("vunpackhi64", {v(t(4 * g + 0)), v(t(4 * g + 2))})));
      b.push_back(decl(kV, u(4 * g + 2), op("vunpacklo64", {v(t(4 * g + 1)), v(t(4 * g + 3))})));
      b.push_back(decl(kV, u(4 * g + 3), op("vunpackhi64", {v(t(4 * g + 1)), v(t(4 * g + 3))})));
    }
    for (int blk = 0; blk < 8; ++blk) {
      Expr ks = op("vperm2x128", {v(u(blk % 4)), v(u(blk % 4 + 4))}, blk < 4 ? 0x20 : 0x31);
      uint64_t pos = static_cast<uint64_t>(64 * blk + 32 * h);
      b.push_back(eval(op("vstore", {at("out", pos), op("vxor", {op("vload", {at("in", pos)}), ks})})));
    }
  }
  if (mac) mac_locals_out(b);
  lower_rotates(b, true);
  return f;
}

// out[0..64*2*sets) = the keystream of blocks counter..counter+2*sets-1 (RFC 8439 2.3), for short
// messages and tails: `sets` sets of four ymm rows (a, b, c, d), one block per 128-bit lane (set
// k: blocks counter+2k in lane 0 and counter+2k+1 in lane 1), the sets' statements interleaved
// for independent dependency chains; the diagonal round rotates the words of three rows within
// each lane (vpshufd) and back: with one to three sets, rows a, c and d (by 3, 1, 2 words), so
// that row b, the last one each round writes, goes into the next round unshuffled, one cycle off
// every round's chain (Zen 3: the 16-192 byte seal and open 4-6% faster; Emerald Rapids: the
// three-set pass's 193-320 byte seal 2% faster); with four sets, a throughput-bound pass, rows b,
// c, d (by 1, 2, 3), which measured no slower there (docs/benchmarks.md, stops 45 and 48). With
// counter 0, bytes 0..32 are the one-time Poly1305 key and the blocks after it the keystream of a
// message of up to 64 (sets = 1), 192 (2), 320 (3) or 448 (4) bytes: one pass for both. With mac_blocks > 0 (chacha20_lanes<n>_mac for 32, chacha20_lanes<n>_mac<k>
// for another k), the pass also absorbs the mac_blocks Poly1305 blocks at mac[0..16 mac_blocks)
// into h, woven into its rounds, which this latency-bound pass leaves the general-purpose pipes free
// for: seal's last whole chunk beside the keystream of the bytes after it (32), and open's first
// 256 bytes of a tail beside their own keystream (16: open absorbs its input).
Function chacha20_lanes(const Spec &s, int sets, int mac_blocks) {
  const int nb = 2 * sets;
  const bool mac = mac_blocks > 0;
  Function f;
  f.name = fmt::format("chacha20_lanes{}{}", nb, lanes_mac_suffix(mac_blocks));
  f.params = {{Type::array(K::U8, 64 * nb, false), "out"}, {Type::array(K::U8, 32, true), "key"},
              {Type::array(K::U8, 12, true), "nonce"}, {kU32, "counter"}};
  if (mac) add_mac_params(f);
  f.spec = mac ? "schedule.interleave" : kBulk;
  f.doc = fmt::format("{} ChaCha20 blocks (RFC 8439 2.3) for counters counter..counter+{}, one block per 128-bit lane\n"
                      "(rows a, b, c, d in ymm; {}): out = {} bytes of keystream.",
                      nb, nb - 1, sets == 1 ? std::string("one set of two blocks") : fmt::format("{} sets of two blocks interleaved", sets),
                      64 * nb);
  if (mac)
    f.doc += fmt::format("\nStitched: also h = Poly1305 blocks mac[0..{}) absorbed into h ({} poly1305_block steps,\n"
                         "{} per double round), so the multiplies run beside the vector rounds. mac may not overlap out.",
                         16 * mac_blocks, mac_blocks, s.interleave);
  nlohmann::ordered_json c = {{"role", "chacha20.block"}, {"blocks", nb}, {"out", "out"}, {"key", "key"},
                              {"nonce", "nonce"}, {"counter", "counter"}, {"spec", spec_ref(s, kBulk)}};
  if (mac) c["mac"] = mac_contract(s, mac_blocks);
  f.contract = c.dump();
  const Type kV = Type::vec(256);
  auto &b = f.body;
  if (mac) mac_locals_in(b);
  b.push_back(comment("Byte shuffles that rotate every 32-bit word left by 16 and by 8."));
  b.push_back(decl(kV, "rot16", vconst8({2, 3, 0, 1})));
  b.push_back(decl(kV, "rot8", vconst8({3, 0, 1, 2})));
  b.push_back(comment("Rows of the input state, the same in both lanes but for the counter word of row d."));
  const auto &sigma = chacha20_sigma();
  std::vector<Expr> a8, b8, c8;
  for (int l = 0; l < 2; ++l)
    for (int i = 0; i < 4; ++i) {
      a8.push_back(u32(sigma[i]));
      b8.push_back(load32(at("key", 4 * i)));
      c8.push_back(load32(at("key", 16 + 4 * i)));
    }
  b.push_back(decl(kV, "ja", op("vsetr32", a8)));
  b.push_back(decl(kV, "jb", op("vsetr32", b8)));
  b.push_back(decl(kV, "jc", op("vsetr32", c8)));
  for (int k = 0; k < sets; ++k) {
    std::vector<Expr> d8;
    for (int l = 0; l < 2; ++l) {
      d8.push_back(2 * k + l == 0 ? v("counter") : op("add32", {v("counter"), u32(static_cast<uint64_t>(2 * k + l))}));
      for (int i = 0; i < 3; ++i) d8.push_back(load32(at("nonce", 4 * i)));
    }
    b.push_back(decl(kV, fmt::format("jd{}", k), op("vsetr32", d8)));
  }
  const char *rows = "abcd";
  auto x = [&](int k, int r) { return fmt::format("{}{}", rows[r], k); };
  for (int k = 0; k < sets; ++k)
    for (int r = 0; r < 4; ++r)
      b.push_back(decl(kV, x(k, r), v(r == 3 ? fmt::format("jd{}", k) : fmt::format("j{}", rows[r]))));
  const auto &steps = kChachaQuarterRoundSteps;  // kir/shared.cpp
  std::vector<Stmt> round;
  auto qr = [&]() {
    for (const auto &st : steps)
      for (int k = 0; k < sets; ++k) {
        Expr d = v(x(k, st.dst)), src = v(x(k, st.src));
        Expr e = st.rot < 0 ? op("vadd32", {d, src}) : st.rot == 0 ? op("vxor", {d, src}) : op("vrotl32", {d}, st.rot);
        round.push_back(assign(d, e));
      }
  };
  // Rotate the words of row r by by[r] within each lane, rows in order, for every row with a
  // non-zero rotation.
  auto shuffle = [&](const std::array<int, 4> &by) {
    for (int k = 0; k < sets; ++k)
      for (int r = 0; r < 4; ++r)
        if (by[r] != 0) round.push_back(assign(v(x(k, r)), op("vshufrow32", {v(x(k, r))}, by[r])));
  };
  // Diagonal (k, b_{k+1}, c_{k+2}, d_{k+3}) line up in lane k with b fixed and a, c, d moved by
  // -1, +1, +2 words (a by 3, c by 1, d by 2), or with a fixed and b, c, d moved by 1, 2, 3.
  const bool b_fixed = sets <= 3;
  round.push_back(comment("Column round: the four columns of each block at once."));
  qr();
  if (b_fixed) {
    round.push_back(comment("Diagonal round: rotate rows a, c, d by 3, 1, 2 words so the diagonals line up (row b, the\n"
                            "last one written, stays put: off the chain), and back."));
    shuffle({3, 0, 1, 2});
    qr();
    shuffle({1, 0, 3, 2});
  } else {
    round.push_back(comment("Diagonal round: rotate rows b, c, d by 1, 2, 3 words so the diagonals line up, and back."));
    shuffle({0, 1, 2, 3});
    qr();
    shuffle({0, 3, 2, 1});
  }
  rounds_with_mac(b, s, std::move(round), mac_blocks);
  b.push_back(comment("Feed-forward; block 2k + l is lane l of set k: bytes 0..32 are rows a, b, 32..64 rows c, d."));
  for (int k = 0; k < sets; ++k) {
    for (int r = 0; r < 4; ++r)
      b.push_back(assign(v(x(k, r)), op("vadd32", {v(x(k, r)), v(r == 3 ? fmt::format("jd{}", k) : fmt::format("j{}", rows[r]))})));
    for (int l = 0; l < 2; ++l) {
      const int imm = l == 0 ? 0x20 : 0x31;
      const uint64_t base = static_cast<uint64_t>(64 * (2 * k + l));
      b.push_back(eval(op("vstore", {at("out", base), op("vperm2x128", {v(x(k, 0)), v(x(k, 1))}, imm)})));
      b.push_back(eval(op("vstore", {at("out", base + 32), op("vperm2x128", {v(x(k, 2)), v(x(k, 3))}, imm)})));
    }
  }
  if (mac) mac_locals_out(b);
  lower_rotates(b, true);
  return f;
}

nlohmann::ordered_json common_fields(const Spec &s) {
  return {{"radix", 64}, {"limbs", {64, 64, 2}}, {"spec", spec_ref(s, kMul)}};
}

Function poly_clamp(const Spec &s, const Mul64 &d) {
  Function f;
  f.name = "poly1305_clamp";
  f.params = {{kRef64, "r0"}, {kRef64, "r1"}, {kRef64, "s1"}, {Type::array(K::U8, 32, true), "key"}};
  f.spec = kMul;
  f.doc = "r = le128(key[0..16)) clamped (RFC 8439 2.5), and s1 = r1 + (r1 >> 2) = 5 * r1 / 4\n"
          "(exact: the clamp clears the low two bits of r1), so 2^128 * r1 = 5/4 * r1 (mod p) folds.";
  nlohmann::ordered_json c = {{"role", "poly1305.clamp"}, {"out", {"r0", "r1"}}, {"derived", {"s1"}}};
  c.update(common_fields(s));
  f.contract = c.dump();
  f.body = {assign(v("r0"), op("and64", {load64(v("key")), u64(d.clamp0)})),
            assign(v("r1"), op("and64", {load64(at("key", 8)), u64(d.clamp1)})),
            assign(v("s1"), op("add64", {v("r1"), op("shr64", {v("r1")}, 2)}))};
  return f;
}

Expr w128(Expr a) { return op("widen128", {std::move(a)}); }
Expr add128(Expr a, Expr b) { return op("add128", {std::move(a), std::move(b)}); }
Expr mul(Expr a, Expr b) { return op("mul64x64", {std::move(a), std::move(b)}); }
Expr lo(Expr a) { return op("lo64", {std::move(a)}); }
Expr hi(Expr a) { return op("hi64", {std::move(a)}); }
Expr add64(Expr a, Expr b) { return op("add64", {std::move(a), std::move(b)}); }

// One Poly1305 block: h = (h + m + pad * 2^128) * r (mod 2^130 - 5), partially reduced.
// Every intermediate is a fresh value (no 128-bit temporary is reassigned): GCC 12 keeps the
// halves of such values in registers, where a reused one is spilled (measured: 1.14 against
// 1.41 cycles per byte of Poly1305 on Zen 4).
std::vector<Stmt> block_step(const Mul64 &d) {
  std::vector<Stmt> b;
  b.push_back(comment("a = h + m + pad * 2^128 (carries rippled through 128-bit sums)."));
  b.push_back(decl(kU128, "t0", add128(w128(v("h0")), v("m0"))));
  b.push_back(decl(kU64, "a0", lo(v("t0"))));
  b.push_back(decl(kU128, "t1", add128(add128(w128(v("h1")), v("m1")), hi(v("t0")))));
  b.push_back(decl(kU64, "a1", lo(v("t1"))));
  b.push_back(decl(kU64, "a2", add64(add64(v("h2"), v("pad")), hi(v("t1")))));
  b.push_back(comment("d = a * r: the 2^128 * r1 terms fold in as s1 = 5/4 * r1; a2 is small, so a2 * s1 and\n"
                      "a2 * r0 fit 64 bits (one 64-bit multiply each instead of a 128-bit one)."));
  b.push_back(decl(kU128, "d0", add128(mul(v("a0"), v("r0")), mul(v("a1"), v("s1")))));
  b.push_back(decl(kU128, "d1", add128(add128(mul(v("a0"), v("r1")), mul(v("a1"), v("r0"))),
                                       op("mul64", {v("a2"), v("s1")}))));
  b.push_back(decl(kU64, "d2", op("mul64", {v("a2"), v("r0")})));
  b.push_back(comment("Carries: e1 = d1 + (d0 >> 64), e2 = d2 + (e1 >> 64)."));
  b.push_back(decl(kU128, "e1", add128(v("d1"), hi(v("d0")))));
  b.push_back(decl(kU64, "e2", add64(v("d2"), hi(v("e1")))));
  b.push_back(comment(fmt::format("2^130 = 5 (mod p): the bits of e2 above bit 1 wrap around times 5,\n"
                                  "c = (e2 >> 2) + (e2 & 0x{:x}) = 5 * (e2 >> 2).", d.wrap_mask)));
  b.push_back(decl(kU64, "c", add64(op("shr64", {v("e2")}, 2), op("and64", {v("e2"), u64(d.wrap_mask)}))));
  b.push_back(decl(kU128, "t2", add128(w128(lo(v("d0"))), v("c"))));
  b.push_back(assign(v("h0"), lo(v("t2"))));
  b.push_back(decl(kU128, "t3", add128(w128(lo(v("e1"))), hi(v("t2")))));
  b.push_back(assign(v("h1"), lo(v("t3"))));
  b.push_back(assign(v("h2"), add64(op("and64", {v("e2"), u64(3)}), hi(v("t3")))));
  return b;
}

Function poly_block(const Spec &s, const Mul64 &d) {
  Function f;
  f.name = "poly1305_block";
  f.params = {{kRef64, "h0"}, {kRef64, "h1"}, {kRef64, "h2"}, {kU64, "r0"}, {kU64, "r1"},
              {kU64, "s1"}, {kU64, "m0"}, {kU64, "m1"}, {kU64, "pad"}};
  f.spec = kMul;
  f.doc = fmt::format("One 16-byte block m = m0 + m1 * 2^64 (RFC 8439 2.5): h = (h + m + pad * 2^128) * r (mod 2^130 - 5),\n"
                      "h2 <= {} on entry and on exit (pad is 1 for a whole or zero-padded block, 0 when the\n"
                      "block carries its own 0x01 marker byte).", d.h2_bound);
  nlohmann::ordered_json c = {{"role", "poly1305.blocks"}, {"acc", {"h0", "h1", "h2"}},
                              {"key", {"r0", "r1"}}, {"derived", {{"s1", "r1 + (r1 >> 2)"}}},
                              {"msg", {"m0", "m1"}}, {"block_bytes", 16}, {"pad", "pad"}};
  c.update(common_fields(s));
  f.contract = c.dump();
  f.body = block_step(d);
  return f;
}

Function poly_load_partial(const Spec &s) {
  Function f;
  f.name = "poly1305_load_partial";
  f.params = {{kRef64, "m0"}, {kRef64, "m1"}, {kIn, "p"}, {kSize, "n"}, {kU8, "marker"}};
  f.spec = kMul;
  f.doc = "The last n < 16 bytes of a message as one block: a bounded copy into a zero-padded 16-byte\n"
          "buffer, byte n = marker (0x01 for one-shot Poly1305, 0 for the AEAD's zero padding).";
  nlohmann::ordered_json c = {{"role", "bytes.load_partial"}, {"out", {"m0", "m1"}}, {"src", "p"},
                              {"len", "n"}, {"max_len", 15}, {"marker", "marker"},
                              {"spec", spec_ref(s, kMul)}};
  f.contract = c.dump();
  Type buf = Type::array(K::U8, 16, false);
  f.body = {decl(buf, "buf"),
            for_(kSize, "i", sz(0), sz(16), {assign(op("index", {v("buf"), v("i")}), lit(0, K::U8))}),
            for_(kSize, "i", sz(0), v("n"), {assign(op("index", {v("buf"), v("i")}), op("index", {v("p"), v("i")}))}),
            assign(op("index", {v("buf"), v("n")}), v("marker")),
            assign(v("m0"), load64(v("buf"))),
            assign(v("m1"), load64(at("buf", 8)))};
  return f;
}

Function poly_final(const Spec &s, const Mul64 &d) {
  Function f;
  f.name = "poly1305_final";
  f.params = {{Type::array(K::U8, 16, false), "tag"}, {kU64, "h0"}, {kU64, "h1"}, {kU64, "h2"},
              {kU64, "s0"}, {kU64, "s1"}};
  f.spec = kMul;
  f.doc = fmt::format("tag = ((h mod p) + s) mod 2^128 (RFC 8439 2.5.1), s = s0 + s1 * 2^64. h2 <= {}, so\n"
                      "h < 2p and one constant-time conditional subtraction of p reduces it: g = h + 5 is\n"
                      ">= 2^130 exactly when h >= p, and then h - p = g mod 2^130.", d.h2_bound);
  nlohmann::ordered_json c = {{"role", "poly1305.final"}, {"acc", {"h0", "h1", "h2"}}, {"s", {"s0", "s1"}},
                              {"tag", "tag"}};
  c.update(common_fields(s));
  f.contract = c.dump();
  auto &b = f.body;
  b.push_back(comment("g = h + 5"));
  b.push_back(decl(kU128, "t", add128(w128(v("h0")), u64(5))));
  b.push_back(decl(kU64, "g0", lo(v("t"))));
  b.push_back(assign(v("t"), add128(w128(v("h1")), hi(v("t")))));
  b.push_back(decl(kU64, "g1", lo(v("t"))));
  b.push_back(decl(kU64, "g2", add64(v("h2"), hi(v("t")))));
  b.push_back(comment("mask = all ones when g >= 2^130 (g2 >> 2 is 0 or 1), else 0: select g or h without a branch."));
  b.push_back(decl(kU64, "mask", op("mul64", {op("shr64", {v("g2")}, 2), u64(~uint64_t{0})})));
  b.push_back(assign(v("h0"), op("or64", {op("and64", {v("h0"), op("not64", {v("mask")})}), op("and64", {v("g0"), v("mask")})})));
  b.push_back(assign(v("h1"), op("or64", {op("and64", {v("h1"), op("not64", {v("mask")})}), op("and64", {v("g1"), v("mask")})})));
  b.push_back(comment("tag = (h + s) mod 2^128: the carry out of bit 127 is dropped."));
  b.push_back(assign(v("t"), add128(w128(v("h0")), v("s0"))));
  b.push_back(eval(call("store64_le", {v("tag"), lo(v("t"))})));
  b.push_back(assign(v("t"), add128(add128(w128(v("h1")), v("s1")), hi(v("t")))));
  b.push_back(eval(call("store64_le", {at("tag", 8), lo(v("t"))})));
  return f;
}

// --- the exported kernels -----------------------------------------------------------------------

std::vector<Expr> acc_args() { return {v("h0"), v("h1"), v("h2"), v("r0"), v("r1"), v("s1")}; }

Stmt absorb(Expr m0, Expr m1, Expr pad) {
  auto a = acc_args();
  a.push_back(std::move(m0));
  a.push_back(std::move(m1));
  a.push_back(std::move(pad));
  return eval(call("poly1305_block", std::move(a)), kMul);
}

// A whole 16-byte block at p + off.
Stmt absorb_at(Expr p) { return absorb(load64(p), load64(at(p, sz(8))), u64(1)); }
// A whole 16-byte block at base + k (k a constant byte offset).
Stmt absorb_at(Expr base, uint64_t k) {
  return absorb(load64(k == 0 ? base : at(base, sz(k))), load64(at(base, sz(k + 8))), u64(1));
}

// The loop contract and invariant lines of a loop that carries h.
void carry_h(Stmt &loop, const Spec &s, const Mul64 &d, const std::string &msg, int block_bytes) {
  nlohmann::ordered_json c = {{"role", "poly1305.blocks"}, {"acc", {"h0", "h1", "h2"}},
                              {"key", {"r0", "r1"}}, {"derived", {{"s1", "r1 + (r1 >> 2)"}}},
                              {"msg", msg}, {"block_bytes", block_bytes}, {"pad", 1}};
  c.update(common_fields(s));
  loop.contract = c.dump();
  loop.invariants = {"h0 <= 0xffffffffffffffff", "h1 <= 0xffffffffffffffff",
                     fmt::format("h2 <= {}", d.h2_bound)};
}

// Poly1305 over `len` bytes at `p`, zero-padded to 16 (the AEAD's AAD and ciphertext rules).
std::vector<Stmt> absorb_padded(const Spec &s, const Mul64 &d, const std::string &p, Expr len) {
  std::vector<Stmt> out;
  Stmt loop = for_(kSize, "i", sz(0), op("shrsz", {len}, 4),
                   {absorb_at(at(v(p), op("mulsz", {v("i"), sz(16)})))}, kMul);
  carry_h(loop, s, d, p, 16);
  out.push_back(std::move(loop));
  out.push_back(if_(op("ne", {op("andsz", {len, sz(15)}), sz(0)}),
                    {eval(call("poly1305_load_partial", {v("m0"), v("m1"), at(v(p), op("subsz", {len, op("andsz", {len, sz(15)})})),
                                                         op("andsz", {len, sz(15)}), lit(0, K::U8)})),
                     absorb(v("m0"), v("m1"), u64(1))},
                    {}, kMul));
  return out;
}

std::vector<Param> aead_params(bool seal) {
  const char *out = seal ? "ct" : "pt", *in = seal ? "pt" : "ct";
  return {{kOut, out}, {Type::array(K::U8, 16, false), "tag"}, {kIn, in}, {kSize, "len"},
          {kIn, "aad"}, {kSize, "aad_len"}, {Type::array(K::U8, 12, true), "nonce"},
          {Type::array(K::U8, 32, true), "key"}};
}

// The exported seal/open entry's signature, docstring and `aead.*` contract (the body is the
// builder's: scalar/avx2 here, rvv through parts::aead_entry).
Function aead_entry(const Spec &s, bool seal) {
  Function f;
  f.name = fmt::format("chapoly_k_{}_{}", s.name, seal ? "seal" : "open");
  f.exported = true;
  f.params = aead_params(seal);
  f.spec = kIsa;
  f.doc = seal ? fmt::format("chapoly_k_{}_seal: AEAD encryption, RFC 8439 section 2.8. Writes len bytes of\n"
                             "ciphertext to ct and the 16-byte tag to tag. ct may equal pt exactly (in place); otherwise the\n"
                             "buffers must not overlap. Requires len <= 2^38 - 64 (checked by the caller).", s.name)
               : fmt::format("chapoly_k_{}_open: AEAD decryption without the tag comparison. Writes len bytes of\n"
                             "plaintext to pt and the tag computed over (aad, ct) to tag; the caller compares it with the\n"
                             "received tag in constant time and wipes pt on mismatch. pt may equal ct exactly.", s.name);
  nlohmann::ordered_json c = {{"role", seal ? "aead.seal" : "aead.open"}};
  c.update(common_fields(s));
  f.contract = c.dump();
  return f;
}

// out[0..m) = in[0..m) XOR ks[0..m) (avx2 tails): whole 64-bit words, then the last m % 8 bytes.
std::vector<Stmt> xor_words_then_bytes(Expr o, Expr i, Expr k, Expr m) {
  auto w = [](Expr p) { return at(p, op("mulsz", {v("i"), sz(8)})); };
  auto byte = [](Expr p) { return op("index", {p, v("i")}); };
  return std::vector<Stmt>{
      for_(kSize, "i", sz(0), op("shrsz", {m}, 3),
           {eval(call("store64_le", {w(o), op("xor64", {load64(w(i)), load64(w(k))})}))}, kBulk),
      for_(kSize, "i", op("subsz", {m, op("andsz", {m, sz(7)})}), m,
           {assign(byte(o), cast(K::U8, op("xor32", {cast(K::U32, byte(i)), cast(K::U32, byte(k))})))})};
}

// The avx2 tail's keystream for rem < 512 bytes from block `counter` into ks: one block in
// general-purpose registers up to 64 bytes, else one pass of four (up to 256) or, with `eight`,
// six (up to 384) or eight in ymm rows (without it rem < 256: open's longer tails are open_tail's).
// Six blocks take three sets where eight take four: a pass bound by the vector ports (stop 48).
Stmt tail_keystream(Expr rem, Expr counter, bool eight) {
  auto pass = [&](const char *fn) { return std::vector<Stmt>{eval(call(fn, {v("ks"), v("key"), v("nonce"), counter}))}; };
  Stmt upto256 = if_(op("lt", {sz(64), rem}), pass("chacha20_lanes4"), pass("chacha20_block"), eight ? "" : kBulk);
  if (!eight) return upto256;
  return if_(op("lt", {sz(256), rem}),
             {if_(op("lt", {sz(384), rem}), pass("chacha20_lanes8"), pass("chacha20_lanes6"))},
             {std::move(upto256)}, kBulk);
}

// One row-layout keystream pass into ks from block ctr for a tail of `rest` bytes: 8 blocks over 384
// bytes, 6 over 256, else 4. With `chunk`, the stitched twin (chacha20_lanes<n>_mac[k]) that also absorbs the
// mac_blocks Poly1305 blocks at `chunk` into h.
Stmt lanes_pass(const Expr &rest, const std::optional<Expr> &chunk, int mac_blocks) {
  auto call_of = [&](int blocks) {
    std::vector<Expr> a = {v("ks"), v("key"), v("nonce"), v("ctr")};
    if (chunk)
      for (Expr e : {v("h0"), v("h1"), v("h2"), v("r0"), v("r1"), v("s1"), *chunk}) a.push_back(std::move(e));
    return std::vector<Stmt>{
        eval(call(fmt::format("chacha20_lanes{}{}", blocks, lanes_mac_suffix(chunk ? mac_blocks : 0)), std::move(a)))};
  };
  return if_(op("lt", {sz(256), rest}), {if_(op("lt", {sz(384), rest}), call_of(8), call_of(6))}, call_of(4), kBulk);
}

// Seal, after its bulk loop: the last whole chunk, ct[off - 512, off), absorbed.
// seal_last_chunk_woven: its 32 block steps woven into the keystream pass of the `rest` bytes after
// it (chacha20_lanes<n>_mac, 4 blocks up to 256 bytes, 6 up to 384, else 8), then `then` (their xor
// and MAC, the keystream in ks). seal_last_chunk: the same where some of the `rest` bytes remain,
// else the steps alone, then `other` (seal_update, whose whole chunks may end with the loop).
std::vector<Stmt> seal_last_chunk_woven(const Expr &rest, std::vector<Stmt> then) {
  std::vector<Stmt> with;
  with.push_back(comment("The last chunk's ciphertext (encrypted by the last iteration): its 32 block steps woven into\n"
                         "the keystream pass of the bytes after it.", "schedule.interleave"));
  with.push_back(lanes_pass(rest, at(v("ct"), op("subsz", {v("off"), sz(512)})), 32));
  for (auto &st : then) with.push_back(std::move(st));
  return with;
}

Stmt seal_last_chunk(const Spec &s, const Mul64 &d, const Expr &rest, std::vector<Stmt> then,
                     std::vector<Stmt> other) {
  std::vector<Stmt> with = seal_last_chunk_woven(rest, std::move(then));
  Stmt last = for_(kSize, "i", sz(0), sz(32),
                   {absorb_at(at(at(v("ct"), op("subsz", {v("off"), sz(512)})), op("mulsz", {v("i"), sz(16)})))}, kMul);
  carry_h(last, s, d, "ct", 16);
  std::vector<Stmt> alone;
  alone.push_back(comment("The last chunk's ciphertext, encrypted by the last iteration.", kMul));
  alone.push_back(std::move(last));
  for (auto &st : other) alone.push_back(std::move(st));
  return if_(op("lt", {sz(0), rest}), std::move(with), std::move(alone), kBulk);
}

// Open, a tail of `rem` bytes after the bulk loop (r is known there): `plain` (its keystream pass,
// then its MAC, then `xor`) when fewer than 256 bytes remain; else the pass absorbs the tail's first
// 256 bytes (16 block steps woven into its rounds, chacha20_lanes<n>_mac16), the steps after them
// run alone, then `xor`. Open absorbs its input, so the pass need not wait for its own keystream.
Stmt open_tail(const Spec &s, const Mul64 &d, const Expr &rem, std::vector<Stmt> plain, std::vector<Stmt> xor_) {
  std::vector<Stmt> with;
  with.push_back(comment("256 bytes or more: their first 16 block steps woven into their own keystream pass.",
                         "schedule.interleave"));
  with.push_back(decl(kIn, "ct_tail", at(v("ct"), v("off"))));
  with.push_back(lanes_pass(rem, v("ct_tail"), 16));
  with.push_back(decl(kIn, "ct_more", at(v("ct_tail"), sz(256))));
  for (auto &st : absorb_padded(s, d, "ct_more", op("subsz", {rem, sz(256)}))) with.push_back(std::move(st));
  for (auto &st : xor_) with.push_back(std::move(st));
  return if_(op("ge", {rem, sz(256)}), std::move(with), std::move(plain), kBulk);
}

// The stitched bulk loop of the avx2 seal, open and their streaming entries: while 512 bytes
// remain, chacha20_xor8_mac makes the chunk at `off` (out from in) and absorbs seal's previous
// chunk ct[off - 512, off) or open's own ct[off, off + 512) into h.
Stmt stitched_chunk_loop(const Spec &s, const Mul64 &d, bool seal, const std::string &out, const std::string &in) {
  std::vector<Stmt> wide;
  wide.push_back(eval(call("chacha20_xor8_mac", {at(v(out), v("off")), at(v(in), v("off")), v("key"), v("nonce"), v("ctr"),
                                                 v("h0"), v("h1"), v("h2"), v("r0"), v("r1"), v("s1"),
                                                 seal ? at(v("ct"), op("subsz", {v("off"), sz(512)})) : at(v("ct"), v("off"))}),
                      kBulk));
  wide.push_back(assign(v("off"), op("addsz", {v("off"), sz(512)}), kBulk));
  wide.push_back(assign(v("ctr"), op("add32", {v("ctr"), u32(8)})));
  Stmt w = while_(op("ge", {op("subsz", {v("len"), v("off")}), sz(512)}), std::move(wide), kBulk);
  carry_h(w, s, d, "ct", 512);
  return w;
}

Function aead(const Spec &s, const Mul64 &d, bool seal) {
  const int n = s.gpr_blocks;
  const std::string blockfn = n == 1 ? "chacha20_block" : fmt::format("chacha20_block{}", n);
  const std::string out = seal ? "ct" : "pt", in = seal ? "pt" : "ct";
  Function f = aead_entry(s, seal);
  auto &b = f.body;
  const bool avx2 = s.isa == "x86_64-avx2";
  // Seal (avx2): a length that is no multiple of 512 bytes, off the grid that starts at 448.
  const Expr off_grid = op("ne", {op("andsz", {v("len"), sz(511)}), sz(0)});
  if (avx2) {
    b.push_back(comment("One-time Poly1305 key: the first 32 bytes of block 0 (RFC 8439 2.6); the blocks after it in\n"
                        "the same pass are the keystream of a message of up to 64 (2 blocks), 192 (4 blocks), 320\n"
                        "(6 blocks) or 448 (8 blocks) bytes.\n"
                        "A longer message makes its own keystream in the bulk loop, so block 0 alone, in general-purpose\n"
                        "registers (docs/benchmarks.md, stop 33: 150-230 TSC cycles less per message than a 4-block\n"
                        "vector pass on a Zen 5, whose vector add, xor and shift take 2 cycles); but seal takes the\n"
                        "8-block pass up to 576 bytes and for a multiple of 512, whose first 448 bytes it encrypts."));
    b.push_back(decl(Type::array(K::U8, 512, false), "ks", kBulk));
    auto lanes = [&](const char *fn) { return std::vector<Stmt>{eval(call(fn, {v("ks"), v("key"), v("nonce"), u32(0)}))}; };
    b.push_back(if_(op("ge", {sz(64), v("len")}), lanes("chacha20_lanes2"),
                    {if_(op("ge", {sz(192), v("len")}), lanes("chacha20_lanes4"),
                         {if_(op("ge", {sz(320), v("len")}), lanes("chacha20_lanes6"),
                              {seal ? if_(op("ge", {sz(576), v("len")}), lanes("chacha20_lanes8"),
                                          {if_(off_grid, lanes("chacha20_block"),
                                               lanes("chacha20_lanes8"))})
                                    : if_(op("ge", {sz(448), v("len")}), lanes("chacha20_lanes8"), lanes("chacha20_block"))})})},
                    kBulk));
  } else {
    b.push_back(comment("One-time Poly1305 key: the first 32 bytes of block 0 (RFC 8439 2.6)."));
    b.push_back(decl(Type::array(K::U8, 64 * n, false), "ks", bk(s)));
    b.push_back(eval(call("chacha20_block", {v("ks"), v("key"), v("nonce"), u32(0)})));
  }
  b.push_back(decl(kU64, "r0", kMul));
  b.push_back(decl(kU64, "r1"));
  b.push_back(decl(kU64, "s1"));
  b.push_back(eval(call("poly1305_clamp", {v("r0"), v("r1"), v("s1"), v("ks")})));
  b.push_back(decl(kU64, "k0", load64(at("ks", 16))));
  b.push_back(decl(kU64, "k1", load64(at("ks", 24))));
  b.push_back(decl(kU64, "h0", u64(0)));
  b.push_back(decl(kU64, "h1", u64(0)));
  b.push_back(decl(kU64, "h2", u64(0)));
  b.push_back(decl(kU64, "m0", u64(0)));
  b.push_back(decl(kU64, "m1", u64(0)));
  b.push_back(comment("AAD, zero-padded to 16 bytes."));
  for (auto &st : absorb_padded(s, d, "aad", v("aad_len"))) b.push_back(std::move(st));

  // Bulk: n keystream blocks per iteration, xored in; their 4n ciphertext blocks absorbed
  // (seal: after encrypting; open: before decrypting).
  b.push_back(comment(fmt::format("One pass: {} bytes per iteration, the keystream xored in and the {} ciphertext blocks\n"
                                  "absorbed ({}).", 64 * n, 4 * n,
                                  seal ? "after encrypting" : "before decrypting, which also allows pt == ct"), bk(s)));
  b.push_back(decl(kSize, "off", sz(0), bk(s)));
  b.push_back(decl(kU32, "ctr", u32(1)));
  const size_t body_start = b.size();
  if (avx2) {
    auto pass = [&](std::vector<Stmt> &into, Expr ksp, Expr m) {
      std::vector<Stmt> tmac = absorb_padded(s, d, "ct_tail", m);
      std::vector<Stmt> txor = xor_words_then_bytes(at(v(out), v("off")), at(v(in), v("off")), ksp, m);
      into.push_back(decl(kIn, "ct_tail", at(v("ct"), v("off"))));
      if (!seal) into.insert(into.end(), tmac.begin(), tmac.end());
      into.insert(into.end(), txor.begin(), txor.end());
      if (seal) into.insert(into.end(), tmac.begin(), tmac.end());
    };
    std::vector<Stmt> shrt, longer;
    pass(shrt, at("ks", 64), v("len"));

    // 512 bytes per iteration: eight blocks word-sliced in ymm with 32 Poly1305 block steps
    // stitched into their rounds (chacha20_xor8_mac). Open absorbs the chunk it decrypts (its
    // input); seal the chunk the previous iteration encrypted, so the first chunk is encrypted
    // alone before the loop and the last one absorbed after it.
    auto xor8 = [&](const char *fn, std::vector<Expr> extra) {
      std::vector<Expr> a = {at(v(out), v("off")), at(v(in), v("off")), v("key"), v("nonce"), v("ctr")};
      a.insert(a.end(), extra.begin(), extra.end());
      return eval(call(fn, std::move(a)), kBulk);
    };
    Stmt wloop = stitched_chunk_loop(s, d, seal, out, in);
    b.push_back(comment(seal ? "Chunk 0 alone, then eight blocks at a time, each with the chunk before woven in, while 512\n"
                               "bytes remain."
                             : "Eight blocks at a time while 512 bytes remain, then the tail.", kBulk));
    const Expr rest = op("subsz", {v("len"), v("off")});
    // Open's tail after the loop.
    auto tail = [&]() {
      std::vector<Stmt> t;
      t.push_back(tail_keystream(rest, v("ctr"), false));
      pass(t, v("ks"), rest);
      t = {open_tail(s, d, rest, std::move(t), xor_words_then_bytes(at(v(out), v("off")), at(v(in), v("off")), v("ks"), rest))};
      return if_(op("lt", {v("off"), v("len")}), std::move(t), {}, kBulk);
    };
    const char *tail_note = "The last len % 512 bytes: one block in general-purpose registers (up to 64 bytes), else one\n"
                            "pass of four (up to 256 bytes), six (up to 384) or eight blocks of keystream, xored in by\n"
                            "words and bytes; whole ciphertext blocks, then the zero-padded partial one.";
    // Seal after its bulk loop: the last whole chunk's 32 block steps woven into the keystream pass
    // of the bytes after it. The AEAD seal comes here with more than 576 bytes, not a multiple of
    // 512 (a multiple of 512 takes the grid below, whose last 64 bytes follow its last chunk), so
    // some bytes always follow.
    auto seal_end = [&]() {
      std::vector<Stmt> then;
      pass(then, v("ks"), rest);
      return seal_last_chunk_woven(rest, std::move(then));
    };
    if (seal) {
      b.push_back(xor8("chacha20_xor8", {}));
      b.push_back(assign(v("off"), sz(512), kBulk));
      b.push_back(assign(v("ctr"), u32(9)));
      b.push_back(std::move(wloop));
      for (auto &st : seal_end()) b.push_back(std::move(st));
    } else {
      b.push_back(std::move(wloop));
      b.push_back(comment(tail_note, kBulk));
      b.push_back(tail());
    }
    // Everything after the AAD so far is the path for len > 448: move it under the length test.
    for (size_t i = body_start; i < b.size(); ++i) longer.push_back(std::move(b[i]));
    b.resize(body_start);
    if (seal) {
      // 449-576 bytes: the key pass's 448 bytes of keystream xored in, then one set (blocks 8 and 9)
      // for the rest with the 28 block steps of ct[0, 448) woven into its rounds: the MAC of most of
      // the message is hidden in a pass the message needs anyway, where the bulk path made block 0
      // alone, eight blocks, and then ran the 32 steps of its chunk after them.
      // The key pass's 448 bytes of keystream (ks[64, 512)) xored into ct[0, 448).
      auto xor_key_pass = [&](std::vector<Stmt> &into) {
        for (auto &st : xor_words_then_bytes(v("ct"), v("pt"), at("ks", 64), sz(448))) into.push_back(std::move(st));
      };
      std::vector<Stmt> mid;
      mid.push_back(comment("449-576 bytes: the first 448 from the key pass; the rest from one set (blocks 8 and 9) whose\n"
                            "rounds absorb the ciphertext of those 448 (28 block steps woven in).", "schedule.interleave"));
      xor_key_pass(mid);
      mid.push_back(eval(call(fmt::format("chacha20_lanes2{}", lanes_mac_suffix(28)),
                              {v("ks"), v("key"), v("nonce"), u32(8), v("h0"), v("h1"), v("h2"), v("r0"), v("r1"), v("s1"), v("ct")})));
      mid.push_back(assign(v("off"), sz(448), kBulk));
      pass(mid, v("ks"), op("subsz", {v("len"), v("off")}));
      // A multiple of 512 bytes from 1 KiB: the chunks start after the key pass's 448 bytes, so the
      // last 64 bytes are a tail whose keystream pass carries the last chunk's 32 block steps; on
      // the grid from byte 0 no bytes follow the last chunk and its steps run alone after the loop.
      std::vector<Stmt> grid;
      grid.push_back(comment("A multiple of 512 bytes, 1 KiB or more: the first 448 from the key pass, the chunk after them\n"
                             "with their 28 block steps woven in, then the loop and the last 64 bytes.", "schedule.interleave"));
      xor_key_pass(grid);
      grid.push_back(assign(v("off"), sz(448), kBulk));
      grid.push_back(assign(v("ctr"), u32(8)));
      grid.push_back(xor8("chacha20_xor8_mac28", {v("h0"), v("h1"), v("h2"), v("r0"), v("r1"), v("s1"), v("ct")}));
      grid.push_back(assign(v("off"), sz(960), kBulk));
      grid.push_back(assign(v("ctr"), u32(16)));
      grid.push_back(stitched_chunk_loop(s, d, seal, out, in));
      for (auto &st : seal_end()) grid.push_back(std::move(st));
      std::vector<Stmt> general = std::move(longer);
      longer = {if_(op("ge", {sz(576), v("len")}), std::move(mid),
                    {if_(off_grid, std::move(general), std::move(grid), kBulk)},
                    kBulk)};
    }
    b.push_back(comment("Up to 448 bytes: the keystream is ks[64..) from the key pass; one pass, no loop.", kBulk));
    b.push_back(if_(op("ge", {sz(448), v("len")}), std::move(shrt), std::move(longer), kBulk));
    b.push_back(comment("Lengths block: le64(aad_len) || le64(len) (RFC 8439 2.8), then the tag.", kMul));
    b.push_back(absorb(cast(K::U64, v("aad_len")), cast(K::U64, v("len")), u64(1)));
    b.push_back(eval(call("poly1305_final", {v("tag"), v("h0"), v("h1"), v("h2"), v("k0"), v("k1")}), kMul));
    return f;
  }
  std::vector<Stmt> body;
  std::vector<Stmt> mac;
  for (int k = 0; k < 4 * n; ++k) mac.push_back(absorb_at(at(v("ct"), v("off")), static_cast<uint64_t>(16 * k)));
  body.push_back(eval(call(blockfn, {v("ks"), v("key"), v("nonce"), v("ctr")}), bk(s)));
  if (!seal) body.insert(body.end(), mac.begin(), mac.end());
  body.push_back(for_(kSize, "i", sz(0), sz(static_cast<uint64_t>(8 * n)),
                      {eval(call("store64_le", {at(at(v(out), v("off")), op("mulsz", {v("i"), sz(8)})),
                                                op("xor64", {load64(at(at(v(in), v("off")), op("mulsz", {v("i"), sz(8)}))),
                                                             load64(at(v("ks"), op("mulsz", {v("i"), sz(8)})))})}))},
                      bk(s)));
  if (seal) body.insert(body.end(), mac.begin(), mac.end());
  body.push_back(assign(v("off"), op("addsz", {v("off"), sz(static_cast<uint64_t>(64 * n))}), bk(s)));
  body.push_back(assign(v("ctr"), op("add32", {v("ctr"), u32(static_cast<uint64_t>(n))})));
  Stmt bulk = while_(op("ge", {op("subsz", {v("len"), v("off")}), sz(static_cast<uint64_t>(64 * n))}), std::move(body), bk(s));
  carry_h(bulk, s, d, "ct", 64 * n);
  b.push_back(std::move(bulk));

  // Tail: fewer than 64n bytes: one more keystream call, then byte-wise.
  std::vector<Stmt> tail;
  tail.push_back(decl(kSize, "rem", op("subsz", {v("len"), v("off")})));
  tail.push_back(eval(call(blockfn, {v("ks"), v("key"), v("nonce"), v("ctr")})));
  std::vector<Stmt> tmac = absorb_padded(s, d, "ct_tail", v("rem"));
  std::vector<Stmt> txor = {for_(kSize, "i", sz(0), v("rem"),
                                 {assign(op("index", {v(out), op("addsz", {v("off"), v("i")})}),
                                         cast(K::U8, op("xor32", {cast(K::U32, op("index", {v(in), op("addsz", {v("off"), v("i")})})),
                                                                  cast(K::U32, op("index", {v("ks"), v("i")}))})))})};
  tail.push_back(decl(kIn, "ct_tail", at(v("ct"), v("off"))));
  if (!seal) tail.insert(tail.end(), tmac.begin(), tmac.end());
  tail.insert(tail.end(), txor.begin(), txor.end());
  if (seal) tail.insert(tail.end(), tmac.begin(), tmac.end());
  b.push_back(comment("The last len % " + std::to_string(64 * n) + " bytes: one more keystream call, xored byte by byte; whole\n"
                      "ciphertext blocks, then the zero-padded partial one.", bk(s)));
  b.push_back(if_(op("lt", {v("off"), v("len")}), std::move(tail), {}, bk(s)));

  b.push_back(comment("Lengths block: le64(aad_len) || le64(len) (RFC 8439 2.8), then the tag.", kMul));
  b.push_back(absorb(cast(K::U64, v("aad_len")), cast(K::U64, v("len")), u64(1)));
  b.push_back(eval(call("poly1305_final", {v("tag"), v("h0"), v("h1"), v("h2"), v("k0"), v("k1")}), kMul));
  return f;
}

Function poly_oneshot(const Spec &s, const Mul64 &d) {
  Function f;
  f.name = fmt::format("chapoly_k_{}_poly1305", s.name);
  f.exported = true;
  f.params = {{Type::array(K::U8, 16, false), "tag"}, {kIn, "msg"}, {kSize, "len"},
              {Type::array(K::U8, 32, true), "key"}};
  f.spec = kMul;
  f.doc = fmt::format("chapoly_k_{}_poly1305: one-shot Poly1305, RFC 8439 section 2.5, over len bytes of msg\n"
                      "with the 32-byte one-time key (r || s); writes the 16-byte tag.", s.name);
  nlohmann::ordered_json c = {{"role", "poly1305.oneshot"}};
  c.update(common_fields(s));
  f.contract = c.dump();
  auto &b = f.body;
  b.push_back(decl(kU64, "r0"));
  b.push_back(decl(kU64, "r1"));
  b.push_back(decl(kU64, "s1"));
  b.push_back(eval(call("poly1305_clamp", {v("r0"), v("r1"), v("s1"), v("key")})));
  b.push_back(decl(kU64, "h0", u64(0)));
  b.push_back(decl(kU64, "h1", u64(0)));
  b.push_back(decl(kU64, "h2", u64(0)));
  b.push_back(decl(kU64, "m0", u64(0)));
  b.push_back(decl(kU64, "m1", u64(0)));
  Stmt loop = for_(kSize, "i", sz(0), op("shrsz", {v("len")}, 4),
                   {absorb_at(at(v("msg"), op("mulsz", {v("i"), sz(16)})))});
  carry_h(loop, s, d, "msg", 16);
  b.push_back(std::move(loop));
  b.push_back(comment("A partial last block carries its own 0x01 byte and no 2^128 bit."));
  b.push_back(if_(op("ne", {op("andsz", {v("len"), sz(15)}), sz(0)}),
                  {eval(call("poly1305_load_partial", {v("m0"), v("m1"), at(v("msg"), op("subsz", {v("len"), op("andsz", {v("len"), sz(15)})})),
                                                       op("andsz", {v("len"), sz(15)}), lit(1, K::U8)})),
                   absorb(v("m0"), v("m1"), u64(0))}));
  b.push_back(eval(call("poly1305_final", {v("tag"), v("h0"), v("h1"), v("h2"), load64(at("key", 16)),
                                           load64(at("key", 24))})));
  return f;
}

Function chacha_oneshot(const Spec &s) {
  const int n = s.gpr_blocks;
  const std::string blockfn = n == 1 ? "chacha20_block" : fmt::format("chacha20_block{}", n);
  Function f;
  f.name = fmt::format("chapoly_k_{}_chacha20", s.name);
  f.exported = true;
  f.params = {{kOut, "out"}, {kIn, "in"}, {kSize, "len"}, {Type::array(K::U8, 12, true), "nonce"},
              {Type::array(K::U8, 32, true), "key"}, {kU32, "counter"}};
  f.spec = bk(s);
  f.doc = fmt::format("chapoly_k_{}_chacha20: ChaCha20, RFC 8439 section 2.4: out = in XOR keystream\n"
                      "starting at block `counter`. Requires counter + ceil(len / 64) <= 2^32. out may equal in.", s.name);
  nlohmann::ordered_json c = {{"role", "chacha20.xor"}, {"spec", spec_ref(s, bk(s))}};
  f.contract = c.dump();
  auto &b = f.body;
  if (s.isa == "x86_64-avx2") {
    // 512 bytes at a time word-sliced (chacha20_xor8); the last len % 512 bytes from one pass: a
    // block in general-purpose registers up to 64 bytes, else four (up to 256), six (up to 384) or
    // eight blocks in ymm rows. The streaming API's parked batches (STREAM_PARK 4) are such 256-byte calls: on a
    // Zen 3 the 4-block pass takes 334 TSC ticks against 260 for one block in general registers
    // (docs/benchmarks.md, "Through OpenSSL").
    b.push_back(decl(Type::array(K::U8, 512, false), "ks"));
    b.push_back(decl(kSize, "off", sz(0)));
    b.push_back(while_(op("ge", {op("subsz", {v("len"), v("off")}), sz(512)}),
                       {eval(call("chacha20_xor8", {at(v("out"), v("off")), at(v("in"), v("off")), v("key"), v("nonce"), v("counter")})),
                        assign(v("off"), op("addsz", {v("off"), sz(512)})),
                        assign(v("counter"), op("add32", {v("counter"), u32(8)}))}, kBulk));
    const Expr rem = op("subsz", {v("len"), v("off")});
    b.push_back(comment("The last len % 512 bytes: one block in general-purpose registers (up to 64 bytes), else one\n"
                        "pass of four (up to 256 bytes), six (up to 384) or eight blocks in ymm rows, xored in by words\n"
                        "and bytes.",
                        kBulk));
    std::vector<Stmt> tail{tail_keystream(rem, v("counter"), true)};
    for (auto &st : xor_words_then_bytes(at(v("out"), v("off")), at(v("in"), v("off")), v("ks"), rem)) tail.push_back(std::move(st));
    b.push_back(if_(op("lt", {v("off"), v("len")}), std::move(tail), {}, kBulk));
    return f;
  }
  b.push_back(decl(Type::array(K::U8, 64 * n, false), "ks"));
  b.push_back(decl(kSize, "off", sz(0)));
  b.push_back(while_(op("ge", {op("subsz", {v("len"), v("off")}), sz(static_cast<uint64_t>(64 * n))}),
                     {eval(call(blockfn, {v("ks"), v("key"), v("nonce"), v("counter")})),
                      for_(kSize, "i", sz(0), sz(static_cast<uint64_t>(8 * n)),
                           {eval(call("store64_le", {at(at(v("out"), v("off")), op("mulsz", {v("i"), sz(8)})),
                                                     op("xor64", {load64(at(at(v("in"), v("off")), op("mulsz", {v("i"), sz(8)}))),
                                                                  load64(at(v("ks"), op("mulsz", {v("i"), sz(8)})))})}))}),
                      assign(v("off"), op("addsz", {v("off"), sz(static_cast<uint64_t>(64 * n))})),
                      assign(v("counter"), op("add32", {v("counter"), u32(static_cast<uint64_t>(n))}))}));
  b.push_back(if_(op("lt", {v("off"), v("len")}),
                  {eval(call(blockfn, {v("ks"), v("key"), v("nonce"), v("counter")})),
                   for_(kSize, "i", sz(0), op("subsz", {v("len"), v("off")}),
                        {assign(op("index", {v("out"), op("addsz", {v("off"), v("i")})}),
                                cast(K::U8, op("xor32", {cast(K::U32, op("index", {v("in"), op("addsz", {v("off"), v("i")})})),
                                                         cast(K::U32, op("index", {v("ks"), v("i")}))})))})}));
  return f;
}

// --- streaming entries (issue 9): whole chunks of a message split over many calls --------------
//
// The runtime's chapoly_stream parks partial ChaCha20 and Poly1305 blocks itself and hands every
// run of whole chunks to these kernels. The Poly1305 accumulator travels between calls in a
// 24-byte state `acc`: h0, h1, h2 as little-endian 64-bit words (h2 <= 4 as every block step
// leaves it; all zero before the first block). `otk` is the 32-byte one-time key r || s
// (RFC 8439 2.6), `counter` the ChaCha20 block counter of the first chunk (the caller advances it
// by len / 64). Kept apart from the one-shot builders above: only build_scalar() calls these.

// poly1305_state_load: h0, h1, h2 from the state; h2 is read from byte 16 alone (a state the
// kernels wrote holds h2 <= 4 there and zeros in bytes 17..23) and its bits above bit 1 folded
// in as 5 * (h2 >> 2) (2^130 = 5 mod p), so h2 <= 4 on the way out whatever the byte holds: the
// bound the block loops' invariants and the final reduction need.
Function stream_state_load(const Mul64 &d) {
  Function f;
  f.name = "poly1305_state_load";
  f.params = {{kRef64, "h0"}, {kRef64, "h1"}, {kRef64, "h2"}, {Type::array(K::U8, 24, true), "acc"}};
  f.spec = kMul;
  f.doc = "h = le64(acc[0..8)) + 2^64 le64(acc[8..16)) + 2^128 acc[16] (mod 2^130 - 5), with h2 <= 4: the\n"
          "accumulator a streaming kernel left in the state (bytes 17..23 are zero and not read).";
  nlohmann::ordered_json c = {{"role", "poly1305.state_load"}, {"acc", {"h0", "h1", "h2"}}, {"state", "acc"}};
  f.contract = c.dump();
  auto &b = f.body;
  b.push_back(decl(kU64, "hh", cast(K::U64, op("index", {v("acc"), sz(16)}))));
  b.push_back(decl(kU64, "hc", add64(op("shr64", {v("hh")}, 2), op("and64", {v("hh"), u64(d.wrap_mask)}))));
  b.push_back(decl(kU128, "ht0", add128(w128(load64(v("acc"))), v("hc"))));
  b.push_back(assign(v("h0"), lo(v("ht0"))));
  b.push_back(decl(kU128, "ht1", add128(w128(load64(at("acc", 8))), hi(v("ht0")))));
  b.push_back(assign(v("h1"), lo(v("ht1"))));
  b.push_back(assign(v("h2"), add64(op("and64", {v("hh"), u64(3)}), hi(v("ht1")))));
  return f;
}

// poly1305_state_store: the inverse of the load for h2 <= 4.
Function stream_state_store() {
  Function f;
  f.name = "poly1305_state_store";
  f.params = {{Type::array(K::U8, 24, false), "acc"}, {kU64, "h0"}, {kU64, "h1"}, {kU64, "h2"}};
  f.spec = kMul;
  f.doc = "acc = h0, h1, h2 as three little-endian 64-bit words (h2 <= 4, so bytes 17..23 are zero).";
  nlohmann::ordered_json c = {{"role", "poly1305.state_store"}, {"acc", {"h0", "h1", "h2"}}, {"state", "acc"}};
  f.contract = c.dump();
  f.body = {eval(call("store64_le", {v("acc"), v("h0")})), eval(call("store64_le", {at("acc", 8), v("h1")})),
            eval(call("store64_le", {at("acc", 16), v("h2")}))};
  return f;
}

std::vector<Stmt> stream_load_h(const Mul64 &) {
  return {comment("h from the state (poly1305_state_load: h2 folded to <= 4).", kMul), decl(kU64, "h0"),
          decl(kU64, "h1"), decl(kU64, "h2"),
          eval(call("poly1305_state_load", {v("h0"), v("h1"), v("h2"), v("acc")}))};
}

std::vector<Stmt> stream_store_h() {
  return {comment("h back into the state.", kMul),
          eval(call("poly1305_state_store", {v("acc"), v("h0"), v("h1"), v("h2")}))};
}

std::vector<Stmt> stream_key(bool m) {
  std::vector<Stmt> b = {decl(kU64, "r0", kMul), decl(kU64, "r1"), decl(kU64, "s1"),
                         eval(call("poly1305_clamp", {v("r0"), v("r1"), v("s1"), v("otk")}))};
  if (m) {
    b.push_back(decl(kU64, "m0", u64(0)));
    b.push_back(decl(kU64, "m1", u64(0)));
  }
  return b;
}

const char *const kStreamNote =
    "acc is the 24-byte Poly1305 state (h0, h1, h2 little-endian, h2 <= 4; zero before the first block),\n"
    "otk the 32-byte one-time key r || s (RFC 8439 2.6).";

// chapoly_k_NAME_poly1305_update: absorb len / 16 whole 16-byte blocks (pad bit set) into acc.
Function stream_poly_update(const Spec &s, const Mul64 &d) {
  Function f;
  f.name = fmt::format("chapoly_k_{}_poly1305_update", s.name);
  f.exported = true;
  f.params = {{Type::array(K::U8, 24, false), "acc"}, {kIn, "msg"}, {kSize, "len"},
              {Type::array(K::U8, 32, true), "otk"}};
  f.spec = kMul;
  f.doc = fmt::format("chapoly_k_{}_poly1305_update: Poly1305 (RFC 8439 2.5) over the len / 16 whole 16-byte blocks of\n"
                      "msg (each with its 2^128 pad bit; len % 16 bytes at the end are ignored), continuing the\n"
                      "accumulator in acc: the AAD and length blocks of a streamed AEAD (RFC 8439 2.8).\n{}",
                      s.name, kStreamNote);
  nlohmann::ordered_json c = {{"role", "poly1305.update"}, {"state", "acc"}};
  c.update(common_fields(s));
  f.contract = c.dump();
  auto &b = f.body;
  for (auto &st : stream_key(false)) b.push_back(std::move(st));
  for (auto &st : stream_load_h(d)) b.push_back(std::move(st));
  Stmt loop = for_(kSize, "i", sz(0), op("shrsz", {v("len")}, 4),
                   {absorb_at(at(v("msg"), op("mulsz", {v("i"), sz(16)})))}, kMul);
  carry_h(loop, s, d, "msg", 16);
  b.push_back(std::move(loop));
  for (auto &st : stream_store_h()) b.push_back(std::move(st));
  return f;
}

// chapoly_k_NAME_poly1305_finish: the tag from the state.
Function stream_poly_finish(const Spec &s, const Mul64 &d) {
  Function f;
  f.name = fmt::format("chapoly_k_{}_poly1305_finish", s.name);
  f.exported = true;
  f.params = {{Type::array(K::U8, 16, false), "tag"}, {Type::array(K::U8, 24, true), "acc"},
              {Type::array(K::U8, 32, true), "otk"}};
  f.spec = kMul;
  f.doc = fmt::format("chapoly_k_{}_poly1305_finish: tag = ((h mod p) + s) mod 2^128 (RFC 8439 2.5.1) for the\n"
                      "accumulator in acc and s = otk[16..32). Writes only tag; the caller wipes acc.\n{}",
                      s.name, kStreamNote);
  nlohmann::ordered_json c = {{"role", "poly1305.finish"}, {"state", "acc"}};
  c.update(common_fields(s));
  f.contract = c.dump();
  auto &b = f.body;
  b.push_back(comment("r is not needed, but the clamp's read ties s to otk[16..32) (r || s, RFC 8439 2.5).", kMul));
  for (auto &st : stream_key(false)) b.push_back(std::move(st));
  for (auto &st : stream_load_h(d)) b.push_back(std::move(st));
  b.push_back(eval(call("poly1305_final", {v("tag"), v("h0"), v("h1"), v("h2"), load64(at("otk", 16)),
                                           load64(at("otk", 24))}), kMul));
  return f;
}

// out[0..m) = in[0..m) XOR k[0..m) for m a multiple of 8: whole 64-bit words.
Stmt stream_xor_words(Expr o, Expr i, Expr k, Expr m, const Spec &s) {
  auto w = [](Expr p) { return at(p, op("mulsz", {v("i"), sz(8)})); };
  return for_(kSize, "i", sz(0), op("shrsz", {m}, 3),
              {eval(call("store64_le", {w(o), op("xor64", {load64(w(i)), load64(w(k))})}))}, bk(s));
}

// chapoly_k_NAME_seal_update / _open_update: len / 64 whole 64-byte chunks, keystream blocks
// counter.., ciphertext absorbed into acc; the same loops as the one-shot kernels' bulk path.
Function stream_text_update(const Spec &s, const Mul64 &d, bool seal) {
  const int n = s.gpr_blocks;
  const std::string blockfn = n == 1 ? "chacha20_block" : fmt::format("chacha20_block{}", n);
  const std::string out = seal ? "ct" : "pt", in = seal ? "pt" : "ct";
  const bool avx2 = s.isa == "x86_64-avx2";
  Function f;
  f.name = fmt::format("chapoly_k_{}_{}_update", s.name, seal ? "seal" : "open");
  f.exported = true;
  f.params = {{kOut, out}, {kIn, in}, {kSize, "len"}, {Type::array(K::U8, 24, false), "acc"},
              {Type::array(K::U8, 32, true), "otk"}, {Type::array(K::U8, 12, true), "nonce"},
              {Type::array(K::U8, 32, true), "key"}, {kU32, "counter"}};
  f.spec = kIsa;
  f.doc = fmt::format("chapoly_k_{}_{}_update: the whole 64-byte chunks of a streamed AEAD (RFC 8439 2.8): for the\n"
                      "len / 64 chunks (len % 64 bytes at the end are ignored), {} = {} XOR the ChaCha20 keystream\n"
                      "of blocks counter, counter + 1, ... (RFC 8439 2.4), and the ciphertext absorbed into acc\n"
                      "({}). {} may equal {} exactly. Requires counter + len / 64 <= 2^32.\n{}",
                      s.name, seal ? "seal" : "open", out, in,
                      seal ? "after encrypting" : "before decrypting", out, in, kStreamNote);
  nlohmann::ordered_json c = {{"role", seal ? "aead.seal_update" : "aead.open_update"}, {"state", "acc"},
                              {"counter", "counter"}};
  c.update(common_fields(s));
  f.contract = c.dump();
  auto &b = f.body;
  for (auto &st : stream_key(avx2)) b.push_back(std::move(st));
  for (auto &st : stream_load_h(d)) b.push_back(std::move(st));
  b.push_back(decl(kSize, "off", sz(0), bk(s)));
  b.push_back(decl(kU32, "ctr", v("counter")));
  if (avx2) {
    b.push_back(decl(Type::array(K::U8, 512, false), "ks", kBulk));
    auto xor8 = [&](const char *fn, std::vector<Expr> extra) {
      std::vector<Expr> a = {at(v(out), v("off")), at(v(in), v("off")), v("key"), v("nonce"), v("ctr")};
      a.insert(a.end(), extra.begin(), extra.end());
      return eval(call(fn, std::move(a)), kBulk);
    };
    Stmt wloop = stitched_chunk_loop(s, d, seal, out, in);
    b.push_back(comment("Eight blocks at a time, 32 Poly1305 steps stitched into their rounds (seal: the chunk\n"
                        "the previous iteration encrypted), while 512 bytes remain.", kBulk));
    // The tail: the last (len % 512) / 64 chunks, rem bytes, with their keystream in ks (made by
    // `keystream`, or before it by seal's stitched pass): xor and MAC.
    auto tail = [&](bool keystream) {
      std::vector<Stmt> t, plain;
      t.push_back(decl(kSize, "rem", op("subsz", {v("whole"), v("off")})));
      // (Open: under 256 bytes here, so four blocks; its longer tails are open_tail's.)
      if (keystream)
        plain.push_back(seal ? lanes_pass(v("rem"), std::nullopt, 0)
                             : eval(call("chacha20_lanes4", {v("ks"), v("key"), v("nonce"), v("ctr")}), kBulk));
      plain.push_back(decl(kIn, "ct_tail", at(v("ct"), v("off"))));
      std::vector<Stmt> tmac = absorb_padded(s, d, "ct_tail", v("rem"));
      const Stmt txor = stream_xor_words(at(v(out), v("off")), at(v(in), v("off")), v("ks"), v("rem"), s);
      if (!seal) plain.insert(plain.end(), tmac.begin(), tmac.end());
      plain.push_back(txor);
      if (seal) plain.insert(plain.end(), tmac.begin(), tmac.end());
      if (seal) t.insert(t.end(), plain.begin(), plain.end());
      else t.push_back(open_tail(s, d, v("rem"), std::move(plain), {txor}));
      return t;
    };
    const char *tail_note = "The last (len % 512) / 64 chunks: one pass of four, six or eight blocks of keystream.";
    b.push_back(decl(kSize, "whole", op("subsz", {v("len"), op("andsz", {v("len"), sz(63)})}), kBulk));
    auto tail_if = [&]() { return if_(op("lt", {v("off"), v("whole")}), tail(true), {}, kBulk); };
    if (seal) {
      b.push_back(if_(op("ge", {v("len"), sz(512)}),
                      {xor8("chacha20_xor8", {}), assign(v("off"), sz(512), kBulk),
                       assign(v("ctr"), op("add32", {v("ctr"), u32(8)})), std::move(wloop),
                       seal_last_chunk(s, d, op("subsz", {v("whole"), v("off")}), tail(false),
                                       {comment(tail_note, kBulk), tail_if()})},
                      {comment(tail_note, kBulk), tail_if()}, kBulk));
    } else {
      b.push_back(std::move(wloop));
      b.push_back(comment(tail_note, kBulk));
      b.push_back(tail_if());
    }
  } else {
    b.push_back(decl(Type::array(K::U8, 64 * n, false), "ks", bk(s)));
    auto chunk = [&](const std::string &fn, int blocks) {
      std::vector<Stmt> body, mac;
      for (int k = 0; k < 4 * blocks; ++k) mac.push_back(absorb_at(at(v("ct"), v("off")), static_cast<uint64_t>(16 * k)));
      body.push_back(eval(call(fn, {v("ks"), v("key"), v("nonce"), v("ctr")}), bk(s)));
      if (!seal) body.insert(body.end(), mac.begin(), mac.end());
      body.push_back(stream_xor_words(at(v(out), v("off")), at(v(in), v("off")), v("ks"), sz(static_cast<uint64_t>(64 * blocks)), s));
      if (seal) body.insert(body.end(), mac.begin(), mac.end());
      body.push_back(assign(v("off"), op("addsz", {v("off"), sz(static_cast<uint64_t>(64 * blocks))}), bk(s)));
      body.push_back(assign(v("ctr"), op("add32", {v("ctr"), u32(static_cast<uint64_t>(blocks))})));
      Stmt loop = while_(op("ge", {op("subsz", {v("len"), v("off")}), sz(static_cast<uint64_t>(64 * blocks))}), std::move(body), bk(s));
      carry_h(loop, s, d, "ct", 64 * blocks);
      return loop;
    };
    b.push_back(comment(fmt::format("{} bytes per iteration, the {} ciphertext blocks absorbed ({}).", 64 * n, 4 * n,
                                    seal ? "after encrypting" : "before decrypting"), bk(s)));
    b.push_back(chunk(blockfn, n));
    if (n > 1) b.push_back(chunk("chacha20_block", 1));
  }
  for (auto &st : stream_store_h()) b.push_back(std::move(st));
  return f;
}

// --- interval reasoning over the block step (the style of bounds.cpp) ---------------------------

struct Interval {
  using Env = std::map<std::string, u128>;  // upper bounds; every value is unsigned, lower bound 0
  Env env;
  std::string where;

  static u128 max_of(int bits) { return bits == 128 ? ~u128{0} : (u128{1} << bits) - 1; }

  u128 fit(u128 x, int bits, const char *what) const {
    if (x > max_of(bits))
      throw std::runtime_error(fmt::format("{}: a {}-bit {} could wrap", where, bits, what));
    return x;
  }
  u128 sum(u128 a, u128 b, int bits) const {
    u128 r;
    if (__builtin_add_overflow(a, b, &r)) throw std::runtime_error(where + ": a 128-bit sum could wrap");
    return fit(r, bits, "sum");
  }
  u128 prod(u128 a, u128 b, int bits) const {
    u128 r;
    if (__builtin_mul_overflow(a, b, &r)) throw std::runtime_error(where + ": a 128-bit product could wrap");
    return fit(r, bits, "product");
  }

  u128 eval(const Expr &e) const {
    const auto &o = e.op;
    auto a = [&](size_t i) { return eval(e.args.at(i)); };
    if (o == "var") {
      auto it = env.find(e.name);
      if (it == env.end()) throw std::logic_error("interval: unknown value " + e.name);
      return it->second;
    }
    if (o == "lit") return e.value;
    if (o == "call") return max_of(64);  // loads
    if (o == "widen128") return a(0);
    if (o == "lo64") return std::min(a(0), max_of(64));
    if (o == "hi64") return a(0) >> 64;
    if (o == "add64") return sum(a(0), a(1), 64);
    if (o == "add128") return sum(a(0), a(1), 128);
    if (o == "mul64") return prod(a(0), a(1), 64);
    if (o == "mul64x64") return prod(a(0), a(1), 128);
    if (o == "shr64") return a(0) >> e.imm;
    if (o == "and64") return std::min(a(0), a(1));
    if (o == "or64") return max_of(64);
    if (o == "not64") return max_of(64);
    throw std::logic_error("interval: unhandled op " + o);
  }

  void run(const std::vector<Stmt> &ss) {
    for (const auto &s : ss) {
      if (s.kind == Stmt::Decl && !s.rhs.op.empty()) env[s.name] = eval(s.rhs);
      else if (s.kind == Stmt::Assign) env[s.lhs.name] = eval(s.rhs);
      else if (s.kind == Stmt::Eval) continue;  // stores
      else if (s.kind != Stmt::Comment && s.kind != Stmt::Blank)
        throw std::logic_error("interval: control flow in a straight-line block");
    }
  }
};

// The streaming entries (emitted/README.md, "Streaming entries"), after the one-shot ones.
void add_stream_entries(Module &m, const Spec &s, const Mul64 &d) {
  m.functions.push_back(stream_state_load(d));
  m.functions.push_back(stream_state_store());
  m.functions.push_back(stream_poly_update(s, d));
  m.functions.push_back(stream_poly_finish(s, d));
  m.functions.push_back(stream_text_update(s, d, true));
  m.functions.push_back(stream_text_update(s, d, false));
}

}  // namespace

Mul64 derive_mul64(const Spec &s) {
  Mul64 d;
  std::tie(d.clamp0, d.clamp1) = poly1305_clamp_masks();
  d.s1_max = d.clamp1 + (d.clamp1 >> 2);
  d.wrap_mask = ~uint64_t{3};
  // 4 * (d2 >> 2) is d2 with its two low bits cleared; adding (d2 >> 2) makes 5 * (d2 >> 2), which
  // is what 2^130 * (d2 >> 2) is worth mod 2^130 - 5.
  d.derivation.push_back(fmt::format("clamp (RFC 8439 2.5, bytes 3/7/11/15 & 0x0f, 4/8/12 & 0xfc): r0 &= 0x{:016x}, r1 &= 0x{:016x}",
                                     d.clamp0, d.clamp1));
  d.derivation.push_back("r1 % 4 == 0, so 2^128 * r1 = 2^130 * (r1 / 4) = 5 * (r1 / 4) = s1 = r1 + (r1 >> 2) (mod p)");
  d.derivation.push_back("2^130 = 5 (mod p): c = (d2 >> 2) + (d2 & ~3) = 5 * (d2 >> 2), h2 = d2 & 3");

  // Fixpoint of the h2 bound over the block step: start from h2 = 0 (the initial accumulator),
  // evaluate the step with h0, h1, m0, m1 anywhere in 64 bits and pad in {0, 1}, widen the bound
  // to the step's result until it no longer grows.
  std::vector<Stmt> step = block_step(d);
  u128 b = 0;
  for (int iter = 0;; ++iter) {
    if (iter > 64) throw std::runtime_error("the mul64 block step does not bound h2");
    Interval iv;
    iv.where = fmt::format("{}:{}: mul64 block step", s.path, s.line_of.at(kMul));
    iv.env = {{"h0", Interval::max_of(64)}, {"h1", Interval::max_of(64)}, {"h2", b},
              {"m0", Interval::max_of(64)}, {"m1", Interval::max_of(64)}, {"pad", 1},
              {"r0", d.clamp0}, {"r1", d.clamp1}, {"s1", d.s1_max}};
    // The bound after the absorb is what the multiply sees.
    iv.run(step);
    u128 out = iv.env.at("h2");
    if (out <= b) break;
    b = out;
  }
  d.h2_bound = static_cast<uint64_t>(b);
  d.h2_absorb = d.h2_bound + 2;  // + pad + carry
  // Final reduction: one conditional subtraction needs h < 2p = 2^131 - 10; h < (h2 + 1) * 2^128,
  // and 7 * 2^128 < 2^131 - 10 < 8 * 2^128, so h2 <= 6. The final's own sums and the mask product
  // must not wrap either (the mask is (g2 >> 2) * (2^64 - 1): g2 >> 2 must be 0 or 1).
  if (d.h2_bound > 6)
    throw std::runtime_error(fmt::format("{}:{}: h2 <= {} allows h >= 2p; the final reduction needs h < 2p",
                                         s.path, s.line_of.at(kMul), d.h2_bound));
  {
    Interval iv;
    iv.where = fmt::format("{}:{}: mul64 final reduction", s.path, s.line_of.at(kMul));
    iv.env = {{"h0", Interval::max_of(64)}, {"h1", Interval::max_of(64)}, {"h2", d.h2_bound},
              {"s0", Interval::max_of(64)}, {"s1", Interval::max_of(64)}};
    iv.run(poly_final(s, d).body);
  }
  d.derivation.push_back(fmt::format("h2 <= {} between blocks: interval fixpoint of the block step from h2 = 0 "
                                     "(h0, h1, m < 2^64, pad <= 1, r clamped); h < {} * 2^128 < 2p",
                                     d.h2_bound, d.h2_bound + 1));
  (void)kRadix;
  (void)kLimbs;
  return d;
}

Module build_scalar(const Spec &s, const Mul64 &d) {
  Module m;
  m.name = s.name;
  m.functions.push_back(load_le(32));
  m.functions.push_back(load_le(64));
  m.functions.push_back(store_le(32));
  m.functions.push_back(store_le(64));
  m.functions.push_back(chacha20_blocks(1, s));
  if (s.gpr_blocks > 1) m.functions.push_back(chacha20_blocks(s.gpr_blocks, s));
  m.functions.push_back(poly_clamp(s, d));
  m.functions.push_back(poly_block(s, d));
  m.functions.push_back(poly_load_partial(s));
  m.functions.push_back(poly_final(s, d));
  if (s.isa == "x86_64-avx2") {  // after poly1305_block, which the stitched one calls
    // The key pass of a one-shot message: one set (2 blocks) up to 64 bytes, two sets up to 192.
    // The pass is bound by the rounds' latency, so the second set costs little where vector add,
    // xor and shift take 2 cycles (Zen 5: 16-byte seal 340 cycles with one set or two), but on a
    // Zen 3 (1 cycle) one set is ~15% faster (docs/benchmarks.md, stop 44: 287 against 337 TSC
    // ticks per pass; the 0-64 byte seal and open 10-13% faster).
    m.functions.push_back(chacha20_lanes(s, 1, 0));
    m.functions.push_back(chacha20_lanes(s, 2, 0));
    // Three sets (6 blocks) for 193-320 bytes and tails of 257-384, four (8 blocks) for 321-448
    // and longer tails: one pass instead of two dependent ones. Four sets are bound by the vector
    // ports (19 ops per set and round), so a pass that needs at most six blocks takes three: on
    // Emerald Rapids the 193-320 byte seal 1.14-1.15x faster, a 1350-byte seal and open 1.05x
    // (docs/benchmarks.md, stop 48).
    m.functions.push_back(chacha20_lanes(s, 3, 0));
    m.functions.push_back(chacha20_lanes(s, 4, 0));
    // Seal's tails after the bulk loop: the last whole chunk's 32 block steps woven into the tail's
    // keystream pass instead of run after the loop alone.
    m.functions.push_back(chacha20_lanes(s, 2, 32));
    m.functions.push_back(chacha20_lanes(s, 3, 32));
    m.functions.push_back(chacha20_lanes(s, 4, 32));
    // Seal's 449-576 byte messages: the key pass's 448 bytes' 28 block steps woven into the one set
    // that makes the rest.
    m.functions.push_back(chacha20_lanes(s, 1, 28));
    // Open's tails of 256 bytes or more: their own first 16 block steps woven into their pass.
    m.functions.push_back(chacha20_lanes(s, 2, 16));
    m.functions.push_back(chacha20_lanes(s, 3, 16));
    m.functions.push_back(chacha20_lanes(s, 4, 16));
    m.functions.push_back(chacha20_xor8(s, 0));
    m.functions.push_back(chacha20_xor8(s, 32));
    // Seal of a multiple of 512 bytes from 1 KiB: the chunk after the key pass's 448 bytes, with
    // their 28 block steps woven in.
    m.functions.push_back(chacha20_xor8(s, 28));
  }
  m.functions.push_back(aead(s, d, true));
  m.functions.push_back(aead(s, d, false));
  m.functions.push_back(poly_oneshot(s, d));
  m.functions.push_back(chacha_oneshot(s));
  add_stream_entries(m, s, d);
  return m;
}

// --- the mul64 pieces other builders reuse (mul64_parts.hpp; kir/rvv.cpp) ------------------------
// Thin forwarders to the builders above, so the vector targets compose the same Poly1305 helpers,
// loops and contracts instead of copying them.
namespace parts {
Function load_le(int bits) { return kir::load_le(bits); }
Function store_le(int bits) { return kir::store_le(bits); }
Function chacha20_block(const Spec &s) { return chacha20_blocks(1, s); }
Function poly_clamp(const Spec &s, const Mul64 &d) { return kir::poly_clamp(s, d); }
Function poly_block(const Spec &s, const Mul64 &d) { return kir::poly_block(s, d); }
Function poly_load_partial(const Spec &s) { return kir::poly_load_partial(s); }
Function poly_final(const Spec &s, const Mul64 &d) { return kir::poly_final(s, d); }
Function poly_oneshot(const Spec &s, const Mul64 &d) { return kir::poly_oneshot(s, d); }
Stmt absorb(Expr m0, Expr m1, Expr pad) { return kir::absorb(std::move(m0), std::move(m1), std::move(pad)); }
Stmt absorb_at(Expr p) { return kir::absorb_at(std::move(p)); }
void carry_h(Stmt &loop, const Spec &s, const Mul64 &d, const std::string &msg, int block_bytes) {
  kir::carry_h(loop, s, d, msg, block_bytes);
}
std::vector<Stmt> absorb_padded(const Spec &s, const Mul64 &d, const std::string &p, Expr len) {
  return kir::absorb_padded(s, d, p, std::move(len));
}
std::vector<Param> aead_params(bool seal) { return kir::aead_params(seal); }
nlohmann::ordered_json common_fields(const Spec &s) { return kir::common_fields(s); }
Function aead_entry(const Spec &s, bool seal) { return kir::aead_entry(s, seal); }
std::string spec_ref(const Spec &s, const char *key) { return kir::spec_ref(s, key); }
}  // namespace parts

}  // namespace chapoly::gen::kir
