#!/usr/bin/env bash
# check_hostile.sh GEN SPEC TARGETS CASE: chapoly-gen given a hostile path or spec file
# (issue 10, item 9). Paths with quotes, ';' and '$(...)' are only bytes (chapoly-gen runs no other
# program and no shell): the run succeeds, writes what a plain run writes and runs nothing
# (no PWNED file appears). A path with a control character (it would be recorded raw into the
# emitted // comments) and a spec that is not a regular file of at most 1 MiB are refused with
# exit status 2, a clear message, nothing written, and no hang (every run is under `timeout`);
# so is a write the file system cuts short (a file size limit standing in for a full disk).
set -u
gen=$1; spec=$(realpath "$2"); targets=$(realpath "$3"); case=$4
S=$(mktemp -d); R=$(mktemp -d)
trap 'rm -rf "$S" "$R"' EXIT
cp "$spec" "$S/spec.toml"; cp "$spec" "$R/spec.toml"
fail() { echo "FAIL $case: $*"; exit 1; }

# run [ENV=VALUE...] -- ARGS: runs the generator from $S; sets rc, out (stdout+stderr) and
# before (what $S held before the run).
run() {
  local envs=()
  while [[ $1 != -- ]]; do envs+=("$1"); shift; done; shift
  before=$(ls -A "$S")
  out=$(cd "$S" && env "${envs[@]}" timeout 60 "$gen" "$@" 2>&1); rc=$?
  [[ $rc -eq 124 ]] && fail "chapoly-gen hung (killed after 60 s): $*"
  printf '%s\n' "$out"
}
no_pwned() {
  local found
  found=$(find "$S" "$R" -name 'PWNED*' -print 2>/dev/null)
  [[ -z $found && ! -e PWNED ]] || fail "a shell command ran: $found"
}
# same_as_plain DIR: DIR (relative to $S) holds what a plain run writes from $R with the same names.
same_as_plain() {
  (cd "$R" && "$gen" --spec spec.toml --out-dir "$1" >/dev/null) || fail "the plain run failed"
  diff -r "$R/$1" "$S/$1" >/dev/null || fail "output differs from a plain run's"
}
want_ok() { [[ $rc -eq 0 ]] || fail "exit status $rc, want 0: $out"; }
# want_refused FRAGMENT [LOC]: exit 2, the message names FRAGMENT (and starts with LOC), no output.
want_refused() {
  [[ $rc -eq 2 ]] || fail "exit status $rc, want 2: $out"
  grep -qF -- "$1" <<<"$out" || fail "want a message containing '$1', got: $out"
  if [[ $# -ge 2 ]]; then grep -qF -- "$2: error: " <<<"$out" || fail "want '$2: error: ', got: $out"; fi
  [[ $(ls -A "$S") == "$before" ]] || fail "something was written: $(ls -A "$S")"
}

case $case in
  tmpdir_quote)  # the issue's reproducer: TMPDIR="x';touch PWNED;'" (an existing directory)
    mkdir "$S/x';touch PWNED;'"
    run "TMPDIR=x';touch PWNED;'" -- --spec spec.toml --out-dir out; want_ok; no_pwned
    rmdir "$S/x';touch PWNED;'" || fail "the temporary directory was left behind"
    same_as_plain out ;;
  tmpdir_missing_quote)  # a TMPDIR that does not exist: refused, nothing run
    run "TMPDIR=$S/nope';touch PWNED;'" -- --spec spec.toml --out-dir out
    want_refused "temporary directory"; no_pwned ;;
  targets_quote)  # the op tables read from a quoted --targets path
    cp -r "$targets" "$S/t'\$(touch PWNED);'"
    run -- --spec spec.toml --out-dir out --targets "$S/t'\$(touch PWNED);'"; want_ok; no_pwned
    same_as_plain out ;;
  outdir_quote)
    d="o'\$(touch PWNED)'\"q;touch PWNED"
    run -- --spec spec.toml --out-dir "$d"; want_ok; no_pwned
    [[ -s $S/$d/chapoly_avx512_ifma_fused.cpp && -s $S/$d/chapoly_avx512_ifma_fused.h ]] ||
      fail "the kernels were not written to the quoted --out-dir" ;;
  outdir_newline)  # would put '#error injected' on a line of its own in the emitted files
    run -- --spec spec.toml --out-dir "out"$'\n''#error injected'
    want_refused "--out-dir path 'out\\x0a#error injected' contains a control character" ;;
  outdir_control)
    run -- --spec spec.toml --out-dir "out"$'\x1b''[2K'; want_refused "contains a control character" ;;
  spec_newline)
    cp "$spec" "$S/spec"$'\n''#error injected.toml'
    run -- --spec "spec"$'\n''#error injected.toml' --out-dir out
    want_refused "--spec path 'spec\\x0a#error injected.toml' contains a control character" ;;
  spec_dev_zero)
    run -- --spec /dev/zero --out-dir out; want_refused "is not a regular file" "/dev/zero:1:1" ;;
  spec_fifo)  # no writer: a blocking open would hang
    mkfifo "$S/fifo.toml"
    run -- --spec fifo.toml --out-dir out; want_refused "is not a regular file" "fifo.toml:1:1" ;;
  spec_directory)
    mkdir "$S/dir.toml"
    run -- --spec dir.toml --out-dir out; want_refused "is a directory" "dir.toml:1:1" ;;
  spec_oversized)  # a valid spec padded with comments past 1 MiB
    { cat "$spec"; head -c 1100000 /dev/zero | tr '\0' '#' | fold -w 100; echo; } >"$S/big.toml"
    run -- --spec big.toml --out-dir out; want_refused "the limit is 1048576 bytes" "big.toml:1:1" ;;
  spec_deep_dotted_key)  # 100 000 key parts (200 KB): toml++ recursed once per part and crashed
    { printf 'version = 1\n'; head -c 100000 /dev/zero | tr '\0' 'x' | sed 's/x/x./g'; echo 'x = 1'; } >"$S/deep.toml"
    run -- --spec deep.toml --out-dir out; want_refused "more than 16 '.' outside strings" "deep.toml:2:34" ;;
  spec_missing)
    run -- --spec missing.toml --out-dir out; want_refused "cannot open spec file" "missing.toml:1:1" ;;
  file_size_limit)  # a file size limit (as a full TMPDIR) cuts the rendered kernel: it exited 0
    # and published the truncated file; now the write is checked, exit 2, nothing written
    before=$(ls -A "$S")
    out=$(cd "$S" && trap '' XFSZ && ulimit -f 20 && timeout 60 "$gen" --spec spec.toml --out-dir out 2>&1); rc=$?
    want_refused "cannot write" ;;
  planted_symlink)  # stop 35 review: the staging name was fixed (.NAME.tmp) and written through a
    # symlink planted there, overwriting the file it pointed to; now fresh mkstemp names
    echo precious >"$S/victim"
    mkdir -p "$S/out"; for f in chapoly_avx512_ifma_fused.cpp chapoly_avx512_ifma_fused.h; do ln -s "$S/victim" "$S/out/.$f.tmp"; done
    run -- --spec spec.toml --out-dir out; want_ok
    [[ $(cat "$S/victim") == precious ]] || fail "the run wrote through a symlink planted in --out-dir"
    [[ -f $S/out/chapoly_avx512_ifma_fused.cpp && ! -L $S/out/chapoly_avx512_ifma_fused.cpp ]] || fail "the kernel is not a regular file"
    rm -f "$S"/out/.*.tmp
    same_as_plain out ;;
  emit_ir_failed_run)  # --emit-ir is written only by a run that succeeds (it was written before the
    # outputs were, also by a run whose --out-dir could not be made)
    touch "$S/notadir"
    run -- --spec spec.toml --out-dir notadir/sub --emit-ir ir.json
    [[ $rc -eq 2 ]] || fail "exit status $rc, want 2: $out"
    [[ -e $S/ir.json ]] && fail "a failed run wrote its --emit-ir file"
    run -- --spec spec.toml --out-dir out --emit-ir ir.json; want_ok
    python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$S/ir.json" || fail "the --emit-ir file of a good run is not JSON" ;;
  *) fail "unknown case" ;;
esac
echo "ok   $case"
