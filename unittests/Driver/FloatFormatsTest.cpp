//===- FloatFormatsTest.cpp -----------------------------------------------===//

#include "ptxjit/Driver/FloatFormats.h"
#include "llvm/ADT/bit.h"
#include "gtest/gtest.h"
#include <cmath>
#include <limits>

using namespace ptxjit::driver;
using llvm::bit_cast;

static bool isHalfNaN(uint16_t Bits) {
  return (Bits & 0x7c00) == 0x7c00 && (Bits & 0x03ff) != 0;
}

static bool isBFloatNaN(uint16_t Bits) {
  return (Bits & 0x7f80) == 0x7f80 && (Bits & 0x007f) != 0;
}

TEST(FloatFormatsTest, HalfNormalsAndSpecials) {
  EXPECT_EQ(floatToHalfBits(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalfBits(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalfBits(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalfBits(65504.0f), 0x7bff); // largest finite
  EXPECT_EQ(floatToHalfBits(INFINITY), 0x7c00);
  EXPECT_EQ(floatToHalfBits(-INFINITY), 0xfc00);
  EXPECT_TRUE(isHalfNaN(floatToHalfBits(NAN)));
  // A NaN whose payload lies only in bits that f16 drops must stay a NaN.
  EXPECT_TRUE(isHalfNaN(floatToHalfBits(bit_cast<float>(0x7f800001u))));
}

TEST(FloatFormatsTest, HalfRoundsToNearestEven) {
  // 1 + 2^-11 is halfway between 1 (even) and 1 + 2^-10.
  EXPECT_EQ(floatToHalfBits(1.0f + 0x1p-11f), 0x3c00);
  // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 and 1 + 2^-9 (even).
  EXPECT_EQ(floatToHalfBits(1.0f + 3 * 0x1p-11f), 0x3c02);
  EXPECT_EQ(floatToHalfBits(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);
  // Overflow: 65520 is halfway to 65536, which is past the largest finite.
  EXPECT_EQ(floatToHalfBits(65519.0f), 0x7bff);
  EXPECT_EQ(floatToHalfBits(65520.0f), 0x7c00);
}

TEST(FloatFormatsTest, HalfSubnormals) {
  EXPECT_EQ(floatToHalfBits(0x1p-24f), 0x0001);     // smallest subnormal
  EXPECT_EQ(floatToHalfBits(0x1p-25f), 0x0000);     // tie, to even zero
  EXPECT_EQ(floatToHalfBits(3 * 0x1p-25f), 0x0002); // tie, to even 2
  EXPECT_EQ(floatToHalfBits(0x1p-14f), 0x0400);     // smallest normal
  EXPECT_EQ(floatToHalfBits(0x1p-14f - 0x1p-24f), 0x03ff);
  EXPECT_EQ(floatToHalfBits(0x1p-30f), 0x0000);
}

TEST(FloatFormatsTest, DoubleToHalfRoundsOnce) {
  // 1 + 2^-11 + 2^-40 is just above a half tie. Through float it would first
  // round to the tie and then to even (0x3c00); rounded once it is 0x3c01.
  EXPECT_EQ(doubleToHalfBits(1.0 + 0x1p-11 + 0x1p-40), 0x3c01);
  EXPECT_EQ(doubleToHalfBits(0.1), 0x2e66);
}

TEST(FloatFormatsTest, BFloat) {
  EXPECT_EQ(floatToBFloatBits(1.0f), 0x3f80);
  EXPECT_EQ(floatToBFloatBits(bit_cast<float>(0x3f808000u)), 0x3f80); // tie
  EXPECT_EQ(floatToBFloatBits(bit_cast<float>(0x3f818000u)), 0x3f82); // tie
  EXPECT_EQ(floatToBFloatBits(bit_cast<float>(0x3f80c000u)), 0x3f81);
  EXPECT_EQ(floatToBFloatBits(std::numeric_limits<float>::max()), 0x7f80);
  EXPECT_EQ(floatToBFloatBits(-0.0f), 0x8000);
  EXPECT_TRUE(isBFloatNaN(floatToBFloatBits(bit_cast<float>(0x7f800001u))));
  EXPECT_EQ(doubleToBFloatBits(1.0 + 0x1p-8 + 0x1p-40), 0x3f81);
  // bf16 keeps float's exponent range, so float's smallest subnormal
  // rounds to zero, tie to even.
  EXPECT_EQ(floatToBFloatBits(0x1p-149f), 0x0000);
  EXPECT_EQ(floatToBFloatBits(0x1p-133f), 0x0001);
}

TEST(FloatFormatsTest, WideningIsExact) {
  EXPECT_EQ(halfBitsToFloat(0x3c00), 1.0f);
  EXPECT_EQ(halfBitsToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(halfBitsToFloat(0x0001), 0x1p-24f);
  EXPECT_EQ(halfBitsToFloat(0x7bff), 65504.0f);
  EXPECT_EQ(halfBitsToFloat(0xfc00), -INFINITY);
  EXPECT_TRUE(std::isnan(halfBitsToFloat(0x7e00)));
  EXPECT_EQ(bfloatBitsToFloat(0x3f80), 1.0f);
  EXPECT_EQ(bfloatBitsToFloat(0x4049), 3.140625f);
  EXPECT_EQ(bfloatBitsToFloat(0x0001), 0x1p-133f);
  EXPECT_TRUE(std::signbit(bfloatBitsToFloat(0x8000)));
}
