#!/usr/bin/env bash
# test.sh: every test, on a fresh Debian 12 machine: installs the dependencies, builds (with the
# proof gate), and runs ctest: RFC 8439 / BoringSSL / edge-case vectors, differential tests against
# OpenSSL for every backend and spec variant, generator and verifier tests (including the mutant
# kernels that must be rejected), and the installed-package consumer.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
bash scripts/install-deps.sh
cmake --preset default -B "$BUILD_DIR" >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$(nproc)" "$@"
