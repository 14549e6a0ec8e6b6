//===- KernelPipeline.h - The optimization pipeline for warp functions ----===//

#ifndef PTXJIT_LIB_JIT_KERNELPIPELINE_H
#define PTXJIT_LIB_JIT_KERNELPIPELINE_H

#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"
#include <cstdint>

namespace llvm {
class Module;
class PassBuilder;
} // namespace llvm

namespace ptxjit {

/// The passes run at OptLevel (1-3): at -O2 a pipeline made for warp
/// functions (KernelPipeline.cpp), else LLVM's default one. A pipeline in
/// $PTXJIT_PASSES (`opt -passes` syntax) replaces either, for experiments.
llvm::Expected<llvm::ModulePassManager>
buildKernelPipeline(llvm::PassBuilder &PB, unsigned OptLevel);

/// $PTXJIT_PASSES, or empty: part of the cache key.
llvm::StringRef getKernelPipelineOverride();

/// The phi operands that promoting M's stack slots to SSA values could
/// create at its busiest join: slots times that block's predecessors. A
/// warp function's dispatcher joins every divergent block, and every
/// register slot lives across it, so unoptimized PTX with thousands of
/// registers and branches (nvcc -G or -O0 output) would make the optimizer
/// and the register allocator run for minutes and take gigabytes; compile
/// time grows faster than this estimate.
uint64_t estimatePromotionCost(const llvm::Module &M);

/// Above this estimate a kernel is compiled without optimization. The
/// largest optimized corpus kernel (double_math's nvcc -O3 dmath) is near
/// 130,000; nvcc -G and -O0 kernels that took minutes are 300,000 and more.
constexpr uint64_t MaxPromotionCost = 250000;

} // namespace ptxjit

#endif
