#!/usr/bin/env bash
# run.sh PREFIX: build tests/consumer against a libchapoly already installed in PREFIX, both ways a
# downstream user would, and run the programs:
#   1. CMake: find_package(chapoly CONFIG) with CMAKE_PREFIX_PATH=PREFIX (shared and static);
#   2. pkg-config: cc main.c $(pkg-config --cflags --libs chapoly) with PKG_CONFIG_PATH.
# It installs nothing itself. Environment (optional): CMAKE, CC, CONSUMER_CFLAGS (extra compile
# and link flags, e.g. sanitizers the library was built with), CONSUMER_WORK_DIR (scratch dir).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 PREFIX" >&2
  exit 2
fi
prefix=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
cmake_bin=${CMAKE:-cmake}
cc_bin=${CC:-cc}
flags=${CONSUMER_CFLAGS:-}
work=${CONSUMER_WORK_DIR:-$(mktemp -d)}
rm -rf "$work"
mkdir -p "$work"

# The package files live under lib/ or lib/<multiarch>/ depending on how it was configured.
pcdir=$(dirname "$(find "$prefix" -path '*/pkgconfig/chapoly.pc' | head -n 1)")
if [ ! -f "$pcdir/chapoly.pc" ]; then
  echo "run.sh: no pkgconfig/chapoly.pc under $prefix" >&2
  exit 1
fi

echo "== find_package(chapoly CONFIG) with CMAKE_PREFIX_PATH=$prefix"
gen=()
if command -v ninja >/dev/null 2>&1; then gen=(-G Ninja); fi
"$cmake_bin" -S "$here" -B "$work/cmake" "${gen[@]}" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc_bin" -DCMAKE_C_FLAGS="$flags" -DCMAKE_BUILD_TYPE=Release
"$cmake_bin" --build "$work/cmake"
"$work/cmake/consumer"
"$work/cmake/consumer_static"

echo "== cc \$(pkg-config --cflags --libs chapoly) with PKG_CONFIG_PATH=$pcdir"
export PKG_CONFIG_PATH="$pcdir"
# shellcheck disable=SC2046  # word splitting of pkg-config's output is intended
"$cc_bin" $flags -o "$work/consumer_pc" "$here/main.c" $(pkg-config --cflags --libs chapoly)
libdir=$(cd "$(pkg-config --variable=libdir chapoly)" && pwd -P)
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$work/consumer_pc"
# It really ran against the installed library. (ldd's output is captured first: with pipefail,
# `ldd | grep -q` fails whenever grep exits early and ldd gets SIGPIPE.)
deps=$(LD_LIBRARY_PATH="$libdir" ldd "$work/consumer_pc")
grep -qF "$libdir/libchapoly.so" <<<"$deps" || {
  echo "run.sh: consumer_pc did not load libchapoly.so from $libdir" >&2
  exit 1
}
echo "run.sh: all consumers built and ran against $prefix"
