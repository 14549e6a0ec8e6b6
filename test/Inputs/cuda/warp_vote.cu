// Warp votes and warp-level collectives: ballot/all/any, activemask,
// match.any/all (sm_70+), reduce (redux.sync, sm_80+).
#include <cuda_runtime.h>

#define FULL 0xffffffffu

extern "C" __global__ void votes(const int *in, unsigned *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  unsigned bal = __ballot_sync(FULL, v > 0);
  int all = __all_sync(FULL, v != 0);
  int any = __any_sync(FULL, v < 0);
  unsigned uni = __uni_sync(FULL, v & 1);
  if ((threadIdx.x & 31) == 0) {
    out[4 * (t / 32) + 0] = bal;
    out[4 * (t / 32) + 1] = all;
    out[4 * (t / 32) + 2] = any;
    out[4 * (t / 32) + 3] = uni;
  }
}

// __activemask in divergent code; count/leader election with popc/ffs.
extern "C" __global__ void activeMask(const int *in, unsigned *out,
                                      int *leaders) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned m = 0;
  if (in[t] & 1) {
    m = __activemask();
    int lane = threadIdx.x & 31;
    int leader = __ffs(m) - 1;
    if (lane == leader)
      atomicAdd(leaders, __popc(m));
  }
  out[t] = m;
}

// Warp-aggregated atomic increment.
extern "C" __global__ void aggregatedInc(int *counter, int *slots,
                                         const int *pred) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (pred[t]) {
    unsigned m = __activemask();
    int lane = threadIdx.x & 31;
    int leader = __ffs(m) - 1;
    int base = 0;
    if (lane == leader)
      base = atomicAdd(counter, __popc(m));
    base = __shfl_sync(m, base, leader);
    slots[t] = base + __popc(m & ((1u << lane) - 1));
  }
}

extern "C" __global__ void matchKeys(const int *keys, const long long *k64,
                                     unsigned *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
  unsigned m = __match_any_sync(FULL, keys[t]);
  unsigned m64 = __match_any_sync(FULL, k64[t]);
  int pred;
  unsigned ma = __match_all_sync(FULL, keys[t] >> 4, &pred);
  out[3 * t + 0] = m;
  out[3 * t + 1] = m64;
  out[3 * t + 2] = pred ? ma : 0xdeadu;
#else
  out[3 * t + 0] = out[3 * t + 1] = out[3 * t + 2] = 0;
#endif
}

extern "C" __global__ void warpReduceOps(const unsigned *in, unsigned *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[t];
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  unsigned s = __reduce_add_sync(FULL, v);
  unsigned mn = __reduce_min_sync(FULL, v);
  int mx = __reduce_max_sync(FULL, (int)v);
  unsigned a = __reduce_and_sync(FULL, v);
  unsigned o = __reduce_or_sync(FULL, v);
  unsigned x = __reduce_xor_sync(FULL, v);
#else
  unsigned s = v, mn = v, a = v, o = v, x = v;
  int mx = (int)v;
  for (int off = 16; off > 0; off >>= 1) {
    s += __shfl_xor_sync(FULL, s, off);
    mn = min(mn, __shfl_xor_sync(FULL, mn, off));
    mx = max(mx, __shfl_xor_sync(FULL, mx, off));
    a &= __shfl_xor_sync(FULL, a, off);
    o |= __shfl_xor_sync(FULL, o, off);
    x ^= __shfl_xor_sync(FULL, x, off);
  }
#endif
  if ((threadIdx.x & 31) == 0) {
    unsigned *o6 = out + 6 * (t / 32);
    o6[0] = s;
    o6[1] = mn;
    o6[2] = (unsigned)mx;
    o6[3] = a;
    o6[4] = o;
    o6[5] = x;
  }
}

// __syncwarp with a sub-mask and lane id/mask special registers.
extern "C" __global__ void syncWarp(int *data) {
  __shared__ int s[64];
  int lane = threadIdx.x & 31;
  s[threadIdx.x] = data[blockIdx.x * blockDim.x + threadIdx.x];
  __syncwarp();
  if (lane < 16) {
    s[threadIdx.x] += s[threadIdx.x + 16];
    __syncwarp(0x0000ffffu);
  }
  data[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];
}
