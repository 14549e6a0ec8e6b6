//===- FloatSemantics.cpp - Carry chains and fused multiply-add -----------===//

#include "Lowering.h"
#include "Semantics.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Modifier;
using ptx::Opcode;

Value *irgen::carryArithmetic(FunctionLowering &FL, const ptx::Instruction &I,
                              bool IsAdd, Value *A, Value *C) {
  IRBuilder<> &B = FL.B;
  bool CarryIn = I.Op == Opcode::AddC || I.Op == Opcode::SubC ||
                 I.Op == Opcode::MadC;
  bool CarryOut = I.hasModifier(Modifier::Cc);
  if (!CarryIn && !CarryOut)
    return IsAdd ? B.CreateAdd(A, C) : B.CreateSub(A, C);
  // Carry state is per lane, so the arithmetic is too.
  A = FL.widen(A);
  C = FL.widen(C);
  Intrinsic::ID ID =
      IsAdd ? Intrinsic::uadd_with_overflow : Intrinsic::usub_with_overflow;
  Value *R1 = B.CreateBinaryIntrinsic(ID, A, C);
  Value *Res = B.CreateExtractValue(R1, 0);
  Value *Flag = B.CreateExtractValue(R1, 1);
  if (CarryIn) {
    Value *In = B.CreateZExt(FL.readCarry(), A->getType());
    Value *R2 = B.CreateBinaryIntrinsic(ID, Res, In);
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
  Value *R = B.CreateIntrinsic(Intrinsic::fma, {A->getType()}, {A, Bv, C});
  if (Ftz)
    R = flushSubnormal(FL, R);
  if (I.hasModifier(Modifier::Sat))
    R = saturate(FL, R);
  return fromArith(FL, R, T);
}
