//===- CTAScheduler.h - Runs the warps of one CTA on a thread ---*- C++ -*-===//
//
// A CTA is run on the calling thread. A kernel without barriers runs its warps
// one after another (runWithoutBarriers: no fibers). A kernel whose barriers
// are all in CTA-uniform control flow runs in phases (runInPhases): each
// warp in turn up to the next barrier, where it returns; no fibers either.
// Otherwise each warp is a fiber (run): a warp that must wait at a named
// barrier yields, and the next ready warp runs. When no warp can run while some
// still wait, that is a deadlock: the CTA stops with a CTADeadlockError and the
// waiting fibers are abandoned, without unwinding.
//
// Warp code calls back into the scheduler that runs it (arrive, wait, ...),
// always about the warp that is running. One scheduler per thread; several
// may share a FiberStackPool. A scheduler keeps its stacks between CTAs.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_CTASCHEDULER_H
#define PTXJIT_RUNTIME_CTASCHEDULER_H

#include "ptxjit/Runtime/CTABarriers.h"
#include "ptxjit/Runtime/Fiber.h"
#include "ptxjit/Runtime/FiberStackPool.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <atomic>
#include <memory>
#include <utility>

namespace ptxjit {
namespace runtime {

class AsyncDomain;
class DeviceHeap;

/// Runs one warp: all of its live lanes, from the kernel's entry to its exit.
using WarpFn = void (*)(void *WarpCtx);

/// One CTA to run.
struct CTALaunch {
  WarpFn Fn = nullptr;
  /// Passed to Fn; one per warp, so the CTA has WarpCtxs.size() warps.
  llvm::ArrayRef<void *> WarpCtxs;
  /// runInPhases: the WarpContext each call of Fn runs the warp with.
  llvm::ArrayRef<WarpContext *> Contexts;
  /// The kernel was compiled to return at its barriers in CTA-uniform
  /// control flow (KernelLayout::PhaseStateSize): run() arrives for the
  /// warps that return there.
  bool ReturnsAtBarriers = false;
  /// runInPhases: Fn runs the chain of warps WarpContext::NextWarp links
  /// (KernelLayout::RunsWarpChains), so one call runs every warp.
  bool RunsWarpChains = false;
  /// Threads in the CTA: warps are full but the last one may be partial.
  unsigned NumThreads = 0;
  /// For messages.
  llvm::StringRef KernelName;
  unsigned CTAId[3] = {0, 0, 0};
  /// When set, the CTA stops with a CTACancelledError the next time a warp
  /// yields (run) or before the next warp starts (runWithoutBarriers).
  const std::atomic<bool> *Cancel = nullptr;
};

class CTAScheduler {
public:
  explicit CTAScheduler(FiberStackPool &Pool);
  /// Gives the stacks back to the pool.
  ~CTAScheduler();
  CTAScheduler(const CTAScheduler &) = delete;
  CTAScheduler &operator=(const CTAScheduler &) = delete;

  /// Runs the warps of L as fibers until all have exited.
  llvm::Error run(const CTALaunch &L);
  /// Calls the warps of L one after another on this stack, for kernels
  /// without barriers. Barriers still work while no warp has to wait (always
  /// so in a one-warp CTA); a warp that would have to wait stops the CTA with
  /// an error, its lanes are let through so that it ends, and no warp after
  /// it runs.
  llvm::Error runWithoutBarriers(const CTALaunch &L);
  /// Runs the warps of L in phases, for kernels compiled to return at
  /// their barriers (KernelLayout::PhaseStateSize): every warp up to its
  /// next barrier, one after another, then all of them on past it, until
  /// all have exited. A warp that stops where phases cannot go on (at a
  /// barrier while other lanes of its warp wait elsewhere, or at another
  /// barrier than the other warps) lets the CTA go on with fibers, as run
  /// does, from where each warp is.
  llvm::Error runInPhases(const CTALaunch &L);

  // The rest is called by the running warp, about itself.

  /// Counts A.Lanes at the barrier; waiting lanes are then parked. Completes
  /// the barrier if that was the last thread it needed. Never blocks.
  void arrive(const BarrierArrival &A);
  /// Suspends the warp until some of its parked lanes among Lanes are
  /// released; returns those lanes (returned only once). Call it when all
  /// live lanes of the warp are parked. Returns at once if some already are.
  LaneMask wait(LaneMask Lanes = AllLanes);
  /// arrive() and wait() for a bar.sync of all threads (no count, no
  /// reduction) by Lanes, the warp's last running lanes: the generated code's
  /// barrier. Returns what wait() returns.
  LaneMask syncAll(unsigned Barrier, LaneMask Lanes, uint32_t Line) {
    if (!Barriers.tryArriveAtSync(Current, Barrier, Lanes, Line,
                                  [this](unsigned W) { wake(W); })) {
      BarrierArrival A;
      A.Barrier = Barrier;
      A.Lanes = Lanes;
      A.Line = Line;
      arrive(A);
    }
    return wait();
  }
  /// arrive(A), then, if A.Wait, wait until A.Lanes are released. Returns the
  /// bar.red result (0 for bar.sync and bar.arrive).
  uint32_t arriveAndWait(const BarrierArrival &A);
  /// The bar.red result of Barrier for the lanes it last released.
  uint32_t reductionResult(unsigned Barrier) const {
    return Barriers.reductionResult(Current, Barrier);
  }
  /// Lanes exit (PTX exit with other lanes still running). Lanes still live
  /// when the warp function returns exit then.
  void exitLanes(LaneMask Lanes);
  /// Lets the other ready warps run first, e.g. in a loop spinning on a flag
  /// that another warp sets. Does nothing without fibers. In a cooperative
  /// launch the other CTAs of the worker run first too (setGridYield).
  void yield() { yieldWarp(/*SpinLine=*/0); }
  /// yield() from a loop that only waits for others (SpinYield), at PTX
  /// line Line.
  void spinYield(uint32_t Line) { yieldWarp(Line ? Line : ~0u); }

  /// Cooperative launches: after a warp yields, run() calls Fn(Arg) on the
  /// CTA's stack, which runs the worker's other CTAs before it returns.
  using GridYieldFn = void (*)(void *Arg);
  void setGridYield(GridYieldFn Fn, void *Arg) {
    GridYield = Fn;
    GridYieldArg = Arg;
  }
  /// The mbarrier objects and cluster of the CTA (AsyncDomain.h), and the
  /// CTA's rank in its cluster. run() asks the domain what to do when no
  /// warp is ready but some wait; without one, that is a deadlock.
  void setAsyncDomain(AsyncDomain *D, unsigned Rank) {
    Domain = D;
    DomainRank = Rank;
  }
  AsyncDomain *asyncDomain() const { return Domain; }
  unsigned clusterRank() const { return DomainRank; }
  /// The running warp's Lanes wait for the domain, until it calls
  /// releaseExternal.
  void waitExternal(LaneMask Lanes) { Barriers.waitExternal(Current, Lanes); }
  void releaseExternal(unsigned Warp, LaneMask Lanes) {
    Barriers.releaseExternal(Warp, Lanes, [this](unsigned W) { wake(W); });
  }
  /// Stops the CTA with an error about the running warp (as a broken
  /// barrier rule does); on fibers it does not return.
  void failWarp(llvm::Error E) { stopFromWarp(warpError(std::move(E))); }
  /// "warp 0 lanes 0-31 wait at barrier 1 (line 9); warps 1-3 exited": what
  /// each warp does, for a deadlock report.
  void describeWarps(llvm::raw_ostream &OS) const;

  /// Counts what moves the CTA on: warps that exit, warps a barrier
  /// releases, yields from loops that do more than wait.
  uint64_t progress() const { return Progress; }
  /// The warp and PTX line of the last yield, if it came from a loop that
  /// only waits (SpinYield); Line 0 otherwise.
  unsigned lastSpinWarp() const { return SpinWarp; }
  uint32_t lastSpinLine() const { return SpinLine == ~0u ? 0 : SpinLine; }
  bool lastYieldSpun() const { return SpinLine != 0; }

  /// The device context's malloc heap (LaunchConfig::Heap), or null.
  DeviceHeap *deviceHeap() const { return Heap; }
  void setDeviceHeap(DeviceHeap *H) { Heap = H; }

  /// The checking mode's state for the CTAs of this scheduler (a CTACheck),
  /// null when the launch is not checked.
  void *checkState() const { return CheckState; }
  void setCheckState(void *S) { CheckState = S; }
  /// Orders the accesses before and after for racecheck (CTABarriers).
  void noteSync() { Barriers.noteSync(); }

  unsigned currentWarp() const { return Current; }
  /// Counts since the last call (--stats): warps that blocked at a barrier,
  /// and fibers that gave up the thread.
  uint64_t takeBarrierWaits() { return std::exchange(BarrierWaits, 0); }
  uint64_t takeFiberSwitches() { return std::exchange(FiberSwitches, 0); }
  LaneMask liveLanes() const { return Barriers.liveLanes(Current); }
  bool runsOnFibers() const { return OnFibers; }
  const CTABarriers &barriers() const { return Barriers; }

  /// Gives the stacks back to the pool (they are taken again when needed).
  void releaseStacks();
  /// Forgets the running CTA after a fault unwound past its warps; their
  /// stacks stay and are reset before they run again.
  void abandon() {
    Launch = nullptr;
    consumeError(std::move(Stop));
    Stop = llvm::Error::success();
  }

private:
  enum class WarpState : uint8_t { Ready, Running, Blocked, Exited };
  struct WarpSlot {
    Fiber F;
    CTAScheduler *Scheduler = nullptr;
    unsigned Warp = 0;
    WarpState State = WarpState::Ready;
  };

  static void warpMain(void *Slot);
  /// On fibers after phases: calls the warp function until the warp ends,
  /// arriving for it at each converged barrier site it returns at.
  void runWarpFromSites(unsigned Warp);
  /// run() after startCTA: warps in Exited (if not empty) have ended.
  llvm::Error runFibers(const CTALaunch &L, llvm::ArrayRef<bool> Exited);
  /// SpinLine: 0 for a plain yield, else the line (~0u if unknown).
  void yieldWarp(uint32_t SpinLine);
  llvm::Error startCTA(const CTALaunch &L, bool WithFibers);
  void wake(unsigned Warp);
  void pushReady(unsigned Warp);
  bool popReady(unsigned &Warp);
  /// Suspends the running warp (already marked Ready or Blocked) and runs the
  /// next ready warp, or returns to run() if none is ready or the CTA stops.
  void switchAway();
  bool cancelRequested() const {
    return Launch->Cancel && Launch->Cancel->load(std::memory_order_relaxed);
  }
  /// Stops the CTA with E and, on fibers, suspends the running warp for
  /// good: the caller's frame must own nothing (build E in another function).
  void stopFromWarp(llvm::Error E);
  std::string ctaName() const;
  /// Lanes of Warp exit (the barriers and the domain learn of it).
  void exitWarpLanes(unsigned Warp, LaneMask Lanes);
  llvm::Error warpError(const llvm::Twine &Message) const;
  llvm::Error warpError(llvm::Error Cause) const;
  llvm::Error cancelledError() const;
  llvm::Error deadlockError() const;

  FiberStackPool &Pool;
  llvm::SmallVector<std::unique_ptr<WarpSlot>, 0> Slots;
  CTABarriers Barriers;
  const CTALaunch *Launch = nullptr;
  unsigned NumWarps = 0;
  /// The running warp. A warp chain in phases writes it (RunningWarp).
  uint32_t Current = 0;
  /// The CTA ran in phases: its warps return at converged barrier sites.
  bool FromPhases = false;
  bool OnFibers = false;
  /// Set by a warp to stop the CTA; run() returns it.
  llvm::Error Stop = llvm::Error::success();
  AsyncDomain *Domain = nullptr;
  unsigned DomainRank = 0;
  GridYieldFn GridYield = nullptr;
  void *GridYieldArg = nullptr;
  /// A warp yielded to the grid: run() calls GridYield next.
  bool GridYieldPending = false;
  uint64_t Progress = 0;
  uint64_t BarrierWaits = 0;
  uint64_t FiberSwitches = 0;
  void *CheckState = nullptr;
  DeviceHeap *Heap = nullptr;
  uint32_t SpinLine = 0;
  unsigned SpinWarp = 0;
  /// Ring of ready warps; each warp is in it at most once.
  llvm::SmallVector<unsigned, 32> ReadyRing;
  unsigned ReadyHead = 0;
  unsigned ReadyCount = 0;
};

} // namespace runtime
} // namespace ptxjit

#endif
