//===- DeviceProperties.cpp - What the emulated device reports ------------===//
//
// One device, compute capability 8.0, with the limits of an sm_80 part where
// they are limits (threads, shared memory, grid) and the host's where they
// describe the machine (memory, processor count). The runtime's and the
// driver's queries both read these.
//
//===----------------------------------------------------------------------===//

#include "DeviceProperties.h"
#include "ptxjit/Runtime/Launch.h"
#include <algorithm>
#include <cstring>
#include <thread>
#include <unistd.h>

using namespace ptxjit;
using namespace ptxjit::cuda;

uint64_t cuda::getHostMemoryBytes() {
  return uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
}

uint64_t cuda::getHostFreeMemoryBytes() {
  return uint64_t(sysconf(_SC_AVPHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
}

static int processorCount() { return int(getNumMultiprocessors()); }

void cuda::getDeviceProperties(cudaDeviceProp &P) {
  std::memset(&P, 0, sizeof P);
  std::strncpy(P.name, "ptx-jit (sm_80 on the CPU)", sizeof P.name - 1);
  std::memcpy(P.uuid.bytes, "ptx-jit-cpu-dev0", 16);
  P.totalGlobalMem = getHostMemoryBytes();
  P.sharedMemPerBlock = MaxSharedBytesPerBlock;
  P.regsPerBlock = 65536;
  P.warpSize = 32;
  P.memPitch = 0x7fffffff;
  P.maxThreadsPerBlock = MaxThreadsPerBlock;
  P.maxThreadsDim[0] = 1024, P.maxThreadsDim[1] = 1024, P.maxThreadsDim[2] = 64;
  P.maxGridSize[0] = 0x7fffffff, P.maxGridSize[1] = 65535,
  P.maxGridSize[2] = 65535;
  P.totalConstMem = 65536;
  P.major = 8;
  P.minor = 0;
  P.textureAlignment = 512;
  P.texturePitchAlignment = 32;
  P.multiProcessorCount = processorCount();
  P.canMapHostMemory = 1;
  P.surfaceAlignment = 512;
  P.concurrentKernels = 1;
  P.asyncEngineCount = 2;
  P.unifiedAddressing = 1;
  P.memoryBusWidth = 5120;
  P.l2CacheSize = 40 * 1024 * 1024;
  P.maxThreadsPerMultiProcessor = 2048;
  P.streamPrioritiesSupported = 1;
  P.globalL1CacheSupported = 1;
  P.localL1CacheSupported = 1;
  P.sharedMemPerMultiprocessor = 164 * 1024;
  P.regsPerMultiprocessor = 65536;
  P.managedMemory = 1;
  P.hostNativeAtomicSupported = 1;
  // Kernels reach all host memory: global addresses are host addresses.
  P.pageableMemoryAccess = 1;
  P.concurrentManagedAccess = 1;
  P.pageableMemoryAccessUsesHostPageTables = 1;
  P.directManagedMemAccessFromHost = 1;
  P.canUseHostPointerForRegisteredMem = 1;
  P.sharedMemPerBlockOptin = MaxSharedBytesPerBlockOptin;
  P.maxBlocksPerMultiProcessor = 32;
  P.hostRegisterSupported = 1;
  P.memoryPoolsSupported = 1;
  // cudaLaunchCooperativeKernel (one device: no multi-device launches).
  P.cooperativeLaunch = 1;
  // Thread block clusters run (an sm_90 feature; kernels built for sm_90 run
  // here too).
  P.clusterLaunch = 1;
}

bool cuda::getDeviceAttribute(int Attr, int &Value) {
  cudaDeviceProp P;
  getDeviceProperties(P);
  // cudaDeviceAttr's values.
  switch (Attr) {
  case 1:
    Value = P.maxThreadsPerBlock;
    break;
  case 2:
    Value = P.maxThreadsDim[0];
    break;
  case 3:
    Value = P.maxThreadsDim[1];
    break;
  case 4:
    Value = P.maxThreadsDim[2];
    break;
  case 5:
    Value = P.maxGridSize[0];
    break;
  case 6:
    Value = P.maxGridSize[1];
    break;
  case 7:
    Value = P.maxGridSize[2];
    break;
  case 8:
    Value = int(P.sharedMemPerBlock);
    break;
  case 9:
    Value = int(P.totalConstMem);
    break;
  case 10:
    Value = P.warpSize;
    break;
  case 11:
    Value = int(P.memPitch);
    break;
  case 12:
    Value = P.regsPerBlock;
    break;
  case 13:
    Value = 1410000;
    break; // clock rate, kHz (an A100's)
  case 14:
    Value = int(P.textureAlignment);
    break;
  case 15:
    Value = 1;
    break; // copies overlap kernels
  case 16:
    Value = P.multiProcessorCount;
    break;
  case 17:
    Value = 0;
    break; // no kernel time limit
  case 18:
    Value = 0;
    break; // not integrated
  case 19:
    Value = P.canMapHostMemory;
    break;
  case 20:
    Value = 0;
    break; // default compute mode
  case 30:
    Value = int(P.surfaceAlignment);
    break;
  case 31:
    Value = P.concurrentKernels;
    break;
  case 32:
    Value = 0;
    break; // no ECC
  case 33:
  case 34:
  case 50:
    Value = 0;
    break; // PCI ids
  case 35:
    Value = 0;
    break;
  case 36:
    Value = 1215000;
    break; // memory clock, kHz
  case 37:
    Value = P.memoryBusWidth;
    break;
  case 38:
    Value = P.l2CacheSize;
    break;
  case 39:
    Value = P.maxThreadsPerMultiProcessor;
    break;
  case 40:
    Value = P.asyncEngineCount;
    break;
  case 41:
    Value = P.unifiedAddressing;
    break;
  case 51:
    Value = int(P.texturePitchAlignment);
    break;
  case 75:
    Value = P.major;
    break;
  case 76:
    Value = P.minor;
    break;
  case 78:
    Value = P.streamPrioritiesSupported;
    break;
  case 79:
    Value = P.globalL1CacheSupported;
    break;
  case 80:
    Value = P.localL1CacheSupported;
    break;
  case 81:
    Value = int(P.sharedMemPerMultiprocessor);
    break;
  case 82:
    Value = P.regsPerMultiprocessor;
    break;
  case 83:
    Value = P.managedMemory;
    break;
  case 84:
  case 85:
    Value = 0;
    break;
  case 86:
    Value = P.hostNativeAtomicSupported;
    break;
  case 87:
    Value = 2;
    break; // single to double precision ratio
  case 88:
    Value = P.pageableMemoryAccess;
    break;
  case 89:
    Value = P.concurrentManagedAccess;
    break;
  case 90:
    Value = 0;
    break; // compute preemption
  case 91:
    Value = P.canUseHostPointerForRegisteredMem;
    break;
  case 95:
    Value = P.cooperativeLaunch;
    break;
  case 96:
    Value = 0;
    break; // cooperative multi-device launches (one device)
  case 97:
    Value = int(P.sharedMemPerBlockOptin);
    break;
  case 99:
    Value = P.hostRegisterSupported;
    break;
  case 100:
    Value = P.pageableMemoryAccessUsesHostPageTables;
    break;
  case 101:
    Value = P.directManagedMemAccessFromHost;
    break;
  case 106:
    Value = P.maxBlocksPerMultiProcessor;
    break;
  case 120:
    Value = P.clusterLaunch;
    break;
  default:
    return false;
  }
  return true;
}

int cuda::getOccupancy(const device::KernelAttributes &A, int BlockSize,
                       size_t DynamicShared) {
  if (BlockSize <= 0 || uint64_t(BlockSize) > A.MaxThreadsPerBlock)
    return 0;
  // The limit a cooperative launch is checked against, per multiprocessor.
  return int(getMaxActiveCTAsPerMultiprocessor(BlockSize, A.StaticSharedBytes +
                                                              DynamicShared));
}
