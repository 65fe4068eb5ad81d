# check_isa.cmake: disassemble object files and check which vector registers their code uses
# (ctest emu.objects.*, tests/emu/emu.cmake).
#
#   cmake -DOBJDUMP=<objdump> -DOBJECTS=<a.o|b.o|...> -DSYMBOL=<regex> -DEXPECT=none|some -P check_isa.cmake
#
# EXPECT=none: no instruction names a zmm, ymm or opmask (k0-k7) register: the emulated kernels
# are baseline x86-64 code, whatever SIMDe and the compiler chose. EXPECT=some: at least one
# does (run on the native kernels, it shows the check can see AVX-512 code at all). Each object
# must define a symbol matching SYMBOL, so the check cannot pass on the wrong file.
foreach(_v OBJDUMP OBJECTS SYMBOL EXPECT)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "check_isa.cmake: -D${_v}=... is required")
  endif()
endforeach()
string(REPLACE "|" ";" _objects "${OBJECTS}")
foreach(_o IN LISTS _objects)
  execute_process(COMMAND "${OBJDUMP}" -d --no-show-raw-insn "${_o}"
                  OUTPUT_VARIABLE _dis ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${OBJDUMP} -d ${_o}: exit ${_rc}\n${_err}")
  endif()
  if(NOT _dis MATCHES "<${SYMBOL}>:")
    message(FATAL_ERROR "${_o}: no symbol matching '${SYMBOL}' in the disassembly")
  endif()
  # Instruction lines only ("  addr:\tmnemonic operands"); CMake lists split on ';'.
  string(REPLACE ";" "," _dis "${_dis}")
  string(REGEX MATCHALL "\n[ ]*[0-9a-f]+:\t[^\n]*%(zmm|ymm|k[0-7])[^\n]*" _hits "${_dis}")
  list(LENGTH _hits _n)
  if(EXPECT STREQUAL "none" AND _n GREATER 0)
    list(SUBLIST _hits 0 10 _first)
    string(REPLACE ";" "" _first "${_first}")
    message(FATAL_ERROR "${_o}: ${_n} instructions use AVX or AVX-512 registers, e.g.:${_first}")
  elseif(EXPECT STREQUAL "some" AND _n EQUAL 0)
    message(FATAL_ERROR "${_o}: no instruction uses a zmm, ymm or k register")
  endif()
  message(STATUS "${_o}: ${_n} instructions with zmm/ymm/k registers (expected ${EXPECT})")
endforeach()
