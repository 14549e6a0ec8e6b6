//===- TensorCoreSum.cpp - The tensor cores' f32 dot product --------------===//
//
// Every term is an integer number of units of 2^(L - 26): a term's
// magnitude is below 2^(nominal exponent + 1) <= 2^(L + 1), so below 2^27
// units, and the sum of C and 16 products fits an int64 with room to
// spare.
//
// tensorCoreDot is the rule written plainly, one element at a time (24-bit
// significands, 48-bit products in int64); tensorCoreMultiply does whole
// matrices with 11-bit significands and int32 sums, in loops the compiler
// turns into AVX2 code, and falls back to tensorCoreDot when an input is
// infinite or NaN. A GEMM of mma.m16n8k16 runs about 1.75x as long as with
// the older fma chain (docs/TensorCoreNumerics.md).
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Runtime/TensorCoreSum.h"
#include "llvm/ADT/bit.h"
#include <algorithm>
#include <climits>
#include <cmath>
#include <type_traits>

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
  uint32_t Sign = Neg ? 0x80000000u : 0;
  if (Mag == 0)
    return llvm::bit_cast<float>(Sign);
  int Lead = 63 - llvm::countl_zero(Mag);
  if (Lead + Exp > 127)
    return llvm::bit_cast<float>(Sign | 0x7f7fffffu); // FLT_MAX
  // The unit of the result: 24 significant bits, no finer than 2^-149.
  int Unit = std::max(Lead + Exp - 23, -149);
  if (Unit >= Exp)
    Mag = Unit - Exp >= 64 ? 0 : Mag >> (Unit - Exp); // toward zero
  else
    Mag <<= Exp - Unit; // exact: Mag stays below 2^24
  // Mag < 2^24; unless Unit is -149, Mag >= 2^23 (a normal float).
  uint32_t Bits = Mag >= 0x800000
                      ? uint32_t(Unit + 150) << 23 | uint32_t(Mag & 0x7fffff)
                      : uint32_t(Mag);
  return llvm::bit_cast<float>(Sign | Bits);
}

namespace {

/// V * 2^Exp truncated toward zero to a multiple of 2^Unit, in those units.
/// Only C shifts left: its unit 2^(ec - 23) is at most 2^2 above
/// 2^(L - 26) >= 2^(ec + 1 - 26); a product's is at least 2^21 below.
int64_t truncateTo(int64_t V, int Exp, int Unit) {
  if (Exp >= Unit)
    return V * (int64_t(1) << (Exp - Unit));
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

namespace {

/// A zero's nominal exponent in the fast path: far below any real one, so
/// that it never sets L (products of two real ones are >= -251).
constexpr int ZeroNominal = -1000;
constexpr unsigned MaxTerms = 512;

/// The multiplicands of a matrix for the fast path, field by field so that
/// the loops over a row of C vectorize: |value| = Mag * 2^Exp with Mag
/// below 2^11 (.f16, .bf16 and .tf32 have at most 11 significant bits: the
/// float's 13 low mantissa bits are zero), Sign all ones when negative.
struct TermArrays {
  uint32_t Mag[MaxTerms];
  uint32_t Sign[MaxTerms];
  int32_t Exp[MaxTerms];
  int32_t Nominal[MaxTerms];

  /// False for an infinity or NaN.
  bool set(unsigned I, float V, int MinNormalExp) {
    uint32_t Bits = llvm::bit_cast<uint32_t>(V);
    int Biased = int(Bits >> 23 & 0xff);
    uint32_t Man = Bits & 0x7fffff;
    Sign[I] = 0 - (Bits >> 31);
    Mag[I] = (Biased ? Man | 0x800000 : Man) >> 13;
    Exp[I] = (Biased ? Biased - 150 : -149) + 13;
    Nominal[I] = Mag[I] == 0
                     ? ZeroNominal
                     : std::max(Biased ? Biased - 127 : -126, MinNormalExp);
    return Biased != 0xff;
  }
};

/// The float bits of V rounded toward zero (+0 for either zero), without
/// branches: the double's significand cut to 24 bits, or shifted further
/// to a subnormal's field, or FLT_MAX past the largest float.
__attribute__((always_inline)) inline uint32_t truncateToFloat(double V) {
  uint64_t D = llvm::bit_cast<uint64_t>(V);
  uint32_t Sign = uint32_t(D >> 32) & 0x80000000u;
  D &= ~(uint64_t(1) << 63);
  int32_t E = int32_t(D >> 52) - 1023;
  uint64_t M = (D & ((uint64_t(1) << 52) - 1)) | uint64_t(1) << 52;
  // 24 bits (the leading one at 2^23), or a subnormal's field: M * 2^(E +
  // 149 - 52).
  int32_t Shift = 29 + std::max(-126 - E, 0);
  uint32_t F = uint32_t(M >> std::min(Shift, 63));
  uint32_t R = E >= -126 ? (uint32_t(E + 126) << 23) + F : F;
  R = E > 127 ? 0x7f7fffffu : R;
  return D == 0 ? 0 : Sign | R;
}

/// The rule for finite A, B and C (A and B row-major), a row of C at a time
/// with the loops over its N columns innermost, so that they are vector
/// code. A product of two 11-bit magnitudes has 22 bits and its unit
/// 2^(ExpA + ExpB) is at most 2^5 above 2^(L - 26), so the truncated
/// product is below 2^27 units (as its value is below 2^(L+1)) and the sum
/// of 16 of them fits an int32; C's term joins them in an int64.
template <unsigned N>
__attribute__((always_inline)) inline void
multiplyFinite(const TermArrays &A, const TermArrays &B, const float *AF,
               const float *BF, float *C, unsigned M, unsigned K) {
  for (unsigned I = 0; I != M; ++I) {
    float *Row = C + I * N;
    int32_t L[N], CExp[N];
    uint32_t Sum[N]; // an int32 sum, added modulo 2^32 to stay defined
    uint32_t CMag[N], CSign[N];
    for (unsigned J = 0; J != N; ++J) {
      // C's nominal exponent is ec + 1 (ec at least -126).
      uint32_t Bits = llvm::bit_cast<uint32_t>(Row[J]);
      int32_t Biased = int32_t(Bits >> 23 & 0xff);
      uint32_t Man = Bits & 0x7fffff;
      CMag[J] = Biased ? Man | 0x800000 : Man;
      CExp[J] = Biased ? Biased - 150 : -149;
      CSign[J] = 0 - (Bits >> 31);
      L[J] = CMag[J] ? std::max(Biased - 127, -126) + 1 : ZeroNominal;
      Sum[J] = 0;
    }
    for (unsigned X = 0; X != K; ++X) {
      int32_t AN = A.Nominal[I * K + X] + 1;
      const int32_t *BN = B.Nominal + X * N;
      for (unsigned J = 0; J != N; ++J)
        L[J] = std::max(L[J], AN + BN[J]);
    }
    for (unsigned X = 0; X != K; ++X) {
      uint32_t AM = A.Mag[I * K + X], AS = A.Sign[I * K + X];
      int32_t AE = A.Exp[I * K + X] + 26;
      const uint32_t *BM = B.Mag + X * N, *BS = B.Sign + X * N;
      const int32_t *BE = B.Exp + X * N;
      for (unsigned J = 0; J != N; ++J) {
        uint32_t P = AM * BM[J];
        int32_t Down = L[J] - AE - BE[J]; // zeros: any shift
        uint32_t T = (P << std::min(std::max(-Down, 0), 31)) >>
                     std::min(std::max(Down, 0), 31);
        uint32_t S = AS ^ BS[J];
        Sum[J] += (T ^ S) - S;
      }
    }
    uint32_t Result[N];
    for (unsigned J = 0; J != N; ++J) {
      // C's term: below 2^26 units, its unit at most 2^2 above theirs.
      int32_t Down = L[J] - 26 - CExp[J];
      uint32_t T = (CMag[J] << std::min(std::max(-Down, 0), 31)) >>
                   std::min(std::max(Down, 0), 31);
      int64_t Total = int64_t(int32_t(Sum[J])) +
                      int64_t(int32_t((T ^ CSign[J]) - CSign[J]));
      // Total * 2^(L - 26) is exact in double (|Total| < 2^33, and the
      // exponent within -277 and 229 when L is a real one).
      int32_t Unit = std::max(L[J], -500) - 26;
      double Scale = llvm::bit_cast<double>(uint64_t(Unit + 1023) << 52);
      Result[J] = truncateToFloat(double(Total) * Scale);
    }
    for (unsigned J = 0; J != N; ++J) {
      if (L[J] < ZeroNominal / 2) {
        // Only zeros: float arithmetic gives IEEE's sign of a sum of zeros.
        for (unsigned X = 0; X != K; ++X)
          Row[J] += AF[I * K + X] * BF[X * N + J];
        continue;
      }
      Row[J] = llvm::bit_cast<float>(Result[J]);
    }
  }
}

/// multiplyFinite for N = 8, 16 or 32 (fixed, so that a row's sums stay
/// in registers).
template <typename Fn>
__attribute__((always_inline)) inline void withColumns(unsigned N, Fn F) {
  if (N == 8)
    F(std::integral_constant<unsigned, 8>());
  else if (N == 16)
    F(std::integral_constant<unsigned, 16>());
  else
    F(std::integral_constant<unsigned, 32>());
}

__attribute__((target("avx2"))) void
multiplyFiniteAvx2(const TermArrays &A, const TermArrays &B, const float *AF,
                   const float *BF, float *C, unsigned M, unsigned N,
                   unsigned K) {
  withColumns(N, [&](auto Cols) {
    multiplyFinite<decltype(Cols)::value>(A, B, AF, BF, C, M, K);
  });
}

void multiplyFiniteGeneric(const TermArrays &A, const TermArrays &B,
                           const float *AF, const float *BF, float *C,
                           unsigned M, unsigned N, unsigned K) {
  withColumns(N, [&](auto Cols) {
    multiplyFinite<decltype(Cols)::value>(A, B, AF, BF, C, M, K);
  });
}

/// Infinities or NaNs: element by element (a frame of its own, to keep
/// the fast path's small on a fiber's stack).
__attribute__((noinline)) void
multiplyWithSpecials(const float *A, const float *B, float *C, unsigned M,
                     unsigned N, unsigned K, int MinNormalExp) {
  TensorCoreTerm TA[MaxTerms], TB[MaxTerms];
  for (unsigned E = 0; E != M * K; ++E)
    TA[E] = makeTensorCoreTerm(A[E], MinNormalExp);
  for (unsigned E = 0; E != K * N; ++E)
    TB[E] = makeTensorCoreTerm(B[E], MinNormalExp);
  for (unsigned I = 0; I != M; ++I)
    for (unsigned J = 0; J != N; ++J) {
      float &Acc = C[I * N + J];
      Acc = tensorCoreDot(TA + I * K, TB + J, N, K,
                          makeTensorCoreTerm(Acc, -126));
    }
}

} // namespace

void runtime::tensorCoreMultiply(const float *A, const float *B, float *C,
                                 unsigned M, unsigned N, unsigned K,
                                 int MinNormalExp) {
  static const bool HasAvx2 = __builtin_cpu_supports("avx2");
  TermArrays TA, TB;
  bool Finite = true;
  for (unsigned E = 0; E != M * K; ++E)
    Finite &= TA.set(E, A[E], MinNormalExp);
  for (unsigned E = 0; E != K * N; ++E)
    Finite &= TB.set(E, B[E], MinNormalExp);
  for (unsigned E = 0; E != M * N; ++E)
    Finite &= (llvm::bit_cast<uint32_t>(C[E]) & 0x7f800000) != 0x7f800000;
  if (Finite)
    return (HasAvx2 ? multiplyFiniteAvx2 : multiplyFiniteGeneric)(TA, TB, A, B,
                                                                  C, M, N, K);
  multiplyWithSpecials(A, B, C, M, N, K, MinNormalExp);
}
