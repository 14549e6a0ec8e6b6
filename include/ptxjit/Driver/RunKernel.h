//===- RunKernel.h - The `ptx-jit run` and `emit-llvm` commands -*- C++ -*-===//

#ifndef PTXJIT_DRIVER_RUNKERNEL_H
#define PTXJIT_DRIVER_RUNKERNEL_H

#include "ptxjit/Cache/DiskCache.h"
#include "ptxjit/Driver/LoadInput.h"
#include "ptxjit/Runtime/Launch.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ptxjit {
namespace ptx {
class Module;
struct Function;
} // namespace ptx
namespace driver {

struct RunOptions {
  std::string Kernel; ///< empty: the module's only .entry
  uint32_t Grid[3] = {1, 1, 1};
  uint32_t Block[3] = {1, 1, 1};
  /// Whether -g / -b were given; a block not given comes from the kernel's
  /// .reqntid, and a launch shape that is neither is an error.
  bool GridGiven = true;
  bool BlockGiven = true;
  /// --cluster; 0,0,0: the kernel's .reqnctapercluster, or none.
  uint32_t Cluster[3] = {0, 0, 0};
  uint32_t DynamicShared = 0;
  std::vector<std::string> Args;
  /// --bind NAME=IMAGE: the module's .texref or .surfref NAME holds the
  /// handle of a texture or surface built as --arg builds one.
  std::vector<std::string> Bindings;
  unsigned OptLevel = 2;
  /// -O was given: modules compiled for debugging are optimized too.
  bool OptLevelGiven = false;
  bool PrintStats = false;
  uint64_t PrintLimit = 0;   ///< elements printed per `>-` buffer; 0: all
  double TimeoutSeconds = 0; ///< 0: none
  unsigned Threads = 0;      ///< 0: one per core
  uint32_t StackSize = DefaultThreadStackSize; ///< --stack-size, per thread
  /// --malloc-heap-size: bytes of device malloc's heap; unset: 8 MiB.
  std::optional<uint64_t> MallocHeapSize;
  /// The kernel cache; none: compile.
  std::optional<cache::DiskCacheOptions> Cache;
  /// How the input was read, for --stats.
  InputStats Input;
  /// --check: CheckABI.h's CheckKind bits; unset: PTXJIT_CHECK's.
  std::optional<unsigned> CheckKinds;
};

/// Parses "X[,Y[,Z]]" into three dimensions (missing ones are 1).
llvm::Error parseDim3(llvm::StringRef Text, llvm::StringRef What,
                      uint32_t Dims[3]);

/// The kernel to run: Name, or the only .entry when Name is empty.
llvm::Expected<const ptx::Function *> selectKernel(const ptx::Module &M,
                                                   llvm::StringRef Name);

/// Fills in Opts.Block from F's .reqntid when -b was not given; an error
/// when the grid or block is given neither way (run never guesses 1x1).
llvm::Error resolveLaunchShape(const ptx::Function &F, RunOptions &Opts);

/// Binds arguments, loads the module into a device context, launches and
/// prints the outputs on Out; --stats goes to Err. \p ParseSeconds is
/// reported by --stats.
llvm::Error runKernel(std::unique_ptr<ptx::Module> M, RunOptions Opts,
                      double ParseSeconds, llvm::raw_ostream &Out,
                      llvm::raw_ostream &Err);

} // namespace driver
} // namespace ptxjit

#endif
