//===- Fiber.cpp - User-space context switching ---------------------------===//

#include "ptxjit/Runtime/Fiber.h"
#include <cassert>
#include <cstdint>
#include <cstring>
#include <xmmintrin.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PTXJIT_FIBER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(PTXJIT_FIBER_ASAN)
#define PTXJIT_FIBER_ASAN 1
#endif
#ifdef PTXJIT_FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

using namespace ptxjit::runtime;

extern "C" {
// FiberSwitch.S
void ptxjit_fiber_switch(void **SaveSP, void *NewSP);
void ptxjit_fiber_entry();
}

namespace {
/// The frame ptxjit_fiber_switch pops, lowest address first.
struct InitialFrame {
  uint32_t MXCSR;
  uint16_t X87CW;
  uint16_t Pad;
  uint64_t R15, R14, R13, R12, RBX, RBP;
  uint64_t ReturnAddress;
};
static_assert(sizeof(InitialFrame) == 64, "must match FiberSwitch.S");
} // namespace

/// Saves the running context into From and continues To. Finishing says
/// From will never run again, so AddressSanitizer may drop its fake stack.
/// When From is a fiber's context, Resumed is that fiber: once it runs again,
/// it learns the bounds of its scheduler's stack if they are still unknown
/// (resume() cannot know them; AddressSanitizer tells the fiber).
static inline void switchContext(FiberContext &From, FiberContext &To,
                                 FiberContext *const *ResumedScheduler,
                                 bool Finishing = false) {
#ifdef PTXJIT_FIBER_ASAN
  __sanitizer_start_switch_fiber(Finishing ? nullptr : &From.FakeStack,
                                 To.StackBottom, To.StackSize);
#endif
  ptxjit_fiber_switch(&From.SP, To.SP);
#ifdef PTXJIT_FIBER_ASAN
  const void *OldBottom;
  size_t OldSize;
  __sanitizer_finish_switch_fiber(From.FakeStack, &OldBottom, &OldSize);
  FiberContext *Scheduler = ResumedScheduler ? *ResumedScheduler : nullptr;
  if (Scheduler && !Scheduler->StackBottom) {
    Scheduler->StackBottom = OldBottom;
    Scheduler->StackSize = OldSize;
  }
#else
  (void)ResumedScheduler;
  (void)Finishing;
#endif
}

void Fiber::reset(FiberStack NewStack, EntryFn NewEntry, void *NewArg) {
  assert(NewStack && NewEntry && "a fiber needs a stack and a function");
  Stack = NewStack;
  Entry = NewEntry;
  Arg = NewArg;
  Finished = false;
  Scheduler = nullptr;
#ifdef PTXJIT_FIBER_ASAN
  // An abandoned run may have left poisoned redzones on this stack.
  __asan_unpoison_memory_region(Stack.Base, Stack.Size);
#endif
  Self = FiberContext();
  Self.StackBottom = Stack.Base;
  Self.StackSize = Stack.Size;

  // 16 bytes of zeros above the frame end the stack for debuggers, and leave
  // rsp 16-byte aligned when ptxjit_fiber_entry starts.
  uintptr_t Top = reinterpret_cast<uintptr_t>(Stack.top()) & ~uintptr_t(15);
  auto *Frame = reinterpret_cast<InitialFrame *>(Top - 16 - 64);
  std::memset(Frame, 0, Top - reinterpret_cast<uintptr_t>(Frame));
  // A new fiber starts with the control state of the thread that prepares it.
  Frame->MXCSR = _mm_getcsr();
  uint16_t CW;
  __asm__ volatile("fnstcw %0" : "=m"(CW));
  Frame->X87CW = CW;
  Frame->R12 = reinterpret_cast<uintptr_t>(&Fiber::fiberMain);
  Frame->R13 = reinterpret_cast<uintptr_t>(this);
  Frame->ReturnAddress = reinterpret_cast<uintptr_t>(&ptxjit_fiber_entry);
  Self.SP = Frame;
}

void Fiber::fiberMain(void *Ptr) {
  auto *F = static_cast<Fiber *>(Ptr);
#ifdef PTXJIT_FIBER_ASAN
  const void *OldBottom;
  size_t OldSize;
  __sanitizer_finish_switch_fiber(nullptr, &OldBottom, &OldSize);
  // First entered from resume() (switchTo copies an already known context).
  if (!F->Scheduler->StackBottom) {
    F->Scheduler->StackBottom = OldBottom;
    F->Scheduler->StackSize = OldSize;
  }
#endif
  F->Entry(F->Arg);
  F->Finished = true;
  switchContext(F->Self, *F->Scheduler, nullptr, /*Finishing=*/true);
  __builtin_unreachable();
}

void Fiber::resume() {
  assert(isRunnable() && "resuming a fiber that cannot run");
  FiberContext Caller;
  Scheduler = &Caller;
  switchContext(Caller, Self, /*ResumedScheduler=*/nullptr);
}

void Fiber::yieldToScheduler() {
  assert(Scheduler && "yielding from a fiber that is not running");
  switchContext(Self, *Scheduler, &Scheduler);
}

void Fiber::switchTo(Fiber &Next) {
  assert(Scheduler && "switching from a fiber that is not running");
  assert(&Next != this && Next.isRunnable() && "cannot switch to that fiber");
  Next.Scheduler = Scheduler;
  switchContext(Self, Next.Self, &Scheduler);
}

void Fiber::finishAndSwitchTo(Fiber &Next) {
  assert(Scheduler && "switching from a fiber that is not running");
  assert(&Next != this && Next.isRunnable() && "cannot switch to that fiber");
  Finished = true;
  Next.Scheduler = Scheduler;
  switchContext(Self, Next.Self, nullptr, /*Finishing=*/true);
  __builtin_unreachable();
}

FiberStack Fiber::takeStack() {
  FiberStack S = Stack;
  Stack = FiberStack();
  Self = FiberContext();
  Finished = false;
  return S;
}
