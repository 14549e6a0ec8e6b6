// Like CUDA's "simple streams" sample: an array is initialized by a kernel
// and copied back, first all at once on the default stream, then cut into
// chunks, each chunk's kernel and copy on its own stream so that one
// stream's copy overlaps another's kernel; the host memory is registered
// malloc memory, the device is asked to block while synchronizing, and
// events time both. Every element is checked.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: device flags: blocking sync 1
// CHECK-NEXT: registered: cudaSuccess, device pointer is the host pointer: yes
// CHECK-NEXT: non-streamed: right, streamed, 4 streams: right
// CHECK-NEXT: streamed again with memsets: right
// CHECK-NEXT: times are not negative: yes
// CHECK-NEXT: errors: cudaSuccess
#include <cstdio>
#include <cstdlib>

__global__ void initArray(int *data, const int *factor, int iterations,
                          int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < iterations; ++k)
    data[i] += *factor + offset;
}

static bool correct(const int *a, int n, int expected) {
  for (int i = 0; i < n; ++i)
    if (a[i] != expected)
      return false;
  return true;
}

int main() {
  cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync);
  unsigned flags = 0;
  cudaGetDeviceFlags(&flags);
  printf("device flags: blocking sync %d\n",
         (flags & cudaDeviceScheduleBlockingSync) != 0);

  const int nstreams = 4, n = 1 << 18, iterations = 5;
  const size_t bytes = n * sizeof(int);
  int *host = (int *)malloc(bytes);
  cudaError_t registered =
      cudaHostRegister(host, bytes, cudaHostRegisterMapped);
  void *mapped = nullptr;
  cudaHostGetDevicePointer(&mapped, host, 0);
  printf("registered: %s, device pointer is the host pointer: %s\n",
         cudaGetErrorName(registered), mapped == host ? "yes" : "no");

  int c = 5, *factor, *data;
  cudaMalloc(&factor, sizeof(int));
  cudaMemcpy(factor, &c, sizeof(int), cudaMemcpyHostToDevice);
  cudaMalloc(&data, bytes);
  cudaMemset(data, 0, bytes);

  cudaStream_t streams[nstreams];
  for (cudaStream_t &s : streams)
    cudaStreamCreate(&s);
  cudaEvent_t start, stop;
  cudaEventCreateWithFlags(&start, cudaEventBlockingSync);
  cudaEventCreateWithFlags(&stop, cudaEventBlockingSync);

  const int threads = 512;
  cudaEventRecord(start, 0);
  initArray<<<n / threads, threads>>>(data, factor, iterations, 0);
  cudaMemcpyAsync(host, data, bytes, cudaMemcpyDeviceToHost, 0);
  cudaEventRecord(stop, 0);
  cudaEventSynchronize(stop);
  float plain = -1;
  cudaEventElapsedTime(&plain, start, stop);
  bool plainRight = correct(host, n, iterations * c);

  // Chunk k: its kernel adds again (so each element ends at twice the
  // value), then its copy back, all on stream k.
  const int chunk = n / nstreams;
  cudaEventRecord(start, 0);
  for (int k = 0; k < nstreams; ++k)
    initArray<<<chunk / threads, threads, 0, streams[k]>>>(
        data + k * chunk, factor, iterations, 0);
  for (int k = 0; k < nstreams; ++k)
    cudaMemcpyAsync(host + k * chunk, data + k * chunk, chunk * sizeof(int),
                    cudaMemcpyDeviceToHost, streams[k]);
  cudaEventRecord(stop, 0);
  cudaEventSynchronize(stop);
  float streamed = -1;
  cudaEventElapsedTime(&streamed, start, stop);
  printf("non-streamed: %s, streamed, %d streams: %s\n",
         plainRight ? "right" : "wrong", nstreams,
         correct(host, n, 2 * iterations * c) ? "right" : "wrong");

  // Each stream clears its chunk first, then adds with an offset of its
  // own.
  for (int k = 0; k < nstreams; ++k) {
    cudaMemsetAsync(data + k * chunk, 0, chunk * sizeof(int), streams[k]);
    initArray<<<chunk / threads, threads, 0, streams[k]>>>(
        data + k * chunk, factor, iterations, k);
    cudaMemcpyAsync(host + k * chunk, data + k * chunk, chunk * sizeof(int),
                    cudaMemcpyDeviceToHost, streams[k]);
  }
  cudaDeviceSynchronize();
  bool again = true;
  for (int k = 0; k < nstreams; ++k)
    again &= correct(host + k * chunk, chunk, iterations * (c + k));
  printf("streamed again with memsets: %s\n", again ? "right" : "wrong");
  printf("times are not negative: %s\n",
         plain >= 0 && streamed >= 0 ? "yes" : "no");

  for (cudaStream_t s : streams)
    cudaStreamDestroy(s);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaHostUnregister(host);
  free(host);
  cudaFree(data);
  cudaFree(factor);
  printf("errors: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
