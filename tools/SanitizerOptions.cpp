//===- SanitizerOptions.cpp - Sanitizer defaults of ptx-jit's binaries ----===//
//
// Linked into ptx-jit and the unit tests when they are built with
// PTXJIT_SANITIZE (cmake/Sanitizers.cmake, which also says why each option
// is there). The sanitizer runtimes ask for these before reading
// ASAN_OPTIONS and UBSAN_OPTIONS, which still override them.
//
//===----------------------------------------------------------------------===//

extern "C" {
#ifdef PTXJIT_ASAN_DEFAULT_OPTIONS
const char *__asan_default_options() { return PTXJIT_ASAN_DEFAULT_OPTIONS; }
#endif
const char *__ubsan_default_options() { return PTXJIT_UBSAN_DEFAULT_OPTIONS; }
}
