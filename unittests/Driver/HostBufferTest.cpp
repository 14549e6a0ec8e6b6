//===- HostBufferTest.cpp - Buffers and their INIT forms ------------------===//
//
// Expected random values come from an independent Python implementation of
// SplitMix64 (and, for seed 0, from Vigna's published first output).
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Driver/HostBuffer.h"
#include "DriverTestUtil.h"
#include "ptxjit/Driver/SplitMix64.h"
#include "llvm/ADT/bit.h"
#include "gtest/gtest.h"

using namespace ptxjit::driver;
using llvm::bit_cast;

static HostBuffer make(llvm::StringRef Spec, uint64_t DefaultSeed = 0) {
  ArgSpec A = unwrap(parseArgSpec(Spec));
  EXPECT_TRUE(A.isBuffer());
  return unwrap(HostBuffer::create(A.Buf, DefaultSeed));
}

static std::string makeError(llvm::StringRef Spec) {
  ArgSpec A = unwrap(parseArgSpec(Spec));
  return errorOf(HostBuffer::create(A.Buf));
}

static std::vector<uint64_t> bitsOf(const HostBuffer &Buf) {
  std::vector<uint64_t> Bits;
  for (uint64_t I = 0; I != Buf.getCount(); ++I)
    Bits.push_back(Buf.getBits(I));
  return Bits;
}

using Bits = std::vector<uint64_t>;

TEST(HostBufferTest, AlignedLikeCudaMalloc) {
  for (uint64_t Count : {0, 1, 3, 1000}) {
    HostBuffer Buf = unwrap(HostBuffer::create(ElementType::U8, Count));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(Buf.data()) % 256, 0u);
    EXPECT_EQ(Buf.getCount(), Count);
    EXPECT_EQ(Buf.getSizeInBytes(), Count);
  }
  HostBuffer Buf = unwrap(HostBuffer::create(ElementType::F64, 5));
  EXPECT_EQ(Buf.getSizeInBytes(), 40u);
}

TEST(HostBufferTest, MoveKeepsTheMemory) {
  HostBuffer A = unwrap(HostBuffer::create(ElementType::U32, 4));
  uint8_t *Data = A.data();
  HostBuffer B = std::move(A);
  EXPECT_EQ(B.data(), Data);
  HostBuffer C = unwrap(HostBuffer::create(ElementType::U8, 1));
  C = std::move(B);
  EXPECT_EQ(C.data(), Data);
  EXPECT_EQ(C.getElementType(), ElementType::U32);
}

TEST(HostBufferTest, LittleEndianElements) {
  HostBuffer Buf = unwrap(HostBuffer::create(ElementType::U32, 2));
  Buf.setBits(1, 0x11223344);
  EXPECT_EQ(Buf.data()[4], 0x44);
  EXPECT_EQ(Buf.data()[7], 0x11);
  EXPECT_EQ(Buf.getBits(1), 0x11223344u);
  Buf.setBits(0, 0xaabbccdd11223344); // the high bits are dropped
  EXPECT_EQ(Buf.getBits(0), 0x11223344u);
}

TEST(HostBufferTest, ZeroIsTheDefault) {
  for (const char *Spec : {"u8[5]", "s16[5]=zero", "f64[5]", "bf16[5]=zero"})
    EXPECT_EQ(bitsOf(make(Spec)), Bits(5, 0)) << Spec;
}

TEST(HostBufferTest, IotaIntegersWrap) {
  HostBuffer U8 = make("u8[300]=iota");
  EXPECT_EQ(U8.getBits(0), 0u);
  EXPECT_EQ(U8.getBits(255), 255u);
  EXPECT_EQ(U8.getBits(256), 0u);
  EXPECT_EQ(U8.getBits(299), 43u);
  EXPECT_EQ(make("s8[200]=iota").getBits(128), 0x80u);
  EXPECT_EQ(bitsOf(make("u64[3]=iota")), Bits({0, 1, 2}));
  EXPECT_EQ(bitsOf(make("s32[3]=iota")), Bits({0, 1, 2}));
}

TEST(HostBufferTest, IotaFloatsRoundToNearestEven) {
  EXPECT_EQ(bitsOf(make("f32[3]=iota")),
            Bits({0, bit_cast<uint32_t>(1.0f), bit_cast<uint32_t>(2.0f)}));
  EXPECT_EQ(make("f64[4]=iota").getBits(3), bit_cast<uint64_t>(3.0));
  // f16 has 11 significant bits: 2049 ties to 2048, 2051 ties to 2052.
  HostBuffer F16 = make("f16[65521]=iota");
  EXPECT_EQ(F16.getBits(1), 0x3c00u);
  EXPECT_EQ(F16.getBits(2048), 0x6800u);
  EXPECT_EQ(F16.getBits(2049), 0x6800u);
  EXPECT_EQ(F16.getBits(2050), 0x6801u);
  EXPECT_EQ(F16.getBits(2051), 0x6802u);
  EXPECT_EQ(F16.getBits(65519), 0x7bffu);
  EXPECT_EQ(F16.getBits(65520), 0x7c00u); // rounds to inf
  // bf16 has 8: 257 ties to 256, 259 ties to 260.
  HostBuffer BF16 = make("bf16[260]=iota");
  EXPECT_EQ(BF16.getBits(1), 0x3f80u);
  EXPECT_EQ(BF16.getBits(257), 0x4380u);
  EXPECT_EQ(BF16.getBits(259), 0x4382u);
}

TEST(HostBufferTest, SplitMix64MatchesTheReference) {
  SplitMix64 Gen(0);
  EXPECT_EQ(Gen.next(), 0xe220a8397b1dcdafu);
  EXPECT_EQ(Gen.next(), 0x6e789e6aa1b965f4u);
  EXPECT_EQ(Gen.next(), 0x06c45d188009454fu);
  SplitMix64 Gen42(42);
  EXPECT_EQ(Gen42.next(), 0xbdd732262feb6e95u);
  EXPECT_EQ(Gen42.next(), 0x28efe333b266f103u);
}

TEST(HostBufferTest, RandIntegersTakeTheLowBits) {
  EXPECT_EQ(bitsOf(make("u64[3]=rand:0")),
            Bits({0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}));
  EXPECT_EQ(bitsOf(make("s64[2]=rand:42")),
            Bits({0xbdd732262feb6e95, 0x28efe333b266f103}));
  EXPECT_EQ(bitsOf(make("u8[4]=rand:7")), Bits({215, 28, 2, 203}));
  EXPECT_EQ(bitsOf(make("s16[4]=rand:7")), Bits({3543, 26140, 10754, 10699}));
  EXPECT_EQ(bitsOf(make("u32[2]=rand:0")), Bits({0x7b1dcdaf, 0xa1b965f4}));
}

TEST(HostBufferTest, RandFloatsAreExactGridPoints) {
  // Seed 7: draws >> 11 scaled by 2^-53 are these doubles (Python repr).
  HostBuffer F64 = make("f64[4]=rand:7");
  EXPECT_EQ(bit_cast<double>(F64.getBits(0)), 0.3898297483912715);
  EXPECT_EQ(bit_cast<double>(F64.getBits(1)), 0.01678829452815611);
  EXPECT_EQ(bit_cast<double>(F64.getBits(2)), 0.9007606806068834);
  EXPECT_EQ(bit_cast<double>(F64.getBits(3)), 0.5829302930280781);
  EXPECT_EQ(bitsOf(make("f32[4]=rand:7")),
            Bits({0x3ec797c2, 0x3c898780, 0x3f669840, 0x3f153aeb}));
  EXPECT_EQ(bitsOf(make("f16[4]=rand:7")),
            Bits({0x363c, 0x2440, 0x3b34, 0x38a9}));
  EXPECT_EQ(bitsOf(make("bf16[4]=rand:7")),
            Bits({0x3ec6, 0x3c80, 0x3f66, 0x3f15}));
}

TEST(HostBufferTest, RandIsDeterministicPerSeed) {
  EXPECT_EQ(bitsOf(make("f32[64]=rand:5")), bitsOf(make("f32[64]=rand:5")));
  EXPECT_NE(bitsOf(make("f32[64]=rand:5")), bitsOf(make("f32[64]=rand:6")));
  EXPECT_NE(bitsOf(make("u32[64]=rand:1")), bitsOf(make("u32[64]=rand:2")));
  // Without a seed, the caller's default seed is used.
  EXPECT_EQ(bitsOf(make("u16[8]=rand", 5)), bitsOf(make("u16[8]=rand:5")));
  EXPECT_EQ(bitsOf(make("u16[8]=rand")), bitsOf(make("u16[8]=rand:0")));
}

TEST(HostBufferTest, RandFloatsAreInTheUnitInterval) {
  HostBuffer F32 = make("f32[10000]=rand:3");
  float Min = 1, Max = 0;
  for (uint64_t I = 0; I != F32.getCount(); ++I) {
    float V = bit_cast<float>(static_cast<uint32_t>(F32.getBits(I)));
    Min = std::min(Min, V);
    Max = std::max(Max, V);
  }
  EXPECT_GE(Min, 0.0f);
  EXPECT_LT(Max, 1.0f);
  // Spread over the interval, not stuck in a corner.
  EXPECT_LT(Min, 0.01f);
  EXPECT_GT(Max, 0.99f);

  HostBuffer F16 = make("f16[10000]=rand:3");
  for (uint64_t I = 0; I != F16.getCount(); ++I)
    ASSERT_LT(F16.getBits(I), 0x3c00u); // below 1.0, and not negative
  HostBuffer BF16 = make("bf16[10000]=rand:3");
  for (uint64_t I = 0; I != BF16.getCount(); ++I)
    ASSERT_LT(BF16.getBits(I), 0x3f80u);
  HostBuffer F64 = make("f64[10000]=rand:3");
  for (uint64_t I = 0; I != F64.getCount(); ++I) {
    double V = bit_cast<double>(F64.getBits(I));
    ASSERT_TRUE(V >= 0 && V < 1) << V;
  }
}

TEST(HostBufferTest, Fill) {
  EXPECT_EQ(bitsOf(make("f32[3]=fill:2.5")), Bits(3, bit_cast<uint32_t>(2.5f)));
  EXPECT_EQ(bitsOf(make("f16[2]=fill:1")), Bits(2, 0x3c00));
  EXPECT_EQ(bitsOf(make("s8[2]=fill:-1")), Bits(2, 0xff));
  EXPECT_EQ(bitsOf(make("u64[2]=fill:0xdeadbeef")), Bits(2, 0xdeadbeef));
  EXPECT_EQ(makeError("u8[2]=fill:256"),
            "'256' does not fit in u8 (accepted: -128 to 255)");
  EXPECT_EQ(makeError("u8[2]=fill:0.5"),
            "'0.5' is not an integer, but u8 is an integer type");
}

TEST(HostBufferTest, List) {
  EXPECT_EQ(bitsOf(make("u64[1]=[1]")), Bits({1}));
  EXPECT_EQ(bitsOf(make("s32[3]=[-1, 0, 7]")), Bits({0xffffffff, 0, 7}));
  EXPECT_EQ(bitsOf(make("f64[2]=[0.1, -inf]")),
            Bits({0x3fb999999999999a, 0xfff0000000000000}));
  EXPECT_EQ(bitsOf(make("bf16[2]=[1, 3.14]")), Bits({0x3f80, 0x4049}));
  EXPECT_EQ(makeError("f32[3]=[1,2]"),
            "the list has 2 values, but f32[3] needs exactly 3");
  EXPECT_EQ(makeError("f32[3]=[1,2,3,4]"),
            "the list has 4 values, but f32[3] needs exactly 3");
  EXPECT_EQ(makeError("f32[2]=[1]"),
            "the list has 1 value, but f32[2] needs exactly 2");
  EXPECT_EQ(makeError("u8[2]=[1,300]"),
            "element 1 of the list: '300' does not fit in u8 (accepted: -128 "
            "to 255)");
}

TEST(HostBufferTest, RawFile) {
  TempDir Dir;
  std::string Path =
      Dir.write("in.bin", llvm::StringRef("\x01\x00\x02\x00\xff\xff", 6));
  EXPECT_EQ(bitsOf(make("u16[3]=@" + Path)), Bits({1, 2, 0xffff}));
  EXPECT_EQ(makeError("u16[4]=@" + Path),
            "'" + Path +
                "' has 6 bytes, but u16[4] needs exactly 8 bytes of raw data");
  EXPECT_EQ(makeError("u32[1]=@" + Path),
            "'" + Path +
                "' has 6 bytes, but u32[1] needs exactly 4 bytes of raw data");
}

TEST(HostBufferTest, MissingFile) {
  TempDir Dir;
  std::string Path = Dir.path("missing.bin");
  EXPECT_EQ(makeError("u8[1]=@" + Path),
            "cannot read '" + Path + "': No such file or directory");
}
