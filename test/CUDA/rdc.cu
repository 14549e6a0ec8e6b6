// A program built from two files with relocatable device code
// (-rdc=true): its kernel calls a function of the other file, each file
// uses a variable of the other, and both have a static device function
// named helper. nvcc registers the device-linked fat binary, which holds
// only machine code, with the two files' fat binaries beside it; ptx-jit
// links their PTX.
// REQUIRES: nvcc
// RUN: %nvcc -rdc=true %s %S/Inputs/rdc-library.cu -o %t
// RUN: ptx-jit exec %t | FileCheck %s
// CHECK: results: 256 of 256 right
// CHECK-NEXT: counter: 256
#include <cstdio>

__device__ int scale(int x);
extern __device__ int counter;
__device__ int bias = 7;
static __device__ int helper(int x) { return x - 1; }

__global__ void apply(int *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] = helper(scale(v[i]));
}

int main() {
  const int N = 256;
  int Host[N];
  for (int I = 0; I < N; ++I)
    Host[I] = I;
  int *V;
  cudaMalloc(&V, sizeof(Host));
  cudaMemcpy(V, Host, sizeof(Host), cudaMemcpyHostToDevice);
  apply<<<N / 64, 64>>>(V);
  cudaError_t E = cudaDeviceSynchronize();
  if (E != cudaSuccess) {
    std::printf("launch: %s\n", cudaGetErrorName(E));
    return 1;
  }
  cudaMemcpy(Host, V, sizeof(Host), cudaMemcpyDeviceToHost);
  int Right = 0;
  for (int I = 0; I < N; ++I)
    Right += Host[I] == (3 * I + 7) - 1;
  std::printf("results: %d of %d right\n", Right, N);
  int Counter = 0;
  cudaMemcpyFromSymbol(&Counter, counter, sizeof(int));
  std::printf("counter: %d\n", Counter);
  return 0;
}
