#!/usr/bin/env bash
# check_deterministic.sh GEN SPEC: two runs, from two working directories, give identical bytes.
set -eu
gen=$1; spec=$(realpath "$2")
a=$(mktemp -d); b=$(mktemp -d)
(cd "$a" && "$gen" --spec "$spec" --out-dir out >/dev/null)
(cd "$b" && "$gen" --spec "$spec" --out-dir out >/dev/null)
diff -r "$a/out" "$b/out"
rm -rf "$a" "$b"
echo "ok: output is a pure function of the spec"
