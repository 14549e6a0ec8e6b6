//===- Conversion.cpp - cvt: integer, float and half conversions ----------===//
//
// Float to integer saturates; NaN gives 0, except from .f64 or into a 64-bit
// integer, where it gives 1 << (bits-1) (PTX ISA 9.0). Integer rounding
// modifiers (.rni .rzi .rmi .rpi) are applied before the conversion. Float
// results are rounded once, in the requested mode (see narrowFloat).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "Semantics.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Modifier;
using ptx::ScalarType;

static Value *roundToIntegral(IRBuilder<> &B, const ptx::Instruction &I,
                              Value *V, bool DefaultTrunc) {
  if (I.hasModifier(Modifier::Rni))
    return B.CreateUnaryIntrinsic(Intrinsic::roundeven, V);
  if (I.hasModifier(Modifier::Rzi))
    return B.CreateUnaryIntrinsic(Intrinsic::trunc, V);
  if (I.hasModifier(Modifier::Rmi))
    return B.CreateUnaryIntrinsic(Intrinsic::floor, V);
  if (I.hasModifier(Modifier::Rpi))
    return B.CreateUnaryIntrinsic(Intrinsic::ceil, V);
  return DefaultTrunc ? B.CreateUnaryIntrinsic(Intrinsic::trunc, V) : V;
}

/// Rounds the float V (arithmetic values of type From) once to the narrower
/// float type To. LLVM's fptrunc rounds to nearest, but from float to
/// bfloat its x86 lowering may flush subnormals, and from double to the
/// 16-bit formats it calls compiler-rt functions the JIT cannot resolve;
/// those and the directed modes are done here or by an exact helper.
static Value *narrowFloat(FunctionLowering &FL, const ptx::Instruction &I,
                          Value *V, ScalarType From, ScalarType To) {
  std::optional<RoundingHelperMode> Mode = getDirectedRounding(I);
  bool To16 = To == ScalarType::F16 || To == ScalarType::BF16;
  if (Mode || (From == ScalarType::F64 && To16))
    return roundedConversion(FL, V, From, To, Mode.value_or(RHM_NearestEven));
  if (To == ScalarType::BF16)
    return truncateToBFloat(FL, V);
  return FL.B.CreateFPTrunc(V,
                            getArithType(FL, To, V->getType()->isVectorTy()));
}

static Value *floatToInt(FunctionLowering &FL, const ptx::Instruction &I,
                         Value *V, ScalarType From, ScalarType To) {
  IRBuilder<> &B = FL.B;
  V = roundToIntegral(B, I, V, /*DefaultTrunc=*/true);
  unsigned Bits = ptx::getBitWidth(To);
  bool Signed = ptx::isSigned(To);
  Type *IntTy = B.getIntNTy(Bits);
  if (V->getType()->isVectorTy())
    IntTy = FL.getVectorType(IntTy);
  // fpto[su]i.sat saturates and maps NaN to 0.
  Value *R =
      B.CreateIntrinsic(Signed ? Intrinsic::fptosi_sat : Intrinsic::fptoui_sat,
                        {IntTy, V->getType()}, {V});
  if (From == ScalarType::F64 || Bits == 64) {
    Value *IsNaN = B.CreateFCmpUNO(V, V);
    R = B.CreateSelect(
        IsNaN, ConstantInt::get(IntTy, APInt::getSignedMinValue(Bits)), R);
  }
  return R;
}

static Value *intToInt(FunctionLowering &FL, const ptx::Instruction &I,
                       Value *V, ScalarType From, ScalarType To) {
  IRBuilder<> &B = FL.B;
  unsigned FromBits = ptx::getBitWidth(From), ToBits = ptx::getBitWidth(To);
  bool FromSigned = ptx::isSigned(From), ToSigned = ptx::isSigned(To);
  Type *ToTy = B.getIntNTy(ToBits);
  if (V->getType()->isVectorTy())
    ToTy = FL.getVectorType(ToTy);
  if (!I.hasModifier(Modifier::Sat)) {
    if (ToBits <= FromBits)
      return B.CreateTrunc(V, ToTy);
    return FromSigned ? B.CreateSExt(V, ToTy) : B.CreateZExt(V, ToTy);
  }
  // .sat: clamp the source value into the destination's range, computed in
  // a type wide enough for both.
  unsigned W = std::max(FromBits, ToBits) + 1;
  Type *WTy = B.getIntNTy(W);
  if (V->getType()->isVectorTy())
    WTy = FL.getVectorType(WTy);
  Value *X = FromSigned ? B.CreateSExt(V, WTy) : B.CreateZExt(V, WTy);
  APInt Lo =
      ToSigned ? APInt::getSignedMinValue(ToBits).sext(W) : APInt::getZero(W);
  APInt Hi = ToSigned ? APInt::getSignedMaxValue(ToBits).sext(W)
                      : APInt::getMaxValue(ToBits).zext(W);
  X = B.CreateBinaryIntrinsic(Intrinsic::smax, X, ConstantInt::get(WTy, Lo));
  X = B.CreateBinaryIntrinsic(Intrinsic::smin, X, ConstantInt::get(WTy, Hi));
  return B.CreateTrunc(X, ToTy);
}

/// .satfinite: a result beyond the largest finite value (infinity) becomes
/// that value with the same sign; NaN stays NaN.
static Value *saturateFinite(FunctionLowering &FL, Value *V) {
  IRBuilder<> &B = FL.B;
  Type *Ty = V->getType();
  const fltSemantics &Sem = Ty->getScalarType()->getFltSemantics();
  Value *Max = ConstantFP::get(Ty, APFloat::getLargest(Sem));
  Value *Inf = ConstantFP::getInfinity(Ty);
  Value *IsInf =
      B.CreateFCmpOEQ(B.CreateUnaryIntrinsic(Intrinsic::fabs, V), Inf);
  return B.CreateSelect(
      IsInf, B.CreateBinaryIntrinsic(Intrinsic::copysign, Max, V), V);
}

/// cvt.pack.sat: a and b clamped to the narrow type's range, b in the
/// lowest bits and a above it; below 16 bits, the low bits of c fill the
/// rest of d.
static Error lowerCvtPack(FunctionLowering &FL, const ptx::Instruction &I) {
  IRBuilder<> &B = FL.B;
  ScalarType To = I.getType(0);
  unsigned Bits = ptx::getBitWidth(To);
  bool Signed = ptx::isSigned(To);
  SmallVector<Value *, 3> Vals;
  bool Vector = false;
  for (const ptx::Operand &Op : I.Operands.drop_front()) {
    Expected<LaneValue> V = FL.read(Op, ScalarType::S32);
    if (!V)
      return V.takeError();
    Vector |= !V->isScalar();
    Vals.push_back(V->V);
  }
  auto Shape = [&](Value *V) { return Vector ? FL.widen(V) : V; };
  Type *Ty = Shape(Vals[0])->getType();
  APInt Lo = Signed ? APInt::getSignedMinValue(Bits).sext(32) : APInt(32, 0);
  APInt Hi = Signed ? APInt::getSignedMaxValue(Bits).sext(32)
                    : APInt::getMaxValue(Bits).zext(32);
  auto Clamp = [&](Value *V) {
    V = B.CreateBinaryIntrinsic(Intrinsic::smax, Shape(V),
                                ConstantInt::get(Ty, Lo));
    V = B.CreateBinaryIntrinsic(Intrinsic::smin, V, ConstantInt::get(Ty, Hi));
    return B.CreateAnd(V, (uint64_t(1) << Bits) - 1);
  };
  Value *D = B.CreateOr(Clamp(Vals[1]), B.CreateShl(Clamp(Vals[0]), Bits));
  if (Vals.size() > 2)
    D = B.CreateOr(D, B.CreateShl(Shape(Vals[2]), 2 * Bits));
  return FL.write(I.Operands[0], D, ScalarType::U32);
}

Error irgen::lowerConversion(FunctionLowering &FL, const ptx::Instruction &I) {
  if (I.Op == ptx::Opcode::CvtPack)
    return lowerCvtPack(FL, I);
  if (isNarrowFloatConversion(I))
    return lowerNarrowFloatConversion(FL, I);
  IRBuilder<> &B = FL.B;
  ScalarType To = I.getType(0), From = I.getType(1);
  if (I.Operands.size() < 2 || From == ScalarType::None)
    return FL.error(I, "cvt needs a destination and a source type");
  bool FromFloat = ptx::isFloat(From), ToFloat = ptx::isFloat(To);

  if (To == ScalarType::F16x2 || To == ScalarType::BF16x2) {
    // cvt.rn.f16x2.f32 d, a, b: a goes to the upper half, b to the lower.
    if (I.Operands.size() != 3 || From != ScalarType::F32)
      return FL.error(I,
                      "this form of cvt to a packed type is not supported yet");
    ScalarType Half =
        To == ScalarType::F16x2 ? ScalarType::F16 : ScalarType::BF16;
    Value *Parts[2];
    bool Vector = false;
    for (unsigned K = 0; K != 2; ++K) {
      Expected<LaneValue> V = FL.read(I.Operands[1 + K], From);
      if (!V)
        return V.takeError();
      Vector |= !V->isScalar();
      Parts[K] = V->V;
    }
    Value *Packed = nullptr;
    for (unsigned K = 0; K != 2; ++K) {
      Value *V = Vector ? FL.widen(Parts[K]) : Parts[K];
      Value *H = narrowFloat(FL, I, V, From, Half);
      if (I.hasModifier(Modifier::Relu))
        H = applyRelu(FL, H);
      if (I.hasModifier(Modifier::Satfinite))
        H = saturateFinite(FL, H);
      Value *Bits = B.CreateZExt(
          fromArith(FL, H, Half),
          Vector ? (Type *)FL.getVectorType(B.getInt32Ty()) : B.getInt32Ty());
      if (K == 0)
        Bits = B.CreateShl(Bits, ConstantInt::get(Bits->getType(), 16));
      Packed = Packed ? B.CreateOr(Packed, Bits) : Bits;
    }
    return FL.write(I.Operands[0], Packed, ScalarType::B32);
  }

  Expected<LaneValue> Src = FL.read(I.Operands[1], From);
  if (!Src)
    return Src.takeError();
  Value *V = Src->V;
  bool Vector = !Src->isScalar();
  Value *R;
  // .ftz applies to .f32 inputs and results only.
  bool Ftz = I.hasModifier(Modifier::Ftz);
  if (FromFloat && ToFloat) {
    V = toArith(FL, V, From);
    if (Ftz && From == ScalarType::F32)
      V = flushSubnormal(FL, V);
    Type *ToTy = getArithType(FL, To, Vector);
    unsigned FromBits = ptx::getBitWidth(From), ToBits = ptx::getBitWidth(To);
    if (ToBits < FromBits || (ToBits == FromBits && From != To))
      R = narrowFloat(FL, I, V, From, To);
    else if (ToBits > FromBits)
      R = B.CreateFPExt(V, ToTy);
    else
      R = roundToIntegral(B, I, V, /*DefaultTrunc=*/false);
    if (Ftz && To == ScalarType::F32)
      R = flushSubnormal(FL, R);
    if (I.hasModifier(Modifier::Sat))
      R = saturate(FL, R);
    if (I.hasModifier(Modifier::Relu))
      R = applyRelu(FL, R);
    if (I.hasModifier(Modifier::Satfinite))
      R = saturateFinite(FL, R);
    R = fromArith(FL, R, To);
  } else if (FromFloat) {
    V = toArith(FL, V, From);
    if (Ftz && From == ScalarType::F32)
      V = flushSubnormal(FL, V);
    // Narrow formats convert through f32, which holds them exactly.
    if (From == ScalarType::F16 || From == ScalarType::BF16)
      V = B.CreateFPExt(V, Vector ? (Type *)FL.getVectorType(B.getFloatTy())
                                  : B.getFloatTy());
    R = floatToInt(FL, I, V, From, To);
  } else if (ToFloat) {
    Type *ToTy = getArithType(FL, To, Vector);
    std::optional<RoundingHelperMode> Mode = getDirectedRounding(I);
    // To .bf16, LLVM may convert through float: rounding twice.
    if (Mode || To == ScalarType::BF16)
      R = roundedConversion(FL, V, From, To, Mode.value_or(RHM_NearestEven));
    else if (ptx::isSigned(From))
      R = B.CreateSIToFP(V, ToTy);
    else
      R = B.CreateUIToFP(V, ToTy);
    if (I.hasModifier(Modifier::Sat))
      R = saturate(FL, R);
    R = fromArith(FL, R, To);
  } else {
    R = intToInt(FL, I, V, From, To);
  }
  return FL.write(I.Operands[0], R, To, ptx::isSigned(To));
}
