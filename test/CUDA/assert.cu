// A failed device assert stops the kernel; the host sees cudaErrorAssert.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t 2>&1 | FileCheck %s
// CHECK: assert.cu:{{[0-9]+}}: {{.*}}Assertion `x != 3` failed
// CHECK: synchronize: cudaErrorAssert
#include <cassert>
#include <cstdio>

__global__ void check(const int *v) { int x = v[threadIdx.x]; assert(x != 3); }

int main() {
  int host[8] = {0, 1, 2, 3, 4, 5, 6, 7}, *d;
  cudaMalloc(&d, sizeof host);
  cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice);
  check<<<1, 8>>>(d);
  printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
