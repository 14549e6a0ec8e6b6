//===- Launch.h - Running a compiled kernel over a grid ---------*- C++ -*-===//
//
// The runtime's launch entry point, shared by `ptx-jit run` and the CUDA
// runtime library: validates the configuration like a GPU would, then runs
// the grid's CTAs on all cores, each CTA's warps one after another (or as
// fibers when the kernel uses CTA barriers).
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_LAUNCH_H
#define PTXJIT_RUNTIME_LAUNCH_H

#include "llvm/Support/Error.h"
#include <atomic>
#include <cstdint>

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace ptxjit {

struct CompiledKernel;
struct KernelLayout;
namespace runtime {
class DeviceHeap;
struct LaunchCheck;
} // namespace runtime

/// The device stack of each thread (cudaLimitStackSize): CUDA's default,
/// and at most a GPU's local memory per thread.
constexpr uint32_t DefaultThreadStackSize = 1024;
constexpr uint32_t MaxThreadStackSize = 512 * 1024;
/// A warp's 32 lanes run on one native stack: this many bytes of it for
/// each byte of the per-thread stack (256 KiB for CUDA's 1 KiB). Its
/// frames hold registers as 32-lane vectors, so 8 bytes a lane leaves room
/// for what a GPU frame of that size holds (see docs/Debugging.md).
constexpr uint64_t WarpStackBytesPerThreadByte = 256;

struct LaunchConfig {
  uint32_t Grid[3] = {1, 1, 1};
  uint32_t Block[3] = {1, 1, 1};
  uint32_t DynamicSharedBytes = 0;
  /// Host threads running CTAs; 0 means one per core.
  unsigned NumThreads = 0;
  /// Set from another thread to stop the launch (--timeout).
  const std::atomic<bool> *Cancel = nullptr;
  /// Threads to run CTAs on besides the caller's; null: start them.
  llvm::ThreadPoolInterface *Pool = nullptr;
  /// A cooperative launch (cudaLaunchCooperativeKernel): all CTAs are live
  /// at once, so they may wait for each other (grid.sync()), and %envreg1:
  /// %envreg2 hold the address of a zeroed grid barrier workspace. At most
  /// getMaxCoResidentCTAs CTAs.
  bool Cooperative = false;
  /// Cooperative launches: a grid whose live CTAs all only wait, with no
  /// CTA moving on for this long, is deadlocked (GridProgress.h).
  double GridStallSeconds = 5;
  /// Thread block clusters (sm_90): the CTAs of a cluster run together and
  /// reach each other's shared memory (.shared::cluster). 0,0,0: the
  /// kernel's .reqnctapercluster, or no clusters (each CTA alone).
  uint32_t ClusterDim[3] = {0, 0, 0};
  /// The checking mode (Checking.h): set for kernels compiled with
  /// IRGenOptions::CheckKinds.
  const runtime::LaunchCheck *Check = nullptr;
  /// Where the kernel's malloc takes blocks from (DeviceHeap.h); null:
  /// malloc returns null.
  runtime::DeviceHeap *Heap = nullptr;
  /// Device stack per thread in bytes (1..MaxThreadStackSize): each warp
  /// runs on getWarpStackSize of it.
  uint32_t StackSize = DefaultThreadStackSize;
  /// How the user raises StackSize, for a stack overflow's report.
  const char *StackSizeOption = "--stack-size";
};

/// A per-thread stack size as --stack-size and PTXJIT_STACK_SIZE give it:
/// bytes, 1..MaxThreadStackSize, decimal or 0x hex.
llvm::Expected<uint32_t> parseThreadStackSize(llvm::StringRef Text);

/// The native stack each warp of a kernel with Layout runs on for a
/// per-thread stack of ThreadStackSize bytes: WarpStackBytesPerThreadByte
/// times it (at least 64 KiB), plus the kernel's .local frames (32 copies)
/// and native frames when they would take more than a quarter of that.
uint64_t getWarpStackSize(const KernelLayout &Layout, uint64_t ThreadStackSize);

/// Clusters of more CTAs need cudaFuncAttributeNonPortableClusterSizeAllowed
/// on a GPU; up to 16 run here either way.
constexpr unsigned MaxPortableClusterSize = 8;
constexpr unsigned MaxClusterSize = 16;

/// The cluster shape a launch of Config runs with (1,1,1 without clusters);
/// Explicit tells whether the launch or the kernel asked for clusters
/// (%is_explicit_cluster).
void getClusterShape(const LaunchConfig &Config, const KernelLayout &Layout,
                     uint32_t Dim[3], bool &Explicit);

struct LaunchStats {
  uint64_t CTAs = 0;
  uint64_t Warps = 0;
  unsigned Threads = 0;       ///< host threads that ran CTAs
  uint64_t BarrierWaits = 0;  ///< times a warp on a fiber waited at a barrier
  uint64_t FiberSwitches = 0; ///< times a warp's fiber gave up its thread
};

/// GPU limits (compute capability 8.x).
constexpr unsigned MaxThreadsPerBlock = 1024;
/// Shared memory a block gets without asking, and at most when its kernel
/// raised cudaFuncAttributeMaxDynamicSharedMemorySize (163 KiB on sm_80).
constexpr unsigned MaxSharedBytesPerBlock = 48 * 1024;
constexpr unsigned MaxSharedBytesPerBlockOptin = 163 * 1024;

/// The emulated multiprocessors (cudaDevAttrMultiProcessorCount): one per
/// host thread.
unsigned getNumMultiprocessors();
/// CTAs of ThreadsPerBlock threads and SharedBytes of shared memory one
/// multiprocessor holds at once, as on sm_80 (64 warps, 32 CTAs, 164 KiB):
/// cudaOccupancyMaxActiveBlocksPerMultiprocessor. Each live warp of a
/// cooperative launch costs a fiber stack, so this also bounds their memory.
unsigned getMaxActiveCTAsPerMultiprocessor(uint64_t ThreadsPerBlock,
                                           uint64_t SharedBytes);
/// The most CTAs a cooperative launch of Config may have.
uint64_t getMaxCoResidentCTAs(const LaunchConfig &Config,
                              const KernelLayout &Layout);

/// Checks what a GPU would reject: block and grid dimensions, shared memory.
llvm::Error validateLaunch(const LaunchConfig &Config,
                           const KernelLayout &Layout);

/// Runs Kernel with Params (its parameter buffer, laid out as PTX declares).
llvm::Error launchKernel(const CompiledKernel &Kernel, const void *Params,
                         const LaunchConfig &Config,
                         LaunchStats *Stats = nullptr);

} // namespace ptxjit

#endif
