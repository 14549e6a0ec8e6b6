//===- WarpABI.h - The contract between generated code and runtime -------===//
//
// Every kernel becomes one LLVM function that runs one warp:
//
//   void @<kernel>.warp(ptr %Params, ptr %Warp)
//
// %Params is the kernel's parameter buffer laid out as PTX declares it, and
// %Warp points to a WarpContext the runtime fills before each call. The
// generated code reads the context with fixed offsets, so this struct is
// part of the ABI: the struct and IRGen's LLVM type both come from
// WarpContextFields.def. The functions generated code calls are listed in
// RuntimeEntryPoints.def.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_ABI_WARPABI_H
#define PTXJIT_ABI_WARPABI_H

#include <cstddef>
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
  WS_MemoryFault = 6,    ///< a global or generic access no lane may make
                         ///< (ptxjit_rt_check_address recorded it)
  /// Internal error: lanes resumed split at a block compiled only for a
  /// converged warp (StatusAux: the block's reverse-post-order number).
  WS_SplitWithoutVersion = 7,
  /// Lanes of an affine value (kept as a base and a step) wrapped around
  /// the narrow type's range at a widening conversion (StatusLanes: those
  /// lanes), which the base and step cannot represent.
  WS_AffineWrap = 8,
};

/// What kind of access an access site is (WarpContext::AccessSite).
enum AccessKind : uint32_t { AK_Load = 0, AK_Store = 1, AK_Atomic = 2 };
enum AccessSpace : uint32_t { AS_Global = 0, AS_Generic = 1, AS_Local = 2 };

/// WarpContext::AccessSite: the PTX line (bits 0-21), space (bits 22-23),
/// kind (bits 24-25) and log2 of the size in bytes (bits 26-29) of an access.
constexpr uint32_t makeAccessSite(uint32_t Line, AccessSpace Space,
                                  AccessKind Kind, uint32_t Log2Size) {
  return (Line & 0x3fffff) | uint32_t(Space) << 22 | uint32_t(Kind) << 24 |
         Log2Size << 26;
}
constexpr uint32_t getAccessSiteLine(uint32_t S) { return S & 0x3fffff; }
constexpr AccessSpace getAccessSiteSpace(uint32_t S) {
  return AccessSpace(S >> 22 & 3);
}
constexpr AccessKind getAccessSiteKind(uint32_t S) {
  return AccessKind(S >> 24 & 3);
}
constexpr uint32_t getAccessSiteSize(uint32_t S) {
  return 1u << (S >> 26 & 15);
}

namespace abi {
/// Names a C++ type given as one macro argument, arrays included.
template <typename T> using FieldType = T;

/// The offset a field has in a struct laid out naturally (each field at the
/// next multiple of its alignment), which is how LLVM lays out the
/// non-packed struct type IRGen builds from the same field list.
constexpr uint64_t naturalOffset(const uint64_t *Sizes, const uint64_t *Aligns,
                                 unsigned Field) {
  uint64_t Offset = 0;
  for (unsigned I = 0;; ++I) {
    Offset = (Offset + Aligns[I] - 1) / Aligns[I] * Aligns[I];
    if (I == Field)
      return Offset;
    Offset += Sizes[I];
  }
}
} // namespace abi

struct CheckFastPath; // CheckABI.h

/// What the runtime tells one warp function call (WarpContextFields.def).
struct WarpContext {
#define PTXJIT_WARP_CONTEXT_FIELD(Name, Type) abi::FieldType<Type> Name;
#include "ptxjit/ABI/WarpContextFields.def"
};

/// Field indices of WarpContext in the LLVM struct type IRGen builds.
enum WarpContextField : unsigned {
#define PTXJIT_WARP_CONTEXT_FIELD(Name, Type) WCF_##Name,
#include "ptxjit/ABI/WarpContextFields.def"
  WCF_NumFields
};

namespace abi {
constexpr uint64_t WarpContextFieldSizes[] = {
#define PTXJIT_WARP_CONTEXT_FIELD(Name, Type) sizeof(FieldType<Type>),
#include "ptxjit/ABI/WarpContextFields.def"
};
constexpr uint64_t WarpContextFieldAligns[] = {
#define PTXJIT_WARP_CONTEXT_FIELD(Name, Type) alignof(FieldType<Type>),
#include "ptxjit/ABI/WarpContextFields.def"
};
} // namespace abi

// Generated code addresses fields by index in the natural layout; the C++
// struct must agree.
#define PTXJIT_WARP_CONTEXT_FIELD(Name, Type)                                  \
  static_assert(offsetof(WarpContext, Name) ==                                 \
                    abi::naturalOffset(abi::WarpContextFieldSizes,             \
                                       abi::WarpContextFieldAligns,            \
                                       WCF_##Name),                            \
                "WarpContext::" #Name " is not where IRGen expects it");
#include "ptxjit/ABI/WarpContextFields.def"

/// How bar.red combines the predicates of the arriving threads (the
/// Reduction argument of the barrier entry points).
enum class BarrierReduction : uint32_t { None, Popc, And, Or };

using WarpFunction = void (*)(const void *Params, WarpContext *Warp);

/// Barrier sites (WarpContext::ResumeSite) reached while other lanes of the
/// warp waited elsewhere have this bit: the warp saved all of its state and
/// did not arrive; the runtime goes on with fibers, where it arrives again.
constexpr uint32_t PhaseDivergentSite = 0x80000000u;

/// Named CTA barriers: bar.sync ids 0-15.
constexpr unsigned NumCTABarriers = 16;

/// The most barrier rounds one call of a warp chain in phases runs before
/// it returns to the runtime, which checks for cancellation between calls.
constexpr unsigned MaxChainRounds = 64;

} // namespace ptxjit

#endif
