//===- FunctionAPI.cpp - Kernel attributes and occupancy ------------------===//

#include "APIHelpers.h"
#include "DeviceProperties.h"
#include "LaunchAttributes.h"
#include "ptxjit/ABI/CompiledKernel.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/Runtime/Launch.h"
#include <cstring>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

PTXJIT_CUDART_API cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *Attr,
                                                    const void *Function) {
  if (!Attr)
    return setLastError(cudaErrorInvalidValue);
  Expected<device::Kernel &> K = RuntimeState::get().getKernel(Function);
  if (!K)
    return setLastError(K.takeError());
  const device::KernelAttributes &A = K->getAttributes();
  std::memset(Attr, 0, sizeof *Attr);
  Attr->sharedSizeBytes = A.StaticSharedBytes;
  Attr->maxThreadsPerBlock = int(A.MaxThreadsPerBlock);
  Attr->numRegs = 32;
  Attr->ptxVersion = 80;
  Attr->binaryVersion = 80;
  Attr->maxDynamicSharedSizeBytes = int(A.MaxDynamicSharedBytes);
  Attr->preferredShmemCarveout = -1;
  // __cluster_dims__ (.reqnctapercluster) and .explicitcluster.
  KernelLayout L = K->getLaunchLayout();
  Attr->clusterDimMustBeSet = L.ExplicitCluster && !L.ReqNCTAPerCluster[0];
  Attr->requiredClusterWidth = int(L.ReqNCTAPerCluster[0]);
  Attr->requiredClusterHeight = int(L.ReqNCTAPerCluster[1]);
  Attr->requiredClusterDepth = int(L.ReqNCTAPerCluster[2]);
  Attr->nonPortableClusterSizeAllowed = 1;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaFuncSetAttribute(const void *Function,
                                                   int Attribute, int Value) {
  Expected<device::Kernel &> K = RuntimeState::get().getKernel(Function);
  if (!K)
    return setLastError(K.takeError());
  if (Attribute == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    return setLastError(K->setMaxDynamicSharedBytes(Value));
  }
  // Hints, and clusters of up to 16 CTAs run either way.
  if (Attribute == cudaFuncAttributePreferredSharedMemoryCarveout ||
      Attribute == cudaFuncAttributeNonPortableClusterSizeAllowed ||
      Attribute == cudaFuncAttributeClusterSchedulingPolicyPreference)
    return cudaSuccess;
  return setLastError(cudaErrorInvalidValue);
}

PTXJIT_CUDART_API cudaError_t cudaFuncSetCacheConfig(const void *Function,
                                                     int Config) {
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaFuncGetName(const char **Name,
                                              const void *Function) {
  if (!Name)
    return setLastError(cudaErrorInvalidValue);
  RegisteredFunction *F = RuntimeState::get().findFunction(Function);
  if (!F)
    return setLastError(cudaError_t(device::ErrorCode::InvalidDeviceFunction));
  *Name = F->DeviceName.c_str();
  return cudaSuccess;
}

/// A cudaFunction_t is the driver's CUfunction: cuLaunchKernel and the
/// driver's other calls take it.
PTXJIT_CUDART_API cudaError_t cudaGetFuncBySymbol(void **Function,
                                                  const void *Symbol) {
  if (!Function)
    return setLastError(cudaErrorInvalidValue);
  Expected<device::Kernel &> K = RuntimeState::get().getKernel(Symbol);
  if (!K)
    return setLastError(K.takeError());
  *Function = &*K;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *NumBlocks, const void *Function, int BlockSize, size_t DynamicShared) {
  if (!NumBlocks || BlockSize <= 0)
    return setLastError(cudaErrorInvalidValue);
  Expected<device::Kernel &> K = RuntimeState::get().getKernel(Function);
  if (!K)
    return setLastError(K.takeError());
  *NumBlocks = getOccupancy(K->getAttributes(), BlockSize, DynamicShared);
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *NumBlocks,
                                                       const void *Function,
                                                       int BlockSize,
                                                       size_t DynamicShared,
                                                       unsigned Flags) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      NumBlocks, Function, BlockSize, DynamicShared);
}

PTXJIT_CUDART_API cudaError_t cudaOccupancyMaxActiveClusters(
    int *NumClusters, const void *Function, const cudaLaunchConfig_t *Config) {
  if (!NumClusters || !Config)
    return setLastError(cudaErrorInvalidValue);
  Expected<device::Kernel &> K = RuntimeState::get().getKernel(Function);
  if (!K)
    return setLastError(K.takeError());
  device::LaunchOptions Opts;
  if (Error E = applyLaunchAttributes(Config->attrs, Config->numAttrs, Opts))
    return setLastError(std::move(E));
  LaunchConfig C;
  std::copy(Opts.ClusterDim, Opts.ClusterDim + 3, C.ClusterDim);
  uint32_t Dim[3];
  bool Explicit;
  getClusterShape(C, K->getLaunchLayout(), Dim, Explicit);
  uint64_t Size = uint64_t(Dim[0]) * Dim[1] * Dim[2];
  uint64_t BlockSize =
      uint64_t(Config->blockDim.x) * Config->blockDim.y * Config->blockDim.z;
  // A cluster's CTAs are live together: as many clusters as CTAs of the
  // whole device fit, in whole clusters.
  uint64_t CTAs = uint64_t(getOccupancy(K->getAttributes(), int(BlockSize),
                                        Config->dynamicSmemBytes)) *
                  getNumMultiprocessors();
  *NumClusters = int(Size && Size <= MaxClusterSize ? CTAs / Size : 0);
  return cudaSuccess;
}
