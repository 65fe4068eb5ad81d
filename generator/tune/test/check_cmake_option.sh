#!/bin/sh
# tune.cmake_option (label tune-build; a full configure and build, so not in the quick labels):
# a build with -DCHAPOLY_SPEC_<T>=SPEC generates that family from SPEC, proves it through the
# proof gate, links it into libchapoly, and the RFC 8439 suites pass on it.
# Usage: check_cmake_option.sh SOURCE_DIR WORK_DIR OPTION SPEC|DIR BACKEND [cmake args...]
set -eu
src=$1 work=$2 opt=$3 spec=$4 backend=$5
shift 5
if [ -d "$spec" ]; then spec=$(ls "$spec"/*.toml); fi   # the one spec a tuner run wrote there
rm -rf "$work"
cmake -S "$src" -B "$work" -G Ninja "-D$opt=$spec" -DCHAPOLY_BUILD_BENCH=OFF -DCHAPOLY_BUILD_TUNER=OFF "$@"
cmake --build "$work" --target chapoly-tests
# The family really came from SPEC: its generated source exists and the proof gate proved it.
ls "$work"/tuned/*/chapoly_*.cpp
grep -l "$(basename "$spec")" "$work"/tuned/*/chapoly_*.cpp
"$work/tests/chapoly-tests" --gtest_brief=1 \
  "--gtest_filter=Rfc8439Portable.*:Backends/Rfc8439.*/$backend:Backends/VectorFiles.*/$backend:Backends/Differential.*/$backend"
echo "tune.cmake_option: $opt=$spec built, proved and passed the RFC 8439 suites"
