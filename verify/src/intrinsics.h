// intrinsics.h: the intrinsic semantics table (part of the trust base, DESIGN.md).
//
// One entry per Intel intrinsic the emitted code may use: its lane width, its value semantics as
// an executable model over 512-bit values, and its side conditions in words. Every entry is
// checked against the real instruction by tests/verify/intrinsics_test.cpp. An intrinsic that is
// not in this table is an error for the verifier, never skipped.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace cv {

// A value as the model sees it: 512 bits as eight little-endian 64-bit words. Narrower vectors
// use the low words (the rest zero); scalars and masks use word 0 (128-bit scalars words 0..1).
// A pointer argument is passed as the 64 bytes it points to; a store's result is those 64 bytes
// after the store.
struct Bits {
  std::array<uint64_t, 8> w{};
  bool operator==(const Bits &o) const { return w == o.w; }
  uint64_t get(unsigned laneBits, unsigned i) const;
  void set(unsigned laneBits, unsigned i, uint64_t v);
};

enum class Role {
  Data,    // vector or scalar operand whose value flows into the result
  Ctrl,    // vector operand that selects lanes (index vector): must be a known constant to track lanes
  Imm,     // immediate (compile-time constant)
  Mask,    // __mmask operand
  Ptr,     // memory operand (the model sees the 64 bytes at the pointer)
  VL,      // RVV: the vector length; lanes i >= vl are neither read nor written
};

enum class Cls {
  Arith,    // 64-bit lane (or scalar) arithmetic with bound obligations; abstract rule in bounds.cpp
  Move,     // moves or builds lanes without changing their values (tracked lane by lane)
  Modular,  // lane-wise arithmetic meant to wrap (ChaCha20's 32-bit words): no bound obligation
  Load,     // reads memory
  Store,    // writes memory (result: the 64 bytes after the store)
  SetVL,    // RVV vsetvl: returns the number of active lanes for a requested AVL
};

struct Intrinsic {
  std::string name;
  std::string builtin;       // what Clang 16's macro expands to ("" for header functions)
  std::vector<int> argmap;   // macro intrinsics: intrinsic argument i is builtin argument argmap[i]
  std::vector<Role> roles;   // one per intrinsic argument
  unsigned resultBits;       // 512/256/128 vectors, 64/32/16/8 scalars and masks, 0 void
  unsigned laneBits;         // element width the operation works on
  Cls cls;
  std::string feature;       // CPU feature(s) the instruction needs, for test skips
  std::string semantics;     // value semantics, in words
  std::string side;          // side conditions (what the verifier must prove before use)
  Bits (*model)(const std::vector<Bits> &args);
  // RVV rows (feature "v"; scalable vectors, VLEN 128..1024): the model of ONE lane, so that it
  // holds for a symbolic vl. `rvv(a, i)`: a = the arguments, vector operands as their lane-i
  // values (the VL argument as passed), i the lane index (i < vl). Arithmetic/moves: lane i of
  // the result. Loads/stores (unit-stride, strided): the byte offset of lane i's element from
  // the base pointer (the element itself moves unchanged; lanes >= vl are not accessed).
  // vsetvl: 1 when vl = i is a value the instruction may return for AVL a[0] at VLMAX a[1].
  uint64_t (*rvv)(const std::vector<uint64_t> &a, uint64_t i) = nullptr;
  unsigned lmul = 0;         // RVV rows: the register group (1, 2, 8)
};

// RVV: the largest VLEN the proofs cover (vsetvl's vl <= VLMAX(VLEN_MAX, SEW, LMUL)); the smallest
// is 128 (Zvl128b, what the V extension requires).
constexpr unsigned kRvvVlenMin = 128, kRvvVlenMax = 1024;
inline uint64_t rvvVlmax(unsigned vlen, unsigned sew, unsigned lmul) { return (uint64_t)vlen * lmul / sew; }

const std::vector<Intrinsic> &intrinsicTable();
const Intrinsic *findIntrinsic(const std::string &name);

// The name of the 512-bit entry whose lane-wise rule (bounds, polynomial, symbolic) a 256-bit
// entry shares ("_mm256_and_si256" -> "_mm512_and_si512"); the name itself for every other entry.
// The rules take their lane count from the entry's resultBits.
std::string ruleName(const std::string &name);

}  // namespace cv
