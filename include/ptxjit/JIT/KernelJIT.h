//===- KernelJIT.h - Compiling PTX kernels with ORC LLJIT -------*- C++ -*-===//

#ifndef PTXJIT_JIT_KERNELJIT_H
#define PTXJIT_JIT_KERNELJIT_H

#include "ptxjit/ABI/CompiledKernel.h"
#include "ptxjit/IRGen/IRGen.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
namespace orc {
class LLJIT;
} // namespace orc
class Module;
class raw_ostream;
} // namespace llvm

namespace ptxjit {
namespace ptx {
class Module;
} // namespace ptx

struct JITOptions {
  unsigned OptLevel = 2; ///< 0-3
  /// Host functions generated code may call (runtime entry points).
  std::vector<std::pair<std::string, void *>> Symbols;
};

class KernelJIT {
public:
  static llvm::Expected<std::unique_ptr<KernelJIT>>
  create(const JITOptions &Opts = {});
  ~KernelJIT();

  /// Lowers, optimizes and compiles the kernel named Kernel (and only what
  /// it reaches) for the block shape Shape. With \p ModuleVariables, the
  /// module's variables are external (IRGenOptions) and bound to these
  /// addresses (symbol name, address); otherwise the kernel gets its own.
  /// CheckKinds: IRGenOptions::CheckKinds.
  llvm::Expected<CompiledKernel>
  compile(const ptx::Module &M, llvm::StringRef Kernel,
          const KernelShape &Shape,
          const std::vector<std::pair<std::string, void *>> *ModuleVariables =
              nullptr,
          unsigned CheckKinds = 0);

  /// The optimized LLVM IR of a kernel, as `emit-llvm` prints it.
  static llvm::Error emitIR(const ptx::Module &M, llvm::StringRef Kernel,
                            const KernelShape &Shape, unsigned OptLevel,
                            llvm::raw_ostream &OS, unsigned CheckKinds = 0);

private:
  KernelJIT(std::unique_ptr<llvm::orc::LLJIT> J, const JITOptions &Opts);

  std::unique_ptr<llvm::orc::LLJIT> J;
  JITOptions Opts;
  unsigned NextModule = 0;
};

/// Runs LLVM's standard pipeline at OptLevel on M for the host CPU.
void optimizeModule(llvm::Module &M, unsigned OptLevel);

} // namespace ptxjit

#endif
