//===- SplitBlocks.cpp - Blocks that may run while the warp is split ------===//

#include "ptxjit/Transforms/SplitBlocks.h"
#include "Operands.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/Transforms/CFG.h"
#include "ptxjit/Transforms/Uniformity.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::transforms;
using ptx::Modifier;
using ptx::Opcode;
using ptx::Statement;

StringSet<> transforms::collectReadRegisters(const ptx::Function &F) {
  StringSet<> Reads;
  for (const Statement &S : F.Body) {
    if (S.Kind != Statement::Inst)
      continue;
    if (!S.Instr.GuardPredicate.empty())
      Reads.insert(S.Instr.GuardPredicate);
    // Every operand of every instruction but an atom's destination: a
    // destination counted as read only makes the answer safer.
    for (const ptx::Operand &Op :
         drop_begin(S.Instr.Operands, S.Instr.Op == Opcode::Atom ? 1 : 0))
      collectNames(Op, Reads);
  }
  return Reads;
}

bool transforms::isStrongRead(const ptx::Instruction &I) {
  return ptx::hasFlag(I.Op, ptx::OpMemRead) &&
         (I.hasModifier(Modifier::Volatile) ||
          I.hasModifier(Modifier::Relaxed) || I.hasModifier(Modifier::Acquire));
}

bool transforms::anyInLoop(const ptx::Function &F, const PTXCFG &CFG,
                           unsigned Header, unsigned Latch,
                           function_ref<bool(const ptx::Instruction &)> Pred) {
  for (unsigned R = CFG.Blocks[Header].RPONumber,
                E = CFG.Blocks[Latch].RPONumber;
       R <= E; ++R) {
    const PTXBlock &Block = CFG.Blocks[CFG.RPO[R]];
    for (unsigned S = Block.Begin; S != Block.End; ++S)
      if (F.Body[S].Kind == Statement::Inst && Pred(F.Body[S].Instr))
        return true;
  }
  return false;
}

bool transforms::loopMayWaitForOthers(const ptx::Function &F, const PTXCFG &CFG,
                                      unsigned Header, unsigned Latch,
                                      const StringSet<> &Reads) {
  return anyInLoop(F, CFG, Header, Latch, [&](const ptx::Instruction &I) {
    // An atomic whose old value nobody reads sees nothing (histograms).
    if (I.Op == Opcode::Atom && !I.Operands.empty() &&
        (I.Operands[0].Kind == ptx::Operand::Sink ||
         (I.Operands[0].Kind == ptx::Operand::Register &&
          !Reads.contains(I.Operands[0].Name))))
      return false;
    if (ptx::hasFlag(I.Op, ptx::OpWaitsOnOthers) ||
        ptx::hasFlag(I.Op, ptx::OpParksLanes) ||
        ptx::hasFlag(I.Op, ptx::OpCall) ||
        ptx::hasFlag(I.Op, ptx::OpSyncPoint) ||
        ptx::hasFlag(I.Op, ptx::OpCTABarrier) ||
        ptx::hasFlag(I.Op, ptx::OpOpaqueRoles))
      return true;
    return isStrongRead(I);
  });
}

/// Whether the terminator of a block with several successors may send the
/// lanes of a converged warp different ways.
static bool maySplit(const ptx::Function &F, const PTXCFG &CFG,
                     const PTXBlock &Blk, const ptx::Instruction &I,
                     const UniformityInfo &UI) {
  bool GuardVaries = !I.GuardPredicate.empty() &&
                     !UI.getRegister(I.GuardPredicate).isUniform();
  if (I.Op == Opcode::Bra)
    // A kernel's lanes that branch only to leave exit at once
    // (FunctionLowering::lowerTerminator).
    return GuardVaries && !(F.IsEntry && any_of(Blk.Succs, [&](unsigned S) {
                              return S < CFG.Blocks.size() &&
                                     CFG.onlyExits(F, S);
                            }));
  if (I.Op == Opcode::BrxIdx)
    return GuardVaries || !UI.getOperand(I.Operands[0]).isUniform();
  return false;
}

/// Whether some lanes of a converged warp may stay held at instruction I
/// while the others go on: async waits, and CTA barriers that not every
/// lane arrives at or that complete for a count of threads.
static bool mayHoldSomeLanes(const ptx::Instruction &I) {
  if (ptx::hasFlag(I.Op, ptx::OpParksLanes))
    return true;
  if (!ptx::hasFlag(I.Op, ptx::OpCTABarrier) || I.hasModifier(Modifier::Warp))
    return false;
  unsigned WithoutCount = I.hasModifier(Modifier::Red) ? 3 : 1;
  return !I.GuardPredicate.empty() || I.Operands.size() > WithoutCount;
}

BitVector transforms::findSplitBlocks(const ptx::Function &F, const PTXCFG &CFG,
                                      const UniformityInfo &UI,
                                      const StringSet<> &Reads,
                                      const BitVector *Ignore) {
  unsigned N = CFG.Blocks.size();
  // Per block: it holds lanes back (a sync point or a call), and the first
  // lanes-holding instruction of a converged warp.
  BitVector Holds(N), HoldsConverged(N);
  for (unsigned B = 0; B != N; ++B)
    for (unsigned S = CFG.Blocks[B].Begin; S != CFG.Blocks[B].End; ++S) {
      if (F.Body[S].Kind != Statement::Inst)
        continue;
      const ptx::Instruction &I = F.Body[S].Instr;
      if (isSyncPoint(F, S) || ptx::hasFlag(I.Op, ptx::OpCall))
        Holds.set(B);
      if (isSyncPoint(F, S) && mayHoldSomeLanes(I))
        HoldsConverged.set(B);
    }

  // Whether the branch from B to S closes a loop that may wait for others.
  auto WaitingBackEdge = [&](unsigned B, unsigned S) {
    return S < N && CFG.Blocks[S].RPONumber <= CFG.Blocks[B].RPONumber &&
           loopMayWaitForOthers(F, CFG, S, B, Reads);
  };
  // Marks the blocks reachable from the successors of From (From too if
  // Self), stopping at Stop; returns whether they hold a waiting loop or
  // lanes (From's own backward branches count too).
  auto Reach = [&](unsigned From, bool Self, unsigned Stop, BitVector &Out) {
    SmallVector<unsigned, 16> Work;
    if (Self)
      Work.push_back(From);
    else
      Work.append(CFG.Blocks[From].Succs.begin(), CFG.Blocks[From].Succs.end());
    bool Loops = any_of(CFG.Blocks[From].Succs,
                        [&](unsigned S) { return WaitingBackEdge(From, S); });
    while (!Work.empty()) {
      unsigned B = Work.pop_back_val();
      if (B == Stop || B >= N || Out.test(B))
        continue;
      Out.set(B);
      Loops = Loops || Holds.test(B);
      for (unsigned S : CFG.Blocks[B].Succs) {
        Loops = Loops || WaitingBackEdge(B, S);
        Work.push_back(S);
      }
    }
    return Loops;
  };

  BitVector Split(N);
  for (unsigned B = 0; B != N; ++B) {
    const PTXBlock &Blk = CFG.Blocks[B];
    if (Blk.RPONumber == ~0u)
      continue;
    if (HoldsConverged.test(B)) {
      Reach(B, /*Self=*/true, N, Split);
      continue;
    }
    if ((Ignore && Ignore->test(B)) || Blk.Succs.size() < 2 ||
        Blk.End == Blk.Begin || F.Body[Blk.End - 1].Kind != Statement::Inst ||
        !maySplit(F, CFG, Blk, F.Body[Blk.End - 1].Instr, UI))
      continue;
    // The split groups meet at Join if the dispatcher runs every group
    // between before the one waiting there: all come earlier in block
    // order (not so past a loop that never reaches Join), and none is held
    // or taking turns.
    unsigned Join = CFG.getImmediatePostDominator(B);
    BitVector Region(N);
    bool Apart = Reach(B, /*Self=*/false, Join, Region);
    if (Join < N)
      for (unsigned R : Region.set_bits())
        Apart |= CFG.Blocks[R].RPONumber >= CFG.Blocks[Join].RPONumber;
    if (Apart) {
      Region.reset();
      Reach(B, /*Self=*/false, N, Region);
    }
    Split |= Region;
  }
  return Split;
}
