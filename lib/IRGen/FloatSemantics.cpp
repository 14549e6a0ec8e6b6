//===- FloatSemantics.cpp - Carry chains, fma, exact directed rounding ----===//
//
// LLVM's float operations round to nearest. For .rz .rm .rp (and the few
// conversions LLVM would round twice) we call the helpers declared in
// RoundingHelpers.h, once per instruction for the whole warp: the operands
// go to stack arrays, the helper rounds each lane with APFloat.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "Semantics.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Modifier;
using ptx::Opcode;
using ptx::ScalarType;

Value *irgen::carryArithmetic(FunctionLowering &FL, const ptx::Instruction &I,
                              bool IsAdd, Value *A, Value *C) {
  IRBuilder<> &B = FL.B;
  bool CarryIn =
      I.Op == Opcode::AddC || I.Op == Opcode::SubC || I.Op == Opcode::MadC;
  bool CarryOut = I.hasModifier(Modifier::Cc);
  if (!CarryIn && !CarryOut)
    return IsAdd ? B.CreateAdd(A, C) : B.CreateSub(A, C);
  // Carry state is per lane, so the arithmetic is too.
  A = FL.widen(A);
  C = FL.widen(C);
  // The hardware subtracts as a + ~b + 1, and subc as a + ~b + CC.CF: the
  // flag after a subtraction is that sum's carry, 1 when nothing was
  // borrowed.
  if (!IsAdd)
    C = B.CreateNot(C);
  Value *R1 = B.CreateBinaryIntrinsic(Intrinsic::uadd_with_overflow, A, C);
  Value *Res = B.CreateExtractValue(R1, 0);
  Value *Flag = B.CreateExtractValue(R1, 1);
  Value *In = CarryIn
                  ? FL.readCarry()
                  : (IsAdd ? nullptr : ConstantInt::getTrue(Flag->getType()));
  if (In) {
    Value *R2 = B.CreateBinaryIntrinsic(Intrinsic::uadd_with_overflow, Res,
                                        B.CreateZExt(In, A->getType()));
    Res = B.CreateExtractValue(R2, 0);
    Flag = B.CreateOr(Flag, B.CreateExtractValue(R2, 1));
  }
  if (CarryOut)
    FL.writeCarry(Flag);
  return Res;
}

Value *irgen::fusedMultiplyAdd(FunctionLowering &FL, const ptx::Instruction &I,
                               ptx::ScalarType T, Value *A, Value *Bv,
                               Value *C) {
  IRBuilder<> &B = FL.B;
  A = toArith(FL, A, T);
  Bv = toArith(FL, Bv, T);
  C = toArith(FL, C, T);
  bool Ftz = I.hasModifier(Modifier::Ftz);
  if (Ftz) {
    A = flushSubnormal(FL, A);
    Bv = flushSubnormal(FL, Bv);
    C = flushSubnormal(FL, C);
  }
  Value *R;
  std::optional<RoundingHelperMode> Mode = getDirectedRounding(I);
  bool Half = A->getType()->getScalarType()->isHalfTy() ||
              A->getType()->getScalarType()->isBFloatTy();
  // Without native half arithmetic LLVM computes a 16-bit fma in float and
  // rounds twice, wrongly when a*b is a 16-bit midpoint and c is tiny.
  if (Half || (Mode && (T == ScalarType::F32 || T == ScalarType::F64)))
    R = roundedArithmetic(FL, RHO_Fma, Mode.value_or(RHM_NearestEven),
                          {A, Bv, C});
  else
    R = B.CreateIntrinsic(Intrinsic::fma, {A->getType()}, {A, Bv, C});
  if (Ftz)
    R = flushSubnormal(FL, R);
  if (I.hasModifier(Modifier::Sat))
    R = saturate(FL, R);
  if (I.hasModifier(Modifier::Relu))
    R = applyRelu(FL, R);
  return fromArith(FL, R, T);
}

Value *irgen::applyRelu(FunctionLowering &FL, Value *V) {
  // max(V, +0) with -0 < +0, as the max instruction orders zeros.
  IRBuilder<> &B = FL.B;
  Value *Zero = ConstantFP::get(V->getType(), 0.0);
  Value *R = B.CreateBinaryIntrinsic(Intrinsic::maximumnum, V, Zero);
  return B.CreateSelect(B.CreateFCmpUNO(V, V), canonicalizeNaN(FL, V), R);
}

std::optional<RoundingHelperMode>
irgen::getDirectedRounding(const ptx::Instruction &I) {
  if (I.hasModifier(Modifier::Rz))
    return RHM_TowardZero;
  if (I.hasModifier(Modifier::Rm))
    return RHM_Down;
  if (I.hasModifier(Modifier::Rp))
    return RHM_Up;
  return std::nullopt;
}

/// A helper's declaration; it only touches the memory its arguments point to.
/// A stack array holding V (a scalar or a vector of lanes).
static Value *spill(FunctionLowering &FL, Value *V) {
  AllocaInst *Slot = FL.createTemporary(V->getType());
  FL.B.CreateStore(V, Slot);
  return Slot;
}

Value *irgen::roundedArithmetic(FunctionLowering &FL, RoundingHelperOp Op,
                                RoundingHelperMode Mode,
                                ArrayRef<Value *> Operands) {
  IRBuilder<> &B = FL.B;
  // Make scalars vectors of lanes when any operand is one (packed halves
  // are vectors already and agree with each other).
  bool Vector = any_of(Operands, [](Value *V) {
    return V->getType()->isVectorTy() &&
           cast<FixedVectorType>(V->getType())->getNumElements() >= Lanes;
  });
  SmallVector<Value *, 3> Ptrs;
  for (Value *V : Operands)
    Ptrs.push_back(spill(FL, Vector ? FL.widen(V) : V));
  Value *First = Ptrs[0];
  while (Ptrs.size() < 3)
    Ptrs.push_back(First); // B and C are not read by unary operations
  Type *Ty = Vector ? FL.widen(Operands[0])->getType() : Operands[0]->getType();
  Type *Elt = Ty->getScalarType();
  AllocaInst *Result = FL.createTemporary(Ty);
  // Packed .f16x2 values are vectors of 2 (or 64) halves.
  unsigned N = 1;
  if (auto *VT = dyn_cast<FixedVectorType>(Ty))
    N = VT->getNumElements();
  if (Elt->isHalfTy() || Elt->isBFloatTy()) {
    FunctionCallee F = FL.ML.getRuntimeFunction(RuntimeEntry::RoundedHalf);
    B.CreateCall(F, {B.getInt32(Elt->isHalfTy() ? RHF_F16 : RHF_BF16),
                     B.getInt32(Op), B.getInt32(Mode), Result, Ptrs[0], Ptrs[1],
                     Ptrs[2], B.getInt32(N)});
    return B.CreateLoad(Ty, Result);
  }
  FunctionCallee F = FL.ML.getRuntimeFunction(
      Elt->isDoubleTy() ? RuntimeEntry::RoundedF64 : RuntimeEntry::RoundedF32);
  B.CreateCall(F, {B.getInt32(Op), B.getInt32(Mode), Result, Ptrs[0], Ptrs[1],
                   Ptrs[2], B.getInt32(N)});
  return B.CreateLoad(Ty, Result);
}

static RoundingHelperFormat helperFormat(ScalarType T) {
  switch (T) {
  case ScalarType::F16:
    return RHF_F16;
  case ScalarType::BF16:
    return RHF_BF16;
  case ScalarType::F32:
    return RHF_F32;
  default:
    return RHF_F64;
  }
}

Value *irgen::roundedConversion(FunctionLowering &FL, Value *V, ScalarType From,
                                ScalarType To, RoundingHelperMode Mode) {
  IRBuilder<> &B = FL.B;
  bool Vector = V->getType()->isVectorTy();
  Value *Src = spill(FL, V);
  Type *ToTy = getArithType(FL, To, Vector);
  AllocaInst *Result = FL.createTemporary(ToTy);
  Value *N = B.getInt32(Vector ? Lanes : 1);
  if (ptx::isFloat(From)) {
    FunctionCallee F = FL.ML.getRuntimeFunction(RuntimeEntry::ConvertFloat);
    B.CreateCall(F,
                 {B.getInt32(helperFormat(To)), B.getInt32(helperFormat(From)),
                  B.getInt32(Mode), Result, Src, N});
  } else {
    FunctionCallee F = FL.ML.getRuntimeFunction(RuntimeEntry::ConvertInt);
    B.CreateCall(F, {B.getInt32(helperFormat(To)),
                     B.getInt32(V->getType()->getScalarSizeInBits()),
                     B.getInt32(ptx::isSigned(From)), B.getInt32(Mode), Result,
                     Src, N});
  }
  return B.CreateLoad(ToTy, Result);
}

Value *irgen::truncateToBFloat(FunctionLowering &FL, Value *V) {
  // Round to nearest even on the bits: add 0x7fff plus the lowest kept bit;
  // a carry into the exponent is exactly the rounding up (to inf included).
  IRBuilder<> &B = FL.B;
  auto *VT = dyn_cast<VectorType>(V->getType());
  auto Ty = [&](Type *T) -> Type * { return VT ? VectorType::get(T, VT) : T; };
  auto C = [&](uint32_t X) { return ConstantInt::get(Ty(B.getInt32Ty()), X); };
  Value *Bits = B.CreateBitCast(V, Ty(B.getInt32Ty()));
  Value *Lsb = B.CreateAnd(B.CreateLShr(Bits, C(16)), C(1));
  Value *Rounded = B.CreateAdd(Bits, B.CreateAdd(C(0x7fff), Lsb));
  // NaN stays NaN: keep the top payload bits and set the quiet bit.
  Value *Quiet = B.CreateOr(Bits, C(0x400000));
  Value *R = B.CreateSelect(B.CreateFCmpUNO(V, V), Quiet, Rounded);
  R = B.CreateTrunc(B.CreateLShr(R, C(16)), Ty(B.getInt16Ty()));
  return B.CreateBitCast(R, Ty(B.getBFloatTy()));
}
