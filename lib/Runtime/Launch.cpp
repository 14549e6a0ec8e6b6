//===- Launch.cpp - Running a compiled kernel over a grid -----------------===//

#include "ptxjit/Runtime/Launch.h"
#include "CTACheck.h"
#include "ptxjit/ABI/CompiledKernel.h"
#include "ptxjit/ABI/WarpABI.h"
#include "ptxjit/Runtime/AccessChecks.h"
#include "ptxjit/Runtime/AsyncDomain.h"
#include "ptxjit/Runtime/CTAErrors.h"
#include "ptxjit/Runtime/CTAScheduler.h"
#include "ptxjit/Runtime/DeviceArena.h"
#include "ptxjit/Runtime/DevicePrintf.h"
#include "ptxjit/Runtime/Fiber.h"
#include "ptxjit/Runtime/FloatEnvironment.h"
#include "ptxjit/Runtime/GridProgress.h"
#include "ptxjit/Runtime/GuardedMemory.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include <csetjmp>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

using namespace llvm;
using namespace ptxjit;

static Error configError(const Twine &Msg) {
  return runtime::makeLaunchError(runtime::LaunchFailure::InvalidConfiguration,
                                  Msg);
}

static Error valueError(const Twine &Msg) {
  return runtime::makeLaunchError(runtime::LaunchFailure::InvalidValue, Msg);
}

void ptxjit::getClusterShape(const LaunchConfig &C, const KernelLayout &L,
                             uint32_t Dim[3], bool &Explicit) {
  const uint32_t *From = C.ClusterDim[0]          ? C.ClusterDim
                         : L.ReqNCTAPerCluster[0] ? L.ReqNCTAPerCluster
                                                  : nullptr;
  Explicit = From != nullptr;
  for (unsigned D = 0; D != 3; ++D)
    Dim[D] = From ? From[D] : 1;
}

static Error clusterError(const Twine &Msg) {
  return runtime::makeLaunchError(runtime::LaunchFailure::InvalidClusterSize,
                                  Msg);
}

/// What a GPU rejects about a launch's clusters.
static Error validateClusters(const LaunchConfig &C, const KernelLayout &L) {
  static const char Axis[3] = {'x', 'y', 'z'};
  uint32_t Dim[3];
  bool Explicit;
  getClusterShape(C, L, Dim, Explicit);
  if (L.ExplicitCluster && !Explicit)
    return clusterError("the kernel has .explicitcluster, but the launch "
                        "gives no cluster shape");
  uint64_t Size = uint64_t(Dim[0]) * Dim[1] * Dim[2];
  if (!Size)
    return clusterError("a cluster dimension is 0");
  if (L.ReqNCTAPerCluster[0] && C.ClusterDim[0])
    for (unsigned D = 0; D != 3; ++D)
      if (C.ClusterDim[D] != L.ReqNCTAPerCluster[D])
        return clusterError(
            formatv("cluster {0}x{1}x{2} does not match the kernel's "
                    ".reqnctapercluster {3}, {4}, {5}",
                    C.ClusterDim[0], C.ClusterDim[1], C.ClusterDim[2],
                    L.ReqNCTAPerCluster[0], L.ReqNCTAPerCluster[1],
                    L.ReqNCTAPerCluster[2]));
  for (unsigned D = 0; D != 3; ++D)
    if (C.Grid[D] % Dim[D])
      return clusterError(formatv("grid dimension {0} = {1} is not a "
                                  "multiple of the cluster dimension {2}",
                                  Axis[D], C.Grid[D], Dim[D]));
  if (Size > MaxClusterSize)
    return clusterError(formatv("clusters of {0} CTAs exceed the limit of "
                                "{1}",
                                Size, MaxClusterSize));
  if (L.MaxClusterRank && Size > L.MaxClusterRank)
    return clusterError(formatv("clusters of {0} CTAs exceed the kernel's "
                                ".maxclusterrank {1}",
                                Size, L.MaxClusterRank));
  if (Size > 1 && C.Cooperative)
    return runtime::makeLaunchError(
        runtime::LaunchFailure::NotSupported,
        "cooperative launches with clusters are not supported");
  return Error::success();
}

Error ptxjit::validateLaunch(const LaunchConfig &C, const KernelLayout &L) {
  const uint32_t *B = C.Block, *G = C.Grid;
  static const uint32_t MaxBlock[3] = {1024, 1024, 64};
  static const uint32_t MaxGrid[3] = {0x7fffffff, 65535, 65535};
  static const char Axis[3] = {'x', 'y', 'z'};
  for (unsigned D = 0; D != 3; ++D) {
    if (B[D] == 0 || B[D] > MaxBlock[D])
      return configError(formatv("block dimension {0} = {1} is out of range "
                                 "(1..{2})",
                                 Axis[D], B[D], MaxBlock[D]));
    if (G[D] == 0 || G[D] > MaxGrid[D])
      return configError(formatv("grid dimension {0} = {1} is out of range "
                                 "(1..{2})",
                                 Axis[D], G[D], MaxGrid[D]));
  }
  uint64_t Threads = uint64_t(B[0]) * B[1] * B[2];
  if (Threads > MaxThreadsPerBlock)
    return configError(formatv("{0} threads per block exceed the limit of {1}",
                               Threads, MaxThreadsPerBlock));
  if (L.ReqNTid[0] &&
      (B[0] != L.ReqNTid[0] || B[1] != L.ReqNTid[1] || B[2] != L.ReqNTid[2]))
    return configError(formatv("block {0}x{1}x{2} does not match the kernel's "
                               ".reqntid {3}, {4}, {5}",
                               B[0], B[1], B[2], L.ReqNTid[0], L.ReqNTid[1],
                               L.ReqNTid[2]));
  if (L.MaxNTid[0] &&
      Threads > uint64_t(L.MaxNTid[0]) * L.MaxNTid[1] * L.MaxNTid[2])
    return configError(formatv("{0} threads per block exceed the kernel's "
                               ".maxntid {1}, {2}, {3}",
                               Threads, L.MaxNTid[0], L.MaxNTid[1],
                               L.MaxNTid[2]));
  if (L.StaticSharedSize > MaxSharedBytesPerBlock)
    return valueError(formatv("{0} bytes of static shared memory exceed the "
                              "limit of {1} per block",
                              L.StaticSharedSize, MaxSharedBytesPerBlock));
  if (L.StaticSharedSize + C.DynamicSharedBytes > MaxSharedBytesPerBlockOptin)
    return valueError(formatv(
        "{0} bytes of shared memory ({1} static + {2} dynamic) exceed the "
        "limit of {3} per block",
        L.StaticSharedSize + C.DynamicSharedBytes, L.StaticSharedSize,
        C.DynamicSharedBytes, MaxSharedBytesPerBlockOptin));
  return validateClusters(C, L);
}

namespace {

/// What a warp fiber needs to call the generated warp function.
struct WarpSlot {
  WarpFunction Entry;
  const void *Params;
  WarpContext Ctx;
};

void runWarpSlot(void *Slot) {
  auto *S = static_cast<WarpSlot *>(Slot);
  S->Entry(S->Params, &S->Ctx);
}

std::string lanesText(uint32_t Lanes);

/// "lanes 0-15 wait at a warp-synchronous instruction (line 40); lanes ..."
/// for Lanes, one group per line (WarpContext::LaneLines).
std::string describeSyncGroups(const WarpContext &Ctx, uint32_t Lanes) {
  std::string Groups;
  while (Lanes) {
    unsigned First = llvm::countr_zero(Lanes);
    uint32_t Line = Ctx.LaneLines[First], Group = 0;
    for (unsigned L = First; L != WarpSize; ++L)
      if ((Lanes >> L & 1) && Ctx.LaneLines[L] == Line)
        Group |= 1u << L;
    Lanes &= ~Group;
    Groups += formatv("{0}lanes {1} wait at a warp-synchronous instruction "
                      "(line {2})",
                      Groups.empty() ? "" : "; ", lanesText(Group), Line)
                  .str();
  }
  return Groups;
}

std::string lanesText(uint32_t Lanes) {
  std::string Text;
  raw_string_ostream OS(Text);
  runtime::printLanes(OS, Lanes);
  return Text;
}

} // namespace

Expected<uint32_t> ptxjit::parseThreadStackSize(StringRef Text) {
  uint64_t Bytes;
  if (Text.trim().getAsInteger(0, Bytes) || Bytes == 0 ||
      Bytes > MaxThreadStackSize)
    return createStringError(inconvertibleErrorCode(),
                             "invalid stack size '%s': give bytes per "
                             "thread, 1 to %u",
                             Text.str().c_str(), MaxThreadStackSize);
  return uint32_t(Bytes);
}

uint64_t ptxjit::getWarpStackSize(const KernelLayout &L,
                                  uint64_t ThreadStackSize) {
  constexpr uint64_t MinStack = 64 * 1024;
  uint64_t Base =
      std::max(ThreadStackSize * WarpStackBytesPerThreadByte, MinStack);
  uint64_t Frames = L.LocalBytesPerLane * WarpSize;
  uint64_t Stack = Frames <= Base / 4 ? Base : Base + Frames;
  // A warp function's own frame is small next to the device stack, except
  // unoptimized, where it holds every register of the warp: then it comes
  // on top, and the device functions keep the stack the size asks for.
  if (L.NativeFrameBytes > Base / 4)
    Stack += L.NativeFrameBytes;
  return Stack;
}

namespace {

/// Whether the warps run as fibers: for CTA barriers, or because their
/// .local and native frames are more than a worker thread's stack should
/// hold (phases run on the thread's stack too).
static bool hasLargeFrames(const KernelLayout &L) {
  constexpr uint64_t ThreadStackFrames = 1 << 20;
  return L.LocalBytesPerLane * WarpSize + L.NativeFrameBytes >
         ThreadStackFrames;
}
static bool runsOnFibers(const KernelLayout &L) {
  return L.UsesCTABarriers || hasLargeFrames(L);
}

/// A host thread keeps the guarded shared memory of its last launch: the
/// next launch of the same kernel needs the same size, and mapping and
/// unmapping it each time cost more than a small kernel.
struct SharedMemoryCache {
  char *Base = nullptr;
  uint64_t Size = 0;
  ~SharedMemoryCache() { runtime::freeGuarded(Base, Size); }
};
thread_local SharedMemoryCache CachedShared;

char *acquireSharedMemory(uint64_t Size) {
  // Only the same size: a smaller window in a larger mapping would not end
  // at its guard page.
  if (CachedShared.Base && CachedShared.Size == Size) {
    char *Base = CachedShared.Base;
    CachedShared.Base = nullptr;
    return Base;
  }
  return static_cast<char *>(runtime::allocateGuarded(Size, 256));
}

void releaseSharedMemory(char *Base, uint64_t Size) {
  if (!Base)
    return;
  runtime::freeGuarded(CachedShared.Base, CachedShared.Size);
  CachedShared.Base = Base;
  CachedShared.Size = Size;
}

/// A host thread keeps the stack it ran its last launch's CTAs on
/// (CTAWorker::runFrom) for the next launch with stacks of that size, as it
/// keeps shared memory: mapping one costs system calls. Not one larger than
/// MaxKeptWorkerStack, whose touched pages would stay resident.
thread_local std::unique_ptr<runtime::FiberStackPool> WorkerStacks;
constexpr size_t MaxKeptWorkerStack = 1 << 20;

Expected<runtime::FiberStack> acquireWorkerStack(size_t Size) {
  if (!WorkerStacks || WorkerStacks->stackSize() != Size)
    WorkerStacks = std::make_unique<runtime::FiberStackPool>(Size);
  return WorkerStacks->acquire();
}

/// Hands out the CTAs of one launch to its workers in chunks: large while
/// much is left, to keep the shared counter cool, and shrinking toward the
/// end (guided self-scheduling), so that the workers finish together.
struct CTAQueue {
  uint64_t NumCTAs = 0;
  uint64_t NumWorkers = 1;
  std::atomic<uint64_t> Next{0};
  /// Set when a worker failed: the others stop at their next CTA.
  std::atomic<bool> Failed{false};
  /// The lowest CTA (unit) that failed so far. Chunks are taken in order and
  /// run to their end, except past this, so the lowest failing CTA is the
  /// same whichever thread fails first: that is the one reported.
  std::atomic<uint64_t> LowestFailed{UINT64_MAX};

  /// Records that Unit failed; true when it is the lowest so far.
  bool noteFailure(uint64_t Unit) {
    Failed.store(true, std::memory_order_relaxed);
    uint64_t Cur = LowestFailed.load(std::memory_order_relaxed);
    while (Unit < Cur)
      if (LowestFailed.compare_exchange_weak(Cur, Unit,
                                             std::memory_order_relaxed))
        return true;
    return false;
  }
  bool pastFailure(uint64_t Unit) const {
    return Unit > LowestFailed.load(std::memory_order_relaxed);
  }

  /// The next chunk [First, Last), or false when all CTAs are taken.
  bool take(uint64_t &First, uint64_t &Last) {
    uint64_t Cur = Next.load(std::memory_order_relaxed);
    for (;;) {
      if (Cur >= NumCTAs)
        return false;
      uint64_t N =
          std::clamp<uint64_t>((NumCTAs - Cur) / (4 * NumWorkers), 1, 64);
      if (Next.compare_exchange_weak(Cur, Cur + N, std::memory_order_relaxed)) {
        First = Cur;
        Last = Cur + N;
        return true;
      }
    }
  }
};

/// Where a CTA of a cluster of several runs (ClusterWorker): its shared
/// memory and the cluster's.
struct ClusterSlot {
  char *SharedBase = nullptr;
  char *ClusterSharedBase = nullptr;
  uint64_t ClusterSharedStride = 0;
};

/// Runs CTAs taken from a CTAQueue; one per host thread.
class CTAWorker {
public:
  ~CTAWorker() {
    consumeError(std::move(OnStackResult));
    if (!Cluster)
      releaseSharedMemory(SharedBase, std::max<uint64_t>(SharedSize, 16));
  }
  CTAWorker(const CTAWorker &) = delete;
  CTAWorker &operator=(const CTAWorker &) = delete;

  CTAWorker(const CompiledKernel &K, const void *Params, const LaunchConfig &C,
            unsigned WorkerIndex, unsigned NumWorkers,
            runtime::FiberStackPool &Pool, const uint32_t *EnvRegs,
            const ClusterSlot *Cluster = nullptr)
      : K(K), C(C), WarpStackSize(Pool.stackSize()), Scheduler(Pool),
        Cluster(Cluster) {
    const uint32_t *B = C.Block;
    NumThreads = B[0] * B[1] * B[2];
    NumWarps = (NumThreads + WarpSize - 1) / WarpSize;
    SharedSize = getSharedWindowSize(K.Layout, C.DynamicSharedBytes);
    // Shared memory is host memory between guard pages: a kernel indexing
    // past it faults instead of corrupting the heap.
    SharedBase = Cluster ? Cluster->SharedBase
                         : static_cast<char *>(acquireSharedMemory(
                               std::max<uint64_t>(SharedSize, 16)));
    uint32_t ClusterDim[3];
    bool ExplicitCluster;
    getClusterShape(C, K.Layout, ClusterDim, ExplicitCluster);
    Fault.KernelName = K.Name.c_str();
    Fault.Recovery = &Recovery;
    Slots.resize(NumWarps);
    // Each warp's registers across a barrier where it returns, in phases or
    // on fibers.
    uint64_t PhaseBytes = alignTo(K.Layout.PhaseStateSize, 64);
    if (PhaseBytes) {
      PhaseState.reset(
          static_cast<char *>(std::aligned_alloc(64, PhaseBytes * NumWarps)));
      if (!PhaseState)
        report_fatal_error("out of memory for the CTA's phase state");
    }
    static const uint8_t NeverCancel = 0;
    // What does not change between CTAs is set once.
    for (unsigned W = 0; W != NumWarps; ++W) {
      WarpSlot &S = Slots[W];
      SlotPtrs.push_back(&S);
      S.Entry = K.Entry;
      S.Params = Params;
      WarpContext &Ctx = S.Ctx;
      std::memset(&Ctx, 0, sizeof Ctx);
      for (unsigned D = 0; D != 3; ++D)
        Ctx.NCtaId[D] = C.Grid[D];
      Ctx.WarpIndex = W;
      unsigned InWarp = std::min(WarpSize, NumThreads - W * WarpSize);
      Ctx.InitialMask = InWarp == 32 ? ~0u : (1u << InWarp) - 1;
      Ctx.SharedBase = SharedBase;
      Ctx.DynamicSharedSize = C.DynamicSharedBytes;
      Ctx.TotalSharedSize = SharedSize;
      Ctx.GridId = 1;
      Ctx.SMId = WorkerIndex;
      Ctx.NSMId = NumWorkers;
      Ctx.Runtime = &Scheduler;
      Ctx.EnvRegs = EnvRegs;
      std::copy(ClusterDim, ClusterDim + 3, Ctx.ClusterDim);
      Ctx.IsExplicitCluster = ExplicitCluster;
      // A CTA alone is a cluster of one: mapa and getctarank see rank 0.
      Ctx.ClusterSharedBase = Cluster ? Cluster->ClusterSharedBase : SharedBase;
      Ctx.ClusterSharedStride =
          Cluster ? Cluster->ClusterSharedStride
                  : std::max<uint64_t>(alignTo(SharedSize, 16), 16);
      Ctx.Cancel = C.Cancel
                       ? reinterpret_cast<const volatile uint8_t *>(C.Cancel)
                       : &NeverCancel;
      if (PhaseState)
        Ctx.PhaseState = PhaseState.get() + W * PhaseBytes;
      CtxPtrs.push_back(&Ctx);
    }
    // Without fibers, one call of the warp function runs the CTA's warps,
    // each linked to the next; RunningWarp learns which one runs.
    if (K.Layout.RunsWarpChains && !runsOnFibers(K.Layout))
      for (unsigned W = 0; W != NumWarps; ++W) {
        Slots[W].Ctx.NextWarp = W + 1 != NumWarps ? &Slots[W + 1].Ctx : nullptr;
        Slots[W].Ctx.RunningWarp = &RunningWarp;
      }
    Scheduler.setDeviceHeap(C.Heap);
    if (C.Check) {
      Check = std::make_unique<runtime::CTACheck>(*C.Check, Scheduler, C.Block,
                                                  SharedBase, SharedSize);
      Scheduler.setCheckState(Check.get());
      for (WarpSlot &S : Slots)
        S.Ctx.CheckFast = Check->fastPath();
    }
  }

  /// Runs CTAs from Q until it is empty, the launch is cancelled or a CTA
  /// fails.
  Error runFrom(CTAQueue &Q) {
    if (!SharedBase)
      return sharedMemoryError();
    // The CTAs run on a stack of the launch's warp stack size, not on the
    // thread's, so a warp without a fiber of its own (no barriers, or
    // phases) has the same stack as one with: what --stack-size says.
    Expected<runtime::FiberStack> Stack = acquireWorkerStack(WarpStackSize);
    if (!Stack)
      return makeLaunchError(runtime::LaunchFailure::OutOfResources,
                             toString(Stack.takeError()));
    llvm::scope_exit ReleaseStack([&] {
      WorkerStacks->release(*Stack);
      // A large stack a deep recursion touched is not kept resident.
      if (WarpStackSize > MaxKeptWorkerStack)
        WorkerStacks.reset();
    });
    // A fault in the kernel (a wild access, a stack overflow) comes back
    // here: the running CTA's warps are abandoned and the launch fails. One
    // recovery point for all of the worker's CTAs: sigsetjmp saving the
    // signal mask is a system call.
    if (sigsetjmp(Recovery, /*savemask=*/1)) {
      runtime::setKernelFaultContext(nullptr);
      Scheduler.abandon();
      return faultError(Fault.CTA, Fault.FaultAddress, Fault.StackPointer);
    }
    runtime::setKernelFaultContext(&Fault);
    Queue = &Q;
    OnStack.reset(*Stack, &CTAWorker::runOnStack, this);
    OnStack.resume();
    runtime::setKernelFaultContext(nullptr);
    return std::move(OnStackResult);
  }

  /// The CTA that made runFrom fail, or UINT64_MAX when no CTA did.
  uint64_t failedUnit() const { return RunningUnit; }

  /// Cooperative launches: runs CTA Linear on the calling fiber. A fault
  /// jumps to the recovery point of the caller's thread.
  Error runCTAOnFiber(uint64_t Linear) { return runCTA(ctaIndexOf(Linear)); }
  runtime::CTAScheduler &scheduler() { return Scheduler; }
  bool hasSharedMemory() const { return SharedBase != nullptr; }
  Error sharedMemoryError() const {
    return makeLaunchError(runtime::LaunchFailure::OutOfResources,
                           formatv("cannot map {0} bytes of shared memory "
                                   "for kernel '{1}'",
                                   SharedSize, K.Name));
  }
  Error faultError(const uint32_t *Id, const void *Address,
                   uintptr_t StackPointer) {
    unsigned W = runsOnFibers(K.Layout) ? Scheduler.currentWarp()
                                          : unsigned(RunningWarp);
    std::string Where = formatv("kernel '{0}', CTA ({1},{2},{3}), warp {4}",
                                K.Name, Id[0], Id[1], Id[2], W);
    const WarpContext *Ctx = W < Slots.size() ? &Slots[W].Ctx : nullptr;
    return makeLaunchError(
        runtime::LaunchFailure::IllegalAddress,
        runtime::describeSignalFault(Ctx, reinterpret_cast<uintptr_t>(Address),
                                     StackPointer, K.Layout, Where, C.StackSize,
                                     C.StackSizeOption));
  }

  LaunchStats Stats;

private:
  static void runOnStack(void *Self) {
    auto *W = static_cast<CTAWorker *>(Self);
    W->OnStackResult = W->runCTAs(*W->Queue);
  }

  Error runCTAs(CTAQueue &Q) {
    while (!Q.Failed.load(std::memory_order_relaxed)) {
      RunningUnit = UINT64_MAX;
      if (C.Cancel && C.Cancel->load(std::memory_order_relaxed))
        return makeLaunchError(runtime::LaunchFailure::Cancelled,
                               "kernel '" + K.Name + "' was cancelled");
      uint64_t First, Last;
      if (!Q.take(First, Last))
        break;
      // The index steps along the chunk: no divisions per CTA.
      CTAIndex Id = ctaIndexOf(First);
      for (uint64_t CTA = First; CTA != Last && !Q.pastFailure(CTA);
           ++CTA, Id = nextCTAIndex(Id)) {
        RunningUnit = CTA;
        if (Error E = runCTA(Id))
          return E;
      }
    }
    RunningUnit = UINT64_MAX;
    return Error::success();
  }

  /// A CTA's index, in registers: an array on the stack, written a word at a
  /// time and copied in wider pieces, stalls the copies' loads.
  struct CTAIndex {
    uint32_t X, Y, Z;
  };
  CTAIndex ctaIndexOf(uint64_t Linear) const {
    const uint32_t *G = C.Grid;
    return {uint32_t(Linear % G[0]), uint32_t(Linear / G[0] % G[1]),
            uint32_t(Linear / (uint64_t(G[0]) * G[1]))};
  }
  /// The index of the CTA after Id in linear order (x fastest).
  CTAIndex nextCTAIndex(CTAIndex Id) const {
    if (++Id.X != C.Grid[0])
      return Id;
    Id.X = 0;
    if (++Id.Y != C.Grid[1])
      return Id;
    Id.Y = 0;
    ++Id.Z;
    return Id;
  }

  Error runCTA(CTAIndex Index) {
    const uint32_t Id[3] = {Index.X, Index.Y, Index.Z};
    if (SharedSize)
      std::memset(SharedBase, 0, SharedSize);
    Fault.CTA[0] = Index.X, Fault.CTA[1] = Index.Y, Fault.CTA[2] = Index.Z;
    for (WarpSlot &S : Slots) {
      S.Ctx.CtaId[0] = Index.X;
      S.Ctx.CtaId[1] = Index.Y;
      S.Ctx.CtaId[2] = Index.Z;
    }
    if (Check)
      Check->startCTA(Id);
    // mbarrier objects and barrier.cluster need a domain; a cluster's
    // worker sets up the one its CTAs share.
    if (!Cluster && K.Layout.UsesCTABarriers) {
      runtime::CTAScheduler *Self = &Scheduler;
      OwnDomain.reset(Self, NumThreads, SharedBase, SharedSize);
    }
    RunningWarp = 0;
    Error E = runWarps(Id);
    // A warp that stopped says why; that is the more precise report.
    for (unsigned W = 0; W != NumWarps; ++W)
      if (Slots[W].Ctx.Status != WS_Running) {
        consumeError(std::move(E));
        return statusError(Slots[W].Ctx, Id, W);
      }
    if (E)
      return addSyncWaits(std::move(E));
    ++Stats.CTAs;
    Stats.Warps += NumWarps;
    Stats.BarrierWaits += Scheduler.takeBarrierWaits();
    Stats.FiberSwitches += Scheduler.takeFiberSwitches();
    return Error::success();
  }

  Error runWarps(const uint32_t *Id) {
    if (!runsOnFibers(K.Layout)) {
      // No barriers: the warps run one after another, no fibers.
      if (K.Layout.RunsWarpChains) {
        RunningWarp = 0;
        runWarpSlot(&Slots[0]);
        return Error::success();
      }
      for (unsigned W = 0; W != NumWarps; ++W) {
        RunningWarp = W;
        runWarpSlot(&Slots[W]);
        if (Slots[W].Ctx.Status != WS_Running)
          break;
      }
      return Error::success();
    }
    runtime::CTALaunch L;
    L.Fn = runWarpSlot;
    L.WarpCtxs = SlotPtrs;
    L.Contexts = CtxPtrs;
    L.NumThreads = NumThreads;
    L.KernelName = K.Name;
    std::copy(Id, Id + 3, L.CTAId);
    L.Cancel = C.Cancel;
    L.RunsWarpChains = K.Layout.RunsWarpChains;
    L.ReturnsAtBarriers = PhaseState != nullptr;
    // Barriers all in CTA-uniform control flow: warps return at them. The
    // CTAs of a cooperative launch and warps with large .local frames stay
    // on fibers (which arrive for the warps that return).
    if (PhaseState && !C.Cooperative && !hasLargeFrames(K.Layout))
      return Scheduler.runInPhases(L);
    // Even one warp runs as a fiber: its lanes may wait at different
    // barriers, a deadlock the scheduler must see to report it.
    return Scheduler.run(L);
  }

  /// A CTA deadlock report names barriers only; add the lanes of each warp
  /// that wait at warp-synchronous instructions meanwhile.
  Error addSyncWaits(Error E) {
    std::string Extra;
    for (unsigned W = 0; W != NumWarps; ++W)
      if (uint32_t Lanes = Slots[W].Ctx.SyncWaitLanes)
        Extra += formatv("; warp {0} {1}", W,
                         describeSyncGroups(Slots[W].Ctx, Lanes))
                     .str();
    if (Extra.empty())
      return E;
    return handleErrors(
        std::move(E), [&](const runtime::CTADeadlockError &D) -> Error {
          std::string Message;
          raw_string_ostream OS(Message);
          D.log(OS);
          return make_error<runtime::CTADeadlockError>(OS.str() + Extra);
        });
  }

  Error statusError(const WarpContext &Ctx, const uint32_t *Id, unsigned W) {
    using runtime::LaunchFailure;
    std::string Where = formatv("kernel '{0}', CTA ({1},{2},{3}), warp {4}",
                                K.Name, Id[0], Id[1], Id[2], W)
                            .str();
    switch (Ctx.Status) {
    case WS_Trap:
      return makeLaunchError(
          LaunchFailure::Trap,
          formatv("trap executed in {0}, lanes {1} (line {2})", Where,
                  lanesText(Ctx.StatusLanes), Ctx.StatusLine));
    case WS_Assert:
      return makeLaunchError(LaunchFailure::Assert,
                             formatv("device assertion failed in {0}, lanes "
                                     "{1} (line {2})",
                                     Where, lanesText(Ctx.StatusLanes),
                                     Ctx.StatusLine));
    case WS_BadBranchIndex:
      return makeLaunchError(
          LaunchFailure::IllegalInstruction,
          formatv("brx.idx index {0} is past its table of targets in {1}, "
                  "lanes {2} (line {3})",
                  Ctx.StatusAux, Where, lanesText(Ctx.StatusLanes),
                  Ctx.StatusLine));
    case WS_MemoryFault:
      return makeLaunchError(
          LaunchFailure::IllegalAddress,
          runtime::describeAccessFault(Ctx, K.Layout, Where));
    case WS_SplitWithoutVersion:
      return makeLaunchError(
          LaunchFailure::NotSupported,
          formatv("internal error in {0}: lanes {1} resumed while others "
                  "waited at block {2}, which was compiled for a converged "
                  "warp only; please report this kernel",
                  Where, lanesText(Ctx.StatusLanes), Ctx.StatusAux));
    case WS_AffineWrap:
      return makeLaunchError(
          LaunchFailure::NotSupported,
          formatv("in {0}, lanes {1}: consecutive values of the warp wrap "
                  "around their integer range where they are widened (line "
                  "{2}); ptx-jit keeps such values as a base and a step and "
                  "cannot represent them: please report this kernel",
                  Where, lanesText(Ctx.StatusLanes), Ctx.StatusLine));
    case WS_Cancelled:
      return makeLaunchError(
          LaunchFailure::Cancelled,
          formatv("{0} was cancelled at line {1}", Where, Ctx.StatusLine));
    default:
      return makeLaunchError(
          LaunchFailure::Deadlock,
          formatv("deadlock in {0}: {1}; lanes of their member masks never "
                  "arrive",
                  Where, describeSyncGroups(Ctx, Ctx.StatusLanes)));
    }
  }

  const CompiledKernel &K;
  const LaunchConfig &C;
  size_t WarpStackSize;
  /// runFrom runs the CTAs of Queue on OnStack.
  CTAQueue *Queue = nullptr;
  runtime::Fiber OnStack;
  Error OnStackResult = Error::success();
  unsigned NumThreads, NumWarps;
  uint64_t SharedSize;
  char *SharedBase = nullptr;
  runtime::KernelFaultContext Fault;
  sigjmp_buf Recovery;
  /// The warp running without fibers (read after a fault's jump).
  volatile unsigned RunningWarp = 0;
  /// The CTA runCTAs is running, or UINT64_MAX between CTAs: the one that
  /// failed when runFrom fails.
  volatile uint64_t RunningUnit = UINT64_MAX;
  std::vector<WarpSlot> Slots;
  SmallVector<void *, 32> SlotPtrs;
  SmallVector<WarpContext *, 32> CtxPtrs;
  struct FreeDeleter {
    void operator()(char *P) const { std::free(P); }
  };
  std::unique_ptr<char[], FreeDeleter> PhaseState;
  runtime::CTAScheduler Scheduler;
  const ClusterSlot *Cluster;
  runtime::AsyncDomain OwnDomain;
  std::unique_ptr<runtime::CTACheck> Check;
};

/// What the workers of one cooperative launch share.
struct CooperativeGrid {
  CooperativeGrid(unsigned NumWorkers, double StallSeconds)
      : Progress(NumWorkers, StallSeconds) {}
  runtime::GridProgress Progress;
  std::atomic<uint64_t> ExitedCTAs{0};
};

/// The CTAs of a cooperative launch that one host thread runs, all live at
/// once, each on a fiber of its own: when a warp yields, its CTA yields to
/// the next one, so a CTA spinning on a flag another CTA sets does not
/// starve it. CTA Linear runs on worker Linear % NumWorkers.
class CooperativeWorker {
public:
  CooperativeWorker(const CompiledKernel &K, const void *Params,
                    const LaunchConfig &C, unsigned WorkerIndex,
                    unsigned NumWorkers, runtime::FiberStackPool &Pool,
                    const uint32_t *EnvRegs, CooperativeGrid &Grid)
      : K(K), C(C), Pool(Pool), Grid(Grid), WorkerIndex(WorkerIndex) {
    uint64_t NumCTAs = uint64_t(C.Grid[0]) * C.Grid[1] * C.Grid[2];
    for (uint64_t L = WorkerIndex; L < NumCTAs; L += NumWorkers) {
      auto T = std::make_unique<CTAFiber>();
      T->Worker = std::make_unique<CTAWorker>(K, Params, C, WorkerIndex,
                                              NumWorkers, Pool, EnvRegs);
      T->Linear = L;
      T->Id[0] = uint32_t(L % C.Grid[0]);
      T->Id[1] = uint32_t(L / C.Grid[0] % C.Grid[1]);
      T->Id[2] = uint32_t(L / (uint64_t(C.Grid[0]) * C.Grid[1]));
      T->Worker->scheduler().setGridYield(&CTAFiber::yieldToWorker, T.get());
      CTAs.push_back(std::move(T));
    }
    Fault.KernelName = K.Name.c_str();
    Fault.Recovery = &Recovery;
  }
  ~CooperativeWorker() {
    // CTAs still suspended are abandoned (a failed launch).
    for (std::unique_ptr<CTAFiber> &T : CTAs) {
      if (T->F.isRunnable())
        T->Worker->scheduler().abandon();
      Pool.release(T->F.takeStack());
      consumeError(std::move(T->Result));
    }
  }

  Error run(std::atomic<bool> &Failed) {
    for (std::unique_ptr<CTAFiber> &T : CTAs) {
      if (!T->Worker->hasSharedMemory())
        return T->Worker->sharedMemoryError();
      Expected<runtime::FiberStack> Stack = Pool.acquire();
      if (!Stack)
        return makeLaunchError(runtime::LaunchFailure::OutOfResources,
                               toString(Stack.takeError()));
      T->F.reset(*Stack, &CTAFiber::main, T.get());
    }
    // A fault in any of the CTAs comes back here (see CTAWorker::runFrom).
    if (sigsetjmp(Recovery, /*savemask=*/1)) {
      runtime::setKernelFaultContext(nullptr);
      CTAFiber &T = *CTAs[Running];
      return T.Worker->faultError(T.Id, Fault.FaultAddress, Fault.StackPointer);
    }
    runtime::setKernelFaultContext(&Fault);
    Error E = runCTAs(Failed);
    runtime::setKernelFaultContext(nullptr);
    return E;
  }

  LaunchStats Stats;

private:
  struct CTAFiber {
    std::unique_ptr<CTAWorker> Worker;
    runtime::Fiber F;
    uint64_t Linear = 0;
    uint32_t Id[3] = {0, 0, 0};
    Error Result = Error::success();
    bool Done = false;
    uint64_t SeenProgress = ~uint64_t(0);

    static void main(void *Arg) {
      auto *T = static_cast<CTAFiber *>(Arg);
      T->Result = T->Worker->runCTAOnFiber(T->Linear);
    }
    static void yieldToWorker(void *Arg) {
      static_cast<CTAFiber *>(Arg)->F.yieldToScheduler();
    }
  };

  Error runCTAs(std::atomic<bool> &Failed) {
    size_t Live = CTAs.size();
    runtime::GridProgress::IdleWatch Watch;
    while (Live) {
      if (Failed.load(std::memory_order_relaxed))
        return Error::success();
      if (C.Cancel && C.Cancel->load(std::memory_order_relaxed))
        return makeLaunchError(runtime::LaunchFailure::Cancelled,
                               "kernel '" + K.Name + "' was cancelled");
      bool Moved = false;
      for (unsigned I = 0; I != CTAs.size(); ++I) {
        CTAFiber &T = *CTAs[I];
        if (T.Done)
          continue;
        Running = I;
        std::copy(T.Id, T.Id + 3, Fault.CTA);
        T.F.resume();
        if (T.F.isFinished()) {
          T.Done = true;
          --Live;
          Moved = true;
          Grid.ExitedCTAs.fetch_add(1, std::memory_order_relaxed);
          if (T.Result)
            return std::move(T.Result);
          Stats.CTAs += T.Worker->Stats.CTAs;
          Stats.Warps += T.Worker->Stats.Warps;
          Stats.BarrierWaits += T.Worker->Stats.BarrierWaits;
          Stats.FiberSwitches += T.Worker->Stats.FiberSwitches;
          continue;
        }
        uint64_t P = T.Worker->scheduler().progress();
        Moved |= P != T.SeenProgress;
        T.SeenProgress = P;
      }
      if (Moved) {
        Grid.Progress.advance(WorkerIndex);
        Watch.Watching = false;
        continue;
      }
      if (Grid.Progress.isStalled(Watch))
        return deadlockError();
      // Every CTA here waits: let the threads they wait for run.
      std::this_thread::yield();
    }
    return Error::success();
  }

  Error deadlockError() const {
    std::string Message;
    raw_string_ostream OS(Message);
    uint64_t NumCTAs = uint64_t(C.Grid[0]) * C.Grid[1] * C.Grid[2];
    OS << "grid deadlock in kernel '" << K.Name << "' (cooperative launch of "
       << NumCTAs << " CTAs): no CTA moved on for "
       << formatv("{0}", Grid.Progress.getStallSeconds()) << " s;";
    unsigned Listed = 0, Waiting = 0;
    for (const std::unique_ptr<CTAFiber> &T : CTAs) {
      if (T->Done)
        continue;
      ++Waiting;
      if (Listed++ >= 8)
        continue;
      const runtime::CTAScheduler &S = T->Worker->scheduler();
      OS << (Listed > 1 ? "," : "") << " CTA (" << T->Id[0] << ',' << T->Id[1]
         << ',' << T->Id[2] << ") warp " << S.lastSpinWarp()
         << " waits in a loop";
      if (uint32_t Line = S.lastSpinLine())
        OS << " at line " << Line;
    }
    if (Listed > 8)
      OS << " and " << (Waiting - 8) << " more";
    OS << "; " << Grid.ExitedCTAs.load(std::memory_order_relaxed)
       << " CTAs have exited";
    return makeLaunchError(runtime::LaunchFailure::Deadlock, OS.str());
  }

  const CompiledKernel &K;
  const LaunchConfig &C;
  runtime::FiberStackPool &Pool;
  CooperativeGrid &Grid;
  unsigned WorkerIndex;
  SmallVector<std::unique_ptr<CTAFiber>, 8> CTAs;
  runtime::KernelFaultContext Fault;
  sigjmp_buf Recovery;
  /// The CTA running now (read after a fault's jump).
  volatile unsigned Running = 0;
};

/// The clusters of a launch with clusters of several CTAs, one at a time per
/// host thread: the CTAs of a cluster are all live at once, each on a fiber
/// of its own (as a cooperative launch's are), with their shared memory in
/// one mapping, so that .shared::cluster addresses reach each other's. When
/// no warp of a CTA is ready the next CTA runs; when none of them can, the
/// cluster's mbarrier waits time out, or it is deadlocked (AsyncDomain.h).
class ClusterWorker {
public:
  ClusterWorker(const CompiledKernel &K, const void *Params,
                const LaunchConfig &C, unsigned WorkerIndex,
                unsigned NumWorkers, runtime::FiberStackPool &Pool,
                const uint32_t *EnvRegs)
      : K(K), C(C), Pool(Pool) {
    bool Explicit;
    getClusterShape(C, K.Layout, Dim, Explicit);
    unsigned N = Dim[0] * Dim[1] * Dim[2];
    const uint32_t *B = C.Block;
    NumThreads = B[0] * B[1] * B[2];
    SharedSize = getSharedWindowSize(K.Layout, C.DynamicSharedBytes);
    Shared = static_cast<char *>(runtime::allocateClusterShared(
        std::max<uint64_t>(SharedSize, 16), 256, N, Stride));
    for (unsigned R = 0; R != N; ++R) {
      auto T = std::make_unique<CTAFiber>();
      T->Slot.SharedBase = Shared + R * Stride;
      T->Slot.ClusterSharedBase = Shared;
      T->Slot.ClusterSharedStride = Stride;
      T->Worker = std::make_unique<CTAWorker>(
          K, Params, C, WorkerIndex, NumWorkers, Pool, EnvRegs, &T->Slot);
      T->Worker->scheduler().setGridYield(&CTAFiber::yieldToWorker, T.get());
      CTAs.push_back(std::move(T));
    }
    Domain.setClusterYield(&ClusterWorker::stalledCTA, this);
    Fault.KernelName = K.Name.c_str();
    Fault.Recovery = &Recovery;
  }
  ~ClusterWorker() {
    abandonCTAs();
    for (std::unique_ptr<CTAFiber> &T : CTAs)
      Pool.release(T->F.takeStack());
    runtime::freeClusterShared(Shared, std::max<uint64_t>(SharedSize, 16),
                               CTAs.size());
  }

  Error runFrom(CTAQueue &Q) {
    if (!Shared)
      return makeLaunchError(runtime::LaunchFailure::OutOfResources,
                             formatv("cannot map the shared memory of a "
                                     "cluster of {0} CTAs for kernel '{1}'",
                                     CTAs.size(), K.Name));
    for (std::unique_ptr<CTAFiber> &T : CTAs) {
      Expected<runtime::FiberStack> Stack = Pool.acquire();
      if (!Stack)
        return makeLaunchError(runtime::LaunchFailure::OutOfResources,
                               toString(Stack.takeError()));
      T->Stack = *Stack;
    }
    // A fault in any of the CTAs comes back here (see CTAWorker::runFrom).
    if (sigsetjmp(Recovery, /*savemask=*/1)) {
      runtime::setKernelFaultContext(nullptr);
      CTAFiber &T = *CTAs[Running];
      Error E = T.Worker->faultError(T.Id, Fault.FaultAddress, Fault.StackPointer);
      abandonCTAs();
      return E;
    }
    runtime::setKernelFaultContext(&Fault);
    Error E = runClusters(Q);
    runtime::setKernelFaultContext(nullptr);
    return E;
  }

  LaunchStats Stats;

private:
  struct CTAFiber {
    ClusterSlot Slot;
    std::unique_ptr<CTAWorker> Worker;
    runtime::Fiber F;
    runtime::FiberStack Stack;
    uint64_t Linear = 0;
    uint32_t Id[3] = {0, 0, 0};
    Error Result = Error::success();
    bool Done = true;

    static void main(void *Arg) {
      auto *T = static_cast<CTAFiber *>(Arg);
      T->Result = T->Worker->runCTAOnFiber(T->Linear);
    }
    static void yieldToWorker(void *Arg) {
      static_cast<CTAFiber *>(Arg)->F.yieldToScheduler();
    }
  };

  static void stalledCTA(void *Arg, unsigned Rank) {
    static_cast<ClusterWorker *>(Arg)->CTAs[Rank]->F.yieldToScheduler();
  }

  /// CTAs still suspended are given up (a failed cluster).
  void abandonCTAs() {
    for (std::unique_ptr<CTAFiber> &T : CTAs) {
      if (!T->Done)
        T->Worker->scheduler().abandon();
      T->Done = true;
      consumeError(std::move(T->Result));
      T->Result = Error::success();
    }
  }

  Error runClusters(CTAQueue &Q) {
    uint32_t PerGrid[3] = {C.Grid[0] / Dim[0], C.Grid[1] / Dim[1],
                           C.Grid[2] / Dim[2]};
    uint64_t First, Last;
    while (!Q.Failed.load(std::memory_order_relaxed) && Q.take(First, Last)) {
      for (uint64_t Cl = First; Cl != Last; ++Cl) {
        uint32_t ClusterId[3] = {
            uint32_t(Cl % PerGrid[0]), uint32_t(Cl / PerGrid[0] % PerGrid[1]),
            uint32_t(Cl / (uint64_t(PerGrid[0]) * PerGrid[1]))};
        if (Error E = runCluster(Q, ClusterId))
          return E;
      }
    }
    return Error::success();
  }

  Error runCluster(CTAQueue &Q, const uint32_t *ClusterId) {
    SmallVector<runtime::CTAScheduler *, 16> Schedulers;
    SmallVector<char *, 16> Bases;
    for (unsigned R = 0; R != CTAs.size(); ++R) {
      CTAFiber &T = *CTAs[R];
      // Rank R is CTA (x, y, z) of the cluster, x fastest.
      uint32_t In[3] = {R % Dim[0], R / Dim[0] % Dim[1], R / (Dim[0] * Dim[1])};
      for (unsigned D = 0; D != 3; ++D)
        T.Id[D] = ClusterId[D] * Dim[D] + In[D];
      T.Linear = T.Id[0] + uint64_t(C.Grid[0]) *
                               (T.Id[1] + uint64_t(C.Grid[1]) * T.Id[2]);
      T.F.reset(T.Stack, &CTAFiber::main, &T);
      T.Done = false;
      Schedulers.push_back(&T.Worker->scheduler());
      Bases.push_back(T.Slot.SharedBase);
    }
    Domain.reset(Schedulers, NumThreads, Bases, SharedSize,
                 CTAs.size() * Stride);
    unsigned Live = CTAs.size();
    while (Live) {
      if (Q.Failed.load(std::memory_order_relaxed)) {
        abandonCTAs();
        return Error::success();
      }
      if (C.Cancel && C.Cancel->load(std::memory_order_relaxed)) {
        abandonCTAs();
        return makeLaunchError(runtime::LaunchFailure::Cancelled,
                               "kernel '" + K.Name + "' was cancelled");
      }
      uint64_t Before = Domain.totalProgress();
      bool AllStalled = true;
      for (unsigned R = 0; R != CTAs.size(); ++R) {
        CTAFiber &T = *CTAs[R];
        if (T.Done)
          continue;
        Domain.clearStalled(R);
        Running = R;
        std::copy(T.Id, T.Id + 3, Fault.CTA);
        T.F.resume();
        if (T.F.isFinished()) {
          T.Done = true;
          --Live;
          AllStalled = false;
          if (T.Result) {
            Error E = std::move(T.Result);
            T.Result = Error::success();
            abandonCTAs();
            return E;
          }
          continue;
        }
        AllStalled &= Domain.wasStalled(R);
      }
      // Every CTA is stuck and none moved: time the waits out once, or
      // report the deadlock.
      if (Live && AllStalled && Domain.totalProgress() == Before &&
          !Domain.timeOutWaits()) {
        Error E = deadlockError(ClusterId);
        abandonCTAs();
        return E;
      }
    }
    for (std::unique_ptr<CTAFiber> &T : CTAs) {
      Stats.CTAs += std::exchange(T->Worker->Stats.CTAs, 0);
      Stats.Warps += std::exchange(T->Worker->Stats.Warps, 0);
      Stats.BarrierWaits += std::exchange(T->Worker->Stats.BarrierWaits, 0);
      Stats.FiberSwitches += std::exchange(T->Worker->Stats.FiberSwitches, 0);
    }
    return Error::success();
  }

  Error deadlockError(const uint32_t *ClusterId) const {
    std::string Message;
    raw_string_ostream OS(Message);
    OS << "deadlock in kernel '" << K.Name << "', cluster (" << ClusterId[0]
       << ',' << ClusterId[1] << ',' << ClusterId[2] << ") of " << CTAs.size()
       << " CTAs:";
    bool First = true;
    for (const std::unique_ptr<CTAFiber> &T : CTAs) {
      OS << (First ? " " : "; ") << "CTA (" << T->Id[0] << ',' << T->Id[1]
         << ',' << T->Id[2] << "):";
      First = false;
      if (T->Done)
        OS << " exited";
      else
        T->Worker->scheduler().describeWarps(OS);
    }
    return make_error<runtime::CTADeadlockError>(OS.str());
  }

  const CompiledKernel &K;
  const LaunchConfig &C;
  runtime::FiberStackPool &Pool;
  uint32_t Dim[3];
  unsigned NumThreads = 0;
  uint64_t SharedSize = 0;
  char *Shared = nullptr;
  size_t Stride = 0;
  runtime::AsyncDomain Domain;
  SmallVector<std::unique_ptr<CTAFiber>, 8> CTAs;
  runtime::KernelFaultContext Fault;
  sigjmp_buf Recovery;
  /// The CTA running now (read after a fault's jump).
  volatile unsigned Running = 0;
};

} // namespace

unsigned ptxjit::getNumMultiprocessors() {
  // Asked once: glibc reads a file each time.
  static const unsigned N = std::max(1u, std::thread::hardware_concurrency());
  return N;
}

unsigned ptxjit::getMaxActiveCTAsPerMultiprocessor(uint64_t ThreadsPerBlock,
                                                   uint64_t SharedBytes) {
  if (!ThreadsPerBlock || ThreadsPerBlock > MaxThreadsPerBlock)
    return 0;
  constexpr unsigned MaxWarps = 64, MaxCTAs = 32;
  constexpr uint64_t SharedPerSM = 164 * 1024;
  uint64_t Warps = (ThreadsPerBlock + WarpSize - 1) / WarpSize;
  uint64_t CTAs = std::min<uint64_t>(MaxCTAs, MaxWarps / Warps);
  if (SharedBytes)
    CTAs = std::min(CTAs, SharedPerSM / SharedBytes);
  return unsigned(CTAs);
}

uint64_t ptxjit::getMaxCoResidentCTAs(const LaunchConfig &C,
                                      const KernelLayout &L) {
  uint64_t Threads = uint64_t(C.Block[0]) * C.Block[1] * C.Block[2];
  return uint64_t(getMaxActiveCTAsPerMultiprocessor(
             Threads, L.StaticSharedSize + C.DynamicSharedBytes)) *
         getNumMultiprocessors();
}

Error ptxjit::launchKernel(const CompiledKernel &K, const void *Params,
                           const LaunchConfig &C, LaunchStats *Stats) {
  if (Error E = validateLaunch(C, K.Layout))
    return E;
  if (C.StackSize == 0 || C.StackSize > MaxThreadStackSize)
    return valueError(formatv("a stack of {0} bytes per thread is out of "
                              "range (1..{1})",
                              C.StackSize, MaxThreadStackSize));
  for (unsigned D = 0; D != 3; ++D)
    if (C.Block[D] != K.Shape.BlockDim[D])
      return valueError("kernel was compiled for a different block shape");

  uint64_t NumCTAs = uint64_t(C.Grid[0]) * C.Grid[1] * C.Grid[2];
  uint32_t ClusterDim[3];
  bool ExplicitCluster;
  getClusterShape(C, K.Layout, ClusterDim, ExplicitCluster);
  uint64_t ClusterSize =
      uint64_t(ClusterDim[0]) * ClusterDim[1] * ClusterDim[2];
  // %envreg0..31; a cooperative launch's grid barrier workspace (the address
  // in %envreg1:%envreg2, high half first) is what grid.sync() counts in.
  uint32_t EnvRegs[32] = {};
  uint64_t Workspace[8] = {};
  if (C.Cooperative) {
    uint64_t Max = getMaxCoResidentCTAs(C, K.Layout);
    if (NumCTAs > Max)
      return runtime::makeLaunchError(
          runtime::LaunchFailure::CooperativeTooLarge,
          formatv("a cooperative launch of kernel '{0}' has {1} CTAs, but "
                  "at most {2} of its size can be live at once",
                  K.Name, NumCTAs, Max));
    auto Address = reinterpret_cast<uintptr_t>(Workspace);
    EnvRegs[1] = uint32_t(uint64_t(Address) >> 32);
    EnvRegs[2] = uint32_t(Address);
  }
  // The kernel reaches the workspace through global addresses: memory the
  // address checks let through while the launch runs.
  if (C.Cooperative)
    runtime::registerHostMemory(Workspace, sizeof Workspace);
  llvm::scope_exit ForgetWorkspace([&] {
    if (C.Cooperative)
      runtime::unregisterHostMemory(Workspace);
  });
  // Only CTAs whose warps run as fibers can wait for each other; the others
  // run one after another even in a cooperative launch.
  bool CoResident = C.Cooperative && K.Layout.UsesCTABarriers;
  unsigned Workers = C.NumThreads ? C.NumThreads : getNumMultiprocessors();
  // Workers take whole clusters.
  uint64_t NumUnits = NumCTAs / ClusterSize;
  Workers = unsigned(std::min<uint64_t>(Workers, NumUnits));

  // Faults in the kernel come back as errors (CTAWorker::runCTA).
  runtime::installKernelFaultHandler();
  CTAQueue Queue;
  // Units are CTAs, or whole clusters when the launch has them.
  Queue.NumCTAs = NumUnits;
  Queue.NumWorkers = Workers;
  std::mutex ErrorLock;
  Error FirstError = Error::success();
  std::vector<LaunchStats> PerWorker(Workers);

  runtime::FiberStackPool Pool(getWarpStackSize(K.Layout, C.StackSize));
  CooperativeGrid Grid(Workers, C.GridStallSeconds);
  // The lowest failing CTA's error is kept (CTAQueue::LowestFailed); an
  // error of no particular CTA only when there is none.
  auto Record = [&](Error E, uint64_t Unit = UINT64_MAX) {
    if (!E)
      return;
    std::lock_guard<std::mutex> G(ErrorLock);
    bool First = !Queue.Failed.load(std::memory_order_relaxed);
    if (Queue.noteFailure(Unit) || First) {
      consumeError(std::move(FirstError));
      FirstError = std::move(E);
    } else {
      consumeError(std::move(E));
    }
  };
  auto Work = [&](unsigned Index) {
    runtime::KernelFloatEnvironment FloatEnvironment;
    if (CoResident) {
      CooperativeWorker W(K, Params, C, Index, Workers, Pool, EnvRegs, Grid);
      Record(W.run(Queue.Failed));
      PerWorker[Index] = W.Stats;
      return;
    }
    if (ClusterSize > 1) {
      ClusterWorker W(K, Params, C, Index, Workers, Pool, EnvRegs);
      Record(W.runFrom(Queue));
      PerWorker[Index] = W.Stats;
      return;
    }
    CTAWorker W(K, Params, C, Index, Workers, Pool, EnvRegs);
    Error E = W.runFrom(Queue);
    Record(std::move(E), W.failedUnit());
    PerWorker[Index] = W.Stats;
  };

  // The workers of a co-resident grid must all run at once: a pool may
  // start them one after another, or be busy with another launch.
  if (C.Pool && !CoResident) {
    ThreadPoolTaskGroup Group(*C.Pool);
    for (unsigned I = 1; I < Workers; ++I)
      Group.async(Work, I);
    Work(0);
    Group.wait();
  } else {
    std::vector<std::thread> Threads;
    for (unsigned I = 1; I < Workers; ++I)
      Threads.emplace_back(Work, I);
    Work(0);
    for (std::thread &T : Threads)
      T.join();
  }
  flushDeviceOutput();
  if (Stats) {
    Stats->Threads = Workers;
    for (const LaunchStats &S : PerWorker) {
      Stats->CTAs += S.CTAs;
      Stats->Warps += S.Warps;
      Stats->BarrierWaits += S.BarrierWaits;
      Stats->FiberSwitches += S.FiberSwitches;
    }
  }
  return FirstError;
}
