//===- TensorCoreSum.cpp - The tensor cores' f32 dot product --------------===//
//
// Every term is an integer number of units of 2^(L - 26): a term's
// magnitude is below 2^(nominal exponent + 1) <= 2^(L + 1), so below 2^27
// units, and the sum of C and 16 products fits an int64 with room to
// spare. Products of two 24-bit significands (48 bits) are exact in int64.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Runtime/TensorCoreSum.h"
#include "llvm/ADT/bit.h"
#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>

using namespace ptxjit;
using namespace ptxjit::runtime;

TensorCoreTerm runtime::makeTensorCoreTerm(float V, int MinNormalExp) {
  uint32_t Bits = llvm::bit_cast<uint32_t>(V);
  TensorCoreTerm T;
  T.Negative = Bits >> 31;
  int Biased = int(Bits >> 23 & 0xff);
  uint32_t Man = Bits & 0x7fffff;
  if (Biased == 0xff) {
    T.Class = Man ? TensorCoreTerm::NaN : TensorCoreTerm::Inf;
    return T;
  }
  if (Biased == 0) { // zero or float subnormal
    T.Mant = int32_t(Man);
    T.Exp = -149;
    T.Nominal = int16_t(std::max(-126, MinNormalExp));
  } else {
    T.Mant = int32_t(Man | 0x800000);
    T.Exp = int16_t(Biased - 150);
    T.Nominal = int16_t(std::max(Biased - 127, MinNormalExp));
  }
  if (T.Negative)
    T.Mant = -T.Mant;
  return T;
}

float runtime::roundTowardZeroScaled(int64_t Sum, int Exp) {
  bool Neg = Sum < 0;
  uint64_t Mag = Neg ? 0 - uint64_t(Sum) : uint64_t(Sum);
  if (Mag == 0)
    return Neg ? -0.0f : 0.0f;
  int Top = 63 - llvm::countl_zero(Mag) + Exp; // exponent of the leading bit
  if (Top > 127)
    return Neg ? -FLT_MAX : FLT_MAX;
  // The unit of the result: 24 significant bits, no finer than 2^-149.
  int Unit = std::max(Top - 23, -149);
  if (Unit > Exp) {
    unsigned Shift = unsigned(Unit - Exp);
    Mag = Shift >= 64 ? 0 : Mag >> Shift;
    Exp = Unit;
  }
  // Mag < 2^24 and the result is a float: both conversions are exact.
  float R = std::ldexp(float(Mag), Exp);
  return Neg ? -R : R;
}

namespace {

/// V * 2^Exp truncated toward zero to a multiple of 2^Unit, in those units.
int64_t truncateTo(int64_t V, int Exp, int Unit) {
  if (Exp >= Unit)
    return V * (int64_t(1) << (Exp - Unit)); // only up to 2^2: see above
  unsigned Shift = unsigned(Unit - Exp);
  if (Shift >= 63)
    return 0;
  return V >= 0 ? V >> Shift : -(-V >> Shift);
}

float specialSum(const TensorCoreTerm *A, const TensorCoreTerm *B,
                 unsigned BStride, unsigned K, const TensorCoreTerm &C) {
  bool NaN = C.Class == TensorCoreTerm::NaN, Inf[2] = {false, false};
  if (C.Class == TensorCoreTerm::Inf)
    Inf[C.Negative] = true;
  for (unsigned I = 0; I != K; ++I) {
    const TensorCoreTerm &X = A[I], &Y = B[I * BStride];
    if (X.Class == TensorCoreTerm::NaN || Y.Class == TensorCoreTerm::NaN) {
      NaN = true;
    } else if (X.Class == TensorCoreTerm::Inf ||
               Y.Class == TensorCoreTerm::Inf) {
      if ((X.Class == TensorCoreTerm::Finite && X.Mant == 0) ||
          (Y.Class == TensorCoreTerm::Finite && Y.Mant == 0))
        NaN = true; // inf * 0
      Inf[X.Negative != Y.Negative] = true;
    }
  }
  if (NaN || (Inf[0] && Inf[1]))
    return llvm::bit_cast<float>(0x7fffffffu);
  return Inf[1] ? -INFINITY : INFINITY;
}

} // namespace

float runtime::tensorCoreDot(const TensorCoreTerm *A, const TensorCoreTerm *B,
                             unsigned BStride, unsigned K,
                             const TensorCoreTerm &C) {
  bool Special = C.Class != TensorCoreTerm::Finite;
  bool AllNegativeZeros = C.Negative;
  int L = C.Mant ? C.Nominal + 1 : INT_MIN;
  for (unsigned I = 0; I != K; ++I) {
    const TensorCoreTerm &X = A[I], &Y = B[I * BStride];
    Special |= (X.Class | Y.Class) != TensorCoreTerm::Finite;
    AllNegativeZeros &= X.Negative != Y.Negative;
    if (X.Mant && Y.Mant)
      L = std::max(L, X.Nominal + Y.Nominal + 1);
  }
  if (Special)
    return specialSum(A, B, BStride, K, C);
  if (L == INT_MIN) // only zeros: signed as IEEE adds them (an assumption)
    return AllNegativeZeros ? -0.0f : 0.0f;
  int Unit = L - 26;
  int64_t Sum = C.Mant ? truncateTo(C.Mant, C.Exp, Unit) : 0;
  for (unsigned I = 0; I != K; ++I) {
    const TensorCoreTerm &X = A[I], &Y = B[I * BStride];
    if (X.Mant && Y.Mant)
      Sum += truncateTo(int64_t(X.Mant) * Y.Mant, X.Exp + Y.Exp, Unit);
  }
  if (Sum == 0) // an exact cancellation
    return 0.0f;
  return roundTowardZeroScaled(Sum, Unit);
}
