//===- DeviceRange.h - Where device memory lies -----------------*- C++ -*-===//
//
// The reserved address range device allocations come from (Runtime/
// DeviceArena.h). Fixed, so that generated code, and kernels cached on disk,
// can check an address against it with constants: a power of two in size,
// its base aligned to it.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_ABI_DEVICERANGE_H
#define PTXJIT_ABI_DEVICERANGE_H

#include <cstdint>

namespace ptxjit {

constexpr uint64_t DeviceArenaBase = 0x200000000000;
constexpr uint64_t DeviceArenaSize = uint64_t(1) << 44;

inline bool isInDeviceArena(uint64_t Address) {
  return Address - DeviceArenaBase < DeviceArenaSize;
}

} // namespace ptxjit

#endif
