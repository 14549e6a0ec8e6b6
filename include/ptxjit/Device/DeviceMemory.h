//===- DeviceMemory.h - Allocations a kernel can reach ----------*- C++ -*-===//
//
// The device's global memory. Device addresses are host addresses (kernels
// load and store through them directly), but every allocation is a mapping
// of its own between inaccessible pages, away from the host's heap, and the
// allocator knows each one: a pointer can be told to be device memory, and
// which allocation it lies in (cudaPointerGetAttributes, cudaMemcpyDefault,
// a checking mode).
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DEVICE_DEVICEMEMORY_H
#define PTXJIT_DEVICE_DEVICEMEMORY_H

#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

namespace ptxjit {
namespace device {

/// One live allocation.
struct Allocation {
  void *Base = nullptr;
  uint64_t Size = 0;
};

class DeviceMemory {
public:
  /// Allocations are aligned to this, as cudaMalloc's are.
  static constexpr uint64_t Alignment = 256;

  DeviceMemory() = default;
  /// Frees what is still allocated.
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory &) = delete;
  DeviceMemory &operator=(const DeviceMemory &) = delete;

  /// Zeroed memory of Size bytes (a zero size gets a unique address).
  llvm::Expected<void *> allocate(uint64_t Size);
  /// Frees the allocation that starts at Ptr; null is accepted, as by
  /// cudaFree. Anything else is an InvalidDevicePointer error.
  llvm::Error free(void *Ptr);

  /// The allocation Ptr points into, if any.
  std::optional<Allocation> find(const void *Ptr) const;
  /// Checks that [Ptr, Ptr + Size) lies in one allocation.
  llvm::Error checkRange(const void *Ptr, uint64_t Size) const;

  /// Bytes in live allocations.
  uint64_t getAllocatedBytes() const;

private:
  mutable std::mutex Lock;
  /// By base address.
  std::map<uintptr_t, Allocation> Live;
  uint64_t AllocatedBytes = 0;
};

} // namespace device
} // namespace ptxjit

#endif
