#!/usr/bin/env bash
# demo.sh: the main job's last stage, run after the build. Shows, from a build directory:
#   1. the kernels in emitted/ (spec, line count) and whether `chapoly-gen --check` says they are
#      current;
#   2. the proof gate's summary over the shipped kernels and a check that each proof is current
#      (skipped in a build without chapoly-verify);
#   3. a real file sealed and opened with the `chapoly` CLI, and a 1-bit tamper being rejected;
#   4. the side-by-side throughput table (`chapoly-bench --quick`).
# Usage: scripts/demo.sh            (BUILD_DIR=build by default, relative to the project root)
#        BUILD_DIR=build-debug DEMO_INPUT=FILE scripts/demo.sh   (input of stage 3; default:
#        tests/vectors/boringssl_chacha20_poly1305_tests.txt, a file of the repository)
# Exit status: 0 when every stage that ran passed, 1 otherwise. A stage whose tool is not built
# is skipped with a message, except the round trip and the bench, which the demo is for.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 1
BUILD_DIR=${BUILD_DIR:-build}
case $BUILD_DIR in /*) B=$BUILD_DIR ;; *) B=$ROOT/$BUILD_DIR ;; esac

failed=()
section() { printf '\n==== %s ====\n' "$*"; }
fail() { printf 'FAILED: %s\n' "$*"; failed+=("$*"); }

# Finds an executable built somewhere under the build directory: the expected path first.
find_tool() {  # name expected-relative-path
  if [[ -x $B/$2 ]]; then printf '%s\n' "$B/$2"; return 0; fi
  find "$B" -type f -name "$1" -perm -u+x -not -path '*/CMakeFiles/*' 2>/dev/null | head -n 1
}

if [[ ! -d $B ]]; then
  echo "demo: build directory '$B' does not exist; build first (cmake --preset default && cmake --build build)"
  exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/chapoly-demo.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# ---------------------------------------------------------------------------------------------
section "1. kernels generated (emitted/)"
shopt -s nullglob
emitted=(emitted/*/*.cpp emitted/*/*.h)
declare -A checks=()  # spec -> out-dir, one generator check per pair
if ((${#emitted[@]} == 0)); then
  echo "no kernels in emitted/ yet"
else
  printf '%-48s %-34s %7s\n' "file" "spec (from the file's header)" "lines"
  for f in "${emitted[@]}"; do
    spec=$(head -n 40 "$f" | grep -o -m 1 'spec/[A-Za-z0-9_./-]*\.toml' | head -n 1)
    printf '%-48s %-34s %7s\n' "$f" "${spec:-(none named)}" "$(wc -l <"$f")"
    [[ -n $spec && -f $spec ]] && checks["$spec"]=$(dirname "$f")
  done
fi
GEN=$B/generator/chapoly-gen
if [[ -x $GEN ]]; then
  for spec in "${!checks[@]}"; do
    dir=${checks[$spec]}
    echo "\$ chapoly-gen --check --spec $spec --out-dir $dir"
    if "$GEN" --check --spec "$spec" --out-dir "$dir"; then
      echo "chapoly-gen --check: $dir is byte-identical to what $spec generates"
    else
      fail "chapoly-gen --check: $dir differs from what $spec generates"
    fi
  done
else
  echo "chapoly-gen not built at $GEN; generator check skipped"
fi

# ---------------------------------------------------------------------------------------------
section "2. verifier (chapoly-verify over the shipped kernels)"
# The build's proof gate proved every shipped kernel family before libchapoly was linked, each
# with the flags its registry entry compiles it with (x86-64 ISA flags, or --target=riscv64 for the
# RISC-V files): its reports are build/proofs/<family>.txt. Shown here: each report's per-kernel
# summaries and verdict, then the verify.kernel.* tests, which check that each stamp is a current
# proof of the emitted file as it is now (`chapoly-verify --check-stamp`: the same bytes, headers,
# flags, verifier and toolchain). Proving the five files again would take ~5 CPU-minutes.
if compgen -G "$B/proofs/*.stamp" >/dev/null; then
  for st in "$B"/proofs/*.stamp; do
    report=${st%.stamp}.txt
    echo "\$ grep -E '^(kernel |  summary:|result:)' ${report#"$ROOT"/}   # $(sed -n 's/^proved [0-9a-f]* //p' "$st" | sed "s|^$ROOT/||")"
    grep -E '^(kernel |  summary:|result:)' "$report" 2>/dev/null || fail "no proof report $report"
  done
  echo "\$ ctest --test-dir ${B#"$ROOT"/} -R '^verify\.kernel\.[a-z0-9_]+\$'"
  if ctest --test-dir "$B" -R '^verify\.kernel\.[a-z0-9_]+$' --no-tests=error --output-on-failure; then
    echo "chapoly-verify: every shipped kernel family has a current proof"
  else
    fail "chapoly-verify: a proof stamp is missing or not current (see above)"
  fi
else
  echo "no proof stamps in $B/proofs (a build without chapoly-verify); verifier summary skipped"
fi

# ---------------------------------------------------------------------------------------------
section "3. round trip of a real file through the chapoly CLI"
CLI=$(find_tool chapoly runtime/tools/chapoly)
# The input is a file of the repository (the BoringSSL AEAD vectors, ~68 KB: several blocks,
# not a multiple of 64 bytes), so the demo reads nothing outside the checkout unless told to.
INPUT=${DEMO_INPUT:-$ROOT/tests/vectors/boringssl_chacha20_poly1305_tests.txt}
if [[ -z $CLI ]]; then
  fail "the chapoly CLI is not built under $B (target chapoly-cli)"
elif [[ -z $INPUT || ! -f $INPUT ]]; then
  fail "no input file for the round trip (set DEMO_INPUT)"
else
  aad="chapoly demo $(date -u +%Y-%m-%d)"
  run() { printf '$ chapoly'; printf ' %q' "$@"; echo; "$CLI" "$@"; }
  run info || fail "chapoly info"
  run keygen --out "$work/key" || fail "chapoly keygen"
  run seal --key-file "$work/key" --in "$INPUT" --out "$work/sealed" --aad "$aad" || fail "chapoly seal"
  run open --key-file "$work/key" --in "$work/sealed" --out "$work/opened" --aad "$aad" || fail "chapoly open"
  if cmp -s "$INPUT" "$work/opened"; then
    echo "round trip: the opened file is identical to the input"
  else
    fail "round trip: the opened file differs from the input"
  fi
  printf '%-8s %9s  %s\n' "file" "bytes" "sha256"
  for f in "$INPUT" "$work/sealed" "$work/opened"; do
    [[ -f $f ]] || continue
    label=input; [[ $f == "$work/sealed" ]] && label=sealed; [[ $f == "$work/opened" ]] && label=opened
    printf '%-8s %9s  %s\n' "$label" "$(stat -c %s "$f")" "$(sha256sum <"$f" | cut -d' ' -f1)"
  done
  echo "(sealed = 28-byte header + the ciphertext in 64 KiB XChaCha20-Poly1305 chunks, each with a"
  echo " 16-byte tag: docs/file-format.md)"

  # Flip one bit in the middle of the ciphertext; open must refuse with status 1, writing nothing.
  if [[ -f $work/sealed ]]; then
    cp "$work/sealed" "$work/tampered"
    size=$(stat -c %s "$work/tampered")
    off=$((size / 2))
    old=$(od -An -tu1 -j "$off" -N 1 "$work/tampered" | tr -d ' ')
    new=$((old ^ 1))
    printf "\\$(printf '%03o' "$new")" | dd of="$work/tampered" bs=1 seek="$off" conv=notrunc status=none
    echo "tamper: byte $off of $size changed from 0x$(printf '%02x' "$old") to 0x$(printf '%02x' "$new")"
    run open --key-file "$work/key" --in "$work/tampered" --out "$work/tampered.out" --aad "$aad"
    rc=$?
    if [[ $rc -eq 1 && ! -e $work/tampered.out ]]; then
      echo "tamper: rejected (exit status 1), no output file written"
    else
      fail "tamper: open returned $rc and output exists: $([[ -e $work/tampered.out ]] && echo yes || echo no)"
    fi
    run open --key-file "$work/key" --in "$work/sealed" --out "$work/wrong-aad.out" --aad "not the same"
    rc=$?
    if [[ $rc -eq 1 && ! -e $work/wrong-aad.out ]]; then
      echo "wrong --aad: rejected (exit status 1), no output file written"
    else
      fail "wrong --aad: open returned $rc"
    fi
  fi
fi

# ---------------------------------------------------------------------------------------------
section "4. throughput (chapoly-bench --quick)"
BENCH=$(find_tool chapoly-bench tests/bench/chapoly-bench)
if [[ -z $BENCH ]]; then
  fail "chapoly-bench is not built under $B (CHAPOLY_BUILD_BENCH=ON)"
else
  echo "\$ chapoly-bench --quick"
  "$BENCH" --quick || fail "chapoly-bench --quick"
fi

# ---------------------------------------------------------------------------------------------
section "summary"
if ((${#failed[@]} == 0)); then
  echo "demo: every stage that ran passed"
  exit 0
fi
printf 'demo: %d stage(s) failed:\n' "${#failed[@]}"
printf '  - %s\n' "${failed[@]}"
exit 1
