//===- RoundingHelpers.cpp - Exactly rounded float helpers ----------------===//
//
// APFloat computes every operation exactly and rounds once in the requested
// mode. It has no square root, so sqrt takes the host's correctly rounded
// (nearest) root and moves it one step when the exact residual r*r - a,
// computed in IEEE quad, shows the directed mode wants the neighbour.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/ABI/RoundingHelpers.h"
#include "ptxjit/ABI/RuntimeEntryPoints.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"
#include <cmath>
#include <cstring>

using namespace llvm;
using namespace ptxjit;

static RoundingMode toRoundingMode(uint32_t Mode) {
  switch (Mode) {
  case RHM_TowardZero:
    return RoundingMode::TowardZero;
  case RHM_Down:
    return RoundingMode::TowardNegative;
  case RHM_Up:
    return RoundingMode::TowardPositive;
  default:
    return RoundingMode::NearestTiesToEven;
  }
}

/// The correctly rounded square root of A in A's format.
static APFloat squareRoot(const APFloat &A, RoundingMode RM) {
  const fltSemantics &Sem = A.getSemantics();
  if (A.isNaN() || A.isZero() || (A.isInfinity() && !A.isNegative()))
    return A; // sqrt(-0) is -0
  if (A.isNegative())
    return APFloat::getQNaN(Sem);
  bool IsDouble = &Sem == &APFloat::IEEEdouble();
  APFloat R = IsDouble ? APFloat(std::sqrt(A.convertToDouble()))
                       : APFloat(std::sqrt(A.convertToFloat()));
  if (RM == RoundingMode::NearestTiesToEven)
    return R;
  // Residual R*R - A, exact in quad (at most 107 significant bits).
  bool Lost;
  APFloat Q = R, QA = A;
  Q.convert(APFloat::IEEEquad(), RoundingMode::NearestTiesToEven, &Lost);
  QA.convert(APFloat::IEEEquad(), RoundingMode::NearestTiesToEven, &Lost);
  APFloat Residual = Q;
  Residual.fusedMultiplyAdd(Q, -QA, RoundingMode::NearestTiesToEven);
  if (Residual.isZero())
    return R; // exact
  bool TooBig = !Residual.isNegative();
  // The root is positive: toward zero and down agree.
  if (RM == RoundingMode::TowardPositive ? !TooBig : TooBig)
    R.next(/*nextDown=*/TooBig);
  return R;
}

static APFloat compute(uint32_t Op, RoundingMode RM, APFloat A,
                       const APFloat &B, const APFloat &C) {
  switch (Op) {
  case RHO_Add:
    A.add(B, RM);
    return A;
  case RHO_Sub:
    A.subtract(B, RM);
    return A;
  case RHO_Mul:
    A.multiply(B, RM);
    return A;
  case RHO_Div:
    A.divide(B, RM);
    return A;
  case RHO_Fma:
    A.fusedMultiplyAdd(B, C, RM);
    return A;
  case RHO_Sqrt:
    return squareRoot(A, RM);
  default: { // RHO_Rcp
    APFloat One(A.getSemantics(), 1);
    One.divide(A, RM);
    return One;
  }
  }
}

static bool takesB(uint32_t Op) { return Op != RHO_Sqrt && Op != RHO_Rcp; }

template <typename T>
static void roundedOp(uint32_t Op, uint32_t Mode, T *D, const T *A, const T *B,
                      const T *C, uint32_t N) {
  RoundingMode RM = toRoundingMode(Mode);
  APFloat Zero(T(0));
  for (uint32_t I = 0; I != N; ++I) {
    APFloat R =
        compute(Op, RM, APFloat(A[I]), takesB(Op) ? APFloat(B[I]) : Zero,
                Op == RHO_Fma ? APFloat(C[I]) : Zero);
    if constexpr (sizeof(T) == 4)
      D[I] = R.convertToFloat();
    else
      D[I] = R.convertToDouble();
  }
}

extern "C" void ptxjit_rounded_f32(uint32_t Op, uint32_t Mode, float *D,
                                   const float *A, const float *B,
                                   const float *C, uint32_t N) {
  roundedOp(Op, Mode, D, A, B, C, N);
}

extern "C" void ptxjit_rounded_f64(uint32_t Op, uint32_t Mode, double *D,
                                   const double *A, const double *B,
                                   const double *C, uint32_t N) {
  roundedOp(Op, Mode, D, A, B, C, N);
}

static const fltSemantics &semanticsOf(uint32_t Format);

extern "C" void ptxjit_rounded_half(uint32_t Format, uint32_t Op, uint32_t Mode,
                                    uint16_t *D, const uint16_t *A,
                                    const uint16_t *B, const uint16_t *C,
                                    uint32_t N) {
  RoundingMode RM = toRoundingMode(Mode);
  const fltSemantics &Sem = semanticsOf(Format);
  auto Load = [&](const uint16_t *P, uint32_t I) {
    return APFloat(Sem, APInt(16, P[I]));
  };
  APFloat Zero(Sem);
  for (uint32_t I = 0; I != N; ++I) {
    APFloat R = compute(Op, RM, Load(A, I), takesB(Op) ? Load(B, I) : Zero,
                        Op == RHO_Fma ? Load(C, I) : Zero);
    D[I] = static_cast<uint16_t>(R.bitcastToAPInt().getZExtValue());
  }
}

static const fltSemantics &semanticsOf(uint32_t Format) {
  switch (Format) {
  case RHF_F16:
    return APFloat::IEEEhalf();
  case RHF_BF16:
    return APFloat::BFloat();
  case RHF_F32:
    return APFloat::IEEEsingle();
  default:
    return APFloat::IEEEdouble();
  }
}

static unsigned bytesOf(uint32_t Format) {
  return Format == RHF_F64 ? 8 : Format == RHF_F32 ? 4 : 2;
}

static APFloat loadFloat(uint32_t Format, const void *Base, uint32_t I) {
  unsigned Size = bytesOf(Format);
  uint64_t Bits = 0;
  std::memcpy(&Bits, static_cast<const char *>(Base) + I * Size, Size);
  return APFloat(semanticsOf(Format), APInt(Size * 8, Bits));
}

static void storeFloat(uint32_t Format, void *Base, uint32_t I,
                       const APFloat &V) {
  unsigned Size = bytesOf(Format);
  uint64_t Bits = V.bitcastToAPInt().getZExtValue();
  std::memcpy(static_cast<char *>(Base) + I * Size, &Bits, Size);
}

extern "C" void ptxjit_convert_float(uint32_t To, uint32_t From, uint32_t Mode,
                                     void *D, const void *A, uint32_t N) {
  RoundingMode RM = toRoundingMode(Mode);
  for (uint32_t I = 0; I != N; ++I) {
    APFloat V = loadFloat(From, A, I);
    bool Lost;
    V.convert(semanticsOf(To), RM, &Lost);
    storeFloat(To, D, I, V);
  }
}

extern "C" void ptxjit_convert_int(uint32_t To, uint32_t SrcBits,
                                   uint32_t SrcSigned, uint32_t Mode, void *D,
                                   const void *A, uint32_t N) {
  RoundingMode RM = toRoundingMode(Mode);
  unsigned Size = SrcBits / 8;
  for (uint32_t I = 0; I != N; ++I) {
    uint64_t Bits = 0;
    std::memcpy(&Bits, static_cast<const char *>(A) + I * Size, Size);
    APFloat V(semanticsOf(To));
    V.convertFromAPInt(APInt(SrcBits, Bits), SrcSigned, RM);
    storeFloat(To, D, I, V);
  }
}

// Float to bfloat16, rounded to nearest even, for the libcalls LLVM emits
// (RuntimeEntryPoints.def): NaNs stay NaNs (quiet, sign kept). A bf16
// result travels in the low 16 bits of %xmm0, so it is returned as the float
// whose low bits are the bf16's (C++ here has no bf16 conversions to lean
// on without the very libcall this replaces).
static float toBF16(const APFloat &V) {
  APFloat R = V;
  bool LosesInfo;
  R.convert(APFloat::BFloat(), APFloat::rmNearestTiesToEven, &LosesInfo);
  if (R.isNaN())
    R = APFloat::getQNaN(APFloat::BFloat(), V.isNegative());
  return llvm::bit_cast<float>(uint32_t(R.bitcastToAPInt().getZExtValue()));
}

extern "C" float ptxjit_truncsfbf2(float F) { return toBF16(APFloat(F)); }
extern "C" float ptxjit_truncdfbf2(double D) { return toBF16(APFloat(D)); }
