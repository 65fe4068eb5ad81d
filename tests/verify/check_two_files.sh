#!/usr/bin/env bash
# check_two_files.sh VERIFIER KERNEL ENTRY -- FLAGS...: one chapoly-verify run over two files proves
# each on its own. KERNEL is an emitted mul64 kernel whose chacha20.block helper proves; its twin
# here has one rotation of that helper changed (16 -> 15). A helper proof is reused only for the
# later kernels of its own file (File::helperProofs): run in either order with the good file,
# every kernel of the twin fails chacha-block and every kernel of the good file proves it. A
# guard, not a reproduction: the caches were process-wide and keyed by the File's and the
# helper's addresses, and whether a later file's helper reused an earlier one's address was up
# to the allocator (here it did not). ENTRY is the exported function whose obligations are
# listed (--kernel), to keep the test short.
set -u
verifier=$1; kernel=$2; entry=$3; shift 3
[[ ${1:-} == -- ]] && shift
flags=("$@")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$W/bad"
sed -E '0,/\(x0_12 << 16\) \| \(x0_12 >> 16\)/s//(x0_12 << 15) | (x0_12 >> 17)/' "$kernel" >"$W/bad/$(basename "$kernel")"
cmp -s "$kernel" "$W/bad/$(basename "$kernel")" && fail "the twin is the same file (no 16-bit rotation of x0_12 found)"
good=$kernel bad=$W/bad/$(basename "$kernel")

for lead in good bad; do
  if [[ $lead == good ]]; then a=$good b=$bad; else a=$bad b=$good; fi
  out=$(timeout 300 "$verifier" --obligation chacha-block --kernel "$entry" "$a" "$b" -- "${flags[@]}" 2>&1)
  rc=$?
  [[ $rc -eq 1 ]] || fail "exit status $rc over $a $b, want 1: $out"
  # The report lists each file's kernels in order; count chacha-block rows per result and file.
  rows=$(awk '
    /^Files:|^files:/ { next }
    / chacha-block / { n++; res = ($0 ~ / FAILED /) ? "FAILED" : ($0 ~ / OK /) ? "OK" : "?"; print res }' <<<"$out")
  okc=$(grep -c '^OK$' <<<"$rows"); badc=$(grep -c '^FAILED$' <<<"$rows")
  [[ $okc -ge 1 && $okc -eq $badc ]] || fail "over $a $b: $okc chacha-block rows OK and $badc FAILED, want as many of each: $out"
  first=$(head -n 1 <<<"$rows")
  if [[ $a == "$good" ]]; then [[ $first == OK ]] || fail "the good file, first, did not prove: $out"
  else [[ $first == FAILED ]] || fail "the twin, first, proved: $out"; fi
done
echo "two files, either order: each file's chacha-block rows are its own ($okc each)"
