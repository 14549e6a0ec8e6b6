// Static and dynamic shared memory with __syncthreads().
#include <cuda_runtime.h>

#define BLOCK 256

// Reverse each block-sized chunk using static shared memory.
extern "C" __global__ void reverseStatic(int *data) {
  __shared__ int tile[BLOCK];
  int t = threadIdx.x;
  int base = blockIdx.x * BLOCK;
  tile[t] = data[base + t];
  __syncthreads();
  data[base + t] = tile[BLOCK - 1 - t];
}

// Same, with dynamically-sized shared memory (size given at launch).
extern "C" __global__ void reverseDynamic(int *data, int n) {
  extern __shared__ int buf[];
  int t = threadIdx.x;
  int base = blockIdx.x * blockDim.x;
  if (base + t < n)
    buf[t] = data[base + t];
  __syncthreads();
  int src = blockDim.x - 1 - t;
  if (base + t < n && base + src < n)
    data[base + t] = buf[src];
}

// Two arrays carved out of one dynamic allocation (float then int).
extern "C" __global__ void dynamicTwoArrays(const float *in, float *out,
                                           int *counts) {
  extern __shared__ float smem[];
  float *vals = smem;
  int *cnt = reinterpret_cast<int *>(&smem[blockDim.x]);
  int t = threadIdx.x;
  vals[t] = in[blockIdx.x * blockDim.x + t];
  cnt[t] = vals[t] > 0.0f ? 1 : 0;
  __syncthreads();
  // Neighbour average with wrap-around.
  unsigned nb = (t + 1) % blockDim.x;
  out[blockIdx.x * blockDim.x + t] = 0.5f * (vals[t] + vals[nb]);
  if (t == 0) {
    int s = 0;
    for (unsigned i = 0; i < blockDim.x; ++i)
      s += cnt[i];
    counts[blockIdx.x] = s;
  }
}

// 1-D stencil with halo, multiple barriers in a loop.
#define RADIUS 3
extern "C" __global__ void stencilIter(float *data, int iters) {
  __shared__ float s[BLOCK + 2 * RADIUS];
  int t = threadIdx.x;
  int g = blockIdx.x * BLOCK + t;
  float v = data[g];
  for (int it = 0; it < iters; ++it) {
    s[t + RADIUS] = v;
    if (t < RADIUS) {
      s[t] = 0.0f;
      s[t + BLOCK + RADIUS] = 0.0f;
    }
    __syncthreads();
    float acc = 0.0f;
#pragma unroll
    for (int k = -RADIUS; k <= RADIUS; ++k)
      acc += s[t + RADIUS + k];
    v = acc / (2 * RADIUS + 1);
    __syncthreads();
  }
  data[g] = v;
}

// A 2-D shared array (transpose through shared memory, padded).
#define TDIM 32
extern "C" __global__ void transpose(const float *in, float *out, int w,
                                     int h) {
  __shared__ float tile[TDIM][TDIM + 1];
  int x = blockIdx.x * TDIM + threadIdx.x;
  int y = blockIdx.y * TDIM + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * TDIM + threadIdx.x;
  y = blockIdx.x * TDIM + threadIdx.y;
  if (x < h && y < w)
    out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}
