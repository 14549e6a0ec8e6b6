//===- DeviceHeap.h - The heap of device malloc and free --------*- C++ -*-===//
//
// In-kernel malloc and free (CUDA's device heap) take blocks from one
// region of device memory, cudaLimitMallocHeapSize bytes, that a device
// context reserves at the first launch of a kernel that uses them. Blocks
// outlive the launch until a kernel frees them. The region is one device
// allocation (DeviceArena.h), so kernels' global accesses reach it like any
// buffer; under the checking mode each block is an allocation of the
// CheckSession, so memcheck reports accesses past a block or to a freed one.
//
// First fit in address order over the free ranges, with neighbours merged
// on free; the blocks' sizes are kept outside the region, where a kernel
// writing past its block cannot corrupt them. Thread-safe: CTAs on several
// host threads allocate at once.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_DEVICEHEAP_H
#define PTXJIT_RUNTIME_DEVICEHEAP_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

namespace ptxjit {
namespace runtime {

class CheckSession;

class DeviceHeap {
public:
  /// What CUDA guarantees of a block's address.
  static constexpr uint64_t Alignment = 16;

  /// A heap of Size bytes in device memory. Blocks are registered with
  /// Check, if given, as they are allocated and freed.
  static llvm::Expected<std::unique_ptr<DeviceHeap>>
  create(uint64_t Size, CheckSession *Check = nullptr);
  ~DeviceHeap();
  DeviceHeap(const DeviceHeap &) = delete;
  DeviceHeap &operator=(const DeviceHeap &) = delete;

  /// A block of Size bytes aligned to Alignment; null for a size of 0 or
  /// when no free range is large enough.
  void *allocate(uint64_t Size);
  /// Returns the block at Ptr for reuse. Null, or a pointer that is not
  /// the start of a live block, is ignored (false).
  bool free(void *Ptr);

  uint64_t size() const { return Size; }
  const char *base() const { return Base; }
  /// Bytes in live blocks (rounded up to Alignment).
  uint64_t getAllocatedBytes() const;

private:
  DeviceHeap(char *Base, uint64_t Size, CheckSession *Check);

  char *const Base;
  const uint64_t Size;
  CheckSession *const Check;
  mutable std::mutex Lock; ///< guards the members below
  /// Free ranges by offset, never adjacent (merged on free).
  std::map<uint64_t, uint64_t> FreeRanges;
  /// Live blocks: offset to rounded size.
  llvm::DenseMap<uint64_t, uint64_t> Blocks;
  uint64_t Allocated = 0;
};

} // namespace runtime
} // namespace ptxjit

#endif
