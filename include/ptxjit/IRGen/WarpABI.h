//===- WarpABI.h - The contract between generated code and runtime -*- C++ -*-===//
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

#ifndef PTXJIT_IRGEN_WARPABI_H
#define PTXJIT_IRGEN_WARPABI_H

#include <cstdint>

namespace ptxjit {

constexpr unsigned WarpSize = 32;

struct WarpContext {
  uint32_t CtaId[3];       ///< %ctaid
  uint32_t NCtaId[3];      ///< %nctaid
  uint32_t WarpIndex;      ///< warp within the CTA (%warpid)
  uint32_t InitialMask;    ///< lanes that exist (partial last warp)
  char *SharedBase;        ///< the CTA's shared memory
  uint32_t DynamicSharedSize; ///< %dynamic_smem_size
  uint32_t TotalSharedSize;   ///< %total_smem_size
  uint64_t GridId;         ///< %gridid
  uint32_t SMId;           ///< %smid (the host thread running the CTA)
  uint32_t NSMId;          ///< %nsmid
  /// Opaque runtime state passed back to runtime calls (trap, barriers...).
  void *Runtime;
  /// Set by the generated code when a lane executes trap.
  uint32_t Trapped;
  uint32_t Reserved;
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
  WCF_Trapped,
  WCF_Reserved,
};

using WarpFunction = void (*)(const void *Params, WarpContext *Warp);

} // namespace ptxjit

#endif
