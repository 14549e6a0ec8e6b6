// Cooperative groups' multi-warp tiles (tiled_partition<64> and <128>): on
// sm_80 and later they synchronize through scratch in the shared memory
// reserved for the system, found at %reserved_smem_offset_1. The reserved
// region must lie past the user's shared memory (before, it read as offset
// 0: the tiles' barrier counters shared words with the kernel's data and
// their syncs never completed, hence the timeouts). The special registers
// describing it are read too and checked against the PTX ISA's
// definitions: %total_smem_size is
// the user's static and dynamic shared memory in 128-byte units, and
// %aggr_smem_size (sm_90) adds the reserved region's size.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t
// RUN: timeout 300 ptx-jit exec %t | FileCheck %s --check-prefixes=CHECK,SM80
// RUN: %nvcc -gencode arch=compute_90,code=compute_90 -DREADS_AGGR %s -o %t.90
// RUN: timeout 300 ptx-jit exec %t.90 | FileCheck %s --check-prefixes=CHECK,SM90
// CHECK: launch: cudaSuccess
// CHECK-NEXT: tile64 sums: 36 of 36 right
// CHECK-NEXT: tile128 sums: 18 of 18 right
// CHECK-NEXT: tile ranks: 768 of 768 right
// CHECK-NEXT: total_smem_size: right
// CHECK-NEXT: reserved region past user memory: right
// SM80-NEXT: aggr_smem_size: not read
// SM90-NEXT: aggr_smem_size: right
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

constexpr int Blocks = 3, Threads = 256, N = Blocks * Threads, Rounds = 3;
constexpr int DynamicBytes = 100;

struct Regs {
  unsigned Total, Begin, End, Cap, Offset1, Aggr;
};

struct Out {
  int Tile64Sum[Blocks * Rounds][Threads / 64];
  int Tile128Sum[Blocks * Rounds][Threads / 128];
  int Rank[N];
  Regs R;
};

__global__ void tiles(const int *In, Out *O) {
  cg::thread_block Block = cg::this_thread_block();
  cg::thread_block_tile<64> T64 = cg::tiled_partition<64>(Block);
  cg::thread_block_tile<128> T128 = cg::tiled_partition<128>(Block);
  __shared__ int S[Threads];
  extern __shared__ int Dyn[];
  int Tid = threadIdx.x, G = blockIdx.x * Threads + Tid;
  for (int Round = 0; Round != Rounds; ++Round) {
    // Each tile sums its own values: only the tile's sync orders the
    // writes before the first thread's reads.
    S[Tid] = In[G] * (Round + 1);
    T64.sync();
    if (T64.thread_rank() == 0) {
      int Sum = 0;
      for (int I = 0; I != 64; ++I)
        Sum += S[Tid + I];
      O->Tile64Sum[blockIdx.x * Rounds + Round][T64.meta_group_rank()] = Sum;
    }
    T64.sync();
    Dyn[Tid % (DynamicBytes / 4)] = Round;
    S[Tid] = In[G] - Round;
    T128.sync();
    if (T128.thread_rank() == 0) {
      int Sum = 0;
      for (int I = 0; I != 128; ++I)
        Sum += S[Tid + I];
      O->Tile128Sum[blockIdx.x * Rounds + Round][T128.meta_group_rank()] =
          Sum;
    }
    T128.sync();
  }
  O->Rank[G] = T64.thread_rank() + 64 * T64.meta_group_rank() +
               1000 * (T128.thread_rank() + 128 * T128.meta_group_rank());
  if (G == 0) {
    Regs R = {};
    asm("mov.u32 %0, %%total_smem_size;" : "=r"(R.Total));
    asm("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(R.Begin));
    asm("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(R.End));
    asm("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(R.Cap));
    asm("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(R.Offset1));
#if __CUDA_ARCH__ >= 900
    asm("mov.u32 %0, %%aggr_smem_size;" : "=r"(R.Aggr));
#endif
    O->R = R;
  }
}

static const char *verdict(bool Right) { return Right ? "right" : "WRONG"; }

int main() {
  std::vector<int> In(N);
  for (int I = 0; I != N; ++I)
    In[I] = (I * 37) % 101 - 50;
  int *DIn;
  Out *DOut;
  cudaMalloc(&DIn, N * sizeof(int));
  cudaMalloc(&DOut, sizeof(Out));
  cudaMemcpy(DIn, In.data(), N * sizeof(int), cudaMemcpyHostToDevice);
  tiles<<<Blocks, Threads, DynamicBytes>>>(DIn, DOut);
  printf("launch: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  Out O;
  cudaMemcpy(&O, DOut, sizeof(Out), cudaMemcpyDeviceToHost);

  int Right64 = 0, Right128 = 0, RightRank = 0;
  for (int B = 0; B != Blocks; ++B)
    for (int Round = 0; Round != Rounds; ++Round) {
      for (int T = 0; T != Threads / 64; ++T) {
        int Sum = 0;
        for (int I = 0; I != 64; ++I)
          Sum += In[B * Threads + T * 64 + I] * (Round + 1);
        Right64 += O.Tile64Sum[B * Rounds + Round][T] == Sum;
      }
      for (int T = 0; T != Threads / 128; ++T) {
        int Sum = 0;
        for (int I = 0; I != 128; ++I)
          Sum += In[B * Threads + T * 128 + I] - Round;
        Right128 += O.Tile128Sum[B * Rounds + Round][T] == Sum;
      }
    }
  for (int G = 0; G != N; ++G) {
    int Tid = G % Threads;
    RightRank += O.Rank[G] == Tid + 1000 * Tid;
  }
  printf("tile64 sums: %d of %d right\n", Right64, Blocks * Rounds * 4);
  printf("tile128 sums: %d of %d right\n", Right128, Blocks * Rounds * 2);
  printf("tile ranks: %d of %d right\n", RightRank, N);

  cudaFuncAttributes Attr;
  cudaFuncGetAttributes(&Attr, tiles);
  unsigned User = unsigned(Attr.sharedSizeBytes) + DynamicBytes;
  const Regs &R = O.R;
  printf("total_smem_size: %s\n", verdict(R.Total == (User + 127) / 128 * 128));
  // The reserved region holds the tiles' scratch (at most 288 bytes from
  // %reserved_smem_offset_1) and does not overlap the user's memory.
  printf("reserved region past user memory: %s\n",
         verdict(R.Begin >= User && R.Begin < R.End && R.End - R.Begin <= R.Cap &&
                 R.Offset1 >= R.Begin && R.Offset1 + 288 <= R.End));
#ifdef READS_AGGR
  printf("aggr_smem_size: %s\n", verdict(R.Aggr == R.Total + R.Cap));
#else
  printf("aggr_smem_size: not read\n");
#endif
  cudaFree(DIn);
  cudaFree(DOut);
  return 0;
}
