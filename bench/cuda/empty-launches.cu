// Host time per launch of a cached kernel: many empty launches of one
// block on one stream, then one synchronization.
//   nvcc -cudart shared -arch=sm_80 -O2 -o empty-launches empty-launches.cu
//   ptx-jit exec ./empty-launches [launches]
#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void empty() {}

int main(int argc, char **argv) {
  int launches = argc > 1 ? atoi(argv[1]) : 20000;
  empty<<<1, 32>>>(); // compiles the kernel
  cudaDeviceSynchronize();
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < launches; ++i)
    empty<<<1, 32>>>();
  auto queued = std::chrono::steady_clock::now();
  cudaDeviceSynchronize();
  auto done = std::chrono::steady_clock::now();
  using us = std::chrono::duration<double, std::micro>;
  printf("%d launches: %.2f us each to queue, %.2f us each until done\n",
         launches, us(queued - start).count() / launches,
         us(done - start).count() / launches);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
