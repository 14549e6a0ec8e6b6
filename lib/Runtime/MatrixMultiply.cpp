//===- MatrixMultiply.cpp - Warp-level matrix multiply-accumulate ---------===//
//
// mma and wmma.mma for a whole warp: the fragments of A, B and C become
// matrices (MatrixABI.h says which lane holds which element), D = A * B + C
// is computed, and D goes back into fragments.
//
// The arithmetic, within what the PTX ISA leaves to the implementation
// ("the accumulation order, rounding and handling of subnormal inputs are
// unspecified"): .f16, .bf16 and .tf32 multiplicands with .f32 C and D in
// the shapes with K = 8 or 16 are summed as an H200's tensor cores do
// (TensorCoreSum.h, docs/TensorCoreNumerics.md). The other forms keep an
// unverified model: products of .f16, .bf16, .tf32, .e4m3 and .e5m2
// elements are exact, and they are added to the C element one after
// another in K order, rounding each sum to .f32 (to nearest even);
// subnormals are kept, a NaN result is the canonical NaN, and .f16 results
// are rounded once from that .f32 value. .f64 is a chain
// of fused multiply-adds in K order, rounded as the instruction says.
// Integers are added exactly, then wrapped to 32 bits or, with .satfinite,
// clamped.
//
// mma.sp is the dense mma with A's zeros restored: the kept elements are
// placed in their rows where the metadata says (expandSparse), and the
// product is the dense one of shape MxNxK.
//
//===----------------------------------------------------------------------===//

#include "MatrixArithmetic.h"
#include "ptxjit/ABI/MatrixABI.h"
#include "ptxjit/ABI/RoundingHelpers.h"
#include "ptxjit/ABI/RuntimeEntryPoints.h"
#include "ptxjit/Runtime/TensorCoreSum.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

using namespace ptxjit;
using runtime::FragmentPlan;

namespace {

constexpr unsigned Lanes = 32;
float fromBits(uint32_t B) { return llvm::bit_cast<float>(B); }

/// An 8-bit float (1 sign bit, E exponent bits, M mantissa bits, bias
/// 2^(E-1)-1) as a float; HasInf: the IEEE encodings of infinity and NaN
/// (e5m2), else only all-ones is NaN (e4m3).
float decodeByte(uint32_t V, unsigned E, unsigned M, bool HasInf) {
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

/// The values of every .e4m3 (Table[0]) and .e5m2 (Table[1]) pattern.
const float (&byteFloats())[2][256] {
  static const auto Tables = [] {
    struct {
      float T[2][256];
    } X;
    for (unsigned V = 0; V != 256; ++V) {
      X.T[0][V] = decodeByte(V, 4, 3, false);
      X.T[1][V] = decodeByte(V, 5, 2, true);
    }
    return X;
  }();
  return Tables.T;
}

float halfToFloat(uint32_t H) {
  uint32_t Sign = (H & 0x8000) << 16, Exp = H >> 10 & 0x1f, Man = H & 0x3ff;
  if (Exp == 0) {
    float V = float(Man) * 0x1p-24f; // exact
    return Sign ? -V : V;
  }
  if (Exp == 31)
    return fromBits(Sign | 0x7f800000 | Man << 13);
  return fromBits(Sign | (Exp + 112) << 23 | Man << 13);
}

float toFloat(MatrixElement E, uint64_t V) {
  switch (E) {
  case ME_F16:
    return halfToFloat(uint32_t(V));
  case ME_BF16:
    return fromBits(uint32_t(V) << 16);
  case ME_TF32:
    return fromBits(uint32_t(V) & 0xffffe000u);
  case ME_E4M3:
    return byteFloats()[0][V & 0xff];
  case ME_E5M2:
    return byteFloats()[1][V & 0xff];
  default:
    return fromBits(uint32_t(V));
  }
}

/// Rounds F to .f16, to nearest even, keeping subnormals; NaN becomes the
/// canonical 0x7fff.
uint16_t toHalf(float F) {
  uint32_t B = llvm::bit_cast<uint32_t>(F);
  uint32_t Sign = B >> 16 & 0x8000, Abs = B & 0x7fffffff;
  if (Abs > 0x7f800000)
    return 0x7fff;
  if (Abs >= 0x477ff000) // 65520 and up round to infinity
    return uint16_t(Sign | 0x7c00);
  int Exp = int(Abs >> 23) - 127;
  uint32_t Man = (Abs & 0x7fffff) | 0x800000;
  // The value in units of the .f16 quantum at its exponent (2^(Exp-10), or
  // 2^-24 below 2^-14), with the bits shifted out to round.
  unsigned Shift = Exp >= -14 ? 13 : unsigned(-Exp - 1);
  if (Shift > 24)
    return uint16_t(Sign); // below half of the smallest subnormal
  uint32_t Q = Man >> Shift, Rem = Man & ((1u << Shift) - 1),
           Half = 1u << (Shift - 1);
  if (Rem > Half || (Rem == Half && (Q & 1)))
    ++Q; // a carry out of the mantissa moves to the next exponent
  if (Exp >= -14)
    return uint16_t(Sign | (uint32_t(Exp + 15) << 10) + (Q - 0x400));
  return uint16_t(Sign | Q);
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

/// mma.sp: Dense (M x K, row-major) from Packed (M x K/2) and the warp's
/// metadata registers E. Field (i0 | i1 << 2) of a chunk places its first
/// kept element (or .s4/.u4 pair) at index i0 and its second at i1, in any
/// order; equal indices, which the ISA leaves undefined, keep the second.
/// A .tf32 chunk keeps one element, at i0 / 2 (0b0100: 0, 0b1110: 1).
template <typename T>
void expandSparse(const MatrixMultiply &Op, const T *Packed, T *Dense,
                  const uint32_t *E) {
  unsigned Chunk = getSparseChunk(Op.A), K = Op.K;
  std::fill(Dense, Dense + Op.M * K, T());
  for (unsigned R = 0; R != Op.M; ++R)
    for (unsigned C = 0; C != K / Chunk; ++C) {
      SparseMetadataBits At = getSparseMetadata(Op, R, C);
      unsigned Field = E[At.Lane] >> At.Bit & 0xf;
      unsigned I0 = Field & 3, I1 = Field >> 2;
      const T *From = Packed + R * K / 2 + C * Chunk / 2;
      T *To = Dense + R * K + C * Chunk;
      if (Chunk == 2) {
        To[I0 >> 1] = From[0];
      } else if (Chunk == 4) {
        To[I0] = From[0];
        To[I1] = From[1];
      } else {
        To[2 * I0] = From[0];
        To[2 * I0 + 1] = From[1];
        To[2 * I1] = From[2];
        To[2 * I1 + 1] = From[3];
      }
    }
}

/// An operation with the plans of its four fragments.
struct Plan {
  MatrixMultiply Op;
  unsigned Batches;
  FragmentPlan A, B, C, D;

  explicit Plan(const MatrixMultiply &Op)
      : Op(Op), Batches(Op.getFragment(MR_C, Op.C).isQuadPair() ? 4 : 1),
        A(Op.getFragment(MR_A, Op.A)), B(Op.getFragment(MR_B, Op.B)),
        C(Op.getFragment(MR_C, Op.C)), D(Op.getFragment(MR_C, Op.D)) {}

  /// Out[index] = ToValue(bits) for each element of the dense A: the
  /// fragment's, or for mma.sp its expansion by the metadata E.
  template <typename T, typename Convert>
  void unpackA(const void *Frag, const void *E, T *Out, Convert ToValue) const;
};

/// The plan of an encoded operation, made on first use in each thread.
const Plan &getPlan(uint64_t Code) {
  thread_local std::unordered_map<uint64_t, std::unique_ptr<Plan>> Plans;
  std::unique_ptr<Plan> &P = Plans[Code];
  if (!P)
    P = std::make_unique<Plan>(MatrixMultiply::decode(Code));
  return *P;
}

/// The largest matrices of any form (elements), for buffers on the stack,
/// which may be a fiber's: A of mma.m16n8k256 .b1, B of m16n8k256 and of
/// wmma .m8n32k16; every form has 256 accumulators or fewer.
constexpr unsigned MaxA = 16 * 256, MaxB = 256 * 8, MaxC = 256;

template <typename T, typename Convert>
void Plan::unpackA(const void *Frag, const void *E, T *Out,
                   Convert ToValue) const {
  if (!Op.Sparse)
    return A.unpack(Frag, Out, ToValue);
  T Packed[16 * 64]; // mma.sp: M is 16, K is 128 or less
  uint32_t Meta[Lanes];
  std::memcpy(Meta, E, sizeof(Meta));
  A.unpack(Frag, Packed, ToValue);
  expandSparse(Op, Packed, Out, Meta);
}

/// C[b][i][j] += A[b][i][k] * B[b][k][j] in K order for each element, each
/// step rounded once to float by Step. A row of C is kept in a local array
/// while K runs, so that the loop over its columns is vector code.
template <typename StepFn>
inline void accumulate(const float *A, const float *B, float *C,
                       unsigned Batches, unsigned M, unsigned N, unsigned K,
                       StepFn Step) {
  for (unsigned Q = 0; Q != Batches; ++Q)
    for (unsigned I = 0; I != M; ++I) {
      float Acc[32]; // N is 8, 16 or 32
      float *Row = C + (Q * M + I) * N;
      std::memcpy(Acc, Row, N * sizeof(float));
      for (unsigned L = 0; L != K; ++L) {
        float AV = A[(Q * M + I) * K + L];
        const float *BRow = B + (Q * K + L) * N;
        for (unsigned J = 0; J != N; ++J)
          Acc[J] = Step(AV, BRow[J], Acc[J]);
      }
      std::memcpy(Row, Acc, N * sizeof(float));
    }
}

/// The product of two elements of at most 11 significant bits is exact, so
/// an fma is one step.
__attribute__((target("avx2,fma"))) void
accumulateWithFma(const float *A, const float *B, float *C, unsigned Batches,
                  unsigned M, unsigned N, unsigned K) {
  accumulate(A, B, C, Batches, M, N, K,
             [](float X, float Y, float Z) { return __builtin_fmaf(X, Y, Z); });
}

/// Without an fma instruction: the product is exact in double, and a double
/// sum rounded to float is the float sum correctly rounded (53 >= 2 * 24 + 2
/// bits).
void accumulateInDouble(const float *A, const float *B, float *C,
                        unsigned Batches, unsigned M, unsigned N, unsigned K) {
  accumulate(A, B, C, Batches, M, N, K, [](float X, float Y, float Z) {
    return float(double(Z) + double(X) * double(Y));
  });
}

/// Whether the form's sums follow the measured tensor-core rule.
bool followsTensorCoreRule(const MatrixMultiply &Op) {
  return (Op.A == ME_F16 || Op.A == ME_BF16 || Op.A == ME_TF32) &&
         Op.B == Op.A && Op.C == ME_F32 && Op.D == ME_F32 &&
         (Op.K == 8 || Op.K == 16);
}

/// Calls F with a function converting element bits of type E to float.
template <typename Fn> void withFloatDecoder(MatrixElement E, Fn F) {
  switch (E) {
  case ME_F16:
    return F([](uint64_t V) { return halfToFloat(uint32_t(V)); });
  case ME_BF16:
    return F([](uint64_t V) { return fromBits(uint32_t(V) << 16); });
  case ME_TF32:
    return F([](uint64_t V) { return fromBits(uint32_t(V) & 0xffffe000u); });
  default:
    return F([E](uint64_t V) { return toFloat(E, V); });
  }
}

void multiplyFloat(const Plan &P, void *D, const void *A, const void *B,
                   const void *C, const void *E) {
  static const bool HasFma = __builtin_cpu_supports("fma");
  const MatrixMultiply &Op = P.Op;
  float XA[MaxA], XB[MaxB], XC[MaxC];
  withFloatDecoder(Op.A, [&](auto Decode) { P.unpackA(A, E, XA, Decode); });
  withFloatDecoder(Op.B, [&](auto Decode) { P.B.unpack(B, XB, Decode); });
  withFloatDecoder(Op.C, [&](auto Decode) { P.C.unpack(C, XC, Decode); });
  if (followsTensorCoreRule(Op))
    runtime::tensorCoreMultiply(XA, XB, XC, Op.M, Op.N, Op.K,
                                Op.A == ME_F16 ? -14 : -126);
  else
    (HasFma ? accumulateWithFma : accumulateInDouble)(XA, XB, XC, P.Batches,
                                                      Op.M, Op.N, Op.K);
  if (Op.D == ME_F16)
    P.D.pack(D, XC, [](float V) { return uint64_t(toHalf(V)); });
  else
    P.D.pack(D, XC, [](float V) { return uint64_t(canonicalF32(V)); });
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

void multiplyDouble(const Plan &P, void *D, const void *A, const void *B,
                    const void *C) {
  const MatrixMultiply &Op = P.Op;
  double XA[256], XB[128], XC[128]; // mma.m16n8k16 .f64
  auto ToDouble = [](uint64_t V) { return llvm::bit_cast<double>(V); };
  P.A.unpack(A, XA, ToDouble);
  P.B.unpack(B, XB, ToDouble);
  P.C.unpack(C, XC, ToDouble);
  unsigned M = Op.M, N = Op.N, K = Op.K;
  for (unsigned I = 0; I != M; ++I)
    for (unsigned L = 0; L != K; ++L)
      for (unsigned J = 0; J != N; ++J) {
        double AV = XA[I * K + L], BV = XB[L * N + J];
        double &Acc = XC[I * N + J];
        if (Op.Rounding == RHM_NearestEven) {
          Acc = std::fma(AV, BV, Acc);
          continue;
        }
        llvm::APFloat R(AV); // R = R * BV + Acc
        R.fusedMultiplyAdd(llvm::APFloat(BV), llvm::APFloat(Acc),
                           toRoundingMode(Op.Rounding));
        Acc = R.convertToDouble();
      }
  P.D.pack(D, XC, [](double V) { return llvm::bit_cast<uint64_t>(V); });
}

void multiplyInteger(const Plan &P, void *D, const void *A, const void *B,
                     const void *C, const void *E) {
  const MatrixMultiply &Op = P.Op;
  int16_t XA[MaxA], XB[MaxB];
  int32_t XC[MaxC];
  P.unpackA(A, E, XA, [&](uint64_t V) { return int16_t(toInt(Op.A, V)); });
  P.B.unpack(B, XB, [&](uint64_t V) { return int16_t(toInt(Op.B, V)); });
  P.C.unpack(C, XC, [](uint64_t V) { return int32_t(V); });
  unsigned M = Op.M, N = Op.N, K = Op.K;
  int64_t Sum[MaxC] = {};
  for (unsigned I = 0; I != M; ++I)
    for (unsigned L = 0; L != K; ++L) {
      int32_t AV = XA[I * K + L];
      const int16_t *BRow = XB + L * N;
      int64_t *Row = Sum + I * N;
      if (Op.BitOp == MBO_Xor)
        for (unsigned J = 0; J != N; ++J)
          Row[J] += AV ^ BRow[J];
      else if (Op.BitOp == MBO_And)
        for (unsigned J = 0; J != N; ++J)
          Row[J] += AV & BRow[J];
      else
        for (unsigned J = 0; J != N; ++J)
          Row[J] += AV * BRow[J];
    }
  for (unsigned E = 0; E != M * N; ++E) {
    int64_t R = Sum[E] + XC[E];
    if (Op.Satfinite)
      R = R > INT32_MAX ? INT32_MAX : R < INT32_MIN ? INT32_MIN : R;
    XC[E] = int32_t(uint32_t(uint64_t(R)));
  }
  P.D.pack(D, XC, [](int32_t V) { return uint64_t(uint32_t(V)); });
}

} // namespace

extern "C" void ptxjit_rt_mma(uint64_t Code, void *D, const void *A,
                              const void *B, const void *C) {
  const Plan &P = getPlan(Code);
  if (P.Op.A == ME_F64)
    return multiplyDouble(P, D, A, B, C);
  if (isFloatElement(P.Op.A))
    return multiplyFloat(P, D, A, B, C, nullptr);
  return multiplyInteger(P, D, A, B, C, nullptr);
}

extern "C" void ptxjit_rt_mma_sp(uint64_t Code, void *D, const void *A,
                                 const void *B, const void *C, const void *E) {
  const Plan &P = getPlan(Code);
  if (isFloatElement(P.Op.A))
    return multiplyFloat(P, D, A, B, C, E);
  return multiplyInteger(P, D, A, B, C, E);
}

float ptxjit::runtime::decodeMatrixFloat(MatrixElement E, uint64_t Bits) {
  return toFloat(E, Bits);
}

uint32_t ptxjit::runtime::encodeMatrixFloat(MatrixElement D, float V) {
  return D == ME_F16 ? toHalf(V) : canonicalF32(V);
}

void ptxjit::runtime::multiplyFloatMatrices(MatrixElement AType,
                                            MatrixElement CType,
                                            MatrixElement DType, const float *A,
                                            const float *B, float *C,
                                            unsigned M, unsigned N,
                                            unsigned K) {
  static const bool HasFma = __builtin_cpu_supports("fma");
  MatrixMultiply Op;
  Op.M = M;
  Op.N = N;
  Op.K = K;
  Op.A = Op.B = AType;
  Op.C = CType;
  Op.D = DType;
  if (followsTensorCoreRule(Op))
    return tensorCoreMultiply(A, B, C, M, N, K, AType == ME_F16 ? -14 : -126);
  (HasFma ? accumulateWithFma : accumulateInDouble)(A, B, C, 1, M, N, K);
}
