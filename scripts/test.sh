#!/usr/bin/env bash
# test.sh: every test, on a fresh Debian 12 machine: installs the dependencies, builds (with the
# proof gate), and runs ctest: RFC 8439 / BoringSSL / edge-case vectors, differential tests against
# OpenSSL for every backend and spec variant, generator and verifier tests (including the mutant
# kernels that must be rejected), the installed-package consumer, and the riscv64 build's suite
# under qemu-riscv64 at VLEN 128, 256, 512 and 1024 (label riscv; `scripts/test.sh -L riscv`
# runs just those, of both builds).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
bash scripts/install-deps.sh
cmake --preset default -B "$BUILD_DIR" >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)"
# The riscv64 cross build (preset riscv64) uses this host build's proof stamps and its OpenSSL
# answers tool, so it comes second; its tests (label riscv) run under qemu-riscv64.
RISCV_DIR="$BUILD_DIR/riscv64"
cmake --preset riscv64 -B "$RISCV_DIR" -DCHAPOLY_HOST_BUILD_DIR="$(cd "$BUILD_DIR" && pwd)" >/dev/null
cmake --build "$RISCV_DIR" -j"$(nproc)"
status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$(nproc)" "$@" | tee "$log" || status=$?
ctest --test-dir "$RISCV_DIR" --output-on-failure -j"$(nproc)" "$@" | tee -a "$log" || status=$?
# One closing line for both runs (each ctest prints its own "N% tests passed, F tests failed out of T").
sed -n 's/^[0-9]*% tests passed, \([0-9]*\) tests\{0,1\} failed out of \([0-9]*\)$/\1 \2/p' "$log" |
  awk '{f += $1; t += $2} END {printf "all tests (host and riscv64 builds): %d passed, %d failed\n", t - f, f}'
exit $status
