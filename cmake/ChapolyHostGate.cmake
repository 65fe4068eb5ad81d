# ChapolyHostGate.cmake: the proof gate of a cross build (preset `riscv64`). chapoly-verify is a
# host tool (Clang libTooling + Z3): the host build (preset `default`, CHAPOLY_HOST_BUILD_DIR)
# proves every GATED registry family, also those of other architectures whose source it can
# parse (emitted/CMakeLists.txt: CHAPOLY_FOREIGN_GATED_KERNELS), and writes
# proofs/<family>.stamp. Here chapoly_add_proof_gate() defines the same target the native build
# has, `chapoly_proof_gate`, which fails unless each gated family's host stamp exists, names the
# very source file this build compiles (cmake/chapoly_check_host_stamp.cmake: complete, not
# bounds-only, newer than that source, its header and its spec) and is a current proof of it by
# the host's own verifier (`chapoly-verify --check-stamp`: the same bytes, headers, flags,
# verifier and toolchain). So: build the host first (`cmake --build build`), then the cross
# build; scripts/test.sh does both.
include(ChapolyProofArgs)
function(chapoly_add_proof_gate)
  set(_checks)
  foreach(_k IN LISTS CHAPOLY_GATED_KERNELS)
    set(_src "${CHAPOLY_KERNEL_${_k}_SRC}")
    get_filename_component(_dir "${_src}" DIRECTORY)
    get_filename_component(_stem "${_src}" NAME_WE)
    list(APPEND _checks COMMAND "${CMAKE_COMMAND}"
         "-DSTAMP=${CHAPOLY_HOST_BUILD_DIR}/proofs/${_k}.stamp" "-DSRC=${_src}"
         "-DINPUTS=${_dir}/${_stem}.h;${CHAPOLY_KERNEL_${_k}_SPEC}" "-DKERNEL=${_k}"
         -P "${PROJECT_SOURCE_DIR}/cmake/chapoly_check_host_stamp.cmake")
    chapoly_proof_flags(${_k} _flags)
    chapoly_proof_input_args(${_k} _in)
    list(APPEND _checks COMMAND "${CHAPOLY_HOST_BUILD_DIR}/verify/chapoly-verify"
         --check-stamp "${CHAPOLY_HOST_BUILD_DIR}/proofs/${_k}.stamp" ${_in} "${_src}" -- ${_flags})
  endforeach()
  if(NOT _checks)
    set(_checks COMMAND "${CMAKE_COMMAND}" -E echo "chapoly: no gated kernel family for ${CMAKE_SYSTEM_PROCESSOR}")
  endif()
  add_custom_target(chapoly_proof_gate ALL ${_checks}
    COMMENT "chapoly: checking the host build's proof stamps (${CHAPOLY_HOST_BUILD_DIR}/proofs)")
endfunction()
