# run_on_cpu.cmake: run one test program on an emulated CPU (qemu-x86_64 -cpu MODEL) and check
# that it neither crashes nor fails there (the `cpu.*` ctest tests, tests/CMakeLists.txt).
#
#   cmake -DQEMU=<qemu-x86_64> -DCPU=<model> -DBIN=<program> [-DARGS=<a;b;...>]
#         [-DENV=<NAME=value;...>] [-DGTEST=ON] [-DFILTER=<gtest filter>]
#         [-DEXPECT_SKIP=<regex>] [-DEXPECT_RUN=<regex>] [-DEXPECT_OUT=<regex>]
#         -P run_on_cpu.cmake
#
# GTEST=ON: first `BIN --gtest_list_tests` (GoogleTest's discovery, which ctest runs before every
# gtest test) must exit 0 and list tests; then `BIN --gtest_filter=FILTER` must exit 0, run at
# least one test, fail none, and: every test it skips must say why by a line matching
# EXPECT_SKIP (e.g. "lacks AVX512"), at least one test must be skipped that way when EXPECT_SKIP
# is set, and for each regex of the list EXPECT_RUN at least one passing test's
# "<       OK > name" line (GoogleTest's brackets are written < > here) must match it.
# Otherwise: `BIN ARGS...` must exit 0 and print something matching EXPECT_OUT (when set).
# Programs are spawned with an argument vector (execute_process), never through a shell.
foreach(_v QEMU CPU BIN)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "run_on_cpu.cmake: -D${_v}=... is required")
  endif()
endforeach()
foreach(_e IN LISTS ENV)
  string(FIND "${_e}" "=" _eq)
  string(SUBSTRING "${_e}" 0 ${_eq} _name)
  math(EXPR _eq "${_eq} + 1")
  string(SUBSTRING "${_e}" ${_eq} -1 _value)
  set(ENV{${_name}} "${_value}")
endforeach()
get_filename_component(_prog "${BIN}" NAME)

# run(<out-var> args...): BIN args under qemu; fails the test on a non-zero exit (a SIGILL shows
# as "Illegal instruction" / exit 132 here).
function(run _out)
  execute_process(COMMAND "${QEMU}" -cpu "${CPU}" "${BIN}" ${ARGN}
                  OUTPUT_VARIABLE _o ERROR_VARIABLE _e RESULT_VARIABLE _rc)
  # qemu's TCG warns about CPUID bits of the model it cannot emulate (TSX, ...): not ours.
  string(REGEX REPLACE "qemu-x86_64: warning: TCG doesn't support requested feature[^\n]*\n" "" _e "${_e}")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${_prog} ${ARGN} on -cpu ${CPU}: exit '${_rc}'\n${_o}\n${_e}")
  endif()
  # CMake lists split on ';' (except inside [...]): make the text safe for list operations, with
  # GoogleTest's "[ RUN      ]" markers written "< RUN      >".
  string(REPLACE ";" "," _o "${_o}\n${_e}")
  string(REPLACE "[" "<" _o "${_o}")
  string(REPLACE "]" ">" _o "${_o}")
  set(${_out} "${_o}" PARENT_SCOPE)
endfunction()

if(NOT GTEST)
  run(_out ${ARGS})
  if(DEFINED EXPECT_OUT AND NOT _out MATCHES "${EXPECT_OUT}")
    message(FATAL_ERROR "${_prog} on -cpu ${CPU}: output does not match '${EXPECT_OUT}':\n${_out}")
  endif()
  message(STATUS "${_prog} ${ARGS} on -cpu ${CPU}: exit 0")
  return()
endif()

run(_list --gtest_list_tests)
if(NOT _list MATCHES "\n  [A-Za-z0-9_/]+")
  message(FATAL_ERROR "${_prog} --gtest_list_tests on -cpu ${CPU} listed no tests:\n${_list}")
endif()
if(NOT DEFINED FILTER)
  set(FILTER "*")
endif()
run(_out "--gtest_filter=${FILTER}")
string(REGEX MATCH "<==========> ([0-9]+) tests? from [0-9]+ test suites? ran" _ran "${_out}")
if(NOT _ran OR CMAKE_MATCH_1 EQUAL 0)
  message(FATAL_ERROR "${_prog} --gtest_filter=${FILTER} on -cpu ${CPU}: no test ran\n${_out}")
endif()
set(_n_ran ${CMAKE_MATCH_1})
if(_out MATCHES "<  FAILED  >")
  message(FATAL_ERROR "${_prog} on -cpu ${CPU}: a test failed\n${_out}")
endif()

# Each skipped test's block: "< RUN      > name", the reason, "<  SKIPPED > name".
string(REGEX MATCHALL "< RUN      > [^\n]*\n([^<][^\n]*\n)*<  SKIPPED > [^\n]*" _skips "${_out}")
list(LENGTH _skips _n_skipped)
foreach(_s IN LISTS _skips)
  if(DEFINED EXPECT_SKIP AND NOT _s MATCHES "${EXPECT_SKIP}")
    message(FATAL_ERROR "${_prog} on -cpu ${CPU}: a test skipped without naming the missing "
                        "feature ('${EXPECT_SKIP}'):\n${_s}")
  endif()
endforeach()
if(DEFINED EXPECT_SKIP AND _n_skipped EQUAL 0)
  message(FATAL_ERROR "${_prog} on -cpu ${CPU}: no test skipped with '${EXPECT_SKIP}', though this "
                      "CPU lacks the feature\n${_out}")
endif()
string(REGEX MATCHALL "<       OK > [^\n]*" _oks "${_out}")
foreach(_want IN LISTS EXPECT_RUN)
  set(_hit FALSE)
  foreach(_ok IN LISTS _oks)
    if(_ok MATCHES "${_want}")
      set(_hit TRUE)
    endif()
  endforeach()
  if(NOT _hit)
    message(FATAL_ERROR "${_prog} on -cpu ${CPU}: no passing test matches '${_want}'\n${_out}")
  endif()
endforeach()
message(STATUS "${_prog} on -cpu ${CPU}: ${_n_ran} tests ran, ${_n_skipped} skipped naming the "
               "missing feature, none failed")
