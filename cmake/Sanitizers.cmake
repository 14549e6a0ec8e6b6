# PTXJIT_SANITIZE: compile and link everything ptx-jit builds (the tool, its
# libraries, the CUDA drop-in libraries, the unit tests) with sanitizers,
# e.g. -DPTXJIT_SANITIZE=address,undefined. Every finding is fatal, so that a
# sanitizer report fails the test that caused it. Kernel code the JIT makes
# is not instrumented.
#
# Sets, for the rest of the build:
#   PTXJIT_SHARED_LIBRARY_LINK_CHECK  the flag that rejects undefined symbols
#     in a shared library; empty when sanitized, as the sanitizer runtime
#     comes with the executable (or an LD_PRELOAD), never the library.
#   PTXJIT_SANITIZER_RUNTIME  the shared sanitizer runtime `ptx-jit exec`
#     preloads into the (uninstrumented) CUDA programs it runs, so that the
#     instrumented CUDA libraries find it; "" when not sanitized.
#   PTXJIT_SANITIZE_ADDRESS, PTXJIT_SANITIZE_UNDEFINED  1 or 0, for lit.
# and defines ptxjit_add_sanitizer_options(target), which gives an
# executable the sanitizer options below as its defaults.
set(PTXJIT_SANITIZE "" CACHE STRING
    "Sanitizers to build with, as for -fsanitize= (e.g. address,undefined)")

set(PTXJIT_SHARED_LIBRARY_LINK_CHECK -Wl,--no-undefined)
set(PTXJIT_SANITIZER_RUNTIME "")
set(PTXJIT_SANITIZE_ADDRESS 0)
set(PTXJIT_SANITIZE_UNDEFINED 0)
function(ptxjit_add_sanitizer_options target)
endfunction()
if(NOT PTXJIT_SANITIZE)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "PTXJIT_SANITIZE needs clang")
endif()

string(REPLACE "," ";" ptxjit_sanitizer_list "${PTXJIT_SANITIZE}")
if("address" IN_LIST ptxjit_sanitizer_list)
  set(PTXJIT_SANITIZE_ADDRESS 1)
endif()
if("undefined" IN_LIST ptxjit_sanitizer_list)
  set(PTXJIT_SANITIZE_UNDEFINED 1)
endif()
if(NOT PTXJIT_SANITIZE_ADDRESS AND NOT PTXJIT_SANITIZE_UNDEFINED)
  message(FATAL_ERROR "PTXJIT_SANITIZE supports address and undefined, "
          "not '${PTXJIT_SANITIZE}'")
endif()

# -gline-tables-only: reports name files and lines, at a small cost.
set(ptxjit_sanitize_flags -fsanitize=${PTXJIT_SANITIZE}
    -fno-sanitize-recover=all -fno-omit-frame-pointer -gline-tables-only)
if(PTXJIT_SANITIZE_UNDEFINED)
  # vptr: LLVM, and so ptx-jit, is built without RTTI. function: it reads a
  # signature just before each function called through a pointer, and the
  # kernels ptx-jit calls are JIT-compiled code without one, which may start
  # a page whose predecessor is unmapped.
  list(APPEND ptxjit_sanitize_flags -fno-sanitize=vptr,function)
endif()
add_compile_options(${ptxjit_sanitize_flags})
add_link_options(${ptxjit_sanitize_flags})
set(PTXJIT_SHARED_LIBRARY_LINK_CHECK "")

# ASan's runtime includes UBSan's.
if(PTXJIT_SANITIZE_ADDRESS)
  set(ptxjit_runtime_name libclang_rt.asan-x86_64.so)
else()
  set(ptxjit_runtime_name libclang_rt.ubsan_standalone-x86_64.so)
endif()
execute_process(
  COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${ptxjit_runtime_name}
  OUTPUT_VARIABLE PTXJIT_SANITIZER_RUNTIME
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT IS_ABSOLUTE "${PTXJIT_SANITIZER_RUNTIME}" OR
   NOT EXISTS "${PTXJIT_SANITIZER_RUNTIME}")
  message(FATAL_ERROR "The shared sanitizer runtime ${ptxjit_runtime_name} "
          "was not found; install libclang-rt-22-dev")
endif()

# The runtime options ptx-jit's binaries run with, and `ptx-jit exec` passes
# to the CUDA programs it runs (ASAN_OPTIONS and UBSAN_OPTIONS override them).
#   print_stacktrace=1: a UBSan report says where it was reached from.
set(PTXJIT_UBSAN_DEFAULT_OPTIONS "print_stacktrace=1")
set(PTXJIT_ASAN_DEFAULT_OPTIONS "")
add_library(ptxjitSanitizerOptions OBJECT
            ${PROJECT_SOURCE_DIR}/tools/SanitizerOptions.cpp)
target_compile_definitions(ptxjitSanitizerOptions PRIVATE
  PTXJIT_UBSAN_DEFAULT_OPTIONS="${PTXJIT_UBSAN_DEFAULT_OPTIONS}")
if(PTXJIT_SANITIZE_ADDRESS)
  target_compile_definitions(ptxjitSanitizerOptions PRIVATE
    PTXJIT_ASAN_DEFAULT_OPTIONS="${PTXJIT_ASAN_DEFAULT_OPTIONS}")
endif()
function(ptxjit_add_sanitizer_options target)
  target_link_libraries(${target} PRIVATE ptxjitSanitizerOptions)
endfunction()

message(STATUS "Building with -fsanitize=${PTXJIT_SANITIZE}; `ptx-jit exec` "
        "preloads ${PTXJIT_SANITIZER_RUNTIME}")
