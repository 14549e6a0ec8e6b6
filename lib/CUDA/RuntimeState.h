//===- RuntimeState.h - What the CUDA runtime library keeps ------*- C++
//-*-===//
//
// The process's one device context, the fat binaries and the host-side
// handles of functions and variables the program registered, streams and
// events, and each host thread's last error and launch configuration.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_CUDA_RUNTIMESTATE_H
#define PTXJIT_LIB_CUDA_RUNTIMESTATE_H

#include "CUDAABI.h"
#include "ptxjit/Device/Context.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ptxjit {
namespace cuda {

/// A fat binary the program registered; its module is loaded on first use
/// (as CUDA's lazy loading does).
struct RegisteredBinary {
  const void *FatBinary = nullptr;
  device::Module *Module = nullptr;
  /// Why loading failed, once it did (reported at every use).
  std::string LoadError;
  device::ErrorCode LoadErrorCode = device::ErrorCode::Success;
};

struct RegisteredFunction {
  RegisteredBinary *Binary;
  /// The host stub the program registered it by.
  const void *HostFunction = nullptr;
  std::string DeviceName;
  device::Kernel *Kernel = nullptr;
};

struct RegisteredVariable {
  RegisteredBinary *Binary;
  std::string DeviceName;
  uint64_t Size;
  /// __managed__: the host's pointer variable to point at the device copy.
  void **ManagedPointer = nullptr;
};

struct StreamCapture;

} // namespace cuda
} // namespace ptxjit

struct CUgraphNode_st;

/// cudaStream_t points to one of these.
struct CUstream_st {
  ptxjit::device::Stream *S;
  unsigned Flags;
  int Priority;
  /// Its part in a stream capture, if it takes part in one (Capture.h;
  /// guarded by the capture lock).
  ptxjit::cuda::StreamCapture *Capture = nullptr;
};

/// cudaEvent_t points to one of these.
struct CUevent_st {
  unsigned Flags = 0;
  std::mutex Lock;
  /// Where it was last recorded; null once that stream is destroyed (its
  /// work, the recording included, is then done).
  ptxjit::device::Stream *S = nullptr;
  bool Recorded = false;
  uint64_t Ticket = 0;
  std::chrono::steady_clock::time_point When;
  /// Last recorded in a capture: its id, and the nodes a wait for the event
  /// depends on (the dependencies guarded by the capture lock).
  std::atomic<uint64_t> CaptureId{0};
  llvm::SmallVector<CUgraphNode_st *, 2> CaptureDependencies;
};

namespace ptxjit {
namespace cuda {

class RuntimeState {
public:
  /// The one state of the process; never destroyed (programs call the
  /// library from their own static destructors).
  static RuntimeState &get();

  /// The device context, created on first use.
  llvm::Expected<device::Context &> getContext();
  /// The context if it exists (no creation).
  device::Context *peekContext() { return Ctx.get(); }
  /// Destroys the context (cudaDeviceReset); the registrations stay.
  void resetContext();

  RegisteredBinary *registerBinary(const void *FatBinary);
  void unregisterBinary(RegisteredBinary *B);
  void registerFunction(RegisteredBinary *B, const void *HostFunction,
                        const char *DeviceName);
  void registerVariable(RegisteredBinary *B, const void *HostVariable,
                        const char *DeviceName, uint64_t Size,
                        void **ManagedPointer);

  /// Loads B's module now (__cudaInitModule: before the host touches a
  /// __managed__ variable, whose pointer loading sets).
  llvm::Error initModule(RegisteredBinary *B);
  /// The kernel registered for HostFunction, its module loaded.
  llvm::Expected<device::Kernel &> getKernel(const void *HostFunction);
  /// The registered function record (for cudaKernel_t handles).
  RegisteredFunction *findFunction(const void *HostFunction);
  llvm::Expected<device::Kernel &> getKernel(RegisteredFunction &F);
  /// The device memory of the variable registered as HostVariable.
  llvm::Expected<device::Allocation> getVariable(const void *HostVariable);

  /// Events live until destroyed, or as long as the process: a program may
  /// leave them to CUDA's teardown. destroyEvent waits for a recording
  /// still queued.
  CUevent_st *createEvent(unsigned Flags);
  void destroyEvent(CUevent_st *Event);
  /// The events last recorded in Stream (null: in any stream) forget it:
  /// called when it has been destroyed (cudaStreamDestroy, a reset).
  void forgetStreamInEvents(const device::Stream *Stream);

  /// The device stream of a cudaStream_t (null: the legacy default).
  device::Stream *toStream(cudaStream_t S) {
    if (!S || S == reinterpret_cast<cudaStream_t>(1) ||
        S == reinterpret_cast<cudaStream_t>(2))
      return nullptr;
    return S->S;
  }

private:
  RuntimeState() = default;
  llvm::Error loadBinary(RegisteredBinary &B, device::Context &C);

  std::mutex Lock;
  std::unique_ptr<device::Context> Ctx;
  std::vector<std::unique_ptr<RegisteredBinary>> Binaries;
  llvm::DenseMap<const void *, std::unique_ptr<RegisteredFunction>> Functions;
  llvm::DenseMap<const void *, RegisteredVariable> Variables;
  std::mutex EventLock;
  llvm::DenseSet<CUevent_st *> Events;
};

/// Records an API call's result as the thread's last error (unless it is
/// success) and returns it.
cudaError_t setLastError(cudaError_t E);
/// The same for an llvm::Error, consumed.
cudaError_t setLastError(llvm::Error E);
/// Returns the thread's last error and resets it (a sticky error stays).
cudaError_t takeLastError();
cudaError_t peekLastError();

/// The limit a cudaLimit (or CUlimit: the same numbers) names among those
/// a context keeps: stack, printf FIFO and malloc heap size; none for the
/// others (device runtime and L2 limits, numbers CUDA does not have).
std::optional<device::Limit> getDeviceLimit(int Limit);
/// UnsupportedLimit, naming Limit.
llvm::Error unsupportedLimit(int Limit);

/// The thread's launch configurations (<<<...>>> pushes, the stub pops).
struct CallConfiguration {
  dim3 Grid, Block;
  size_t SharedMem;
  cudaStream_t Stream;
};
std::vector<CallConfiguration> &getCallConfigurations();

} // namespace cuda
} // namespace ptxjit

#endif
