//===- SplitBlocks.h - Blocks that run while the warp is split -*- C++ -*-===//
//
// The warp lowering gives each block a converged version and a divergent
// one (docs/DESIGN.md). The divergent version runs only when lanes of the
// warp wait elsewhere; most blocks of most kernels never do, and compiling
// their divergent copies is most of the JIT's work. This analysis finds the
// blocks that may.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_TRANSFORMS_SPLITBLOCKS_H
#define PTXJIT_TRANSFORMS_SPLITBLOCKS_H

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"

namespace ptxjit {
namespace ptx {
struct Function;
struct Instruction;
} // namespace ptx

namespace transforms {

class PTXCFG;
class UniformityInfo;

/// Whether I reads memory with a strong (volatile, relaxed or acquire)
/// load, which may see other threads' writes as they happen.
bool isStrongRead(const ptx::Instruction &I);

/// Whether Pred holds for an instruction of the loop closed by a backward
/// branch from Latch to Header: of the blocks between the two in reverse
/// post order (the loop, and maybe exit paths).
bool anyInLoop(const ptx::Function &F, const PTXCFG &CFG, unsigned Header,
               unsigned Latch,
               llvm::function_ref<bool(const ptx::Instruction &)> Pred);

/// The names of the registers that instructions of F may read: guards and
/// every operand but the destination of an atom (so other destinations
/// too).
llvm::StringSet<> collectReadRegisters(const ptx::Function &F);

/// Whether the loop closed by a backward branch from Latch to Header may
/// wait for what other lanes of the warp do: it holds a strong read, an
/// atomic whose old value is read (Reads: collectReadRegisters), a sync
/// point or a call. (Without one, a lane cannot see another's writes there
/// but through a data race.) A split warp lets its other groups take turns
/// while one runs such a loop, so they make progress.
bool loopMayWaitForOthers(const ptx::Function &F, const PTXCFG &CFG,
                          unsigned Header, unsigned Latch,
                          const llvm::StringSet<> &Reads);

/// The blocks of F (by index) that may run while other live lanes of the
/// warp wait at another block. Lanes start waiting at a branch whose
/// condition is not warp-uniform (in a kernel, not one whose lanes only go
/// to exit: they leave at once); they all meet again at its immediate
/// post-dominator unless the blocks in between hold a loop that may wait
/// for others (groups then take turns), a sync point or a call (lanes held
/// there let the others run ahead): then everything reachable from the
/// branch counts. An async wait (mbarrier, barrier.cluster) or a CTA barrier
/// with a count or a guard may hold some lanes of a converged warp: so does
/// everything reachable from it. UI is F's uniformity at warp scope, Reads
/// its collectReadRegisters. The branches ending the blocks in Ignore, if
/// given, are taken as uniform.
llvm::BitVector findSplitBlocks(const ptx::Function &F, const PTXCFG &CFG,
                                const UniformityInfo &UI,
                                const llvm::StringSet<> &Reads,
                                const llvm::BitVector *Ignore = nullptr);

} // namespace transforms
} // namespace ptxjit

#endif
