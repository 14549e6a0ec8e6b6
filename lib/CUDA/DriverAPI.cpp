//===- DriverAPI.cpp - libcuda.so.1: the CUDA driver API ------------------===//
//
// The driver API over the same state as the runtime library: one device,
// one (primary) context, modules loaded from PTX text or fat binaries,
// launches with kernelParams or an `extra` parameter buffer. CUresult
// values are cudaError_t's where CUDA gives both the same number, and the
// driver's own otherwise.
//
//===----------------------------------------------------------------------===//

#include "DriverAPI.h"
#include "Capture.h"
#include "DeviceImage.h"
#include "DeviceProperties.h"
#include "LaunchAttributes.h"
#include "RuntimeState.h"
#include "ptxjit/CUDA/FatBinary.h"
#include "ptxjit/Runtime/Launch.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <cstring>
#include <mutex>
#include <unistd.h>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;
using namespace ptxjit::cuda::driver;

/// The primary context's handle (there is one context).
static CUctx_st PrimaryContext;
static thread_local CUcontext Current = nullptr;
static bool Initialized = false;

bool driver::isDriverInitialized() { return Initialized; }

CUresult driver::toResult(device::ErrorCode Code) {
  switch (Code) {
  case device::ErrorCode::InvalidConfiguration:
  case device::ErrorCode::InvalidDevicePointer:
  case device::ErrorCode::InvalidMemcpyDirection:
    return CUDA_ERROR_INVALID_VALUE;
  case device::ErrorCode::InvalidSymbol:
  case device::ErrorCode::InvalidDeviceFunction:
    return CUDA_ERROR_NOT_FOUND;
  default:
    return CUresult(Code);
  }
}

CUresult driver::toResult(Error E) {
  if (!E)
    return CUDA_SUCCESS;
  return toResult(device::takeError(std::move(E)).first);
}

static void *ptr(CUdeviceptr P) { return reinterpret_cast<void *>(P); }

PTXJIT_CUDA_API CUresult cuInit(unsigned Flags) {
  if (Flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  Initialized = true;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuDriverGetVersion(int *Version) {
  if (!Version)
    return CUDA_ERROR_INVALID_VALUE;
  *Version = CUDAVersion;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuDeviceGetCount(int *Count) {
  if (!Count)
    return CUDA_ERROR_INVALID_VALUE;
  if (!Initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  *Count = 1;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuDeviceGet(CUdevice *Device, int Ordinal) {
  if (!Device)
    return CUDA_ERROR_INVALID_VALUE;
  if (!Initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (Ordinal != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *Device = 0;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuDeviceGetName(char *Name, int Length,
                                         CUdevice Device) {
  if (!Name || Length <= 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  cudaDeviceProp P;
  getDeviceProperties(P);
  std::strncpy(Name, P.name, size_t(Length) - 1);
  Name[Length - 1] = '\0';
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuDeviceTotalMem_v2(size_t *Bytes, CUdevice Device) {
  if (!Bytes)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *Bytes = getHostMemoryBytes();
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuDeviceGetAttribute(int *Value, int Attribute,
                                              CUdevice Device) {
  if (!Value)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  return getDeviceAttribute(Attribute, *Value) ? CUDA_SUCCESS
                                               : CUDA_ERROR_INVALID_VALUE;
}

PTXJIT_CUDA_API CUresult cuDevicePrimaryCtxRetain(CUcontext *Ctx,
                                                  CUdevice Device) {
  if (!Ctx)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *Ctx = &PrimaryContext;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice Device) {
  return Device == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

PTXJIT_CUDA_API CUresult cuDevicePrimaryCtxGetState(CUdevice Device,
                                                    unsigned *Flags,
                                                    int *Active) {
  if (!Flags || !Active)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  // The primary context is made when first used and lives as long as the
  // process; no scheduling flags apply to a CPU.
  *Flags = 0;
  *Active = RuntimeState::get().peekContext() != nullptr;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuDeviceComputeCapability(int *Major, int *Minor,
                                                   CUdevice Device) {
  if (!Major || !Minor)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  cudaDeviceProp P;
  getDeviceProperties(P);
  *Major = P.major;
  *Minor = P.minor;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuDeviceGetUuid_v2(cudaUUID_t *Uuid, CUdevice Device) {
  if (!Uuid)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  cudaDeviceProp P;
  getDeviceProperties(P);
  *Uuid = P.uuid;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuDeviceGetUuid(cudaUUID_t *Uuid, CUdevice Device) {
  return cuDeviceGetUuid_v2(Uuid, Device);
}

PTXJIT_CUDA_API CUresult cuDeviceGetPCIBusId(char *Id, int Length,
                                             CUdevice Device) {
  if (!Id || Length <= 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  cudaDeviceProp P;
  getDeviceProperties(P);
  // domain:bus:device.function, as CUDA writes it.
  snprintf(Id, size_t(Length), "%08x:%02x:%02x.0", unsigned(P.pciDomainID),
           unsigned(P.pciBusID), unsigned(P.pciDeviceID));
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuDeviceCanAccessPeer(int *CanAccess, CUdevice Device,
                                               CUdevice Peer) {
  if (!CanAccess)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device != 0 || Peer != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *CanAccess = 0; // there is no other device
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuCtxCreate_v4(CUcontext *Ctx, void *Params,
                                        unsigned Flags, CUdevice Device) {
  if (!Ctx)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  if (!Initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  // Every context is the primary one: the emulated device has one.
  *Ctx = Current = &PrimaryContext;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuCtxCreate_v2(CUcontext *Ctx, unsigned Flags,
                                        CUdevice Device) {
  return cuCtxCreate_v4(Ctx, nullptr, Flags, Device);
}

PTXJIT_CUDA_API CUresult cuCtxDestroy_v2(CUcontext Ctx) {
  if (Ctx != &PrimaryContext)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (Current == Ctx)
    Current = nullptr;
  return withContext([](device::Context &C) { return C.synchronize(); });
}

PTXJIT_CUDA_API CUresult cuCtxSynchronize() {
  return withContext([](device::Context &C) -> Error {
    if (Error E = checkUnsafeCall())
      return E;
    return C.synchronize();
  });
}

PTXJIT_CUDA_API CUresult cuCtxGetCurrent(CUcontext *Ctx) {
  if (!Ctx)
    return CUDA_ERROR_INVALID_VALUE;
  *Ctx = Current;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuCtxGetDevice(CUdevice *Device) {
  if (!Device)
    return CUDA_ERROR_INVALID_VALUE;
  if (!Initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (!Current)
    return CUDA_ERROR_INVALID_CONTEXT;
  *Device = 0;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuCtxGetStreamPriorityRange(int *Least,
                                                     int *Greatest) {
  if (Least)
    *Least = LeastStreamPriority;
  if (Greatest)
    *Greatest = GreatestStreamPriority;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuCtxSetCurrent(CUcontext Ctx) {
  if (Ctx && Ctx != &PrimaryContext)
    return CUDA_ERROR_INVALID_CONTEXT;
  Current = Ctx;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuCtxPushCurrent_v2(CUcontext Ctx) {
  return cuCtxSetCurrent(Ctx);
}

PTXJIT_CUDA_API CUresult cuCtxPopCurrent_v2(CUcontext *Ctx) {
  if (Ctx)
    *Ctx = Current;
  Current = nullptr;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuCtxSetLimit(int Limit, size_t Value) {
  return withContext([&](device::Context &C) -> Error {
    std::optional<device::Limit> L = getDeviceLimit(Limit);
    if (!L)
      return unsupportedLimit(Limit);
    return C.setLimit(*L, Value);
  });
}

PTXJIT_CUDA_API CUresult cuCtxGetLimit(size_t *Value, int Limit) {
  if (!Value)
    return CUDA_ERROR_INVALID_VALUE;
  return withContext([&](device::Context &C) -> Error {
    std::optional<device::Limit> L = getDeviceLimit(Limit);
    if (!L)
      return unsupportedLimit(Limit);
    *Value = C.getLimit(*L);
    return Error::success();
  });
}

/// Loads PTX text, or the PTX of a fat binary; Name is for diagnostics.
static Error loadImage(device::Context &C, const void *Image, CUmodule *Out,
                       StringRef Name = "<module>") {
  if (!Image || !Out)
    return device::makeDeviceError(device::ErrorCode::InvalidValue, "no image");
  Expected<std::string> Text = getImagePTX(Image);
  if (!Text)
    return Text.takeError();
  Expected<device::Module &> M = C.loadPTX(*Text, Name);
  if (!M)
    return M.takeError();
  *Out = &*M;
  return Error::success();
}

PTXJIT_CUDA_API CUresult cuModuleLoadData(CUmodule *Module, const void *Image) {
  return withContext(
      [&](device::Context &C) { return loadImage(C, Image, Module); });
}

PTXJIT_CUDA_API CUresult cuModuleLoad(CUmodule *Module, const char *Path) {
  if (!Path)
    return CUDA_ERROR_INVALID_VALUE;
  ErrorOr<std::unique_ptr<MemoryBuffer>> File = MemoryBuffer::getFile(Path);
  if (!File)
    return CUDA_ERROR_FILE_NOT_FOUND;
  return withContext([&](device::Context &C) {
    return loadImage(C, (*File)->getBufferStart(), Module, Path);
  });
}

PTXJIT_CUDA_API CUresult cuModuleLoadDataEx(CUmodule *Module, const void *Image,
                                            unsigned NumOptions, int *Options,
                                            void **OptionValues) {
  // JIT options (log buffers, optimization level) need nothing here.
  return cuModuleLoadData(Module, Image);
}

PTXJIT_CUDA_API CUresult cuModuleUnload(CUmodule Module) {
  if (!Module)
    return CUDA_ERROR_INVALID_HANDLE;
  return withContext(
      [&](device::Context &C) { return C.unloadModule(*Module); });
}

PTXJIT_CUDA_API CUresult cuModuleGetFunction(CUfunction *Function,
                                             CUmodule Module,
                                             const char *Name) {
  if (!Function || !Name)
    return CUDA_ERROR_INVALID_VALUE;
  if (!Module)
    return CUDA_ERROR_INVALID_HANDLE;
  Expected<device::Kernel &> K = Module->getKernel(Name);
  if (!K)
    return toResult(K.takeError());
  *Function = &*K;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuModuleGetGlobal_v2(CUdeviceptr *Ptr, size_t *Bytes,
                                              CUmodule Module,
                                              const char *Name) {
  if (!Module)
    return CUDA_ERROR_INVALID_HANDLE;
  if (!Name)
    return CUDA_ERROR_INVALID_VALUE;
  Expected<device::Allocation> A = Module->getGlobal(Name);
  if (!A)
    return toResult(A.takeError());
  if (Ptr)
    *Ptr = CUdeviceptr(reinterpret_cast<uintptr_t>(A->Base));
  if (Bytes)
    *Bytes = A->Size;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuMemAlloc_v2(CUdeviceptr *Ptr, size_t Bytes) {
  if (!Ptr)
    return CUDA_ERROR_INVALID_VALUE;
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkUnsafeCall())
      return E;
    Expected<void *> P = C.allocate(Bytes);
    if (!P)
      return P.takeError();
    *Ptr = CUdeviceptr(reinterpret_cast<uintptr_t>(*P));
    return Error::success();
  });
}

PTXJIT_CUDA_API CUresult cuMemFree_v2(CUdeviceptr Ptr) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkUnsafeCall())
      return E;
    return C.free(ptr(Ptr));
  });
}

PTXJIT_CUDA_API CUresult cuMemGetInfo_v2(size_t *Free, size_t *Total) {
  if (!Free || !Total)
    return CUDA_ERROR_INVALID_VALUE;
  *Total = getHostMemoryBytes();
  *Free = getHostFreeMemoryBytes();
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuMemcpyHtoD_v2(CUdeviceptr Dst, const void *Src,
                                         size_t Bytes) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkLegacySync())
      return E;
    return C.copy(ptr(Dst), Src, Bytes);
  });
}

PTXJIT_CUDA_API CUresult cuMemcpyDtoH_v2(void *Dst, CUdeviceptr Src,
                                         size_t Bytes) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkLegacySync())
      return E;
    return C.copy(Dst, ptr(Src), Bytes);
  });
}

PTXJIT_CUDA_API CUresult cuMemcpyDtoD_v2(CUdeviceptr Dst, CUdeviceptr Src,
                                         size_t Bytes) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkLegacySync())
      return E;
    return C.copy(ptr(Dst), ptr(Src), Bytes);
  });
}

extern "C" CUresult cuStreamCreateWithPriority(CUstream_st **Stream,
                                               unsigned Flags, int Priority);

PTXJIT_CUDA_API CUresult cuStreamCreate(CUstream_st **Stream, unsigned Flags) {
  return cuStreamCreateWithPriority(Stream, Flags, 0);
}

PTXJIT_CUDA_API CUresult cuStreamSynchronize(CUstream_st *Stream) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkStreamSync(Stream))
      return E;
    device::Stream *S = RuntimeState::get().toStream(Stream);
    return (S ? *S : C.getDefaultStream()).synchronize();
  });
}

PTXJIT_CUDA_API CUresult cuStreamDestroy_v2(CUstream_st *Stream) {
  if (!RuntimeState::get().toStream(Stream))
    return CUDA_ERROR_INVALID_HANDLE;
  forgetCapturingStream(Stream);
  return withContext([&](device::Context &C) {
    device::Stream *Doomed = Stream->S;
    Error E = C.destroyStream(*Doomed);
    RuntimeState::get().forgetStreamInEvents(Doomed);
    delete Stream;
    return E;
  });
}

static CUresult launch(CUfunction F, unsigned GridX, unsigned GridY,
                       unsigned GridZ, unsigned BlockX, unsigned BlockY,
                       unsigned BlockZ, unsigned SharedBytes,
                       CUstream_st *Stream, void **KernelParams, void **Extra,
                       const device::LaunchOptions &Opts) {
  if (!F)
    return CUDA_ERROR_INVALID_HANDLE;
  return withContext([&](device::Context &C) -> Error {
    Expected<bool> Captured = captureNode(Stream, [&] {
      return makeKernelNode(*F, F, {GridX, GridY, GridZ},
                            {BlockX, BlockY, BlockZ}, SharedBytes, KernelParams,
                            Extra, Opts.Cooperative);
    });
    if (!Captured)
      return Captured.takeError();
    if (*Captured)
      return Error::success();
    std::vector<void *> Params;
    if (!KernelParams && Extra) {
      // {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE,
      //  &size, CU_LAUNCH_PARAM_END}: the parameters laid out in a buffer.
      char *Buffer = nullptr;
      size_t Size = 0;
      for (void **E = Extra; *E; E += 2) {
        if (*E == reinterpret_cast<void *>(1))
          Buffer = static_cast<char *>(E[1]);
        else if (*E == reinterpret_cast<void *>(2))
          Size = *static_cast<size_t *>(E[1]);
        else
          return device::makeDeviceError(device::ErrorCode::InvalidValue,
                                         "unknown cuLaunchKernel extra key");
      }
      if (!Buffer && !F->getParams().empty())
        return device::makeDeviceError(device::ErrorCode::InvalidValue,
                                       "no parameter buffer");
      for (const device::KernelParam &P : F->getParams()) {
        if (P.Offset + P.Size > Size)
          return device::makeDeviceError(
              device::ErrorCode::InvalidValue,
              "the parameter buffer is smaller than the kernel's parameters");
        Params.push_back(Buffer + P.Offset);
      }
      KernelParams = Params.data();
    }
    return C.launch(*F, {GridX, GridY, GridZ}, {BlockX, BlockY, BlockZ},
                    SharedBytes, RuntimeState::get().toStream(Stream),
                    KernelParams, Opts);
  });
}

PTXJIT_CUDA_API CUresult cuLaunchKernel(CUfunction F, unsigned GridX,
                                        unsigned GridY, unsigned GridZ,
                                        unsigned BlockX, unsigned BlockY,
                                        unsigned BlockZ, unsigned SharedBytes,
                                        CUstream_st *Stream,
                                        void **KernelParams, void **Extra) {
  return launch(F, GridX, GridY, GridZ, BlockX, BlockY, BlockZ, SharedBytes,
                Stream, KernelParams, Extra, {});
}

PTXJIT_CUDA_API CUresult cuLaunchCooperativeKernel(
    CUfunction F, unsigned GridX, unsigned GridY, unsigned GridZ,
    unsigned BlockX, unsigned BlockY, unsigned BlockZ, unsigned SharedBytes,
    CUstream_st *Stream, void **KernelParams) {
  device::LaunchOptions Opts;
  Opts.Cooperative = true;
  return launch(F, GridX, GridY, GridZ, BlockX, BlockY, BlockZ, SharedBytes,
                Stream, KernelParams, nullptr, Opts);
}

PTXJIT_CUDA_API CUresult cuLaunchCooperativeKernel_ptsz(
    CUfunction F, unsigned GridX, unsigned GridY, unsigned GridZ,
    unsigned BlockX, unsigned BlockY, unsigned BlockZ, unsigned SharedBytes,
    CUstream_st *Stream, void **KernelParams) {
  return cuLaunchCooperativeKernel(F, GridX, GridY, GridZ, BlockX, BlockY,
                                   BlockZ, SharedBytes, Stream, KernelParams);
}

/// CUDA 13's CUlaunchConfig; its attributes are laid out as the runtime's.
struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream_st *hStream;
  cudaLaunchAttribute *attrs;
  unsigned numAttrs;
};
static_assert(sizeof(CUlaunchConfig) == 56 &&
                  offsetof(CUlaunchConfig, hStream) == 32 &&
                  offsetof(CUlaunchConfig, attrs) == 40 &&
                  offsetof(CUlaunchConfig, numAttrs) == 48,
              "CUlaunchConfig's layout");

PTXJIT_CUDA_API CUresult cuLaunchKernelEx(const CUlaunchConfig *Config,
                                          CUfunction F, void **KernelParams,
                                          void **Extra) {
  if (!Config)
    return CUDA_ERROR_INVALID_VALUE;
  device::LaunchOptions Opts;
  if (Error E = applyLaunchAttributes(Config->attrs, Config->numAttrs, Opts))
    return toResult(std::move(E));
  return launch(F, Config->gridDimX, Config->gridDimY, Config->gridDimZ,
                Config->blockDimX, Config->blockDimY, Config->blockDimZ,
                Config->sharedMemBytes, Config->hStream, KernelParams, Extra,
                Opts);
}

PTXJIT_CUDA_API CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *Config,
                                               CUfunction F,
                                               void **KernelParams,
                                               void **Extra) {
  return cuLaunchKernelEx(Config, F, KernelParams, Extra);
}

PTXJIT_CUDA_API CUresult cuFuncGetAttribute(int *Value, int Attribute,
                                            CUfunction F) {
  if (!Value)
    return CUDA_ERROR_INVALID_VALUE;
  if (!F)
    return CUDA_ERROR_INVALID_HANDLE;
  const device::KernelAttributes &A = F->getAttributes();
  switch (Attribute) {
  case 0:
    *Value = int(A.MaxThreadsPerBlock);
    break;
  case 1:
    *Value = int(A.StaticSharedBytes);
    break;
  case 2:
    *Value = 0;
    break; // constant bytes
  case 3:
    *Value = 0;
    break; // local bytes
  case 4:
    *Value = 32;
    break; // registers
  case 5:
  case 6:
    *Value = 80;
    break; // PTX and binary versions
  case 8:
    *Value = int(A.MaxDynamicSharedBytes);
    break;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuFuncSetAttribute(CUfunction F, int Attribute,
                                            int Value) {
  if (!F)
    return CUDA_ERROR_INVALID_HANDLE;
  if (Attribute != 8)
    return CUDA_SUCCESS; // hints (carveout, cache) change nothing here
  return toResult(F->setMaxDynamicSharedBytes(Value));
}

PTXJIT_CUDA_API CUresult cuGetErrorName(CUresult E, const char **Name) {
  if (!Name)
    return CUDA_ERROR_INVALID_VALUE;
  static const struct {
    CUresult Code;
    const char *Name;
  } Names[] = {{0, "CUDA_SUCCESS"},
               {1, "CUDA_ERROR_INVALID_VALUE"},
               {2, "CUDA_ERROR_OUT_OF_MEMORY"},
               {3, "CUDA_ERROR_NOT_INITIALIZED"},
               {101, "CUDA_ERROR_INVALID_DEVICE"},
               {200, "CUDA_ERROR_INVALID_IMAGE"},
               {201, "CUDA_ERROR_INVALID_CONTEXT"},
               {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
               {215, "CUDA_ERROR_UNSUPPORTED_LIMIT"},
               {218, "CUDA_ERROR_INVALID_PTX"},
               {301, "CUDA_ERROR_FILE_NOT_FOUND"},
               {400, "CUDA_ERROR_INVALID_HANDLE"},
               {401, "CUDA_ERROR_ILLEGAL_STATE"},
               {500, "CUDA_ERROR_NOT_FOUND"},
               {600, "CUDA_ERROR_NOT_READY"},
               {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
               {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
               {702, "CUDA_ERROR_LAUNCH_TIMEOUT"},
               {710, "CUDA_ERROR_ASSERT"},
               {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"},
               {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED"},
               {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"},
               {716, "CUDA_ERROR_MISALIGNED_ADDRESS"},
               {719, "CUDA_ERROR_LAUNCH_FAILED"},
               {801, "CUDA_ERROR_NOT_SUPPORTED"},
               {900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"},
               {901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"},
               {902, "CUDA_ERROR_STREAM_CAPTURE_MERGE"},
               {903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED"},
               {904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED"},
               {905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION"},
               {906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT"},
               {907, "CUDA_ERROR_CAPTURED_EVENT"},
               {908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD"},
               {910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE"},
               {999, "CUDA_ERROR_UNKNOWN"}};
  for (const auto &N : Names)
    if (N.Code == E) {
      *Name = N.Name;
      return CUDA_SUCCESS;
    }
  *Name = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}

PTXJIT_CUDA_API CUresult cuGetErrorString(CUresult E, const char **Text) {
  if (!Text)
    return CUDA_ERROR_INVALID_VALUE;
  const char *Name;
  if (cuGetErrorName(E, &Name) != CUDA_SUCCESS) {
    *Text = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
  // The driver's codes that are also the runtime's have its text.
  *Text = device::getErrorString(device::ErrorCode(E)).data();
  if (E == CUDA_ERROR_INVALID_CONTEXT)
    *Text = "invalid device context";
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuPointerGetAttribute(void *Data, int Attribute,
                                               CUdeviceptr Ptr) {
  if (!Data)
    return CUDA_ERROR_INVALID_VALUE;
  device::Context *C = RuntimeState::get().peekContext();
  bool IsDevice = C && C->getPointerInfo(ptr(Ptr));
  switch (Attribute) {
  case 1: // CU_POINTER_ATTRIBUTE_CONTEXT
    *static_cast<CUcontext *>(Data) = IsDevice ? &PrimaryContext : nullptr;
    return IsDevice ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  case 2: // CU_POINTER_ATTRIBUTE_MEMORY_TYPE: CU_MEMORYTYPE_DEVICE or HOST
    *static_cast<unsigned *>(Data) = IsDevice ? 2 : 1;
    return CUDA_SUCCESS;
  case 3: // CU_POINTER_ATTRIBUTE_DEVICE_POINTER
    *static_cast<CUdeviceptr *>(Data) = Ptr;
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

PTXJIT_CUDA_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(
    int *NumBlocks, CUfunction F, int BlockSize, size_t DynamicShared) {
  if (!NumBlocks || BlockSize <= 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (!F)
    return CUDA_ERROR_INVALID_HANDLE;
  *NumBlocks = getOccupancy(F->getAttributes(), BlockSize, DynamicShared);
  return CUDA_SUCCESS;
}

/// The block size that keeps the most threads of F resident on a
/// multiprocessor (the largest such, multiples of 32 up to Limit), and the
/// grid that fills the device with it. The dynamic shared memory per block
/// is Shared, or ToShared(block size) when given.
PTXJIT_CUDA_API CUresult cuOccupancyMaxPotentialBlockSize(
    int *MinGridSize, int *BlockSize, CUfunction F, size_t (*ToShared)(int),
    size_t Shared, int Limit) {
  if (!MinGridSize || !BlockSize || Limit < 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (!F)
    return CUDA_ERROR_INVALID_HANDLE;
  const device::KernelAttributes &A = F->getAttributes();
  int Max = int(A.MaxThreadsPerBlock);
  if (Limit)
    Max = std::min(Max, Limit);
  int Best = 0, BestThreads = 0, BestBlocks = 0;
  for (int Size = (Max + 31) / 32 * 32; Size > 0; Size -= 32) {
    int Threads = std::min(Size, Max);
    int Blocks =
        getOccupancy(A, Threads, ToShared ? ToShared(Threads) : Shared);
    if (Blocks * Threads > BestThreads) {
      Best = Threads;
      BestThreads = Blocks * Threads;
      BestBlocks = Blocks;
    }
  }
  cudaDeviceProp P;
  getDeviceProperties(P);
  *BlockSize = Best;
  *MinGridSize = BestBlocks * P.multiProcessorCount;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuFuncGetName(const char **Name, CUfunction F) {
  if (!Name)
    return CUDA_ERROR_INVALID_VALUE;
  if (!F)
    return CUDA_ERROR_INVALID_HANDLE;
  // Kernels name themselves by a piece of their module's text: a copy ends
  // the string, kept for the process, each name once.
  static std::mutex Lock;
  static StringSet<> *Names = new StringSet<>;
  std::lock_guard<std::mutex> G(Lock);
  *Name = Names->insert(F->getName()).first->getKeyData();
  return CUDA_SUCCESS;
}

/// The driver's private tables of entry points, which NVIDIA's own
/// libraries (NVRTC among them) ask for when they find a libcuda.so.1. The
/// emulated driver has none: saying so lets them go on without it.
PTXJIT_CUDA_API CUresult cuGetExportTable(const void **Table,
                                          const void *TableId) {
  if (Table)
    *Table = nullptr;
  return CUDA_ERROR_NOT_FOUND;
}
