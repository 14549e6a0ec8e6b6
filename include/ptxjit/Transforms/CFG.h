//===- CFG.h - Basic blocks of a PTX function body --------------*- C++ -*-===//
//
// Splits a function body into basic blocks, numbers them in reverse post
// order (the order in which divergent lane groups are scheduled, so lanes
// reconverge at the earliest common block) and computes post-dominators
// (the reconvergence point of each divergent branch).
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_TRANSFORMS_CFG_H
#define PTXJIT_TRANSFORMS_CFG_H

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <vector>

namespace ptxjit {
namespace ptx {
struct Function;
struct Statement;
class Module;
} // namespace ptx

namespace transforms {

struct PTXBlock {
  unsigned Begin = 0, End = 0; ///< statement range [Begin, End)
  llvm::SmallVector<unsigned, 2> Succs;
  /// Block that follows in source order (where a not-taken branch goes);
  /// ~0u if the function ends here.
  unsigned FallThrough = ~0u;
  unsigned RPONumber = ~0u; ///< ~0u if unreachable
  bool EndsInExit = false;  ///< an unguarded ret/exit ends the block
};

class PTXCFG {
public:
  static llvm::Expected<PTXCFG> build(const ptx::Module &M,
                                      const ptx::Function &F);

  std::vector<PTXBlock> Blocks;
  llvm::StringMap<unsigned> LabelToBlock;
  /// Reachable blocks in reverse post order.
  std::vector<unsigned> RPO;
  /// PostDom[B] holds the blocks that post-dominate B (B included). The
  /// virtual exit has index Blocks.size().
  std::vector<llvm::BitVector> PostDom;

  /// Immediate post-dominator of B, or Blocks.size() for the virtual exit.
  unsigned getImmediatePostDominator(unsigned B) const;
  /// True if every path from B ends in ret/exit without other instructions
  /// (lanes taking such a branch only leave the warp).
  bool onlyExits(const ptx::Function &F, unsigned B) const;

private:
  void computeRPO();
  void computePostDominators();
};

/// Whether statement Index of F is a point where lanes wait for other lanes
/// (warp-synchronous instructions and waiting CTA barriers), so that it
/// starts a block. A matrix instruction (which waits for the whole warp)
/// after another in straight-line code does not wait: every live lane runs
/// from the first to the next label.
bool isSyncPoint(const ptx::Function &F, unsigned Index);

/// The branch-target labels of a brx.idx table, by name.
const llvm::SmallVector<llvm::StringRef, 4> *
findBranchTargets(const ptx::Function &F, llvm::StringRef Table);

} // namespace transforms
} // namespace ptxjit

#endif
