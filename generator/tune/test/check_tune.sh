#!/bin/sh
# tune.smoke: chapoly-tune end to end on the scalar target (any 64-bit CPU), kept small:
#   run 1: both scalar variants (gpr_blocks 1 and 2), the second one corrupted on purpose
#          (--test-corrupt 1: a rotation by 16 becomes 15 in its emitted source); chapoly-verify
#          must reject it, the report must say so, and the written spec must be a proved variant;
#   run 2: the same command resumes from the JSON log and redoes nothing.
# Usage: check_tune.sh CHAPOLY_TUNE WORK_DIR CHAPOLY_GEN
set -eu
tune=$1 work=$2 gen=$3
rm -rf "$work"
mkdir -p "$work/out"
common="--target scalar --out-dir $work/out --sizes 64,1024 --rounds 3 --batch-ms 0.5 --budget 240"
# shellcheck disable=SC2086
"$tune" $common --test-corrupt 1 > "$work/run1.txt" 2> "$work/run1.err" || {
  echo "run 1 failed:"; cat "$work/run1.err" "$work/run1.txt"; exit 1; }
cat "$work/run1.txt"
# shellcheck disable=SC2086
"$tune" $common > "$work/run2.txt" 2> "$work/run2.err" || {
  echo "run 2 failed:"; cat "$work/run2.err"; exit 1; }
grep -q "resuming from .*: 2 variant(s) already done" "$work/run2.err" || {
  echo "run 2 did not resume from the log:"; cat "$work/run2.err"; exit 1; }
if grep -q ": generate" "$work/run2.err"; then
  echo "run 2 regenerated a variant the log already had:"; cat "$work/run2.err"; exit 1
fi
python3 - "$work/out" <<'PY'
import json, glob, sys, re
out = sys.argv[1]
reps = glob.glob(out + "/*.scalar_mul64.json")
assert len(reps) == 1, reps
rep = json.load(open(reps[0]))
vs = rep["variants"]
assert [v["knobs"]["chacha20.gpr_blocks"] for v in vs] == ["1", "2"], vs
base, bad = vs
assert base["verdict"] == "pass" and base["changed"] == {}, base
assert len(base["sizes"]) == 2 and all(s["speedup"] > 0 and s["variant_ns_per_byte"] > 0 for s in base["sizes"]), base
assert {0, 1, 15, 16, 17, 63, 64, 65, 1024, 4099, 16401} <= set(base["check_lengths"]), base["check_lengths"]
assert bad["verdict"] == "fail" and bad["step"] == "verify", bad
assert bad.get("test_corrupted") is True, bad
assert bad["reason"], bad
assert rep["winner"] == base["id"], rep["winner"]
md = open(reps[0][:-5] + ".md").read()
assert "FAIL at verify" in md and "(winner)" in md, md
assert re.search(r"\| 2 \| %s \| chacha20.gpr_blocks = 2 \| FAIL at verify" % bad["id"], md), md
spec = open(reps[0][:-5] + ".toml").read()
assert 'name = "scalar_mul64"' in spec, spec
assert re.search(r"^gpr_blocks = 1\b", spec, re.M), spec
assert spec.startswith("# chapoly schedule spec"), spec[:200]
assert "# Tuned by chapoly-tune on" in spec and "# Command: chapoly-tune --target scalar" in spec, spec
print("tune.smoke: report, table and spec as expected; the corrupted variant was dropped at verify:")
print("  " + bad["reason"][:300])
PY
# The written spec must generate (the same generator the build's CMake option runs).
"$gen" --spec "$(ls "$work"/out/*.scalar_mul64.toml)" --out-dir "$work/gen" > /dev/null
test -s "$work/gen/chapoly_scalar_mul64.cpp"
echo "tune.smoke: OK"
