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
  EXPECT_EQ(bits(dot(0x1p20f, {-1024.0f, 1.5f, 0.75f}, {1024.0f, 0x1p-5f,
                                                        0x1p-5f})),
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
