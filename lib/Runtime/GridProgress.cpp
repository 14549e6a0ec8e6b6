//===- GridProgress.cpp - Deadlock detection across a grid ----------------===//

#include "ptxjit/Runtime/GridProgress.h"

using namespace ptxjit::runtime;

GridProgress::GridProgress(unsigned NumWorkers, double StallSeconds)
    : NumWorkers(NumWorkers), StallSeconds(StallSeconds),
      Counters(new Counter[NumWorkers]) {}

bool GridProgress::isStalled(IdleWatch &W) const {
  uint64_t Total = 0;
  for (unsigned I = 0; I != NumWorkers; ++I)
    Total += Counters[I].Value.load(std::memory_order_relaxed);
  auto Now = std::chrono::steady_clock::now();
  if (!W.Watching || Total != W.Total) {
    W.Watching = true;
    W.Total = Total;
    W.Since = Now;
    return false;
  }
  return std::chrono::duration<double>(Now - W.Since).count() >= StallSeconds;
}
