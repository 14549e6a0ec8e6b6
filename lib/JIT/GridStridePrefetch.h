//===- GridStridePrefetch.h - Prefetches for far-strided loop loads -*- C++
//-*-//
//
// A grid-stride loop (`for (i = tid; i < n; i += gridDim.x * blockDim.x)`)
// runs warp by warp on the CPU: each iteration of a warp reads one segment,
// a whole grid's width past the last, so every load misses, and the CPU's
// prefetchers, which follow strides within a 4 KiB page, do not see it
// coming. This pass prefetches such loads a few iterations ahead.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_JIT_GRIDSTRIDEPREFETCH_H
#define PTXJIT_LIB_JIT_GRIDSTRIDEPREFETCH_H

#include "llvm/IR/PassManager.h"

namespace ptxjit {

/// Before each load in a loop whose address steps by a loop-invariant
/// amount that is not a small constant, a prefetch of the address
/// PrefetchIterations iterations ahead (each cache line the load covers).
class GridStridePrefetchPass
    : public llvm::PassInfoMixin<GridStridePrefetchPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace ptxjit

#endif
