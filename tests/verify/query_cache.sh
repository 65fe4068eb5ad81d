#!/usr/bin/env bash
# query_cache.sh VERIFIER SAMPLE -- FLAGS...: `chapoly-verify --query-cache DIR` (the proved answers
# the mutant tests share, verify/src/answers.h) changes no verdict of these runs, only the time. On the
# hand-written IFMA sample (tests/verify/samples/poly_sample.cpp), in a fresh directory:
#  - the first run proves it asking Z3 and stores its answers (range queries and unsatisfiable
#    assertion sets); a second run proves it with no range query to Z3; the report's obligations
#    and verdicts are the same;
#  - a copy without one limb mask fails with a counterexample with the cache filled, twice (a
#    failed query is never stored, so the second run asks it again);
#  - a file of answers written by another binary (another digest) is not read and is removed; a
#    FIFO named like an answers file is skipped (no hang); a directory that does not exist, and
#    --query-cache beside --proof-cache (a proof made with reused answers would be stored as a
#    proof), are usage errors (exit 2).
set -u
verifier=$1; sample=$2; shift 2
[[ ${1:-} == -- ]] && shift
flags=("$@")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$W/qc"
run() {  # run NAME FILE: the verifier with the cache; report in $W/NAME.txt, status in $W/NAME.rc
  timeout 300 "$verifier" --quiet --allow-bounds-only --query-cache "$W/qc" --report "$W/$1.txt" "$2" -- "${flags[@]}" \
    >"$W/$1.out" 2>&1
  echo $? >"$W/$1.rc"
}
queries() { sed -n 's/^result: [A-Z]* (\([0-9]*\) Z3 queries.*/\1/p' "$W/$1.txt"; }
verdicts() { awk '$1 ~ /^[0-9]+$/ {print $1, $2, $3}' "$W/$1.txt"; }
results() { grep -oE ' (OK|FAILED|TIMEOUT) ' "$W/$1.txt" | tr -d ' ' | sort | uniq -c; }

run first "$sample"
[[ $(cat "$W/first.rc") == 0 ]] || { cat "$W/first.out"; fail "the sample does not prove with an empty cache"; }
q1=$(queries first)
[[ ${q1:-0} -gt 0 ]] || fail "the first run asked no Z3 query ($q1)"
ls "$W"/qc/*.answers >/dev/null 2>&1 || fail "the first run stored no answers"
grep -q ' range ' "$W"/qc/*.answers || fail "no range-query answer stored"
grep -q ' unsat ' "$W"/qc/*.answers || fail "no unsatisfiable assertion set stored (the value proofs' queries)"
run second "$sample"
[[ $(cat "$W/second.rc") == 0 ]] || fail "the sample does not prove with the cache filled"
[[ $(queries second) == 0 ]] || fail "the second run asked $(queries second) Z3 queries (want 0: all answered from the cache)"
diff <(verdicts first) <(verdicts second) >/dev/null || fail "the obligations differ between the runs"
diff <(results first) <(results second) >/dev/null || fail "the verdicts differ between the runs"
echo "ok: proved twice, $q1 Z3 queries, then 0"

mkdir "$W/mut"
cp "$sample" "$W/mut/"
m="$W/mut/$(basename "$sample")"
sed -i '0,/d0lo = _mm512_and_si512(d0lo, m44);/s///' "$m"
cmp -s "$sample" "$m" && fail "the mask edit changed nothing"
for i in 1 2; do
  run "mutant$i" "$m"
  [[ $(cat "$W/mutant$i.rc") == 1 ]] || fail "the mutant without a mask is not rejected (run $i, exit $(cat "$W/mutant$i.rc"))"
  grep -q counterexample "$W/mutant$i.out" || fail "the mutant's rejection (run $i) names no counterexample"
done
echo "ok: the mutant without a mask is rejected twice with the cache filled"

printf '%s\n' "0000000000000000 add/64/0|0x0:0x1=>0x0:0x0" >"$W/qc/other-binary.answers"
mkfifo "$W/qc/fifo.answers"
run third "$sample"
[[ $(cat "$W/third.rc") == 0 ]] || fail "the sample does not prove beside a stale file and a FIFO"
[[ -e "$W/qc/other-binary.answers" ]] && fail "another binary's answers file was not removed"
[[ -p "$W/qc/fifo.answers" ]] || fail "the FIFO was touched"
echo "ok: another binary's answers removed, a FIFO skipped"

timeout 60 "$verifier" --quiet --query-cache "$W/none" "$sample" -- "${flags[@]}" >"$W/none.out" 2>&1
rc=$?
[[ $rc == 2 ]] || fail "a missing --query-cache directory gave exit $rc, not 2"
echo "ok: a missing directory is a usage error"
mkdir "$W/pc"
timeout 60 "$verifier" --quiet --allow-bounds-only --query-cache "$W/qc" --proof-cache "$W/pc" "$sample" -- "${flags[@]}" \
  >"$W/both.out" 2>&1
rc=$?
[[ $rc == 2 ]] || fail "--query-cache with --proof-cache gave exit $rc, not 2"
grep -q "cannot be used together" "$W/both.out" || fail "--query-cache with --proof-cache: no clear message"
[[ -z $(ls -A "$W/pc") ]] || fail "--query-cache with --proof-cache stored a proof"
echo "ok: --query-cache with --proof-cache is a usage error, nothing stored"
