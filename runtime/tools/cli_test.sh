#!/usr/bin/env bash
# cli_test.sh CHAPOLY: end-to-end checks of the chapoly CLI (run by ctest as tools.cli).
# Round trips (empty, 1 byte, 1000 bytes, a real file), the file layout, exit statuses, and that a
# failed command never leaves an output file behind.
set -uo pipefail
CLI=${1:?usage: cli_test.sh PATH-TO-chapoly}
work=$(mktemp -d "${TMPDIR:-/tmp}/chapoly-cli-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
errors=0
bad() { echo "FAIL: $*"; errors=$((errors + 1)); }
expect_rc() {  # expected-status description command...
  local want=$1 what=$2; shift 2
  "$@" 2>"$work/stderr"
  local rc=$?
  [[ $rc -eq $want ]] || bad "$what: exit $rc, expected $want ($(cat "$work/stderr"))"
}

expect_rc 0 "keygen" "$CLI" keygen --out key
[[ $(stat -c %s key) -eq 32 ]] || bad "key is not 32 bytes"
[[ $(stat -c %a key) == 600 ]] || bad "key mode is $(stat -c %a key), expected 600"
cp key key.before
expect_rc 2 "keygen over an existing file" "$CLI" keygen --out key
cmp -s key key.before || bad "keygen without --force changed an existing key"
expect_rc 0 "keygen --force" "$CLI" keygen --out key --force
cmp -s key key.before && bad "keygen --force did not replace the key"

: >empty
printf 'x' >one
head -c 1000 /dev/urandom >thousand
inputs=(empty one thousand)
[[ -f /usr/share/common-licenses/GPL-3 ]] && { cp /usr/share/common-licenses/GPL-3 gpl; inputs+=(gpl); }
for f in "${inputs[@]}"; do
  expect_rc 0 "seal $f" "$CLI" seal --key-file key --in "$f" --out "$f.sealed" --aad "ctx"
  [[ $(stat -c %s "$f.sealed") -eq $(($(stat -c %s "$f") + 28)) ]] || bad "$f.sealed is not 28 bytes longer"
  expect_rc 0 "open $f" "$CLI" open --key-file key --in "$f.sealed" --out "$f.opened" --aad "ctx"
  cmp -s "$f" "$f.opened" || bad "$f did not survive the round trip"
done

# Two seals of the same file differ (a fresh random nonce each time).
"$CLI" seal --key-file key --in thousand --out again.sealed --aad "ctx"
cmp -s thousand.sealed again.sealed && bad "two seals are identical: the nonce was reused"

# Every single-bit change of a short sealed file is rejected with status 1 and writes nothing.
size=$(stat -c %s one.sealed)
for ((off = 0; off < size; ++off)); do
  cp one.sealed t
  old=$(od -An -tu1 -j "$off" -N 1 t | tr -d ' ')
  printf "\\$(printf '%03o' $((old ^ 0x10)))" | dd of=t bs=1 seek="$off" conv=notrunc status=none
  expect_rc 1 "open with byte $off flipped" "$CLI" open --key-file key --in t --out t.out --aad "ctx"
  [[ -e t.out ]] && { bad "open with byte $off flipped wrote t.out"; rm -f t.out; }
done

# Wrong AAD, missing AAD, wrong key: status 1, no output; an existing output file is untouched.
echo "keep me" >existing
expect_rc 1 "open with the wrong --aad" "$CLI" open --key-file key --in thousand.sealed --out existing --aad "other"
expect_rc 1 "open without --aad" "$CLI" open --key-file key --in thousand.sealed --out existing
"$CLI" keygen --out key2
expect_rc 1 "open with another key" "$CLI" open --key-file key2 --in thousand.sealed --out existing --aad "ctx"
[[ $(cat existing) == "keep me" ]] || bad "a failed open changed an existing output file"

# Other errors: status 2, no output.
head -c 31 key >short.key
expect_rc 2 "seal with a 31-byte key" "$CLI" seal --key-file short.key --in one --out x1
expect_rc 2 "seal of a missing file" "$CLI" seal --key-file key --in missing --out x2
head -c 27 one.sealed >truncated
expect_rc 2 "open of a 27-byte file" "$CLI" open --key-file key --in truncated --out x3
for x in x1 x2 x3; do [[ -e $x ]] && bad "a failed command wrote $x"; done
leftovers=$(find . -name '*.chapoly-*' | head -n 1)
[[ -z $leftovers ]] || bad "temporary file left behind: $leftovers"

# info names the backend in use.
"$CLI" info | grep -q '^backend:' || bad "info does not print the backend"
for b in portable auto; do
  expect_rc 0 "--backend $b round trip" "$CLI" --backend "$b" open --key-file key --in thousand.sealed --out "thousand.$b" --aad "ctx"
done

if ((errors)); then
  echo "cli_test: $errors check(s) failed"
  exit 1
fi
echo "cli_test: all checks passed"
