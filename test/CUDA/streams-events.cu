// Four streams, each with its own buffer: async copies in, kernels, async
// copies out, events around the work; callbacks queued from several host
// threads; the results and the event order checked on the host.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: stream 0: right
// CHECK-NEXT: stream 1: right
// CHECK-NEXT: stream 2: right
// CHECK-NEXT: stream 3: right
// CHECK-NEXT: elapsed time is not negative: yes
// CHECK-NEXT: query after synchronize: cudaSuccess
// CHECK-NEXT: host callbacks run: 400
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

__global__ void addTimes(int *v, int n, int times) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int k = 0; k < times; ++k)
      v[i] += k;
}

static std::atomic<int> Callbacks{0};
static void CUDART_CB countCallback(void *) { ++Callbacks; }

int main() {
  const int n = 1 << 16, streams = 4;
  cudaStream_t s[streams];
  std::vector<int *> host(streams), dev(streams);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, 0);
  for (int k = 0; k < streams; ++k) {
    cudaStreamCreate(&s[k]);
    cudaMallocHost(&host[k], n * sizeof(int));
    cudaMalloc(&dev[k], n * sizeof(int));
    for (int i = 0; i < n; ++i)
      host[k][i] = i + k;
    cudaMemcpyAsync(dev[k], host[k], n * sizeof(int), cudaMemcpyHostToDevice,
                    s[k]);
    addTimes<<<n / 256, 256, 0, s[k]>>>(dev[k], n, 10 + k);
    cudaMemcpyAsync(host[k], dev[k], n * sizeof(int), cudaMemcpyDeviceToHost,
                    s[k]);
  }
  cudaEventRecord(stop, 0);
  cudaEventSynchronize(stop);
  for (int k = 0; k < streams; ++k) {
    cudaStreamSynchronize(s[k]);
    int times = 10 + k, add = times * (times - 1) / 2;
    bool right = true;
    for (int i = 0; i < n; ++i)
      right &= host[k][i] == i + k + add;
    printf("stream %d: %s\n", k, right ? "right" : "wrong");
  }
  float ms = -1;
  cudaEventElapsedTime(&ms, start, stop);
  printf("elapsed time is not negative: %s\n", ms >= 0 ? "yes" : "no");
  printf("query after synchronize: %s\n",
         cudaGetErrorName(cudaEventQuery(stop)));

  std::vector<std::thread> threads;
  for (int t = 0; t < streams; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i)
        cudaLaunchHostFunc(s[t], countCallback, nullptr);
      cudaStreamSynchronize(s[t]);
    });
  for (std::thread &t : threads)
    t.join();
  printf("host callbacks run: %d\n", Callbacks.load());
  for (int k = 0; k < streams; ++k) {
    cudaStreamDestroy(s[k]);
    cudaFree(dev[k]);
    cudaFreeHost(host[k]);
  }
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
