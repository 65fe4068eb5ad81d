# riscv64-toolchain.cmake: cross-compile chapoly for 64-bit RISC-V Linux (RV64GCV) with Clang 16
# and Debian's riscv64 cross libraries (libc6-dev-riscv64-cross, libstdc++-12-dev-riscv64-cross,
# binutils-riscv64-linux-gnu; scripts/install-deps.sh installs them). Used by the `riscv64`
# preset (CMakePresets.json); the tests run under qemu-riscv64 (CMAKE_CROSSCOMPILING_EMULATOR).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)

set(CHAPOLY_RISCV_TRIPLE riscv64-linux-gnu)
set(CMAKE_C_COMPILER clang-16)
set(CMAKE_CXX_COMPILER clang++-16)
set(CMAKE_C_COMPILER_TARGET ${CHAPOLY_RISCV_TRIPLE})
set(CMAKE_CXX_COMPILER_TARGET ${CHAPOLY_RISCV_TRIPLE})
# RV64GC for the whole build; only the `rvv` kernel family (and its register scrub) is compiled
# with -march=rv64gcv (its registry FLAGS, emitted/CMakeLists.txt), and the runtime calls it only
# after getauxval(AT_HWCAP) reported V. So nothing else can contain a vector instruction (Clang
# also expands memcpy/memset with RVV when V is enabled), and the scalar fallback runs on any
# RV64GC core: the riscv.novector test runs everything with V off.
set(CMAKE_C_FLAGS_INIT "-march=rv64gc")
set(CMAKE_CXX_FLAGS_INIT "-march=rv64gc")
# Binutils' linker for the target (clang finds riscv64-linux-gnu-ld by the triple); static
# executables so qemu-riscv64 needs no guest library path.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")

# Debian's multiarch cross root: headers and libraries of the target only.
set(CMAKE_FIND_ROOT_PATH /usr/${CHAPOLY_RISCV_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ctest runs the test programs through QEMU user mode: VLEN 256 by default; the `riscv` tests
# name their own -cpu (VLEN 128..1024, and V off for the scalar fallback). rvv_ta_all_1s: tail
# elements become all ones, so code that reads past vl fails.
find_program(CHAPOLY_QEMU_RISCV64 qemu-riscv64 REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR "${CHAPOLY_QEMU_RISCV64};-cpu;rv64,v=true,vlen=256,vext_spec=v1.0,rvv_ta_all_1s=true")
