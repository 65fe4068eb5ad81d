#!/usr/bin/env bash
# bench-riscv.sh: re-makes the RISC-V table of docs/benchmarks.md (between the markers
# <!-- BEGIN riscv-bench --> and <!-- END riscv-bench -->): chapoly-riscv-bench (tests/riscv) under
# qemu-riscv64 at VLEN 256, and the static instructions per byte of each inner loop from
# llvm-objdump (scripts/riscv_loops.py). Builds the host build (proof stamps) and the riscv64
# build first if needed. One run; takes about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
RISCV_DIR="$BUILD_DIR/riscv64"
[ -f "$BUILD_DIR/CMakeCache.txt" ] || cmake --preset default -B "$BUILD_DIR" >/dev/null
cmake --build "$BUILD_DIR" --target chapoly_proof_gate chapoly-riscv-answers >/dev/null
[ -f "$RISCV_DIR/CMakeCache.txt" ] ||
  cmake --preset riscv64 -B "$RISCV_DIR" -DCHAPOLY_HOST_BUILD_DIR="$(cd "$BUILD_DIR" && pwd)" >/dev/null
cmake --build "$RISCV_DIR" --target chapoly-riscv-bench >/dev/null
bench="$RISCV_DIR/tests/riscv/chapoly-riscv-bench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
qemu-riscv64 --version | head -1 >"$tmp/qemu"
qemu-riscv64 -cpu rv64,v=true,vlen=256,vext_spec=v1.0,rvv_ta_all_1s=true "$bench" >"$tmp/table"
llvm-objdump-16 -d --no-show-raw-insn "$bench" >"$tmp/dis"
python3 scripts/riscv_loops.py "$tmp/dis" >"$tmp/loops"
{
  echo "<!-- BEGIN riscv-bench -->"
  echo "Made by \`scripts/bench-riscv.sh\` on $(date -u +%Y-%m-%d): $(cat "$tmp/qemu"), \`-cpu rv64,v=true,vlen=256\`,"
  echo "Clang 16 -O2 (kernels) for RV64GC (rvv kernel RV64GCV), one run; MB/s per CPU second of the emulator."
  echo
  cat "$tmp/table"
  echo
  echo "Static instructions per byte of the inner loops (llvm-objdump of the same program, VLEN 256):"
  echo
  cat "$tmp/loops"
  echo "<!-- END riscv-bench -->"
} >"$tmp/block"
python3 scripts/doc_block.py riscv-bench "$tmp/block" docs/benchmarks.md
echo "bench-riscv: docs/benchmarks.md updated"
