// Barrier-with-reduction intrinsics: __syncthreads_count/_and/_or, and
// barriers inside divergent-looking but uniform loops.
#include <cuda_runtime.h>

extern "C" __global__ void syncReductions(const int *in, int *out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int cnt = __syncthreads_count(v > 0);
  int all = __syncthreads_and(v != 0);
  int any = __syncthreads_or(v < 0);
  if (threadIdx.x == 0) {
    out[blockIdx.x * 3 + 0] = cnt;
    out[blockIdx.x * 3 + 1] = all;
    out[blockIdx.x * 3 + 2] = any;
  }
}

// Iterate until no thread in the block wants to continue (uniform exit
// decided by __syncthreads_or).
extern "C" __global__ void convergeLoop(int *vals, int *rounds) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = vals[t];
  int r = 0;
  while (__syncthreads_or(v > 1)) {
    if (v > 1)
      v = (v & 1) ? 3 * v + 1 : v / 2;
    ++r;
  }
  vals[t] = v;
  if (threadIdx.x == 0)
    rounds[blockIdx.x] = r;
}

// Count with a predicate that depends on shared memory written before.
extern "C" __global__ void countAboveMean(const float *in, int *out) {
  __shared__ float mean;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (threadIdx.x == 0)
    mean = 0.0f;
  __syncthreads();
  atomicAdd(&mean, v / blockDim.x);
  __syncthreads();
  int c = __syncthreads_count(v > mean);
  if (threadIdx.x == 0)
    out[blockIdx.x] = c;
}
