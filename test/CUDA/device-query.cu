// What CUDA's deviceQuery sample prints, checked against the limits of a
// compute capability 8.0 part (the CUDA Programming Guide's table of
// technical specifications per compute capability): cudaGetDeviceProperties
// and cudaDeviceGetAttribute agree, and a kernel that opts in to more than
// 48 KiB of dynamic shared memory (cudaFuncSetAttribute) gets it, as on an
// A100, while one that does not is refused.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: device 0: ptx-jit (sm_80 on the CPU)
// CHECK-NEXT: compute capability 8.0, runtime 13.{{[0-9]}}, driver 13.{{[0-9]}}
// CHECK-NEXT: spec mismatches: 0
// CHECK-NEXT: attribute mismatches: 0
// CHECK-NEXT: 100 KiB dynamic shared without opt-in: cudaErrorInvalidValue
// CHECK-NEXT: 100 KiB dynamic shared with opt-in: cudaSuccess, 25600 of 25600
// right CHECK-NEXT: above the opt-in limit: cudaErrorInvalidValue
#include <cstdio>

static int Mismatches = 0;
static void expect(const char *What, long long Got, long long Want) {
  if (Got != Want) {
    std::printf("  %s: %lld, a compute capability 8.0 part has %lld\n", What,
                Got, Want);
    ++Mismatches;
  }
}

// Each thread writes and reads back its words of a large dynamic buffer.
__global__ void fill(int *Out, int Words) {
  extern __shared__ int Buffer[];
  for (int I = threadIdx.x; I < Words; I += blockDim.x)
    Buffer[I] = I * 7;
  __syncthreads();
  for (int I = threadIdx.x; I < Words; I += blockDim.x)
    Out[I] = Buffer[Words - 1 - I];
}

int main() {
  int Count = 0;
  cudaGetDeviceCount(&Count);
  cudaDeviceProp P;
  cudaGetDeviceProperties(&P, 0);
  int Runtime = 0, Driver = 0;
  cudaRuntimeGetVersion(&Runtime);
  cudaDriverGetVersion(&Driver);
  std::printf("device 0: %s\n", P.name);
  std::printf("compute capability %d.%d, runtime %d.%d, driver %d.%d\n",
              P.major, P.minor, Runtime / 1000, Runtime % 1000 / 10,
              Driver / 1000, Driver % 1000 / 10);

  expect("device count", Count, 1);
  expect("warp size", P.warpSize, 32);
  expect("max threads per block", P.maxThreadsPerBlock, 1024);
  expect("max block x", P.maxThreadsDim[0], 1024);
  expect("max block y", P.maxThreadsDim[1], 1024);
  expect("max block z", P.maxThreadsDim[2], 64);
  expect("max grid x", P.maxGridSize[0], 2147483647);
  expect("max grid y", P.maxGridSize[1], 65535);
  expect("max grid z", P.maxGridSize[2], 65535);
  expect("shared memory per block", P.sharedMemPerBlock, 48 * 1024);
  expect("shared memory per block (opt-in)", P.sharedMemPerBlockOptin,
         163 * 1024);
  expect("shared memory per SM", P.sharedMemPerMultiprocessor, 164 * 1024);
  expect("32-bit registers per block", P.regsPerBlock, 65536);
  expect("32-bit registers per SM", P.regsPerMultiprocessor, 65536);
  expect("constant memory", P.totalConstMem, 65536);
  expect("max threads per SM", P.maxThreadsPerMultiProcessor, 2048);
  expect("max blocks per SM", P.maxBlocksPerMultiProcessor, 32);
  expect("unified addressing", P.unifiedAddressing, 1);
  expect("managed memory", P.managedMemory, 1);
  if (P.multiProcessorCount < 1 || P.totalGlobalMem == 0) {
    std::printf("  no SMs or no memory\n");
    ++Mismatches;
  }
  std::printf("spec mismatches: %d\n", Mismatches);

  Mismatches = 0;
  struct {
    cudaDeviceAttr Attr;
    long long Value;
    const char *Name;
  } Attributes[] = {
      {cudaDevAttrMaxThreadsPerBlock, P.maxThreadsPerBlock, "threads/block"},
      {cudaDevAttrMaxBlockDimZ, P.maxThreadsDim[2], "block z"},
      {cudaDevAttrMaxGridDimX, P.maxGridSize[0], "grid x"},
      {cudaDevAttrMaxSharedMemoryPerBlock, (long long)P.sharedMemPerBlock,
       "shared/block"},
      {cudaDevAttrMaxSharedMemoryPerBlockOptin,
       (long long)P.sharedMemPerBlockOptin, "shared/block opt-in"},
      {cudaDevAttrWarpSize, P.warpSize, "warp size"},
      {cudaDevAttrMultiProcessorCount, P.multiProcessorCount, "SMs"},
      {cudaDevAttrComputeCapabilityMajor, P.major, "major"},
      {cudaDevAttrComputeCapabilityMinor, P.minor, "minor"},
      {cudaDevAttrMaxThreadsPerMultiProcessor, P.maxThreadsPerMultiProcessor,
       "threads/SM"},
      {cudaDevAttrMaxRegistersPerBlock, P.regsPerBlock, "registers/block"},
  };
  for (const auto &A : Attributes) {
    int Value = -1;
    cudaDeviceGetAttribute(&Value, A.Attr, 0);
    expect(A.Name, Value, A.Value);
  }
  std::printf("attribute mismatches: %d\n", Mismatches);

  const int Words = 25600; // 100 KiB
  int *Out;
  cudaMalloc(&Out, Words * sizeof(int));
  fill<<<1, 256, Words * sizeof(int)>>>(Out, Words);
  std::printf("100 KiB dynamic shared without opt-in: %s\n",
              cudaGetErrorName(cudaGetLastError()));
  cudaFuncSetAttribute(fill, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       Words * sizeof(int));
  fill<<<1, 256, Words * sizeof(int)>>>(Out, Words);
  cudaError_t E = cudaDeviceSynchronize();
  static int Host[Words];
  cudaMemcpy(Host, Out, sizeof(Host), cudaMemcpyDeviceToHost);
  int Right = 0;
  for (int I = 0; I < Words; ++I)
    Right += Host[I] == (Words - 1 - I) * 7;
  std::printf("100 KiB dynamic shared with opt-in: %s, %d of %d right\n",
              cudaGetErrorName(E), Right, Words);
  E = cudaFuncSetAttribute(fill, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           164 * 1024);
  std::printf("above the opt-in limit: %s\n", cudaGetErrorName(E));
  cudaGetLastError();
  cudaFree(Out);
  return 0;
}
