//===- TensorCoreSumTest.cpp - The tensor cores' f32 dot product ----------===//
//
// Expected values are worked out by hand from the rule in
// docs/TensorCoreNumerics.md: terms truncated toward zero to multiples of
// 2^(L-26), one exact sum, one rounding toward zero.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Runtime/TensorCoreSum.h"
#include "llvm/ADT/bit.h"
#include "gtest/gtest.h"
#include <cmath>
#include <random>
#include <vector>

using namespace ptxjit::runtime;

namespace {

uint32_t bits(float F) { return llvm::bit_cast<uint32_t>(F); }

TEST(TensorCoreSumTest, RoundTowardZeroScaled) {
  // 2^25 - 1 units of 2^-25: 25 significant bits, the last one dropped.
  EXPECT_EQ(bits(roundTowardZeroScaled((1 << 25) - 1, -25)), 0x3f7fffffu);
  EXPECT_EQ(bits(roundTowardZeroScaled(-(1 << 25) + 1, -25)), 0xbf7fffffu);
  EXPECT_EQ(bits(roundTowardZeroScaled((int64_t(1) << 30) + 127, -30)),
            0x3f800000u);
  // Subnormal results: 1.5 * 2^-149 -> 2^-149; -2^-150 -> -0.
  EXPECT_EQ(bits(roundTowardZeroScaled(3, -150)), 0x00000001u);
  EXPECT_EQ(bits(roundTowardZeroScaled(-1, -150)), 0x80000000u);
  EXPECT_EQ(bits(roundTowardZeroScaled(0x7fffff, -149)), 0x007fffffu);
  EXPECT_EQ(bits(roundTowardZeroScaled(0xffffff, -150)), 0x007fffffu);
  // The largest float is exact; beyond it saturates.
  EXPECT_EQ(bits(roundTowardZeroScaled((1 << 24) - 1, 104)), 0x7f7fffffu);
  EXPECT_EQ(bits(roundTowardZeroScaled((1 << 25) - 1, 103)), 0x7f7fffffu);
  EXPECT_EQ(bits(roundTowardZeroScaled(1, 128)), 0x7f7fffffu);
  EXPECT_EQ(bits(roundTowardZeroScaled(-1, 128)), 0xff7fffffu);
}

TEST(TensorCoreSumTest, MakeTerm) {
  // The least .f16 subnormal, 2^-24, is seen at exponent -14.
  TensorCoreTerm T = makeTensorCoreTerm(0x1p-24f, -14);
  EXPECT_EQ(T.Class, TensorCoreTerm::Finite);
  EXPECT_EQ(T.Mant, 1 << 23);
  EXPECT_EQ(T.Exp, -47);
  EXPECT_EQ(T.Nominal, -14);
  // A float subnormal (.bf16 or .f32) at -126.
  T = makeTensorCoreTerm(-0x3p-149f, -126);
  EXPECT_EQ(T.Mant, -3);
  EXPECT_EQ(T.Exp, -149);
  EXPECT_EQ(T.Nominal, -126);
  EXPECT_TRUE(T.Negative);
  EXPECT_EQ(makeTensorCoreTerm(-INFINITY, -126).Class, TensorCoreTerm::Inf);
  EXPECT_EQ(makeTensorCoreTerm(NAN, -126).Class, TensorCoreTerm::NaN);
}

/// c + sum A[I] * B[I] for .f16 values (MinNormalExp -14) or others.
float dot(float C, std::vector<float> A, std::vector<float> B,
          int MinNormalExp = -14) {
  std::vector<TensorCoreTerm> TA, TB;
  for (float X : A)
    TA.push_back(makeTensorCoreTerm(X, MinNormalExp));
  for (float X : B)
    TB.push_back(makeTensorCoreTerm(X, MinNormalExp));
  return tensorCoreDot(TA.data(), TB.data(), 1, unsigned(A.size()),
                       makeTensorCoreTerm(C, -126));
}

TEST(TensorCoreSumTest, Truncation) {
  // 16 products 2^-23 - 2^-34 added to 1: three units of 2^-25 each.
  std::vector<float> A(16, 0x1.ffcp-12f), B(16, 0x1p-12f);
  EXPECT_EQ(bits(dot(1.0f, A, B)), 0x3f80000cu);
  // The order of the terms does not matter.
  A[3] = 0x1p-3f;
  B[3] = 0x1p-3f; // 2^-6: exact in units of 2^-25
  float D = dot(1.0f, A, B);
  std::swap(A[3], A[11]);
  std::swap(B[3], B[11]);
  EXPECT_EQ(bits(dot(1.0f, A, B)), bits(D));
  // 1 + 2^-6 + 15 * 3 * 2^-25 = 1 + 2^-6 + 11.25 * 2^-23, toward zero.
  EXPECT_EQ(bits(D), 0x3f800000u + (1u << 17) + 11);
}

TEST(TensorCoreSumTest, Cancellation) {
  // 2^20 - 2^20 + 3 * 2^-6 + 3 * 2^-7 in units of 2^-5: 2^-5 is left.
  EXPECT_EQ(
      bits(dot(0x1p20f, {-1024.0f, 1.5f, 0.75f}, {1024.0f, 0x1p-5f, 0x1p-5f})),
      0x3d000000u);
  // An exact cancellation is +0.
  EXPECT_EQ(bits(dot(-1.0f, {0.5f, 0.25f}, {1.0f, 2.0f})), 0u);
}

TEST(TensorCoreSumTest, Zeros) {
  // A zero product does not raise L, however large its other factor (as a
  // subnormal, 0 * 65504 would count at -14 + 15 + 1 = 2 and truncate the
  // 2^-26 of ((1 + 2^-10) * 2^-3)^2 = 2^-6 + 2^-15 + 2^-26).
  float S = 0x1.004p-3f;
  EXPECT_EQ(bits(dot(0.0f, {0.0f, S}, {65504.0f, S})), 0x3c804008u);
  // Only zeros: -0 when every term is -0.
  EXPECT_EQ(bits(dot(-0.0f, {-0.0f, 0.0f}, {1.0f, -2.0f})), 0x80000000u);
  EXPECT_EQ(bits(dot(-0.0f, {-0.0f, 0.0f}, {1.0f, 2.0f})), 0u);
  EXPECT_EQ(bits(dot(0.0f, {-0.0f}, {1.0f})), 0u);
}

TEST(TensorCoreSumTest, Subnormals) {
  // 2^-24 * 2^15 counts at exponent -14 + 15 + 1 = 2: the unit is 2^-24 and
  // ((1 + 2^-10) * 2^-5)^2 loses its 2^-30.
  float S = 0x1.004p-5f;
  EXPECT_EQ(bits(dot(0.0f, {0x1p-24f, S}, {0x1p15f, S})), 0x3b402000u);
  // bf16: 3 * 2^-149 - 2^-151 is 2.75 * 2^-149, toward zero 2 * 2^-149.
  EXPECT_EQ(bits(dot(0x3p-149f, {-0x1p-100f}, {0x1p-51f}, -126)), 2u);
}

TEST(TensorCoreSumTest, Extremes) {
  // Sixteen .bf16 products near 2^256: the int64 sum stays exact and the
  // result saturates.
  std::vector<float> Big(16, 0x1.fep127f);
  EXPECT_EQ(bits(dot(0.0f, Big, Big, -126)), 0x7f7fffffu);
  std::vector<float> Neg(16, -0x1.fep127f);
  EXPECT_EQ(bits(dot(3e38f, Big, Neg, -126)), 0xff7fffffu);
  // c = FLT_MAX and .f16 products of 2^32: far below the unit 2^102.
  std::vector<float> H(16, 65504.0f);
  EXPECT_EQ(bits(dot(0x1.fffffep127f, H, H)), 0x7f7fffffu);
}

TEST(TensorCoreSumTest, Specials) {
  EXPECT_EQ(bits(dot(1.0f, {INFINITY, 1.0f}, {-1.0f, 1.0f})), 0xff800000u);
  EXPECT_EQ(bits(dot(1.0f, {INFINITY}, {0.0f})), 0x7fffffffu);
  EXPECT_EQ(bits(dot(INFINITY, {INFINITY}, {-1.0f})), 0x7fffffffu);
  EXPECT_EQ(bits(dot(INFINITY, {INFINITY}, {2.0f})), 0x7f800000u);
  EXPECT_EQ(bits(dot(-INFINITY, {65504.0f}, {65504.0f})), 0xff800000u);
  EXPECT_EQ(bits(dot(1.0f, {NAN}, {0.0f})), 0x7fffffffu);
  EXPECT_EQ(bits(dot(NAN, {1.0f}, {1.0f})), 0x7fffffffu);
}

} // namespace

namespace {

/// A random .f16 (MinNormalExp -14) or .bf16 (-126) value widened to
/// float: zeros, subnormals and exponents over the whole range, so that L
/// is set by C, by products, by subnormals, and sums cancel.
float randomElement(std::mt19937 &R, bool Half) {
  unsigned Kind = R() % 16;
  uint32_t Sign = R() & 1 ? 0x80000000u : 0;
  if (Kind == 0)
    return llvm::bit_cast<float>(Sign);
  if (Half) {
    uint32_t Man = R() & 0x3ff;
    if (Kind == 1) // an .f16 subnormal
      return (Sign ? -1.0f : 1.0f) * std::ldexp(float(Man | 1), -24);
    int Exp = int(R() % 30) - 14;
    return (Sign ? -1.0f : 1.0f) * std::ldexp(float(Man | 0x400), Exp - 10);
  }
  uint32_t Man = R() & 0x7f0000;
  uint32_t Biased = Kind == 1 ? 0 : 1 + R() % 254;
  if (Kind == 1 && Man == 0)
    Man = 0x10000;
  return llvm::bit_cast<float>(Sign | Biased << 23 | Man);
}

} // namespace

TEST(TensorCoreSumTest, MatrixMatchesElementwise) {
  // tensorCoreMultiply (the vector path) against tensorCoreDot on every
  // shape the runtime uses it for.
  struct Shape {
    unsigned M, N, K;
  } Shapes[] = {{16, 8, 16}, {16, 8, 8},  {16, 16, 16},
                {32, 8, 16}, {8, 32, 16}, {16, 16, 8}};
  std::mt19937 R(7);
  for (bool Half : {true, false})
    for (const Shape &S : Shapes)
      for (unsigned Round = 0; Round != 20; ++Round) {
        std::vector<float> A(S.M * S.K), B(S.K * S.N), C(S.M * S.N);
        for (float &X : A)
          X = randomElement(R, Half);
        for (float &X : B)
          X = randomElement(R, Half);
        // C: larger than .f16 products can be; finite (an infinity would
        // take the other path).
        for (float &X : C)
          X = R() % 4 ? randomElement(R, Half) *
                            std::ldexp(1.0f, Half ? R() % 40 : 0)
                      : 0.0f;
        // Some elements cancel their first product exactly.
        for (unsigned I = 0; I < S.M; I += 3)
          C[I * S.N] = -(A[I * S.K] * B[0]);
        int MinNormalExp = Half ? -14 : -126;
        std::vector<float> D = C;
        tensorCoreMultiply(A.data(), B.data(), D.data(), S.M, S.N, S.K,
                           MinNormalExp);
        std::vector<TensorCoreTerm> TA, TB;
        for (float X : A)
          TA.push_back(makeTensorCoreTerm(X, MinNormalExp));
        for (float X : B)
          TB.push_back(makeTensorCoreTerm(X, MinNormalExp));
        for (unsigned I = 0; I != S.M; ++I)
          for (unsigned J = 0; J != S.N; ++J) {
            float Want =
                tensorCoreDot(&TA[I * S.K], &TB[J], S.N, S.K,
                              makeTensorCoreTerm(C[I * S.N + J], -126));
            ASSERT_EQ(bits(D[I * S.N + J]), bits(Want))
                << S.M << "x" << S.N << "x" << S.K << " (" << I << ", " << J
                << ")";
          }
      }
}

TEST(TensorCoreSumTest, MatrixSpecials) {
  // An infinity anywhere takes the element-by-element path.
  std::vector<float> A(16 * 16, 1.0f), B(16 * 8, 0.5f), C(16 * 8, 0.0f);
  A[0] = INFINITY;  // row 0 of A: +inf in every product of row 0
  B[1 * 8 + 3] = 0; // (0, 3): inf * 0 is not in that product (K index 1)
  B[0 * 8 + 5] = 0; // (0, 5): inf * 0
  tensorCoreMultiply(A.data(), B.data(), C.data(), 16, 8, 16, -14);
  EXPECT_EQ(bits(C[0]), 0x7f800000u);
  EXPECT_EQ(bits(C[3]), 0x7f800000u);
  EXPECT_EQ(bits(C[5]), 0x7fffffffu);
  EXPECT_EQ(bits(C[8]), bits(8.0f)); // row 1: 16 * 0.5
}
