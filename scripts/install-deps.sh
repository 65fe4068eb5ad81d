#!/usr/bin/env bash
# install-deps.sh: install every Debian package chapoly needs to generate, verify, build, test
# and benchmark. Idempotent: packages already present are skipped by apt-get.
set -euo pipefail
PKGS=(
  build-essential cmake ninja-build pkg-config git
  clang-16 libclang-16-dev libclang-rt-16-dev llvm-16-dev libz3-dev
  python3
  python3-matplotlib  # scripts/bench-report.sh: the plot in docs/benchmarks.md
  libtomlplusplus-dev libcli11-dev nlohmann-json3-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libssl-dev openssl libsodium-dev libipsec-mb-dev
  libsimde-dev  # SIMDe: the emulated backends (tests/emu) run the AVX-512 kernels on any CPU
  qemu-user     # qemu-x86_64 -cpu Haswell: the cpu.* tests run every test program without AVX-512
                # qemu-riscv64: the riscv64 build's tests (label riscv) at VLEN 128..1024
  # the riscv64 cross build (preset riscv64): target libc, libstdc++ and binutils for Clang 16,
  # and GoogleTest's sources to build it for the target
  libc6-dev-riscv64-cross libstdc++-12-dev-riscv64-cross libgcc-12-dev-riscv64-cross
  binutils-riscv64-linux-gnu googletest
  nginx-light curl  # the provider's real-application test: nginx serves over TLS 1.3 to curl
  valgrind      # memcheck + <valgrind/memcheck.h>: the ct.valgrind.* constant-time (ctgrind) checks
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "install-deps: all ${#PKGS[@]} packages present"
