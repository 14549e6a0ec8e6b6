//===- ShortestFloatTest.cpp ----------------------------------------------===//
//
// Expected strings were worked out by hand from the round-trip intervals, or
// (for doubles) are Python's repr(), an independent shortest-digits printer,
// rewritten in our exponent style.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Driver/ShortestFloat.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Error.h"
#include "gtest/gtest.h"
#include <cmath>
#include <limits>

using namespace ptxjit::driver;
using llvm::bit_cast;

TEST(ShortestFloatTest, Float) {
  EXPECT_EQ(formatShortestFloat(0.1f), "0.1");
  EXPECT_EQ(formatShortestFloat(1.0f / 3.0f), "0.33333334");
  EXPECT_EQ(formatShortestFloat(1.5f), "1.5");
  EXPECT_EQ(formatShortestFloat(-2e-3f), "-0.002");
  EXPECT_EQ(formatShortestFloat(1.0f), "1");
  EXPECT_EQ(formatShortestFloat(100.0f), "100");
  EXPECT_EQ(formatShortestFloat(16777216.0f), "16777216");
  EXPECT_EQ(formatShortestFloat(1e10f), "10000000000");
  EXPECT_EQ(formatShortestFloat(0x1p-149f), "1e-45");
  EXPECT_EQ(formatShortestFloat(std::numeric_limits<float>::min()),
            "1.1754944e-38");
  EXPECT_EQ(formatShortestFloat(std::numeric_limits<float>::max()),
            "3.4028235e38");
  EXPECT_EQ(formatShortestFloat(1e-5f), "1e-5");
  EXPECT_EQ(formatShortestFloat(1e-4f), "0.0001");
  EXPECT_EQ(formatShortestFloat(1.25e-4f), "0.000125");
}

TEST(ShortestFloatTest, FloatSpecials) {
  EXPECT_EQ(formatShortestFloat(NAN), "nan");
  EXPECT_EQ(formatShortestFloat(-NAN), "nan");
  EXPECT_EQ(formatShortestFloat(bit_cast<float>(0x7f800001u)), "nan");
  EXPECT_EQ(formatShortestFloat(INFINITY), "inf");
  EXPECT_EQ(formatShortestFloat(-INFINITY), "-inf");
  EXPECT_EQ(formatShortestFloat(0.0f), "0");
  EXPECT_EQ(formatShortestFloat(-0.0f), "-0");
}

TEST(ShortestFloatTest, FloatPowersOfTwoWithLopsidedIntervals) {
  // At a power of two the gap below is half the gap above, so the nearest
  // 8-digit decimal (1.2621774e-29, below) misses while the next one up
  // reads back. Found by exact rational arithmetic.
  EXPECT_EQ(formatShortestFloat(0x1p-96f), "1.2621775e-29");
  EXPECT_EQ(formatShortestFloat(0x1p87f), "1.5474251e26");
}

TEST(ShortestFloatTest, Double) {
  EXPECT_EQ(formatShortestDouble(0.1), "0.1");
  EXPECT_EQ(formatShortestDouble(1.0 / 3.0), "0.3333333333333333");
  EXPECT_EQ(formatShortestDouble(-2e-3), "-0.002");
  EXPECT_EQ(formatShortestDouble(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(formatShortestDouble(5e-324), "5e-324");
  EXPECT_EQ(formatShortestDouble(std::numeric_limits<double>::max()),
            "1.7976931348623157e308");
  EXPECT_EQ(formatShortestDouble(std::numeric_limits<double>::min()),
            "2.2250738585072014e-308");
  EXPECT_EQ(formatShortestDouble(1e15), "1000000000000000");
  EXPECT_EQ(formatShortestDouble(1e16), "1e16");
  EXPECT_EQ(formatShortestDouble(123.456), "123.456");
  EXPECT_EQ(formatShortestDouble(-1e-7), "-1e-7");
  // Python: repr(2.0**-24) == '5.960464477539063e-08'; the nearest 16-digit
  // decimal, ...062e-08, is below and misses.
  EXPECT_EQ(formatShortestDouble(0x1p-24), "5.960464477539063e-8");
  EXPECT_EQ(formatShortestDouble(0x1p89), "6.189700196426902e26");
  EXPECT_EQ(formatShortestDouble(-0.0), "-0");
  EXPECT_EQ(formatShortestDouble(-INFINITY), "-inf");
  EXPECT_EQ(formatShortestDouble(NAN), "nan");
}

TEST(ShortestFloatTest, Half) {
  EXPECT_EQ(formatShortestHalf(0x3c00), "1");
  // 0x3555 is 0.333251953125; every value within half an ulp (2^-13) reads
  // back to it, and 0.3333 is the only 4-digit decimal there.
  EXPECT_EQ(formatShortestHalf(0x3555), "0.3333");
  EXPECT_EQ(formatShortestHalf(0x2e66), "0.1");
  EXPECT_EQ(formatShortestHalf(0x7bff), "65500"); // 65504
  EXPECT_EQ(formatShortestHalf(0x0001), "6e-8");  // 2^-24
  EXPECT_EQ(formatShortestHalf(0xc000), "-2");
  EXPECT_EQ(formatShortestHalf(0x8000), "-0");
  EXPECT_EQ(formatShortestHalf(0x7c00), "inf");
  EXPECT_EQ(formatShortestHalf(0xfc00), "-inf");
  EXPECT_EQ(formatShortestHalf(0x7e00), "nan");
  EXPECT_EQ(formatShortestHalf(0xfe01), "nan");
}

TEST(ShortestFloatTest, BFloat) {
  EXPECT_EQ(formatShortestBFloat(0x3f80), "1");
  EXPECT_EQ(formatShortestBFloat(0x4049), "3.14"); // 3.140625
  EXPECT_EQ(formatShortestBFloat(0x3dcd), "0.1");  // 0.10009765625
  EXPECT_EQ(formatShortestBFloat(0xbf80), "-1");
  EXPECT_EQ(formatShortestBFloat(0x7f80), "inf");
  EXPECT_EQ(formatShortestBFloat(0x7fc0), "nan");
}

TEST(ShortestFloatTest, EveryHalfAndBFloatReadsBack) {
  // Exhaustive: the printed form of each finite value parses back, correctly
  // rounded, to the same bits.
  for (unsigned Bits = 0; Bits != 0x10000; ++Bits) {
    uint16_t B = static_cast<uint16_t>(Bits);
    if ((B & 0x7c00) != 0x7c00) {
      llvm::APFloat Half(llvm::APFloat::IEEEhalf());
      auto Status = Half.convertFromString(formatShortestHalf(B),
                                           llvm::APFloat::rmNearestTiesToEven);
      ASSERT_TRUE(!!Status) << Bits;
      EXPECT_EQ(Half.bitcastToAPInt().getZExtValue(), Bits);
    }
    if ((B & 0x7f80) != 0x7f80) {
      llvm::APFloat BF(llvm::APFloat::BFloat());
      auto Status = BF.convertFromString(formatShortestBFloat(B),
                                         llvm::APFloat::rmNearestTiesToEven);
      ASSERT_TRUE(!!Status) << Bits;
      EXPECT_EQ(BF.bitcastToAPInt().getZExtValue(), Bits);
    }
  }
}

TEST(ShortestFloatTest, FloatsReadBack) {
  // Every 65521st float: strtof of the printed form gives the same bits.
  for (uint64_t Bits = 0; Bits < 0x100000000; Bits += 65521) {
    float V = bit_cast<float>(static_cast<uint32_t>(Bits));
    if (std::isnan(V))
      continue;
    std::string Text = formatShortestFloat(V);
    ASSERT_EQ(bit_cast<uint32_t>(std::strtof(Text.c_str(), nullptr)), Bits)
        << Text;
  }
}
