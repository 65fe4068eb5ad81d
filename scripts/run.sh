#!/usr/bin/env bash
# run.sh: the main job on a fresh Debian 12 machine. Installs the dependencies, checks that
# emitted/ is what the generator makes from spec/, builds (the build proves every kernel with
# chapoly-verify before linking it), then runs the demo: kernels proven, a round trip of a real
# file, and a seal/open throughput table against OpenSSL, libsodium and intel-ipsec-mb.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
bash scripts/install-deps.sh
cmake --preset default -B "$BUILD_DIR" >/dev/null
cmake --build "$BUILD_DIR" --target chapoly-gen
cmake --build "$BUILD_DIR" --target check-emitted
cmake --build "$BUILD_DIR" -j"$(nproc)"
BUILD_DIR="$BUILD_DIR" bash scripts/demo.sh
