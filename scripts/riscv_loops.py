#!/usr/bin/env python3
"""riscv_loops.py DISASSEMBLY: static instructions per byte of the inner loops of the riscv64
kernels, from `llvm-objdump -d --no-show-raw-insn` of chapoly-riscv-bench (scripts/bench-riscv.sh).

A loop is a branch or jump to an address at or before itself inside the same function (the
compiler lays loops out that way); its instructions are those from the target to the branch, and
its *own* instructions exclude the loops nested in it and include the functions it calls. Each row names the loop by what it contains
(the Poly1305 block step has a `mulhu` (rv64) or the portable code's 32-bit `mul` chain) and
divides by the bytes one iteration handles (16). A ChaCha20 keystream function is counted per
call: its double-round loop ten times plus everything else once (straight-line when the compiler
unrolled the rounds), per 64 bytes (one block) or 64 * VL bytes for the vector function (VL =
VLEN / 32 at LMUL 1: 8 at VLEN 256), whose byte-vector xor loop runs 64 * VL / VLEN times; both
of its alignment paths (strided in/out, or buffer + byte xor) are counted, so its figure is an
upper bound. Static counts: no branch is weighted by how often it runs
beyond that. Prints Markdown rows.
"""
import re
import sys

VLEN = 256
VL = VLEN // 32

def functions(path):
    """[(name, [(addr, mnemonic, operands)])] in address order."""
    out, cur = [], None
    for line in open(path):
        m = re.match(r'^([0-9a-f]+) <(.+)>:$', line)
        if m:
            cur = (m.group(2), [])
            out.append(cur)
            continue
        m = re.match(r'^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$', line)
        if m and cur is not None:
            cur[1].append((int(m.group(1), 16), m.group(2), m.group(3)))
    return out

def loops(insns):
    """[(start, end)] of backward branches, innermost first (by size)."""
    lo, hi = insns[0][0], insns[-1][0]
    found = set()
    for addr, mn, ops in insns:
        if not (mn.startswith('b') or mn == 'j'):
            continue
        m = re.search(r'(?:^|,\s*)(?:0x)?([0-9a-f]+)\s*<', ops)
        if not m:
            continue
        tgt = int(m.group(1), 16)
        if lo <= tgt <= addr:
            found.add((tgt, addr))
    return sorted(found, key=lambda l: l[1] - l[0])

def body(insns, l):
    return [i for i in insns if l[0] <= i[0] <= l[1]]

def own(insns, l, all_loops):
    inner = [k for k in all_loops if k != l and l[0] <= k[0] and k[1] <= l[1]]
    return [i for i in body(insns, l) if not any(k[0] <= i[0] <= k[1] for k in inner)]

def pick(fns, name, after=None):
    start = 0
    if after:
        start = next(i for i, f in enumerate(fns) if f[0] == after)
    for f in fns[start:]:
        if f[0] == name:
            return f[1]
    raise SystemExit(f'riscv_loops.py: no function {name} (after {after})')

FNS = {}

def callees(b):
    """Functions a loop calls (jal to a symbol of the program): their instructions count too, once
    per call (the portable code keeps its block function out of line)."""
    out = []
    for _, mn, ops in b:
        m = re.search(r'<([^+>]+)>', ops)
        if mn == 'jal' and m and m.group(1) in FNS and m.group(1) not in ('memcpy', 'memset'):
            out.append(FNS[m.group(1)])
    return out

def find(insns, pred, own_only=False):
    ls = loops(insns)
    for l in ls:
        b = own(insns, l, ls) if own_only else body(insns, l)
        called = [i for f in callees(b) for i in f]
        if pred(b + called):
            return l, len(own(insns, l, ls)) + len(called)
    raise SystemExit('riscv_loops.py: no loop matches')

def has(b, *mns):
    return any(i[1] in mns for i in b)

def main():
    fns = functions(sys.argv[1])
    for name, insns in fns:
        FNS.setdefault(name, insns)
    rows = []
    def row(what, fn, insns, pred, per_iter, per_note):
        (s, e), n = find(insns, pred, own_only=True)
        rows.append(f'| {what} | `{fn}` | {n} | {per_note} | {n / per_iter:.2f} |')
        return n / per_iter
    p_port = row('Poly1305 block, portable (radix 2^26)', 'poly1305_update',
                 pick(fns, '_ZN7chapoly8internal15poly1305_updateERNS0_13Poly1305StateEPKhm'),
                 lambda b: has(b, 'mul', 'mulw'), 16, '16')
    p_rv64 = row('Poly1305 block, scalar (mul64)', 'chapoly_k_rv64_mul64_poly1305',
                 pick(fns, 'chapoly_k_rv64_mul64_poly1305'), lambda b: has(b, 'mulhu'), 16, '16')
    row('Poly1305 block, rvv kernel (mul64)', 'chapoly_k_rvv_mul64_poly1305',
        pick(fns, 'chapoly_k_rvv_mul64_poly1305'), lambda b: has(b, 'mulhu'), 16, '16')
    def block(what, fn, insns, per_bytes, note, mac_steps=False):
        """A keystream function per call: the double-round loop (the one with the 32-bit rotations
        or vxor.vv) runs 10 times, the rest once; with mac_steps the Poly1305 block-step loops
        nested in it are left out (their own row)."""
        ls = loops(insns)
        rounds = [l for l in ls if has(body(insns, l), 'vxor.vv', 'roriw', 'srliw', 'slliw')]
        steps = [l for l in ls if has(body(insns, l), 'mulhu') and not has(body(insns, l), 'vxor.vv')] \
            if mac_steps else []
        def outside(i, ls_):
            return not any(k[0] <= i[0] <= k[1] for k in ls_)
        called = [f for f in callees(insns) if f is not None]
        if not rounds and called:  # the portable block function calls its rounds out of line
            ins2 = max(called, key=len)
            inner = block(what, fn, ins2, per_bytes, note)
            rows.pop()
            n = inner * per_bytes + len(insns) + sum(len(f) for f in called if f is not ins2)
            rows.append(f'| {what} | `{fn}` and its callees | {int(n)} | {note} | {n / per_bytes:.2f} |')
            return n / per_bytes
        if rounds:
            r = max(rounds, key=lambda l: l[1] - l[0])
            # the byte-vector xor loop (e8, LMUL 8: VLEN bytes per iteration) runs 64 VL / VLEN times
            xors = [l for l in ls if l != r and has(body(insns, l), 'vle8.v')]
            in_r = [i for i in body(insns, r) if outside(i, steps)]
            in_x = [i for l in xors for i in body(insns, l)]
            rest = [i for i in insns if outside(i, [r] + steps + xors)]
            times = max(1, 64 * VL // VLEN)
            n = 10 * len(in_r) + times * len(in_x) + len(rest)
            shape = f'10 x {len(in_r)} + {len(rest)}' + (f' + {times} x {len(in_x)}' if xors else '')
        else:
            n, shape = len(insns), f'{len(insns)} (rounds unrolled)'
        rows.append(f'| {what} | `{fn}` | {shape} = {n} | {note} | {n / per_bytes:.2f} |')
        return n / per_bytes
    c_port = block('ChaCha20 block, portable', 'chacha20_block',
                   pick(fns, '_ZN7chapoly8internal14chacha20_blockEPhPKhjS3_'), 64, '64')
    c_rv64 = block('ChaCha20 block, scalar', 'chacha20_block (rv64)',
                   pick(fns, '_ZL14chacha20_blockPhPKhS1_j', after='chapoly_k_rv64_mul64_seal'), 64, '64')
    xorv = pick(fns, '_ZL17chacha20_xorv_macPhPKhmS1_S1_jRmS2_S2_mmmS1_m')
    c_rvv = block(f'ChaCha20 xor of VL blocks, rvv (VLEN {VLEN}: VL = {VL}; both alignment paths)', 'chacha20_xorv_mac', xorv,
                  64 * VL, f'64 * {VL}', mac_steps=True)
    p_rvv = row('Poly1305 block woven into the rounds, rvv', 'chacha20_xorv_mac', xorv,
                lambda b: has(b, 'mulhu'), 16, '16')
    print('| loop | function | static instructions per iteration | bytes per iteration | instructions per byte |')
    print('|---|---|---:|---:|---:|')
    for r in rows:
        print(r)
    print(f'| **AEAD bulk, portable** (ChaCha20 + Poly1305 rows) | | | | {c_port + p_port:.2f} |')
    print(f'| **AEAD bulk, scalar** | | | | {c_rv64 + p_rv64:.2f} |')
    print(f'| **AEAD bulk, rvv** (vector rounds + woven block steps) | | | | {c_rvv + p_rvv:.2f} |')

main()
