//===- DeviceProperties.h - What the emulated device reports ----*- C++ -*-===//

#ifndef PTXJIT_LIB_CUDA_DEVICEPROPERTIES_H
#define PTXJIT_LIB_CUDA_DEVICEPROPERTIES_H

#include "CUDAABI.h"
#include "ptxjit/Device/Kernel.h"
#include <cstdint>

namespace ptxjit {
namespace cuda {

/// The CUDA version the libraries implement (13.0).
constexpr int CUDAVersion = 13000;

/// Stream priorities, lower is higher (cudaDeviceGetStreamPriorityRange):
/// 0 (the default) is the least, -5 the greatest, as on sm_80 parts.
constexpr int LeastStreamPriority = 0, GreatestStreamPriority = -5;

uint64_t getHostMemoryBytes();
/// Host memory not in use now (cudaMemGetInfo, cuMemGetInfo).
uint64_t getHostFreeMemoryBytes();
void getDeviceProperties(cudaDeviceProp &P);
/// A cudaDeviceAttr (the same numbers as CUdevice_attribute); false for one
/// the device does not know.
bool getDeviceAttribute(int Attr, int &Value);

/// Blocks of a kernel an sm_80 multiprocessor holds at once with BlockSize
/// threads and DynamicShared bytes each: 2048 threads, 32 blocks, 164 KiB
/// of shared memory (registers are not a limit here).
int getOccupancy(const device::KernelAttributes &A, int BlockSize,
                 size_t DynamicShared);

} // namespace cuda
} // namespace ptxjit

#endif
