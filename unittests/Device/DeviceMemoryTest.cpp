//===- DeviceMemoryTest.cpp - Allocations a kernel can reach --------------===//

#include "ptxjit/Device/DeviceMemory.h"
#include "ptxjit/Device/DeviceError.h"
#include "gtest/gtest.h"
#include <cstring>

using namespace llvm;
using namespace ptxjit::device;

namespace {

TEST(DeviceMemoryTest, AllocationsAreZeroedAlignedAndKnown) {
  DeviceMemory Mem;
  Expected<void *> A = Mem.allocate(1000);
  ASSERT_TRUE(!!A);
  auto *Bytes = static_cast<unsigned char *>(*A);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(Bytes) % DeviceMemory::Alignment, 0u);
  for (unsigned I = 0; I != 1000; ++I)
    ASSERT_EQ(Bytes[I], 0);
  std::memset(Bytes, 0xab, 1000);
  EXPECT_EQ(Mem.getAllocatedBytes(), 1000u);

  // Any pointer into it finds it; one past the end does not.
  std::optional<Allocation> Found = Mem.find(Bytes + 999);
  ASSERT_TRUE(Found.has_value());
  EXPECT_EQ(Found->Base, *A);
  EXPECT_EQ(Found->Size, 1000u);
  EXPECT_FALSE(Mem.find(Bytes + 1000).has_value());
  int OnTheStack = 0;
  EXPECT_FALSE(Mem.find(&OnTheStack).has_value());

  EXPECT_FALSE(Mem.checkRange(Bytes + 10, 990));
  Error Past = Mem.checkRange(Bytes + 10, 991);
  EXPECT_EQ(takeError(std::move(Past)).first, ErrorCode::InvalidValue);
}

TEST(DeviceMemoryTest, FreeAcceptsNullAndRejectsForeignPointers) {
  DeviceMemory Mem;
  EXPECT_FALSE(Mem.free(nullptr));
  Expected<void *> A = Mem.allocate(64);
  ASSERT_TRUE(!!A);
  // Inside an allocation is not its start.
  Error Inside = Mem.free(static_cast<char *>(*A) + 8);
  EXPECT_EQ(takeError(std::move(Inside)).first,
            ErrorCode::InvalidDevicePointer);
  int Host = 0;
  EXPECT_EQ(takeError(Mem.free(&Host)).first, ErrorCode::InvalidDevicePointer);
  EXPECT_FALSE(Mem.free(*A));
  EXPECT_EQ(Mem.getAllocatedBytes(), 0u);
  // Freed twice.
  EXPECT_EQ(takeError(Mem.free(*A)).first, ErrorCode::InvalidDevicePointer);
  EXPECT_FALSE(Mem.find(*A).has_value());
}

TEST(DeviceMemoryTest, ZeroSizedAllocationsAreDistinct) {
  DeviceMemory Mem;
  Expected<void *> A = Mem.allocate(0), B = Mem.allocate(0);
  ASSERT_TRUE(A && B);
  EXPECT_NE(*A, *B);
  EXPECT_TRUE(Mem.find(*A).has_value());
  EXPECT_FALSE(Mem.free(*A));
  EXPECT_FALSE(Mem.free(*B));
}

TEST(DeviceErrorTest, CodesAreCUDAs) {
  EXPECT_EQ(int(ErrorCode::IllegalAddress), 700);
  EXPECT_EQ(int(ErrorCode::Assert), 710);
  EXPECT_EQ(int(ErrorCode::InvalidConfiguration), 9);
  EXPECT_EQ(getErrorName(ErrorCode::Success), "cudaSuccess");
  EXPECT_EQ(getErrorName(ErrorCode::LaunchFailure), "cudaErrorLaunchFailure");
  EXPECT_EQ(getErrorString(ErrorCode::IllegalAddress),
            "an illegal memory access was encountered");
  EXPECT_TRUE(isStickyError(ErrorCode::IllegalAddress));
  EXPECT_FALSE(isStickyError(ErrorCode::InvalidValue));
  // Errors without a code get the default.
  Error E = withErrorCode(createStringError(inconvertibleErrorCode(), "x"),
                          ErrorCode::InvalidPtx);
  auto [Code, Message] = takeError(std::move(E));
  EXPECT_EQ(Code, ErrorCode::InvalidPtx);
  EXPECT_EQ(Message, "x");
}

} // namespace
