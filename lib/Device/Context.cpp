//===- Context.cpp - The emulated device, as a library --------------------===//

#include "ptxjit/Device/Context.h"
#include "ptxjit/Device/Interrupt.h"
#include "ptxjit/Cache/KernelEntry.h"
#include "ptxjit/Runtime/Checking.h"
#include "ptxjit/Runtime/DeviceHeap.h"
#include "llvm/Support/SourceMgr.h"
#include "ptxjit/JIT/KernelJIT.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/FrontEnd.h"
#include "ptxjit/Runtime/Launch.h"
#include "ptxjit/Runtime/WarpRuntime.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <thread>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::device;

Context::Context(const ContextOptions &Opts)
    : Opts(Opts), Limits{Opts.StackSize, 1 << 20, 8 << 20} {}

Error Context::setLimit(Limit L, uint64_t Value) {
  if (L == Limit::StackSize && (Value == 0 || Value > MaxThreadStackSize))
    return makeDeviceError(ErrorCode::InvalidValue,
                           formatv("a stack of {0} bytes per thread is out of "
                                   "range (1..{1})",
                                   Value, MaxThreadStackSize));
  std::unique_lock<std::mutex> G(HeapLock, std::defer_lock);
  if (L == Limit::MallocHeapSize) {
    G.lock();
    if (Heap)
      return makeDeviceError(
          ErrorCode::InvalidValue,
          formatv("the device heap's size ({0} bytes) is fixed once a kernel "
                  "that uses malloc or free has been launched",
                  Heap->size()));
  }
  Limits[unsigned(L)].store(Value, std::memory_order_relaxed);
  return Error::success();
}

Expected<runtime::DeviceHeap *> Context::getDeviceHeap() {
  std::lock_guard<std::mutex> G(HeapLock);
  if (!Heap) {
    Expected<std::unique_ptr<runtime::DeviceHeap>> H =
        runtime::DeviceHeap::create(getLimit(Limit::MallocHeapSize),
                                    Check.get());
    if (!H)
      return withErrorCode(H.takeError(), ErrorCode::MemoryAllocation);
    Heap = std::move(*H);
    // What the limit reads from now on (whole 16-byte blocks).
    Limits[unsigned(Limit::MallocHeapSize)].store(Heap->size(),
                                                  std::memory_order_relaxed);
  }
  return Heap.get();
}

uint64_t Context::getLimit(Limit L) const {
  return Limits[unsigned(L)].load(std::memory_order_relaxed);
}

Expected<std::unique_ptr<Context>> Context::create(const ContextOptions &Opts) {
  if (Opts.OptLevel > 3)
    return makeDeviceError(ErrorCode::InvalidValue,
                           "the optimization level must be 0, 1, 2 or 3");
  if (Opts.StackSize == 0 || Opts.StackSize > MaxThreadStackSize)
    return makeDeviceError(ErrorCode::InvalidValue,
                           formatv("a stack of {0} bytes per thread is out of "
                                   "range (1..{1})",
                                   Opts.StackSize, MaxThreadStackSize));
  std::unique_ptr<Context> C(new Context(Opts));
  unsigned Kinds =
      Opts.CheckKinds.value_or(runtime::getCheckKindsFromEnvironment());
  C->Opts.CheckKinds = Kinds;
  if (Kinds)
    C->Check = std::make_unique<runtime::CheckSession>(Kinds, errs());
  JITOptions JO;
  JO.OptLevel = Opts.OptLevel;
  JO.OptimizeDebugModules = Opts.OptimizeDebugModules;
  // Global memory is the context's allocations, all in the device range.
  JO.CheckAddresses = true;
  // The runtime's entry points, from the table the generated code's
  // declarations come from.
  JO.Symbols = runtime::getRuntimeSymbols();
  Expected<std::unique_ptr<KernelJIT>> J = KernelJIT::create(JO);
  if (!J)
    return withErrorCode(J.takeError(), ErrorCode::InitializationError);
  C->JIT = std::move(*J);
  if (Opts.Cache)
    C->Cache = std::make_unique<cache::DiskCache>(*Opts.Cache);
  // The caller's thread runs CTAs too: the pool needs one thread fewer.
  unsigned Threads = Opts.NumThreads
                         ? Opts.NumThreads
                         : std::max(1u, std::thread::hardware_concurrency());
  C->Workers = std::make_unique<StdThreadPool>(
      hardware_concurrency(std::max(1u, Threads - 1)));
  C->DefaultStream = std::make_unique<Stream>(*C, StreamKind::LegacyDefault);
  return std::move(C);
}

Context::~Context() {
  consumeError(synchronize());
  // Streams go before the modules their work may use.
  DefaultStream.reset();
  Streams.clear();
}

Expected<device::Module &>
Context::loadModule(std::unique_ptr<ptx::Module> PTX) {
  if (Error E = getStickyError())
    return std::move(E);
  Expected<std::unique_ptr<device::Module>> M =
      device::Module::create(*this, std::move(PTX));
  if (!M)
    return M.takeError();
  std::lock_guard<std::mutex> G(Lock);
  Modules.push_back(std::move(*M));
  return *Modules.back();
}

Expected<device::Module &> Context::loadPTX(StringRef Text,
                                            StringRef BufferName) {
  std::string Diagnostics;
  raw_string_ostream DiagOS(Diagnostics);
  Expected<std::unique_ptr<ptx::Module>> PTX =
      ptx::loadModule(MemoryBuffer::getMemBufferCopy(Text, BufferName), DiagOS);
  if (!PTX) {
    consumeError(PTX.takeError());
    return makeDeviceError(ErrorCode::InvalidPtx,
                           StringRef(Diagnostics).rtrim());
  }
  return loadModule(std::move(*PTX));
}

Error Context::unloadModule(device::Module &M) {
  // Work queued before may still use the module.
  Error E = synchronize();
  std::lock_guard<std::mutex> G(Lock);
  for (auto It = Modules.begin(); It != Modules.end(); ++It)
    if (It->get() == &M) {
      Modules.erase(It);
      return E;
    }
  return joinErrors(
      std::move(E),
      makeDeviceError(ErrorCode::InvalidResourceHandle,
                      "the module is not loaded in this context"));
}

Expected<void *> Context::allocate(uint64_t Size) {
  if (Error E = getStickyError())
    return std::move(E);
  Expected<void *> P = Memory.allocate(Size);
  if (P && Check)
    Check->addAllocation(*P, Size, "", /*Written=*/false);
  return P;
}

Error Context::free(void *Ptr) {
  if (Error E = getStickyError())
    return E;
  // cudaFree waits for the device: queued kernels may still use Ptr.
  if (Error E = DefaultStream->synchronize())
    return E;
  if (Error E = Memory.free(Ptr))
    return E;
  if (Check)
    Check->freeAllocation(Ptr);
  return Error::success();
}

Error Context::copyAsync(void *Dst, const void *Src, uint64_t Size, Stream *S) {
  if (Error E = getStickyError())
    return E;
  if (Size && (!Dst || !Src))
    return makeDeviceError(ErrorCode::InvalidValue,
                           "a copy needs a source and a destination");
  enqueue(S, [=] {
    std::memmove(Dst, Src, Size);
    if (Check)
      Check->markWritten(Dst, Size);
    return Error::success();
  });
  return Error::success();
}

Error Context::setAsync(void *Dst, uint8_t Value, uint64_t Size, Stream *S) {
  if (Error E = getStickyError())
    return E;
  if (Size && !Dst)
    return makeDeviceError(ErrorCode::InvalidValue, "a set needs memory");
  enqueue(S, [=] {
    std::memset(Dst, Value, Size);
    if (Check)
      Check->markWritten(Dst, Size);
    return Error::success();
  });
  return Error::success();
}

Error Context::copy(void *Dst, const void *Src, uint64_t Size) {
  if (Error E = copyAsync(Dst, Src, Size, nullptr))
    return E;
  return DefaultStream->synchronize();
}

Error Context::set(void *Dst, uint8_t Value, uint64_t Size) {
  if (Error E = setAsync(Dst, Value, Size, nullptr))
    return E;
  return DefaultStream->synchronize();
}

Expected<Stream &> Context::createStream(StreamKind Kind, int Priority) {
  if (Kind == StreamKind::LegacyDefault)
    return makeDeviceError(ErrorCode::InvalidValue,
                           "there is one legacy default stream");
  std::lock_guard<std::mutex> G(Lock);
  Streams.push_back(std::make_unique<Stream>(*this, Kind, Priority));
  return *Streams.back();
}

Error Context::destroyStream(Stream &S) {
  Error E = S.synchronize();
  std::unique_ptr<Stream> Doomed;
  {
    std::lock_guard<std::mutex> G(Lock);
    for (auto It = Streams.begin(); It != Streams.end(); ++It)
      if (It->get() == &S) {
        Doomed = std::move(*It);
        Streams.erase(It);
        break;
      }
  }
  if (!Doomed)
    return joinErrors(std::move(E),
                      makeDeviceError(ErrorCode::InvalidResourceHandle,
                                      "the stream is not of this context"));
  return E;
}

uint64_t Context::enqueue(Stream *S, Stream::Task T) {
  Stream *Target = resolve(S);
  // The legacy default stream's implicit synchronization: its work waits
  // for what blocking streams queued before, and theirs for its.
  SmallVector<std::pair<Stream *, uint64_t>, 4> Waits;
  {
    std::lock_guard<std::mutex> G(Lock);
    if (Target->getKind() == StreamKind::LegacyDefault) {
      for (const std::unique_ptr<Stream> &Other : Streams)
        if (Other->getKind() == StreamKind::Blocking)
          if (uint64_t Ticket = Other->getLastTicket())
            Waits.push_back({Other.get(), Ticket});
    } else if (Target->getKind() == StreamKind::Blocking) {
      if (uint64_t Ticket = DefaultStream->getLastTicket())
        Waits.push_back({DefaultStream.get(), Ticket});
    }
  }
  // Waiting for work that already ran costs nothing.
  llvm::erase_if(Waits, [](const std::pair<Stream *, uint64_t> &W) {
    return W.first->isComplete(W.second);
  });
  if (Waits.empty())
    return Target->enqueue(std::move(T));
  return Target->enqueue([Waits, T = std::move(T)]() {
    for (const auto &[Other, Ticket] : Waits)
      Other->waitFor(Ticket);
    return T();
  });
}

void Context::enqueueWait(Stream *S, Stream &Other, uint64_t Ticket) {
  enqueue(S, [&Other, Ticket] {
    Other.waitFor(Ticket);
    return Error::success();
  });
}

Error Context::synchronize() {
  Error E = DefaultStream->synchronize();
  std::vector<Stream *> All;
  {
    std::lock_guard<std::mutex> G(Lock);
    for (const std::unique_ptr<Stream> &S : Streams)
      All.push_back(S.get());
  }
  for (Stream *S : All)
    E = joinErrors(std::move(E), S->synchronize());
  return E;
}

void Context::printStats(raw_ostream &OS) const {
  std::lock_guard<std::mutex> G(Lock);
  for (const std::unique_ptr<device::Module> &M : Modules)
    for (StringRef Name : M->getKernelNames()) {
      Expected<Kernel &> K = M->getKernel(Name);
      if (!K) {
        consumeError(K.takeError());
        continue;
      }
      KernelStats S = K->getStats();
      if (!S.Compilations && !S.Launches)
        continue;
      OS << formatv("ptx-jit: kernel '{0}': {1} launches, {2} CTAs, run "
                    "{3:f3} ms; {4} block shapes compiled in {5:f3} ms, {6} "
                    "of them loaded from the cache\n",
                    Name, S.Launches, S.CTAs, S.RunSeconds * 1e3,
                    S.Compilations, S.CompileSeconds * 1e3, S.CacheHits);
    }
}

Error Context::getStickyError() const {
  std::lock_guard<std::mutex> G(Lock);
  if (!Sticky)
    return Error::success();
  return makeDeviceError(Sticky->first, Sticky->second);
}

bool Context::hasStickyError() const {
  std::lock_guard<std::mutex> G(Lock);
  return Sticky.has_value();
}

Error Context::recordAsyncError(Error E) {
  E = withErrorCode(std::move(E), ErrorCode::LaunchFailure);
  auto [Code, Message] = device::takeError(std::move(E));
  if (isStickyError(Code)) {
    std::lock_guard<std::mutex> G(Lock);
    if (!Sticky) {
      Sticky.emplace(Code, Message);
      if (Opts.ReportStickyErrors)
        errs() << "ptx-jit: error: " << Message << "\n";
    }
  }
  return makeDeviceError(Code, Message);
}

static double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

Expected<CompiledKernel> Context::compile(const device::Module &M,
                                          StringRef Kernel,
                                          const KernelShape &Shape,
                                          KernelStats *Stats) {
  std::lock_guard<std::mutex> G(JITLock);
  KernelStats Ignored;
  KernelStats &S = Stats ? *Stats : Ignored;
  CompileTimes Times;
  auto Add = [&] {
    S.IRGenSeconds += Times.IRGenSeconds;
    S.OptimizeSeconds += Times.OptimizeSeconds;
    S.CodeGenSeconds += Times.CodeGenSeconds;
    S.LinkSeconds += Times.LinkSeconds;
    if (!Times.Downgrade.empty())
      S.NotOptimized = Times.Downgrade;
  };
  cache::CacheDigest Key;
  if (Cache) {
    auto Start = std::chrono::steady_clock::now();
    Key = JIT->getCacheKey(M.getPTX(), Kernel, Shape,
                           /*ExternalModuleVariables=*/true, *Opts.CheckKinds);
    std::optional<std::string> Payload = Cache->lookup(Key);
    Expected<cache::KernelEntry> Entry =
        Payload ? cache::decodeKernelEntry(*Payload)
                : Expected<cache::KernelEntry>(createStringError(
                      inconvertibleErrorCode(), "not in the cache"));
    S.CacheSeconds += secondsSince(Start);
    if (Entry) {
      KernelObject Object{
          std::move(Entry->Layout),
          MemoryBuffer::getMemBufferCopy(Entry->Object, Kernel)};
      Expected<CompiledKernel> K = JIT->link(std::move(Object), Kernel, Shape,
                                             &M.getVariableSymbols(), &Times);
      Add();
      if (K) {
        ++S.CacheHits;
        return K;
      }
      // An entry that does not link is compiled again and replaced.
      consumeError(K.takeError());
      Times = {};
    } else {
      consumeError(Entry.takeError());
    }
    ++S.CacheMisses;
  }
  Expected<KernelObject> Object =
      JIT->compileToObject(M.getPTX(), Kernel, Shape,
                           /*ExternalModuleVariables=*/true, *Opts.CheckKinds,
                           &Times);
  if (!Object) {
    Add();
    return withErrorCode(Object.takeError(), ErrorCode::InvalidPtx);
  }
  if (Cache) {
    auto Start = std::chrono::steady_clock::now();
    Cache->store(Key, cache::encodeKernelEntry(Object->Layout,
                                               Object->Object->getBuffer()));
    S.CacheSeconds += secondsSince(Start);
  }
  Expected<CompiledKernel> K = JIT->link(std::move(*Object), Kernel, Shape,
                                         &M.getVariableSymbols(), &Times);
  Add();
  if (!K)
    return withErrorCode(K.takeError(), ErrorCode::InvalidPtx);
  return K;
}

namespace {
/// Raises a launch's cancel flag after a time limit, or once a Ctrl-C asked
/// for it (Interrupt.h).
class Watchdog {
public:
  Watchdog(double Seconds, bool StopOnInterrupt, std::atomic<bool> &Cancel) {
    if (Seconds <= 0 && !StopOnInterrupt)
      return;
    using Clock = std::chrono::steady_clock;
    auto Deadline =
        Seconds > 0
            ? Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                 std::chrono::duration<double>(Seconds))
            : Clock::time_point::max();
    Thread = std::thread([this, Deadline, StopOnInterrupt, &Cancel] {
      std::unique_lock<std::mutex> L(Lock);
      while (!Finished) {
        if ((StopOnInterrupt && interruptRequested()) ||
            Clock::now() >= Deadline) {
          Cancel = true;
          return;
        }
        // A signal handler cannot wake a condition variable: poll the
        // request.
        Done.wait_until(
            L, StopOnInterrupt
                   ? std::min(Deadline,
                              Clock::now() + std::chrono::milliseconds(20))
                   : Deadline);
      }
    });
  }
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> L(Lock);
      Finished = true;
    }
    Done.notify_all();
    if (Thread.joinable())
      Thread.join();
  }

private:
  std::thread Thread;
  std::mutex Lock;
  std::condition_variable Done;
  bool Finished = false;
};
} // namespace

Error Context::launch(Kernel &K, Dim3 Grid, Dim3 Block,
                      uint32_t DynamicSharedBytes, Stream *S, void **Params,
                      const LaunchOptions &LOpts) {
  if (Error E = getStickyError())
    return E;
  LaunchConfig Config;
  Config.Grid[0] = Grid.X, Config.Grid[1] = Grid.Y, Config.Grid[2] = Grid.Z;
  Config.Block[0] = Block.X, Config.Block[1] = Block.Y,
  Config.Block[2] = Block.Z;
  Config.DynamicSharedBytes = DynamicSharedBytes;
  Config.NumThreads = LOpts.NumThreads ? LOpts.NumThreads : Opts.NumThreads;
  Config.Pool = Workers.get();
  Config.Cooperative = LOpts.Cooperative;
  Config.GridStallSeconds = LOpts.GridStallSeconds;
  std::copy(LOpts.ClusterDim, LOpts.ClusterDim + 3, Config.ClusterDim);
  Config.StackSize = uint32_t(getLimit(Limit::StackSize));
  Config.StackSizeOption = Opts.StackSizeOption.c_str();
  if (K.getModule().usesDeviceHeap()) {
    Expected<runtime::DeviceHeap *> H = getDeviceHeap();
    if (!H)
      return H.takeError();
    Config.Heap = *H;
  }
  // A configuration a GPU rejects fails before anything is compiled.
  if (Error E = validateLaunch(Config, K.getLaunchLayout()))
    return withErrorCode(std::move(E), ErrorCode::InvalidConfiguration);
  if (LOpts.Cooperative) {
    uint64_t NumCTAs = uint64_t(Grid.X) * Grid.Y * Grid.Z;
    uint64_t Max = getMaxCoResidentCTAs(Config, K.getLaunchLayout());
    if (NumCTAs > Max)
      return makeDeviceError(
          ErrorCode::CooperativeLaunchTooLarge,
          formatv("a cooperative launch of kernel '{0}' has {1} CTAs, but at "
                  "most {2} of {3} threads can be live at once",
                  K.getName(), NumCTAs, Max,
                  uint64_t(Block.X) * Block.Y * Block.Z));
  }
  if (DynamicSharedBytes > K.getAttributes().MaxDynamicSharedBytes)
    return makeDeviceError(
        ErrorCode::InvalidValue,
        formatv("{0} bytes of dynamic shared memory exceed kernel '{1}''s "
                "limit of {2}",
                DynamicSharedBytes, K.getName(),
                K.getAttributes().MaxDynamicSharedBytes));
  if (!Params && !K.getParams().empty())
    return makeDeviceError(ErrorCode::InvalidValue,
                           formatv("kernel '{0}' takes {1} parameters and was "
                                   "given none",
                                   K.getName(), K.getParams().size()));
  Expected<const CompiledKernel *> CK = K.getCompiled(Block);
  if (!CK)
    return CK.takeError();

  // The parameter buffer, laid out as the kernel declares it; it travels
  // with the work, so the caller's values may change after this returns.
  auto ParamBuffer = std::make_shared<std::vector<uint8_t>>(
      (*CK)->Layout.ParamBufferSize + 16, 0);
  for (const KernelParam &P : K.getParams()) {
    unsigned I = &P - K.getParams().data();
    std::memcpy(ParamBuffer->data() + (*CK)->Layout.ParamOffsets[I], Params[I],
                P.Size);
  }
  const CompiledKernel *Code = *CK;
  std::shared_ptr<runtime::LaunchCheck> Checked;
  if (Check) {
    Checked = std::make_shared<runtime::LaunchCheck>();
    Checked->Session = Check.get();
    Checked->Kinds = Check->kinds();
    Checked->KernelName = K.getName().str();
    Checked->Layout = &Code->Layout;
    const SourceMgr &SM = K.getModule().getPTX().getSourceMgr();
    Checked->File =
        SM.getMemoryBuffer(SM.getMainFileID())->getBufferIdentifier().str();
    Config.Check = Checked.get();
  }
  double Timeout = LOpts.TimeoutSeconds;
  bool StopOnInterrupt = LOpts.StopOnInterrupt;
  LaunchStats *Stats = LOpts.Stats;
  Kernel *Launched = &K;
  enqueue(S, [this, Launched, Code, ParamBuffer, Config, Timeout,
              StopOnInterrupt, Stats, Checked]() mutable {
    // Work queued behind a failed kernel does not run.
    if (Error E = getStickyError())
      return E;
    std::atomic<bool> Cancel{false};
    Config.Cancel = &Cancel;
    Watchdog Dog(Timeout, StopOnInterrupt, Cancel);
    auto Start = std::chrono::steady_clock::now();
    Error E = launchKernel(*Code, ParamBuffer->data(), Config, Stats);
    Launched->recordRun(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count(),
        uint64_t(Config.Grid[0]) * Config.Grid[1] * Config.Grid[2]);
    return E;
  });
  return Error::success();
}
