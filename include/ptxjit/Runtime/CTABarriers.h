//===- CTABarriers.h - Bookkeeping of a CTA's named barriers ----*- C++ -*-===//
//
// The sixteen named barriers of one CTA with sm_70+ semantics: a barrier
// counts threads, not warps; lanes of one warp may arrive in several groups;
// a barrier without a thread count waits for all non-exited threads of the
// CTA, and exiting threads may complete it; bar.arrive counts without
// waiting; bar.red combines a predicate of every arriving thread.
//
// This is pure bookkeeping, with no fibers: CTAScheduler suspends and wakes
// warps around it, and tests can drive it directly.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_CTABARRIERS_H
#define PTXJIT_RUNTIME_CTABARRIERS_H

#include "ptxjit/ABI/WarpABI.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Error.h"
#include <cstdint>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ptxjit {
namespace runtime {

/// Bit L is lane L of a warp.
using LaneMask = uint32_t;
using ptxjit::WarpSize;
constexpr LaneMask AllLanes = ~LaneMask(0);
using ptxjit::NumCTABarriers;

/// The reduction of bar.red; None for bar.sync and bar.arrive.
using ptxjit::BarrierReduction;

/// One group of lanes of one warp reaching a named barrier.
struct BarrierArrival {
  unsigned Barrier = 0;
  /// Threads the barrier waits for; 0 means all non-exited threads of the CTA.
  unsigned ThreadCount = 0;
  /// The lanes arriving now.
  LaneMask Lanes = 0;
  /// false for bar.arrive: the lanes count but go on running.
  bool Wait = true;
  BarrierReduction Reduction = BarrierReduction::None;
  /// bar.red: the predicate of each arriving lane (already negated for !c).
  LaneMask Predicate = 0;
  /// Where the lanes wait, for a deadlock report (e.g. "line 42").
  llvm::StringRef Where;
  /// Or the PTX line (reported as "line N"), cheaper to pass on every
  /// arrival; 0 if unknown.
  uint32_t Line = 0;
};

/// Prints lanes as ranges: "0-15,20,30-31".
void printLanes(llvm::raw_ostream &OS, LaneMask Lanes);

class CTABarriers {
public:
  /// Called once per warp whose waiting lanes a completing barrier released.
  using WakeFn = llvm::function_ref<void(unsigned Warp)>;

  /// Starts a CTA of NumThreads threads in warps of 32 (the last may be
  /// partial): all barriers empty, every thread live.
  void reset(unsigned NumThreads);

  /// Counts A.Lanes of Warp at A.Barrier; completes the barrier if it now has
  /// all the threads it waits for, releasing its waiting lanes. Fails, and
  /// changes nothing, when the arrival breaks the rules of the PTX ISA.
  llvm::Error arrive(unsigned Warp, const BarrierArrival &A, WakeFn Wake);
  /// arrive() for the commonest arrival, a bar.sync of all non-exited
  /// threads (no count, no reduction) that breaks no rule; inline, as every
  /// warp of a CTA makes one per barrier. Returns false, changing nothing,
  /// for any other arrival: the caller then uses arrive(), which also
  /// reports what is wrong.
  bool tryArriveAtSync(unsigned Warp, unsigned Barrier, LaneMask Lanes,
                       uint32_t Line, WakeFn Wake) {
    if (Barrier >= NumCTABarriers || !Lanes)
      return false;
    WarpState &S = Warps[Warp];
    Phase &P = Phases[Barrier];
    if ((Lanes & ~S.Live) || (Lanes & S.Waiting) || P.ThreadCount ||
        P.Reduction != BarrierReduction::None)
      return false;
    P.Arrived += llvm::popcount(Lanes);
    S.WaitingAt[Barrier] |= Lanes;
    S.Waiting |= Lanes;
    S.Line[Barrier] = Line;
    if (P.Arrived >= NumLiveThreads)
      complete(Barrier, Wake);
    return true;
  }
  /// Lanes of Warp exit. Lanes that were waiting stop waiting and no longer
  /// count. Barriers still missing only these threads complete.
  void exitLanes(unsigned Warp, LaneMask Lanes, WakeFn Wake);

  /// Lanes of Warp wait for something no named barrier tracks (an mbarrier
  /// phase, the cluster barrier) until releaseExternal lets them go.
  void waitExternal(unsigned Warp, LaneMask Lanes) {
    Warps[Warp].Waiting |= Lanes;
    Warps[Warp].External |= Lanes;
  }
  void releaseExternal(unsigned Warp, LaneMask Lanes, WakeFn Wake) {
    WarpState &S = Warps[Warp];
    Lanes &= S.External;
    if (!Lanes)
      return;
    S.External &= ~Lanes;
    S.Waiting &= ~Lanes;
    S.Released |= Lanes;
    ++Completions;
    Wake(Warp);
  }
  LaneMask externalLanes(unsigned Warp) const { return Warps[Warp].External; }

  /// The released lanes among Lanes, which are then no longer reported.
  LaneMask takeReleased(unsigned Warp, LaneMask Lanes = AllLanes) {
    LaneMask R = Warps[Warp].Released & Lanes;
    Warps[Warp].Released &= ~R;
    return R;
  }
  /// The result of bar.red at Barrier for the lanes of Warp it last released.
  uint32_t reductionResult(unsigned Warp, unsigned Barrier) const {
    return Warps[Warp].Result[Barrier];
  }

  /// Completed barriers and other synchronizations (noteSync) since the
  /// scheduler started: the checking mode's racecheck epochs.
  uint64_t completions() const { return Completions; }
  /// Where the count is kept, for checked kernels' inline checks.
  const uint64_t *completionsAddress() const { return &Completions; }
  void noteSync() { ++Completions; }

  unsigned numWarps() const { return Warps.size(); }
  unsigned numThreads() const { return NumThreads; }
  /// The lanes of Warp that exist in the CTA (fewer in a partial last warp).
  LaneMask presentLanes(unsigned Warp) const;
  unsigned numLiveThreads() const { return NumLiveThreads; }
  LaneMask liveLanes(unsigned Warp) const { return Warps[Warp].Live; }
  LaneMask waitingLanes(unsigned Warp) const { return Warps[Warp].Waiting; }
  LaneMask waitingLanes(unsigned Warp, unsigned Barrier) const {
    return Warps[Warp].WaitingAt[Barrier];
  }
  /// Threads counted at Barrier since it last completed.
  unsigned numArrived(unsigned Barrier) const {
    return Phases[Barrier].Arrived;
  }
  /// Threads Barrier needs to complete now (0 when nothing arrived).
  unsigned numNeeded(unsigned Barrier) const;

  /// Says what lanes of Warp that wait externally wait for.
  using DescribeFn =
      llvm::function_ref<void(llvm::raw_ostream &OS, unsigned Warp)>;
  /// What Warp is doing, for a deadlock report: "lanes 0-31 wait at barrier 0
  /// (line 42)", "exited", ...; DescribeExternal, if given, says what its
  /// externally waiting lanes wait for.
  void describeWarp(llvm::raw_ostream &OS, unsigned Warp,
                    DescribeFn DescribeExternal = nullptr) const;

private:
  struct WarpState {
    LaneMask Live = 0;
    /// Union of WaitingAt and External.
    LaneMask Waiting = 0;
    /// Waiting for something other than a named barrier.
    LaneMask External = 0;
    /// Released by a completed barrier and not yet taken.
    LaneMask Released = 0;
    LaneMask WaitingAt[NumCTABarriers] = {};
    uint32_t Result[NumCTABarriers] = {};
    llvm::StringRef Where[NumCTABarriers];
    uint32_t Line[NumCTABarriers] = {};
  };
  /// A barrier between two completions.
  struct Phase {
    unsigned Arrived = 0;
    /// Of the first arrival; later ones must agree.
    unsigned ThreadCount = 0;
    BarrierReduction Reduction = BarrierReduction::None;
    /// Threads with a true predicate, and threads that gave one (bar.red).
    unsigned PredTrue = 0;
    unsigned PredGiven = 0;
  };

  llvm::Error checkArrival(unsigned Warp, const BarrierArrival &A) const;
  void completeIfReady(unsigned Barrier, WakeFn Wake);
  void complete(unsigned Barrier, WakeFn Wake);

  llvm::SmallVector<WarpState, 0> Warps;
  Phase Phases[NumCTABarriers];
  unsigned NumThreads = 0;
  unsigned NumLiveThreads = 0;
  uint64_t Completions = 0;
};

} // namespace runtime
} // namespace ptxjit

#endif
