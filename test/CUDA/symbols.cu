// __constant__ and __device__ variables: set from the host with
// cudaMemcpyToSymbol, read back with cudaMemcpyFromSymbol, shared by the
// module's kernels, and reachable through cudaGetSymbolAddress.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: counter after 3 bumps of 7: 26
// CHECK-NEXT: scaled: 2 4 6 8
// CHECK-NEXT: through the symbol's address: 26
// CHECK-NEXT: size of coefficients: 16
#include <cstdio>

__constant__ float coefficients[4];
__device__ int counter = 5;

__global__ void bump(int by) { atomicAdd(&counter, by); }

__global__ void scale(float *out) {
  out[threadIdx.x] = coefficients[threadIdx.x] * 2.0f;
}

__global__ void readCounter(int *out) { *out = counter; }

int main() {
  float host[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(coefficients, host, sizeof host);
  for (int i = 0; i < 3; ++i)
    bump<<<1, 1>>>(7);
  int value = 0;
  cudaMemcpyFromSymbol(&value, counter, sizeof value);
  printf("counter after 3 bumps of 7: %d\n", value);
  float *out;
  cudaMalloc(&out, sizeof host);
  scale<<<1, 4>>>(out);
  float result[4];
  cudaMemcpy(result, out, sizeof result, cudaMemcpyDeviceToHost);
  printf("scaled: %g %g %g %g\n", result[0], result[1], result[2], result[3]);
  int *address = nullptr;
  cudaGetSymbolAddress((void **)&address, counter);
  int *dOut;
  cudaMalloc(&dOut, sizeof(int));
  readCounter<<<1, 1>>>(dOut);
  int viaKernel = 0;
  cudaMemcpy(&viaKernel, address, sizeof(int), cudaMemcpyDeviceToHost);
  printf("through the symbol's address: %d\n", viaKernel);
  size_t size = 0;
  cudaGetSymbolSize(&size, coefficients);
  printf("size of coefficients: %zu\n", size);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
