#!/usr/bin/env bash
# check_bad_specs.sh GEN BAD_DIR: every spec in BAD_DIR must make the generator stop with exit
# status 2, print `FILE:LINE:COL: error: ...` matching the file's first line
# (`# expect: LINE:COL: fragment`; a file that cannot carry that comment, such as an empty or a
# binary one, has it as the first line of FILE.expect beside it), and write nothing.
set -u
gen=$1; dir=$2
pass=0; fail=0
for spec in "$dir"/*.toml; do
  expect=$(head -1 "$spec" | sed -n 's/^# expect: //p')
  [ -z "$expect" ] && [ -f "$spec.expect" ] && expect=$(head -1 "$spec.expect")
  if [ -z "$expect" ]; then
    echo "FAIL $spec: no '# expect: LINE:COL: fragment' line (nor $spec.expect)"; fail=$((fail+1)); continue
  fi
  out=$(mktemp -d)
  err=$("$gen" --spec "$spec" --out-dir "$out/kernels" 2>&1 >/dev/null); rc=$?
  loc=${expect%%: *}; frag=${expect#*: }
  if [ "$rc" -ne 2 ]; then
    echo "FAIL $spec: exit status $rc, want 2"; fail=$((fail+1))
  elif ! grep -qF -- "$spec:$loc: error: " <<<"$err"; then
    echo "FAIL $spec: want location $loc, got: $err"; fail=$((fail+1))
  elif ! grep -qF -- "$frag" <<<"$err"; then
    echo "FAIL $spec: want message containing '$frag', got: $err"; fail=$((fail+1))
  elif [ -e "$out/kernels" ]; then
    echo "FAIL $spec: output written despite the error"; fail=$((fail+1))
  else
    echo "ok   $spec -> $err"; pass=$((pass+1))
  fi
  rm -rf "$out"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
