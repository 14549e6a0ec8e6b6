//===- LockstepLoops.h - Loops that lanes leave in step ---------*- C++ -*-===//
//
// A grid-stride loop (`for (i = tid; i < n; i += stride)`) splits its warp
// each time some lanes leave it, so its blocks run split and the
// uniformity analysis would make every register they write vary per lane.
// But the lanes still in such a loop run every iteration together: they
// entered together and nothing else splits them. A register computed there
// from uniform and affine values keeps its shape for them, and the lanes
// that left never read it again (they never come back). These are the
// loops where that holds.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_TRANSFORMS_LOCKSTEPLOOPS_H
#define PTXJIT_TRANSFORMS_LOCKSTEPLOOPS_H

#include "ptxjit/PTX/AST.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"
#include <vector>

namespace ptxjit {
namespace transforms {

class PTXCFG;

struct LockstepLoop {
  llvm::BitVector Blocks;
  /// Every register named where the lanes that leave may go.
  llvm::StringSet<> ReadAfter;
};

/// The loops of F (a back edge's RPO range) that lanes enter only at the
/// header; that they leave for good (no exit reaches the header); with no
/// sync point, call or wait for other lanes in them; and whose blocks run
/// split only because of their own exiting branches and of branches
/// elsewhere with at most one way to the header (which keep lanes out for
/// good): DivergenceWithout(Ignore) gives the blocks that may run split
/// when the branches ending the blocks in Ignore are taken as uniform.
/// Reads is collectReadRegisters(F).
std::vector<LockstepLoop>
findLockstepLoops(const ptx::Function &F, const PTXCFG &CFG,
                  const llvm::StringSet<> &Reads,
                  const llvm::BitVector &Divergent,
                  llvm::function_ref<llvm::BitVector(const llvm::BitVector &)>
                      DivergenceWithout);

} // namespace transforms
} // namespace ptxjit

#endif
