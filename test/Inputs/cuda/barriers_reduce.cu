// Shared-memory reductions for test/Barriers: one block sums blockDim.x *
// blockDim.y * blockDim.z unsigned values (any block shape, 1 to 1024
// threads); every kernel writes one sum per block. Integers, so that the
// expected sums are exact.
#include <cuda_runtime.h>

__device__ unsigned linearTid() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ unsigned blockThreads() {
  return blockDim.x * blockDim.y * blockDim.z;
}

// Halving tree: the active half shrinks; any thread count (the odd element
// of each level is folded in by thread 0).
extern "C" __global__ void reduceTree(const unsigned *in, unsigned *out) {
  extern __shared__ unsigned s[];
  unsigned t = linearTid(), n = blockThreads();
  s[t] = in[blockIdx.x * n + t];
  __syncthreads();
  for (unsigned len = n; len > 1;) {
    unsigned half = len / 2;
    if (t < half)
      s[t] += s[t + half];
    if (t == 0 && (len & 1))
      s[0] += s[len - 1];
    __syncthreads();
    len = half;
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// Interleaved: divergent lanes (t % (2 * stride) == 0) in every warp.
extern "C" __global__ void reduceInterleaved(const unsigned *in,
                                             unsigned *out) {
  extern __shared__ unsigned s[];
  unsigned t = linearTid(), n = blockThreads();
  s[t] = in[blockIdx.x * n + t];
  __syncthreads();
  for (unsigned stride = 1; stride < n; stride *= 2) {
    if (t % (2 * stride) == 0 && t + stride < n)
      s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// Warp shuffles, then one value per warp through shared memory, then the
// first warp. The member masks name the lanes that exist (partial warps).
extern "C" __global__ void reduceShuffle(const unsigned *in, unsigned *out) {
  __shared__ unsigned warpSums[32];
  unsigned t = linearTid(), n = blockThreads();
  unsigned lane = t % 32, warp = t / 32, nwarps = (n + 31) / 32;
  unsigned v = in[blockIdx.x * n + t];
  unsigned inWarp = n - warp * 32 < 32 ? n - warp * 32 : 32;
  unsigned mask = inWarp == 32 ? 0xffffffffu : (1u << inWarp) - 1;
  for (unsigned off = 16; off > 0; off /= 2) {
    unsigned o = __shfl_down_sync(mask, v, off);
    if (lane + off < inWarp)
      v += o;
  }
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    unsigned m = nwarps == 32 ? 0xffffffffu : (1u << nwarps) - 1;
    if (lane < nwarps) {
      v = warpSums[lane];
      for (unsigned off = 16; off > 0; off /= 2) {
        unsigned o = __shfl_down_sync(m, v, off);
        if (lane + off < nwarps)
          v += o;
      }
    }
    if (t == 0)
      out[blockIdx.x] = v;
  }
}

// The classic tree with the last warp unrolled and __syncwarp between
// steps (power-of-two thread counts of at least 64).
extern "C" __global__ void reduceSyncwarp(const unsigned *in, unsigned *out) {
  extern __shared__ unsigned s[];
  unsigned t = linearTid(), n = blockThreads();
  s[t] = in[blockIdx.x * n + t];
  __syncthreads();
  for (unsigned half = n / 2; half > 32; half /= 2) {
    if (t < half)
      s[t] += s[t + half];
    __syncthreads();
  }
  if (t < 32) {
    volatile unsigned *vs = s;
    unsigned v = vs[t] + vs[t + 32];
    for (unsigned off = 16; off > 0; off /= 2) {
      vs[t] = v;
      __syncwarp();
      v += vs[t + off];
      __syncwarp();
    }
    if (t == 0)
      out[blockIdx.x] = v;
  }
}

// Float sums of small integers (exact), block size fixed at compile time.
template <unsigned BlockSize>
__global__ void reduceFloat(const float *in, float *out) {
  __shared__ float s[BlockSize];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * BlockSize + t];
  __syncthreads();
#pragma unroll
  for (unsigned half = BlockSize / 2; half > 0; half /= 2) {
    if (t < half)
      s[t] += s[t + half];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

template __global__ void reduceFloat<128>(const float *, float *);
template __global__ void reduceFloat<1024>(const float *, float *);
