//===- CompilerModule.cpp - Load the CUDA source compiler on first use ----===//
//
// Clang's libraries cost every process that links them milliseconds of
// start-up (mapping and relocating libclang-cpp), which `ptx-jit check` of a
// PTX file would pay for nothing. So CompileToPTX.cpp is built into a module
// of its own, libptxjit-cuda-source.so, the only thing that links them, and
// it is loaded here the first time a CUDA source is compiled.
//
//===----------------------------------------------------------------------===//

#include "ModuleAPI.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include <dlfcn.h>

using namespace llvm;
using namespace ptxjit::cudasource;

/// Where to look for the module: $PTXJIT_CUDA_SOURCE_MODULE alone when set;
/// else lib/ beside the executable's bin/ (the build tree's layout), then
/// where this build wrote it (for executables elsewhere, unit tests).
static std::vector<std::string> getModuleCandidates() {
  std::optional<std::string> Env =
      sys::Process::GetEnv("PTXJIT_CUDA_SOURCE_MODULE");
  if (Env && !Env->empty())
    return {*Env};
  std::string Exe = sys::fs::getMainExecutable(
      "", reinterpret_cast<void *>(&getModuleCandidates));
  SmallString<256> Beside(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Beside, "lib", PTXJIT_CUDA_SOURCE_MODULE_NAME);
  std::vector<std::string> Paths = {std::string(Beside)};
  if (Beside != PTXJIT_CUDA_SOURCE_MODULE_PATH)
    Paths.push_back(PTXJIT_CUDA_SOURCE_MODULE_PATH);
  return Paths;
}

namespace {
/// The loaded module, or why there is none.
struct LoadResult {
  const ModuleAPI *API = nullptr;
  std::string Error;
};
} // namespace

static LoadResult loadModule() {
  std::vector<std::string> Candidates = getModuleCandidates();
  for (const std::string &Path : Candidates) {
    if (!sys::fs::exists(Path))
      continue;
    // RTLD_LOCAL: Clang's symbols stay out of the JIT's process-wide
    // lookups. The module is never closed.
    void *Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!Handle)
      return {nullptr, "cannot load the CUDA source compiler '" + Path +
                           "': " + dlerror()};
    auto *Get = reinterpret_cast<const ModuleAPI *(*)()>(
        dlsym(Handle, PTXJIT_CUDA_SOURCE_MODULE_ENTRY));
    const ModuleAPI *API = Get ? Get() : nullptr;
    if (!API || API->ABIVersion != ModuleABIVersion ||
        API->CompileOptionsSize != sizeof(CompileOptions))
      return {nullptr, "'" + Path +
                           "' is not this ptx-jit's CUDA source compiler; "
                           "rebuild the 'ptxjit-cuda-source' target"};
    return {API, ""};
  }
  return {nullptr, "CUDA sources need ptx-jit's CUDA source compiler, " +
                       std::string(PTXJIT_CUDA_SOURCE_MODULE_NAME) +
                       ", which is not at '" + join(Candidates, "' or '") +
                       "' (build the 'ptxjit-cuda-source' target, or set "
                       "PTXJIT_CUDA_SOURCE_MODULE to its path)"};
}

Expected<std::string>
ptxjit::cudasource::compileToPTX(StringRef Source, StringRef FileName,
                                 const CompileOptions &Opts,
                                 raw_ostream &Diag) {
  static const LoadResult Module = loadModule();
  if (!Module.API)
    return createStringError(inconvertibleErrorCode(), Module.Error);
  return Module.API->CompileToPTX(Source, FileName, Opts,
                                  findCUDAInstallation(Opts, Diag), Diag);
}
