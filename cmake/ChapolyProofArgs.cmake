# ChapolyProofArgs.cmake: the arguments a proof of a registry kernel family is made and checked
# with, in one place for the three that need them: the native proof gate (verify/CMakeLists.txt),
# the verify.kernel.* tests (tests/verify/CMakeLists.txt) and the cross build's check of the host
# stamps (cmake/ChapolyHostGate.cmake). A stamp records the flags it was proved with, one by one,
# and `chapoly-verify --check-stamp` requires the same.

# The compile flags the proof gate parses kernel family `_k` with (its registry FLAGS, the
# language standard and its own folder): the verify.kernel.* tests check its stamp with the same.
function(chapoly_proof_flags _k _out)
  if(DEFINED CHAPOLY_KERNEL_${_k}_FLAGS)
    set(_flags ${CHAPOLY_KERNEL_${_k}_FLAGS})
  else()
    set(_flags ${CHAPOLY_AVX512_FLAGS})
  endif()
  get_filename_component(_dir "${CHAPOLY_KERNEL_${_k}_SRC}" DIRECTORY)
  set(${_out} ${_flags} -std=c++20 "-I${_dir}" PARENT_SCOPE)
endfunction()

# The files besides the source whose bytes a proof of family `_k` records (its header and spec,
# where they exist): the gate's --stamp-input, which the verify.kernel.* tests require.
function(chapoly_proof_inputs _k _out)
  set(_src "${CHAPOLY_KERNEL_${_k}_SRC}")
  get_filename_component(_dir "${_src}" DIRECTORY)
  get_filename_component(_stem "${_src}" NAME_WE)
  set(_in)
  foreach(_f "${_dir}/${_stem}.h" "${CHAPOLY_KERNEL_${_k}_SPEC}")
    if(EXISTS "${_f}")
      list(APPEND _in "${_f}")
    endif()
  endforeach()
  set(${_out} ${_in} PARENT_SCOPE)
endfunction()

# The same files as `--stamp-input FILE` arguments (for --stamp and --check-stamp alike).
function(chapoly_proof_input_args _k _out)
  chapoly_proof_inputs(${_k} _inputs)
  set(_args)
  foreach(_f IN LISTS _inputs)
    list(APPEND _args --stamp-input "${_f}")
  endforeach()
  set(${_out} ${_args} PARENT_SCOPE)
endfunction()
