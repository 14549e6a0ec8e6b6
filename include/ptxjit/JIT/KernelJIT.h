//===- KernelJIT.h - Compiling PTX kernels with ORC LLJIT -------*- C++ -*-===//

#ifndef PTXJIT_JIT_KERNELJIT_H
#define PTXJIT_JIT_KERNELJIT_H

#include "ptxjit/ABI/CompiledKernel.h"
#include "ptxjit/Cache/CacheKey.h"
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
class MemoryBuffer;
class Module;
class TargetMachine;
class raw_ostream;
} // namespace llvm

namespace ptxjit {
namespace ptx {
class Module;
} // namespace ptx

struct JITOptions {
  unsigned OptLevel = 2; ///< 0-3
  /// Generated code checks global and generic addresses against the device
  /// range (IRGenOptions::CheckAddresses): for callers whose global memory
  /// all comes from runtime::allocateDevice, as device::Context's does.
  bool CheckAddresses = false;
  /// Kernels carry their PTX line tables (IRGenOptions::LineTables), which
  /// only a debugger reads; KernelJIT::create turns this on with
  /// PTXJIT_GDB. Without them code generation takes 10-20% less time.
  bool LineTables = false;
  /// Modules compiled for debugging (`.target sm_XX, debug`: nvcc -G) are
  /// compiled at -O0, as ptxas compiles them, unless this is set (an -O
  /// level given explicitly).
  bool OptimizeDebugModules = false;
  /// Host functions generated code may call (runtime entry points).
  std::vector<std::pair<std::string, void *>> Symbols;
};

/// A kernel compiled to an object file, and the layout a launch needs.
struct KernelObject {
  KernelLayout Layout;
  std::unique_ptr<llvm::MemoryBuffer> Object;
};

/// Where a compilation spent its time (--stats).
struct CompileTimes {
  double IRGenSeconds = 0;
  double OptimizeSeconds = 0;
  double CodeGenSeconds = 0;
  double LinkSeconds = 0; ///< the object linked into the process
  /// Why the kernel was compiled at -O0 rather than the level asked for
  /// (empty when it was not).
  std::string Downgrade;
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
          unsigned CheckKinds = 0, CompileTimes *Times = nullptr);

  /// The first half of compile: the kernel as an object file, which
  /// depends on nothing but getCacheKey's inputs (it refers to the
  /// runtime and the module's variables by symbol).
  llvm::Expected<KernelObject> compileToObject(const ptx::Module &M,
                                               llvm::StringRef Kernel,
                                               const KernelShape &Shape,
                                               bool ExternalModuleVariables,
                                               unsigned CheckKinds = 0,
                                               CompileTimes *Times = nullptr);
  /// The second half: links Object into the process (a JITDylib of its
  /// own, where ModuleVariables resolve first) and finds its entry.
  llvm::Expected<CompiledKernel>
  link(KernelObject Object, llvm::StringRef Kernel, const KernelShape &Shape,
       const std::vector<std::pair<std::string, void *>> *ModuleVariables,
       CompileTimes *Times = nullptr);

  /// The kernel cache's key of compileToObject's result: the PTX text, the
  /// kernel, the block shape, every option that changes the code, and
  /// BuildFacts (versions, host CPU).
  cache::CacheDigest getCacheKey(const ptx::Module &M, llvm::StringRef Kernel,
                                 const KernelShape &Shape,
                                 bool ExternalModuleVariables,
                                 unsigned CheckKinds = 0) const;

  /// The optimized LLVM IR of a kernel, as `emit-llvm` prints it.
  /// OptimizeDebugModules: as JITOptions'.
  static llvm::Error emitIR(const ptx::Module &M, llvm::StringRef Kernel,
                            const KernelShape &Shape, unsigned OptLevel,
                            llvm::raw_ostream &OS, unsigned CheckKinds = 0,
                            bool CheckAddresses = false,
                            bool OptimizeDebugModules = false);

private:
  KernelJIT(std::unique_ptr<llvm::orc::LLJIT> J,
            std::unique_ptr<llvm::TargetMachine> TM, const JITOptions &Opts);

  std::unique_ptr<llvm::orc::LLJIT> J;
  /// Generates the objects (one compilation at a time).
  std::unique_ptr<llvm::TargetMachine> TM;
  /// At -O0, for kernels compiled without optimization; made when needed.
  std::unique_ptr<llvm::TargetMachine> UnoptimizedTM;
  JITOptions Opts;
  unsigned NextModule = 0;
};

/// Runs the kernel pipeline at OptLevel on M for TM's CPU.
llvm::Error optimizeModule(llvm::Module &M, unsigned OptLevel,
                           llvm::TargetMachine &TM);

} // namespace ptxjit

#endif
