#!/usr/bin/env bash
# proof_cache.sh VERIFIER SCALAR_SRC RV64_SRC -- FLAGS...: `chapoly-verify --proof-cache` (the proof
# gate's reuse of scalar_mul64's proofs for rv64_mul64, verify/src/reuse.h) reuses a proof only for
# the same code. On the quick poly1305_finish kernel, in a fresh cache directory:
#  - the scalar file proves in full and stores its entry; the rv64 file (the same code under other
#    comments, spec references and kernel names) then takes it: an `identical-ir` obligation, no
#    Z3 query; the same rv64 file with lines shifted and comments and spec lines changed takes it too;
#  - a copy of the rv64 file with one code change (an operator, a constant, a contract field, a
#    "spec" value not of the generator's shape, an invariant bound, a helper's name, two lines made
#    one) or run with another compile flag is proved in full (no identical-ir), and the operator
#    and constant changes (wrong tags) fail; a second exported kernel with the same ABI suffix and
#    a wrong tag, in the same file, does not take the first one's proof and fails;
#  - an entry cut short, or one whose stored key text differs from what it is filed under, is not
#    taken (proved in full), nor a FIFO (no hang) or a symlink (not read or written through) in
#    an entry's place; a run of one obligation (--obligation) neither takes nor stores.
set -u
verifier=$1; scalar=$2; rv64=$3; shift 3
[[ ${1:-} == -- ]] && shift
flags=("$@")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$W/cache"
k_scalar=chapoly_k_scalar_mul64_poly1305_finish
k_rv64=chapoly_k_rv64_mul64_poly1305_finish

# prove NAME FILE KERNEL [EXTRA FLAGS...]: runs the verifier with the cache; report in $W/NAME.txt.
prove() {
  local name=$1 file=$2 kernel=$3
  shift 3
  "$verifier" --quiet --proof-cache "$W/cache" --kernel "$kernel" --report "$W/$name.txt" "$file" -- "${flags[@]}" "$@" \
    >"$W/$name.out" 2>&1
  echo $? >"$W/$name.rc"
}
reused() { grep -q ' identical-ir ' "$W/$1.txt"; }
queries() { sed -n 's/^result: [A-Z]* (\([0-9]*\) Z3 queries.*/\1/p' "$W/$1.txt"; }
# variant NAME SED-SCRIPT: a copy of the rv64 file edited (in its own directory, with its header);
# fails if the edit changed nothing.
variant() {
  mkdir -p "$W/$1"
  cp "$(dirname "$rv64")"/*.h "$W/$1/"
  sed -E "$2" "$rv64" >"$W/$1/$(basename "$rv64")"
  cmp -s "$rv64" "$W/$1/$(basename "$rv64")" && fail "the edit '$2' changed nothing"
}

prove scalar "$scalar" "$k_scalar"
[[ $(cat "$W/scalar.rc") == 0 ]] || fail "the scalar kernel did not prove: $(cat "$W/scalar.out")"
reused scalar && fail "the first run reused a proof from an empty cache"
[[ $(ls "$W/cache" | wc -l) == 1 ]] || fail "the proved kernel was not stored (cache: $(ls "$W/cache"))"

prove rv64 "$rv64" "$k_rv64"
[[ $(cat "$W/rv64.rc") == 0 ]] || fail "rv64 with the cache: $(cat "$W/rv64.out")"
reused rv64 || fail "rv64 (the same code) did not take scalar's proof"
[[ $(queries rv64) == 0 ]] || fail "rv64 took the proof but asked Z3 $(queries rv64) queries"
grep -q "is that of $scalar, whose $k_scalar" "$W/rv64.txt" || fail "the identical-ir obligation does not name the proof it took"

# Comments, blank lines and spec references moved: the same code.
variant shifted $'1i // an extra comment line\n1i \\\n\n/spec: spec\\/rv64_mul64.toml/s/toml:[0-9]+/toml:999/\ns/"spec":"spec\\/rv64_mul64.toml:([0-9]+)"/"spec":"spec\\/rv64_mul64.toml:1\\1"/g'
prove shifted "$W/shifted/$(basename "$rv64")" "$k_rv64"
reused shifted || fail "a copy with only comments, spec references and line numbers changed was not recognised"

# Code changes: each is proved in full.
n=0
check_fresh() {
  local name=$1 script=$2 want_rc=$3
  variant "$name" "$script"
  prove "$name" "$W/$name/$(basename "$rv64")" "$k_rv64"
  reused "$name" && fail "$name: a changed file took the cached proof"
  [[ -z $want_rc || $(cat "$W/$name.rc") == "$want_rc" ]] || fail "$name: exit status $(cat "$W/$name.rc"), want $want_rc: $(cat "$W/$name.out")"
  n=$((n + 1))
}
check_fresh operator 's/^  t = \(unsigned __int128\)h0 \+ s0;/  t = (unsigned __int128)h0 - s0;/' 1
check_fresh constant 's/\(unsigned __int128\)h0 \+ 5;/(unsigned __int128)h0 + 6;/' 1
check_fresh contract '/"role":"poly1305.finish"/s/"state":"acc"/"state":"otk"/' ""
check_fresh invariant '0,/chapoly-invariant: h2 <= 4/s//chapoly-invariant: h2 <= 5/' ""
check_fresh helper 's/\bstore64_le\b/store64_lx/g' ""
# A contract's "spec" value not of the generator's shape (spec/<name>.toml:<line>) is kept as written:
# it could hold a word a raw search of the contract finds.
check_fresh specword 's/("role":"poly1305.finish".*"spec":)"spec\/rv64_mul64.toml:[0-9]+"/\1"blocks"/' ""
# Two declarations moved onto one line: the order of lines is part of the text (proofs compare lines).
check_fresh oneline '/^void chapoly_k_rv64_mul64_poly1305_finish/,/^}/{/^  uint64_t r0;$/{N;s/\n */ /}}' ""
# A second exported kernel with the same ABI suffix and a wrong tag (s words swapped): in the same
# file as the right one, proved after it with the cache, it is proved in full and fails (the key
# names the kernel's place among the file's functions, not only its suffix).
variant twokernels '$a extern "C" void chapoly_k_zz_mul64_poly1305_finish(uint8_t tag[16], const uint8_t acc[24], const uint8_t otk[32]) {\n  uint64_t r0;\n  uint64_t r1;\n  uint64_t s1;\n  poly1305_clamp(r0, r1, s1, otk);\n  uint64_t h0;\n  uint64_t h1;\n  uint64_t h2;\n  poly1305_state_load(h0, h1, h2, acc);\n  poly1305_final(tag, h0, h1, h2, load64_le(otk + 24), load64_le(otk + 16));\n}'
prove twokernels_right "$W/twokernels/$(basename "$rv64")" "$k_rv64"
[[ $(cat "$W/twokernels_right.rc") == 0 ]] || fail "twokernels: the right kernel did not prove: $(cat "$W/twokernels_right.out")"
prove twokernels "$W/twokernels/$(basename "$rv64")" chapoly_k_zz_mul64_poly1305_finish
reused twokernels && fail "twokernels: the wrong kernel took the right one's proof"
[[ $(cat "$W/twokernels.rc") == 1 ]] || fail "twokernels: the wrong kernel: exit status $(cat "$W/twokernels.rc"), want 1: $(cat "$W/twokernels.out")"
n=$((n + 1))

# Another compile flag: another key.
prove flag "$rv64" "$k_rv64" -DCHAPOLY_PROOF_CACHE_TEST=1
reused flag && fail "a run with another compile flag took the cached proof"
n=$((n + 1))

# A damaged entry is not taken: cut short, or filed under another key text.
for e in "$W"/cache/*.json; do
  head -c 1000 "$e" >"$e.cut" && mv "$e.cut" "$e"
done
prove damaged "$rv64" "$k_rv64"
reused damaged && fail "an entry cut short was taken"
[[ $(cat "$W/damaged.rc") == 0 ]] || fail "rv64 with a damaged cache entry: $(cat "$W/damaged.out")"
n=$((n + 1))
python3 - "$W/cache" "$k_rv64" <<'EOF' || fail "no whole entry of $k_rv64 to edit (the proof after the damaged entry was not stored again?)"
import glob, json, sys
for p in glob.glob(sys.argv[1] + "/*.json"):
    try:
        j = json.load(open(p))
    except ValueError:
        continue
    if j.get("kernel") != sys.argv[2]:
        continue
    j["key"] = j["key"].replace("chapoly_k_@_poly1305_finish\n", "chapoly_k_@_poly1305_update\n", 1)
    json.dump(j, open(p, "w"))
    sys.exit(0)
sys.exit(1)
EOF
prove foreign "$rv64" "$k_rv64"
reused foreign && fail "an entry whose key text is not the run's was taken"
n=$((n + 1))

# An entry that is not a regular file is no entry (stop 35 review: a FIFO hung the verifier): a
# FIFO and a symlink to a whole entry, under the rv64 kernel's entry name; neither is read
# through, and the store after the full proof does not write through the symlink.
python3 - "$W/cache" "$k_rv64" >"$W/rv64.entry" <<'EOF' || fail "no entry of $k_rv64 to replace"
import glob, json, sys
for p in glob.glob(sys.argv[1] + "/*.json"):
    try:
        if json.load(open(p)).get("kernel") == sys.argv[2]:
            print(p)
            sys.exit(0)
    except ValueError:
        pass
sys.exit(1)
EOF
entry=$(cat "$W/rv64.entry")
rm -f "$entry" && mkfifo "$entry"
timeout 300 "$verifier" --quiet --proof-cache "$W/cache" --kernel "$k_rv64" --report "$W/fifo.txt" "$rv64" -- "${flags[@]}" \
  >"$W/fifo.out" 2>&1
rc=$?
[[ $rc == 124 ]] && fail "a FIFO in the cache hung the verifier"
[[ $rc == 0 ]] || fail "rv64 with a FIFO entry: exit $rc: $(cat "$W/fifo.out")"
reused fifo && fail "a FIFO entry was taken"
n=$((n + 1))
# The full proof stored its entry again (renamed over the FIFO); behind a symlink it is whole and
# right, and still not taken.
[[ -f $entry && ! -p $entry ]] || fail "the proof after the FIFO entry was not stored in its place"
mv "$entry" "$W/victim.json"
cp "$W/victim.json" "$W/victim.orig"
ln -s "$W/victim.json" "$entry"
prove symlinked "$rv64" "$k_rv64"
reused symlinked && fail "an entry behind a symlink was taken"
cmp -s "$W/victim.orig" "$W/victim.json" || fail "the store wrote through a symlink in the cache"
n=$((n + 1))

# One obligation: neither taken nor stored.
before=$(ls "$W/cache" | wc -l)
"$verifier" --quiet --proof-cache "$W/cache" --kernel "$k_scalar" --obligation final-reduction --report "$W/one.txt" "$scalar" \
  -- "${flags[@]}" >/dev/null 2>&1
reused one && fail "a run of one obligation took a cached proof"
[[ $(ls "$W/cache" | wc -l) == "$before" ]] || fail "a run of one obligation stored an entry"
n=$((n + 1))

echo "proof cache: reused for the same code (also with comments and lines moved); $n cases proved afresh or refused"
