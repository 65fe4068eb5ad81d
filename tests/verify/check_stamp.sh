#!/usr/bin/env bash
# check_stamp.sh VERIFIER STAMP SOURCE -- FLAGS...: `chapoly-verify --check-stamp` (what the
# verify.kernel.* tests ask of the proof gate's stamps) accepts STAMP, the gate's current proof of
# SOURCE with FLAGS, and refuses every way it could be stale or someone else's: a proved file or
# input whose bytes changed, other compile flags, another verifier binary, a first line that is
# not "all obligations OK", a file the stamp does not prove, no stamp, an empty one. Each refusal
# is exit status 1 with a message naming the reason; the gate's own stamp is never touched.
set -u
verifier=$1; stamp=$2; src=$3; shift 3
[[ ${1:-} == -- ]] && shift
flags=("$@")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# want RC REGEX STAMP FILE FLAGS...: --check-stamp's exit status and message.
want() {
  local rc=$1 re=$2 st=$3 file=$4
  shift 4
  local out got
  out=$("$verifier" --check-stamp "$st" "$file" -- "$@" 2>&1)
  got=$?
  [[ $got -eq $rc ]] || fail "exit status $got, want $rc (stamp $st, file $file): $out"
  grep -Eq -- "$re" <<<"$out" || fail "no /$re/ in: $out"
}

want 0 "a current proof of" "$stamp" "$src" "${flags[@]}"
# The same stamp with one digest of each kind changed.
sed -E '0,/^proved ([0-9a-f]{15})[0-9a-f]/s//proved \1x/' "$stamp" >"$W/proved.stamp"
want 1 "changed since it was proved" "$W/proved.stamp" "$src" "${flags[@]}"
sed -E '0,/^input  ([0-9a-f]{15})[0-9a-f]/s//input  \1x/' "$stamp" >"$W/input.stamp"
if grep -q '^input ' "$stamp"; then want 1 "changed since it was proved" "$W/input.stamp" "$src" "${flags[@]}"; fi
sed -E 's/^verifier ([0-9a-f]{15})[0-9a-f]/verifier \1x/' "$stamp" >"$W/verifier.stamp"
want 1 "another chapoly-verify binary" "$W/verifier.stamp" "$src" "${flags[@]}"
sed -E '1s/.*/chapoly-verify proof stamp: 1 obligation FAILED/' "$stamp" >"$W/first.stamp"
want 1 "all obligations OK" "$W/first.stamp" "$src" "${flags[@]}"
grep -v '^flags' "$stamp" >"$W/noflags.stamp"
want 1 "an older stamp" "$W/noflags.stamp" "$src" "${flags[@]}"
: >"$W/empty.stamp"
want 1 "it is empty" "$W/empty.stamp" "$src" "${flags[@]}"
want 1 "no proof stamp" "$W/missing.stamp" "$src" "${flags[@]}"
# Other flags, and a file the stamp does not prove (a byte-identical copy elsewhere).
want 1 "compile flags" "$stamp" "$src" "${flags[@]}" -DCHAPOLY_OTHER=1
cp "$src" "$W/copy.cpp"
want 1 "does not prove $W/copy.cpp" "$stamp" "$W/copy.cpp" "${flags[@]}"
# The same run without --check-stamp's files: a usage error.
"$verifier" --check-stamp "$stamp" >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "--check-stamp without files: want exit status 2"
echo "check_stamp: the current stamp accepted; 9 stale or foreign ones refused"
