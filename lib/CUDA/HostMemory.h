//===- HostMemory.h - Page-locked and managed memory of both libraries -*- C++
//-*-===//
//
// What pointer attributes tell apart and the device layer does not:
// page-locked host memory (allocated by cudaMallocHost/cuMemAllocHost or
// registered) and managed device memory. Kept in libcuda.so.1 so that the
// runtime and driver APIs see each other's memory.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_CUDA_HOSTMEMORY_H
#define PTXJIT_LIB_CUDA_HOSTMEMORY_H

#include "llvm/Support/Error.h"
#include <cstddef>

namespace ptxjit {
namespace cuda {

/// Page-aligned host memory, page-locked (kernels reach it, as they reach
/// any host memory here).
llvm::Expected<void *> allocatePageLocked(size_t Size);
/// Frees memory allocatePageLocked gave; false for any other pointer.
bool freePageLocked(void *Ptr);
/// cudaHostRegister, cuMemHostRegister; HostMemoryAlreadyRegistered if
/// Ptr is page-locked already.
llvm::Error registerPageLocked(void *Ptr, size_t Size);
/// HostMemoryNotRegistered unless registerPageLocked registered Ptr.
llvm::Error unregisterPageLocked(void *Ptr);
/// Whether Ptr lies in page-locked memory.
bool isPageLocked(const void *Ptr);

/// Managed memory is device memory here; these remember which allocations
/// were asked for as managed.
void setManaged(const void *Base, bool IsManaged);
bool isManaged(const void *Base);
/// The host writes managed memory directly, unseen by initcheck: mark it
/// written when the checking mode runs.
void noteManagedAllocation(void *Ptr, size_t Size);

} // namespace cuda
} // namespace ptxjit

#endif
