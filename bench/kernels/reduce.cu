// Benchmark kernels: block sum reduction. Each block of BLOCK threads sums
// 2*BLOCK consecutive floats (two per thread, added on load) and writes one
// partial sum per block.
//
// reduce_smem halves a shared-memory tree with a CTA barrier per step.
// reduce_shfl does the same down to 64 values, then finishes the last warp
// with shfl.sync.down. Both sum in the same order (element t with element
// t + stride), so they agree with each other and with the native version
// bit for bit.
#define BLOCK 256

extern "C" __global__ void reduce_smem(const float *in, float *partial,
                                       unsigned n) {
  __shared__ float s[BLOCK];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * (2 * BLOCK) + t;
  float v = i < n ? in[i] : 0.0f;
  if (i + BLOCK < n)
    v = __fadd_rn(v, in[i + BLOCK]);
  s[t] = v;
  __syncthreads();
#pragma unroll
  for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] = __fadd_rn(s[t], s[t + stride]);
    __syncthreads();
  }
  if (t == 0)
    partial[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_shfl(const float *in, float *partial,
                                       unsigned n) {
  __shared__ float s[BLOCK];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * (2 * BLOCK) + t;
  float v = i < n ? in[i] : 0.0f;
  if (i + BLOCK < n)
    v = __fadd_rn(v, in[i + BLOCK]);
  s[t] = v;
  __syncthreads();
#pragma unroll
  for (unsigned stride = BLOCK / 2; stride >= 32; stride >>= 1) {
    if (t < stride)
      s[t] = __fadd_rn(s[t], s[t + stride]);
    __syncthreads();
  }
  if (t < 32) {
    v = s[t];
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
      v = __fadd_rn(v, __shfl_down_sync(0xffffffffu, v, offset));
    if (t == 0)
      partial[blockIdx.x] = v;
  }
}
