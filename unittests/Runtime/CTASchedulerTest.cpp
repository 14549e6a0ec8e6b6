//===- CTASchedulerTest.cpp - Warps as fibers around named barriers -------===//

#include "ptxjit/Runtime/CTAScheduler.h"
#include "ptxjit/Runtime/CTAErrors.h"
#include "gtest/gtest.h"
#include <atomic>
#include <string>
#include <thread>
#include <vector>

using namespace ptxjit::runtime;

namespace {

/// What a test's warp function gets: its scheduler, its index and the
/// test's data (what JIT'd code would find through its real WarpCtx).
struct Warp {
  CTAScheduler *S;
  unsigned Id;
  void *Data;
  template <typename T> T &data() const { return *static_cast<T *>(Data); }
};

/// The warp contexts of one CTA.
struct TestCTA {
  std::vector<Warp> Warps;
  std::vector<void *> Ctxs;
  CTALaunch L;

  TestCTA(CTAScheduler &S, WarpFn Fn, unsigned NumThreads, void *Data,
          llvm::StringRef Kernel = "k") {
    unsigned NumWarps = (NumThreads + 31) / 32;
    for (unsigned W = 0; W < NumWarps; ++W)
      Warps.push_back({&S, W, Data});
    for (Warp &W : Warps)
      Ctxs.push_back(&W);
    L.Fn = Fn;
    L.WarpCtxs = Ctxs;
    L.NumThreads = NumThreads;
    L.KernelName = Kernel;
  }
};

Warp &warp(void *Ctx) { return *static_cast<Warp *>(Ctx); }

BarrierArrival sync(unsigned Barrier, LaneMask Lanes, unsigned Count = 0,
                    llvm::StringRef Where = "") {
  BarrierArrival A;
  A.Barrier = Barrier;
  A.ThreadCount = Count;
  A.Lanes = Lanes;
  A.Where = Where;
  return A;
}

/// "" for success, else the message.
std::string msg(llvm::Error E) { return llvm::toString(std::move(E)); }

class CTASchedulerTest : public ::testing::Test {
protected:
  FiberStackPool Pool{64 * 1024};
  std::unique_ptr<CTAScheduler> S = std::make_unique<CTAScheduler>(Pool);

  std::string run(WarpFn Fn, unsigned NumThreads, void *Data) {
    TestCTA CTA(*S, Fn, NumThreads, Data);
    return msg(S->run(CTA.L));
  }
};

TEST_F(CTASchedulerTest, WithoutBarriersRunsWarpsInOrderWithoutFibers) {
  std::vector<unsigned> Order;
  TestCTA CTA(
      *S,
      [](void *Ctx) {
        Warp &W = warp(Ctx);
        EXPECT_FALSE(W.S->runsOnFibers());
        EXPECT_EQ(W.S->currentWarp(), W.Id);
        W.data<std::vector<unsigned>>().push_back(W.Id);
      },
      128, &Order);
  EXPECT_EQ(msg(S->runWithoutBarriers(CTA.L)), "");
  EXPECT_EQ(Order, (std::vector<unsigned>{0, 1, 2, 3}));
  EXPECT_EQ(Pool.numMapped(), 0u) << "no fiber stacks for this path";
}

TEST_F(CTASchedulerTest, WithoutBarriersOneWarpMayUseBarriers) {
  unsigned Rounds = 0;
  TestCTA CTA(
      *S,
      [](void *Ctx) {
        Warp &W = warp(Ctx);
        for (int I = 0; I < 3; ++I) {
          W.S->arriveAndWait(sync(0, W.S->liveLanes()));
          ++W.data<unsigned>();
        }
      },
      20, &Rounds);
  EXPECT_EQ(msg(S->runWithoutBarriers(CTA.L)), "");
  EXPECT_EQ(Rounds, 3u);
}

TEST_F(CTASchedulerTest, WithoutBarriersWaitingIsAnErrorNotAHang) {
  TestCTA CTA(
      *S,
      [](void *Ctx) {
        Warp &W = warp(Ctx);
        W.S->arriveAndWait(sync(0, AllLanes));
      },
      64, nullptr);
  EXPECT_EQ(msg(S->runWithoutBarriers(CTA.L)),
            "kernel 'k', CTA (0,0,0), warp 0: must wait at a barrier, but the "
            "CTA runs without fibers");
}

// Every warp writes its slot, waits, then reads all slots; many rounds.
TEST_F(CTASchedulerTest, BarrierWaitsForAllWarps) {
  struct Shared {
    unsigned Slots[8] = {};
    unsigned Errors = 0;
  } Sh;
  EXPECT_EQ(run(
                [](void *Ctx) {
                  Warp &W = warp(Ctx);
                  Shared &Sh = W.data<Shared>();
                  for (unsigned Round = 1; Round <= 20; ++Round) {
                    Sh.Slots[W.Id] = Round;
                    W.S->arriveAndWait(sync(0, AllLanes));
                    for (unsigned Slot : Sh.Slots)
                      Sh.Errors += Slot != Round;
                    W.S->arriveAndWait(sync(0, AllLanes));
                  }
                },
                256, &Sh),
            "");
  EXPECT_EQ(Sh.Errors, 0u);
  EXPECT_EQ(Pool.numMapped(), 8u);
}

TEST_F(CTASchedulerTest, SingleWarpBarrierDoesNotHang) {
  unsigned Rounds = 0;
  EXPECT_EQ(run(
                [](void *Ctx) {
                  Warp &W = warp(Ctx);
                  for (int I = 0; I < 5; ++I) {
                    W.S->arriveAndWait(sync(0, AllLanes));
                    ++W.data<unsigned>();
                  }
                },
                32, &Rounds),
            "");
  EXPECT_EQ(Rounds, 5u);
}

// Warps 0 and 2 synchronize on barrier 1 (64 threads) while warp 1 waits
// elsewhere and warp 3 waits for them on barrier 2.
TEST_F(CTASchedulerTest, BarrierWithThreadCount) {
  struct Shared {
    std::string Trace;
  } Sh;
  EXPECT_EQ(run(
                [](void *Ctx) {
                  Warp &W = warp(Ctx);
                  std::string &T = W.data<Shared>().Trace;
                  switch (W.Id) {
                  case 0:
                  case 2:
                    T += "a" + std::to_string(W.Id);
                    W.S->arriveAndWait(sync(1, AllLanes, 64));
                    T += "b" + std::to_string(W.Id);
                    W.S->arriveAndWait(sync(2, AllLanes, 128));
                    break;
                  case 1:
                    W.S->arriveAndWait(sync(2, AllLanes, 128));
                    T += "c1";
                    break;
                  case 3:
                    W.S->arriveAndWait(sync(2, AllLanes, 128));
                    T += "c3";
                    break;
                  }
                },
                128, &Sh),
            "");
  EXPECT_EQ(Sh.Trace, "a0a2b2b0c1c3");
}

// Lanes 0-15 of warp 0 arrive, the warp runs its other half, which arrives
// later; only then may the barrier complete.
TEST_F(CTASchedulerTest, DivergentHalvesArriveInTwoParts) {
  struct Shared {
    std::string Trace;
  } Sh;
  EXPECT_EQ(run(
                [](void *Ctx) {
                  Warp &W = warp(Ctx);
                  std::string &T = W.data<Shared>().Trace;
                  if (W.Id == 0) {
                    W.S->arrive(sync(0, 0x0000ffff));
                    T += "h0";
                    W.S->yield(); // the other half runs a while
                    T += "h1";
                    W.S->arrive(sync(0, 0xffff0000));
                    EXPECT_EQ(W.S->wait(), AllLanes);
                    T += "r0";
                  } else {
                    W.S->arriveAndWait(sync(0, AllLanes));
                    T += "r1";
                  }
                },
                64, &Sh),
            "");
  EXPECT_EQ(Sh.Trace, "h0h1r0r1");
}

// Two halves of a warp wait at different barriers; each is released alone.
TEST_F(CTASchedulerTest, HalvesReleasedByDifferentBarriers) {
  struct Shared {
    std::vector<LaneMask> Released;
  } Sh;
  EXPECT_EQ(run(
                [](void *Ctx) {
                  Warp &W = warp(Ctx);
                  std::vector<LaneMask> &Released = W.data<Shared>().Released;
                  if (W.Id == 0) {
                    W.S->arrive(sync(1, 0x0000ffff, 32));
                    W.S->arrive(sync(2, 0xffff0000, 64));
                    LaneMask R = W.S->wait();
                    Released.push_back(R);
                    // Those lanes join the other half at barrier 2.
                    W.S->arrive(sync(2, R, 64));
                    Released.push_back(W.S->wait());
                  } else {
                    W.S->arriveAndWait(sync(1, 0xffff0000, 32));
                    W.S->arriveAndWait(sync(2, AllLanes, 64));
                  }
                },
                64, &Sh),
            "");
  EXPECT_EQ(Sh.Released, (std::vector<LaneMask>{0x0000ffffu, AllLanes}));
}

TEST_F(CTASchedulerTest, ExitedWarpsAreNotWaitedFor) {
  struct Shared {
    unsigned Passed = 0;
  } Sh;
  EXPECT_EQ(run(
                [](void *Ctx) {
                  Warp &W = warp(Ctx);
                  if (W.Id == 1)
                    return; // exits at once
                  if (W.Id == 3) {
                    // Exits only after the others wait.
                    W.S->yield();
                    W.S->yield();
                    return;
                  }
                  W.S->arriveAndWait(sync(0, AllLanes));
                  ++W.data<Shared>().Passed;
                },
                128, &Sh),
            "");
  EXPECT_EQ(Sh.Passed, 2u);
}

TEST_F(CTASchedulerTest, ExitedLanesAreNotWaitedFor) {
  unsigned Passed = 0;
  EXPECT_EQ(run(
                [](void *Ctx) {
                  Warp &W = warp(Ctx);
                  if (W.Id == 1) {
                    W.S->exitLanes(0xffff0000);
                    EXPECT_EQ(W.S->liveLanes(), 0x0000ffffu);
                  }
                  W.S->arriveAndWait(sync(0, W.S->liveLanes()));
                  ++W.data<unsigned>();
                },
                72, &Passed), // the last warp has 8 lanes
            "");
  EXPECT_EQ(Passed, 3u);
}

// The producer/consumer example of the PTX ISA's bar.arrive.
TEST_F(CTASchedulerTest, ArriveProducerConsumer) {
  struct Shared {
    int Buffer = -1;
    std::vector<int> Consumed;
  } Sh;
  EXPECT_EQ(run(
                [](void *Ctx) {
                  Warp &W = warp(Ctx);
                  Shared &Sh = W.data<Shared>();
                  BarrierArrival Full = sync(0, AllLanes, 64);
                  BarrierArrival Empty = sync(1, AllLanes, 64);
                  BarrierArrival FullArrive = Full, EmptyArrive = Empty;
                  FullArrive.Wait = EmptyArrive.Wait = false;
                  for (int I = 0; I < 10; ++I) {
                    if (W.Id == 0) { // producer
                      Sh.Buffer = I * I;
                      W.S->arriveAndWait(FullArrive);
                      W.S->arriveAndWait(Empty);
                    } else { // consumer
                      W.S->arriveAndWait(Full);
                      Sh.Consumed.push_back(Sh.Buffer);
                      W.S->arriveAndWait(EmptyArrive);
                    }
                  }
                },
                64, &Sh),
            "");
  EXPECT_EQ(Sh.Consumed,
            (std::vector<int>{0, 1, 4, 9, 16, 25, 36, 49, 64, 81}));
}

TEST_F(CTASchedulerTest, BarRedResults) {
  struct Shared {
    uint32_t Popc[4], And[4], Or[4], AndAll[4], OrNone[4];
  } Sh;
  EXPECT_EQ(run(
                [](void *Ctx) {
                  Warp &W = warp(Ctx);
                  Shared &Sh = W.data<Shared>();
                  auto Red = [&](BarrierReduction R, LaneMask Pred) {
                    BarrierArrival A = sync(3, W.S->liveLanes());
                    A.Reduction = R;
                    A.Predicate = Pred;
                    return W.S->arriveAndWait(A);
                  };
                  // Warp W: lanes 0..W*8 have a true predicate.
                  LaneMask Pred =
                      W.Id == 3 ? AllLanes : (1u << (W.Id * 8 + 1)) - 1;
                  Sh.Popc[W.Id] = Red(BarrierReduction::Popc, Pred);
                  Sh.And[W.Id] = Red(BarrierReduction::And, Pred);
                  Sh.Or[W.Id] =
                      Red(BarrierReduction::Or, W.Id == 2 ? 0x100 : 0);
                  Sh.AndAll[W.Id] = Red(BarrierReduction::And, AllLanes);
                  Sh.OrNone[W.Id] = Red(BarrierReduction::Or, 0);
                  EXPECT_EQ(W.S->reductionResult(3), 0u);
                },
                128, &Sh),
            "");
  for (unsigned W = 0; W < 4; ++W) {
    EXPECT_EQ(Sh.Popc[W], 1u + 9 + 17 + 32);
    EXPECT_EQ(Sh.And[W], 0u);
    EXPECT_EQ(Sh.Or[W], 1u);
    EXPECT_EQ(Sh.AndAll[W], 1u);
    EXPECT_EQ(Sh.OrNone[W], 0u);
  }
}

TEST_F(CTASchedulerTest, DeadlockIsReported) {
  TestCTA CTA(
      *S,
      [](void *Ctx) {
        Warp &W = warp(Ctx);
        if (W.Id == 0)
          W.S->arriveAndWait(sync(0, AllLanes, 0, "line 42"));
        else if (W.Id == 1)
          W.S->arriveAndWait(sync(1, AllLanes, 0, "line 50"));
        else if (W.Id == 2)
          return;
        else {
          W.S->exitLanes(0xff);
          W.S->arriveAndWait(sync(0, 0xff00, 0, "line 42"));
        }
        ADD_FAILURE() << "warp " << W.Id << " passed a deadlocked barrier";
      },
      128, nullptr, "k");
  CTA.L.CTAId[0] = 1;
  llvm::Error E = S->run(CTA.L);
  ASSERT_TRUE(E.isA<CTADeadlockError>());
  EXPECT_EQ(msg(std::move(E)),
            "deadlock in kernel 'k', CTA (1,0,0): warp 0 lanes 0-31 wait at "
            "barrier 0 (line 42); warp 1 lanes 0-31 wait at barrier 1 (line "
            "50); warp 2 exited; warp 3 lanes 8-15 wait at barrier 0 (line "
            "42), lanes 16-31 not at a barrier, lanes 0-7 exited; barrier 0 "
            "has 40 of 88 threads; barrier 1 has 32 of 88 threads");
}

TEST_F(CTASchedulerTest, DeadlockSummarisesAlikeWarps) {
  std::string M = run(
      [](void *Ctx) {
        Warp &W = warp(Ctx);
        W.S->arriveAndWait(sync(W.Id < 6 ? 4 : 5, AllLanes, 256));
      },
      256, nullptr);
  EXPECT_EQ(M, "deadlock in kernel 'k', CTA (0,0,0): warps 0-5 lanes 0-31 "
               "wait at barrier 4; warps 6-7 lanes 0-31 wait at barrier 5; "
               "barrier 4 has 192 of 256 threads; barrier 5 has 64 of 256 "
               "threads");
}

// Once too few threads are left to reach a count, the barrier completes
// with those that remain.
TEST_F(CTASchedulerTest, CountBeyondLiveThreadsCompletesAfterExits) {
  unsigned Passed = 0;
  EXPECT_EQ(run(
                [](void *Ctx) {
                  Warp &W = warp(Ctx);
                  if (W.Id >= 6)
                    return;
                  W.S->arriveAndWait(sync(4, AllLanes, 256));
                  ++W.data<unsigned>();
                },
                256, &Passed),
            "");
  EXPECT_EQ(Passed, 6u);
}

TEST_F(CTASchedulerTest, DeadlockThenReuse) {
  for (int I = 0; I < 50; ++I) {
    std::string M = run(
        [](void *Ctx) {
          Warp &W = warp(Ctx);
          W.S->arriveAndWait(sync(W.Id, AllLanes));
        },
        64, nullptr);
    ASSERT_NE(M.find("deadlock"), std::string::npos);
    unsigned Sum = 0;
    ASSERT_EQ(run(
                  [](void *Ctx) {
                    Warp &W = warp(Ctx);
                    W.S->arriveAndWait(sync(0, AllLanes));
                    W.data<unsigned>() += W.Id + 1;
                  },
                  64, &Sum),
              "");
    ASSERT_EQ(Sum, 3u);
  }
  EXPECT_EQ(Pool.numMapped(), 2u);
  S.reset();
  EXPECT_EQ(Pool.numFree(), 2u) << "the scheduler gave its stacks back";
}

TEST_F(CTASchedulerTest, MisusedBarrierStopsCTA) {
  std::string M = run(
      [](void *Ctx) {
        Warp &W = warp(Ctx);
        W.S->arriveAndWait(sync(2, AllLanes, W.Id == 0 ? 64 : 96));
        ADD_FAILURE() << "warp " << W.Id << " went on";
      },
      96, nullptr);
  EXPECT_EQ(M, "kernel 'k', CTA (0,0,0), warp 1: barrier 2: thread count 96 "
               "differs from 64 of threads already arrived");
}

TEST_F(CTASchedulerTest, YieldLetsSpinningWarpMakeProgress) {
  struct Shared {
    volatile bool Flag = false;
    unsigned Spins = 0;
  } Sh;
  EXPECT_EQ(run(
                [](void *Ctx) {
                  Warp &W = warp(Ctx);
                  Shared &Sh = W.data<Shared>();
                  if (W.Id == 0) {
                    while (!Sh.Flag) {
                      ++Sh.Spins;
                      W.S->yield();
                    }
                  } else {
                    W.S->yield();
                    W.S->yield();
                    Sh.Flag = true;
                  }
                },
                64, &Sh),
            "");
  EXPECT_EQ(Sh.Spins, 3u);
}

TEST_F(CTASchedulerTest, CancelStopsCTAWhenAWarpYields) {
  std::atomic<bool> Cancel{false};
  struct Shared {
    std::atomic<bool> *Cancel;
    unsigned Spins = 0;
  } Sh{&Cancel};
  TestCTA CTA(
      *S,
      [](void *Ctx) {
        Warp &W = warp(Ctx);
        Shared &Sh = W.data<Shared>();
        // Spins for ever unless cancelled.
        for (;;) {
          if (++Sh.Spins == 100)
            Sh.Cancel->store(true);
          W.S->yield();
        }
      },
      64, &Sh);
  CTA.L.Cancel = &Cancel;
  CTA.L.CTAId[1] = 2;
  llvm::Error E = S->run(CTA.L);
  ASSERT_TRUE(E.isA<CTACancelledError>());
  EXPECT_EQ(msg(std::move(E)), "kernel 'k', CTA (0,2,0) was cancelled");
  EXPECT_EQ(Sh.Spins, 100u);

  // Without fibers, before the next warp starts.
  TestCTA Direct(
      *S, [](void *Ctx) { warp(Ctx).data<Shared>().Cancel->store(true); }, 64,
      &Sh);
  Direct.L.Cancel = &Cancel;
  Cancel = false;
  EXPECT_TRUE(S->runWithoutBarriers(Direct.L).isA<CTACancelledError>());
}

TEST_F(CTASchedulerTest, ManyCTAsReuseStacks) {
  unsigned Total = 0;
  for (unsigned CTA = 0; CTA < 2000; ++CTA) {
    ASSERT_EQ(run(
                  [](void *Ctx) {
                    Warp &W = warp(Ctx);
                    W.S->arriveAndWait(sync(0, AllLanes));
                    W.S->arriveAndWait(sync(1, AllLanes));
                    ++W.data<unsigned>();
                  },
                  (CTA % 8 + 1) * 32, &Total),
              "");
  }
  EXPECT_EQ(Total, 2000u / 8 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8));
  EXPECT_EQ(Pool.numMapped(), 8u);
}

TEST_F(CTASchedulerTest, BadLaunchIsAnError) {
  TestCTA CTA(*S, [](void *) {}, 64, nullptr);
  CTA.L.NumThreads = 65;
  EXPECT_EQ(msg(S->run(CTA.L)),
            "kernel 'k': a CTA of 65 threads cannot run as 2 warps");
}

// Each thread runs its own scheduler; they share the stack pool.
TEST(CTASchedulerThreadsTest, TwoThreadsRunConcurrently) {
  FiberStackPool Pool(64 * 1024);
  struct Shared {
    unsigned Slots[4];
    unsigned Errors = 0;
    unsigned Done = 0;
  };
  auto Work = [&Pool](Shared *Sh) {
    CTAScheduler S(Pool);
    for (int CTA = 0; CTA < 500; ++CTA) {
      TestCTA C(
          S,
          [](void *Ctx) {
            Warp &W = warp(Ctx);
            Shared &Sh = W.data<Shared>();
            for (unsigned Round = 0; Round < 4; ++Round) {
              Sh.Slots[W.Id] = Round;
              W.S->arriveAndWait(sync(0, AllLanes));
              for (unsigned Slot : Sh.Slots)
                Sh.Errors += Slot != Round;
              W.S->arriveAndWait(sync(0, AllLanes));
            }
            ++Sh.Done;
          },
          128, Sh);
      if (llvm::Error E = S.run(C.L)) {
        ADD_FAILURE() << llvm::toString(std::move(E));
        return;
      }
    }
  };
  Shared A, B;
  std::thread T1(Work, &A), T2(Work, &B);
  T1.join();
  T2.join();
  EXPECT_EQ(A.Errors + B.Errors, 0u);
  EXPECT_EQ(A.Done, 2000u);
  EXPECT_EQ(B.Done, 2000u);
  EXPECT_LE(Pool.numMapped(), 8u);
  EXPECT_EQ(Pool.numFree(), Pool.numMapped());
}

} // namespace
