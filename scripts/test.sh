#!/usr/bin/env bash
# test.sh: every test, on a fresh Debian 12 machine: installs the dependencies, builds (with the
# proof gate), and runs ctest: RFC 8439 / BoringSSL / edge-case vectors, differential tests against
# OpenSSL for every backend and spec variant, generator and verifier tests (including the mutant
# kernels that must be rejected), the installed-package consumer, the CLI, the constant-time checks
# (ct.valgrind.*, ctgrind under valgrind; ct.dudect.report) and a bounded fuzz run of the verifier's
# front end. Then the same suite again under AddressSanitizer + UndefinedBehaviorSanitizer (the
# asan preset, in build-asan/: every label but cpu, which needs qemu, and ct, which needs
# valgrind), with the bounded libFuzzer runs of seal/open (differential against OpenSSL and
# libsodium) and of the spec reader; no emulated backends there (CHAPOLY_TEST_EMULATED=OFF: too slow
# to compile with ASan). CHAPOLY_SANITIZERS=0 skips the second stage.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
bash scripts/install-deps.sh
cmake --preset default -B "$BUILD_DIR" >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$(nproc)" "$@"
if [[ ${CHAPOLY_SANITIZERS:-1} != 0 ]]; then
  ASAN_BUILD_DIR=${ASAN_BUILD_DIR:-build-asan}
  cmake --preset asan -B "$ASAN_BUILD_DIR" >/dev/null
  cmake --build "$ASAN_BUILD_DIR" -j"$(nproc)"
  # As the asan test preset: UB and leaks fail the test.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$ASAN_BUILD_DIR" --output-on-failure -j"$(nproc)" -LE '^(cpu|ct)$'

fi
