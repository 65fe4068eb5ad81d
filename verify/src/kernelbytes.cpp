// kernelbytes.cpp: `kernel-bytes`, the memory bounds of a mul64-dialect kernel's own body
// (docs/verification.md): every byte the exported kernel reads or writes itself (byte loops,
// tails), every byte a small helper without a contract does for it (inlined: load64_le, ...), and
// every buffer it hands to a proved helper (the helper's footprint: an array parameter T p[N], a
// "blocks": "vl" keystream helper's 64 vl bytes and its MAC's 16 nmac, a partial-block load's
// length) lies inside the caller's buffer: len bytes of the text buffers, aad_len of the AAD, the
// declared size of an array parameter (key[32], nonce[12], tag[16]) or of a local array.
//
// One symbolic pass over the body in bit-vectors (Z3). Branches are followed both ways and merged;
// a loop is entered in an arbitrary iteration: every variable it assigns is unknown at its head,
// except for the facts `a <= b` between its size_t variables and len that hold on entry and that
// one iteration keeps (proved, then assumed), and a counting loop `for (i = A; i < B; ++i)` with B
// unchanged by the loop has A <= i < B. After the loop the same facts hold with its condition
// false. So each access is checked for every iteration of every loop.
//
// The same walk makes the other passes of this file: `keystream` and `out-coverage` (which bytes
// the output text gets, and that it gets all of them) and the IFMA dialect's `mac-order`.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <regex>
#include <set>

#include "answers.h"
#include "contracts.h"
#include "proofs.h"
#include "rvv.h"

namespace cv {
namespace {

// The IFMA dialect's `keystream` pass: what a vector holds in ChaCha20 terms, from the proved
// claims of the chacha20.lanes helpers (chacha-lanes) and the proved round loops (chacha-round).
// Counters are bv32 terms; `ok` is where the vector really is this (a value made on one way of a
// branch only is this under that branch's condition).
struct KsTag {
  enum Kind {
    Ctr4,    // ctr4: 128-bit lane l = (ctr[l], 0, 0, 0)
    Row4,    // init4: row idx (0 = a .. 3 = d) of the 4-block state with lane counters ctr[0..3]
    Rnd4,    // row idx of that state after 20 rounds
    Blk,     // blocks4: ChaCha20 block ctr[0] of the kernel's key and nonce, 64 bytes
    Blk128,  // 16 bytes idx of that block (a 128-bit lane of it)
    SRow,    // sliced_init: every lane = state word idx (12: the counter slot, 0)
    SCtr,    // sliced_ctr: lane l = ctr[0] + l
    SRnd,    // word idx of the word-sliced state with counters ctr[0] + l, after 20 rounds
  } kind;
  int idx = 0;
  unsigned lanes = 0;  // word-sliced: blocks per vector (16 in zmm, 8 in ymm)
  std::vector<z3::expr> ctr;
  z3::expr ok;
  KsTag(Kind k, int i, unsigned n, std::vector<z3::expr> c, z3::expr o) : kind(k), idx(i), lanes(n), ctr(std::move(c)), ok(std::move(o)) {}
};

struct Val {
  bool ptr = false;
  std::string base;  // ptr: the buffer (parameter name, or "@" local array name)
  std::optional<z3::expr> e;  // int: the value (bv64); ptr: the byte offset into base
  unsigned elem = 1;          // ptr: element size in bytes
  // IFMA mac-order pass: a vector of message limbs an ifma.load_partial call made: the message
  // offset its first block comes from and its block count (an all-ones offset: not made so on
  // every path that reaches here).
  std::optional<z3::expr> macAt, macBlocks, macEnd;
  // A mask whose set bits are exactly bits [0, lowBits) (BZHI of all ones, and its casts): what a
  // masked store of it writes, without a shift by a variable amount in the query.
  std::optional<z3::expr> lowBits;
  // IFMA keystream pass: the vector's meaning (none: made by an operation no claim covers, with
  // `ksWhy` saying where the walk lost it when it knows).
  std::shared_ptr<const KsTag> ks;
  std::string ksWhy;
  // IFMA mac-order pass: limb hLimb of the Poly1305 accumulator h made by the absorbing call
  // hGen (0: the zero h before any, hLimb -1: every limb).
  std::optional<z3::expr> hGen;
  int hLimb = -1;
  std::optional<z3::expr> hOk;  // where it is that limb (absent: everywhere; a branch made it on one way)
  std::optional<z3::expr> hZero;  // an 8-lane loop's hin at its head: zero where this holds (absorbed)
};

struct Failure {
  std::string msg;
  SrcLoc loc;
};

class Walker {
 public:
  Walker(const File &f, const Function &k, z3::context &c) : F(f), K(k), c(c) {}

  const File &F;
  const Function &K;
  z3::context &c;
  std::map<int, Val> env;
  std::vector<z3::expr> path;   // facts and branch conditions on this path
  std::map<std::string, z3::expr> bound;  // buffer -> its size in bytes
  int fresh = 0;
  unsigned checks = 0;
  int inlineDepth = 0;
  bool checking = true;  // false while a loop's facts are being found: accesses are checked after
  // The IFMA dialect (the AVX-512 kernels, no contracts): every helper is walked (inlined), vector
  // loads and stores are accesses with the footprint of their intrinsic (a masked one: the bytes
  // of its mask's set bits), masks and _bzhi_u* are integers, pointers may move in loops.
  bool ifma = false;

  // ---- the IFMA dialect's `mac-order` pass (mac = true) ----
  // The pieces the kernel's Poly1305 absorbs follow one another through its message, from its
  // start to its end: pad16(AAD) || pad16(ciphertext) || le64(aad_len) || le64(len) for seal and
  // open (RFC 8439 2.8), msg for Poly1305 (2.5), the whole 64-byte chunks of the ciphertext for
  // the update entries. A cursor (a pseudo-variable, so that loops carry it like any other) is
  // the message bytes absorbed so far: a full vector load of a message buffer in an ifma.*
  // helper (a 128-byte group of the 8-lane loops) must read at the cursor and moves it by its
  // bytes; an ifma.load_partial call reads at the cursor and moves it to the next 16-byte
  // boundary (AEAD) or by its length (Poly1305), and its limbs carry their offset and block
  // count to the ifma.step_partial / ifma.short_step that absorbs them, which must be handed
  // that count (and the short step the AAD's and the ciphertext's pieces, in that order); the
  // lengths block (ifma.lengths, or the short step's last lane) comes at the end of the padded
  // ciphertext, from the kernel's own aad_len and len; the tag (poly1305.final) or the state
  // store (ifma.state_store) finds the cursor at the message's end.
  bool mac = false;
  bool macEnded = false;  // a tag or state store was reached (a walk that reaches none fails)
  std::function<void()> onEnd;  // checked after the walk
  // Update: the whole 64-byte chunks of the text (the AEAD update entries); Blocks: the whole
  // 16-byte blocks of msg, each with 2^128 (the IFMA poly1305_update entry, the MAC of parked-
  // keystream text); both continue h from the state and store it back.
  enum class MacKind { Aead, Poly, Update, Blocks } macKind = MacKind::Aead;
  // The kinds whose kernel ends in the state store (ifma.state_store), not in a tag.
  bool macStores() const { return macKind == MacKind::Update || macKind == MacKind::Blocks; }
  int cursorVar = -1;                  // an extra Var (the walker's own copy of the file's vars)
  int pendingVar = -1;                 // pieces loaded by ifma.load_partial and not yet absorbed
  int unsettledVar = -1;               // 1 while the 8-lane loops' groups wait for an ifma.settle
  std::string ctBuf;                   // the ciphertext (or message) buffer's parameter name
  std::set<std::string> msgSide;       // the kernel's len- or aad_len-sized buffers
  std::vector<std::string> roles;      // roles of the functions being walked, innermost last
  z3::expr padded(const z3::expr &n) { return (n + bv(15)) & bv(~15ull); }
  z3::expr none() { return bv(~0ull); }
  bool inIfma() const { return !roles.empty() && roles.back().rfind("ifma.", 0) == 0; }
  z3::expr cursor() { return *env.at(cursorVar).e; }
  z3::expr pending() { return *env.at(pendingVar).e; }
  z3::expr unsettled() { return *env.at(unsettledVar).e; }
  // The end of the segment of the message a buffer holds: where its last (partial) piece ends.
  z3::expr segEnd(const std::string &base) {
    const z3::expr len = c.bv_const("len", 64);
    if (base == "aad") return c.bv_const("aad_len", 64);
    return macKind == MacKind::Update ? len - (len & bv(63)) : macKind == MacKind::Blocks ? len - (len & bv(15)) : len;
  }
  // No loaded piece waits, and no 8-lane group waits for its settle, where `what` comes.
  void macQuiet(SrcLoc l, const std::string &what) {
    macClaim(pending() == bv(0), l, what + " while a block the loader made is not yet absorbed (loaded and never stepped)", {});
    macClaim(unsettled() == bv(0), l, what + " while the 8-lane loops' groups wait for their ifma.settle (h would not be carried)", {});
  }
  // 64-bit lanes of a helper's vector parameter k (8 in zmm, 4 in ymm).
  unsigned lanesOf(const Function &g, size_t k) {
    if (k >= g.params.size()) return 8;
    const Type &t = F.vars[(size_t)g.params[k]].ty;
    return t.kind == Type::Vec && t.bits >= 128 ? t.bits / 64 : 8;
  }
  void setCursor(const z3::expr &x) { env[cursorVar] = intV(x); }
  // The message offset of byte `off` of buffer `base` (std::nullopt: not part of the message).
  std::optional<z3::expr> msgAt(const std::string &base, const z3::expr &off) {
    if (base == ctBuf) return macKind == MacKind::Aead ? padded(c.bv_const("aad_len", 64)) + off : off;
    if (macKind == MacKind::Aead && base == "aad") return off;
    return std::nullopt;
  }
  z3::expr msgEnd() {
    const z3::expr len = c.bv_const("len", 64);
    if (macKind == MacKind::Aead) return padded(c.bv_const("aad_len", 64)) + padded(len) + bv(16);
    if (macKind == MacKind::Poly) return len;
    if (macKind == MacKind::Blocks) return len - (len & bv(15));
    return len - (len & bv(63));
  }
  // A claim of the pass, with a counterexample of the path's lengths where it fails.
  void macClaim(const z3::expr &claim, SrcLoc l, const std::string &msg, std::vector<std::pair<std::string, z3::expr>> show) {
    if (!checking) return;
    defer(claim, [this, claim, l, msg, show] {
      std::string ex;
      if (std::optional<z3::model> m = refuting(claim)) {
        std::vector<std::pair<std::string, z3::expr>> all = show;
        for (const char *n : {"len", "aad_len"})
          if (hasParam(n)) all.push_back({n, c.bv_const(n, 64)});
        for (auto &[n, x] : all) ex += (ex.empty() ? "; e.g. " : ", ") + n + " = " + valueIn(*m, x);
      }
      fail(l, msg + ex);
    });
  }
  // A read of `bytes` message bytes at p by the MAC (a group load of the 8-lane loops).
  void macRead(const Val &p, const z3::expr &bytes, SrcLoc l, const std::string &what) {
    if (!p.ptr) fail(l, what + " through a value that is not a pointer into a known buffer");
    std::optional<z3::expr> m = msgAt(p.base, *p.e);
    if (!m) fail(l, "the MAC reads " + p.base + ", which is not part of the message (" + (macKind == MacKind::Aead ? "the AAD and the ciphertext " + ctBuf : ctBuf) + ")");
    const z3::expr cur = cursor();
    macClaim(*m == cur, l, what + " reads message byte " + "m, not the next one (the cursor): a piece skipped, absorbed twice or out of order",
             {{"m", *m}, {"cursor", cur}});
    macClaim(pending() == bv(0), l, what + " while a block the loader made is not yet absorbed", {});
    setCursor(cur + bytes);
    env[unsettledVar] = intV(bv(1));
  }
  z3::expr argInt(const std::vector<Val> &args, size_t k, SrcLoc l, const std::string &what) {
    if (k >= args.size() || !args[k].e || args[k].ptr) fail(l, what + ": an argument with no integer meaning");
    return *args[k].e;
  }
  // An intercepted call of the mac-order pass (true: handled, not walked).
  bool macCall(const Expr &e, const Function &g, const std::vector<Val> &args) {
    const std::string role = roleOf(g);
    auto refOut = [&](size_t k) -> int { return k < e.args.size() && e.args[k] && e.args[k]->kind == Expr::Var ? e.args[k]->var : -1; };
    if (role == "ifma.load_partial") {
      // (m0, m1, m2, p, n, pad01)
      if (args.size() < 6) fail(e.loc, g.name + ": not the loader's arguments (m0, m1, m2, p, n, pad01)");
      const Val &p = args[3];
      const z3::expr n = argInt(args, 4, e.loc, g.name), pad01 = argInt(args, 5, e.loc, g.name);
      const uint64_t want = macKind == MacKind::Poly ? 1 : 0;
      macClaim(pad01 == bv(want), e.loc,
               g.name + " pads the wrong way: " + (want ? "Poly1305 appends 0x01 after a short block (RFC 8439 2.5.1), pad01 = 1"
                                                          : "the AEAD zero-pads to 16 bytes and adds 2^128 (2.8), pad01 = 0"),
               {{"pad01", pad01}});
      if (!p.ptr) fail(e.loc, g.name + ": its source is not a pointer into a known buffer");
      std::optional<z3::expr> m = msgAt(p.base, *p.e);
      if (!m) fail(e.loc, "the MAC loads a partial block from " + p.base + ", which is not part of the message");
      const z3::expr cur = cursor();
      macClaim(*m == cur, e.loc, g.name + " loads from message byte m, not the next one (the cursor): a piece skipped, absorbed twice or out of order",
               {{"m", *m}, {"cursor", cur}, {"n", n}});
      const unsigned L = lanesOf(g, 0);
      macClaim(z3::ule(n, bv(16 * L)), e.loc, g.name + " is handed n bytes, more than its " + std::to_string(16 * L) + " (one block per lane)", {{"n", n}});
      macClaim(*p.e + n == segEnd(p.base), e.loc,
               g.name + " is handed n bytes that do not end where its piece of the message ends (" + (p.base == "aad" ? "aad_len" : "the text's end") +
                   "): the last bytes of a partial block would not be MACed, or bytes past it would",
               {{"offset", *p.e}, {"n", n}});
      const z3::expr end = cur + (macKind == MacKind::Poly ? n : padded(n));
      setCursor(end);
      env[pendingVar] = intV(trunc(pending() + bv(1), 8));
      for (size_t k = 0; k < 3; ++k) {
        const int v = refOut(k);
        if (v < 0) fail(e.loc, g.name + ": its limbs go to something that is not a variable");
        Val r;
        r.macAt = *m;
        r.macBlocks = z3::lshr(n + bv(15), bv(4));
        r.macEnd = end;
        env[v] = r;
      }
      return true;
    }
    auto blocksOf = [&](size_t k) { return k < args.size() && args[k].macBlocks ? *args[k].macBlocks : none(); };
    auto atOf = [&](size_t k) { return k < args.size() && args[k].macAt ? *args[k].macAt : none(); };
    auto vecOuts = [&](size_t n) {
      for (size_t k = 0; k < n; ++k)
        if (int v = refOut(k); v >= 0) env[v] = Val{};
    };
    if (role == "ifma.step_partial") {
      // (h0, h1, h2, m0, m1, m2, nblocks, keys...): absorbs the piece the loader just made.
      const z3::expr nb = argInt(args, 6, e.loc, g.name), b = blocksOf(3);
      const z3::expr end = 3 < args.size() && args[3].macEnd ? *args[3].macEnd : none();
      const unsigned L = lanesOf(g, 3);
      macClaim(nb == b && z3::uge(nb, bv(1)) && z3::ule(nb, bv(L)) && end == cursor() && atOf(4) == atOf(3) && atOf(5) == atOf(3), e.loc,
               g.name + " is handed nblocks blocks of limbs that the loader made with `blocks` blocks (1 to " + std::to_string(L) +
                   "), or not all three limbs of the piece loaded last",
               {{"nblocks", nb}, {"blocks", b}});
      macClaim(pending() == bv(1), e.loc, g.name + " absorbs a piece already absorbed, or with another loaded piece waiting", {{"pending", pending()}});
      macClaim(unsettled() == bv(0), e.loc, g.name + " steps while the 8-lane loops' groups wait for their ifma.settle (h would not be carried)", {});
      env[pendingVar] = intV(bv(0));
      vecOuts(3);
      return true;
    }
    if (role == "ifma.lengths" || role == "ifma.short_step") {
      if (macKind != MacKind::Aead) fail(e.loc, g.name + ": an AEAD length block in a kernel whose message has none");
      const z3::expr aadLen = c.bv_const("aad_len", 64), len = c.bv_const("len", 64);
      const size_t ia = role == "ifma.lengths" ? 3 : 11;  // (h0..h2, aad_len, len, ...) / (h0..h2, a0..a2, c0..c2, na, nc, aad_len, len, ...)
      const z3::expr a = argInt(args, ia, e.loc, g.name), l = argInt(args, ia + 1, e.loc, g.name);
      macClaim(a == aadLen && l == len, e.loc, g.name + " is not handed the kernel's own aad_len and len, in that order (RFC 8439 2.8: le64(aad_len) || le64(len))",
               {{"its aad_len", a}, {"its len", l}});
      if (role == "ifma.short_step") {
        const z3::expr na = argInt(args, 9, e.loc, g.name), nc = argInt(args, 10, e.loc, g.name);
        const unsigned L = lanesOf(g, 3);
        macClaim(atOf(3) == bv(0) && atOf(4) == bv(0) && atOf(5) == bv(0) && na == blocksOf(3) && atOf(6) == padded(aadLen) &&
                     atOf(7) == padded(aadLen) && atOf(8) == padded(aadLen) && nc == blocksOf(6),
                 e.loc,
                 g.name + " is not handed the AAD's three limbs (message byte 0) with their block count na and the ciphertext's (at the end of the padded AAD) with nc",
                 {{"na", na}, {"nc", nc}});
        macClaim(z3::ule(na + nc + bv(1), bv(L)), e.loc, g.name + " is handed na + nc + 1 blocks (AAD, ciphertext, lengths), more than its " + std::to_string(L) + " lanes",
                 {{"na", na}, {"nc", nc}});
        macClaim(pending() == bv(2), e.loc, g.name + " absorbs pieces already absorbed, or not exactly the two loaded (the AAD and the ciphertext)", {{"pending", pending()}});
        macClaim(unsettled() == bv(0), e.loc, g.name + " steps while the 8-lane loops' groups wait for their ifma.settle", {});
        env[pendingVar] = intV(bv(0));
      } else {
        macQuiet(e.loc, g.name + " absorbs the length block");
      }
      const z3::expr cur = cursor();
      macClaim(cur == padded(aadLen) + padded(len), e.loc, g.name + " absorbs the length block at message byte cursor, not at the end of the padded AAD and ciphertext",
               {{"cursor", cur}});
      setCursor(cur + bv(16));
      vecOuts(3);
      return true;
    }
    if (role == "ifma.settle") {
      // (h0, h1, h2, acc0, ...): the groups the lanes hold are summed into h.
      env[unsettledVar] = intV(bv(0));
      vecOuts(3);
      return true;
    }
    if (role == "poly1305.final" || role == "ifma.state_store") {
      const bool store = role == "ifma.state_store";
      if (store != macStores())
        fail(e.loc, std::string("the kernel ") + (store ? "stores h in a streaming state" : "makes a tag") + ", which its ABI does not");
      macEnded = true;
      macQuiet(e.loc, g.name + (store ? " stores h" : " makes the tag"));
      const z3::expr cur = cursor();
      macClaim(cur == msgEnd(), e.loc,
               g.name + (store ? " stores h" : " makes the tag") + " when the MAC has absorbed cursor message bytes, not the whole message (end)",
               {{"cursor", cur}, {"end", msgEnd()}});
      return true;
    }
    return false;
  }

  // ---- the `keystream` pass (ks = true): which keystream byte each text byte gets ----
  // Byte q of the output text buffer must be byte q of the input text buffer XOR byte q % 64 of
  // the keystream block base + q / 64 (RFC 8439 2.4, 2.8: base 1 for the AEAD, the kernel's
  // counter for streaming and ChaCha20 entries), with the kernel's own key and nonce. Input
  // bytes are an uninterpreted function in(q), keystream bytes ks(block, byte); a proved
  // keystream helper (chacha20.block, its chacha-block obligation) fills a local array with
  // ks(counter + b, .) for its blocks b, or xors its blocks into the text at out + o, which must
  // be in + o with o a multiple of 64 and the counter base + o / 64. One-shot AEAD kernels also
  // take their one-time key from block 0: the clamp reads bytes 0..15 of it and the final
  // reduction adds s = bytes 16..31 (RFC 8439 2.6).
  bool ks = false;
  std::string outBuf, inBuf;          // the text buffers (parameter names)
  std::optional<z3::expr> baseCtr;    // bv32
  bool oneTimeKey = false;
  struct Fill {
    z3::expr ctr, off, bytes;  // byte q in [off, off + bytes): ks(ctr + (q - off) / 64, (q - off) % 64)
  };
  std::map<std::string, Fill> fills;  // local array -> its keystream
  std::optional<z3::func_decl> inByte, ksByte;

  // ---- the `out-coverage` pass (cov = true): every byte of the output text is written, and
  // every read of it (a seal's MAC of its ciphertext) comes after the write ----
  // On every path to a return of the kernel, each byte q < len of its output text (ct for seal,
  // pt for open, out for ChaCha20) has been stored. `written` is a Boolean in the free offset
  // covQ: which bytes of covBuf the path has stored so far (an under-approximation). A store grows
  // it by its bytes (a masked one by the elements of its mask's set bits; a proved
  // chacha20.block helper by the 64 bytes of each block it xors into the buffer: its
  // chacha-block obligation proves it writes every one). Branches join it under their condition;
  // a loop keeps, at its head, what came before it and the bytes [E(entry), E(head)) for each
  // candidate E that one iteration extends to [E(entry), E(next)): E is where a store of the
  // body starts, read at the head (a chunk's `1024 i`, a moved `out`'s offset, `off + i`), and
  // the candidates are filtered Houdini-style as the loop's other facts are.
  // In place (the kernel ABI lets the output text be the input text exactly), a byte of the
  // input must be read before the output's byte at the same offset is written: `mayW` is an
  // over-approximation of the output bytes written so far (stores as above; at a loop head what
  // came before and the kept candidates' ranges, when one iteration is proved to write nothing
  // outside them, else everything), and every read of the input text is of bytes outside it.
  bool cov = false;
  std::string covBuf, covIn;
  std::optional<z3::expr> covQ, written, mayW;
  struct CovState {
    std::optional<z3::expr> under, over;
  };
  CovState covState() const { return {written, mayW}; }
  void setCov(const CovState &st) {
    written = st.under;
    mayW = st.over;
  }
  bool covChunks = false;            // a streaming entry: its text is the whole 64-byte chunks of len
  bool covQuery = false;             // a claim about `written` (Z3's qfbv strategy: faster on these)
  bool covCollect = false;           // a loop's candidate round: the stores' start offsets are kept
  std::vector<z3::expr> covStarts;
  // The bytes q of an access at p: `bytes` from p, or (masked) the elements of k's set bits.
  z3::expr covBytes(const Val &p, const z3::expr &bytes) { return z3::ult(*covQ - *p.e, bytes); }
  z3::expr covMasked(const Val &p, const Val &k, unsigned elem) {
    const z3::expr d = *covQ - *p.e;
    if (k.lowBits) return z3::ult(d, *k.lowBits * bv(elem));
    return z3::ult(d, bv(64ull * elem)) && (z3::lshr(*k.e, z3::udiv(d, bv(elem))) & bv(1)) == bv(1);
  }
  bool onCov(const Val &p) const { return cov && p.ptr && p.base == covBuf && p.e; }
  bool onIn(const Val &p) const { return cov && !covIn.empty() && p.ptr && p.base == covIn && p.e; }
  void covWrite(const Val &p, const z3::expr &in) {
    written = *written || in;
    mayW = *mayW || in;
    if (covCollect) covStarts.push_back(p.e->simplify());
  }
  // A claim about `written` or `mayW`, deferred like the others (batched on one path) and asked
  // with Z3's qfbv strategy; the failure names a q and the lengths.
  void covClaim(const z3::expr &claim, SrcLoc l, const std::string &msg) {
    if (!checking) return;
    defer(
        claim,
        [this, claim, l, msg] {
          covQuery = true;
          const std::optional<z3::model> m = refuting(claim);
          covQuery = false;
          fail(l, msg + (m ? covExample(*m) : std::string()));
        },
        true);
  }
  // A read of the output text (a seal's MAC of its ciphertext): only of bytes this path has
  // already written (RFC 8439 2.8 MACs the ciphertext, not what the buffer held before).
  void covRead(const z3::expr &in, SrcLoc l, const std::string &what) {
    covClaim(z3::implies(in, *written), l,
             what + " reads byte q of " + covBuf + " before the kernel has written it (the MAC must absorb the ciphertext after the keystream is xored in)");
  }
  // A read of the input text: only of bytes whose output byte is not yet written (in place, the
  // read would find the kernel's own output there).
  void inRead(const z3::expr &in, SrcLoc l, const std::string &what) {
    covClaim(z3::implies(in, !*mayW), l,
             what + " reads byte q of " + covIn + " after the kernel may have written byte q of " + covBuf + ": in place (" + covBuf + " == " + covIn +
                 ", which the kernel ABI allows) it would read its own output");
  }
  // "; e.g. q = 5, len = 7, ...": the offset, then the model's parameters. (A byte the walk could
  // not show written: where a loop's candidate range was dropped it may be one the kernel writes.)
  std::string covExample(const z3::model &m) {
    std::string ex = "; e.g. q = " + valueIn(m, *covQ);
    const std::string rest = inputsIn(m, 16);
    for (size_t a = 0; a < rest.size();) {  // (q already shown)
      size_t b = rest.find(", ", a + 2);
      if (b == std::string::npos) b = rest.size();
      if (rest.compare(a, 6, ", q = ") != 0) ex += rest.substr(a, b - a);
      a = b;
    }
    return ex;
  }
  // A return of the kernel (or the end of its body): every byte below len stored on this path.
  void covEnd(SrcLoc l) {
    if (!cov || !checking) return;
    const z3::expr q = *covQ, len = c.bv_const("len", 64);
    const z3::expr end = covChunks ? len - (len & bv(63)) : len;
    covClaim(z3::implies(z3::ult(q, end), *written), l,
             "the kernel may return with byte q of " + covBuf + (covChunks ? " (q < len - len % 64)" : " (q < len)") + " never written: its output text has a hole");
  }
  // Whether a statement may store into memory: a store intrinsic, an assignment to memory or a
  // call of a helper that touches memory (a loop without one leaves `written` as it was).
  bool mayStore(const Stmt &st) {
    return anyExpr(st, [&](const Expr &x) {
      return (x.kind == Expr::Intrin && (x.name.find("store") != std::string::npos || x.name.find("scatter") != std::string::npos ||
                                         x.name.find("stream") != std::string::npos || x.name.find("maskmov") != std::string::npos ||
                                         isRvvStore(x.name))) ||
             ((x.kind == Expr::Assign || x.kind == Expr::IncDec) && x.args[0]->kind != Expr::Var) ||
             (x.kind == Expr::Call && x.fn >= 0 && touchesMemory(x.fn));
    });
  }
  // Whether `pred` holds for an expression anywhere under a statement (its own expressions and
  // those of the statements inside it; calls are not followed).
  template <class P> bool anyExpr(const Stmt &st, P &&pred) {
    bool any = false;
    std::function<void(const Expr &)> ex = [&](const Expr &x) {
      if (any) return;
      if (pred(x)) {
        any = true;
        return;
      }
      for (const auto &a : x.args)
        if (a) ex(*a);
    };
    std::function<void(const Stmt &)> walkS = [&](const Stmt &t) {
      if (any) return;
      for (const ExprP *q : {&t.e, &t.inc})
        if (*q) ex(**q);
      forEachChild(t, walkS);
    };
    walkS(st);
    return any;
  }

  z3::expr bv(uint64_t v) { return c.bv_val(v, 64); }
  z3::expr unknown(const std::string &n) { return c.bv_const((n + "#" + std::to_string(fresh++)).c_str(), 64); }
  // Inlined helpers being walked (name, call site): a failure inside one names the kernel line.
  std::vector<std::pair<std::string, SrcLoc>> sites;
  [[noreturn]] void fail(SrcLoc l, const std::string &m) {
    settle();  // a deferred claim before this point that fails is the failure to report
    if (sites.empty()) throw Failure{m, l};
    throw Failure{m + " (in " + sites.front().first + ", inlined at line " + std::to_string(sites.front().second.line) + ")", l};
  }

  // Claims whose answer changes nothing on the walk (a memory access in bounds, a stored byte's
  // keystream) are deferred with the path they were made on, and asked a run of them at a time:
  // consecutive claims on one path go into one query (holdsEach), which is most of them, since a
  // block of straight-line code makes many. The first one (in walk order) that does not hold is
  // the failure: `refute` reports it with the path and inlining context of its claim.
  struct Deferred {
    std::vector<z3::expr> path;
    std::vector<std::pair<std::string, SrcLoc>> sites;
    z3::expr claim;
    std::function<void()> refute;  // throws (through fail)
    bool cov = false;              // an out-coverage claim (asked with covQuery)
  };
  std::vector<Deferred> deferred;
  void defer(const z3::expr &claim, std::function<void()> refute, bool covClaim = false) {
    deferred.push_back(Deferred{path, sites, claim, std::move(refute), covClaim});
    if (deferred.size() >= 256) settle();
  }
  void settle() {
    if (deferred.empty()) return;
    std::vector<Deferred> ds = std::move(deferred);
    deferred.clear();
    const std::vector<z3::expr> now = path;
    const auto nowSites = sites;
    auto samePath = [](const std::vector<z3::expr> &a, const std::vector<z3::expr> &b) {
      if (a.size() != b.size()) return false;
      for (size_t i = 0; i < a.size(); ++i)
        if (!z3::eq(a[i], b[i])) return false;
      return true;
    };
    for (size_t i = 0; i < ds.size();) {
      size_t j = i + 1;
      while (j < ds.size() && ds[j].cov == ds[i].cov && samePath(ds[i].path, ds[j].path)) ++j;
      path = ds[i].path;
      std::vector<z3::expr> claims;
      for (size_t k = i; k < j; ++k) claims.push_back(ds[k].claim);
      covQuery = ds[i].cov;
      const std::vector<bool> ok = holdsEach(claims);
      covQuery = false;
      for (size_t k = i; k < j; ++k)
        if (!ok[k - i]) {
          sites = ds[k].sites;
          ds[k].refute();
        }
      i = j;
    }
    path = now;
    sites = nowSites;
  }

  // A parameter's value at entry: a pointer or array is a buffer named after it at offset 0 (of its
  // declared size, T p[N], where it has one: then true); an integer is a free value of its width.
  bool bindParam(int pv) {
    const Var &v = F.vars[(size_t)pv];
    if (v.ty.kind == Type::Ptr || v.ty.kind == Type::Array) {
      Val p;
      p.ptr = true;
      p.base = v.name;
      p.e = bv(0);
      p.elem = v.ty.bits >= 8 ? v.ty.bits / 8 : 1;
      env[pv] = p;
      const uint64_t n = v.ty.kind == Type::Array ? v.ty.count : v.paramCount;
      if (n != 0) bound.emplace(v.name, bv(n * p.elem));
      return n != 0;
    }
    if (v.ty.kind == Type::Int) {
      Val x;
      x.e = c.bv_const(v.name.c_str(), 64);
      if (v.ty.bits < 64) path.push_back(z3::ult(*x.e, bv(1ull << v.ty.bits)));
      env[pv] = x;
    }
    return false;
  }

  void bindParams() {
    for (int pv : K.params) bindParam(pv);
    // The kernel ABI (emitted/README.md): a pointer parameter without a declared size is a text
    // or message buffer of len bytes, except the AAD (aad_len bytes).
    for (int pv : K.params) {
      const Var &v = F.vars[(size_t)pv];
      if (v.ty.kind != Type::Ptr || bound.count(v.name)) continue;
      if (v.name == "aad") {
        if (hasParam("aad_len")) bound.emplace(v.name, c.bv_const("aad_len", 64));
      } else if (hasParam("len")) {
        bound.emplace(v.name, c.bv_const("len", 64));
      }
    }
    // len <= 2^38 - 64 (checked by the caller); aad_len < 2^61 keeps its byte counts from wrapping.
    if (hasParam("len")) path.push_back(z3::ule(c.bv_const("len", 64), bv((1ull << 38) - 64)));
    if (hasParam("aad_len")) path.push_back(z3::ult(c.bv_const("aad_len", 64), bv(1ull << 61)));
  }
  // A contracted helper walked on its own (kernel-bytes of the mul64 dialect): its parameters are
  // buffers of the footprint its callers are held to (callWith): T p[N] its declared bytes; a
  // chacha20.block's out (and in, with "xor") 64 bytes per block; its woven MAC's message the
  // contract's block_bytes, or 16 per block of its block-count parameter; a partial load's source
  // its length parameter, at most max_len. Any other pointer parameter has no footprint.
  void bindHelperParams() {
    const Contract gc = contractOf(K);
    const nlohmann::json j = nlohmann::json::parse(K.contract, nullptr, false);
    std::vector<int> unsized;  // pointer parameters without a declared size
    for (int pv : K.params)
      if (!bindParam(pv) && F.vars[(size_t)pv].ty.kind == Type::Ptr) unsized.push_back(pv);
    auto intParam = [&](const std::string &name) -> std::optional<z3::expr> {
      for (int pv : K.params)
        if (F.vars[(size_t)pv].name == name && F.vars[(size_t)pv].ty.kind == Type::Int && !F.vars[(size_t)pv].isRef) return *env.at(pv).e;
      return std::nullopt;
    };
    for (int pv : unsized) {
      const Var &v = F.vars[(size_t)pv];
      std::optional<z3::expr> bytes;
      if (gc.role == "chacha20.block" && j.is_object()) {
        const bool fixed = j.value("blocks", nlohmann::json()).is_number_unsigned();
        const bool keystream = v.name == j.value("out", "out") || (j.value("xor", false) && v.name == j.value("in", "in"));
        if (fixed && keystream) bytes = bv(64 * j["blocks"].get<uint64_t>());
        // "blocks": "vl": its callers are held to 64 vl bytes for every vl up to the block count
        // they ask for (call: vl <= the count, otherwise unknown), so to 64 times that count.
        if (!fixed && j.value("blocks", nlohmann::json()) == "vl" && keystream) {
          const int k = blockCountParam(K);
          if (k < 0) throw Failure{K.name + ": a \"blocks\": \"vl\" helper with no block-count (size_t) parameter", K.loc};
          const z3::expr n = *env.at(K.params[(size_t)k]).e;
          path.push_back(z3::ule(n, bv(maxCount(64))));  // (countClaim at every call)
          bytes = n * bv(64);
        }
        if (j.contains("mac") && j["mac"].is_object() && v.name == j["mac"].value("msg", "")) {
          if (bytes) throw Failure{K.name + ": its MAC's message is its keystream's " + v.name + " parameter: two footprints for one buffer", K.loc};
          const nlohmann::json &m = j["mac"];
          if (m.contains("block_bytes") && m["block_bytes"].is_number_unsigned()) bytes = bv(m["block_bytes"].get<uint64_t>());
          else if (auto nb = intParam(m.value("blocks", ""))) {
            path.push_back(z3::ule(*nb, bv(maxCount(16))));  // (countClaim at every call)
            bytes = *nb * bv(16);
          }
        }
      } else if (gc.role == "bytes.load_partial" && v.name == gc.src) {
        if (auto len = intParam(gc.len)) {
          bytes = *len;
          path.push_back(z3::ule(*len, bv(gc.maxLen)));
        }
      }
      if (!bytes) throw Failure{"the " + v.name + " parameter of " + K.name + ": a pointer parameter whose footprint its contract does not give", K.loc};
      bound.emplace(v.name, *bytes);
    }
  }

  // A block count handed to a proved helper whose footprint it scales (`unit` bytes a block: 64
  // for a keystream, 16 for a MAC) is at most (2^64 - 1) / unit, so that the footprint does not
  // wrap: claimed at the call, assumed in the helper's own walk (bindHelperParams).
  static uint64_t maxCount(uint64_t unit) { return ~0ull / unit; }
  void countClaim(const z3::expr &n, uint64_t unit, SrcLoc l, const std::string &what) {
    if (!boundsPass()) return;
    defer(z3::ule(n, bv(maxCount(unit))), [this, l, what, unit] {
      fail(l, what + " may exceed (2^64 - 1) / " + std::to_string(unit) + " (its footprint would wrap)");
    });
  }

  // The block count a "blocks": "vl" helper is asked for: its first size_t parameter (by value).
  int blockCountParam(const Function &g) const {
    for (size_t k = 0; k < g.params.size(); ++k) {
      const Var &pv = F.vars[(size_t)g.params[k]];
      if (pv.ty.kind == Type::Int && pv.ty.bits == 64 && !pv.isRef && pv.ty.spelling.find("size_t") != std::string::npos) return (int)k;
    }
    return -1;
  }

  bool hasParam(const std::string &n) const {
    for (int pv : K.params)
      if (F.vars[(size_t)pv].name == n) return true;
    return false;
  }

  // Models of this walk's satisfiable queries, the last used first (a counterexample cache, as in
  // KLEE): where one of them, completed, makes every path fact and the negated claim true, it is
  // a model of the query, so the answer is sat without asking Z3. A sat answer proves nothing (the
  // claims false in the model are false on the path: they are not proved, and a Houdini round
  // drops them), so the cache can only spare queries, never prove a claim. Most satisfiable
  // queries are a loop candidate's or a branch's on a path an earlier model fits (the avx512
  // file: 1426 of its 1986 sat answers, 19 s of its 120 s of walk queries).
  std::vector<z3::model> models;
  std::optional<z3::model> modelOf(const z3::expr &neg) {
    for (size_t i = 0; i < models.size(); ++i) {
      z3::model &m = models[i];
      if (!m.eval(neg, true).is_true()) continue;
      bool all = true;
      for (const auto &h : path)
        if (!m.eval(h, true).is_true()) {
          all = false;
          break;
        }
      if (!all) continue;
      std::rotate(models.begin(), models.begin() + (long)i, models.begin() + (long)i + 1);
      return models.front();
    }
    return std::nullopt;
  }
  // Whether `neg` can hold on this path: sat with its model in `m` (a kept one where it fits,
  // else Z3's, then kept), unsat, or unknown.
  z3::check_result satOnPath(const z3::expr &neg, std::optional<z3::model> &m) {
    if ((m = modelOf(neg))) return z3::sat;
    z3::solver s = solverOnPath();
    s.add(neg);
    const z3::check_result r = answers::checkCached(s);
    if (r == z3::sat) {
      m = s.get_model();
      models.insert(models.begin(), *m);
      if (models.size() > 16) models.pop_back();
    }
    return r;
  }
  bool holds(const z3::expr &claim) {
    ++checks;
    z3::expr neg = (!claim).simplify();
    if (neg.is_false()) return true;
    std::optional<z3::model> m;
    return satOnPath(neg, m) == z3::unsat;
  }
  // A solver holding this path's facts (60 s per query).
  z3::solver solverOnPath() {
    // IFMA dialect: simplify, solve the equalities away and bit-blast (the walk's facts are
    // bit-vector equalities and comparisons: 2-5x faster here than the default QF_BV strategy).
    // out-coverage's claims (a `written`/`mayW` disjunction over a free offset): Z3's qfbv
    // strategy; in the IFMA dialect, whose queries are fastest under one strategy or the other
    // (2 s against 12 s either way round), the bit-blast pipeline for up to 8 s first.
    // The mul64 dialect's other claims (uninterpreted in/ks bytes beside the bit-vectors): the
    // same preprocessing, then Z3's qfufbv (on the avx2 file's slowest keystream queries, 5.3 s
    // against the default solver's 8.7 s; its kernel-bytes queries about level).
    // The limits are wall-clock time, so they are generous: these queries take up to ~3 s on an
    // idle core, and one that times out drops a fact (a loop's candidate range, a branch's
    // feasibility), which fails a kernel that proves. On a loaded machine (a CI build beside the
    // proof gates) 4 s for the pipeline and 10 s a query were too short: an out-coverage failure
    // of the open kernel, which proved alone in 8 s.
    auto pre = [&] {
      return z3::tactic(c, "simplify") & z3::tactic(c, "propagate-values") & z3::tactic(c, "solve-eqs") & z3::tactic(c, "simplify");
    };
    auto blast = [&] { return pre() & z3::tactic(c, "bit-blast") & z3::tactic(c, "sat"); };
    z3::solver s = covQuery ? (ifma ? z3::try_for(blast(), 8000) | z3::tactic(c, "qfbv") : z3::tactic(c, "qfbv")).mk_solver()
                   : ifma   ? blast().mk_solver()
                            : (pre() & z3::tactic(c, "qfufbv")).mk_solver();
    z3::params p(c);
    p.set("timeout", 60000u);
    s.set(p);
    for (auto &h : path) s.add(h);
    return s;
  }

  // A model of this path where `claim` fails (std::nullopt: none found), and a value in it as a
  // decimal numeral: what a failure's counterexample is made of.
  std::optional<z3::model> refuting(const z3::expr &claim) {
    z3::solver so = solverOnPath();
    so.add(!claim);
    if (so.check() != z3::sat) return std::nullopt;
    return so.get_model();
  }
  static std::string valueIn(const z3::model &m, const z3::expr &x) {
    z3::expr y = m.eval(x, true).simplify();
    return y.is_numeral() ? std::to_string(y.get_numeral_uint64()) : y.to_string();
  }
  // The model's own bit-vector constants (the kernel's parameters; not the walk's fresh ones,
  // whose names hold '#'), as ", n = v", at most `most`. A name with '@' (a variable's fresh value
  // at a loop) is left out, or with `atNames` shown by its variable's name.
  static std::string inputsIn(const z3::model &m, unsigned most, bool atNames = false) {
    std::string ex;
    for (unsigned k = 0; k < m.num_consts() && k < most; ++k) {
      z3::func_decl d = m.get_const_decl(k);
      const std::string n = d.name().str();
      if (!d.range().is_bv() || n.find('#') != std::string::npos || (!atNames && n.find('@') != std::string::npos)) continue;
      ex += ", " + n.substr(0, n.find('@')) + " = " + valueIn(m, m.get_const_interp(d));
    }
    return ex;
  }

  // Which of `claims` hold on this path, with as few queries as the answers allow (Houdini's
  // filter): the conjunction of those still in is asked at once; a model of its negation refutes
  // every claim false in it, and the rest are asked again. What comes back proved is exactly what
  // holds one claim at a time (a claim is kept only inside a proved conjunction, dropped only
  // where a model of the path falsifies it); an answer other than sat or unsat asks the claims
  // left one at a time.
  std::vector<bool> holdsEach(const std::vector<z3::expr> &claims) {
    std::vector<bool> ok(claims.size(), false);
    std::vector<size_t> left;
    for (size_t i = 0; i < claims.size(); ++i) {
      if (claims[i].simplify().is_true()) ok[i] = true;
      else left.push_back(i);
    }
    while (!left.empty()) {
      if (left.size() == 1) {
        ok[left[0]] = holds(claims[left[0]]);
        break;
      }
      ++checks;
      z3::expr_vector all(c);
      for (size_t i : left) all.push_back(claims[i]);
      std::optional<z3::model> m;
      const z3::check_result r = satOnPath(!z3::mk_and(all), m);
      if (r == z3::unsat) {
        for (size_t i : left) ok[i] = true;
        break;
      }
      std::vector<size_t> next;
      if (r == z3::sat) {
        for (size_t i : left)
          if (!m->eval(claims[i], true).is_false()) next.push_back(i);
      }
      if (r != z3::sat || next.size() == left.size()) {
        for (size_t i : next.empty() ? left : next) ok[i] = holds(claims[i]);
        break;
      }
      left = std::move(next);
    }
    return ok;
  }

  // Whether this walk checks bounds: kernel-bytes, outside a loop's fact-finding iterations (the
  // other passes leave bounds to kernel-bytes).
  bool boundsPass() const { return checking && !ks && !mac && !cov; }

  // [off, off + n) inside buffer base.
  // (`when`: only where it holds, e.g. an RVV access of vl >= 1 elements.)
  void access(const Val &p, const z3::expr &n, SrcLoc l, const std::string &what, const std::optional<z3::expr> &when = std::nullopt) {
    if (!boundsPass()) return;
    if (!p.ptr) fail(l, what + " through a value that is not a pointer into a known buffer");
    auto b = bound.find(p.base);
    if (b == bound.end()) fail(l, what + " through '" + p.base + "', a buffer of unknown size");
    const z3::expr off = *p.e, end = *p.e + n, size = b->second;
    const z3::expr inside = z3::ule(end, size) && z3::ule(off, end);
    const z3::expr claim = when ? z3::implies(*when, inside) : inside;
    defer(claim, [this, base = p.base, what, l, off, n, size, claim] {
      // A local array "@name#k" by its name; sizes in bytes.
      std::string name = base[0] == '@' ? base.substr(1, base.find('#') - 1) : base;
      auto num = [](const z3::expr &x) {
        z3::expr y = x.simplify();
        return y.is_numeral() ? std::to_string(y.get_numeral_uint64()) : y.to_string();
      };
      const bool sized = size.simplify().is_numeral();
      const std::string head = what + " may leave " + name + " (" + num(size) + (sized ? " bytes" : "") + ")";
      // Symbolic sizes and offsets: their values in a model of the failure, and the inputs there.
      if (!(sized && off.simplify().is_numeral() && n.simplify().is_numeral()))
        if (std::optional<z3::model> m = refuting(claim))
          fail(l, head + ": e.g. bytes [" + valueIn(*m, off) + ", +" + valueIn(*m, n) + ") of " + valueIn(*m, size) + inputsIn(*m, 10));
      fail(l, head + ": bytes [" + num(off) + ", +" + num(n) + ")");
    });
  }

  // An integer added to a pointer or used as an index: a signed one narrower than 64 bits is
  // sign-extended (C converts it to ptrdiff_t) in the IFMA dialect.
  z3::expr offsetOf(const Expr &x, const Val &v, SrcLoc l) {
    z3::expr i = asInt(v, l);
    if (x.ty.kind == Type::Int && x.ty.isSigned && x.ty.bits >= 8 && x.ty.bits < 64) return z3::sext(i.extract(x.ty.bits - 1, 0), 64 - x.ty.bits);
    return i;
  }
  z3::expr asInt(const Val &v, SrcLoc l) {
    if (v.ptr) return c.bv_const(("&" + v.base).c_str(), 64) + *v.e;
    if (!v.e) fail(l, "a value with no integer meaning");
    return *v.e;
  }
  Val intV(const z3::expr &e) {
    Val v;
    v.e = e;
    return v;
  }
  // An integer value converted to `bits` bits (a mask's low-bits count capped there).
  Val truncV(const Val &x, unsigned bits) {
    Val r = intV(trunc(*x.e, bits));
    if (x.lowBits) r.lowBits = bits >= 64 ? *x.lowBits : z3::ite(z3::ult(*x.lowBits, bv(bits)), *x.lowBits, bv(bits));
    return r;
  }
  z3::expr trunc(const z3::expr &e, unsigned bits) { return bits >= 64 ? e : e & bv((1ull << bits) - 1); }
  z3::expr b2i(const z3::expr &b) { return z3::ite(b, bv(1), bv(0)); }

  // The place an lvalue names: a variable, or memory (pointer + element size).
  Val addrOf(const Expr &e) {
    if (e.kind == Expr::Index) {
      Val p = eval(*e.args[0]);
      z3::expr i = offsetOf(*e.args[1], eval(*e.args[1]), e.loc);
      if (!p.ptr) fail(e.loc, "an index into a value that is not a pointer");
      Val r = p;
      r.e = *p.e + i * bv(p.elem);
      return r;
    }
    if (e.kind == Expr::Deref) return eval(*e.args[0]);
    fail(e.loc, "an lvalue outside the kernel-bytes dialect");
  }
  unsigned bytesOf(const Type &t) { return t.bits >= 8 ? t.bits / 8 : 1; }

  void assignVar(int var, const Val &v) { env[var] = v; }

  z3::expr trunc32(const z3::expr &e) { return e.extract(31, 0); }
  // Keystream byte `byte` (bv64, < 64) of block `block` (bv32), and input byte q.
  z3::expr ksAt(const z3::expr &block, const z3::expr &byte) { return (*ksByte)(block, byte); }
  // What the text byte at offset q must be: in(q) XOR ks(base + q / 64, q % 64).
  z3::expr wantAt(const z3::expr &q) { return (*inByte)(q) ^ ksAt(*baseCtr + trunc32(z3::lshr(q, bv(6))), q & bv(63)); }

  // The value of the byte a read finds, where the pass knows it: the input text, or a local
  // array a keystream helper filled.
  std::optional<z3::expr> byteAt(const Val &p) {
    if (!p.ptr) return std::nullopt;
    if (p.base == inBuf) return (*inByte)(*p.e);
    auto f = fills.find(p.base);
    if (f == fills.end()) return std::nullopt;
    const z3::expr q = *p.e - f->second.off;
    if (!holds(z3::uge(*p.e, f->second.off) && z3::ult(q, f->second.bytes))) return std::nullopt;
    return ksAt(f->second.ctr + trunc32(z3::lshr(q, bv(6))), q & bv(63));
  }

  void storeCheck(const Val &p, unsigned n, const Val &v, SrcLoc l) {
    if (!p.ptr) return;
    if (p.base != outBuf) {
      fills.erase(p.base);  // a local array written: its keystream is gone
      return;
    }
    if (!checking) return;
    if (n != 1) fail(l, "a " + std::to_string(n) + "-byte store into " + outBuf + " (the keystream check follows byte stores)");
    if (!v.e || v.ptr) fail(l, "a value with no known meaning stored into " + outBuf);
    const z3::expr q = *p.e;
    const z3::expr claim = v.e->extract(7, 0) == wantAt(q);
    defer(claim, [this, q, claim, l] {
      // A counterexample: the offset and the path's variables, from a model of the negation.
      std::string ex;
      if (std::optional<z3::model> m = refuting(claim)) {
        ex = "; e.g. q = " + valueIn(*m, q) + " (block " + valueIn(*m, *baseCtr + trunc32(z3::lshr(q, bv(6)))) + ", byte " +
             valueIn(*m, q & bv(63)) + ")" + inputsIn(*m, 12, /*atNames=*/true);
      }
      fail(l, "the byte stored into " + outBuf + " at offset q may not be " + inBuf + "[q] XOR byte q % 64 of keystream block " +
                  ctrName() +
                  " + q / 64 (RFC 8439 2.4: the wrong block counter or keystream byte)" + ex);
    });
  }

  // A call of a helper with a contract, in the keystream pass.
  void keystreamCall(const Expr &e, const Function &g, const Contract &gc, const nlohmann::json &j, const std::vector<Val> &args,
                     const std::function<const Val *(const std::string &)> &argOf) {
    const bool block = gc.role == "chacha20.block" && j.is_object();
    const bool xorIn = block && j.value("xor", false);
    const std::string outP = block ? j.value("out", "out") : "";
    // A pointer to non-const handed to a helper: the text output only as a keystream xor's output;
    // a local array loses what the pass knew of it.
    for (size_t k = 0; k < g.params.size() && k < args.size(); ++k) {
      const Var &pv = F.vars[(size_t)g.params[k]];
      if (pv.isRef && k < e.args.size() && e.args[k] && e.args[k]->kind != Expr::Var)
        fail(e.loc, g.name + " takes a reference (" + pv.name + ") into memory: a write the keystream check would not see");
      if (pv.ty.kind != Type::Ptr || pv.ty.pointeeConst || !args[k].ptr) continue;
      if (args[k].base == outBuf && !(xorIn && pv.name == outP))
        fail(e.loc, outBuf + " handed to " + g.name + " (" + pv.name + "), whose contract does not make it a keystream xor's output");
      fills.erase(args[k].base);
    }
    if (!checking) return;
    if (block) {
      for (const char *what : {"key", "nonce"}) {
        const Val *a = argOf(j.value(what, what));
        if (!a || !a->ptr || a->base != what || !holds(*a->e == bv(0)))
          fail(e.loc, std::string("the ") + what + " passed to " + g.name + " is not the kernel's own " + what);
      }
      const Val *ctr = argOf(j.value("counter", "counter"));
      if (!ctr || !ctr->e || ctr->ptr) fail(e.loc, g.name + ": no block counter argument");
      const z3::expr c32 = trunc32(*ctr->e);
      const Val *out = argOf(outP);
      if (!out || !out->ptr) fail(e.loc, g.name + ": its output is not a pointer into a known buffer");
      if (xorIn) {
        const Val *in = argOf(j.value("in", "in"));
        if (out->base != outBuf || !in || !in->ptr || in->base != inBuf)
          fail(e.loc, g.name + " xors from " + (in && in->ptr ? in->base : "?") + " into " + out->base + ", not from " + inBuf + " into " + outBuf);
        if (!holds(*out->e == *in->e)) fail(e.loc, g.name + "'s input and output are not at the same text offset");
        if (!holds((*out->e & bv(63)) == bv(0))) fail(e.loc, g.name + "'s output offset may not be a multiple of 64 (a block boundary)");
        if (!holds(c32 == *baseCtr + trunc32(z3::lshr(*out->e, bv(6)))))
          fail(e.loc, "the block counter passed to " + g.name + " may not be the base counter + offset / 64 of its output (RFC 8439 2.4)");
        return;
      }
      if (out->base.empty() || out->base[0] != '@') fail(e.loc, g.name + " writes raw keystream into " + out->base + " (only a local array may hold it)");
      const nlohmann::json nb = j.value("blocks", nlohmann::json());
      if (!nb.is_number_unsigned()) fail(e.loc, g.name + ": a keystream block helper without a fixed block count");
      fills.insert_or_assign(out->base, Fill{c32, *out->e, bv(64 * nb.get<uint64_t>())});
      return;
    }
    if (!oneTimeKey) return;
    if (gc.role == "poly1305.clamp") {
      // r: the 16 bytes at its key pointer, bytes 0..15 of block 0.
      for (size_t k = 0; k < g.params.size() && k < args.size(); ++k) {
        const Var &pv = F.vars[(size_t)g.params[k]];
        if (pv.ty.kind != Type::Ptr) continue;
        auto f = args[k].ptr ? fills.find(args[k].base) : fills.end();
        if (f == fills.end() || !holds(*args[k].e == f->second.off && f->second.ctr == c.bv_val(0, 32)))
          fail(e.loc, "the key " + g.name + " clamps is not bytes 0..15 of ChaCha20 block 0 (RFC 8439 2.6: the one-time key)");
      }
      return;
    }
    if (gc.role == "poly1305.final") {
      const nlohmann::json sn = j.value("s", nlohmann::json());
      if (!sn.is_array() || sn.size() != 2) fail(e.loc, g.name + ": its contract names no s limbs");
      for (unsigned w = 0; w < 2; ++w) {
        const Val *a = argOf(sn[w].get<std::string>());
        z3::expr want = bv(0);
        for (unsigned b = 0; b < 8; ++b) want = want | z3::shl(z3::zext(ksAt(c.bv_val(0, 32), bv(16 + 8 * w + b)), 56), bv(8 * b));
        if (!a || !a->e || a->ptr || !holds(*a->e == want))
          fail(e.loc, "s limb " + std::to_string(w) + " added by " + g.name + " is not bytes " + std::to_string(16 + 8 * w) + ".." +
                          std::to_string(23 + 8 * w) + " of ChaCha20 block 0, little-endian (RFC 8439 2.6)");
      }
    }
  }

  // ---- the IFMA dialect's `keystream` pass (ks && ifma) ----
  // The AVX-512 kernels hold the keystream in vectors and write the text only through the
  // claimed xor helpers (xor64: one block, sliced_xor: a word-sliced chunk). Each vector carries
  // what it is in ChaCha20 terms (KsTag): the claimed lane helpers make counters, initial rows
  // and blocks from their proved claims, a proved round loop turns a whole initial state into
  // its 20-round state, a copy keeps the meaning, any other operation loses it. Each xor helper
  // call must hand, for the text at offset q (a multiple of 64), the block base + q / 64; the
  // one-shot AEAD kernels' Poly1305 key must be bytes 0..31 of block 0 (RFC 8439 2.6).
  std::vector<const Function *> fnStack;  // the functions being walked, innermost last
  std::set<const Stmt *> fusedBodies;     // bodies of loops that make a chunk's rounds inline
  std::vector<z3::expr> skLimbs;          // the s limbs the key setup returned (one-shot AEAD)
  z3::expr low32(const Val &v) { return v.e && !v.ptr ? v.e->extract(31, 0) : c.bv_val(0, 32); }
  z3::expr ksBase(const Val &out) { return *baseCtr + trunc32(z3::lshr(*out.e, bv(6))); }
  Val tagged(KsTag::Kind k, int idx, unsigned lanes, std::vector<z3::expr> ctr, const z3::expr &ok) {
    Val v;
    v.ks = std::make_shared<const KsTag>(k, idx, lanes, std::move(ctr), ok.simplify());
    return v;
  }
  static Val lost(const std::string &why) {
    Val v;
    v.ksWhy = why;
    return v;
  }
  static bool is(const Val &v, KsTag::Kind k, int idx = -1) { return v.ks && v.ks->kind == k && (idx < 0 || v.ks->idx == idx); }
  z3::expr sameCtr(const std::vector<z3::expr> &a, const std::vector<z3::expr> &b) {
    z3::expr all = c.bool_val(a.size() == b.size());
    for (size_t i = 0; i < a.size() && i < b.size(); ++i)
      if (!z3::eq(a[i], b[i])) all = all && a[i] == b[i];
    return all;
  }
  static std::string rowName(int r) { return std::string(1, "abcd"[r & 3]); }
  // A vector's meaning after a branch: the same kind both ways keeps it, its counters and
  // validity chosen by the condition; else what one way made, valid on that way only.
  Val ksMerge(const z3::expr &cnd, const Val &a, const Val &b) {
    if (!a.ks && !b.ks) return lost(!a.ksWhy.empty() ? a.ksWhy : b.ksWhy);
    if (a.ks && b.ks && a.ks->kind == b.ks->kind && a.ks->idx == b.ks->idx && a.ks->lanes == b.ks->lanes && a.ks->ctr.size() == b.ks->ctr.size()) {
      std::vector<z3::expr> ctr;
      for (size_t i = 0; i < a.ks->ctr.size(); ++i)
        ctr.push_back(z3::eq(a.ks->ctr[i], b.ks->ctr[i]) ? a.ks->ctr[i] : z3::ite(cnd, a.ks->ctr[i], b.ks->ctr[i]));
      return tagged(a.ks->kind, a.ks->idx, a.ks->lanes, ctr, z3::ite(cnd, a.ks->ok, b.ks->ok));
    }
    const bool first = (bool)a.ks;
    const KsTag &t = first ? *a.ks : *b.ks;
    return tagged(t.kind, t.idx, t.lanes, t.ctr, first ? (cnd && t.ok) : (!cnd && t.ok));
  }
  // 20 rounds of a row state (4 rows per state) or of a word-sliced state (x0..x15), where the
  // input is a whole initial state; else the state is lost.
  std::vector<Val> ksRounds4(const std::vector<Val> &rows, const std::string &where) {
    std::vector<Val> out;
    for (size_t g = 0; g + 3 < rows.size(); g += 4) {
      bool whole = true;
      for (int r = 0; r < 4; ++r) whole = whole && is(rows[g + (size_t)r], KsTag::Row4, r) && rows[g + (size_t)r].ks->ctr.size() == 4;
      if (!whole) {
        for (int r = 0; r < 4; ++r)
          out.push_back(lost("the rounds in " + where + " start from rows that are not rows a, b, c, d of a state chacha20_x4_init made (state " +
                             std::to_string(g / 4) + ")"));
        continue;
      }
      z3::expr ok = c.bool_val(true);
      for (int r = 0; r < 4; ++r) ok = ok && rows[g + (size_t)r].ks->ok;
      for (int r = 0; r < 4; ++r) out.push_back(tagged(KsTag::Rnd4, r, 0, rows[g + 3].ks->ctr, ok));
    }
    return out;
  }
  std::vector<Val> ksRounds16(const std::vector<Val> &x, const std::string &where) {
    bool whole = x.size() == 16 && is(x[12], KsTag::SCtr);
    for (int w = 0; whole && w < 16; ++w)
      if (w != 12) whole = is(x[(size_t)w], KsTag::SRow, w) && x[(size_t)w].ks->lanes == x[12].ks->lanes;
    std::vector<Val> out;
    if (!whole) {
      for (size_t w = 0; w < x.size(); ++w)
        out.push_back(lost("the rounds in " + where + " start from words that are not chacha20_bulk_init's state words with a chacha20_bulk_ctr counter in word 12"));
      return out;
    }
    z3::expr ok = c.bool_val(true);
    for (const Val &v : x) ok = ok && v.ks->ok;
    for (int w = 0; w < 16; ++w) out.push_back(tagged(KsTag::SRnd, w, x[12].ks->lanes, x[12].ks->ctr, ok));
    return out;
  }
  const Function &curFn() const { return fnStack.empty() ? K : *fnStack.back(); }
  // A round loop (its body rotates: chacha-round proves it, with its trip count). One whose body
  // only computes (a counted loop in a lanes helper) is taken whole: its state becomes the
  // 20-round state of its entry value (chacha-round proves each state word continues from the
  // previous iteration), everything else it assigns unknown. One that also calls and stores (the
  // fused chunk loop) is walked, and its body's rounds are taken at its last state assignment.
  bool ksRoundLoop(const Stmt &s) {
    const RoundLayout lay = s.then ? chachaRoundLayout(F, curFn(), s) : RoundLayout{};
    if (lay.rols == 0) return false;
    if (!lay.pure) {
      // (A body of fewer than 10 double rounds that also calls is walked as any loop: its state
      // is unknown at its head.)
      if (lay.x16 && lay.ndr == 10 && s.then->kind == Stmt::Block) fusedBodies.insert(s.then.get());
      return false;
    }
    std::set<int> out, decl;
    assigned(s, out, decl);
    const std::string where = "the round loop at line " + std::to_string(s.loc.line);
    // (chacha-round proves a loop that only computes carries its state from iteration to
    // iteration; its 20 rounds need the counted form: N times the body's double rounds = 10.)
    const bool counted = lay.trips > 0 && lay.trips * lay.ndr == 10;
    // The rows (x4) and the words x0..x15 (x16); a mixed loop has both, each its own state.
    std::vector<int> rows, words;
    if (lay.x4) {
      // (Rows by name: the function's reference parameters; local rows a<s>..d<s> are not kept.)
      for (const std::string &n : lay.rows)
        for (int p : curFn().params)
          if (F.vars[(size_t)p].name == n && F.vars[(size_t)p].isRef) rows.push_back(p);
      if (rows.size() != lay.rows.size()) rows.clear();
    }
    if (lay.x16) {
      std::map<std::string, int> byName;
      for (int v : out)
        if (!decl.count(v)) byName[F.vars[(size_t)v].name] = v;
      for (int w = 0; w < 16; ++w) {
        auto it = byName.find("x" + std::to_string(w));
        if (it == byName.end()) {
          words.clear();
          break;
        }
        words.push_back(it->second);
      }
    }
    // Each layout's 20-round state, one result per state variable (or the layouts would shift
    // onto each other's variables), read before anything below overwrites the entry values.
    std::vector<std::pair<int, Val>> res;
    auto rounds = [&](const std::vector<int> &st, bool x4) {
      std::vector<Val> in;
      for (int v : st) in.push_back(env.count(v) ? env[v] : Val{});
      std::vector<Val> r = x4 ? ksRounds4(in, where) : ksRounds16(in, where);
      if (!counted) r.assign(st.size(), lost(where + " is not a counted loop of 10 double rounds in all"));
      if (r.size() != st.size()) r.assign(st.size(), lost(where + " has a state whose variables are not whole 4-row states or all 16 words"));
      for (size_t k = 0; k < st.size(); ++k) res.push_back({st[k], r[k]});
    };
    rounds(rows, true);
    rounds(words, false);
    for (int v : out) {
      if (decl.count(v) || !env.count(v)) continue;
      const Type &t = F.vars[(size_t)v].ty;
      env[v] = t.kind == Type::Int || t.kind == Type::Bool || t.kind == Type::Mask ? intV(trunc(unknown("round"), t.bits ? t.bits : 64)) : lost(where + " assigns it");
    }
    for (auto &[v, val] : res) env[v] = val;
    return true;
  }
  // The fused chunk loop's body: x0..x15 declared at its top level before any read of a variable
  // of that name (chacha-round takes their first values as the input), their rounds complete
  // after the last top-level statement that assigns one of them.
  void execFusedBody(const Stmt &s) {
    std::map<std::string, int> decls;
    std::vector<int> xs(16, -1);
    bool okLayout = true;
    size_t last = 0;
    for (size_t i = 0; i < s.body.size(); ++i) {
      const Stmt &st = *s.body[i];
      forEachExprIn(st, [&](const Expr &x) {
        if (x.kind != Expr::Var) return;
        const std::string &n = F.vars[(size_t)x.var].name;
        if (n.size() >= 2 && n[0] == 'x' && !decls.count(n) && std::isdigit((unsigned char)n[1])) okLayout = false;
      });
      if (st.kind == Stmt::Decl) {
        const std::string &n = F.vars[(size_t)st.var].name;
        for (int w = 0; w < 16; ++w)
          if (n == "x" + std::to_string(w) && xs[(size_t)w] < 0) xs[(size_t)w] = st.var, decls[n] = st.var;
      }
      std::set<int> out, decl;
      assigned(st, out, decl);
      for (int w = 0; w < 16; ++w)
        if (xs[(size_t)w] >= 0 && (out.count(xs[(size_t)w]) || decl.count(xs[(size_t)w]))) last = i;
    }
    for (int v : xs) okLayout = okLayout && v >= 0;
    std::vector<Val> first(16);
    for (size_t i = 0; i < s.body.size() && !returned; ++i) {
      exec(*s.body[i]);
      if (s.body[i]->kind == Stmt::Decl)
        for (int w = 0; w < 16; ++w)
          if (xs[(size_t)w] == s.body[i]->var) first[(size_t)w] = env[s.body[i]->var];
      if (i == last && okLayout) {
        std::vector<Val> res = ksRounds16(first, "the chunk loop at line " + std::to_string(s.loc.line));
        for (int w = 0; w < 16; ++w) env[xs[(size_t)w]] = res[(size_t)w];
      }
    }
  }
  // The text buffers of an xor helper call: out and in the kernel's own (their offsets are the
  // claim each call defers).
  void ksTextArgs(const Expr &e, const Function &g, const Val &out, const Val &in) {
    if (!out.ptr || out.base != outBuf || !in.ptr || in.base != inBuf)
      fail(e.loc, g.name + " xors from " + (in.ptr ? in.base : "?") + " into " + (out.ptr ? out.base : "?") + ", not from " + inBuf + " into " + outBuf);
  }
  void ksClaim(const z3::expr &claim, SrcLoc l, const std::string &msg, const Val &out) {
    if (!checking) return;
    defer(claim, [this, claim, l, msg, out] {
      std::string ex;
      if (std::optional<z3::model> m = refuting(claim)) {
        ex = "; e.g. offset " + valueIn(*m, *out.e) + inputsIn(*m, 12, /*atNames=*/true);
      }
      fail(l, msg + ex);
    });
  }
  static std::string describe(const KsTag &t) {
    const std::string n = std::to_string(t.idx);
    switch (t.kind) {
      case KsTag::Ctr4: return "a counter vector of chacha20_x4_ctr";
      case KsTag::Row4: return "row " + rowName(t.idx) + " of an initial 4-block state";
      case KsTag::Rnd4: return "row " + rowName(t.idx) + " of a 4-block state after the rounds";
      case KsTag::Blk: return "a whole ChaCha20 block";
      case KsTag::Blk128: return "bytes " + std::to_string(16 * t.idx) + ".." + std::to_string(16 * t.idx + 15) + " of a ChaCha20 block";
      case KsTag::SRow: return t.idx == 12 ? "word 12 of the word-sliced initial state, the counter slot (0)" : "word " + n + " of the word-sliced initial state";
      case KsTag::SCtr: return "a counter vector of the word-sliced state";
      case KsTag::SRnd: return "word " + n + " of a word-sliced state after the rounds";
    }
    return "?";
  }
  std::string lostWhy(const Val &v, const std::string &what) {
    if (v.ks) return what + " is " + describe(*v.ks) + ", not what the helper's claim takes there";
    return what + " is not a vector the keystream check can name (" + (v.ksWhy.empty() ? "made by an operation no claim covers" : v.ksWhy) + ")";
  }
  // A call in the IFMA keystream pass (true: handled, not walked; ret = its value).
  bool ksIfmaCall(const Expr &e, const Function &g, const std::vector<Val> &args, Val &ret) {
    const std::string role = roleOf(g);
    const nlohmann::json j = nlohmann::json::parse(g.contract, nullptr, false);
    const std::string claim = role == "chacha20.lanes" && j.is_object() ? j.value("claim", "") : "";
    const bool xorClaim = claim == "xor64" || claim == "sliced_xor";
    // Walked: the kernel bodies (ifma.aead) and the lanes helpers that compose (no claim).
    const bool walked = role == "ifma.aead" || (role == "chacha20.lanes" && claim.empty());
    if (walked) return false;  // (the walk checks its references and stores)
    auto pv = [&](size_t k) -> const Var & { return F.vars[(size_t)g.params[k]]; };
    for (size_t k = 0; k < g.params.size() && k < args.size(); ++k) {
      if (pv(k).isRef && e.args[k] && e.args[k]->kind != Expr::Var)
        fail(e.loc, g.name + " takes a reference (" + pv(k).name + ") into memory: a write the keystream check would not see");
      if (pv(k).ty.kind == Type::Ptr && !pv(k).ty.pointeeConst && args[k].ptr && args[k].base == outBuf && !(xorClaim && k == 0))
        fail(e.loc, outBuf + " handed to " + g.name + " (" + pv(k).name + "), which is not a ChaCha20 xor helper");
    }
    // A helper taken by its claim or role sets only what it says below: every other reference
    // argument it is handed, and its result, are unknown after it.
    ret = opaqueCall(e, g, g.name + " at line " + std::to_string(e.loc.line) + " sets it");
    auto refOut = [&](size_t k) -> int {
      if (k >= e.args.size() || !e.args[k] || e.args[k]->kind != Expr::Var) fail(e.loc, g.name + ": an output that is not a variable");
      return e.args[k]->var;
    };
    auto need = [&](size_t n) {
      if (args.size() < n || g.params.size() < n) fail(e.loc, g.name + ": not the " + std::to_string(n) + " arguments of its claim " + claim);
    };
    auto ownPtr = [&](const Val &a, const std::string &what) {
      if (checking && (!a.ptr || a.base != what || !holds(*a.e == bv(0))))
        fail(e.loc, "the " + what + " passed to " + g.name + " is not the kernel's own " + what);
    };
    auto vecLanes = [&](const Type &t) { return t.kind == Type::Vec ? t.bits / 32 : 0u; };
    if (claim == "ctr4") {
      need(4);
      std::vector<z3::expr> ctr;
      for (size_t l = 0; l < 4; ++l) ctr.push_back(low32(args[l]));
      ret = tagged(KsTag::Ctr4, 0, 0, ctr, c.bool_val(true));
      return true;
    }
    if (claim == "init4") {
      need(7);
      ownPtr(args[4], "key");
      ownPtr(args[5], "nonce");
      for (int r = 0; r < 4; ++r)
        env[refOut((size_t)r)] = is(args[6], KsTag::Ctr4) ? tagged(KsTag::Row4, r, 0, args[6].ks->ctr, args[6].ks->ok)
                                                         : lost(g.name + " at line " + std::to_string(e.loc.line) + " is handed a counter vector chacha20_x4_ctr did not make");
      return true;
    }
    if (claim == "blocks4") {
      need(12);
      std::string bad;
      for (int r = 0; r < 4 && bad.empty(); ++r) {
        if (!is(args[4 + (size_t)r], KsTag::Rnd4, r)) bad = "its row " + rowName(r) + " is not row " + rowName(r) + " of a state after the rounds";
        else if (!is(args[8 + (size_t)r], KsTag::Row4, r)) bad = "its saved row " + rowName(r) + " is not row " + rowName(r) + " of an initial state";
      }
      z3::expr ok = c.bool_val(true);
      if (bad.empty()) {
        const std::vector<z3::expr> &ctr = args[7].ks->ctr;
        for (int r = 0; r < 4; ++r) ok = ok && args[4 + (size_t)r].ks->ok && args[8 + (size_t)r].ks->ok && sameCtr(args[4 + (size_t)r].ks->ctr, ctr);
        ok = ok && sameCtr(args[11].ks->ctr, ctr);  // the feed-forward adds the same counters back
        for (size_t k = 0; k < 4; ++k) env[refOut(k)] = tagged(KsTag::Blk, 0, 0, {ctr[k]}, ok);
      } else {
        for (size_t k = 0; k < 4; ++k) env[refOut(k)] = lost(g.name + " at line " + std::to_string(e.loc.line) + ": " + bad);
      }
      return true;
    }
    if (claim == "xor64") {
      need(4);
      ksTextArgs(e, g, args[0], args[1]);
      if (!is(args[3], KsTag::Blk)) fail(e.loc, lostWhy(args[3], "the keystream " + g.name + " xors into " + outBuf));
      const Val &out = args[0];
      const z3::expr n = args[2].e && !args[2].ptr ? *args[2].e : unknown("n");
      ksClaim(args[3].ks->ok && args[3].ks->ctr[0] == ksBase(out) && (*out.e & bv(63)) == bv(0) && *out.e == *args[1].e && z3::ule(n, bv(64)), e.loc,
              "the block " + g.name + " xors into " + outBuf + " at offset q may not be ChaCha20 block " + ctrName() +
                  " + q / 64 of the kernel's key and nonce, at a block boundary, from " + inBuf + " at q, at most 64 bytes (RFC 8439 2.4)",
              out);
      return true;
    }
    if (claim == "sliced_init") {
      need(18);
      ownPtr(args[16], "key");
      ownPtr(args[17], "nonce");
      for (int w = 0; w < 16; ++w) env[refOut((size_t)w)] = tagged(KsTag::SRow, w, vecLanes(pv((size_t)w).ty), {}, c.bool_val(true));
      return true;
    }
    if (claim == "sliced_ctr") {
      need(1);
      ret = tagged(KsTag::SCtr, 0, vecLanes(g.ret), {low32(args[0])}, c.bool_val(true));
      return true;
    }
    if (claim == "sliced_xor") {
      need(34);
      ksTextArgs(e, g, args[0], args[1]);
      const Val &x12 = args[2 + 12], &s12 = args[18 + 12];
      if (!is(x12, KsTag::SRnd)) fail(e.loc, lostWhy(x12, "word 12 of the state " + g.name + " is handed"));
      if (!is(s12, KsTag::SCtr)) fail(e.loc, lostWhy(s12, "the counter word " + g.name + " adds back (s12)"));
      const unsigned B = x12.ks->lanes;
      z3::expr ok = x12.ks->ok && s12.ks->ok && sameCtr(s12.ks->ctr, x12.ks->ctr) && c.bool_val(s12.ks->lanes == B);
      for (int w = 0; w < 16; ++w) {
        const Val &x = args[2 + (size_t)w], &sv = args[18 + (size_t)w];
        if (!is(x, KsTag::SRnd, w)) fail(e.loc, lostWhy(x, "word " + std::to_string(w) + " of the state " + g.name + " is handed (x" + std::to_string(w) + ")"));
        if (w != 12 && !is(sv, KsTag::SRow, w))
          fail(e.loc, lostWhy(sv, "the input word " + std::to_string(w) + " " + g.name + " adds back (s" + std::to_string(w) + ")"));
        ok = ok && x.ks->ok && sameCtr(x.ks->ctr, x12.ks->ctr) && c.bool_val(x.ks->lanes == B);
        if (w != 12) ok = ok && sv.ks->ok && c.bool_val(sv.ks->lanes == B);
      }
      const Val &out = args[0];
      ksClaim(ok && x12.ks->ctr[0] == ksBase(out) && (*out.e & bv(63)) == bv(0) && *out.e == *args[1].e, e.loc,
              "the " + std::to_string(B) + " blocks " + g.name + " xors into " + outBuf + " at offset q may not be ChaCha20 blocks " + ctrName() +
                  " + q / 64 onwards of the kernel's key and nonce, at a block boundary, from " + inBuf + " at q (RFC 8439 2.4)",
              out);
      return true;
    }
    if (!claim.empty()) fail(e.loc, g.name + ": a chacha20.lanes claim the keystream check does not know (" + claim + ")");
    if (role == "ifma.key_powers" && oneTimeKey) {
      // (..., sk0, sk1, sk2 by reference, r, s as 128-bit vectors): r = bytes 0..15 of block 0,
      // s = bytes 16..31 (RFC 8439 2.6); its key-setup obligation proves the s limbs are s.
      std::vector<size_t> keys, limbs;
      for (size_t k = 0; k < g.params.size() && k < args.size(); ++k) {
        if (!pv(k).isRef && pv(k).ty.kind == Type::Vec && pv(k).ty.bits == 128) keys.push_back(k);
        if (pv(k).isRef && pv(k).ty.kind == Type::Int) limbs.push_back(k);
      }
      if (keys.size() != 2) fail(e.loc, g.name + ": not the two 128-bit key halves r and s");
      for (unsigned h = 0; h < 2; ++h) {
        const Val &a = args[keys[h]];
        if (!is(a, KsTag::Blk128)) fail(e.loc, lostWhy(a, std::string(h ? "s" : "r") + " handed to " + g.name));
        ksClaim(a.ks->ok && a.ks->ctr[0] == c.bv_val(0, 32) && c.bool_val(a.ks->idx == (int)h), e.loc,
                std::string(h ? "s" : "r") + " handed to " + g.name + " may not be bytes " + (h ? "16..31" : "0..15") +
                    " of ChaCha20 block 0 (RFC 8439 2.6: the one-time key)",
                args[0].ptr ? args[0] : intV(bv(0)));
      }
      skLimbs.clear();
      for (size_t k : limbs) {
        z3::expr x = c.bv_const(("sk@" + std::to_string(fresh++)).c_str(), 64);
        skLimbs.push_back(x);
        env[refOut(k)] = intV(x);
      }
    } else if (role == "poly1305.final" && oneTimeKey) {
      const nlohmann::json sn = j.is_object() ? j.value("s", nlohmann::json()) : nlohmann::json();
      if (!sn.is_array() || sn.size() != skLimbs.size()) fail(e.loc, g.name + ": its contract's s limbs are not the key setup's");
      for (size_t w = 0; w < skLimbs.size(); ++w) {
        const Val *a = nullptr;
        for (size_t k = 0; k < g.params.size() && k < args.size(); ++k)
          if (pv(k).name == sn[w].get<std::string>()) a = &args[k];
        if (checking && (!a || !a->e || a->ptr || !holds(*a->e == skLimbs[w])))
          fail(e.loc, "s limb " + std::to_string(w) + " added by " + g.name + " is not limb " + std::to_string(w) +
                          " of the s the key setup was handed (bytes 16..31 of ChaCha20 block 0, RFC 8439 2.6)");
      }
      return true;
    }
    // Any other helper makes nothing of the text (its outputs are unknown, above).
    return true;
  }
  std::string ctrName() {
    const z3::expr b = baseCtr->simplify();
    return b.is_numeral() ? std::to_string(b.get_numeral_uint64()) : std::string("counter");
  }
  // The two intrinsics that take a block's 16-byte lanes for the key setup.
  Val ksIntrinsic(const Expr &e, const std::vector<Val> &av) {
    if (e.name == "_mm512_castsi512_si128" && av.size() == 1 && is(av[0], KsTag::Blk))
      return tagged(KsTag::Blk128, 0, 0, av[0].ks->ctr, av[0].ks->ok);
    if (e.name == "_mm512_extracti32x4_epi32" && av.size() >= 2 && is(av[0], KsTag::Blk) && av[1].e) {
      const z3::expr i = av[1].e->simplify();
      if (i.is_numeral()) return tagged(KsTag::Blk128, (int)(i.get_numeral_uint64() & 3), 0, av[0].ks->ctr, av[0].ks->ok);
    }
    if ((e.name == "_mm512_castsi512_si128" || e.name == "_mm512_extracti32x4_epi32") && !av.empty() && !av[0].ks && !av[0].ksWhy.empty())
      return lost(av[0].ksWhy);
    return lost(e.name + " at line " + std::to_string(e.loc.line) + " (no claim covers vector arithmetic on keystream)");
  }

  Val eval(const Expr &e) {
    switch (e.kind) {
      case Expr::Const: return intV(bv((uint64_t)e.value));
      case Expr::Var: {
        auto it = env.find(e.var);
        if (it != env.end()) return it->second;
        const Var &v = F.vars[(size_t)e.var];
        if (v.isGlobal) return intV(unknown(v.name));
        fail(e.loc, "variable '" + v.name + "' read before it is written");
      }
      case Expr::Bin: {
        if (e.name == "&&" || e.name == "||") {
          z3::expr a = asInt(eval(*e.args[0]), e.loc) != bv(0), b = asInt(eval(*e.args[1]), e.loc) != bv(0);
          return intV(b2i(e.name == "&&" ? a && b : a || b));
        }
        Val a = eval(*e.args[0]), b = eval(*e.args[1]);
        if ((e.name == "+" || e.name == "-") && a.ptr && !b.ptr) {
          Val r = a;
          z3::expr d = offsetOf(*e.args[1], b, e.loc) * bv(a.elem);
          r.e = e.name == "+" ? *a.e + d : *a.e - d;
          return r;
        }
        if (e.name == "+" && b.ptr && !a.ptr) {
          Val r = b;
          r.e = *b.e + offsetOf(*e.args[0], a, e.loc) * bv(b.elem);
          return r;
        }
        z3::expr x = asInt(a, e.loc), y = asInt(b, e.loc);
        const unsigned w = e.ty.kind == Type::Int && e.ty.bits ? e.ty.bits : 64;
        const std::string &op = e.name;
        // Unsigned arithmetic only (size_t, uint*_t): a signed comparison or division would need
        // other semantics.
        // (A non-negative constant of a signed type reads the same either way; a shift's amount
        // does not decide its signedness.)
        auto signedOperand = [&](const Expr &x) {
          if (x.ty.kind != Type::Int || !x.ty.isSigned) return false;
          return !(x.kind == Expr::Const && (x.value >> (x.ty.bits ? x.ty.bits - 1 : 63)) == 0);
        };
        const bool cmp = op == "<" || op == "<=" || op == ">" || op == ">=";
        const bool cmpOrDiv = cmp || op == "/" || op == "%";
        // The IFMA dialect's `for (int g = 0; g < 8; ++g)`: a comparison of two signed integers of
        // one width is the signed comparison of their two's complement values.
        const Type &ta = e.args[0]->ty, &tb = e.args[1]->ty;
        if (ifma && cmp && ta.kind == Type::Int && tb.kind == Type::Int && ta.isSigned && tb.isSigned && ta.bits == tb.bits &&
            ta.bits >= 8 && ta.bits <= 64) {
          const z3::expr sx = x.extract(ta.bits - 1, 0), sy = y.extract(ta.bits - 1, 0);
          if (op == "<") return intV(b2i(z3::slt(sx, sy)));
          if (op == "<=") return intV(b2i(z3::sle(sx, sy)));
          if (op == ">") return intV(b2i(z3::sgt(sx, sy)));
          return intV(b2i(z3::sge(sx, sy)));
        }
        if ((cmpOrDiv && (signedOperand(*e.args[0]) || signedOperand(*e.args[1]))) || (op == ">>" && signedOperand(*e.args[0])))
          fail(e.loc, "a signed " + op + " outside the kernel-bytes dialect (unsigned integers only)");
        if (ifma) {
          // A power-of-two multiplier, divisor or modulus as the shift or mask it is (the same
          // value; Z3 bit-blasts a 64-bit divider circuit for udiv, a shift costs nothing).
          auto log2Of = [](const z3::expr &v) -> int {
            z3::expr sv = v.simplify();
            if (!sv.is_numeral()) return -1;
            const uint64_t u = sv.get_numeral_uint64();
            return u != 0 && (u & (u - 1)) == 0 ? __builtin_ctzll(u) : -1;
          };
          const int ly = log2Of(y), lx = log2Of(x);
          if (op == "*" && ly >= 0) return intV(trunc(z3::shl(x, bv((uint64_t)ly)), w));
          if (op == "*" && lx >= 0) return intV(trunc(z3::shl(y, bv((uint64_t)lx)), w));
          if (op == "/" && ly >= 0) return intV(z3::lshr(x, bv((uint64_t)ly)));
          if (op == "%" && ly >= 0) return intV(x & bv((1ull << ly) - 1));
        }
        if (op == "+") return intV(trunc(x + y, w));
        if (op == "-") return intV(trunc(x - y, w));
        if (op == "*") return intV(trunc(x * y, w));
        if (op == "/") return intV(z3::udiv(x, y));
        if (op == "%") return intV(z3::urem(x, y));
        if (op == "&") return intV(x & y);
        if (op == "|") return intV(x | y);
        if (op == "^") return intV(x ^ y);
        if (op == "<<") return intV(trunc(z3::shl(x, y), w));
        if (op == ">>") return intV(z3::lshr(x, y));
        if (op == "<") return intV(b2i(z3::ult(x, y)));
        if (op == "<=") return intV(b2i(z3::ule(x, y)));
        if (op == ">") return intV(b2i(z3::ugt(x, y)));
        if (op == ">=") return intV(b2i(z3::uge(x, y)));
        if (op == "==") return intV(b2i(x == y));
        if (op == "!=") return intV(b2i(x != y));
        fail(e.loc, "operator " + op + " outside the kernel-bytes dialect");
      }
      case Expr::Un: {
        z3::expr x = asInt(eval(*e.args[0]), e.loc);
        if (e.name == "!") return intV(b2i(x == bv(0)));
        const unsigned w = e.ty.kind == Type::Int && e.ty.bits ? e.ty.bits : 64;
        if (e.name == "~") return intV(trunc(~x, w));
        if (e.name == "-") return intV(trunc(-x, w));
        fail(e.loc, "operator " + e.name + " outside the kernel-bytes dialect");
      }
      case Expr::Cast: {
        Val v = eval(*e.args[0]);
        if (e.ty.kind == Type::Ptr) {
          if (!v.ptr) fail(e.loc, "an integer converted to a pointer");
          v.elem = bytesOf(e.ty);
          return v;
        }
        if (ifma && e.ty.kind == Type::Mask) {
          // A k-mask of `bits` lanes: an integer of that width (its set bits are the lanes a
          // masked access touches).
          if (v.ptr || !v.e) fail(e.loc, "a mask made from a value with no integer meaning");
          Val r = intV(trunc(*v.e, e.ty.bits));
          if (v.lowBits) r.lowBits = z3::ite(z3::ult(*v.lowBits, bv(e.ty.bits)), *v.lowBits, bv(e.ty.bits));
          return r;
        }
        if (e.ty.kind == Type::Int || e.ty.kind == Type::Bool) {
          if (v.ptr) return intV(unknown("addr"));  // an address as a number (alignment tests)
          if (e.ty.bits > 64) return intV(unknown("wide"));  // 128-bit limb arithmetic: no address
          if (e.ty.kind == Type::Bool) return intV(b2i(asInt(v, e.loc) != bv(0)));
          // A signed integer widened is sign-extended (C 6.3.1.3; found by the stop-36 review: an
          // `int s = -64` handed to a ptrdiff_t stride was 2^32 - 64 here).
          const Type &from = e.args[0]->ty;
          z3::expr x = asInt(v, e.loc);
          if (from.kind == Type::Int && from.isSigned && from.bits >= 1 && from.bits < 64 && from.bits < e.ty.bits)
            x = z3::sext(x.extract(from.bits - 1, 0), 64 - from.bits);
          return intV(trunc(x, e.ty.bits));
        }
        return Val{};  // vectors: no integer meaning here
      }
      case Expr::Cond: {
        z3::expr cnd = asInt(eval(*e.args[0]), e.loc) != bv(0);
        Val a = eval(*e.args[1]), b = eval(*e.args[2]);
        if (a.ptr || b.ptr) {
          if (a.ptr && b.ptr && a.base == b.base) {
            Val r = a;
            r.e = z3::ite(cnd, *a.e, *b.e);
            return r;
          }
          fail(e.loc, "a conditional between pointers into different buffers");
        }
        if (!a.e || !b.e) return Val{};
        return intV(z3::ite(cnd, *a.e, *b.e));
      }
      case Expr::Index:
      case Expr::Deref: {
        Val p = addrOf(e);
        access(p, bv(bytesOf(e.ty)), e.loc, "a read");
        if (onCov(p)) covRead(covBytes(p, bv(bytesOf(e.ty))), e.loc, "a read");
        if (onIn(p)) inRead(covBytes(p, bv(bytesOf(e.ty))), e.loc, "a read");
        if (ks && bytesOf(e.ty) == 1)
          if (std::optional<z3::expr> b = byteAt(p)) return intV(z3::zext(*b, 56));
        return intV(unknown("mem"));
      }
      case Expr::AddrOf: return addrOf(*e.args[0]);
      case Expr::Assign: {
        const Expr &lhs = *e.args[0];
        Val rhs = eval(*e.args[1]);
        if (lhs.kind == Expr::Var) {
          if (!e.name.empty()) {
            Expr bin = e;
            bin.kind = Expr::Bin;
            bin.name = e.name.back() == '=' ? e.name.substr(0, e.name.size() - 1) : e.name;
            bin.ty = lhs.ty;
            rhs = eval(bin);
          } else if (lhs.ty.kind == Type::Int && rhs.e && !rhs.ptr) {
            rhs = truncV(rhs, lhs.ty.bits);
          }
          assignVar(lhs.var, rhs);
          return rhs;
        }
        if (!e.name.empty()) {
          // `*p op= x` reads *p first: a load with every read rule (bounds, a seal's output read
          // only once written, in place the input read before its output byte is written), and
          // the stored value is the old one combined with x (found by the stop-29 review: the
          // read was not seen, so `ct[q] ^= pt[q] ^ ks` proved keystream and out-coverage).
          const std::string op = e.name.back() == '=' ? e.name.substr(0, e.name.size() - 1) : e.name;
          const Val old = eval(lhs);
          if (lhs.ty.kind != Type::Int || !(op == "^" || op == "|" || op == "&" || op == "+" || op == "-"))
            fail(e.loc, "compound assignment " + e.name + " to memory outside the dialect");
          const unsigned w = lhs.ty.bits ? lhs.ty.bits : 64;
          if (!old.e || old.ptr || !rhs.e || rhs.ptr) {
            rhs = intV(unknown("old"));
          } else {
            const z3::expr x = *old.e, y = *rhs.e;
            rhs = intV(trunc(op == "^" ? (x ^ y) : op == "|" ? (x | y) : op == "&" ? (x & y) : op == "+" ? x + y : x - y, w));
          }
        }
        Val p = addrOf(lhs);
        access(p, bv(bytesOf(lhs.ty)), e.loc, "a write");
        if (onCov(p)) covWrite(p, covBytes(p, bv(bytesOf(lhs.ty))));
        if (ks) storeCheck(p, bytesOf(lhs.ty), rhs, e.loc);
        return rhs;
      }
      case Expr::IncDec: {
        const Expr &x = *e.args[0];
        if (x.kind != Expr::Var) fail(e.loc, "an increment of memory");
        Val v = eval(x);
        const bool inc = e.name.find("++") != std::string::npos;
        Val r = v;
        r.lowBits.reset();
        if (v.ptr) r.e = inc ? *v.e + bv(v.elem) : *v.e - bv(v.elem);
        else r.e = trunc(inc ? *v.e + bv(1) : *v.e - bv(1), x.ty.bits ? x.ty.bits : 64);
        assignVar(x.var, r);
        return e.name.rfind("post", 0) == 0 ? v : r;
      }
      case Expr::Intrin: {
        std::vector<Val> av;
        for (const auto &a : e.args) av.push_back(a ? eval(*a) : Val{});
        if (ifma) {
          Val r = intrinsic(e, av);
          if (ks && !r.e && !r.ptr) r = ksIntrinsic(e, av);
          if (mac && genVar >= 0 && isZeroVector(e.name)) {
            r.hGen = bv(0);  // the zero h (and any other zero vector)
            r.hLimb = -1;
          }
          return r;
        }
        if (isRvvSetvl(e.name) && !av.empty() && av[0].e && !av[0].ptr) {
          // RVV 1.0: vl <= AVL (and <= VLMAX).
          z3::expr vl = unknown("vl");
          path.push_back(z3::ule(vl, *av[0].e));
          return intV(vl);
        }
        if (e.name.find("store") != std::string::npos || isRvvStore(e.name) || e.name.find("load") != std::string::npos ||
            isRvvIntrinsic(e.name))
          fail(e.loc, "vector memory access '" + e.name + "' in a kernel body (kernel-bytes checks scalar code only)");
        return Val{};
      }
      case Expr::Call: return call(e);
      default: fail(e.loc, "an expression outside the kernel-bytes dialect");
    }
  }

  // An intrinsic of the IFMA dialect. Vector loads and stores are accesses of the bytes their
  // intrinsic reads or writes (Intel SDM vol. 2: MOVDQU64/VMOVDQU8 and their masked forms); a
  // masked one touches only the elements of its mask's set bits (masked-off elements are not
  // accessed and do not fault, SDM vol. 1 15.4.1), so bit i of the mask, set, claims bytes
  // [off + E i, off + E i + E) for elements of E bytes. _bzhi_u64/_u32 (BMI2 BZHI: the source
  // with the bits from index src2[7:0] up cleared, unchanged for an index >= the width) and any
  // intrinsic with an integer or mask result are integers; vectors have no integer meaning here.
  Val intrinsic(const Expr &e, const std::vector<Val> &av) {
    struct Mem {
      const char *name;
      bool write;
      unsigned bytes;  // unmasked: the bytes accessed
      int ptr, mask;   // argument positions (mask -1: unmasked)
      unsigned elem;   // masked: bytes per mask bit
    };
    static const Mem table[] = {
        {"_mm512_loadu_si512", false, 64, 0, -1, 0},      {"_mm512_storeu_si512", true, 64, 0, -1, 0},
        {"_mm256_loadu_si256", false, 32, 0, -1, 0},      {"_mm256_storeu_si256", true, 32, 0, -1, 0},
        {"_mm_loadu_si128", false, 16, 0, -1, 0},         {"_mm_storeu_si128", true, 16, 0, -1, 0},
        {"_mm512_maskz_loadu_epi8", false, 0, 1, 0, 1},   {"_mm512_mask_loadu_epi8", false, 0, 2, 1, 1},
        {"_mm512_mask_storeu_epi8", true, 0, 0, 1, 1},    {"_mm256_maskz_loadu_epi8", false, 0, 1, 0, 1},
        {"_mm256_mask_storeu_epi8", true, 0, 0, 1, 1},    {"_mm_maskz_loadu_epi8", false, 0, 1, 0, 1},
        {"_mm_mask_storeu_epi8", true, 0, 0, 1, 1},       {"_mm512_maskz_loadu_epi32", false, 0, 1, 0, 4},
        {"_mm512_mask_storeu_epi32", true, 0, 0, 1, 4},   {"_mm512_maskz_loadu_epi64", false, 0, 1, 0, 8},
        {"_mm512_mask_storeu_epi64", true, 0, 0, 1, 8},
    };
    for (const Mem &m : table) {
      if (e.name != m.name) continue;
      if ((size_t)m.ptr >= av.size() || (m.mask >= 0 && (size_t)m.mask >= av.size())) fail(e.loc, e.name + ": too few arguments");
      const Val &p = av[(size_t)m.ptr];
      const std::string what = std::string(m.write ? "a write" : "a read") + " (" + e.name + ")";
      if (ks && m.write && p.ptr && p.base == outBuf)
        fail(e.loc, e.name + " stores into " + outBuf + " outside the claimed xor helpers (chacha20.lanes xor64, sliced_xor): bytes the keystream check cannot name");
      if (mac && !m.write && p.ptr && msgSide.count(p.base) && inIfma()) {
        // A Poly1305 helper reading the message: one group load of the 8-lane loops.
        if (m.mask >= 0 || m.bytes < 32) fail(e.loc, "a MAC read (" + e.name + ") the mac-order pass does not know (only whole-vector loads of a group, or an ifma.load_partial call)");
        macRead(p, bv(m.bytes), e.loc, "the MAC load " + e.name);
        return Val{};
      }
      if (m.mask < 0) {
        if (onCov(p)) m.write ? covWrite(p, covBytes(p, bv(m.bytes))) : covRead(covBytes(p, bv(m.bytes)), e.loc, what);
        if (onIn(p) && !m.write) inRead(covBytes(p, bv(m.bytes)), e.loc, what);
        access(p, bv(m.bytes), e.loc, what);
      } else {
        const Val &k = av[(size_t)m.mask];
        if (k.ptr || !k.e) fail(e.loc, e.name + ": a mask with no integer meaning");
        if (onCov(p)) m.write ? covWrite(p, covMasked(p, k, m.elem)) : covRead(covMasked(p, k, m.elem), e.loc, what);
        if (onIn(p) && !m.write) inRead(covMasked(p, k, m.elem), e.loc, what);
        maskedAccess(p, *k.e, m.elem, e.loc, what);
      }
      return Val{};
    }
    // RVV intrinsics (vle/vse/vlse/... name no "load" or "store", vrgather and vcompress are not
    // memory): their own footprints.
    if (isRvvIntrinsic(e.name)) return rvvIntrinsic(e, av);
    for (const char *op : {"load", "store", "stream", "gather", "scatter", "maskmov", "lddqu", "expand", "compress"})
      if (e.name.find(op) != std::string::npos)
        fail(e.loc, "memory intrinsic '" + e.name + "' without a footprint in kernel-bytes (the bytes it touches are unknown)");
    if (e.name == "_bzhi_u64" || e.name == "_bzhi_u32") {
      if (av.size() != 2 || !av[0].e || av[0].ptr || !av[1].e || av[1].ptr) fail(e.loc, e.name + ": arguments with no integer meaning");
      const unsigned w = e.name == "_bzhi_u64" ? 64 : 32;
      const z3::expr idx = *av[1].e & bv(0xff), src = trunc(*av[0].e, w);
      Val r = intV(z3::ite(z3::ult(idx, bv(w)), src & (z3::shl(bv(1), idx) - bv(1)), src));
      const z3::expr ones = src.simplify();
      if (ones.is_numeral() && ones.get_numeral_uint64() == (w == 64 ? ~0ull : (1ull << w) - 1))
        r.lowBits = z3::ite(z3::ult(idx, bv(w)), idx, bv(w));  // all ones from bit idx up cleared
      return r;
    }
    if (e.ty.kind == Type::Int || e.ty.kind == Type::Bool || e.ty.kind == Type::Mask)
      return intV(trunc(unknown("intrin"), e.ty.bits ? e.ty.bits : 64));
    return Val{};
  }

  // An RVV intrinsic (RVV 1.0 and the RVV C intrinsics 1.0, non-policy forms), in a helper's walk:
  // vsetvl_e<W>m<L>(avl) gives vl <= avl, and vl <= 2^16 (VLMAX = LMUL VLEN / SEW, VLEN <= 2^16
  // bits); a unit-stride load or store of W-bit elements (vle<W>(p, vl), vse<W>(p, v, vl))
  // touches [p, p + W/8 vl); a strided one (vlse<W>(p, s, vl), vsse<W>(p, s, v, vl)), with a
  // constant byte stride s, the elements at p + s i for i < vl, all inside
  // [p, p + s (vl - 1) + W/8); vl = 0 touches nothing. Any other RVV intrinsic given a pointer
  // (segment, indexed, fault-only-first, mask loads and stores, policy forms) fails; one without
  // a pointer is a value operation (a vector, or an integer the walk does not know).
  Val rvvIntrinsic(const Expr &e, const std::vector<Val> &av) {
    if (isRvvSetvl(e.name)) {
      // (Clang 16 spells it __builtin_rvv_vsetvli(avl, sew, lmul): the AVL comes first.)
      if (av.empty() || !av[0].e || av[0].ptr) fail(e.loc, e.name + ": an AVL with no integer meaning");
      const z3::expr vl = unknown("vl");
      path.push_back(z3::ule(vl, *av[0].e));
      path.push_back(z3::ule(vl, bv(1ull << 16)));
      return intV(vl);
    }
    static const std::regex mem("^__riscv_v(l|s)(s?)e(8|16|32|64)_v_[iuf](8|16|32|64)m(f8|f4|f2|1|2|4|8)$");
    std::smatch m;
    if (std::regex_match(e.name, m, mem)) {
      const bool write = m[1] == "s", strided = m[2] == "s";
      const unsigned w = (unsigned)std::stoul(m[3].str()) / 8;
      const size_t nargs = 2 + (strided ? 1 : 0) + (write ? 1 : 0);
      if (av.size() != nargs) fail(e.loc, e.name + ": " + std::to_string(av.size()) + " arguments, not " + std::to_string(nargs));
      const Val &p = av[0], &vl = av.back();
      if (!vl.e || vl.ptr) fail(e.loc, e.name + ": a vl with no integer meaning");
      uint64_t stride = w;
      if (strided) {
        const std::optional<z3::expr> sx = av[1].ptr ? std::nullopt : av[1].e;
        const z3::expr sv = sx ? sx->simplify() : bv(0);
        if (!sx || !sv.is_numeral() || sv.get_numeral_uint64() >= (1ull << 32))
          fail(e.loc, e.name + ": a stride that is not a constant below 2^32 bytes (the footprint of a strided access)");
        stride = sv.get_numeral_uint64();
      }
      const std::string what = std::string(write ? "a write" : "a read") + " (" + e.name + ")";
      const z3::expr n = bv(stride) * (*vl.e - bv(1)) + bv(w);
      access(p, n, e.loc, what, *vl.e != bv(0));
      // (And vl itself no more than VLMAX can be: n does not wrap.)
      if (boundsPass())
        defer(z3::ule(*vl.e, bv(1ull << 16)), [this, what, l = e.loc] { fail(l, what + ": a vl above 2^16 (no VLMAX is)"); });
      return Val{};
    }
    // (By the argument's type, not its value: a pointer the walk lost, say merged from two
    // buffers, is still one.)
    for (size_t k = 0; k < av.size(); ++k)
      if (av[k].ptr || (k < e.args.size() && e.args[k] && (e.args[k]->ty.kind == Type::Ptr || e.args[k]->ty.kind == Type::Array)))
        fail(e.loc, "RVV memory intrinsic '" + e.name + "' without a footprint in kernel-bytes (unit-stride and strided vle/vse/vlse/vsse only)");
    if (e.ty.kind == Type::Int || e.ty.kind == Type::Bool) return intV(trunc(unknown("rvv"), e.ty.bits ? e.ty.bits : 64));
    return Val{};
  }

  // A masked access at p: bit i of mask k (set) touches bytes [off + elem i, off + elem (i + 1)).
  // All of them lie in the buffer iff off <= size and k has no set bit at or above
  // (size - off) / elem (a logical shift by 64 or more gives 0).
  void maskedAccess(const Val &p, const z3::expr &k, unsigned elem, SrcLoc l, const std::string &what) {
    if (!checking || mac || cov) return;
    if (!p.ptr) fail(l, what + " through a value that is not a pointer into a known buffer");
    auto b = bound.find(p.base);
    if (b == bound.end()) fail(l, what + " through '" + p.base + "', a buffer of unknown size");
    const z3::expr off = *p.e, size = b->second;
    const z3::expr room = z3::udiv(size - off, bv(elem));
    defer(z3::ule(off, size) && z3::lshr(k, room) == bv(0), [this, base = p.base, what, l, off, k, elem, size] {
      std::string name = base[0] == '@' ? base.substr(1, base.find('#') - 1) : base;
      std::string ex;
      if (std::optional<z3::model> m = refuting(z3::ule(off, size) && z3::lshr(k, z3::udiv(size - off, bv(elem))) == bv(0))) {
        z3::expr y = m->eval(k, true).simplify();
        char mask[24];
        snprintf(mask, sizeof mask, "%llx", y.is_numeral() ? (unsigned long long)y.get_numeral_uint64() : 0ull);
        ex = "; e.g. offset " + valueIn(*m, off) + ", mask 0x" + mask + " (" + std::to_string(elem) + "-byte elements), " + name + " of " +
             valueIn(*m, size) + " bytes" + inputsIn(*m, 10);
      }
      fail(l, what + " may touch bytes past the end of " + name + ": its mask has a set bit beyond the buffer" + ex);
    });
  }

  // ---- h from piece to piece (the IFMA mac-order pass) ----
  // At the kernels' level (a kernel body or an ifma.aead helper), each helper that absorbs into h
  // (ifma.absorb, step_partial, lengths, short_step: h0, h1, h2 in and out; ifma.settle and
  // ifma.state_load: out) must be handed limbs 0, 1, 2 of the h the last one made (or the zero h
  // before the first), in that order, and makes a new h; ifma.lane0 keeps the limb it reads; the
  // tag (poly1305.final, its contract's "acc") and the state store (h0, h1, h2) take the last h's
  // limbs in order (found by the stop-30 review: h0 and h1 swapped at the tag, and the tag made
  // from the fused loop's hin, proved); a settle, at any level, is handed the loop's hin (below).
  int genVar = -1;      // the pseudo-variable holding the current h's generation
  unsigned genSeq = 0;  // generations made so far
  // Limb k of the current h (where `known`: only where the walk knows what v is, and an hin that
  // an 8-lane loop may have absorbed, zeroed, counts as absorbed).
  z3::expr hIs(const Val &v, int k, bool known = false) {
    if (!v.hGen) return c.bool_val(known);
    const z3::expr ok = v.hOk ? *v.hOk : c.bool_val(true);
    const z3::expr cur = *env.at(genVar).e;
    z3::expr is = c.bool_val(false);
    if (v.hLimb == -1) is = *v.hGen == bv(0) && cur == bv(0);
    else if (v.hLimb == k) is = *v.hGen == cur;
    if (v.hZero) is = known ? (*v.hZero || is) : z3::ite(*v.hZero, cur == bv(0), is);
    return known ? z3::implies(ok, is) : ok && is;
  }
  static bool isZeroVector(const std::string &intrin) { return intrin == "_mm512_setzero_si512" || intrin == "_mm256_setzero_si256"; }
  // Whether every assignment of variable v in s sets it to a zero vector (an 8-lane loop's
  // `hin0 = _mm512_setzero_si512();` once its first lane step has added it in).
  bool onlyZeroed(const Stmt &s, int v) {
    bool only = true;
    forEachExprIn(s, [&](const Expr &x) {
      if ((x.kind == Expr::Assign || x.kind == Expr::IncDec) && !x.args.empty() && x.args[0] && x.args[0]->kind == Expr::Var && x.args[0]->var == v) {
        const bool zero = x.kind == Expr::Assign && x.name.empty() && x.args.size() == 2 && x.args[1] && x.args[1]->kind == Expr::Intrin &&
                          isZeroVector(x.args[1]->name);
        only = only && zero;
      }
      if (x.kind == Expr::Call && x.fn >= 0) {
        const Function &g = F.funcs[(size_t)x.fn];
        for (size_t k = 0; k < g.params.size() && k < x.args.size(); ++k)
          if (F.vars[(size_t)g.params[k]].isRef && x.args[k] && x.args[k]->kind == Expr::Var && x.args[k]->var == v) only = false;
      }
    });
    return only;
  }
  // An 8-lane loop's carried-in h: the function's hin0, hin1, hin2 (the block-step proof of the
  // loop adds them into its first lane step and proves them zero after each iteration; settle
  // adds them in). On entry to a loop that uses them they are limbs 0, 1, 2 of the current h; a
  // settle is handed exactly those variables, in order, and where the walk still knows their
  // value (no iteration ran) it is the current h's.
  void hinEntry(const Stmt &s) {
    std::map<int, int> hin;  // limb -> var
    forEachExprIn(s, [&](const Expr &x) {
      if (x.kind != Expr::Var) return;
      const std::string &n = F.vars[(size_t)x.var].name;
      if (n.size() == 4 && n.compare(0, 3, "hin") == 0 && n[3] >= '0' && n[3] <= '2') hin[n[3] - '0'] = x.var;
    });
    for (auto &[k, v] : hin) {
      auto it = env.find(v);
      macClaim(it != env.end() ? hIs(it->second, k, /*known=*/true) : c.bool_val(false), s.loc,
               "the loop's carried-in h (" + F.vars[(size_t)v].name + ") is not limb " + std::to_string(k) +
                   " of the h the last absorbing helper made, where no earlier loop step has absorbed it",
               {});
    }
  }
  bool hTop() const { return mac && ifma && genVar >= 0 && (roles.empty() || roles.back() == "ifma.aead"); }
  static bool hIn(const std::string &role) {
    return role == "ifma.absorb" || role == "ifma.step_partial" || role == "ifma.lengths" || role == "ifma.short_step";
  }
  static bool hOut(const std::string &role) { return hIn(role) || role == "ifma.settle" || role == "ifma.state_load"; }
  void hCheck(const Expr &e, const Function &g, const std::string &role, const std::vector<Val> &args) {
    auto want = [&](const std::vector<size_t> &at, const std::string &what) {
      z3::expr all = c.bool_val(at.size() == 3);
      for (size_t k = 0; k < at.size(); ++k) all = all && (at[k] < args.size() ? hIs(args[at[k]], (int)k) : c.bool_val(false));
      macClaim(all, e.loc, g.name + " is not handed limbs 0, 1, 2 of the h the last absorbing helper made, in that order (" + what + ")", {});
    };
    auto named = [&](const std::vector<std::string> &names) {
      std::vector<size_t> at;
      for (const std::string &n : names)
        for (size_t k = 0; k < g.params.size(); ++k)
          if (F.vars[(size_t)g.params[k]].name == n) at.push_back(k);
      return at;
    };
    if (hIn(role)) want({0, 1, 2}, "its h");
    if (role == "ifma.settle") {
      z3::expr all = c.bool_val(true);
      for (int k = 0; k < 3; ++k) {
        const size_t a = 6 + (size_t)k;
        const bool isHin = a < e.args.size() && e.args[a] && e.args[a]->kind == Expr::Var && F.vars[(size_t)e.args[a]->var].name == "hin" + std::to_string(k);
        if (!isHin) fail(e.loc, g.name + " is not handed the 8-lane loop's carried-in h, hin0, hin1, hin2 in that order, as parameters 7..9");
        all = all && hIs(args[a], k, /*known=*/true);
      }
      macClaim(all, e.loc, g.name + " is handed hin limbs that are not limbs 0, 1, 2 of the h the last absorbing helper made, where no loop step has absorbed them", {});
    }
    if (role == "poly1305.final") {
      const nlohmann::json j = nlohmann::json::parse(g.contract, nullptr, false);
      const nlohmann::json acc = j.is_object() ? j.value("acc", nlohmann::json()) : nlohmann::json();
      std::vector<std::string> names;
      if (acc.is_array())
        for (const auto &n : acc) names.push_back(n.get<std::string>());
      want(named(names), "the accumulator the tag is made from");
    }
    if (role == "ifma.state_store") want(named({"h0", "h1", "h2"}), "the h it stores");
  }
  void hSet(const Expr &e, const Function &g, const std::string &role) {
    if (!hOut(role)) return;
    const z3::expr gen = bv(++genSeq);
    env[genVar] = intV(gen);
    for (size_t k = 0; k < 3; ++k) {
      if (k >= g.params.size() || k >= e.args.size() || !e.args[k] || e.args[k]->kind != Expr::Var || !F.vars[(size_t)g.params[k]].isRef)
        fail(e.loc, g.name + ": its h limbs (parameters 1..3) are not reference parameters handed variables");
      Val v;
      v.hGen = gen;
      v.hLimb = (int)k;
      env[e.args[k]->var] = v;
    }
  }

  // A helper not walked: every reference argument it is handed and its result are unknown after
  // it (a vector lost, with `why` for the keystream pass's messages).
  Val opaqueCall(const Expr &e, const Function &g, const std::string &why) {
    for (size_t k = 0; k < g.params.size() && k < e.args.size(); ++k) {
      const Var &pv = F.vars[(size_t)g.params[k]];
      if (pv.isRef && e.args[k] && e.args[k]->kind == Expr::Var)
        env[e.args[k]->var] = pv.ty.kind == Type::Int ? intV(trunc(unknown("out"), pv.ty.bits ? pv.ty.bits : 64)) : lost(why);
    }
    if (g.ret.kind == Type::Int || g.ret.kind == Type::Bool) return intV(trunc(unknown("ret"), g.ret.bits ? g.ret.bits : 64));
    return Val{};
  }

  // A helper call: in the mac-order pass h's flow around it (above), then the call itself.
  Val call(const Expr &e) {
    const Function &g = F.funcs[(size_t)e.fn];
    std::vector<Val> args;
    for (const auto &a : e.args) args.push_back(a ? eval(*a) : Val{});
    if (!mac || !ifma || genVar < 0) return callWith(e, g, args);
    const std::string role = roleOf(g);
    const bool top = hTop();
    if (top && role == "ifma.lane0") {
      Val r = intV(unknown("lane0"));
      if (!args.empty()) r.hGen = args[0].hGen, r.hLimb = args[0].hLimb;
      return r;
    }
    if (role == "ifma.settle" || (top && (hIn(role) || role == "poly1305.final" || role == "ifma.state_store"))) hCheck(e, g, role, args);
    Val r = callWith(e, g, args);
    if (top) hSet(e, g, role);
    return r;
  }
  // A proved helper by its footprint, a small helper without a contract inlined.
  Val callWith(const Expr &e, const Function &g, const std::vector<Val> &args) {
    Contract gc = contractOf(g);
    if (mac && macCall(e, g, args)) return Val{};
    if (ks && ifma) {
      Val r;
      if (ksIfmaCall(e, g, args, r)) return r;
    }
    if (ifma && !ks && (mac ? !mayMacCall(e.fn) : !touchesMemory(e.fn))) {
      // A helper with nothing for this pass (no memory access for kernel-bytes; no MAC piece for
      // mac-order): not walked, its results unknown (vectors have no meaning in either pass).
      return opaqueCall(e, g, "");
    }
    if (!gc.present || ifma) {
      if (++inlineDepth > 8) fail(e.loc, "helpers nested too deep");
      for (size_t k = 0; ks && k < g.params.size() && k < e.args.size(); ++k)
        if (F.vars[(size_t)g.params[k]].isRef && e.args[k] && e.args[k]->kind != Expr::Var)
          fail(e.loc, g.name + " takes a reference into memory: a write the keystream check would not see");
      std::map<int, Val> saved = env;
      for (size_t k = 0; k < g.params.size() && k < args.size(); ++k) env[g.params[k]] = args[k];
      retVal = Val{};
      returned = false;
      sites.push_back({g.name, e.loc});
      roles.push_back(roleOf(g));
      fnStack.push_back(&g);
      const z3::expr macBefore = mac ? cursor() : bv(0);
      if (g.body) exec(*g.body);
      fnStack.pop_back();
      roles.pop_back();
      sites.pop_back();
      Val r = retVal;
      returned = false;
      // Reference parameters of an inlined helper: its writes reach the caller's variables.
      std::map<int, Val> after = env;
      env = saved;
      if (mac) {
        // What the helper's MAC did: the message absorbed, pieces loaded, groups to settle.
        for (int v : {cursorVar, pendingVar, unsettledVar}) env[v] = after.at(v);
        if (roleOf(g) == "ifma.absorb") {
          // An absorb takes the n bytes it is handed: where the walk proves the cursor moved by
          // n (padded to 16 for the AEAD), it continues from that closed form, not from the
          // loop-exit unknowns it was proved with (what keeps the later queries small).
          std::optional<z3::expr> n;
          for (size_t k = 0; k < g.params.size() && k < args.size(); ++k)
            if (F.vars[(size_t)g.params[k]].name == "n" && args[k].e && !args[k].ptr) n = *args[k].e;
          if (n) {
            const z3::expr want = macBefore + (macKind == MacKind::Poly ? *n : padded(*n));
            if (holds(cursor() == want)) setCursor(want);
          }
        }
      }
      for (size_t k = 0; k < g.params.size() && k < e.args.size(); ++k) {
        const Var &pv = F.vars[(size_t)g.params[k]];
        if (pv.isRef && e.args[k]->kind == Expr::Var) env[e.args[k]->var] = after[g.params[k]];
      }
      --inlineDepth;
      return r;
    }
    nlohmann::json j = nlohmann::json::parse(g.contract, nullptr, false);
    const bool vlBlocks = gc.role == "chacha20.block" && j.is_object() && j.value("blocks", nlohmann::json()) == "vl";
    // The value a "blocks": "vl" helper returns: 1 <= vl <= the blocks asked for (its chacha-block
    // obligation proves it).
    std::optional<z3::expr> ret;
    if (vlBlocks) {
      const int k = blockCountParam(g);
      if (k < 0 || (size_t)k >= args.size() || !args[(size_t)k].e || args[(size_t)k].ptr) fail(e.loc, g.name + ": no block-count argument");
      ret = unknown("vl");
      path.push_back(z3::ule(*ret, *args[(size_t)k].e));
      countClaim(*args[(size_t)k].e, 64, e.loc, "the block count passed to " + g.name);
    }
    auto argOf = [&](const std::string &name) -> const Val * {
      for (size_t k = 0; k < g.params.size() && k < args.size(); ++k)
        if (F.vars[(size_t)g.params[k]].name == name) return &args[k];
      return nullptr;
    };
    if (ks) keystreamCall(e, g, gc, j, args, argOf);
    // out-coverage: what the helper reads of the output text must be written before the call
    // (its own writes are not ordered against its reads: they count after it).
    std::vector<std::pair<Val, z3::expr>> covOut;
    auto footprint = [&](const Val &a, const Var &pv, const z3::expr &bytes, const std::string &what) {
      if (onCov(a)) {
        if (pv.ty.pointeeConst) covRead(covBytes(a, bytes), e.loc, what);
        else if (gc.role == "chacha20.block" && pv.name == j.value("out", "out")) covOut.push_back({a, bytes});
      }
      if (onIn(a) && pv.ty.pointeeConst) inRead(covBytes(a, bytes), e.loc, what);
      access(a, bytes, e.loc, what);
    };
    for (size_t k = 0; k < g.params.size() && k < args.size(); ++k) {
      const Var &pv = F.vars[(size_t)g.params[k]];
      const uint64_t n = pv.ty.kind == Type::Array ? pv.ty.count : pv.paramCount;
      if (n != 0) {
        access(args[k], bv(n * bytesOf(pv.ty)), e.loc, "the " + pv.name + "[" + std::to_string(n) + "] argument of " + g.name);
        continue;
      }
      if (pv.ty.kind != Type::Ptr) continue;
      std::string what = "the " + pv.name + " argument of " + g.name;
      if (vlBlocks && (pv.name == j.value("out", "out") || pv.name == j.value("in", "in"))) {
        footprint(args[k], pv, *ret * bv(64), what + " (64 vl bytes)");
        continue;
      }
      const bool fixedBlocks = gc.role == "chacha20.block" && j.is_object() && j.value("blocks", nlohmann::json()).is_number_unsigned();
      const bool macMsg = gc.role == "chacha20.block" && j.is_object() && j.contains("mac") && j["mac"].is_object() && pv.name == j["mac"].value("msg", "");
      if (macMsg && (pv.name == j.value("out", "out") || (j.value("xor", false) && pv.name == j.value("in", "in"))))
        fail(e.loc, what + ": its MAC's message is also its keystream's " + pv.name + ": two footprints for one buffer");
      if (fixedBlocks && (pv.name == j.value("out", "out") || (j.value("xor", false) && pv.name == j.value("in", "in")))) {
        const uint64_t nb = j["blocks"].get<uint64_t>();
        footprint(args[k], pv, bv(64 * nb), what + " (" + std::to_string(64 * nb) + " bytes)");
        continue;
      }
      if (gc.role == "chacha20.block" && j.is_object() && j.contains("mac") && j["mac"].is_object() && pv.name == j["mac"].value("msg", "")) {
        const nlohmann::json &m = j["mac"];
        if (m.contains("block_bytes") && m["block_bytes"].is_number_unsigned()) {
          footprint(args[k], pv, bv(m["block_bytes"].get<uint64_t>()), what + " (its MAC's block_bytes)");
          continue;
        }
        const Val *nm = argOf(m.value("blocks", ""));
        if (!nm || !nm->e) fail(e.loc, what + ": no MAC block count");
        countClaim(*nm->e, 16, e.loc, "the MAC block count passed to " + g.name);
        footprint(args[k], pv, *nm->e * bv(16), what + " (16 nmac bytes)");
        continue;
      }
      if (gc.role == "bytes.load_partial" && pv.name == gc.src) {
        const Val *n = argOf(gc.len);
        if (!n || !n->e) fail(e.loc, what + ": no length argument");
        if (!holds(z3::ule(*n->e, bv(gc.maxLen)))) fail(e.loc, "the length passed to " + g.name + " may exceed its max_len " + std::to_string(gc.maxLen));
        footprint(args[k], pv, *n->e, what);
        continue;
      }
      fail(e.loc, what + ": a pointer parameter whose footprint its contract does not give (declare it T p[N])");
    }
    for (auto &[a, bytes] : covOut) covWrite(a, covBytes(a, bytes));
    // Reference outputs become unknown.
    for (size_t k = 0; k < g.params.size() && k < e.args.size(); ++k)
      if (F.vars[(size_t)g.params[k]].isRef && e.args[k]->kind == Expr::Var) env[e.args[k]->var] = intV(unknown("out"));
    if (ret) return intV(*ret);
    return intV(unknown("ret"));
  }

  // Whether a statement may move the mac-order cursor: a whole-vector load in an ifma.* helper,
  // or a call of one that may (the intercepted roles always do).
  std::map<int, bool> mayMacFn;
  bool mayMac(const Stmt &st, bool ifmaFn) {
    return anyExpr(st, [&](const Expr &x) {
      return (x.kind == Expr::Intrin && ifmaFn && x.name.find("loadu_si") != std::string::npos) || (x.kind == Expr::Call && x.fn >= 0 && mayMacCall(x.fn));
    });
  }
  // Whether a helper may touch memory: a pointer or array parameter, a local array, an index, a
  // dereference or a memory intrinsic, or a call of one that may (kernel-bytes walks only those).
  std::map<int, bool> memFn;
  bool touchesMemory(int fi) {
    auto it = memFn.find(fi);
    if (it != memFn.end()) return it->second;
    memFn[fi] = true;  // (recursion is outside the dialect)
    const Function &g = F.funcs[(size_t)fi];
    bool any = false;
    for (int pv : g.params) {
      const Type &t = F.vars[(size_t)pv].ty;
      any = any || t.kind == Type::Ptr || t.kind == Type::Array;
    }
    std::function<void(const Expr &)> ex = [&](const Expr &x) {
      if (any) return;
      if (x.kind == Expr::Index || x.kind == Expr::Deref || x.kind == Expr::AddrOf) any = true;
      if (x.kind == Expr::Cast && x.ty.kind == Type::Ptr) any = true;  // (an integer made a pointer)
      if (x.kind == Expr::Intrin && isRvvIntrinsic(x.name))
        for (const auto &a : x.args)
          if (a && (a->ty.kind == Type::Ptr || a->ty.kind == Type::Array)) any = true;
      if (x.kind == Expr::Intrin)
        for (const char *op : {"load", "store", "stream", "gather", "scatter", "maskmov", "lddqu", "expand", "compress"})
          if (x.name.find(op) != std::string::npos) any = true;
      if (x.kind == Expr::Call && x.fn >= 0 && touchesMemory(x.fn)) any = true;
      for (const auto &a : x.args)
        if (a) ex(*a);
    };
    std::function<void(const Stmt &)> walkS = [&](const Stmt &t) {
      if (any) return;
      if (t.kind == Stmt::Decl && F.vars[(size_t)t.var].ty.kind == Type::Array) any = true;
      for (const ExprP *q : {&t.e, &t.inc})
        if (*q) ex(**q);
      forEachChild(t, walkS);
    };
    if (g.body) walkS(*g.body);
    memFn[fi] = any;
    return any;
  }
  bool mayMacCall(int fi) {
    auto it = mayMacFn.find(fi);
    if (it != mayMacFn.end()) return it->second;
    mayMacFn[fi] = false;  // (recursion is outside the dialect)
    const Function &g = F.funcs[(size_t)fi];
    const std::string r = roleOf(g);
    bool m = r == "ifma.load_partial" || r == "ifma.step_partial" || r == "ifma.lengths" || r == "ifma.short_step" ||
             r == "poly1305.final" || r == "ifma.state_store" || r == "ifma.settle";
    if (!m && g.body) m = mayMac(*g.body, r.rfind("ifma.", 0) == 0);
    mayMacFn[fi] = m;
    return m;
  }

  Val retVal;
  bool returned = false;

  // Variables a statement assigns (locals declared inside excluded).
  void assigned(const Stmt &s, std::set<int> &out, std::set<int> &decl) {
    std::function<void(const Expr &)> ex = [&](const Expr &e) {
      if ((e.kind == Expr::Assign || e.kind == Expr::IncDec) && e.args[0]->kind == Expr::Var) out.insert(e.args[0]->var);
      if (e.kind == Expr::Call && e.fn >= 0) {
        const Function &g = F.funcs[(size_t)e.fn];
        for (size_t k = 0; k < g.params.size() && k < e.args.size(); ++k)
          if (F.vars[(size_t)g.params[k]].isRef && e.args[k]->kind == Expr::Var) out.insert(e.args[k]->var);
      }
      for (const auto &a : e.args)
        if (a) ex(*a);
    };
    if (s.kind == Stmt::Decl) decl.insert(s.var);
    for (const ExprP *p : {&s.e, &s.inc})
      if (*p) ex(**p);
    forEachChild(s, [&](const Stmt &ch) { assigned(ch, out, decl); });
  }

  void exec(const Stmt &s) {
    if (returned) return;
    switch (s.kind) {
      case Stmt::Block:
        if (ks && ifma && fusedBodies.count(&s)) {
          execFusedBody(s);
          return;
        }
        for (const auto &b : s.body)
          if (b && !returned) exec(*b);
        return;
      case Stmt::Decl: {
        const Var &v = F.vars[(size_t)s.var];
        if (v.ty.kind == Type::Array) {
          Val p;
          p.ptr = true;
          p.base = "@" + v.name + "#" + std::to_string(fresh++);
          p.e = bv(0);
          p.elem = bytesOf(v.ty);
          bound.emplace(p.base, bv(v.ty.count * p.elem));
          env[s.var] = p;
          return;
        }
        if (s.e) {
          Val x = eval(*s.e);
          if (v.ty.kind == Type::Int && x.e && !x.ptr) x = truncV(x, v.ty.bits);
          env[s.var] = x;
        } else if (ks && ifma && v.ty.kind == Type::Vec) {
          env[s.var] = lost(v.name + " is declared without a value");
        } else {
          env[s.var] = intV(unknown(v.name));
        }
        return;
      }
      case Stmt::ExprS:
        if (s.e) eval(*s.e);
        return;
      case Stmt::Return:
        if (s.e) retVal = eval(*s.e);
        if (inlineDepth == 0) covEnd(s.loc);
        returned = true;
        return;
      case Stmt::If: {
        z3::expr cnd = (asInt(eval(*s.e), s.loc) != bv(0)).simplify();
        // A way the facts rule out is dead code (e.g. a partial block of a 64-byte multiple):
        // only the other way runs.
        if (holds(!cnd)) {
          path.push_back(!cnd);
          if (s.els) exec(*s.els);
          return;
        }
        if (holds(cnd)) {
          path.push_back(cnd);
          if (s.then) exec(*s.then);
          return;
        }
        std::map<int, Val> base = env;
        const size_t p0 = path.size();
        // What a branch learns about the fresh values it makes (a loop's exit, a helper's result)
        // holds after the merge under that branch's condition.
        auto learned = [&](size_t from) {
          z3::expr all = c.bool_val(true);
          for (size_t k = from; k < path.size(); ++k) all = all && path[k];
          return all;
        };
        const std::map<std::string, Fill> fillsBase = fills;
        const CovState wBase = covState();
        path.push_back(cnd);
        if (s.then) exec(*s.then);
        bool retThen = returned;
        returned = false;
        std::map<int, Val> envThen = env;
        const std::map<std::string, Fill> fillsThen = fills;
        const CovState wThen = covState();
        fills = fillsBase;
        setCov(wBase);
        z3::expr factsThen = learned(p0 + 1);
        path.erase(path.begin() + (long)p0, path.end());
        env = base;
        path.push_back(!cnd);
        if (s.els) exec(*s.els);
        bool retElse = returned;
        returned = false;
        z3::expr factsElse = learned(p0 + 1);
        path.erase(path.begin() + (long)p0, path.end());
        path.push_back(z3::implies(cnd, factsThen));
        path.push_back(z3::implies(!cnd, factsElse));
        if (retThen && retElse) {
          returned = true;
          return;
        }
        if (retThen) {
          path.push_back(!cnd);
          return;
        }
        if (retElse) {
          env = envThen;
          fills = fillsThen;
          setCov(wThen);
          path.push_back(cnd);
          return;
        }
        if (cov) {
          written = z3::ite(cnd, *wThen.under, *written);
          mayW = z3::ite(cnd, *wThen.over, *mayW);
        }
        // A local array filled on both ways keeps its keystream (chosen by the condition).
        std::map<std::string, Fill> fillsMerged;
        for (auto &[b, ft] : fillsThen) {
          auto fe = fills.find(b);
          if (fe == fills.end()) continue;
          fillsMerged.insert_or_assign(b, Fill{z3::ite(cnd, ft.ctr, fe->second.ctr), z3::ite(cnd, ft.off, fe->second.off),
                                               z3::ite(cnd, ft.bytes, fe->second.bytes)});
        }
        fills = fillsMerged;
        std::map<int, Val> merged;
        for (auto &[v, a] : envThen) {
          auto b = env.find(v);
          if (b == env.end()) continue;  // declared in the branch
          const Val &y = b->second;
          if (ks && ifma && !a.ptr && !y.ptr && !a.e && !y.e) {
            merged[v] = ksMerge(cnd, a, y);  // (a vector: what it is in ChaCha20 terms)
            continue;
          }
          if (mac && !a.ptr && !y.ptr && !a.e && !y.e && (a.hGen || y.hGen) && !a.macAt && !y.macAt) {
            // An h limb on one way or both: the same limb both ways keeps it (its generation
            // chosen by the condition; the zero h is every limb); made on one way only, it is
            // that limb where that way was taken.
            Val m;
            auto okOf = [&](const Val &x) { return x.hGen ? (x.hOk ? *x.hOk : c.bool_val(true)) : c.bool_val(false); };
            if (a.hGen && y.hGen && (a.hLimb == y.hLimb || a.hLimb == -1 || y.hLimb == -1)) {
              m.hGen = z3::eq(*a.hGen, *y.hGen) ? *a.hGen : z3::ite(cnd, *a.hGen, *y.hGen);
              m.hLimb = a.hLimb == -1 ? y.hLimb : a.hLimb;
            } else if (a.hGen && y.hGen) {
              merged[v] = Val{};
              continue;
            } else {
              const Val &t = a.hGen ? a : y;
              m.hGen = *t.hGen;
              m.hLimb = t.hLimb;
            }
            m.hOk = z3::ite(cnd, okOf(a), okOf(y)).simplify();
            if (a.hZero || y.hZero)
              m.hZero = z3::ite(cnd, a.hZero ? *a.hZero : c.bool_val(false), y.hZero ? *y.hZero : c.bool_val(false));
            merged[v] = m;
            continue;
          }
          if (!a.ptr && !y.ptr && !a.e && !y.e && (a.macAt || y.macAt)) {
            // Loaded message limbs on one way or both: their provenance under the condition.
            Val m;
            m.macAt = z3::ite(cnd, a.macAt ? *a.macAt : none(), y.macAt ? *y.macAt : none());
            m.macBlocks = z3::ite(cnd, a.macBlocks ? *a.macBlocks : none(), y.macBlocks ? *y.macBlocks : none());
            m.macEnd = z3::ite(cnd, a.macEnd ? *a.macEnd : none(), y.macEnd ? *y.macEnd : none());
            merged[v] = m;
            continue;
          }
          if (a.ptr != y.ptr || (a.ptr && a.base != y.base) || !a.e || !y.e) {
            merged[v] = a.ptr && y.ptr ? Val{} : intV(unknown("merge"));
            continue;
          }
          Val m = a;
          if (!z3::eq(*a.e, *y.e)) m.e = z3::ite(cnd, *a.e, *y.e);  // (the same value both ways: kept as it is)
          m.lowBits.reset();
          if (a.lowBits && y.lowBits) m.lowBits = z3::ite(cnd, *a.lowBits, *y.lowBits);
          merged[v] = m;
        }
        env = merged;
        return;
      }
      case Stmt::For:
      case Stmt::While:
        if (ks && ifma && ksRoundLoop(s)) return;
        loop(s);
        return;
      case Stmt::Null:
        return;
      default: fail(s.loc, "a statement outside the kernel-bytes dialect");
    }
  }

  // The buffers a statement may write: the pointer variables under a store's address, and under
  // each argument a helper takes as a pointer to non-const.
  void writtenBases(const Stmt &s, std::set<std::string> &bases) {
    std::function<void(const Expr &)> roots = [&](const Expr &x) {
      if (x.kind == Expr::Var) {
        auto it = env.find(x.var);
        if (it != env.end() && it->second.ptr) bases.insert(it->second.base);
      }
      for (const auto &a : x.args)
        if (a) roots(*a);
    };
    std::function<void(const Expr &)> ex = [&](const Expr &e) {
      if ((e.kind == Expr::Assign || e.kind == Expr::IncDec) && e.args[0]->kind != Expr::Var) roots(*e.args[0]);
      if (e.kind == Expr::Call && e.fn >= 0) {
        const Function &g = F.funcs[(size_t)e.fn];
        for (size_t k = 0; k < g.params.size() && k < e.args.size(); ++k) {
          const Var &pv = F.vars[(size_t)g.params[k]];
          if (pv.ty.kind == Type::Ptr && !pv.ty.pointeeConst && e.args[k]) roots(*e.args[k]);
        }
      }
      for (const auto &a : e.args)
        if (a) ex(*a);
    };
    for (const ExprP *p : {&s.e, &s.inc})
      if (*p) ex(**p);
    forEachChild(s, [&](const Stmt &ch) { writtenBases(ch, bases); });
  }

  void loop(const Stmt &s) {
    if (s.kind == Stmt::For && s.init) exec(*s.init);
    // out-coverage: the bytes stored before the loop, and the loop's own candidate starts (an
    // enclosing loop's candidate round gets this loop's kept ones, read on entry).
    const CovState wEntry = covState();
    const bool covLoop = cov && mayStore(s), outerCollect = covCollect;
    std::vector<z3::expr> outerStarts = std::move(covStarts);
    covStarts.clear();
    covCollect = false;
    // Local arrays the loop may write hold unknown bytes at its head and after it.
    std::set<std::string> wrote;
    writtenBases(s, wrote);
    for (const std::string &b : wrote) fills.erase(b);
    const std::map<std::string, Fill> fillsEntry = fills;
    std::set<int> out, decl;
    assigned(s, out, decl);
    // The loop's own counter (declared by its init, maybe as a one-declaration block) is a loop
    // variable like any other.
    int counter = -1;
    if (s.kind == Stmt::For && s.init) {
      const Stmt *d = s.init.get();
      if (d->kind == Stmt::Block && d->body.size() == 1 && d->body[0]) d = d->body[0].get();
      if (d->kind == Stmt::Decl) counter = d->var;
      if (counter >= 0) decl.erase(counter);
    }
    if (mac && ifma && genVar >= 0 && checking) hinEntry(s);
    if (mac && mayMac(s, inIfma())) {
      out.insert(cursorVar);
      out.insert(unsettledVar);
    }
    std::vector<int> vars;
    for (int v : out)
      if (!decl.count(v) && env.count(v) && !env[v].ptr && F.vars[(size_t)v].ty.kind == Type::Int) vars.push_back(v);
    // Pointer variables the loop moves (the IFMA dialect's `mp += 128`, `out += step`): each keeps
    // its buffer, its offset is a loop variable like the integers.
    std::vector<int> pvars;
    for (int v : out)
      if (env.count(v) && env[v].ptr && !decl.count(v)) {
        if (!ifma) fail(s.loc, "a loop that moves a pointer variable");
        if (!env[v].e) fail(s.loc, "a loop that moves a pointer with no known offset");
        pvars.push_back(v);
      }
    // Candidate facts a <= b among the loop's size_t variables and len: those true on entry.
    std::vector<std::pair<int, int>> cand;  // -1 stands for len
    auto sizeVar = [&](int v) { return F.vars[(size_t)v].ty.bits == 64; };
    std::vector<int> terms;
    for (int v : vars)
      if (sizeVar(v)) terms.push_back(v);
    const bool haveLen = hasParam("len");
    if (haveLen) terms.push_back(-1);
    // The IFMA dialect walks the AAD's loops too: aad_len is a term beside len.
    if (ifma && hasParam("aad_len")) terms.push_back(-2);
    std::map<int, Val> entry = env;
    const Expr *cnd = s.e.get();
    // IFMA dialect: the side of the loop's comparison that the loop does not assign (a chunk
    // count `nch` the loop counts to) is a term too, at its value on entry.
    std::vector<z3::expr> fixedTerms;
    if ((ifma || cov) && cnd && cnd->kind == Expr::Bin &&
        (cnd->name == "<" || cnd->name == "<=" || cnd->name == ">" || cnd->name == ">=" || cnd->name == "!=")) {
      for (const auto &side : cnd->args) {
        if (!sameAtEveryHead(*side, out) || side->kind == Expr::Const || side->ty.kind != Type::Int) continue;
        Val b = eval(*side);
        if (!b.e || b.ptr) continue;
        fixedTerms.push_back(b.e->simplify());
        terms.push_back(-3 - (int)(fixedTerms.size() - 1));
      }
    }
    auto termOf = [&](int v, const std::map<int, Val> &en) {
      if (v <= -3) return fixedTerms[(size_t)(-3 - v)];
      return v < 0 ? c.bv_const(v == -1 ? "len" : "aad_len", 64) : *en.at(v).e;
    };
    {
      std::vector<std::pair<int, int>> pairs;
      std::vector<z3::expr> claims;
      for (int a : terms)
        for (int b : terms)
          if (a != b && (a >= 0 || b >= 0)) {
            pairs.push_back({a, b});
            claims.push_back(z3::ule(termOf(a, entry), termOf(b, entry)));
          }
      const std::vector<bool> ok = holdsEach(claims);
      for (size_t i = 0; i < pairs.size(); ++i)
        if (ok[i]) cand.push_back(pairs[i]);
    }
    // And K <= v for a variable entering with a constant K (an offset that starts past a chunk).
    std::vector<std::pair<int, uint64_t>> lower;
    for (int v : vars)
      if (sizeVar(v) && entry.at(v).e->simplify().is_numeral() && entry.at(v).e->simplify().get_numeral_uint64() != 0)
        lower.push_back({v, entry.at(v).e->simplify().get_numeral_uint64()});
    // IFMA dialect: K <= v and v <= K for an integer entering with a constant K (a count-down
    // `for (int i = 7; i >= 0; --i)` keeps i <= 7), compared as the variable's type does.
    struct Range {
      int v;
      z3::expr k;
      bool upper;
    };
    std::vector<Range> ranges;
    auto rangeTerm = [&](const Range &r, const std::map<int, Val> &en) {
      const Type &t = F.vars[(size_t)r.v].ty;
      const z3::expr x = *en.at(r.v).e;
      if (t.isSigned && t.bits >= 8 && t.bits <= 64) {
        const z3::expr sx = x.extract(t.bits - 1, 0), sk = r.k.extract(t.bits - 1, 0);
        return r.upper ? z3::sle(sx, sk) : z3::sle(sk, sx);
      }
      return r.upper ? z3::ule(x, r.k) : z3::ule(r.k, x);
    };
    // (out-coverage, either dialect: a loop's counter bounded by its constant limit bounds the
    // bytes it may have written.)
    if (ifma || cov) {
      for (int v : vars)
        if (F.vars[(size_t)v].ty.isSigned && entry.at(v).e->simplify().is_numeral()) {
          ranges.push_back(Range{v, entry.at(v).e->simplify(), true});
          ranges.push_back(Range{v, entry.at(v).e->simplify(), false});
        }
      // And the constant a loop variable is compared with (`g < 8` keeps g <= 8).
      if (cnd && cnd->kind == Expr::Bin && cnd->args.size() == 2)
        for (int k = 0; k < 2; ++k) {
          const Expr &x = *cnd->args[(size_t)k], &y = *cnd->args[(size_t)(1 - k)];
          if (x.kind != Expr::Var || y.kind != Expr::Const) continue;
          if (std::find(vars.begin(), vars.end(), x.var) == vars.end()) continue;
          ranges.push_back(Range{x.var, bv((uint64_t)y.value), true});
          ranges.push_back(Range{x.var, bv((uint64_t)y.value), false});
        }
      // out-coverage: each unsigned 64-bit loop variable and moved pointer offset against its
      // entry value either way (`n` only falls, `out` only rises: the range a loop has written
      // lies past where it started).
      if (cov) {
        std::vector<int> mv;
        for (int v : vars)
          if (!F.vars[(size_t)v].ty.isSigned && F.vars[(size_t)v].ty.bits == 64) mv.push_back(v);
        mv.insert(mv.end(), pvars.begin(), pvars.end());
        for (int v : mv) {
          ranges.push_back(Range{v, entry.at(v).e->simplify(), true});
          ranges.push_back(Range{v, entry.at(v).e->simplify(), false});
        }
      }
      // (Only those true on entry: the filter below keeps what one iteration keeps.)
      std::vector<z3::expr> claims;
      for (const Range &r : ranges) claims.push_back(rangeTerm(r, entry));
      const std::vector<bool> ok = holdsEach(claims);
      std::vector<Range> atEntry;
      for (size_t i = 0; i < ranges.size(); ++i)
        if (ok[i]) atEntry.push_back(ranges[i]);
      ranges = atEntry;
    }
    // And, between a size_t loop variable u and a 32-bit one v (a byte offset and a block counter
    // of a keystream loop, which moves both by its blocks), 64 v - u (mod 2^38) as on entry; and
    // u mod 64 as on entry.
    struct Rel {
      int u, v;  // v < 0: u mod 64
      z3::expr k;
      bool guarded = false;  // only where the loop goes on: cond -> the relation
    };
    auto relTerm = [&](int u, int v, const std::map<int, Val> &en) {
      const z3::expr x = *en.at(u).e;
      return v < 0 ? (x & bv(63)) : ((z3::shl(*en.at(v).e, bv(6)) - x) & bv((1ull << 38) - 1));
    };
    std::vector<Rel> rel;
    for (int u : vars) {
      if (!sizeVar(u)) continue;
      rel.push_back({u, -1, relTerm(u, -1, entry)});
      for (int v : vars)
        if (F.vars[(size_t)v].ty.bits == 32) rel.push_back({u, v, relTerm(u, v, entry)});
    }
    // The IFMA keystream pass: the same for a moved pointer (the 4-block stream's out and its
    // counter), where the loop goes on: its last, partial step moves the pointer by less and
    // leaves the loop.
    if (ks && ifma)
      for (int u : pvars) {
        rel.push_back({u, -1, relTerm(u, -1, entry), true});
        for (int v : vars)
          if (F.vars[(size_t)v].ty.bits == 32) rel.push_back({u, v, relTerm(u, v, entry), true});
      }
    // The loop's condition at state `en`.
    auto goesOn = [&](const std::map<int, Val> &en) {
      if (!cnd) return c.bool_val(true);
      std::map<int, Val> saved = env;
      env = en;
      const z3::expr g = asInt(eval(*cnd), s.loc) != bv(0);
      env = saved;
      return g;
    };
    auto relFact = [&](const Rel &r, const std::map<int, Val> &en) {
      const z3::expr f = relTerm(r.u, r.v, en) == r.k;
      return r.guarded ? z3::implies(goesOn(en), f) : f;
    };
    // The head of an arbitrary iteration: every loop variable unknown (a moved pointer keeps its
    // buffer, with an unknown offset).
    std::vector<std::pair<z3::expr, int>> headConsts;  // the last head's constants and their variables
    // Every other variable the body assigns (a bool or mask flag, a vector) has no value the walk
    // can carry around the loop: unknown at each head (found by the stop-29 review: a bool set at
    // the end of the body kept its entry value, so a branch on it was dead code to every walk).
    std::vector<int> others;
    for (int v : out)
      if (!decl.count(v) && env.count(v) && std::find(vars.begin(), vars.end(), v) == vars.end() &&
          std::find(pvars.begin(), pvars.end(), v) == pvars.end())
        others.push_back(v);
    auto head = [&](const std::string &tag) {
      for (int v : others) {  // (integers are `vars`, moved pointers `pvars`)
        const Type &t = F.vars[(size_t)v].ty;
        // mac-order: a value of h that the loop only ever zeroes is, at its head, what it was on
        // entry or zero.
        if (mac && genVar >= 0 && entry.count(v) && entry.at(v).hGen && onlyZeroed(s, v)) {
          Val h = entry.at(v);
          const z3::expr z = c.bool_const((F.vars[(size_t)v].name + tag + "zero" + std::to_string(fresh++)).c_str());
          h.hZero = h.hZero ? (*h.hZero || z) : z;
          env[v] = h;
          continue;
        }
        const bool flag = t.kind == Type::Bool || t.kind == Type::Mask;
        env[v] = flag ? intV(trunc(unknown(F.vars[(size_t)v].name + tag), t.kind == Type::Bool ? 1 : t.bits)) : Val{};
      }
      headConsts.clear();
      for (int v : vars) {
        z3::expr x = c.bv_const((F.vars[(size_t)v].name + tag + std::to_string(fresh++)).c_str(), 64);
        headConsts.push_back({x, v});
        // (IFMA dialect: a narrower integer's value is kept in its width, as assignments keep it.)
        const unsigned w = F.vars[(size_t)v].ty.bits;
        env[v] = intV(ifma && w >= 1 && w < 64 ? trunc(x, w) : x);
      }
      for (int v : pvars) {
        Val p = entry.at(v);
        p.e = c.bv_const((F.vars[(size_t)v].name + tag + std::to_string(fresh++)).c_str(), 64);
        headConsts.push_back({*p.e, v});
        env[v] = p;
      }
    };
    // After an iteration every moved pointer is still in its buffer's base.
    auto sameBases = [&] {
      for (int v : pvars) {
        const Val &p = env.at(v);
        if (!p.ptr || p.base != entry.at(v).base || !p.e) fail(s.loc, "a loop that moves pointer " + F.vars[(size_t)v].name + " to another buffer");
      }
    };
    // IFMA dialect: linear relations a x - b y = k (mod 2^64) between two loop variables (integer
    // values, moved pointers' offsets) that hold on entry and that one iteration keeps: where
    // one iteration moves both by constants dx and dy, a = dy / g and b = dx / g (g their
    // greatest common divisor: mp - 128 g, mp + n); else x + y and x - y (out + n when both move
    // by the same unknown step).
    struct Lin {
      int x, y;
      int64_t a, b;
      z3::expr k;
    };
    std::vector<Lin> lin;
    // A variable's value as a 64-bit number: a signed integer narrower than 64 bits sign-extended
    // (`int g` counts 0..8; a step that would overflow it is undefined in C and, under the loop
    // condition g < 8, never taken), a moved pointer's offset.
    auto linVal = [&](int v, const std::map<int, Val> &en) {
      const Type &t = F.vars[(size_t)v].ty;
      const z3::expr x = *en.at(v).e;
      if (!en.at(v).ptr && t.kind == Type::Int && t.isSigned && t.bits >= 8 && t.bits < 64) return z3::sext(x.extract(t.bits - 1, 0), 64 - t.bits);
      return x;
    };
    auto linTerm = [&](const Lin &l, const std::map<int, Val> &en) {
      return bv((uint64_t)l.a) * linVal(l.x, en) - bv((uint64_t)l.b) * linVal(l.y, en);
    };
    if (ifma) {
      std::vector<int> lv;
      for (int v : vars)
        if (v != unsettledVar) lv.push_back(v);
      lv.insert(lv.end(), pvars.begin(), pvars.end());
      if (lv.size() >= 2) {
        // One iteration from an unknown head, to read each variable's step.
        head("@d");
        const std::map<int, Val> h0 = env;
        const bool saved = returned, savedChecking = checking;
        const size_t pd = path.size();
        checking = false;
        if (cnd) path.push_back(asInt(eval(*cnd), s.loc) != bv(0));
        if (s.then) exec(*s.then);
        if (s.inc) eval(*s.inc);
        checking = savedChecking;
        returned = saved;
        path.erase(path.begin() + (long)pd, path.end());
        std::map<int, std::optional<int64_t>> step;
        for (int v : lv) {
          if (!env.count(v) || !env.at(v).e) continue;
          // The step in the variable's own width (a 32-bit counter's ++ is +1 there).
          const Type &t = F.vars[(size_t)v].ty;
          const unsigned w = !env.at(v).ptr && t.kind == Type::Int && t.bits >= 8 && t.bits < 64 ? t.bits : 64;
          z3::expr d = (env.at(v).e->extract(w - 1, 0) - h0.at(v).e->extract(w - 1, 0)).simplify();
          if (d.is_numeral()) {
            uint64_t u = d.get_numeral_uint64();
            if (w < 64 && (u >> (w - 1)) & 1) u |= ~0ull << w;  // two's complement in w bits
            step[v] = (int64_t)u;
          }
        }
        env = entry;
        fills = fillsEntry;
        setCov(wEntry);
        std::vector<Lin> cands;
        for (size_t i = 0; i < lv.size(); ++i)
          for (size_t j = i + 1; j < lv.size(); ++j) {
            const int x = lv[i], y = lv[j];
            const auto dx = step[x], dy = step[y];
            if (dx && dy && *dx != 0 && *dy != 0) {
              const int64_t g = std::gcd(*dx, *dy);
              cands.push_back(Lin{x, y, *dy / g, *dx / g, bv(0)});
            } else {
              cands.push_back(Lin{x, y, 1, -1, bv(0)});
              cands.push_back(Lin{x, y, 1, 1, bv(0)});
            }
          }
        for (Lin &l : cands) {
          l.k = linTerm(l, entry).simplify();
          lin.push_back(l);
        }
      }
    }
    // Every candidate fact at the state `en` (a loop head, or after the loop).
    auto pushFacts = [&](const std::map<int, Val> &en) {
      for (auto &[a, b] : cand) path.push_back(z3::ule(termOf(a, en), termOf(b, en)));
      for (auto &[v, k] : lower) path.push_back(z3::ule(bv(k), *en.at(v).e));
      for (const Range &r : ranges) path.push_back(rangeTerm(r, en));
      for (const Rel &r : rel) path.push_back(relFact(r, en));
      for (const Lin &l : lin) path.push_back(linTerm(l, en) == l.k);
    };
    // A counting loop for (i = A; i < B; ++i) with B unchanged: A <= i < B.
    std::optional<std::pair<int, z3::expr>> counting;
    // Keep what holds: check each candidate fact for one iteration from a head where all hold.
    const size_t p0 = path.size();
    for (int round = 0; round < 4; ++round) {
      head("@h");
      std::map<int, Val> h = env;
      pushFacts(h);
      if (cnd) path.push_back(asInt(eval(*cnd), s.loc) != bv(0));
      bool saved = returned, savedChecking = checking;
      checking = false;  // accesses are checked below, once the facts are settled
      if (s.then) exec(*s.then);
      if (s.inc) eval(*s.inc);
      checking = savedChecking;
      returned = saved;
      sameBases();
      std::vector<z3::expr> claims;
      for (auto &[a, b] : cand) claims.push_back(z3::ule(termOf(a, env), termOf(b, env)));
      for (auto &[v, k] : lower) claims.push_back(z3::ule(bv(k), *env.at(v).e));
      for (const Range &r : ranges) claims.push_back(rangeTerm(r, env));
      for (const Rel &r : rel) claims.push_back(relFact(r, env));
      for (const Lin &l : lin) claims.push_back(linTerm(l, env) == l.k);
      const std::vector<bool> ok = holdsEach(claims);
      size_t at = 0;
      std::vector<std::pair<int, int>> keep;
      for (auto &ab : cand)
        if (ok[at++]) keep.push_back(ab);
      std::vector<std::pair<int, uint64_t>> keepLow;
      for (auto &vk : lower)
        if (ok[at++]) keepLow.push_back(vk);
      std::vector<Range> keepRange;
      for (const Range &r : ranges)
        if (ok[at++]) keepRange.push_back(r);
      std::vector<Rel> keepRel;
      for (const Rel &r : rel)
        if (ok[at++]) keepRel.push_back(r);
      std::vector<Lin> keepLin;
      for (const Lin &l : lin)
        if (ok[at++]) keepLin.push_back(l);
      path.erase(path.begin() + (long)p0, path.end());
      env = entry;
      fills = fillsEntry;
      setCov(wEntry);
      if (keep.size() == cand.size() && keepLow.size() == lower.size() && keepRel.size() == rel.size() && keepLin.size() == lin.size() &&
          keepRange.size() == ranges.size())
        break;
      ranges = keepRange;
      lin = keepLin;
      rel = keepRel;
      cand = keep;
      lower = keepLow;
    }
    // out-coverage: which of the body's store starts E keep [E(entry), E(head)) written.
    std::vector<z3::expr> covCands;  // over the constants of covHead
    std::vector<std::pair<z3::expr, int>> covHead;
    auto covAt = [&](const z3::expr &E, const std::map<int, Val> &st) {
      z3::expr_vector from(c), to(c);
      for (auto &[k, v] : covHead) {
        from.push_back(k);
        auto it = st.find(v);
        to.push_back(it != st.end() && it->second.e ? *it->second.e : unknown("cov"));
      }
      z3::expr x = E;
      return x.substitute(from, to).simplify();
    };
    // (The bytes before the loop are left out of an iteration's check: its claims are about the
    // candidates' own ranges, and a smaller `written` keeps those queries small.)
    // A loop's range of output offsets [a, b), compared as offsets (no wrap: a range that only
    // grows stays one range, which the over-approximation needs).
    auto covRange = [&](const z3::expr &a, const z3::expr &b) { return z3::uge(*covQ, a) && z3::ult(*covQ, b); };
    auto covFrom = [&](const std::map<int, Val> &st, bool withEntry = true) {
      z3::expr w = withEntry ? *wEntry.under : c.bool_val(false);
      for (const z3::expr &E : covCands) {
        const z3::expr a = covAt(E, entry);
        w = w || covRange(a, covAt(E, st));
      }
      return w.simplify();
    };
    // The over-approximation: what came before and the candidates' ranges, where one iteration is
    // proved to write nothing outside them (overOK), else every byte.
    bool overOK = false;
    std::vector<z3::expr> overCands;  // the candidates of the over-approximation (overOK)
    auto overFrom = [&](const std::map<int, Val> &st, const std::vector<z3::expr> *cands = nullptr) {
      z3::expr w = *wEntry.over;
      for (const z3::expr &E : cands ? *cands : covCands) {
        const z3::expr a = covAt(E, entry);
        w = w || covRange(a, covAt(E, st));
      }
      return w.simplify();
    };
    if (covLoop) {
      head("@c");
      covHead = headConsts;
      const std::map<int, Val> hc = env;
      const bool saved = returned, savedChecking = checking;
      checking = false;
      for (int round = 0; round < 8; ++round) {
        env = hc;
        pushFacts(hc);
        if (cnd) path.push_back(asInt(eval(*cnd), s.loc) != bv(0));
        written = covFrom(hc, false);
        mayW = overFrom(hc);
        covCollect = round == 0;
        covStarts.clear();
        if (s.then) exec(*s.then);
        if (s.inc) eval(*s.inc);
        covCollect = false;
        returned = saved;
        const z3::expr overClaim = z3::implies(*mayW, overFrom(env));  // (this round's candidates)
        auto overHolds = [&] {
          covQuery = true;
          const bool ok = holds(overClaim);
          covQuery = false;
          return ok;
        };
        if (round == 0) {
          // The candidates: the distinct starts, over the head's constants, and of starts a
          // constant apart (the 8 bytes of a word store, the 16 stores of a 1024-byte chunk)
          // only the lowest: the others' bytes [E + d, ...) follow from it where they hold.
          for (const z3::expr &E : covStarts) {
            bool dup = false;
            for (z3::expr &x : covCands) {
              // (A constant difference, read off at two points: a heuristic that only picks
              // which candidates to try, so it need not be proved.)
              z3::expr_vector from(c), zero(c), other(c);
              for (auto &[k, v] : covHead) {
                from.push_back(k);
                zero.push_back(bv(0));
                other.push_back(bv(0x9e3779b97f4a7c15ull));
              }
              z3::expr diff = E - x;
              const z3::expr d = diff.substitute(from, zero).simplify(), d1 = diff.substitute(from, other).simplify();
              if (!d.is_numeral() || !d1.is_numeral() || d.get_numeral_uint64() != d1.get_numeral_uint64()) continue;
              dup = true;
              if (d.get_numeral_uint64() >> 63) x = E;  // E lies below x
              break;
            }
            if (!dup) covCands.push_back(E);
          }
          overCands = covCands;  // (all of them, for the second try below)
          if (covCands.empty()) overOK = overHolds();
        } else {
          std::vector<z3::expr> claims;
          for (const z3::expr &E : covCands) {
            const z3::expr a = covAt(E, entry);
            claims.push_back(z3::implies(covRange(a, covAt(E, env)), *written));
          }
          covQuery = true;
          const std::vector<bool> ok = holdsEach(claims);
          covQuery = false;
          std::vector<z3::expr> keep;
          for (size_t i = 0; i < covCands.size(); ++i) {
            if (ok[i]) keep.push_back(covCands[i]);
          }
          const bool stable = keep.size() == covCands.size();
          covCands = keep;
          if (stable) {
            overOK = overHolds();
            round = 8;
          }
        }
        path.erase(path.begin() + (long)p0, path.end());
        env = entry;
        fills = fillsEntry;
        setCov(wEntry);
        if (covCands.empty() && round == 0) break;  // (a round that dropped them all is followed by one without)
        if (round == 7) covCands.clear();  // (not settled: none kept, nothing known of the over-approximation)
      }
      // The over-approximation where the kept candidates do not bound the body's writes (a loop
      // that skips bytes it steps over): all of the body's starts, tried once.
      if (overOK) {
        overCands = covCands;
      } else if (!overCands.empty()) {
        env = hc;
        pushFacts(hc);
        if (cnd) path.push_back(asInt(eval(*cnd), s.loc) != bv(0));
        written = covFrom(hc, false);
        mayW = overFrom(hc, &overCands);
        if (s.then) exec(*s.then);
        if (s.inc) eval(*s.inc);
        returned = saved;
        covQuery = true;
        overOK = holds(z3::implies(*mayW, overFrom(env, &overCands)));
        covQuery = false;
        path.erase(path.begin() + (long)p0, path.end());
        env = entry;
        fills = fillsEntry;
        setCov(wEntry);
      }
      checking = savedChecking;
      covStarts.clear();
    }
    // The checked iteration: every access of the body under the facts and the condition.
    head("@i");
    std::map<int, Val> h = env;
    pushFacts(h);
    if (covLoop) {
      written = covFrom(h);
      mayW = overOK ? overFrom(h, &overCands) : c.bool_val(true);
    }
    if (mac && env.count(cursorVar) && std::find(vars.begin(), vars.end(), cursorVar) != vars.end())
      for (const Lin &l : lin) {
        // The cursor at the head by a kept relation cursor - b y = k, in terms of y (an equal
        // value on this path: the fact is assumed here), so that the MAC claims of the body are
        // plain arithmetic in y.
        if (l.x != cursorVar && l.y != cursorVar) continue;
        const bool onX = l.x == cursorVar;
        const int y = onX ? l.y : l.x;
        const int64_t ac = onX ? l.a : -l.b, by = onX ? l.b : -l.a;  // ac cursor - by y = k
        if (ac != 1 && ac != -1) continue;
        z3::expr rhs = l.k + bv((uint64_t)by) * linVal(y, env);
        if (ac == -1) rhs = -rhs;
        env[cursorVar] = intV(rhs.simplify());
        break;
      }
    if (cnd && cnd->kind == Expr::Bin && cnd->name == "<" && cnd->args[0]->kind == Expr::Var && counter >= 0 &&
        cnd->args[0]->var == counter) {
      // A <= i: the initial value, when B's variables are not assigned by the loop.
      std::set<int> bvars;
      std::function<void(const Expr &)> uses = [&](const Expr &x) {
        if (x.kind == Expr::Var) bvars.insert(x.var);
        for (const auto &a : x.args)
          if (a) uses(*a);
      };
      uses(*cnd->args[1]);
      bool fixed = true;
      for (int v : bvars)
        if (out.count(v)) fixed = false;
      if (fixed && entry.count(counter) && entry.at(counter).e) {
        const Type &ct = F.vars[(size_t)counter].ty;
        if (ifma && ct.isSigned && ct.bits >= 8 && ct.bits <= 64)
          path.push_back(z3::sle(entry.at(counter).e->extract(ct.bits - 1, 0), env.at(counter).e->extract(ct.bits - 1, 0)));
        else
          path.push_back(z3::ule(*entry.at(counter).e, *env.at(counter).e));
      }
    }
    if (cnd) path.push_back(asInt(eval(*cnd), s.loc) != bv(0));
    bool saved = returned;
    // (Facts that rule the body out, a loop that never runs, leave nothing to check in it.)
    if (!holds(c.bool_val(false))) {
      const std::optional<z3::expr> pend0 = mac ? std::optional<z3::expr>(pending()) : std::nullopt;
      if (s.then) exec(*s.then);
      if (s.inc) eval(*s.inc);
      // A loop leaves no loaded piece behind from one iteration to the next (the walk does not
      // carry the pending count around loops).
      if (pend0) macClaim(pending() == *pend0, s.loc, "an iteration of this loop loads a block it does not absorb, or absorbs one loaded before it", {});
    }
    returned = saved;
    path.erase(path.begin() + (long)p0, path.end());
    fills = fillsEntry;
    setCov(wEntry);
    // After the loop: the facts, and the condition false.
    head("@x");
    std::map<int, Val> x = env;
    pushFacts(x);
    if (cnd) path.push_back(asInt(eval(*cnd), s.loc) == bv(0));
    // The path stays consistent (every branch taken was proved feasible): a contradiction here
    // would let everything after the loop prove.
    if (holds(c.bool_val(false))) fail(s.loc, "the facts after this loop contradict each other (a loop that never ends, or the verifier's own error)");
    if (ifma) closedForms(cnd, vars, pvars, lin, out);
    if (covLoop) {
      written = covFrom(env);
      mayW = overOK ? overFrom(env, &overCands) : c.bool_val(true);
    }
    covStarts = std::move(outerStarts);
    covCollect = outerCollect;
    if (outerCollect)
      for (const z3::expr &E : covCands) covStarts.push_back(covAt(E, entry));
  }

  // Does `x` have one value at every head of a loop whose body assigns the variables `out`? Only
  // if it reads none of them and has no effect or hidden input: no call, assignment, increment
  // or intrinsic, and no memory read (Index, Deref), since the body may store to that memory.
  static bool sameAtEveryHead(const Expr &x, const std::set<int> &out) {
    if (x.kind == Expr::Var && out.count(x.var)) return false;
    if (x.kind == Expr::Call || x.kind == Expr::Assign || x.kind == Expr::IncDec || x.kind == Expr::Intrin ||
        x.kind == Expr::Index || x.kind == Expr::Deref)
      return false;
    for (const auto &a : x.args)
      if (a && !sameAtEveryHead(*a, out)) return false;
    return true;
  }

  // IFMA dialect, after a loop: the exit values the facts pin down, in closed form (each one
  // proved equal on this path, so replacing the unknown by it changes nothing but the size of
  // later queries). A counted variable compared with a bound the loop does not assign ends at
  // it (`i < nch` leaves i = nch); a variable tied to one already known by a kept linear
  // relation x - b y = k follows it (`cursor - 1024 i`).
  template <class LinT>
  void closedForms(const Expr *cnd, const std::vector<int> &vars, const std::vector<int> &pvars, const std::vector<LinT> &lin, const std::set<int> &out) {
    std::set<int> known;
    if (cnd && cnd->kind == Expr::Bin && cnd->args.size() == 2)
      for (int k = 0; k < 2; ++k) {
        const Expr &x = *cnd->args[(size_t)k], &y = *cnd->args[(size_t)(1 - k)];
        if (x.kind != Expr::Var || std::find(vars.begin(), vars.end(), x.var) == vars.end()) continue;
        if (!sameAtEveryHead(y, out)) continue;
        Val b = eval(y);
        if (!b.e || b.ptr) continue;
        const Type &t = F.vars[(size_t)x.var].ty;
        const z3::expr bound = t.bits >= 1 && t.bits < 64 ? trunc(*b.e, t.bits) : *b.e;
        if (holds(*env.at(x.var).e == bound)) {
          env[x.var] = intV(bound.simplify());
          known.insert(x.var);
        }
      }
    for (int round = 0; round < 2 && !known.empty(); ++round)
      for (const LinT &l : lin) {
        for (int side = 0; side < 2; ++side) {
          const int x = side ? l.y : l.x, y = side ? l.x : l.y;
          const int64_t ax = side ? -l.b : l.a, by = side ? -l.a : l.b;  // ax x - by y = k
          if (known.count(x) || !known.count(y) || (ax != 1 && ax != -1)) continue;
          const Type &t = F.vars[(size_t)x].ty;
          if (!env.count(x) || !env.at(x).e || (!env.at(x).ptr && t.kind == Type::Int && t.bits < 64)) continue;
          const Type &ty = F.vars[(size_t)y].ty;
          z3::expr yv = *env.at(y).e;
          if (!env.at(y).ptr && ty.kind == Type::Int && ty.isSigned && ty.bits >= 8 && ty.bits < 64) yv = z3::sext(yv.extract(ty.bits - 1, 0), 64 - ty.bits);
          z3::expr rhs = l.k + bv((uint64_t)by) * yv;
          if (ax == -1) rhs = -rhs;
          rhs = rhs.simplify();
          if (holds(*env.at(x).e == rhs)) {
            Val v = env.at(x);
            v.e = rhs;
            v.lowBits.reset();
            env[x] = v;
            known.insert(x);
          }
        }
      }
    (void)pvars;
  }
};

// One walk of `fn`'s body (a fresh Z3 context), `setup` choosing the pass and `bind` binding the
// parameters: the failure, if any, and the queries it asked.
std::optional<Failure> runWalk(const File &f, const Function &fn, unsigned &checks, const std::function<void(Walker &, z3::context &)> &setup,
                               void (Walker::*bind)() = &Walker::bindParams) {
  z3::context c;
  Walker w(f, fn, c);
  std::optional<Failure> failure;
  try {
    setup(w, c);
    (w.*bind)();
    if (fn.body) w.exec(*fn.body);
    w.settle();
    if (w.onEnd) w.onEnd();
  } catch (Failure &fl) {
    failure = fl;
  } catch (...) {
    // The walk went on past a deferred claim: if one of those fails, it is the answer.
    try {
      w.settle();
    } catch (Failure &fl) {
      failure = fl;
    }
    if (!failure) throw;
  }
  checks += w.checks;
  return failure;
}

// One walk of the kernel's body for obligation `o`, `setup` choosing the pass.
void walk(const File &f, const Function &kernel, Obligation &o, const std::function<void(Walker &, z3::context &)> &setup) {
  auto t0 = std::chrono::steady_clock::now();
  unsigned checks = 0;
  std::optional<Failure> failure = runWalk(f, kernel, checks, setup);
  if (failure) {
    o.res = Res::FAILED;
    o.cex = "line " + std::to_string(failure->loc.line) + ": " + failure->msg;
  } else {
    o.note = std::to_string(checks) + " queries";
  }
  o.queries = (int)checks;
  o.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

// The keystream pass of either dialect: the text buffers, the first block counter (the counter
// parameter, or 1 for a one-shot AEAD, which also takes its one-time key from block 0).
static void keystreamSetup(Walker &w, z3::context &c, const Function &kernel, const std::string &out, const std::string &in, bool fromParam) {
  w.ks = true;
  w.outBuf = out;
  w.inBuf = in;
  w.oneTimeKey = !fromParam;
  w.inByte = c.function("in", c.bv_sort(64), c.bv_sort(8));
  w.ksByte = c.function("ks", c.bv_sort(32), c.bv_sort(64), c.bv_sort(8));
  if (fromParam && !w.hasParam("counter")) throw Failure{kernel.name + " has no counter parameter", kernel.loc};
  if (!w.hasParam(out) || !w.hasParam(in)) throw Failure{kernel.name + " has no parameter " + out + " or " + in + " (the kernel ABI)", kernel.loc};
  w.baseCtr = fromParam ? c.bv_const("counter", 64).extract(31, 0) : c.bv_val(1, 32);
}

void proveKeystream(const File &f, const Function &kernel, const std::function<Obligation *(SrcLoc, const std::string &)> &add) {
  Contract kc = contractOf(kernel);
  // The kernel ABI (emitted/README.md): the text buffers and the first block counter by role.
  std::string out, in;
  if (kc.role == "aead.seal" || kc.role == "aead.seal_update") out = "ct", in = "pt";
  else if (kc.role == "aead.open" || kc.role == "aead.open_update") out = "pt", in = "ct";
  else if (kc.role == "chacha20.xor") out = "out", in = "in";
  else return;
  const bool fromParam = kc.role != "aead.seal" && kc.role != "aead.open";
  Obligation *o = add(kernel.loc, "byte q of " + out + " is " + in + "[q] XOR byte q % 64 of ChaCha20 block " +
                                      (fromParam ? std::string("counter") : std::string("1")) + " + q / 64 of the kernel's key and nonce" +
                                      (fromParam ? "" : "; the one-time key is block 0 (RFC 8439 2.4, 2.6, 2.8)"));
  if (!o) return;
  walk(f, kernel, *o, [&](Walker &w, z3::context &c) { keystreamSetup(w, c, kernel, out, in, fromParam); });
}

// Whether the kernel's name ends with `suf` (the kernel ABI by name, emitted/README.md).
static bool nameEnds(const Function &kernel, const std::string &suf) {
  return kernel.name.size() > suf.size() && kernel.name.compare(kernel.name.size() - suf.size(), suf.size(), suf) == 0;
}

// Whether a kernel reaches a helper marked // chapoly-bounds-only (the hand-written samples, with
// --allow-bounds-only: the generator never emits the marker).
static bool reachesBoundsOnly(const File &f, const Function &kernel) {
  std::set<int> seen;
  std::function<bool(const Stmt &)> boundsOnly;
  std::function<bool(const Expr &)> inE = [&](const Expr &x) {
    if (x.kind == Expr::Call && x.fn >= 0 && seen.insert(x.fn).second) {
      const Function &g = f.funcs[(size_t)x.fn];
      if (markedBoundsOnly(g)) return true;
      if (g.body && boundsOnly(*g.body)) return true;
    }
    for (const auto &a : x.args)
      if (a && inE(*a)) return true;
    return false;
  };
  boundsOnly = [&](const Stmt &t) {
    for (const ExprP *q : {&t.e, &t.inc})
      if (*q && inE(**q)) return true;
    bool any = false;
    forEachChild(t, [&](const Stmt &ch) { any = any || boundsOnly(ch); });
    return any;
  };
  return kernel.body && boundsOnly(*kernel.body);
}

void proveKeystreamIfma(const File &f, const Function &kernel, const std::function<Obligation *(SrcLoc, const std::string &)> &add) {
  auto ends = [&](const std::string &suf) { return nameEnds(kernel, suf); };
  // The kernel ABI (emitted/README.md), by name in this dialect: the text buffers and the first
  // block counter.
  std::string out, in;
  if (ends("_seal") || ends("_seal_update")) out = "ct", in = "pt";
  else if (ends("_open") || ends("_open_update")) out = "pt", in = "ct";
  else if (ends("_chacha20")) out = "out", in = "in";
  else return;
  const bool fromParam = !(ends("_seal") || ends("_open"));
  Obligation *o = add(kernel.loc, "the block each xor helper call xors into " + out + " at offset q is ChaCha20 block " +
                                      (fromParam ? std::string("counter") : std::string("1")) + " + q / 64 of the kernel's key and nonce, from " + in +
                                      " at q" + (fromParam ? "" : "; the one-time key is bytes 0..31 of block 0 (RFC 8439 2.4, 2.6, 2.8)"));
  if (!o) return;
  if (reachesBoundsOnly(f, kernel)) {
    o->what += ": not checked (it reaches a helper marked // chapoly-bounds-only, a hand-written sample)";
    return;
  }
  walk(f, kernel, *o, [&](Walker &w, z3::context &c) {
    w.ifma = true;
    keystreamSetup(w, c, kernel, out, in, fromParam);
  });
}

void proveMacOrderIfma(const File &f, const Function &kernel, const std::function<Obligation *(SrcLoc, const std::string &)> &add) {
  auto ends = [&](const std::string &suf) { return nameEnds(kernel, suf); };
  // The kernel ABI (emitted/README.md), by name in this dialect: what its MAC absorbs.
  int kind = -1;
  std::string ct;
  if (ends("_seal") || ends("_open")) kind = 0, ct = "ct";
  else if (ends("_poly1305")) kind = 1, ct = "msg";
  else if (ends("_seal_update") || ends("_open_update")) kind = 2, ct = "ct";
  else if (ends("_poly1305_update")) kind = 3, ct = "msg";
  if (kind < 0) return;  // (the ChaCha20 entry has no MAC)
  static const char *whats[] = {"the MAC absorbs pad16(AAD) || pad16(ct) || le64(aad_len) || le64(len) in order, each piece once, from byte 0 to the end (RFC 8439 2.8)",
                                "the MAC absorbs msg[0..len) in order, each block once, a short last block padded with 0x01 (RFC 8439 2.5)",
                                "the MAC absorbs the whole 64-byte chunks of ct in order, each block once, and stores h after the last",
                                "the MAC absorbs the whole 16-byte blocks of msg in order, each once with 2^128 added, and stores h after the last"};
  Obligation *o = add(kernel.loc, whats[kind]);
  if (!o) return;
  // A hand-written test kernel whose helpers are marked bounds-only (the generator never emits
  // the marker) has no roles to place its pieces by: said, not checked.
  if (reachesBoundsOnly(f, kernel)) {
    o->what += ": not checked (it reaches a helper marked // chapoly-bounds-only, a hand-written sample)";
    return;
  }
  File f2 = f;
  auto pseudo = [&](const char *name, unsigned bits) {
    Var v;
    v.name = name;
    v.ty.kind = Type::Int;
    v.ty.bits = bits;
    v.ty.spelling = bits == 64 ? "size_t" : "uint8_t";
    f2.vars.push_back(v);
    return (int)f2.vars.size() - 1;
  };
  const int curV = pseudo("cursor", 64), pendV = pseudo("pending", 8), unsetV = pseudo("unsettled", 8), genV = pseudo("h generation", 64);
  walk(f2, kernel, *o, [&](Walker &w, z3::context &) {
    w.ifma = true;
    w.mac = true;
    w.macKind = kind == 0   ? Walker::MacKind::Aead
                : kind == 1 ? Walker::MacKind::Poly
                : kind == 2 ? Walker::MacKind::Update
                            : Walker::MacKind::Blocks;
    w.ctBuf = ct;
    w.cursorVar = curV;
    w.pendingVar = pendV;
    w.unsettledVar = unsetV;
    w.env[curV] = w.intV(w.bv(0));
    w.env[pendV] = w.intV(w.bv(0));
    w.env[unsetV] = w.intV(w.bv(0));
    w.genVar = genV;
    w.env[genV] = w.intV(w.bv(0));
    if (!w.hasParam(ct)) throw Failure{kernel.name + " has no parameter " + ct + " (the kernel ABI)", kernel.loc};
    for (int pv : kernel.params) {
      const Var &v = f2.vars[(size_t)pv];
      if (v.ty.kind == Type::Ptr && v.paramCount == 0) w.msgSide.insert(v.name);
    }
    w.onEnd = [&w, &kernel, kind] {
      if (!w.macEnded)
        throw Failure{std::string("the kernel reaches no ") + (kind >= 2 ? "ifma.state_store" : "poly1305.final") +
                          " helper: its MAC has no end the order check can place",
                      kernel.loc};
    };
  });
}

void proveOutCoverage(const File &f, const Function &kernel, const std::function<Obligation *(SrcLoc, const std::string &)> &add) {
  // The kernel ABI (emitted/README.md): the output text buffer, by the kernel's contract role
  // (mul64 dialect) or by its name (IFMA dialect).
  const Contract kc = contractOf(kernel);
  auto ends = [&](const std::string &suf) { return nameEnds(kernel, suf); };
  std::string out, in;
  if (kc.role == "aead.seal" || kc.role == "aead.seal_update" || ends("_seal") || ends("_seal_update")) out = "ct", in = "pt";
  else if (kc.role == "aead.open" || kc.role == "aead.open_update" || ends("_open") || ends("_open_update")) out = "pt", in = "ct";
  else if (kc.role == "chacha20.xor" || ends("_chacha20")) out = "out", in = "in";
  else return;
  // The streaming entries take the whole 64-byte chunks of len (emitted/README.md).
  const bool chunks = kc.role == "aead.seal_update" || kc.role == "aead.open_update" || ends("_seal_update") || ends("_open_update");
  Obligation *o = add(kernel.loc, "every byte of " + out + (chunks ? "[0..len - len % 64)" : "[0..len)") +
                                      " is written on every path to the kernel's return, read only after it is written, and each byte of " +
                                      in + " read before " + out + "'s byte there is written (in place)");
  if (!o) return;
  walk(f, kernel, *o, [&](Walker &w, z3::context &c) {
    w.ifma = !usesContracts(f);
    w.cov = true;
    w.covChunks = chunks;
    w.covBuf = out;
    w.covQ = c.bv_const("q", 64);
    w.written = c.bool_val(false);
    w.mayW = c.bool_val(false);
    w.covIn = w.hasParam(in) ? in : "";
    if (!w.hasParam(out) || !w.hasParam("len")) throw Failure{kernel.name + " has no parameter " + out + " or len (the kernel ABI)", kernel.loc};
    w.onEnd = [&w, &kernel] {
      if (!w.returned) w.covEnd(kernel.endLoc);
      w.settle();
    };
  });
}

// The contracted helpers `kernel` reaches (through any chain of calls), in the file's order.
static std::vector<int> contractedHelpers(const File &f, const Function &kernel) {
  std::set<int> seen;
  std::function<void(const Stmt &)> inS;
  std::function<void(const Expr &)> inE = [&](const Expr &x) {
    if (x.kind == Expr::Call && x.fn >= 0 && seen.insert(x.fn).second && f.funcs[(size_t)x.fn].body) inS(*f.funcs[(size_t)x.fn].body);
    for (const auto &a : x.args)
      if (a) inE(*a);
  };
  inS = [&](const Stmt &t) {
    for (const ExprP *q : {&t.e, &t.inc})
      if (*q) inE(**q);
    forEachChild(t, inS);
  };
  if (kernel.body) inS(*kernel.body);
  std::vector<int> out;
  for (int fi : seen)
    if (contractOf(f.funcs[(size_t)fi]).present) out.push_back(fi);
  return out;
}

void proveKernelBytes(const File &f, const Function &kernel, const std::function<Obligation *(SrcLoc, const std::string &)> &add) {
  const bool contracts = usesContracts(f);
  Obligation *o = add(kernel.loc, "every byte " + kernel.name + " reads or writes itself, and every buffer it hands to a helper, lies inside its buffer" +
                                      (contracts ? "; every proved helper it reaches reads and writes only inside the buffers its callers are held to" : ""));
  if (!o) return;
  walk(f, kernel, *o, [&](Walker &w, z3::context &) { w.ifma = !contracts; });
  if (!contracts || o->res != Res::OK) return;
  // The mul64 dialect hands a proved (contracted) helper buffers of its footprint and does not
  // walk it there: each such helper's own body is walked here, its parameters bound to exactly
  // those footprints, its vector loads and stores by their bytes and the helpers it calls inlined
  // (the IFMA dialect's walk). Helpers with RVV intrinsics: rvv.cpp (chacha-block) holds their
  // stores to out[0, 64 vl) and their local arrays. Each helper once per file and process.
  // (Kept in the File, as the other once-per-file helper proofs: File::helperProofs.)
  using Walked = std::pair<std::optional<Failure>, unsigned>;
  auto t0 = std::chrono::steady_clock::now();
  unsigned checks = 0, helpers = 0;
  for (int fi : contractedHelpers(f, kernel)) {
    const Function &g = f.funcs[(size_t)fi];
    const std::string key = helperKey(f, g, "helper-bytes");
    auto it = key.empty() ? f.helperProofs.end() : f.helperProofs.find(key);
    Walked w;
    if (it != f.helperProofs.end()) {
      w = std::any_cast<Walked>(it->second);
    } else {
      w.first = runWalk(f, g, w.second, [](Walker &wk, z3::context &) { wk.ifma = true; }, &Walker::bindHelperParams);
      if (!key.empty()) f.helperProofs[key] = w;
    }
    ++helpers;
    checks += w.second;
    if (w.first) {
      o->res = Res::FAILED;
      o->cex = "in " + g.name + ", line " + std::to_string(w.first->loc.line) + ": " + w.first->msg;
      break;
    }
  }
  o->queries += (int)checks;
  o->ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (o->res == Res::OK) o->note += " in the kernel's body; the bodies of " + std::to_string(helpers) + " proved helpers, " + std::to_string(checks) + " queries";
}

}  // namespace cv
