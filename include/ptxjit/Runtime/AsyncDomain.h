//===- AsyncDomain.h - mbarrier waits and the cluster barrier ---*- C++ -*-===//
//
// The CTAs of one cluster (a CTA launched without clusters is a cluster of
// one) share
//
// * the lanes that wait for the phase of an mbarrier object to complete
//   (mbarrier.test_wait and try_wait whose phase is incomplete). A lane
//   waits until an operation completes that phase, or until nothing in the
//   cluster can run any more: then its wait times out (try_wait's time limit;
//   test_wait, which never blocks on a GPU, is only delayed) and it goes on
//   with a false result. Waits that time out again with nothing moved in
//   between are a deadlock.
// * the cluster barrier (barrier.cluster.arrive and wait), which counts each
//   thread's arrival per phase and the threads that have exited.
// * what a CTA with no ready warp does: let the cluster's other CTAs run,
//   time out waits, or stop with a deadlock report.
//
// The state of an mbarrier object is its own 64-bit word (MBarrier.h); the
// domain keeps only who waits for it. Waiting lanes are the CTA barriers'
// external waits (CTABarriers::waitExternal): the scheduler suspends and
// wakes their warps as for a named barrier.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_ASYNCDOMAIN_H
#define PTXJIT_RUNTIME_ASYNCDOMAIN_H

#include "ptxjit/Runtime/CTABarriers.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ptxjit {
namespace runtime {

class CTAScheduler;

class AsyncDomain {
public:
  /// Starts a cluster: the schedulers of its CTAs by rank, each about to run
  /// a CTA of ThreadsPerCTA threads, and the shared memory of each (SharedSize
  /// bytes). Schedulers get the domain with their rank. MirrorOffset: the
  /// cluster's shared memory is mapped again that far above (GuardedMemory.h:
  /// allocateClusterShared), 0 if not.
  void reset(llvm::ArrayRef<CTAScheduler *> CTAs, unsigned ThreadsPerCTA,
             llvm::ArrayRef<char *> SharedBases, uint64_t SharedSize,
             uint64_t MirrorOffset = 0);
  /// The address in the first mapping of the cluster's shared memory for
  /// Addr, which may be in its second: one name per mbarrier object.
  uint64_t canonical(uint64_t Addr) const {
    uint64_t Base = reinterpret_cast<uintptr_t>(SharedBases.front());
    if (MirrorOffset && Addr - Base >= MirrorOffset &&
        Addr - Base < 2 * MirrorOffset)
      return Addr - MirrorOffset;
    return Addr;
  }
  unsigned size() const { return CTAs.size(); }
  CTAScheduler &cta(unsigned Rank) const { return *CTAs[Rank]; }
  char *sharedBase(unsigned Rank) const { return SharedBases[Rank]; }
  uint64_t sharedSize() const { return SharedSize; }

  /// Clusters of several CTAs: a CTA with no ready warp calls Fn(Arg, Rank)
  /// instead of deciding alone; Fn returns when its warps may be ready (the
  /// cluster's runner resumes it), and the runner decides about deadlocks.
  using YieldFn = void (*)(void *Arg, unsigned Rank);
  void setClusterYield(YieldFn Fn, void *Arg) {
    Yield = Fn;
    YieldArg = Arg;
  }

  // --- Called by CTAScheduler. ---
  /// No warp of CTA Rank is ready and some have not exited: true if some may
  /// be ready now, false if the CTA is deadlocked.
  bool stalled(unsigned Rank);
  void lanesExited(unsigned Rank, unsigned Warp, LaneMask Lanes);
  /// What the externally waiting lanes of Warp wait for: "lanes 0-31 wait
  /// for the mbarrier at shared 0x10 (phase 0, line 9)".
  void describeWaits(llvm::raw_ostream &OS, unsigned Rank, unsigned Warp) const;

  // --- mbarrier waits, about the running warp Warp of CTA Rank. ---
  /// Lanes wait for the current phase, of parity Parity, of the mbarrier
  /// object at host address Addr to complete.
  void waitForPhase(unsigned Rank, unsigned Warp, LaneMask Lanes, uint64_t Addr,
                    bool Parity, uint32_t Line);
  /// An operation completed a phase of the mbarrier object at Addr: its
  /// waiting lanes go on, their wait complete.
  void phaseCompleted(uint64_t Addr);
  /// mbarrier.init or inval changed the object at Addr: its waiting lanes go
  /// on as if their wait had timed out.
  void objectReset(uint64_t Addr);
  /// Lanes among Lanes whose wait completed since they waited (taken).
  LaneMask takeCompleted(unsigned Rank, unsigned Warp, LaneMask Lanes);
  /// Lanes have their wait's result (complete) to take when they go on.
  void keepCompleted(unsigned Rank, unsigned Warp, LaneMask Lanes);

  // --- The cluster barrier. ---
  /// Lanes of Warp arrive; fails if some arrived already in this phase.
  llvm::Error clusterArrive(unsigned Rank, unsigned Warp, LaneMask Lanes);
  /// Lanes of Warp reach barrier.cluster.wait: returns those whose phase has
  /// completed; the others wait. Fails for lanes that never arrived.
  llvm::Expected<LaneMask> clusterWait(unsigned Rank, unsigned Warp,
                                       LaneMask Lanes, uint32_t Line);

  // --- For runners. ---
  /// Something waiting lanes may see changed (an mbarrier object).
  void noteEvent() { ++Events; }
  /// What moved the cluster on so far: events and the CTAs' progress.
  uint64_t totalProgress() const;
  /// Nothing in the cluster can run: if something moved since the last time
  /// this was called, mbarrier waits time out (their lanes go on) and this
  /// returns true; otherwise the cluster is deadlocked.
  bool timeOutWaits();
  /// Whether CTA Rank yielded because it was stalled (reset by the runner).
  bool wasStalled(unsigned Rank) const { return Stalled[Rank]; }
  void clearStalled(unsigned Rank) { Stalled[Rank] = false; }

private:
  struct PhaseWait {
    unsigned Rank, Warp;
    LaneMask Lanes;
    uint64_t Addr;
    bool Parity;
    uint32_t Line;
  };
  unsigned laneIndex(unsigned Rank, unsigned Warp) const {
    return (Rank * WarpsPerCTA + Warp) * WarpSize;
  }
  void releasePhaseWaits(uint64_t Addr, bool Completed);
  void completeClusterPhase();

  llvm::SmallVector<CTAScheduler *, 1> CTAs;
  llvm::SmallVector<char *, 1> SharedBases;
  uint64_t SharedSize = 0;
  uint64_t MirrorOffset = 0;
  unsigned WarpsPerCTA = 0;
  YieldFn Yield = nullptr;
  void *YieldArg = nullptr;
  llvm::SmallVector<bool, 1> Stalled;
  uint64_t Events = 0;
  /// totalProgress() when waits last timed out (~0: never).
  uint64_t TimedOutAt = ~uint64_t(0);
  /// Some lane waited or arrived since reset (the state below needs
  /// clearing).
  bool Used = false;

  llvm::SmallVector<PhaseWait, 8> PhaseWaits;
  /// Per warp (Rank * WarpsPerCTA + Warp): lanes whose wait completed.
  std::vector<LaneMask> Completed;

  /// The cluster barrier: its phase, the live threads that arrived in it,
  /// the threads not exited, and per thread the phase it last arrived in
  /// plus one (0: never).
  uint32_t ClusterPhase = 0;
  unsigned ClusterArrived = 0;
  unsigned ClusterLive = 0;
  std::vector<uint32_t> ArrivedIn;
  /// Per warp: lanes waiting at barrier.cluster.wait, and the line.
  std::vector<LaneMask> ClusterWaiting;
  std::vector<uint32_t> ClusterWaitLine;
};

} // namespace runtime
} // namespace ptxjit

#endif
