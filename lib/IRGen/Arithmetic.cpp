//===- Arithmetic.cpp - Integer, floating-point, logic and compare semantics
//===//
//
// Exact PTX semantics where LLVM's differ: division by zero does not trap,
// shift counts clamp, min/max return the non-NaN operand, .ftz flushes
// subnormals, .sat clamps.
//
//===----------------------------------------------------------------------===//

#include "InstructionVisitor.h"
#include "Lowering.h"
#include "Semantics.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Modifier;
using ptx::Opcode;
using ptx::Operand;
using ptx::ScalarType;

namespace {

/// Reads the source operands (all of PTX type T unless given) and makes them
/// agree: all scalars, or all vectors.
class Sources {
public:
  Sources(FunctionLowering &FL) : FL(FL) {}
  Error add(const Operand &Op, ScalarType T) {
    Expected<LaneValue> V = FL.read(Op, T);
    if (!V)
      return V.takeError();
    Values.push_back(V->V);
    AnyVector |= !V->isScalar();
    return Error::success();
  }
  Value *operator[](unsigned I) {
    return AnyVector ? FL.widen(Values[I]) : Values[I];
  }
  Value *constant(Value *C) { return AnyVector ? FL.splat(C) : C; }
  unsigned size() const { return Values.size(); }

  bool AnyVector = false;

private:
  FunctionLowering &FL;
  SmallVector<Value *, 4> Values;
};

} // namespace

ScalarType irgen::withBits(ScalarType T, unsigned Bits) {
  bool S = ptx::isSigned(T);
  switch (Bits) {
  case 8:
    return S ? ScalarType::S8 : ScalarType::U8;
  case 16:
    return S ? ScalarType::S16 : ScalarType::U16;
  case 32:
    return S ? ScalarType::S32 : ScalarType::U32;
  default:
    return S ? ScalarType::S64 : ScalarType::U64;
  }
}

Type *irgen::getArithType(FunctionLowering &FL, ScalarType T, bool Vector) {
  LLVMContext &C = FL.ML.Ctx;
  Type *Elt;
  unsigned N = 1;
  switch (T) {
  case ScalarType::F16:
    Elt = Type::getHalfTy(C);
    break;
  case ScalarType::BF16:
    Elt = Type::getBFloatTy(C);
    break;
  case ScalarType::F16x2:
    Elt = Type::getHalfTy(C);
    N = 2;
    break;
  case ScalarType::BF16x2:
    Elt = Type::getBFloatTy(C);
    N = 2;
    break;
  default:
    return Vector ? (Type *)FL.getVectorType(FL.getLaneType(T))
                  : FL.getLaneType(T);
  }
  if (Vector)
    N *= Lanes;
  return N == 1 ? Elt : FixedVectorType::get(Elt, N);
}

Value *irgen::toArith(FunctionLowering &FL, Value *V, ScalarType T) {
  Type *Ty = getArithType(FL, T, V->getType()->isVectorTy());
  return V->getType() == Ty ? V : FL.B.CreateBitCast(V, Ty);
}

Value *irgen::fromArith(FunctionLowering &FL, Value *V, ScalarType T) {
  bool Vector = V->getType()->isVectorTy() &&
                cast<FixedVectorType>(V->getType())->getNumElements() >= Lanes;
  Type *Lane = FL.getLaneType(T);
  Type *Ty = Vector ? FL.getVectorType(Lane) : Lane;
  return V->getType() == Ty ? V : FL.B.CreateBitCast(V, Ty);
}

Value *irgen::flushSubnormal(FunctionLowering &FL, Value *V) {
  IRBuilder<> &B = FL.B;
  Type *Ty = V->getType();
  const fltSemantics &Sem = Ty->getScalarType()->getFltSemantics();
  Value *Smallest = ConstantFP::get(Ty, APFloat::getSmallestNormalized(Sem));
  Value *Abs = B.CreateUnaryIntrinsic(Intrinsic::fabs, V);
  Value *Zero =
      B.CreateBinaryIntrinsic(Intrinsic::copysign, ConstantFP::get(Ty, 0.0), V);
  // fabs(NaN) < x is false, so NaN passes through.
  return B.CreateSelect(B.CreateFCmpOLT(Abs, Smallest), Zero, V);
}

Value *irgen::saturate(FunctionLowering &FL, Value *V) {
  IRBuilder<> &B = FL.B;
  Type *Ty = V->getType();
  Value *One = ConstantFP::get(Ty, 1.0);
  Value *Zero = ConstantFP::get(Ty, 0.0);
  // NaN and -0 become +0.
  Value *Clamped = B.CreateSelect(B.CreateFCmpOGT(V, One), One, V);
  return B.CreateSelect(B.CreateFCmpOGT(V, Zero), Clamped, Zero);
}

/// Integer division and remainder without traps: x/0 and x%0 are all ones,
/// INT_MIN/-1 is INT_MIN, as on the GPU (an H200 gives all ones for both).
static Value *safeDivRem(IRBuilder<> &B, Value *X, Value *Y, bool Signed,
                         bool Rem) {
  Type *Ty = X->getType();
  Value *Zero = Constant::getNullValue(Ty);
  Value *One = ConstantInt::get(Ty, 1);
  Value *ByZero = B.CreateICmpEQ(Y, Zero);
  Value *SafeY = B.CreateSelect(ByZero, One, Y);
  if (Signed) {
    unsigned Bits = Ty->getScalarSizeInBits();
    Value *Min = ConstantInt::get(Ty, APInt::getSignedMinValue(Bits));
    Value *Overflow =
        B.CreateAnd(B.CreateICmpEQ(X, Min),
                    B.CreateICmpEQ(Y, Constant::getAllOnesValue(Ty)));
    SafeY = B.CreateSelect(Overflow, One, SafeY);
    Value *R = Rem ? B.CreateSRem(X, SafeY) : B.CreateSDiv(X, SafeY);
    R = B.CreateSelect(Overflow, Rem ? Zero : Min, R);
    return B.CreateSelect(ByZero, Constant::getAllOnesValue(Ty), R);
  }
  Value *R = Rem ? B.CreateURem(X, SafeY) : B.CreateUDiv(X, SafeY);
  return B.CreateSelect(ByZero, Constant::getAllOnesValue(Ty), R);
}

/// Shifts whose count is at least the width give 0 (or the sign for .s).
static Value *clampedShift(IRBuilder<> &B, Opcode Op, Value *X, Value *N,
                           bool Signed) {
  Type *Ty = X->getType();
  unsigned Bits = Ty->getScalarSizeInBits();
  Value *Count = B.CreateZExtOrTrunc(N, Ty);
  if (N->getType()->getScalarSizeInBits() > Bits) {
    // A 32-bit count on a 16-bit value: clamp before truncating.
    Value *Big = B.CreateICmpUGE(N, ConstantInt::get(N->getType(), Bits));
    Count = B.CreateSelect(Big, ConstantInt::get(Ty, Bits), Count);
  }
  Value *Width = ConstantInt::get(Ty, Bits);
  Value *TooBig = B.CreateICmpUGE(Count, Width);
  Value *Safe = B.CreateSelect(TooBig, ConstantInt::get(Ty, Bits - 1), Count);
  if (Op == Opcode::Shl)
    return B.CreateSelect(TooBig, Constant::getNullValue(Ty),
                          B.CreateShl(X, Safe));
  if (Signed)
    return B.CreateAShr(X, Safe); // count >= width: all sign bits
  return B.CreateSelect(TooBig, Constant::getNullValue(Ty),
                        B.CreateLShr(X, Safe));
}

static Value *compare(FunctionLowering &FL, const ptx::Instruction &I, Value *A,
                      Value *C, ScalarType T) {
  IRBuilder<> &B = FL.B;
  Modifier Cmp = I.getComparison();
  if (ptx::isFloat(T) || T == ScalarType::F16x2 || T == ScalarType::BF16x2) {
    A = toArith(FL, A, T);
    C = toArith(FL, C, T);
    if (I.hasModifier(Modifier::Ftz)) {
      A = flushSubnormal(FL, A);
      C = flushSubnormal(FL, C);
    }
    CmpInst::Predicate P;
    switch (Cmp) {
    case Modifier::Eq:
      P = CmpInst::FCMP_OEQ;
      break;
    case Modifier::Ne:
      P = CmpInst::FCMP_ONE;
      break;
    case Modifier::Lt:
      P = CmpInst::FCMP_OLT;
      break;
    case Modifier::Le:
      P = CmpInst::FCMP_OLE;
      break;
    case Modifier::Gt:
      P = CmpInst::FCMP_OGT;
      break;
    case Modifier::Ge:
      P = CmpInst::FCMP_OGE;
      break;
    case Modifier::Equ:
      P = CmpInst::FCMP_UEQ;
      break;
    case Modifier::Neu:
      P = CmpInst::FCMP_UNE;
      break;
    case Modifier::Ltu:
      P = CmpInst::FCMP_ULT;
      break;
    case Modifier::Leu:
      P = CmpInst::FCMP_ULE;
      break;
    case Modifier::Gtu:
      P = CmpInst::FCMP_UGT;
      break;
    case Modifier::Geu:
      P = CmpInst::FCMP_UGE;
      break;
    case Modifier::Num:
      P = CmpInst::FCMP_ORD;
      break;
    default:
      P = CmpInst::FCMP_UNO;
      break;
    }
    return B.CreateFCmp(P, A, C);
  }
  bool S = ptx::isSigned(T);
  CmpInst::Predicate P;
  switch (Cmp) {
  case Modifier::Eq:
    P = CmpInst::ICMP_EQ;
    break;
  case Modifier::Ne:
    P = CmpInst::ICMP_NE;
    break;
  case Modifier::Lt:
    P = S ? CmpInst::ICMP_SLT : CmpInst::ICMP_ULT;
    break;
  case Modifier::Le:
    P = S ? CmpInst::ICMP_SLE : CmpInst::ICMP_ULE;
    break;
  case Modifier::Gt:
    P = S ? CmpInst::ICMP_SGT : CmpInst::ICMP_UGT;
    break;
  case Modifier::Ge:
    P = S ? CmpInst::ICMP_SGE : CmpInst::ICMP_UGE;
    break;
  case Modifier::Lo:
    P = CmpInst::ICMP_ULT;
    break;
  case Modifier::Ls:
    P = CmpInst::ICMP_ULE;
    break;
  case Modifier::Hi:
    P = CmpInst::ICMP_UGT;
    break;
  default:
    P = CmpInst::ICMP_UGE;
    break;
  }
  return B.CreateICmp(P, A, C);
}

static Value *boolOp(IRBuilder<> &B, const ptx::Instruction &I, Value *X,
                     Value *C) {
  if (I.hasModifier(Modifier::And))
    return B.CreateAnd(X, C);
  if (I.hasModifier(Modifier::Or))
    return B.CreateOr(X, C);
  return B.CreateXor(X, C);
}

/// NVIDIA's canonical NaN (all ones but the sign), which min, max and
/// .relu produce for a NaN result.
static Value *canonicalNaN(Type *Ty) {
  const fltSemantics &Sem = Ty->getScalarType()->getFltSemantics();
  unsigned Bits = APFloat::semanticsSizeInBits(Sem);
  return ConstantFP::get(Ty, APFloat(Sem, APInt::getSignedMaxValue(Bits)));
}

Value *irgen::canonicalizeNaN(FunctionLowering &FL, Value *V) {
  IRBuilder<> &B = FL.B;
  if (V->getType()->getScalarType()->isDoubleTy())
    return V; // .f64 NaNs keep their payload
  return B.CreateSelect(B.CreateFCmpUNO(V, V), canonicalNaN(V->getType()), V);
}

/// min/max: the non-NaN operand (-0 < +0); .NaN makes any NaN win; .abs
/// compares magnitudes; .xorsign gives the result the XOR of the inputs'
/// signs unless it is NaN.
static Value *minMax(FunctionLowering &FL, const ptx::Instruction &I,
                     ScalarType T, Value *A, Value *C) {
  IRBuilder<> &B = FL.B;
  Value *SignOfXor = nullptr;
  if (I.hasModifier(Modifier::Xorsign)) {
    Type *IntTy = B.getIntNTy(A->getType()->getScalarSizeInBits());
    if (A->getType()->isVectorTy())
      IntTy = VectorType::get(IntTy, cast<VectorType>(A->getType()));
    SignOfXor = B.CreateBitCast(
        B.CreateXor(B.CreateBitCast(A, IntTy), B.CreateBitCast(C, IntTy)),
        A->getType());
  }
  if (I.hasModifier(Modifier::Abs)) {
    A = B.CreateUnaryIntrinsic(Intrinsic::fabs, A);
    C = B.CreateUnaryIntrinsic(Intrinsic::fabs, C);
  }
  bool NaNProp = I.hasModifier(Modifier::NaNMode);
  Intrinsic::ID ID =
      I.Op == Opcode::Min
          ? (NaNProp ? Intrinsic::minimum : Intrinsic::minimumnum)
          : (NaNProp ? Intrinsic::maximum : Intrinsic::maximumnum);
  Value *R = B.CreateBinaryIntrinsic(ID, A, C);
  if (SignOfXor) {
    Value *Signed = B.CreateBinaryIntrinsic(Intrinsic::copysign, R, SignOfXor);
    R = B.CreateSelect(B.CreateFCmpUNO(R, R), R, Signed);
  }
  return canonicalizeNaN(FL, R);
}

/// div.approx.f32: a * (1/b), where 1/b flushes to zero once it would be
/// subnormal (|b| > 2^126), as the ISA specifies.
static Value *approximateDivide(FunctionLowering &FL, Value *A, Value *C) {
  IRBuilder<> &B = FL.B;
  Value *Recip = B.CreateFDiv(ConstantFP::get(C->getType(), 1.0), C);
  return B.CreateFMul(A, flushSubnormal(FL, Recip));
}

static Value *floatBinaryOnFloats(FunctionLowering &FL,
                                  const ptx::Instruction &I, ScalarType T,
                                  Value *A, Value *C);

/// bfloat arithmetic runs on floats, which hold bfloat values exactly (same
/// exponent range) and round +, -, * correctly for it; converting back with
/// truncateToBFloat keeps subnormal results, which LLVM's own lowering may
/// flush.
static bool isBFloat(Value *V) {
  return V->getType()->getScalarType()->isBFloatTy();
}

static Value *extendBFloat(FunctionLowering &FL, Value *V) {
  Type *F32 = FL.B.getFloatTy();
  auto *VT = dyn_cast<VectorType>(V->getType());
  return FL.B.CreateFPExt(V, VT ? VectorType::get(F32, VT) : F32);
}

static Value *floatBinary(FunctionLowering &FL, const ptx::Instruction &I,
                          ScalarType T, Value *A, Value *C) {
  A = toArith(FL, A, T);
  C = toArith(FL, C, T);
  if (isBFloat(A)) {
    Value *R =
        floatBinaryOnFloats(FL, I, T, extendBFloat(FL, A), extendBFloat(FL, C));
    return fromArith(FL, truncateToBFloat(FL, R), T);
  }
  return fromArith(FL, floatBinaryOnFloats(FL, I, T, A, C), T);
}

static Value *floatBinaryOnFloats(FunctionLowering &FL,
                                  const ptx::Instruction &I, ScalarType T,
                                  Value *A, Value *C) {
  IRBuilder<> &B = FL.B;
  bool Ftz = I.hasModifier(Modifier::Ftz);
  if (Ftz) {
    A = flushSubnormal(FL, A);
    C = flushSubnormal(FL, C);
  }
  Value *R;
  std::optional<RoundingHelperMode> Directed = getDirectedRounding(I);
  if (Directed && (T == ScalarType::F32 || T == ScalarType::F64) &&
      (I.Op == Opcode::Add || I.Op == Opcode::Sub || I.Op == Opcode::Mul ||
       I.Op == Opcode::Div)) {
    RoundingHelperOp Op = I.Op == Opcode::Add   ? RHO_Add
                          : I.Op == Opcode::Sub ? RHO_Sub
                          : I.Op == Opcode::Mul ? RHO_Mul
                                                : RHO_Div;
    R = roundedArithmetic(FL, Op, *Directed, {A, C});
  } else {
    switch (I.Op) {
    case Opcode::Add:
      R = B.CreateFAdd(A, C);
      break;
    case Opcode::Sub:
      R = B.CreateFSub(A, C);
      break;
    case Opcode::Mul:
      R = B.CreateFMul(A, C);
      break;
    case Opcode::Div:
      R = I.hasModifier(Modifier::Approx) ? approximateDivide(FL, A, C)
                                          : B.CreateFDiv(A, C);
      break;
    case Opcode::Min:
    case Opcode::Max:
      R = minMax(FL, I, T, A, C);
      break;
    case Opcode::Copysign:
      // copysign d, a, b: b's magnitude with a's sign.
      R = B.CreateBinaryIntrinsic(Intrinsic::copysign, C, A);
      break;
    default:
      llvm_unreachable("not a binary float op");
    }
  }
  if (Ftz)
    R = flushSubnormal(FL, R);
  if (I.hasModifier(Modifier::Sat))
    R = saturate(FL, R);
  return R;
}

static Value *floatUnary(FunctionLowering &FL, const ptx::Instruction &I,
                         ScalarType T, Value *A) {
  IRBuilder<> &B = FL.B;
  A = toArith(FL, A, T);
  bool BFloat = isBFloat(A);
  if (BFloat)
    A = extendBFloat(FL, A);
  bool Ftz = I.hasModifier(Modifier::Ftz);
  if (Ftz)
    A = flushSubnormal(FL, A);
  Value *R;
  Value *One = ConstantFP::get(A->getType(), 1.0);
  switch (I.Op) {
  case Opcode::Abs:
    R = B.CreateUnaryIntrinsic(Intrinsic::fabs, A);
    // abs.f64 passes a NaN through unchanged (sign included).
    if (T == ScalarType::F64)
      R = B.CreateSelect(B.CreateFCmpUNO(A, A), A, R);
    break;
  case Opcode::Neg:
    R = B.CreateFNeg(A);
    break;
  case Opcode::Rcp:
  case Opcode::Sqrt: {
    std::optional<RoundingHelperMode> Directed = getDirectedRounding(I);
    if (Directed && (T == ScalarType::F32 || T == ScalarType::F64))
      R = roundedArithmetic(FL, I.Op == Opcode::Rcp ? RHO_Rcp : RHO_Sqrt,
                            *Directed, {A});
    else if (I.Op == Opcode::Rcp)
      R = B.CreateFDiv(One, A);
    else
      R = B.CreateUnaryIntrinsic(Intrinsic::sqrt, A);
    break;
  }
  case Opcode::Rsqrt:
    R = B.CreateFDiv(One, B.CreateUnaryIntrinsic(Intrinsic::sqrt, A));
    break;
  case Opcode::Sin:
    R = B.CreateUnaryIntrinsic(Intrinsic::sin, A);
    break;
  case Opcode::Cos:
    R = B.CreateUnaryIntrinsic(Intrinsic::cos, A);
    break;
  case Opcode::Lg2:
    R = B.CreateUnaryIntrinsic(Intrinsic::log2, A);
    break;
  case Opcode::Ex2:
    R = B.CreateUnaryIntrinsic(Intrinsic::exp2, A);
    break;
  case Opcode::Tanh:
    R = B.CreateUnaryIntrinsic(Intrinsic::tanh, A);
    break;
  default:
    llvm_unreachable("not a unary float op");
  }
  if (Ftz)
    R = flushSubnormal(FL, R);
  if (I.hasModifier(Modifier::Sat))
    R = saturate(FL, R);
  if (BFloat)
    R = truncateToBFloat(FL, R);
  // abs and neg of a 16-bit NaN give the canonical NaN (an H200 does; the
  // ISA leaves the NaN unspecified).
  if ((I.Op == Opcode::Abs || I.Op == Opcode::Neg) &&
      (T == ScalarType::F16 || T == ScalarType::BF16 ||
       T == ScalarType::F16x2 || T == ScalarType::BF16x2))
    R = canonicalizeNaN(FL, R);
  return fromArith(FL, R, T);
}

/// bfe: extract Len bits at Pos, zero- or sign-extended.
static Value *bitFieldExtract(IRBuilder<> &B, Value *A, Value *Pos, Value *Len,
                              bool Signed) {
  Type *Ty = A->getType();
  unsigned W = Ty->getScalarSizeInBits();
  auto C = [&](uint64_t V) { return ConstantInt::get(Ty, V); };
  Value *P = B.CreateAnd(B.CreateZExtOrTrunc(Pos, Ty), C(0xff));
  Value *L = B.CreateAnd(B.CreateZExtOrTrunc(Len, Ty), C(0xff));
  Value *PosInRange = B.CreateICmpULT(P, C(W));
  Value *SafeP = B.CreateSelect(PosInRange, P, C(0));
  Value *Room = B.CreateSub(C(W), SafeP);
  Value *Width = B.CreateSelect(B.CreateICmpULT(L, Room), L, Room);
  Value *SafeWidth = B.CreateSelect(B.CreateICmpEQ(Width, C(0)), C(1), Width);
  Value *R;
  if (Signed) {
    Value *Up = B.CreateShl(A, B.CreateSub(Room, SafeWidth));
    Value *Field = B.CreateAShr(Up, B.CreateSub(C(W), SafeWidth));
    // Past the top: every bit is the sign bit of A.
    R = B.CreateSelect(PosInRange, Field, B.CreateAShr(A, C(W - 1)));
  } else {
    Value *Shifted = B.CreateLShr(A, SafeP);
    Value *AllOnes = Constant::getAllOnesValue(Ty);
    Value *Mask =
        B.CreateSelect(B.CreateICmpUGE(SafeWidth, C(W)), AllOnes,
                       B.CreateSub(B.CreateShl(C(1), SafeWidth), C(1)));
    R = B.CreateSelect(PosInRange, B.CreateAnd(Shifted, Mask), C(0));
  }
  return B.CreateSelect(B.CreateICmpEQ(L, C(0)), C(0), R);
}

/// bfi: insert the low Len bits of A into Base at Pos.
static Value *bitFieldInsert(IRBuilder<> &B, Value *A, Value *Base, Value *Pos,
                             Value *Len) {
  Type *Ty = A->getType();
  unsigned W = Ty->getScalarSizeInBits();
  auto C = [&](uint64_t V) { return ConstantInt::get(Ty, V); };
  Value *P = B.CreateAnd(B.CreateZExtOrTrunc(Pos, Ty), C(0xff));
  Value *L = B.CreateAnd(B.CreateZExtOrTrunc(Len, Ty), C(0xff));
  Value *Noop = B.CreateOr(B.CreateICmpEQ(L, C(0)), B.CreateICmpUGE(P, C(W)));
  Value *SafeP = B.CreateSelect(Noop, C(0), P);
  Value *Room = B.CreateSub(C(W), SafeP);
  Value *Width = B.CreateSelect(B.CreateICmpULT(L, Room), L, Room);
  Value *Ones = B.CreateSelect(
      B.CreateICmpUGE(Width, C(W)), Constant::getAllOnesValue(Ty),
      B.CreateSub(B.CreateShl(C(1), B.CreateSelect(Noop, C(0), Width)), C(1)));
  Value *Mask = B.CreateShl(Ones, SafeP);
  Value *R = B.CreateOr(B.CreateAnd(Base, B.CreateNot(Mask)),
                        B.CreateAnd(B.CreateShl(A, SafeP), Mask));
  return B.CreateSelect(Noop, Base, R);
}

/// prmt: picks bytes of {B, A} (A is bytes 0-3) by the selector.
static Value *permuteBytes(FunctionLowering &FL, const ptx::Instruction &I,
                           Value *A, Value *Bv, Value *Sel) {
  IRBuilder<> &B = FL.B;
  Type *I32 = A->getType();
  Type *I64 = I32->isVectorTy() ? FL.getVectorType(B.getInt64Ty())
                                : (Type *)B.getInt64Ty();
  auto C32 = [&](uint64_t V) { return ConstantInt::get(I32, V); };
  auto C64 = [&](uint64_t V) { return ConstantInt::get(I64, V); };
  Value *Both = B.CreateOr(B.CreateZExt(A, I64),
                           B.CreateShl(B.CreateZExt(Bv, I64), C64(32)));
  auto Byte = [&](Value *Index) { // byte Index (0-7) of Both, as i32
    Value *Sh = B.CreateShl(B.CreateZExt(Index, I64), C64(3));
    return B.CreateTrunc(B.CreateAnd(B.CreateLShr(Both, Sh), C64(0xff)), I32);
  };
  auto Replicate = [&](Value *ByteV) { // sign of a byte, replicated
    return B.CreateSelect(B.CreateICmpNE(B.CreateAnd(ByteV, C32(0x80)), C32(0)),
                          C32(0xff), C32(0));
  };
  Value *Result = C32(0);
  auto Put = [&](unsigned Slot, Value *ByteV) {
    Result = B.CreateOr(Result, B.CreateShl(ByteV, C32(Slot * 8)));
  };
  Value *S = B.CreateAnd(Sel, C32(3)); // mode selectors use two bits
  auto ModeIs = [&](Modifier M) { return I.hasModifier(M); };
  if (ModeIs(Modifier::F4e) || ModeIs(Modifier::B4e)) {
    for (unsigned Slot = 0; Slot != 4; ++Slot) {
      // f4e reads bytes s, s+1, ...; b4e reads s, s-1, ... (mod 8).
      Value *Idx =
          ModeIs(Modifier::F4e)
              ? B.CreateAnd(B.CreateAdd(S, C32(Slot)), C32(7))
              : B.CreateAnd(B.CreateSub(B.CreateAdd(S, C32(8)), C32(Slot)),
                            C32(7));
      Put(Slot, Byte(Idx));
    }
    return Result;
  }
  if (ModeIs(Modifier::Rc8)) {
    Value *V = Byte(S);
    for (unsigned Slot = 0; Slot != 4; ++Slot)
      Put(Slot, V);
    return Result;
  }
  if (ModeIs(Modifier::Ecl) || ModeIs(Modifier::Ecr)) {
    // Edge clamp: slot k takes byte max(k, s) (left) or min(k, s) (right).
    for (unsigned Slot = 0; Slot != 4; ++Slot) {
      Value *K = C32(Slot);
      Value *Idx = ModeIs(Modifier::Ecl)
                       ? B.CreateSelect(B.CreateICmpUGT(K, S), K, S)
                       : B.CreateSelect(B.CreateICmpULT(K, S), K, S);
      Put(Slot, Byte(Idx));
    }
    return Result;
  }
  if (ModeIs(Modifier::Rc16)) {
    Value *Lo = B.CreateAnd(S, C32(1));
    Value *B0 = Byte(B.CreateShl(Lo, C32(1)));
    Value *B1 = Byte(B.CreateAdd(B.CreateShl(Lo, C32(1)), C32(1)));
    Put(0, B0);
    Put(1, B1);
    Put(2, B0);
    Put(3, B1);
    return Result;
  }
  for (unsigned Slot = 0; Slot != 4; ++Slot) {
    Value *Nib = B.CreateAnd(B.CreateLShr(Sel, C32(Slot * 4)), C32(0xf));
    Value *V = Byte(B.CreateAnd(Nib, C32(7)));
    Value *Sign = B.CreateICmpNE(B.CreateAnd(Nib, C32(8)), C32(0));
    Put(Slot, B.CreateSelect(Sign, Replicate(V), V));
  }
  return Result;
}

namespace {
/// What every arithmetic family's visitor starts from: the instruction
/// type, its operands, the sources as read, and the write of the result.
struct ArithmeticOperands {
  FunctionLowering &FL;
  IRBuilder<> &B;
  ScalarType T;
  ArrayRef<Operand> Ops;
  bool IsFloat;
  bool Signed;
  Sources S;

  ArithmeticOperands(FunctionLowering &FL, const ptx::Instruction &I)
      : FL(FL), B(FL.B), T(I.getType()), Ops(I.Operands),
        IsFloat(ptx::isFloat(T) || T == ScalarType::F16x2 ||
                T == ScalarType::BF16x2),
        Signed(ptx::isSigned(T)), S(FL) {}
};

/// Runs Body(B, T, Ops, IsFloat, Signed, S, Read, Result) for the
/// instruction, after checking that it has operands. Read(From, Ty) reads
/// operands From... as Ty into S; Result(V[, Ty]) writes the destination
/// as the instruction type (or Ty).
template <typename BodyFn>
Error lowerArithmeticFamily(FunctionLowering &FL, const ptx::Instruction &I,
                            BodyFn Body) {
  if (I.Operands.empty() && I.Op != Opcode::Activemask)
    return FL.error(I, "missing operands");
  ArithmeticOperands A(FL, I);
  auto Read = [&](unsigned From, ScalarType Ty) -> Error {
    for (unsigned N = From; N < A.Ops.size(); ++N)
      if (Error E = A.S.add(A.Ops[N], Ty))
        return E;
    return Error::success();
  };
  auto Result = [&](Value *V, ScalarType Ty = ScalarType::None) {
    return FL.write(A.Ops[0], V, Ty == ScalarType::None ? A.T : Ty, A.Signed);
  };
  return Body(A.B, A.T, A.Ops, A.IsFloat, A.Signed, A.S, Read, Result);
}
} // namespace

// The parameters every family's body sees (not all use each).
#define ARITHMETIC_BODY_PARAMS                                                 \
  [[maybe_unused]] IRBuilder<> &B, [[maybe_unused]] ScalarType T,              \
      [[maybe_unused]] ArrayRef<Operand> Ops, [[maybe_unused]] bool IsFloat,   \
      [[maybe_unused]] bool Signed, [[maybe_unused]] Sources &S,               \
      [[maybe_unused]] auto &Read, [[maybe_unused]] auto &Result

Error InstructionLowering::visitMov(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Ops.size() != 2)
      return FL.error(I, "mov needs two operands");
    if (I.VectorWidth != 1) {
      // mov.v4: element by element, all read before any is written.
      SmallVector<LaneValue, 8> Elts;
      for (const Operand &E : Ops[1].Elements) {
        Expected<LaneValue> V = FL.read(E, T);
        if (!V)
          return V.takeError();
        Elts.push_back(*V);
      }
      for (auto [D, V] : zip(Ops[0].Elements, Elts))
        if (Error Err = FL.write(D, V.V, T))
          return Err;
      return Error::success();
    }
    if (Ops[0].Kind == Operand::Vector) {
      // Unpacking: the low bits go to the first element.
      Expected<LaneValue> V =
          FL.read(Ops[1], withBits(ScalarType::B64, ptx::getBitWidth(T)));
      if (!V)
        return V.takeError();
      unsigned N = Ops[0].Elements.size();
      unsigned EltBits = ptx::getBitWidth(T) / N;
      Type *EltTy = B.getIntNTy(EltBits);
      for (unsigned E = 0; E != N; ++E) {
        Value *Sh = V->V;
        if (E)
          Sh = B.CreateLShr(Sh, ConstantInt::get(Sh->getType(), E * EltBits));
        Value *Part = B.CreateTrunc(
            Sh, V->isScalar() ? EltTy : (Type *)FL.getVectorType(EltTy));
        if (Error Err = FL.write(Ops[0].Elements[E], Part,
                                 withBits(ScalarType::U32, EltBits)))
          return Err;
      }
      return Error::success();
    }
    if (Error E = Read(1, T))
      return E;
    return Result(S[0]);
  });
}

/// The half-words or bytes of .u16x2/.s16x2/.u8x4/.s8x4 values (i32 or
/// <32 x i32>) as a vector of narrower integers, and back.
static Value *splitPackedIntegers(IRBuilder<> &B, Value *V, unsigned Parts) {
  Type *Ty = V->getType();
  unsigned N =
      Ty->isVectorTy() ? cast<FixedVectorType>(Ty)->getNumElements() : 1;
  return B.CreateBitCast(
      V, FixedVectorType::get(B.getIntNTy(32 / Parts), N * Parts));
}
static Value *joinPackedIntegers(IRBuilder<> &B, Value *V, Type *Ty) {
  return B.CreateBitCast(V, Ty);
}

Error InstructionLowering::visitAddSub(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, T))
      return E;
    if (IsFloat)
      return Result(floatBinary(FL, I, T, S[0], S[1]));
    bool IsAdd = I.Op == Opcode::Add || I.Op == Opcode::AddC;
    if (unsigned Parts = ptx::getPackedIntegerParts(T)) {
      // Each half-word or byte on its own, wrapping or (.sat) clamped.
      Value *X = splitPackedIntegers(B, S[0], Parts);
      Value *Y = splitPackedIntegers(B, S[1], Parts);
      Value *R;
      if (I.hasModifier(Modifier::Sat))
        R = B.CreateBinaryIntrinsic(
            IsAdd ? (Signed ? Intrinsic::sadd_sat : Intrinsic::uadd_sat)
                  : (Signed ? Intrinsic::ssub_sat : Intrinsic::usub_sat),
            X, Y);
      else
        R = IsAdd ? B.CreateAdd(X, Y) : B.CreateSub(X, Y);
      return Result(joinPackedIntegers(B, R, S[0]->getType()));
    }
    if (I.hasModifier(Modifier::Sat))
      return Result(B.CreateBinaryIntrinsic(
          IsAdd ? (Signed ? Intrinsic::sadd_sat : Intrinsic::uadd_sat)
                : (Signed ? Intrinsic::ssub_sat : Intrinsic::usub_sat),
          S[0], S[1]));
    return Result(carryArithmetic(FL, I, IsAdd, S[0], S[1]));
  });
}

Error InstructionLowering::visitMulMad(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    bool Wide = I.hasModifier(Modifier::Wide);
    if (Error E = S.add(Ops[1], T))
      return E;
    if (Error E = S.add(Ops[2], T))
      return E;
    if (Ops.size() > 3)
      if (Error E =
              S.add(Ops[3], Wide ? withBits(T, 2 * ptx::getBitWidth(T)) : T))
        return E;
    if (IsFloat) {
      if (I.Op == Opcode::Mul)
        return Result(floatBinary(FL, I, T, S[0], S[1]));
      return Result(fusedMultiplyAdd(FL, I, T, S[0], S[1], S[2]));
    }
    Value *A = S[0], *C = S[1];
    unsigned Bits = ptx::getBitWidth(T);
    Value *Prod;
    ScalarType ResultTy = T;
    if (Wide || I.hasModifier(Modifier::Hi)) {
      Type *WideTy = B.getIntNTy(2 * Bits);
      if (S.AnyVector)
        WideTy = FL.getVectorType(WideTy);
      Value *WA = Signed ? B.CreateSExt(A, WideTy) : B.CreateZExt(A, WideTy);
      Value *WC = Signed ? B.CreateSExt(C, WideTy) : B.CreateZExt(C, WideTy);
      Prod = B.CreateMul(WA, WC);
      if (Wide)
        ResultTy = withBits(T, 2 * Bits);
      else
        Prod = B.CreateTrunc(B.CreateLShr(Prod, ConstantInt::get(WideTy, Bits)),
                             A->getType());
    } else {
      Prod = B.CreateMul(A, C);
    }
    if (I.Op == Opcode::Mul)
      return Result(Prod, ResultTy);
    if (I.Op == Opcode::MadC || I.hasModifier(Modifier::Cc))
      return Result(carryArithmetic(FL, I, true, Prod, S[2]), ResultTy);
    if (I.hasModifier(Modifier::Sat)) // mad.hi.sat.s32
      return Result(B.CreateBinaryIntrinsic(Intrinsic::sadd_sat, Prod, S[2]),
                    ResultTy);
    return Result(B.CreateAdd(Prod, S[2]), ResultTy);
  });
}

Error InstructionLowering::visitMul24(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, T))
      return E;
    Type *Ty = S[0]->getType();
    Type *WideTy = Ty->isVectorTy() ? (Type *)FL.getVectorType(B.getInt64Ty())
                                    : B.getInt64Ty();
    auto Low24 = [&](Value *V) {
      Value *Sh = B.CreateShl(V, ConstantInt::get(Ty, 8));
      Value *F = Signed ? B.CreateAShr(Sh, ConstantInt::get(Ty, 8))
                        : B.CreateLShr(Sh, ConstantInt::get(Ty, 8));
      return Signed ? B.CreateSExt(F, WideTy) : B.CreateZExt(F, WideTy);
    };
    Value *P = B.CreateMul(Low24(S[0]), Low24(S[1]));
    Value *R =
        I.hasModifier(Modifier::Hi)
            ? B.CreateTrunc(B.CreateLShr(P, ConstantInt::get(WideTy, 16)), Ty)
            : B.CreateTrunc(P, Ty);
    if (I.Op == Opcode::Mad24)
      R = I.hasModifier(Modifier::Sat) // mad24.hi.sat.s32
              ? B.CreateBinaryIntrinsic(Intrinsic::sadd_sat, R, S[2])
              : B.CreateAdd(R, S[2]);
    return Result(R);
  });
}

Error InstructionLowering::visitSad(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, T))
      return E;
    Value *Diff = B.CreateSelect(
        Signed ? B.CreateICmpSLT(S[0], S[1]) : B.CreateICmpULT(S[0], S[1]),
        B.CreateSub(S[1], S[0]), B.CreateSub(S[0], S[1]));
    return Result(B.CreateAdd(Diff, S[2]));
  });
}

Error InstructionLowering::visitDivRem(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, T))
      return E;
    if (IsFloat)
      return Result(floatBinary(FL, I, T, S[0], S[1]));
    return Result(safeDivRem(B, S[0], S[1], Signed, I.Op == Opcode::Rem));
  });
}

Error InstructionLowering::visitAbsNeg(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, T))
      return E;
    if (IsFloat)
      return Result(floatUnary(FL, I, T, S[0]));
    if (I.Op == Opcode::Neg)
      return Result(B.CreateNeg(S[0]));
    return Result(B.CreateBinaryIntrinsic(Intrinsic::abs, S[0], B.getFalse()));
  });
}

Error InstructionLowering::visitMinMax(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, T))
      return E;
    if (IsFloat) {
      Value *R = floatBinary(FL, I, T, S[0], S[1]);
      if (S.size() == 3)
        R = floatBinary(FL, I, T, R, S[2]);
      return Result(R);
    }
    Intrinsic::ID ID = I.Op == Opcode::Min
                           ? (Signed ? Intrinsic::smin : Intrinsic::umin)
                           : (Signed ? Intrinsic::smax : Intrinsic::umax);
    // Packed integers: each half-word or byte on its own.
    unsigned Parts = ptx::getPackedIntegerParts(T);
    auto Operand = [&](unsigned K) {
      return Parts ? splitPackedIntegers(B, S[K], Parts) : S[K];
    };
    Value *R = B.CreateBinaryIntrinsic(ID, Operand(0), Operand(1));
    if (S.size() == 3)
      R = B.CreateBinaryIntrinsic(ID, R, Operand(2));
    if (I.hasModifier(Modifier::Relu))
      R = B.CreateBinaryIntrinsic(Intrinsic::smax, R,
                                  Constant::getNullValue(R->getType()));
    return Result(Parts ? joinPackedIntegers(B, R, S[0]->getType()) : R);
  });
}

Error InstructionLowering::visitFma(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, T))
      return E;
    return Result(fusedMultiplyAdd(FL, I, T, S[0], S[1], S[2]));
  });
}

Error InstructionLowering::visitFloatUnary(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, T))
      return E;
    return Result(floatUnary(FL, I, T, S[0]));
  });
}

Error InstructionLowering::visitCopysign(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, T))
      return E;
    return Result(floatBinary(FL, I, T, S[0], S[1]));
  });
}

Error InstructionLowering::visitTestp(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, T))
      return E;
    unsigned Class = 0;
    if (I.hasModifier(Modifier::Finite))
      Class = fcFinite;
    else if (I.hasModifier(Modifier::Infinite))
      Class = fcInf;
    else if (I.hasModifier(Modifier::Number))
      Class = ~unsigned(fcNan) & fcAllFlags;
    else if (I.hasModifier(Modifier::Notanumber))
      Class = fcNan;
    else if (I.hasModifier(Modifier::Normal))
      // The ISA counts both zeros as normal numbers (and GPUs agree).
      Class = fcNormal | fcZero;
    else
      Class = fcSubnormal;
    Value *R = B.createIsFPClass(toArith(FL, S[0], T), Class);
    return FL.write(Ops[0], R, ScalarType::Pred);
  });
}

Error InstructionLowering::visitBitCount(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, T))
      return E;
    Value *A = S[0];
    Type *Ty = A->getType();
    unsigned Bits = Ty->getScalarSizeInBits();
    Value *R;
    if (I.Op == Opcode::Popc) {
      R = B.CreateUnaryIntrinsic(Intrinsic::ctpop, A);
    } else if (I.Op == Opcode::Clz) {
      R = B.CreateBinaryIntrinsic(Intrinsic::ctlz, A, B.getFalse());
    } else {
      // Most significant non-sign bit; 0xffffffff if there is none.
      Value *X =
          Signed
              ? B.CreateSelect(B.CreateICmpSLT(A, Constant::getNullValue(Ty)),
                               B.CreateNot(A), A)
              : A;
      Value *Lz = B.CreateBinaryIntrinsic(Intrinsic::ctlz, X, B.getFalse());
      Value *Pos = B.CreateSub(ConstantInt::get(Ty, Bits - 1), Lz);
      if (I.hasModifier(Modifier::Shiftamt))
        Pos = Lz;
      R = B.CreateSelect(B.CreateICmpEQ(X, Constant::getNullValue(Ty)),
                         Constant::getAllOnesValue(Ty), Pos);
    }
    R = B.CreateZExtOrTrunc(R, Ty->isVectorTy()
                                   ? (Type *)FL.getVectorType(B.getInt32Ty())
                                   : B.getInt32Ty());
    return FL.write(Ops[0], R, ScalarType::U32);
  });
}

Error InstructionLowering::visitBrev(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, T))
      return E;
    return Result(B.CreateUnaryIntrinsic(Intrinsic::bitreverse, S[0]));
  });
}

Error InstructionLowering::visitBfe(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = S.add(Ops[1], T))
      return E;
    if (Error E = Read(2, ScalarType::U32))
      return E;
    return Result(bitFieldExtract(B, S[0], S[1], S[2], Signed));
  });
}

Error InstructionLowering::visitBfi(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = S.add(Ops[1], T))
      return E;
    if (Error E = S.add(Ops[2], T))
      return E;
    if (Error E = Read(3, ScalarType::U32))
      return E;
    return Result(bitFieldInsert(B, S[0], S[1], S[2], S[3]));
  });
}

Error InstructionLowering::visitBmsk(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, ScalarType::U32))
      return E;
    Type *Ty = S[0]->getType();
    Type *WideTy = Ty->isVectorTy() ? (Type *)FL.getVectorType(B.getInt64Ty())
                                    : B.getInt64Ty();
    auto C = [&](uint64_t V) { return ConstantInt::get(WideTy, V); };
    Value *A = B.CreateZExt(S[0], WideTy), *W = B.CreateZExt(S[1], WideTy);
    if (I.hasModifier(Modifier::Wrap)) {
      A = B.CreateAnd(A, C(31));
      W = B.CreateAnd(W, C(31));
    } else {
      A = B.CreateBinaryIntrinsic(Intrinsic::umin, A, C(32));
      W = B.CreateBinaryIntrinsic(Intrinsic::umin, W, C(32));
    }
    Value *Ones = B.CreateSub(B.CreateShl(C(1), W), C(1));
    return Result(B.CreateTrunc(B.CreateShl(Ones, A), Ty));
  });
}

Error InstructionLowering::visitSzext(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, ScalarType::U32))
      return E;
    Type *Ty = S[0]->getType();
    auto C = [&](uint64_t V) { return ConstantInt::get(Ty, V); };
    // The ISA: N = b & 31, except that .clamp leaves a whole when b >= 32;
    // N = 0 gives 0. The kept bits are a's low N, the rest copies bit N-1
    // (.s32) or is zero (.u32).
    Value *N = B.CreateAnd(S[1], C(31));
    Value *Whole = I.hasModifier(Modifier::Clamp)
                       ? B.CreateICmpUGE(S[1], C(32))
                       : ConstantInt::getFalse(B.getContext());
    if (Ty->isVectorTy() && !Whole->getType()->isVectorTy())
      Whole = FL.splat(Whole);
    // Shifting left by 32 - N and back extends from bit N - 1; N = 0
    // (shift 32) is 0 either way.
    Value *Zero = B.CreateICmpEQ(N, C(0));
    Value *Up = B.CreateSelect(Zero, C(0), B.CreateSub(C(32), N));
    Value *Shl = B.CreateShl(S[0], Up);
    Value *Ext = Signed ? B.CreateAShr(Shl, Up) : B.CreateLShr(Shl, Up);
    Ext = B.CreateSelect(Zero, C(0), Ext);
    return Result(B.CreateSelect(Whole, S[0], Ext));
  });
}

Error InstructionLowering::visitFns(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, ScalarType::B32))
      return E;
    // Rare: computed lane by lane by the runtime, as the ISA states it.
    Value *Ms = FL.widen(S[0]), *Bs = FL.widen(S[1]), *Os = FL.widen(S[2]);
    Value *R = FL.collectActiveLanes(
        FL.getInstMask(), B.getInt32Ty(), [&](Value *Lane) -> Value * {
          return B.CreateCall(
              FL.ML.getRuntimeFunction(RuntimeEntry::Fns),
              {FL.laneOf(Ms, Lane), FL.laneOf(Bs, Lane), FL.laneOf(Os, Lane)});
        });
    return FL.write(Ops[0], R, ScalarType::B32);
  });
}

Error InstructionLowering::visitPrmt(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, ScalarType::B32))
      return E;
    return Result(permuteBytes(FL, I, S[0], S[1], S[2]));
  });
}

Error InstructionLowering::visitShf(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, ScalarType::B32))
      return E;
    Value *N = S[2];
    Type *Ty = N->getType();
    auto C = [&](uint64_t V) { return ConstantInt::get(Ty, V); };
    bool Left = I.hasModifier(Modifier::L);
    if (I.hasModifier(Modifier::Wrap))
      N = B.CreateAnd(N, C(31));
    else
      N = B.CreateBinaryIntrinsic(Intrinsic::umin, N, C(32));
    // fshl/fshr take the count modulo 32; a clamped 32 selects a whole word.
    Value *R = Left ? B.CreateIntrinsic(Intrinsic::fshl, {Ty}, {S[1], S[0], N})
                    : B.CreateIntrinsic(Intrinsic::fshr, {Ty}, {S[1], S[0], N});
    Value *Whole = Left ? S[0] : S[1];
    return Result(B.CreateSelect(B.CreateICmpEQ(N, C(32)), Whole, R));
  });
}

Error InstructionLowering::visitShift(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = S.add(Ops[1], T))
      return E;
    if (Error E = S.add(Ops[2], ScalarType::U32))
      return E;
    return Result(clampedShift(B, I.Op, S[0], S[1], Signed));
  });
}

Error InstructionLowering::visitLogic(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, T))
      return E;
    Value *R;
    switch (I.Op) {
    case Opcode::And:
      R = B.CreateAnd(S[0], S[1]);
      break;
    case Opcode::Or:
      R = B.CreateOr(S[0], S[1]);
      break;
    case Opcode::Xor:
      R = B.CreateXor(S[0], S[1]);
      break;
    case Opcode::Not:
      R = B.CreateNot(S[0]);
      break;
    default:
      R = B.CreateZExt(
          B.CreateICmpEQ(S[0], Constant::getNullValue(S[0]->getType())),
          S[0]->getType());
      break;
    }
    return Result(R);
  });
}

Error InstructionLowering::visitLop3(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, ScalarType::B32))
      return E;
    if (Ops[4].Kind != Operand::IntImm)
      return FL.error(I, "lop3 needs an immediate lookup table");
    unsigned Lut = Ops[4].Value & 0xff;
    Value *R = S.constant(B.getInt32(0));
    for (unsigned Term = 0; Term != 8; ++Term) {
      if (!(Lut >> Term & 1))
        continue;
      Value *X = Term & 4 ? S[0] : B.CreateNot(S[0]);
      Value *Y = Term & 2 ? S[1] : B.CreateNot(S[1]);
      Value *Z = Term & 1 ? S[2] : B.CreateNot(S[2]);
      R = B.CreateOr(R, B.CreateAnd(X, B.CreateAnd(Y, Z)));
    }
    return Result(R);
  });
}

/// The bits set writes for true into a destination of type T: 1.0 in a
/// floating-point format (per half of a packed one), else all ones (per half
/// when the source is packed).
static uint64_t getSetTrueBits(ScalarType T, bool PackedSource) {
  switch (T) {
  case ScalarType::F32:
    return 0x3F800000;
  case ScalarType::F16:
    return 0x3C00;
  case ScalarType::BF16:
    return 0x3F80;
  case ScalarType::F16x2:
    return 0x3C003C00;
  case ScalarType::BF16x2:
    return 0x3F803F80;
  default:
    if (PackedSource)
      return 0xFFFFFFFF; // each half 0xffff
    return APInt::getAllOnes(ptx::getBitWidth(T)).getZExtValue();
  }
}

Error InstructionLowering::visitCompare(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    ScalarType CmpTy = I.Op == Opcode::Set ? I.getType(1) : T;
    if (Error E = S.add(Ops[1], CmpTy))
      return E;
    if (Error E = S.add(Ops[2], CmpTy))
      return E;
    if (Ops.size() > 3)
      if (Error E = S.add(Ops[3], ScalarType::Pred))
        return E;
    Value *Cmp = compare(FL, I, S[0], S[1], CmpTy);
    auto Combine = [&](Value *X) {
      return Ops.size() > 3 ? boolOp(B, I, X, S[2]) : X;
    };
    bool Packed = CmpTy == ScalarType::F16x2 || CmpTy == ScalarType::BF16x2;
    if (Packed) {
      // The halves compare separately: element 0 of each pair is the low
      // half (bits 0-15).
      unsigned N = S.AnyVector ? Lanes : 1;
      SmallVector<int, 32> LoIdx, HiIdx;
      for (unsigned L = 0; L != N; ++L) {
        LoIdx.push_back(2 * L);
        HiIdx.push_back(2 * L + 1);
      }
      auto Half = [&](ArrayRef<int> Idx) {
        Value *V = B.CreateShuffleVector(Cmp, Idx);
        return S.AnyVector ? V : B.CreateExtractElement(V, uint64_t(0));
      };
      Value *Lo = Combine(Half(LoIdx)), *Hi = Combine(Half(HiIdx));
      if (I.Op == Opcode::Set) {
        // Each half of d: 1.0 or 0xffff for true, 0 for false.
        Type *Ty = S.AnyVector ? (Type *)FL.getVectorType(B.getInt32Ty())
                               : B.getInt32Ty();
        uint64_t True = getSetTrueBits(T, /*PackedSource=*/true);
        Value *Zero = Constant::getNullValue(Ty);
        Value *D = B.CreateOr(
            B.CreateSelect(Lo, ConstantInt::get(Ty, True & 0xFFFF), Zero),
            B.CreateSelect(Hi, ConstantInt::get(Ty, True & 0xFFFF0000), Zero));
        return Result(D, ScalarType::B32);
      }
      // setp p|q: p from the low halves, q from the high ones.
      if (Ops[0].Kind == Operand::PredPair) {
        if (Error E = FL.write(Ops[0].Elements[0], Lo, ScalarType::Pred))
          return E;
        return FL.write(Ops[0].Elements[1], Hi, ScalarType::Pred);
      }
      return FL.write(Ops[0], Lo, ScalarType::Pred);
    }
    Value *P = Combine(Cmp);
    if (I.Op == Opcode::Set) {
      Type *Ty = B.getIntNTy(ptx::getBitWidth(T));
      if (S.AnyVector)
        Ty = FL.getVectorType(Ty);
      Value *True = ConstantInt::get(Ty, getSetTrueBits(T, false));
      return Result(B.CreateSelect(P, True, Constant::getNullValue(Ty)),
                    withBits(ScalarType::B32, ptx::getBitWidth(T)));
    }
    if (Ops[0].Kind == Operand::PredPair) {
      Value *Q = Combine(B.CreateNot(Cmp));
      if (Error E = FL.write(Ops[0].Elements[0], P, ScalarType::Pred))
        return E;
      return FL.write(Ops[0].Elements[1], Q, ScalarType::Pred);
    }
    return FL.write(Ops[0], P, ScalarType::Pred);
  });
}

Error InstructionLowering::visitSelp(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = S.add(Ops[1], T))
      return E;
    if (Error E = S.add(Ops[2], T))
      return E;
    if (Error E = S.add(Ops[3], ScalarType::Pred))
      return E;
    return Result(B.CreateSelect(S[2], S[0], S[1]));
  });
}

Error InstructionLowering::visitSlct(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    ScalarType CTy = I.getType(1);
    if (Error E = S.add(Ops[1], T))
      return E;
    if (Error E = S.add(Ops[2], T))
      return E;
    if (Error E = S.add(Ops[3], CTy))
      return E;
    Value *C = S[2];
    Value *NonNeg;
    if (ptx::isFloat(CTy)) {
      if (I.hasModifier(Modifier::Ftz))
        C = flushSubnormal(FL, C);
      NonNeg = B.CreateFCmpOGE(C, ConstantFP::get(C->getType(), 0.0));
    } else {
      NonNeg = B.CreateICmpSGE(C, Constant::getNullValue(C->getType()));
    }
    return Result(B.CreateSelect(NonNeg, S[0], S[1]));
  });
}

Error InstructionLowering::visitDotProduct(const ptx::Instruction &I) {
  return lowerArithmeticFamily(FL, I, [&](ARITHMETIC_BODY_PARAMS) -> Error {
    if (Error E = Read(1, ScalarType::B32))
      return E;
    bool ASigned = ptx::isSigned(I.getType(0));
    bool BSigned = ptx::isSigned(I.getType(1));
    Type *Ty = S[0]->getType();
    auto C = [&](uint64_t V) { return ConstantInt::get(Ty, V); };
    auto Part = [&](Value *V, unsigned Bit, unsigned Width, bool Sgn) {
      Value *Up = B.CreateShl(V, C(32 - Bit - Width));
      return Sgn ? B.CreateAShr(Up, C(32 - Width))
                 : B.CreateLShr(Up, C(32 - Width));
    };
    Value *Acc = S[2];
    if (I.Op == Opcode::Dp4a) {
      for (unsigned K = 0; K != 4; ++K)
        Acc = B.CreateAdd(Acc, B.CreateMul(Part(S[0], 8 * K, 8, ASigned),
                                           Part(S[1], 8 * K, 8, BSigned)));
    } else {
      unsigned Base = I.hasModifier(Modifier::Hi) ? 16 : 0;
      for (unsigned K = 0; K != 2; ++K)
        Acc =
            B.CreateAdd(Acc, B.CreateMul(Part(S[0], 16 * K, 16, ASigned),
                                         Part(S[1], Base + 8 * K, 8, BSigned)));
    }
    return FL.write(Ops[0], Acc, ScalarType::U32);
  });
}
#undef ARITHMETIC_BODY_PARAMS
