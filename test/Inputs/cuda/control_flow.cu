// Divergent control flow: if/else on threadIdx, loops with lane-dependent
// trip counts, early return, break/continue, 3-D indexing, goto-like flow.
#include <cuda_runtime.h>

extern "C" __global__ void divergentIf(const int *in, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  if (threadIdx.x % 2 == 0) {
    v = v * 3 + 1;
  } else if (threadIdx.x % 3 == 0) {
    v = v / 2;
  } else {
    v = -v;
  }
  if (v > 100) {
    if ((threadIdx.x & 4) != 0)
      v -= 100;
  }
  out[t] = v;
}

// Loop with a lane-dependent trip count (Collatz steps).
extern "C" __global__ void collatz(const unsigned *in, unsigned *steps) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned n = in[t];
  unsigned s = 0;
  while (n > 1 && s < 1000) {
    n = (n & 1) ? 3 * n + 1 : n >> 1;
    ++s;
  }
  steps[t] = s;
}

// Early return from some lanes, then a barrier-free continuation.
extern "C" __global__ void earlyReturn(const float *in, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float v = in[t];
  if (v < 0.0f) {
    out[t] = 0.0f;
    return;
  }
  for (int k = 0; k < (t & 7); ++k) {
    v = v * 0.5f + 1.0f;
    if (v > 1000.0f)
      break;
    if (k == 3)
      continue;
    v += 0.25f;
  }
  out[t] = v;
}

// Nested loops with divergent inner bound and a break out of both loops.
extern "C" __global__ void nestedLoops(const int *bounds, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int b = bounds[t];
  int acc = 0;
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < b + i; ++j) {
      acc += i * j;
      if (acc > 10000)
        goto done;
    }
    if (i > b)
      break;
  }
done:
  out[t] = acc;
}

// 3-D grid and block indexing.
extern "C" __global__ void index3d(float *vol, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz)
    return;
  size_t idx = ((size_t)z * ny + y) * nx + x;
  unsigned linearTid =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned linearBid =
      blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  vol[idx] = (float)(linearBid * (blockDim.x * blockDim.y * blockDim.z) +
                     linearTid);
}

// 3-D stencil writing through 3-D shared memory.
extern "C" __global__ void stencil3d(const float *in, float *out, int n) {
  __shared__ float s[4][4][8];
  int x = blockIdx.x * 8 + threadIdx.x;
  int y = blockIdx.y * 4 + threadIdx.y;
  int z = blockIdx.z * 4 + threadIdx.z;
  bool inside = x < n && y < n && z < n;
  s[threadIdx.z][threadIdx.y][threadIdx.x] =
      inside ? in[(z * n + y) * n + x] : 0.0f;
  __syncthreads();
  if (!inside)
    return;
  float c = s[threadIdx.z][threadIdx.y][threadIdx.x];
  float l = threadIdx.x > 0 ? s[threadIdx.z][threadIdx.y][threadIdx.x - 1] : c;
  float d = threadIdx.y > 0 ? s[threadIdx.z][threadIdx.y - 1][threadIdx.x] : c;
  float b = threadIdx.z > 0 ? s[threadIdx.z - 1][threadIdx.y][threadIdx.x] : c;
  out[(z * n + y) * n + x] = (c + l + d + b) * 0.25f;
}

// Special registers beyond tid/ctaid: laneid, warpid, clock, globaltimer.
extern "C" __global__ void specialRegs(unsigned *out, long long *clk) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane, warp, smid, lanemask;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lanemask));
  out[4 * t + 0] = lane;
  out[4 * t + 1] = warp;
  out[4 * t + 2] = smid;
  out[4 * t + 3] = lanemask;
  long long c0 = clock64();
  clk[t] = clock64() - c0;
}

// Short-circuit evaluation with side effects and a ternary chain.
__device__ int touched;
extern "C" __global__ void shortCircuit(const int *a, int *out) {
  int t = threadIdx.x;
  int v = a[t];
  bool ok = (v > 0 && (100 / v) > 3) || (v < -5 && atomicAdd(&touched, 1) >= 0);
  out[t] = ok ? (v & 1 ? 10 : 20) : (v == 0 ? 30 : 40);
}
