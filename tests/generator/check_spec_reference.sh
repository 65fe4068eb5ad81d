#!/usr/bin/env bash
# check_spec_reference.sh GEN DOC: the key table in DOC (between the BEGIN/END markers) must equal
# `GEN --spec-reference`, so the parser's key table and docs/spec.md never drift.
set -eu
gen=$1; doc=$2
want=$("$gen" --spec-reference)
have=$(sed -n '/<!-- BEGIN spec-reference -->/,/<!-- END spec-reference -->/p' "$doc" | sed '1d;$d')
if [ "$want" != "$have" ]; then
  echo "FAIL: $doc is stale; regenerate its key table with: $gen --spec-reference"
  diff <(echo "$want") <(echo "$have") | head -20
  exit 1
fi
echo "ok: $doc matches the key table"
