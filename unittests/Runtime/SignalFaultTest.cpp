//===- SignalFaultTest.cpp - What a fault a signal caught is reported as --===//
//
// describeSignalFault only classifies addresses: the ones here are made up
// and never touched.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/ABI/CompiledKernel.h"
#include "ptxjit/ABI/WarpABI.h"
#include "ptxjit/Runtime/AccessChecks.h"
#include "gtest/gtest.h"
#include <string>

using namespace ptxjit;
using namespace ptxjit::runtime;

namespace {

constexpr uint64_t Page = 4096;

/// A warp whose CTA has 64 bytes of shared memory at the end of a page
/// (allocateGuarded), at Shared.
WarpContext withSharedMemory(uint64_t Shared) {
  WarpContext Ctx = {};
  Ctx.SharedBase = reinterpret_cast<char *>(Shared);
  Ctx.TotalSharedSize = 64;
  return Ctx;
}

std::string describe(const WarpContext &Ctx, uint64_t Address,
                     uint64_t StackPointer) {
  KernelLayout L;
  return describeSignalFault(&Ctx, Address, StackPointer, L, "kernel 'k'", 1024,
                             "--stack-size");
}

TEST(SignalFaultTest, PastSharedMemoryNextToAStackIsNotAStackOverflow) {
  // 64 bytes of shared memory at the end of a page (allocateGuarded), a
  // store 4096 bytes after its start: in its guard page. The worker's
  // stack happens to be mapped a few KiB away (seen in CI).
  uint64_t Shared = 0x7f0000100000 - 64;
  WarpContext Ctx = withSharedMemory(Shared);
  uint64_t Address = Shared + Page;
  std::string R = describe(Ctx, Address, Address - 0x3388);
  EXPECT_EQ(R.find("stack overflow"), std::string::npos) << R;
  EXPECT_NE(R.find("4032 bytes past the end of the CTA's 64 bytes of shared "
                   "memory"),
            std::string::npos)
      << R;
}

TEST(SignalFaultTest, AFaultAtTheStackPointerIsAStackOverflow) {
  WarpContext Ctx = withSharedMemory(0x7f0000100000 - 64);
  uint64_t StackPointer = 0x7f0000400000;
  std::string R = describe(Ctx, StackPointer - 16, StackPointer);
  EXPECT_NE(R.find("stack overflow in kernel 'k'"), std::string::npos) << R;
}

} // namespace
