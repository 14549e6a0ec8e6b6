//===- AsyncDomain.cpp - mbarrier waits and the cluster barrier -----------===//

#include "ptxjit/Runtime/AsyncDomain.h"
#include "ptxjit/Runtime/CTAScheduler.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <cassert>

using namespace llvm;
using namespace ptxjit::runtime;

void AsyncDomain::reset(ArrayRef<CTAScheduler *> NewCTAs,
                        unsigned ThreadsPerCTA, ArrayRef<char *> Bases,
                        uint64_t Size, uint64_t Mirror) {
  assert(NewCTAs.size() == Bases.size() && "a shared base per CTA");
  // A worker without clusters resets its domain for every CTA, with the
  // same scheduler and shared memory each time: the lists stay.
  if (!equal(CTAs, NewCTAs) || !equal(SharedBases, Bases)) {
    CTAs.assign(NewCTAs.begin(), NewCTAs.end());
    SharedBases.assign(Bases.begin(), Bases.end());
  }
  SharedSize = Size;
  MirrorOffset = Mirror;
  for (unsigned R = 0; R != CTAs.size(); ++R)
    CTAs[R]->setAsyncDomain(this, R);
  WarpsPerCTA = (ThreadsPerCTA + WarpSize - 1) / WarpSize;
  unsigned NumWarps = WarpsPerCTA * CTAs.size();
  if (Stalled.size() == CTAs.size())
    std::fill(Stalled.begin(), Stalled.end(), false);
  else
    Stalled.assign(CTAs.size(), false);
  Events = 0;
  TimedOutAt = ~uint64_t(0);
  ClusterPhase = 0;
  ClusterArrived = 0;
  ClusterLive = ThreadsPerCTA * CTAs.size();
  // Most kernels on fibers use none of this: clear the per-thread state only
  // if the last cluster touched it (a CTA each time, in a launch without
  // clusters).
  if (Used || Completed.size() != NumWarps) {
    PhaseWaits.clear();
    Completed.assign(NumWarps, 0);
    ArrivedIn.assign(NumWarps * WarpSize, 0);
    ClusterWaiting.assign(NumWarps, 0);
    ClusterWaitLine.assign(NumWarps, 0);
  }
  Used = false;
}

uint64_t AsyncDomain::totalProgress() const {
  uint64_t P = Events;
  for (const CTAScheduler *S : CTAs)
    P += S->progress();
  return P;
}

bool AsyncDomain::stalled(unsigned Rank) {
  if (Yield) {
    Stalled[Rank] = true;
    Yield(YieldArg, Rank);
    return true;
  }
  return timeOutWaits();
}

bool AsyncDomain::timeOutWaits() {
  uint64_t Now = totalProgress();
  if (PhaseWaits.empty() || Now == TimedOutAt)
    return false;
  // Waits time out only when nothing else can run, and again only after
  // something moved: a wait that can never complete ends as a deadlock.
  for (const PhaseWait &W : PhaseWaits)
    CTAs[W.Rank]->releaseExternal(W.Warp, W.Lanes);
  PhaseWaits.clear();
  TimedOutAt = totalProgress();
  return true;
}

void AsyncDomain::waitForPhase(unsigned Rank, unsigned Warp, LaneMask Lanes,
                               uint64_t Addr, bool Parity, uint32_t Line) {
  Used = true;
  CTAs[Rank]->waitExternal(Lanes);
  // One record per object and line: lanes of a warp that diverged and wait
  // for the same phase join it.
  for (PhaseWait &W : PhaseWaits)
    if (W.Rank == Rank && W.Warp == Warp && W.Addr == Addr && W.Line == Line &&
        W.Parity == Parity) {
      W.Lanes |= Lanes;
      return;
    }
  PhaseWaits.push_back({Rank, Warp, Lanes, Addr, Parity, Line});
}

void AsyncDomain::releasePhaseWaits(uint64_t Addr, bool WaitCompleted) {
  // Erase first: releasing wakes warps, which may wait again at once.
  SmallVector<PhaseWait, 4> Released;
  llvm::erase_if(PhaseWaits, [&](const PhaseWait &W) {
    if (W.Addr != Addr)
      return false;
    Released.push_back(W);
    return true;
  });
  for (const PhaseWait &W : Released) {
    if (WaitCompleted)
      Completed[laneIndex(W.Rank, W.Warp) / WarpSize] |= W.Lanes;
    CTAs[W.Rank]->releaseExternal(W.Warp, W.Lanes);
  }
}

void AsyncDomain::phaseCompleted(uint64_t Addr) {
  ++Events;
  releasePhaseWaits(Addr, /*WaitCompleted=*/true);
}

void AsyncDomain::objectReset(uint64_t Addr) {
  ++Events;
  releasePhaseWaits(Addr, /*WaitCompleted=*/false);
}

LaneMask AsyncDomain::takeCompleted(unsigned Rank, unsigned Warp,
                                    LaneMask Lanes) {
  LaneMask &C = Completed[laneIndex(Rank, Warp) / WarpSize];
  LaneMask R = C & Lanes;
  C &= ~R;
  return R;
}

void AsyncDomain::keepCompleted(unsigned Rank, unsigned Warp, LaneMask Lanes) {
  Used = true;
  Completed[laneIndex(Rank, Warp) / WarpSize] |= Lanes;
}

Error AsyncDomain::clusterArrive(unsigned Rank, unsigned Warp, LaneMask Lanes) {
  Used = true;
  uint32_t *In = &ArrivedIn[laneIndex(Rank, Warp)];
  LaneMask Twice = 0;
  for (unsigned L = 0; L != WarpSize; ++L)
    if ((Lanes >> L & 1) && In[L] == ClusterPhase + 1)
      Twice |= LaneMask(1) << L;
  if (Twice) {
    std::string Text;
    raw_string_ostream OS(Text);
    printLanes(OS, Twice);
    return createStringError("lanes %s arrive at barrier.cluster twice "
                             "before it completes",
                             Text.c_str());
  }
  for (unsigned L = 0; L != WarpSize; ++L)
    if (Lanes >> L & 1)
      In[L] = ClusterPhase + 1;
  ClusterArrived += popcount(Lanes);
  ++Events;
  if (ClusterArrived >= ClusterLive)
    completeClusterPhase();
  return Error::success();
}

Expected<LaneMask> AsyncDomain::clusterWait(unsigned Rank, unsigned Warp,
                                            LaneMask Lanes, uint32_t Line) {
  Used = true;
  const uint32_t *In = &ArrivedIn[laneIndex(Rank, Warp)];
  LaneMask Pass = 0, Never = 0;
  for (unsigned L = 0; L != WarpSize; ++L) {
    if (!(Lanes >> L & 1))
      continue;
    if (!In[L])
      Never |= LaneMask(1) << L;
    else if (In[L] <= ClusterPhase)
      Pass |= LaneMask(1) << L;
  }
  if (Never) {
    std::string Text;
    raw_string_ostream OS(Text);
    printLanes(OS, Never);
    return createStringError("lanes %s wait at barrier.cluster.wait without "
                             "having arrived at the barrier",
                             Text.c_str());
  }
  if (LaneMask Wait = Lanes & ~Pass) {
    unsigned W = laneIndex(Rank, Warp) / WarpSize;
    ClusterWaiting[W] |= Wait;
    ClusterWaitLine[W] = Line;
    CTAs[Rank]->waitExternal(Wait);
  }
  return Pass;
}

void AsyncDomain::completeClusterPhase() {
  ++ClusterPhase;
  ClusterArrived = 0;
  for (unsigned W = 0, E = ClusterWaiting.size(); W != E; ++W)
    if (LaneMask Lanes = std::exchange(ClusterWaiting[W], 0))
      CTAs[W / WarpsPerCTA]->releaseExternal(W % WarpsPerCTA, Lanes);
}

void AsyncDomain::lanesExited(unsigned Rank, unsigned Warp, LaneMask Lanes) {
  // Lanes that arrived at the cluster barrier of this phase no longer
  // count (every warp exits here: look only while some have arrived).
  if (ClusterArrived) {
    const uint32_t *In = &ArrivedIn[laneIndex(Rank, Warp)];
    for (LaneMask M = Lanes; M; M &= M - 1)
      if (In[countr_zero(M)] == ClusterPhase + 1)
        --ClusterArrived;
  }
  ClusterLive -= popcount(Lanes);
  // The threads still missing may have been these.
  if (ClusterArrived && ClusterArrived >= ClusterLive)
    completeClusterPhase();
}

void AsyncDomain::describeWaits(raw_ostream &OS, unsigned Rank,
                                unsigned Warp) const {
  bool First = true;
  auto Lanes = [&](LaneMask M) {
    OS << (First ? "" : ", ") << "lanes ";
    printLanes(OS, M);
    First = false;
  };
  // In lane order, whatever order the lanes came in.
  SmallVector<const PhaseWait *, 4> Waits;
  for (const PhaseWait &W : PhaseWaits)
    if (W.Rank == Rank && W.Warp == Warp)
      Waits.push_back(&W);
  llvm::sort(Waits, [](const PhaseWait *A, const PhaseWait *B) {
    return countr_zero(A->Lanes) < countr_zero(B->Lanes);
  });
  for (const PhaseWait *WP : Waits) {
    const PhaseWait &W = *WP;
    Lanes(W.Lanes);
    OS << " wait for the phase of parity " << unsigned(W.Parity)
       << " of the mbarrier at ";
    uint64_t Base = reinterpret_cast<uintptr_t>(SharedBases[Rank]);
    if (W.Addr >= Base && W.Addr - Base < (uint64_t(1) << 32))
      OS << "shared " << format_hex(W.Addr - Base, 1);
    else
      OS << format_hex(W.Addr, 1);
    OS << " (line " << W.Line << ')';
  }
  unsigned W = laneIndex(Rank, Warp) / WarpSize;
  if (LaneMask M = ClusterWaiting[W]) {
    Lanes(M);
    OS << " wait at barrier.cluster.wait (line " << ClusterWaitLine[W] << "), "
       << ClusterArrived << " of " << ClusterLive
       << " threads of the cluster arrived";
  }
}
