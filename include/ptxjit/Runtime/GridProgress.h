//===- GridProgress.h - Deadlock detection across a grid --------*- C++ -*-===//
//
// In a cooperative launch the CTAs of a grid wait for each other through
// memory (grid.sync() spins on a counter), which no barrier bookkeeping
// sees. Each worker counts what moved its CTAs on (a CTA started or ended,
// a warp exited or was released from a barrier, a loop that does more than
// wait yielded). A worker whose CTAs only waited since it last looked asks
// whether any worker moved; when none did for the stall time, the grid is
// deadlocked: what the waiting CTAs wait for can only come from CTAs that
// are themselves only waiting, or have exited.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_GRIDPROGRESS_H
#define PTXJIT_RUNTIME_GRIDPROGRESS_H

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>

namespace ptxjit {
namespace runtime {

class GridProgress {
public:
  GridProgress(unsigned NumWorkers, double StallSeconds);

  /// Worker moved its CTAs on (only that worker calls this).
  void advance(unsigned Worker) {
    std::atomic<uint64_t> &C = Counters[Worker].Value;
    C.store(C.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }

  /// What one worker remembers between its idle looks.
  struct IdleWatch {
    bool Watching = false;
    uint64_t Total = 0;
    std::chrono::steady_clock::time_point Since;
  };
  /// Called by a worker whose CTAs only waited since its last look; true
  /// once no worker has moved for the stall time. The worker resets W when
  /// its CTAs move.
  bool isStalled(IdleWatch &W) const;
  double getStallSeconds() const { return StallSeconds; }

private:
  struct alignas(64) Counter {
    std::atomic<uint64_t> Value{0};
  };
  unsigned NumWorkers;
  double StallSeconds;
  std::unique_ptr<Counter[]> Counters;
};

} // namespace runtime
} // namespace ptxjit

#endif
