//===- Sync.cpp - Warp-synchronous instructions and CTA barriers ----------===//
//
// A sync point starts its own block. Its prologue decides whether the lanes
// that must take part have all arrived:
//
// * Warp-synchronous instructions (shfl, vote, match, redux, bar.warp.sync,
//   and the matrix instructions, whose members are the whole warp) wait for
//   every live lane of the member mask. Lanes that arrive early are
//   blocked at the block; the group that completes the set runs the
//   instruction for all of them. In converged code the check passes at once
//   and the instruction is plain vector code: no runtime call.
// * CTA barriers (bar.sync, barrier.sync, bar.red) count arriving lanes in
//   the runtime and park them; when nothing else in the warp can run, the
//   dispatcher waits in the runtime (the warp's fiber yields). Released
//   lanes come back to the block and go on past the barrier.
//
//===----------------------------------------------------------------------===//

#include "CheckInstrumentation.h"
#include "Lowering.h"
#include "Semantics.h"
#include "ptxjit/ABI/WarpABI.h"
#include "ptxjit/PTX/MatrixRules.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Modifier;
using ptx::Opcode;
using ptx::Operand;
using ptx::ScalarType;

static bool isCTABarrier(const ptx::Instruction &I) {
  return ptx::hasFlag(I.Op, ptx::OpCTABarrier) &&
         !I.hasModifier(Modifier::Warp);
}

/// memberMaskOperand's answer for the legacy forms that synchronize the
/// lanes running now, and for the matrix instructions (.aligned), whose
/// members are the whole warp.
constexpr int RunningLanes = -1, WholeWarp = -2;

/// The operand holding the member mask, or RunningLanes or WholeWarp.
static int memberMaskOperand(const ptx::Instruction &I) {
  bool Sync = I.hasModifier(Modifier::Sync);
  if (ptx::isMatrixOpcode(I.Op))
    return WholeWarp;
  switch (I.Op) {
  case Opcode::Shfl:
    return Sync && I.Operands.size() == 5 ? 4 : RunningLanes;
  case Opcode::Vote:
  case Opcode::Match:
  case Opcode::Redux:
    return Sync && I.Operands.size() == 3 ? 2 : RunningLanes;
  case Opcode::Bar:
  case Opcode::Barrier:
    return I.Operands.empty() ? RunningLanes : 0; // bar.warp.sync membermask
  case Opcode::Elect:
    return 1;
  default:
    return RunningLanes;
  }
}

/// A uniform 32-bit operand: its value in the first running lane.
static Expected<Value *> readUniform(FunctionLowering &FL, const Operand &Op,
                                     Value *Mask) {
  Expected<LaneValue> V = FL.read(Op, ScalarType::U32);
  if (!V)
    return V.takeError();
  if (V->isScalar())
    return V->V;
  IRBuilder<> &B = FL.B;
  Value *First = B.CreateIntrinsic(Intrinsic::cttz, {B.getInt32Ty()},
                                   {Mask, B.getFalse()});
  return B.CreateExtractElement(V->V, B.CreateAnd(First, B.getInt32(31)));
}

/// The barrier id and thread count (0 if none) of bar/barrier .sync,
/// .arrive and .red, in the first lane of Mask.
static Error readBarrierOperands(FunctionLowering &FL,
                                 const ptx::Instruction &I, Value *Mask,
                                 Value *&Id, Value *&Count) {
  bool IsRed = I.hasModifier(Modifier::Red);
  unsigned IdOp = IsRed ? 1 : 0;
  bool HasCount = I.Operands.size() == (IsRed ? 4u : 2u);
  Expected<Value *> IdV = readUniform(FL, I.Operands[IdOp], Mask);
  if (!IdV)
    return IdV.takeError();
  Id = *IdV;
  Count = FL.B.getInt32(0);
  if (HasCount) {
    Expected<Value *> C = readUniform(FL, I.Operands[IdOp + 1], Mask);
    if (!C)
      return C.takeError();
    Count = *C;
  }
  return Error::success();
}

/// The PTX type of source operand K of a data-exchanging instruction.
static ScalarType syncOperandType(const ptx::Instruction &I, unsigned K) {
  if (int(K) == memberMaskOperand(I))
    return ScalarType::B32;
  switch (I.Op) {
  case Opcode::Shfl:
    return K == 1 ? ScalarType::B32 : ScalarType::U32;
  case Opcode::Vote:
    return ScalarType::Pred;
  default:
    return I.getType();
  }
}

/// The PTX type of result Slot (0: d, 1: the p of d|p).
static ScalarType syncResultType(const ptx::Instruction &I, unsigned Slot) {
  if (Slot == 1)
    return ScalarType::Pred;
  switch (I.Op) {
  case Opcode::Vote:
    return I.hasModifier(Modifier::Ballot) ? ScalarType::B32 : ScalarType::Pred;
  case Opcode::Redux:
    return I.getType();
  default:
    return ScalarType::B32;
  }
}

Error FunctionLowering::lowerSyncPoint(unsigned Index,
                                       const ptx::Instruction &I) {
  CurInst = &I;
  if (isCTABarrier(I))
    return lowerCTABarrierPrologue(Index, I);
  if (I.Op == Opcode::MbarrierTestWait || I.Op == Opcode::MbarrierTryWait ||
      I.Op == Opcode::BarrierCluster)
    return lowerAsyncWaitPrologue(Index, I);
  return lowerWarpSyncPrologue(Index, I);
}

Error FunctionLowering::lowerExchangePassThrough(unsigned Index,
                                                 const ptx::Instruction &I,
                                                 const SyncExchange &X,
                                                 Value *Mask) {
  Value *PassedHere = B.CreateAnd(Mask, Warp.exchangePassed());
  BasicBlock *Passed = BasicBlock::Create(ML.Ctx, "xchg.passed", Fn);
  BasicBlock *Arrive = BasicBlock::Create(ML.Ctx, "xchg.arrive", Fn);
  B.CreateCondBr(B.CreateICmpNE(PassedHere, B.getInt32(0)), Passed, Arrive);
  // Let-through lanes take their results and go on alone; others that came
  // with them arrive later.
  B.SetInsertPoint(Passed);
  Warp.takeExchangePass(PassedHere);
  Value *Rest = B.CreateAnd(Mask, B.CreateNot(PassedHere));
  Warp.setNextBlock(Rest, Index);
  Warp.wait(Rest);
  Warp.setRunning(PassedHere);
  InstMask = PassedHere;
  const Operand &Dst = I.Operands[0];
  bool Pair = Dst.Kind == Operand::PredPair;
  for (unsigned Slot = 0; Slot != (Pair ? 2u : 1u); ++Slot) {
    ScalarType T = syncResultType(I, Slot);
    Value *V = B.CreateLoad(getVectorType(B.getInt64Ty()), X.Results[Slot]);
    if (Error E = write(Pair ? Dst.Elements[Slot] : Dst,
                        coerce(V, getLaneType(T), false), T))
      return E;
  }
  ExchangePassedEnd = B.GetInsertBlock();
  B.SetInsertPoint(Arrive);
  return Error::success();
}

Error FunctionLowering::lowerWarpSyncPrologue(unsigned Index,
                                              const ptx::Instruction &I) {
  Value *Mask = getMask();
  Value *Waiting = Warp.waiting();
  // bar.warp.sync waits for the lanes of its mask at any bar.warp.sync, not
  // only this one (sm_70): lanes blocked at another count as arrived, and
  // when the set is complete they are let through their own.
  bool WarpBarrier = I.Op == Opcode::Bar || I.Op == Opcode::Barrier;
  // So do data-exchanging ones of the same kind, whose results the group
  // that completes leaves for them. Only lanes split by divergence can be at
  // different instances.
  SyncExchange *X = Converged ? nullptr : getExchange(I);
  if (X)
    if (Error E = lowerExchangePassThrough(Index, I, *X, Mask))
      return E;
  BasicBlock *Arrived = nullptr;
  if (WarpBarrier) {
    Value *Pass = Warp.warpBarrierPassed();
    Warp.takeWarpBarrierPass(Mask);
    Arrived = BasicBlock::Create(ML.Ctx, "warpbar.passed", Fn);
    BasicBlock *Check = BasicBlock::Create(ML.Ctx, "warpbar.check", Fn);
    B.CreateCondBr(B.CreateICmpEQ(B.CreateAnd(Mask, Pass), Mask), Arrived,
                   Check);
    B.SetInsertPoint(Check);
  }
  // Lanes already blocked here join the group that just arrived.
  Value *Blocked = Warp.blocked();
  Value *AtHere = B.CreateAnd(Blocked, Warp.lanesAt(Index));
  Value *Group = B.CreateOr(Mask, AtHere);
  Value *Elsewhere = B.getInt32(0);
  if (WarpBarrier)
    Elsewhere = B.CreateAnd(Warp.atWarpBarrier(), B.CreateNot(AtHere));
  // Lanes blocked at other instances of the exchange.
  Value *Others =
      X ? B.CreateAnd(Warp.exchangeBlocked(X->Blocked), B.CreateNot(Group))
        : B.getInt32(0);
  Value *Counted = B.CreateOr(B.CreateOr(Group, Elsewhere), Others);
  Value *Live = B.CreateOr(Mask, Waiting);
  Value *Complete;
  int MaskOp = memberMaskOperand(I);
  Expected<LaneValue> M =
      MaskOp >= 0 ? read(I.Operands[MaskOp], ScalarType::B32)
                  : LaneValue{MaskOp == WholeWarp ? B.getInt32(~0u) : Mask,
                              Shape::uniform()};
  if (!M)
    return M.takeError();
  if (M->isScalar()) {
    Value *Required = B.CreateAnd(M->V, Live);
    Complete = B.CreateICmpEQ(B.CreateAnd(Counted, Required), Required);
  } else {
    // Lanes may name different masks (tiled partitions): every lane of the
    // group needs the live lanes of its own mask.
    Value *Missing = B.CreateAnd(B.CreateAnd(M->V, splat(Live)),
                                 splat(B.CreateNot(Counted)));
    Value *Bad = B.CreateAnd(B.CreateICmpNE(Missing, splat(B.getInt32(0))),
                             maskToVector(Group));
    Complete = B.CreateNot(B.CreateOrReduce(Bad));
  }
  BasicBlock *Go = BasicBlock::Create(ML.Ctx, "sync.go", Fn);
  BasicBlock *Wait = BasicBlock::Create(ML.Ctx, "sync.wait", Fn);
  B.CreateCondBr(Complete, Go, Wait);
  B.SetInsertPoint(Wait);
  Warp.block(Mask);
  if (X) {
    // Leave the operands for whoever completes the set.
    Value *Lanes = maskToVector(Mask);
    for (unsigned K = 1; K < I.Operands.size(); ++K) {
      Expected<LaneValue> V = read(I.Operands[K], syncOperandType(I, K));
      if (!V)
        return V.takeError();
      Type *Ty = X->Operands[K]->getAllocatedType();
      Value *Old = B.CreateLoad(Ty, X->Operands[K]);
      Value *New = coerce(widen(V->V), B.getInt64Ty(), false);
      B.CreateStore(B.CreateSelect(Lanes, New, Old), X->Operands[K]);
    }
    Warp.blockAtExchange(X->Blocked, Mask);
  }
  if (WarpBarrier)
    Warp.blockAtWarpBarrier(Mask);
  Warp.park(Index, Mask);
  B.SetInsertPoint(Go);
  Warp.setRunning(Group);
  Warp.unwait(AtHere);
  Value *Leaving = B.CreateOr(AtHere, Elsewhere);
  if (X) {
    // The lanes elsewhere that the group's masks name take part.
    Value *Named = M->isScalar()
                       ? M->V
                       : B.CreateOrReduce(B.CreateSelect(
                             maskToVector(Group), M->V, splat(B.getInt32(0))));
    Value *Taking = B.CreateAnd(Others, Named);
    Leaving = B.CreateOr(Leaving, Taking);
    Warp.unblockAtExchange(X->Blocked, B.CreateOr(Group, Taking));
    Warp.passExchange(Taking);
    PendingExchange = X;
    PendingOthers = Taking;
  }
  Warp.unblock(Leaving);
  if (WarpBarrier) {
    Warp.unblockAtWarpBarrier(Leaving);
    // The lanes waiting at other bar.warp.sync instructions go on there.
    Warp.passWarpBarrier(Elsewhere);
    B.CreateBr(Arrived);
    B.SetInsertPoint(Arrived);
  }
  return Error::success();
}

Error FunctionLowering::lowerCTABarrierPrologue(unsigned Index,
                                                const ptx::Instruction &I) {
  // New arrivals are counted and parked; lanes the barrier released go on. A
  // group holding both goes back to the dispatcher whole (the released lanes
  // come back alone), so the rest of the block never runs while some of its
  // lanes were just parked.
  Expected<int> Phase = lowerPhaseReturn(Index, I);
  if (!Phase)
    return Phase.takeError();
  // A converged site has no general path: the warp always returns there.
  if (*Phase >= 0 && PhaseSites[*Phase].Converged)
    return Error::success();
  Value *Mask = getMask();
  Value *Released = Warp.released();
  Value *Passing = B.CreateAnd(Mask, Released);
  Value *Arriving = B.CreateAnd(Mask, B.CreateNot(Passing));
  BasicBlock *Arrive = BasicBlock::Create(ML.Ctx, "bar.arrive", Fn);
  BasicBlock *Check = BasicBlock::Create(ML.Ctx, "bar.check", Fn);
  B.CreateCondBr(B.CreateICmpNE(Arriving, B.getInt32(0)), Arrive, Check);
  B.SetInsertPoint(Arrive);
  bool IsRed = I.hasModifier(Modifier::Red);
  unsigned NumOps = I.Operands.size();
  Value *Id, *Count;
  if (Error E = readBarrierOperands(*this, I, Arriving, Id, Count))
    return E;
  emitBarrierCheck(*this, I, Arriving, Id, Count);
  BarrierReduction Reduction = BarrierReduction::None;
  Value *Pred = B.getInt32(0);
  if (IsRed) {
    Reduction = I.hasModifier(Modifier::Popc)  ? BarrierReduction::Popc
                : I.hasModifier(Modifier::And) ? BarrierReduction::And
                                               : BarrierReduction::Or;
    Expected<LaneValue> P = read(I.Operands[NumOps - 1], ScalarType::Pred);
    if (!P)
      return P.takeError();
    Value *Bits = predicateBits(*P);
    Pred = B.CreateAnd(Bits, Arriving);
  }
  Value *Line = B.getInt32(getLine(I.Loc));
  Value *Parked = Warp.parkAtBarrier(Arriving);
  // Fast path: if nothing else in the warp can run, arrive and wait in one
  // runtime call, and go on in this block when the barrier releases these
  // lanes. In converged code nothing else can: no lane waits elsewhere, and
  // lanes released here (a split warp that met at this barrier) come back
  // all together, as a bar.sync of every thread releases all arrivals at
  // once; with a thread count or a guard, part of them may come back.
  bool OnlyArrivals = Converged && !IsRed && I.GuardPredicate.empty() &&
                      isa<ConstantInt>(Count) &&
                      cast<ConstantInt>(Count)->isZero();
  BasicBlock *WaitHere = BasicBlock::Create(ML.Ctx, "bar.sync", Fn);
  BasicBlock *Park =
      OnlyArrivals ? nullptr : BasicBlock::Create(ML.Ctx, "bar.park", Fn);
  BasicBlock *Through = BasicBlock::Create(ML.Ctx, "bar.through", Fn);
  if (OnlyArrivals) {
    B.CreateBr(WaitHere);
  } else {
    Value *Others = B.CreateAnd(
        Warp.waiting(), B.CreateNot(B.CreateOr(Parked, Warp.blocked())));
    B.CreateCondBr(B.CreateAnd(B.CreateICmpEQ(Others, B.getInt32(0)),
                               B.CreateICmpEQ(Passing, B.getInt32(0))),
                   WaitHere, Park);
  }
  B.SetInsertPoint(WaitHere);
  // The values as they are after the call.
  Value *ArrivingA = Arriving, *MaskA = Mask;
  Value *Got = callBarrierSync(
      {Id, Count, Arriving, B.getInt32(uint32_t(Reduction)), Pred, Line},
      {&ArrivingA, &MaskA});
  Warp.unpark(Got);
  Value *All = B.CreateICmpEQ(Got, ArrivingA);
  BasicBlock *Partial = BasicBlock::Create(ML.Ctx, "bar.partial", Fn);
  BasicBlock *AllFree = BasicBlock::Create(ML.Ctx, "bar.free", Fn);
  B.CreateCondBr(All, AllFree, Partial);
  // Only some lanes came free: let the dispatcher sort it out.
  B.SetInsertPoint(Partial);
  Warp.release(Got);
  Warp.park(Index, MaskA);
  B.SetInsertPoint(AllFree);
  Warp.setRunning(ArrivingA);
  B.CreateBr(Through);
  // Other lanes of the warp can run: count the arrival and run them.
  if (Park) {
    B.SetInsertPoint(Park);
    B.CreateCall(ML.getRuntimeFunction(RuntimeEntry::BarArrive),
                 {runtimeArg(), Id, Count, Arriving, B.getInt32(1),
                  B.getInt32(uint32_t(Reduction)), Pred, Line});
    Warp.park(Index, Mask);
  }
  B.SetInsertPoint(Through);
  BasicBlock *Done = BasicBlock::Create(ML.Ctx, "bar.done", Fn);
  B.CreateBr(Done);

  B.SetInsertPoint(Check);
  Warp.takeRelease(Passing);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  return Error::success();
}

Value *FunctionLowering::callBarrierSync(ArrayRef<Value *> Args,
                                         ArrayRef<Value **> Carried) {
  // Every barrier of the function calls the runtime from one place. A warp
  // suspended in the call resumes when another warp arrives, usually at
  // another barrier; were the calls apart, each of those returns would go
  // elsewhere than the return stack predicts (about 20 cycles each).
  Type *I32 = B.getInt32Ty();
  if (!BarrierCall) {
    BarrierCall = BasicBlock::Create(ML.Ctx, "bar.sync.call", Fn);
    BarrierResultVar = createTemporary(I32);
    IRBuilder<>::InsertPointGuard Guard(B);
    B.SetInsertPoint(BarrierCall);
    SmallVector<Value *, 8> CallArgs{nullptr};
    for (unsigned K = 0; K != Args.size(); ++K)
      CallArgs.push_back(B.CreatePHI(I32, 4));
    BarrierSite = B.CreatePHI(I32, 4);
    CallArgs[0] = runtimeArg();
    B.CreateStore(
        B.CreateCall(ML.getRuntimeFunction(RuntimeEntry::BarSync), CallArgs),
        BarrierResultVar);
    // An opaque copy of the site: were it a phi of constants, jump threading
    // would give each site its own copy of this block again.
    InlineAsm *Opaque = InlineAsm::get(FunctionType::get(I32, {I32}, false), "",
                                       "=r,0", /*hasSideEffects=*/false);
    BarrierResume = B.CreateSwitch(B.CreateCall(Opaque, {BarrierSite}), StopBB);
  }
  // The sites' values do not dominate their resume blocks: they go through
  // memory (mem2reg makes them phis of the shared block).
  while (BarrierCarried.size() < Carried.size())
    BarrierCarried.push_back(createTemporary(I32));
  for (unsigned K = 0; K != Carried.size(); ++K)
    B.CreateStore(*Carried[K], BarrierCarried[K]);
  BasicBlock *Here = B.GetInsertBlock();
  auto Phi = BarrierCall->begin();
  for (Value *A : Args)
    cast<PHINode>(&*Phi++)->addIncoming(A, Here);
  unsigned Site = BarrierResume->getNumCases();
  BarrierSite->addIncoming(B.getInt32(Site), Here);
  B.CreateBr(BarrierCall);
  BasicBlock *Resume = BasicBlock::Create(ML.Ctx, "bar.resume", Fn);
  BarrierResume->addCase(B.getInt32(Site), Resume);
  B.SetInsertPoint(Resume);
  for (unsigned K = 0; K != Carried.size(); ++K)
    *Carried[K] = B.CreateLoad(I32, BarrierCarried[K]);
  return B.CreateLoad(I32, BarrierResultVar);
}

/// One step of a reduction: the operation of a vector.reduce intrinsic
/// applied to two values.
static Value *combineReduction(IRBuilder<> &B, Intrinsic::ID ID,
                               ArrayRef<Value *> Pair) {
  Value *X = Pair[0], *Y = Pair[1];
  switch (ID) {
  case Intrinsic::vector_reduce_add:
    return B.CreateAdd(X, Y);
  case Intrinsic::vector_reduce_and:
    return B.CreateAnd(X, Y);
  case Intrinsic::vector_reduce_or:
    return B.CreateOr(X, Y);
  case Intrinsic::vector_reduce_xor:
    return B.CreateXor(X, Y);
  case Intrinsic::vector_reduce_smin:
    return B.CreateBinaryIntrinsic(Intrinsic::smin, X, Y);
  case Intrinsic::vector_reduce_umin:
    return B.CreateBinaryIntrinsic(Intrinsic::umin, X, Y);
  case Intrinsic::vector_reduce_smax:
    return B.CreateBinaryIntrinsic(Intrinsic::smax, X, Y);
  default:
    return B.CreateBinaryIntrinsic(Intrinsic::umax, X, Y);
  }
}

/// shfl: the source lane of each lane, and whether it was in range.
static void shuffleSource(IRBuilder<> &B, Modifier Mode, Value *Lane,
                          Value *BVal, Value *CVal, Value *&Src,
                          Value *&InRange) {
  auto C = [&](uint32_t V) { return ConstantInt::get(Lane->getType(), V); };
  Value *Bv = B.CreateAnd(BVal, C(31));
  Value *Clamp = B.CreateAnd(CVal, C(31));
  Value *Seg = B.CreateAnd(B.CreateLShr(CVal, C(8)), C(31));
  Value *MaxLane =
      B.CreateOr(B.CreateAnd(Lane, Seg), B.CreateAnd(Clamp, B.CreateNot(Seg)));
  Value *MinLane = B.CreateAnd(Lane, Seg);
  Value *J;
  switch (Mode) {
  case Modifier::Up:
    J = B.CreateSub(Lane, Bv);
    InRange = B.CreateICmpSGE(J, MaxLane);
    break;
  case Modifier::Down:
    J = B.CreateAdd(Lane, Bv);
    InRange = B.CreateICmpULE(J, MaxLane);
    break;
  case Modifier::Bfly:
    J = B.CreateXor(Lane, Bv);
    InRange = B.CreateICmpULE(J, MaxLane);
    break;
  default: // idx
    J = B.CreateOr(MinLane, B.CreateAnd(Bv, B.CreateNot(Seg)));
    InRange = B.CreateICmpULE(J, MaxLane);
    break;
  }
  Src = B.CreateAnd(B.CreateSelect(InRange, J, Lane), C(31));
}

/// The kind of a data-exchanging warp-synchronous instruction with a member
/// mask, "" for others: instances of one kind complete together (the ISA
/// asks for "the same qualifiers and the same membermask").
static std::string exchangeKey(const ptx::Instruction &I) {
  switch (I.Op) {
  case Opcode::Shfl:
  case Opcode::Vote:
  case Opcode::Match:
  case Opcode::Redux:
    break;
  default:
    return "";
  }
  // The legacy forms synchronize only the lanes that run them.
  if (memberMaskOperand(I) < 0)
    return "";
  std::string Key = std::to_string(unsigned(I.Op));
  for (Modifier M : I.Modifiers)
    Key += "." + std::to_string(unsigned(M));
  for (ScalarType T : I.Types)
    Key += ":" + std::to_string(unsigned(T));
  return Key;
}

void FunctionLowering::declareExchanges() {
  StringMap<std::pair<unsigned, const ptx::Instruction *>> Kinds;
  for (const ptx::Statement &S : F.Body)
    if (S.Kind == ptx::Statement::Inst) {
      std::string Key = exchangeKey(S.Instr);
      if (!Key.empty()) {
        auto &K = Kinds[Key];
        ++K.first;
        K.second = &S.Instr;
      }
    }
  Type *Vec = getVectorType(B.getInt64Ty());
  for (auto &K : Kinds) {
    if (K.getValue().first < 2)
      continue;
    SyncExchange &X = Exchanges[K.getKey()];
    X.Blocked = Warp.addExchange();
    for (unsigned Op = 0; Op != K.getValue().second->Operands.size(); ++Op)
      X.Operands.push_back(Op ? createTemporary(Vec) : nullptr);
    X.Results[0] = createTemporary(Vec);
    X.Results[1] = createTemporary(Vec);
  }
  if (!Exchanges.empty())
    Warp.declareExchangePass();
}

FunctionLowering::SyncExchange *
FunctionLowering::getExchange(const ptx::Instruction &I) {
  if (Exchanges.empty())
    return nullptr;
  auto It = Exchanges.find(exchangeKey(I));
  return It == Exchanges.end() ? nullptr : &It->second;
}

Expected<LaneValue> FunctionLowering::syncOperand(const ptx::Instruction &I,
                                                  unsigned K) {
  ScalarType T = syncOperandType(I, K);
  Expected<LaneValue> V = read(I.Operands[K], T);
  if (!V || !CurExchange)
    return V;
  Value *Left =
      B.CreateLoad(getVectorType(B.getInt64Ty()), CurExchange->Operands[K]);
  return LaneValue{B.CreateSelect(maskToVector(ExchangeOthers),
                                  coerce(Left, getLaneType(T), false),
                                  widen(V->V)),
                   Shape::varying()};
}

Error FunctionLowering::syncResult(const ptx::Instruction &I,
                                   const Operand &Dst, unsigned Slot,
                                   Value *V) {
  if (Error E = write(Dst, V, syncResultType(I, Slot)))
    return E;
  if (!CurExchange)
    return Error::success();
  AllocaInst *R = CurExchange->Results[Slot];
  Value *Old = B.CreateLoad(R->getAllocatedType(), R);
  B.CreateStore(B.CreateSelect(maskToVector(ExchangeOthers),
                               coerce(widen(V), B.getInt64Ty(), false), Old),
                R);
  return Error::success();
}

Error FunctionLowering::lowerWarpSync(const ptx::Instruction &I) {
  if (int MaskOp = memberMaskOperand(I);
      MaskOp >= 0 && (ML.Options.CheckKinds & (CheckSync | CheckRaces))) {
    Expected<LaneValue> M = read(I.Operands[MaskOp], ScalarType::B32);
    if (!M)
      return M.takeError();
    emitWarpSyncCheck(*this, I, InstMask, *M);
  }
  SyncExchange *X = PendingExchange;
  if (!X)
    return lowerWarpSyncOp(I);
  // Lanes blocked at another instance take part: their operands come from
  // the exchange, and their results go there.
  Value *Others = PendingOthers;
  PendingExchange = nullptr;
  BasicBlock *Alone = BasicBlock::Create(ML.Ctx, "xchg.alone", Fn);
  BasicBlock *With = BasicBlock::Create(ML.Ctx, "xchg.with", Fn);
  BasicBlock *Done = BasicBlock::Create(ML.Ctx, "xchg.done", Fn);
  B.CreateCondBr(B.CreateICmpEQ(Others, B.getInt32(0)), Alone, With);
  B.SetInsertPoint(Alone);
  if (Error E = lowerWarpSyncOp(I))
    return E;
  B.CreateBr(Done);
  B.SetInsertPoint(With);
  CurExchange = X;
  ExchangeOthers = Others;
  Error E = lowerWarpSyncOp(I);
  CurExchange = nullptr;
  if (E)
    return E;
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  return Error::success();
}

Value *FunctionLowering::reduceOverMemberMasks(
    Value *V, Value *PerLane, Value *Identity,
    function_ref<Value *(Value *, Value *)> Combine) {
  // Lane K's value goes to the lanes whose mask names K.
  Value *Acc = Identity;
  for (unsigned K = 0; K != Lanes; ++K) {
    Value *Named = B.CreateICmpNE(
        B.CreateAnd(PerLane, splat(B.getInt32(1u << K))), splat(B.getInt32(0)));
    Value *Contrib =
        B.CreateSelect(Named, splat(B.CreateExtractElement(V, K)), Identity);
    Acc = Combine(Acc, Contrib);
  }
  return Acc;
}

/// redux.sync.min/max.f32 (sm_100a): min/max.f32 over the member lanes
/// (-0 < +0; a NaN loses unless .NaN; magnitudes with .abs), NaN results
/// canonical. The identity fills non-member lanes: a NaN, which min/max
/// ignore, or with .NaN the infinity on the losing side.
Value *FunctionLowering::reduceFloats(const ptx::Instruction &I, Value *V,
                                      Value *On, Value *PerLane) {
  Type *F32 = B.getFloatTy();
  V = B.CreateBitCast(V, getVectorType(F32));
  if (I.hasModifier(Modifier::Abs))
    V = B.CreateUnaryIntrinsic(Intrinsic::fabs, V);
  bool Min = I.hasModifier(Modifier::Min);
  bool NaNProp = I.hasModifier(Modifier::NaNMode);
  Intrinsic::ID ID =
      Min ? (NaNProp ? Intrinsic::minimum : Intrinsic::minimumnum)
          : (NaNProp ? Intrinsic::maximum : Intrinsic::maximumnum);
  Value *Identity = splat(NaNProp ? ConstantFP::getInfinity(F32, !Min)
                                  : ConstantFP::getNaN(F32));
  Value *R;
  if (PerLane) {
    R = reduceOverMemberMasks(V, PerLane, Identity, [&](Value *X, Value *Y) {
      return B.CreateBinaryIntrinsic(ID, X, Y);
    });
  } else {
    // A rotating tree: after five steps every lane holds the result.
    R = B.CreateSelect(On, V, Identity);
    for (unsigned Step = Lanes / 2; Step; Step /= 2) {
      SmallVector<int, 32> Rotate;
      for (unsigned K = 0; K != Lanes; ++K)
        Rotate.push_back((K + Step) % Lanes);
      R = B.CreateBinaryIntrinsic(ID, R, B.CreateShuffleVector(R, Rotate));
    }
    R = B.CreateExtractElement(R, uint64_t(0));
  }
  return canonicalizeNaN(*this, R);
}

Error FunctionLowering::lowerWarpSyncOp(const ptx::Instruction &I) {
  Type *I32 = B.getInt32Ty();
  // The lanes each lane computes with: its member mask among the running
  // lanes. Active when all lanes name one mask; PerLane (a vector) when
  // they differ, as with tiled partitions.
  Value *Active = CurExchange ? B.CreateOr(InstMask, ExchangeOthers) : InstMask;
  Value *PerLane = nullptr;
  int MaskOp = memberMaskOperand(I);
  if (MaskOp >= 0 && I.Op != Opcode::Bar && I.Op != Opcode::Barrier) {
    Expected<LaneValue> M = syncOperand(I, MaskOp);
    if (!M)
      return M.takeError();
    if (M->isScalar())
      Active = B.CreateAnd(Active, M->V);
    else
      PerLane = B.CreateAnd(M->V, splat(Active));
  }
  switch (I.Op) {
  case Opcode::Activemask:
    return write(I.Operands[0], InstMask, ScalarType::B32); // not exchanged
  case Opcode::Bar:
  case Opcode::Barrier:
    return Error::success(); // bar.warp.sync: the prologue synchronized
  case Opcode::Elect: {
    // The leader is the lowest lane of the member mask, as on a GPU.
    Value *Members = PerLane ? PerLane : Active;
    Value *Leader = B.CreateIntrinsic(Intrinsic::cttz, {Members->getType()},
                                      {Members, B.getFalse()});
    Value *IsLeader =
        B.CreateICmpEQ(laneIndices(), PerLane ? Leader : splat(Leader));
    const Operand &Dst = I.Operands[0];
    bool Pair = Dst.Kind == Operand::PredPair;
    if (Error E = write(Pair ? Dst.Elements[0] : Dst, Leader, ScalarType::U32))
      return E;
    return Pair ? write(Dst.Elements[1], IsLeader, ScalarType::Pred)
                : Error::success();
  }
  case Opcode::Vote: {
    Expected<LaneValue> P = syncOperand(I, 1);
    if (!P)
      return P.takeError();
    Value *Part = PerLane ? PerLane : Active;
    Value *Bits = predicateBits(*P);
    Bits = B.CreateAnd(PerLane ? splat(Bits) : Bits, Part);
    Value *Zero = PerLane ? splat(B.getInt32(0)) : B.getInt32(0);
    if (I.hasModifier(Modifier::Ballot))
      return syncResult(I, I.Operands[0], 0, Bits);
    Value *R;
    if (I.hasModifier(Modifier::All))
      R = B.CreateICmpEQ(Bits, Part);
    else if (I.hasModifier(Modifier::Any))
      R = B.CreateICmpNE(Bits, Zero);
    else // uni
      R = B.CreateOr(B.CreateICmpEQ(Bits, Zero), B.CreateICmpEQ(Bits, Part));
    return syncResult(I, I.Operands[0], 0, R);
  }
  case Opcode::Redux: {
    ScalarType T = I.getType();
    Expected<LaneValue> A = syncOperand(I, 1);
    if (!A)
      return A.takeError();
    Value *V = widen(A->V);
    Value *On = maskToVector(Active);
    if (T == ScalarType::F32)
      return syncResult(I, I.Operands[0], 0, reduceFloats(I, V, On, PerLane));
    bool S = ptx::isSigned(T);
    Intrinsic::ID ID;
    uint32_t Identity;
    if (I.hasModifier(Modifier::Add)) {
      ID = Intrinsic::vector_reduce_add, Identity = 0;
    } else if (I.hasModifier(Modifier::Min)) {
      ID = S ? Intrinsic::vector_reduce_smin : Intrinsic::vector_reduce_umin;
      Identity = S ? 0x7fffffff : ~0u;
    } else if (I.hasModifier(Modifier::Max)) {
      ID = S ? Intrinsic::vector_reduce_smax : Intrinsic::vector_reduce_umax;
      Identity = S ? 0x80000000 : 0;
    } else if (I.hasModifier(Modifier::And)) {
      ID = Intrinsic::vector_reduce_and, Identity = ~0u;
    } else if (I.hasModifier(Modifier::Or)) {
      ID = Intrinsic::vector_reduce_or, Identity = 0;
    } else {
      ID = Intrinsic::vector_reduce_xor, Identity = 0;
    }
    if (PerLane)
      return syncResult(
          I, I.Operands[0], 0,
          reduceOverMemberMasks(V, PerLane, splat(B.getInt32(Identity)),
                                [&](Value *X, Value *Y) {
                                  Value *Pair[] = {X, Y};
                                  return combineReduction(B, ID, Pair);
                                }));
    Value *In = B.CreateSelect(On, V, splat(B.getInt32(Identity)));
    Value *R = B.CreateIntrinsic(ID, {In->getType()}, {In});
    return syncResult(I, I.Operands[0], 0, R);
  }
  case Opcode::Match: {
    Expected<LaneValue> A = syncOperand(I, 1);
    if (!A)
      return A.takeError();
    const Operand &Dst = I.Operands[0];
    const Operand &D = Dst.Kind == Operand::PredPair ? Dst.Elements[0] : Dst;
    if (I.hasModifier(Modifier::All) && !PerLane) {
      Value *First =
          B.CreateIntrinsic(Intrinsic::cttz, {I32}, {Active, B.getFalse()});
      Value *V = widen(A->V);
      Value *Ref =
          B.CreateExtractElement(V, B.CreateAnd(First, B.getInt32(31)));
      Value *Same = B.CreateAnd(
          B.CreateBitCast(B.CreateICmpEQ(V, splat(Ref)), I32), Active);
      Value *AllSame = B.CreateICmpEQ(Same, Active);
      if (Error E = syncResult(I, D, 0,
                               B.CreateSelect(AllSame, Active, B.getInt32(0))))
        return E;
      if (Dst.Kind == Operand::PredPair)
        return syncResult(I, Dst.Elements[1], 1, AllSame);
      return Error::success();
    }
    // match.any: for each lane, the lanes of its mask holding the same
    // value. match.all with masks that differ between lanes: whether that
    // set is the lane's whole mask.
    Value *Part = PerLane ? PerLane : splat(Active);
    Value *Result;
    if (A->isScalar()) {
      Result = Part;
    } else {
      Value *V = A->V;
      Result = splat(B.getInt32(0));
      for (unsigned K = 0; K != Lanes; ++K) {
        Value *Eq = B.CreateICmpEQ(V, splat(B.CreateExtractElement(V, K)));
        Value *Bit = B.CreateSelect(Eq, splat(B.getInt32(1u << K)),
                                    splat(B.getInt32(0)));
        Result = B.CreateOr(Result, Bit);
      }
      Result = B.CreateAnd(Result, Part);
    }
    if (!I.hasModifier(Modifier::All))
      return syncResult(I, D, 0, Result);
    Value *AllSame = B.CreateICmpEQ(Result, Part);
    if (Error E = syncResult(
            I, D, 0, B.CreateSelect(AllSame, Part, splat(B.getInt32(0)))))
      return E;
    if (Dst.Kind == Operand::PredPair)
      return syncResult(I, Dst.Elements[1], 1, AllSame);
    return Error::success();
  }
  case Opcode::Shfl: {
    Modifier Mode = Modifier::Idx;
    for (Modifier M : I.Modifiers)
      if (M == Modifier::Up || M == Modifier::Down || M == Modifier::Bfly ||
          M == Modifier::Idx)
        Mode = M;
    const Operand &Dst = I.Operands[0];
    const Operand &D = Dst.Kind == Operand::PredPair ? Dst.Elements[0] : Dst;
    Expected<LaneValue> A = syncOperand(I, 1);
    if (!A)
      return A.takeError();
    Expected<LaneValue> Bv = syncOperand(I, 2);
    if (!Bv)
      return Bv.takeError();
    Expected<LaneValue> Cv = syncOperand(I, 3);
    if (!Cv)
      return Cv.takeError();
    Value *Src, *InRange;
    Value *Result;
    if (Bv->isScalar() && Cv->isScalar() && isa<ConstantInt>(Bv->V) &&
        isa<ConstantInt>(Cv->V)) {
      // Constant lane pattern: a vector shuffle.
      uint32_t BC = cast<ConstantInt>(Bv->V)->getZExtValue();
      uint32_t CC = cast<ConstantInt>(Cv->V)->getZExtValue();
      SmallVector<int, Lanes> Indices;
      SmallVector<Constant *, Lanes> Ok;
      for (unsigned L = 0; L != Lanes; ++L) {
        uint32_t Bvl = BC & 31, Clamp = CC & 31, Seg = (CC >> 8) & 31;
        uint32_t Max = (L & Seg) | (Clamp & ~Seg), Min = L & Seg;
        int32_t J;
        bool In;
        switch (Mode) {
        case Modifier::Up:
          J = int32_t(L) - int32_t(Bvl);
          In = J >= int32_t(Max);
          break;
        case Modifier::Down:
          J = L + Bvl;
          In = uint32_t(J) <= Max;
          break;
        case Modifier::Bfly:
          J = L ^ Bvl;
          In = uint32_t(J) <= Max;
          break;
        default:
          J = Min | (Bvl & ~Seg);
          In = uint32_t(J) <= Max;
          break;
        }
        Indices.push_back(In ? (J & 31) : L);
        Ok.push_back(B.getInt1(In));
      }
      Value *V = widen(A->V);
      Result = A->isScalar() ? A->V : B.CreateShuffleVector(V, Indices);
      InRange = ConstantVector::get(Ok);
    } else {
      Value *Lane = laneIndices();
      shuffleSource(B, Mode, Lane, widen(Bv->V), widen(Cv->V), Src, InRange);
      if (A->isScalar()) {
        Result = A->V;
      } else {
        // Any permutation: through memory, as one gather.
        AllocaInst *Tmp = createTemporary(getVectorType(I32));
        B.CreateStore(A->V, Tmp);
        Value *Ptrs = B.CreateGEP(I32, Tmp, Src);
        Result = B.CreateMaskedGather(getVectorType(I32), Ptrs, Align(4),
                                      maskToVector(B.getInt32(~0u)));
      }
    }
    if (Error E = syncResult(I, D, 0, Result))
      return E;
    if (Dst.Kind == Operand::PredPair)
      return syncResult(I, Dst.Elements[1], 1, InRange);
    return Error::success();
  }
  default:
    return error(I, "unexpected warp-synchronous instruction");
  }
}

Error FunctionLowering::lowerBarrierOp(const ptx::Instruction &I) {
  if (I.hasModifier(Modifier::Warp))
    return lowerWarpSync(I);
  if (I.hasModifier(Modifier::Arrive)) {
    // bar.arrive a, b: counts the lanes, does not wait.
    Value *Id, *Count;
    if (Error E = readBarrierOperands(*this, I, InstMask, Id, Count))
      return E;
    BasicBlock *Do = BasicBlock::Create(ML.Ctx, "arrive", Fn);
    BasicBlock *Done = BasicBlock::Create(ML.Ctx, "arrived", Fn);
    B.CreateCondBr(B.CreateICmpNE(InstMask, B.getInt32(0)), Do, Done);
    B.SetInsertPoint(Do);
    emitBarrierCheck(*this, I, InstMask, Id, Count);
    B.CreateCall(ML.getRuntimeFunction(RuntimeEntry::BarArrive),
                 {runtimeArg(), Id, Count, InstMask, B.getInt32(0),
                  B.getInt32(0), B.getInt32(0), B.getInt32(getLine(I.Loc))});
    B.CreateBr(Done);
    B.SetInsertPoint(Done);
    return Error::success();
  }
  if (!I.hasModifier(Modifier::Red))
    return Error::success(); // the prologue did the waiting
  Value *Id, *Count;
  if (Error E = readBarrierOperands(*this, I, getMask(), Id, Count))
    return E;
  Value *R = B.CreateCall(ML.getRuntimeFunction(RuntimeEntry::BarResult),
                          {runtimeArg(), Id});
  if (I.getType() == ScalarType::Pred)
    return write(I.Operands[0], B.CreateICmpNE(R, B.getInt32(0)),
                 ScalarType::Pred);
  return write(I.Operands[0], R, ScalarType::U32);
}
