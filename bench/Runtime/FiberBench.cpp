//===- FiberBench.cpp - Cost of one fiber switch --------------------------===//
//
// The "ns/switch" counter is the figure to watch: every barrier a warp waits
// at costs about one switch.
//
//===----------------------------------------------------------------------===//

#include "benchmark/benchmark.h"
#include "ptxjit/Runtime/Fiber.h"
#include <memory>
#include <vector>

using namespace ptxjit::runtime;

namespace {

void reportPerSwitch(benchmark::State &State, double SwitchesPerIteration) {
  State.counters["ns/switch"] = benchmark::Counter(
      double(State.iterations()) * SwitchesPerIteration,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// resume() into a fiber that yields straight back: two switches.
void BM_FiberResumeYield(benchmark::State &State) {
  FiberStackPool Pool;
  Fiber F;
  struct Loop {
    Fiber *Self;
    bool Stop = false;
  } L{&F};
  F.reset(
      llvm::cantFail(Pool.acquire()),
      [](void *P) {
        auto &L = *static_cast<Loop *>(P);
        while (!L.Stop)
          L.Self->yieldToScheduler();
      },
      &L);
  for (auto _ : State)
    F.resume();
  L.Stop = true;
  F.resume();
  Pool.release(F.takeStack());
  reportPerSwitch(State, 2);
}
BENCHMARK(BM_FiberResumeYield);

// A ring of fibers, each switching directly to the next: one switch each.
void BM_FiberSwitchToRing(benchmark::State &State) {
  const unsigned N = State.range(0);
  const int64_t Hops = 1 << 16;
  FiberStackPool Pool;
  std::vector<std::unique_ptr<Fiber>> Fibers;
  struct Ring {
    std::vector<std::unique_ptr<Fiber>> *Fibers;
    int64_t HopsLeft;
    unsigned Current;
  } R{&Fibers, 0, 0};
  for (unsigned I = 0; I < N; ++I)
    Fibers.push_back(std::make_unique<Fiber>());
  auto Entry = [](void *P) {
    auto &R = *static_cast<Ring *>(P);
    for (;;) {
      Fiber &Self = *(*R.Fibers)[R.Current];
      if (--R.HopsLeft <= 0)
        Self.yieldToScheduler();
      R.Current = (R.Current + 1) % R.Fibers->size();
      Self.switchTo(*(*R.Fibers)[R.Current]);
    }
  };
  for (auto &F : Fibers)
    F->reset(llvm::cantFail(Pool.acquire()), Entry, &R);
  for (auto _ : State) {
    R.HopsLeft = Hops;
    Fibers[R.Current]->resume();
  }
  // The fibers loop for ever; they are abandoned, which is allowed.
  for (auto &F : Fibers)
    Pool.release(F->takeStack());
  reportPerSwitch(State, Hops);
}
BENCHMARK(BM_FiberSwitchToRing)->Arg(2)->Arg(8)->Arg(32);

} // namespace
