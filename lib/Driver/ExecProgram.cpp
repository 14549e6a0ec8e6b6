//===- ExecProgram.cpp - The `ptx-jit exec` command -----------------------===//

#include "ptxjit/Driver/ExecProgram.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <vector>

using namespace llvm;
using namespace ptxjit;

Expected<std::string> driver::findCUDALibraryDir(const char *Argv0) {
  std::string Exe = sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&findCUDALibraryDir));
  SmallString<256> Dir(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Dir, "lib");
  SmallString<256> Library(Dir);
  sys::path::append(Library, "libcudart.so.13");
  if (!sys::fs::exists(Library))
    return createStringError(inconvertibleErrorCode(),
                             "ptx-jit's CUDA runtime library is not at %s; "
                             "build the 'cudart' target",
                             Library.c_str());
  return std::string(Dir);
}

/// Sets Name to Value, followed by its old value after Separator if it had
/// one.
static void prependToEnv(const char *Name, StringRef Value, char Separator) {
  std::string New = Value.str();
  if (const char *Old = std::getenv(Name); Old && *Old)
    New += Separator + std::string(Old);
  setenv(Name, New.c_str(), /*overwrite=*/1);
}

Error driver::execProgram(StringRef LibraryDir, ArrayRef<std::string> Args) {
  if (Args.empty())
    return createStringError(inconvertibleErrorCode(),
                             "exec needs a program to run");
  prependToEnv("LD_LIBRARY_PATH", LibraryDir, ':');
#ifdef PTXJIT_SANITIZER_RUNTIME
  // A sanitizer build (PTXJIT_SANITIZE): the CUDA libraries are instrumented
  // and the program is not, so the sanitizer runtime must be loaded before
  // anything else, and take the options ptx-jit's own binaries take.
  prependToEnv("LD_PRELOAD", PTXJIT_SANITIZER_RUNTIME, ':');
  prependToEnv("ASAN_OPTIONS", PTXJIT_ASAN_DEFAULT_OPTIONS, ':');
  prependToEnv("UBSAN_OPTIONS", PTXJIT_UBSAN_DEFAULT_OPTIONS, ':');
#endif
  std::vector<char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  execvp(Argv[0], Argv.data());
  return createStringError(std::error_code(errno, std::generic_category()),
                           "cannot run '%s': %s", Args[0].c_str(),
                           std::strerror(errno));
}
