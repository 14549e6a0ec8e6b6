//===- ScalarLiteralTest.cpp ----------------------------------------------===//

#include "ptxjit/Driver/ScalarLiteral.h"
#include "DriverTestUtil.h"
#include "gtest/gtest.h"

using namespace ptxjit::driver;

static uint64_t convert(llvm::StringRef Text, ElementType Ty) {
  return unwrap(convertLiteral(unwrap(parseScalarLiteral(Text)), Ty));
}

static std::string convertError(llvm::StringRef Text, ElementType Ty) {
  return errorOf(convertLiteral(unwrap(parseScalarLiteral(Text)), Ty));
}

TEST(ScalarLiteralTest, Integers) {
  ScalarLiteral L = unwrap(parseScalarLiteral("42"));
  EXPECT_EQ(L.Kind, ScalarLiteral::Integer);
  EXPECT_FALSE(L.IsNegative);
  EXPECT_EQ(L.Magnitude, 42u);

  L = unwrap(parseScalarLiteral("-7"));
  EXPECT_EQ(L.Kind, ScalarLiteral::Integer);
  EXPECT_TRUE(L.IsNegative);
  EXPECT_EQ(L.Magnitude, 7u);

  EXPECT_EQ(unwrap(parseScalarLiteral("0x1F")).Magnitude, 31u);
  EXPECT_EQ(unwrap(parseScalarLiteral("0Xff")).Magnitude, 255u);
  EXPECT_EQ(unwrap(parseScalarLiteral("+5")).Magnitude, 5u);
  EXPECT_EQ(unwrap(parseScalarLiteral(" 010 ")).Magnitude, 10u); // not octal
  L = unwrap(parseScalarLiteral("-0x10"));
  EXPECT_TRUE(L.IsNegative);
  EXPECT_EQ(L.Magnitude, 16u);
  EXPECT_EQ(unwrap(parseScalarLiteral("18446744073709551615")).Magnitude,
            ~uint64_t(0));
}

TEST(ScalarLiteralTest, Floats) {
  for (const char *Text :
       {"1.5", "-2e-3", "inf", "-inf", "+inf", "nan", "-nan", "INF", "infinity",
        ".5", "1e10", "1E+3", "0x1.8p1"}) {
    llvm::Expected<ScalarLiteral> L = parseScalarLiteral(Text);
    ASSERT_TRUE(!!L) << Text << ": " << llvm::toString(L.takeError());
    EXPECT_EQ(L->Kind, ScalarLiteral::Float) << Text;
    EXPECT_EQ(L->Text, Text);
  }
}

TEST(ScalarLiteralTest, Malformed) {
  EXPECT_EQ(errorOf(parseScalarLiteral("")),
            "expected a number, found nothing");
  for (const char *Text :
       {"abc", "1.5.2", "0x", "12abc", "1e", "1e+", ".", "e5", "--1", "0xg",
        "0x1.8", "1,5", "nanx", "1.5f", "1_000"})
    EXPECT_NE(errorOf(parseScalarLiteral(Text)).find("is not a number"),
              std::string::npos)
        << Text;
  EXPECT_EQ(errorOf(parseScalarLiteral("18446744073709551616")),
            "integer '18446744073709551616' does not fit in 64 bits");
}

TEST(ScalarLiteralTest, IntegerRanges) {
  EXPECT_EQ(convert("255", ElementType::U8), 0xffu);
  EXPECT_EQ(convert("-128", ElementType::U8), 0x80u);
  EXPECT_EQ(convert("255", ElementType::S8), 0xffu);
  EXPECT_EQ(convert("-1", ElementType::U32), 0xffffffffu);
  EXPECT_EQ(convert("0xFFFFFFFF", ElementType::S32), 0xffffffffu);
  EXPECT_EQ(convert("-32768", ElementType::S16), 0x8000u);
  EXPECT_EQ(convert("65535", ElementType::U16), 0xffffu);
  EXPECT_EQ(convert("18446744073709551615", ElementType::U64), ~uint64_t(0));
  EXPECT_EQ(convert("-9223372036854775808", ElementType::S64), uint64_t(1)
                                                                   << 63);
  EXPECT_EQ(convert("-0", ElementType::S32), 0u);

  EXPECT_EQ(convertError("256", ElementType::U8),
            "'256' does not fit in u8 (accepted: -128 to 255)");
  EXPECT_EQ(convertError("-129", ElementType::S8),
            "'-129' does not fit in s8 (accepted: -128 to 255)");
  EXPECT_EQ(convertError("65536", ElementType::U16),
            "'65536' does not fit in u16 (accepted: -32768 to 65535)");
  EXPECT_EQ(convertError("0x100000000", ElementType::U32),
            "'0x100000000' does not fit in u32 (accepted: -2147483648 to "
            "4294967295)");
  EXPECT_EQ(convertError("-9223372036854775809", ElementType::S64),
            "'-9223372036854775809' does not fit in s64 (accepted: "
            "-9223372036854775808 to 18446744073709551615)");
}

TEST(ScalarLiteralTest, FloatIntoIntegerIsAnError) {
  EXPECT_EQ(convertError("1.5", ElementType::U32),
            "'1.5' is not an integer, but u32 is an integer type");
  EXPECT_NE(convertError("inf", ElementType::S64), "");
  EXPECT_NE(convertError("1e3", ElementType::S64), "");
}

TEST(ScalarLiteralTest, IntoFloats) {
  EXPECT_EQ(convert("1.5", ElementType::F32), 0x3fc00000u);
  EXPECT_EQ(convert("+1.5", ElementType::F32), 0x3fc00000u);
  EXPECT_EQ(convert("1.", ElementType::F32), 0x3f800000u);
  EXPECT_EQ(convert("2.E0", ElementType::F32), 0x40000000u);
  EXPECT_EQ(convert("-0.0", ElementType::F32), 0x80000000u);
  EXPECT_EQ(convert("-2e-3", ElementType::F32), 0xbb03126fu);
  EXPECT_EQ(convert("0.1", ElementType::F32), 0x3dcccccdu);
  EXPECT_EQ(convert("0.1", ElementType::F64), 0x3fb999999999999au);
  EXPECT_EQ(convert("-2e-3", ElementType::F64), 0xbf60624dd2f1a9fcu);
  EXPECT_EQ(convert("0x1.8p1", ElementType::F64), 0x4008000000000000u); // 3
  EXPECT_EQ(convert("inf", ElementType::F32), 0x7f800000u);
  EXPECT_EQ(convert("-inf", ElementType::F64), 0xfff0000000000000u);
  uint64_t NaN = convert("nan", ElementType::F32);
  EXPECT_EQ(NaN & 0x7f800000u, 0x7f800000u);
  EXPECT_NE(NaN & 0x007fffffu, 0u);
  EXPECT_EQ(convert("1e-50", ElementType::F32), 0u); // underflow is rounding
  EXPECT_EQ(convert("0.1", ElementType::F16), 0x2e66u);
  EXPECT_EQ(convert("65519", ElementType::F16), 0x7bffu);
  EXPECT_EQ(convert("1", ElementType::BF16), 0x3f80u);
  EXPECT_EQ(convert("3.14", ElementType::BF16), 0x4049u);
  EXPECT_EQ(convert("-inf", ElementType::F16), 0xfc00u);
}

TEST(ScalarLiteralTest, IntegersIntoFloatsRound) {
  EXPECT_EQ(convert("3", ElementType::F32), 0x40400000u);
  EXPECT_EQ(convert("-1", ElementType::F64), 0xbff0000000000000u);
  // 2^24 + 1 is a tie between 2^24 (even) and 2^24 + 2.
  EXPECT_EQ(convert("16777217", ElementType::F32), 0x4b800000u);
  EXPECT_EQ(convert("16777219", ElementType::F32), 0x4b800002u);
  EXPECT_EQ(convert("2049", ElementType::F16), 0x6800u);
  EXPECT_EQ(convert("0", ElementType::F32), 0u);
  // The buffer printer writes negative zero as "-0": it must read back.
  EXPECT_EQ(convert("-0", ElementType::F32), 0x80000000u);
}

TEST(ScalarLiteralTest, DecimalRoundsOnceIntoFloat) {
  // Just above the tie between 1 and 1 + 2^-23. As a double it would be the
  // tie itself, which then rounds to even (1.0f); rounded once it goes up.
  EXPECT_EQ(convert("1.00000005960464477539062500001", ElementType::F32),
            0x3f800001u);
}

TEST(ScalarLiteralTest, OverflowIsAnError) {
  EXPECT_EQ(convertError("1e39", ElementType::F32),
            "'1e39' is too large for f32");
  EXPECT_EQ(convertError("70000", ElementType::F16),
            "'70000' is too large for f16");
  EXPECT_EQ(convertError("-65520", ElementType::F16),
            "'-65520' is too large for f16");
  EXPECT_EQ(convertError("1e309", ElementType::F64),
            "'1e309' is too large for f64");
}
