# cmake -DVERIFIER=... -DSRC=... -DFLAGS=a;b;c -DEXPECT=regex [-DOPTIONS=a;b] -P expect_rejected.cmake
# Passes when chapoly-verify exits with 1 (proof failure) and its diagnostics match EXPECT.
# OPTIONS: more chapoly-verify options before the file (e.g. --fail-fast).
execute_process(COMMAND "${VERIFIER}" --quiet ${OPTIONS} "${SRC}" -- ${FLAGS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${err}")
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "expected chapoly-verify to reject ${SRC} (exit status 1), got ${rc}")
endif()
if(NOT err MATCHES "error: kernel [^ ]+: obligation [0-9]+ ${EXPECT}")
  message(FATAL_ERROR "rejected, but no failed obligation matches ${EXPECT}")
endif()
message(STATUS "rejected as expected")
