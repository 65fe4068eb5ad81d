#!/usr/bin/env python3
"""Remove every single carry and every single limb mask from the shipped IFMA kernel, one at a
time, and check that chapoly-verify rejects each mutant (exit status 1, a failed obligation with a
counterexample). This is the exhaustive form of the hand-picked mutants in mutants/mutants.toml:
it enumerates the sites in the current emitted file, so it follows regeneration.

A carry is the `c = x >> bits` line of the spec's carry chain (its comment says `carry i>j`) with
the mask and add(s) that follow it, or a scalar `c = x >> bits;` statement (the final reduction);
a mask is one `x = and(x, M<bits>)` line, an `and(x, M<bits>)` inside an expression (the loader),
a scalar `x &= M<bits>;`, or a scalar `x & M<bits>` / `x & 0x...ULL` inside an expression (the
key and length splits, the clamp, the final reduction): removing it means using x unmasked.

usage: remove_each.py --kernel-file F --verifier V --function FN [--step K] [--prove KERNEL] [--query-cache DIR]
                      --work DIR -- FLAGS...
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_mutant import function_span  # noqa: E402  (same brace-matched function finder)

CARRY = re.compile(r"^\s*c = _mm512_srli_epi64\((\w+), (\d+)\);\s*// carry (\d)>(\d)")
FOLLOW = re.compile(r"^\s*(\w+ = _mm512_(and_si512|add_epi64)\(\w+, (c|M\d+)\);|c = _mm512_slli_epi64\(c, 2\);)")
MASK = re.compile(r"^\s*(\w+) = _mm512_and_si512\((\w+), M(\d+)\);")


NESTED_AND = re.compile(r"_mm512_and_si512\((\w+), (M\d+)\)")
SCALAR_CARRY = re.compile(r"^(\s*)c = (\w+) >> (\d+);")
SCALAR_MASK_STMT = re.compile(r"\s*\b(\w+) &= (M\d+);")
SCALAR_AND = re.compile(r"\b(\w+) & (M\d+|0x[0-9a-fA-F]+ULL)\b")
SCALAR_AND_PAREN = re.compile(r"\) & (M\d+|0x[0-9a-fA-F]+ULL)\b")


def sites(lines, lo, hi):
    """(label, {line index: replacement line or None to delete}) for each carry and each mask in
    lines[lo:hi]."""
    out = []
    i = lo
    while i < hi:
        line = lines[i]
        m = CARRY.match(line)
        if m:
            # The mask of this limb and the add(s) of c that follow; in the fused loops ChaCha20
            # ops are interleaved between them, so skip other lines until the next carry.
            var, idx, j = m.group(1), [i], i + 1
            while j < hi and j < i + 60 and not CARRY.match(lines[j]):
                f = FOLLOW.match(lines[j])
                if f and (re.match(r"^\s*" + var + r" = _mm512_and_si512\(" + var + r", M", lines[j])
                          or ", c);" in lines[j] or "slli_epi64(c, 2)" in lines[j]):
                    idx.append(j)
                j += 1
            out.append((f"carry {m.group(3)}>{m.group(4)} of {var} (lines {', '.join(str(k + 1) for k in idx)})",
                        {k: None for k in idx}))
        m = MASK.match(line)
        if m:
            out.append((f"mask {m.group(1)} = {m.group(2)} & (2^{m.group(3)}-1) (line {i + 1})", {i: None}))
        elif not CARRY.match(line):
            for n in NESTED_AND.finditer(line):
                out.append((f"mask {n.group(0)} (line {i + 1})",
                            {i: line[:n.start()] + n.group(1) + line[n.end():]}))
        code = line.split("//", 1)[0]
        m = SCALAR_CARRY.match(code)
        if m:
            out.append((f"scalar carry {m.group(2)} >> {m.group(3)} (line {i + 1})", {i: None}))
        for n in SCALAR_MASK_STMT.finditer(code):
            out.append((f"scalar mask {n.group(1)} &= {n.group(2)} (line {i + 1})",
                        {i: line[:n.start()] + line[n.end():]}))
        for n in SCALAR_AND.finditer(code):
            out.append((f"scalar mask {n.group(0)} (line {i + 1})",
                        {i: line[:n.start()] + n.group(1) + line[n.end():]}))
        for n in SCALAR_AND_PAREN.finditer(code):
            out.append((f"scalar mask (...){n.group(0)[1:]} (line {i + 1})",
                        {i: line[:n.start()] + ")" + line[n.end():]}))
        i += 1
    return out


def nth_step(lines, lo, hi, k):
    """The k-th (1-based) Poly1305 lane step in lines[lo:hi]: from its block load to `hin2 = 0`.
    In aead_bulk, steps 1-8 are the encrypt fused loop, 9 the last chunk's MAC loop, 10-17 the
    decrypt fused loop; the steps of one fused loop are the same generated text."""
    starts = [j for j in range(lo, hi) if re.search(r"\bw0 = _mm512_loadu_si512", lines[j])]
    if len(starts) < k:
        sys.exit(f"remove_each.py: step {k} not found ({len(starts)} steps): the dialect changed")
    start = starts[k - 1]
    end = next((j for j in range(start, hi) if re.search(r"\bhin2 = _mm512_setzero_si512", lines[j])), hi)
    return start, end + 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel-file", required=True)
    ap.add_argument("--verifier", required=True)
    ap.add_argument("--function", required=True, help="helper or kernel whose carries/masks are removed")
    ap.add_argument("--prove", default="", help="prove only this exported kernel (default: all, as the build gate does)")
    ap.add_argument("--work", required=True)
    ap.add_argument("--step", type=int, default=0, help="only the k-th Poly1305 lane step of the function (1-based)")
    ap.add_argument("--query-cache", default="", help="chapoly-verify --query-cache DIR (bound answers shared by the mutant runs)")
    ap.add_argument("flags", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    flags = [f for f in a.flags if f != "--"]
    text = open(a.kernel_file, encoding="utf-8").read()
    lo, hi = function_span(text, a.function)
    lines = text.splitlines(keepends=True)
    first = text.count("\n", 0, lo)
    last = text.count("\n", 0, hi)
    if a.step:
        first, last = nth_step(lines, first, last + 1, a.step)
        last -= 1
    todo = sites(lines, first, last + 1)
    if not todo:
        sys.exit(f"remove_each.py: no carry or mask found in {a.function}: the dialect changed")
    os.makedirs(a.work, exist_ok=True)
    base = os.path.basename(a.kernel_file)
    inc = ["-I" + os.path.dirname(os.path.abspath(a.kernel_file))]
    passed = failed = 0
    for label, edit in todo:
        mutant = "".join(edit.get(k, l) or "" if k in edit else l for k, l in enumerate(lines))
        path = os.path.join(a.work, base)
        with open(path, "w", encoding="utf-8") as f:
            f.write(mutant)
        only = ["--kernel", a.prove] if a.prove else []
        if a.query_cache:
            only += ["--query-cache", a.query_cache]
        # --fail-fast: a mutant is rejected at its first failed obligation; the rest is not needed.
        r = subprocess.run([a.verifier, "--quiet", "--fail-fast"] + only + [path, "--"] + flags + inc,
                           capture_output=True, text=True)
        out = r.stdout + r.stderr
        err = next((l for l in out.splitlines() if ": error: " in l), "")
        if r.returncode == 1 and "counterexample" in out and err:
            passed += 1
            print(f"ok   {a.function}: without {label}: {err.split(': error: ', 1)[1][:150]}")
        else:
            failed += 1
            print(f"FAIL {a.function}: without {label}: exit {r.returncode}, not rejected with a counterexample")
            print(out[-2000:])
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
