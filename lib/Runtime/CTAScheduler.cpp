//===- CTAScheduler.cpp - Runs the warps of one CTA on a thread -----------===//

#include "ptxjit/Runtime/CTAScheduler.h"
#include "ptxjit/Runtime/AsyncDomain.h"
#include "ptxjit/Runtime/CTAErrors.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"
#include <cassert>

using namespace llvm;
using namespace ptxjit::runtime;

CTAScheduler::CTAScheduler(FiberStackPool &Pool) : Pool(Pool) {}

CTAScheduler::~CTAScheduler() {
  releaseStacks();
  consumeError(std::move(Stop));
}

void CTAScheduler::releaseStacks() {
  assert(!Launch && "a CTA is running");
  for (std::unique_ptr<WarpSlot> &S : Slots)
    Pool.release(S->F.takeStack());
}

std::string CTAScheduler::ctaName() const {
  std::string Name;
  raw_string_ostream OS(Name);
  OS << "kernel '" << Launch->KernelName << "', CTA (" << Launch->CTAId[0]
     << ',' << Launch->CTAId[1] << ',' << Launch->CTAId[2] << ')';
  return Name;
}

Error CTAScheduler::startCTA(const CTALaunch &L, bool WithFibers) {
  assert(!Launch && "a CTA is already running on this scheduler");
  unsigned N = L.WarpCtxs.size();
  if (!L.Fn || !N || L.NumThreads > N * WarpSize ||
      L.NumThreads <= (N - 1) * WarpSize)
    return createStringError("kernel '%s': a CTA of %u threads cannot run "
                             "as %u warps",
                             L.KernelName.str().c_str(), L.NumThreads, N);
  Launch = &L;
  NumWarps = N;
  Current = 0;
  OnFibers = WithFibers;
  FromPhases = false;
  Barriers.reset(L.NumThreads);
  return Error::success();
}

Error CTAScheduler::runWithoutBarriers(const CTALaunch &L) {
  if (Error E = startCTA(L, /*WithFibers=*/false))
    return E;
  for (unsigned W = 0; W < NumWarps && !Stop; ++W) {
    if (cancelRequested()) {
      Stop = cancelledError();
      break;
    }
    Current = W;
    L.Fn(L.WarpCtxs[W]);
    exitWarpLanes(W, AllLanes);
  }
  Launch = nullptr;
  Error Result = std::move(Stop);
  Stop = Error::success();
  return Result;
}

Error CTAScheduler::run(const CTALaunch &L) {
  if (Error E = startCTA(L, /*WithFibers=*/true))
    return E;
  if (L.ReturnsAtBarriers) {
    FromPhases = true;
    for (WarpContext *C : L.Contexts) {
      C->PhaseMode = 0;
      C->ResumeSite = 0;
      C->SkipRounds = 0;
      C->NextWarp = nullptr;
    }
  }
  return runFibers(L, {});
}

Error CTAScheduler::runFibers(const CTALaunch &L, ArrayRef<bool> Exited) {
  OnFibers = true;
  while (Slots.size() < NumWarps)
    Slots.push_back(std::make_unique<WarpSlot>());
  ReadyRing.resize(NumWarps);
  ReadyHead = ReadyCount = 0;
  for (unsigned W = 0; W < NumWarps; ++W) {
    WarpSlot &S = *Slots[W];
    if (!Exited.empty() && Exited[W]) {
      S.State = WarpState::Exited;
      continue;
    }
    FiberStack Stack = S.F.stack();
    if (!Stack) {
      Expected<FiberStack> NewStack = Pool.acquire();
      if (!NewStack) {
        Launch = nullptr;
        return NewStack.takeError();
      }
      Stack = *NewStack;
    }
    S.F.reset(Stack, &CTAScheduler::warpMain, &S);
    S.Scheduler = this;
    S.Warp = W;
    S.State = WarpState::Ready;
    pushReady(W);
  }

  // Fibers come back here when they finish, or when no warp is ready or the
  // CTA stops; a warp that blocks switches straight to the next ready one.
  // When none is ready, the domain may release waiting lanes (or run the
  // cluster's other CTAs, which may) before this is a deadlock.
  unsigned W;
  do {
    while (!Stop && popReady(W)) {
      if (cancelRequested()) {
        Stop = cancelledError();
        break;
      }
      Current = W;
      Slots[W]->State = WarpState::Running;
      Slots[W]->F.resume();
      if (GridYieldPending) {
        GridYieldPending = false;
        GridYield(GridYieldArg);
      }
    }
  } while (!Stop && Domain &&
           llvm::any_of(ArrayRef(Slots).take_front(NumWarps),
                        [](const std::unique_ptr<WarpSlot> &S) {
                          return S->State != WarpState::Exited;
                        }) &&
           Domain->stalled(DomainRank));

  Error Result = std::move(Stop);
  Stop = Error::success();
  if (!Result) {
    for (unsigned I = 0; I < NumWarps; ++I)
      if (Slots[I]->State != WarpState::Exited) {
        Result = deadlockError();
        break;
      }
  }
  // Fibers still suspended are abandoned: their stacks are reset next time.
  Launch = nullptr;
  OnFibers = false;
  return Result;
}

void CTAScheduler::warpMain(void *Ptr) {
  WarpSlot &S = *static_cast<WarpSlot *>(Ptr);
  CTAScheduler &Sched = *S.Scheduler;
  if (Sched.FromPhases)
    Sched.runWarpFromSites(S.Warp);
  else
    Sched.Launch->Fn(Sched.Launch->WarpCtxs[S.Warp]);
  // Whatever lanes are left exit with the warp; that may complete barriers.
  Sched.exitWarpLanes(S.Warp, AllLanes);
  S.State = WarpState::Exited;
  ++Sched.Progress;
  // Straight on to the next ready warp, without a round trip through run().
  unsigned Next;
  if (!Sched.Stop && !Sched.cancelRequested() && Sched.popReady(Next)) {
    Sched.Current = Next;
    Sched.Slots[Next]->State = WarpState::Running;
    S.F.finishAndSwitchTo(Sched.Slots[Next]->F);
  }
}

void CTAScheduler::pushReady(unsigned Warp) {
  assert(ReadyCount < ReadyRing.size() && "warp queued twice");
  unsigned Tail = ReadyHead + ReadyCount++;
  if (Tail >= ReadyRing.size())
    Tail -= ReadyRing.size();
  ReadyRing[Tail] = Warp;
}

bool CTAScheduler::popReady(unsigned &Warp) {
  if (!ReadyCount)
    return false;
  Warp = ReadyRing[ReadyHead];
  if (++ReadyHead == ReadyRing.size())
    ReadyHead = 0;
  --ReadyCount;
  return true;
}

void CTAScheduler::wake(unsigned Warp) {
  // Without fibers no warp is ever suspended.
  if (!OnFibers)
    return;
  WarpSlot &S = *Slots[Warp];
  if (S.State != WarpState::Blocked)
    return;
  S.State = WarpState::Ready;
  ++Progress;
  pushReady(Warp);
}

void CTAScheduler::switchAway() {
  if (cancelRequested())
    stopFromWarp(cancelledError());
  Fiber &Self = Slots[Current]->F;
  unsigned Next;
  if (!popReady(Next)) {
    ++FiberSwitches;
    Self.yieldToScheduler();
    return;
  }
  if (Next == Current) {
    Slots[Next]->State = WarpState::Running;
    return;
  }
  Current = Next;
  Slots[Next]->State = WarpState::Running;
  ++FiberSwitches;
  Self.switchTo(Slots[Next]->F);
  // Whoever switched back to this warp has set Current and the state.
}

void CTAScheduler::stopFromWarp(Error E) {
  if (Stop)
    consumeError(std::move(E));
  else
    Stop = std::move(E);
  if (!OnFibers)
    return;
  Slots[Current]->State = WarpState::Blocked;
  Slots[Current]->F.yieldToScheduler();
  llvm_unreachable("a stopped CTA resumed a warp");
}

Error CTAScheduler::warpError(const Twine &Message) const {
  return createStringError(ctaName() + ", warp " + Twine(Current) + ": " +
                           Message);
}

Error CTAScheduler::cancelledError() const {
  return make_error<CTACancelledError>(ctaName() + " was cancelled");
}

Error CTAScheduler::warpError(Error Cause) const {
  return warpError(toString(std::move(Cause)));
}

void CTAScheduler::arrive(const BarrierArrival &A) {
  if (Error E = Barriers.arrive(Current, A, [this](unsigned W) { wake(W); }))
    stopFromWarp(warpError(std::move(E)));
}

LaneMask CTAScheduler::wait(LaneMask Lanes) {
  LaneMask Released = Barriers.takeReleased(Current, Lanes);
  while (!Released) {
    if (!OnFibers) {
      // This stack cannot be left: report the CTA and let the lanes through
      // so that the warp function ends.
      stopFromWarp(NumWarps == 1 ? deadlockError()
                                 : warpError("must wait at a barrier, but the "
                                             "CTA runs without fibers"));
      return Barriers.waitingLanes(Current) & Lanes;
    }
    Slots[Current]->State = WarpState::Blocked;
    ++BarrierWaits;
    switchAway();
    Released = Barriers.takeReleased(Current, Lanes);
  }
  return Released;
}

uint32_t CTAScheduler::arriveAndWait(const BarrierArrival &A) {
  arrive(A);
  if (!A.Wait || !A.Lanes)
    return 0;
  // One completion releases all of A.Lanes together.
  wait(A.Lanes);
  return Barriers.reductionResult(Current, A.Barrier);
}

void CTAScheduler::exitLanes(LaneMask Lanes) { exitWarpLanes(Current, Lanes); }

void CTAScheduler::exitWarpLanes(unsigned Warp, LaneMask Lanes) {
  Lanes &= Barriers.liveLanes(Warp);
  Barriers.exitLanes(Warp, Lanes, [this](unsigned W) { wake(W); });
  if (Domain && Lanes)
    Domain->lanesExited(DomainRank, Warp, Lanes);
}

void CTAScheduler::yieldWarp(uint32_t Spin) {
  if (!OnFibers)
    return;
  SpinLine = Spin;
  SpinWarp = Current;
  if (!Spin)
    ++Progress;
  Slots[Current]->State = WarpState::Ready;
  pushReady(Current);
  if (GridYield) {
    // Back to run(), which lets the worker's other CTAs run.
    if (cancelRequested())
      stopFromWarp(cancelledError());
    GridYieldPending = true;
    ++FiberSwitches;
    Slots[Current]->F.yieldToScheduler();
    return;
  }
  switchAway();
}

Error CTAScheduler::deadlockError() const {
  std::string Message;
  raw_string_ostream OS(Message);
  OS << "deadlock in " << ctaName() << ':';
  describeWarps(OS);
  return make_error<CTADeadlockError>(std::move(Message));
}

void CTAScheduler::describeWarps(raw_ostream &OS) const {
  // Consecutive warps in the same state are reported together.
  std::string Prev, Cur;
  unsigned First = 0;
  auto Flush = [&](unsigned Last) {
    OS << (First ? ";" : "") << (First == Last ? " warp " : " warps ") << First;
    if (First != Last)
      OS << '-' << Last;
    OS << ' ' << Prev;
  };
  for (unsigned W = 0; W < NumWarps; ++W) {
    Cur.clear();
    raw_string_ostream CurOS(Cur);
    if (Domain)
      Barriers.describeWarp(CurOS, W, [&](raw_ostream &Out, unsigned Warp) {
        Domain->describeWaits(Out, DomainRank, Warp);
      });
    else
      Barriers.describeWarp(CurOS, W);
    if (W && Cur != Prev) {
      Flush(W - 1);
      First = W;
    }
    Prev.swap(Cur);
  }
  Flush(NumWarps - 1);
  for (unsigned B = 0; B < NumCTABarriers; ++B)
    if (unsigned Arrived = Barriers.numArrived(B))
      OS << "; barrier " << B << " has " << Arrived << " of "
         << Barriers.numNeeded(B) << " threads";
}
