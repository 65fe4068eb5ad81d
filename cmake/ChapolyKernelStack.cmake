# ChapolyKernelStack.cmake: writes kernel_stack.h, how deep each kernel family's calls reach below
# the caller's stack pointer, from the compiler's own frame sizes (-fstack-usage .su files). The
# runtime zeroes that much stack after the family's kernels ran (runtime/src/backends.cpp.in),
# instead of one fixed depth for all. Run as a build step (runtime/CMakeLists.txt):
#
#   cmake -DOUT=<header> -DFAMILIES=<f1|f2> -DOBJ_<f>=<object files, |-separated> [-DFIXED=<bytes>]
#         -DMARGIN=<bytes> -DFALLBACK=<bytes> -P ChapolyKernelStack.cmake
#
# Depth of a family = its deepest exported entry (chapoly_k_*) + the frames of all its other
# functions (an upper bound on any call chain: the verifier rejects recursive helpers) + EXTRA_<f>
# (the registry's STACK_EXTRA: what -fstack-usage leaves out, e.g. RVV's vlenb-scaled vector spill
# slots) + MARGIN (return addresses, the x86-64 red zone, the realignment of 64-byte-aligned
# frames, libc's leaf frames), rounded up to 64 bytes. FIXED (sanitized or unoptimized builds, or CHAPOLY_STACK_BURN_BYTES set) replaces every
# depth. A family with no .su file, or a frame the compiler calls dynamic, gets FALLBACK.
cmake_minimum_required(VERSION 3.20)

# Lists arrive joined by "|" (a build command cannot carry CMake's ";" intact).
string(REPLACE "|" ";" FAMILIES "${FAMILIES}")
foreach(_f IN LISTS FAMILIES)
  string(REPLACE "|" ";" OBJ_${_f} "${OBJ_${_f}}")
endforeach()

set(_text "// kernel_stack.h: GENERATED at build time by cmake/ChapolyKernelStack.cmake from the\n")
string(APPEND _text "// compiler's frame sizes of each kernel family (-fstack-usage). Do not edit.\n")
string(APPEND _text "// CHAPOLY_KERNEL_STACK_<family>: bytes of stack zeroed after that family's kernels ran.\n")
string(APPEND _text "#ifndef CHAPOLY_KERNEL_STACK_H\n#define CHAPOLY_KERNEL_STACK_H\n")
foreach(_f IN LISTS FAMILIES)
  set(_why "")
  if(FIXED)
    set(_depth ${FIXED})
    set(_why "fixed by the build (sanitized/unoptimized, or CHAPOLY_STACK_BURN_BYTES)")
  else()
    set(_entry 0)
    set(_others 0)
    set(_found OFF)
    set(_dynamic OFF)
    foreach(_o IN LISTS OBJ_${_f})
      string(REGEX REPLACE "\\.(o|obj)$" ".su" _su "${_o}")
      if(NOT EXISTS "${_su}")
        continue()
      endif()
      set(_found ON)
      file(STRINGS "${_su}" _lines)
      foreach(_l IN LISTS _lines)
        # file:line:column:function<TAB>bytes<TAB>static|dynamic|dynamic,bounded (Clang: the
        # function's name; GCC: its declaration, "void chapoly_k_x_seal(unsigned char*, ...)")
        if(NOT _l MATCHES "([^\t]+)\t([0-9]+)\t([a-z,]+)$")
          continue()
        endif()
        set(_fn "${CMAKE_MATCH_1}")
        set(_n "${CMAKE_MATCH_2}")
        if(NOT CMAKE_MATCH_3 STREQUAL "static")
          set(_dynamic ON)
        endif()
        if(_fn MATCHES "(^|[: *&])chapoly_k_[A-Za-z0-9_]+( *\\(|$)")
          if(_n GREATER _entry)
            set(_entry ${_n})
          endif()
        else()
          math(EXPR _others "${_others} + ${_n}")
        endif()
      endforeach()
    endforeach()
    if(NOT _found OR _dynamic OR _entry EQUAL 0)
      set(_depth ${FALLBACK})
      set(_why "no static frame sizes from the compiler: the default depth")
    else()
      set(_extra 0)
      if(DEFINED EXTRA_${_f})
        set(_extra ${EXTRA_${_f}})
      endif()
      math(EXPR _depth "((${_entry} + ${_others} + ${_extra} + ${MARGIN} + 63) / 64) * 64")
      set(_why "deepest entry ${_entry} + other functions ${_others} + extra ${_extra} + margin ${MARGIN}")
    endif()
  endif()
  string(APPEND _text "#define CHAPOLY_KERNEL_STACK_${_f} ${_depth}  // ${_why}\n")
endforeach()
string(APPEND _text "#endif\n")

# Rewrite only on change, so an unchanged depth does not rebuild the runtime.
set(_old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" _old)
endif()
if(NOT _old STREQUAL _text)
  file(WRITE "${OUT}.tmp" "${_text}")
  file(RENAME "${OUT}.tmp" "${OUT}")
endif()
