//===- Async.cpp - Asynchronous copies, mbarrier objects, clusters --------===//
//
// cp.async copies when it is issued: the copy is then complete before any
// wait of the thread, one of the schedules the PTX ISA allows, and
// cp.async.commit_group and wait_group have nothing left to do. The bulk
// copies likewise copy at once and signal their mbarrier object, and so do
// the copies through tensor maps (cp.async.bulk.tensor), whose maps the
// runtime reads and tensormap.replace and cp_fenceproxy write
// (TensorMapABI.h).
//
// The mbarrier operations and the cluster barrier are runtime calls for the
// whole warp (AsyncABI.h). mbarrier.test_wait, try_wait and
// barrier.cluster.wait are sync points: lanes whose phase is incomplete are
// parked as at a CTA barrier, and the runtime releases them when the phase
// completes (or, for the mbarrier waits, when their wait times out).
//
// Cluster addresses: CTA rank R's shared memory lies at ClusterSharedBase +
// R * ClusterSharedStride, mapped a second time right above all of them, and
// a .shared::cluster address is an offset from the CTA's own SharedBase:
// windows below its own are reached through the second mapping, so the
// offsets are never negative (GuardedMemory.h).
//
//===----------------------------------------------------------------------===//

#include "CheckInstrumentation.h"
#include "InstructionVisitor.h"
#include "Lowering.h"
#include "ptxjit/ABI/AsyncABI.h"
#include "ptxjit/ABI/TensorMapABI.h"
#include "ptxjit/ABI/WarpABI.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Modifier;
using ptx::Opcode;
using ptx::Operand;
using ptx::ScalarType;
using ptx::StateSpace;

/// Stack storage for the 32 lanes of V (a scalar fills every lane), as a
/// runtime entry point's array argument.
static Value *laneArray(FunctionLowering &FL, Value *V) {
  Value *Vec = FL.widen(V);
  AllocaInst *A = FL.createTemporary(Vec->getType());
  FL.B.CreateStore(Vec, A);
  return A;
}

/// Emits Body in a block that runs only if some lane of Mask is active.
static void ifAnyLane(FunctionLowering &FL, Value *Mask,
                      function_ref<void()> Body) {
  IRBuilder<> &B = FL.B;
  Function *Fn = B.GetInsertBlock()->getParent();
  BasicBlock *Do = BasicBlock::Create(B.getContext(), "async.do", Fn);
  BasicBlock *Done = BasicBlock::Create(B.getContext(), "async.done", Fn);
  B.CreateCondBr(B.CreateICmpNE(Mask, B.getInt32(0)), Do, Done);
  B.SetInsertPoint(Do);
  Body();
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
}

//===----------------------------------------------------------------------===//
// cp.async and the bulk copies
//===----------------------------------------------------------------------===//

/// cp.async [dst], [src], cp-size{, src-size | ignore-src}: lanes copying
/// all cp-size bytes load and store whole (vectorized where the addresses
/// are consecutive), lanes copying none store zeros, and the rare partial
/// copies go lane by lane.
static Error lowerCpAsync(FunctionLowering &FL, const ptx::Instruction &I) {
  IRBuilder<> &B = FL.B;
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  StateSpace DstSpace =
      I.Space == StateSpace::None ? StateSpace::Shared : I.Space;
  Expected<LaneValue> Dst = FL.getAddress(I.Operands[0], DstSpace);
  if (!Dst)
    return Dst.takeError();
  Expected<LaneValue> Src = FL.getAddress(I.Operands[1], I.Space2);
  if (!Src)
    return Src.takeError();
  uint64_t CpSize = I.Operands[2].Value;
  if (CpSize != 4 && CpSize != 8 && CpSize != 16)
    return FL.error(I, "cp.async copies 4, 8 or 16 bytes");
  Value *Mask = FL.getInstMask();
  Value *Full = Mask, *Zero = B.getInt32(0), *Partial = Zero;
  Value *SrcSize = nullptr;
  // A cache policy (.L2::cache_hint) comes last and changes nothing.
  unsigned WithSize = I.hasModifier(Modifier::L2CacheHint) ? 5 : 4;
  if (I.Operands.size() >= WithSize) {
    // ignore-src is a predicate register; src-size a .u32 value.
    const Operand &Extra = I.Operands[3];
    if (FL.isPredicateRegister(Extra)) {
      Expected<LaneValue> P = FL.read(Extra, ScalarType::Pred);
      if (!P)
        return P.takeError();
      Zero = B.CreateAnd(Mask, FL.predicateBits(*P));
      Full = B.CreateAnd(Mask, B.CreateNot(Zero));
    } else {
      Expected<LaneValue> N = FL.read(Extra, ScalarType::U32);
      if (!N)
        return N.takeError();
      SrcSize = FL.widen(N->V);
      auto Bits = [&](Value *Cond) {
        return B.CreateAnd(Mask, B.CreateBitCast(Cond, I32));
      };
      Full = Bits(B.CreateICmpUGE(SrcSize, FL.splat(B.getInt32(CpSize))));
      Zero = Bits(B.CreateICmpEQ(SrcSize, FL.splat(B.getInt32(0))));
      // src-size between 0 and cp-size: copy that much, zero the rest.
      Partial = B.CreateAnd(Mask, B.CreateNot(B.CreateOr(Full, Zero)));
    }
  }
  // The checking mode sees a read of the source (whole copies; partial
  // ones read at least their first byte) and a write of the destination,
  // when the copy is issued; a lane with either invalid copies nothing.
  Value *Reads = emitAccessCheck(FL, I, I.Space2, *Src, CpSize,
                                 CheckAccessKind::Read, Full);
  Value *PartialReads = SrcSize
                            ? emitAccessCheck(FL, I, I.Space2, *Src, 1,
                                              CheckAccessKind::Read, Partial)
                            : Partial;
  Value *Writes = emitAccessCheck(FL, I, DstSpace, *Dst, CpSize,
                                  CheckAccessKind::Write, Mask);
  if (Reads != Full || PartialReads != Partial || Writes != Mask) {
    Full = B.CreateAnd(Reads, Writes);
    Partial = B.CreateAnd(PartialReads, Writes);
    Zero = B.CreateAnd(Zero, Writes);
  }
  if (SrcSize) {
    ifAnyLane(FL, Partial, [&] {
      FL.forEachActiveLane(Partial, [&](Value *Lane) {
        auto At = [&](const LaneValue &A) {
          Value *X = A.isScalar() ? A.V : B.CreateExtractElement(A.V, Lane);
          return B.CreateIntToPtr(X, B.getPtrTy());
        };
        Value *D = At(*Dst), *S = At(*Src);
        Value *Len = B.CreateZExt(B.CreateExtractElement(SrcSize, Lane), I64);
        B.CreateMemCpy(D, MaybeAlign(1), S, MaybeAlign(1), Len);
        B.CreateMemSet(B.CreateGEP(B.getInt8Ty(), D, Len), B.getInt8(0),
                       B.CreateSub(B.getInt64(CpSize), Len), MaybeAlign(1));
      });
    });
  }
  // Whole copies as one integer of cp-size bytes per lane (lanes copying
  // consecutive blocks make one vector access); lanes in Zero store zeros.
  Type *Elt = B.getIntNTy(CpSize * 8);
  Value *Store = B.CreateOr(Full, Zero);
  ifAnyLane(FL, Store, [&] {
    Value *V = FL.widen(FL.loadLanes(*Src, Elt, Full));
    V = B.CreateSelect(FL.maskToVector(Full), V,
                       Constant::getNullValue(V->getType()));
    FL.storeLanes(*Dst, V, Store);
  });
  return Error::success();
}

static BulkElement bulkElement(ScalarType T) {
  switch (T) {
  case ScalarType::U32:
    return BulkElement::U32;
  case ScalarType::S32:
    return BulkElement::S32;
  case ScalarType::B64:
    return BulkElement::B64;
  case ScalarType::U64:
    return BulkElement::U64;
  case ScalarType::S64:
    return BulkElement::S64;
  case ScalarType::F32:
    return BulkElement::F32;
  case ScalarType::F64:
    return BulkElement::F64;
  case ScalarType::F16:
    return BulkElement::F16;
  case ScalarType::BF16:
    return BulkElement::BF16;
  default:
    return BulkElement::B32;
  }
}

static BulkReduction bulkReduction(const ptx::Instruction &I) {
  static const std::pair<Modifier, BulkReduction> Ops[] = {
      {Modifier::Add, BulkReduction::Add}, {Modifier::Min, BulkReduction::Min},
      {Modifier::Max, BulkReduction::Max}, {Modifier::Inc, BulkReduction::Inc},
      {Modifier::Dec, BulkReduction::Dec}, {Modifier::And, BulkReduction::And},
      {Modifier::Or, BulkReduction::Or},   {Modifier::Xor, BulkReduction::Xor}};
  for (auto [M, R] : Ops)
    if (I.hasModifier(M))
      return R;
  return BulkReduction::None;
}

/// A copy into shared memory's mbarrier (operand 3) and, with
/// .multicast::cluster, its CTA mask (operand 4; 0 when absent, which the
/// runtime reads as "no multicast").
static Error readCompletion(FunctionLowering &FL, const ptx::Instruction &I,
                            Value *&MBar, Value *&CTAMask) {
  Expected<LaneValue> M =
      FL.getAddress(I.Operands[3], StateSpace::SharedCluster);
  if (!M)
    return M.takeError();
  MBar = M->V;
  if (I.hasModifier(Modifier::MulticastCluster) && I.Operands.size() >= 5) {
    Expected<LaneValue> C = FL.read(I.Operands[4], ScalarType::U32);
    if (!C)
      return C.takeError();
    CTAMask = C->V;
  }
  return Error::success();
}

/// The lanes that copy: all running ones, less, for a multicast, those
/// whose CTA mask is zero (a copy to nowhere).
static Value *copyingLanes(FunctionLowering &FL, const ptx::Instruction &I,
                           Value *CTAMask) {
  IRBuilder<> &B = FL.B;
  Value *Mask = FL.getInstMask();
  if (!I.hasModifier(Modifier::MulticastCluster))
    return Mask;
  return B.CreateAnd(Mask,
                     B.CreateBitCast(B.CreateICmpNE(FL.widen(CTAMask),
                                                    FL.splat(B.getInt32(0))),
                                     B.getInt32Ty()));
}

static Error lowerBulkCopy(FunctionLowering &FL, const ptx::Instruction &I,
                           Value *RuntimeArg) {
  IRBuilder<> &B = FL.B;
  bool ToGlobal = I.Space == StateSpace::Global;
  uint32_t Op =
      uint32_t(ToGlobal ? BulkCopyOp::ToGlobal : BulkCopyOp::ToShared);
  if (I.Op == Opcode::CpReduceAsyncBulk) {
    ScalarType T = I.getType();
    if (T == ScalarType::F16 || T == ScalarType::BF16)
      return FL.error(I, "cp.reduce.async.bulk on ." +
                             ptx::getSpelling(T).drop_front() +
                             " elements is not supported");
    Op |= uint32_t(bulkReduction(I)) << 8 | uint32_t(bulkElement(T)) << 16;
  }
  Expected<LaneValue> Dst = FL.getAddress(I.Operands[0], I.Space);
  if (!Dst)
    return Dst.takeError();
  Expected<LaneValue> Src = FL.getAddress(I.Operands[1], I.Space2);
  if (!Src)
    return Src.takeError();
  Expected<LaneValue> Size = FL.read(I.Operands[2], ScalarType::U32);
  if (!Size)
    return Size.takeError();
  Value *MBar = B.getInt64(0), *CTAMask = B.getInt32(0);
  if (I.Operands.size() >= 4 && I.Operands[3].Kind == Operand::Address)
    if (Error E = readCompletion(FL, I, MBar, CTAMask))
      return E;
  Value *Mask = copyingLanes(FL, I, CTAMask);
  ifAnyLane(FL, Mask, [&] {
    B.CreateCall(FL.ML.getRuntimeFunction(RuntimeEntry::BulkCopy),
                 {RuntimeArg, B.getInt32(Op), Mask, laneArray(FL, Dst->V),
                  laneArray(FL, Src->V), laneArray(FL, Size->V),
                  laneArray(FL, MBar), laneArray(FL, CTAMask),
                  B.getInt32(FL.getLine(I.Loc))});
  });
  return Error::success();
}

/// st.async and red.async: the store or reduction into the other CTA's
/// shared memory at once (as st and red do it), then complete_tx of its
/// mbarrier object by the bytes written, as a bulk copy signals its own.
static Error lowerRemoteAsync(FunctionLowering &FL, const ptx::Instruction &I,
                              Value *RuntimeArg) {
  IRBuilder<> &B = FL.B;
  if (Error E = lowerMemory(FL, I))
    return E;
  unsigned Bytes = ptx::getBitWidth(I.getType()) / 8 * I.VectorWidth;
  Expected<LaneValue> MBar =
      FL.getAddress(I.Operands[2], StateSpace::SharedCluster);
  if (!MBar)
    return MBar.takeError();
  Value *Mask = FL.getInstMask();
  ifAnyLane(FL, Mask, [&] {
    B.CreateCall(
        FL.ML.getRuntimeFunction(RuntimeEntry::MBarrier),
        {RuntimeArg, B.getInt32(uint32_t(MBarrierOp::CompleteTx)), Mask,
         laneArray(FL, MBar->V), laneArray(FL, B.getInt32(Bytes)),
         Constant::getNullValue(B.getPtrTy()), B.getInt32(FL.getLine(I.Loc))});
  });
  return Error::success();
}

/// The rank of a cp.async.bulk.tensor (its .1d to .5d), 0 if none.
static unsigned tensorRank(const ptx::Instruction &I) {
  static const std::pair<Modifier, unsigned> Ranks[] = {{Modifier::Geom1D, 1},
                                                        {Modifier::Geom2D, 2},
                                                        {Modifier::Geom3D, 3},
                                                        {Modifier::Dim4D, 4},
                                                        {Modifier::Dim5D, 5}};
  for (auto [M, R] : Ranks)
    if (I.hasModifier(M))
      return R;
  return 0;
}

/// cp.async.bulk.tensor: the runtime reads the tensor map and copies the
/// box at the coordinates; loads complete_tx their mbarrier by its bytes.
/// cp.reduce.async.bulk.tensor stores the box reducing into the tensor.
static Error lowerTensorCopy(FunctionLowering &FL, const ptx::Instruction &I,
                             Value *RuntimeArg) {
  IRBuilder<> &B = FL.B;
  if (I.hasModifier(Modifier::Im2col))
    return FL.error(I, ptx::getSpelling(I.Op) +
                           " with .im2col (im2col tensor maps) is not "
                           "supported");
  bool ToGlobal = I.Space == StateSpace::Global;
  // To shared: [dst], [map, {coords}], [mbar] {, ctaMask} {, policy};
  // to global: [map, {coords}], [src] {, policy}.
  unsigned MapIdx = ToGlobal ? 0 : 1;
  const Operand &Coords = I.Operands[MapIdx + 1];
  unsigned Rank = tensorRank(I);
  if (Coords.Kind != Operand::Vector || Coords.Elements.size() != Rank)
    return FL.error(I, "a " + Twine(Rank) +
                           "-D tensor copy takes that many coordinates");
  Expected<LaneValue> Map = FL.getAddress(I.Operands[MapIdx], StateSpace::None);
  if (!Map)
    return Map.takeError();
  const Operand &SharedOp = I.Operands[ToGlobal ? 2 : 0];
  Expected<LaneValue> Shared =
      FL.getAddress(SharedOp, ToGlobal ? I.Space2 : I.Space);
  if (!Shared)
    return Shared.takeError();
  Type *I32s = FL.getVectorType(B.getInt32Ty());
  auto *CoordsTy = ArrayType::get(I32s, MaxTensorRank);
  AllocaInst *CoordSlot = FL.createTemporary(CoordsTy);
  for (unsigned K = 0; K != Rank; ++K) {
    Expected<LaneValue> C = FL.read(Coords.Elements[K], ScalarType::S32);
    if (!C)
      return C.takeError();
    B.CreateStore(FL.widen(C->V),
                  B.CreateConstInBoundsGEP2_32(CoordsTy, CoordSlot, 0, K));
  }
  Value *MBar = B.getInt64(0), *CTAMask = B.getInt32(0);
  if (!ToGlobal) {
    if (I.hasModifier(Modifier::MulticastCluster) && I.Operands.size() < 5)
      return FL.error(I, ".multicast::cluster needs a CTA mask");
    if (Error E = readCompletion(FL, I, MBar, CTAMask))
      return E;
  }
  Value *Mask = copyingLanes(FL, I, CTAMask);
  uint32_t Op =
      uint32_t(ToGlobal ? TensorCopyOp::ToGlobal : TensorCopyOp::ToShared) |
      Rank << 8;
  if (I.Op == Opcode::CpReduceAsyncBulkTensor)
    Op |= uint32_t(bulkReduction(I)) << 16;
  ifAnyLane(FL, Mask, [&] {
    B.CreateCall(FL.ML.getRuntimeFunction(RuntimeEntry::TensorCopy),
                 {RuntimeArg, B.getInt32(Op), Mask, laneArray(FL, Shared->V),
                  laneArray(FL, Map->V), CoordSlot, laneArray(FL, MBar),
                  laneArray(FL, CTAMask), B.getInt32(FL.getLine(I.Loc))});
  });
  return Error::success();
}

/// The field tensormap.replace writes.
static TensorMapOp tensorMapField(const ptx::Instruction &I) {
  static const std::pair<Modifier, TensorMapOp> Fields[] = {
      {Modifier::GlobalAddress, TensorMapOp::GlobalAddress},
      {Modifier::Rank, TensorMapOp::Rank},
      {Modifier::BoxDim, TensorMapOp::BoxDim},
      {Modifier::GlobalDim, TensorMapOp::GlobalDim},
      {Modifier::GlobalStride, TensorMapOp::GlobalStride},
      {Modifier::ElementStride, TensorMapOp::ElementStride},
      {Modifier::Elemtype, TensorMapOp::ElemType},
      {Modifier::InterleaveLayout, TensorMapOp::InterleaveLayout},
      {Modifier::SwizzleMode, TensorMapOp::SwizzleMode},
      {Modifier::SwizzleAtomicity, TensorMapOp::SwizzleAtomicity},
      {Modifier::FillMode, TensorMapOp::FillMode}};
  for (auto [M, F] : Fields)
    if (I.hasModifier(M))
      return F;
  return TensorMapOp::GlobalAddress;
}

/// tensormap.replace writes one field of a tensor map in memory;
/// tensormap.cp_fenceproxy copies one from shared to global memory (the
/// fence has nothing to order: the copies read maps when issued).
static Error lowerTensorMapUpdate(FunctionLowering &FL,
                                  const ptx::Instruction &I,
                                  Value *RuntimeArg) {
  IRBuilder<> &B = FL.B;
  bool Copy = I.Op == Opcode::TensormapCpFenceproxy;
  Expected<LaneValue> Map = FL.getAddress(I.Operands[0], I.Space);
  if (!Map)
    return Map.takeError();
  uint32_t Op;
  Value *Val;
  if (Copy) {
    Expected<LaneValue> Src = FL.getAddress(I.Operands[1], I.Space2);
    if (!Src)
      return Src.takeError();
    Op = uint32_t(TensorMapOp::CopyFenceProxy);
    Val = Src->V;
  } else {
    bool Ordinal = I.Operands.size() == 3;
    Op = uint32_t(tensorMapField(I)) |
         (Ordinal ? uint32_t(I.Operands[1].Value) << 8 : 0);
    Expected<LaneValue> V = FL.read(I.Operands[Ordinal ? 2 : 1], I.getType());
    if (!V)
      return V.takeError();
    Val = FL.coerce(V->V, B.getInt64Ty(), false);
  }
  Value *Mask = FL.getInstMask();
  ifAnyLane(FL, Mask, [&] {
    B.CreateCall(FL.ML.getRuntimeFunction(RuntimeEntry::TensorMapUpdate),
                 {RuntimeArg, B.getInt32(Op), Mask, laneArray(FL, Map->V),
                  laneArray(FL, Val), B.getInt32(FL.getLine(I.Loc))});
  });
  return Error::success();
}

Error InstructionLowering::visitAsyncCopy(const ptx::Instruction &I) {
  switch (I.Op) {
  case Opcode::CpAsync:
    return lowerCpAsync(FL, I);
  case Opcode::CpAsyncBulk:
  case Opcode::CpReduceAsyncBulk:
    return lowerBulkCopy(FL, I, FL.runtimeArg());
  case Opcode::CpAsyncBulkTensor:
  case Opcode::CpReduceAsyncBulkTensor:
    return lowerTensorCopy(FL, I, FL.runtimeArg());
  case Opcode::TensormapReplace:
  case Opcode::TensormapCpFenceproxy:
    return lowerTensorMapUpdate(FL, I, FL.runtimeArg());
  case Opcode::StAsync:
  case Opcode::RedAsync:
    return lowerRemoteAsync(FL, I, FL.runtimeArg());
  default:
    // commit_group, wait_group, wait_all: the copies are complete already.
    return Error::success();
  }
}

//===----------------------------------------------------------------------===//
// mbarrier objects
//===----------------------------------------------------------------------===//

Error InstructionLowering::visitMBarrier(const ptx::Instruction &I) {
  IRBuilder<> &B = FL.B;
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  if (I.Op == Opcode::MbarrierPendingCount) {
    Expected<LaneValue> S = FL.read(I.Operands[1], ScalarType::B64);
    if (!S)
      return S.takeError();
    auto C = [&](uint64_t V) -> Value * {
      return S->isScalar() ? (Value *)B.getInt64(V) : FL.splat(B.getInt64(V));
    };
    Value *Count = B.CreateAnd(B.CreateLShr(S->V, C(mbarrier::PendingShift)),
                               C(mbarrier::CountMask));
    return FL.write(I.Operands[0], FL.coerce(Count, I32, false),
                    ScalarType::U32);
  }

  bool Arrives =
      I.Op == Opcode::MbarrierArrive || I.Op == Opcode::MbarrierArriveDrop;
  unsigned AddrIdx = Arrives ? 1 : 0;
  MBarrierOp Op;
  Value *Count = B.getInt32(0);
  auto ReadCount = [&](unsigned Idx) -> Error {
    Expected<LaneValue> N = FL.read(I.Operands[Idx], ScalarType::U32);
    if (!N)
      return N.takeError();
    Count = N->V;
    return Error::success();
  };
  switch (I.Op) {
  case Opcode::MbarrierInit:
    Op = MBarrierOp::Init;
    if (Error E = ReadCount(1))
      return E;
    break;
  case Opcode::MbarrierInval:
    Op = MBarrierOp::Inval;
    break;
  case Opcode::MbarrierExpectTx:
  case Opcode::MbarrierCompleteTx:
    Op = I.Op == Opcode::MbarrierExpectTx ? MBarrierOp::ExpectTx
                                          : MBarrierOp::CompleteTx;
    if (Error E = ReadCount(1))
      return E;
    break;
  case Opcode::CpAsyncMbarrierArrive:
    Op = I.hasModifier(Modifier::Noinc) ? MBarrierOp::CpAsyncArriveNoinc
                                        : MBarrierOp::CpAsyncArrive;
    break;
  default: {
    bool Drop = I.Op == Opcode::MbarrierArriveDrop;
    bool ExpectTx = I.hasModifier(Modifier::ExpectTx);
    Op = ExpectTx ? (Drop ? MBarrierOp::ArriveDropExpectTx
                          : MBarrierOp::ArriveExpectTx)
                  : (Drop ? MBarrierOp::ArriveDrop : MBarrierOp::Arrive);
    Count = B.getInt32(1);
    if (I.Operands.size() == 3)
      if (Error E = ReadCount(2))
        return E;
    break;
  }
  }
  uint32_t Code = uint32_t(Op);
  if (I.hasModifier(Modifier::NoComplete))
    Code |= MBarrierNoComplete;
  Expected<LaneValue> Addr = FL.getAddress(I.Operands[AddrIdx], I.Space);
  if (!Addr)
    return Addr.takeError();
  Value *Mask = FL.getInstMask();
  AllocaInst *States = nullptr;
  bool WantsState = Arrives && I.Operands[0].Kind != Operand::Sink;
  if (WantsState)
    States = FL.createTemporary(FL.getVectorType(I64));
  ifAnyLane(FL, Mask, [&] {
    B.CreateCall(
        FL.ML.getRuntimeFunction(RuntimeEntry::MBarrier),
        {FL.runtimeArg(), B.getInt32(Code), Mask, laneArray(FL, Addr->V),
         laneArray(FL, FL.coerce(Count, I32, false)),
         States ? (Value *)States : Constant::getNullValue(B.getPtrTy()),
         B.getInt32(FL.getLine(I.Loc))});
  });
  if (!WantsState)
    return Error::success();
  return FL.write(I.Operands[0],
                  B.CreateLoad(States->getAllocatedType(), States),
                  ScalarType::B64);
}

Error FunctionLowering::lowerAsyncWaitPrologue(unsigned Index,
                                               const ptx::Instruction &I) {
  Type *I64 = B.getInt64Ty();
  Value *Mask = getMask();
  Expected<Value *> Guarded = guardedMask(I, Mask);
  if (!Guarded)
    return Guarded.takeError();
  Value *Lanes = *Guarded;
  // Lanes the runtime released here come back for their outcome.
  Value *Resumed = B.CreateAnd(Mask, Warp.released());
  Warp.takeRelease(Resumed);
  Resumed = B.CreateAnd(Resumed, Lanes);
  Value *Line = B.getInt32(getLine(I.Loc));
  Value *Result;
  if (I.Op == Opcode::BarrierCluster) {
    Result = B.CreateCall(ML.getRuntimeFunction(RuntimeEntry::ClusterWait),
                          {runtimeArg(), Lanes, Resumed, Line});
  } else {
    Expected<LaneValue> Addr = getAddress(I.Operands[1], I.Space);
    if (!Addr)
      return Addr.takeError();
    bool Parity = I.hasModifier(Modifier::Parity);
    Expected<LaneValue> Phase =
        read(I.Operands[2], Parity ? ScalarType::U32 : ScalarType::B64);
    if (!Phase)
      return Phase.takeError();
    uint32_t Op =
        uint32_t(Parity ? MBarrierWaitOp::Parity : MBarrierWaitOp::State);
    Result =
        B.CreateCall(ML.getRuntimeFunction(RuntimeEntry::MBarrierWait),
                     {runtimeArg(), B.getInt32(Op), Lanes, Resumed,
                      laneArray(*this, Addr->V),
                      laneArray(*this, coerce(Phase->V, I64, false)), Line});
  }
  // Lanes the runtime parked wait here; the others go on, all together
  // once none is parked (the dispatcher brings them back for their
  // outcome, kept by the runtime).
  Value *Park = B.CreateAnd(Lanes, B.CreateNot(B.CreateOr(Resumed, Result)));
  BasicBlock *Split = BasicBlock::Create(ML.Ctx, "async.wait.park", Fn);
  BasicBlock *Go = BasicBlock::Create(ML.Ctx, "async.wait.go", Fn);
  B.CreateCondBr(B.CreateICmpEQ(Park, B.getInt32(0)), Go, Split);
  B.SetInsertPoint(Split);
  Warp.parkAtBarrier(Park);
  Warp.release(B.CreateAnd(Mask, B.CreateNot(Park)));
  Warp.park(Index, Mask);
  B.SetInsertPoint(Go);
  AsyncWaitResult = Result;
  return Error::success();
}

Error InstructionLowering::visitAsyncWait(const ptx::Instruction &I) {
  // The prologue waited; its result says which lanes' phase completed.
  Value *Done = FL.maskToVector(FL.AsyncWaitResult);
  return FL.write(I.Operands[0], Done, ScalarType::Pred);
}

//===----------------------------------------------------------------------===//
// Clusters
//===----------------------------------------------------------------------===//

Expected<LaneValue> FunctionLowering::readClusterSpecial(StringRef Name,
                                                         unsigned Dim) {
  Type *I32 = B.getInt32Ty();
  auto Scalar = [](Value *V) { return LaneValue{V, Shape::uniform()}; };
  auto Field = [&](unsigned F, unsigned D) -> Value * {
    Value *Arr = B.CreateStructGEP(ML.WarpCtxTy, CtxArg, F);
    return B.CreateLoad(I32, B.CreateConstGEP1_32(I32, Arr, D));
  };
  auto ClusterDim = [&](unsigned D) { return Field(WCF_ClusterDim, D); };
  auto CtaInCluster = [&](unsigned D) {
    return B.CreateURem(Field(WCF_CtaId, D), ClusterDim(D));
  };
  if (Name == "%cluster_nctaid")
    return Scalar(ClusterDim(Dim));
  if (Name == "%cluster_ctaid")
    return Scalar(CtaInCluster(Dim));
  if (Name == "%clusterid")
    return Scalar(B.CreateUDiv(Field(WCF_CtaId, Dim), ClusterDim(Dim)));
  if (Name == "%nclusterid")
    return Scalar(B.CreateUDiv(Field(WCF_NCtaId, Dim), ClusterDim(Dim)));
  if (Name == "%cluster_ctarank")
    return Scalar(B.CreateAdd(
        CtaInCluster(0),
        B.CreateMul(ClusterDim(0),
                    B.CreateAdd(CtaInCluster(1),
                                B.CreateMul(ClusterDim(1), CtaInCluster(2))))));
  if (Name == "%cluster_nctarank")
    return Scalar(
        B.CreateMul(ClusterDim(0), B.CreateMul(ClusterDim(1), ClusterDim(2))));
  // %is_explicit_cluster
  return Scalar(B.CreateICmpNE(getContextField(WCF_IsExplicitCluster, I32),
                               B.getInt32(0)));
}

Value *FunctionLowering::getClusterSharedSpan() {
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  Value *Dims = B.CreateStructGEP(ML.WarpCtxTy, CtxArg, WCF_ClusterDim);
  Value *Span = getContextField(WCF_ClusterSharedStride, I64);
  for (unsigned D = 0; D != 3; ++D)
    Span = B.CreateMul(
        Span, B.CreateZExt(B.CreateLoad(I32, B.CreateConstGEP1_32(I32, Dims, D)),
                           I64));
  return Span;
}

Error InstructionLowering::visitCluster(const ptx::Instruction &I) {
  IRBuilder<> &B = FL.B;
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  if (I.Op == Opcode::BarrierCluster) {
    if (!I.hasModifier(Modifier::Arrive))
      return Error::success(); // wait: the prologue waited
    Value *Mask = FL.getInstMask();
    ifAnyLane(FL, Mask, [&] {
      B.CreateCall(FL.ML.getRuntimeFunction(RuntimeEntry::ClusterArrive),
                   {FL.runtimeArg(), Mask, B.getInt32(FL.getLine(I.Loc))});
    });
    return Error::success();
  }
  // mapa and getctarank: which CTA's window an address is in, and the same
  // place in another's, by arithmetic on the cluster's layout.
  ScalarType T = I.getType();
  bool SharedCluster = I.Space == StateSpace::SharedCluster;
  Expected<LaneValue> A = FL.read(I.Operands[1], T);
  if (!A)
    return A.takeError();
  LaneValue Rank{B.getInt32(0), Shape::uniform()};
  if (I.Op == Opcode::Mapa) {
    Expected<LaneValue> R = FL.read(I.Operands[2], ScalarType::U32);
    if (!R)
      return R.takeError();
    Rank = *R;
  }
  bool Vec = !A->isScalar() || !Rank.isScalar();
  auto Lanes = [&](Value *V) { return Vec ? FL.widen(V) : V; };
  auto Ctx = [&](unsigned Field, Type *Ty) {
    return Lanes(FL.getContextField(Field, Ty));
  };
  Value *Own = Lanes(
      B.CreatePtrToInt(FL.getContextField(WCF_SharedBase, B.getPtrTy()), I64));
  Value *Base = Lanes(B.CreatePtrToInt(
      FL.getContextField(WCF_ClusterSharedBase, B.getPtrTy()), I64));
  Value *Stride = Ctx(WCF_ClusterSharedStride, I64);
  Value *Dims = B.CreateStructGEP(FL.ML.WarpCtxTy, FL.CtxArg, WCF_ClusterDim);
  Value *Size = B.getInt64(1);
  for (unsigned D = 0; D != 3; ++D)
    Size = B.CreateMul(
        Size, B.CreateZExt(
                  B.CreateLoad(I32, B.CreateConstGEP1_32(I32, Dims, D)), I64));
  Size = Lanes(Size);
  Value *Addr = FL.coerce(Lanes(A->V), I64, false);
  // Cluster addresses count from the CTA's own window, generic ones are
  // host addresses; either may be in the second mapping of the cluster's
  // memory, hence the remainders.
  Value *Host = SharedCluster ? B.CreateAdd(Own, Addr) : Addr;
  Value *FromBase = B.CreateSub(Host, Base);
  if (I.Op == Opcode::Getctarank)
    return FL.write(
        I.Operands[0],
        FL.coerce(B.CreateURem(B.CreateUDiv(FromBase, Stride), Size), I32,
                  false),
        ScalarType::U32);
  Value *R =
      B.CreateZExt(Lanes(Rank.V), Vec ? (Type *)FL.getVectorType(I64) : I64);
  Value *Target = B.CreateAdd(B.CreateAdd(Base, B.CreateMul(R, Stride)),
                              B.CreateURem(FromBase, Stride));
  if (SharedCluster) {
    // Windows below the CTA's own are reached through the second mapping.
    Value *Below = B.CreateICmpULT(Target, Own);
    Target = B.CreateSub(
        B.CreateSelect(Below, B.CreateAdd(Target, B.CreateMul(Size, Stride)),
                       Target),
        Own);
  }
  return FL.write(I.Operands[0], Target, T);
}

Error InstructionLowering::visitSleep(const ptx::Instruction &I) {
  // nanosleep lets the other warps run: it is how spin loops wait politely.
  if (!FL.usesBarriers())
    return Error::success();
  IRBuilder<> &B = FL.B;
  ifAnyLane(FL, FL.getInstMask(), [&] {
    B.CreateCall(FL.ML.getRuntimeFunction(RuntimeEntry::SpinYield),
                 {FL.runtimeArg(), B.getInt32(FL.getLine(I.Loc))});
  });
  return Error::success();
}
