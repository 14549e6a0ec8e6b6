//===- CompiledKernel.h - A kernel ready for the runtime --------*- C++ -*-===//
//
// What the code generator tells the runtime about a kernel it compiled: the
// warp function, how its parameter buffer and shared memory are laid out,
// and whether its warps run as fibers. IRGen fills KernelLayout, the JIT
// adds the entry address, the runtime launches it.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_ABI_COMPILEDKERNEL_H
#define PTXJIT_ABI_COMPILEDKERNEL_H

#include "ptxjit/ABI/KernelShape.h"
#include "ptxjit/ABI/WarpABI.h"
#include <cstdint>
#include <string>
#include <vector>

namespace ptxjit {

/// A line of CUDA source a PTX line came from (.loc).
struct SourceLine {
  uint32_t PTXLine = 0;
  uint32_t File = 0; ///< index into KernelLayout::SourceFiles
  uint32_t Line = 0;
};

/// Layout facts the runtime needs to launch the generated warp function.
struct KernelLayout {
  std::string WarpFunctionName;
  uint64_t ParamBufferSize = 0;
  /// Offset of each kernel parameter in the parameter buffer.
  std::vector<uint64_t> ParamOffsets;
  uint64_t StaticSharedSize = 0;
  /// Where dynamic (extern) shared memory starts.
  uint64_t DynamicSharedOffset = 0;
  /// The shared memory reserved for NVIDIA system software (cooperative
  /// groups keep their multi-warp scratch there, at
  /// %reserved_smem_offset_1): ReservedSharedBytes after the user's shared
  /// memory rounded up to SharedAllocationUnit, when the kernel reads a
  /// %reserved_smem_offset_* or %aggr_smem_size register; 0 otherwise.
  uint64_t ReservedSharedSize = 0;
  /// The warps run as fibers: the kernel has CTA barriers, or its warps may
  /// wait for each other through memory.
  bool UsesCTABarriers = false;
  /// Nonzero when every CTA barrier of the kernel is a bar.sync of all
  /// threads in CTA-uniform control flow: its CTAs may run in phases
  /// (WarpContext::PhaseMode) instead of on fibers, each warp keeping this
  /// many bytes of state (WarpContext::PhaseState) across a barrier.
  uint64_t PhaseStateSize = 0;
  /// The warp function runs the chain of warps WarpContext::NextWarp links:
  /// one call can run a CTA (kernels without CTA barriers), or every warp
  /// of a CTA running in phases up to its next barrier.
  bool RunsWarpChains = false;
  /// The .local memory of the kernel and the functions it calls, per
  /// thread, added up (a bound for calls that do not recurse). Each warp's
  /// stack holds 32 copies: past what a worker thread's stack can spare,
  /// the warps run on fibers with stacks that large
  /// (runtime::getWarpStackSize).
  uint64_t LocalBytesPerLane = 0;
  /// The warp function's native frame (the object's .stack_sizes), which
  /// each warp's stack must hold besides the .local frames (it holds the
  /// kernel's own, so they count twice: a bound): megabytes for a large
  /// kernel compiled without optimization. The device functions' frames
  /// are the device stack's (ThreadStackSize). Read from the object when it
  /// is linked, so not kept in the cache.
  uint64_t NativeFrameBytes = 0;
  /// The kernel's .reqntid and .maxntid (0 where absent): a launch that
  /// does not fit them is rejected, as on a GPU.
  uint32_t ReqNTid[3] = {0, 0, 0};
  uint32_t MaxNTid[3] = {0, 0, 0};
  /// Clusters (sm_90): the kernel's .reqnctapercluster (0 where absent),
  /// .explicitcluster (a launch must give a cluster shape) and
  /// .maxclusterrank (0: none).
  uint32_t ReqNCTAPerCluster[3] = {0, 0, 0};
  bool ExplicitCluster = false;
  uint32_t MaxClusterRank = 0;
  /// The PTX file's name, and for PTX with .file/.loc directives the CUDA
  /// source line of each PTX instruction line of the kernel's functions,
  /// sorted by PTX line: reports name both.
  std::string PTXFile;
  std::vector<std::string> SourceFiles;
  std::vector<SourceLine> SourceLines;
};

/// sm_80 and later reserve 1 KiB of each CTA's shared memory for the system
/// and allocate the rest in units of 128 bytes (%total_smem_size counts
/// whole units).
constexpr uint64_t ReservedSharedBytes = 1024;
constexpr uint64_t SharedAllocationUnit = 128;

/// Where the reserved region starts: the user's shared memory (static and
/// dynamic), rounded up to whole allocation units; also %total_smem_size.
inline uint64_t getReservedSharedBegin(const KernelLayout &L,
                                       uint64_t DynamicSharedBytes) {
  uint64_t User = L.DynamicSharedOffset + DynamicSharedBytes;
  return (User + SharedAllocationUnit - 1) / SharedAllocationUnit *
         SharedAllocationUnit;
}

/// The bytes of shared memory a CTA of the kernel addresses: the user's,
/// and the reserved region where the kernel uses it.
inline uint64_t getSharedWindowSize(const KernelLayout &L,
                                    uint64_t DynamicSharedBytes) {
  if (!L.ReservedSharedSize)
    return L.DynamicSharedOffset + DynamicSharedBytes;
  return getReservedSharedBegin(L, DynamicSharedBytes) + L.ReservedSharedSize;
}

/// A kernel compiled for one block shape, ready to launch.
struct CompiledKernel {
  WarpFunction Entry = nullptr;
  KernelLayout Layout;
  KernelShape Shape;
  std::string Name;
};

} // namespace ptxjit

#endif
