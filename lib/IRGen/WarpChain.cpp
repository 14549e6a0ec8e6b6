//===- WarpChain.cpp - One call of a warp function runs a CTA's warps -----===//
//
// A call of the generated code costs a warp its prologue: the parameters
// loaded and broadcast, constants materialized, registers saved, and the
// runtime's loop around the call. For kernels without CTA barriers the
// warp function loops over a chain of warps instead (WarpContext::NextWarp):
// its entry block keeps the allocas, everything else runs once per warp,
// and each return goes on to the next warp while the last one is still
// WS_Running. The parameter loads are invariant, so LLVM hoists them, and
// what derives from them, out of the loop.
//
// In phases (a kernel whose barriers return) the chain also keeps the
// barrier rounds: when the last warp returns and every warp returned at a
// converged site of the same barrier, in range, with lanes arriving, the
// barrier completes as the runtime would complete it (CTAPhases.cpp), so
// the chain starts the next round from its first warp itself, up to
// MaxChainRounds times. Anything else returns to the runtime.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "ptxjit/ABI/WarpABI.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace ptxjit;

bool irgen::makeWarpChain(Function &Fn, StructType *CtxTy,
                          AllocaInst *AtBarrierSlot, AllocaInst *BarrierSlot,
                          bool SkipsRounds) {
  bool Rounds = AtBarrierSlot && BarrierSlot;
  SkipsRounds &= Rounds;
  BasicBlock &Entry = Fn.getEntryBlock();
  // A warp's allocas stay in the entry block, run once: one in a later
  // block would grow the stack with every warp.
  for (BasicBlock &BB : Fn)
    for (Instruction &I : BB)
      if (auto *A = dyn_cast<AllocaInst>(&I))
        if (&BB != &Entry || !A->isStaticAlloca())
          return false;
  Instruction *FirstOther = nullptr;
  for (Instruction &I : llvm::make_early_inc_range(Entry)) {
    if (isa<AllocaInst>(I)) {
      if (FirstOther)
        I.moveBefore(FirstOther->getIterator());
    } else if (!FirstOther) {
      FirstOther = &I;
    }
  }
  BasicBlock *Begin =
      Entry.splitBasicBlock(FirstOther->getIterator(), "warp.begin");
  SmallVector<ReturnInst *, 8> Returns;
  for (BasicBlock &BB : Fn)
    if (auto *Ret = dyn_cast_if_present<ReturnInst>(BB.getTerminator()))
      Returns.push_back(Ret);
  LLVMContext &C = Fn.getContext();
  BasicBlock *Next = BasicBlock::Create(C, "warp.next", &Fn);
  BasicBlock *End = BasicBlock::Create(C, "warp.end", &Fn);
  BasicBlock *Record = BasicBlock::Create(C, "warp.record", &Fn);
  for (ReturnInst *Ret : Returns) {
    BranchInst::Create(Next, Ret->getIterator());
    Ret->eraseFromParent();
  }
  ReturnInst::Create(C, End);

  // The warp's context, the argument first and then each next one.
  Argument *Warp = Fn.getArg(1);
  IRBuilder<> B(Begin, Begin->begin());
  PHINode *Ctx = B.CreatePHI(B.getPtrTy(), 2, "warp.ctx");
  Warp->replaceUsesWithIf(Ctx, [&](Use &U) { return U.getUser() != Ctx; });
  Ctx->addIncoming(Warp, &Entry);
  auto Field = [&](Type *T, Value *Of, unsigned F) {
    return B.CreateLoad(T, B.CreateStructGEP(CtxTy, Of, F));
  };
  // Rounds: whether every warp so far returned at the barrier the first
  // one did, and the rounds this call ran.
  PHINode *AllAtBarrier = nullptr, *Round = nullptr;
  if (Rounds) {
    AllAtBarrier = B.CreatePHI(B.getInt1Ty(), 2, "round.barrier");
    AllAtBarrier->addIncoming(B.getTrue(), &Entry);
    Round = B.CreatePHI(B.getInt32Ty(), 2, "round");
    Round->addIncoming(B.getInt32(0), &Entry);
  }
  B.SetInsertPoint(Next);
  Type *I32 = B.getInt32Ty();
  Value *Running =
      B.CreateICmpEQ(Field(I32, Ctx, WCF_Status), B.getInt32(WS_Running));
  Value *Following = Field(B.getPtrTy(), Ctx, WCF_NextWarp);
  Value *GoOn = B.CreateAnd(Running, B.CreateIsNotNull(Following));
  Value *StillAtBarrier = nullptr, *NextRound = nullptr;
  BasicBlock *RoundEnd = nullptr;
  if (Rounds) {
    // As the runtime's round decides: a converged site, lanes arriving,
    // an id in range (the site said so), the first warp's.
    Value *AtBarrier =
        B.CreateAnd(B.CreateLoad(B.getInt1Ty(), AtBarrierSlot),
                    B.CreateICmpEQ(B.CreateLoad(I32, BarrierSlot),
                                   Field(I32, Warp, WCF_SuspendBarrier)));
    StillAtBarrier = B.CreateAnd(AllAtBarrier, AtBarrier);
    RoundEnd = BasicBlock::Create(C, "round.end", &Fn);
    B.CreateCondBr(GoOn, Record, RoundEnd);
    // The round is over: the next one, in phases only (on fibers each
    // warp is called alone and the runtime arrives for it).
    B.SetInsertPoint(RoundEnd);
    NextRound = B.CreateAdd(Round, B.getInt32(1));
    Value *Again = B.CreateAnd(
        {Running, StillAtBarrier,
         B.CreateICmpNE(Field(I32, Warp, WCF_PhaseMode), B.getInt32(0)),
         B.CreateICmpULT(Round, B.getInt32(MaxChainRounds - 1))});
    B.CreateCondBr(Again, Record, End);
  } else {
    B.CreateCondBr(GoOn, Record, End);
  }
  // *RunningWarp = the next warp's index (the runtime's variable, or the
  // warp's own field when it gave none), for a fault report. Volatile, so
  // that it is done before the warp runs; here rather than at warp.begin,
  // where it would keep the parameter loads after it from leaving the loop.
  B.SetInsertPoint(Record);
  Value *To = Following;
  // Rounds: the next warp, whether all are at the barrier, and the rounds
  // run, as warp.record receives them.
  PHINode *NextCtx = nullptr, *Still = nullptr, *RoundsIn = nullptr;
  if (Rounds) {
    NextCtx = B.CreatePHI(B.getPtrTy(), 2, "warp.following");
    NextCtx->addIncoming(Following, Next);
    NextCtx->addIncoming(Warp, RoundEnd);
    To = NextCtx;
    Still = B.CreatePHI(B.getInt1Ty(), 2);
    Still->addIncoming(StillAtBarrier, Next);
    Still->addIncoming(B.getTrue(), RoundEnd);
    AllAtBarrier->addIncoming(Still, Record);
    RoundsIn = B.CreatePHI(I32, 2);
    RoundsIn->addIncoming(Round, Next);
    RoundsIn->addIncoming(NextRound, RoundEnd);
    Round->addIncoming(RoundsIn, Record);
  }
  BasicBlock *RunFrom = Record;
  if (SkipsRounds) {
    // A warp that passed this round ahead of time (PhaseProbes.cpp) counts
    // as arrived at the barrier every converged site names, which is the
    // first warp's: only its count goes down. The call starts here too.
    BasicBlock *Check = BasicBlock::Create(C, "skip.check", &Fn);
    BasicBlock *Take = BasicBlock::Create(C, "skip.take", &Fn);
    BasicBlock *Last = BasicBlock::Create(C, "skip.round.end", &Fn);
    BasicBlock *Run = BasicBlock::Create(C, "warp.run", &Fn);
    B.CreateBr(Check);
    B.SetInsertPoint(Check);
    PHINode *Cur = B.CreatePHI(B.getPtrTy(), 2, "skip.warp");
    Cur->addIncoming(NextCtx, Record);
    Value *SkipPtr = B.CreateStructGEP(CtxTy, Cur, WCF_SkipRounds);
    Value *Skips = B.CreateLoad(I32, SkipPtr);
    B.CreateCondBr(B.CreateICmpNE(Skips, B.getInt32(0)), Take, Run);
    B.SetInsertPoint(Take);
    B.CreateStore(B.CreateSub(Skips, B.getInt32(1)), SkipPtr);
    Value *After = Field(B.getPtrTy(), Cur, WCF_NextWarp);
    Cur->addIncoming(After, Take);
    B.CreateCondBr(B.CreateIsNotNull(After), Check, Last);
    // The round ended with skipped warps: as at round.end, with the last
    // warp that ran still running.
    B.SetInsertPoint(Last);
    Value *LastNext = B.CreateAdd(RoundsIn, B.getInt32(1));
    Value *LastAgain = B.CreateAnd(
        {Still, B.CreateICmpNE(Field(I32, Warp, WCF_PhaseMode), B.getInt32(0)),
         B.CreateICmpULT(RoundsIn, B.getInt32(MaxChainRounds - 1))});
    B.CreateCondBr(LastAgain, Record, End);
    NextCtx->addIncoming(Warp, Last);
    Still->addIncoming(B.getTrue(), Last);
    RoundsIn->addIncoming(LastNext, Last);
    // The call's first warp too goes through the check.
    Entry.getTerminator()->setSuccessor(0, Record);
    NextCtx->addIncoming(Warp, &Entry);
    Still->addIncoming(B.getTrue(), &Entry);
    RoundsIn->addIncoming(B.getInt32(0), &Entry);
    Ctx->removeIncomingValue(&Entry, /*DeletePHIIfEmpty=*/false);
    AllAtBarrier->removeIncomingValue(&Entry);
    Round->removeIncomingValue(&Entry);
    B.SetInsertPoint(Run);
    To = Cur;
    RunFrom = Run;
  }
  Value *Out = Field(B.getPtrTy(), To, WCF_RunningWarp);
  Value *Own = B.CreateStructGEP(CtxTy, To, WCF_WarpIndex);
  Value *Index = B.CreateLoad(I32, Own);
  B.CreateStore(Index, B.CreateSelect(B.CreateIsNull(Out), Own, Out),
                /*isVolatile=*/true);
  B.CreateBr(Begin);
  Ctx->addIncoming(To, RunFrom);
  if (SkipsRounds) {
    AllAtBarrier->setIncomingBlock(0, RunFrom);
    Round->setIncomingBlock(0, RunFrom);
  }
  return true;
}
