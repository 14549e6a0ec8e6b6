//===- NarrowFloats.cpp - cvt to and from the 4-, 6- and 8-bit floats -----===//
//
// The packed narrow formats of cvt (PTX ISA 9.7.10.24): .e4m3x2 and
// .e5m2x2 (8-bit), .e2m3x2 and .e3m2x2 (6-bit in a byte), .e2m1x2 (4-bit),
// .ue8m0x2 (an 8-bit power of two), and .tf32 (an .f32 with 10 mantissa
// bits). Sources are made .f32 first (every .f16 and .bf16 value is one), so
// each element is rounded once: the bits of its magnitude give the code
// directly for normal results, a scaled round-to-integral gives subnormal
// ones, and .satfinite clamps beyond the largest finite value. Decoding is
// exact. Everything is integer and float vector code on the warp's lanes.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "Semantics.h"
#include "llvm/IR/Intrinsics.h"
#include <cmath>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Modifier;
using ptx::ScalarType;

namespace {

/// A sign-magnitude binary format of ExpBits exponent and ManBits mantissa
/// bits (ue8m0: no sign, no mantissa).
struct NarrowFormat {
  unsigned ExpBits, ManBits, Bias;
  bool Signed;
  /// The code of infinity (.e5m2) and NaN, 0 when the format has none.
  uint32_t InfCode, NaNCode;
  unsigned bits() const { return Signed + ExpBits + ManBits; }
  /// The largest finite magnitude's code.
  uint32_t maxCode() const {
    uint32_t AllOnes = (1u << (ExpBits + ManBits)) - 1;
    if (InfCode)
      return InfCode - 1;
    return NaNCode ? AllOnes - 1 : AllOnes;
  }
  int minNormalExponent() const { return 1 - int(Bias); }
};

std::optional<NarrowFormat> getNarrowFormat(ScalarType T) {
  switch (T) {
  case ScalarType::E4M3x2:
    return NarrowFormat{4, 3, 7, true, 0, 0x7F};
  case ScalarType::E5M2x2:
    return NarrowFormat{5, 2, 15, true, 0x7C, 0x7F};
  case ScalarType::E2M3x2:
    return NarrowFormat{2, 3, 1, true, 0, 0};
  case ScalarType::E3M2x2:
    return NarrowFormat{3, 2, 3, true, 0, 0};
  case ScalarType::E2M1x2:
    return NarrowFormat{2, 1, 1, true, 0, 0};
  case ScalarType::UE8M0x2:
    return NarrowFormat{8, 0, 127, false, 0, 0xFF};
  default:
    return std::nullopt;
  }
}

enum class NarrowRounding { NearestEven, NearestAway, Zero, Up };

class NarrowLowering {
public:
  NarrowLowering(FunctionLowering &FL, const ptx::Instruction &I)
      : FL(FL), B(FL.B), I(I) {}

  Error lower();

private:
  Type *intTy(unsigned Bits) {
    Type *T = B.getIntNTy(Bits);
    return Vector ? (Type *)FL.getVectorType(T) : T;
  }
  Type *floatTy() {
    Type *T = B.getFloatTy();
    return Vector ? (Type *)FL.getVectorType(T) : T;
  }
  Constant *c32(uint32_t V) { return ConstantInt::get(intTy(32), V); }
  Constant *cf(float V) { return ConstantFP::get(floatTy(), V); }

  NarrowRounding getRounding() const {
    if (I.hasModifier(Modifier::Rna))
      return NarrowRounding::NearestAway;
    if (I.hasModifier(Modifier::Rz))
      return NarrowRounding::Zero;
    if (I.hasModifier(Modifier::Rp))
      return NarrowRounding::Up;
    return NarrowRounding::NearestEven;
  }
  /// Half K (0 low, 1 high) of packed .f16x2/.bf16x2 bits, as .f32.
  Value *unpackHalf(Value *Bits, unsigned K, ScalarType Packed);
  Value *encode(Value *F, const NarrowFormat &Fmt);
  Value *decode(Value *Code, const NarrowFormat &Fmt);
  Value *roundTF32(Value *F);
  /// .f32 value V as .f16 or .bf16 bits (V is exact in both).
  Value *toHalfBits(Value *V, ScalarType Half);

  FunctionLowering &FL;
  IRBuilder<> &B;
  const ptx::Instruction &I;
  bool Vector = false;
};

Value *NarrowLowering::unpackHalf(Value *Bits, unsigned K, ScalarType Packed) {
  Value *H = B.CreateTrunc(K ? B.CreateLShr(Bits, 16) : Bits, intTy(16));
  if (Packed == ScalarType::BF16x2) // bf16 bits are the high half of an f32
    return B.CreateBitCast(B.CreateShl(B.CreateZExt(H, intTy(32)), 16),
                           floatTy());
  Type *Half = B.getHalfTy();
  if (Vector)
    Half = FL.getVectorType(Half);
  return B.CreateFPExt(B.CreateBitCast(H, Half), floatTy());
}

/// The code of F (.f32) in Fmt, rounded once, with .satfinite and .relu.
Value *NarrowLowering::encode(Value *F, const NarrowFormat &Fmt) {
  NarrowRounding R = getRounding();
  Value *Bits = B.CreateBitCast(F, intTy(32));
  Value *Neg = B.CreateICmpSLT(Bits, c32(0));
  Value *Abs = B.CreateAnd(Bits, 0x7FFFFFFF);
  Value *IsNaN = B.CreateICmpUGT(Abs, c32(0x7F800000));
  unsigned M = Fmt.ManBits, Shift = 23 - M;
  int EMin = Fmt.minNormalExponent();
  // Normal results: the magnitude's bits, rounded at the format's last
  // mantissa bit (a carry moves into the exponent), rebiased.
  uint32_t Half = 1u << (Shift - 1);
  Value *Bump;
  switch (R) {
  case NarrowRounding::NearestEven:
    Bump = B.CreateAdd(c32(Half - 1), B.CreateAnd(B.CreateLShr(Abs, Shift), 1));
    break;
  case NarrowRounding::NearestAway:
    Bump = c32(Half);
    break;
  case NarrowRounding::Zero:
    Bump = c32(0);
    break;
  case NarrowRounding::Up: // magnitudes up (ue8m0 has no sign)
    Bump = c32((1u << Shift) - 1);
    break;
  }
  Value *Normal = B.CreateSub(B.CreateLShr(B.CreateAdd(Abs, Bump), Shift),
                              c32(uint32_t(127 - Fmt.Bias) << M));
  // Below the smallest normal: the magnitude in units of the smallest
  // subnormal, rounded to an integer (the scaling is exact).
  Value *Scaled = B.CreateFMul(B.CreateBitCast(Abs, floatTy()),
                               cf(std::ldexp(1.0f, int(M) - EMin)));
  Intrinsic::ID RoundFn = R == NarrowRounding::NearestEven
                              ? Intrinsic::roundeven
                          : R == NarrowRounding::NearestAway ? Intrinsic::round
                          : R == NarrowRounding::Zero        ? Intrinsic::trunc
                                                             : Intrinsic::ceil;
  Value *Sub =
      B.CreateFPToUI(B.CreateUnaryIntrinsic(RoundFn, Scaled), intTy(32));
  // .ue8m0 has no zero: its code 0 is 2^-127, the value every smaller
  // magnitude takes toward zero, and rounds up to from at most 2^-127.
  if (!Fmt.Signed)
    Sub = R == NarrowRounding::Up
              ? B.CreateZExt(B.CreateICmpUGT(Abs, c32(0x00400000)), intTy(32))
              : c32(0);
  Value *IsSub = B.CreateICmpULT(Abs, c32(uint32_t(EMin + 127) << 23));
  Value *Code = B.CreateSelect(IsSub, Sub, Normal);
  // Beyond the largest finite value (infinity included).
  uint32_t Max = Fmt.maxCode();
  uint32_t Over = I.hasModifier(Modifier::Satfinite) ? Max
                  : Fmt.InfCode                      ? Fmt.InfCode
                  : Fmt.NaNCode                      ? Fmt.NaNCode
                                                     : Max;
  Code = B.CreateSelect(B.CreateICmpUGT(Code, c32(Max)), c32(Over), Code);
  if (Fmt.Signed)
    Code = B.CreateOr(Code,
                      B.CreateSelect(Neg, c32(1u << (Fmt.bits() - 1)), c32(0)));
  bool Relu = I.hasModifier(Modifier::Relu);
  if (Relu && Fmt.Signed) // negative results and -0 become +0
    Code = B.CreateSelect(Neg, c32(0), Code);
  // NaN stays NaN (the canonical one); formats without NaN take their
  // largest positive value.
  return B.CreateSelect(IsNaN, c32(Fmt.NaNCode ? Fmt.NaNCode : Max), Code);
}

/// The exact .f32 value of Code in Fmt, with .relu.
Value *NarrowLowering::decode(Value *Code, const NarrowFormat &Fmt) {
  if (!Fmt.Signed) {
    // .ue8m0: 2^(code - 127), an .f32 exponent field; 0 is 2^-127.
    Value *V = B.CreateSelect(B.CreateICmpEQ(Code, c32(0)), c32(0x00400000),
                              B.CreateShl(Code, 23));
    V = B.CreateSelect(B.CreateICmpEQ(Code, c32(Fmt.NaNCode)), c32(0x7FFFFFFF),
                       V);
    return B.CreateBitCast(V, floatTy());
  }
  unsigned M = Fmt.ManBits;
  uint32_t MagMask = (1u << (Fmt.ExpBits + M)) - 1;
  Value *Mag = B.CreateAnd(Code, MagMask);
  Value *E = B.CreateLShr(Mag, M);
  Value *Man = B.CreateAnd(Mag, (1u << M) - 1);
  Value *IsNormal = B.CreateICmpNE(E, c32(0));
  // (implicit bit + mantissa) * 2^(max(e, 1) - bias - M), both exact.
  Value *Significand =
      B.CreateOr(Man, B.CreateSelect(IsNormal, c32(1u << M), c32(0)));
  Value *Exp = B.CreateSelect(IsNormal, E, c32(1));
  Value *Scale = B.CreateBitCast(
      B.CreateShl(B.CreateAdd(Exp, c32(uint32_t(127 - Fmt.Bias - M))), 23),
      floatTy());
  Value *V = B.CreateFMul(B.CreateUIToFP(Significand, floatTy()), Scale);
  Value *VBits = B.CreateBitCast(V, intTy(32));
  if (Fmt.InfCode)
    VBits = B.CreateSelect(B.CreateICmpEQ(Mag, c32(Fmt.InfCode)),
                           c32(0x7F800000), VBits);
  Value *IsNaN = nullptr;
  if (Fmt.NaNCode) {
    uint32_t NaNMag = Fmt.NaNCode & MagMask;
    // .e5m2: every code above infinity is a NaN.
    IsNaN = Fmt.InfCode ? B.CreateICmpUGT(Mag, c32(Fmt.InfCode))
                        : B.CreateICmpEQ(Mag, c32(NaNMag));
  }
  if (Fmt.Signed) {
    Value *Neg =
        B.CreateICmpNE(B.CreateAnd(Code, 1u << (Fmt.bits() - 1)), c32(0));
    VBits = B.CreateOr(VBits, B.CreateSelect(Neg, c32(0x80000000), c32(0)));
    if (I.hasModifier(Modifier::Relu))
      VBits = B.CreateSelect(Neg, c32(0), VBits);
  }
  if (IsNaN)
    VBits = B.CreateSelect(IsNaN, c32(0x7FFFFFFF), VBits);
  return B.CreateBitCast(VBits, floatTy());
}

/// .tf32: the .f32 rounded to 10 mantissa bits (.rna, .rn, .rz), its low 13
/// bits zero; .satfinite clamps to the largest tf32 value, .relu makes
/// negative results +0. NaN gives the canonical NaN.
Value *NarrowLowering::roundTF32(Value *F) {
  NarrowRounding R = getRounding();
  Value *Bits = B.CreateBitCast(F, intTy(32));
  Value *Neg = B.CreateICmpSLT(Bits, c32(0));
  Value *Abs = B.CreateAnd(Bits, 0x7FFFFFFF);
  Value *IsNaN = B.CreateICmpUGT(Abs, c32(0x7F800000));
  Value *Bump =
      R == NarrowRounding::NearestAway ? (Value *)c32(0x1000)
      : R == NarrowRounding::Zero
          ? (Value *)c32(0)
          : B.CreateAdd(c32(0xFFF), B.CreateAnd(B.CreateLShr(Abs, 13), 1));
  Value *Rounded = B.CreateAnd(B.CreateAdd(Abs, Bump), 0xFFFFE000);
  if (I.hasModifier(Modifier::Satfinite))
    Rounded =
        B.CreateBinaryIntrinsic(Intrinsic::umin, Rounded, c32(0x7F7FE000));
  Value *Result =
      B.CreateOr(Rounded, B.CreateSelect(Neg, c32(0x80000000), c32(0)));
  if (I.hasModifier(Modifier::Relu))
    Result = B.CreateSelect(Neg, c32(0), Result);
  return B.CreateSelect(IsNaN, c32(0x7FFFFFFF), Result);
}

Value *NarrowLowering::toHalfBits(Value *V, ScalarType Half) {
  if (Half == ScalarType::BF16x2) {
    Value *Bits = B.CreateBitCast(V, intTy(32));
    // NaN: the canonical .bf16 NaN; other values are exact in 16 bits.
    Value *IsNaN = B.CreateFCmpUNO(V, V);
    return B.CreateSelect(IsNaN, ConstantInt::get(intTy(16), 0x7FFF),
                          B.CreateTrunc(B.CreateLShr(Bits, 16), intTy(16)));
  }
  Type *HalfTy = B.getHalfTy();
  if (Vector)
    HalfTy = FL.getVectorType(HalfTy);
  Value *H = B.CreateBitCast(B.CreateFPTrunc(V, HalfTy), intTy(16));
  return B.CreateSelect(B.CreateFCmpUNO(V, V),
                        ConstantInt::get(intTy(16), 0x7FFF), H);
}

Error NarrowLowering::lower() {
  ScalarType To = I.getType(0), From = I.getType(1);
  ArrayRef<ptx::Operand> Ops = I.Operands;
  SmallVector<Value *, 2> Srcs;
  ScalarType SrcTy = From == ScalarType::F32        ? ScalarType::F32
                     : ptx::getBitWidth(From) == 32 ? ScalarType::B32
                     : ptx::getBitWidth(From) == 16 ? ScalarType::B16
                                                    : ScalarType::B8;
  for (const ptx::Operand &Op : Ops.drop_front()) {
    Expected<LaneValue> V = FL.read(Op, SrcTy);
    if (!V)
      return V.takeError();
    Vector |= !V->isScalar();
    Srcs.push_back(V->V);
  }
  if (Vector)
    for (Value *&V : Srcs)
      V = FL.widen(V);

  // The roundings the ISA defines for each format.
  NarrowRounding R = getRounding();
  bool HasRounding =
      I.hasModifier(Modifier::Rn) || I.hasModifier(Modifier::Rz) ||
      I.hasModifier(Modifier::Rna) || I.hasModifier(Modifier::Rp);
  bool Legal = HasRounding && !I.hasModifier(Modifier::Rm) &&
               !I.hasModifier(Modifier::Rs);
  if (To == ScalarType::TF32)
    Legal &= R != NarrowRounding::Up;
  else if (To == ScalarType::UE8M0x2)
    Legal &= R == NarrowRounding::Zero || R == NarrowRounding::Up;
  else if (getNarrowFormat(To))
    Legal &= R == NarrowRounding::NearestEven || R == NarrowRounding::Zero;
  else
    Legal &= I.hasModifier(Modifier::Rn);
  if (!Legal)
    return FL.error(I, "cvt with this format takes " +
                           Twine(To == ScalarType::TF32 ? ".rna, .rn or .rz"
                                 : To == ScalarType::UE8M0x2 ? ".rz or .rp"
                                 : getNarrowFormat(To)       ? ".rn or .rz"
                                                             : ".rn"));

  if (To == ScalarType::TF32) {
    if (From != ScalarType::F32 || Srcs.size() != 1)
      return FL.error(I, "cvt to .tf32 converts one .f32 value");
    return FL.write(Ops[0], roundTF32(Srcs[0]), ScalarType::B32);
  }

  if (std::optional<NarrowFormat> Fmt = getNarrowFormat(To)) {
    // Two .f32 sources (a in the upper element), or one packed
    // .f16x2/.bf16x2 (its upper half in the upper element).
    Value *Hi, *Lo;
    if (From == ScalarType::F32 && Srcs.size() == 2) {
      Hi = Srcs[0];
      Lo = Srcs[1];
    } else if ((From == ScalarType::F16x2 || From == ScalarType::BF16x2) &&
               Srcs.size() == 1) {
      Hi = unpackHalf(Srcs[0], 1, From);
      Lo = unpackHalf(Srcs[0], 0, From);
    } else {
      return FL.error(I, "this form of cvt to a packed narrow format is not "
                         "supported");
    }
    unsigned Width = ptx::getBitWidth(To) / 2;
    Value *D =
        B.CreateOr(B.CreateShl(encode(Hi, *Fmt), Width), encode(Lo, *Fmt));
    unsigned DBits = ptx::getBitWidth(To);
    return FL.write(Ops[0], B.CreateTrunc(D, intTy(DBits)),
                    DBits == 8 ? ScalarType::B8 : ScalarType::B16);
  }

  std::optional<NarrowFormat> Fmt = getNarrowFormat(From);
  if (!Fmt || (To != ScalarType::F16x2 && To != ScalarType::BF16x2) ||
      Srcs.size() != 1)
    return FL.error(I, "this form of cvt from a packed narrow format is not "
                       "supported");
  unsigned Width = ptx::getBitWidth(From) / 2;
  Value *Codes = B.CreateZExt(Srcs[0], intTy(32));
  Value *Halves[2];
  for (unsigned K = 0; K != 2; ++K) {
    Value *Code =
        B.CreateAnd(K ? B.CreateLShr(Codes, Width) : Codes, (1u << Width) - 1);
    Halves[K] = B.CreateZExt(toHalfBits(decode(Code, *Fmt), To), intTy(32));
  }
  Value *D = B.CreateOr(B.CreateShl(Halves[1], 16), Halves[0]);
  return FL.write(Ops[0], D, ScalarType::B32);
}

} // namespace

bool irgen::isNarrowFloatConversion(const ptx::Instruction &I) {
  ScalarType To = I.getType(0), From = I.getType(1);
  return To == ScalarType::TF32 || getNarrowFormat(To) || getNarrowFormat(From);
}

Error irgen::lowerNarrowFloatConversion(FunctionLowering &FL,
                                        const ptx::Instruction &I) {
  return NarrowLowering(FL, I).lower();
}
