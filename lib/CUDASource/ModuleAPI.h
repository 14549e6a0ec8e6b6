//===- ModuleAPI.h - The CUDA source compiler module's entry ----*- C++ -*-===//
//
// What libptxjit-cuda-source.so (CompileToPTX.cpp, linked with Clang's
// libraries) gives the loader in CompilerModule.cpp. Both sides are built
// from the same headers in one build, so the entry may pass C++ types; the
// version and the size of CompileOptions catch a module left over from
// another build.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_CUDASOURCE_MODULEAPI_H
#define PTXJIT_LIB_CUDASOURCE_MODULEAPI_H

#include "ptxjit/CUDASource/CUDASource.h"

namespace ptxjit {
namespace cudasource {

/// Bump when ModuleAPI or the meaning of an argument changes.
constexpr unsigned ModuleABIVersion = 1;

struct ModuleAPI {
  unsigned ABIVersion;
  size_t CompileOptionsSize;
  /// compileToPTX, given the CUDA installation the loader found (or none).
  llvm::Expected<std::string> (*CompileToPTX)(
      llvm::StringRef Source, llvm::StringRef FileName,
      const CompileOptions &Opts, const std::optional<CUDAInstallation> &CUDA,
      llvm::raw_ostream &Diag);
};

} // namespace cudasource
} // namespace ptxjit

/// The one symbol the module exports.
#define PTXJIT_CUDA_SOURCE_MODULE_ENTRY "ptxjitGetCUDASourceModule"
extern "C" const ptxjit::cudasource::ModuleAPI *ptxjitGetCUDASourceModule();

#endif
