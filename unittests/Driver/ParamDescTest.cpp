//===- ParamDescTest.cpp --------------------------------------------------===//

#include "ptxjit/Driver/ParamDesc.h"
#include "DriverTestUtil.h"
#include "gtest/gtest.h"

using namespace ptxjit::driver;
using Bytes = std::vector<uint8_t>;

static Bytes encode(llvm::StringRef Spec, const ParamDesc &Param) {
  return unwrap(encodeScalar(unwrap(parseArgSpec(Spec)), Param));
}

static std::string encodeError(llvm::StringRef Spec, const ParamDesc &Param) {
  return errorOf(encodeScalar(unwrap(parseArgSpec(Spec)), Param));
}

TEST(ParamDescTest, TypeNames) {
  EXPECT_EQ(ParamDesc::getInt("p", 8, false).getTypeName(), ".u8");
  EXPECT_EQ(ParamDesc::getInt("p", 64, true).getTypeName(), ".s64");
  EXPECT_EQ(ParamDesc::getFloat("p", 32).getTypeName(), ".f32");
  EXPECT_EQ(ParamDesc::getBlob("p", 16).getTypeName(), ".b8[16]");
}

TEST(ParamDescTest, IntegerScalars) {
  ParamDesc U8 = ParamDesc::getInt("k_param_0", 8, false);
  EXPECT_EQ(encode("255", U8), Bytes({0xff}));
  EXPECT_EQ(encode("-1", U8), Bytes({0xff}));
  EXPECT_EQ(encode("-2", ParamDesc::getInt("n", 32, true)),
            Bytes({0xfe, 0xff, 0xff, 0xff}));
  EXPECT_EQ(encode("0x1234", ParamDesc::getInt("n", 16, false)),
            Bytes({0x34, 0x12}));
  EXPECT_EQ(encode("0x1122334455667788", ParamDesc::getInt("n", 64, false)),
            Bytes({0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11}));
}

TEST(ParamDescTest, FloatScalars) {
  EXPECT_EQ(encode("1.5", ParamDesc::getFloat("x", 32)),
            Bytes({0x00, 0x00, 0xc0, 0x3f}));
  EXPECT_EQ(encode("-1", ParamDesc::getFloat("x", 64)),
            Bytes({0, 0, 0, 0, 0, 0, 0xf0, 0xbf}));
  EXPECT_EQ(encode("1", ParamDesc::getFloat("x", 16)), Bytes({0x00, 0x3c}));
}

TEST(ParamDescTest, ErrorsNameTheParameter) {
  ParamDesc U8 = ParamDesc::getInt("k_param_0", 8, false);
  EXPECT_EQ(encodeError("256", U8),
            "parameter 'k_param_0' (.u8): '256' does not fit in u8 "
            "(accepted: -128 to 255)");
  EXPECT_EQ(encodeError("1.5", ParamDesc::getInt("n", 32, true)),
            "parameter 'n' (.s32): '1.5' is not an integer, but s32 is an "
            "integer type");
  EXPECT_EQ(encodeError("1e39", ParamDesc::getFloat("x", 32)),
            "parameter 'x' (.f32): '1e39' is too large for f32");
  EXPECT_EQ(encodeError("f32[4]", ParamDesc::getInt("p", 64, false)),
            "parameter 'p' (.u64): expected a scalar, got the buffer "
            "'f32[4]'");
  EXPECT_EQ(encodeError("1", ParamDesc::getBlob("s", 16)),
            "parameter 's' (.b8[16]): a by-value aggregate cannot be given "
            "with --arg");
  EXPECT_EQ(encodeError("1", ParamDesc::getInt("w", 24, false)),
            "parameter 'w' (.u24): unsupported parameter size");
}

TEST(ParamDescTest, Buffers) {
  EXPECT_EQ(errorOf(checkBufferParam(ParamDesc::getInt("p", 64, false))), "");
  EXPECT_EQ(errorOf(checkBufferParam(ParamDesc::getInt("p", 64, true))), "");
  EXPECT_EQ(errorOf(checkBufferParam(ParamDesc::getInt("n", 32, false))),
            "parameter 'n' (.u32): a buffer is passed as a 64-bit address, "
            "which this parameter cannot hold");
  EXPECT_NE(errorOf(checkBufferParam(ParamDesc::getFloat("d", 64))), "");
  EXPECT_NE(errorOf(checkBufferParam(ParamDesc::getBlob("s", 8))), "");
  EXPECT_EQ(encodePointer(0x1122334455667788),
            Bytes({0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11}));
}
