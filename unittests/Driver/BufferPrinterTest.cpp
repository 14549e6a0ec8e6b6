//===- BufferPrinterTest.cpp - The `NAME = [v0, v1, ...]` line ------------===//

#include "ptxjit/Driver/BufferPrinter.h"
#include "DriverTestUtil.h"
#include "ptxjit/Driver/HostBuffer.h"
#include "llvm/ADT/bit.h"
#include "gtest/gtest.h"
#include <cmath>

using namespace ptxjit::driver;
using llvm::bit_cast;

static std::string print(llvm::StringRef Name, ElementType Ty,
                         std::initializer_list<uint64_t> Bits,
                         uint64_t Limit = 0) {
  HostBuffer Buf = unwrap(HostBuffer::create(Ty, Bits.size()));
  uint64_t I = 0;
  for (uint64_t B : Bits)
    Buf.setBits(I++, B);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printBuffer(OS, Name, Buf, Limit);
  OS.flush();
  return Out;
}

TEST(BufferPrinterTest, TheIssueExample) {
  EXPECT_EQ(print("add_param_1", ElementType::U64, {2}), "add_param_1 = [2]\n");
}

TEST(BufferPrinterTest, Integers) {
  EXPECT_EQ(print("a", ElementType::U8, {0, 1, 255}), "a = [0, 1, 255]\n");
  EXPECT_EQ(print("b", ElementType::S8, {0x80, 0x7f, 0xff}),
            "b = [-128, 127, -1]\n");
  EXPECT_EQ(print("c", ElementType::S16, {0x8000, 0xffff}),
            "c = [-32768, -1]\n");
  EXPECT_EQ(print("d", ElementType::U16, {0xffff}), "d = [65535]\n");
  EXPECT_EQ(print("e", ElementType::S32, {0x80000000, 7}),
            "e = [-2147483648, 7]\n");
  EXPECT_EQ(print("f", ElementType::U32, {0xffffffff}), "f = [4294967295]\n");
  EXPECT_EQ(print("g", ElementType::S64, {uint64_t(1) << 63}),
            "g = [-9223372036854775808]\n");
  EXPECT_EQ(print("h", ElementType::U64, {~uint64_t(0)}),
            "h = [18446744073709551615]\n");
}

TEST(BufferPrinterTest, Floats) {
  EXPECT_EQ(print("x", ElementType::F32,
                  {bit_cast<uint32_t>(0.1f), bit_cast<uint32_t>(1.0f / 3.0f),
                   bit_cast<uint32_t>(-0.0f), bit_cast<uint32_t>(INFINITY),
                   bit_cast<uint32_t>(-INFINITY), 0x7fc00000, 0xffc00000,
                   bit_cast<uint32_t>(0x1p-149f)}),
            "x = [0.1, 0.33333334, -0, inf, -inf, nan, nan, 1e-45]\n");
  EXPECT_EQ(print("y", ElementType::F64,
                  {bit_cast<uint64_t>(0.1), bit_cast<uint64_t>(-2.5),
                   bit_cast<uint64_t>(1e100)}),
            "y = [0.1, -2.5, 1e100]\n");
  EXPECT_EQ(print("h", ElementType::F16, {0x3c00, 0x3555, 0x7e00, 0xfc00}),
            "h = [1, 0.3333, nan, -inf]\n");
  EXPECT_EQ(print("b", ElementType::BF16, {0x3f80, 0x4049, 0x8000}),
            "b = [1, 3.14, -0]\n");
}

TEST(BufferPrinterTest, Empty) {
  EXPECT_EQ(print("z", ElementType::F32, {}), "z = []\n");
}

TEST(BufferPrinterTest, LimitSummarizesLikeNumPy) {
  // First ceil(N/2) and last floor(N/2) elements, then the shape.
  EXPECT_EQ(print("a", ElementType::U8, {0, 1, 2, 3, 4, 5}, 4),
            "a = [0, 1, ..., 4, 5] (u8[6])\n");
  EXPECT_EQ(print("a", ElementType::U8, {0, 1, 2, 3, 4, 5}, 3),
            "a = [0, 1, ..., 5] (u8[6])\n");
  EXPECT_EQ(print("a", ElementType::S32, {0, 1, 2}, 1),
            "a = [0, ...] (s32[3])\n");
  // A limit at or above the count, or 0, prints everything.
  EXPECT_EQ(print("a", ElementType::U8, {7, 8, 9}, 3), "a = [7, 8, 9]\n");
  EXPECT_EQ(print("a", ElementType::U8, {7, 8, 9}, 0), "a = [7, 8, 9]\n");
}
