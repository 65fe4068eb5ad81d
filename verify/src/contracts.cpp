// contracts.cpp: parsing of `// chapoly-contract:` lines (see contracts.h).
#include "contracts.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>

namespace cv {

using json = nlohmann::json;

const std::vector<std::string> &contractRoles() {
  static const std::vector<std::string> r = {"poly1305.clamp",  "poly1305.blocks", "poly1305.final",
                                             "poly1305.oneshot", "chacha20.block",  "chacha20.xor",
                                             "aead.seal",        "aead.open",       "bytes.load_partial",
                                             "poly1305.update",  "poly1305.finish", "aead.seal_update",
                                             "aead.open_update", "poly1305.state_load",
                                             "poly1305.state_store",
                                             // the IFMA dialect (the AVX-512 kernels, radix 2^44)
                                             "ifma.mul", "ifma.wrap", "ifma.carry", "ifma.lane_sum",
                                             "ifma.key_powers", "ifma.settle", "ifma.load_partial",
                                             "ifma.step_partial", "ifma.absorb", "ifma.lengths",
                                             "ifma.short_step", "ifma.lane0", "ifma.state_load",
                                             "ifma.state_store", "ifma.powers_store", "ifma.powers_load",
                                             "ifma.aead", "chacha20.lanes"};
  return r;
}

bool isIfmaRole(const std::string &role) { return role.rfind("ifma.", 0) == 0 || role == "chacha20.lanes"; }

bool isStreamRole(const std::string &role) {
  return role == "poly1305.update" || role == "poly1305.finish" || role == "aead.seal_update" ||
         role == "aead.open_update";
}

namespace {

bool strList(const json &j, const char *k, std::vector<std::string> &out, std::string &err) {
  if (!j.contains(k)) return true;
  const json &v = j[k];
  if (v.is_string()) {
    out.push_back(v.get<std::string>());
    return true;
  }
  if (!v.is_array()) {
    err = std::string("field \"") + k + "\" must be a string or an array of strings";
    return false;
  }
  for (const auto &x : v) {
    if (!x.is_string()) {
      err = std::string("field \"") + k + "\" must hold strings";
      return false;
    }
    out.push_back(x.get<std::string>());
  }
  return true;
}

}  // namespace

bool parseContract(const std::string &text, SrcLoc at, Contract &c, std::string &err) {
  c = Contract{};
  c.loc = at;
  json j;
  try {
    j = json::parse(text);
  } catch (const std::exception &e) {
    err = std::string("malformed chapoly-contract JSON: ") + e.what();
    return false;
  }
  if (!j.is_object() || !j.contains("role") || !j["role"].is_string()) {
    err = "chapoly-contract needs a JSON object with a string \"role\"";
    return false;
  }
  c.role = j["role"].get<std::string>();
  bool known = false;
  for (const auto &r : contractRoles()) known = known || r == c.role;
  if (!known) {
    err = "unknown chapoly-contract role \"" + c.role + "\"";
    return false;
  }
  if (!strList(j, "acc", c.acc, err) || !strList(j, "s", c.s, err) || !strList(j, "out", c.out, err) ||
      !strList(j, "keys", c.keys, err) || !strList(j, "loop_keys", c.loopKeys, err))
    return false;
  if (c.role == "ifma.powers_store") {
    // It stores q (limbs q0, q1, q2), not qs: three names.
    if (c.keys.size() != 3 || !c.loopKeys.empty()) {
      err = "an ifma.powers_store contract names the three lane key-power limbs it stores in \"keys\" (q0, q1, q2) "
            "and no \"loop_keys\"";
      return false;
    }
  } else if ((!c.keys.empty() && c.keys.size() != 5) || (!c.loopKeys.empty() && c.loopKeys.size() != 5)) {
    err = "\"keys\" and \"loop_keys\" name five parameters each (q0, q1, q2, qs1, qs2 / rl0, rl1, rl2, rls1, rls2)";
    return false;
  }
  if (c.role == "ifma.powers_store" || c.role == "ifma.powers_load") {
    const bool ok = j.contains("limb_bits") && j["limb_bits"].is_array() && j["limb_bits"].size() == 3 &&
                    std::all_of(j["limb_bits"].begin(), j["limb_bits"].end(),
                                [](const json &b) { return b.is_number_unsigned() && b.get<unsigned>() >= 1 && b.get<unsigned>() <= 64; });
    if (!ok) {
      // Widths the multiplies cannot take (above 52 bits, a too-lazy carry chain's) are well formed:
      // the proofs reject them (ifma-operand), with a counterexample.
      err = "an " + c.role + " contract needs \"limb_bits\": the three limb widths (1..64) of the key-power state";
      return false;
    }
    for (const auto &b : j["limb_bits"]) c.limbBits.push_back(b.get<unsigned>());
  }
  if ((c.role == "ifma.key_powers" || c.role == "ifma.powers_load" || c.role == "ifma.absorb") &&
      (c.keys.empty() || c.loopKeys.empty())) {
    err = "an " + c.role + " contract needs \"keys\" and \"loop_keys\" (the parameters carrying the lane key powers "
          "and the loop power: the key-power checks at its calls read them)";
    return false;
  }
  if ((c.role == "ifma.settle" || c.role == "ifma.step_partial" || c.role == "ifma.lengths" ||
       c.role == "ifma.short_step") &&
      c.keys.empty()) {
    err = "an " + c.role + " contract needs \"keys\" (the five parameters carrying the lane key powers: the "
          "key-power check at its calls reads them)";
    return false;
  }
  if (j.contains("key")) {
    if (c.role == "poly1305.blocks") {
      if (!strList(j, "key", c.key, err)) return false;
    } else if (j["key"].is_string()) {
      c.keyPtr = j["key"].get<std::string>();
    }
  }
  if (j.contains("derived")) {
    const json &d = j["derived"];
    if (d.is_object()) {
      for (auto it = d.begin(); it != d.end(); ++it) {
        if (!it.value().is_string()) {
          err = "field \"derived\" must map names to expressions (strings)";
          return false;
        }
        c.derived[it.key()] = it.value().get<std::string>();
      }
    } else if (!strList(j, "derived", c.derivedOut, err)) {
      return false;
    }
  }
  auto str = [&](const char *k, std::string &out) {
    if (!j.contains(k)) return true;
    if (!j[k].is_string()) {
      err = std::string("field \"") + k + "\" must be a string";
      return false;
    }
    out = j[k].get<std::string>();
    return true;
  };
  if (j.contains("msg") && j["msg"].is_array()) {
    if (!strList(j, "msg", c.msgWords, err)) return false;
  } else if (!str("msg", c.msg)) {
    return false;
  }
  if (j.contains("pad") && j["pad"].is_number_unsigned()) {
    c.padConst = true;
    c.padValue = j["pad"].get<unsigned>();
  } else if (!str("pad", c.pad)) {
    return false;
  }
  if (!str("spec", c.spec) || !str("src", c.src) || !str("len", c.len) || !str("marker", c.marker) ||
      !str("state", c.state) || !str("counter", c.counter))
    return false;
  auto num = [&](const char *k, unsigned &out) {
    if (!j.contains(k)) return true;
    if (!j[k].is_number_unsigned()) {
      err = std::string("field \"") + k + "\" must be an unsigned number";
      return false;
    }
    out = j[k].get<unsigned>();
    return true;
  };
  if (!num("block_bytes", c.blockBytes) || !num("radix", c.radix) || !num("max_len", c.maxLen)) return false;
  if (c.role == "poly1305.blocks" &&
      (c.acc.size() != 3 || c.key.size() != 2 || (c.msg.empty() && c.msgWords.size() != 2) ||
       c.blockBytes == 0 || c.blockBytes % 16 != 0)) {
    err = "a poly1305.blocks contract needs \"acc\" (3 limbs), \"key\" (r0, r1), \"msg\" (a pointer, or two "
          "64-bit words) and \"block_bytes\" a multiple of 16";
    return false;
  }
  if (c.role == "bytes.load_partial" && (c.out.size() != 2 || c.src.empty() || c.len.empty() || c.maxLen > 15)) {
    err = "a bytes.load_partial contract needs \"out\" (two words), \"src\", \"len\" and \"max_len\" <= 15";
    return false;
  }
  if (c.role == "poly1305.final" && (c.acc.empty() || c.s.empty())) {
    err = "a poly1305.final contract needs \"acc\" and \"s\"";
    return false;
  }
  if ((c.role == "poly1305.state_load" || c.role == "poly1305.state_store") &&
      (c.acc.size() != 3 || c.state.empty())) {
    err = "a " + c.role + " contract needs \"acc\" (three limbs) and \"state\" (the 24-byte state)";
    return false;
  }
  if (isStreamRole(c.role) && c.state.empty()) {
    err = "a " + c.role + " contract needs \"state\" (the 24-byte accumulator parameter)";
    return false;
  }
  if ((c.role == "aead.seal_update" || c.role == "aead.open_update") && c.counter.empty()) {
    err = "a " + c.role + " contract needs \"counter\" (the first block counter parameter)";
    return false;
  }
  if (c.role == "poly1305.clamp" && c.out.size() != 2) {
    err = "a poly1305.clamp contract needs \"out\": [r0, r1]";
    return false;
  }
  c.present = true;
  return true;
}

Contract contractOf(const Function &fn) {
  Contract c;
  std::string err;
  if (!fn.contract.empty() && !parseContract(fn.contract, fn.contractLoc, c, err)) c = Contract{};
  return c;
}

Contract contractOf(const Stmt &loop) {
  Contract c;
  std::string err;
  if (!loop.contract.empty() && !parseContract(loop.contract, loop.contractLoc, c, err)) c = Contract{};
  return c;
}

std::vector<std::string> checkContracts(const File &f) {
  std::vector<std::string> errs;
  auto one = [&](const std::string &text, SrcLoc l, const Function *fn) {
    if (l.line == 0) return;  // no contract line (an empty one is malformed JSON)
    Contract c;
    std::string err;
    auto report = [&](const std::string &e) {
      errs.push_back(f.path + ":" + std::to_string(l.line) + ":" + std::to_string(l.col) + ": error: " + e);
    };
    if (!parseContract(text, l, c, err)) {
      report(err);
      return;
    }
    if (!fn) return;
    // The names it gives (keys, loop_keys, state, counter) are the helper's own parameters.
    std::vector<std::string> named = c.keys;
    named.insert(named.end(), c.loopKeys.begin(), c.loopKeys.end());
    for (const auto &n : {c.state, c.counter})
      if (!n.empty()) named.push_back(n);
    for (const auto &n : named) {
      bool found = false;
      for (int p : fn->params) found = found || f.vars[(size_t)p].name == n;
      if (!found) report("contract of " + fn->name + " names \"" + n + "\", which is not one of its parameters");
    }
  };
  std::function<void(const Stmt &)> walk = [&](const Stmt &s) {
    if (s.kind == Stmt::For || s.kind == Stmt::While || s.kind == Stmt::DoWhile) one(s.contract, s.contractLoc, nullptr);
    forEachChild(s, walk);
  };
  for (const auto &fn : f.funcs) {
    one(fn.contract, fn.contractLoc, &fn);
    if (fn.body) walk(*fn.body);
  }
  return errs;
}

bool usesContracts(const File &f) {
  bool any = false;
  std::function<void(const Stmt &)> walk = [&](const Stmt &s) {
    any = any || !s.contract.empty();
    for (const StmtP *c : {&s.init, &s.then, &s.els})
      if (*c) walk(**c);
    for (const auto &b : s.body)
      if (b) walk(*b);
  };
  for (const auto &fn : f.funcs) {
    any = any || !fn.contract.empty();
    if (fn.body) walk(*fn.body);
  }
  return any && !isIfmaDialect(f);
}

std::string roleOf(const Function &fn) { return contractOf(fn).role; }

bool isIfmaDialect(const File &f) {
  for (const auto &fn : f.funcs)
    if (isIfmaRole(roleOf(fn))) return true;
  return false;
}

}  // namespace cv
