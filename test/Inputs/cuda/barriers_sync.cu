// CTA barriers in loops, under uniform conditions, with reductions
// (__syncthreads_count/_and/_or) and with threads that exit early, for
// test/Barriers. Every thread writes what it saw, so that a lane that missed
// a barrier or a result shows up.
#include <cuda_runtime.h>

// Each thread writes the three barrier reductions of its block.
extern "C" __global__ void syncReduce(const int *in, int *out) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[g];
  int cnt = __syncthreads_count(v > 0);
  int all = __syncthreads_and(v != 0);
  int any = __syncthreads_or(v < 0);
  out[3 * g + 0] = cnt;
  out[3 * g + 1] = all;
  out[3 * g + 2] = any;
}

// A loop whose exit the block decides together with __syncthreads_or:
// each thread halves its value until it is 0; rounds = the largest number
// of halvings in the block, the same for every thread.
extern "C" __global__ void syncOrLoop(const unsigned *in, unsigned *rounds,
                                      unsigned *counts) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[g], r = 0, c = 0;
  while (__syncthreads_or(v != 0)) {
    c += __syncthreads_count(v != 0);
    v /= 2;
    ++r;
  }
  rounds[g] = r;
  counts[g] = c;
}

// Barriers in loops with a trip count from a parameter, under conditions
// that are uniform in the block but not in the grid (even and odd blocks run
// different code with different numbers of barriers).
extern "C" __global__ void uniformLoops(const unsigned *in, unsigned *out,
                                        int iters) {
  extern __shared__ unsigned s[];
  unsigned t = threadIdx.x, n = blockDim.x;
  unsigned v = in[blockIdx.x * n + t];
  if (blockIdx.x % 2 == 0) {
    // Rotate left by one per iteration, adding the iteration number.
    for (int i = 0; i < iters; ++i) {
      s[t] = v;
      __syncthreads();
      v = s[(t + 1) % n] + i;
      __syncthreads();
    }
  } else {
    // Reverse, then add the neighbour, iters / 2 times (four barriers).
    for (int i = 0; i < iters / 2; ++i) {
      s[t] = v;
      __syncthreads();
      unsigned r = s[n - 1 - t];
      __syncthreads();
      s[t] = r;
      __syncthreads();
      v = r + s[(t + n - 1) % n];
      __syncthreads();
    }
  }
  if (iters > 4) {
    // Uniform in the grid: one more barrier.
    s[t] = v;
    __syncthreads();
    v += s[0];
  }
  out[blockIdx.x * n + t] = v;
}

// Whole warps leave before the barriers; the others exchange values through
// shared memory across barriers without them (exited threads are not
// waited for).
extern "C" __global__ void warpsExit(const unsigned *in, unsigned *out,
                                     unsigned exitMask) {
  __shared__ unsigned s[1024];
  unsigned t = threadIdx.x, warp = t / 32;
  unsigned g = blockIdx.x * blockDim.x + t;
  out[g] = 0;
  if (exitMask >> warp & 1)
    return;
  s[t] = in[g];
  __syncthreads();
  unsigned sum = 0;
  for (unsigned w = 0; w < (blockDim.x + 31) / 32; ++w)
    if (!(exitMask >> w & 1))
      sum += s[w * 32 + t % 32];
  __syncthreads();
  s[t] = sum;
  __syncthreads();
  out[g] = s[t ^ 1] + 1;
}

// Producer/consumer with named barriers through inline PTX: warp 0 fills a
// buffer and signals with bar.arrive, warp 1 waits with bar.sync, 8 rounds;
// barrier 2 tells the producer the buffer is free again. out[t] = what
// thread t summed (consumers) or wrote (producers).
extern "C" __global__ void namedProducerConsumer(unsigned *out) {
  __shared__ unsigned buf[32];
  unsigned t = threadIdx.x, lane = t % 32, acc = 0;
  for (unsigned r = 0; r < 8; ++r) {
    if (t < 32) {
      if (r > 0)
        asm volatile("bar.sync 2, 64;" ::: "memory");
      buf[lane] = r * 100 + lane;
      acc += r * 100 + lane;
      asm volatile("bar.arrive 1, 64;" ::: "memory");
    } else {
      asm volatile("bar.sync 1, 64;" ::: "memory");
      acc += buf[(lane + r) % 32];
      if (r < 7)
        asm volatile("bar.arrive 2, 64;" ::: "memory");
    }
  }
  out[blockIdx.x * blockDim.x + t] = acc;
}
