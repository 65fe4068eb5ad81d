# tests/emu/emu.cmake, included by tests/CMakeLists.txt: the emulated backends (tests/emu/README.md).
#
# Every AVX-512 kernel the tests build (the shipped emitted/ kernels and each tests/specs variant)
# is compiled a second time WITHOUT the ISA flags, against SIMDe plus our shim (include/immintrin.h
# stands in for the compiler's), with its entry points renamed chapoly_k_<name>_emu_*. Each
# becomes a backend "<backend>-emu" of chapoly-tests only: never part of libchapoly, never
# chosen by dispatch, runnable on any x86-64 CPU. One more build of the shipped kernel, with the
# IFMA hi half deliberately broken (CHAPOLY_EMU_BROKEN_IFMA_HI), must make the suites fail
# (emu.broken_ifma_fails).
#
# In:  CHAPOLY_KERNELS / CHAPOLY_KERNEL_<k>_SRC (emitted/), _variant_names and _variant_dir (the
#      variant loop above).
# Out: _emu_sources (objects' sources are in the OBJECT library chapoly_emu_kernels),
#      CHAPOLY_EMU_* strings for emu/emu_backends.cpp.in, _emu_kernel_targets.
set(CHAPOLY_EMU_DECLS "")
set(CHAPOLY_EMU_TABLES "")
set(CHAPOLY_EMU_LIST "")
set(CHAPOLY_EMU_BROKEN "nullptr")
set(_emu_kernel_targets "")
set(_emu_names "")

find_path(CHAPOLY_SIMDE_INCLUDE_DIR simde/x86/avx512.h DOC "SIMDe headers (Debian libsimde-dev)")
# OFF in the asan preset: a SIMDe-emulated AVX-512 kernel had not finished compiling with
# AddressSanitizer after 26 minutes here; the native kernels are instrumented there instead.
option(CHAPOLY_TEST_EMULATED "Build the emulated backends (<backend>-emu) of tests/emu" ON)

# How much stack the emulated backends' scrub zeroes after each call: the emulated kernels'
# frames are far deeper than the native ones (SIMDe keeps every 512-bit temporary in memory;
# gcc -fstack-usage: ~260 KiB for seal at -O2), and unoptimized or sanitized builds deeper still.
set(_emu_burn 524288)
if(CMAKE_BUILD_TYPE STREQUAL "Debug" OR "${CMAKE_CXX_FLAGS}" MATCHES "-fsanitize|-O0")
  set(_emu_burn 4194304)
endif()

# chapoly_emu_kernel(<target> <source> <kernel-name> [DEFINITIONS defs...]): an OBJECT library
# with <source> compiled for baseline x86-64 against tests/emu/include/immintrin.h, its entry
# points chapoly_k_<kernel-name>_* renamed chapoly_k_<kernel-name>_<suffix>_* (suffix "emu",
# or "emubroken" for the deliberately broken build).
function(chapoly_emu_kernel _target _src _kname _suffix)
  get_filename_component(_dir "${_src}" DIRECTORY)
  add_library(${_target} OBJECT "${_src}")
  # BEFORE: include/immintrin.h must win over the compiler's own header.
  target_include_directories(${_target} BEFORE PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/emu/include")
  target_include_directories(${_target} PRIVATE "${_dir}" "${CHAPOLY_SIMDE_INCLUDE_DIR}")
  set(_defs
      # SIMDe's functions are always_inline by default; inlined into the kernels' fully unrolled
      # rounds they take gcc minutes per kernel. Out of line they take seconds, and run ~5x slower.
      SIMDE_NO_INLINE)
  # Every exported entry, the streaming ones too (the avx512 family has seal/open_update, stream_keys, poly1305_update).
  foreach(_fn seal open poly1305 chacha20 seal_update open_update stream_keys poly1305_update)
    list(APPEND _defs "chapoly_k_${_kname}_${_fn}=chapoly_k_${_kname}_${_suffix}_${_fn}")
  endforeach()
  list(APPEND _defs ${ARGN})
  target_compile_definitions(${_target} PRIVATE ${_defs})
  # -mno-avx512f: no AVX-512 instruction even if the global flags enable them (immintrin.h
  # refuses to compile otherwise); -Wno-psabi: SIMDe passes 512-bit vectors without AVX-512.
  # -g0: variable tracking over the long unrolled bodies costs minutes per kernel under -g.
  target_compile_options(${_target} PRIVATE ${CHAPOLY_KERNEL_OPT_FLAGS} -mno-avx512f -Wno-psabi -g0)
  set_target_properties(${_target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(TARGET chapoly_test_variant_sources)
    add_dependencies(${_target} chapoly_test_variant_sources)
  endif()
endfunction()

if(NOT CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  message(STATUS "chapoly tests: not an x86-64 build; no emulated backends")
elseif(NOT CHAPOLY_TEST_EMULATED)
  message(STATUS "chapoly tests: CHAPOLY_TEST_EMULATED is OFF (the asan preset); the emulated "
                 "backends are not built")
elseif(NOT CHAPOLY_SIMDE_INCLUDE_DIR)
  message(STATUS "chapoly tests: SIMDe not found (Debian package libsimde-dev); the emulated "
                 "backends (avx512-emu, <variant>-emu) are not built")
elseif(NOT CHAPOLY_HAVE_AVX512)
  message(STATUS "chapoly tests: no avx512 backend in this build; no emulated backends")
else()
  # name;kernel-name;source;native-backend for each emulated backend.
  set(_emu_specs "")
  # The registry's AVX-512 families (the ISA SIMDe + the shim emulate), each as "<backend>-emu".
  set(_emu_registry "")
  foreach(_k IN LISTS CHAPOLY_KERNELS)
    if(CHAPOLY_KERNEL_${_k}_ISA STREQUAL "x86_64-avx512" AND TARGET chapoly_kernel_${_k})
      list(APPEND _emu_registry ${_k})
      chapoly_spec_lanes("${CHAPOLY_KERNEL_${_k}_SPEC}" _lanes)
      list(APPEND _emu_specs
           "${CHAPOLY_KERNEL_${_k}_BACKEND}-emu|${_k}|${CHAPOLY_KERNEL_${_k}_SRC}|${CHAPOLY_KERNEL_${_k}_BACKEND}|${_lanes}")
    endif()
  endforeach()
  foreach(_name _lanes IN ZIP_LISTS _variant_names _variant_lanes)
    list(APPEND _emu_specs "${_name}-emu|${_name}|${_variant_dir}/chapoly_${_name}.cpp|${_name}|${_lanes}")
  endforeach()
  foreach(_spec IN LISTS _emu_specs)
    string(REPLACE "|" ";" _f "${_spec}")
    list(GET _f 0 _bname)
    list(GET _f 1 _kname)
    list(GET _f 2 _src)
    list(GET _f 3 _native)
    list(GET _f 4 _lanes)
    chapoly_emu_kernel(chapoly_emu_${_kname} "${_src}" ${_kname} emu)
    list(APPEND _emu_kernel_targets chapoly_emu_${_kname})
    list(APPEND _emu_names "${_bname}")
    string(APPEND CHAPOLY_EMU_DECLS "CHAPOLY_EMU_KERNEL(${_kname}_emu)\n")
    # Its streaming family: the emulated update entries for runs of whole chunks and the MAC entry
    # for whole-block runs (fused_stream, support/harness.h), so the streaming kernels run on any
    # CPU too.
    chapoly_fused_stream_entry(CHAPOLY_EMU_TABLES ${_kname}_emu "portable+${_bname}" ${_kname}_emu ${_lanes}
                               emu_runs_anywhere scrub_emu)
    string(APPEND CHAPOLY_EMU_TABLES
           "const EmuBackend k_${_kname}_emu = {{\"${_bname}\", chapoly_k_${_kname}_emu_seal, "
           "chapoly_k_${_kname}_emu_open,\n    chapoly_k_${_kname}_emu_poly1305, "
           "chapoly_k_${_kname}_emu_chacha20, emu_runs_anywhere, scrub_emu, &ks_${_kname}_emu}, \"${_native}\"};\n")
    string(APPEND CHAPOLY_EMU_LIST "&k_${_kname}_emu, ")
  endforeach()

  # The deliberately broken build: the shipped avx512 kernel with the IFMA hi half taken from bit
  # 51 of the product instead of 52. Listed only when CHAPOLY_TEST_EMU_BROKEN is set.
  list(GET _emu_registry 0 _k)
  chapoly_emu_kernel(chapoly_emu_${_k}_broken "${CHAPOLY_KERNEL_${_k}_SRC}" ${_k} emubroken
                     CHAPOLY_EMU_BROKEN_IFMA_HI)
  list(APPEND _emu_kernel_targets chapoly_emu_${_k}_broken)
  string(APPEND CHAPOLY_EMU_DECLS "CHAPOLY_EMU_KERNEL(${_k}_emubroken)\n")
  string(APPEND CHAPOLY_EMU_TABLES
         "const EmuBackend k_broken = {{\"avx512-emu-broken\", chapoly_k_${_k}_emubroken_seal, "
         "chapoly_k_${_k}_emubroken_open,\n    chapoly_k_${_k}_emubroken_poly1305, "
         "chapoly_k_${_k}_emubroken_chacha20, emu_runs_anywhere, scrub_emu}, \"\"};\n")
  set(CHAPOLY_EMU_BROKEN "&k_broken")

  # emu.objects.*: the emulated objects hold no AVX or AVX-512 instruction (and, as a control of
  # the check itself, the native kernels do).
  set(_emu_objs "")
  foreach(_t IN LISTS _emu_kernel_targets)
    list(APPEND _emu_objs "$<JOIN:$<TARGET_OBJECTS:${_t}>,|>")
  endforeach()
  string(REPLACE ";" "|" _emu_objs "${_emu_objs}")
  add_test(NAME emu.objects.no_avx512_instructions
           COMMAND "${CMAKE_COMMAND}" "-DOBJDUMP=${CMAKE_OBJDUMP}" "-DOBJECTS=${_emu_objs}"
                   "-DSYMBOL=chapoly_k_[A-Za-z0-9_]+_(emu|emubroken)_seal" -DEXPECT=none
                   -P "${CMAKE_CURRENT_SOURCE_DIR}/emu/check_isa.cmake")
  add_test(NAME emu.objects.native_kernels_have_them
           COMMAND "${CMAKE_COMMAND}" "-DOBJDUMP=${CMAKE_OBJDUMP}"
                   "-DOBJECTS=$<JOIN:$<TARGET_OBJECTS:chapoly_kernel_${_k}>,|>"
                   "-DSYMBOL=chapoly_k_[A-Za-z0-9_]+_seal" -DEXPECT=some
                   -P "${CMAKE_CURRENT_SOURCE_DIR}/emu/check_isa.cmake")
  # emu.broken_ifma_fails: the RFC 8439 and BoringSSL vectors and the raw Poly1305 sweep, on the
  # broken and the correct emulation in one run: the broken one must fail them, the correct one pass.
  add_test(NAME emu.broken_ifma_fails
           COMMAND "${CMAKE_COMMAND}" "-DTESTS=$<TARGET_FILE:chapoly-tests>"
                   "-DFILTER=Backends/Rfc8439.*/avx512_emu*:Backends/VectorFiles.*/avx512_emu*:Backends/Kernels.Poly1305EveryLength*/avx512_emu*"
                   -P "${CMAKE_CURRENT_SOURCE_DIR}/emu/expect_broken_fails.cmake")
  set_tests_properties(emu.objects.no_avx512_instructions emu.objects.native_kernels_have_them
                       emu.broken_ifma_fails PROPERTIES LABELS emu TIMEOUT 300)
  message(STATUS "chapoly tests: emulated backends (SIMDe ${CHAPOLY_SIMDE_INCLUDE_DIR}): ${_emu_names}")
endif()
configure_file(emu/emu_backends.cpp.in "${CMAKE_CURRENT_BINARY_DIR}/emu_backends.cpp" @ONLY)
