//===- CTABarriers.cpp - Bookkeeping of a CTA's named barriers ------------===//

#include "ptxjit/Runtime/CTABarriers.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cassert>

using namespace llvm;
using namespace ptxjit::runtime;

void ptxjit::runtime::printLanes(raw_ostream &OS, LaneMask Lanes) {
  bool First = true;
  for (unsigned L = 0; L < WarpSize;) {
    if (!(Lanes >> L & 1)) {
      ++L;
      continue;
    }
    unsigned End = L;
    while (End + 1 < WarpSize && (Lanes >> (End + 1) & 1))
      ++End;
    OS << (First ? "" : ",") << L;
    if (End != L)
      OS << '-' << End;
    First = false;
    L = End + 1;
  }
}

void CTABarriers::reset(unsigned NumThreadsInCTA) {
  NumThreads = NumThreadsInCTA;
  unsigned NumWarps = (NumThreads + WarpSize - 1) / WarpSize;
  Warps.resize(NumWarps);
  for (unsigned W = 0; W < NumWarps; ++W) {
    WarpState &S = Warps[W];
    // WaitingAt is only non-zero where Waiting is; a CTA that stopped in a
    // deadlock leaves some behind.
    if (S.Waiting)
      std::fill(std::begin(S.WaitingAt), std::end(S.WaitingAt), 0);
    S.Live = presentLanes(W);
    S.Waiting = 0;
    S.External = 0;
    S.Released = 0;
  }
  // A phase nobody has arrived at is Phase() already (arrivals that leave
  // or complete reset it).
  for (Phase &P : Phases)
    if (P.Arrived)
      P = Phase();
  NumLiveThreads = NumThreadsInCTA;
}

LaneMask CTABarriers::presentLanes(unsigned Warp) const {
  unsigned Lanes = std::min(WarpSize, NumThreads - Warp * WarpSize);
  return Lanes == WarpSize ? AllLanes : (LaneMask(1) << Lanes) - 1;
}

unsigned CTABarriers::numNeeded(unsigned Barrier) const {
  const Phase &P = Phases[Barrier];
  if (!P.Arrived)
    return 0;
  // Exited threads are not waited for: a count the remaining threads cannot
  // reach any more is lowered to what they can.
  return P.ThreadCount ? std::min(P.ThreadCount, NumLiveThreads)
                       : NumLiveThreads;
}

Error CTABarriers::checkArrival(unsigned Warp, const BarrierArrival &A) const {
  if (A.Barrier >= NumCTABarriers)
    return createStringError("barrier %u is out of range (0-15)", A.Barrier);
  if (!A.Wait && !A.ThreadCount)
    return createStringError(
        "bar.arrive at barrier %u needs a non-zero thread count", A.Barrier);
  if (!A.Wait && A.Reduction != BarrierReduction::None)
    return createStringError("barrier %u: a reduction must wait", A.Barrier);
  const WarpState &S = Warps[Warp];
  if (LaneMask Dead = A.Lanes & ~S.Live) {
    std::string Lanes;
    raw_string_ostream OS(Lanes);
    printLanes(OS, Dead);
    return createStringError("exited lanes %s arrive at barrier %u",
                             Lanes.c_str(), A.Barrier);
  }
  if (LaneMask Twice = A.Lanes & S.Waiting) {
    std::string Lanes;
    raw_string_ostream OS(Lanes);
    printLanes(OS, Twice);
    return createStringError("lanes %s arrive at barrier %u while they wait",
                             Lanes.c_str(), A.Barrier);
  }
  const Phase &P = Phases[A.Barrier];
  if (!P.Arrived)
    return Error::success();
  if (P.ThreadCount != A.ThreadCount)
    return createStringError(
        "barrier %u: thread count %u differs from %u of threads already "
        "arrived",
        A.Barrier, A.ThreadCount, P.ThreadCount);
  if (P.Reduction != A.Reduction)
    return createStringError("barrier %u: bar.red mixed with another kind of "
                             "arrival or reduction",
                             A.Barrier);
  return Error::success();
}

Error CTABarriers::arrive(unsigned Warp, const BarrierArrival &A, WakeFn Wake) {
  assert(Warp < Warps.size() && "no such warp");
  if (!A.Lanes)
    return Error::success();
  if (Error E = checkArrival(Warp, A))
    return E;
  Phase &P = Phases[A.Barrier];
  if (!P.Arrived) {
    P.ThreadCount = A.ThreadCount;
    P.Reduction = A.Reduction;
  }
  unsigned N = popcount(A.Lanes);
  P.Arrived += N;
  if (A.Reduction != BarrierReduction::None) {
    P.PredTrue += popcount(A.Predicate & A.Lanes);
    P.PredGiven += N;
  }
  if (A.Wait) {
    WarpState &S = Warps[Warp];
    S.WaitingAt[A.Barrier] |= A.Lanes;
    S.Waiting |= A.Lanes;
    S.Line[A.Barrier] = A.Line;
    // Only when it changes: the arrival's StringRef is often just written
    // by the caller, and reading it back whole stalls store forwarding.
    const char *Text = A.Where.data();
    if (S.Where[A.Barrier].data() != Text)
      S.Where[A.Barrier] = StringRef(Text, A.Where.size());
  }
  completeIfReady(A.Barrier, Wake);
  return Error::success();
}

void CTABarriers::exitLanes(unsigned Warp, LaneMask Lanes, WakeFn Wake) {
  WarpState &S = Warps[Warp];
  Lanes &= S.Live;
  if (!Lanes)
    return;
  // Waiting lanes only exit if the warp function returns while they wait;
  // they stop counting, as if they had never arrived.
  if (LaneMask Gone = Lanes & S.Waiting) {
    for (unsigned B = 0; B < NumCTABarriers; ++B) {
      LaneMask M = S.WaitingAt[B] & Gone;
      if (!M)
        continue;
      S.WaitingAt[B] &= ~M;
      Phase &P = Phases[B];
      P.Arrived -= popcount(M);
      if (P.Reduction != BarrierReduction::None) {
        P.PredGiven -= popcount(M);
        // Their predicates are unknown here; keep PredTrue within bounds.
        P.PredTrue = std::min(P.PredTrue, P.PredGiven);
      }
      if (!P.Arrived)
        P = Phase();
    }
    S.External &= ~Gone;
    S.Waiting &= ~Gone;
  }
  S.Live &= ~Lanes;
  S.Released &= ~Lanes;
  NumLiveThreads -= popcount(Lanes);
  // Only barriers with threads arrived can complete.
  for (unsigned B = 0; B < NumCTABarriers; ++B)
    if (Phases[B].Arrived)
      completeIfReady(B, Wake);
}

void CTABarriers::completeIfReady(unsigned Barrier, WakeFn Wake) {
  const Phase &P = Phases[Barrier];
  if (P.Arrived && P.Arrived >= numNeeded(Barrier))
    complete(Barrier, Wake);
}

void CTABarriers::complete(unsigned Barrier, WakeFn Wake) {
  const Phase &P = Phases[Barrier];
  uint32_t Result = 0;
  switch (P.Reduction) {
  case BarrierReduction::None:
    break;
  case BarrierReduction::Popc:
    Result = P.PredTrue;
    break;
  case BarrierReduction::And:
    Result = P.PredTrue == P.PredGiven;
    break;
  case BarrierReduction::Or:
    Result = P.PredTrue != 0;
    break;
  }
  // Reset before waking: a woken warp may arrive here again at once.
  Phases[Barrier] = Phase();
  ++Completions;
  for (unsigned W = 0, E = Warps.size(); W < E; ++W) {
    WarpState &S = Warps[W];
    LaneMask M = S.WaitingAt[Barrier];
    if (!M)
      continue;
    S.WaitingAt[Barrier] = 0;
    S.Waiting &= ~M;
    S.Released |= M;
    S.Result[Barrier] = Result;
    Wake(W);
  }
}

void CTABarriers::describeWarp(raw_ostream &OS, unsigned Warp,
                               DescribeFn DescribeExternal) const {
  const WarpState &S = Warps[Warp];
  if (!S.Live) {
    OS << "exited";
    return;
  }
  bool First = true;
  auto Sep = [&] {
    OS << (First ? "" : ", ");
    First = false;
  };
  for (unsigned B = 0; B < NumCTABarriers; ++B) {
    LaneMask M = S.WaitingAt[B];
    if (!M)
      continue;
    Sep();
    OS << "lanes ";
    printLanes(OS, M);
    OS << " wait at barrier " << B;
    if (S.Line[B])
      OS << " (line " << S.Line[B] << ')';
    else if (!S.Where[B].empty())
      OS << " (" << S.Where[B] << ')';
  }
  if (S.External && DescribeExternal) {
    Sep();
    DescribeExternal(OS, Warp);
  }
  if (LaneMask Other = S.Live & ~S.Waiting & ~S.Released) {
    Sep();
    OS << "lanes ";
    printLanes(OS, Other);
    OS << " not at a barrier";
  }
  if (S.Released) {
    Sep();
    OS << "lanes ";
    printLanes(OS, S.Released);
    OS << " released";
  }
  if (LaneMask Exited = presentLanes(Warp) & ~S.Live) {
    Sep();
    OS << "lanes ";
    printLanes(OS, Exited);
    OS << " exited";
  }
}
