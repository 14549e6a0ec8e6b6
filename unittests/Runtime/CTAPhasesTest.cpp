//===- CTAPhasesTest.cpp - A CTA's warps in phases between barriers -------===//
//
// Warp functions written by hand that behave as generated code for a kernel
// compiled to run in phases does (see lib/IRGen/Phases.cpp): a warp returns
// at each barrier with its site, barrier id, lanes and line; called again,
// it resumes past the barrier (the runtime saw it complete, or arrived for
// the warp on its fiber). A barrier reached while other lanes wait
// elsewhere (a divergent copy) returns only in phases, and arrives itself
// on its fiber. A chain (KernelLayout::RunsWarpChains) goes on with the
// next warp where one warp returns.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Runtime/CTAErrors.h"
#include "ptxjit/Runtime/CTAScheduler.h"
#include "gtest/gtest.h"
#include <algorithm>
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
  /// In phases, returning at a barrier before AheadTo, it passes the
  /// barriers after it up to AheadTo - 1 at once, as a warp with nothing to
  /// do between them does (IRGen's PhaseProbes.cpp).
  unsigned AheadTo = 0;
  /// Barriers passed (what generated code keeps in PhaseState).
  unsigned Step = 0;
  std::vector<std::string> *Log = nullptr;
  /// All warps of the CTA, for a chain to find the next one.
  std::vector<PhaseWarp> *All = nullptr;
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
    if (Site & PhaseDivergentSite) {
      // The CTA went on with fibers: arrive through the general path.
      EXPECT_EQ(W.Ctx.PhaseMode, 0u);
      W.S->syncAll(W.Barriers[Step], AllLanes, 0);
    }
    ++Step;
  }
  for (; Step < W.Barriers.size(); ++Step) {
    Note("b" + std::to_string(Step));
    bool Divergent = Step == W.DivergentAt;
    if (!Divergent || W.Ctx.PhaseMode) {
      while (W.Ctx.PhaseMode && !Divergent && Step + 1 < W.AheadTo &&
             Step + 1 < W.Barriers.size()) {
        ++Step;
        ++W.Ctx.SkipRounds;
        Note("b" + std::to_string(Step) + " ahead");
      }
      W.Step = Step;
      W.Ctx.ResumeSite = (Step + 1) | (Divergent ? PhaseDivergentSite : 0);
      W.Ctx.SuspendBarrier = W.Barriers[Step];
      W.Ctx.SuspendLanes = AllLanes;
      W.Ctx.SuspendLine = 100 + Step;
      return;
    }
    W.S->syncAll(W.Barriers[Step], AllLanes, 0);
  }
  Note("end");
}

/// phaseWarp for each warp of the chain NextWarp links, as a warp chain's
/// loop runs them.
void chainedWarps(void *P) {
  PhaseWarp *W = static_cast<PhaseWarp *>(P);
  for (;;) {
    // A warp that passed this round ahead of time counts as arrived.
    if (W->Ctx.SkipRounds) {
      --W->Ctx.SkipRounds;
    } else {
      phaseWarp(W);
      if (W->Ctx.Status != WS_Running)
        return;
    }
    WarpContext *Next = W->Ctx.NextWarp;
    if (!Next)
      return;
    for (PhaseWarp &Other : *W->All)
      if (&Other.Ctx == Next)
        W = &Other;
    EXPECT_EQ(&W->Ctx, Next);
    if (Next->RunningWarp)
      *Next->RunningWarp = Next->WarpIndex;
  }
}

class CTAPhasesTest : public ::testing::Test {
protected:
  FiberStackPool Pool{64 * 1024};
  CTAScheduler S{Pool};
  std::vector<PhaseWarp> Warps;
  std::vector<void *> Ptrs;
  std::vector<WarpContext *> Ctxs;
  std::vector<std::string> Log;

  /// One warp of 32 threads per element of Programs, as a launch of
  /// phaseWarp (or of chains of it).
  CTALaunch launch(std::vector<std::vector<uint32_t>> Programs,
                   unsigned DivergentWarp = ~0u, unsigned DivergentAt = ~0u,
                   bool Chain = false) {
    Warps.resize(Programs.size());
    for (unsigned W = 0; W != Warps.size(); ++W) {
      Warps[W].S = &S;
      Warps[W].Id = W;
      Warps[W].Ctx.WarpIndex = W;
      Warps[W].All = &Warps;
      Warps[W].Barriers = Programs[W];
      Warps[W].Log = &Log;
      if (W == DivergentWarp)
        Warps[W].DivergentAt = DivergentAt;
      Ptrs.push_back(&Warps[W]);
      Ctxs.push_back(&Warps[W].Ctx);
    }
    CTALaunch L;
    L.Fn = Chain ? chainedWarps : phaseWarp;
    L.RunsWarpChains = Chain;
    L.ReturnsAtBarriers = true;
    L.WarpCtxs = Ptrs;
    L.Contexts = Ctxs;
    L.NumThreads = 32 * Warps.size();
    L.KernelName = "k";
    return L;
  }

  /// The launch of Programs run in phases; its error message, if any.
  std::string run(std::vector<std::vector<uint32_t>> Programs,
                  unsigned DivergentWarp = ~0u, unsigned DivergentAt = ~0u,
                  bool Chain = false) {
    CTALaunch L =
        launch(std::move(Programs), DivergentWarp, DivergentAt, Chain);
    return llvm::toString(S.runInPhases(L));
  }
};

/// The tests that run the same way with a warp per call and with chains.
class CTAPhasesBothWaysTest : public CTAPhasesTest,
                              public ::testing::WithParamInterface<bool> {};

TEST_P(CTAPhasesBothWaysTest, EveryWarpReachesTheBarrierBeforeAnyGoesOn) {
  EXPECT_EQ(run({{0, 0}, {0, 0}, {0, 0}}, ~0u, ~0u, /*Chain=*/GetParam()), "");
  std::vector<std::string> Want = {"w0 b0",  "w1 b0",  "w2 b0",
                                   "w0 b1",  "w1 b1",  "w2 b1",
                                   "w0 end", "w1 end", "w2 end"};
  EXPECT_EQ(Log, Want);
}

TEST_P(CTAPhasesBothWaysTest, ExitedWarpsAreNotWaitedFor) {
  EXPECT_EQ(run({{0, 0, 0}, {}, {0}}, ~0u, ~0u, /*Chain=*/GetParam()), "");
  std::vector<std::string> Want = {"w0 b0",  "w1 end", "w2 b0", "w0 b1",
                                   "w2 end", "w0 b2",  "w0 end"};
  EXPECT_EQ(Log, Want);
}

TEST_P(CTAPhasesBothWaysTest, DivergentArrivalGoesOnWithFibers) {
  // Warp 1 reaches the second barrier with lanes waiting elsewhere, after
  // warp 0 returned there. A chain has run warp 2 to that barrier too;
  // otherwise it has not run this round. All go on with fibers from where
  // they are: the runtime arrives for warps 0 and 2, warp 1 itself, and the
  // last arrival (warp 2) goes on at once, then the others.
  bool Chain = GetParam();
  EXPECT_EQ(run({{0, 0}, {0, 0}, {0, 0}}, /*DivergentWarp=*/1,
                /*DivergentAt=*/1, Chain),
            "");
  std::vector<std::string> Want = {
      "w0 b0",        "w1 b0",        "w2 b0",
      "w0 b1",        "w1 b1",        Chain ? "w2 b1" : "w2 b1 fiber",
      "w2 end fiber", "w0 end fiber", "w1 end fiber"};
  EXPECT_EQ(Log, Want);
}

TEST_P(CTAPhasesBothWaysTest, RoundsPassedAheadAreNotRun) {
  // Warp 1 has nothing to do between barriers 0 and 3: at barrier 0 it
  // passes 1 and 2 as well, and the next two rounds count it as arrived
  // without running it; it resumes after barrier 2 with warp 0.
  Warps.resize(2);
  Warps[1].AheadTo = 3;
  EXPECT_EQ(run({{0, 0, 0, 0}, {0, 0, 0, 0}}, ~0u, ~0u, GetParam()), "");
  std::vector<std::string> Want = {
      "w0 b0", "w1 b0", "w1 b1 ahead", "w1 b2 ahead", "w0 b1",
      "w0 b2", "w0 b3", "w1 b3",       "w0 end",      "w1 end"};
  EXPECT_EQ(Log, Want);
  EXPECT_EQ(Warps[1].Ctx.SkipRounds, 0u);
}

TEST_P(CTAPhasesBothWaysTest, FibersArriveForRoundsPassedAhead) {
  // Warp 1 passed barriers 1 and 2 at barrier 0; in the round of barrier
  // 1 warp 2 arrives with lanes waiting elsewhere, and the CTA goes on
  // with fibers. Warp 1 has arrived at barrier 1 (that round counted it)
  // but not yet at barrier 2: the runtime arrives for it there before it
  // resumes, so it reaches barrier 3 only after the others reached 2.
  Warps.resize(3);
  Warps[1].AheadTo = 3;
  EXPECT_EQ(run({{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}},
                /*DivergentWarp=*/2, /*DivergentAt=*/1, GetParam()),
            "");
  // Where each warp reached barrier K (4: its end) running; none goes
  // past a barrier before every warp has reached it, except in passing it
  // ahead.
  int Reach[3][5];
  for (auto &W : Reach)
    std::fill(std::begin(W), std::end(W), -1);
  for (unsigned I = 0; I != Log.size(); ++I) {
    const std::string &E = Log[I];
    if (E.find("ahead") != std::string::npos)
      continue;
    unsigned W = E[1] - '0';
    unsigned K = E.find(" end") != std::string::npos ? 4 : E[4] - '0';
    Reach[W][K] = int(I);
  }
  EXPECT_EQ(Reach[1][1], -1);
  EXPECT_EQ(Reach[1][2], -1);
  for (unsigned K = 0; K != 4; ++K)
    for (unsigned X = 0; X != 3; ++X)
      for (unsigned Y = 0; Y != 3; ++Y)
        if (Reach[X][K + 1] >= 0 && Reach[Y][K] >= 0) {
          EXPECT_GT(Reach[X][K + 1], Reach[Y][K])
              << "w" << X << " reached " << K + 1 << " before w" << Y
              << " reached " << K;
        }
  for (unsigned W = 0; W != 3; ++W)
    EXPECT_GE(Reach[W][4], 0) << "w" << W << " did not end";
  EXPECT_EQ(Warps[1].Ctx.SkipRounds, 0u);
}

INSTANTIATE_TEST_SUITE_P(CallsAndChains, CTAPhasesBothWaysTest,
                         ::testing::Bool());

TEST_F(CTAPhasesTest, ReturningWarpsRunOnFibersWithoutPhases) {
  // A CTA that cannot run in phases (a cooperative launch) runs the same
  // warps on fibers: the runtime arrives at each barrier they return at.
  CTALaunch L = launch({{0, 0}, {0, 0}, {0, 0}});
  EXPECT_EQ(llvm::toString(S.run(L)), "");
  // Which warp goes on first is the fiber scheduler's choice; that no warp
  // passes a barrier before all have reached it is the barrier's rule.
  ASSERT_EQ(Log.size(), 9u);
  for (unsigned I = 0; I != 9; ++I) {
    const char *Stage = I < 3   ? " b0 fiber"
                        : I < 6 ? " b1 fiber"
                                : " end fiber";
    EXPECT_NE(Log[I].find(Stage), std::string::npos) << I << ": " << Log[I];
  }
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
