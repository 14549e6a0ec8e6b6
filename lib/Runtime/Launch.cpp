//===- Launch.cpp - Running a compiled kernel over a grid -----------------===//

#include "ptxjit/Runtime/Launch.h"
#include "ptxjit/IRGen/WarpABI.h"
#include "ptxjit/JIT/KernelJIT.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Threading.h"
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

using namespace llvm;
using namespace ptxjit;

static Error launchError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg.str());
}

Error ptxjit::validateLaunch(const LaunchConfig &C, const KernelLayout &L) {
  const uint32_t *B = C.Block, *G = C.Grid;
  static const uint32_t MaxBlock[3] = {1024, 1024, 64};
  static const uint32_t MaxGrid[3] = {0x7fffffff, 65535, 65535};
  static const char Axis[3] = {'x', 'y', 'z'};
  for (unsigned D = 0; D != 3; ++D) {
    if (B[D] == 0 || B[D] > MaxBlock[D])
      return launchError(formatv("block dimension {0} = {1} is out of range "
                                 "(1..{2})",
                                 Axis[D], B[D], MaxBlock[D]));
    if (G[D] == 0 || G[D] > MaxGrid[D])
      return launchError(formatv("grid dimension {0} = {1} is out of range "
                                 "(1..{2})",
                                 Axis[D], G[D], MaxGrid[D]));
  }
  uint64_t Threads = uint64_t(B[0]) * B[1] * B[2];
  if (Threads > MaxThreadsPerBlock)
    return launchError(formatv("{0} threads per block exceed the limit of {1}",
                               Threads, MaxThreadsPerBlock));
  uint64_t Shared = L.DynamicSharedOffset + C.DynamicSharedBytes;
  if (L.StaticSharedSize + C.DynamicSharedBytes > MaxSharedBytesPerBlock)
    return launchError(formatv(
        "{0} bytes of shared memory ({1} static + {2} dynamic) exceed the "
        "limit of {3} per block",
        L.StaticSharedSize + C.DynamicSharedBytes, L.StaticSharedSize,
        C.DynamicSharedBytes, MaxSharedBytesPerBlock));
  (void)Shared;
  return Error::success();
}

namespace {

/// Runs CTAs taken from a shared counter; one per host thread.
class CTAWorker {
public:
  CTAWorker(const CompiledKernel &K, const void *Params,
            const LaunchConfig &C, unsigned WorkerIndex, unsigned NumWorkers)
      : K(K), Params(Params), C(C), WorkerIndex(WorkerIndex),
        NumWorkers(NumWorkers) {
    const uint32_t *B = C.Block;
    NumThreads = B[0] * B[1] * B[2];
    NumWarps = (NumThreads + WarpSize - 1) / WarpSize;
    SharedSize = K.Layout.DynamicSharedOffset + C.DynamicSharedBytes;
    // Shared memory is host memory; keep 16 spare bytes so a zero-sized
    // window still has a valid base.
    Shared.assign(SharedSize + 16 + 255, 0);
    Contexts.resize(NumWarps);
  }

  Error runCTA(uint64_t Linear) {
    const uint32_t *G = C.Grid;
    uint32_t Id[3] = {uint32_t(Linear % G[0]), uint32_t(Linear / G[0] % G[1]),
                      uint32_t(Linear / (uint64_t(G[0]) * G[1]))};
    char *Base = alignedShared();
    std::memset(Base, 0, SharedSize);
    for (unsigned W = 0; W != NumWarps; ++W) {
      WarpContext &Ctx = Contexts[W];
      std::memset(&Ctx, 0, sizeof Ctx);
      for (unsigned D = 0; D != 3; ++D) {
        Ctx.CtaId[D] = Id[D];
        Ctx.NCtaId[D] = G[D];
      }
      Ctx.WarpIndex = W;
      unsigned InWarp = std::min(WarpSize, NumThreads - W * WarpSize);
      Ctx.InitialMask = InWarp == 32 ? ~0u : (1u << InWarp) - 1;
      Ctx.SharedBase = Base;
      Ctx.DynamicSharedSize = C.DynamicSharedBytes;
      Ctx.TotalSharedSize = SharedSize;
      Ctx.GridId = 1;
      Ctx.SMId = WorkerIndex;
      Ctx.NSMId = NumWorkers;
      K.Entry(Params, &Ctx);
      if (Ctx.Trapped)
        return launchError(formatv("kernel '{0}' executed trap in CTA "
                                   "({1},{2},{3}), warp {4}",
                                   K.Name, Id[0], Id[1], Id[2], W));
    }
    ++Stats.CTAs;
    Stats.Warps += NumWarps;
    return Error::success();
  }

  LaunchStats Stats;

private:
  char *alignedShared() {
    uintptr_t P = reinterpret_cast<uintptr_t>(Shared.data());
    return reinterpret_cast<char *>((P + 255) & ~uintptr_t(255));
  }

  const CompiledKernel &K;
  const void *Params;
  const LaunchConfig &C;
  unsigned WorkerIndex, NumWorkers;
  unsigned NumThreads, NumWarps;
  uint64_t SharedSize;
  std::vector<char> Shared;
  std::vector<WarpContext> Contexts;
};

} // namespace

Error ptxjit::launchKernel(const CompiledKernel &K, const void *Params,
                           const LaunchConfig &C, LaunchStats *Stats) {
  if (Error E = validateLaunch(C, K.Layout))
    return E;
  for (unsigned D = 0; D != 3; ++D)
    if (C.Block[D] != K.Shape.BlockDim[D])
      return launchError("kernel was compiled for a different block shape");
  if (K.Layout.UsesCTABarriers)
    return launchError("kernels with CTA barriers are not supported yet");

  uint64_t NumCTAs = uint64_t(C.Grid[0]) * C.Grid[1] * C.Grid[2];
  unsigned Workers = C.NumThreads ? C.NumThreads
                                  : std::max(1u, std::thread::hardware_concurrency());
  Workers = unsigned(std::min<uint64_t>(Workers, NumCTAs));

  std::atomic<uint64_t> Next{0};
  std::atomic<bool> Failed{false};
  std::mutex ErrorLock;
  Error FirstError = Error::success();
  std::vector<LaunchStats> PerWorker(Workers);

  auto Work = [&](unsigned Index) {
    CTAWorker W(K, Params, C, Index, Workers);
    while (!Failed.load(std::memory_order_relaxed)) {
      if (C.Cancel && C.Cancel->load(std::memory_order_relaxed)) {
        std::lock_guard<std::mutex> G(ErrorLock);
        if (!Failed.exchange(true))
          FirstError = launchError("kernel '" + K.Name + "' was cancelled");
        break;
      }
      uint64_t CTA = Next.fetch_add(1);
      if (CTA >= NumCTAs)
        break;
      if (Error E = W.runCTA(CTA)) {
        std::lock_guard<std::mutex> G(ErrorLock);
        if (!Failed.exchange(true))
          FirstError = std::move(E);
        else
          consumeError(std::move(E));
        break;
      }
    }
    PerWorker[Index] = W.Stats;
  };

  std::vector<std::thread> Threads;
  for (unsigned I = 1; I < Workers; ++I)
    Threads.emplace_back(Work, I);
  Work(0);
  for (std::thread &T : Threads)
    T.join();
  if (Stats)
    for (const LaunchStats &S : PerWorker) {
      Stats->CTAs += S.CTAs;
      Stats->Warps += S.Warps;
    }
  return FirstError;
}
