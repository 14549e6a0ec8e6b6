// An unmodified CUDA program (nvcc -cudart shared) runs on ptx-jit's
// libcudart.so.13: device memory, copies both ways, a launch with <<<>>>,
// and the device it reports.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: device: ptx-jit (sm_80 on the CPU), compute capability 8.0, warp 32
// CHECK-NEXT: vector add: 100000 of 100000 right
// CHECK-NEXT: done: no error
// PTXJIT_STATS=1 reports each kernel's launches and times at exit.
// RUN: env PTXJIT_STATS=1 ptx-jit exec %t 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// STATS: ptx-jit: kernel '_Z4vaddPKfS0_Pfi': 1 launches, 391 CTAs, run {{[0-9.]+}} ms; 1 block shapes compiled in {{[0-9.]+}} ms
#include <cstdio>
#include <vector>

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

int main() {
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess)
    return 1;
  printf("device: %s, compute capability %d.%d, warp %d\n", prop.name,
         prop.major, prop.minor, prop.warpSize);
  const int n = 100000;
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = i * 0.5f;
    b[i] = 1000.0f - i;
  }
  float *da, *db, *dc;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&db, n * sizeof(float));
  cudaMalloc(&dc, n * sizeof(float));
  cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  vadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
  cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost);
  int right = 0;
  for (int i = 0; i < n; ++i)
    right += c[i] == a[i] + b[i];
  printf("vector add: %d of %d right\n", right, n);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  printf("done: %s\n", cudaGetErrorString(cudaGetLastError()));
  return right == n ? 0 : 1;
}
