//===- MatrixDescriptorTest.cpp - wgmma descriptors and swizzling ---------===//
//
// The fields of a matrix descriptor, the swizzle modes (CuTe's
// Swizzle<B,4,3>: address bits 4.. XOR bits 7..), and where elements of
// each canonical layout are. Expected addresses are worked out by hand from
// the PTX ISA's layout description in each test's comment.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/ABI/MatrixDescriptor.h"
#include "gtest/gtest.h"

using namespace ptxjit;

namespace {

uint64_t makeDescriptor(uint32_t Start, uint32_t LBO, uint32_t SBO,
                        unsigned Mode, unsigned Base = 0) {
  return uint64_t(Start >> 4) | uint64_t(LBO >> 4) << 16 |
         uint64_t(SBO >> 4) << 32 | uint64_t(Base) << 49 | uint64_t(Mode) << 62;
}

TEST(MatrixDescriptorTest, Fields) {
  MatrixDescriptor D =
      MatrixDescriptor::decode(makeDescriptor(1024, 128, 1024, 1, 5));
  EXPECT_EQ(D.Start, 1024u);
  EXPECT_EQ(D.LeadingOffset, 128u);
  EXPECT_EQ(D.StrideOffset, 1024u);
  EXPECT_EQ(D.BaseOffset, 5u);
  EXPECT_EQ(D.Swizzle, SharedSwizzle::B128);
  EXPECT_EQ(MatrixDescriptor::decode(uint64_t(2) << 62).Swizzle,
            SharedSwizzle::B64);
  EXPECT_EQ(MatrixDescriptor::decode(uint64_t(3) << 62).Swizzle,
            SharedSwizzle::B32);
  // The start address keeps 18 bits: 14 encoded, 4 implied zeros.
  EXPECT_EQ(MatrixDescriptor::decode(0x3fff).Start, 0x3fff0u);
}

TEST(MatrixDescriptorTest, Swizzles) {
  // 128B: the 16-byte chunk c of 128-byte row r moves to chunk c ^ (r % 8).
  for (uint32_t R = 0; R != 16; ++R)
    for (uint32_t C = 0; C != 8; ++C)
      EXPECT_EQ(swizzleSharedAddress(R * 128 + C * 16 + 3, SharedSwizzle::B128),
                R * 128 + (C ^ (R % 8)) * 16 + 3);
  // 64B: chunk bits 4-5 XOR address bits 7-8.
  EXPECT_EQ(swizzleSharedAddress(144, SharedSwizzle::B64), 128u);
  EXPECT_EQ(swizzleSharedAddress(384 + 32, SharedSwizzle::B64), 384u + 16);
  // 32B: bit 4 XOR bit 7.
  EXPECT_EQ(swizzleSharedAddress(128, SharedSwizzle::B32), 144u);
  EXPECT_EQ(swizzleSharedAddress(256 + 16, SharedSwizzle::B32), 272u);
  EXPECT_EQ(swizzleSharedAddress(1000, SharedSwizzle::None), 1000u);
  for (uint32_t A = 0; A != 4096; A += 4)
    EXPECT_EQ(swizzleSharedAddress(swizzleSharedAddress(A, SharedSwizzle::B128),
                                   SharedSwizzle::B128),
              A);
}

TEST(MatrixDescriptorTest, KMajorUnswizzled) {
  // .f16, LBO 128, SBO 256: (9, 10) is in row group 1 (256), K core matrix 1
  // (128), row 1 of it (16) and its element 2 (4): byte 404.
  auto D = MatrixDescriptor::decode(makeDescriptor(0, 128, 256, 0));
  EXPECT_EQ(D.getBitAddress(9, 10, 16, false), 404u * 8);
  // .b1: 128 elements a core-matrix row; (0, 203) is in K core matrix 1,
  // byte 75 / 8 = 9 of the row, bit 3.
  EXPECT_EQ(D.getBitAddress(0, 203, 1, false), (128u + 9) * 8 + 3);
}

TEST(MatrixDescriptorTest, KMajorSwizzled) {
  // .f16, 128B, start 1024: (3, 20) is byte 1024 + 3 * 128 + 40 = 1448
  // before swizzling; its chunk 2 ^ row 3 = 1: 1432.
  auto D = MatrixDescriptor::decode(makeDescriptor(1024, 16, 1024, 1));
  EXPECT_EQ(D.getBitAddress(3, 20, 16, false), 1432u * 8);
  // .tf32, 32B, SBO 256: (12, 5) is 256 + 4 * 32 + 16 + 4 = 404; bit 7 is
  // set, so chunk bit 4 flips: 388.
  auto T = MatrixDescriptor::decode(makeDescriptor(0, 16, 256, 3));
  EXPECT_EQ(T.getBitAddress(12, 5, 32, false), 388u * 8);
  EXPECT_EQ(T.getBitAddress(10, 5, 32, false), 340u * 8);
}

TEST(MatrixDescriptorTest, MNMajor) {
  // Unswizzled .f16, SBO 128 (next 8 M), LBO 512 (next 8 K): (13, 9) is
  // 128 + 512 + 1 * 16 + 5 * 2 = 666.
  auto D = MatrixDescriptor::decode(makeDescriptor(0, 512, 128, 0));
  EXPECT_EQ(D.getBitAddress(13, 9, 16, true), 666u * 8);
  // 64B, LBO 512 (next 32 M), SBO 1024 (next 8 K): (40, 10) is
  // 2 * 64 + 512 + 1024 + 8 * 2 = 1680; bits 7-8 are 1, chunk 1 -> 0: 1664.
  auto S = MatrixDescriptor::decode(makeDescriptor(0, 512, 1024, 2));
  EXPECT_EQ(S.getBitAddress(40, 10, 16, true), 1664u * 8);
}

} // namespace
