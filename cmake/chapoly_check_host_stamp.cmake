# chapoly_check_host_stamp.cmake (cmake -P): one gated kernel family of a cross build must have a
# fresh proof stamp from the host build. -DSTAMP= the stamp, -DSRC= the emitted source this build
# compiles, -DINPUTS= its header and spec, -DKERNEL= the family (messages only).
if(NOT EXISTS "${STAMP}")
  message(FATAL_ERROR "chapoly: no proof of ${KERNEL}: ${STAMP} is missing. Build the host first "
                      "(cmake --preset default && cmake --build build), which runs chapoly-verify on it.")
endif()
file(STRINGS "${STAMP}" _proved REGEX "^proved [0-9a-f]+ ")
set(_found OFF)
foreach(_l IN LISTS _proved)
  string(REGEX REPLACE "^proved [0-9a-f]+ " "" _p "${_l}")
  if(_p STREQUAL SRC)
    set(_found ON)
  endif()
endforeach()
if(NOT _found)
  message(FATAL_ERROR "chapoly: ${STAMP} does not prove ${SRC} (it names: ${_proved})")
endif()
foreach(_f IN LISTS SRC INPUTS)
  if(EXISTS "${_f}" AND "${_f}" IS_NEWER_THAN "${STAMP}")
    message(FATAL_ERROR "chapoly: ${_f} changed after ${KERNEL} was proved (${STAMP}); rebuild the host build")
  endif()
endforeach()
