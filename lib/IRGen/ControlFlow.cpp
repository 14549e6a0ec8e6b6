//===- ControlFlow.cpp - Masks, divergence, reconvergence -----------------===//
//
// Each PTX basic block is an LLVM block that runs with the running lanes of
// WarpLaneState. Live lanes not running now wait, each at the block it
// recorded (its reverse-post-order number). Among the waiting lanes, blocked
// ones wait at a warp-synchronous instruction for other lanes, and parked
// ones at a CTA barrier.
//
// A branch that all running lanes take the same way while nobody waits is a
// plain LLVM branch: the converged fast path. Otherwise lanes record their
// targets and the dispatcher resumes the runnable group waiting at the
// lowest number, so groups meet again at the earliest common block. When no
// group can run, the warp waits for a CTA barrier (a runtime call that yields
// its fiber) or, if only warp-synchronous waits remain, reports a deadlock.
//
//===----------------------------------------------------------------------===//

#include "CheckInstrumentation.h"
#include "Lowering.h"
#include "ptxjit/ABI/WarpABI.h"
#include "ptxjit/Transforms/SplitBlocks.h"
#include "ptxjit/Transforms/VectorRegisters.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Opcode;
using ptx::Operand;
using ptx::ScalarType;
using ptx::Statement;

/// Backward branches taken while the warp is split, before the dispatcher
/// runs another group once: lanes spinning on a flag that other lanes of the
/// warp will set must not starve them.
constexpr uint32_t RotatePeriod = 256;

/// Whether the loop closed by a backward branch from Latch to Header only
/// waits: it reads memory that other threads may write (a strong load) and
/// writes none, so it cannot change anything another CTA waits for.
static bool isWaitLoop(const ptx::Function &F, const PTXCFG &CFG,
                       unsigned Header, unsigned Latch) {
  // Fences, nanosleep and branches do not change what others see.
  bool Acts = transforms::anyInLoop(
      F, CFG, Header, Latch, [](const ptx::Instruction &I) {
        unsigned Flags = ptx::getOpcodeInfo(I.Op).Flags;
        return (Flags & (ptx::OpMemWrite | ptx::OpCTABarrier | ptx::OpCall |
                         ptx::OpOpaqueRoles)) ||
               ((Flags & ptx::OpTerminator) && !(Flags & ptx::OpBranch));
      });
  return !Acts &&
         transforms::anyInLoop(F, CFG, Header, Latch, transforms::isStrongRead);
}

Value *FunctionLowering::runtimeArg() {
  return getContextField(WCF_Runtime, B.getPtrTy());
}

void FunctionLowering::setStatus(uint32_t Status, Value *Lanes, Value *Aux) {
  auto Store = [&](unsigned Field, Value *V) {
    B.CreateStore(V, B.CreateStructGEP(ML.WarpCtxTy, CtxArg, Field));
  };
  Store(WCF_Status, B.getInt32(Status));
  Store(WCF_StatusLine, B.getInt32(CurInst ? getLine(CurInst->Loc) : 0));
  Store(WCF_StatusLanes, Lanes);
  Store(WCF_StatusAux, Aux ? Aux : B.getInt32(0));
}

void FunctionLowering::emitStop() {
  B.SetInsertPoint(StopBB);
  if (F.IsEntry) {
    B.CreateRetVoid();
    return;
  }
  // Every lane of this call leaves; the caller sees the status and stops.
  emitLocalFrameCheck(*this, /*Enter=*/false);
  B.CreateRet(Warp.everyLane());
}

void FunctionLowering::emitBackEdgeChecks(unsigned Target) {
  // Every RotatePeriod backward branches: check the cancel flag, let the
  // next divergent group run, and yield to the other warps. In between a
  // loop pays only a counter.
  Value *Due = Warp.countBackEdge(RotatePeriod);
  BasicBlock *Periodic = BasicBlock::Create(ML.Ctx, "backedge.periodic", Fn);
  BasicBlock *Cont = BasicBlock::Create(ML.Ctx, "backedge.cont", Fn);
  B.CreateCondBr(Due, Periodic, Cont);

  B.SetInsertPoint(Periodic);
  Value *Flag =
      B.CreateLoad(B.getInt8Ty(), getContextField(WCF_Cancel, B.getPtrTy()),
                   /*isVolatile=*/true);
  BasicBlock *Cancel = BasicBlock::Create(ML.Ctx, "cancelled", Fn);
  BasicBlock *Rotate = BasicBlock::Create(ML.Ctx, "rotate", Fn);
  B.CreateCondBr(B.CreateICmpNE(Flag, B.getInt8(0)), Cancel, Rotate);
  B.SetInsertPoint(Cancel);
  setStatus(WS_Cancelled, getMask(), nullptr);
  B.CreateBr(StopBB);

  B.SetInsertPoint(Rotate);
  // Next time the dispatcher picks, it takes the group after this one in
  // block order (round robin), so every waiting group gets its turn. Only
  // a split warp, in a loop that may wait for the others: elsewhere groups
  // meet in block order, which findSplitBlocks relies on.
  if (!Converged &&
      transforms::loopMayWaitForOthers(F, CFG, Target, CurBlock, ReadRegisters))
    Warp.rotateAfter(Target);
  if (usesBarriers() && isWaitLoop(F, CFG, Target, CurBlock))
    B.CreateCall(
        ML.getRuntimeFunction(RuntimeEntry::SpinYield),
        {runtimeArg(), B.getInt32(CurInst ? getLine(CurInst->Loc) : 0)});
  else if (usesBarriers())
    B.CreateCall(ML.getRuntimeFunction(RuntimeEntry::Yield), {runtimeArg()});
  B.CreateBr(Cont);
  B.SetInsertPoint(Cont);
}

void FunctionLowering::transition(unsigned Target, Value *LaneMask) {
  if (CFG.Blocks[Target].RPONumber <= CFG.Blocks[CurBlock].RPONumber)
    emitBackEdgeChecks(Target);
  Warp.setRunning(LaneMask);
  BasicBlock *Slow = BasicBlock::Create(ML.Ctx, "to.dispatch", Fn);
  B.CreateCondBr(Warp.noneWaiting(), BlockBBs[1][Target], Slow);
  B.SetInsertPoint(Slow);
  Warp.park(Target, LaneMask);
}

Error FunctionLowering::branchDivergent(Value *Taken, unsigned TakenBlock,
                                        unsigned NotTakenBlock) {
  Value *Mask = getMask();
  BasicBlock *AllTaken = BasicBlock::Create(ML.Ctx, "all.taken", Fn);
  BasicBlock *NoneCheck = BasicBlock::Create(ML.Ctx, "check.none", Fn);
  BasicBlock *NoneTaken = BasicBlock::Create(ML.Ctx, "none.taken", Fn);
  BasicBlock *Split = BasicBlock::Create(ML.Ctx, "diverge", Fn);
  B.CreateCondBr(B.CreateICmpEQ(Taken, Mask), AllTaken, NoneCheck);
  B.SetInsertPoint(NoneCheck);
  B.CreateCondBr(B.CreateICmpEQ(Taken, B.getInt32(0)), NoneTaken, Split);
  B.SetInsertPoint(AllTaken);
  transition(TakenBlock, Mask);
  B.SetInsertPoint(NoneTaken);
  transition(NotTakenBlock, Mask);
  B.SetInsertPoint(Split);
  if (canPredicate(TakenBlock, NotTakenBlock))
    return lowerPredicated(TakenBlock, Taken, NotTakenBlock, Mask);
  if (canPredicate(NotTakenBlock, TakenBlock))
    return lowerPredicated(NotTakenBlock, B.CreateAnd(Mask, B.CreateNot(Taken)),
                           TakenBlock, Mask);
  if (CFG.Blocks[TakenBlock].RPONumber <= CFG.Blocks[CurBlock].RPONumber)
    emitBackEdgeChecks(TakenBlock);
  Warp.setNextBlock(Taken, TakenBlock);
  Warp.setNextBlock(B.CreateAnd(Mask, B.CreateNot(Taken)), NotTakenBlock);
  Warp.wait(Mask);
  Warp.dispatch();
  return Error::success();
}

void FunctionLowering::storeRegisterReturns(Value *Leaving) {
  // Returns are (ctx, mask, returns..., params...); .param returns are
  // written by st.param, .reg ones hold their value in a register.
  unsigned ArgNo = 2;
  for (const ptx::VariableDecl &P : F.Returns) {
    Value *Storage = Fn->getArg(ArgNo++);
    if (P.Space != ptx::StateSpace::Reg)
      continue;
    auto Names = transforms::getParamRegisters(P);
    for (unsigned K = 0; K != Names.size(); ++K) {
      Register *R = findRegister(Names[K]);
      if (!R)
        continue;
      Type *VecTy = getVectorType(R->Slot->getAllocatedType()->getScalarType());
      Value *Slot = B.CreateConstInBoundsGEP1_64(VecTy, Storage, K);
      Value *V = widen(loadRegister(*R));
      Value *Old = B.CreateAlignedLoad(VecTy, Slot, Align(16));
      B.CreateAlignedStore(B.CreateSelect(maskToVector(Leaving), V, Old), Slot,
                           Align(16));
    }
  }
}

void FunctionLowering::exitLanes(Value *Leaving, bool IsReturn) {
  Value *Mask = getMask();
  Value *Rest = B.CreateAnd(Mask, B.CreateNot(Leaving));
  bool ThreadExit = F.IsEntry || !IsReturn;
  if (ThreadExit && usesBarriers()) {
    // When the whole warp ends here the kernel's function returns, and the
    // runtime lets its lanes exit then: no call.
    BasicBlock *Call = nullptr, *Called = nullptr;
    if (F.IsEntry) {
      Call = BasicBlock::Create(ML.Ctx, "exit.call", Fn);
      Called = BasicBlock::Create(ML.Ctx, "exit.called", Fn);
      Value *WarpEnds =
          B.CreateAnd(B.CreateICmpEQ(Rest, B.getInt32(0)), Warp.noneWaiting());
      B.CreateCondBr(WarpEnds, Called, Call);
      B.SetInsertPoint(Call);
    }
    B.CreateCall(ML.getRuntimeFunction(RuntimeEntry::ExitLanes),
                 {runtimeArg(), Leaving});
    if (Called) {
      B.CreateBr(Called);
      B.SetInsertPoint(Called);
    }
  }
  if (!F.IsEntry && IsReturn)
    storeRegisterReturns(Leaving);
  if (!F.IsEntry)
    Warp.leave(Leaving, IsReturn);
  Warp.setRunning(Rest);
  // Lanes waiting at a warp-synchronous instruction may have waited for the
  // ones leaving: let them check again.
  Warp.unblockAll();
  BasicBlock *Cont = BasicBlock::Create(ML.Ctx, "after.exit", Fn);
  BasicBlock *Gone = BasicBlock::Create(ML.Ctx, "group.done", Fn);
  B.CreateCondBr(B.CreateICmpNE(Rest, B.getInt32(0)), Cont, Gone);
  B.SetInsertPoint(Gone);
  BasicBlock *Done = BasicBlock::Create(ML.Ctx, "warp.done", Fn);
  B.CreateCondBr(Warp.noneWaiting(), Done, Warp.getDispatcher());
  B.SetInsertPoint(Done);
  if (F.IsEntry) {
    B.CreateRetVoid();
  } else {
    emitLocalFrameCheck(*this, /*Enter=*/false);
    B.CreateRet(Warp.exited());
  }
  B.SetInsertPoint(Cont);
}

void FunctionLowering::exitSomeLanes(Value *Leaving, bool IsReturn) {
  BasicBlock *Exit = BasicBlock::Create(ML.Ctx, "exit.some", Fn);
  BasicBlock *Stay = BasicBlock::Create(ML.Ctx, "exit.none", Fn);
  B.CreateCondBr(B.CreateICmpNE(Leaving, B.getInt32(0)), Exit, Stay);
  B.SetInsertPoint(Exit);
  exitLanes(Leaving, IsReturn);
  B.CreateBr(Stay);
  B.SetInsertPoint(Stay);
}

void FunctionLowering::emitDispatcher() {
  Type *I32 = B.getInt32Ty();
  BasicBlock *DispatchBB = Warp.getDispatcher();
  B.SetInsertPoint(DispatchBB);
  Value *Waiting = Warp.waiting();
  Value *Blocked = Warp.blocked();
  Value *Parked = Warp.parked();
  Value *Runnable =
      B.CreateAnd(Waiting, B.CreateNot(B.CreateOr(Blocked, Parked)));
  BasicBlock *Pick = BasicBlock::Create(ML.Ctx, "dispatch.pick", Fn);
  BasicBlock *Stall = BasicBlock::Create(ML.Ctx, "dispatch.stall", Fn);
  B.CreateCondBr(B.CreateICmpNE(Runnable, B.getInt32(0)), Pick, Stall);

  B.SetInsertPoint(Pick);
  Value *Rest;
  Value *Chosen = Warp.pickGroup(Runnable, Waiting, Rest);
  // The group resumes in the converged version of its block if it is all
  // that is left of the warp.
  BasicBlock *Bad = BasicBlock::Create(ML.Ctx, "dispatch.bad", Fn);
  BasicBlock *ToConverged = BasicBlock::Create(ML.Ctx, "dispatch.conv", Fn);
  BasicBlock *ToDivergent = BasicBlock::Create(ML.Ctx, "dispatch.div", Fn);
  B.CreateCondBr(B.CreateICmpEQ(Rest, B.getInt32(0)), ToConverged, ToDivergent);
  // Blocks without a divergent version (findSplitBlocks) never get here
  // split; if one did, stop with an internal error rather than run it.
  BasicBlock *NotSplit = BasicBlock::Create(ML.Ctx, "dispatch.notsplit", Fn);
  for (unsigned V : {0, 1}) {
    B.SetInsertPoint(V ? ToConverged : ToDivergent);
    SwitchInst *SW = B.CreateSwitch(Chosen, V ? Bad : NotSplit, CFG.RPO.size());
    for (unsigned Blk : CFG.RPO)
      if (BlockBBs[V][Blk])
        SW->addCase(B.getInt32(CFG.Blocks[Blk].RPONumber), BlockBBs[V][Blk]);
  }
  B.SetInsertPoint(Bad);
  B.CreateUnreachable();
  B.SetInsertPoint(NotSplit);
  CurInst = nullptr;
  setStatus(WS_SplitWithoutVersion, Warp.running(), Chosen);
  B.CreateBr(StopBB);

  // The PTX line of each block (by reverse-post-order number), for reports.
  SmallVector<Constant *, 32> Lines(CFG.RPO.size(), B.getInt32(0));
  for (unsigned Blk : CFG.RPO) {
    const PTXBlock &PB = CFG.Blocks[Blk];
    for (unsigned I = PB.Begin; I != PB.End; ++I)
      if (F.Body[I].Kind == Statement::Inst) {
        Lines[PB.RPONumber] = B.getInt32(getLine(F.Body[I].getLoc()));
        break;
      }
  }
  auto *LineTy = ArrayType::get(I32, Lines.size());
  auto *LineTable =
      new GlobalVariable(ML.LM, LineTy, true, GlobalValue::PrivateLinkage,
                         ConstantArray::get(LineTy, Lines), F.Name + ".lines");
  // Stores, for each lane of Lanes, the line of the block it waits at.
  auto RecordLines = [&](Value *Lanes) {
    Value *Next = Warp.nextBlocks();
    Value *LinePtrs = B.CreateInBoundsGEP(
        LineTy, LineTable,
        {B.getInt32(0),
         B.CreateSelect(maskToVector(Lanes), Next, splat(B.getInt32(0)))});
    Value *LaneLines =
        B.CreateMaskedGather(getVectorType(I32), LinePtrs, Align(4),
                             maskToVector(Lanes), splat(B.getInt32(0)));
    B.CreateAlignedStore(LaneLines,
                         B.CreateStructGEP(ML.WarpCtxTy, CtxArg, WCF_LaneLines),
                         Align(4));
    return Next;
  };

  // Nothing can run: wait for a CTA barrier, or report a deadlock.
  B.SetInsertPoint(Stall);
  BasicBlock *Deadlock = BasicBlock::Create(ML.Ctx, "warp.deadlock", Fn);
  if (usesBarriers()) {
    BasicBlock *Wait = BasicBlock::Create(ML.Ctx, "barrier.wait", Fn);
    B.CreateCondBr(B.CreateICmpNE(Parked, B.getInt32(0)), Wait, Deadlock);
    B.SetInsertPoint(Wait);
    // Lanes blocked at warp-synchronous instructions meanwhile: say where,
    // in case the CTA never gets past the barrier.
    Value *SyncWait =
        B.CreateStructGEP(ML.WarpCtxTy, CtxArg, WCF_SyncWaitLanes);
    BasicBlock *Record = BasicBlock::Create(ML.Ctx, "record.blocked", Fn);
    BasicBlock *DoWait = BasicBlock::Create(ML.Ctx, "barrier.wait.call", Fn);
    B.CreateCondBr(B.CreateICmpNE(Blocked, B.getInt32(0)), Record, DoWait);
    B.SetInsertPoint(Record);
    RecordLines(Blocked);
    B.CreateStore(Blocked, SyncWait);
    B.CreateBr(DoWait);
    B.SetInsertPoint(DoWait);
    Value *Released = B.CreateCall(ML.getRuntimeFunction(RuntimeEntry::BarWait),
                                   {runtimeArg()});
    B.CreateStore(B.getInt32(0), SyncWait);
    Warp.release(Released);
    Warp.unpark(Released);
    B.CreateBr(DispatchBB);
  } else {
    B.CreateBr(Deadlock);
  }
  // Only warp-synchronous waits remain: report the line of each group, and
  // of the first one as the status line.
  B.SetInsertPoint(Deadlock);
  Value *NextHere = RecordLines(Blocked);
  Value *First =
      B.CreateIntrinsic(Intrinsic::vector_reduce_umin, {NextHere->getType()},
                        {B.CreateSelect(maskToVector(Blocked), NextHere,
                                        splat(B.getInt32(~0u)))});
  Value *Line = B.CreateLoad(
      I32, B.CreateInBoundsGEP(LineTy, LineTable, {B.getInt32(0), First}));
  CurInst = nullptr;
  setStatus(WS_WarpDeadlock, Blocked, Waiting);
  B.CreateStore(Line, B.CreateStructGEP(ML.WarpCtxTy, CtxArg, WCF_StatusLine));
  B.CreateBr(StopBB);
}

Error FunctionLowering::lowerTerminator(unsigned Index,
                                        const ptx::Instruction *Last) {
  const PTXBlock &Blk = CFG.Blocks[Index];
  unsigned FT = Blk.FallThrough;
  auto FallThrough = [&]() -> Error {
    if (FT == ~0u || CFG.Blocks[FT].RPONumber == ~0u) {
      exitLanes(getMask(), /*IsReturn=*/true);
      B.CreateUnreachable();
      return Error::success();
    }
    transition(FT, getMask());
    return Error::success();
  };
  if (!Last)
    return FallThrough();
  CurInst = Last;
  Value *Mask = getMask();
  Expected<Value *> Guarded = guardedMask(*Last, Mask);
  if (!Guarded)
    return Guarded.takeError();
  Value *Active = *Guarded;
  InstMask = Active;
  switch (Last->Op) {
  case Opcode::Bra: {
    unsigned Target = CFG.LabelToBlock.lookup(Last->Operands[0].Name);
    if (Last->GuardPredicate.empty()) {
      transition(Target, Mask);
      return Error::success();
    }
    // In a kernel, lanes that branch only to leave the warp (a bounds
    // check's early return) exit here, and the others go on converged:
    // the warp does not split (findSplitBlocks counts on it).
    if (F.IsEntry && CFG.onlyExits(F, Target)) {
      exitSomeLanes(Active, /*IsReturn=*/true);
      return FallThrough();
    }
    if (F.IsEntry && FT != ~0u && CFG.onlyExits(F, FT)) {
      exitSomeLanes(B.CreateAnd(Mask, B.CreateNot(Active)), /*IsReturn=*/true);
      transition(Target, getMask());
      return Error::success();
    }
    return branchDivergent(Active, Target, FT);
  }
  case Opcode::Trap: {
    // The whole launch stops; report which lanes trapped.
    BasicBlock *Trap = BasicBlock::Create(ML.Ctx, "trap", Fn);
    BasicBlock *NoTrap = BasicBlock::Create(ML.Ctx, "no.trap", Fn);
    B.CreateCondBr(B.CreateICmpNE(Active, B.getInt32(0)), Trap, NoTrap);
    B.SetInsertPoint(Trap);
    setStatus(WS_Trap, Active, nullptr);
    B.CreateBr(StopBB);
    B.SetInsertPoint(NoTrap);
    return FallThrough();
  }
  case Opcode::Ret:
  case Opcode::Exit: {
    exitLanes(Active, Last->Op == Opcode::Ret);
    if (Last->GuardPredicate.empty()) {
      B.CreateUnreachable();
      return Error::success();
    }
    return FallThrough();
  }
  case Opcode::BrxIdx: {
    const auto *Targets = findBranchTargets(F, Last->Operands[1].Name);
    Expected<LaneValue> Idx = read(Last->Operands[0], ScalarType::U32);
    if (!Idx)
      return Idx.takeError();
    // Each lane records the block its index selects. The ISA leaves an
    // index past the table undefined; stop with an error rather than jump
    // anywhere.
    Value *IdxV = widen(Idx->V);
    Value *Bad = B.CreateAnd(
        B.CreateBitCast(
            B.CreateICmpUGE(IdxV, splat(B.getInt32(Targets->size()))),
            B.getInt32Ty()),
        Active);
    BasicBlock *Stop = BasicBlock::Create(ML.Ctx, "brx.bad", Fn);
    BasicBlock *Ok = BasicBlock::Create(ML.Ctx, "brx.ok", Fn);
    B.CreateCondBr(B.CreateICmpNE(Bad, B.getInt32(0)), Stop, Ok);
    B.SetInsertPoint(Stop);
    Value *First = B.CreateIntrinsic(Intrinsic::cttz, {B.getInt32Ty()},
                                     {Bad, B.getTrue()});
    setStatus(WS_BadBranchIndex, Bad,
              B.CreateExtractElement(IdxV, B.CreateAnd(First, B.getInt32(31))));
    B.CreateBr(StopBB);
    B.SetInsertPoint(Ok);
    for (unsigned I = 0; I != Targets->size(); ++I) {
      Value *Hit = B.CreateAnd(
          B.CreateBitCast(B.CreateICmpEQ(IdxV, splat(B.getInt32(I))),
                          B.getInt32Ty()),
          Active);
      Warp.setNextBlock(Hit, CFG.LabelToBlock.lookup((*Targets)[I]));
    }
    if (FT != ~0u)
      Warp.setNextBlock(B.CreateAnd(Mask, B.CreateNot(Active)), FT);
    Warp.wait(Mask);
    Warp.dispatch();
    return Error::success();
  }
  default:
    return FallThrough();
  }
}

Error FunctionLowering::lowerBlock(unsigned Index) {
  const PTXBlock &Blk = CFG.Blocks[Index];
  CurBlock = Index;
  B.SetInsertPoint(BlockBBs[Converged][Index]);
  const ptx::Instruction *Last = nullptr;
  for (unsigned I = Blk.Begin; I != Blk.End; ++I) {
    const Statement &S = F.Body[I];
    if (S.Kind != Statement::Inst)
      continue;
    CurScope = StatementScope[I];
    const ptx::Instruction &Inst = S.Instr;
    if (ptx::endsBlock(Inst.Op)) {
      Last = &Inst;
      continue;
    }
    B.SetCurrentDebugLocation(ML.DebugLocs.get(Fn, Inst.Loc));
    if (isSyncPoint(F, I) && I != Blk.Begin) {
      // Sync points start their block (see PTXCFG::build); only labels and
      // directives may come before.
      bool OnlyNonInstructions = true;
      for (unsigned J = Blk.Begin; J != I; ++J)
        OnlyNonInstructions &= F.Body[J].Kind != Statement::Inst;
      if (!OnlyNonInstructions)
        return error(Inst, "internal error: sync point inside a block");
    }
    if (isSyncPoint(F, I))
      if (Error E = lowerSyncPoint(Index, Inst))
        return E;
    if (Error E = lowerInstruction(Inst))
      return E;
    if (BasicBlock *Passed = std::exchange(ExchangePassedEnd, nullptr)) {
      // Lanes let through the instruction rejoin here.
      BasicBlock *Join = BasicBlock::Create(ML.Ctx, "xchg.join", Fn);
      B.CreateBr(Join);
      BranchInst::Create(Join, Passed);
      B.SetInsertPoint(Join);
    }
  }
  if (Last)
    B.SetCurrentDebugLocation(ML.DebugLocs.get(Fn, Last->Loc));
  return lowerTerminator(Index, Last);
}
