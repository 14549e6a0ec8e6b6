//===- TensorCoreSum.h - The tensor cores' f32 dot product ------*- C++ -*-===//
//
// How the tensor cores add up one element of D = A * B + C when A and B are
// .f16, .bf16 or .tf32 and C and D are .f32 (docs/TensorCoreNumerics.md, as
// measured on an H200): the products are exact; every term (each product
// and C) is truncated toward zero to a multiple of 2^(L - 26), L being the
// largest nominal exponent of the nonzero terms; the truncated terms are
// added exactly and the sum is rounded toward zero to .f32 once.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_TENSORCORESUM_H
#define PTXJIT_RUNTIME_TENSORCORESUM_H

#include <cstdint>

namespace ptxjit {
namespace runtime {

/// A multiplicand or accumulator: Mant * 2^Exp exactly (Mant signed, 0 for
/// a zero) with its unbiased exponent Nominal (the format's least normal
/// exponent for a subnormal), or an infinity or NaN.
struct TensorCoreTerm {
  enum Kind : uint8_t { Finite, Inf, NaN };
  int32_t Mant = 0;
  int16_t Exp = 0;
  int16_t Nominal = 0;
  Kind Class = Finite;
  bool Negative = false;
};

/// The term of an .f32 value (a widened .f16, .bf16 or .tf32 element, or C)
/// whose own format's least normal exponent is MinNormalExp (-14 for .f16,
/// -126 for the others): a subnormal .f16 is a normal float, but the
/// tensor cores see it at exponent -14.
TensorCoreTerm makeTensorCoreTerm(float V, int MinNormalExp);

/// Sum * 2^Exp rounded toward zero to float: truncated to 24 significant
/// bits (or to a multiple of 2^-149), ±FLT_MAX past the largest float, a
/// zero of Sum's sign when nothing is left.
float roundTowardZeroScaled(int64_t Sum, int Exp);

/// C + sum of A[I] * B[I * BStride] for I < K (K <= 16) by the rule above;
/// NaN when an input is NaN or an inf * 0 or inf - inf arises, else an
/// infinity of the infinite terms' sign.
float tensorCoreDot(const TensorCoreTerm *A, const TensorCoreTerm *B,
                    unsigned BStride, unsigned K, const TensorCoreTerm &C);

/// C = A * B + C for row-major float matrices (A: M x K, B: K x N, C:
/// M x N; K is 8 or 16, M * K and K * N at most 512) whose A and B hold
/// widened .f16 (MinNormalExp -14), .bf16 or .tf32 (-126) elements: each
/// element as tensorCoreDot gives it, faster.
void tensorCoreMultiply(const float *A, const float *B, float *C, unsigned M,
                        unsigned N, unsigned K, int MinNormalExp);

} // namespace runtime
} // namespace ptxjit

#endif
