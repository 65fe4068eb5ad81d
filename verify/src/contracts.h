// contracts.h: `// chapoly-contract: {json}` lines (docs/verification.md, "Contracts").
//
// One JSON object on one line right above a static helper or above a loop's invariant lines.
// The role says what the verifier must prove about the code it covers; the other fields name
// the variables the proof is about. Parsed with nlohmann-json; a malformed line is a usage
// error (exit 2) with its file:line.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir.h"

namespace cv {

struct Contract {
  bool present = false;
  std::string role;                        // poly1305.clamp / .blocks / .final / .oneshot, chacha20.block / .xor, aead.seal / .open
  std::vector<std::string> acc;            // accumulator limbs, low first (blocks, final)
  std::vector<std::string> key;            // blocks: the clamped key limbs r0, r1
  std::map<std::string, std::string> derived;  // blocks: "s1": "r1 + (r1 >> 2)"
  std::vector<std::string> out;            // clamp: r0, r1
  std::vector<std::string> derivedOut;     // clamp: s1
  std::vector<std::string> s;              // final: s limbs, low first
  std::string msg, pad, keyPtr;            // blocks: message pointer, pad; clamp: key pointer
  std::vector<std::string> msgWords;       // blocks helper: the message as 64-bit words (m0, m1)
  bool padConst = false;                   // blocks: "pad" given as a number (padValue)
  unsigned padValue = 0;
  std::string src, len, marker;            // bytes.load_partial: source pointer, length, marker byte
  unsigned maxLen = 15;
  unsigned blockBytes = 16, radix = 0;
  std::vector<std::string> keys, loopKeys; // IFMA dialect: the parameters carrying the lane key powers
                                           // q0, q1, q2, qs1, qs2 and the loop power rl0 .. rls2
  std::vector<unsigned> limbBits;          // ifma.powers_store / .powers_load: the key-power state's limb
                                           // widths (the load masks to them, the store proves they hold)
  std::string state, counter;              // streaming kernels: the 24-byte accumulator parameter,
                                           // the first ChaCha20 block counter parameter
  std::string spec;
  SrcLoc loc;
};

/// The exported streaming roles (poly1305.update / .finish, aead.seal_update / .open_update):
/// the accumulator travels between calls in the 24-byte parameter `state`.
bool isStreamRole(const std::string &role);

/// The roles this verifier knows (every other role is an error).
const std::vector<std::string> &contractRoles();

/// Parses the JSON text of one contract line. False with `err` set on malformed JSON, a missing
/// or unknown role, or a field of the wrong type.
bool parseContract(const std::string &json, SrcLoc at, Contract &out, std::string &err);

/// The contract of a function / loop ({} when none or malformed: main.cpp reports those first).
Contract contractOf(const Function &fn);
Contract contractOf(const Stmt &loop);

/// Every contract line of the file, checked; errors as "file:line:col: error: ...".
std::vector<std::string> checkContracts(const File &f);

/// True when the file carries contracts of the mul64 dialect (roles outside the IFMA dialect's):
/// its helpers and loops are proved by scalar64.cpp and the closed world of proofs.cpp.
bool usesContracts(const File &f);

/// True when the file's helpers carry the IFMA dialect's roles (`ifma.*`, `chacha20.lanes`; the
/// AVX-512 kernels): proved by bounds.cpp, poly.cpp and symbolic.cpp, each helper by its role.
bool isIfmaDialect(const File &f);

/// The role of a function's contract ("" without one).
std::string roleOf(const Function &fn);

/// True for the roles of the IFMA dialect.
bool isIfmaRole(const std::string &role);

}  // namespace cv
