// Asynchronous copies as CUDA's libraries write them: cuda::memcpy_async
// with a per-thread cuda::pipeline (cp.async, commit and wait groups),
// cooperative_groups::memcpy_async with cg::wait, and cuda::barrier (an
// mbarrier object: arrive, wait, and on sm_80 and later memcpy_async that
// completes through it with cp.async.mbarrier.arrive or a bulk copy).
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>

namespace cg = cooperative_groups;

// Each thread streams Chunks values through a two-stage pipeline of its
// own: chunk c + 1 is in flight while chunk c is summed.
extern "C" __global__ void pipelineSum(const int *in, int *out, int chunks) {
  constexpr int Stages = 2;
  __shared__ int buf[Stages][256];
  unsigned t = threadIdx.x;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  int sum = 0;
  for (int c = 0; c < chunks + Stages - 1; ++c) {
    if (c < chunks) {
      pipe.producer_acquire();
      cuda::memcpy_async(&buf[c % Stages][t], &in[c * blockDim.x + t],
                         sizeof(int), pipe);
      pipe.producer_commit();
    }
    int d = c - (Stages - 1);
    if (d >= 0) {
      cuda::pipeline_consumer_wait_prior<Stages - 1>(pipe);
      sum += buf[d % Stages][t];
      pipe.consumer_release();
    }
  }
  out[blockIdx.x * blockDim.x + t] = sum;
}

// The block copies a tile with cooperative groups, waits for it, and each
// thread reverses its neighbourhood.
extern "C" __global__ void groupCopy(const float *in, float *out) {
  __shared__ float tile[256];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * 256, sizeof(float) * 256);
  cg::wait(block);
  unsigned t = block.thread_rank();
  out[blockIdx.x * 256 + t] = tile[255 - t] * 2.0f;
}

// A cuda::barrier in shared memory: memcpy_async completes through it, and
// two rounds of arrive/wait order the threads' writes.
extern "C" __global__ void barrierRounds(const int *in, int *out) {
  using Barrier = cuda::barrier<cuda::thread_scope_block>;
  // Storage, not a Barrier: clang refuses __shared__ objects with
  // constructors, and init() constructs it.
  __shared__ alignas(Barrier) unsigned char storage[sizeof(Barrier)];
  Barrier &bar = *reinterpret_cast<Barrier *>(storage);
  __shared__ int data[128];
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, data, in + blockIdx.x * 128, sizeof(int) * 128,
                     bar);
  bar.arrive_and_wait();
  unsigned t = block.thread_rank();
  int v = data[(t + 1) % 128];
  bar.arrive_and_wait();
  data[t] = v + 1;
  Barrier::arrival_token token = bar.arrive();
  bar.wait(std::move(token));
  out[blockIdx.x * 128 + t] = data[(t + 127) % 128];
}
