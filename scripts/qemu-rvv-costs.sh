#!/usr/bin/env bash
# qemu-rvv-costs.sh: re-makes the QEMU cost table of docs/benchmarks.md (between
# <!-- BEGIN qemu-rvv-costs --> and <!-- END qemu-rvv-costs -->): scripts/qemu_rvv_costs.c built
# with clang-16 for riscv64 (RV64GCV, Debian's cross libraries) and run under qemu-riscv64 at
# VLEN 256, the benchmark's setting. A few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
clang-16 --target=riscv64-linux-gnu -march=rv64gcv -O2 -static scripts/qemu_rvv_costs.c -o "$tmp/costs"
qemu-riscv64 -cpu rv64,v=true,vlen=256,vext_spec=v1.0,rvv_ta_all_1s=true "$tmp/costs" >"$tmp/table"
{
  echo "<!-- BEGIN qemu-rvv-costs -->"
  echo "Made by \`scripts/qemu-rvv-costs.sh\` on $(date -u +%Y-%m-%d): $(qemu-riscv64 --version | head -1), \`-cpu rv64,v=true,vlen=256\`, on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); one run, process CPU time."
  echo
  cat "$tmp/table"
  echo "<!-- END qemu-rvv-costs -->"
} >"$tmp/block"
python3 scripts/doc_block.py qemu-rvv-costs "$tmp/block" docs/benchmarks.md "<!-- END riscv-bench -->"
echo "qemu-rvv-costs: docs/benchmarks.md updated"
