//===- DeviceArenaTest.cpp - Device allocations and their descriptions ----===//

#include "ptxjit/Runtime/DeviceArena.h"
#include "gtest/gtest.h"
#include <cstring>
#include <string>

using namespace ptxjit;
using namespace ptxjit::runtime;

namespace {

TEST(DeviceArenaTest, AllocationsAreInTheRangeAlignedZeroedAndApart) {
  void *A = allocateDevice(256, 256);
  void *B = allocateDevice(100, 256);
  ASSERT_TRUE(A && B);
  uint64_t PA = uintptr_t(A), PB = uintptr_t(B);
  EXPECT_TRUE(isInDeviceArena(PA));
  EXPECT_TRUE(isInDeviceArena(PB));
  EXPECT_EQ(PA % 256, 0u);
  EXPECT_EQ(PB % 256, 0u);
  // At least a gigabyte of unmapped address space between them.
  uint64_t Low = std::min(PA, PB), High = std::max(PA, PB);
  EXPECT_GE(High - Low, uint64_t(1) << 30);
  for (unsigned I = 0; I != 256; ++I)
    EXPECT_EQ(static_cast<unsigned char *>(A)[I], 0);
  std::memset(A, 1, 256);
  freeDevice(A);
  freeDevice(B);
}

TEST(DeviceArenaTest, AddressesAreDescribedByTheNearestAllocation) {
  void *A = allocateDevice(256, 256);
  ASSERT_TRUE(A);
  setDeviceAllocationName(A, "buffer 2 (`f32[64]`)");
  uint64_t P = uintptr_t(A);
  EXPECT_EQ(describeDeviceAddress(P + 16, 4),
            "is at offset 16 of buffer 2 (`f32[64]`)");
  // 4352 bytes from the start of 256 bytes: 4096 past the end.
  EXPECT_EQ(describeDeviceAddress(P + 4352, 4),
            "is 4096 bytes past the end of buffer 2 (`f32[64]`)");
  EXPECT_EQ(describeDeviceAddress(P + 254, 4),
            "runs 2 bytes past the end of buffer 2 (`f32[64]`)");
  EXPECT_EQ(describeDeviceAddress(P - 8, 4),
            "is 8 bytes before the start of buffer 2 (`f32[64]`)");
  EXPECT_EQ(describeDeviceAddress(16, 4), "is a null pointer (offset 16)");
  EXPECT_TRUE(isAllocatedMemory(P, 256));
  EXPECT_FALSE(isAllocatedMemory(P + 1, 256));
  freeDevice(A);
  EXPECT_FALSE(isAllocatedMemory(P, 1));
}

TEST(DeviceArenaTest, RegisteredHostMemoryIsReachable) {
  static char Host[64];
  uint64_t P = uintptr_t(Host);
  EXPECT_FALSE(isAllocatedMemory(P, 8));
  registerHostMemory(Host, sizeof Host);
  EXPECT_TRUE(isAllocatedMemory(P + 56, 8));
  EXPECT_FALSE(isAllocatedMemory(P + 60, 8));
  unregisterHostMemory(Host);
  EXPECT_FALSE(isAllocatedMemory(P, 8));
}

} // namespace
