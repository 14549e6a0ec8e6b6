//===- IRGen.h - Lowering PTX kernels to warp-vectorized LLVM IR ---------===//

#ifndef PTXJIT_IRGEN_IRGEN_H
#define PTXJIT_IRGEN_IRGEN_H

#include "ptxjit/ABI/KernelShape.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace ptxjit {
namespace ptx {
class Module;
struct Function;
} // namespace ptx

/// Layout facts the runtime needs to launch the generated warp function.
struct KernelLayout {
  std::string WarpFunctionName;
  uint64_t ParamBufferSize = 0;
  /// Offset of each kernel parameter in the parameter buffer.
  std::vector<uint64_t> ParamOffsets;
  uint64_t StaticSharedSize = 0;
  /// Where dynamic (extern) shared memory starts.
  uint64_t DynamicSharedOffset = 0;
  /// The warps run as fibers: the kernel has CTA barriers, or its warps may
  /// wait for each other through memory.
  bool UsesCTABarriers = false;
  /// The kernel's .reqntid and .maxntid (0 where absent): a launch that
  /// does not fit them is rejected, as on a GPU.
  uint32_t ReqNTid[3] = {0, 0, 0};
  uint32_t MaxNTid[3] = {0, 0, 0};
};

/// Lowers the kernel named Kernel and every function it reaches into a new
/// LLVM module. Errors name the PTX line of the construct that could not be
/// lowered.
llvm::Expected<std::unique_ptr<llvm::Module>>
emitKernel(const ptx::Module &M, llvm::StringRef Kernel,
           const KernelShape &Shape, llvm::LLVMContext &Ctx,
           KernelLayout &Layout);

} // namespace ptxjit

#endif
