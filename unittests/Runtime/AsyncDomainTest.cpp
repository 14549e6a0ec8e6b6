//===- AsyncDomainTest.cpp - Waits for mbarrier phases and the cluster ----===//
//
// Warps as fibers of a CTAScheduler that call the runtime's entry points as
// generated code does: a lane whose phase is incomplete waits (the warp
// blocks) until the phase completes, or until nothing else can run, when
// its wait times out; waiting again with nothing moved is a deadlock.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Runtime/AsyncDomain.h"
#include "ptxjit/ABI/AsyncABI.h"
#include "ptxjit/ABI/RuntimeEntryPoints.h"
#include "ptxjit/Runtime/CTAScheduler.h"
#include "gtest/gtest.h"
#include <string>
#include <vector>

using namespace ptxjit;
using namespace ptxjit::runtime;

namespace {

struct Shared {
  alignas(16) uint64_t Words[8] = {};
  std::string Trace;
};

struct Warp {
  CTAScheduler *S;
  unsigned Id;
  Shared *Sh;
};

Warp &warp(void *Ctx) { return *static_cast<Warp *>(Ctx); }

uint64_t addr(const uint64_t *P) { return reinterpret_cast<uintptr_t>(P); }

/// mbarrier Op with Count on Bar by Lanes; returns lane 0's state.
uint64_t mbarrier(Warp &W, MBarrierOp Op, uint64_t *Bar, uint32_t Count,
                  LaneMask Lanes = 1) {
  uint64_t Addrs[32], States[32] = {};
  uint32_t Counts[32];
  for (unsigned L = 0; L != 32; ++L)
    Addrs[L] = addr(Bar), Counts[L] = Count;
  ptxjit_rt_mbarrier(W.S, uint32_t(Op), Lanes, Addrs, Counts, States, 1);
  return States[0];
}

/// mbarrier.try_wait.parity as the generated code runs it: lanes whose
/// phase is incomplete wait until the runtime releases them, then come back
/// for their outcome. Returns the lanes whose phase completed.
uint32_t tryWaitParity(Warp &W, uint64_t *Bar, bool Parity, LaneMask Lanes) {
  uint64_t Addrs[32], Phases[32];
  for (unsigned L = 0; L != 32; ++L)
    Addrs[L] = addr(Bar), Phases[L] = Parity;
  uint32_t Op = uint32_t(MBarrierWaitOp::Parity);
  uint32_t Done = ptxjit_rt_mbarrier_wait(W.S, Op, Lanes, 0, Addrs, Phases, 42);
  if (LaneMask Parked = Lanes & ~Done) {
    LaneMask Back = 0;
    while (Back != Parked)
      Back |= W.S->wait(Parked & ~Back);
    Done = ptxjit_rt_mbarrier_wait(W.S, Op, Lanes, Parked, Addrs, Phases, 42);
  }
  return Done;
}

class AsyncDomainTest : public ::testing::Test {
protected:
  FiberStackPool Pool{64 * 1024};
  CTAScheduler S{Pool};
  AsyncDomain D;
  Shared Sh;
  std::vector<Warp> Warps;
  std::vector<void *> Ctxs;

  std::string run(WarpFn Fn, unsigned NumThreads) {
    for (unsigned W = 0; W < (NumThreads + 31) / 32; ++W)
      Warps.push_back({&S, W, &Sh});
    for (Warp &W : Warps)
      Ctxs.push_back(&W);
    CTALaunch L;
    L.Fn = Fn;
    L.WarpCtxs = Ctxs;
    L.NumThreads = NumThreads;
    L.KernelName = "k";
    CTAScheduler *Self = &S;
    char *Base = reinterpret_cast<char *>(Sh.Words);
    D.reset(Self, NumThreads, Base, sizeof Sh.Words);
    return llvm::toString(S.run(L));
  }
};

// Warp 0 waits for the phase warp 1 completes: it blocks until then.
TEST_F(AsyncDomainTest, WaitEndsWhenThePhaseCompletes) {
  EXPECT_EQ(run(
                [](void *Ctx) {
                  Warp &W = warp(Ctx);
                  uint64_t *Bar = &W.Sh->Words[0];
                  if (W.Id == 0) {
                    mbarrier(W, MBarrierOp::Init, Bar, 2);
                    W.S->yield();
                    W.Sh->Trace += "wait ";
                    uint32_t Done = tryWaitParity(W, Bar, 0, ~0u);
                    W.Sh->Trace += Done == ~0u ? "done " : "timed out ";
                    return;
                  }
                  W.S->yield();
                  W.Sh->Trace += "arrive ";
                  mbarrier(W, MBarrierOp::Arrive, Bar, 1);
                  W.S->yield();
                  W.Sh->Trace += "arrive ";
                  mbarrier(W, MBarrierOp::Arrive, Bar, 1);
                },
                64),
            "");
  EXPECT_EQ(Sh.Trace, "wait arrive arrive done ");
}

// Lanes of one warp wait for different phases: each group is released by
// its own completion.
TEST_F(AsyncDomainTest, LanesOfAWarpWaitApart) {
  EXPECT_EQ(run(
                [](void *Ctx) {
                  Warp &W = warp(Ctx);
                  uint64_t *A = &W.Sh->Words[0], *B = &W.Sh->Words[1];
                  if (W.Id == 0) {
                    mbarrier(W, MBarrierOp::Init, A, 1);
                    mbarrier(W, MBarrierOp::Init, B, 1);
                    uint32_t DoneA = tryWaitParity(W, A, 0, 0x0000ffff);
                    W.Sh->Trace += DoneA == 0xffff ? "A " : "A? ";
                    uint32_t DoneB = tryWaitParity(W, B, 0, 0xffff0000);
                    W.Sh->Trace += DoneB == 0xffff0000 ? "B " : "B? ";
                    return;
                  }
                  W.S->yield();
                  mbarrier(W, MBarrierOp::Arrive, A, 1);
                  W.S->yield();
                  mbarrier(W, MBarrierOp::Arrive, B, 1);
                },
                64),
            "");
  EXPECT_EQ(Sh.Trace, "A B ");
}

// Nobody arrives: the wait times out once (try_wait returns false), and
// waiting again with nothing moved is a deadlock naming the line and the
// object.
TEST_F(AsyncDomainTest, WaitThatCannotCompleteIsADeadlock) {
  std::string Message = run(
      [](void *Ctx) {
        Warp &W = warp(Ctx);
        uint64_t *Bar = &W.Sh->Words[2];
        mbarrier(W, MBarrierOp::Init, Bar, 64);
        mbarrier(W, MBarrierOp::Arrive, Bar, 1);
        while (tryWaitParity(W, Bar, 0, ~0u) != ~0u)
          W.Sh->Trace += "timeout ";
      },
      32);
  EXPECT_EQ(Sh.Trace, "timeout ");
  EXPECT_EQ(Message, "deadlock in kernel 'k', CTA (0,0,0): warp 0 lanes 0-31 "
                     "wait for the phase of parity 0 of the mbarrier at "
                     "shared 0x10 (line 42)");
}

// The expected count of 3 gets two arrivals and a complete-tx: the
// transactions hold the phase until their bytes arrive.
TEST_F(AsyncDomainTest, TransactionCountHoldsThePhase) {
  EXPECT_EQ(run(
                [](void *Ctx) {
                  Warp &W = warp(Ctx);
                  uint64_t *Bar = &W.Sh->Words[3];
                  if (W.Id == 0) {
                    mbarrier(W, MBarrierOp::Init, Bar, 1);
                    mbarrier(W, MBarrierOp::ArriveExpectTx, Bar, 256);
                    uint32_t Done = tryWaitParity(W, Bar, 0, 1);
                    W.Sh->Trace += Done ? "done" : "timed out";
                    return;
                  }
                  for (int I = 0; I < 4; ++I) {
                    W.S->yield();
                    W.Sh->Trace += "tx ";
                    mbarrier(W, MBarrierOp::CompleteTx, Bar, 64);
                  }
                },
                64),
            "");
  EXPECT_EQ(Sh.Trace, "tx tx tx tx done");
}

// barrier.cluster with one CTA: arrive does not wait; wait passes once all
// threads arrived; an exit counts as an arrival no longer needed.
TEST_F(AsyncDomainTest, ClusterBarrier) {
  EXPECT_EQ(run(
                [](void *Ctx) {
                  Warp &W = warp(Ctx);
                  if (W.Id == 2)
                    return; // exits: the barrier does not wait for it
                  ptxjit_rt_cluster_arrive(W.S, ~0u, 3);
                  W.Sh->Trace += "a" + std::to_string(W.Id) + " ";
                  W.S->yield();
                  uint32_t Pass = ptxjit_rt_cluster_wait(W.S, ~0u, 0, 4);
                  if (Pass != ~0u) {
                    LaneMask Back = 0;
                    while (Back != (~0u & ~Pass))
                      Back |= W.S->wait(~Pass & ~Back);
                    Pass |= ptxjit_rt_cluster_wait(W.S, ~0u, Back, 4);
                  }
                  W.Sh->Trace += "w" + std::to_string(W.Id) + " ";
                },
                96),
            "");
  EXPECT_EQ(Sh.Trace, "a0 a1 w0 w1 ");
}

TEST_F(AsyncDomainTest, ClusterWaitWithoutArriveIsAnError) {
  std::string Message = run(
      [](void *Ctx) {
        Warp &W = warp(Ctx);
        ptxjit_rt_cluster_wait(W.S, 0x3, 0, 9);
      },
      32);
  EXPECT_EQ(Message, "kernel 'k', CTA (0,0,0), warp 0: lanes 0-1 wait at "
                     "barrier.cluster.wait without having arrived at the "
                     "barrier");
}

TEST_F(AsyncDomainTest, OperationOnUninitializedObjectIsAnError) {
  std::string Message = run(
      [](void *Ctx) {
        Warp &W = warp(Ctx);
        mbarrier(W, MBarrierOp::Arrive, &W.Sh->Words[4], 1);
      },
      32);
  EXPECT_NE(Message.find("mbarrier.arrive (line 1), lane 0"), std::string::npos)
      << Message;
  EXPECT_NE(Message.find("the mbarrier object is not initialized"),
            std::string::npos)
      << Message;
}

} // namespace
