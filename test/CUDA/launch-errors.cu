// Launches a GPU rejects come back with the GPU's error codes; a kernel that
// faults, or asserts, gives the sticky error CUDA gives, and the program
// goes on to report it instead of crashing.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: 2048 threads: cudaErrorInvalidConfiguration
// CHECK-NEXT: grid of 0: cudaErrorInvalidConfiguration
// CHECK-NEXT: 64 KiB of dynamic shared memory: cudaErrorInvalidValue
// CHECK-NEXT: good launch after them: cudaSuccess, 42
// CHECK-NEXT: wild store: cudaErrorIllegalAddress
// CHECK-NEXT: malloc afterwards: cudaErrorIllegalAddress
// CHECK-NEXT: last error: cudaErrorIllegalAddress
#include <cstdio>

__global__ void store(int *p, int v) { *p = v; }

__global__ void useShared(int *p) {
  extern __shared__ int s[];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  p[threadIdx.x] = s[0];
}

int main() {
  int *d;
  cudaMalloc(&d, sizeof(int));
  store<<<1, 2048>>>(d, 1);
  printf("2048 threads: %s\n", cudaGetErrorName(cudaGetLastError()));
  store<<<0, 32>>>(d, 1);
  printf("grid of 0: %s\n", cudaGetErrorName(cudaGetLastError()));
  useShared<<<1, 32, 64 * 1024>>>(d);
  printf("64 KiB of dynamic shared memory: %s\n",
         cudaGetErrorName(cudaGetLastError()));
  store<<<1, 1>>>(d, 42);
  int v = 0;
  cudaError_t e = cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost);
  printf("good launch after them: %s, %d\n", cudaGetErrorName(e), v);
  store<<<1, 1>>>((int *)16, 7);
  printf("wild store: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  int *other;
  printf("malloc afterwards: %s\n",
         cudaGetErrorName(cudaMalloc(&other, 16)));
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
