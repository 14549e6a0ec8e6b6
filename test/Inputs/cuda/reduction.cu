// Shared-memory tree reduction, templated on block size, with a warp-level
// tail using shuffles, and a final grid-level atomic.
#include <climits>
#include <cuda_runtime.h>

template <unsigned BlockSize, typename T>
__global__ void reduceSum(const T *in, T *out, unsigned n) {
  __shared__ T sdata[BlockSize];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BlockSize * 2) + tid;
  unsigned gridSize = BlockSize * 2 * gridDim.x;
  T sum = 0;
  while (i < n) {
    sum += in[i];
    if (i + BlockSize < n)
      sum += in[i + BlockSize];
    i += gridSize;
  }
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = BlockSize / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] = sum = sum + sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    if (BlockSize >= 64)
      sum += sdata[tid + 32];
    for (int off = 16; off > 0; off /= 2)
      sum += __shfl_down_sync(0xffffffffu, sum, off);
  }
  if (tid == 0)
    out[blockIdx.x] = sum;
}

template __global__ void reduceSum<256, float>(const float *, float *, unsigned);
template __global__ void reduceSum<128, int>(const int *, int *, unsigned);
template __global__ void reduceSum<512, double>(const double *, double *,
                                                unsigned);

// Classic interleaved reduction (no shuffles), dynamic block size.
extern "C" __global__ void reduceNaive(const float *in, float *out, int n) {
  extern __shared__ float sm[];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  sm[t] = i < (unsigned)n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (t % (2 * s) == 0)
      sm[t] += sm[t + s];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(out, sm[0]);
}

// Max-reduction with int and unsigned comparisons.
extern "C" __global__ void reduceMax(const int *in, int *out, int n) {
  __shared__ int sm[256];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  sm[t] = i < n ? in[i] : INT_MIN;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      sm[t] = max(sm[t], sm[t + s]);
    __syncthreads();
  }
  if (t == 0)
    atomicMax(out, sm[0]);
}

// Legacy warp-synchronous tail through volatile shared memory (gives
// ld.volatile.shared / st.volatile.shared), guarded by __syncwarp.
__device__ void warpTailVolatile(volatile float *sm, unsigned t) {
  sm[t] += sm[t + 32];
  __syncwarp();
  sm[t] += sm[t + 16];
  __syncwarp();
  sm[t] += sm[t + 8];
  __syncwarp();
  sm[t] += sm[t + 4];
  __syncwarp();
  sm[t] += sm[t + 2];
  __syncwarp();
  sm[t] += sm[t + 1];
}

extern "C" __global__ void reduceVolatile(const float *in, float *out) {
  __shared__ float sm[128];
  unsigned t = threadIdx.x;
  sm[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  if (t < 64)
    sm[t] += sm[t + 64];
  __syncthreads();
  if (t < 32)
    warpTailVolatile(sm, t);
  if (t == 0)
    out[blockIdx.x] = sm[0];
}
