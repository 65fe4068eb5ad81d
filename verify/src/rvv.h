// rvv.h: the RISC-V vector (RVV 1.0) part of chapoly-verify: the word-sliced ChaCha20 helpers of
// the rvv kernels proved lane by lane for a symbolic vl (docs/verification.md, "RVV").
#pragma once

#include <functional>
#include <string>

#include "bounds.h"
#include "contracts.h"
#include "ir.h"

namespace cv {

// Names of RVV intrinsics (the table's rows, intrinsics.cpp): any, vsetvl, and the stores.
inline bool isRvvIntrinsic(const std::string &n) { return n.rfind("__riscv_", 0) == 0; }
inline bool isRvvSetvl(const std::string &n) { return n.rfind("__riscv_vsetvl_", 0) == 0; }
inline bool isRvvStore(const std::string &n) { return n.rfind("__riscv_vs", 0) == 0 && n.find("_v_") != std::string::npos; }

// Whether a function calls any RVV intrinsic.
bool usesRvv(const Function &fn);

// `chacha-block` for a chacha20.block helper whose state is word-sliced in RVV vectors with
// "blocks": "vl" (emitted/rvv): for every vl the helper's vsetvl may return (1..32 lanes at
// VLEN <= 1024, and no more than it asked for) and every lane i < vl, the 64 bytes the helper
// writes at out + 64 i are in[64 i ..] XOR RFC 8439 2.3's block for counter + i, and nothing
// outside out[0 .. 64 vl) is written (bounds of the strided and unit stores).
// Fills `o` (kind chacha-block): res, what, cex, note.
void proveChachaBlockRvv(const File &f, const Function &fn, const Contract &ct, Obligation &o);

// chacha-block for the kernel's keystream loops (a loop calling a "blocks": "vl" helper): the
// helper's output and input are at the same loop-carried byte offset off (0 on entry), the blocks
// asked for lie inside len, and each iteration moves off by 64 vl and the block counter by vl (1
// on entry for the AEAD kernels, the kernel's counter otherwise), vl the helper's result. `add`
// creates the obligation (nullptr: not selected).
void proveKeystreamLoopsRvv(const File &f, const Function &kernel,
                            const std::function<Obligation *(SrcLoc, const std::string &)> &add);

// kernel-bytes (kernelbytes.cpp) for a mul64-dialect kernel: every byte its own body reads or
// writes (inlined contract-free helpers included) and every buffer it hands to a proved helper
// (array parameters T p[N], "blocks": "vl" helpers' 64 vl and 16 nmac bytes, a partial load's
// length) lies inside the caller's buffer: len for the text buffers, aad_len for the AAD, the
// declared size of array parameters and local arrays; and every proved (contracted) helper it
// reaches reads and writes only inside those footprints and its own local arrays (its body
// walked with its parameters bound to them; helpers with RVV intrinsics are rvv.cpp's). `add`
// creates the obligation.
void proveKernelBytes(const File &f, const Function &kernel,
                      const std::function<Obligation *(SrcLoc, const std::string &)> &add);
// mac-order of an IFMA-dialect kernel (kernelbytes.cpp): the pieces its Poly1305 absorbs follow
// one another through its message (the AEAD's pad16(AAD) || pad16(ct) || lengths, Poly1305's
// msg, an update entry's whole chunks, the MAC entry's whole 16-byte blocks), and the tag or
// state store comes at its end.
void proveMacOrderIfma(const File &f, const Function &kernel,
                       const std::function<Obligation *(SrcLoc, const std::string &)> &add);

// keystream (kernelbytes.cpp) for a mul64-dialect seal/open, streaming seal/open or ChaCha20
// kernel: every byte it stores into its output text is the input byte at the same offset XOR the
// RFC 8439 2.4 keystream byte for that offset (block base + q / 64, byte q % 64; base 1 for the
// AEAD, the counter parameter otherwise) from the kernel's own key and nonce, and an AEAD takes
// r and s from block 0 (2.6). Proved helpers count by their contracts (chacha20.block: filled
// local arrays, or xor at a 64-aligned offset with the matching counter).
void proveKeystream(const File &f, const Function &kernel,
                    const std::function<Obligation *(SrcLoc, const std::string &)> &add);

// keystream (kernelbytes.cpp) for an IFMA-dialect (AVX-512) seal/open, streaming seal/open or
// ChaCha20 kernel, by its ABI name: the text is written only by the claimed xor helpers
// (chacha20.lanes xor64 and sliced_xor), each handed, at text offset q (a multiple of 64), the
// block base + q / 64 (base 1 for the AEAD, the counter parameter otherwise), as the vectors'
// meaning follows from the lane helpers' proved claims and the proved round loops; an AEAD's
// key setup takes r and s from block 0 and its tag adds the s limbs the setup returned (2.6).
void proveKeystreamIfma(const File &f, const Function &kernel,
                        const std::function<Obligation *(SrcLoc, const std::string &)> &add);

// out-coverage (kernelbytes.cpp) for a seal/open, streaming seal/open or ChaCha20 kernel of either
// dialect: on every path to its return, each byte of its output text [0, len) has been stored
// (a store's bytes, a masked store's mask bits, a proved chacha20.block helper's blocks), and
// every read of that buffer (a seal's MAC of its ciphertext) is of bytes already written, and
// every read of the input text is of bytes whose output byte may not yet be written (in place).
void proveOutCoverage(const File &f, const Function &kernel,
                      const std::function<Obligation *(SrcLoc, const std::string &)> &add);

// block-step for a poly1305.blocks loop whose body calls a stitched "blocks": "vl" helper with a
// variable block count (emitted/rvv): the helper's Poly1305 loops absorb consecutive runs that are
// exactly its nmac blocks at mac (each step proved by their own block-step obligations), the count
// is <= 128, and the next iteration's run starts where this one ends (loop-carried byte counts
// keep `% 64 == 0` and `<= 2048` when declared so and preserved). Returns false with `cex`.
bool hasVariableMacCall(const File &f, const Stmt &loop);
bool proveMacLoopRvv(const File &f, const Function &kernel, const Stmt &loop, const Contract &ct, std::string &cex,
                     std::string &note);

}  // namespace cv
