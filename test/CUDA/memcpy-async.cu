// Asynchronous copies through CUDA's libraries: cuda::memcpy_async with a
// multi-stage cuda::pipeline per thread and per block, cooperative_groups::
// memcpy_async with cg::wait, and cuda::barrier (arrive_and_wait, arrive
// and wait with a token, memcpy_async completing through the barrier);
// every result checked against the host. Built for sm_80 (cp.async,
// mbarrier test_wait) and, with the PTX of sm_90 (try_wait), run again.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// RUN: %nvcc -gencode arch=compute_90,code=compute_90 %s -o %t.90 && ptx-jit exec %t.90 | FileCheck %s
// CHECK: thread pipeline: 4096 of 4096 right
// CHECK-NEXT: block pipeline: 4096 of 4096 right
// CHECK-NEXT: group copy: 1024 of 1024 right
// CHECK-NEXT: barrier rounds: 512 of 512 right
// CHECK-NEXT: errors: cudaSuccess
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cstdio>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <vector>

namespace cg = cooperative_groups;

// A barrier in shared memory is constructed by init(), not by a constructor.
#pragma nv_diag_suppress static_var_with_dynamic_init

constexpr int Blocks = 4, Threads = 128, Chunks = 8, Stages = 3;

// Per thread: Chunks values stream through Stages buffers; each thread sums
// every other one of its chunks' values, weighted by the chunk.
__global__ void threadPipeline(const int *In, int *Out) {
  __shared__ int Buf[Stages][Threads];
  unsigned T = threadIdx.x;
  cuda::pipeline<cuda::thread_scope_thread> Pipe = cuda::make_pipeline();
  const int *Base = In + blockIdx.x * Chunks * Threads;
  for (int C = 0; C < Stages - 1; ++C) {
    Pipe.producer_acquire();
    cuda::memcpy_async(&Buf[C][T], &Base[C * Threads + T], sizeof(int), Pipe);
    Pipe.producer_commit();
  }
  for (int C = 0; C < Chunks; ++C) {
    int Next = C + Stages - 1;
    Pipe.producer_acquire();
    if (Next < Chunks)
      cuda::memcpy_async(&Buf[Next % Stages][T], &Base[Next * Threads + T],
                         sizeof(int), Pipe);
    Pipe.producer_commit();
    cuda::pipeline_consumer_wait_prior<Stages - 1>(Pipe);
    Out[blockIdx.x * Chunks * Threads + C * Threads + T] =
        Buf[C % Stages][T] * (C + 1);
    Pipe.consumer_release();
  }
}

// Per block: a pipeline shared by the block's threads, whose stages are
// 128-value tiles copied by the whole block.
__global__ void blockPipeline(const int *In, int *Out) {
  __shared__ int Buf[Stages][Threads];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, Stages>
      State;
  cg::thread_block Block = cg::this_thread_block();
  auto Pipe = cuda::make_pipeline(Block, &State);
  const int *Base = In + blockIdx.x * Chunks * Threads;
  int Fetched = 0;
  for (int C = 0; C < Chunks; ++C) {
    for (; Fetched < Chunks && Fetched < C + Stages; ++Fetched) {
      Pipe.producer_acquire();
      cuda::memcpy_async(Block, Buf[Fetched % Stages], Base + Fetched * Threads,
                         sizeof(int) * Threads, Pipe);
      Pipe.producer_commit();
    }
    Pipe.consumer_wait();
    unsigned T = Block.thread_rank();
    // A neighbour's value: the whole tile must have arrived.
    Out[blockIdx.x * Chunks * Threads + C * Threads + T] =
        Buf[C % Stages][(T + 1) % Threads] + C;
    Pipe.consumer_release();
  }
}

__global__ void groupCopy(const float *In, float *Out) {
  __shared__ float Tile[256];
  cg::thread_block Block = cg::this_thread_block();
  cg::memcpy_async(Block, Tile, In + blockIdx.x * 256, sizeof(float) * 256);
  cg::wait(Block);
  unsigned T = Block.thread_rank();
  Out[blockIdx.x * 256 + T] = Tile[255 - T] * 2.0f;
}

__global__ void barrierRounds(const int *In, int *Out) {
  using Barrier = cuda::barrier<cuda::thread_scope_block>;
  __shared__ Barrier Bar;
  __shared__ int Data[Threads];
  cg::thread_block Block = cg::this_thread_block();
  if (Block.thread_rank() == 0)
    init(&Bar, Block.size());
  Block.sync();
  cuda::memcpy_async(Block, Data, In + blockIdx.x * Threads,
                     sizeof(int) * Threads, Bar);
  Bar.arrive_and_wait();
  unsigned T = Block.thread_rank();
  int V = Data[(T + 1) % Threads];
  Bar.arrive_and_wait();
  Data[T] = V + 1;
  Barrier::arrival_token Token = Bar.arrive();
  Bar.wait(std::move(Token));
  Out[blockIdx.x * Threads + T] = Data[(T + Threads - 1) % Threads];
}

template <typename T> T *device(const std::vector<T> &Host) {
  T *D;
  cudaMalloc(&D, Host.size() * sizeof(T));
  cudaMemcpy(D, Host.data(), Host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return D;
}

template <typename T> std::vector<T> host(const T *D, size_t N) {
  std::vector<T> H(N);
  cudaMemcpy(H.data(), D, N * sizeof(T), cudaMemcpyDeviceToHost);
  return H;
}

int main() {
  const int N = Blocks * Chunks * Threads;
  std::vector<int> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = (I * 37) % 1001 - 300;
  int *DIn = device(In), *DOut = device(std::vector<int>(N));

  threadPipeline<<<Blocks, Threads>>>(DIn, DOut);
  std::vector<int> Out = host(DOut, N);
  int Right = 0;
  for (int B = 0; B < Blocks; ++B)
    for (int C = 0; C < Chunks; ++C)
      for (int T = 0; T < Threads; ++T) {
        int I = B * Chunks * Threads + C * Threads + T;
        Right += Out[I] == In[I] * (C + 1);
      }
  printf("thread pipeline: %d of %d right\n", Right, N);

  blockPipeline<<<Blocks, Threads>>>(DIn, DOut);
  Out = host(DOut, N);
  Right = 0;
  for (int B = 0; B < Blocks; ++B)
    for (int C = 0; C < Chunks; ++C)
      for (int T = 0; T < Threads; ++T) {
        int Base = B * Chunks * Threads + C * Threads;
        Right += Out[Base + T] == In[Base + (T + 1) % Threads] + C;
      }
  printf("block pipeline: %d of %d right\n", Right, N);

  std::vector<float> F(1024);
  for (int I = 0; I < 1024; ++I)
    F[I] = 0.25f * I - 17.0f;
  float *DF = device(F), *DG = device(std::vector<float>(1024));
  groupCopy<<<4, 256>>>(DF, DG);
  std::vector<float> G = host(DG, 1024);
  Right = 0;
  for (int B = 0; B < 4; ++B)
    for (int T = 0; T < 256; ++T)
      Right += G[B * 256 + T] == F[B * 256 + 255 - T] * 2.0f;
  printf("group copy: %d of 1024 right\n", Right);

  barrierRounds<<<Blocks, Threads>>>(DIn, DOut);
  Out = host(DOut, Blocks * Threads);
  Right = 0;
  for (int B = 0; B < Blocks; ++B)
    for (int T = 0; T < Threads; ++T) {
      // Thread T stored In[T + 1] + 1; its left neighbour's slot is read.
      int L = (T + Threads - 1) % Threads;
      Right += Out[B * Threads + T] == In[B * Threads + (L + 1) % Threads] + 1;
    }
  printf("barrier rounds: %d of %d right\n", Right, Blocks * Threads);
  printf("errors: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
