// The kinds of kernels CUDA's samples show: a 256-bin histogram with
// shared-memory atomics, an inclusive scan with warp shuffles, and kernel
// attributes and occupancy as the runtime reports them.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: histogram: 256 of 256 bins right
// CHECK-NEXT: scan: 4096 of 4096 right
// CHECK-NEXT: histogram kernel: 1024 static shared bytes, up to 1024 threads
// CHECK-NEXT: occupancy at 256 threads: 8 blocks
// CHECK-NEXT: kernel name: _Z9histogramPKhiPj
#include <cstdio>
#include <vector>

__global__ void histogram(const unsigned char *data, int n, unsigned *bins) {
  __shared__ unsigned local[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    atomicAdd(&bins[i], local[i]);
}

// Inclusive scan of each block of 32 * 32 values: warps scan with shuffles,
// then warp totals are scanned through shared memory.
__global__ void scan(const int *in, int *out) {
  __shared__ int totals[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int v = in[i];
  for (int d = 1; d < 32; d *= 2) {
    int up = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d)
      v += up;
  }
  if (lane == 31)
    totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = totals[lane];
    for (int d = 1; d < 32; d *= 2) {
      int up = __shfl_up_sync(0xffffffff, t, d);
      if (lane >= d)
        t += up;
    }
    totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0)
    v += totals[warp - 1];
  out[i] = v;
}

int main() {
  const int n = 1 << 20;
  std::vector<unsigned char> data(n);
  std::vector<unsigned> expected(256, 0);
  unsigned x = 12345;
  for (int i = 0; i < n; ++i) {
    x = x * 1103515245u + 12345u;
    data[i] = (unsigned char)(x >> 16);
    ++expected[data[i]];
  }
  unsigned char *dd;
  unsigned *db;
  cudaMalloc(&dd, n);
  cudaMalloc(&db, 256 * sizeof(unsigned));
  cudaMemcpy(dd, data.data(), n, cudaMemcpyHostToDevice);
  cudaMemset(db, 0, 256 * sizeof(unsigned));
  histogram<<<64, 256>>>(dd, n, db);
  std::vector<unsigned> bins(256);
  cudaMemcpy(bins.data(), db, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  int right = 0;
  for (int b = 0; b < 256; ++b)
    right += bins[b] == expected[b];
  printf("histogram: %d of 256 bins right\n", right);

  const int m = 4096, block = 1024;
  std::vector<int> in(m), out(m);
  for (int i = 0; i < m; ++i)
    in[i] = (i * 7) % 13 - 6;
  int *di, *dout;
  cudaMalloc(&di, m * sizeof(int));
  cudaMalloc(&dout, m * sizeof(int));
  cudaMemcpy(di, in.data(), m * sizeof(int), cudaMemcpyHostToDevice);
  scan<<<m / block, block>>>(di, dout);
  cudaMemcpy(out.data(), dout, m * sizeof(int), cudaMemcpyDeviceToHost);
  int scanRight = 0;
  for (int b = 0; b < m / block; ++b) {
    int sum = 0;
    for (int i = b * block; i < (b + 1) * block; ++i) {
      sum += in[i];
      scanRight += out[i] == sum;
    }
  }
  printf("scan: %d of %d right\n", scanRight, m);

  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, histogram);
  printf("histogram kernel: %zu static shared bytes, up to %d threads\n",
         attr.sharedSizeBytes, attr.maxThreadsPerBlock);
  int blocks = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, histogram, 256, 0);
  printf("occupancy at 256 threads: %d blocks\n", blocks);
  const char *name = nullptr;
  cudaFuncGetName(&name, (const void *)histogram);
  printf("kernel name: %s\n", name ? name : "?");
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
