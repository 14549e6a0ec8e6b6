// grid.sync() in cooperative launches: every CTA writes a partial sum, the
// grid syncs, CTA 0 adds the partials; several rounds in a loop, each
// checked against a host sum. The grid is as large as the occupancy API
// says can be co-resident, launched with cudaLaunchCooperativeKernel and
// again with cudaLaunchKernelEx and the cooperative attribute.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: cooperativeLaunch attribute: 1
// CHECK: cudaLaunchCooperativeKernel: cudaSuccess, 4 rounds match
// CHECK-NEXT: cudaLaunchKernelEx cooperative: cudaSuccess, 4 rounds match
// CHECK-NEXT: cluster 2x1x1 attribute: cudaErrorNotSupported
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

constexpr int Rounds = 4;
constexpr int Threads = 128;

// Round R sums In[i] * (R + 1) over all i; Totals[R] gets the sum.
__global__ void gridSum(const int *In, int N, long long *Partials,
                        long long *Totals) {
  cg::grid_group Grid = cg::this_grid();
  __shared__ long long Block[Threads];
  for (int R = 0; R < Rounds; ++R) {
    long long Sum = 0;
    for (unsigned long long I = Grid.thread_rank(); I < (unsigned long long)N;
         I += Grid.size())
      Sum += (long long)In[I] * (R + 1);
    Block[threadIdx.x] = Sum;
    __syncthreads();
    for (int S = Threads / 2; S > 0; S /= 2) {
      if (threadIdx.x < S)
        Block[threadIdx.x] += Block[threadIdx.x + S];
      __syncthreads();
    }
    if (threadIdx.x == 0)
      Partials[blockIdx.x] = Block[0];
    Grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      long long T = 0;
      for (unsigned B = 0; B < gridDim.x; ++B)
        T += Partials[B];
      Totals[R] = T;
    }
    // The partials are reused next round: CTA 0 must have read them.
    Grid.sync();
  }
}

static int check(const long long *Totals, const std::vector<int> &In) {
  int Matches = 0;
  for (int R = 0; R < Rounds; ++R) {
    long long Expect = 0;
    for (int V : In)
      Expect += (long long)V * (R + 1);
    if (Totals[R] == Expect)
      ++Matches;
    else
      printf("round %d: %lld, expected %lld\n", R, Totals[R], Expect);
  }
  return Matches;
}

int main() {
  int Coop = 0, SMs = 0, PerSM = 0;
  cudaDeviceGetAttribute(&Coop, cudaDevAttrCooperativeLaunch, 0);
  cudaDeviceGetAttribute(&SMs, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSM, gridSum, Threads, 0);
  printf("cooperativeLaunch attribute: %d\n", Coop);
  int Blocks = SMs * PerSM;
  if (Blocks < 1 || PerSM > 32)
    return printf("bad occupancy: %d x %d\n", SMs, PerSM), 1;

  int N = 100003;
  std::vector<int> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = (I * 7919) % 1000 - 500;
  int *DIn;
  long long *DPartials, *DTotals;
  cudaMalloc(&DIn, N * sizeof(int));
  cudaMalloc(&DPartials, Blocks * sizeof(long long));
  cudaMalloc(&DTotals, Rounds * sizeof(long long));
  cudaMemcpy(DIn, In.data(), N * sizeof(int), cudaMemcpyHostToDevice);

  long long Totals[Rounds];
  void *Args[] = {&DIn, &N, &DPartials, &DTotals};
  cudaMemset(DTotals, 0, sizeof Totals);
  cudaError_t E =
      cudaLaunchCooperativeKernel((void *)gridSum, Blocks, Threads, Args, 0, 0);
  cudaError_t S = cudaDeviceSynchronize();
  cudaMemcpy(Totals, DTotals, sizeof Totals, cudaMemcpyDeviceToHost);
  printf("cudaLaunchCooperativeKernel: %s, %d rounds match\n",
         cudaGetErrorName(E != cudaSuccess ? E : S), check(Totals, In));

  cudaMemset(DTotals, 0, sizeof Totals);
  cudaLaunchConfig_t Config = {};
  Config.gridDim = dim3(Blocks);
  Config.blockDim = dim3(Threads);
  cudaLaunchAttribute Attrs[2];
  Attrs[0].id = cudaLaunchAttributeCooperative;
  Attrs[0].val.cooperative = 1;
  Attrs[1].id = cudaLaunchAttributePriority;
  Attrs[1].val.priority = 0;
  Config.attrs = Attrs;
  Config.numAttrs = 2;
  E = cudaLaunchKernelEx(&Config, gridSum, (const int *)DIn, N, DPartials,
                         DTotals);
  S = cudaDeviceSynchronize();
  cudaMemcpy(Totals, DTotals, sizeof Totals, cudaMemcpyDeviceToHost);
  printf("cudaLaunchKernelEx cooperative: %s, %d rounds match\n",
         cudaGetErrorName(E != cudaSuccess ? E : S), check(Totals, In));

  Attrs[1].id = cudaLaunchAttributeClusterDimension;
  Attrs[1].val.clusterDim.x = 2;
  Attrs[1].val.clusterDim.y = 1;
  Attrs[1].val.clusterDim.z = 1;
  E = cudaLaunchKernelEx(&Config, gridSum, (const int *)DIn, N, DPartials,
                         DTotals);
  printf("cluster 2x1x1 attribute: %s\n", cudaGetErrorName(E));
  cudaGetLastError();
  return 0;
}
