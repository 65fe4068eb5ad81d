# check_exports.cmake: libchapoly.so exports exactly the C API of chapoly.h, nothing else (no
# kernels, no C++ internals). Run as: cmake -DLIB=path -DNM=nm -P check_exports.cmake
set(_want chapoly_backend chapoly_open chapoly_seal chapoly_select_backend chapoly_version
          chapoly_stream_init chapoly_stream_aad chapoly_stream_encrypt chapoly_stream_decrypt
          chapoly_stream_final chapoly_stream_verify chapoly_stream_wipe chapoly_xopen chapoly_xseal)
if(DEFINED WANT)  # another library's exact export list (the provider module: OSSL_provider_init)
  set(_want ${WANT})
endif()
execute_process(COMMAND "${NM}" -D --defined-only "${LIB}" OUTPUT_VARIABLE _out
                RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${NM} -D failed on ${LIB}")
endif()
string(REPLACE "\n" ";" _lines "${_out}")
set(_got "")
foreach(_l IN LISTS _lines)
  # "<address> <type> <name>[@version]"; skip linker-defined absolute symbols (type A).
  if(_l MATCHES "^[0-9a-fA-F]+ ([A-Za-z]) ([^@ ]+)")
    if(NOT CMAKE_MATCH_1 STREQUAL "A")
      list(APPEND _got "${CMAKE_MATCH_2}")
    endif()
  endif()
endforeach()
list(SORT _got)
list(SORT _want)
if(NOT _got STREQUAL _want)
  message(FATAL_ERROR "${LIB} exports:\n  ${_got}\nbut must export exactly:\n  ${_want}")
endif()
message(STATUS "${LIB} exports exactly: ${_got}")
