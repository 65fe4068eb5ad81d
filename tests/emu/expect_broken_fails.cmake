# expect_broken_fails.cmake: the emulated suites must catch a broken kernel build (ctest
# emu.broken_ifma_fails, tests/emu/emu.cmake).
#
#   cmake -DTESTS=<chapoly-tests> -DFILTER=<gtest filter> -P expect_broken_fails.cmake
#
# Runs chapoly-tests with CHAPOLY_TEST_EMU_BROKEN=1, which adds "avx512-emu-broken" (the shipped
# kernel emulated with the IFMA hi half taken from bit 51 of the product instead of 52) to the
# backends. Passes only if: the run fails; every failing test is one of the broken backend's; at
# least one of its AEAD and one of its Poly1305 tests fail by an assertion (a wrong tag, not a
# crash); and the same tests on the correct emulation, "avx512-emu", in the same run, pass.
foreach(_v TESTS FILTER)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "expect_broken_fails.cmake: -D${_v}=... is required")
  endif()
endforeach()
set(ENV{CHAPOLY_TEST_EMU_BROKEN} 1)
execute_process(COMMAND "${TESTS}" "--gtest_filter=${FILTER}"
                OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc)
# Safe for CMake lists (';' separates, '[...]' groups): GoogleTest's "[  FAILED  ]" becomes "<  FAILED  >".
string(REPLACE ";" "," _out "${_out}")
string(REPLACE "[" "<" _out "${_out}")
string(REPLACE "]" ">" _out "${_out}")
if(_rc EQUAL 0)
  message(FATAL_ERROR "the suites passed on the deliberately broken emulation: they test nothing there\n${_out}")
endif()
if(NOT _rc EQUAL 1)
  message(FATAL_ERROR "chapoly-tests did not fail by assertions (exit '${_rc}')\n${_out}\n${_err}")
endif()
string(REGEX MATCHALL "\n<  FAILED  > [A-Za-z][^\n,]*" _failed "${_out}")
set(_aead FALSE)
set(_poly FALSE)
foreach(_f IN LISTS _failed)
  if(NOT _f MATCHES "/avx512_emu_broken( |$)")
    message(FATAL_ERROR "a test failed that is not on the broken backend:${_f}\n${_out}")
  endif()
  if(_f MATCHES "A5Aead|Aead|Differential")
    set(_aead TRUE)
  endif()
  if(_f MATCHES "Poly1305")
    set(_poly TRUE)
  endif()
endforeach()
if(NOT _aead OR NOT _poly)
  message(FATAL_ERROR "the broken emulation did not fail both an AEAD and a Poly1305 test\n${_out}")
endif()
if(NOT _out MATCHES "<       OK > [^\n]*/avx512_emu ")
  message(FATAL_ERROR "no test passed on the correct emulation avx512-emu in the same run\n${_out}")
endif()
list(LENGTH _failed _n)
message(STATUS "the broken emulation failed ${_n} result lines (every one on avx512-emu-broken), the correct one passed")
