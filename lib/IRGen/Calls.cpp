//===- Calls.cpp - call: direct, indirect, divergent ----------------------===//
//
// A device function is an LLVM function that runs the calling lanes:
//   i32 @ptx.f(ptr Warp, i32 Mask, ptr Returns..., ptr Params...)
// Every .param is lane-major storage (lane L's copy at L * size). The result
// is the set of lanes that executed `exit` inside, which leave the caller
// too. An indirect call whose target differs between lanes calls each
// distinct target once with the lanes that chose it.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "ptxjit/ABI/WarpABI.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Operand;
using ptx::ScalarType;
using ptx::StateSpace;

Expected<Value *> FunctionLowering::getCallSlot(
    const Operand &Op, bool IsReturn,
    SmallVectorImpl<std::pair<const Operand *, Value *>> &CopyBack) {
  if (Op.Kind == Operand::Symbol || Op.Kind == Operand::Register) {
    LocalVariable *LV = findVariable(Op.Name);
    if (LV && LV->Storage)
      return LV->Storage;
    if (Register *R = findRegister(Op.Name)) {
      // A register argument: copy it through lane-major storage.
      Type *Elt = R->Slot->getAllocatedType()->getScalarType();
      AllocaInst *Tmp = createTemporary(getVectorType(Elt));
      if (!IsReturn) {
        Value *V = loadRegister(*R);
        B.CreateStore(widen(V), Tmp);
      } else {
        CopyBack.push_back({&Op, Tmp});
      }
      return Tmp;
    }
  }
  if (Op.Kind == Operand::Vector && !Op.Elements.empty()) {
    // A vector register (split into its components): the components'
    // lane-major <32 x T> one after another, as the callee reads them.
    SmallVector<Register *, 4> Regs;
    for (const Operand &E : Op.Elements) {
      Register *R = E.Kind == Operand::Register || E.Kind == Operand::Symbol
                        ? findRegister(E.Name)
                        : nullptr;
      if (!R)
        return ML.makeError(E.Loc, "a vector call argument or result must be "
                                   "a vector register");
      Regs.push_back(R);
    }
    Type *Elt = Regs[0]->Slot->getAllocatedType()->getScalarType();
    Type *VecTy = getVectorType(Elt);
    if (any_of(Regs, [&](Register *R) {
          return R->Slot->getAllocatedType()->getScalarType() != Elt;
        }))
      return ML.makeError(Op.Loc, "vector call operand of mixed types");
    AllocaInst *Tmp = createTemporary(ArrayType::get(VecTy, Regs.size()));
    for (unsigned K = 0; K != Regs.size(); ++K) {
      Value *Slot =
          B.CreateConstInBoundsGEP2_32(Tmp->getAllocatedType(), Tmp, 0, K);
      if (!IsReturn)
        B.CreateStore(widen(loadRegister(*Regs[K])), Slot);
      else
        CopyBack.push_back({&Op.Elements[K], Slot});
    }
    return Tmp;
  }
  return ML.makeError(Op.Loc, "call arguments must be .param variables or "
                              "registers");
}

/// The parameters the callee of call I declares: a direct callee's own, or
/// those of the .callprototype an indirect call names; null if not found.
static const std::vector<ptx::VariableDecl> *
getDeclaredParams(const ptx::Module &PM, const ptx::Function &F,
                  const ptx::Instruction &I, bool Indirect) {
  if (!Indirect) {
    const ptx::Function *Callee =
        PM.findFunction(I.Operands[I.NumCallReturns].Name);
    return Callee ? &Callee->Params : nullptr;
  }
  if (!I.HasCallPrototype)
    return nullptr;
  for (const ptx::Statement &S : F.Body)
    if (S.Kind == ptx::Statement::Prototype &&
        S.Dir.Name == I.Operands.back().Name)
      return &F.Prototypes[S.Index].Params;
  return nullptr;
}

Error FunctionLowering::getCallSlots(
    const ptx::Instruction &I, SmallVectorImpl<Value *> &Slots,
    SmallVectorImpl<std::pair<const Operand *, Value *>> &CopyBack) {
  // Operands are [returns..., callee, args..., prototype?].
  unsigned NRet = I.NumCallReturns, NArg = I.NumCallArgs;
  const Operand &CalleeOp = I.Operands[NRet];
  const std::vector<ptx::VariableDecl> *Params = getDeclaredParams(
      ML.PM, F, I,
      CalleeOp.Kind != Operand::Symbol || findRegister(CalleeOp.Name));
  for (unsigned K = 0; K != NRet + NArg; ++K) {
    const Operand &Op = I.Operands[K < NRet ? K : K + 1];
    bool Named =
        Op.Kind == Operand::Vector ||
        ((Op.Kind == Operand::Symbol || Op.Kind == Operand::Register) &&
         (findVariable(Op.Name) || findRegister(Op.Name)));
    if (K >= NRet && !Named) {
      // A literal argument (the verifier allows no other kinds here): each
      // lane passes its value, typed as the parameter is declared.
      const ptx::VariableDecl *P =
          Params && K - NRet < Params->size() ? &(*Params)[K - NRet] : nullptr;
      if (!P || P->VectorWidth != 1 || !P->Dims.empty())
        return error(I, "a literal call argument needs a scalar parameter");
      Expected<LaneValue> V = read(Op, P->Type);
      if (!V)
        return V.takeError();
      AllocaInst *Tmp = createTemporary(getVectorType(getLaneType(P->Type)));
      B.CreateStore(widen(V->V), Tmp);
      Slots.push_back(Tmp);
      continue;
    }
    Expected<Value *> Slot = getCallSlot(Op, K < NRet, CopyBack);
    if (!Slot)
      return Slot.takeError();
    Slots.push_back(*Slot);
  }
  return Error::success();
}

Error FunctionLowering::copyBack(
    ArrayRef<std::pair<const Operand *, Value *>> CopyBack) {
  for (auto &[Op, Tmp] : CopyBack) {
    Register *R = findRegister(Op->Name);
    Type *VecTy = getVectorType(R->Slot->getAllocatedType()->getScalarType());
    if (Error E = write(*Op, B.CreateLoad(VecTy, Tmp), R->Type))
      return E;
  }
  return Error::success();
}

void FunctionLowering::emitCall(FunctionCallee Callee, Value *Mask,
                                ArrayRef<Value *> Slots) {
  SmallVector<Value *, 8> Args{CtxArg, Mask};
  Args.append(Slots.begin(), Slots.end());
  // The call depth a stack overflow reports (WarpContext::CallDepth).
  Value *DepthPtr = B.CreateStructGEP(ML.WarpCtxTy, CtxArg, WCF_CallDepth);
  Value *Depth = B.CreateLoad(B.getInt32Ty(), DepthPtr);
  B.CreateStore(B.CreateAdd(Depth, B.getInt32(1)), DepthPtr);
  Value *Exited = B.CreateCall(Callee, Args);
  B.CreateStore(Depth, DepthPtr);
  // A trap, cancel or deadlock in the callee stops this warp too.
  Value *Status = getContextField(WCF_Status, B.getInt32Ty());
  BasicBlock *Ok =
      BasicBlock::Create(ML.Ctx, "call.ok", B.GetInsertBlock()->getParent());
  B.CreateCondBr(B.CreateICmpNE(Status, B.getInt32(0)), StopBB, Ok);
  B.SetInsertPoint(Ok);
  // Lanes that executed exit in the callee leave here too.
  exitSomeLanes(Exited, /*IsReturn=*/false);
}

/// Lane-major storage of a call operand read as one value per lane.
static Value *loadSlot(FunctionLowering &FL, Value *Slot, Type *Elt) {
  // Parameter storage is only 16-byte aligned, less than a <32 x T>.
  return FL.B.CreateAlignedLoad(FL.getVectorType(Elt), Slot, Align(16));
}

Error FunctionLowering::lowerSystemCall(const ptx::Instruction &I,
                                        StringRef Name) {
  unsigned NRet = I.NumCallReturns, NArg = I.NumCallArgs;
  SmallVector<std::pair<const Operand *, Value *>, 2> CopyBack;
  SmallVector<Value *, 6> Slots;
  if (Error E = getCallSlots(I, Slots, CopyBack))
    return E;
  Type *I64 = B.getInt64Ty(), *I32 = B.getInt32Ty();
  if (Name == "vprintf") {
    if (NArg != 2)
      return error(I, "vprintf takes a format and an argument buffer");
    Value *Fmt = loadSlot(*this, Slots[NRet], I64);
    Value *Args = loadSlot(*this, Slots[NRet + 1], I64);
    // One lane after another, in lane order.
    Value *Results =
        collectActiveLanes(InstMask, I32, [&](Value *Lane) -> Value * {
          return B.CreateCall(ML.getRuntimeFunction(RuntimeEntry::Vprintf),
                              {laneOf(Fmt, Lane), laneOf(Args, Lane)});
        });
    if (NRet == 1)
      B.CreateAlignedStore(B.CreateSelect(maskToVector(InstMask), Results,
                                          loadSlot(*this, Slots[0], I32)),
                           Slots[0], Align(16));
  } else if (Name == "malloc" || Name == "free") {
    bool IsMalloc = Name == "malloc";
    // The runtime reads and writes 64 bits a lane, as CUDA declares them.
    const ptx::Function *Decl = ML.PM.findFunction(Name);
    auto Is64 = [](const ptx::VariableDecl &D) {
      return D.getSizeInBytes() == 8;
    };
    if (NArg != 1 || NRet != unsigned(IsMalloc) || !Is64(Decl->Params[0]) ||
        (IsMalloc && !Is64(Decl->Returns[0])))
      return error(I, IsMalloc
                          ? "malloc takes a 64-bit size and returns a pointer"
                          : "free takes a 64-bit pointer and returns nothing");
    // One runtime call for the warp, which serves the lanes in lane order,
    // reading and writing the lane-major .param storage in place.
    Value *Runtime = getContextField(WCF_Runtime, B.getPtrTy());
    if (IsMalloc)
      B.CreateCall(ML.getRuntimeFunction(RuntimeEntry::Malloc),
                   {Runtime, InstMask, Slots[1], Slots[0]});
    else
      B.CreateCall(ML.getRuntimeFunction(RuntimeEntry::Free),
                   {Runtime, InstMask, Slots[0]});
  } else {
    // __assertfail(message, file, line, function, charSize): report each
    // failing lane, then stop the launch.
    if (NArg != 5)
      return error(I, "__assertfail takes five arguments");
    Value *Msg = loadSlot(*this, Slots[NRet], I64);
    Value *File = loadSlot(*this, Slots[NRet + 1], I64);
    Value *Line = loadSlot(*this, Slots[NRet + 2], I32);
    Value *Func = loadSlot(*this, Slots[NRet + 3], I64);
    SmallVector<Value *, 6> Coords;
    for (StringRef Reg : {"%ctaid", "%tid"})
      for (char C : {'x', 'y', 'z'}) {
        Operand Special = Operand::named(Operand::Register, Reg);
        Special.Component = C;
        Expected<LaneValue> V = read(Special, ScalarType::U32);
        if (!V)
          return V.takeError();
        Coords.push_back(widen(V->V));
      }
    AllocaInst *Where = createTemporary(ArrayType::get(I32, 6));
    forEachActiveLane(InstMask, [&](Value *Lane) {
      for (unsigned K = 0; K != 6; ++K)
        B.CreateStore(laneOf(Coords[K], Lane),
                      B.CreateConstInBoundsGEP2_32(Where->getAllocatedType(),
                                                   Where, 0, K));
      B.CreateCall(ML.getRuntimeFunction(RuntimeEntry::AssertFail),
                   {laneOf(Msg, Lane), laneOf(File, Lane), laneOf(Line, Lane),
                    laneOf(Func, Lane), Where});
    });
    BasicBlock *Fail = BasicBlock::Create(ML.Ctx, "assert.failed", Fn);
    BasicBlock *Cont = BasicBlock::Create(ML.Ctx, "assert.cont", Fn);
    B.CreateCondBr(B.CreateICmpNE(InstMask, B.getInt32(0)), Fail, Cont);
    B.SetInsertPoint(Fail);
    setStatus(WS_Assert, InstMask, nullptr);
    B.CreateBr(StopBB);
    B.SetInsertPoint(Cont);
  }
  return copyBack(CopyBack);
}

Error FunctionLowering::lowerCall(const ptx::Instruction &I) {
  unsigned NRet = I.NumCallReturns, NArg = I.NumCallArgs;
  if (I.Operands.size() < NRet + 1 + NArg)
    return error(I, "malformed call");
  const Operand &CalleeOp = I.Operands[NRet];
  const ptx::Function *Direct = nullptr;
  if (CalleeOp.Kind == Operand::Symbol && !findRegister(CalleeOp.Name)) {
    Direct = ML.PM.findFunction(CalleeOp.Name);
    if (!Direct)
      return error(I, "call to unknown function '" + CalleeOp.Name + "'");
    if (Direct->Returns.size() != NRet || Direct->Params.size() != NArg)
      return error(I, "call to '" + CalleeOp.Name +
                          "' does not match its declaration");
    if (!Direct->HasBody) {
      StringRef N = Direct->Name;
      if (N == "vprintf" || N == "__assertfail" || N == "malloc" || N == "free")
        return lowerSystemCall(I, N);
      return error(I, "function '" + N + "' is declared but not defined");
    }
  }

  SmallVector<std::pair<const Operand *, Value *>, 2> CopyBack;
  SmallVector<Value *, 8> Slots;
  if (Error E = getCallSlots(I, Slots, CopyBack))
    return E;

  // Nothing to do for a guarded call whose lanes are all off: the callee
  // must never run with an empty mask.
  Function *Fn = B.GetInsertBlock()->getParent();
  BasicBlock *DoCall = BasicBlock::Create(ML.Ctx, "call", Fn);
  BasicBlock *After = BasicBlock::Create(ML.Ctx, "after.call", Fn);
  Value *Mask = InstMask;
  B.CreateCondBr(B.CreateICmpNE(Mask, B.getInt32(0)), DoCall, After);
  B.SetInsertPoint(DoCall);

  SmallVector<Type *, 8> ArgTys{B.getPtrTy(), B.getInt32Ty()};
  for (size_t K = 0; K != Slots.size(); ++K)
    ArgTys.push_back(B.getPtrTy());
  FunctionType *FTy = FunctionType::get(B.getInt32Ty(), ArgTys, false);

  if (Direct) {
    Expected<Function *> Callee = ML.getDeviceFunction(*Direct);
    if (!Callee)
      return Callee.takeError();
    emitCall(*Callee, Mask, Slots);
  } else {
    Expected<LaneValue> Target = read(CalleeOp, ScalarType::U64);
    if (!Target)
      return Target.takeError();
    if (Target->isScalar()) {
      emitCall(FunctionCallee(FTy, B.CreateIntToPtr(Target->V, B.getPtrTy())),
               Mask, Slots);
    } else {
      // One call per distinct target, with the lanes that chose it.
      BasicBlock *Loop = BasicBlock::Create(ML.Ctx, "icall.loop", Fn);
      BasicBlock *Done = BasicBlock::Create(ML.Ctx, "icall.done", Fn);
      AllocaInst *Left = createTemporary(B.getInt32Ty());
      B.CreateStore(Mask, Left);
      B.CreateBr(Loop);
      B.SetInsertPoint(Loop);
      Value *Remaining = B.CreateLoad(B.getInt32Ty(), Left);
      Value *Lane = B.CreateIntrinsic(Intrinsic::cttz, {B.getInt32Ty()},
                                      {Remaining, B.getTrue()});
      Value *Addr = laneOf(Target->V, Lane);
      Value *Same =
          B.CreateAnd(B.CreateBitCast(B.CreateICmpEQ(Target->V, splat(Addr)),
                                      B.getInt32Ty()),
                      Remaining);
      B.CreateStore(B.CreateAnd(Remaining, B.CreateNot(Same)), Left);
      emitCall(FunctionCallee(FTy, B.CreateIntToPtr(Addr, B.getPtrTy())), Same,
               Slots);
      Value *Rest = B.CreateAnd(B.CreateLoad(B.getInt32Ty(), Left), getMask());
      B.CreateCondBr(B.CreateICmpNE(Rest, B.getInt32(0)), Loop, Done);
      B.SetInsertPoint(Done);
    }
  }
  B.CreateBr(After);
  B.SetInsertPoint(After);
  // Register results come back from their temporaries.
  InstMask = B.CreateAnd(InstMask, getMask());
  return copyBack(CopyBack);
}
