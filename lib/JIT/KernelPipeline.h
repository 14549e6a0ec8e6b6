//===- KernelPipeline.h - The optimization pipeline for warp functions ----===//

#ifndef PTXJIT_LIB_JIT_KERNELPIPELINE_H
#define PTXJIT_LIB_JIT_KERNELPIPELINE_H

#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

namespace llvm {
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

} // namespace ptxjit

#endif
