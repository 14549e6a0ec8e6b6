// A grid-sync kernel launched with <<<>>> finds no grid barrier workspace
// and traps, as on a GPU: the launch fails and the program goes on to see
// it. A cooperative launch with more CTAs than can be co-resident is
// refused with cudaErrorCooperativeLaunchTooLarge.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: too large: cudaErrorCooperativeLaunchTooLarge
// CHECK-NEXT: too large, last error: cudaErrorCooperativeLaunchTooLarge
// CHECK-NEXT: largest that fits: cudaSuccess, ok
// CHECK-NEXT: launch: cudaSuccess
// CHECK-NEXT: synchronize: cudaErrorLaunchFailure
// CHECK-NEXT: last error: cudaErrorLaunchFailure
// CHECK-NEXT: done
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void syncAndCount(unsigned *Count) {
  cg::grid_group Grid = cg::this_grid();
  if (threadIdx.x == 0)
    atomicAdd(Count, 1u);
  Grid.sync();
  // Every CTA sees every CTA's increment once the grid has synced.
  if (threadIdx.x == 0 && *Count != gridDim.x)
    atomicAdd(Count + 1, 1u);
}

int main() {
  int SMs = 0, PerSM = 0;
  cudaDeviceGetAttribute(&SMs, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSM, syncAndCount, 256, 0);
  unsigned *Count;
  cudaMalloc(&Count, 2 * sizeof(unsigned));
  cudaMemset(Count, 0, 2 * sizeof(unsigned));
  void *Args[] = {&Count};

  cudaError_t E = cudaLaunchCooperativeKernel((void *)syncAndCount,
                                              SMs * PerSM + 1, 256, Args, 0, 0);
  printf("too large: %s\n", cudaGetErrorName(E));
  printf("too large, last error: %s\n", cudaGetErrorName(cudaGetLastError()));

  E = cudaLaunchCooperativeKernel((void *)syncAndCount, SMs * PerSM, 256, Args,
                                  0, 0);
  cudaError_t S = cudaDeviceSynchronize();
  unsigned Host[2] = {0, 0};
  cudaMemcpy(Host, Count, sizeof Host, cudaMemcpyDeviceToHost);
  bool Ok = Host[0] == unsigned(SMs * PerSM) && Host[1] == 0;
  printf("largest that fits: %s, %s\n",
         cudaGetErrorName(E != cudaSuccess ? E : S), Ok ? "ok" : "wrong");

  // The launch call's own result: a cudaGetLastError() after <<<>>> could
  // already see the trap (an asynchronous error), on a GPU as here.
  E = cudaLaunchKernel((void *)syncAndCount, 2, 32, Args, 0, 0);
  printf("launch: %s\n", cudaGetErrorName(E));
  printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  printf("done\n");
  return 0;
}
