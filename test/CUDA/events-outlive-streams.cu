// Events recorded in a stream stay usable after the stream is destroyed
// (the CUDA runtime API: cudaStreamDestroy lets the stream's work finish;
// the event is then complete): query, synchronize, elapsed time, destroy.
// An event the program never destroys is the runtime's to free. Under ASan
// the first two were a use after free of the stream and a leak.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: kernel: right
// CHECK-NEXT: query: cudaSuccess
// CHECK-NEXT: synchronize: cudaSuccess
// CHECK-NEXT: elapsed: cudaSuccess, not negative: yes
// CHECK-NEXT: destroy: cudaSuccess cudaSuccess
// CHECK-NEXT: kept: cudaSuccess
#include <cstdio>

__global__ void fill(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = 3 * i;
}

int main() {
  const int n = 4096;
  int *d, h[n];
  cudaMalloc(&d, n * sizeof(int));
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaEvent_t start, stop, kept;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventCreate(&kept);
  cudaEventRecord(start, s);
  fill<<<n / 256, 256, 0, s>>>(d, n);
  cudaEventRecord(stop, s);
  cudaEventRecord(kept, s);
  cudaStreamDestroy(s);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  bool right = true;
  for (int i = 0; i < n; ++i)
    right &= h[i] == 3 * i;
  std::printf("kernel: %s\n", right ? "right" : "wrong");
  std::printf("query: %s\n", cudaGetErrorName(cudaEventQuery(stop)));
  std::printf("synchronize: %s\n",
              cudaGetErrorName(cudaEventSynchronize(stop)));
  float ms = -1;
  cudaError_t e = cudaEventElapsedTime(&ms, start, stop);
  std::printf("elapsed: %s, not negative: %s\n", cudaGetErrorName(e),
              ms >= 0 ? "yes" : "no");
  cudaError_t d1 = cudaEventDestroy(start), d2 = cudaEventDestroy(stop);
  std::printf("destroy: %s %s\n", cudaGetErrorName(d1), cudaGetErrorName(d2));
  // kept is never destroyed.
  std::printf("kept: %s\n", cudaGetErrorName(cudaEventQuery(kept)));
  cudaFree(d);
  return 0;
}
