// A CUDA program's kernels go through the same cache: the second run of
// the program loads its kernel (PTXJIT_STATS says how many shapes came
// from the cache), with the same results. ptx-jit exec --cache-dir passes
// the directory to the CUDA libraries (PTXJIT_CACHE_DIR).
// REQUIRES: nvcc
// RUN: rm -rf %t.cache && %nvcc %s -o %t
// RUN: env PTXJIT_STATS=1 ptx-jit exec --cache-dir=%t.cache %t 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: env PTXJIT_STATS=1 ptx-jit exec --cache-dir=%t.cache %t 2>&1 | FileCheck %s --check-prefix=SECOND
// FIRST: squares: 1000 of 1000 right
// FIRST: 1 block shapes compiled in {{[0-9.]+}} ms, 0 of them loaded from the cache
// SECOND: squares: 1000 of 1000 right
// SECOND: 1 block shapes compiled in {{[0-9.]+}} ms, 1 of them loaded from the cache
#include <cstdio>

__global__ void square(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = i * i;
}

int main() {
  const int N = 1000;
  int *d;
  cudaMalloc(&d, N * sizeof(int));
  square<<<(N + 127) / 128, 128>>>(d, N);
  static int h[N];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int right = 0;
  for (int i = 0; i < N; ++i)
    right += h[i] == i * i;
  printf("squares: %d of %d right\n", right, N);
  cudaFree(d);
  return 0;
}
