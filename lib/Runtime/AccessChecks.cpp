//===- AccessChecks.cpp - Reports of wild global and generic accesses -----===//

#include "ptxjit/Runtime/AccessChecks.h"
#include "ptxjit/ABI/RuntimeEntryPoints.h"
#include "ptxjit/Runtime/CTABarriers.h"
#include "ptxjit/Runtime/DeviceArena.h"
#include "ptxjit/Runtime/FiberStackPool.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <pthread.h>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::runtime;

namespace {
/// The last fault ptxjit_rt_check_address found on this thread: the launch
/// reports it on the same thread once the warp has stopped.
struct AccessFault {
  const WarpContext *Warp = nullptr;
  uint32_t Site = 0, Lanes = 0;
  uint64_t Addresses[WarpSize] = {};
};
thread_local AccessFault LastFault;
} // namespace

/// Whether Address is on the stack this code runs on, at or above its own
/// frame: where the warp's .local frames are (generic addresses of .local
/// variables are host stack addresses).
static bool isOnOwnStack(uint64_t Address, uint64_t Size) {
  char Here;
  uint64_t Low = reinterpret_cast<uintptr_t>(&Here);
  if (Address < Low)
    return false;
  // A fiber's stack is no larger than the largest a pool hands out; a
  // thread's ends where pthreads says.
  uint64_t High = Low + FiberStackPool::getLargestStackSize();
  pthread_attr_t Attr;
  if (pthread_getattr_np(pthread_self(), &Attr) == 0) {
    void *Base;
    size_t StackSize;
    if (pthread_attr_getstack(&Attr, &Base, &StackSize) == 0) {
      uint64_t B = reinterpret_cast<uintptr_t>(Base);
      if (Low >= B && Low < B + StackSize)
        High = B + StackSize;
    }
    pthread_attr_destroy(&Attr);
  }
  return Address + Size <= High;
}

/// Whether a generic address of a lane lies in memory a kernel may use
/// outside the device range.
static bool isReachable(const WarpContext &W, uint64_t A, uint64_t Size) {
  uint64_t Shared = reinterpret_cast<uintptr_t>(W.SharedBase);
  if (A - Shared < W.TotalSharedSize &&
      Size <= W.TotalSharedSize - (A - Shared))
    return true;
  uint64_t Cluster = reinterpret_cast<uintptr_t>(W.ClusterSharedBase);
  uint64_t Span = 2 * W.ClusterSharedStride * W.ClusterDim[0] *
                  W.ClusterDim[1] * W.ClusterDim[2];
  if (A - Cluster < Span)
    return true;
  return isOnOwnStack(A, Size) || isAllocatedMemory(A, Size);
}

/// Whether [A, A + Size) lies in one of the module's own variables.
static bool isModuleVariable(const uint64_t *Variables, uint32_t N, uint64_t A,
                             uint64_t Size) {
  for (uint32_t I = 0; I != N; ++I) {
    uint64_t Off = A - Variables[2 * I], VarSize = Variables[2 * I + 1];
    if (Off < VarSize && Size <= VarSize - Off)
      return true;
  }
  return false;
}

extern "C" uint32_t ptxjit_rt_check_address(void *Warp,
                                           const uint64_t *Addresses,
                                           uint32_t Lanes, uint32_t Site,
                                           const uint64_t *Variables,
                                           uint32_t NumVariables) {
  auto &W = *static_cast<WarpContext *>(Warp);
  uint64_t Size = getAccessSiteSize(Site);
  uint32_t Faulting = 0;
  for (uint32_t L = Lanes; L; L &= L - 1) {
    unsigned Lane = countr_zero(L);
    uint64_t A = Addresses[Lane];
    // The kernel's code checked .local addresses against the lane's frame.
    bool Valid = getAccessSiteSpace(Site) != AS_Local &&
                 (isInDeviceArena(A) || isReachable(W, A, Size) ||
                  isModuleVariable(Variables, NumVariables, A, Size));
    if (A % Size || !Valid)
      Faulting |= 1u << Lane;
  }
  if (!Faulting)
    return 0;
  LastFault.Warp = &W;
  LastFault.Site = Site;
  LastFault.Lanes = Faulting;
  std::copy(Addresses, Addresses + WarpSize, LastFault.Addresses);
  W.Status = WS_MemoryFault;
  W.StatusLine = getAccessSiteLine(Site);
  W.StatusLanes = Faulting;
  return Faulting;
}

extern "C" uint32_t
ptxjit_rt_check_segments(void *Warp, const uint64_t *Firsts, uint64_t Stride,
                         uint32_t SegmentLanes, uint32_t Lanes, uint32_t Site,
                         const uint64_t *Variables, uint32_t NumVariables) {
  uint64_t Addresses[WarpSize];
  for (unsigned L = 0; L != WarpSize; ++L)
    Addresses[L] = Firsts[L / SegmentLanes] + Stride * (L % SegmentLanes);
  return ptxjit_rt_check_address(Warp, Addresses, Lanes, Site, Variables,
                                 NumVariables);
}

std::string runtime::describeLine(const KernelLayout &L, unsigned PTXLine) {
  std::string Text = formatv("line {0}", PTXLine);
  if (!L.PTXFile.empty())
    Text += " of " + L.PTXFile;
  std::string Source = describeSourceLine(L, PTXLine);
  if (!Source.empty())
    Text += " (" + Source + ")";
  return Text;
}

std::string runtime::describeSourceLine(const KernelLayout &L,
                                        unsigned PTXLine) {
  auto It = partition_point(
      L.SourceLines, [&](const SourceLine &S) { return S.PTXLine < PTXLine; });
  if (It == L.SourceLines.end() || It->PTXLine != PTXLine ||
      It->File >= L.SourceFiles.size())
    return "";
  return formatv("{0}:{1}", L.SourceFiles[It->File], It->Line).str();
}

/// "global store of 4 bytes".
static std::string describeAccess(uint32_t Site) {
  static const char *const Kinds[] = {"load", "store", "atomic", "access"};
  static const char *const Spaces[] = {"global", "generic", "local"};
  return formatv("{0} {1} of {2} bytes", Spaces[getAccessSiteSpace(Site)],
                 Kinds[getAccessSiteKind(Site)], getAccessSiteSize(Site));
}

/// What is wrong with one lane's address.
static std::string describeAddress(uint64_t A, uint64_t Size, uint32_t Site) {
  std::string Text = formatv("0x{0:x-}", A);
  if (A % Size)
    return Text + formatv(" is misaligned (not a multiple of {0})", Size).str();
  if (getAccessSiteSpace(Site) == AS_Local)
    return Text + " is outside the thread's own local memory";
  return Text + " " + describeDeviceAddress(A, Size);
}

/// The kind of fault, from the first faulting lane.
static const char *faultKind(uint64_t A, uint64_t Size) {
  if (A < 65536)
    return "null pointer";
  if (A % Size)
    return "misaligned";
  return "out-of-bounds";
}

std::string runtime::describeAccessFault(const WarpContext &Ctx,
                                         const KernelLayout &L,
                                         const std::string &Where) {
  if (LastFault.Warp != &Ctx)
    return formatv("invalid memory access in {0}, lanes (unknown)", Where);
  const AccessFault &F = LastFault;
  unsigned First = countr_zero(F.Lanes);
  uint64_t Size = getAccessSiteSize(F.Site);
  std::string Lanes;
  raw_string_ostream LOS(Lanes);
  printLanes(LOS, F.Lanes);
  std::string Text =
      formatv("{0} {1} in {2}, lanes {3}, at {4}",
              faultKind(F.Addresses[First], Size), describeAccess(F.Site),
              Where, Lanes, describeLine(L, getAccessSiteLine(F.Site)));
  // Each lane's address, as far as a report stays readable.
  constexpr unsigned MaxLanes = 4;
  unsigned Shown = 0, Count = popcount(F.Lanes);
  for (uint32_t M = F.Lanes; M && Shown != MaxLanes; M &= M - 1, ++Shown) {
    unsigned Lane = countr_zero(M);
    Text += formatv("\n  lane {0}: address {1}", Lane,
                    describeAddress(F.Addresses[Lane], Size, F.Site))
                .str();
  }
  if (Count > Shown)
    Text += formatv("\n  and {0} more lanes", Count - Shown).str();
  return Text;
}

std::string
runtime::describeSignalFault(const WarpContext *Ctx, uint64_t Address,
                             uint64_t StackPointer, const KernelLayout &L,
                             const std::string &Where, uint64_t ThreadStackSize,
                             StringRef StackSizeOption) {
  // The page after the CTA's shared memory is its guard (allocateGuarded):
  // a fault there ran past the shared memory, whatever stack lies near.
  uint64_t Shared = Ctx ? uintptr_t(Ctx->SharedBase) : 0;
  uint64_t Page = sys::Process::getPageSizeEstimate();
  bool InSharedGuard =
      Shared && Address >= Shared &&
      Address < alignTo(Shared + Ctx->TotalSharedSize, Page) + Page;
  // A fault within a frame's reach of the stack pointer ran into the
  // stack's guard page; device addresses never lie there.
  constexpr uint64_t FrameReach = 64 * 1024;
  if (StackPointer && !isInDeviceArena(Address) && !InSharedGuard &&
      Address + FrameReach >= StackPointer &&
      Address <= StackPointer + FrameReach) {
    std::string Depth =
        Ctx ? formatv("recursion depth {0}", Ctx->CallDepth).str()
            : std::string("recursion depth unknown");
    return formatv("stack overflow in {0}: {1} need more than the stack of "
                   "{2} bytes per thread ({3}; raise it with {4})\n  address "
                   "0x{5:x-}, stack pointer 0x{6:x-}",
                   Where,
                   Ctx && !Ctx->CallDepth ? "the kernel's own frames"
                                          : "its device functions",
                   ThreadStackSize, Depth, StackSizeOption, Address,
                   StackPointer);
  }
  std::string Text;
  // The site is the last global or generic access: only a fault in the
  // device range is sure to be it.
  if (Ctx && Ctx->AccessSite && isInDeviceArena(Address) &&
      getAccessSiteSpace(Ctx->AccessSite) != AS_Local) {
    uint32_t Site = Ctx->AccessSite;
    Text = formatv("{0} {1} in {2}, at {3}", faultKind(Address, 1),
                   describeAccess(Site), Where,
                   describeLine(L, getAccessSiteLine(Site)));
  } else {
    Text = formatv("invalid memory access in {0}", Where);
  }
  std::string Lane;
  if (isInDeviceArena(Address) || Address < 65536) {
    Lane = describeAddress(Address, /*Size=*/1, /*Site=*/0);
  } else if (Shared && Address - Shared < Ctx->TotalSharedSize + 65536) {
    Lane = formatv("0x{0:x-} is {1} bytes past the end of the CTA's {2} "
                   "bytes of shared memory",
                   Address, Address - Shared - Ctx->TotalSharedSize,
                   Ctx->TotalSharedSize);
    if (!Ctx->DynamicSharedSize)
      Lane += "; the launch gave no dynamic shared memory: if the kernel "
              "uses it (extern .shared), give its size (ptx-jit run "
              "--shared BYTES)";
  } else {
    Lane = formatv("0x{0:x-} is outside device memory", Address);
  }
  return Text + "\n  address " + Lane;
}
