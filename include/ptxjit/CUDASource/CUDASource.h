//===- CUDASource.h - Compile CUDA C++ device code to PTX -------*- C++ -*-===//
//
// Compiles the device side of a .cu file to PTX text in-process with Clang's
// libraries (the NVPTX back end, libdevice linked for math): no file is
// written and no process started. Clang lives in a module,
// libptxjit-cuda-source.so, that compileToPTX loads on first use.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_CUDASOURCE_CUDASOURCE_H
#define PTXJIT_CUDASOURCE_CUDASOURCE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ptxjit {
namespace cache {
class DiskCache;
} // namespace cache
namespace cudasource {

struct CompileOptions {
  std::vector<std::string> IncludeDirs; ///< -I
  std::vector<std::string> Defines;     ///< -D, as NAME or NAME=VALUE
  std::string Std;                      ///< -std=, e.g. c++17; empty: Clang's
  std::string GPUArch = "sm_80";
  /// Where the CUDA installation is; empty: $CUDA_PATH, then /usr/local/cuda.
  std::string CUDAPath;
  /// Compile with ptx-jit's own device headers even if CUDA is installed.
  bool NoCUDAInstallation = false;
  unsigned OptLevel = 3;
  bool LineTables = true; ///< .loc/.file in the PTX
  /// Where to print the -cc1 arguments of the compilation, if anywhere.
  llvm::raw_ostream *PrintCC1Args = nullptr;
  /// Keeps the PTX across runs, keyed by the source, its name, these
  /// options, the working directory, Clang's version and CUDA installation,
  /// and checked against the contents of every file the compilation read
  /// (headers, libdevice); null: always compile.
  cache::DiskCache *Cache = nullptr;
  /// Set to whether the PTX came from Cache.
  bool *CacheHit = nullptr;
};

/// A CUDA installation that has what a device compilation needs.
struct CUDAInstallation {
  std::string Path;
  std::string LibDevice; ///< nvvm/libdevice/libdevice.10.bc
};

/// Looks for a CUDA installation as Clang does: Opts.CUDAPath, $CUDA_PATH,
/// /usr/local/cuda. Returns std::nullopt when there is none (or
/// Opts.NoCUDAInstallation); a --cuda-path that is not an installation
/// gives a warning on Diag.
std::optional<CUDAInstallation> findCUDAInstallation(const CompileOptions &Opts,
                                                     llvm::raw_ostream &Diag);

/// The device side of the CUDA source Source (named FileName in
/// diagnostics and line tables) as PTX text. Clang's diagnostics go to Diag
/// in Clang's format; an error means the compilation failed, or that the
/// compiler module could not be loaded. The module is
/// $PTXJIT_CUDA_SOURCE_MODULE if set, else lib/libptxjit-cuda-source.so
/// beside the executable's bin/ directory, else where the build put it.
llvm::Expected<std::string> compileToPTX(llvm::StringRef Source,
                                         llvm::StringRef FileName,
                                         const CompileOptions &Opts,
                                         llvm::raw_ostream &Diag);

/// Whether Path names CUDA source (by its extension, .cu or .cuh).
bool isCUDASourcePath(llvm::StringRef Path);

} // namespace cudasource
} // namespace ptxjit

#endif
