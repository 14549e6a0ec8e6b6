//===- LockstepLoops.cpp - Loops whose lanes leave but never split --------===//

#include "ptxjit/Transforms/LockstepLoops.h"
#include "Operands.h"
#include "ptxjit/PTX/InstructionTable.h"
#include "ptxjit/Transforms/CFG.h"
#include "ptxjit/Transforms/SplitBlocks.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::transforms;
using ptx::Statement;

/// Whether the blocks in Loop hold a sync point or a call.
static bool holdsLanes(const ptx::Function &F, const PTXCFG &CFG,
                       const BitVector &Loop) {
  for (unsigned B : Loop.set_bits())
    for (unsigned S = CFG.Blocks[B].Begin; S != CFG.Blocks[B].End; ++S)
      if (F.Body[S].Kind == Statement::Inst &&
          (isSyncPoint(F, S) || ptx::hasFlag(F.Body[S].Instr.Op, ptx::OpCall)))
        return true;
  return false;
}

std::vector<LockstepLoop> transforms::findLockstepLoops(
    const ptx::Function &F, const PTXCFG &CFG, const StringSet<> &Reads,
    const BitVector &Divergent,
    function_ref<BitVector(const BitVector &)> DivergenceWithout) {
  unsigned N = CFG.Blocks.size();
  std::vector<SmallVector<unsigned, 2>> Preds(N);
  for (unsigned B = 0; B != N; ++B)
    for (unsigned S : CFG.Blocks[B].Succs)
      if (S < N)
        Preds[S].push_back(B);

  std::vector<LockstepLoop> Loops;
  for (unsigned Latch = 0; Latch != N; ++Latch) {
    const PTXBlock &LatchBlock = CFG.Blocks[Latch];
    if (LatchBlock.RPONumber == ~0u)
      continue;
    for (unsigned Header : LatchBlock.Succs) {
      if (Header >= N || CFG.Blocks[Header].RPONumber > LatchBlock.RPONumber)
        continue;
      BitVector Blocks(N);
      for (unsigned R = CFG.Blocks[Header].RPONumber; R <= LatchBlock.RPONumber;
           ++R)
        Blocks.set(CFG.RPO[R]);
      if (!Blocks.anyCommon(Divergent))
        continue; // nothing to keep
      // One way in.
      bool OneEntry = true;
      for (unsigned B : Blocks.set_bits())
        for (unsigned P : Preds[B])
          if (!Blocks.test(P) && B != Header)
            OneEntry = false;
      if (!OneEntry || holdsLanes(F, CFG, Blocks) ||
          loopMayWaitForOthers(F, CFG, Header, Latch, Reads))
        continue;
      // Branches that send lanes into the loop one way only (a bounds
      // check before a grid-stride loop) leave out some lanes for good;
      // they do not make the others arrive at different times.
      BitVector ReachesHeader(N);
      SmallVector<unsigned, 16> Back{Header};
      while (!Back.empty()) {
        unsigned B = Back.pop_back_val();
        if (ReachesHeader.test(B))
          continue;
        ReachesHeader.set(B);
        Back.append(Preds[B].begin(), Preds[B].end());
      }
      BitVector Ignore(N);
      for (unsigned B = 0; B != N; ++B)
        if (!Blocks.test(B) && count_if(CFG.Blocks[B].Succs, [&](unsigned S) {
                                 return S < N && ReachesHeader.test(S);
                               }) <= 1)
          Ignore.set(B);
      // Lanes leave for good: no exit leads back to the header.
      BitVector Exiting(N);
      bool Returns = false;
      for (unsigned B : Blocks.set_bits())
        for (unsigned S : CFG.Blocks[B].Succs)
          if (S >= N || !Blocks.test(S)) {
            Exiting.set(B);
            Returns |= S < N && ReachesHeader.test(S);
          }
      Ignore |= Exiting;
      if (Returns)
        continue;
      BitVector Split = DivergenceWithout(Ignore);
      if (Split.anyCommon(Blocks))
        continue;
      // The blocks on the way in run in step too (the lanes that leave at
      // an ignored branch never come there again), and what lanes that
      // left read is wherever the header is out of reach.
      LockstepLoop L;
      for (unsigned B = 0; B != N; ++B) {
        if (CFG.Blocks[B].RPONumber == ~0u)
          continue;
        if (ReachesHeader.test(B)) {
          if (!Split.test(B))
            Blocks.set(B);
          continue;
        }
        for (unsigned S = CFG.Blocks[B].Begin; S != CFG.Blocks[B].End; ++S) {
          if (F.Body[S].Kind != Statement::Inst)
            continue;
          const ptx::Instruction &I = F.Body[S].Instr;
          if (!I.GuardPredicate.empty())
            L.ReadAfter.insert(I.GuardPredicate);
          for (const ptx::Operand &Op : I.Operands)
            collectNames(Op, L.ReadAfter);
        }
      }
      // Lanes held on the way in could come late.
      BitVector MayRunSplit = Blocks;
      MayRunSplit &= Divergent;
      if (holdsLanes(F, CFG, MayRunSplit))
        continue;
      L.Blocks = std::move(Blocks);
      Loops.push_back(std::move(L));
    }
  }
  return Loops;
}
