//===- Fiber.h - User-space context switching -------------------*- C++ -*-===//
//
// A fiber runs a function on its own stack and can be suspended and resumed
// from user space. A switch saves only what the SysV x86-64 ABI makes the
// callee keep (rbx, rbp, r12-r15, rsp, MXCSR and the x87 control word) in a
// few instructions, without a system call: ucontext's swapcontext makes one
// per switch to save the signal mask, which costs far more than the switch.
//
// Nothing here is global: a fiber belongs to the thread that resumes it, and
// each thread can run its own fibers independently of the others.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_FIBER_H
#define PTXJIT_RUNTIME_FIBER_H

#include "ptxjit/Runtime/FiberStackPool.h"
#include <cstddef>

namespace ptxjit {
namespace runtime {

/// A suspended execution context: the stack pointer at which its registers
/// were saved, plus the stack bounds AddressSanitizer needs to follow a switch.
struct FiberContext {
  void *SP = nullptr;
  const void *StackBottom = nullptr;
  size_t StackSize = 0;
  void *FakeStack = nullptr;
};

/// A function running on its own stack. The thread that calls resume() is the
/// fiber's scheduler: yieldToScheduler() and the end of the entry function go
/// back to it. Fibers are neither copied nor moved: their stacks point at them.
class Fiber {
public:
  using EntryFn = void (*)(void *Arg);

  Fiber() = default;
  Fiber(const Fiber &) = delete;
  Fiber &operator=(const Fiber &) = delete;

  /// Prepares Entry(Arg) to run on Stack when the fiber is next resumed. A
  /// suspended fiber may be reset: what it was doing is abandoned, without
  /// unwinding, so its frames must not own anything that needs destroying.
  void reset(FiberStack Stack, EntryFn Entry, void *Arg);

  /// From outside any fiber of this scheduler: runs the fiber until it yields
  /// or its entry function returns.
  void resume();
  /// From inside this fiber: suspends it and returns to the caller of the
  /// resume() that started the current run of fibers.
  void yieldToScheduler();
  /// From inside this fiber: suspends it and runs Next directly; when Next
  /// (or a fiber it switches to) yields, control goes to this fiber's
  /// scheduler. Half the switches of yielding and resuming Next.
  void switchTo(Fiber &Next);
  /// From inside this fiber, as its last act: runs Next as switchTo() does,
  /// and this fiber is finished (its frames are abandoned without
  /// unwinding). Saves going through the scheduler between two fibers.
  [[noreturn]] void finishAndSwitchTo(Fiber &Next);

  /// Prepared and its entry function has not returned yet.
  bool isRunnable() const { return Self.SP && !Finished; }
  bool isFinished() const { return Finished; }
  FiberStack stack() const { return Stack; }
  /// Gives up the stack; the fiber must not run again until reset().
  FiberStack takeStack();

private:
  [[noreturn]] static void fiberMain(void *Self);

  FiberContext Self;
  FiberContext *Scheduler = nullptr;
  FiberStack Stack;
  EntryFn Entry = nullptr;
  void *Arg = nullptr;
  bool Finished = false;
};

} // namespace runtime
} // namespace ptxjit

#endif
