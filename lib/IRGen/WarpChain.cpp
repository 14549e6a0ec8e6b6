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
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "ptxjit/ABI/WarpABI.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace ptxjit;

bool irgen::makeWarpChain(Function &Fn, StructType *CtxTy) {
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
  B.SetInsertPoint(Next);
  Value *Status =
      B.CreateLoad(B.getInt32Ty(), B.CreateStructGEP(CtxTy, Ctx, WCF_Status));
  Value *Following =
      B.CreateLoad(B.getPtrTy(), B.CreateStructGEP(CtxTy, Ctx, WCF_NextWarp));
  Value *GoOn = B.CreateAnd(B.CreateICmpEQ(Status, B.getInt32(WS_Running)),
                            B.CreateIsNotNull(Following));
  BasicBlock *Record = BasicBlock::Create(C, "warp.record", &Fn);
  B.CreateCondBr(GoOn, Record, End);
  // *RunningWarp = the next warp's index (the runtime's variable, or the
  // warp's own field when it gave none), for a fault report. Volatile, so
  // that it is done before the warp runs; here rather than at warp.begin,
  // where it would keep the parameter loads after it from leaving the loop.
  B.SetInsertPoint(Record);
  Value *Out = B.CreateLoad(
      B.getPtrTy(), B.CreateStructGEP(CtxTy, Following, WCF_RunningWarp));
  Value *Own = B.CreateStructGEP(CtxTy, Following, WCF_WarpIndex);
  Value *Index = B.CreateLoad(B.getInt32Ty(), Own);
  B.CreateStore(Index, B.CreateSelect(B.CreateIsNull(Out), Own, Out),
                /*isVolatile=*/true);
  B.CreateBr(Begin);
  Ctx->addIncoming(Following, Record);
  return true;
}
