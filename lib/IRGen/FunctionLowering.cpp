//===- FunctionLowering.cpp - One PTX function as one warp function -------===//
//
// Control flow: each PTX basic block becomes an LLVM block that runs with the
// running lanes. Lanes parked elsewhere wait, each at the block WarpLaneState
// records for it (its reverse-post-order number). A branch that all running
// lanes take the same way, while nobody waits, is a plain LLVM branch (the
// converged fast path). Otherwise lanes record their targets and the
// dispatcher resumes the group waiting at the lowest number, so groups meet
// again at the earliest common block.
//
//===----------------------------------------------------------------------===//

#include "CheckInstrumentation.h"
#include "InstructionVisitor.h"
#include "Lowering.h"
#include "ptxjit/ABI/WarpABI.h"
#include "ptxjit/PTX/ModuleInfo.h"
#include "ptxjit/PTX/SpecialRegisters.h"
#include "ptxjit/Transforms/SplitBlocks.h"
#include "ptxjit/Transforms/VectorRegisters.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Opcode;
using ptx::Operand;
using ptx::ScalarType;
using ptx::Statement;
using ptx::StateSpace;

FunctionLowering::FunctionLowering(ModuleLowering &ML, const ptx::Function &F,
                                   Function *Fn, PTXCFG CFGIn)
    : B(ML.Ctx), ML(ML), F(F), Fn(Fn), CFG(std::move(CFGIn)),
      UI(F, CFG, ML.KS), Warp(B, CFG) {}

Error FunctionLowering::error(const ptx::Instruction &I, const Twine &Msg) {
  return ML.makeError(I.Loc, Msg);
}

//===----------------------------------------------------------------------===//
// Types and lanes
//===----------------------------------------------------------------------===//

Type *FunctionLowering::getLaneType(ScalarType T) const {
  LLVMContext &C = ML.Ctx;
  if (T == ScalarType::Pred)
    return Type::getInt1Ty(C);
  if (T == ScalarType::F32)
    return Type::getFloatTy(C);
  if (T == ScalarType::F64)
    return Type::getDoubleTy(C);
  unsigned Bits = ptx::getBitWidth(T);
  return Type::getIntNTy(C, Bits < 8 ? 8 : Bits);
}

VectorType *FunctionLowering::getVectorType(Type *Elt) const {
  return FixedVectorType::get(Elt, Lanes);
}

Value *FunctionLowering::splat(Value *Scalar) {
  return B.CreateVectorSplat(Lanes, Scalar);
}

Value *FunctionLowering::widen(Value *V) {
  return V->getType()->isVectorTy() ? V : splat(V);
}

Value *FunctionLowering::coerce(Value *V, Type *To, bool Signed) {
  Type *From = V->getType();
  bool IsVec = From->isVectorTy();
  Type *FromElt = From->getScalarType();
  Type *ToTy = IsVec ? getVectorType(To) : To;
  if (FromElt == To)
    return V;
  unsigned FromBits = FromElt->getPrimitiveSizeInBits();
  unsigned ToBits = To->getPrimitiveSizeInBits();
  auto IntOf = [&](Type *T) -> Type * {
    Type *I = Type::getIntNTy(ML.Ctx, T->getPrimitiveSizeInBits());
    return IsVec ? getVectorType(I) : I;
  };
  if (FromBits == ToBits)
    return B.CreateBitCast(V, ToTy);
  // Different widths: go through integers.
  Value *AsInt =
      FromElt->isIntegerTy() ? V : B.CreateBitCast(V, IntOf(FromElt));
  Type *ToInt = IntOf(To);
  Value *Resized = ToBits < FromBits ? B.CreateTrunc(AsInt, ToInt)
                   : Signed          ? B.CreateSExt(AsInt, ToInt)
                                     : B.CreateZExt(AsInt, ToInt);
  return To->isIntegerTy() ? Resized : B.CreateBitCast(Resized, ToTy);
}

Value *FunctionLowering::getMask() { return Warp.running(); }

Value *FunctionLowering::maskToVector(Value *Mask) {
  return B.CreateBitCast(Mask, getVectorType(B.getInt1Ty()));
}

Value *FunctionLowering::laneIndices() {
  SmallVector<Constant *, Lanes> Idx;
  for (unsigned L = 0; L != Lanes; ++L)
    Idx.push_back(B.getInt32(L));
  return ConstantVector::get(Idx);
}

Value *FunctionLowering::getContextField(unsigned Field, Type *Ty) {
  Value *Ptr = B.CreateStructGEP(ML.WarpCtxTy, CtxArg, Field);
  return B.CreateLoad(Ty, Ptr);
}

void FunctionLowering::forEachActiveLane(Value *Mask,
                                         function_ref<void(Value *Lane)> Body) {
  // A loop over the set bits of Mask, lowest first: as many trips as
  // active lanes.
  Function *Fn = B.GetInsertBlock()->getParent();
  LLVMContext &C = B.getContext();
  Type *I32 = B.getInt32Ty();
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Loop = BasicBlock::Create(C, "lanes", Fn);
  BasicBlock *Exit = BasicBlock::Create(C, "lanes.done", Fn);
  B.CreateCondBr(B.CreateICmpNE(Mask, B.getInt32(0)), Loop, Exit);
  B.SetInsertPoint(Loop);
  PHINode *Left = B.CreatePHI(I32, 2, "lanes.left");
  Left->addIncoming(Mask, Pre);
  Body(B.CreateIntrinsic(Intrinsic::cttz, {I32}, {Left, B.getTrue()}));
  // Clear the lowest set bit: the next lane.
  Value *Rest = B.CreateAnd(Left, B.CreateSub(Left, B.getInt32(1)));
  Left->addIncoming(Rest, B.GetInsertBlock());
  B.CreateCondBr(B.CreateICmpNE(Rest, B.getInt32(0)), Loop, Exit);
  B.SetInsertPoint(Exit);
}

uint64_t FunctionLowering::getParamBufferSize() const {
  SmallVector<uint64_t, 8> Offsets;
  return ptx::layoutKernelParams(F, Offsets);
}

Value *FunctionLowering::predicateBits(const LaneValue &P) {
  return P.isScalar() ? B.CreateSelect(P.V, B.getInt32(~0u), B.getInt32(0))
                      : B.CreateBitCast(P.V, B.getInt32Ty());
}

Expected<Value *> FunctionLowering::guardedMask(const ptx::Instruction &I,
                                                Value *Mask) {
  if (I.GuardPredicate.empty())
    return Mask;
  Operand G = Operand::named(Operand::Register, I.GuardPredicate, I.Loc);
  G.Negated = I.GuardNegated;
  Expected<LaneValue> P = read(G, ScalarType::Pred);
  if (!P)
    return P.takeError();
  return B.CreateAnd(Mask, predicateBits(*P));
}

Value *FunctionLowering::getLocalFrames() {
  if (!LocalFrame)
    return nullptr;
  Value *Base = B.CreatePtrToInt(LocalFrame, B.getInt64Ty());
  Value *Lane = B.CreateZExt(laneIndices(), getVectorType(B.getInt64Ty()));
  return B.CreateAdd(splat(Base),
                     B.CreateMul(Lane, splat(B.getInt64(FrameSize))));
}

/// The in-memory element for lanes of Elt: bytes for i1 (a <32 x i1> in
/// memory is 32 bits, not addressable by lane).
static Type *getLaneMemoryType(Type *Elt) {
  return Elt->isIntegerTy(1) ? Type::getInt8Ty(Elt->getContext()) : Elt;
}

FunctionLowering::LaneStash FunctionLowering::stashIn(AllocaInst *&Slot,
                                                      Value *V) {
  auto *VT = dyn_cast<FixedVectorType>(V->getType());
  if (!VT)
    return {V, nullptr, nullptr};
  Type *Elt = VT->getElementType();
  Type *MemElt = getLaneMemoryType(Elt);
  if (MemElt != Elt)
    V = B.CreateZExt(V, FixedVectorType::get(MemElt, VT->getNumElements()));
  if (!Slot) {
    // <32 x i128> at most (b128 registers).
    IRBuilder<> EntryB(AllocaBB, AllocaBB->begin());
    Slot = EntryB.CreateAlloca(ArrayType::get(B.getInt8Ty(), Lanes * 16),
                               nullptr, "lane.slot");
    Slot->setAlignment(Align(64));
  }
  B.CreateAlignedStore(V, Slot, Align(64));
  return {Slot, Elt, MemElt};
}

Value *FunctionLowering::laneOf(Value *V, Value *Lane) {
  return loadStashedLane(stashIn(LaneScratch, V), Lane);
}

FunctionLowering::LaneStash FunctionLowering::stashLanes(Value *V,
                                                         unsigned Slot) {
  // The slots are shared by every lane loop of the function (one runs at a
  // time), so many atomics do not grow the warp's frame.
  assert(Slot < NumLaneStashSlots && "lane stash slot out of range");
  return stashIn(LaneStashSlots[Slot], V);
}

Value *FunctionLowering::loadStashedLane(const LaneStash &A, Value *Lane) {
  if (!A.Elt)
    return A.V;
  Value *R = B.CreateLoad(A.MemElt, B.CreateInBoundsGEP(A.MemElt, A.V, Lane));
  return A.MemElt != A.Elt ? B.CreateTrunc(R, A.Elt) : R;
}

Value *FunctionLowering::collectActiveLanes(
    Value *Mask, Type *Elt, function_ref<Value *(Value *Lane)> PerLane) {
  // Each result is stored at its lane's element, not inserted into a vector
  // by a variable index (see laneOf).
  Type *MemElt = getLaneMemoryType(Elt);
  AllocaInst *Results = createTemporary(ArrayType::get(MemElt, Lanes));
  Results->setAlignment(Align(64));
  forEachActiveLane(Mask, [&](Value *Lane) {
    Value *R = PerLane(Lane);
    if (MemElt != Elt)
      R = B.CreateZExt(R, MemElt);
    B.CreateStore(R, B.CreateInBoundsGEP(Results->getAllocatedType(), Results,
                                         {B.getInt32(0), Lane}));
  });
  Value *V = B.CreateAlignedLoad(FixedVectorType::get(MemElt, Lanes), Results,
                                 Align(64));
  return MemElt != Elt ? B.CreateTrunc(V, getVectorType(Elt)) : V;
}

AllocaInst *FunctionLowering::createTemporary(Type *Ty) {
  IRBuilder<> EntryB(AllocaBB, AllocaBB->begin());
  AllocaInst *A = EntryB.CreateAlloca(Ty);
  B.CreateStore(Constant::getNullValue(Ty), A);
  return A;
}

Value *FunctionLowering::readCarry() {
  Type *Ty = getVectorType(B.getInt1Ty());
  if (!CarryVar) {
    IRBuilder<> EntryB(AllocaBB, AllocaBB->begin());
    CarryVar = EntryB.CreateAlloca(Ty, nullptr, "carry");
    EntryB.CreateStore(Constant::getNullValue(Ty), CarryVar);
  }
  return B.CreateLoad(Ty, CarryVar);
}

void FunctionLowering::writeCarry(Value *Carry) {
  Value *Old = readCarry();
  B.CreateStore(B.CreateSelect(maskToVector(InstMask), widen(Carry), Old),
                CarryVar);
}

//===----------------------------------------------------------------------===//
// Registers and variables
//===----------------------------------------------------------------------===//

void FunctionLowering::declareRegisters() {
  auto Declare = [&](StringRef Name, ScalarType T) {
    Register R;
    R.Type = T;
    R.Sh = UI.getRegister(Name);
    Registers.try_emplace(Name, R);
  };
  auto DeclareAll = [&](const ptx::VariableDecl &V) {
    if (V.Space != StateSpace::Reg)
      return;
    if (!V.IsRange) {
      Declare(V.Name, V.Type);
      return;
    }
    for (unsigned I = 0; I != V.RangeCount; ++I)
      Declare((V.Name + Twine(I)).str(), V.Type);
  };
  for (const ptx::VariableDecl &V : F.Locals)
    DeclareAll(V);
  // A vector .reg parameter or return is its components' registers.
  for (const auto *List : {&F.Params, &F.Returns})
    for (const ptx::VariableDecl &V : *List) {
      if (V.Space != StateSpace::Reg || V.VectorWidth == 1) {
        DeclareAll(V);
        continue;
      }
      for (const std::string &Name : transforms::getParamRegisters(V))
        Declare(Name, V.Type);
    }
}

// nvcc materializes the lane and clamp operands of shfl (and of bfe,
// prmt, ...) in registers written once by a mov of an immediate. Once the
// block is reachable from the dispatcher too, LLVM sees a merge of the
// constant with the slot's other contents and cannot fold it, and shfl
// becomes a gather instead of a vector shuffle. Such a register holds the
// immediate wherever it is defined at all (reading it before the mov is
// undefined), so reads use the immediate.
void FunctionLowering::findConstantRegisters() {
  struct Write {
    int64_t Value;
    ScalarType Type;
  };
  // Absent: never written; nullopt: written otherwise.
  StringMap<std::optional<Write>> Writes;
  std::function<void(const Operand &)> NotConstant = [&](const Operand &Op) {
    if (Op.Kind == Operand::Register)
      Writes[Op.Name] = std::nullopt;
    for (const Operand &E : Op.Elements)
      NotConstant(E);
  };
  // A .reg parameter or return is written by the caller or the callee.
  for (const auto *List : {&F.Params, &F.Returns})
    for (const ptx::VariableDecl &V : *List)
      if (V.Space == StateSpace::Reg) {
        if (V.VectorWidth == 1)
          Writes[V.Name] = std::nullopt;
        else
          for (const std::string &Name : transforms::getParamRegisters(V))
            Writes[Name] = std::nullopt;
      }
  for (const ptx::Statement &S : F.Body) {
    if (S.Kind != ptx::Statement::Inst)
      continue;
    const ptx::Instruction &I = S.Instr;
    for (unsigned K = 0, Dests = I.getNumDestinations(); K != Dests; ++K) {
      const Operand &D = I.Operands[K];
      ScalarType T = I.getType();
      auto R = Registers.find(D.Name);
      bool IsConstantMov =
          I.Op == Opcode::Mov && I.Operands.size() == 2 &&
          D.Kind == Operand::Register && D.Elements.empty() &&
          I.Operands[1].Kind == Operand::IntImm && R != Registers.end() &&
          ptx::isInteger(T) && ptx::isInteger(R->second.Type) &&
          !ptx::getPackedIntegerParts(T) &&
          ptx::getBitWidth(T) == ptx::getBitWidth(R->second.Type);
      if (!IsConstantMov) {
        NotConstant(D);
        continue;
      }
      Write W{I.Operands[1].Value, T};
      auto [It, First] = Writes.try_emplace(D.Name, W);
      if (!First && It->second &&
          (It->second->Value != W.Value || It->second->Type != W.Type))
        It->second = std::nullopt;
    }
  }
  for (auto &[Name, W] : Writes)
    if (W) {
      Register &R = Registers.find(Name)->second;
      R.Constant = W->Value;
      R.ConstantType = W->Type;
    }
}

/// A PTX register's name as an LLVM value name: "%r1" -> "r1", and an
/// inlined callee's "twice.0.%r1" -> "twice.0.r1" (LLVM would quote '%').
static std::string getIRName(StringRef Reg) {
  std::string Name;
  for (char C : Reg)
    if (C != '%')
      Name += C;
  return Name;
}

FunctionLowering::Register *FunctionLowering::findRegister(StringRef Name) {
  auto It = Registers.find(Name);
  if (It == Registers.end())
    return nullptr;
  Register &R = It->second;
  if (!R.Slot) {
    Type *Elt = getLaneType(R.Type);
    // Uniform: the value. Affine: the base of each segment of lanes, from
    // which the lanes are rebuilt when read (a <32 x T> would keep a wide
    // vector alive, spilled around every call). Varying: every lane.
    unsigned Bases = R.Sh.segment() == Lanes ? 1 : Lanes / R.Sh.segment();
    Type *Ty = R.Sh.isVarying() ? getVectorType(Elt)
               : Bases == 1     ? Elt
                                : FixedVectorType::get(Elt, Bases);
    IRBuilder<> EntryB(AllocaBB, AllocaBB->begin());
    R.Slot = EntryB.CreateAlloca(Ty, nullptr, getIRName(Name) + ".slot");
    // Deterministic contents for registers read before written.
    EntryB.CreateStore(Constant::getNullValue(Ty), R.Slot);
  }
  return &R;
}

Value *FunctionLowering::loadRegister(const Register &R) {
  Value *V = B.CreateLoad(R.Slot->getAllocatedType(), R.Slot);
  return R.Sh.Kind == Shape::Affine ? unpackAffine(R, V) : V;
}

Value *FunctionLowering::unpackAffine(const Register &R, Value *V) {
  Type *SlotTy = R.Slot->getAllocatedType();
  // Lane L holds Base[L / Segment] + (L % Segment) * Stride.
  unsigned Seg = R.Sh.Segment;
  Type *Elt = SlotTy->getScalarType();
  Value *Bases;
  if (Seg == Lanes) {
    Bases = splat(V);
  } else {
    SmallVector<int, Lanes> Idx;
    for (unsigned L = 0; L != Lanes; ++L)
      Idx.push_back(L / Seg);
    Bases = B.CreateShuffleVector(V, Idx);
  }
  if (R.Sh.Stride == 0)
    return Bases;
  SmallVector<Constant *, Lanes> Offsets;
  for (unsigned L = 0; L != Lanes; ++L)
    Offsets.push_back(
        ConstantInt::get(Elt, uint64_t((L % Seg) * R.Sh.Stride), true));
  return B.CreateAdd(Bases, ConstantVector::get(Offsets));
}

Value *FunctionLowering::packRegister(const Register &R, Value *V) {
  Type *SlotTy = R.Slot->getAllocatedType();
  if (R.Sh.Kind != Shape::Affine)
    return R.Sh.isVarying() ? widen(V) : V;
  // Keep the segments' bases; the other lanes follow from them.
  bool IsVec = V->getType()->isVectorTy();
  unsigned Seg = R.Sh.Segment;
  if (Seg == Lanes)
    return IsVec ? extractLane(V, 0) : V;
  if (!IsVec)
    return B.CreateVectorSplat(Lanes / Seg, V);
  Value *Bases = PoisonValue::get(SlotTy);
  for (unsigned K = 0; K != Lanes / Seg; ++K)
    Bases = B.CreateInsertElement(Bases, extractLane(V, K * Seg), K);
  return Bases;
}

FunctionLowering::LocalVariable *
FunctionLowering::findVariable(StringRef Name) {
  for (unsigned S = CurScope;; S = Scopes[S].Parent) {
    auto It = Scopes[S].Variables.find(Name);
    if (It != Scopes[S].Variables.end())
      return &It->second;
    if (S == 0)
      return nullptr;
  }
}

void FunctionLowering::declareVariables() {
  // .local variables share one frame per lane; .param variables in the body
  // (call arguments) get lane-major storage.
  IRBuilder<> EntryB(AllocaBB);
  Scopes.assign(2, VariableScope());
  Scopes[1].Parent = 0; // the body's outermost block
  StatementScope.assign(F.Body.size(), 1);
  unsigned Cur = 1;
  for (unsigned I = 0; I != F.Body.size(); ++I) {
    const Statement &S = F.Body[I];
    if (S.Kind == Statement::ScopeBegin) {
      Scopes.emplace_back();
      Scopes.back().Parent = Cur;
      Cur = Scopes.size() - 1;
    } else if (S.Kind == Statement::ScopeEnd && Cur > 1) {
      Cur = Scopes[Cur].Parent;
    }
    StatementScope[I] = Cur;
    if (S.Kind != Statement::Decl)
      continue;
    const ptx::VariableDecl &V = F.Locals[S.Index];
    LocalVariable LV;
    LV.Space = V.Space;
    LV.Size = V.getSizeInBytes();
    if (V.Space == StateSpace::Local) {
      uint64_t Align = ptx::getAlignment(V);
      FrameSize = alignTo(FrameSize, Align);
      LV.Offset = FrameSize;
      FrameSize += LV.Size;
    } else if (V.Space == StateSpace::Param) {
      LV.Storage = EntryB.CreateAlloca(
          ArrayType::get(B.getInt8Ty(), Lanes * std::max<uint64_t>(LV.Size, 1)),
          nullptr, V.Name);
      cast<AllocaInst>(LV.Storage)->setAlignment(Align(16));
    } else {
      continue; // .reg handled elsewhere, .shared by ModuleLowering
    }
    Scopes[Cur].Variables[V.Name] = LV;
  }
  StringMap<LocalVariable> &Variables = Scopes[0].Variables;
  // alloca's dynamic stack lies above the variables (Stack.cpp).
  bool HasAlloca = any_of(F.Body, [](const Statement &S) {
    return S.Kind == Statement::Inst &&
           (S.Instr.Op == ptx::Opcode::Alloca ||
            S.Instr.Op == ptx::Opcode::Stacksave ||
            S.Instr.Op == ptx::Opcode::Stackrestore);
  });
  if (HasAlloca) {
    StaticFrameSize = alignTo(FrameSize, 16);
    FrameSize = StaticFrameSize + DynamicStackBytes;
    StackDepths = createTemporary(getVectorType(B.getInt64Ty()));
  }
  if (FrameSize) {
    FrameSize = alignTo(FrameSize, 16);
    ML.LocalBytesPerLane += FrameSize;
    auto *Frame =
        EntryB.CreateAlloca(ArrayType::get(B.getInt8Ty(), FrameSize * Lanes),
                            nullptr, "local.frame");
    Frame->setAlignment(Align(16));
    LocalFrame = Frame;
  }
  if (F.IsEntry) {
    SmallVector<uint64_t, 8> Offsets;
    ptx::layoutKernelParams(F, Offsets);
    for (unsigned I = 0; I != F.Params.size(); ++I) {
      LocalVariable LV;
      LV.Space = StateSpace::Param;
      LV.IsKernelParam = true;
      LV.Offset = Offsets[I];
      LV.Size = F.Params[I].getSizeInBytes();
      Variables[F.Params[I].Name] = LV;
    }
    return;
  }
  // Device function: arguments are (ctx, mask, returns..., params...).
  unsigned ArgNo = 2;
  auto Bind = [&](const ptx::VariableDecl &P) {
    Value *Arg = Fn->getArg(ArgNo++);
    if (P.Space != StateSpace::Param)
      return; // .reg parameters are copied into registers in lower()
    LocalVariable LV;
    LV.Space = StateSpace::Param;
    LV.Size = P.getSizeInBytes();
    LV.Storage = Arg;
    Variables[P.Name] = LV;
  };
  for (const ptx::VariableDecl &P : F.Returns)
    Bind(P);
  for (const ptx::VariableDecl &P : F.Params)
    Bind(P);
}

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

Expected<LaneValue> FunctionLowering::readSpecial(const Operand &Op) {
  StringRef N = Op.Name;
  Type *I32 = B.getInt32Ty();
  auto Scalar = [&](Value *V) { return LaneValue{V, Shape::uniform()}; };
  const uint32_t *D = ML.KS.BlockDim;
  unsigned Dim = Op.Component == 'y' ? 1 : Op.Component == 'z' ? 2 : 0;
  if (N == "%tid") {
    Shape Sh = UI.getSpecial(N, Op.Component);
    Value *WarpBase =
        B.CreateMul(getContextField(WCF_WarpIndex, I32), B.getInt32(Lanes));
    Value *Linear =
        Sh.isUniform() ? WarpBase : B.CreateAdd(splat(WarpBase), laneIndices());
    auto C = [&](uint32_t V) -> Value * {
      return Sh.isUniform() ? (Value *)B.getInt32(V) : splat(B.getInt32(V));
    };
    Value *R;
    if (Dim == 0)
      R = D[1] == 1 && D[2] == 1 ? Linear : B.CreateURem(Linear, C(D[0]));
    else if (Dim == 1)
      R = B.CreateURem(B.CreateUDiv(Linear, C(D[0])), C(D[1]));
    else
      R = B.CreateUDiv(Linear, C(D[0] * D[1]));
    return LaneValue{R, Sh};
  }
  if (N == "%ntid")
    return Scalar(B.getInt32(D[Dim]));
  if (N == "%ctaid" || N == "%nctaid") {
    unsigned Field = N == "%ctaid" ? WCF_CtaId : WCF_NCtaId;
    Value *Arr = B.CreateStructGEP(ML.WarpCtxTy, CtxArg, Field);
    Value *Ptr = B.CreateConstGEP1_32(I32, Arr, Dim);
    return Scalar(B.CreateLoad(I32, Ptr));
  }
  if (N == "%laneid")
    return LaneValue{laneIndices(), Shape::affine(1)};
  if (N == "%warpid")
    return Scalar(getContextField(WCF_WarpIndex, I32));
  if (N == "%nwarpid")
    return Scalar(B.getInt32((D[0] * D[1] * D[2] + Lanes - 1) / Lanes));
  if (N == "%smid")
    return Scalar(getContextField(WCF_SMId, I32));
  if (N == "%nsmid")
    return Scalar(getContextField(WCF_NSMId, I32));
  if (N == "%gridid")
    return Scalar(getContextField(WCF_GridId, B.getInt64Ty()));
  if (N == "%dynamic_smem_size")
    return Scalar(getContextField(WCF_DynamicSharedSize, I32));
  if (N == "%total_smem_size" || N == "%aggr_smem_size" ||
      N.starts_with("%reserved_smem_offset_"))
    return readSharedSizeSpecial(N);
  if (N.starts_with("%lanemask_")) {
    Value *Lane = laneIndices();
    Value *One = splat(B.getInt32(1));
    Value *Eq = B.CreateShl(One, Lane);
    Value *Lt = B.CreateSub(Eq, One);
    Value *Le = B.CreateOr(Lt, Eq);
    StringRef Kind = N.drop_front(strlen("%lanemask_"));
    Value *R = Kind == "eq"   ? Eq
               : Kind == "lt" ? Lt
               : Kind == "le" ? Le
               : Kind == "ge" ? B.CreateNot(Lt)
                              : B.CreateNot(Le);
    return LaneValue{R, Shape::varying()};
  }
  if (N.starts_with("%clock") || N.starts_with("%globaltimer")) {
    Value *TSC = B.CreateIntrinsic(Intrinsic::readcyclecounter, {});
    if (N == "%clock64" || N == "%globaltimer")
      return Scalar(TSC);
    if (N == "%clock_hi" || N == "%globaltimer_hi")
      return Scalar(B.CreateTrunc(B.CreateLShr(TSC, 32), I32));
    return Scalar(B.CreateTrunc(TSC, I32));
  }
  if (std::optional<ptx::SpecialRegisterRef> Ref =
          ptx::lookupSpecialRegister(N);
      Ref && Ref->Reg == ptx::SpecialRegister::EnvReg) {
    // The launch's environment (WarpContext::EnvRegs).
    Value *Regs = getContextField(WCF_EnvRegs, B.getPtrTy());
    return Scalar(
        B.CreateLoad(I32, B.CreateConstGEP1_32(I32, Regs, Ref->Index)));
  }
  if (N.starts_with("%cluster") || N == "%nclusterid" ||
      N == "%is_explicit_cluster")
    return readClusterSpecial(N, Dim);
  // %pm<N>: zero, as on a GPU without a profiler attached.
  return Scalar(B.getInt32(0));
}

LaneValue FunctionLowering::readSharedSizeSpecial(StringRef Name) {
  // The CTA's shared window: user memory (static, then dynamic) rounded up
  // to allocation units, then the reserved region (ReservedSharedBytes),
  // whose two offsets get half each.
  Type *I32 = B.getInt32Ty();
  Value *User = B.CreateAdd(getContextField(WCF_DynamicSharedSize, I32),
                            B.getInt32(ML.getDynamicSharedOffset()));
  uint32_t Unit = SharedAllocationUnit;
  Value *Begin = B.CreateAnd(B.CreateAdd(User, B.getInt32(Unit - 1)),
                             B.getInt32(~(Unit - 1)));
  auto Scalar = [](Value *V) { return LaneValue{V, Shape::uniform()}; };
  if (Name == "%total_smem_size")
    return Scalar(Begin);
  ML.UsesReservedShared = true;
  uint32_t Reserved = ReservedSharedBytes;
  std::optional<ptx::SpecialRegisterRef> Ref = ptx::lookupSpecialRegister(Name);
  assert(Ref && "verified special register");
  switch (Ref->Reg) {
  case ptx::SpecialRegister::ReservedSmemOffsetBegin:
    return Scalar(Begin);
  case ptx::SpecialRegister::ReservedSmemOffsetCap:
    return Scalar(B.getInt32(Reserved));
  case ptx::SpecialRegister::ReservedSmemOffset:
    return Scalar(B.CreateAdd(Begin, B.getInt32(Ref->Index * Reserved / 2)));
  default: // %reserved_smem_offset_end, %aggr_smem_size
    return Scalar(B.CreateAdd(Begin, B.getInt32(Reserved)));
  }
}

Expected<LaneValue> FunctionLowering::symbolAddress(StringRef Name, int64_t Off,
                                                    StateSpace *SpaceOut) {
  Type *I64 = B.getInt64Ty();
  if (LocalVariable *Found = findVariable(Name)) {
    LocalVariable &LV = *Found;
    if (SpaceOut)
      *SpaceOut = LV.Space;
    if (LV.Space == StateSpace::Local) {
      // Local addresses are the host addresses of each lane's copy.
      Value *Frame = getLocalFrames();
      return LaneValue{B.CreateAdd(Frame, splat(B.getInt64(LV.Offset + Off))),
                       Shape::affine(FrameSize)};
    }
    if (LV.IsKernelParam) {
      Value *P = B.CreatePtrToInt(ParamsArg, I64);
      return LaneValue{B.CreateAdd(P, B.getInt64(LV.Offset + Off)),
                       Shape::uniform()};
    }
    // Lane-major parameter storage: lane L at Storage + L*Size.
    Value *Base = B.CreatePtrToInt(LV.Storage, I64);
    Value *Lane = B.CreateZExt(laneIndices(), getVectorType(I64));
    Value *R = B.CreateAdd(splat(B.CreateAdd(Base, B.getInt64(Off))),
                           B.CreateMul(Lane, splat(B.getInt64(LV.Size))));
    return LaneValue{R, Shape::affine(LV.Size)};
  }
  auto Sh = ML.SharedOffsets.find(Name);
  if (Sh != ML.SharedOffsets.end()) {
    if (SpaceOut)
      *SpaceOut = StateSpace::Shared;
    return LaneValue{B.getInt64(Sh->second + Off), Shape::uniform()};
  }
  if (GlobalVariable *GV = ML.Globals.lookup(Name)) {
    if (SpaceOut)
      *SpaceOut = StateSpace::Global;
    return LaneValue{B.CreateAdd(B.CreatePtrToInt(GV, I64), B.getInt64(Off)),
                     Shape::uniform()};
  }
  if (const ptx::Function *Callee = ML.PM.findFunction(Name)) {
    Expected<Function *> Fn = ML.getDeviceFunction(*Callee);
    if (!Fn)
      return Fn.takeError();
    if (SpaceOut)
      *SpaceOut = StateSpace::Global;
    return LaneValue{B.CreatePtrToInt(*Fn, I64), Shape::uniform()};
  }
  return ML.makeError(CurInst ? CurInst->Loc : SMLoc(),
                      "unknown symbol '" + Name + "'");
}

Expected<LaneValue> FunctionLowering::read(const Operand &Op, ScalarType T) {
  Type *Ty = getLaneType(T);
  bool Signed = ptx::isSigned(T);
  switch (Op.Kind) {
  case Operand::Register:
  case Operand::Symbol: {
    if (Op.Kind == Operand::Register && ptx::lookupSpecialRegister(Op.Name)) {
      Expected<LaneValue> S = readSpecial(Op);
      if (!S)
        return S;
      S->V = coerce(S->V, Ty, false);
      return S;
    }
    if (Register *R = findRegister(Op.Name)) {
      Shape Sh = R->Sh;
      Value *Held;
      if (R->Constant) {
        // What the register's one mov wrote (findConstantRegisters).
        Held = ConstantInt::get(getLaneType(R->ConstantType), *R->Constant,
                                ptx::isSigned(R->ConstantType));
        Sh = Shape::uniform();
      } else {
        Held = loadRegister(*R);
      }
      Value *V = coerce(Held, Ty, ptx::isSigned(R->Type));
      if (Op.Negated)
        V = B.CreateNot(V);
      if (Op.Value) {
        // `t + 4` outside brackets: the register's value plus the offset.
        if (!Ty->isIntOrIntVectorTy())
          return ML.makeError(Op.Loc, "an offset on register '" + Op.Name +
                                          "' in a non-integer operand");
        V = B.CreateAdd(V, ConstantInt::get(V->getType(), Op.Value));
        if (Sh.Kind == Shape::Affine)
          Sh = Shape::varying();
      }
      // A narrowed or reinterpreted affine value is no longer affine (one
      // uniform within segments stays so).
      if (Sh.Kind == Shape::Affine && Sh.Stride != 0 &&
          (Ty->getPrimitiveSizeInBits() <
               getLaneType(R->Type)->getPrimitiveSizeInBits() ||
           !Ty->isIntegerTy()))
        Sh = Shape::varying();
      return LaneValue{V, Sh};
    }
    if (Op.Kind == Operand::Register)
      return ML.makeError(Op.Loc, "unknown register '" + Op.Name + "'");
    // WARP_SZ, the one constant PTX predefines: the warp's width.
    if (Op.Name == "WARP_SZ") {
      if (!Ty->isIntegerTy())
        return ML.makeError(Op.Loc, "WARP_SZ in a non-integer operand");
      return LaneValue{ConstantInt::get(Ty, Lanes + Op.Value),
                       Shape::uniform()};
    }
    Expected<LaneValue> A = symbolAddress(Op.Name, Op.Value, nullptr);
    if (!A)
      return A;
    A->V = coerce(A->V, Ty, false);
    return A;
  }
  case Operand::IntImm: {
    if (Ty->isFloatingPointTy())
      return LaneValue{ConstantFP::get(Ty, double(Op.Value)), Shape::uniform()};
    if (Ty->isIntegerTy(1))
      return LaneValue{B.getInt1(Op.Value != 0), Shape::uniform()};
    return LaneValue{ConstantInt::get(Ty, Op.Value, Signed), Shape::uniform()};
  }
  case Operand::FloatImm:
  case Operand::DoubleImm: {
    bool IsF32 = Op.Kind == Operand::FloatImm;
    APFloat Val =
        IsF32 ? APFloat(APFloat::IEEEsingle(), APInt(32, uint32_t(Op.Value)))
              : APFloat(APFloat::IEEEdouble(), APInt(64, uint64_t(Op.Value)));
    if (Ty->isFloatingPointTy()) {
      bool Lost;
      Val.convert(Ty->getFltSemantics(), APFloat::rmNearestTiesToEven, &Lost);
      return LaneValue{ConstantFP::get(Ty, Val), Shape::uniform()};
    }
    if (T == ScalarType::F16 || T == ScalarType::BF16) {
      bool Lost;
      Val.convert(T == ScalarType::F16 ? APFloat::IEEEhalf()
                                       : APFloat::BFloat(),
                  APFloat::rmNearestTiesToEven, &Lost);
      return LaneValue{B.getInt(Val.bitcastToAPInt()), Shape::uniform()};
    }
    // A float literal in a bit-typed instruction is its bit pattern.
    APInt Bits = Val.bitcastToAPInt();
    return LaneValue{
        ConstantInt::get(Ty, Bits.zextOrTrunc(Ty->getIntegerBitWidth())),
        Shape::uniform()};
  }
  case Operand::Vector: {
    // {a, b}: packs the elements, the first in the low bits.
    unsigned Bits = Ty->getPrimitiveSizeInBits();
    unsigned N = Op.Elements.size();
    if (!N || Bits % N)
      return ML.makeError(Op.Loc, "cannot pack this vector operand");
    Type *EltTy = B.getIntNTy(Bits / N);
    Type *WideTy = B.getIntNTy(Bits);
    Value *Acc = nullptr;
    bool AllUniform = true;
    SmallVector<Value *, 4> Parts;
    for (const Operand &E : Op.Elements) {
      Expected<LaneValue> EV =
          read(E, ptx::lookupScalarType((".b" + Twine(Bits / N)).str())
                      .value_or(ScalarType::B32));
      if (!EV)
        return EV;
      AllUniform &= EV->isScalar();
      Parts.push_back(coerce(EV->V, EltTy, false));
    }
    for (unsigned I = 0; I != N; ++I) {
      Value *P = AllUniform ? Parts[I] : widen(Parts[I]);
      Value *Wide =
          B.CreateZExt(P, AllUniform ? WideTy : getVectorType(WideTy));
      Value *Shifted =
          I == 0 ? Wide
                 : B.CreateShl(
                       Wide,
                       AllUniform
                           ? ConstantInt::get(WideTy, I * (Bits / N))
                           : splat(ConstantInt::get(WideTy, I * (Bits / N))));
      Acc = Acc ? B.CreateOr(Acc, Shifted) : Shifted;
    }
    return LaneValue{coerce(Acc, Ty, false),
                     AllUniform ? Shape::uniform() : Shape::varying()};
  }
  default:
    return ML.makeError(Op.Loc, "unsupported operand");
  }
}

void FunctionLowering::nameAfterRegister(Value *V, StringRef Reg) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || I->hasName() || I->getContext().shouldDiscardValueNames())
    return;
  // r5, r5.1, r5.2, ...: LLVM would make the second "r51".
  std::string Base = getIRName(Reg);
  unsigned N = RegisterNameUses[Base]++;
  I->setName(N ? Base + "." + Twine(N) : Twine(Base));
}

bool FunctionLowering::mayWrapWhenWidened(const ptx::Instruction &I) const {
  auto Narrow = [&](unsigned N) {
    return N < I.Operands.size() &&
           !UI.getOperand(I.Operands[N]).widensExactly();
  };
  if (I.Op == Opcode::Cvt)
    return ptx::isInteger(I.getType()) && ptx::isInteger(I.getType(1)) &&
           ptx::getBitWidth(I.getType()) > ptx::getBitWidth(I.getType(1)) &&
           Narrow(1);
  if (I.Op == Opcode::Mul || I.Op == Opcode::Mad)
    return I.hasModifier(ptx::Modifier::Wide) && (Narrow(1) || Narrow(2));
  return false;
}

Value *FunctionLowering::checkAffineWrap(const Register &R, Value *Exact) {
  if (!Exact->getType()->isVectorTy())
    return nullptr;
  // A run of lanes spans less than the narrow type's range, so it wraps at
  // most once, and then its last lane is not where the step from its first
  // one leads (it is 2^bits away). Scalars: cheap.
  unsigned Seg = R.Sh.segment();
  Type *Elt = Exact->getType()->getScalarType();
  Value *Stride = ConstantInt::get(Elt, uint64_t(R.Sh.Stride));
  Value *Span = ConstantInt::get(Elt, uint64_t(R.Sh.Stride * (Seg - 1)));
  Value *Wraps = B.getFalse();
  for (unsigned First = 0; First != Lanes; First += Seg) {
    Value *Diff = B.CreateSub(extractLane(Exact, First + Seg - 1),
                              extractLane(Exact, First));
    Wraps = B.CreateOr(Wraps, B.CreateICmpNE(Diff, Span));
  }
  BasicBlock *Stop = BasicBlock::Create(ML.Ctx, "affine.wrap", Fn);
  BasicBlock *Ok = BasicBlock::Create(ML.Ctx, "affine.ok", Fn);
  MDNode *Unlikely = MDBuilder(ML.Ctx).createUnlikelyBranchWeights();
  // Only zero-extension gets the second look below: its wrap point is 0,
  // which an unsigned `x - 1` in an exited lane reaches; a sign-extended
  // run would have to pass 2^31. (The second look's base, a phi, keeps
  // LLVM from folding later addresses into the first lane's scalars.)
  bool Unsigned = !ptx::isSigned(
      CurInst->Op == Opcode::Cvt ? CurInst->getType(1) : CurInst->getType());
  if (Seg != Lanes || !Unsigned) {
    B.CreateCondBr(Wraps, Stop, Ok, Unlikely);
    B.SetInsertPoint(Stop);
    stopAffineWrap(R, Exact, packRegister(R, Exact));
    B.SetInsertPoint(Ok);
    return nullptr;
  }
  // Only the running lanes count: the others have left for good (an affine
  // register is written whole, by running lanes, in converged code, or is
  // read only in its block). So when lane 0 or 31 wrapped, look again at
  // the first and last running lanes, and take the base from the first: a
  // lane that wrapped and left stops nothing.
  BasicBlock *Fast = B.GetInsertBlock();
  BasicBlock *Running = BasicBlock::Create(ML.Ctx, "affine.running", Fn);
  Value *Lane0 = extractLane(Exact, 0);
  B.CreateCondBr(Wraps, Running, Ok, Unlikely);
  B.SetInsertPoint(Running);
  Value *Mask = B.CreateSelect(B.CreateICmpEQ(InstMask, B.getInt32(0)),
                               B.getInt32(1), InstMask);
  Value *First =
      B.CreateIntrinsic(Intrinsic::cttz, {B.getInt32Ty()}, {Mask, B.getTrue()});
  Value *Last = B.CreateSub(B.getInt32(Lanes - 1),
                            B.CreateIntrinsic(Intrinsic::ctlz, {B.getInt32Ty()},
                                              {Mask, B.getTrue()}));
  Value *AtFirst = B.CreateExtractElement(Exact, First);
  Value *RunSpan =
      B.CreateMul(B.CreateZExtOrTrunc(B.CreateSub(Last, First), Elt), Stride);
  Value *RunningWraps = B.CreateICmpNE(
      B.CreateSub(B.CreateExtractElement(Exact, Last), AtFirst), RunSpan);
  Value *Base = B.CreateSub(
      AtFirst, B.CreateMul(B.CreateZExtOrTrunc(First, Elt), Stride));
  B.CreateCondBr(RunningWraps, Stop, Ok, Unlikely);
  B.SetInsertPoint(Stop);
  stopAffineWrap(R, Exact, Base);
  B.SetInsertPoint(Ok);
  PHINode *Chosen = B.CreatePHI(Elt, 2);
  Chosen->addIncoming(Lane0, Fast);
  Chosen->addIncoming(Base, Running);
  return Chosen;
}

void FunctionLowering::stopAffineWrap(const Register &R, Value *Exact,
                                      Value *Bases) {
  // The running lanes the bases and step would not give back.
  Value *Bad =
      B.CreateAnd(B.CreateBitCast(B.CreateICmpNE(Exact, unpackAffine(R, Bases)),
                                  B.getInt32Ty()),
                  InstMask);
  setStatus(WS_AffineWrap, Bad, nullptr);
  B.CreateBr(StopBB);
}

Value *FunctionLowering::extractFirstActiveLane(Value *V) {
  // cttz of an empty mask is 32 (not poison): lane 0 then.
  Value *First = B.CreateIntrinsic(Intrinsic::cttz, {B.getInt32Ty()},
                                   {InstMask, B.getFalse()});
  return extractLaneAt(V, B.CreateAnd(First, B.getInt32(31)));
}

Error FunctionLowering::write(const Operand &Dst, Value *V, ScalarType T,
                              bool Signed) {
  if (Dst.Kind == Operand::Sink)
    return Error::success();
  if (Dst.Kind != Operand::Register && Dst.Kind != Operand::Symbol)
    return ML.makeError(Dst.Loc, "destination must be a register");
  Register *R = findRegister(Dst.Name);
  if (!R)
    return ML.makeError(Dst.Loc, "unknown register '" + Dst.Name + "'");
  nameAfterRegister(V, Dst.Name);
  Type *SlotTy = R->Slot->getAllocatedType();
  V = coerce(V, SlotTy->getScalarType(), Signed);
  bool Guarded = CurInst && !CurInst->GuardPredicate.empty();
  if (R->Sh.isUniform() && V->getType()->isVectorTy())
    V = extractFirstActiveLane(V); // uniform by analysis: any lane will do
  Value *Checked = nullptr;
  if (R->Sh.Kind == Shape::Affine && CurInst && mayWrapWhenWidened(*CurInst))
    Checked = checkAffineWrap(*R, V);
  V = Checked ? Checked : packRegister(*R, V);
  Value *Old = B.CreateLoad(SlotTy, R->Slot);
  if (!R->Sh.isVarying()) {
    // Uniform and affine registers are written whole so their lanes stay
    // consistent (see Uniformity.h); their guards are uniform.
    if (Guarded)
      V = B.CreateSelect(B.CreateICmpNE(InstMask, B.getInt32(0)), V, Old);
  } else if (Guarded || (!Converged && !UI.isBlockLocal(Dst.Name))) {
    // Varying registers keep the values of lanes that wait elsewhere; while
    // the warp is converged, inactive lanes have exited and only a guard
    // needs a blend. Nobody waits for a block-local register's old value.
    V = B.CreateSelect(maskToVector(InstMask), V, Old);
  }
  B.CreateStore(V, R->Slot);
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Addresses and memory
//===----------------------------------------------------------------------===//

Expected<LaneValue> FunctionLowering::getAddress(const Operand &Op,
                                                 StateSpace Space) {
  Type *I64 = B.getInt64Ty();
  if (Op.Kind != Operand::Address)
    return ML.makeError(Op.Loc, "expected a memory operand");
  LaneValue A;
  StateSpace SymSpace = StateSpace::None;
  if (Op.BaseIsRegister || (!Op.Name.empty() && findRegister(Op.Name))) {
    Expected<LaneValue> R = read(
        Operand::named(Operand::Register, Op.Name, Op.Loc), ScalarType::U64);
    if (!R)
      return R;
    A = *R;
    if (Op.Value)
      A.V = B.CreateAdd(A.V, A.isScalar() ? (Value *)B.getInt64(Op.Value)
                                          : splat(B.getInt64(Op.Value)));
  } else if (!Op.Name.empty()) {
    Expected<LaneValue> S = symbolAddress(Op.Name, Op.Value, &SymSpace);
    if (!S)
      return S;
    A = *S;
    // A parameter symbol is already a host address.
    if (SymSpace == StateSpace::Param || SymSpace == StateSpace::Global ||
        SymSpace == StateSpace::Const)
      return A;
  } else {
    A = LaneValue{B.getInt64(Op.Value), Shape::uniform()};
  }
  // Window-relative addresses become host addresses (a .shared::cluster
  // address is relative to the CTA's own window too; see Async.cpp).
  if (Space == StateSpace::Shared || Space == StateSpace::SharedCTA ||
      Space == StateSpace::SharedCluster) {
    Value *Base =
        B.CreatePtrToInt(getContextField(WCF_SharedBase, B.getPtrTy()), I64);
    A.V = B.CreateAdd(A.isScalar() ? Base : splat(Base), A.V);
  }
  // Local-space addresses are host addresses already (see symbolAddress).
  return A;
}

Value *FunctionLowering::loadLanes(const LaneValue &Addr, Type *Elt,
                                   Value *Mask, bool AlwaysSafe) {
  unsigned Size = Elt->getPrimitiveSizeInBits() / 8;
  Align Al(std::max(1u, Size));
  // A block only runs with some lane active, so an unguarded uniform access
  // needs no mask.
  bool Unguarded = CurInst && CurInst->GuardPredicate.empty();
  if (Addr.isScalar() && (AlwaysSafe || Unguarded))
    return B.CreateAlignedLoad(Elt, B.CreateIntToPtr(Addr.V, B.getPtrTy()),
                               AlwaysSafe ? Align(1) : Al);
  if (Addr.isScalar())
    // One load for the whole warp, only if some lane is active.
    return loadIfAny(Elt, B.CreateIntToPtr(Addr.V, B.getPtrTy()), Al,
                     B.CreateICmpNE(Mask, B.getInt32(0)));
  Value *VMask = maskToVector(Mask);
  if (Addr.Sh.Kind == Shape::Affine &&
      (Addr.Sh.Stride == Size || Addr.Sh.Stride == 0)) {
    // One contiguous (or one uniform) access per segment of lanes.
    unsigned Seg = Addr.Sh.Segment, N = Lanes / Seg;
    SmallVector<Value *, 8> Parts;
    for (unsigned K = 0; K != N; ++K) {
      Value *Base =
          B.CreateIntToPtr(extractLane(Addr.V, K * Seg), B.getPtrTy());
      Value *SegMask = sliceVector(VMask, K, Seg);
      if (Addr.Sh.Stride == 0) {
        Value *One = loadIfAny(Elt, Base, Al, B.CreateOrReduce(SegMask));
        Parts.push_back(B.CreateVectorSplat(Seg, One));
      } else {
        Parts.push_back(B.CreateMaskedLoad(FixedVectorType::get(Elt, Seg), Base,
                                           Al, SegMask));
      }
    }
    return concatVectors(Parts);
  }
  Value *Ptrs = B.CreateIntToPtr(Addr.V, getVectorType(B.getPtrTy()));
  return B.CreateMaskedGather(getVectorType(Elt), Ptrs, Al, VMask);
}

Value *FunctionLowering::loadIfAny(Type *Elt, Value *Ptr, Align Al,
                                   Value *Any) {
  GlobalVariable *Dummy = ML.getLoadDummy();
  if (Elt->getPrimitiveSizeInBits() / 8 > Dummy->getAlign()->value()) {
    Value *One = B.CreateMaskedLoad(FixedVectorType::get(Elt, 1), Ptr, Al,
                                    B.CreateVectorSplat(1, Any));
    return B.CreateExtractElement(One, uint64_t(0));
  }
  // Reading a dummy when no lane wants the value needs no branch, unlike a
  // masked load of one element; branches would make LLVM sink the
  // arithmetic between the loads past them and spill what was loaded.
  return B.CreateAlignedLoad(Elt, B.CreateSelect(Any, Ptr, Dummy), Al);
}

Value *FunctionLowering::extractLane(Value *V, unsigned Lane) {
  // Affine values are built from segment bases by shuffles, additions of
  // constants and splats, and casts; extracting through them keeps the
  // arithmetic scalar, where instcombine would leave vector operations that
  // several extractions share.
  if (Value *S = getSplatValue(V))
    return S;
  if (auto *C = dyn_cast<Constant>(V))
    return C->getAggregateElement(Lane);
  if (auto *Shuf = dyn_cast<ShuffleVectorInst>(V)) {
    int M = Shuf->getMaskValue(Lane);
    unsigned N =
        cast<FixedVectorType>(Shuf->getOperand(0)->getType())->getNumElements();
    if (M >= 0)
      return unsigned(M) < N ? extractLane(Shuf->getOperand(0), M)
                             : extractLane(Shuf->getOperand(1), M - N);
  }
  if (auto *Ins = dyn_cast<InsertElementInst>(V))
    if (auto *Idx = dyn_cast<ConstantInt>(Ins->getOperand(2)))
      return Idx->getZExtValue() == Lane
                 ? Ins->getOperand(1)
                 : extractLane(Ins->getOperand(0), Lane);
  if (auto *Cast = dyn_cast<CastInst>(V);
      Cast && Cast->getSrcTy()->isVectorTy())
    return B.CreateCast(Cast->getOpcode(),
                        extractLane(Cast->getOperand(0), Lane),
                        Cast->getDestTy()->getScalarType());
  if (auto *Bin = dyn_cast<BinaryOperator>(V)) {
    Instruction::BinaryOps Op = Bin->getOpcode();
    bool Cheap = Op == Instruction::Add || Op == Instruction::Sub ||
                 Op == Instruction::Mul || Op == Instruction::Shl ||
                 Op == Instruction::Or || Op == Instruction::And;
    auto IsSimple = [](Value *X) {
      return isa<Constant>(X) || getSplatValue(X);
    };
    if (Cheap && (IsSimple(Bin->getOperand(0)) || IsSimple(Bin->getOperand(1))))
      return B.CreateBinOp(Op, extractLane(Bin->getOperand(0), Lane),
                           extractLane(Bin->getOperand(1), Lane));
  }
  return B.CreateExtractElement(V, uint64_t(Lane));
}

/// C[L] == First + L * Step for every lane L of the integer vector C.
static bool isLaneSequence(const Constant *C, APInt &First, APInt &Step) {
  auto *VT = dyn_cast<FixedVectorType>(C->getType());
  if (!VT || !VT->getElementType()->isIntegerTy())
    return false;
  unsigned N = VT->getNumElements();
  auto Elt = [&](unsigned L) -> const ConstantInt * {
    return dyn_cast_or_null<ConstantInt>(C->getAggregateElement(L));
  };
  const ConstantInt *C0 = Elt(0), *C1 = N > 1 ? Elt(1) : nullptr;
  if (!C0 || !C1)
    return false;
  First = C0->getValue();
  Step = C1->getValue() - First;
  for (unsigned L = 2; L != N; ++L) {
    const ConstantInt *CL = Elt(L);
    if (!CL || CL->getValue() != First + Step * L)
      return false;
  }
  return true;
}

Value *FunctionLowering::extractLaneAt(Value *V, Value *Lane) {
  // As extractLane, for a lane known only at run time (the first running
  // one): through splats, lane-index sequences, cheap arithmetic, casts and
  // integer compares, so that a uniform branch on %tid compares a scalar
  // instead of storing the vector to read one element back.
  if (Value *S = getSplatValue(V))
    return S;
  if (auto *C = dyn_cast<Constant>(V)) {
    APInt First, Step;
    if (isLaneSequence(C, First, Step)) {
      Type *Elt = C->getType()->getScalarType();
      Value *L = B.CreateZExtOrTrunc(Lane, Elt);
      return B.CreateAdd(ConstantInt::get(Elt, First),
                         B.CreateMul(L, ConstantInt::get(Elt, Step)));
    }
    return B.CreateExtractElement(V, Lane);
  }
  if (auto *Cast = dyn_cast<CastInst>(V);
      Cast && Cast->getSrcTy()->isVectorTy())
    return B.CreateCast(Cast->getOpcode(),
                        extractLaneAt(Cast->getOperand(0), Lane),
                        Cast->getDestTy()->getScalarType());
  auto IsSimple = [](Value *X) { return isa<Constant>(X) || getSplatValue(X); };
  if (auto *Bin = dyn_cast<BinaryOperator>(V)) {
    Instruction::BinaryOps Op = Bin->getOpcode();
    bool Cheap = Op == Instruction::Add || Op == Instruction::Sub ||
                 Op == Instruction::Mul || Op == Instruction::Shl ||
                 Op == Instruction::Or || Op == Instruction::And;
    if (Cheap && (IsSimple(Bin->getOperand(0)) || IsSimple(Bin->getOperand(1))))
      return B.CreateBinOp(Op, extractLaneAt(Bin->getOperand(0), Lane),
                           extractLaneAt(Bin->getOperand(1), Lane));
  }
  if (auto *Cmp = dyn_cast<ICmpInst>(V);
      Cmp && (IsSimple(Cmp->getOperand(0)) || IsSimple(Cmp->getOperand(1))))
    return B.CreateICmp(Cmp->getPredicate(),
                        extractLaneAt(Cmp->getOperand(0), Lane),
                        extractLaneAt(Cmp->getOperand(1), Lane));
  return B.CreateExtractElement(V, Lane);
}

Value *FunctionLowering::sliceVector(Value *V, unsigned K, unsigned Width) {
  if (Width == cast<FixedVectorType>(V->getType())->getNumElements())
    return V;
  SmallVector<int, Lanes> Idx;
  for (unsigned I = 0; I != Width; ++I)
    Idx.push_back(K * Width + I);
  return B.CreateShuffleVector(V, Idx);
}

Value *FunctionLowering::concatVectors(ArrayRef<Value *> Parts) {
  SmallVector<Value *, 8> Level(Parts.begin(), Parts.end());
  while (Level.size() > 1) {
    SmallVector<Value *, 8> Next;
    for (unsigned I = 0; I + 1 < Level.size(); I += 2) {
      unsigned W = cast<FixedVectorType>(Level[I]->getType())->getNumElements();
      SmallVector<int, Lanes> Idx;
      for (unsigned J = 0; J != 2 * W; ++J)
        Idx.push_back(J);
      Next.push_back(B.CreateShuffleVector(Level[I], Level[I + 1], Idx));
    }
    Level = std::move(Next);
  }
  return Level[0];
}

void FunctionLowering::storeLanes(const LaneValue &Addr, Value *Val,
                                  Value *Mask) {
  Type *Elt = Val->getType()->getScalarType();
  unsigned Size = Elt->getPrimitiveSizeInBits() / 8;
  Align Al(std::max(1u, Size));
  if (Addr.isScalar() && !Val->getType()->isVectorTy()) {
    Value *Ptr = B.CreateIntToPtr(Addr.V, B.getPtrTy());
    if (CurInst && CurInst->GuardPredicate.empty()) {
      B.CreateAlignedStore(Val, Ptr, Al);
      return;
    }
    Value *Any = B.CreateICmpNE(Mask, B.getInt32(0));
    B.CreateMaskedStore(B.CreateVectorSplat(1, Val), Ptr, Al,
                        B.CreateVectorSplat(1, Any));
    return;
  }
  Value *VMask = maskToVector(Mask);
  Value *V = widen(Val);
  if (!Addr.isScalar() && Addr.Sh.Kind == Shape::Affine &&
      Addr.Sh.Stride == Size) {
    unsigned Seg = Addr.Sh.Segment, N = Lanes / Seg;
    for (unsigned K = 0; K != N; ++K) {
      Value *Base = extractLane(Addr.V, K * Seg);
      B.CreateMaskedStore(sliceVector(V, K, Seg),
                          B.CreateIntToPtr(Base, B.getPtrTy()), Al,
                          sliceVector(VMask, K, Seg));
    }
    return;
  }
  // Same address in several lanes: scatter writes lanes in order, so the
  // highest active lane wins, one of the outcomes PTX allows.
  Value *Ptrs = B.CreateIntToPtr(widen(Addr.V), getVectorType(B.getPtrTy()));
  B.CreateMaskedScatter(V, Ptrs, Al, VMask);
}

Error FunctionLowering::lowerInstruction(const ptx::Instruction &I) {
  CurInst = &I;
  Expected<Value *> Active = guardedMask(I, getMask());
  if (!Active)
    return Active.takeError();
  InstMask = *Active;
  return InstructionLowering(*this).visit(I);
}

// The families lowered elsewhere; the arithmetic ones are in Arithmetic.cpp.
Error InstructionLowering::visitConversion(const ptx::Instruction &I) {
  return lowerConversion(FL, I);
}
Error InstructionLowering::visitMemory(const ptx::Instruction &I) {
  return lowerMemory(FL, I);
}
Error InstructionLowering::visitCall(const ptx::Instruction &I) {
  return FL.lowerCall(I);
}
Error InstructionLowering::visitBarrier(const ptx::Instruction &I) {
  return FL.lowerBarrierOp(I);
}
Error InstructionLowering::visitWarpSync(const ptx::Instruction &I) {
  return FL.lowerWarpSync(I);
}
Error InstructionLowering::visitTerminator(const ptx::Instruction &I) {
  // lowerBlock hands the instructions that end a block to lowerTerminator.
  return FL.error(I, "internal error: '" + ptx::getSpelling(I.Op) +
                         "' lowered inside a block");
}
Error InstructionLowering::visitNoOp(const ptx::Instruction &I) {
  // nanosleep, pmevent and brkpt have no effect the emulation models.
  return Error::success();
}
Error InstructionLowering::visitUnsupported(const ptx::Instruction &I) {
  return FL.error(I, "instruction '" + ptx::getSpelling(I.Op) +
                         "' is not supported yet");
}

bool FunctionLowering::isPredicateRegister(const Operand &Op) {
  if (Op.Kind != Operand::Register && Op.Kind != Operand::Symbol)
    return false;
  Register *R = findRegister(Op.Name);
  return R && R->Type == ScalarType::Pred;
}

bool FunctionLowering::calleesTestLocalSpace() const {
  for (const ptx::Function &G : ML.PM.Functions)
    if (!G.IsEntry)
      for (const Statement &S : G.Body)
        if (S.Kind == Statement::Inst && S.Instr.Op == Opcode::Isspacep)
          return true;
  return false;
}

Value *FunctionLowering::getLocalStackRange(Value *&Top) {
  Top = B.CreatePtrToInt(getContextField(WCF_LocalStackTop, B.getPtrTy()),
                         B.getInt64Ty());
  return B.CreatePtrToInt(
      B.CreateIntrinsic(Intrinsic::stacksave, {B.getPtrTy()}, {}),
      B.getInt64Ty());
}

Error FunctionLowering::lower() {
  AllocaBB = BasicBlock::Create(ML.Ctx, "entry", Fn);
  B.SetInsertPoint(AllocaBB);
  B.SetCurrentDebugLocation(ML.DebugLocs.get(Fn, F.Loc));
  Type *I32 = B.getInt32Ty();
  if (F.IsEntry) {
    ParamsArg = Fn->getArg(0);
    CtxArg = Fn->getArg(1);
  } else {
    CtxArg = Fn->getArg(0);
  }
  Warp.declare(AllocaBB);
  declareRegisters();
  findConstantRegisters();
  declareVariables();
  B.SetInsertPoint(AllocaBB);
  declareExchanges();
  preparePhases();
  if (F.IsEntry) {
    Warp.setRunning(getContextField(WCF_InitialMask, I32));
    if (calleesTestLocalSpace()) {
      // The frames of this function and its callees are below this.
      Value *Top = B.CreateIntrinsic(Intrinsic::frameaddress, {B.getPtrTy()},
                                     {B.getInt32(0)});
      B.CreateStore(Top,
                    B.CreateStructGEP(ML.WarpCtxTy, CtxArg, WCF_LocalStackTop));
    }
  } else {
    Warp.setRunning(Fn->getArg(1));
  }
  Warp.initialize(/*IsDeviceFunction=*/!F.IsEntry);
  if (!F.IsEntry) {
    // .reg parameters arrive as lane-major storage like .param ones.
    unsigned ArgNo = 2 + F.Returns.size();
    for (const ptx::VariableDecl &P : F.Params) {
      Value *Arg = Fn->getArg(ArgNo++);
      if (P.Space != StateSpace::Reg)
        continue;
      // A vector's components lie one after another, each lane-major.
      auto Names = transforms::getParamRegisters(P);
      for (unsigned K = 0; K != Names.size(); ++K)
        if (Register *R = findRegister(Names[K])) {
          Type *VecTy =
              getVectorType(R->Slot->getAllocatedType()->getScalarType());
          Value *V = B.CreateAlignedLoad(
              VecTy, B.CreateConstInBoundsGEP1_64(VecTy, Arg, K), Align(16));
          if (R->Sh.isUniform())
            V = B.CreateExtractElement(V, uint64_t(0));
          B.CreateStore(packRegister(*R, V), R->Slot);
        }
    }
  }

  emitLocalFrameCheck(*this, /*Enter=*/true);

  ReadRegisters = transforms::collectReadRegisters(F);
  SplitBlocks = transforms::findSplitBlocks(F, CFG, UI, ReadRegisters);
  for (unsigned V : {0, 1}) {
    BlockBBs[V].assign(CFG.Blocks.size(), nullptr);
    for (unsigned Blk : CFG.RPO)
      if (V || SplitBlocks.test(Blk))
        BlockBBs[V][Blk] =
            BasicBlock::Create(ML.Ctx, (V ? "bb" : "bb.div") + Twine(Blk), Fn);
  }
  Warp.createDispatcher(Fn);
  StopBB = BasicBlock::Create(ML.Ctx, "stop", Fn);
  BasicBlock *Start = BasicBlock::Create(ML.Ctx, "start", Fn);
  B.CreateBr(Start);
  B.SetInsertPoint(Start);
  if (Phased) {
    // A warp running in phases starts at the barrier it returned at.
    Value *Site = B.CreateStructGEP(ML.WarpCtxTy, CtxArg, WCF_ResumeSite);
    Value *From = B.CreateLoad(I32, Site);
    B.CreateStore(B.getInt32(0), Site);
    PhaseEntry = B.CreateSwitch(From, BlockBBs[1][0]);
  } else {
    B.CreateBr(BlockBBs[1][0]);
  }

  for (unsigned Blk : CFG.RPO)
    for (bool C : {true, false}) {
      if (!C && !SplitBlocks.test(Blk))
        continue;
      Converged = C;
      if (Error E = lowerBlock(Blk))
        return E;
    }
  emitDispatcher();
  emitStop();
  emitPhaseSites();
  emitPhaseProbes();
  return Error::success();
}
