//===- DeviceAPI.cpp - Device management, errors, versions ----------------===//

#include "APIHelpers.h"
#include "Capture.h"
#include "DeviceProperties.h"
#include "ptxjit/Runtime/Launch.h"
#include "llvm/Support/Threading.h"
#include <atomic>
#include <cstring>
#include <thread>
#include <unistd.h>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

PTXJIT_CUDART_API cudaError_t cudaGetDeviceCount(int *Count) {
  if (!Count)
    return setLastError(cudaErrorInvalidValue);
  *Count = 1;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaSetDevice(int Device) {
  if (Device != 0)
    return setLastError(cudaError_t(device::ErrorCode::InvalidDevice));
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGetDevice(int *Device) {
  if (!Device)
    return setLastError(cudaErrorInvalidValue);
  *Device = 0;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGetDeviceProperties(cudaDeviceProp *Prop,
                                                      int Device) {
  if (!Prop)
    return setLastError(cudaErrorInvalidValue);
  if (Device != 0)
    return setLastError(cudaError_t(device::ErrorCode::InvalidDevice));
  getDeviceProperties(*Prop);
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaDeviceGetAttribute(int *Value, int Attr,
                                                     int Device) {
  if (!Value)
    return setLastError(cudaErrorInvalidValue);
  if (Device != 0)
    return setLastError(cudaError_t(device::ErrorCode::InvalidDevice));
  if (!getDeviceAttribute(Attr, *Value))
    return setLastError(cudaErrorInvalidValue);
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaDeviceSynchronize() {
  return withContext([](device::Context &C) -> Error {
    if (Error E = checkUnsafeCall())
      return E;
    return C.synchronize();
  });
}

/// cudaSetDeviceFlags: how the host waits (spinning, yielding, blocking)
/// changes nothing here, but the flags are kept and checked.
static std::atomic<unsigned> DeviceFlags{0};

PTXJIT_CUDART_API cudaError_t cudaSetDeviceFlags(unsigned Flags) {
  // cudaDeviceScheduleAuto, Spin, Yield or BlockingSync (one of them),
  // cudaDeviceMapHost, cudaDeviceLmemResizeToMax, cudaDeviceSyncMemops.
  unsigned Schedule = Flags & 0x7;
  if ((Flags & ~0x9fu) ||
      (Schedule != 0 && Schedule != 1 && Schedule != 2 && Schedule != 4))
    return setLastError(cudaErrorInvalidValue);
  DeviceFlags = Flags;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGetDeviceFlags(unsigned *Flags) {
  if (!Flags)
    return setLastError(cudaErrorInvalidValue);
  *Flags = DeviceFlags;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaDeviceReset() {
  RuntimeState::get().resetContext();
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaMemGetInfo(size_t *Free, size_t *Total) {
  if (!Free || !Total)
    return setLastError(cudaErrorInvalidValue);
  *Total = getHostMemoryBytes();
  *Free = getHostFreeMemoryBytes();
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGetLastError() { return takeLastError(); }

PTXJIT_CUDART_API cudaError_t cudaPeekAtLastError() { return peekLastError(); }

PTXJIT_CUDART_API const char *cudaGetErrorName(cudaError_t E) {
  return device::getErrorName(device::ErrorCode(E)).data();
}

PTXJIT_CUDART_API const char *cudaGetErrorString(cudaError_t E) {
  return device::getErrorString(device::ErrorCode(E)).data();
}

PTXJIT_CUDART_API cudaError_t cudaRuntimeGetVersion(int *Version) {
  if (!Version)
    return setLastError(cudaErrorInvalidValue);
  *Version = CUDAVersion;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaDriverGetVersion(int *Version) {
  if (!Version)
    return setLastError(cudaErrorInvalidValue);
  *Version = CUDAVersion;
  return cudaSuccess;
}

// libcuda.so.1's lookup, which the runtime's entry-point queries share.
extern "C" int cuInit(unsigned Flags);
extern "C" int cuGetProcAddress_v2(const char *Symbol, void **Pfn,
                                   int CudaVersion, unsigned long long Flags,
                                   int *SymbolStatus);

PTXJIT_CUDART_API cudaError_t cudaGetDriverEntryPointByVersion(
    const char *Symbol, void **FuncPtr, unsigned CudaVersion,
    unsigned long long Flags, int *DriverStatus) {
  if (!Symbol || !FuncPtr || CudaVersion > unsigned(CUDAVersion))
    return setLastError(cudaErrorInvalidValue);
  // The runtime initializes the driver: what it returns works at once.
  cuInit(0);
  int Status = 0;
  // Not found is success with a null pointer (and the status says why).
  cuGetProcAddress_v2(Symbol, FuncPtr, int(CudaVersion), Flags, &Status);
  if (DriverStatus)
    *DriverStatus = Status;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGetDriverEntryPointByVersion_ptsz(
    const char *Symbol, void **FuncPtr, unsigned CudaVersion,
    unsigned long long Flags, int *DriverStatus) {
  return cudaGetDriverEntryPointByVersion(Symbol, FuncPtr, CudaVersion, Flags,
                                          DriverStatus);
}

PTXJIT_CUDART_API cudaError_t cudaGetDriverEntryPoint(const char *Symbol,
                                                      void **FuncPtr,
                                                      unsigned long long Flags,
                                                      int *DriverStatus) {
  return cudaGetDriverEntryPointByVersion(Symbol, FuncPtr, CUDAVersion, Flags,
                                          DriverStatus);
}

PTXJIT_CUDART_API cudaError_t
cudaGetDriverEntryPoint_ptsz(const char *Symbol, void **FuncPtr,
                             unsigned long long Flags, int *DriverStatus) {
  return cudaGetDriverEntryPoint(Symbol, FuncPtr, Flags, DriverStatus);
}

PTXJIT_CUDART_API cudaError_t cudaProfilerStart() { return cudaSuccess; }
PTXJIT_CUDART_API cudaError_t cudaProfilerStop() { return cudaSuccess; }

PTXJIT_CUDART_API cudaError_t cudaDeviceSetLimit(int Limit, size_t Value) {
  return withContext([&](device::Context &C) -> Error {
    std::optional<device::Limit> L = getDeviceLimit(Limit);
    if (!L)
      return unsupportedLimit(Limit);
    return C.setLimit(*L, Value);
  });
}

PTXJIT_CUDART_API cudaError_t cudaDeviceGetLimit(size_t *Value, int Limit) {
  if (!Value)
    return setLastError(cudaErrorInvalidValue);
  return withContext([&](device::Context &C) -> Error {
    std::optional<device::Limit> L = getDeviceLimit(Limit);
    if (!L)
      return unsupportedLimit(Limit);
    *Value = C.getLimit(*L);
    return Error::success();
  });
}

PTXJIT_CUDART_API cudaError_t cudaDeviceSetCacheConfig(int Config) {
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaDeviceGetStreamPriorityRange(int *Least,
                                                               int *Greatest) {
  if (Least)
    *Least = LeastStreamPriority;
  if (Greatest)
    *Greatest = GreatestStreamPriority;
  return cudaSuccess;
}
