//===- GuardedMemory.h - Allocations fenced by inaccessible pages -*- C++
//-*-===//
//
// Kernel-visible memory the emulator allocates (buffers of `ptx-jit run`, a
// CTA's shared memory) sits between two inaccessible pages, its end as close
// to the upper one as its alignment allows. A kernel that runs past either
// end faults at once, and the launch stops with an error naming the kernel,
// instead of silently corrupting the host's heap.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_GUARDEDMEMORY_H
#define PTXJIT_RUNTIME_GUARDEDMEMORY_H

#include <csetjmp>
#include <cstddef>
#include <cstdint>

namespace ptxjit {
namespace runtime {

/// Size bytes aligned to Align (a power of two, at most a page), zeroed;
/// null if memory runs out. Free with freeGuarded.
void *allocateGuarded(size_t Size, size_t Align);
void freeGuarded(void *Data, size_t Size);
/// The shared memory of a cluster of Count CTAs: Count such allocations in
/// one mapping, allocation I at the returned address + I * Stride, each
/// between inaccessible pages, followed by Count more that map the same
/// memory again (allocation Count + I is allocation I). So from any CTA's
/// allocation, every CTA's is at a non-negative offset below Count * Stride,
/// which is what a .shared::cluster address is. Free with
/// freeClusterShared.
void *allocateClusterShared(size_t Size, size_t Align, unsigned Count,
                            size_t &Stride);
void freeClusterShared(void *Data, size_t Size, unsigned Count);

/// While a kernel runs on this thread: where a fault in it returns to, and
/// what the report names.
struct KernelFaultContext {
  const char *KernelName = nullptr;
  uint32_t CTA[3] = {0, 0, 0};
  /// The worker's recovery point (sigsetjmp with the signal mask saved):
  /// a fault jumps there, abandoning the CTA's warps.
  sigjmp_buf *Recovery = nullptr;
  /// Set by the fault handler before it jumps.
  void *FaultAddress = nullptr;
  int Signal = 0;
  /// The stack pointer at the fault: an address next to it is a stack
  /// overflow (deep recursion, large frames).
  uintptr_t StackPointer = 0;
};
/// Sets (or, with nullptr, clears) the running kernel of this thread. A
/// recovery point clears it first thing after a fault jumps there: under
/// AddressSanitizer that also ends the jump's switch back from a fiber's
/// stack to the thread's.
void setKernelFaultContext(KernelFaultContext *Context);

/// Installs a SIGSEGV/SIGBUS handler that, for a fault while a kernel runs
/// on this thread, records the address and jumps to the running context's
/// Recovery point; other faults go to the handler installed before. Safe to
/// call more than once.
void installKernelFaultHandler();

} // namespace runtime
} // namespace ptxjit

#endif
