// In-kernel malloc and free: blocks outlive the launch that took them, so
// a later launch reads them through pointers kept in a __device__ array and
// frees them; freed memory is taken again; a small heap
// (cudaLimitMallocHeapSize) runs out and malloc returns NULL; the heap's
// size is fixed once a kernel that uses it has been launched.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t
// RUN: ptx-jit exec %t | FileCheck %s
// CHECK: take: cudaSuccess, 256 of 256 blocks, all 16-byte aligned, disjoint
// CHECK-NEXT: check: cudaSuccess, mismatches 0
// CHECK-NEXT: set heap size after launch: cudaErrorInvalidValue
// CHECK-NEXT: release: cudaSuccess
// CHECK-NEXT: take again: cudaSuccess, 256 of 256 blocks
// CHECK-NEXT: check again: cudaSuccess, mismatches 0
//
// RUN: ptx-jit exec %t exhaust | FileCheck %s --check-prefix=EXHAUST
// EXHAUST: set heap size: cudaSuccess
// EXHAUST-NEXT: take: cudaSuccess, some NULL: yes, taken fit the heap: yes
// EXHAUST-NEXT: check: cudaSuccess, mismatches 0
// EXHAUST-NEXT: release: cudaSuccess
// EXHAUST-NEXT: take small: cudaSuccess, 256 of 256 blocks
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>

constexpr int Threads = 256;
__device__ int *Blocks[Threads];

// Each thread takes n ints and fills them with g * 1000 + i.
__global__ void take(int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = static_cast<int *>(malloc(n * sizeof(int)));
  Blocks[g] = p;
  if (p)
    for (int i = 0; i < n; ++i)
      p[i] = g * 1000 + i;
}

// Counts the elements of the thread's block that do not hold the pattern.
__global__ void check(int n, int *mismatches) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int *p = Blocks[g];
  int bad = 0;
  if (p)
    for (int i = 0; i < n; ++i)
      bad += p[i] != g * 1000 + i;
  mismatches[g] = bad;
}

// Frees the thread's block, and frees NULL, which does nothing.
__global__ void release() {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  free(Blocks[g]);
  Blocks[g] = nullptr;
  free(nullptr);
}

static int *Mismatches;

// Prints "What: error"; the caller completes the line.
static int launchTake(const char *What, int n, int **Host) {
  take<<<Threads / 64, 64>>>(n);
  cudaError_t E = cudaDeviceSynchronize();
  cudaMemcpyFromSymbol(Host, Blocks, sizeof(int *) * Threads);
  std::printf("%s: %s", What, cudaGetErrorName(E));
  return int(std::count_if(Host, Host + Threads, [](int *P) { return P; }));
}

static void launchCheck(const char *What, int n) {
  cudaMemset(Mismatches, 0xff, sizeof(int) * Threads);
  check<<<Threads / 64, 64>>>(n, Mismatches);
  cudaError_t E = cudaDeviceSynchronize();
  int Host[Threads], Sum = 0;
  cudaMemcpy(Host, Mismatches, sizeof Host, cudaMemcpyDeviceToHost);
  for (int V : Host)
    Sum += V;
  std::printf("%s: %s, mismatches %d\n", What, cudaGetErrorName(E), Sum);
}

static void launchRelease() {
  release<<<Threads / 64, 64>>>();
  std::printf("release: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
}

int main(int Argc, char **Argv) {
  cudaMalloc(&Mismatches, sizeof(int) * Threads);
  int *Host[Threads];
  if (Argc > 1 && !std::strcmp(Argv[1], "exhaust")) {
    // 1 MiB of heap; 256 requests of 16 KiB are 4 MiB.
    const size_t Heap = 1 << 20, N = 4096;
    std::printf("set heap size: %s\n", cudaGetErrorName(cudaDeviceSetLimit(
                                           cudaLimitMallocHeapSize, Heap)));
    int Got = launchTake("take", N, Host);
    std::printf(", some NULL: %s, taken fit the heap: %s\n",
                Got < Threads ? "yes" : "no",
                Got > 0 && Got * N * sizeof(int) <= Heap ? "yes" : "no");
    launchCheck("check", N);
    launchRelease();
    // With everything freed, 256 blocks of 1 KiB fit again.
    Got = launchTake("take small", 256, Host);
    std::printf(", %d of %d blocks\n", Got, Threads);
    return 0;
  }

  // 256 blocks of 20 KiB: 5 MiB of the default 8 MiB heap.
  const int N = 5120;
  int Got = launchTake("take", N, Host);
  std::sort(Host, Host + Threads);
  bool Aligned = true, Disjoint = true;
  for (int I = 0; I != Threads; ++I) {
    Aligned &= reinterpret_cast<uintptr_t>(Host[I]) % 16 == 0;
    if (I + 1 != Threads)
      Disjoint &= Host[I] && Host[I + 1] - Host[I] >= N;
  }
  std::printf(", %d of %d blocks, %s16-byte aligned, %s\n", Got, Threads,
              Aligned ? "all " : "not all ",
              Disjoint ? "disjoint" : "overlapping");
  launchCheck("check", N);
  std::printf(
      "set heap size after launch: %s\n",
      cudaGetErrorName(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20)));
  launchRelease();
  // Another 5 MiB fits in 8 MiB only if the first blocks were freed.
  Got = launchTake("take again", N, Host);
  std::printf(", %d of %d blocks\n", Got, Threads);
  launchCheck("check again", N);
  return 0;
}
