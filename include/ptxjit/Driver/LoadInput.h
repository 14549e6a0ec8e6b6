//===- LoadInput.h - Read a PTX or CUDA source input ------------*- C++ -*-===//

#ifndef PTXJIT_DRIVER_LOADINPUT_H
#define PTXJIT_DRIVER_LOADINPUT_H

#include "ptxjit/CUDASource/CUDASource.h"
#include "ptxjit/PTX/FrontEnd.h"
#include "llvm/Support/Error.h"
#include <memory>

namespace llvm {
class MemoryBuffer;
class raw_ostream;
} // namespace llvm

namespace ptxjit {
namespace ptx {
class Module;
} // namespace ptx
namespace driver {

/// What reading an input cost (--stats).
struct InputStats {
  double ClangSeconds = 0; ///< .cu inputs: compiling (or the cached PTX)
  double ParseSeconds = 0; ///< parsing and verifying the PTX
  bool CompiledSource = false; ///< the input was CUDA source
  bool PTXCacheUsed = false;
  bool PTXCacheHit = false;
};

struct InputOptions {
  ptx::FrontEndOptions FrontEnd;
  cudasource::CompileOptions CUDA; ///< for .cu inputs
  /// Filled in when given.
  InputStats *Stats = nullptr;
};

/// The PTX text of Path ("-" is standard input): the file itself, or for
/// CUDA source (.cu) what Clang compiles it to, named "Path.ptx".
/// Diagnostics go to Diag.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readPTX(llvm::StringRef Path, const InputOptions &Opts,
        llvm::raw_ostream &Diag);

/// readPTX, then parse and verify.
llvm::Expected<std::unique_ptr<ptx::Module>> loadInput(llvm::StringRef Path,
                                                       const InputOptions &Opts,
                                                       llvm::raw_ostream &Diag);

} // namespace driver
} // namespace ptxjit

#endif
