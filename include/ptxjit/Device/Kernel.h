//===- Kernel.h - A kernel of a loaded module -------------------*- C++ -*-===//
//
// What a launch needs to know about a kernel before compiling it (its
// parameters and limits, from the front end), and its compiled code, made
// once per block shape and kept.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DEVICE_KERNEL_H
#define PTXJIT_DEVICE_KERNEL_H

#include "ptxjit/ABI/CompiledKernel.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace ptxjit {
namespace ptx {
struct Function;
} // namespace ptx
namespace device {

class Module;

struct Dim3 {
  uint32_t X = 1, Y = 1, Z = 1;
};

/// One parameter in the kernel's parameter buffer.
struct KernelParam {
  llvm::StringRef Name;
  uint64_t Offset;
  uint64_t Size;
  uint64_t Align;
};

/// What cudaFuncGetAttributes reports, and what a launch is checked
/// against.
struct KernelAttributes {
  uint64_t StaticSharedBytes = 0;
  uint64_t ParamBytes = 0;
  /// The most threads a block may have: .maxntid's or .reqntid's product,
  /// else the device's limit.
  uint32_t MaxThreadsPerBlock = 0;
  /// .reqntid and .maxntid (0 where absent).
  uint32_t ReqNTid[3] = {0, 0, 0};
  uint32_t MaxNTid[3] = {0, 0, 0};
  /// The largest dynamic shared memory a launch may ask for
  /// (cudaFuncAttributeMaxDynamicSharedMemorySize).
  uint32_t MaxDynamicSharedBytes = 0;
};

/// What a kernel cost so far (PTXJIT_STATS).
struct KernelStats {
  unsigned Compilations = 0; ///< block shapes compiled or loaded
  double CompileSeconds = 0; ///< all of it, cache included
  /// Its parts (--stats).
  double IRGenSeconds = 0;
  double OptimizeSeconds = 0;
  double CodeGenSeconds = 0;
  double LinkSeconds = 0;
  double CacheSeconds = 0; ///< looking up, reading and writing entries
  /// Why a compilation was not optimized (CompileTimes::Downgrade).
  std::string NotOptimized;
  unsigned CacheHits = 0;
  unsigned CacheMisses = 0; ///< compiled with a cache that lacked them
  uint64_t Launches = 0; ///< launches that ran
  uint64_t CTAs = 0;
  double RunSeconds = 0;
};

class Kernel {
public:
  Kernel(Module &M, const ptx::Function &F);
  ~Kernel();
  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;

  llvm::StringRef getName() const;
  Module &getModule() const { return M; }
  const ptx::Function &getFunction() const { return F; }
  llvm::ArrayRef<KernelParam> getParams() const { return Params; }
  const KernelAttributes &getAttributes() const { return Attributes; }
  /// cudaFuncAttributeMaxDynamicSharedMemorySize: up to the opt-in limit
  /// less the static shared memory (InvalidValue beyond it).
  llvm::Error setMaxDynamicSharedBytes(int64_t Bytes);

  /// The layout a launch is checked against before the kernel is compiled.
  KernelLayout getLaunchLayout() const;

  /// The kernel compiled for Block, compiled on first use. Thread-safe.
  llvm::Expected<const CompiledKernel *> getCompiled(Dim3 Block);

  KernelStats getStats() const;
  /// A launch of the kernel ran for Seconds over CTAs blocks.
  void recordRun(double Seconds, uint64_t CTAs);

private:
  Module &M;
  const ptx::Function &F;
  llvm::SmallVector<KernelParam, 8> Params;
  KernelAttributes Attributes;
  mutable std::mutex Lock;
  KernelStats Stats;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>,
           std::unique_ptr<CompiledKernel>>
      Compiled;
};

} // namespace device
} // namespace ptxjit

#endif
