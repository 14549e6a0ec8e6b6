//===- GuardedMemory.cpp - Allocations fenced by inaccessible pages -------===//

#include "ptxjit/Runtime/GuardedMemory.h"
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <sys/mman.h>
#include <sys/ucontext.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PTXJIT_GUARDED_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(PTXJIT_GUARDED_ASAN)
#define PTXJIT_GUARDED_ASAN 1
#endif
#ifdef PTXJIT_GUARDED_ASAN
#include <pthread.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

using namespace ptxjit::runtime;

static size_t pageSize() {
  static const size_t Size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return Size;
}

static size_t roundUp(size_t N, size_t To) { return (N + To - 1) / To * To; }

void *ptxjit::runtime::allocateGuarded(size_t Size, size_t Align) {
  size_t Page = pageSize();
  size_t Body = roundUp(std::max<size_t>(Size, 1), Page);
  size_t Total = Body + 2 * Page;
  void *Map =
      mmap(nullptr, Total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Map == MAP_FAILED)
    return nullptr;
  char *Start = static_cast<char *>(Map) + Page;
  if (mprotect(Start, Body, PROT_READ | PROT_WRITE) != 0) {
    munmap(Map, Total);
    return nullptr;
  }
  // The end of the data as close to the upper guard as alignment allows.
  size_t Offset = (Body - std::max<size_t>(Size, 1)) & ~(Align - 1);
  return Start + Offset;
}

void ptxjit::runtime::freeGuarded(void *Data, size_t Size) {
  if (!Data)
    return;
  size_t Page = pageSize();
  size_t Body = roundUp(std::max<size_t>(Size, 1), Page);
  char *Start = reinterpret_cast<char *>(reinterpret_cast<uintptr_t>(Data) &
                                         ~(uintptr_t(Page) - 1));
  munmap(Start - Page, Body + 2 * Page);
}

void *ptxjit::runtime::allocateClusterShared(size_t Size, size_t Align,
                                             unsigned Count, size_t &Stride) {
  size_t Page = pageSize();
  size_t Body = roundUp(std::max<size_t>(Size, 1), Page);
  Stride = Body + Page;
  size_t Total = Page + 2 * Count * Stride;
  // The CTAs' memory is a file mapped twice over; the reservation around it
  // stays inaccessible.
  int FD = memfd_create("ptx-jit cluster shared memory", MFD_CLOEXEC);
  if (FD < 0)
    return nullptr;
  void *Map = MAP_FAILED;
  if (ftruncate(FD, off_t(Count * Body)) == 0)
    Map = mmap(nullptr, Total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Map == MAP_FAILED) {
    close(FD);
    return nullptr;
  }
  char *First = static_cast<char *>(Map) + Page;
  for (unsigned I = 0; I != 2 * Count; ++I)
    if (mmap(First + I * Stride, Body, PROT_READ | PROT_WRITE,
             MAP_SHARED | MAP_FIXED, FD,
             off_t((I % Count) * Body)) == MAP_FAILED) {
      munmap(Map, Total);
      close(FD);
      return nullptr;
    }
  close(FD);
  size_t Offset = (Body - std::max<size_t>(Size, 1)) & ~(Align - 1);
  return First + Offset;
}

void ptxjit::runtime::freeClusterShared(void *Data, size_t Size,
                                        unsigned Count) {
  if (!Data)
    return;
  size_t Page = pageSize();
  size_t Body = roundUp(std::max<size_t>(Size, 1), Page);
  char *First = reinterpret_cast<char *>(reinterpret_cast<uintptr_t>(Data) &
                                         ~(uintptr_t(Page) - 1));
  munmap(First - Page, Page + 2 * Count * (Body + Page));
}

static thread_local KernelFaultContext *CurrentKernel = nullptr;

namespace {
/// A signal stack for each thread that runs kernels: a fault from a stack
/// overflow (a fiber's or the thread's own) cannot be handled on the stack
/// that overflowed.
class AlternateSignalStack {
public:
  AlternateSignalStack() {
    Size = std::max<size_t>(64 * 1024, size_t(SIGSTKSZ));
    Base = mmap(nullptr, Size, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (Base == MAP_FAILED) {
      Base = nullptr;
      return;
    }
    stack_t SS;
    SS.ss_sp = Base;
    SS.ss_size = Size;
    SS.ss_flags = 0;
    if (sigaltstack(&SS, &Previous) != 0) {
      munmap(Base, Size);
      Base = nullptr;
    }
  }
  ~AlternateSignalStack() {
    if (!Base)
      return;
    sigaltstack(&Previous, nullptr);
    munmap(Base, Size);
  }

private:
  void *Base = nullptr;
  size_t Size = 0;
  stack_t Previous;
};
} // namespace

#ifdef PTXJIT_GUARDED_ASAN
namespace {
/// A fault on a fiber's stack jumps back to the thread's own stack: a stack
/// switch AddressSanitizer must be told about like any fiber switch, or it
/// goes on taking the abandoned fiber's stack for the thread's (and fibers
/// resumed later learn those wrong bounds as their scheduler's).
struct ThreadStack {
  ThreadStack() {
    pthread_attr_t Attr;
    if (pthread_getattr_np(pthread_self(), &Attr) != 0)
      return;
    void *Address;
    size_t Length;
    if (pthread_attr_getstack(&Attr, &Address, &Length) == 0) {
      Bottom = Address;
      Size = Length;
    }
    pthread_attr_destroy(&Attr);
  }
  const void *Bottom = nullptr;
  size_t Size = 0;
  /// The thread's fake stack (detect_stack_use_after_return) while a kernel
  /// runs, to take back after a fault.
  void *FakeStack = nullptr;
  /// Where the switch from the thread's own stack keeps its fake stack,
  /// which is FakeStack. Not a local: the handler's locals may be on the
  /// fiber's fake stack, which the switch from a fiber destroys.
  void *Kept = nullptr;
  /// The fault handler started a switch back to this stack.
  bool Switching = false;
};
} // namespace
/// Set while a kernel runs: the handler must not construct it.
static thread_local ThreadStack *CurrentThreadStack = nullptr;

/// In the fault handler, before it jumps: the switch goes to the thread's
/// stack. A fiber's fake stack is destroyed; the fiber is abandoned.
static void startSwitchToThreadStack() {
  ThreadStack *T = CurrentThreadStack;
  if (!T || !T->Bottom)
    return;
  bool OnFiber = __asan_get_current_fake_stack() != T->FakeStack;
  __sanitizer_start_switch_fiber(OnFiber ? nullptr : &T->Kept, T->Bottom,
                                 T->Size);
  T->Switching = true;
}

/// At the recovery point: the switch is over.
static void finishSwitchToThreadStack() {
  ThreadStack *T = CurrentThreadStack;
  if (!T || !T->Switching)
    return;
  T->Switching = false;
  __sanitizer_finish_switch_fiber(T->FakeStack, nullptr, nullptr);
}
#endif

void ptxjit::runtime::setKernelFaultContext(KernelFaultContext *C) {
  if (C) {
    static thread_local AlternateSignalStack Stack;
    (void)Stack;
  }
#ifdef PTXJIT_GUARDED_ASAN
  if (C) {
    static thread_local ThreadStack Own;
    Own.FakeStack = __asan_get_current_fake_stack();
    CurrentThreadStack = &Own;
  } else {
    finishSwitchToThreadStack();
  }
#endif
  CurrentKernel = C;
}

static struct sigaction PreviousSegv, PreviousBus;

static void onFault(int Signal, siginfo_t *Info, void *Ucontext) {
  if (KernelFaultContext *C = CurrentKernel; C && C->Recovery) {
    // The launch reports it; the process and other launches live on.
    C->FaultAddress = Info->si_addr;
    C->Signal = Signal;
#if defined(__x86_64__)
    C->StackPointer = uintptr_t(
        static_cast<ucontext_t *>(Ucontext)->uc_mcontext.gregs[REG_RSP]);
#endif
    CurrentKernel = nullptr;
#ifdef PTXJIT_GUARDED_ASAN
    startSwitchToThreadStack();
#endif
    siglongjmp(*C->Recovery, 1);
  }
  // Not a kernel's fault: whoever handled it before (LLVM's crash report).
  struct sigaction &Prev = Signal == SIGBUS ? PreviousBus : PreviousSegv;
  if (Prev.sa_flags & SA_SIGINFO) {
    Prev.sa_sigaction(Signal, Info, Ucontext);
    return;
  }
  if (Prev.sa_handler != SIG_DFL && Prev.sa_handler != SIG_IGN) {
    Prev.sa_handler(Signal);
    return;
  }
  signal(Signal, SIG_DFL);
  raise(Signal);
}

void ptxjit::runtime::installKernelFaultHandler() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    struct sigaction SA;
    std::memset(&SA, 0, sizeof SA);
    SA.sa_sigaction = onFault;
    SA.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&SA.sa_mask);
    sigaction(SIGSEGV, &SA, &PreviousSegv);
    sigaction(SIGBUS, &SA, &PreviousBus);
  });
}
