//===- RuntimeState.cpp - What the CUDA runtime library keeps -------------===//

#include "RuntimeState.h"
#include "DeviceImage.h"
#include "ptxjit/Runtime/Checking.h"
#include "ptxjit/Runtime/Launch.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <utility>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

/// The highest architecture whose PTX ptx-jit reads.

std::optional<device::Limit> cuda::getDeviceLimit(int Limit) {
  switch (Limit) {
  case 0: // cudaLimitStackSize
    return device::Limit::StackSize;
  case 1: // cudaLimitPrintfFifoSize
    return device::Limit::PrintfFifoSize;
  case 2: // cudaLimitMallocHeapSize
    return device::Limit::MallocHeapSize;
  default:
    return std::nullopt;
  }
}

Error cuda::unsupportedLimit(int Limit) {
  return device::makeDeviceError(
      device::ErrorCode::UnsupportedLimit,
      formatv("limit {0} is not supported (stack, printf FIFO and malloc "
              "heap size are)",
              Limit));
}

RuntimeState &RuntimeState::get() {
  static RuntimeState *State = new RuntimeState();
  return *State;
}

Expected<device::Context &> RuntimeState::getContext() {
  std::lock_guard<std::mutex> G(Lock);
  if (!Ctx) {
    device::ContextOptions Opts;
    if (const char *Threads = std::getenv("PTXJIT_THREADS"))
      Opts.NumThreads = unsigned(std::strtoul(Threads, nullptr, 10));
    // PTXJIT_STACK_SIZE: the stack per thread launches start with (as
    // cudaDeviceSetLimit(cudaLimitStackSize) sets it); a bad value fails
    // every call.
    Opts.StackSizeOption =
        "PTXJIT_STACK_SIZE or cudaDeviceSetLimit(cudaLimitStackSize)";
    // A program sees a failed kernel's code only: say what happened.
    Opts.ReportStickyErrors = true;
    if (const char *Stack = std::getenv("PTXJIT_STACK_SIZE")) {
      Expected<uint32_t> Bytes = parseThreadStackSize(Stack);
      if (!Bytes) {
        std::string Why = "PTXJIT_STACK_SIZE: " + toString(Bytes.takeError());
        static bool Told = false; // under Lock
        if (!std::exchange(Told, true))
          errs() << "ptx-jit: " << Why << "\n";
        return device::makeDeviceError(device::ErrorCode::InvalidValue, Why);
      }
      Opts.StackSize = *Bytes;
    }
    // The kernel cache, where PTXJIT_CACHE_DIR or the default puts it.
    Opts.Cache = cache::getDiskCacheOptions(std::nullopt, /*Disable=*/false,
                                            errs());
    Expected<std::unique_ptr<device::Context>> C =
        device::Context::create(Opts);
    if (!C)
      return C.takeError();
    Ctx = std::move(*C);
    // PTXJIT_STATS=1: what each kernel cost, when the program exits.
    static bool StatsAtExit = [] {
      if (const char *V = std::getenv("PTXJIT_STATS"); V && *V && *V != '0')
        std::atexit([] {
          if (device::Context *C = RuntimeState::get().peekContext()) {
            consumeError(C->synchronize());
            std::fflush(stdout);
            C->printStats(errs());
          }
        });
      return true;
    }();
    (void)StatsAtExit;
    // PTXJIT_CHECK: the checks' summary when the program exits.
    static bool SummaryAtExit = [] {
      if (runtime::getCheckKindsFromEnvironment())
        std::atexit([] {
          if (device::Context *C = RuntimeState::get().peekContext())
            if (runtime::CheckSession *S = C->getCheckSession()) {
              consumeError(C->synchronize());
              std::fflush(stdout);
              S->printSummary();
              // ptx-jit exec waits for the program: its exit status says
              // whether errors were found (docs/CHECKING.md).
              if (const char *Fd = std::getenv("PTXJIT_CHECK_ERRORS_FD")) {
                std::string Line = std::to_string(S->numErrors()) + "\n";
                if (::write(std::atoi(Fd), Line.data(), Line.size()) < 0)
                  errs() << "ptx-jit: cannot report the checks' errors to "
                            "ptx-jit exec\n";
              }
            }
        });
      return true;
    }();
    (void)SummaryAtExit;
  }
  return *Ctx;
}

CUevent_st *RuntimeState::createEvent(unsigned Flags) {
  auto *Event = new CUevent_st();
  Event->Flags = Flags;
  std::lock_guard<std::mutex> G(EventLock);
  Events.insert(Event);
  return Event;
}

void RuntimeState::destroyEvent(CUevent_st *Event) {
  // Work that will record it may still be queued: let it finish first.
  device::Stream *S;
  uint64_t Ticket;
  {
    std::lock_guard<std::mutex> G(Event->Lock);
    S = Event->S;
    Ticket = Event->Ticket;
  }
  if (S)
    S->waitFor(Ticket);
  {
    std::lock_guard<std::mutex> G(EventLock);
    Events.erase(Event);
  }
  delete Event;
}

void RuntimeState::forgetStreamInEvents(const device::Stream *Stream) {
  std::lock_guard<std::mutex> G(EventLock);
  for (CUevent_st *Event : Events) {
    std::lock_guard<std::mutex> EG(Event->Lock);
    if (!Stream || Event->S == Stream)
      Event->S = nullptr;
  }
}

void RuntimeState::resetContext() {
  std::unique_ptr<device::Context> Old;
  {
    std::lock_guard<std::mutex> G(Lock);
    Old = std::move(Ctx);
    // Modules and kernels lived in the context: load them again on use.
    for (auto &B : Binaries) {
      B->Module = nullptr;
      B->LoadError.clear();
      B->LoadErrorCode = device::ErrorCode::Success;
    }
    for (auto &[Host, F] : Functions)
      F->Kernel = nullptr;
  }
  Old.reset();
  forgetStreamInEvents(nullptr);
}

RegisteredBinary *RuntimeState::registerBinary(const void *FatBinary) {
  std::lock_guard<std::mutex> G(Lock);
  Binaries.push_back(std::make_unique<RegisteredBinary>());
  Binaries.back()->FatBinary = FatBinary;
  return Binaries.back().get();
}

void RuntimeState::unregisterBinary(RegisteredBinary *B) {
  // The program is exiting (or unloading a library): finish its work.
  if (device::Context *C = peekContext())
    consumeError(C->synchronize());
  std::lock_guard<std::mutex> G(Lock);
  for (auto It = Functions.begin(); It != Functions.end();)
    if (It->second->Binary == B)
      Functions.erase(It++);
    else
      ++It;
  for (auto It = Variables.begin(); It != Variables.end();)
    if (It->second.Binary == B)
      Variables.erase(It++);
    else
      ++It;
}

void RuntimeState::registerFunction(RegisteredBinary *B,
                                    const void *HostFunction,
                                    const char *DeviceName) {
  std::lock_guard<std::mutex> G(Lock);
  auto F = std::make_unique<RegisteredFunction>();
  F->Binary = B;
  F->HostFunction = HostFunction;
  F->DeviceName = DeviceName;
  Functions[HostFunction] = std::move(F);
}

void RuntimeState::registerVariable(RegisteredBinary *B,
                                    const void *HostVariable,
                                    const char *DeviceName, uint64_t Size,
                                    void **ManagedPointer) {
  std::lock_guard<std::mutex> G(Lock);
  Variables[HostVariable] = {B, DeviceName, Size, ManagedPointer};
}

Error RuntimeState::loadBinary(RegisteredBinary &B, device::Context &C) {
  if (B.Module)
    return Error::success();
  if (B.LoadErrorCode != device::ErrorCode::Success)
    return device::makeDeviceError(B.LoadErrorCode, B.LoadError);
  auto Fail = [&](device::ErrorCode Code, Error E) {
    B.LoadErrorCode = Code;
    B.LoadError = toString(std::move(E));
    // A program only sees the code; say once why its kernels cannot run.
    errs() << "ptx-jit: cannot load the program's device code: " << B.LoadError
           << "\n";
    return device::makeDeviceError(Code, B.LoadError);
  };
  Expected<std::string> PTX = getRegisteredPTX(B.FatBinary);
  if (!PTX) {
    auto [Code, Message] = device::takeError(PTX.takeError());
    return Fail(Code, device::makeDeviceError(Code, Message));
  }
  Expected<device::Module &> M = C.loadPTX(*PTX, "<fatbin>");
  if (!M)
    return Fail(device::ErrorCode::InvalidPtx, M.takeError());
  B.Module = &*M;
  // __managed__ variables: the host's pointer to the device copy.
  for (auto &[Host, V] : Variables) {
    if (V.Binary != &B || !V.ManagedPointer)
      continue;
    if (Expected<device::Allocation> A = M->getGlobal(V.DeviceName))
      *V.ManagedPointer = A->Base;
    else
      consumeError(A.takeError());
  }
  return Error::success();
}

Error RuntimeState::initModule(RegisteredBinary *B) {
  Expected<device::Context &> C = getContext();
  if (!C)
    return C.takeError();
  std::lock_guard<std::mutex> G(Lock);
  return loadBinary(*B, *C);
}

RegisteredFunction *RuntimeState::findFunction(const void *HostFunction) {
  std::lock_guard<std::mutex> G(Lock);
  auto It = Functions.find(HostFunction);
  return It == Functions.end() ? nullptr : It->second.get();
}

Expected<device::Kernel &> RuntimeState::getKernel(RegisteredFunction &F) {
  if (F.Kernel)
    return *F.Kernel;
  Expected<device::Context &> C = getContext();
  if (!C)
    return C.takeError();
  std::lock_guard<std::mutex> G(Lock);
  if (Error E = loadBinary(*F.Binary, *C))
    return std::move(E);
  Expected<device::Kernel &> K = F.Binary->Module->getKernel(F.DeviceName);
  if (!K)
    return K.takeError();
  F.Kernel = &*K;
  return *K;
}

Expected<device::Kernel &> RuntimeState::getKernel(const void *HostFunction) {
  RegisteredFunction *F = findFunction(HostFunction);
  if (!F)
    return device::makeDeviceError(
        device::ErrorCode::InvalidDeviceFunction,
        formatv("{0} is not a registered kernel", HostFunction));
  return getKernel(*F);
}

Expected<device::Allocation>
RuntimeState::getVariable(const void *HostVariable) {
  Expected<device::Context &> C = getContext();
  if (!C)
    return C.takeError();
  std::lock_guard<std::mutex> G(Lock);
  auto It = Variables.find(HostVariable);
  if (It == Variables.end())
    return device::makeDeviceError(
        device::ErrorCode::InvalidSymbol,
        formatv("{0} is not a registered device variable", HostVariable));
  if (Error E = loadBinary(*It->second.Binary, *C))
    return std::move(E);
  return It->second.Binary->Module->getGlobal(It->second.DeviceName);
}

static thread_local cudaError_t LastError = cudaSuccess;

cudaError_t cuda::setLastError(cudaError_t E) {
  if (E != cudaSuccess)
    LastError = E;
  return E;
}

cudaError_t cuda::setLastError(Error E) {
  if (!E)
    return cudaSuccess;
  return setLastError(cudaError_t(device::takeError(std::move(E)).first));
}

cudaError_t cuda::takeLastError() {
  cudaError_t E = LastError;
  LastError = cudaSuccess;
  // A sticky error is reported again and again.
  if (device::Context *C = RuntimeState::get().peekContext())
    if (C->hasStickyError())
      return setLastError(C->getStickyError());
  return E;
}

cudaError_t cuda::peekLastError() {
  if (device::Context *C = RuntimeState::get().peekContext())
    if (C->hasStickyError())
      return cudaError_t(device::takeError(C->getStickyError()).first);
  return LastError;
}

std::vector<CallConfiguration> &cuda::getCallConfigurations() {
  static thread_local std::vector<CallConfiguration> Stack;
  return Stack;
}
