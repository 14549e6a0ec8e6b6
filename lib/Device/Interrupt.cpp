//===- Interrupt.cpp - Stopping launches on Ctrl-C ------------------------===//

#include "ptxjit/Device/Interrupt.h"
#include "llvm/Support/Signals.h"
#include <atomic>

using namespace ptxjit;

// Lock-free, so that a signal handler may set it.
static std::atomic<bool> Interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

void device::requestInterrupt() {
  Interrupted.store(true, std::memory_order_relaxed);
}

bool device::interruptRequested() {
  return Interrupted.load(std::memory_order_relaxed);
}

void device::stopLaunchesOnInterrupt() {
  llvm::sys::SetInterruptFunction(requestInterrupt);
}
