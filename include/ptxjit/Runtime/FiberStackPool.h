//===- FiberStackPool.h - Reusable stacks for fibers ------------*- C++ -*-===//
//
// Fiber stacks are mmap'd once, with a PROT_NONE guard page below them so an
// overflow faults instead of corrupting a neighbour, and then reused across
// CTAs and launches: mapping a stack per warp per CTA would cost a system call
// per warp. One pool may serve several threads.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_FIBERSTACKPOOL_H
#define PTXJIT_RUNTIME_FIBERSTACKPOOL_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <cstddef>
#include <mutex>

namespace ptxjit {
namespace runtime {

/// The usable part of one fiber stack, [Base, Base + Size); the guard page
/// lies just below Base. A default-constructed FiberStack holds nothing.
struct FiberStack {
  void *Base = nullptr;
  size_t Size = 0;

  explicit operator bool() const { return Base != nullptr; }
  /// The stack grows down from here.
  char *top() const { return static_cast<char *>(Base) + Size; }
};

class FiberStackPool {
public:
  /// JIT'd warp code keeps <32 x T> values and spills them to the stack, so
  /// the default is generous; the pages are only touched when used.
  static constexpr size_t DefaultStackSize = 256 * 1024;

  /// StackSize is rounded up to whole pages.
  explicit FiberStackPool(size_t StackSize = DefaultStackSize);
  /// Unmaps every stack; all of them must have been released.
  ~FiberStackPool();
  FiberStackPool(const FiberStackPool &) = delete;
  FiberStackPool &operator=(const FiberStackPool &) = delete;

  /// A free stack, or a new mapping if none is free. Thread-safe.
  llvm::Expected<FiberStack> acquire();
  /// Returns S to the pool for reuse. Thread-safe.
  void release(FiberStack S);
  /// The largest stack size of any pool made so far: what the address
  /// checks take a fiber stack's size to be at most.
  static size_t getLargestStackSize();
  /// Unmaps the free stacks (e.g. after a launch with unusually many warps).
  void trim();

  size_t stackSize() const { return StackSize; }
  /// Stacks mapped and not unmapped yet, in use or free.
  size_t numMapped() const;
  size_t numFree() const;

private:
  size_t StackSize;
  size_t GuardSize;
  mutable std::mutex Lock;
  llvm::SmallVector<FiberStack, 0> Free;
  size_t NumMapped = 0;
};

} // namespace runtime
} // namespace ptxjit

#endif
