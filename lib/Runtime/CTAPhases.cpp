//===- CTAPhases.cpp - Runs a CTA's warps in phases between barriers ------===//
//
// For kernels whose barriers are all bar.sync of every thread in CTA-uniform
// control flow, IRGen (with PTXJIT_BARRIERS=phases) makes each barrier a point where the warp function
// saves what it needs after the barrier (WarpContext::PhaseState) and
// returns (KernelLayout::PhaseStateSize). A CTA then runs as the loops of
// CPU OpenCL compilers do: every warp up to the barrier, one after another,
// then every warp on to the next one. No warp waits, so no fibers: a
// barrier costs a warp a return and a call.
//
// The barrier completes when every warp that has not exited returned at a
// barrier with the same id (exited threads are not waited for, as on
// sm_70). Anything else, a warp that reached the barrier while other lanes
// of it waited elsewhere, warps at different barriers or a barrier id out
// of range, goes on with
// fibers: each warp resumes where it returned, arrives at its barrier again
// through the general path, and the fiber scheduler sorts it out (also
// reporting a deadlock).
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
  for (WarpContext *C : L.Contexts) {
    C->PhaseMode = 1;
    C->ResumeSite = 0;
    C->ResumePassed = 0;
  }
  SmallVector<bool, 32> Exited(NumWarps, false);
  unsigned Live = NumWarps;
  bool Fibers = false;
  while (Live && !Stop && !Fibers) {
    if (cancelRequested()) {
      Stop = cancelledError();
      break;
    }
    unsigned AtBarrier = 0;
    uint32_t Barrier = 0;
    for (unsigned W = 0; W != NumWarps; ++W) {
      if (Exited[W])
        continue;
      Current = W;
      WarpContext &C = *L.Contexts[W];
      L.Fn(L.WarpCtxs[W]);
      if (C.Status != WS_Running) {
        // The warp stopped the CTA (trap, assert, ...): its caller reports.
        Launch = nullptr;
        return Error::success();
      }
      if (!C.ResumeSite) {
        Exited[W] = true;
        --Live;
        Barriers.exitLanes(W, AllLanes, [](unsigned) {});
        ++Progress;
        continue;
      }
      // Until every warp has arrived, the barrier has not completed.
      C.ResumePassed = 0;
      if (C.ResumeSite & PhaseDivergentSite) {
        Fibers = true;
        break;
      }
      // The general path reports an id out of range.
      if (C.SuspendBarrier >= NumCTABarriers ||
          (AtBarrier++ && C.SuspendBarrier != Barrier)) {
        Fibers = true;
        break;
      }
      Barrier = C.SuspendBarrier;
    }
    if (Fibers)
      break;
    // Everyone left has arrived at the same barrier: it completes.
    for (unsigned W = 0; W != NumWarps; ++W)
      if (!Exited[W])
        L.Contexts[W]->ResumePassed = 1;
  }
  if (!Fibers || Stop) {
    Launch = nullptr;
    Error Result = std::move(Stop);
    Stop = Error::success();
    return Result;
  }
  // Warps that returned in this round have not passed their barrier; the
  // others returned in the last one, whose barrier completed. All resume
  // where they are, waiting on fibers from now on.
  for (WarpContext *C : L.Contexts)
    C->PhaseMode = 0;
  return runFibers(L, Exited);
}
