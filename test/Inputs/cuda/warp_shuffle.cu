// Warp shuffles: idx/up/down/xor, sub-warp widths, 64-bit and double values.
#include <cuda_runtime.h>

#define FULL 0xffffffffu

extern "C" __global__ void shuffleBasic(const int *in, int *out, int src) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  int a = __shfl_sync(FULL, v, src);
  int b = __shfl_up_sync(FULL, v, 1);
  int c = __shfl_down_sync(FULL, v, 3);
  int d = __shfl_xor_sync(FULL, v, 5);
  out[4 * t + 0] = a;
  out[4 * t + 1] = b;
  out[4 * t + 2] = c;
  out[4 * t + 3] = d;
}

// Sub-warp segments of width 8 and 16, and a lane-dependent source lane.
extern "C" __global__ void shuffleWidth(const float *in, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[t];
  int lane = threadIdx.x & 31;
  float a = __shfl_sync(FULL, v, 0, 8);
  float b = __shfl_up_sync(FULL, v, 2, 16);
  float c = __shfl_down_sync(FULL, v, 1, 4);
  float d = __shfl_xor_sync(FULL, v, 1, 2);
  float e = __shfl_sync(FULL, v, (lane * 7) & 31);
  out[t] = a + b + c + d + e;
}

// 64-bit integer and double shuffles (split into two 32-bit shuffles).
extern "C" __global__ void shuffle64(const long long *li, const double *di,
                                     long long *lo, double *dout) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  long long l = li[t];
  double d = di[t];
  lo[t] = __shfl_xor_sync(FULL, l, 16) + __shfl_down_sync(FULL, l, 1);
  dout[t] = __shfl_sync(FULL, d, 31 - (threadIdx.x & 31)) +
            __shfl_up_sync(FULL, d, 4, 8);
}

// Warp reductions and inclusive scan with shuffles.
template <typename T> __device__ __forceinline__ T warpSum(T v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_xor_sync(FULL, v, off);
  return v;
}

extern "C" __global__ void warpReduce(const float *in, float *out,
                                      double *dout) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = warpSum(in[t]);
  double ds = warpSum((double)in[t]);
  if ((threadIdx.x & 31) == 0) {
    out[t / 32] = s;
    dout[t / 32] = ds;
  }
}

extern "C" __global__ void warpScan(const int *in, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = in[t];
#pragma unroll
  for (int off = 1; off < 32; off *= 2) {
    int n = __shfl_up_sync(FULL, v, off);
    if (lane >= off)
      v += n;
  }
  out[t] = v;
}

// Shuffle with a partial mask in divergent code (only even lanes).
extern "C" __global__ void shufflePartial(const unsigned *in, unsigned *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[t];
  if ((threadIdx.x & 1) == 0) {
    v = __shfl_xor_sync(0x55555555u, v, 2);
  }
  out[t] = v;
}
