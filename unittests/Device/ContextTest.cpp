//===- ContextTest.cpp - The device API on its own ------------------------===//
//
// Hand-written PTX kernels loaded, launched and checked through the device
// API alone: several modules and kernels in one context, module variables
// shared between kernels, hundreds of launches, streams used from several
// host threads, launch errors with their codes, and kernel faults that
// leave a sticky error in their context while the process and a new
// context go on working.
//
//===----------------------------------------------------------------------===//

#include "DeviceTestUtil.h"
#include "ptxjit/Device/Context.h"
#include "ptxjit/Runtime/Launch.h"
#include "gtest/gtest.h"
#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::device;
using namespace ptxjit::device::devtest;

namespace {

// A counter in global memory, a pointer to it initialized with its
// address, and kernels that share both.
const char *CounterPTX = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .global .align 4 .u32 counter = 5;
.visible .global .align 8 .u64 counterAddress = counter;
.visible .entry bump()
{
  .reg .b32 %r<2>;
  ld.global.u32 %r1, [counter];
  add.u32 %r1, %r1, 1;
  st.global.u32 [counter], %r1;
  ret;
}
.visible .entry readThroughPointer(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  ld.global.u64 %rd2, [counterAddress];
  ld.global.u32 %r1, [%rd2];
  st.global.u32 [%rd1], %r1;
  ret;
}
)";



/// Allocates N u32s on the device initialized with Values.
uint32_t *upload(Context &C, const std::vector<uint32_t> &Values) {
  Expected<void *> P = C.allocate(Values.size() * 4);
  EXPECT_TRUE(ok(P));
  if (!P)
    return nullptr;
  EXPECT_TRUE(ok(C.copy(*P, Values.data(), Values.size() * 4)));
  return static_cast<uint32_t *>(*P);
}

std::vector<uint32_t> download(Context &C, const uint32_t *P, size_t N) {
  std::vector<uint32_t> Values(N);
  EXPECT_TRUE(ok(C.copy(Values.data(), P, N * 4)));
  return Values;
}

TEST(ContextTest, RunsKernelsOfSeveralModules) {
  auto C = makeContext();
  ASSERT_TRUE(C);
  Expected<device::Module &> A = C->loadPTX(AddOnePTX, "addone.ptx");
  ASSERT_TRUE(ok(A));
  Expected<device::Module &> B = C->loadPTX(CounterPTX, "counter.ptx");
  ASSERT_TRUE(ok(B));
  EXPECT_EQ(A->getKernelNames(), (std::vector<StringRef>{"addOne", "scale"}));

  // 100 elements, blocks of 64: the last block is partial.
  std::vector<uint32_t> Init(100);
  std::iota(Init.begin(), Init.end(), 0);
  uint32_t *P = upload(*C, Init);
  uint32_t N = 100;
  void *AddArgs[] = {&P, &N};
  Expected<Kernel &> AddOne = A->getKernel("addOne");
  ASSERT_TRUE(ok(AddOne));
  ASSERT_TRUE(
      ok(C->launch(*AddOne, {2, 1, 1}, {64, 1, 1}, 0, nullptr, AddArgs)));
  // Only the first 64 are scaled.
  uint32_t K = 3;
  void *ScaleArgs[] = {&P, &K};
  Expected<Kernel &> Scale = A->getKernel("scale");
  ASSERT_TRUE(ok(Scale));
  ASSERT_TRUE(
      ok(C->launch(*Scale, {1, 1, 1}, {64, 1, 1}, 0, nullptr, ScaleArgs)));
  ASSERT_TRUE(ok(C->synchronize()));
  std::vector<uint32_t> Out = download(*C, P, 100);
  for (uint32_t I = 0; I != 100; ++I)
    EXPECT_EQ(Out[I], I < 64 ? (I + 1) * 3 : I + 1) << "element " << I;
  EXPECT_TRUE(ok(C->free(P)));
}

TEST(ContextTest, ModuleVariablesAreSharedByItsKernelsAndTheHost) {
  auto C = makeContext();
  ASSERT_TRUE(C);
  Expected<device::Module &> M = C->loadPTX(CounterPTX);
  ASSERT_TRUE(ok(M));
  Expected<Allocation> Counter = M->getGlobal("counter");
  ASSERT_TRUE(ok(Counter));
  EXPECT_EQ(Counter->Size, 4u);
  // The initializer of counterAddress was patched with counter's address.
  Expected<Allocation> Address = M->getGlobal("counterAddress");
  ASSERT_TRUE(ok(Address));
  uint64_t Stored;
  std::memcpy(&Stored, Address->Base, 8);
  EXPECT_EQ(Stored, uint64_t(reinterpret_cast<uintptr_t>(Counter->Base)));

  Expected<Kernel &> Bump = M->getKernel("bump");
  ASSERT_TRUE(ok(Bump));
  for (int I = 0; I != 3; ++I)
    ASSERT_TRUE(ok(C->launch(*Bump, {1, 1, 1}, {1, 1, 1}, 0, nullptr, {})));
  uint32_t *Out = upload(*C, {0});
  void *Args[] = {&Out};
  Expected<Kernel &> Read = M->getKernel("readThroughPointer");
  ASSERT_TRUE(ok(Read));
  ASSERT_TRUE(ok(C->launch(*Read, {1, 1, 1}, {1, 1, 1}, 0, nullptr, Args)));
  // 5, bumped three times, seen by another kernel through the pointer.
  EXPECT_EQ(download(*C, Out, 1)[0], 8u);
  uint32_t FromHost = 0;
  ASSERT_TRUE(ok(C->copy(&FromHost, Counter->Base, 4)));
  EXPECT_EQ(FromHost, 8u);
  Expected<Allocation> Missing = M->getGlobal("nothing");
  EXPECT_EQ(codeOf(Missing), ErrorCode::InvalidSymbol);
}

TEST(ContextTest, HundredsOfLaunches) {
  auto C = makeContext();
  ASSERT_TRUE(C);
  Kernel *AddOne = loadKernel(*C, AddOnePTX, "addOne");
  ASSERT_TRUE(AddOne);
  uint32_t *P = upload(*C, std::vector<uint32_t>(256, 0));
  uint32_t N = 256;
  void *Args[] = {&P, &N};
  // Two block shapes: each is compiled once and kept.
  for (int I = 0; I != 300; ++I)
    ASSERT_TRUE(ok(C->launch(*AddOne, {I % 2 ? 2u : 4u, 1, 1},
                             {I % 2 ? 128u : 64u, 1, 1}, 0, nullptr, Args)));
  ASSERT_TRUE(ok(C->synchronize()));
  for (uint32_t V : download(*C, P, 256))
    ASSERT_EQ(V, 300u);
}

TEST(ContextTest, StreamsFromSeveralHostThreads) {
  auto C = makeContext();
  ASSERT_TRUE(C);
  Kernel *AddOne = loadKernel(*C, AddOnePTX, "addOne");
  ASSERT_TRUE(AddOne);
  constexpr unsigned NumThreads = 4, Launches = 25, N = 512;
  std::vector<std::vector<uint32_t>> Results(NumThreads);
  std::vector<std::thread> Threads;
  for (unsigned T = 0; T != NumThreads; ++T)
    Threads.emplace_back([&, T] {
      Expected<Stream &> S = C->createStream(StreamKind::NonBlocking);
      ASSERT_TRUE(ok(S));
      Expected<void *> Mem = C->allocate(N * 4);
      ASSERT_TRUE(ok(Mem));
      std::vector<uint32_t> Init(N, T * 1000);
      ASSERT_TRUE(ok(C->copyAsync(*Mem, Init.data(), N * 4, &*S)));
      uint32_t Count = N;
      void *P = *Mem;
      void *Args[] = {&P, &Count};
      for (unsigned I = 0; I != Launches; ++I)
        ASSERT_TRUE(
            ok(C->launch(*AddOne, {N / 128, 1, 1}, {128, 1, 1}, 0, &*S, Args)));
      Results[T].resize(N);
      ASSERT_TRUE(ok(C->copyAsync(Results[T].data(), *Mem, N * 4, &*S)));
      ASSERT_TRUE(ok(S->synchronize()));
      EXPECT_TRUE(S->isIdle());
      ASSERT_TRUE(ok(C->destroyStream(*S)));
      ASSERT_TRUE(ok(C->free(*Mem)));
    });
  for (std::thread &T : Threads)
    T.join();
  for (unsigned T = 0; T != NumThreads; ++T) {
    ASSERT_EQ(Results[T].size(), N);
    for (uint32_t V : Results[T])
      ASSERT_EQ(V, T * 1000 + Launches);
  }
}

TEST(ContextTest, LegacyDefaultStreamWaitsForBlockingStreams) {
  auto C = makeContext();
  ASSERT_TRUE(C);
  Kernel *AddOne = loadKernel(*C, AddOnePTX, "addOne");
  ASSERT_TRUE(AddOne);
  Expected<Stream &> S = C->createStream(StreamKind::Blocking);
  ASSERT_TRUE(ok(S));
  constexpr uint32_t N = 1 << 16;
  uint32_t *P = upload(*C, std::vector<uint32_t>(N, 0));
  uint32_t Count = N;
  void *Args[] = {&P, &Count};
  for (int I = 0; I != 20; ++I)
    ASSERT_TRUE(
        ok(C->launch(*AddOne, {N / 256, 1, 1}, {256, 1, 1}, 0, &*S, Args)));
  // A copy on the legacy default stream starts after the stream's work,
  // without synchronizing the stream by hand.
  std::vector<uint32_t> Out(N);
  ASSERT_TRUE(ok(C->copy(Out.data(), P, N * 4)));
  for (uint32_t V : Out)
    ASSERT_EQ(V, 20u);
}

TEST(ContextTest, LaunchErrorsHaveCUDACodes) {
  auto C = makeContext();
  ASSERT_TRUE(C);
  Expected<device::Module &> M = C->loadPTX(AddOnePTX);
  ASSERT_TRUE(ok(M));
  Expected<Kernel &> AddOne = M->getKernel("addOne");
  ASSERT_TRUE(ok(AddOne));
  uint32_t *P = upload(*C, {0});
  uint32_t N = 1;
  void *Args[] = {&P, &N};
  EXPECT_EQ(
      codeOf(C->launch(*AddOne, {1, 1, 1}, {2048, 1, 1}, 0, nullptr, Args)),
      ErrorCode::InvalidConfiguration);
  EXPECT_EQ(codeOf(C->launch(*AddOne, {0, 1, 1}, {32, 1, 1}, 0, nullptr, Args)),
            ErrorCode::InvalidConfiguration);
  EXPECT_EQ(codeOf(C->launch(*AddOne, {1, 1, 1}, {32, 1, 1}, 64 * 1024, nullptr,
                             Args)),
            ErrorCode::InvalidValue);
  EXPECT_EQ(
      codeOf(C->launch(*AddOne, {1, 1, 1}, {32, 1, 1}, 0, nullptr, nullptr)),
      ErrorCode::InvalidValue);
  Expected<Kernel &> Missing = M->getKernel("nope");
  EXPECT_EQ(codeOf(Missing), ErrorCode::InvalidDeviceFunction);
  // None of these is sticky: the context still works.
  EXPECT_FALSE(C->hasStickyError());
  ASSERT_TRUE(ok(C->launch(*AddOne, {1, 1, 1}, {32, 1, 1}, 0, nullptr, Args)));
  EXPECT_EQ(download(*C, P, 1)[0], 1u);
}

// cudaDeviceSetLimit's limits: CUDA's defaults, values kept, a stack size
// out of range rejected and the old one kept.
TEST(ContextTest, LimitsStartAtCUDAsDefaultsAndKeepWhatIsSet) {
  auto C = makeContext();
  ASSERT_TRUE(C);
  EXPECT_EQ(C->getLimit(Limit::StackSize), 1024u);
  EXPECT_EQ(C->getLimit(Limit::PrintfFifoSize), 1u << 20);
  EXPECT_EQ(C->getLimit(Limit::MallocHeapSize), 8u << 20);
  ASSERT_TRUE(ok(C->setLimit(Limit::StackSize, 4096)));
  ASSERT_TRUE(ok(C->setLimit(Limit::MallocHeapSize, 1 << 24)));
  EXPECT_EQ(C->getLimit(Limit::StackSize), 4096u);
  EXPECT_EQ(C->getLimit(Limit::MallocHeapSize), 1u << 24);
  EXPECT_EQ(codeOf(C->setLimit(Limit::StackSize, 0)), ErrorCode::InvalidValue);
  EXPECT_EQ(codeOf(C->setLimit(Limit::StackSize, 512 * 1024 + 1)),
            ErrorCode::InvalidValue);
  EXPECT_EQ(C->getLimit(Limit::StackSize), 4096u);
  ContextOptions Opts;
  Opts.StackSize = 0;
  Expected<std::unique_ptr<Context>> Bad = Context::create(Opts);
  EXPECT_EQ(codeOf(Bad), ErrorCode::InvalidValue);
}

TEST(ContextTest, BadPTXIsAnInvalidPtxErrorWithItsDiagnostics) {
  auto C = makeContext();
  ASSERT_TRUE(C);
  Expected<device::Module &> M =
      C->loadPTX(".version 8.0\n.target sm_80\n.address_size 64\n"
                 ".visible .entry k()\n{\n  frobnicate.u32 %r1;\n}\n",
                 "bad.ptx");
  ASSERT_FALSE(!!M);
  auto [Code, Message] = device::takeError(M.takeError());
  EXPECT_EQ(Code, ErrorCode::InvalidPtx);
  EXPECT_NE(Message.find("bad.ptx:6:"), std::string::npos) << Message;
}

TEST(ContextTest, AFaultIsStickyAndANewContextWorks) {
  auto C = makeContext();
  ASSERT_TRUE(C);
  Kernel *Store = loadKernel(*C, FaultPTX, "storeTo");
  ASSERT_TRUE(Store);
  // An address in the first page, which is never mapped.
  void *Wild = reinterpret_cast<void *>(uintptr_t(0x40));
  void *Args[] = {&Wild};
  // The launch is queued; the fault comes back from synchronization.
  ASSERT_TRUE(ok(C->launch(*Store, {4, 1, 1}, {32, 1, 1}, 0, nullptr, Args)));
  auto [Code, Message] = device::takeError(C->synchronize());
  EXPECT_EQ(Code, ErrorCode::IllegalAddress);
  // The report names the access, the lanes and the address.
  EXPECT_NE(Message.find("null pointer global store of 4 bytes in kernel "
                         "'storeTo'"),
            std::string::npos)
      << Message;
  EXPECT_NE(Message.find(", lanes 0-31, at line 11"), std::string::npos)
      << Message;
  EXPECT_NE(Message.find("lane 0: address 0x40 is a null pointer (offset 64)"),
            std::string::npos)
      << Message;
  // From now on the context refuses work with the same error.
  EXPECT_TRUE(C->hasStickyError());
  EXPECT_EQ(codeOf(C->getStickyError()), ErrorCode::IllegalAddress);
  EXPECT_EQ(codeOf(C->launch(*Store, {1, 1, 1}, {32, 1, 1}, 0, nullptr, Args)),
            ErrorCode::IllegalAddress);
  Expected<void *> Mem = C->allocate(16);
  EXPECT_EQ(codeOf(Mem), ErrorCode::IllegalAddress);

  // Another context is unaffected, and the same kernel, given good memory,
  // runs there.
  auto D = makeContext();
  ASSERT_TRUE(D);
  Kernel *DStore = loadKernel(*D, FaultPTX, "storeTo");
  ASSERT_TRUE(DStore);
  uint32_t *P = upload(*D, {0});
  void *GoodArgs[] = {&P};
  ASSERT_TRUE(
      ok(D->launch(*DStore, {1, 1, 1}, {1, 1, 1}, 0, nullptr, GoodArgs)));
  EXPECT_EQ(download(*D, P, 1)[0], 7u);
}

TEST(ContextTest, TrapAndTimeoutHaveTheirCodes) {
  auto C = makeContext();
  ASSERT_TRUE(C);
  Kernel *Trap = loadKernel(*C, FaultPTX, "trapNow");
  ASSERT_TRUE(Trap);
  ASSERT_TRUE(ok(C->launch(*Trap, {1, 1, 1}, {32, 1, 1}, 0, nullptr, {})));
  EXPECT_EQ(codeOf(C->synchronize()), ErrorCode::LaunchFailure);

  auto D = makeContext();
  ASSERT_TRUE(D);
  Kernel *Spin = loadKernel(*D, FaultPTX, "spin");
  ASSERT_TRUE(Spin);
  LaunchOptions LO;
  LO.TimeoutSeconds = 0.2;
  ASSERT_TRUE(ok(D->launch(*Spin, {1, 1, 1}, {32, 1, 1}, 0, nullptr, {}, LO)));
  EXPECT_EQ(codeOf(D->synchronize()), ErrorCode::LaunchTimeout);
}

TEST(ContextTest, LaunchStatsCountCTAsAndWarps) {
  auto C = makeContext();
  ASSERT_TRUE(C);
  Kernel *AddOne = loadKernel(*C, AddOnePTX, "addOne");
  ASSERT_TRUE(AddOne);
  uint32_t *P = upload(*C, std::vector<uint32_t>(300, 0));
  uint32_t N = 300;
  void *Args[] = {&P, &N};
  LaunchStats Stats;
  LaunchOptions LO;
  LO.Stats = &Stats;
  // 3 CTAs of 100 threads: 4 warps each, the last partial.
  ASSERT_TRUE(
      ok(C->launch(*AddOne, {3, 1, 1}, {100, 1, 1}, 0, nullptr, Args, LO)));
  ASSERT_TRUE(ok(C->synchronize()));
  EXPECT_EQ(Stats.CTAs, 3u);
  EXPECT_EQ(Stats.Warps, 12u);
}

} // namespace
