//===- CTABarriersTest.cpp - Barrier bookkeeping without fibers -----------===//

#include "ptxjit/Runtime/CTABarriers.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <vector>

using namespace ptxjit::runtime;

namespace {

/// "" for success, else the message.
std::string msg(llvm::Error E) { return llvm::toString(std::move(E)); }

BarrierArrival sync(unsigned Barrier, LaneMask Lanes, unsigned Count = 0) {
  BarrierArrival A;
  A.Barrier = Barrier;
  A.ThreadCount = Count;
  A.Lanes = Lanes;
  return A;
}

BarrierArrival arriveOnly(unsigned Barrier, LaneMask Lanes, unsigned Count) {
  BarrierArrival A = sync(Barrier, Lanes, Count);
  A.Wait = false;
  return A;
}

BarrierArrival red(unsigned Barrier, LaneMask Lanes, BarrierReduction R,
                   LaneMask Pred) {
  BarrierArrival A = sync(Barrier, Lanes);
  A.Reduction = R;
  A.Predicate = Pred;
  return A;
}

class CTABarriersTest : public ::testing::Test {
protected:
  CTABarriers B;
  std::vector<unsigned> Woken;

  llvm::Error arrive(unsigned Warp, const BarrierArrival &A) {
    return B.arrive(Warp, A, [this](unsigned W) { Woken.push_back(W); });
  }
  void exitLanes(unsigned Warp, LaneMask Lanes) {
    B.exitLanes(Warp, Lanes, [this](unsigned W) { Woken.push_back(W); });
  }
  std::string errorOf(unsigned Warp, const BarrierArrival &A) {
    return llvm::toString(arrive(Warp, A));
  }
};

TEST(PrintLanesTest, Ranges) {
  auto Str = [](LaneMask M) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    printLanes(OS, M);
    return S;
  };
  EXPECT_EQ(Str(AllLanes), "0-31");
  EXPECT_EQ(Str(0x0000ffff), "0-15");
  EXPECT_EQ(Str(0x80000001), "0,31");
  EXPECT_EQ(Str(0x00000f0d), "0,2-3,8-11");
  EXPECT_EQ(Str(0), "");
}

TEST_F(CTABarriersTest, CompletesWhenAllThreadsArrive) {
  B.reset(96);
  EXPECT_EQ(B.numWarps(), 3u);
  ASSERT_EQ(msg(arrive(0, sync(0, AllLanes))), "");
  ASSERT_EQ(msg(arrive(2, sync(0, AllLanes))), "");
  EXPECT_EQ(B.numArrived(0), 64u);
  EXPECT_EQ(B.numNeeded(0), 96u);
  EXPECT_TRUE(Woken.empty());
  EXPECT_EQ(B.takeReleased(0), 0u);
  ASSERT_EQ(msg(arrive(1, sync(0, AllLanes))), "");
  EXPECT_EQ(Woken, (std::vector<unsigned>{0, 1, 2}));
  for (unsigned W = 0; W < 3; ++W) {
    EXPECT_EQ(B.takeReleased(W), AllLanes);
    EXPECT_EQ(B.takeReleased(W), 0u) << "released lanes are taken once";
    EXPECT_EQ(B.waitingLanes(W), 0u);
  }
  EXPECT_EQ(B.numArrived(0), 0u) << "the barrier is reset for reuse";
}

TEST_F(CTABarriersTest, PartialLastWarp) {
  B.reset(40);
  EXPECT_EQ(B.liveLanes(1), 0xffu);
  ASSERT_EQ(msg(arrive(0, sync(0, AllLanes))), "");
  ASSERT_EQ(msg(arrive(1, sync(0, 0xff))), "");
  EXPECT_EQ(B.takeReleased(1), 0xffu);
  EXPECT_EQ(errorOf(1, sync(0, 0x100)), "exited lanes 8 arrive at barrier 0");
}

TEST_F(CTABarriersTest, CountedBarrierIgnoresOtherThreads) {
  B.reset(128);
  ASSERT_EQ(msg(arrive(1, sync(3, AllLanes, 64))), "");
  EXPECT_EQ(B.numNeeded(3), 64u);
  ASSERT_EQ(msg(arrive(3, sync(3, AllLanes, 64))), "");
  EXPECT_EQ(Woken, (std::vector<unsigned>{1, 3}));
  EXPECT_EQ(B.takeReleased(1), AllLanes);
  EXPECT_EQ(B.takeReleased(3), AllLanes);
}

TEST_F(CTABarriersTest, DivergentHalvesArriveSeparately) {
  B.reset(64);
  ASSERT_EQ(msg(arrive(0, sync(0, 0x0000ffff))), "");
  ASSERT_EQ(msg(arrive(1, sync(0, AllLanes))), "");
  EXPECT_TRUE(Woken.empty()) << "lanes 16-31 of warp 0 have not arrived";
  EXPECT_EQ(B.numArrived(0), 48u);
  ASSERT_EQ(msg(arrive(0, sync(0, 0xffff0000))), "");
  EXPECT_EQ(B.takeReleased(0), AllLanes) << "both halves are released";
  EXPECT_EQ(B.takeReleased(1), AllLanes);
}

TEST_F(CTABarriersTest, TakeReleasedBySubset) {
  B.reset(32);
  ASSERT_EQ(msg(arrive(0, sync(1, 0x0f, 32))), "");
  ASSERT_EQ(msg(arrive(0, sync(1, ~0x0fu, 32))), "");
  EXPECT_EQ(B.takeReleased(0, 0x3), 0x3u);
  EXPECT_EQ(B.takeReleased(0), ~0x3u);
}

TEST_F(CTABarriersTest, ExitingThreadsCompleteBarrierForAll) {
  B.reset(96);
  ASSERT_EQ(msg(arrive(0, sync(0, AllLanes))), "");
  exitLanes(2, AllLanes);
  EXPECT_TRUE(Woken.empty());
  EXPECT_EQ(B.numLiveThreads(), 64u);
  ASSERT_EQ(msg(arrive(1, sync(0, 0x0000ffff))), "");
  EXPECT_TRUE(Woken.empty());
  exitLanes(1, 0xffff0000);
  EXPECT_EQ(Woken, (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(B.takeReleased(1), 0x0000ffffu);
}

TEST_F(CTABarriersTest, CountNoLongerReachableIsLowered) {
  B.reset(64);
  ASSERT_EQ(msg(arrive(0, sync(1, AllLanes, 64))), "");
  exitLanes(1, AllLanes);
  EXPECT_EQ(Woken, (std::vector<unsigned>{0}));
}

TEST_F(CTABarriersTest, WaitingLanesThatExitStopCounting) {
  B.reset(64);
  ASSERT_EQ(msg(arrive(0, sync(2, AllLanes, 64))), "");
  exitLanes(0, 0xffff0000);
  EXPECT_EQ(B.numArrived(2), 16u);
  ASSERT_EQ(msg(arrive(1, sync(2, AllLanes, 64))), "");
  EXPECT_EQ(B.takeReleased(0), 0x0000ffffu);
}

TEST_F(CTABarriersTest, ArriveCountsWithoutWaiting) {
  B.reset(64);
  ASSERT_EQ(msg(arrive(0, arriveOnly(0, AllLanes, 64))), "");
  EXPECT_EQ(B.waitingLanes(0), 0u);
  ASSERT_EQ(msg(arrive(1, sync(0, AllLanes, 64))), "");
  EXPECT_EQ(Woken, (std::vector<unsigned>{1}));
  EXPECT_EQ(B.takeReleased(0), 0u);
  EXPECT_EQ(B.takeReleased(1), AllLanes);
}

TEST_F(CTABarriersTest, Reductions) {
  B.reset(64);
  ASSERT_EQ(msg(arrive(0, red(5, AllLanes, BarrierReduction::Popc, 0xff))), "");
  ASSERT_EQ(msg(arrive(1, red(5, 0xffff, BarrierReduction::Popc, 0xffff0003))),
            "");
  ASSERT_EQ(
      msg(arrive(1, red(5, 0xffff0000, BarrierReduction::Popc, 0x00010000))),
      "");
  // 8 + 2 (bits outside the arriving lanes do not count) + 1.
  EXPECT_EQ(B.reductionResult(0, 5), 11u);
  EXPECT_EQ(B.reductionResult(1, 5), 11u);

  ASSERT_EQ(msg(arrive(0, red(5, AllLanes, BarrierReduction::And, AllLanes))),
            "");
  ASSERT_EQ(msg(arrive(1, red(5, AllLanes, BarrierReduction::And, ~0x10u))),
            "");
  EXPECT_EQ(B.reductionResult(0, 5), 0u);
  ASSERT_EQ(msg(arrive(0, red(5, AllLanes, BarrierReduction::And, AllLanes))),
            "");
  ASSERT_EQ(msg(arrive(1, red(5, AllLanes, BarrierReduction::And, AllLanes))),
            "");
  EXPECT_EQ(B.reductionResult(1, 5), 1u);

  ASSERT_EQ(msg(arrive(0, red(5, AllLanes, BarrierReduction::Or, 0))), "");
  ASSERT_EQ(msg(arrive(1, red(5, AllLanes, BarrierReduction::Or, 0))), "");
  EXPECT_EQ(B.reductionResult(0, 5), 0u);
  ASSERT_EQ(msg(arrive(0, red(5, AllLanes, BarrierReduction::Or, 0))), "");
  ASSERT_EQ(msg(arrive(1, red(5, AllLanes, BarrierReduction::Or, 1u << 31))),
            "");
  EXPECT_EQ(B.reductionResult(0, 5), 1u);
}

TEST_F(CTABarriersTest, MisuseIsReported) {
  B.reset(64);
  EXPECT_EQ(errorOf(0, sync(16, AllLanes)),
            "barrier 16 is out of range (0-15)");
  EXPECT_EQ(errorOf(0, arriveOnly(1, AllLanes, 0)),
            "bar.arrive at barrier 1 needs a non-zero thread count");
  ASSERT_EQ(msg(arrive(0, sync(1, 0xff, 64))), "");
  EXPECT_EQ(errorOf(0, sync(1, 0xff00, 32)),
            "barrier 1: thread count 32 differs from 64 of threads already "
            "arrived");
  EXPECT_EQ(errorOf(0, sync(2, 0x3)),
            "lanes 0-1 arrive at barrier 2 while they wait");
  BarrierArrival Red = red(1, AllLanes, BarrierReduction::Or, 0);
  Red.ThreadCount = 64;
  EXPECT_EQ(errorOf(1, Red),
            "barrier 1: bar.red mixed with another kind of arrival or "
            "reduction");
  // A failed arrival changes nothing.
  EXPECT_EQ(B.numArrived(1), 8u);
  EXPECT_EQ(B.waitingLanes(1), 0u);
}

TEST_F(CTABarriersTest, DescribeWarp) {
  B.reset(64);
  BarrierArrival A = sync(3, 0x0000ffff);
  A.Where = "line 42";
  ASSERT_EQ(msg(arrive(0, A)), "");
  exitLanes(0, 0xff000000);
  exitLanes(1, AllLanes);
  std::string S0, S1;
  llvm::raw_string_ostream OS0(S0), OS1(S1);
  B.describeWarp(OS0, 0);
  B.describeWarp(OS1, 1);
  EXPECT_EQ(S0, "lanes 0-15 wait at barrier 3 (line 42), lanes 16-23 not at a "
                "barrier, lanes 24-31 exited");
  EXPECT_EQ(S1, "exited");
}

TEST_F(CTABarriersTest, ResetAfterAbandonedWait) {
  B.reset(64);
  ASSERT_EQ(msg(arrive(0, sync(7, AllLanes))), "");
  B.reset(64);
  EXPECT_EQ(B.waitingLanes(0), 0u);
  EXPECT_EQ(B.waitingLanes(0, 7), 0u);
  EXPECT_EQ(B.numArrived(7), 0u);
}

} // namespace

//===----------------------------------------------------------------------===//
// tryArriveAtSync: the inline path of the generated code's bar.sync
//===----------------------------------------------------------------------===//

class TryArriveAtSyncTest : public CTABarriersTest {
protected:
  bool tryArrive(unsigned Warp, unsigned Barrier, LaneMask Lanes,
                 uint32_t Line = 7) {
    return B.tryArriveAtSync(Warp, Barrier, Lanes, Line,
                             [this](unsigned W) { Woken.push_back(W); });
  }
};

TEST_F(TryArriveAtSyncTest, CountsLanesInGroupsAndCompletes) {
  B.reset(64 + 8); // two full warps and 8 lanes
  EXPECT_TRUE(tryArrive(0, 3, 0x0000ffffu));
  EXPECT_TRUE(tryArrive(2, 3, 0xffu));
  EXPECT_TRUE(tryArrive(1, 3, AllLanes));
  EXPECT_EQ(B.numArrived(3), 16u + 8 + 32);
  EXPECT_EQ(B.waitingLanes(0, 3), 0x0000ffffu);
  EXPECT_TRUE(Woken.empty());
  EXPECT_TRUE(tryArrive(0, 3, 0xffff0000u));
  // All 72 threads: released together, the barrier is empty again.
  EXPECT_EQ(Woken, (std::vector<unsigned>{0, 1, 2}));
  EXPECT_EQ(B.numArrived(3), 0u);
  EXPECT_EQ(B.takeReleased(0), AllLanes);
  EXPECT_EQ(B.takeReleased(1), AllLanes);
  EXPECT_EQ(B.takeReleased(2), 0xffu);
  EXPECT_EQ(B.waitingLanes(0), 0u);
}

TEST_F(TryArriveAtSyncTest, ExitedThreadsAreNotWaitedFor) {
  B.reset(64);
  exitLanes(1, 0xffff0000u);
  EXPECT_TRUE(tryArrive(1, 0, 0x0000ffffu));
  EXPECT_TRUE(Woken.empty());
  EXPECT_TRUE(tryArrive(0, 0, AllLanes));
  EXPECT_EQ(Woken, (std::vector<unsigned>{0, 1}));
}

TEST_F(TryArriveAtSyncTest, ReportsTheLineOfWaitingLanes) {
  B.reset(64);
  EXPECT_TRUE(tryArrive(0, 5, AllLanes, 42));
  std::string S;
  llvm::raw_string_ostream OS(S);
  B.describeWarp(OS, 0);
  EXPECT_EQ(S, "lanes 0-31 wait at barrier 5 (line 42)");
}

TEST_F(TryArriveAtSyncTest, LeavesEverythingElseToArrive) {
  B.reset(64);
  // Rule breaks: out-of-range barrier, no lanes, exited lanes, lanes that
  // already wait.
  EXPECT_FALSE(tryArrive(0, 16, AllLanes));
  EXPECT_FALSE(tryArrive(0, 0, 0));
  exitLanes(1, 0x1u);
  EXPECT_FALSE(tryArrive(1, 0, 0x3u));
  EXPECT_TRUE(tryArrive(0, 1, 0xfu));
  EXPECT_FALSE(tryArrive(0, 2, 0x1u));
  // A barrier that counts threads or reduces is not a plain bar.sync.
  ASSERT_EQ(msg(arrive(1, sync(4, 0x2u, 64))), "");
  EXPECT_FALSE(tryArrive(0, 4, 0xf0u));
  ASSERT_EQ(msg(arrive(1, red(6, 0x4u, BarrierReduction::Popc, 0x4u))), "");
  EXPECT_FALSE(tryArrive(0, 6, 0xf0u));
  // None of the refused arrivals counted.
  EXPECT_EQ(B.numArrived(0), 0u);
  EXPECT_EQ(B.numArrived(1), 4u);
  EXPECT_EQ(B.numArrived(4), 1u);
  EXPECT_EQ(B.numArrived(6), 1u);
  EXPECT_EQ(B.waitingLanes(0), 0xfu);
  EXPECT_TRUE(Woken.empty());
}
