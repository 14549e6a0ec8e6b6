//===- FiberStackPool.cpp - Reusable stacks for fibers --------------------===//

#include "ptxjit/Runtime/FiberStackPool.h"
#include "llvm/Support/Errno.h"
#include "llvm/Support/MathExtras.h"
#include <cassert>
#include <atomic>
#include <cerrno>
#include <sys/mman.h>
#include <unistd.h>

using namespace llvm;
using namespace ptxjit::runtime;

static size_t pageSize() {
  return static_cast<size_t>(::sysconf(_SC_PAGESIZE));
}

static std::atomic<size_t> LargestStackSize{FiberStackPool::DefaultStackSize};

FiberStackPool::FiberStackPool(size_t Size)
    : StackSize(alignTo(Size ? Size : DefaultStackSize, pageSize())),
      GuardSize(pageSize()) {
  size_t Largest = LargestStackSize.load(std::memory_order_relaxed);
  while (Largest < StackSize &&
         !LargestStackSize.compare_exchange_weak(Largest, StackSize))
    ;
}

size_t FiberStackPool::getLargestStackSize() {
  return LargestStackSize.load(std::memory_order_relaxed);
}

FiberStackPool::~FiberStackPool() {
  assert(Free.size() == NumMapped && "a fiber stack was not released");
  trim();
}

Expected<FiberStack> FiberStackPool::acquire() {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (!Free.empty())
      return Free.pop_back_val();
  }
  // Reserve without committing: most of a stack is never touched.
  size_t Total = GuardSize + StackSize;
  void *Map =
      ::mmap(nullptr, Total, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (Map == MAP_FAILED)
    return createStringError(std::error_code(errno, std::generic_category()),
                             "cannot map a %zu-byte fiber stack: %s", Total,
                             sys::StrError().c_str());
  if (::mprotect(Map, GuardSize, PROT_NONE) != 0) {
    int Err = errno;
    ::munmap(Map, Total);
    return createStringError(std::error_code(Err, std::generic_category()),
                             "cannot protect a fiber stack's guard page");
  }
  std::lock_guard<std::mutex> Guard(Lock);
  ++NumMapped;
  return FiberStack{static_cast<char *>(Map) + GuardSize, StackSize};
}

void FiberStackPool::release(FiberStack S) {
  if (!S)
    return;
  assert(S.Size == StackSize && "stack from another pool");
  std::lock_guard<std::mutex> Guard(Lock);
  Free.push_back(S);
}

void FiberStackPool::trim() {
  SmallVector<FiberStack, 0> ToUnmap;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    ToUnmap.swap(Free);
    NumMapped -= ToUnmap.size();
  }
  for (FiberStack S : ToUnmap)
    ::munmap(static_cast<char *>(S.Base) - GuardSize, GuardSize + S.Size);
}

size_t FiberStackPool::numMapped() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return NumMapped;
}

size_t FiberStackPool::numFree() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return Free.size();
}
