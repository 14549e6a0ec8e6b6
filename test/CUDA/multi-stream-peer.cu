// A P2P-less multi-stream program: with one device, "peer" copies are
// copies within it. Several streams each bring a chunk in, transform it,
// and copy it to a second buffer with cudaMemcpyPeerAsync; a final stream
// waits for all of them through events, reduces, and copies the sums back.
// Results are checked against the host's own computation.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: devices: 1
// CHECK-NEXT: peer copy to device 1: cudaErrorInvalidDevice
// CHECK-NEXT: chunks: 6 of 6 right
// CHECK-NEXT: sums: 6 of 6 right
// CHECK-NEXT: synchronous peer copy: right
// CHECK-NEXT: errors: cudaSuccess
#include <cstdio>
#include <vector>

__global__ void transform(int *v, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = v[i] * 3 + k;
}

// One block per chunk: the chunk's sum.
__global__ void reduce(const int *v, int chunk, long long *sums) {
  __shared__ long long partial[256];
  long long s = 0;
  for (int i = threadIdx.x; i < chunk; i += blockDim.x)
    s += v[blockIdx.x * chunk + i];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w)
      partial[threadIdx.x] += partial[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    sums[blockIdx.x] = partial[0];
}

int main() {
  int devices = 0;
  cudaGetDeviceCount(&devices);
  printf("devices: %d\n", devices);
  const int chunks = 6, chunk = 10000, n = chunks * chunk;
  int *a, *b, *host;
  long long *sums, hostSums[chunks];
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMalloc(&sums, chunks * sizeof(long long));
  cudaMallocHost(&host, n * sizeof(int));
  for (int i = 0; i < n; ++i)
    host[i] = i % 1000 - 500;
  printf("peer copy to device 1: %s\n",
         cudaGetErrorName(cudaMemcpyPeer(b, 1, a, 0, 4)));
  cudaGetLastError();

  cudaStream_t streams[chunks], last;
  cudaEvent_t done[chunks];
  for (int k = 0; k < chunks; ++k) {
    cudaStreamCreateWithFlags(&streams[k], cudaStreamNonBlocking);
    cudaEventCreateWithFlags(&done[k], cudaEventDisableTiming);
  }
  cudaStreamCreateWithFlags(&last, cudaStreamNonBlocking);
  for (int k = 0; k < chunks; ++k) {
    int *ak = a + k * chunk, *bk = b + k * chunk;
    cudaMemcpyAsync(ak, host + k * chunk, chunk * sizeof(int),
                    cudaMemcpyHostToDevice, streams[k]);
    transform<<<(chunk + 255) / 256, 256, 0, streams[k]>>>(ak, chunk, k);
    cudaMemcpyPeerAsync(bk, 0, ak, 0, chunk * sizeof(int), streams[k]);
    cudaEventRecord(done[k], streams[k]);
    cudaStreamWaitEvent(last, done[k], 0);
  }
  reduce<<<chunks, 256, 0, last>>>(b, chunk, sums);
  cudaMemcpyAsync(hostSums, sums, sizeof hostSums, cudaMemcpyDeviceToHost,
                  last);
  std::vector<int> back(n);
  cudaMemcpyAsync(back.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost,
                  last);
  cudaStreamSynchronize(last);

  int chunksRight = 0, sumsRight = 0;
  for (int k = 0; k < chunks; ++k) {
    bool ok = true;
    long long sum = 0;
    for (int i = k * chunk; i < (k + 1) * chunk; ++i) {
      int expected = host[i] * 3 + k;
      ok &= back[i] == expected;
      sum += expected;
    }
    chunksRight += ok;
    sumsRight += hostSums[k] == sum;
  }
  printf("chunks: %d of %d right\n", chunksRight, chunks);
  printf("sums: %d of %d right\n", sumsRight, chunks);

  cudaMemset(a, 0, n * sizeof(int));
  cudaMemcpyPeer(a, 0, b, 0, n * sizeof(int));
  std::vector<int> again(n);
  cudaMemcpy(again.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost);
  printf("synchronous peer copy: %s\n", again == back ? "right" : "wrong");

  for (int k = 0; k < chunks; ++k) {
    cudaStreamDestroy(streams[k]);
    cudaEventDestroy(done[k]);
  }
  cudaStreamDestroy(last);
  cudaFree(a);
  cudaFree(b);
  cudaFree(sums);
  cudaFreeHost(host);
  printf("errors: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
