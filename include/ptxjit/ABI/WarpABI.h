//===- WarpABI.h - The contract between generated code and runtime -------===//
//
// Every kernel becomes one LLVM function that runs one warp:
//
//   void @<kernel>.warp(ptr %Params, ptr %Warp)
//
// %Params is the kernel's parameter buffer laid out as PTX declares it, and
// %Warp points to a WarpContext the runtime fills before each call. The
// generated code reads the context with fixed offsets, so this struct is
// part of the ABI: IRGen builds its LLVM type from the field list below.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_ABI_WARPABI_H
#define PTXJIT_ABI_WARPABI_H

#include <cstdint>

namespace ptxjit {

constexpr unsigned WarpSize = 32;

/// Why a warp stopped early (WarpContext::Status).
enum WarpStatus : uint32_t {
  WS_Running = 0,
  WS_Trap = 1,           ///< a lane executed trap
  WS_Cancelled = 2,      ///< the launch was cancelled (--timeout)
  WS_WarpDeadlock = 3,   ///< lanes wait at a warp-synchronous instruction
                         ///< for lanes that never arrive
  WS_Assert = 4,         ///< a device assert failed (already reported)
  WS_BadBranchIndex = 5, ///< brx.idx past its table (StatusAux: the index)
};

struct WarpContext {
  uint32_t CtaId[3];          ///< %ctaid
  uint32_t NCtaId[3];         ///< %nctaid
  uint32_t WarpIndex;         ///< warp within the CTA (%warpid)
  uint32_t InitialMask;       ///< lanes that exist (partial last warp)
  char *SharedBase;           ///< the CTA's shared memory
  uint32_t DynamicSharedSize; ///< %dynamic_smem_size
  uint32_t TotalSharedSize;   ///< %total_smem_size
  uint64_t GridId;            ///< %gridid
  uint32_t SMId;              ///< %smid (the host thread running the CTA)
  uint32_t NSMId;             ///< %nsmid
  /// The CTA scheduler running this warp (runtime calls take it).
  void *Runtime;
  /// Never null; the warp stops at its next backward branch when nonzero.
  const volatile uint8_t *Cancel;
  uint32_t Status;      ///< WarpStatus
  uint32_t StatusLine;  ///< PTX line where the warp stopped
  uint32_t StatusLanes; ///< lanes concerned (trap, deadlock)
  uint32_t StatusAux;   ///< deadlock: the lanes they wait for
  /// Warp-level deadlock: the PTX line each blocked lane waits at.
  uint32_t LaneLines[WarpSize];
  /// While the warp waits at a CTA barrier: its lanes blocked at
  /// warp-synchronous instructions (their lines in LaneLines), for a CTA
  /// deadlock report.
  uint32_t SyncWaitLanes;
  /// Set by the kernel's warp function: the top of its stack frame. The
  /// .local frames of the kernel and the device functions it calls lie
  /// between a callee's stack pointer and this (isspacep.local in callees).
  char *LocalStackTop;
};

/// Field indices of WarpContext in the LLVM struct type IRGen builds.
enum WarpContextField : unsigned {
  WCF_CtaId,
  WCF_NCtaId,
  WCF_WarpIndex,
  WCF_InitialMask,
  WCF_SharedBase,
  WCF_DynamicSharedSize,
  WCF_TotalSharedSize,
  WCF_GridId,
  WCF_SMId,
  WCF_NSMId,
  WCF_Runtime,
  WCF_Cancel,
  WCF_Status,
  WCF_StatusLine,
  WCF_StatusLanes,
  WCF_StatusAux,
  WCF_LaneLines,
  WCF_SyncWaitLanes,
  WCF_LocalStackTop,
};

/// Runtime entry points the generated code calls (kernels with CTA
/// barriers only); Runtime is WarpContext::Runtime.
extern "C" {
void ptxjit_rt_bar_arrive(void *Runtime, uint32_t Barrier, uint32_t Count,
                          uint32_t Lanes, uint32_t Wait, uint32_t Reduction,
                          uint32_t Predicate, uint32_t Line);
uint32_t ptxjit_rt_bar_wait(void *Runtime);
/// Arrive (waiting) and wait; returns every lane of the warp released since
/// the last wait, these or ones parked before.
uint32_t ptxjit_rt_bar_sync(void *Runtime, uint32_t Barrier, uint32_t Count,
                            uint32_t Lanes, uint32_t Reduction,
                            uint32_t Predicate, uint32_t Line);
uint32_t ptxjit_rt_bar_result(void *Runtime, uint32_t Barrier);
void ptxjit_rt_exit_lanes(void *Runtime, uint32_t Lanes);
void ptxjit_rt_yield(void *Runtime);
/// fns.b32, lane by lane.
uint32_t ptxjit_rt_fns(uint32_t Mask, uint32_t Base, int32_t Offset);
/// Device printf and assert (any kernel).
int32_t ptxjit_rt_vprintf(uint64_t Format, uint64_t Args);
void ptxjit_rt_assertfail(uint64_t Message, uint64_t File, uint32_t Line,
                          uint64_t Function, const uint32_t *Where);
}

using WarpFunction = void (*)(const void *Params, WarpContext *Warp);

} // namespace ptxjit

#endif
