//===- CooperativeLaunchTest.cpp - CTAs that wait for each other ----------===//
//
// Cooperative launches through the device API: CTAs spinning on flags that
// other CTAs set complete even on one host thread (all CTAs are live, and a
// waiting CTA yields to the others), where a normal launch of the same
// kernel cannot; a CTA that exits while others wait for it is a grid
// deadlock, reported as a launch failure; launches larger than the
// co-residency limit are refused; %envreg1:%envreg2 hold the grid barrier
// workspace only in cooperative launches.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Device/Context.h"
#include "ptxjit/Runtime/Launch.h"
#include "gtest/gtest.h"
#include <vector>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::device;

namespace {

// Thread 0 of CTA i waits until flags[i+1] is nonzero and then sets
// flags[i] = flags[i+1] + 1; the last CTA sets its flag to 1 at once. CTA
// `skip` exits without setting its flag. So flags[i] = nctaid - i when no
// CTA is skipped, and CTA 0 waits for every other CTA.
const char *FlagChainPTX = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry flagChain(.param .u64 flags, .param .u32 skip)
{
  .reg .b32 %r<9>;
  .reg .b64 %rd<6>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [flags];
  ld.param.u32 %r8, [skip];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %nctaid.x;
  mov.u32 %r7, %tid.x;
  setp.ne.u32 %p2, %r7, 0;
  @%p2 bra DONE;
  setp.eq.u32 %p2, %r1, %r8;
  @%p2 bra DONE;
  add.u32 %r3, %r1, 1;
  mov.u32 %r5, 0;
  setp.ge.u32 %p1, %r3, %r2;
  @%p1 bra SET;
  mul.wide.u32 %rd2, %r3, 4;
  add.u64 %rd3, %rd1, %rd2;
WAIT:
  ld.acquire.gpu.global.u32 %r5, [%rd3];
  setp.eq.u32 %p1, %r5, 0;
  @%p1 bra WAIT;
SET:
  add.u32 %r6, %r5, 1;
  mul.wide.u32 %rd4, %r1, 4;
  add.u64 %rd5, %rd1, %rd4;
  st.release.gpu.global.u32 [%rd5], %r6;
DONE:
  ret;
}
// out = {%envreg0, %envreg1, %envreg2, the first word of the workspace
// (0 when there is none)}
.visible .entry envRegs(.param .u64 out)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<6>;
  .reg .pred %p1;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %envreg0;
  mov.u32 %r2, %envreg1;
  mov.u32 %r3, %envreg2;
  st.global.u32 [%rd1], %r1;
  st.global.u32 [%rd1+4], %r2;
  st.global.u32 [%rd1+8], %r3;
  cvt.u64.u32 %rd2, %r3;
  cvt.u64.u32 %rd3, %r2;
  shl.b64 %rd3, %rd3, 32;
  or.b64 %rd4, %rd3, %rd2;
  mov.u32 %r4, 0;
  setp.eq.u64 %p1, %rd4, 0;
  @%p1 bra STORE;
  ld.u32 %r4, [%rd4];
STORE:
  st.global.u32 [%rd1+12], %r4;
  ret;
}
)";

::testing::AssertionResult ok(Error E) {
  if (!E)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << toString(std::move(E));
}

struct Fixture {
  std::unique_ptr<Context> C;
  Kernel *Chain = nullptr;
  Kernel *Env = nullptr;

  Fixture() {
    Expected<std::unique_ptr<Context>> Ctx = Context::create();
    EXPECT_TRUE(ok(Ctx.takeError()));
    if (!Ctx)
      return;
    C = std::move(*Ctx);
    Expected<device::Module &> M = C->loadPTX(FlagChainPTX);
    EXPECT_TRUE(ok(M.takeError()));
    if (!M)
      return;
    Expected<Kernel &> K = M->getKernel("flagChain");
    EXPECT_TRUE(ok(K.takeError()));
    Chain = K ? &*K : nullptr;
    Expected<Kernel &> E = M->getKernel("envRegs");
    EXPECT_TRUE(ok(E.takeError()));
    Env = E ? &*E : nullptr;
  }

  uint32_t *zeroed(size_t N) {
    Expected<void *> P = C->allocate(N * 4);
    EXPECT_TRUE(ok(P.takeError()));
    if (!P)
      return nullptr;
    EXPECT_TRUE(ok(C->set(*P, 0, N * 4)));
    return static_cast<uint32_t *>(*P);
  }
  std::vector<uint32_t> download(const uint32_t *P, size_t N) {
    std::vector<uint32_t> V(N);
    EXPECT_TRUE(ok(C->copy(V.data(), P, N * 4)));
    return V;
  }
  /// Launches flagChain over NumCTAs CTAs of 32 threads.
  Error launchChain(uint32_t NumCTAs, uint32_t *Flags, uint32_t Skip,
                    const LaunchOptions &LO) {
    void *Args[] = {&Flags, &Skip};
    if (Error E = C->launch(*Chain, {NumCTAs, 1, 1}, {32, 1, 1}, 0, nullptr,
                            Args, LO))
      return E;
    return C->synchronize();
  }
};

ErrorCode codeOf(Error E) { return device::takeError(std::move(E)).first; }

TEST(CooperativeLaunchTest, CTAsWaitingForLaterCTAsCompleteOnOneThread) {
  Fixture F;
  ASSERT_TRUE(F.Chain);
  const uint32_t N = 12;
  uint32_t *Flags = F.zeroed(N);
  LaunchOptions LO;
  LO.Cooperative = true;
  LO.NumThreads = 1;
  ASSERT_TRUE(ok(F.launchChain(N, Flags, /*Skip=*/N, LO)));
  std::vector<uint32_t> V = F.download(Flags, N);
  for (uint32_t I = 0; I != N; ++I)
    EXPECT_EQ(V[I], N - I) << "CTA " << I;
}

TEST(CooperativeLaunchTest, CTAsWaitingForEachOtherOnSeveralThreads) {
  Fixture F;
  ASSERT_TRUE(F.Chain);
  const uint32_t N = 40;
  uint32_t *Flags = F.zeroed(N);
  LaunchOptions LO;
  LO.Cooperative = true;
  LO.NumThreads = 3;
  ASSERT_TRUE(ok(F.launchChain(N, Flags, /*Skip=*/N, LO)));
  std::vector<uint32_t> V = F.download(Flags, N);
  for (uint32_t I = 0; I != N; ++I)
    EXPECT_EQ(V[I], N - I) << "CTA " << I;
}

TEST(CooperativeLaunchTest, ANormalLaunchOfTheSameKernelCannotFinish) {
  // On one thread CTA 0 runs first and waits for CTAs that never start:
  // only the time limit ends it. This is what cooperative launches fix.
  Fixture F;
  ASSERT_TRUE(F.Chain);
  uint32_t *Flags = F.zeroed(4);
  LaunchOptions LO;
  LO.NumThreads = 1;
  LO.TimeoutSeconds = 0.3;
  EXPECT_EQ(codeOf(F.launchChain(4, Flags, /*Skip=*/4, LO)),
            ErrorCode::LaunchTimeout);
}

TEST(CooperativeLaunchTest, ACTAExitingWhileOthersWaitIsAGridDeadlock) {
  Fixture F;
  ASSERT_TRUE(F.Chain);
  const uint32_t N = 6;
  uint32_t *Flags = F.zeroed(N);
  LaunchOptions LO;
  LO.Cooperative = true;
  LO.NumThreads = 2;
  LO.GridStallSeconds = 0.2;
  // CTA 3 exits without its flag: CTAs 0-2 wait forever, 4 and 5 finish.
  auto [Code, Message] =
      device::takeError(F.launchChain(N, Flags, /*Skip=*/3, LO));
  EXPECT_EQ(Code, ErrorCode::LaunchFailure);
  EXPECT_NE(Message.find("grid deadlock in kernel 'flagChain'"),
            std::string::npos)
      << Message;
  EXPECT_NE(Message.find("waits in a loop at line"), std::string::npos)
      << Message;
  // The launch failure is sticky, as on a GPU.
  EXPECT_TRUE(F.C->hasStickyError());
}

TEST(CooperativeLaunchTest, TooManyCTAsAreRefusedAtLaunch) {
  Fixture F;
  ASSERT_TRUE(F.Chain);
  uint64_t Max = uint64_t(getMaxActiveCTAsPerMultiprocessor(32, 0)) *
                 getNumMultiprocessors();
  ASSERT_EQ(getMaxActiveCTAsPerMultiprocessor(32, 0), 32u);
  uint32_t *Flags = F.zeroed(Max + 1);
  uint32_t Skip = 0;
  void *Args[] = {&Flags, &Skip};
  LaunchOptions LO;
  LO.Cooperative = true;
  EXPECT_EQ(codeOf(F.C->launch(*F.Chain, {uint32_t(Max + 1), 1, 1}, {32, 1, 1},
                               0, nullptr, Args, LO)),
            ErrorCode::CooperativeLaunchTooLarge);
  // Refused, not failed: the context goes on, and the largest grid runs.
  EXPECT_FALSE(F.C->hasStickyError());
  ASSERT_TRUE(ok(F.launchChain(uint32_t(Max), Flags, uint32_t(Max), LO)));
  std::vector<uint32_t> V = F.download(Flags, Max);
  EXPECT_EQ(V[0], Max);
  EXPECT_EQ(V[Max - 1], 1u);
}

TEST(CooperativeLaunchTest, OccupancyFollowsWarpsBlocksAndSharedMemory) {
  EXPECT_EQ(getMaxActiveCTAsPerMultiprocessor(256, 0), 8u); // 64 warps
  EXPECT_EQ(getMaxActiveCTAsPerMultiprocessor(1024, 0), 2u);
  EXPECT_EQ(getMaxActiveCTAsPerMultiprocessor(16, 0), 32u);        // 32 CTAs
  EXPECT_EQ(getMaxActiveCTAsPerMultiprocessor(64, 48 * 1024), 3u); // 164 KiB
  EXPECT_EQ(getMaxActiveCTAsPerMultiprocessor(0, 0), 0u);
  EXPECT_EQ(getMaxActiveCTAsPerMultiprocessor(2048, 0), 0u);
}

TEST(CooperativeLaunchTest, EnvRegsHoldTheWorkspaceOnlyWhenCooperative) {
  Fixture F;
  ASSERT_TRUE(F.Env);
  uint32_t *Out = F.zeroed(4);
  void *Args[] = {&Out};
  ASSERT_TRUE(ok(F.C->launch(*F.Env, {1, 1, 1}, {1, 1, 1}, 0, nullptr, Args)));
  ASSERT_TRUE(ok(F.C->synchronize()));
  EXPECT_EQ(F.download(Out, 4), (std::vector<uint32_t>{0, 0, 0, 0}));

  LaunchOptions LO;
  LO.Cooperative = true;
  ASSERT_TRUE(
      ok(F.C->launch(*F.Env, {1, 1, 1}, {1, 1, 1}, 0, nullptr, Args, LO)));
  ASSERT_TRUE(ok(F.C->synchronize()));
  std::vector<uint32_t> V = F.download(Out, 4);
  EXPECT_EQ(V[0], 0u);
  EXPECT_NE(uint64_t(V[1]) << 32 | V[2], 0u) << "no workspace address";
  EXPECT_EQ(V[3], 0u) << "the workspace starts zeroed";
}

} // namespace
