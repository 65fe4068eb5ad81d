# chapoly_check_host_stamp.cmake (cmake -P): the first half of a cross build's gate for one gated
# kernel family: the host build must have made its proof stamp and have the verifier that checks
# it, with a message that says what to build when not. The second half, `chapoly-verify
# --check-stamp` of the host build (cmake/ChapolyHostGate.cmake), decides whether the stamp is a
# current proof of the source this build compiles. -DSTAMP= the stamp, -DVERIFIER= the host's
# chapoly-verify, -DKERNEL= the family (messages only).
foreach(_need STAMP VERIFIER)
  if(NOT EXISTS "${${_need}}")
    message(FATAL_ERROR "chapoly: no proof of ${KERNEL}: ${${_need}} is missing. Build the host first "
                        "(cmake --preset default && cmake --build build), which runs chapoly-verify on it.")
  endif()
endforeach()
