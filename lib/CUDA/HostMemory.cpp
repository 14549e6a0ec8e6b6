//===- HostMemory.cpp - Page-locked and managed memory of both libraries --===//

#include "HostMemory.h"
#include "RuntimeState.h"
#include "ptxjit/Device/DeviceError.h"
#include "ptxjit/Runtime/Checking.h"
#include "ptxjit/Runtime/DeviceArena.h"
#include "llvm/ADT/DenseSet.h"
#include <cstdlib>
#include <map>
#include <mutex>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

namespace {

struct MemoryKinds {
  std::mutex Lock;
  struct Range {
    size_t Size;
    bool Allocated; ///< by allocatePageLocked, not registered
  };
  std::map<uintptr_t, Range> PageLocked; ///< base -> range
  DenseSet<const void *> Managed;        ///< allocation bases
  /// Never destroyed: programs free host memory from static destructors.
  static MemoryKinds &get() {
    static MemoryKinds *K = new MemoryKinds();
    return *K;
  }
  bool containsLocked(uintptr_t P) const {
    auto It = PageLocked.upper_bound(P);
    if (It == PageLocked.begin())
      return false;
    --It;
    return P - It->first < std::max<size_t>(It->second.Size, 1);
  }
};

/// The checking mode (PTXJIT_CHECK) must know the host memory kernels may
/// reach, as written memory.
void noteHostMemory(void *Ptr, size_t Size, bool Added) {
  if (!runtime::getCheckKindsFromEnvironment())
    return;
  Expected<device::Context &> C = RuntimeState::get().getContext();
  if (!C) {
    consumeError(C.takeError());
    return;
  }
  if (runtime::CheckSession *S = C->getCheckSession()) {
    if (Added)
      S->addAllocation(Ptr, Size, "page-locked host memory",
                       /*Written=*/true);
    else
      S->freeAllocation(Ptr);
  }
}

void addPageLocked(void *P, size_t Size, bool Allocated) {
  MemoryKinds &K = MemoryKinds::get();
  {
    std::lock_guard<std::mutex> G(K.Lock);
    K.PageLocked[uintptr_t(P)] = {Size, Allocated};
    // Kernels may reach it (generated code's address checks ask).
    runtime::registerHostMemory(P, Size);
  }
  noteHostMemory(P, Size, true);
}

/// Forgets P if it starts page-locked memory of the kind asked for.
bool removePageLocked(void *P, bool Allocated) {
  MemoryKinds &K = MemoryKinds::get();
  {
    std::lock_guard<std::mutex> G(K.Lock);
    auto It = K.PageLocked.find(uintptr_t(P));
    if (It == K.PageLocked.end() || It->second.Allocated != Allocated)
      return false;
    runtime::unregisterHostMemory(P);
    K.PageLocked.erase(It);
  }
  noteHostMemory(P, 0, false);
  return true;
}

} // namespace

Expected<void *> cuda::allocatePageLocked(size_t Size) {
  // Page-aligned, as pinned allocations are.
  void *P = nullptr;
  if (posix_memalign(&P, 4096, Size ? Size : 1) != 0)
    return device::makeDeviceError(device::ErrorCode::MemoryAllocation,
                                   "out of host memory");
  addPageLocked(P, Size, /*Allocated=*/true);
  return P;
}

bool cuda::freePageLocked(void *Ptr) {
  if (!removePageLocked(Ptr, /*Allocated=*/true))
    return false;
  std::free(Ptr);
  return true;
}

Error cuda::registerPageLocked(void *Ptr, size_t Size) {
  if (isPageLocked(Ptr))
    return device::makeDeviceError(
        device::ErrorCode::HostMemoryAlreadyRegistered,
        "the memory is page-locked already");
  addPageLocked(Ptr, Size, /*Allocated=*/false);
  return Error::success();
}

Error cuda::unregisterPageLocked(void *Ptr) {
  if (!removePageLocked(Ptr, /*Allocated=*/false))
    return device::makeDeviceError(device::ErrorCode::HostMemoryNotRegistered,
                                   "the memory was not registered");
  return Error::success();
}

bool cuda::isPageLocked(const void *Ptr) {
  MemoryKinds &K = MemoryKinds::get();
  std::lock_guard<std::mutex> G(K.Lock);
  return K.containsLocked(uintptr_t(Ptr));
}

void cuda::setManaged(const void *Base, bool IsManaged) {
  MemoryKinds &K = MemoryKinds::get();
  std::lock_guard<std::mutex> G(K.Lock);
  if (IsManaged)
    K.Managed.insert(Base);
  else
    K.Managed.erase(Base);
}

bool cuda::isManaged(const void *Base) {
  MemoryKinds &K = MemoryKinds::get();
  std::lock_guard<std::mutex> G(K.Lock);
  return K.Managed.contains(Base);
}

void cuda::noteManagedAllocation(void *Ptr, size_t Size) {
  setManaged(Ptr, true);
  if (device::Context *C = RuntimeState::get().peekContext())
    if (runtime::CheckSession *S = C->getCheckSession())
      S->markWritten(Ptr, Size);
}
