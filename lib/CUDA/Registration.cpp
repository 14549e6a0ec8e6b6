//===- Registration.cpp - What nvcc's host stubs call ---------------------===//
//
// A program's static constructors register its fat binaries, kernels and
// device variables; <<<...>>> pushes a launch configuration that the
// kernel's host stub pops before launching.
//
//===----------------------------------------------------------------------===//

#include "APIHelpers.h"
#include "Capture.h"
#include "LaunchAttributes.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

PTXJIT_CUDART_API void **__cudaRegisterFatBinary(void *FatCubin) {
  return reinterpret_cast<void **>(
      RuntimeState::get().registerBinary(FatCubin));
}

PTXJIT_CUDART_API void __cudaRegisterFatBinaryEnd(void **Handle) {}

PTXJIT_CUDART_API void __cudaUnregisterFatBinary(void **Handle) {
  RuntimeState::get().unregisterBinary(
      reinterpret_cast<RegisteredBinary *>(Handle));
}

PTXJIT_CUDART_API char __cudaInitModule(void **Handle) {
  return setLastError(RuntimeState::get().initModule(
             reinterpret_cast<RegisteredBinary *>(Handle))) == cudaSuccess;
}

PTXJIT_CUDART_API void
__cudaRegisterFunction(void **Handle, const char *HostFunction,
                       char *DeviceFunction, const char *DeviceName,
                       int ThreadLimit, uint3 *Tid, uint3 *Bid, dim3 *BlockDim,
                       dim3 *GridDim, int *WarpSize) {
  RuntimeState::get().registerFunction(
      reinterpret_cast<RegisteredBinary *>(Handle), HostFunction,
      DeviceFunction);
}

PTXJIT_CUDART_API void __cudaRegisterVar(void **Handle, char *HostVariable,
                                         char *DeviceAddress,
                                         const char *DeviceName, int External,
                                         size_t Size, int Constant,
                                         int Global) {
  RuntimeState::get().registerVariable(
      reinterpret_cast<RegisteredBinary *>(Handle), HostVariable, DeviceAddress,
      Size, nullptr);
}

PTXJIT_CUDART_API void
__cudaRegisterManagedVar(void **Handle, void **HostVariablePointer,
                         char *DeviceAddress, const char *DeviceName,
                         int External, size_t Size, int Constant, int Global) {
  RuntimeState::get().registerVariable(
      reinterpret_cast<RegisteredBinary *>(Handle), HostVariablePointer,
      DeviceAddress, Size, HostVariablePointer);
}

PTXJIT_CUDART_API unsigned __cudaPushCallConfiguration(dim3 Grid, dim3 Block,
                                                       size_t SharedMem,
                                                       cudaStream_t Stream) {
  getCallConfigurations().push_back({Grid, Block, SharedMem, Stream});
  return 0;
}

PTXJIT_CUDART_API cudaError_t __cudaPopCallConfiguration(dim3 *Grid,
                                                         dim3 *Block,
                                                         size_t *SharedMem,
                                                         void *Stream) {
  std::vector<CallConfiguration> &Stack = getCallConfigurations();
  if (Stack.empty())
    return setLastError(cudaErrorInvalidValue);
  CallConfiguration C = Stack.back();
  Stack.pop_back();
  *Grid = C.Grid;
  *Block = C.Block;
  *SharedMem = C.SharedMem;
  *static_cast<cudaStream_t *>(Stream) = C.Stream;
  return cudaSuccess;
}

static cudaError_t launch(RegisteredFunction *F, dim3 Grid, dim3 Block,
                          void **Args, size_t SharedMem, cudaStream_t Stream,
                          const device::LaunchOptions &Opts = {}) {
  if (!F)
    return setLastError(cudaError_t(device::ErrorCode::InvalidDeviceFunction));
  return withContext([&](device::Context &C) -> Error {
    Expected<device::Kernel &> K = RuntimeState::get().getKernel(*F);
    if (!K)
      return K.takeError();
    if (SharedMem > UINT32_MAX)
      return invalidValue("too much dynamic shared memory");
    Expected<bool> Captured = captureNode(Stream, [&] {
      return makeKernelNode(*K, const_cast<void *>(F->HostFunction),
                            {Grid.x, Grid.y, Grid.z},
                            {Block.x, Block.y, Block.z}, uint32_t(SharedMem),
                            Args, nullptr, Opts.Cooperative);
    });
    if (!Captured)
      return Captured.takeError();
    if (*Captured)
      return Error::success();
    return C.launch(*K, {Grid.x, Grid.y, Grid.z}, {Block.x, Block.y, Block.z},
                    uint32_t(SharedMem), RuntimeState::get().toStream(Stream),
                    Args, Opts);
  });
}

PTXJIT_CUDART_API cudaError_t __cudaGetKernel(cudaKernel_t *Kernel,
                                              const void *HostFunction) {
  RegisteredFunction *F = RuntimeState::get().findFunction(HostFunction);
  if (!F)
    return setLastError(cudaError_t(device::ErrorCode::InvalidDeviceFunction));
  *Kernel = reinterpret_cast<cudaKernel_t>(F);
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t __cudaLaunchKernel(cudaKernel_t Kernel, dim3 Grid,
                                                 dim3 Block, void **Args,
                                                 size_t SharedMem,
                                                 cudaStream_t Stream) {
  return launch(reinterpret_cast<RegisteredFunction *>(Kernel), Grid, Block,
                Args, SharedMem, Stream);
}

PTXJIT_CUDART_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t Kernel,
                                                      dim3 Grid, dim3 Block,
                                                      void **Args,
                                                      size_t SharedMem,
                                                      cudaStream_t Stream) {
  return __cudaLaunchKernel(Kernel, Grid, Block, Args, SharedMem, Stream);
}

PTXJIT_CUDART_API cudaError_t cudaLaunchKernel(const void *Function, dim3 Grid,
                                               dim3 Block, void **Args,
                                               size_t SharedMem,
                                               cudaStream_t Stream) {
  return launch(RuntimeState::get().findFunction(Function), Grid, Block, Args,
                SharedMem, Stream);
}

PTXJIT_CUDART_API cudaError_t cudaLaunchKernel_ptsz(const void *Function,
                                                    dim3 Grid, dim3 Block,
                                                    void **Args,
                                                    size_t SharedMem,
                                                    cudaStream_t Stream) {
  return cudaLaunchKernel(Function, Grid, Block, Args, SharedMem, Stream);
}

PTXJIT_CUDART_API cudaError_t cudaLaunchCooperativeKernel(const void *Function,
                                                          dim3 Grid, dim3 Block,
                                                          void **Args,
                                                          size_t SharedMem,
                                                          cudaStream_t Stream) {
  device::LaunchOptions Opts;
  Opts.Cooperative = true;
  return launch(RuntimeState::get().findFunction(Function), Grid, Block, Args,
                SharedMem, Stream, Opts);
}

PTXJIT_CUDART_API cudaError_t cudaLaunchCooperativeKernel_ptsz(
    const void *Function, dim3 Grid, dim3 Block, void **Args, size_t SharedMem,
    cudaStream_t Stream) {
  return cudaLaunchCooperativeKernel(Function, Grid, Block, Args, SharedMem,
                                     Stream);
}

/// What the C++ template cudaLaunchKernelEx calls.
PTXJIT_CUDART_API cudaError_t cudaLaunchKernelExC(
    const cudaLaunchConfig_t *Config, const void *Function, void **Args) {
  if (!Config)
    return setLastError(cudaErrorInvalidValue);
  device::LaunchOptions Opts;
  if (Error E = applyLaunchAttributes(Config->attrs, Config->numAttrs, Opts))
    return setLastError(std::move(E));
  return launch(RuntimeState::get().findFunction(Function), Config->gridDim,
                Config->blockDim, Args, Config->dynamicSmemBytes,
                Config->stream, Opts);
}

PTXJIT_CUDART_API cudaError_t cudaLaunchKernelExC_ptsz(
    const cudaLaunchConfig_t *Config, const void *Function, void **Args) {
  return cudaLaunchKernelExC(Config, Function, Args);
}
