# ChapolyHostGate.cmake: the proof gate of a cross build (preset `riscv64`). chapoly-verify is a
# host tool (Clang libTooling + Z3): the host build (preset `default`, CHAPOLY_HOST_BUILD_DIR)
# proves every GATED registry family, also those of other architectures whose source it can
# parse (emitted/CMakeLists.txt: CHAPOLY_FOREIGN_GATED_KERNELS), and writes
# proofs/<family>.stamp. Here chapoly_add_proof_gate() defines the same target the native build
# has, `chapoly_proof_gate`, which fails unless each gated family's host stamp exists
# (cmake/chapoly_check_host_stamp.cmake) and is a current proof of the very source file this build
# compiles by the host's own verifier (`chapoly-verify --check-stamp`: complete, not bounds-only,
# the same bytes, headers, flags, verifier and toolchain). So: build the host first (`cmake
# --build build`), then the cross build; scripts/test.sh does both.
include(ChapolyProofArgs)
function(chapoly_add_proof_gate)
  set(_checks)
  foreach(_k IN LISTS CHAPOLY_GATED_KERNELS)
    set(_stamp "${CHAPOLY_HOST_BUILD_DIR}/proofs/${_k}.stamp")
    set(_verifier "${CHAPOLY_HOST_BUILD_DIR}/verify/chapoly-verify")
    list(APPEND _checks COMMAND "${CMAKE_COMMAND}" "-DSTAMP=${_stamp}" "-DVERIFIER=${_verifier}" "-DKERNEL=${_k}"
         -P "${PROJECT_SOURCE_DIR}/cmake/chapoly_check_host_stamp.cmake")
    chapoly_proof_flags(${_k} _flags)
    chapoly_proof_input_args(${_k} _in)
    list(APPEND _checks COMMAND "${_verifier}" --check-stamp "${_stamp}" ${_in} "${CHAPOLY_KERNEL_${_k}_SRC}" -- ${_flags})
  endforeach()
  if(NOT _checks)
    set(_checks COMMAND "${CMAKE_COMMAND}" -E echo "chapoly: no gated kernel family for ${CMAKE_SYSTEM_PROCESSOR}")
  endif()
  add_custom_target(chapoly_proof_gate ALL ${_checks}
    COMMENT "chapoly: checking the host build's proof stamps (${CHAPOLY_HOST_BUILD_DIR}/proofs)")
endfunction()
