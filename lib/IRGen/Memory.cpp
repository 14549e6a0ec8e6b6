//===- Memory.cpp - ld, st, atomics, address spaces -----------------------===//
//
// Addresses are host addresses once their window is added (shared memory
// base, the lane's local frame). Contiguous accesses become masked vector
// loads and stores, others gathers and scatters; inactive lanes never touch
// memory. Atomics and ordered (volatile, relaxed, acquire) accesses run lane
// by lane as real host atomics, since CTAs run on several threads.
//
//===----------------------------------------------------------------------===//

#include "CheckInstrumentation.h"
#include "Lowering.h"
#include "Semantics.h"
#include "ptxjit/ABI/WarpABI.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Modifier;
using ptx::Opcode;
using ptx::Operand;
using ptx::ScalarType;
using ptx::StateSpace;

/// Ordered accesses need each lane's access to happen as written.
static bool isOrdered(const ptx::Instruction &I) {
  return I.hasModifier(Modifier::Volatile) ||
         I.hasModifier(Modifier::Relaxed) || I.hasModifier(Modifier::Acquire) ||
         I.hasModifier(Modifier::Release);
}

static AtomicOrdering orderingOf(const ptx::Instruction &I) {
  if (I.hasModifier(Modifier::Acquire))
    return AtomicOrdering::Acquire;
  if (I.hasModifier(Modifier::Release))
    return AtomicOrdering::Release;
  if (I.hasModifier(Modifier::AcqRel))
    return AtomicOrdering::AcquireRelease;
  if (I.hasModifier(Modifier::Relaxed) || I.hasModifier(Modifier::Volatile))
    return AtomicOrdering::Monotonic;
  // PTX atomics without a .sem are relaxed; sequential consistency is the
  // safe reading for code written before the memory model.
  return AtomicOrdering::SequentiallyConsistent;
}

/// isspacep.shared::cluster: V is in the cluster's shared memory (either
/// of its mappings; see Async.cpp).
static Value *inClusterShared(FunctionLowering &FL, Value *V, bool Scalar) {
  IRBuilder<> &B = FL.B;
  Value *Base = B.CreatePtrToInt(
      FL.getContextField(WCF_ClusterSharedBase, B.getPtrTy()), B.getInt64Ty());
  Value *Both = B.CreateShl(FL.getClusterSharedSpan(), 1);
  Value *Off = B.CreateSub(V, Scalar ? Base : FL.splat(Base));
  return B.CreateICmpULT(Off, Scalar ? Both : FL.splat(Both));
}

/// cvta.to.shared::cluster: Off is the generic address less the CTA's own
/// window; windows below it are reached through the second mapping.
static Value *wrapClusterOffset(FunctionLowering &FL, Value *Off,
                                bool Scalar) {
  IRBuilder<> &B = FL.B;
  Value *Span = FL.getClusterSharedSpan();
  if (!Scalar)
    Span = FL.splat(Span);
  Value *Below = B.CreateICmpSLT(Off, Constant::getNullValue(Off->getType()));
  return B.CreateSelect(Below, B.CreateAdd(Off, Span), Off);
}

static Expected<LaneValue>
elementAddress(FunctionLowering &FL, const LaneValue &Base, uint64_t Offset) {
  if (!Offset)
    return Base;
  IRBuilder<> &B = FL.B;
  LaneValue A = Base;
  Value *Off = B.getInt64(Offset);
  A.V = B.CreateAdd(A.V, A.isScalar() ? Off : FL.splat(Off));
  return A;
}

static Error lowerLoad(FunctionLowering &FL, const ptx::Instruction &I) {
  IRBuilder<> &B = FL.B;
  ScalarType T = I.getType();
  Expected<LaneValue> Addr = FL.getAddress(I.Operands[1], I.Space);
  if (!Addr)
    return Addr.takeError();
  Type *Elt = FL.getLaneType(T);
  unsigned Size = ptx::getBitWidth(T) / 8;
  const Operand &Dst = I.Operands[0];
  unsigned N = Dst.Kind == Operand::Vector ? Dst.Elements.size() : 1;
  FL.checkAccess(I, I.Operands[1], *Addr, Size * N, AK_Load);
  Value *Mask = emitAccessCheck(FL, I, *Addr, Size * N, CheckAccessKind::Read,
                                FL.getInstMask());
  for (unsigned K = 0; K != N; ++K) {
    const Operand &D = Dst.Kind == Operand::Vector ? Dst.Elements[K] : Dst;
    if (D.Kind == Operand::Sink)
      continue;
    Expected<LaneValue> A = elementAddress(FL, *Addr, uint64_t(K) * Size);
    if (!A)
      return A.takeError();
    Value *V;
    if (isOrdered(I)) {
      FunctionLowering::LaneStash Addrs = FL.stashLanes(A->V, 0);
      V = FL.collectActiveLanes(Mask, Elt, [&](Value *Lane) {
        Value *P =
            B.CreateIntToPtr(FL.loadStashedLane(Addrs, Lane), B.getPtrTy());
        LoadInst *L = B.CreateLoad(Elt, P);
        L->setAtomic(I.hasModifier(Modifier::Acquire)
                         ? AtomicOrdering::Acquire
                         : AtomicOrdering::Monotonic);
        L->setAlignment(Align(Size));
        L->setVolatile(true);
        return L;
      });
    } else {
      bool KernelParam = I.Space == StateSpace::Param && FL.F.IsEntry &&
                         !I.Operands[1].BaseIsRegister;
      V = FL.loadLanes(*A, Elt, Mask, KernelParam);
      // Nothing writes a kernel's parameters while it runs: loads of them
      // may move, out of the loop over a chain of warps too.
      if (auto *L = dyn_cast<LoadInst>(V); L && KernelParam)
        L->setMetadata(LLVMContext::MD_invariant_load,
                       MDNode::get(B.getContext(), {}));
    }
    if (Error E = FL.write(D, V, T, ptx::isSigned(T)))
      return E;
  }
  return Error::success();
}

static Error lowerStore(FunctionLowering &FL, const ptx::Instruction &I) {
  IRBuilder<> &B = FL.B;
  ScalarType T = I.getType();
  Expected<LaneValue> Addr = FL.getAddress(I.Operands[0], I.Space);
  if (!Addr)
    return Addr.takeError();
  unsigned Size = ptx::getBitWidth(T) / 8;
  const Operand &Src = I.Operands[1];
  unsigned N = Src.Kind == Operand::Vector ? Src.Elements.size() : 1;
  FL.checkAccess(I, I.Operands[0], *Addr, Size * N, AK_Store);
  Value *Mask = emitAccessCheck(FL, I, *Addr, Size * N, CheckAccessKind::Write,
                                FL.getInstMask());
  for (unsigned K = 0; K != N; ++K) {
    const Operand &S = Src.Kind == Operand::Vector ? Src.Elements[K] : Src;
    if (S.Kind == Operand::Sink)
      continue;
    Expected<LaneValue> V = FL.read(S, T);
    if (!V)
      return V.takeError();
    Expected<LaneValue> A = elementAddress(FL, *Addr, uint64_t(K) * Size);
    if (!A)
      return A.takeError();
    if (isOrdered(I)) {
      FunctionLowering::LaneStash Addrs = FL.stashLanes(A->V, 0);
      FunctionLowering::LaneStash Vals = FL.stashLanes(V->V, 1);
      FL.forEachActiveLane(Mask, [&](Value *Lane) {
        Value *P =
            B.CreateIntToPtr(FL.loadStashedLane(Addrs, Lane), B.getPtrTy());
        StoreInst *St = B.CreateStore(FL.loadStashedLane(Vals, Lane), P);
        St->setAtomic(I.hasModifier(Modifier::Release)
                          ? AtomicOrdering::Release
                          : AtomicOrdering::Monotonic);
        St->setAlignment(Align(Size));
        St->setVolatile(true);
      });
      continue;
    }
    FL.storeLanes(*A, V->V, Mask);
  }
  return Error::success();
}

static std::optional<AtomicRMWInst::BinOp> atomicOp(const ptx::Instruction &I,
                                                    ScalarType T) {
  bool Float = ptx::isFloat(T) || ptx::getTypeKind(T) == ptx::TypeKind::Packed;
  bool Signed = ptx::isSigned(T);
  for (Modifier M : I.Modifiers) {
    switch (M) {
    case Modifier::Add:
      return Float ? AtomicRMWInst::FAdd : AtomicRMWInst::Add;
    case Modifier::Min:
      return Float    ? AtomicRMWInst::FMin
             : Signed ? AtomicRMWInst::Min
                      : AtomicRMWInst::UMin;
    case Modifier::Max:
      return Float    ? AtomicRMWInst::FMax
             : Signed ? AtomicRMWInst::Max
                      : AtomicRMWInst::UMax;
    case Modifier::Inc:
      return AtomicRMWInst::UIncWrap;
    case Modifier::Dec:
      return AtomicRMWInst::UDecWrap;
    case Modifier::Exch:
      return AtomicRMWInst::Xchg;
    case Modifier::And:
      return AtomicRMWInst::And;
    case Modifier::Or:
      return AtomicRMWInst::Or;
    case Modifier::Xor:
      return AtomicRMWInst::Xor;
    default:
      break;
    }
  }
  return std::nullopt;
}

/// A compare-and-swap loop on the bits of *P that stores Combine(old, V),
/// with the arithmetic in ArithTy; returns the old bits.
static Value *casLoopAtomic(FunctionLowering &FL, Type *ArithTy, Value *P,
                            Value *V, AtomicOrdering Ordering,
                            function_ref<Value *(Value *, Value *)> Combine) {
  IRBuilder<> &B = FL.B;
  Type *IntTy = B.getIntNTy(ArithTy->getPrimitiveSizeInBits());
  V = B.CreateBitCast(V, IntTy);
  unsigned Size = IntTy->getPrimitiveSizeInBits() / 8;
  Function *Fn = B.GetInsertBlock()->getParent();
  BasicBlock *Pre = B.GetInsertBlock();
  LoadInst *Init = B.CreateLoad(IntTy, P);
  Init->setAtomic(AtomicOrdering::Monotonic);
  Init->setAlignment(Align(Size));
  BasicBlock *Loop = BasicBlock::Create(B.getContext(), "atom.cas", Fn);
  BasicBlock *Done = BasicBlock::Create(B.getContext(), "atom.done", Fn);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *Cur = B.CreatePHI(IntTy, 2);
  Cur->addIncoming(Init, Pre);
  Value *A = B.CreateBitCast(Cur, ArithTy), *X = B.CreateBitCast(V, ArithTy);
  Value *New = B.CreateBitCast(Combine(A, X), IntTy);
  auto *CX = B.CreateAtomicCmpXchg(P, Cur, New, MaybeAlign(Size), Ordering,
                                   AtomicOrdering::Monotonic);
  Value *Seen = B.CreateExtractValue(CX, 0);
  Cur->addIncoming(Seen, Loop);
  B.CreateCondBr(B.CreateExtractValue(CX, 1), Done, Loop);
  B.SetInsertPoint(Done);
  return Cur;
}

/// Half-precision atomics (f16, bf16 and their x2 pairs): the arithmetic in
/// the half type.
static Value *halfAtomic(FunctionLowering &FL, AtomicRMWInst::BinOp Op,
                         ScalarType T, Value *P, Value *V,
                         AtomicOrdering Ordering) {
  IRBuilder<> &B = FL.B;
  return casLoopAtomic(FL, getArithType(FL, T, /*Vector=*/false), P, V,
                       Ordering, [&](Value *A, Value *X) -> Value * {
                         if (Op == AtomicRMWInst::FAdd)
                           return B.CreateFAdd(A, X);
                         return B.CreateBinaryIntrinsic(
                             Op == AtomicRMWInst::FMin ? Intrinsic::minimumnum
                                                       : Intrinsic::maximumnum,
                             A, X);
                       });
}

/// The reduction intrinsic and identity of an integer atomic operation
/// whose lanes can be combined before memory is touched (not inc/dec,
/// exch or cas, whose lanes do not combine associatively).
std::optional<std::pair<Intrinsic::ID, APInt>>
irgen::getCombinableAtomicOp(AtomicRMWInst::BinOp Op, unsigned Bits) {
  switch (Op) {
  case AtomicRMWInst::Add:
    return std::pair(Intrinsic::vector_reduce_add, APInt::getZero(Bits));
  case AtomicRMWInst::Or:
    return std::pair(Intrinsic::vector_reduce_or, APInt::getZero(Bits));
  case AtomicRMWInst::Xor:
    return std::pair(Intrinsic::vector_reduce_xor, APInt::getZero(Bits));
  case AtomicRMWInst::And:
    return std::pair(Intrinsic::vector_reduce_and, APInt::getAllOnes(Bits));
  case AtomicRMWInst::Max:
    return std::pair(Intrinsic::vector_reduce_smax,
                     APInt::getSignedMinValue(Bits));
  case AtomicRMWInst::Min:
    return std::pair(Intrinsic::vector_reduce_smin,
                     APInt::getSignedMaxValue(Bits));
  case AtomicRMWInst::UMax:
    return std::pair(Intrinsic::vector_reduce_umax, APInt::getZero(Bits));
  case AtomicRMWInst::UMin:
    return std::pair(Intrinsic::vector_reduce_umin, APInt::getAllOnes(Bits));
  default:
    return std::nullopt;
  }
}

Value *irgen::lowerWarpAggregatedAtomic(
    FunctionLowering &FL, AtomicRMWInst::BinOp Op, Value *Val, Type *Elt,
    bool WantOld, function_ref<Value *(Value *Total)> ReadModifyWrite) {
  IRBuilder<> &B = FL.B;
  auto [Reduce, Identity] =
      *getCombinableAtomicOp(Op, Elt->getPrimitiveSizeInBits());
  Value *Mask = FL.getInstMask();
  Value *Id = FL.splat(ConstantInt::get(Elt, Identity));
  Value *X = B.CreateSelect(FL.maskToVector(Mask), FL.widen(Val), Id);
  Value *Total = B.CreateIntrinsic(Reduce, {X->getType()}, {X});
  Function *Fn = B.GetInsertBlock()->getParent();
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Do = BasicBlock::Create(B.getContext(), "atom.warp", Fn);
  BasicBlock *Done = BasicBlock::Create(B.getContext(), "atom.warp.done", Fn);
  B.CreateCondBr(B.CreateICmpNE(Mask, B.getInt32(0)), Do, Done);
  B.SetInsertPoint(Do);
  Value *Old = ReadModifyWrite(Total);
  Value *Olds = nullptr;
  if (WantOld) {
    // Exclusive scan: lane L gets the lanes below it (the identity in lane
    // 0), then log2(32) steps of combining with the value D lanes down.
    SmallVector<int, Lanes> Idx;
    auto ShiftedUp = [&](Value *V, unsigned D) {
      Idx.clear();
      for (unsigned L = 0; L != Lanes; ++L)
        Idx.push_back(L < D ? int(Lanes) : int(L - D)); // Lanes: Id's lane 0
      return B.CreateShuffleVector(V, Id, Idx);
    };
    Value *Below = ShiftedUp(X, 1);
    for (unsigned D = 1; D < Lanes; D *= 2)
      Below = buildAtomicRMWValue(Op, B, Below, ShiftedUp(Below, D));
    Olds = buildAtomicRMWValue(Op, B, FL.splat(Old), Below);
  }
  BasicBlock *DoEnd = B.GetInsertBlock();
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  if (!WantOld)
    return nullptr;
  PHINode *Phi = B.CreatePHI(Olds->getType(), 2);
  Phi->addIncoming(PoisonValue::get(Olds->getType()), Pre);
  Phi->addIncoming(Olds, DoEnd);
  return Phi;
}

/// One atomic operation of I (one element of a vector atom/red): at Addr,
/// with the value operand ValOp, its old value to Dst (null: not wanted).
static Error lowerAtomicElement(FunctionLowering &FL, const ptx::Instruction &I,
                                const LaneValue &Addr,
                                const ptx::Operand &ValOp,
                                const ptx::Operand *Dst) {
  IRBuilder<> &B = FL.B;
  ScalarType T = I.getType();
  bool IsRed = I.Op != Opcode::Atom;
  unsigned AddrIdx = IsRed ? 0 : 1;
  bool Half = T == ScalarType::F16x2 || T == ScalarType::BF16x2 ||
              T == ScalarType::F16 || T == ScalarType::BF16;
  Expected<LaneValue> Val = FL.read(ValOp, T);
  if (!Val)
    return Val.takeError();
  bool IsCas = I.hasModifier(Modifier::Cas);
  Expected<LaneValue> Swap = LaneValue{nullptr, Shape::uniform()};
  if (IsCas) {
    Swap = FL.read(I.Operands[AddrIdx + 2], T);
    if (!Swap)
      return Swap.takeError();
  }
  std::optional<AtomicRMWInst::BinOp> Op = atomicOp(I, T);
  if (Half && (IsCas || !Op ||
               (*Op != AtomicRMWInst::FAdd && *Op != AtomicRMWInst::FMin &&
                *Op != AtomicRMWInst::FMax)))
    return FL.error(I, "this atomic operation on half precision is not "
                       "supported");
  if (!IsCas && !Op)
    return FL.error(I, "unknown atomic operation");
  Type *Elt = FL.getLaneType(T);
  unsigned Size = ptx::getBitWidth(T) / 8;
  AtomicOrdering Ordering = orderingOf(I);
  // The ISA: atom.add.f32 "flushes subnormal inputs and results to
  // sign-preserving zero" (red too; GPUs do).
  bool FlushF32 = T == ScalarType::F32 && !IsCas && Op &&
                  *Op == AtomicRMWInst::FAdd;
  FL.checkAccess(I, I.Operands[AddrIdx], Addr, Size, AK_Atomic);
  // Checked atomics are reported, and still run in every lane.
  emitAccessCheck(FL, I, Addr, Size, CheckAccessKind::Atomic, FL.getInstMask());
  if (!Half &&
      (I.Space == StateSpace::Shared || I.Space == StateSpace::SharedCTA)) {
    // Only this CTA, on this host thread, sees its shared memory.
    SharedAtomic SA;
    SA.Addr = Addr;
    SA.Val = Val->V;
    SA.Swap = IsCas ? Swap->V : nullptr;
    SA.IsCas = IsCas;
    if (Op)
      SA.Op = *Op;
    SA.Elt = Elt;
    SA.WantOld = Dst && Dst->Kind != ptx::Operand::Sink;
    SA.FlushSubnormals = FlushF32;
    Value *Old = lowerSharedAtomic(FL, SA);
    if (!SA.WantOld)
      return Error::success();
    return FL.write(*Dst, Old, T);
  }
  bool WantOld = Dst && Dst->Kind != ptx::Operand::Sink;
  if (Addr.isScalar() && !Half && !IsCas && !FlushF32 && Elt->isIntegerTy() &&
      getCombinableAtomicOp(*Op, Size * 8)) {
    Value *P = B.CreateIntToPtr(Addr.V, B.getPtrTy());
    Value *Old = lowerWarpAggregatedAtomic(
        FL, *Op, Val->V, Elt, WantOld, [&](Value *Total) -> Value * {
          return B.CreateAtomicRMW(*Op, P, Total, MaybeAlign(Size), Ordering);
        });
    return WantOld ? FL.write(*Dst, Old, T) : Error::success();
  }
  // Each operand vector stored once, before the loop over the lanes.
  FunctionLowering::LaneStash Addrs = FL.stashLanes(Addr.V, 0);
  FunctionLowering::LaneStash Vals = FL.stashLanes(Val->V, 1);
  std::optional<FunctionLowering::LaneStash> Swaps;
  if (IsCas)
    Swaps = FL.stashLanes(Swap->V, 2);
  Value *Old = FL.collectActiveLanes(FL.getInstMask(), Elt, [&](Value *Lane) {
    Value *P = B.CreateIntToPtr(FL.loadStashedLane(Addrs, Lane), B.getPtrTy());
    Value *V = FL.loadStashedLane(Vals, Lane);
    Value *Result;
    if (Half) {
      Result = halfAtomic(FL, *Op, T, P, V, Ordering);
    } else if (FlushF32) {
      Result = B.CreateBitCast(
          casLoopAtomic(FL, Elt, P, V, Ordering,
                        [&](Value *A, Value *X) {
                          return flushSubnormal(
                              FL, B.CreateFAdd(flushSubnormal(FL, A),
                                               flushSubnormal(FL, X)));
                        }),
          Elt);
    } else if (IsCas) {
      Value *Cmp = V, *New = FL.loadStashedLane(*Swaps, Lane);
      if (Elt->isFloatingPointTy()) {
        Type *IntTy = B.getIntNTy(Size * 8);
        Cmp = B.CreateBitCast(Cmp, IntTy);
        New = B.CreateBitCast(New, IntTy);
      }
      AtomicOrdering Failure =
          Ordering == AtomicOrdering::SequentiallyConsistent ? Ordering
          : Ordering == AtomicOrdering::Acquire ||
                  Ordering == AtomicOrdering::AcquireRelease
              ? AtomicOrdering::Acquire
              : AtomicOrdering::Monotonic;
      auto *X = B.CreateAtomicCmpXchg(P, Cmp, New, MaybeAlign(Size), Ordering,
                                      Failure);
      Result = B.CreateExtractValue(X, 0);
      if (Elt->isFloatingPointTy())
        Result = B.CreateBitCast(Result, Elt);
    } else {
      Result = B.CreateAtomicRMW(*Op, P, V, MaybeAlign(Size), Ordering);
    }
    return Result;
  });
  if (!WantOld)
    return Error::success();
  return FL.write(*Dst, Old, T);
}

static Error lowerAtomic(FunctionLowering &FL, const ptx::Instruction &I) {
  // red, red.async and multimem.red write no result.
  bool IsRed = I.Op != Opcode::Atom;
  unsigned AddrIdx = IsRed ? 0 : 1;
  Expected<LaneValue> Addr = FL.getAddress(I.Operands[AddrIdx], I.Space);
  if (!Addr)
    return Addr.takeError();
  const ptx::Operand &ValOp = I.Operands[AddrIdx + 1];
  const ptx::Operand *Dst = IsRed ? nullptr : &I.Operands[0];
  if (I.VectorWidth == 1)
    return lowerAtomicElement(FL, I, *Addr, ValOp, Dst);
  // A vector atom/red (.global add, min, max on f32, half types and their
  // pairs): the ISA makes each element atomic, not the vector, so it is an
  // atomic operation per element, at consecutive addresses.
  auto Elements = [](const ptx::Operand &Op) {
    return Op.Kind == ptx::Operand::Vector ? Op.Elements
                                           : ArrayRef<ptx::Operand>();
  };
  ArrayRef<ptx::Operand> Vals = Elements(ValOp);
  ArrayRef<ptx::Operand> Dsts = Dst ? Elements(*Dst) : ArrayRef<ptx::Operand>();
  if (I.hasModifier(Modifier::Cas) || Vals.size() != I.VectorWidth ||
      (Dst && Dsts.size() != I.VectorWidth))
    return FL.error(I, "a vector atomic operation needs a vector of " +
                           Twine(unsigned(I.VectorWidth)) +
                           " values and results, and no cas");
  IRBuilder<> &B = FL.B;
  uint64_t Size = ptx::getBitWidth(I.getType()) / 8;
  for (unsigned E = 0; E != I.VectorWidth; ++E) {
    LaneValue At = *Addr;
    if (E) {
      Value *Offset = ConstantInt::get(At.V->getType(), E * Size);
      At.V = B.CreateAdd(At.V, Offset);
    }
    if (Error Err =
            lowerAtomicElement(FL, I, At, Vals[E], Dst ? &Dsts[E] : nullptr))
      return Err;
  }
  return Error::success();
}

Error irgen::lowerMemory(FunctionLowering &FL, const ptx::Instruction &I) {
  IRBuilder<> &B = FL.B;
  switch (I.Op) {
  case Opcode::Ld:
  case Opcode::Ldu:
    return lowerLoad(FL, I);
  case Opcode::St:
    return lowerStore(FL, I);
  case Opcode::Atom:
  case Opcode::Red:
    return lowerAtomic(FL, I);
  // One device: the multimem address names its one copy (Opcodes.def), and
  // a reduction over one value is the value, whatever its accumulation.
  case Opcode::MultimemLdReduce:
    return lowerLoad(FL, I);
  case Opcode::MultimemSt:
  case Opcode::StAsync:
    return lowerStore(FL, I);
  case Opcode::MultimemRed:
  case Opcode::RedAsync:
    return lowerAtomic(FL, I);
  case Opcode::Membar:
  case Opcode::Fence:
    B.CreateFence(AtomicOrdering::SequentiallyConsistent);
    return Error::success();
  case Opcode::Prefetch:
  case Opcode::Prefetchu:
    return Error::success();
  case Opcode::Cvta:
  case Opcode::Isspacep: {
    bool ToSpace = I.hasModifier(Modifier::To);
    StateSpace Space = I.Space;
    Expected<LaneValue> A = FL.read(I.Operands[1], ScalarType::U64);
    if (!A)
      return A.takeError();
    Value *V = A->V;
    Type *I64 = B.getInt64Ty();
    bool IsShared = Space == StateSpace::Shared ||
                    Space == StateSpace::SharedCTA ||
                    Space == StateSpace::SharedCluster;
    if (I.Op == Opcode::Isspacep) {
      Value *Result;
      Value *SharedBase = B.CreatePtrToInt(
          FL.getContextField(WCF_SharedBase, B.getPtrTy()), I64);
      Value *SharedSize = B.CreateZExt(
          FL.getContextField(WCF_TotalSharedSize, B.getInt32Ty()), I64);
      auto InRange = [&](Value *Lo, Value *Len) {
        Value *Off = B.CreateSub(V, A->isScalar() ? Lo : FL.splat(Lo));
        return B.CreateICmpULT(Off, A->isScalar() ? Len : FL.splat(Len));
      };
      Value *InShared = InRange(SharedBase, SharedSize);
      Value *InLocal =
          A->isScalar() ? (Value *)B.getFalse() : FL.splat(B.getFalse());
      if (Value *Frames = FL.getLocalFrames()) {
        // The frames of one warp's lanes are contiguous.
        Value *Lo = B.CreateExtractElement(Frames, uint64_t(0));
        InLocal = InRange(Lo, B.getInt64(FL.getLocalFrameSize() * Lanes));
      }
      if (!FL.F.IsEntry) {
        // Pointers to the callers' .local data may come in too. (A leaf
        // function's own frame may lie below the stack pointer.)
        Value *Top;
        Value *Lo = FL.getLocalStackRange(Top);
        InLocal = B.CreateOr(InLocal, InRange(Lo, B.CreateSub(Top, Lo)));
      }
      // .const data are host globals of their own: test each one.
      Value *InConst =
          A->isScalar() ? (Value *)B.getFalse() : FL.splat(B.getFalse());
      for (const auto &G : FL.ML.Globals) {
        GlobalVariable *GV = G.getValue();
        if (!GV->isConstant())
          continue;
        uint64_t Size =
            FL.ML.LM.getDataLayout().getTypeAllocSize(GV->getValueType());
        InConst = B.CreateOr(
            InConst, InRange(B.CreatePtrToInt(GV, I64), B.getInt64(Size)));
      }
      Value *InParam =
          A->isScalar() ? (Value *)B.getFalse() : FL.splat(B.getFalse());
      if (FL.F.IsEntry)
        InParam = InRange(B.CreatePtrToInt(FL.getParamsArg(), I64),
                          B.getInt64(FL.getParamBufferSize()));
      if (Space == StateSpace::SharedCluster)
        Result = inClusterShared(FL, V, A->isScalar());
      else if (IsShared)
        Result = InShared;
      else if (Space == StateSpace::Local)
        Result = InLocal;
      else if (Space == StateSpace::Const)
        Result = InConst;
      else if (Space == StateSpace::Param)
        Result = InParam;
      else if (Space == StateSpace::Global)
        Result = B.CreateNot(
            B.CreateOr(B.CreateOr(FL.widen(InShared), FL.widen(InLocal)),
                       B.CreateOr(FL.widen(InConst), FL.widen(InParam))));
      else
        Result = A->isScalar() ? (Value *)B.getFalse() : FL.splat(B.getFalse());
      return FL.write(I.Operands[0], Result, ScalarType::Pred);
    }
    if (IsShared) {
      Value *Base = B.CreatePtrToInt(
          FL.getContextField(WCF_SharedBase, B.getPtrTy()), I64);
      Value *BaseV = A->isScalar() ? Base : FL.splat(Base);
      V = ToSpace ? B.CreateSub(V, BaseV) : B.CreateAdd(V, BaseV);
      if (ToSpace && Space == StateSpace::SharedCluster)
        V = wrapClusterOffset(FL, V, A->isScalar());
    }
    return FL.write(I.Operands[0], V, I.getType());
  }
  default:
    return FL.error(I, "instruction '" + ptx::getSpelling(I.Op) +
                           "' is not supported yet");
  }
}
