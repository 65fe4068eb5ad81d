# cmake -DBUILD_DIR=... -DTARGET=... -DEXPECT=regex -P expect_build_fails.cmake
# Passes when building TARGET fails and the build output shows why (EXPECT), i.e. the proof gate
# stopped it rather than some unrelated error.
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target "${TARGET}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
string(LENGTH "${all}" n)
if(n GREATER 6000)
  string(SUBSTRING "${all}" 0 6000 shown)
else()
  set(shown "${all}")
endif()
message("${shown}")
if(rc EQUAL 0)
  message(FATAL_ERROR "building ${TARGET} succeeded; the proof gate should have failed it")
endif()
if(NOT all MATCHES "${EXPECT}")
  message(FATAL_ERROR "the build of ${TARGET} failed, but not in the proof (no match for ${EXPECT})")
endif()
message(STATUS "the gated build failed in the proof, as expected")
