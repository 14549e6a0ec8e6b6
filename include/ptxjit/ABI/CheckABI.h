//===- CheckABI.h - What checked kernels tell the runtime -------*- C++ -*-===//
//
// The checking mode (`ptx-jit run --check`, PTXJIT_CHECK): a kernel
// compiled with IRGenOptions::CheckKinds calls the runtime before each
// memory access and at each barrier and warp-synchronous instruction
// (RuntimeEntryPoints.def, CheckAccess and the others). This header says
// how those calls describe what happens; docs/CHECKING.md says what is
// checked.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_ABI_CHECKABI_H
#define PTXJIT_ABI_CHECKABI_H

#include <cstdint>

namespace ptxjit {

/// The tools of the checking mode, named after compute-sanitizer's.
enum CheckKind : unsigned {
  CheckMemory = 1u << 0, ///< memcheck
  CheckRaces = 1u << 1,  ///< racecheck
  CheckSync = 1u << 2,   ///< synccheck
  CheckInit = 1u << 3,   ///< initcheck
  CheckAll = 0xfu,
};

/// The state space a checked access names.
enum class CheckSpace : uint32_t {
  Global = 1,
  Shared = 2,
  Local = 3,
  Generic = 4
};
enum class CheckAccessKind : uint32_t { Read = 0, Write = 1, Atomic = 2 };

/// CheckAccess's Info: the access's size in bytes (bits 0-7), its space
/// (8-11) and kind (12-13).
constexpr uint32_t encodeCheckAccess(CheckSpace S, CheckAccessKind K,
                                     unsigned Size) {
  return (Size & 0xff) | uint32_t(S) << 8 | uint32_t(K) << 12;
}
constexpr unsigned checkAccessSize(uint32_t Info) { return Info & 0xff; }
constexpr CheckSpace checkAccessSpace(uint32_t Info) {
  return CheckSpace((Info >> 8) & 0xf);
}
constexpr CheckAccessKind checkAccessKind(uint32_t Info) {
  return CheckAccessKind((Info >> 12) & 0x3);
}

/// What a checked kernel's own code reads (WarpContext::CheckFast) to skip
/// the runtime call of a shared-memory read that could change nothing: one
/// whose lanes' aligned words are all read-saturated in the current epoch
/// (docs/CHECKING.md). The runtime owns it and keeps it current.
struct CheckFastPath {
  /// Per 4-byte word of the CTA's shared memory, the epoch in which it
  /// became read-saturated; NumWords of them (at least one is readable).
  const uint32_t *ReadSaturated;
  /// The epoch is the low 32 bits of *Completions + EpochBase.
  const uint64_t *Completions;
  uint64_t EpochBase;
  uint32_t NumWords;
  /// The two allocations global or generic accesses were last found wholly
  /// in (ones without initcheck's shadow, not freed): an aligned access of
  /// every lane inside [RegionBase[I], RegionBase[I] + RegionSize[I]) needs
  /// no call while *Frees (the allocations freed so far) is still
  /// RegionFrees[I]. Two, as a kernel often reads two inputs in turn.
  uint64_t RegionBase[2];
  uint64_t RegionSize[2];
  uint64_t RegionFrees[2];
  const uint64_t *Frees;
};

/// CheckBarrier's Info: set for the .aligned forms (bar.*, barrier.*.aligned),
/// which all non-exited threads of a warp must execute together.
constexpr uint32_t CheckBarrierAligned = 1;

} // namespace ptxjit

#endif
