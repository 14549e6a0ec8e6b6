//===- DeviceMemory.cpp - Allocations a kernel can reach ------------------===//

#include "ptxjit/Device/DeviceMemory.h"
#include "ptxjit/Device/DeviceError.h"
#include "ptxjit/Runtime/DeviceArena.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::device;

DeviceMemory::~DeviceMemory() {
  for (auto &[Base, A] : Live)
    runtime::freeDevice(A.Base);
}

Expected<void *> DeviceMemory::allocate(uint64_t Size) {
  void *P = runtime::allocateDevice(Size, Alignment);
  if (!P)
    return makeDeviceError(
        ErrorCode::MemoryAllocation,
        formatv("cannot allocate {0} bytes of device memory", Size));
  std::lock_guard<std::mutex> G(Lock);
  Live[reinterpret_cast<uintptr_t>(P)] = {P, Size};
  AllocatedBytes += Size;
  return P;
}

Error DeviceMemory::free(void *Ptr) {
  if (!Ptr)
    return Error::success();
  Allocation A;
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Live.find(reinterpret_cast<uintptr_t>(Ptr));
    if (It == Live.end())
      return makeDeviceError(
          ErrorCode::InvalidDevicePointer,
          formatv("{0} is not the start of a device allocation", Ptr));
    A = It->second;
    Live.erase(It);
    AllocatedBytes -= A.Size;
  }
  runtime::freeDevice(A.Base);
  return Error::success();
}

std::optional<Allocation> DeviceMemory::find(const void *Ptr) const {
  uintptr_t P = reinterpret_cast<uintptr_t>(Ptr);
  std::lock_guard<std::mutex> G(Lock);
  auto It = Live.upper_bound(P);
  if (It == Live.begin())
    return std::nullopt;
  --It;
  const Allocation &A = It->second;
  // A zero-sized allocation still owns its first byte's address.
  if (P - It->first < std::max<uint64_t>(A.Size, 1))
    return A;
  return std::nullopt;
}

Error DeviceMemory::checkRange(const void *Ptr, uint64_t Size) const {
  std::optional<Allocation> A = find(Ptr);
  if (!A)
    return makeDeviceError(ErrorCode::InvalidValue,
                           formatv("{0} is not device memory", Ptr));
  uint64_t Offset =
      static_cast<const char *>(Ptr) - static_cast<const char *>(A->Base);
  if (Size > A->Size - Offset)
    return makeDeviceError(
        ErrorCode::InvalidValue,
        formatv("{0} bytes at {1} run past the end of the {2}-byte "
                "allocation at {3}",
                Size, Ptr, A->Size, A->Base));
  return Error::success();
}

uint64_t DeviceMemory::getAllocatedBytes() const {
  std::lock_guard<std::mutex> G(Lock);
  return AllocatedBytes;
}
