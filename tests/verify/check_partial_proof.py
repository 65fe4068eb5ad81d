#!/usr/bin/env python3
"""Run chapoly-verify on a kernel the gate does not accept yet and check which part of it proves:
every obligation whose kind is not named by --unsupported must be OK, every kind named by
--must-prove must have at least one OK obligation, and nothing may end in an error. The failing
obligations of the unsupported kinds are printed (they are what is left to do, not a pass).

usage: check_partial_proof.py --verifier PATH --source FILE --report-json FILE
                              --unsupported KIND,... --must-prove KIND,... -- FLAGS...
Exit status: 0 the check holds, 1 it does not, 2 the verifier could not run or parse the file.
"""
import argparse
import json
import subprocess
import sys


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--verifier", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--report-json", required=True)
    ap.add_argument("--unsupported", default="")
    ap.add_argument("--must-prove", default="")
    ap.add_argument("flags", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    flags = a.flags[1:] if a.flags[:1] == ["--"] else a.flags
    unsupported = {k for k in a.unsupported.split(",") if k}
    must = [k for k in a.must_prove.split(",") if k]
    run = subprocess.run([a.verifier, "--quiet", "--report-json", a.report_json, a.source, "--", *flags],
                         capture_output=True, text=True)
    if run.returncode not in (0, 1):
        sys.stderr.write(run.stderr)
        print(f"chapoly-verify exited with {run.returncode} (expected 0 or 1)")
        return 2
    with open(a.report_json, encoding="utf-8") as f:
        rep = json.load(f)
    bad, left, proved = [], [], {}
    for k in rep["kernels"]:
        if k.get("errors"):
            bad.append(f"{k['kernel']}: {len(k['errors'])} error(s)")
        for o in k["obligations"]:
            where = f"{k['kernel']} #{o['id']} {o['kind']} line {o['line']}: {o.get('what', '')}"
            if o["result"] == "OK":
                proved[o["kind"]] = proved.get(o["kind"], 0) + 1
            elif o["kind"] in unsupported:
                left.append(where)
            else:
                bad.append(f"{where} -> {o['result']}")
    for k in must:
        if not proved.get(k):
            bad.append(f"no {k} obligation proved")
    for w in left:
        print(f"not yet supported (FAILED, allowed): {w}")
    for k in sorted(proved):
        print(f"proved: {proved[k]} {k}")
    for b in bad:
        print(f"FAIL: {b}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
