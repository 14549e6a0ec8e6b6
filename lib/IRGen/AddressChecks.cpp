//===- AddressChecks.cpp - Global and generic addresses checked -----------===//
//
// Each global or generic access through a register checks its lanes'
// addresses against the device range and their alignment: one subtraction,
// AND and compare per access (scalar for uniform addresses); a .local one,
// against the lane's own copy of the function's frame. Lanes that
// fail go to ptxjit_rt_check_address on a cold path, which lets through
// shared, local and host memory a kernel may reach and stops the warp with
// an exact report for the rest. The access's site (line, kind, size) is
// stored in the warp context first, so that a fault a signal catches (an
// address in the range but in no allocation) still names it.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "ptxjit/ABI/CheckABI.h"
#include "ptxjit/ABI/DeviceRange.h"
#include "ptxjit/ABI/WarpABI.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::StateSpace;

std::pair<Constant *, unsigned> ModuleLowering::getVariableTable() {
  constexpr StringLiteral Name = "ptxjit.variables";
  if (GlobalVariable *G = LM.getNamedGlobal(Name))
    return {G, cast<ArrayType>(G->getValueType())->getNumElements() / 2};
  // Address and size of each variable the module defines (those the loader
  // owns are device memory already).
  SmallVector<Constant *, 16> Words;
  Type *I64 = Type::getInt64Ty(Ctx);
  for (const auto &Entry : Globals) {
    GlobalVariable *GV = Entry.getValue();
    if (GV->isDeclaration())
      continue;
    Words.push_back(ConstantExpr::getPtrToInt(GV, I64));
    Words.push_back(ConstantInt::get(
        I64, LM.getDataLayout().getTypeAllocSize(GV->getValueType())));
  }
  auto *Ty = ArrayType::get(I64, Words.size());
  auto *G = new GlobalVariable(LM, Ty, /*isConstant=*/true,
                               GlobalValue::PrivateLinkage,
                               ConstantArray::get(Ty, Words), Name);
  return {G, unsigned(Words.size() / 2)};
}

void FunctionLowering::checkAccess(const ptx::Instruction &I,
                                   const ptx::Operand &AddrOp,
                                   const LaneValue &Addr, unsigned Bytes,
                                   AccessKind Kind) {
  // Under --check=memcheck the checking mode reports (and skips) every
  // invalid access itself, with its allocation's history.
  if (!ML.Options.CheckAddresses || (ML.Options.CheckKinds & CheckMemory))
    return;
  bool Global = I.Space == StateSpace::Global;
  bool Local = I.Space == StateSpace::Local;
  if (!Global && !Local && I.Space != StateSpace::Generic &&
      I.Space != StateSpace::None)
    return;
  // A variable's own address (plus a constant) is valid by construction.
  if (!AddrOp.BaseIsRegister &&
      (AddrOp.Name.empty() || !findRegister(AddrOp.Name)))
    return;
  if (!isPowerOf2_32(Bytes))
    return;
  uint32_t Site = makeAccessSite(getLine(I.Loc),
                                 Global  ? AS_Global
                                 : Local ? AS_Local
                                         : AS_Generic,
                                 Kind, Log2_32(Bytes));
  B.CreateStore(B.getInt32(Site),
                B.CreateStructGEP(ML.WarpCtxTy, CtxArg, WCF_AccessSite));
  if (Local)
    return checkLocalAccess(Addr, Bytes, Site);
  // Outside the range, or misaligned: a bit of this is set.
  uint64_t Bits = ~(DeviceArenaSize - 1) | uint64_t(Bytes - 1);
  Value *Base = B.getInt64(DeviceArenaBase), *Mask = B.getInt64(Bits);
  Value *Active = getInstMask(), *Bad;
  auto Outside = [&](Value *A) {
    return B.CreateICmpNE(B.CreateAnd(B.CreateSub(A, Base), Mask),
                          B.getInt64(0));
  };
  BasicBlock *Cont = BasicBlock::Create(ML.Ctx, "access.ok", Fn);
  // An affine address in a few segments (a contiguous row, the halves of a
  // 16-wide block) is checked by each segment's first and last lane: the
  // range is one interval, and a stride that is a multiple of the size
  // keeps every lane as aligned as the first. Only if that fails does the
  // runtime look at the active lanes one by one.
  if (!Addr.isScalar() && Addr.Sh.Kind == transforms::Shape::Affine &&
      Addr.Sh.Stride % int64_t(Bytes) == 0 && Lanes / Addr.Sh.Segment <= 4) {
    unsigned Seg = Addr.Sh.Segment;
    Value *AnyOutside = B.getFalse();
    SmallVector<Value *, 4> Firsts;
    for (unsigned K = 0; K != Lanes / Seg; ++K) {
      Value *First = extractLane(Addr.V, K * Seg);
      Value *Last =
          B.CreateAdd(First, B.getInt64(uint64_t(Addr.Sh.Stride) * (Seg - 1)));
      AnyOutside =
          B.CreateOr(AnyOutside, B.CreateOr(Outside(First), Outside(Last)));
      Firsts.push_back(First);
    }
    return callSegmentCheck(Firsts, Addr.Sh.Stride, Seg, AnyOutside, Site,
                            Cont);
  }
  if (Addr.isScalar()) {
    Bad = B.CreateSelect(Outside(Addr.V), Active, B.getInt32(0));
  } else {
    Value *Off = B.CreateAnd(B.CreateSub(Addr.V, splat(Base)), splat(Mask));
    Value *Ne = B.CreateICmpNE(Off, splat(B.getInt64(0)));
    Bad = B.CreateAnd(B.CreateBitCast(Ne, B.getInt32Ty()), Active);
  }
  callAddressCheck(Addr, Bad, Site, Cont);
}

void FunctionLowering::callSegmentCheck(ArrayRef<Value *> Firsts,
                                        int64_t Stride, unsigned SegmentLanes,
                                        Value *AnyOutside, uint32_t Site,
                                        BasicBlock *Cont) {
  MDBuilder MDB(ML.Ctx);
  BasicBlock *Cold = BasicBlock::Create(ML.Ctx, "access.check", Fn);
  B.CreateCondBr(AnyOutside, Cold, Cont, MDB.createUnlikelyBranchWeights());
  B.SetInsertPoint(Cold);
  // One slot for all of the function's checks; scalars only, so nothing
  // here is worth hoisting into the hot path.
  if (!AccessSegments)
    AccessSegments = createTemporary(ArrayType::get(B.getInt64Ty(), 4));
  for (auto [K, First] : llvm::enumerate(Firsts))
    B.CreateStore(
        First, B.CreateConstInBoundsGEP2_32(AccessSegments->getAllocatedType(),
                                            AccessSegments, 0, K));
  auto [Variables, NumVariables] = ML.getVariableTable();
  Value *Faulting =
      B.CreateCall(ML.getRuntimeFunction(RuntimeEntry::CheckSegments),
                   {CtxArg, AccessSegments, B.getInt64(uint64_t(Stride)),
                    B.getInt32(SegmentLanes), getInstMask(), B.getInt32(Site),
                    Variables, B.getInt32(NumVariables)});
  B.CreateCondBr(B.CreateICmpNE(Faulting, B.getInt32(0)), StopBB, Cont,
                 MDB.createUnlikelyBranchWeights());
  B.SetInsertPoint(Cont);
}

void FunctionLowering::checkLocalAccess(const LaneValue &Addr, unsigned Bytes,
                                        uint32_t Site) {
  // A .local address is valid in the lane's own copy of the function's
  // frame only (callees that ptx-jit inlines share their caller's frame;
  // nvcc and clang pass other functions generic addresses, not .local
  // ones); the runtime reports the rest.
  Value *Active = getInstMask(), *Bad = Active;
  Value *Frames = getLocalFrames();
  if (Frames && FrameSize >= Bytes) {
    Value *Off = B.CreateSub(widen(Addr.V), Frames);
    Value *Inside = B.CreateAnd(
        B.CreateICmpULE(Off, splat(B.getInt64(FrameSize - Bytes))),
        B.CreateICmpEQ(B.CreateAnd(Off, splat(B.getInt64(Bytes - 1))),
                       splat(B.getInt64(0))));
    Bad = B.CreateAnd(Active,
                      B.CreateNot(B.CreateBitCast(Inside, B.getInt32Ty())));
  }
  BasicBlock *Cont = BasicBlock::Create(ML.Ctx, "access.ok", Fn);
  callAddressCheck(Addr, Bad, Site, Cont);
}

void FunctionLowering::callAddressCheck(const LaneValue &Addr, Value *Bad,
                                        uint32_t Site, BasicBlock *Cont) {
  MDBuilder MDB(ML.Ctx);
  BasicBlock *Cold = BasicBlock::Create(ML.Ctx, "access.check", Fn);
  B.CreateCondBr(B.CreateICmpNE(Bad, B.getInt32(0)), Cold, Cont,
                 MDB.createUnlikelyBranchWeights());
  B.SetInsertPoint(Cold);
  // One slot for all of the function's checks.
  if (!AccessAddresses)
    AccessAddresses =
        createTemporary(FixedVectorType::get(B.getInt64Ty(), Lanes));
  B.CreateStore(widen(Addr.V), AccessAddresses);
  auto [Variables, NumVariables] = ML.getVariableTable();
  Value *Faulting =
      B.CreateCall(ML.getRuntimeFunction(RuntimeEntry::CheckAddress),
                   {CtxArg, AccessAddresses, Bad, B.getInt32(Site), Variables,
                    B.getInt32(NumVariables)});
  B.CreateCondBr(B.CreateICmpNE(Faulting, B.getInt32(0)), StopBB, Cont,
                 MDB.createUnlikelyBranchWeights());
  B.SetInsertPoint(Cont);
}
