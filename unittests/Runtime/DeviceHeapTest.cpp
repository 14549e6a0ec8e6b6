//===- DeviceHeapTest.cpp - The heap of device malloc and free ------------===//

#include "ptxjit/Runtime/DeviceHeap.h"
#include "ptxjit/Runtime/DeviceArena.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

using namespace ptxjit;
using namespace ptxjit::runtime;

namespace {

std::unique_ptr<DeviceHeap> makeHeap(uint64_t Size) {
  llvm::Expected<std::unique_ptr<DeviceHeap>> H = DeviceHeap::create(Size);
  if (!H) {
    ADD_FAILURE() << llvm::toString(H.takeError());
    return nullptr;
  }
  return std::move(*H);
}

TEST(DeviceHeapTest, BlocksAreAlignedInsideTheHeapAndDeviceMemory) {
  std::unique_ptr<DeviceHeap> H = makeHeap(4096);
  ASSERT_TRUE(H);
  EXPECT_EQ(H->size(), 4096u);
  for (uint64_t Size : {1, 3, 16, 17, 100}) {
    char *P = static_cast<char *>(H->allocate(Size));
    ASSERT_TRUE(P) << Size;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(P) % DeviceHeap::Alignment, 0u);
    EXPECT_GE(P, H->base());
    EXPECT_LE(P + Size, H->base() + H->size());
    // Kernels reach it as global memory, and may write all of it.
    EXPECT_TRUE(isAllocatedMemory(reinterpret_cast<uintptr_t>(P), Size));
    std::memset(P, 0xab, Size);
  }
}

TEST(DeviceHeapTest, ZeroBytesAndExhaustionGiveNull) {
  std::unique_ptr<DeviceHeap> H = makeHeap(1024);
  ASSERT_TRUE(H);
  EXPECT_EQ(H->allocate(0), nullptr);
  EXPECT_EQ(H->allocate(1025), nullptr);
  EXPECT_EQ(H->allocate(uint64_t(1) << 62), nullptr);
  // 64 blocks of 16 bytes fill it; the 65th finds no room.
  for (unsigned I = 0; I != 64; ++I)
    ASSERT_TRUE(H->allocate(16)) << I;
  EXPECT_EQ(H->getAllocatedBytes(), 1024u);
  EXPECT_EQ(H->allocate(1), nullptr);
}

TEST(DeviceHeapTest, FreedBlocksAreTakenAgainAndMerged) {
  std::unique_ptr<DeviceHeap> H = makeHeap(1024);
  ASSERT_TRUE(H);
  void *A = H->allocate(512), *B = H->allocate(512);
  ASSERT_TRUE(A && B);
  EXPECT_EQ(H->allocate(16), nullptr);
  EXPECT_TRUE(H->free(A));
  // Freeing again, NULL, or a pointer into a block is ignored.
  EXPECT_FALSE(H->free(A));
  EXPECT_FALSE(H->free(nullptr));
  EXPECT_FALSE(H->free(static_cast<char *>(B) + 16));
  EXPECT_EQ(H->allocate(512), A);
  EXPECT_TRUE(H->free(A));
  EXPECT_TRUE(H->free(B));
  EXPECT_EQ(H->getAllocatedBytes(), 0u);
  // The two freed halves are one range again: the whole heap fits.
  EXPECT_EQ(H->allocate(1024), A);
}

TEST(DeviceHeapTest, ThreadsTakeDisjointBlocks) {
  constexpr unsigned NumThreads = 8, PerThread = 500;
  constexpr uint64_t Size = 48; // 48 is a multiple of 16: no rounding
  std::unique_ptr<DeviceHeap> H = makeHeap(NumThreads * PerThread * Size);
  ASSERT_TRUE(H);
  std::vector<std::vector<char *>> Got(NumThreads);
  std::vector<std::thread> Workers;
  for (unsigned T = 0; T != NumThreads; ++T)
    Workers.emplace_back([&, T] {
      // Take, free every other one and take again, as kernels do at once.
      for (unsigned I = 0; I != PerThread; ++I)
        Got[T].push_back(static_cast<char *>(H->allocate(Size)));
      for (unsigned I = 0; I < PerThread; I += 2)
        H->free(Got[T][I]);
      for (unsigned I = 0; I < PerThread; I += 2)
        Got[T][I] = static_cast<char *>(H->allocate(Size));
      for (char *P : Got[T])
        if (P)
          std::memset(P, int(T), Size);
    });
  for (std::thread &W : Workers)
    W.join();
  std::vector<char *> All;
  for (unsigned T = 0; T != NumThreads; ++T)
    for (char *P : Got[T]) {
      // The heap holds exactly all of them.
      ASSERT_TRUE(P);
      // Nobody else wrote into this thread's block.
      EXPECT_EQ(std::count(P, P + Size, char(T)), int64_t(Size));
      All.push_back(P);
    }
  std::sort(All.begin(), All.end());
  for (size_t I = 1; I < All.size(); ++I)
    EXPECT_GE(All[I] - All[I - 1], int64_t(Size));
  EXPECT_EQ(H->getAllocatedBytes(), H->size());
}

} // namespace
