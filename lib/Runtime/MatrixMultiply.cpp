//===- MatrixMultiply.cpp - Warp-level matrix multiply-accumulate ---------===//
//
// mma and wmma.mma for a whole warp: the fragments of A, B and C become
// matrices (MatrixABI.h says which lane holds which element), D = A * B + C
// is computed, and D goes back into fragments.
//
// The arithmetic is the model the tests state, within what the PTX ISA
// leaves to the implementation ("the accumulation order, rounding and
// handling of subnormal inputs are unspecified"): products of .f16, .bf16,
// .tf32, .e4m3 and .e5m2 elements are exact, and they are added to the C
// element one after another in K order, rounding each sum to .f32 (to
// nearest even); subnormals are kept, a NaN result is the canonical NaN,
// and .f16 results are rounded once from that .f32 value. .f64 is a chain
// of fused multiply-adds in K order, rounded as the instruction says.
// Integers are added exactly, then wrapped to 32 bits or, with .satfinite,
// clamped.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/ABI/MatrixABI.h"
#include "ptxjit/ABI/RoundingHelpers.h"
#include "ptxjit/ABI/RuntimeEntryPoints.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"
#include <cmath>
#include <cstring>

using namespace ptxjit;

namespace {

constexpr unsigned Lanes = 32;
/// Raw bits of element I of Lane's fragment.
uint64_t getElement(const MatrixFragment &F, const void *Frag, unsigned Lane,
                    unsigned I) {
  unsigned Per = F.getElementsPerRegister();
  unsigned Bits = getMatrixElementBits(F.Element);
  unsigned Slot = (I / Per) * Lanes + Lane;
  if (Bits == 64) {
    uint64_t V;
    std::memcpy(&V, static_cast<const char *>(Frag) + Slot * 8, 8);
    return V;
  }
  uint32_t Reg;
  std::memcpy(&Reg, static_cast<const char *>(Frag) + Slot * 4, 4);
  if (Bits == 32)
    return Reg;
  return Reg >> (I % Per * Bits) & ((1u << Bits) - 1);
}

void setElement(const MatrixFragment &F, void *Frag, unsigned Lane, unsigned I,
                uint64_t V) {
  unsigned Per = F.getElementsPerRegister();
  unsigned Bits = getMatrixElementBits(F.Element);
  unsigned Slot = (I / Per) * Lanes + Lane;
  char *P = static_cast<char *>(Frag);
  if (Bits == 64) {
    std::memcpy(P + Slot * 8, &V, 8);
    return;
  }
  uint32_t Reg = 0;
  if (Bits < 32)
    std::memcpy(&Reg, P + Slot * 4, 4);
  unsigned Shift = I % Per * Bits;
  uint32_t Mask = Bits == 32 ? ~0u : ((1u << Bits) - 1) << Shift;
  Reg = (Reg & ~Mask) | (uint32_t(V) << Shift & Mask);
  std::memcpy(P + Slot * 4, &Reg, 4);
}

float fromBits(uint32_t B) { return llvm::bit_cast<float>(B); }

/// A small float format (1 sign bit, E exponent bits, M mantissa bits,
/// bias 2^(E-1)-1) as a float; HasInf: the IEEE encodings of infinity and
/// NaN (e5m2, f16), else only all-ones is NaN (e4m3).
float decodeSmall(uint32_t V, unsigned E, unsigned M, bool HasInf) {
  uint32_t Sign = V >> (E + M) & 1, Exp = V >> M & ((1u << E) - 1),
           Man = V & ((1u << M) - 1);
  int Bias = (1 << (E - 1)) - 1;
  float R;
  if (Exp == (1u << E) - 1 && (HasInf || Man == (1u << M) - 1))
    R = HasInf && Man == 0 ? INFINITY : NAN;
  else if (Exp == 0)
    R = std::ldexp(float(Man), 1 - Bias - int(M));
  else
    R = std::ldexp(float(Man | 1u << M), int(Exp) - Bias - int(M));
  return Sign ? -R : R;
}

float toFloat(MatrixElement E, uint64_t V) {
  switch (E) {
  case ME_F16:
    return decodeSmall(uint32_t(V), 5, 10, true);
  case ME_BF16:
    return fromBits(uint32_t(V) << 16);
  case ME_TF32:
    return fromBits(uint32_t(V) & 0xffffe000u);
  case ME_E4M3:
    return decodeSmall(uint32_t(V), 4, 3, false);
  case ME_E5M2:
    return decodeSmall(uint32_t(V), 5, 2, true);
  default:
    return fromBits(uint32_t(V));
  }
}

/// Rounds F to .f16, to nearest even, keeping subnormals; NaN becomes the
/// canonical 0x7fff.
uint16_t toHalf(float F) {
  uint32_t B = llvm::bit_cast<uint32_t>(F);
  uint32_t Sign = B >> 16 & 0x8000;
  if (std::isnan(F))
    return 0x7fff;
  float A = std::fabs(F);
  if (A >= 65520.0f) // rounds to infinity
    return uint16_t(Sign | 0x7c00);
  // Scale so that the .f16 quantum (2^-24 for subnormals, else 2^(e-10))
  // becomes 1, round to an integer in float's default mode (to nearest
  // even), and rebuild.
  int Exp;
  std::frexp(A, &Exp); // A = m * 2^Exp, m in [0.5, 1)
  int Quantum = Exp - 11 < -24 ? -24 : Exp - 11;
  float Q = std::nearbyint(std::ldexp(A, -Quantum));
  float R = std::ldexp(Q, Quantum);
  if (R == 0)
    return uint16_t(Sign);
  int RExp;
  std::frexp(R, &RExp);
  uint32_t H;
  if (RExp - 1 < -14) { // subnormal
    H = uint32_t(std::ldexp(R, 24));
  } else {
    uint32_t Man = uint32_t(std::ldexp(R, 11 - RExp)) & 0x3ff;
    H = uint32_t(RExp - 1 + 15) << 10 | Man;
  }
  return uint16_t(Sign | H);
}

uint32_t canonicalF32(float F) {
  return std::isnan(F) ? 0x7fffffffu : llvm::bit_cast<uint32_t>(F);
}

int64_t toInt(MatrixElement E, uint64_t V) {
  switch (E) {
  case ME_S8:
    return int8_t(V);
  case ME_S4:
    return int64_t(V << 60) >> 60;
  case ME_S32:
    return int32_t(V);
  default:
    return int64_t(V);
  }
}

bool isFloatElement(MatrixElement E) {
  return E == ME_F16 || E == ME_BF16 || E == ME_TF32 || E == ME_F32 ||
         E == ME_E4M3 || E == ME_E5M2;
}

/// The matrices of one operation: A (Batch x M x K), B stored transposed
/// (Batch x N x K) and C (Batch x M x N). The sizes are the largest of any
/// form of the kind: the elements are kept small, since the warp may run
/// on a fiber's stack.
template <typename In, typename Acc, unsigned MaxA, unsigned MaxB>
struct Operands {
  In A[MaxA], Bt[MaxB];
  Acc C[256]; // every form has 256 accumulators or fewer
};
/// .f16 ... .e5m2: A of mma.m16n8k32 and wmma .m32n8k16, B of .m8n32k16.
using FloatOperands = Operands<float, float, 512, 512>;
/// .f64: mma.m16n8k16.
using DoubleOperands = Operands<double, double, 256, 128>;
/// Integers and bits: mma.m16n8k256 .b1.
using IntegerOperands = Operands<int16_t, int32_t, 16 * 256, 256 * 8>;

template <typename T, typename Convert>
void unpack(const MatrixFragment &F, const void *Frag, T *Out,
            Convert ToValue) {
  unsigned Rows = F.getRows(), Cols = F.getCols();
  for (unsigned L = 0; L != Lanes; ++L)
    for (unsigned I = 0, E = F.getDistinctElements(); I != E; ++I) {
      MatrixCoord At = getFragmentCoord(F, L, I);
      T V = ToValue(getElement(F, Frag, L, I));
      if (F.Role == MR_B) // transposed: column-major
        Out[(At.Batch * Cols + At.Col) * Rows + At.Row] = V;
      else
        Out[(At.Batch * Rows + At.Row) * Cols + At.Col] = V;
    }
}

template <typename T, typename Convert>
void pack(const MatrixFragment &F, void *Frag, const T *In, Convert ToBits) {
  unsigned Rows = F.getRows(), Cols = F.getCols();
  for (unsigned L = 0; L != Lanes; ++L)
    for (unsigned I = 0, E = F.getElements(); I != E; ++I) {
      MatrixCoord At = getFragmentCoord(F, L, I);
      setElement(F, Frag, L, I,
                 ToBits(In[(At.Batch * Rows + At.Row) * Cols + At.Col]));
    }
}

unsigned getBatches(const MatrixMultiply &Op) {
  return Op.getFragment(MR_C, Op.C).isQuadPair() ? 4 : 1;
}

void multiplyFloat(const MatrixMultiply &Op, void *D, const void *A,
                   const void *B, const void *C) {
  FloatOperands X;
  MatrixFragment FA = Op.getFragment(MR_A, Op.A);
  MatrixFragment FB = Op.getFragment(MR_B, Op.B);
  MatrixFragment FC = Op.getFragment(MR_C, Op.C);
  MatrixFragment FD = Op.getFragment(MR_C, Op.D);
  unpack(FA, A, X.A, [&](uint64_t V) { return toFloat(Op.A, V); });
  unpack(FB, B, X.Bt, [&](uint64_t V) { return toFloat(Op.B, V); });
  unpack(FC, C, X.C, [&](uint64_t V) { return toFloat(Op.C, V); });
  unsigned M = Op.M, N = Op.N, K = Op.K;
  for (unsigned Batch = 0, E = getBatches(Op); Batch != E; ++Batch)
    for (unsigned I = 0; I != M; ++I)
      for (unsigned J = 0; J != N; ++J) {
        const float *Row = X.A + (Batch * M + I) * K;
        const float *Col = X.Bt + (Batch * N + J) * K;
        float &Acc = X.C[(Batch * M + I) * N + J];
        // The product is exact in double, and a double sum rounded to
        // float is the float sum correctly rounded (53 >= 2 * 24 + 2).
        for (unsigned L = 0; L != K; ++L)
          Acc = float(double(Acc) + double(Row[L]) * double(Col[L]));
      }
  if (Op.D == ME_F16)
    pack(FD, D, X.C, [](float V) { return uint64_t(toHalf(V)); });
  else
    pack(FD, D, X.C, [](float V) { return uint64_t(canonicalF32(V)); });
}

llvm::RoundingMode toRoundingMode(uint8_t Mode) {
  switch (Mode) {
  case RHM_TowardZero:
    return llvm::RoundingMode::TowardZero;
  case RHM_Down:
    return llvm::RoundingMode::TowardNegative;
  case RHM_Up:
    return llvm::RoundingMode::TowardPositive;
  default:
    return llvm::RoundingMode::NearestTiesToEven;
  }
}

void multiplyDouble(const MatrixMultiply &Op, void *D, const void *A,
                    const void *B, const void *C) {
  DoubleOperands X;
  auto ToDouble = [](uint64_t V) { return llvm::bit_cast<double>(V); };
  unpack(Op.getFragment(MR_A, ME_F64), A, X.A, ToDouble);
  unpack(Op.getFragment(MR_B, ME_F64), B, X.Bt, ToDouble);
  unpack(Op.getFragment(MR_C, ME_F64), C, X.C, ToDouble);
  unsigned M = Op.M, N = Op.N, K = Op.K;
  for (unsigned I = 0; I != M; ++I)
    for (unsigned J = 0; J != N; ++J) {
      double &Acc = X.C[I * N + J];
      for (unsigned L = 0; L != K; ++L) {
        double AV = X.A[I * K + L], BV = X.Bt[J * K + L];
        if (Op.Rounding == RHM_NearestEven) {
          Acc = std::fma(AV, BV, Acc);
          continue;
        }
        llvm::APFloat R(AV); // R = R * BV + Acc
        R.fusedMultiplyAdd(llvm::APFloat(BV), llvm::APFloat(Acc),
                           toRoundingMode(Op.Rounding));
        Acc = R.convertToDouble();
      }
    }
  pack(Op.getFragment(MR_C, ME_F64), D, X.C,
       [](double V) { return llvm::bit_cast<uint64_t>(V); });
}

void multiplyInteger(const MatrixMultiply &Op, void *D, const void *A,
                     const void *B, const void *C) {
  IntegerOperands X;
  unpack(Op.getFragment(MR_A, Op.A), A, X.A,
         [&](uint64_t V) { return int16_t(toInt(Op.A, V)); });
  unpack(Op.getFragment(MR_B, Op.B), B, X.Bt,
         [&](uint64_t V) { return int16_t(toInt(Op.B, V)); });
  unpack(Op.getFragment(MR_C, ME_S32), C, X.C,
         [](uint64_t V) { return int32_t(V); });
  unsigned M = Op.M, N = Op.N, K = Op.K;
  for (unsigned I = 0; I != M; ++I)
    for (unsigned J = 0; J != N; ++J) {
      const int16_t *Row = X.A + I * K, *Col = X.Bt + J * K;
      int64_t Sum = 0;
      for (unsigned L = 0; L != K; ++L) {
        if (Op.BitOp == MBO_Xor)
          Sum += Row[L] ^ Col[L];
        else if (Op.BitOp == MBO_And)
          Sum += Row[L] & Col[L];
        else
          Sum += int64_t(Row[L]) * Col[L];
      }
      int64_t R = Sum + X.C[I * N + J];
      if (Op.Satfinite)
        R = R > INT32_MAX ? INT32_MAX : R < INT32_MIN ? INT32_MIN : R;
      X.C[I * N + J] = int32_t(uint32_t(uint64_t(R)));
    }
  pack(Op.getFragment(MR_C, ME_S32), D, X.C,
       [](int32_t V) { return uint64_t(uint32_t(V)); });
}

} // namespace

extern "C" void ptxjit_rt_mma(uint64_t Code, void *D, const void *A,
                              const void *B, const void *C) {
  MatrixMultiply Op = MatrixMultiply::decode(Code);
  if (Op.A == ME_F64)
    return multiplyDouble(Op, D, A, B, C);
  if (isFloatElement(Op.A))
    return multiplyFloat(Op, D, A, B, C);
  return multiplyInteger(Op, D, A, B, C);
}
