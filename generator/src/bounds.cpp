// bounds.cpp: interval estimate of Poly1305 limbs over the IR (see bounds.hpp).
#include "bounds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace chapoly::gen {

namespace {

using u128 = unsigned __int128;
using Env = std::map<std::string, u128>;
const u128 kLane = (static_cast<u128>(1) << 64) - 1;

u128 p2m1(int k) { return (static_cast<u128>(1) << k) - 1; }

int bitlen(u128 v) {
  int n = 0;
  while (v) { ++n; v >>= 1; }
  return n;
}

u128 get(const Env &e, const std::string &k) {
  auto it = e.find(k);
  if (it == e.end()) throw std::logic_error("bounds: unknown value " + k);
  return it->second;
}

void eval(const nlohmann::json &ops, Env &e) {
  for (const auto &o : ops) {
    const std::string op = o["op"];
    if (op == "comment") continue;
    const std::string dst = o["dst"];
    std::vector<std::string> a = o["args"].get<std::vector<std::string>>();
    int imm = o["imm"];
    u128 v = 0;
    if (op == "madd52lo") v = get(e, a[0]) + std::min<u128>(std::min(get(e, a[1]), p2m1(52)) * std::min(get(e, a[2]), p2m1(52)), p2m1(52));
    else if (op == "madd52hi") v = get(e, a[0]) + ((std::min(get(e, a[1]), p2m1(52)) * std::min(get(e, a[2]), p2m1(52))) >> 52);
    else if (op == "add64") v = get(e, a[0]) + get(e, a[1]);
    else if (op == "and") v = std::min(get(e, a[0]), get(e, a[1]));
    else if (op == "or") v = std::min(get(e, a[0]) + get(e, a[1]), p2m1(bitlen(std::max(get(e, a[0]), get(e, a[1])))));
    else if (op == "shr64") v = get(e, a[0]) >> imm;
    else if (op == "shl64") v = get(e, a[0]) << imm;
    else if (op == "mov") v = get(e, a[0]);
    else if (op == "zero") v = 0;
    else if (op == "load_blocks" || op == "deinterleave_lo" || op == "deinterleave_hi") v = kLane;
    else throw std::logic_error("bounds: unhandled op " + op);
    e[dst] = std::min(v, kLane + 1);  // kLane+1 marks "wrapped": no fixpoint
  }
}

Env constants() {
  return {{"ZERO", 0}, {"M44", p2m1(44)}, {"M42", p2m1(42)}, {"M24", p2m1(24)},
          {"HIBIT", static_cast<u128>(1) << 40}};
}

// h = a * b with the multiply block (names a0.., b0.., bs1, bs2 -> h0..).
std::vector<u128> mul(const nlohmann::json &blocks, const std::vector<u128> &a, const std::vector<u128> &b) {
  Env e = constants();
  for (int i = 0; i < 3; ++i) { e[fmt::format("a{}", i)] = a[i]; e[fmt::format("b{}", i)] = b[i]; }
  Env w = constants();
  w["b1"] = b[1]; w["b2"] = b[2];
  eval(blocks["poly_wrap"], w);
  e["bs1"] = w["bs1"]; e["bs2"] = w["bs2"];
  for (auto n : {"d0lo", "d0hi", "d1lo", "d1hi", "d2lo", "d2hi", "t", "c"}) e[n] = 0;
  eval(blocks["poly_mul"], e);
  return {e["h0"], e["h1"], e["h2"]};
}

std::vector<u128> carry(const nlohmann::json &blocks, const std::vector<u128> &h) {
  Env e = constants();
  for (int i = 0; i < 3; ++i) e[fmt::format("h{}", i)] = h[i];
  e["c"] = 0;
  eval(blocks["poly_carry"], e);
  return {e["h0"], e["h1"], e["h2"]};
}

std::vector<u128> vmax(const std::vector<u128> &x, const std::vector<u128> &y) {
  return {std::max(x[0], y[0]), std::max(x[1], y[1]), std::max(x[2], y[2])};
}
bool wrapped(const std::vector<u128> &x) {
  return std::any_of(x.begin(), x.end(), [](u128 v) { return v > kLane; });
}

// Limb maxima of the lane key powers: clamped r (RFC 8439 2.5.1), then r^2, r^4 (, r^8) and the
// lane powers (the key setup's multiplies), joined.
std::vector<u128> key_power_max(const Spec &s, const nlohmann::json &blocks) {
  // r's limbs at their largest (k0, k1: the clamped words of r, RFC 8439 2.5.1).
  const uint64_t k0 = 0x0ffffffc0fffffffULL, k1 = 0x0ffffffc0ffffffcULL;
  std::vector<u128> p1 = {k0 & p2m1(44), (k0 >> 44) | ((k1 & p2m1(24)) << 20), k1 >> 24};
  std::vector<u128> p = p1, q = p1;
  std::vector<std::vector<u128>> pw = {p1};
  for (int k = 2; k <= s.lanes; k *= 2) { p = mul(blocks, p, p); pw.push_back(p); }
  for (size_t bit = 0; (1 << bit) < s.lanes; ++bit) q = vmax(q, mul(blocks, q, pw[bit]));
  return vmax(q, p);
}

}  // namespace

std::vector<int> key_power_bits(const Spec &s, const nlohmann::json &blocks) {
  std::vector<int> bits;
  for (u128 v : key_power_max(s, blocks)) bits.push_back(bitlen(v));
  return bits;
}

std::vector<std::string> accumulator_invariant(const Spec &s, const nlohmann::json &blocks) {
  // Every key power (q, and rl = r^L), widened to the streaming state's load masks.
  std::vector<u128> qq;
  for (int b : key_power_bits(s, blocks)) qq.push_back(p2m1(b));
  const std::vector<u128> rl = qq;

  std::vector<u128> settled = {0, 0, 0}, acc = {0, 0, 0};
  for (int round = 0; round < 64; ++round) {
    // Lane step: acc = acc * r^L + m + hin, from acc = 0 on entry.
    std::vector<u128> a = {0, 0, 0};
    for (int it = 0; it < 64; ++it) {
      Env e = constants();
      for (int i = 0; i < 3; ++i) {
        e[fmt::format("acc{}", i)] = a[i];
        e[fmt::format("hin{}", i)] = settled[i];
        e[fmt::format("rl{}", i)] = rl[i];
      }
      Env w = constants();
      w["b1"] = rl[1]; w["b2"] = rl[2];
      eval(blocks["poly_wrap"], w);
      e["rls1"] = w["bs1"]; e["rls2"] = w["bs2"];
      for (auto n : {"w", "mlo", "mhi", "m0", "m1", "m2", "t", "c", "p0", "p1", "p2", "d0lo", "d0hi", "d1lo", "d1hi", "d2lo", "d2hi"}) e[n] = 0;
      eval(blocks["poly_group"], e);
      std::vector<u128> next = vmax(a, {e["acc0"], e["acc1"], e["acc2"]});
      if (wrapped(next)) throw std::runtime_error("accumulator outgrows 64-bit lanes");
      if (next == a) break;
      a = next;
      if (it == 63) throw std::runtime_error("no accumulator fixpoint");
    }
    acc = a;
    // Settled h: from the settle (hsum of lanes + hin, carry) and from a partial step.
    std::vector<u128> m = {p2m1(44), p2m1(44), p2m1(41)};
    std::vector<u128> prod = mul(blocks, acc, qq);
    std::vector<u128> sum = {prod[0] * s.lanes + settled[0], prod[1] * s.lanes + settled[1], prod[2] * s.lanes + settled[2]};
    std::vector<u128> t1 = carry(blocks, sum);
    std::vector<u128> hm = {settled[0] + m[0], settled[1] + m[1], settled[2] + m[2]};
    std::vector<u128> prod2 = mul(blocks, vmax(hm, m), qq);
    std::vector<u128> t2 = carry(blocks, {prod2[0] * s.lanes, prod2[1] * s.lanes, prod2[2] * s.lanes});
    std::vector<u128> next = vmax(settled, vmax(t1, t2));
    if (wrapped(next)) throw std::runtime_error("settled state outgrows 64-bit lanes");
    if (next == settled) break;
    settled = next;
  }
  std::vector<std::string> out;
  for (u128 v : acc) out.push_back(fmt::format("0x{:x}", static_cast<unsigned long long>(v)));
  return out;
}

}  // namespace chapoly::gen
