# The one place that finds LLVM 22 and Clang 22 and sets their flags.
# Debian's llvm-22-dev installs its package config under /usr/lib/llvm-22.
list(APPEND CMAKE_PREFIX_PATH /usr/lib/llvm-22)

find_package(LLVM 22.1 CONFIG)
if(NOT LLVM_FOUND)
  message(FATAL_ERROR
    "LLVM 22 was not found. Run utils/install-deps.sh (it installs "
    "llvm-22-dev llvm-22-tools clang-22 libclang-cpp22-dev libzstd-dev).")
endif()
find_package(Clang CONFIG PATHS ${LLVM_INSTALL_PREFIX}/lib/cmake/clang
             NO_DEFAULT_PATH)
if(NOT Clang_FOUND)
  message(FATAL_ERROR
    "Clang 22's CMake package was not found. Run utils/install-deps.sh "
    "(package libclang-cpp22-dev).")
endif()
message(STATUS "Using LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_INSTALL_PREFIX}")

list(APPEND CMAKE_MODULE_PATH ${LLVM_CMAKE_DIR})
include(AddLLVM)

include_directories(SYSTEM ${LLVM_INCLUDE_DIRS})
separate_arguments(PTXJIT_LLVM_DEFINITIONS NATIVE_COMMAND ${LLVM_DEFINITIONS})
add_definitions(${PTXJIT_LLVM_DEFINITIONS})
if(NOT LLVM_ENABLE_RTTI)
  add_compile_options(-fno-rtti)
endif()

# Link the shared libLLVM: links stay fast and every tool shares one copy.
if(NOT TARGET LLVM)
  message(FATAL_ERROR "The shared LLVM library target is missing.")
endif()
set(PTXJIT_LLVM_LIBS LLVM)

set(PTXJIT_LLVM_TOOLS_DIR ${LLVM_TOOLS_BINARY_DIR})
find_program(PTXJIT_LIT lit PATHS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)
find_program(PTXJIT_FILECHECK FileCheck PATHS ${LLVM_TOOLS_BINARY_DIR}
             NO_DEFAULT_PATH)
if(NOT PTXJIT_LIT OR NOT PTXJIT_FILECHECK)
  message(FATAL_ERROR "lit or FileCheck missing: install llvm-22-tools.")
endif()
