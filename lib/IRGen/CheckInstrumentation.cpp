//===- CheckInstrumentation.cpp - Calls of the checking mode --------------===//
//
// Each check is one runtime call with the lanes and their addresses or
// masks in stack slots; the runtime does the bookkeeping (shadow memory,
// allocations, reports). A checked kernel is slower, an unchecked one is
// unchanged.
//
//===----------------------------------------------------------------------===//

#include "CheckInstrumentation.h"
#include "ptxjit/ABI/WarpABI.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/MDBuilder.h"
#include <cstddef>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::StateSpace;

static bool checking(FunctionLowering &FL, unsigned Kinds) {
  return FL.ML.Options.CheckKinds & Kinds;
}

/// The space a checked access is in; nullopt for those not checked
/// (.param, .const, .shared::cluster).
static std::optional<CheckSpace> checkedSpace(StateSpace S) {
  switch (S) {
  case StateSpace::Global:
    return CheckSpace::Global;
  case StateSpace::Shared:
  case StateSpace::SharedCTA:
    return CheckSpace::Shared;
  case StateSpace::Local:
    return CheckSpace::Local;
  case StateSpace::Param:
  case StateSpace::Const:
  case StateSpace::SharedCluster:
  case StateSpace::Tex:
    return std::nullopt;
  default:
    return CheckSpace::Generic;
  }
}

/// V (a scalar or a <32 x T>) in a stack slot of 32 elements.
static Value *laneSlot(FunctionLowering &FL, Value *V) {
  Value *Vec = FL.widen(V);
  AllocaInst *A = FL.createTemporary(Vec->getType());
  FL.B.CreateStore(Vec, A);
  return A;
}

static Value *runtimeArg(FunctionLowering &FL) {
  return FL.getContextField(WCF_Runtime, FL.B.getPtrTy());
}

static Value *warpArg(FunctionLowering &FL) {
  return FL.getContextField(WCF_WarpIndex, FL.B.getInt32Ty());
}

/// Whether every lane of Mask reads an aligned word of shared memory that
/// is read-saturated in the current epoch (CheckFastPath): then the
/// runtime's check could neither report nor change anything. Addr is the
/// lanes' i64 host addresses, Size at most 4.
static Value *emitAllReadSaturated(FunctionLowering &FL, Value *Fast,
                                   Value *Addr, unsigned Size, Value *Mask) {
  IRBuilder<> &B = FL.B;
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  auto Field = [&](size_t Offset, Type *Ty) {
    return B.CreateLoad(
        Ty, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Fast, Offset));
  };
  Value *Words = Field(offsetof(CheckFastPath, ReadSaturated), B.getPtrTy());
  Value *Completions =
      Field(offsetof(CheckFastPath, Completions), B.getPtrTy());
  Value *Epoch =
      B.CreateTrunc(B.CreateAdd(B.CreateLoad(I64, Completions),
                                Field(offsetof(CheckFastPath, EpochBase), I64)),
                    I32);
  Value *NumWords =
      B.CreateZExt(Field(offsetof(CheckFastPath, NumWords), I32), I64);
  Value *Shared =
      B.CreatePtrToInt(FL.getContextField(WCF_SharedBase, B.getPtrTy()), I64);
  auto Ok = [&](Value *A) {
    // Aligned and in a word ReadSaturated has: the word holds the access.
    Value *Off = B.CreateSub(A, Shared);
    Value *Word = B.CreateLShr(Off, 2);
    Value *InWords = B.CreateICmpULT(Word, NumWords);
    if (Size > 1)
      InWords = B.CreateAnd(InWords,
                            B.CreateICmpEQ(B.CreateAnd(Off, Size - 1),
                                           ConstantInt::get(A->getType(), 0)));
    return std::make_pair(InWords, Word);
  };
  if (!Addr->getType()->isVectorTy()) {
    auto [In, Word] = Ok(Addr);
    Value *Idx = B.CreateSelect(In, Word, B.getInt64(0));
    Value *E = B.CreateLoad(I32, B.CreateInBoundsGEP(I32, Words, Idx));
    return B.CreateAnd(In, B.CreateICmpEQ(E, Epoch));
  }
  NumWords = FL.splat(NumWords);
  Shared = FL.splat(Shared);
  auto [In, Word] = Ok(Addr);
  auto *VecTy = cast<FixedVectorType>(Addr->getType());
  Value *Idx = B.CreateSelect(In, Word, ConstantAggregateZero::get(VecTy));
  Value *Ptrs = B.CreateInBoundsGEP(I32, Words, Idx);
  Value *Lanes = B.CreateBitCast(
      Mask, FixedVectorType::get(B.getInt1Ty(), VecTy->getNumElements()));
  Value *E =
      B.CreateMaskedGather(FixedVectorType::get(I32, VecTy->getNumElements()),
                           Ptrs, Align(4), B.CreateAnd(Lanes, In));
  Value *Saturated = B.CreateAnd(In, B.CreateICmpEQ(E, FL.splat(Epoch)));
  Value *Bits = B.CreateBitCast(Saturated, Mask->getType());
  return B.CreateICmpEQ(B.CreateAnd(Bits, Mask), Mask);
}

/// Whether every lane of Mask accesses, aligned, one of the two
/// allocations global or generic accesses were last found in
/// (CheckFastPath::RegionBase): then the runtime's check would let them all
/// pass and record nothing.
static Value *emitAllInRegion(FunctionLowering &FL, Value *Fast, Value *Addr,
                              unsigned Size, Value *Mask) {
  IRBuilder<> &B = FL.B;
  Type *I64 = B.getInt64Ty();
  auto Field = [&](size_t Offset, Type *Ty) {
    return B.CreateLoad(
        Ty, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Fast, Offset));
  };
  Value *Lo = Addr, *Hi = Addr, *Or = Addr;
  if (Addr->getType()->isVectorTy()) {
    auto *VecTy = cast<FixedVectorType>(Addr->getType());
    Value *Lanes = B.CreateBitCast(
        Mask, FixedVectorType::get(B.getInt1Ty(), VecTy->getNumElements()));
    Value *Zero = ConstantAggregateZero::get(VecTy);
    Lo = B.CreateUnaryIntrinsic(
        Intrinsic::vector_reduce_umin,
        B.CreateSelect(Lanes, Addr, Constant::getAllOnesValue(VecTy)));
    Hi = B.CreateUnaryIntrinsic(Intrinsic::vector_reduce_umax,
                                B.CreateSelect(Lanes, Addr, Zero));
    Or = B.CreateUnaryIntrinsic(Intrinsic::vector_reduce_or,
                                B.CreateSelect(Lanes, Addr, Zero));
  }
  uint64_t Align = Size & -Size;
  Value *Aligned = B.CreateICmpEQ(B.CreateAnd(Or, Align - 1), B.getInt64(0));
  Value *Frees =
      B.CreateLoad(I64, Field(offsetof(CheckFastPath, Frees), B.getPtrTy()));
  Value *Inside = B.getFalse();
  for (unsigned I = 0; I != 2; ++I) {
    Value *Base = Field(offsetof(CheckFastPath, RegionBase) + 8 * I, I64);
    Value *RegionSize = Field(offsetof(CheckFastPath, RegionSize) + 8 * I, I64);
    Value *Ok = B.CreateAnd(
        B.CreateICmpEQ(
            Frees, Field(offsetof(CheckFastPath, RegionFrees) + 8 * I, I64)),
        B.CreateICmpUGE(RegionSize, B.getInt64(Size)));
    // Every lane's offset is at most Last: the access ends inside.
    Value *Last = B.CreateSub(RegionSize, B.getInt64(Size));
    Ok = B.CreateAnd(Ok, B.CreateICmpULE(B.CreateSub(Lo, Base), Last));
    Ok = B.CreateAnd(Ok, B.CreateICmpULE(B.CreateSub(Hi, Base), Last));
    Inside = B.CreateOr(Inside, Ok);
  }
  return B.CreateAnd(Aligned, Inside);
}

/// Whether every lane of Mask accesses, aligned, its own copy of this
/// function's .local frame (Frames: each lane's copy): then memcheck, the
/// only checker of .local, would let them all pass.
static Value *emitAllInOwnFrame(FunctionLowering &FL, Value *Frames,
                                Value *Addr, unsigned Size, Value *Mask) {
  IRBuilder<> &B = FL.B;
  uint64_t FrameSize = FL.getLocalFrameSize();
  Value *Off = B.CreateSub(FL.widen(Addr), Frames);
  Value *Inside = B.CreateICmpULE(Off, FL.splat(B.getInt64(FrameSize - Size)));
  uint64_t Align = Size & -Size;
  Value *Aligned =
      B.CreateICmpEQ(B.CreateAnd(Off, FL.splat(B.getInt64(Align - 1))),
                     FL.splat(B.getInt64(0)));
  Value *Bits = B.CreateBitCast(B.CreateAnd(Inside, Aligned), Mask->getType());
  return B.CreateICmpEQ(B.CreateAnd(Bits, Mask), Mask);
}

Value *irgen::emitAccessCheck(FunctionLowering &FL, const ptx::Instruction &I,
                              const LaneValue &Addr, unsigned Size,
                              CheckAccessKind Kind, Value *Mask) {
  return emitAccessCheck(FL, I, I.Space, Addr, Size, Kind, Mask);
}

Value *irgen::emitAccessCheck(FunctionLowering &FL, const ptx::Instruction &I,
                              StateSpace PtxSpace, const LaneValue &Addr,
                              unsigned Size, CheckAccessKind Kind,
                              Value *Mask) {
  if (!checking(FL, CheckMemory | CheckRaces | CheckInit))
    return Mask;
  std::optional<CheckSpace> Space = checkedSpace(PtxSpace);
  // memcheck is the only checker of .local.
  if (!Space || (*Space == CheckSpace::Local && !checking(FL, CheckMemory)))
    return Mask;
  IRBuilder<> &B = FL.B;
  Value *A = FL.coerce(Addr.V, B.getInt64Ty(), false);
  auto Call = [&] {
    return B.CreateCall(FL.ML.getRuntimeFunction(RuntimeEntry::CheckAccess),
                        {runtimeArg(FL), warpArg(FL),
                         B.getInt32(encodeCheckAccess(*Space, Kind, Size)),
                         Mask, laneSlot(FL, A), B.getInt32(FL.getLine(I.Loc))});
  };
  // Two common cases skip the call: a read of a shared tile whose lanes'
  // words are all read-saturated (racecheck and initcheck keep that
  // state), and a global or generic access of every lane inside the
  // allocation the last such access was in.
  bool SharedRead = *Space == CheckSpace::Shared &&
                    Kind == CheckAccessKind::Read && Size <= 4 &&
                    checking(FL, CheckRaces | CheckInit);
  bool InRegion = *Space == CheckSpace::Global || *Space == CheckSpace::Generic;
  // A .local access of each lane's own copy of this function's frame.
  Value *Frames = *Space == CheckSpace::Local && FL.getLocalFrameSize() >= Size
                      ? FL.getLocalFrames()
                      : nullptr;
  if ((!SharedRead && !InRegion && !Frames) ||
      Mask->getType() != B.getInt32Ty() ||
      (A->getType()->isVectorTy() &&
       cast<FixedVectorType>(A->getType())->getNumElements() != 32))
    return Call();
  Function *Fn = B.GetInsertBlock()->getParent();
  LLVMContext &C = B.getContext();
  MDBuilder MDB(C);
  BasicBlock *Test = BasicBlock::Create(C, "check.fast", Fn);
  BasicBlock *Slow = BasicBlock::Create(C, "check.call", Fn);
  BasicBlock *Done = BasicBlock::Create(C, "check.done", Fn);
  Value *Fast = nullptr;
  if (Frames) {
    B.CreateBr(Test);
  } else {
    Fast = FL.getContextField(WCF_CheckFast, B.getPtrTy());
    B.CreateCondBr(B.CreateIsNull(Fast), Slow, Test,
                   MDB.createUnlikelyBranchWeights());
  }
  B.SetInsertPoint(Test);
  B.CreateCondBr(Frames       ? emitAllInOwnFrame(FL, Frames, A, Size, Mask)
                 : SharedRead ? emitAllReadSaturated(FL, Fast, A, Size, Mask)
                              : emitAllInRegion(FL, Fast, A, Size, Mask),
                 Done, Slow);
  BasicBlock *TestEnd = B.GetInsertBlock();
  B.SetInsertPoint(Slow);
  Value *Allowed = Call();
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  PHINode *Result = B.CreatePHI(B.getInt32Ty(), 2);
  Result->addIncoming(Mask, TestEnd);
  Result->addIncoming(Allowed, Slow);
  return Result;
}

void irgen::emitLocalFrameCheck(FunctionLowering &FL, bool Enter) {
  Value *Frames = FL.getLocalFrames();
  if (!checking(FL, CheckMemory) || !Frames)
    return;
  IRBuilder<> &B = FL.B;
  B.CreateCall(FL.ML.getRuntimeFunction(RuntimeEntry::CheckLocalFrame),
               {runtimeArg(FL), warpArg(FL),
                B.CreateExtractElement(Frames, uint64_t(0)),
                B.getInt64(FL.getLocalFrameSize()), B.getInt32(Enter)});
}

void irgen::emitWarpSyncCheck(FunctionLowering &FL, const ptx::Instruction &I,
                              Value *Lanes, const LaneValue &MemberMask) {
  // racecheck: the lanes' accesses on either side are ordered.
  if (!checking(FL, CheckSync | CheckRaces))
    return;
  IRBuilder<> &B = FL.B;
  B.CreateCall(FL.ML.getRuntimeFunction(RuntimeEntry::CheckWarpSync),
               {runtimeArg(FL), warpArg(FL), Lanes, laneSlot(FL, MemberMask.V),
                B.getInt32(FL.getLine(I.Loc))});
}

void irgen::emitBarrierCheck(FunctionLowering &FL, const ptx::Instruction &I,
                             Value *Lanes, Value *Barrier, Value *Count) {
  if (!checking(FL, CheckSync))
    return;
  IRBuilder<> &B = FL.B;
  bool Aligned =
      I.Op == ptx::Opcode::Bar || I.hasModifier(ptx::Modifier::Aligned);
  B.CreateCall(FL.ML.getRuntimeFunction(RuntimeEntry::CheckBarrier),
               {runtimeArg(FL), warpArg(FL),
                B.getInt32(Aligned ? CheckBarrierAligned : 0), Lanes, Barrier,
                Count, B.getInt32(FL.getLine(I.Loc))});
}
