// Cooperative groups below the grid: thread_block, tiled_partition<32> and
// <16> with shuffle reductions, tile sync, coalesced_threads() in a
// divergent branch, and grid_group's size and thread_rank in a cooperative
// launch; every result checked against a host computation.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: launch: cudaSuccess
// CHECK-NEXT: block sums: 4 of 4 right
// CHECK-NEXT: tile32 sums: 16 of 16 right
// CHECK-NEXT: tile16 sums: 32 of 32 right
// CHECK-NEXT: tile sync exchange: 512 of 512 right
// CHECK-NEXT: coalesced: 512 of 512 right
// CHECK-NEXT: grid rank and size: 512 of 512 right
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

constexpr int Blocks = 4, Threads = 128, N = Blocks * Threads;

template <typename Tile> __device__ int tileSum(Tile T, int V) {
  for (int Offset = T.size() / 2; Offset > 0; Offset /= 2)
    V += T.shfl_down(V, Offset);
  return V;
}

struct Out {
  int BlockSum[Blocks];
  int Tile32Sum[N / 32];
  int Tile16Sum[N / 16];
  int Exchange[N];
  int Coalesced[N];
  unsigned long long GridRank[N];
  unsigned long long GridSize[N];
};

__global__ void groups(const int *In, Out *O) {
  cg::thread_block Block = cg::this_thread_block();
  cg::grid_group Grid = cg::this_grid();
  __shared__ int Shared[Threads];
  int Global = blockIdx.x * Threads + Block.thread_rank();
  int V = In[Global];

  // Block-wide sum through shared memory and Block.sync().
  Shared[Block.thread_rank()] = V;
  Block.sync();
  for (int S = Threads / 2; S > 0; S /= 2) {
    if (Block.thread_rank() < S)
      Shared[Block.thread_rank()] += Shared[Block.thread_rank() + S];
    Block.sync();
  }
  if (Block.thread_rank() == 0)
    O->BlockSum[blockIdx.x] = Shared[0];
  Block.sync();

  cg::thread_block_tile<32> T32 = cg::tiled_partition<32>(Block);
  int S32 = tileSum(T32, V);
  if (T32.thread_rank() == 0)
    O->Tile32Sum[Global / 32] = S32;
  cg::thread_block_tile<16> T16 = cg::tiled_partition<16>(Block);
  int S16 = tileSum(T16, V);
  if (T16.thread_rank() == 0)
    O->Tile16Sum[Global / 16] = S16;

  // Each thread writes, the tile syncs, each reads its neighbour's value.
  Shared[Block.thread_rank()] = V * 3;
  T32.sync();
  int Base = Block.thread_rank() - T32.thread_rank();
  O->Exchange[Global] = Shared[Base + (T32.thread_rank() + 1) % 32];

  // Odd values take the branch: the active threads form the group.
  if (V & 1) {
    cg::coalesced_group Active = cg::coalesced_threads();
    O->Coalesced[Global] = Active.size() * 1000 + Active.thread_rank();
  } else {
    O->Coalesced[Global] = -1;
  }

  O->GridRank[Global] = Grid.thread_rank();
  O->GridSize[Global] = Grid.size();
}

int main() {
  int In[N];
  for (int I = 0; I < N; ++I)
    In[I] = (I * 37 + 11) % 101;
  int *DIn;
  Out *DOut;
  cudaMalloc(&DIn, sizeof In);
  cudaMalloc(&DOut, sizeof(Out));
  cudaMemcpy(DIn, In, sizeof In, cudaMemcpyHostToDevice);
  void *Args[] = {&DIn, &DOut};
  cudaError_t E =
      cudaLaunchCooperativeKernel((void *)groups, Blocks, Threads, Args, 0, 0);
  if (E == cudaSuccess)
    E = cudaDeviceSynchronize();
  printf("launch: %s\n", cudaGetErrorName(E));
  static Out O;
  cudaMemcpy(&O, DOut, sizeof O, cudaMemcpyDeviceToHost);

  auto Sum = [&](int First, int Count) {
    int S = 0;
    for (int I = First; I < First + Count; ++I)
      S += In[I];
    return S;
  };
  int Right = 0;
  for (int B = 0; B < Blocks; ++B)
    Right += O.BlockSum[B] == Sum(B * Threads, Threads);
  printf("block sums: %d of %d right\n", Right, Blocks);
  Right = 0;
  for (int T = 0; T < N / 32; ++T)
    Right += O.Tile32Sum[T] == Sum(T * 32, 32);
  printf("tile32 sums: %d of %d right\n", Right, N / 32);
  Right = 0;
  for (int T = 0; T < N / 16; ++T)
    Right += O.Tile16Sum[T] == Sum(T * 16, 16);
  printf("tile16 sums: %d of %d right\n", Right, N / 16);
  Right = 0;
  for (int I = 0; I < N; ++I)
    Right += O.Exchange[I] == In[I / 32 * 32 + (I % 32 + 1) % 32] * 3;
  printf("tile sync exchange: %d of %d right\n", Right, N);
  Right = 0;
  for (int I = 0; I < N; ++I) {
    // The odd-valued lanes of I's warp, and how many come before I.
    int Warp = I / 32 * 32, Count = 0, Rank = 0;
    for (int L = Warp; L < Warp + 32; ++L)
      if (In[L] & 1) {
        Rank += L < I;
        ++Count;
      }
    int Expect = In[I] & 1 ? Count * 1000 + Rank : -1;
    Right += O.Coalesced[I] == Expect;
  }
  printf("coalesced: %d of %d right\n", Right, N);
  Right = 0;
  for (int I = 0; I < N; ++I)
    Right += O.GridRank[I] == (unsigned long long)I &&
             O.GridSize[I] == (unsigned long long)N;
  printf("grid rank and size: %d of %d right\n", Right, N);
  return 0;
}
