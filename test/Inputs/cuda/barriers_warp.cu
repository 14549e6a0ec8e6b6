// Warp-synchronous intrinsics for test/WarpSync: shuffles of every kind and
// width, 64-bit and double shuffles, votes, match, redux and member masks
// under divergence. Each thread writes every result it computes, so that a
// lane that got a wrong value or none shows up. Reference models:
// test/WarpSync/Inputs/warpmodels.py.
#include <cuda_runtime.h>

#define FULL 0xffffffffu

__device__ unsigned laneId() { return threadIdx.x % 32; }

// out[k * n + g] for k = 0..15: shuffles of 32-bit values.
extern "C" __global__ void shflWidths(const unsigned *in, unsigned *out) {
  unsigned n = gridDim.x * blockDim.x;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = laneId(), v = in[g];
  unsigned r[16];
  r[0] = __shfl_sync(FULL, v, (lane * 7 + 3) % 32);
  r[1] = __shfl_sync(FULL, v, lane * 3, 16);
  r[2] = __shfl_sync(FULL, v, 5, 8);
  r[3] = __shfl_sync(FULL, v, lane + 1, 4);
  r[4] = __shfl_up_sync(FULL, v, 3);
  r[5] = __shfl_up_sync(FULL, v, 2, 16);
  r[6] = __shfl_up_sync(FULL, v, 1, 8);
  r[7] = __shfl_up_sync(FULL, v, 3, 4);
  r[8] = __shfl_down_sync(FULL, v, 5);
  r[9] = __shfl_down_sync(FULL, v, 4, 16);
  r[10] = __shfl_down_sync(FULL, v, 2, 8);
  r[11] = __shfl_down_sync(FULL, v, 1, 4);
  r[12] = __shfl_xor_sync(FULL, v, 21);
  r[13] = __shfl_xor_sync(FULL, v, 20, 16);
  r[14] = __shfl_xor_sync(FULL, v, 3, 8);
  r[15] = __shfl_xor_sync(FULL, v, 1, 4);
  for (int k = 0; k < 16; ++k)
    out[k * n + g] = r[k];
}

// Shuffles with lane and delta operands in registers (not constants).
extern "C" __global__ void shflRegisters(const unsigned *in, unsigned *out,
                                         int delta, int width) {
  unsigned n = gridDim.x * blockDim.x;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = laneId(), v = in[g];
  out[0 * n + g] = __shfl_sync(FULL, v, in[g] % 32, width);
  out[1 * n + g] = __shfl_up_sync(FULL, v, delta, width);
  out[2 * n + g] = __shfl_down_sync(FULL, v, delta, width);
  out[3 * n + g] = __shfl_xor_sync(FULL, v, delta, width);
  out[4 * n + g] = __shfl_sync(FULL, v, lane ^ delta, width);
}

// 64-bit integers and doubles: nvcc splits them into two 32-bit shuffles.
extern "C" __global__ void shfl64(const unsigned *in, unsigned long long *out,
                                  double *outd) {
  unsigned n = gridDim.x * blockDim.x;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = laneId();
  unsigned long long v = (unsigned long long)in[g] << 32 | (lane * 0x01010101u);
  double d = in[g] * 0.25 + lane;
  out[0 * n + g] = __shfl_sync(FULL, v, (lane + 5) % 32);
  out[1 * n + g] = __shfl_up_sync(FULL, v, 4, 16);
  out[2 * n + g] = __shfl_down_sync(FULL, v, 3);
  out[3 * n + g] = __shfl_xor_sync(FULL, (long long)v, 6, 8);
  outd[0 * n + g] = __shfl_sync(FULL, d, 31 - lane);
  outd[1 * n + g] = __shfl_up_sync(FULL, d, 1, 8);
  outd[2 * n + g] = __shfl_down_sync(FULL, d, 7, 16);
  outd[3 * n + g] = __shfl_xor_sync(FULL, d, 16);
}

// Divergent groups, each shuffling among its own lanes with a partial mask.
extern "C" __global__ void shflDivergent(const unsigned *in, unsigned *out) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = laneId(), v = in[g], r;
  if (lane < 12)
    r = __shfl_sync(0x00000fffu, v, (lane + 1) % 12);
  else if (lane >= 20)
    r = __shfl_down_sync(0xfff00000u, v, 2);
  else
    r = __shfl_xor_sync(0x000ff000u, v, 1);
  out[g] = r;
}

// Votes over the whole warp and over divergent groups with partial masks.
// out[k * n + g], k = 0..7.
extern "C" __global__ void votes(const int *in, unsigned *out) {
  unsigned n = gridDim.x * blockDim.x;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = laneId();
  bool p = in[g] > 0;
  out[0 * n + g] = __all_sync(FULL, p);
  out[1 * n + g] = __any_sync(FULL, p);
  out[2 * n + g] = __uni_sync(FULL, p);
  out[3 * n + g] = __ballot_sync(FULL, p);
  unsigned r, s;
  if (lane % 3 == 0) {
    r = __ballot_sync(0x49249249u, p);
    s = __all_sync(0x49249249u, p);
  } else if (lane % 3 == 1) {
    r = __ballot_sync(0x92492492u, p);
    s = __any_sync(0x92492492u, p);
  } else {
    r = __ballot_sync(0x24924924u, p);
    s = __uni_sync(0x24924924u, p);
  }
  out[4 * n + g] = r;
  out[5 * n + g] = s;
  // A predicate that is the same in every lane of a group.
  out[6 * n + g] = __uni_sync(FULL, lane < 40);
  out[7 * n + g] = __all_sync(FULL, lane < 31);
}

// match.any / match.all on 32- and 64-bit keys. out[k * n + g], k = 0..5.
extern "C" __global__ void matches(const unsigned *in, unsigned *out) {
  unsigned n = gridDim.x * blockDim.x;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned key = in[g];
  int pred = -1, pred64 = -1;
  out[0 * n + g] = __match_any_sync(FULL, key);
  out[1 * n + g] = __match_all_sync(FULL, key, &pred);
  out[2 * n + g] = pred;
  unsigned long long key64 = (unsigned long long)key << 33 | 5;
  out[3 * n + g] = __match_any_sync(FULL, key64);
  out[4 * n + g] = __match_all_sync(FULL, key64, &pred64);
  out[5 * n + g] = pred64;
}

// redux.sync (sm_80). out[k * n + g], k = 0..8.
extern "C" __global__ void reduxes(const unsigned *in, unsigned *out) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  unsigned n = gridDim.x * blockDim.x;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = laneId(), u = in[g];
  int s = (int)u;
  out[0 * n + g] = __reduce_add_sync(FULL, u);
  out[1 * n + g] = __reduce_min_sync(FULL, u);
  out[2 * n + g] = __reduce_max_sync(FULL, u);
  out[3 * n + g] = __reduce_add_sync(FULL, s);
  out[4 * n + g] = __reduce_min_sync(FULL, s);
  out[5 * n + g] = __reduce_max_sync(FULL, s);
  out[6 * n + g] = __reduce_and_sync(FULL, u);
  out[7 * n + g] = __reduce_or_sync(FULL, u);
  out[8 * n + g] = __reduce_xor_sync(FULL, u);
  // Divergent: odd lanes take the max of theirs, even lanes the signed min.
  if (lane & 1)
    out[9 * n + g] = __reduce_max_sync(0xaaaaaaaau, u);
  else
    out[9 * n + g] = __reduce_min_sync(0x55555555u, s);
#endif
}

// Converged warp, but each half names only itself in the member mask (the
// masks that cooperative groups' tiled_partition<16> builds).
// out[k * n + g], k = 0..5.
extern "C" __global__ void halfMasks(const unsigned *in, unsigned *out) {
  unsigned n = gridDim.x * blockDim.x;
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = laneId(), u = in[g];
  unsigned mask = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  bool p = u % 3 == 0;
  out[0 * n + g] = __ballot_sync(mask, p);
  out[1 * n + g] = __all_sync(mask, p);
  out[2 * n + g] = __any_sync(mask, p);
  out[3 * n + g] = __match_any_sync(mask, u % 4);
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  out[4 * n + g] = __reduce_add_sync(mask, u);
#else
  out[4 * n + g] = 0;
#endif
  out[5 * n + g] = __shfl_sync(mask, u, 0, 16);
}
