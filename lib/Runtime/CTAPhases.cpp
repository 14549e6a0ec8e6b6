//===- CTAPhases.cpp - Runs a CTA's warps in phases between barriers ------===//
//
// For kernels whose barriers are all bar.sync of every thread in CTA-uniform
// control flow, IRGen makes each barrier a point where the warp function
// saves what it needs after the barrier (WarpContext::PhaseState) and
// returns (KernelLayout::PhaseStateSize). A CTA then runs as the loops of
// CPU OpenCL compilers do: every warp up to the barrier (one call of the
// warp chain), then every warp on to the next one. No warp waits, so no
// fibers: a barrier costs a warp a return into the chain and a resume.
//
// A warp may pass rounds ahead of time (WarpContext::SkipRounds,
// IRGen's PhaseProbes.cpp): each counts it as arrived at its barrier without
// a call, and on fibers it arrives at each before it resumes.
//
// The barrier completes when every warp that has not exited returned at a
// barrier with the same id (exited threads are not waited for, as on
// sm_70). A chain whose warps all returned at a converged site of the same
// barrier completes it itself and runs the next round (WarpChain.cpp, up
// to MaxChainRounds a call): this loop sees only the rounds that end
// otherwise. Anything else, a warp that reached the barrier while other lanes
// of it waited elsewhere, warps at different barriers or a barrier id out
// of range, goes on with fibers: each warp resumes where it returned, the
// runtime arrives for the warps at converged sites (runWarpFromSites), the
// others arrive through their general path, and the fiber scheduler sorts
// it out (also reporting a deadlock).
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Runtime/CTAScheduler.h"
#include "llvm/ADT/SmallVector.h"
#include <cassert>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::runtime;

Error CTAScheduler::runInPhases(const CTALaunch &L) {
  if (Error E = startCTA(L, /*WithFibers=*/false))
    return E;
  assert(L.Contexts.size() == NumWarps && "a context per warp");
  FromPhases = true;
  for (WarpContext *C : L.Contexts) {
    C->PhaseMode = 1;
    C->ResumeSite = 0;
    C->ResumePassed = 0;
    C->SkipRounds = 0;
    C->NextWarp = nullptr;
    // A chain says which of its warps runs (for the runtime calls it makes
    // and a fault report).
    C->RunningWarp = &Current;
  }
  assert(NumWarps <= 64 && "a CTA has at most 32 warps");
  // Warps that ended, one bit each: the barriers stop counting their lanes
  // only if the CTA goes on with fibers; in phases nothing else counts them.
  uint64_t Exited = 0;
  unsigned Live = NumWarps;
  bool Fibers = false;
  bool Relink = true;
  WarpContext *First = nullptr;
  while (Live && !Stop && !Fibers) {
    if (cancelRequested()) {
      Stop = cancelledError();
      break;
    }
    // Run every warp that has not exited up to its next barrier: one call
    // of a chain, or a call each.
    if (L.RunsWarpChains) {
      if (Relink) {
        First = nullptr;
        for (unsigned W = NumWarps; W-- != 0;)
          if (!(Exited >> W & 1)) {
            L.Contexts[W]->NextWarp = First;
            First = L.Contexts[W];
          }
        Relink = false;
      }
      Current = First->WarpIndex;
      L.Fn(L.WarpCtxs[Current]);
    }
    unsigned AtBarrier = 0;
    uint32_t Barrier = 0;
    for (unsigned W = 0; W != NumWarps; ++W) {
      if (Exited >> W & 1)
        continue;
      WarpContext &C = *L.Contexts[W];
      if (!L.RunsWarpChains) {
        // A warp that passed this round ahead of time is at the barrier.
        if (C.SkipRounds) {
          --C.SkipRounds;
        } else {
          Current = W;
          L.Fn(L.WarpCtxs[W]);
        }
        // Until every warp has arrived, the barrier has not completed.
        C.ResumePassed = 0;
      }
      if (C.Status != WS_Running) {
        // The warp stopped the CTA (trap, assert, ...): its caller reports.
        // A chain ran no warp after it.
        Launch = nullptr;
        return Error::success();
      }
      if (!C.ResumeSite) {
        Exited |= uint64_t(1) << W;
        --Live;
        Relink = true;
        ++Progress;
        continue;
      }
      // The general path reports an id out of range.
      if ((C.ResumeSite & PhaseDivergentSite) || !C.SuspendLanes ||
          C.SuspendBarrier >= NumCTABarriers ||
          (AtBarrier++ && C.SuspendBarrier != Barrier))
        Fibers = true;
      Barrier = C.SuspendBarrier;
      // Without a chain the later warps wait for fibers; a chain ran them
      // all, and each is at a barrier or has exited.
      if (Fibers && !L.RunsWarpChains)
        break;
    }
    if (Fibers)
      break;
    // Everyone left has arrived at the same barrier: it completes. (A
    // chain's warps all return in every round: none needs to know.)
    if (!L.RunsWarpChains)
      for (unsigned W = 0; W != NumWarps; ++W)
        if (!(Exited >> W & 1))
          L.Contexts[W]->ResumePassed = 1;
  }
  for (WarpContext *C : L.Contexts)
    C->NextWarp = nullptr;
  if (!Fibers || Stop) {
    Launch = nullptr;
    Error Result = std::move(Stop);
    Stop = Error::success();
    return Result;
  }
  SmallVector<bool, 32> Ended(NumWarps, false);
  for (unsigned W = 0; W != NumWarps; ++W)
    if (Exited >> W & 1) {
      Ended[W] = true;
      Barriers.exitLanes(W, AllLanes, [](unsigned) {});
    }
  // Warps that returned in this round have not passed their barrier (in a
  // chain, all of them); the others returned in the last one, whose
  // barrier completed. All resume where they are, waiting on fibers from
  // now on.
  for (WarpContext *C : L.Contexts)
    C->PhaseMode = 0;
  return runFibers(L, Ended);
}

void CTAScheduler::runWarpFromSites(unsigned W) {
  WarpContext &C = *Launch->Contexts[W];
  for (;;) {
    // Returned at a converged site whose barrier has not completed: arrive
    // as the warp's general path would (which reports a bad id, waits on
    // the fiber and finds deadlocks), then go on past it. No lanes: they
    // had all passed it (released while parked there).
    if (C.ResumeSite && !(C.ResumeSite & PhaseDivergentSite) &&
        !C.ResumePassed && C.SuspendLanes) {
      LaneMask Arriving = C.SuspendLanes;
      LaneMask Released = syncAll(C.SuspendBarrier, Arriving, C.SuspendLine);
      (void)Released;
      assert(Released == Arriving && "a barrier of all threads releases all");
    }
    // Rounds it passed ahead of time, in phases: arrive at each in turn.
    for (; C.SkipRounds; --C.SkipRounds)
      syncAll(C.SuspendBarrier, C.SuspendLanes, C.SuspendLine);
    C.ResumePassed = 1;
    Launch->Fn(Launch->WarpCtxs[W]);
    if (!C.ResumeSite || C.Status != WS_Running)
      return;
    C.ResumePassed = 0;
  }
}
