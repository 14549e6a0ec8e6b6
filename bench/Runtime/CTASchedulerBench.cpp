//===- CTASchedulerBench.cpp - Cost of barriers and of running a CTA ------===//

#include "benchmark/benchmark.h"
#include "ptxjit/Runtime/CTAScheduler.h"
#include <vector>

using namespace ptxjit::runtime;

namespace {

struct BenchWarp {
  CTAScheduler *S;
  unsigned Rounds;
};

struct BenchCTA {
  std::vector<BenchWarp> Warps;
  std::vector<void *> Ctxs;
  CTALaunch L;
  BenchCTA(CTAScheduler &S, WarpFn Fn, unsigned NumWarps, unsigned Rounds)
      : Warps(NumWarps, BenchWarp{&S, Rounds}) {
    for (BenchWarp &W : Warps)
      Ctxs.push_back(&W);
    L.Fn = Fn;
    L.WarpCtxs = Ctxs;
    L.NumThreads = NumWarps * WarpSize;
    L.KernelName = "bench";
  }
};

/// Runs a CTA of State.range(0) warps that each call Fn's barrier 64 times,
/// and reports the time per warp per barrier.
void runBarrierRounds(benchmark::State &State, WarpFn Fn) {
  const unsigned NumWarps = State.range(0), Rounds = 64;
  FiberStackPool Pool;
  CTAScheduler S(Pool);
  BenchCTA CTA(S, Fn, NumWarps, Rounds);
  for (auto _ : State)
    llvm::cantFail(S.run(CTA.L));
  State.counters["ns/warp-barrier"] = benchmark::Counter(
      double(State.iterations()) * NumWarps * Rounds,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// Every warp of the CTA waits at bar.sync 0 Rounds times.
void BM_CTABarrier(benchmark::State &State) {
  runBarrierRounds(State, [](void *Ctx) {
    auto &W = *static_cast<BenchWarp *>(Ctx);
    BarrierArrival A;
    A.Lanes = AllLanes;
    for (unsigned I = 0; I < W.Rounds; ++I)
      W.S->arriveAndWait(A);
  });
}
BENCHMARK(BM_CTABarrier)->Arg(2)->Arg(8)->Arg(32);

// The same through syncAll, the path generated code takes for a bar.sync of
// all threads by a whole warp.
void BM_CTABarrierSyncAll(benchmark::State &State) {
  runBarrierRounds(State, [](void *Ctx) {
    auto &W = *static_cast<BenchWarp *>(Ctx);
    for (unsigned I = 0; I < W.Rounds; ++I)
      W.S->syncAll(/*Barrier=*/0, AllLanes, /*Line=*/1);
  });
}
BENCHMARK(BM_CTABarrierSyncAll)->Arg(2)->Arg(8)->Arg(32);

void emptyWarp(void *) {}

// What a CTA costs beyond its warps' work, with and without fibers.
void BM_CTAOverheadFibers(benchmark::State &State) {
  FiberStackPool Pool;
  CTAScheduler S(Pool);
  BenchCTA CTA(S, emptyWarp, State.range(0), 0);
  for (auto _ : State)
    llvm::cantFail(S.run(CTA.L));
}
BENCHMARK(BM_CTAOverheadFibers)->Arg(8)->Arg(32);

void BM_CTAOverheadWithoutBarriers(benchmark::State &State) {
  FiberStackPool Pool;
  CTAScheduler S(Pool);
  BenchCTA CTA(S, emptyWarp, State.range(0), 0);
  for (auto _ : State)
    llvm::cantFail(S.runWithoutBarriers(CTA.L));
}
BENCHMARK(BM_CTAOverheadWithoutBarriers)->Arg(8)->Arg(32);

} // namespace
