#!/usr/bin/env bash
# bench-report.sh: one benchmark run -> the results section of docs/benchmarks.md (between its
# BEGIN/END chapoly-bench report markers) and the plot docs/benchmarks.png, from the same run,
# whose data is kept as docs/benchmarks.json (chapoly-bench --json).
# Usage: scripts/bench-report.sh [BUILD_DIR] [extra chapoly-bench options, e.g. --quick --cpu 1]
# Needs a built chapoly-bench (cmake --build BUILD_DIR --target chapoly-bench) and
# python3-matplotlib (scripts/install-deps.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shift || true
bench=$build/tests/bench/chapoly-bench
[ -x "$bench" ] || { echo "bench-report: $bench not built (cmake --build $build --target chapoly-bench)" >&2; exit 2; }
# An interpreter with matplotlib: $PYTHON, else Debian's (python3-matplotlib), else the first in PATH.
py=""
for p in ${PYTHON:-} /usr/bin/python3 python3; do
  if "$p" -c 'import matplotlib' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "bench-report: no python3 with matplotlib (apt-get install python3-matplotlib)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(--sizes all --primitives --json "$tmp/bench.json" --markdown "$tmp/bench.md" "$@")
"$bench" "${args[@]}" | tee "$tmp/console.txt"
cp "$tmp/bench.json" "$root/docs/benchmarks.json.tmp" && mv "$root/docs/benchmarks.json.tmp" "$root/docs/benchmarks.json"
"$py" "$root/scripts/bench_report.py" --json "$root/docs/benchmarks.json" --tables "$tmp/bench.md" \
  --command "chapoly-bench ${args[*]//$tmp\//}" \
  --doc "$root/docs/benchmarks.md" --png "$root/docs/benchmarks.png"
echo "bench-report: updated docs/benchmarks.md (report section), docs/benchmarks.png and docs/benchmarks.json"
