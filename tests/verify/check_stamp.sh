#!/usr/bin/env bash
# check_stamp.sh VERIFIER STAMP SOURCE INPUTS SAMPLE -- FLAGS...: `chapoly-verify --check-stamp`
# (what the verify.kernel.* tests ask of the proof gate's stamps) accepts STAMP, the gate's current
# proof of SOURCE with FLAGS recording INPUTS (a ;-list: the family's header and spec), and refuses,
# exit status 1 and the reason named, every way a stamp can be stale, incomplete or not the proof
# asked for: a proved file, input or header whose bytes changed; an input it does not record; other
# compile flags (also the same text split differently); another verifier binary or toolchain; a
# first line that is not "all obligations OK"; no "end" line; no kernel line; a line it does not
# know; a header the parse reads now that the proof did not, or the other way round; a bounds-only
# run's stamp (SAMPLE, a kernel that proves, run with --allow-bounds-only --stamp); a file it does
# not prove; no stamp; an empty one. Files are compared by real path (another spelling of the
# proved file is accepted). A --stamp run refuses flags that make clang read files the stamp
# cannot follow, and writes a depfile of every file it read. The gate's own stamp is only read.
set -u
verifier=$1; stamp=$2; src=$3; IFS=';' read -r -a inputs <<<"$4"; sample=$5; shift 5
[[ ${1:-} == -- ]] && shift
flags=("$@")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
need=()
for f in "${inputs[@]}"; do need+=(--stamp-input "$f"); done
n=0

# want RC REGEX STAMP FILE FLAGS...: --check-stamp's exit status and message.
want() {
  local rc=$1 re=$2 st=$3 file=$4
  shift 4
  local out got
  out=$("$verifier" --check-stamp "$st" "${need[@]}" "$file" -- "$@" 2>&1)
  got=$?
  [[ $got -eq $rc ]] || fail "exit status $got, want $rc (stamp $st, file $file): $out"
  grep -Eq -- "$re" <<<"$out" || fail "no /$re/ in: $out"
  [[ $rc -eq 0 ]] || n=$((n + 1))
}
# edit NAME SED-SCRIPT: a copy of the stamp edited; fails if the edit changed nothing.
edit() {
  sed -E "$2" "$stamp" >"$W/$1.stamp"
  cmp -s "$stamp" "$W/$1.stamp" && fail "the edit '$2' changed nothing in $stamp"
}

want 0 "a current proof of" "$stamp" "$src" "${flags[@]}"
want 0 "a current proof of" "$stamp" "$(dirname "$src")/../$(basename "$(dirname "$src")")/$(basename "$src")" "${flags[@]}"
[[ ${#inputs[@]} -gt 0 ]] || fail "no inputs given (the family's header and spec)"
grep -q '^header ' "$stamp" || fail "the stamp records no header the parse read"
edit proved '0,/^proved ([0-9a-f]{15})[0-9a-f]/s//proved \1x/'
want 1 "$src changed since it was proved" "$W/proved.stamp" "$src" "${flags[@]}"
edit input '0,/^input  ([0-9a-f]{15})[0-9a-f]/s//input  \1x/'
want 1 "changed since it was proved" "$W/input.stamp" "$src" "${flags[@]}"
edit header '0,/^header ([0-9a-f]{15})[0-9a-f]/s//header \1x/'
want 1 "changed since it was proved" "$W/header.stamp" "$src" "${flags[@]}"
edit noinput '/^input /d'
want 1 "does not record the input" "$W/noinput.stamp" "$src" "${flags[@]}"
edit verifier 's/^verifier ([0-9a-f]{15})[0-9a-f]/verifier \1x/'
want 1 "another chapoly-verify binary" "$W/verifier.stamp" "$src" "${flags[@]}"
edit noverifier '/^verifier /d'
want 1 "an older stamp" "$W/noverifier.stamp" "$src" "${flags[@]}"
edit toolchain 's/^toolchain .*/toolchain clang version 0.0; Z3 0.0.0.0/'
want 1 "proved with clang version 0.0" "$W/toolchain.stamp" "$src" "${flags[@]}"
edit first '1s/.*/chapoly-verify proof stamp: 1 obligation FAILED/'
want 1 "all obligations OK" "$W/first.stamp" "$src" "${flags[@]}"
edit noend '/^end$/d'
want 1 "incomplete" "$W/noend.stamp" "$src" "${flags[@]}"
edit nokernel '/^kernel /d'
want 1 "lists no kernel" "$W/nokernel.stamp" "$src" "${flags[@]}"
edit mode 's/^end$/mode allow-bounds-only\nend/'
want 1 "bounds-only" "$W/mode.stamp" "$src" "${flags[@]}"
edit unknown 's/^end$/signed-off-by someone\nend/'
want 1 "a line this verifier does not know" "$W/unknown.stamp" "$src" "${flags[@]}"
# The headers: one the parse reads left out of the stamp, and one the parse does not read added.
edit lessheaders '0,/^header /{/^header /d}'
want 1 "which the proof did not read" "$W/lessheaders.stamp" "$src" "${flags[@]}"
# (this script, recorded with its true digest: FNV-1a 64 of its bytes, as the verifier computes it)
script=$(realpath "${BASH_SOURCE[0]}")
digest=$(python3 -c 'import sys; h=0xcbf29ce484222325
for b in open(sys.argv[1], "rb").read(): h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
print("%016x" % h)' "$script")
edit moreheaders "s|^end\$|header $digest $script\nend|"
want 1 "which the parse no longer reads" "$W/moreheaders.stamp" "$src" "${flags[@]}"
: >"$W/empty.stamp"
want 1 "it is empty" "$W/empty.stamp" "$src" "${flags[@]}"
want 1 "no proof stamp" "$W/missing.stamp" "$src" "${flags[@]}"
want 1 "no proof stamp" "/dev/null" "$src" "${flags[@]}"
# Other flags: one more, one fewer, and the same text as one argument.
want 1 "compile flags" "$stamp" "$src" "${flags[@]}" -DCHAPOLY_OTHER=1
want 1 "compile flags" "$stamp" "$src" "${flags[@]:1}"
want 1 "compile flags" "$stamp" "$src" "${flags[*]}"
# A byte-identical copy elsewhere is not the file proved.
cp "$src" "$W/copy.cpp"
want 1 "does not prove $W/copy.cpp" "$stamp" "$W/copy.cpp" "${flags[@]}"
# --check-stamp without files, with an empty stamp name, or with options that belong to a proof
# run: usage errors.
"$verifier" --check-stamp "$stamp" >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "--check-stamp without files: want exit status 2"
"$verifier" --check-stamp "" "$src" -- "${flags[@]}" >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "--check-stamp '': want exit status 2"
"$verifier" --check-stamp "$stamp" --kernel x "$src" -- "${flags[@]}" >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "--check-stamp with --kernel: want exit status 2"
# A stamped run refuses a flag that makes clang read files the stamp cannot follow.
out=$("$verifier" --quiet --stamp "$W/pch.stamp" "$sample" -- "${flags[@]}" -fmodules 2>&1)
[[ $? -eq 2 && ! -e $W/pch.stamp ]] || fail "--stamp with -fmodules: want exit status 2 and no stamp: $out"
grep -q "not one a stamped proof takes" <<<"$out" || fail "--stamp with -fmodules: $out"
# A bounds-only run writes a stamp that says so, which --check-stamp refuses; its depfile names
# the sample and the headers it read.
"$verifier" --quiet --allow-bounds-only --stamp "$W/bo.stamp" --depfile "$W/bo.d" "$sample" -- "${flags[@]}" >"$W/bo.out" 2>&1 ||
  fail "the sample did not prove: $(cat "$W/bo.out")"
grep -q "^$W/bo.stamp:" "$W/bo.d" && grep -q "$(basename "$sample")" "$W/bo.d" && grep -q "stdint.h" "$W/bo.d" ||
  fail "the depfile does not name the stamp, the sample and stdint.h: $(cat "$W/bo.d")"
grep -qx "mode allow-bounds-only" "$W/bo.stamp" || fail "a bounds-only run's stamp does not say so"
need=()
want 1 "bounds-only" "$W/bo.stamp" "$sample" "${flags[@]}"
[[ ! -e $W/bo.stamp.tmp ]] || fail "a temporary stamp was left behind"
echo "check_stamp: the current stamp accepted; $n stale, incomplete or foreign ones refused"
