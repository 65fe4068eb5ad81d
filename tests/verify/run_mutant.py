#!/usr/bin/env python3
"""Apply one mutation rule (tests/verify/mutants/*.toml) to the current emitted kernel, run
chapoly-verify on the mutant and check that it is rejected with the obligation kind the rule
names (kind "contract": a contract error, exit status 2, whose message matches the rule's
`expect`). Rules are regex edits, so they follow regeneration; a rule that no longer matches fails
loudly instead of passing vacuously.

usage: run_mutant.py --rules FILE --id ID --verifier PATH --source-root DIR [--query-cache DIR] --work DIR -- FLAGS...
       run_mutant.py --rules FILE --list            (ids, one per line)
"""
import argparse
import os
import re
import subprocess
import sys

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None


def load(path):
    with open(path, "rb") as f:
        if tomllib is None:
            sys.exit("run_mutant.py: needs Python 3.11 (tomllib)")
        doc = tomllib.load(f)
    rules = doc["mutant"]
    for r in rules:
        r.setdefault("kernel", doc.get("kernel", ""))
    return rules


def function_span(text, name):
    """[start, end) of the body of the helper or kernel called `name` (brace matched)."""
    for m in re.finditer(r"\b" + re.escape(name) + r"\s*\(", text):
        # a definition: the parameter list is followed by '{'
        i, depth = m.end(), 1
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if i < len(text) and text[i] == "{":
            depth = 0
            for k in range(i, len(text)):
                if text[k] == "{":
                    depth += 1
                elif text[k] == "}":
                    depth -= 1
                    if depth == 0:
                        return i, k + 1
    sys.exit(f"run_mutant.py: function {name} not found in the emitted file")


def mutate(text, rule):
    lo, hi = 0, len(text)
    if "function" in rule:
        lo, hi = function_span(text, rule["function"])
    region = text[lo:hi]
    pat = re.compile(rule["find"], re.M)
    matches = list(pat.finditer(region))
    want = int(rule.get("count", 1))
    nth = int(rule.get("occurrence", 0))  # 0: the first `count` matches; k: only the k-th
    if not matches or (nth == 0 and want and len(matches) < want) or nth > len(matches):
        sys.exit(f"run_mutant.py: rule '{rule['id']}' no longer matches the emitted file "
                 f"(pattern {rule['find']!r}, {len(matches)} match(es)); update the rule")
    chosen = [matches[nth - 1]] if nth else (matches[:want] if want else matches)
    out, pos = [], 0
    for m in chosen:
        out.append(region[pos:m.start()])
        out.append(m.expand(rule["replace"]))
        pos = m.end()
    out.append(region[pos:])
    new = text[:lo] + "".join(out) + text[hi:]
    if new == text:
        sys.exit(f"run_mutant.py: rule '{rule['id']}' changes nothing")
    return new


def main():
    argv = sys.argv[1:]
    flags = []
    if "--" in argv:
        k = argv.index("--")
        argv, flags = argv[:k], argv[k + 1:]
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", required=True)
    ap.add_argument("--id")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--verifier")
    ap.add_argument("--source-root")
    ap.add_argument("--work")
    ap.add_argument("--query-cache", default="", help="chapoly-verify --query-cache DIR (bound answers shared by the mutant runs)")
    a = ap.parse_args(argv)
    rules = load(a.rules)
    if a.list:
        for r in rules:
            print(r["id"])
        return 0
    rule = next((r for r in rules if r["id"] == a.id), None)
    if rule is None:
        sys.exit(f"run_mutant.py: no mutant '{a.id}' in {a.rules}")
    src = os.path.join(a.source_root, rule.get("file", "emitted/avx512/chapoly_avx512_ifma_fused.cpp"))
    with open(src) as f:
        text = f.read()
    mutant = mutate(text, rule)
    os.makedirs(a.work, exist_ok=True)
    out = os.path.join(a.work, f"mutant_{rule['id']}_{os.path.basename(src)}")
    with open(out, "w") as f:
        f.write(mutant)
    kind = rule["kind"]
    # A rule's `flags` (a list) are added to the compile flags: e.g. the ISA flags of its file.
    cmd = [a.verifier, "--quiet", out, "--", *flags, *rule.get("flags", []), "-I" + os.path.dirname(src)]
    if rule["kernel"]:
        cmd[1:1] = ["--kernel", rule["kernel"]]
    if a.query_cache:
        cmd[1:1] = ["--query-cache", a.query_cache]
    # Only the obligations of the kind the rule must fail run (`obligation` overrides; "" runs
    # all): the rule asserts that kind's rejection, and the others' time is CI's tail.
    only = rule.get("obligation", kind if kind != "contract" else "")
    if only:
        cmd[1:1] = ["--obligation", only]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if only and p.returncode == 2 and "no obligation matches --obligation" in p.stderr:
        # A kind that is found only while the others run (an invariant's closing check): all of
        # them, up to the first proof stage that fails (--fail-fast: the whole-kernel walks,
        # kernel-bytes and mac-order, come last and are skipped once something has failed).
        k = cmd.index("--obligation")
        cmd[k:k + 2] = [] if rule.get("fail_fast", True) is False else ["--fail-fast"]
        p = subprocess.run(cmd, capture_output=True, text=True)
    log = p.stdout + p.stderr
    with open(out + ".log", "w") as f:
        f.write(log)
    if kind == "contract":
        # A malformed or inconsistent contract line: a usage error (exit 2) naming the mutant's
        # FILE:LINE and matching the rule's `expect`, before any proof runs.
        print(f"mutant {rule['id']}: {rule['what']}")
        print(f"  expected: a contract error (exit status 2) matching {rule['expect']!r}")
        for line in [l for l in log.splitlines() if ": error:" in l][:6]:
            print("    " + line)
        located = re.search(re.escape(out) + r":\d+:\d+: error: ", log)
        if p.returncode != 2 or not located or not re.search(rule["expect"], log):
            print(f"FAIL: exit status {p.returncode}; want 2 with FILE:LINE:COL and the expected message (log: {out}.log)")
            return 1
        print("PASS: rejected as expected")
        return 0
    named = re.search(r"error: kernel \S+: obligation \d+ \(" + re.escape(kind) + r"\)", log)
    print(f"mutant {rule['id']}: {rule['what']}")
    print(f"  expected: rejection naming an obligation of kind '{kind}'")
    print(f"  chapoly-verify exit status {p.returncode}; first diagnostics:")
    for line in [l for l in log.splitlines() if ": error:" in l or ": note:" in l][:6]:
        print("    " + line)
    if p.returncode != 1:
        print(f"FAIL: expected exit status 1 (proof failure), got {p.returncode}")
        return 1
    if not named:
        print(f"FAIL: no failed obligation of kind '{kind}' in the output (log: {out}.log)")
        return 1
    if "expect" in rule and not re.search(rule["expect"], log):
        print(f"FAIL: output does not match {rule['expect']!r} (log: {out}.log)")
        return 1
    print("PASS: rejected as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
