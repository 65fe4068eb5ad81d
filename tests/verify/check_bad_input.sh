#!/usr/bin/env bash
# check_bad_input.sh VERIFIER SAMPLE BAD_DIR CASE -- FLAGS...: chapoly-verify given bad input
# (issue 10, items 9 and 10) stops with the documented exit status (2: usage or parse error,
# 1: a kernel it cannot prove), a clear message, no stamp (a stale one is removed) and no hang.
# SAMPLE is a kernel that proves (tests/verify/samples/poly_sample.cpp); FLAGS its compile flags.
set -u
verifier=$1; sample=$2; bad=$3; case=$4; shift 4
[[ ${1:-} == -- ]] && shift
flags=("$@")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL $case: $*"; exit 1; }

# expect RC FRAGMENT FILE [EXTRA FLAGS...]: runs the verifier with --stamp, checks the exit
# status, that the message names FRAGMENT, and that no stamp is left.
expect() {
  local want=$1 frag=$2 file=$3; shift 3
  echo stale >"$W/proof.stamp"
  out=$(timeout 120 "$verifier" --quiet --allow-bounds-only --stamp "$W/proof.stamp" "$file" -- "${flags[@]}" "$@" 2>&1)
  rc=$?
  [[ $rc -eq 124 ]] && fail "chapoly-verify hung (killed after 120 s)"
  [[ $rc -eq $want ]] || fail "exit status $rc, want $want: $out"
  grep -qF -- "$frag" <<<"$out" || fail "want a message containing '$frag', got: $out"
  [[ ! -e $W/proof.stamp ]] || fail "a stamp was written (or the stale one kept)"
  printf '%s\n' "$out" | tail -n 3
}

case $case in
  sample_proves)  # the control: the same harness and flags, a kernel that proves, a stamp
    out=$(timeout 300 "$verifier" --quiet --allow-bounds-only --stamp "$W/proof.stamp" "$sample" -- "${flags[@]}" 2>&1)
    rc=$?
    [[ $rc -eq 0 && -s $W/proof.stamp ]] || fail "exit status $rc, stamp: $(ls "$W"): $out" ;;
  no_input)  # only options: a usage error, and a stale stamp from an earlier run is removed
    echo stale >"$W/proof.stamp"
    out=$(timeout 120 "$verifier" --quiet --allow-bounds-only --stamp "$W/proof.stamp" -- "${flags[@]}" 2>&1); rc=$?
    [[ $rc -eq 2 ]] || fail "exit status $rc, want 2: $out"
    grep -qF "error: no input files" <<<"$out" || fail "want 'error: no input files', got: $out"
    [[ ! -e $W/proof.stamp ]] || fail "the stale stamp was kept" ;;
  unknown_flag)  # the driver only warns about it; before the fix: exit 0 and a stamp
    expect 2 "unknown compile flag '-fbogus-flag'" "$sample" -fbogus-flag ;;
  misspelt_flag)
    expect 2 "unknown compile flag '-mavx512ifm' (did you mean '-mavx512ifma'?)" "$sample" -mavx512ifm ;;
  flag_missing_value)
    expect 2 "compile flag '-I' is missing its value" "$sample" -I ;;
  missing_file)
    expect 2 "missing.cpp: error: cannot read the file: No such file or directory" "$W/missing.cpp" ;;
  directory)
    mkdir "$W/dir.cpp"; expect 2 "dir.cpp: error: is a directory" "$W/dir.cpp" ;;
  fifo)  # no writer: reading it would block forever
    mkfifo "$W/fifo.cpp"; expect 2 "fifo.cpp: error: is not a regular file" "$W/fifo.cpp" ;;
  dev_zero)  # endless input
    expect 2 "/dev/zero: error: is not a regular file" /dev/zero ;;
  binary)
    { printf '\177ELF\2\1\1\0'; head -c 4096 /dev/zero | tr '\0' '\377'; } >"$W/binary.cpp"
    expect 2 "binary.cpp:1:1: error: clang could not parse the file" "$W/binary.cpp" ;;
  unparsable)
    expect 2 "unparsable.cpp:3:80: error: clang could not parse the file with the given flags (first error: " "$bad/unparsable.cpp" ;;
  non_kernel)
    expect 2 "non_kernel.cpp:4:13: error: type 'std::string' is outside the emitted dialect" \
      "$bad/non_kernel.cpp" ;;
  no_kernel)
    expect 2 "no_kernel.cpp: error: no exported kernel function" "$bad/no_kernel.cpp" ;;
  unsupported_intrinsic)
    expect 1 "unsupported_intrinsic.cpp:9:15: error: intrinsic '_mm512_sad_epu8' is not in the semantics table" \
      "$bad/unsupported_intrinsic.cpp" ;;
  *) fail "unknown case" ;;
esac
echo "ok   $case"
