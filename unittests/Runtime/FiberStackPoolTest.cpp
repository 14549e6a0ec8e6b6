//===- FiberStackPoolTest.cpp - Stacks are mapped once and reused ---------===//

#include "ptxjit/Runtime/FiberStackPool.h"
#include "gtest/gtest.h"
#include <cstring>
#include <thread>
#include <unistd.h>

using namespace ptxjit::runtime;
using llvm::cantFail;

namespace {

TEST(FiberStackPoolTest, ReleasedStackIsReused) {
  FiberStackPool Pool;
  EXPECT_EQ(Pool.stackSize(), FiberStackPool::DefaultStackSize);
  FiberStack A = cantFail(Pool.acquire());
  ASSERT_TRUE(A);
  EXPECT_EQ(Pool.numMapped(), 1u);
  EXPECT_EQ(Pool.numFree(), 0u);
  Pool.release(A);
  EXPECT_EQ(Pool.numFree(), 1u);
  FiberStack B = cantFail(Pool.acquire());
  EXPECT_EQ(B.Base, A.Base);
  EXPECT_EQ(Pool.numMapped(), 1u);
  FiberStack C = cantFail(Pool.acquire());
  EXPECT_NE(C.Base, B.Base);
  EXPECT_EQ(Pool.numMapped(), 2u);
  Pool.release(B);
  Pool.release(C);
}

TEST(FiberStackPoolTest, SizeIsWholePagesAndWritable) {
  size_t Page = ::sysconf(_SC_PAGESIZE);
  FiberStackPool Pool(Page + 1);
  EXPECT_EQ(Pool.stackSize(), 2 * Page);
  FiberStack S = cantFail(Pool.acquire());
  EXPECT_EQ(S.Size, 2 * Page);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(S.Base) % Page, 0u);
  std::memset(S.Base, 0xab, S.Size);
  EXPECT_EQ(static_cast<unsigned char>(S.top()[-1]), 0xabu);
  Pool.release(S);
}

TEST(FiberStackPoolTest, TrimUnmapsFreeStacks) {
  FiberStackPool Pool(64 * 1024);
  FiberStack A = cantFail(Pool.acquire());
  FiberStack B = cantFail(Pool.acquire());
  Pool.release(A);
  Pool.trim();
  EXPECT_EQ(Pool.numMapped(), 1u);
  EXPECT_EQ(Pool.numFree(), 0u);
  Pool.release(B);
}

TEST(FiberStackPoolTest, SharedBetweenThreads) {
  FiberStackPool Pool(64 * 1024);
  auto Work = [&Pool] {
    for (int I = 0; I < 1000; ++I) {
      FiberStack S = cantFail(Pool.acquire());
      static_cast<char *>(S.Base)[0] = 1;
      S.top()[-1] = 1;
      Pool.release(S);
    }
  };
  std::thread T1(Work), T2(Work);
  T1.join();
  T2.join();
  EXPECT_LE(Pool.numMapped(), 2u);
  EXPECT_EQ(Pool.numFree(), Pool.numMapped());
}

} // namespace
