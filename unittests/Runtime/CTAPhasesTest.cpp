//===- CTAPhasesTest.cpp - A CTA's warps in phases between barriers -------===//
//
// Warp functions written by hand that behave as generated code for a kernel
// compiled to run in phases does (see lib/IRGen/Phases.cpp): while
// WarpContext::PhaseMode is set, a warp returns at each barrier with its
// site and barrier id; called again, it resumes past the barrier if the
// barrier completed (ResumePassed) or arrives at it again on its fiber.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Runtime/CTAErrors.h"
#include "ptxjit/Runtime/CTAScheduler.h"
#include "gtest/gtest.h"
#include <string>
#include <vector>

using namespace ptxjit;
using namespace ptxjit::runtime;

namespace {

struct PhaseWarp {
  CTAScheduler *S = nullptr;
  unsigned Id = 0;
  WarpContext Ctx = {};
  /// The barrier ids the warp syncs at, in order; then it exits.
  std::vector<uint32_t> Barriers;
  /// It reaches barrier DivergentAt while other lanes wait elsewhere.
  unsigned DivergentAt = ~0u;
  /// Barriers passed (what generated code keeps in PhaseState).
  unsigned Step = 0;
  std::vector<std::string> *Log = nullptr;
};

void phaseWarp(void *P) {
  PhaseWarp &W = *static_cast<PhaseWarp *>(P);
  auto Note = [&](const std::string &What) {
    W.Log->push_back("w" + std::to_string(W.Id) + " " + What +
                     (W.S->runsOnFibers() ? " fiber" : ""));
  };
  unsigned Step = 0;
  if (uint32_t Site = W.Ctx.ResumeSite) {
    W.Ctx.ResumeSite = 0;
    Step = W.Step;
    EXPECT_EQ(Site & ~PhaseDivergentSite, Step + 1);
    if (!W.Ctx.ResumePassed) {
      // The CTA went on with fibers: arrive at the barrier again.
      EXPECT_EQ(W.Ctx.PhaseMode, 0u);
      W.S->syncAll(W.Barriers[Step], AllLanes, 0);
    }
    ++Step;
  }
  for (; Step < W.Barriers.size(); ++Step) {
    Note("b" + std::to_string(Step));
    if (W.Ctx.PhaseMode) {
      W.Step = Step;
      W.Ctx.ResumeSite =
          (Step + 1) | (Step == W.DivergentAt ? PhaseDivergentSite : 0);
      W.Ctx.SuspendBarrier = W.Barriers[Step];
      return;
    }
    W.S->syncAll(W.Barriers[Step], AllLanes, 0);
  }
  Note("end");
}

class CTAPhasesTest : public ::testing::Test {
protected:
  FiberStackPool Pool{64 * 1024};
  CTAScheduler S{Pool};
  std::vector<PhaseWarp> Warps;
  std::vector<void *> Ptrs;
  std::vector<WarpContext *> Ctxs;
  std::vector<std::string> Log;

  /// One warp of 32 threads per element of Programs.
  std::string run(std::vector<std::vector<uint32_t>> Programs,
                  unsigned DivergentWarp = ~0u, unsigned DivergentAt = ~0u) {
    Warps.resize(Programs.size());
    for (unsigned W = 0; W != Warps.size(); ++W) {
      Warps[W].S = &S;
      Warps[W].Id = W;
      Warps[W].Barriers = Programs[W];
      Warps[W].Log = &Log;
      if (W == DivergentWarp)
        Warps[W].DivergentAt = DivergentAt;
      Ptrs.push_back(&Warps[W]);
      Ctxs.push_back(&Warps[W].Ctx);
    }
    CTALaunch L;
    L.Fn = phaseWarp;
    L.WarpCtxs = Ptrs;
    L.Contexts = Ctxs;
    L.NumThreads = 32 * Warps.size();
    L.KernelName = "k";
    return llvm::toString(S.runInPhases(L));
  }
};

TEST_F(CTAPhasesTest, EveryWarpReachesTheBarrierBeforeAnyGoesOn) {
  EXPECT_EQ(run({{0, 0}, {0, 0}, {0, 0}}), "");
  std::vector<std::string> Want = {"w0 b0",  "w1 b0",  "w2 b0",
                                   "w0 b1",  "w1 b1",  "w2 b1",
                                   "w0 end", "w1 end", "w2 end"};
  EXPECT_EQ(Log, Want);
}

TEST_F(CTAPhasesTest, ExitedWarpsAreNotWaitedFor) {
  EXPECT_EQ(run({{0, 0, 0}, {}, {0}}), "");
  std::vector<std::string> Want = {"w0 b0",  "w1 end", "w2 b0", "w0 b1",
                                   "w2 end", "w0 b2",  "w0 end"};
  EXPECT_EQ(Log, Want);
}

TEST_F(CTAPhasesTest, DivergentArrivalGoesOnWithFibers) {
  // Warp 1 reaches the second barrier with lanes waiting elsewhere: warp 0
  // has already returned there, warp 2 has not run yet. All go on with
  // fibers from where they are and arrive (again).
  EXPECT_EQ(run({{0, 0}, {0, 0}, {0, 0}}, /*DivergentWarp=*/1,
                /*DivergentAt=*/1),
            "");
  std::vector<std::string> Want = {
      "w0 b0", "w1 b0", "w2 b0", "w0 b1", "w1 b1",
      // w2 passes barrier 0 and arrives at 1 on its fiber, last, so it
      // goes on at once; then the others.
      "w2 b1 fiber", "w2 end fiber", "w0 end fiber", "w1 end fiber"};
  EXPECT_EQ(Log, Want);
}

TEST_F(CTAPhasesTest, DifferentBarriersGoOnWithFibersAndDeadlock) {
  // Barriers 0 and 1 both wait for every thread: neither completes.
  std::string E = run({{0}, {1}});
  EXPECT_NE(E.find("deadlock in kernel 'k', CTA (0,0,0)"), std::string::npos)
      << E;
  EXPECT_NE(E.find("wait at barrier 1"), std::string::npos) << E;
}

TEST_F(CTAPhasesTest, BarrierOutOfRangeIsReportedOnFibers) {
  std::string E = run({{16}, {16}});
  EXPECT_NE(E.find("barrier 16 is out of range"), std::string::npos) << E;
}

TEST_F(CTAPhasesTest, StopsAtAWarpStatus) {
  // A warp that traps stops the CTA at once; the launch reports it.
  Warps.resize(2);
  CTALaunch L;
  std::vector<std::string> Seen;
  for (unsigned W = 0; W != 2; ++W) {
    Warps[W].S = &S;
    Warps[W].Id = W;
    Warps[W].Log = &Seen;
    Ptrs.push_back(&Warps[W]);
    Ctxs.push_back(&Warps[W].Ctx);
  }
  L.Fn = [](void *P) {
    PhaseWarp &W = *static_cast<PhaseWarp *>(P);
    W.Log->push_back("w" + std::to_string(W.Id));
    W.Ctx.Status = WS_Trap;
  };
  L.WarpCtxs = Ptrs;
  L.Contexts = Ctxs;
  L.NumThreads = 64;
  L.KernelName = "k";
  EXPECT_EQ(llvm::toString(S.runInPhases(L)), "");
  EXPECT_EQ(Seen, std::vector<std::string>{"w0"});
}

} // namespace
