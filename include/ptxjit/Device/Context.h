//===- Context.h - The emulated device, as a library ------------*- C++ -*-===//
//
// The one engine behind `ptx-jit run` and the CUDA libraries: a context
// owns device memory, loaded modules, streams, the JIT and the threads that
// run CTAs, and a sticky error. Its API has CUDA's shape:
//
//   auto Ctx = device::Context::create();
//   device::Module &M = *(*Ctx)->loadPTX(Text);
//   device::Kernel &K = *M.getKernel("saxpy");
//   void *X = *(*Ctx)->allocate(Bytes);
//   void *Params[] = {&N, &A, &X, &Y};
//   Error E = (*Ctx)->launch(K, Grid, Block, 0, nullptr, Params);
//   E = joinErrors(std::move(E), (*Ctx)->synchronize());
//
// Every failure is an llvm::Error with a DeviceError code. A kernel that
// faults, traps, asserts, deadlocks or times out stops its launch; the
// error comes back from the next synchronization, and, as in CUDA, the
// context then refuses further work with the same error (getStickyError).
// The process and other contexts are unaffected. Thread-safe.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DEVICE_CONTEXT_H
#define PTXJIT_DEVICE_CONTEXT_H

#include "ptxjit/Cache/DiskCache.h"
#include "ptxjit/Device/DeviceError.h"
#include "ptxjit/Device/DeviceMemory.h"
#include "ptxjit/Device/Kernel.h"
#include "ptxjit/Device/Module.h"
#include "ptxjit/Device/Stream.h"
#include "ptxjit/Runtime/Launch.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace llvm {
class ThreadPoolInterface;
class raw_ostream;
} // namespace llvm

namespace ptxjit {
class KernelJIT;
struct CompiledKernel;
struct KernelShape;
struct LaunchStats;
namespace runtime {
class CheckSession;
class DeviceHeap;
} // namespace runtime
namespace ptx {
class Module;
} // namespace ptx
namespace device {

struct ContextOptions {
  unsigned OptLevel = 2; ///< of the JIT, 0-3
  /// JITOptions::OptimizeDebugModules: OptLevel was given explicitly.
  bool OptimizeDebugModules = false;
  /// Host threads running a launch's CTAs; 0: one per core.
  unsigned NumThreads = 0;
  /// Where compiled kernels are kept across runs (cache::getDiskCacheOptions
  /// gives the user's choice); none: every kernel is compiled.
  std::optional<cache::DiskCacheOptions> Cache;
  /// The checking mode: CheckABI.h's CheckKind bits every kernel is
  /// compiled and run with (0: none); unset, PTXJIT_CHECK's.
  std::optional<unsigned> CheckKinds;
  /// The device stack per thread launches start with (cudaLimitStackSize;
  /// 1..MaxThreadStackSize), and how the user raises it, for a stack
  /// overflow's report.
  uint32_t StackSize = DefaultThreadStackSize;
  std::string StackSizeOption = "--stack-size";
  /// Print a kernel's failure to stderr as it becomes the sticky error:
  /// the CUDA libraries' programs see only its code.
  bool ReportStickyErrors = false;
};

/// The limits of cudaDeviceSetLimit a context keeps.
enum class Limit { StackSize, PrintfFifoSize, MallocHeapSize };

struct LaunchOptions {
  /// A launch still running after this many seconds is stopped with
  /// LaunchTimeout (0: no limit).
  double TimeoutSeconds = 0;
  /// Host threads for this launch (0: the context's choice).
  unsigned NumThreads = 0;
  /// Filled when the launch has run (read it after synchronizing).
  LaunchStats *Stats = nullptr;
  /// cudaLaunchCooperativeKernel: all CTAs live at once, grid.sync() works;
  /// more CTAs than fit (runtime::getMaxCoResidentCTAs) fail with
  /// CooperativeLaunchTooLarge.
  bool Cooperative = false;
  /// Cooperative launches: a grid that has only waited this long is
  /// deadlocked (LaunchFailure).
  double GridStallSeconds = 5;
  /// Thread block clusters (cudaLaunchAttributeClusterDimension): 0,0,0 for
  /// the kernel's .reqnctapercluster, or no clusters.
  uint32_t ClusterDim[3] = {0, 0, 0};
  /// Interrupt.h: the launch stops, as at a timeout, once a Ctrl-C
  /// requested it (it fails with LaunchTimeout).
  bool StopOnInterrupt = false;
};

class Context {
public:
  static llvm::Expected<std::unique_ptr<Context>>
  create(const ContextOptions &Opts = {});
  /// Finishes all queued work first.
  ~Context();
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  const ContextOptions &getOptions() const { return Opts; }
  /// The checking mode's allocations and reports; null when kernels are
  /// not checked.
  runtime::CheckSession *getCheckSession() const { return Check.get(); }

  // Modules.

  /// Loads a parsed and verified module.
  llvm::Expected<Module &> loadModule(std::unique_ptr<ptx::Module> PTX);
  /// Parses, verifies and loads PTX text; diagnostics are in the error
  /// (InvalidPtx). BufferName names the text in them.
  llvm::Expected<Module &> loadPTX(llvm::StringRef Text,
                                   llvm::StringRef BufferName = "<ptx>");
  /// Unloads M after the work queued so far; M's kernels and variables are
  /// gone.
  llvm::Error unloadModule(Module &M);

  // Memory. Copies and sets are ordered on the legacy default stream and
  // return when done, like cudaMemcpy; the Async forms are queued on S.

  DeviceMemory &getMemory() { return Memory; }
  llvm::Expected<void *> allocate(uint64_t Size);
  llvm::Error free(void *Ptr);
  /// The device allocation Ptr points into (cudaPointerGetAttributes).
  std::optional<Allocation> getPointerInfo(const void *Ptr) const {
    return Memory.find(Ptr);
  }
  llvm::Error copy(void *Dst, const void *Src, uint64_t Size);
  llvm::Error set(void *Dst, uint8_t Value, uint64_t Size);
  llvm::Error copyAsync(void *Dst, const void *Src, uint64_t Size, Stream *S);
  llvm::Error setAsync(void *Dst, uint8_t Value, uint64_t Size, Stream *S);

  // Streams. A null Stream * is the legacy default stream.

  llvm::Expected<Stream &> createStream(StreamKind Kind = StreamKind::Blocking,
                                        int Priority = 0);
  /// Finishes S's work, then destroys it.
  llvm::Error destroyStream(Stream &S);
  Stream &getDefaultStream() { return *DefaultStream; }
  /// Queues T on S after what S must wait for (the legacy default stream
  /// waits for all blocking streams, and they for it). Returns the ticket.
  uint64_t enqueue(Stream *S, Stream::Task T);
  /// Makes S wait for the work of Other up to Ticket (cudaStreamWaitEvent).
  void enqueueWait(Stream *S, Stream &Other, uint64_t Ticket);
  /// Waits for all work on all streams; returns the failures.
  llvm::Error synchronize();

  // Launches.

  /// Queues Kernel on S over Grid x Block threads. Params is CUDA's
  /// convention: element I points to the value of parameter I. A
  /// configuration a GPU rejects, and a kernel that cannot be compiled, fail
  /// here; failures while the kernel runs come back from synchronization.
  llvm::Error launch(Kernel &K, Dim3 Grid, Dim3 Block,
                     uint32_t DynamicSharedBytes, Stream *S, void **Params,
                     const LaunchOptions &LOpts = {});

  /// One line per kernel that was compiled or launched: launches, CTAs,
  /// run and compile times (PTXJIT_STATS).
  void printStats(llvm::raw_ostream &OS) const;

  // Limits. A launch takes the values set when it is queued.

  /// InvalidValue for a stack size out of 1..MaxThreadStackSize, and for
  /// the malloc heap's size once the heap exists (as CUDA's).
  llvm::Error setLimit(Limit L, uint64_t Value);
  /// The stack size starts as ContextOptions::StackSize; the printf FIFO
  /// and malloc heap as on a GPU (1 MiB, 8 MiB). The FIFO's is kept but not
  /// used (printf writes to stdout at once).
  uint64_t getLimit(Limit L) const;

  /// The heap of the kernels' malloc and free, of the MallocHeapSize limit
  /// of the time: made at the first launch of a kernel whose module uses it
  /// (Module::usesDeviceHeap), as CUDA fixes its size then. Its blocks live
  /// until freed or the context ends.
  llvm::Expected<runtime::DeviceHeap *> getDeviceHeap();

  // Errors.

  /// The sticky error, if a kernel has failed (a copy each call).
  llvm::Error getStickyError() const;
  bool hasStickyError() const;
  /// For streams: gives E its code and makes it sticky if it is of a sticky
  /// kind; returns it.
  llvm::Error recordAsyncError(llvm::Error E);

  // For Kernel and Module.

  /// Compiles a kernel of M for Shape (one compilation at a time), or loads
  /// it from the kernel cache; adds what it cost to Stats.
  llvm::Expected<CompiledKernel> compile(const Module &M,
                                         llvm::StringRef Kernel,
                                         const KernelShape &Shape,
                                         KernelStats *Stats = nullptr);

private:
  explicit Context(const ContextOptions &Opts);
  Stream *resolve(Stream *S) { return S ? S : DefaultStream.get(); }

  ContextOptions Opts;
  std::unique_ptr<runtime::CheckSession> Check;
  DeviceMemory Memory;
  std::unique_ptr<llvm::ThreadPoolInterface> Workers;
  std::mutex JITLock;
  std::unique_ptr<KernelJIT> JIT;
  std::unique_ptr<cache::DiskCache> Cache; ///< guarded by JITLock
  std::atomic<uint64_t> Limits[3];
  std::mutex HeapLock; ///< guards Heap, and the heap's limit while none
  std::unique_ptr<runtime::DeviceHeap> Heap;

  mutable std::mutex Lock; ///< guards the members below
  std::list<std::unique_ptr<Module>> Modules;
  std::list<std::unique_ptr<Stream>> Streams;
  std::optional<std::pair<ErrorCode, std::string>> Sticky;

  /// Last: destroyed first, finishing its work while the rest still lives.
  std::unique_ptr<Stream> DefaultStream;
};

} // namespace device
} // namespace ptxjit

#endif
