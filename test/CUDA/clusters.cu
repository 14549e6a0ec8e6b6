// Thread block clusters: __cluster_dims__ kernels launched with <<<...>>>,
// cluster shapes given by cudaLaunchKernelEx's cluster attribute,
// cg::this_cluster() with distributed shared memory (map_shared_rank) and
// cluster.sync(), and the launches a GPU refuses. The kernels need sm_90:
// the program carries sm_90 PTX (which ptx-jit runs) and, for its sm_80
// image, empty kernels.
// REQUIRES: nvcc
// RUN: %nvcc -gencode arch=compute_90,code=compute_90 %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: cluster launch attribute: 1
// CHECK-NEXT: required cluster width: 2 and 0
// CHECK-NEXT: exchange: 512 of 512 right
// CHECK-NEXT: clusters of 4 fit: yes
// CHECK-NEXT: attribute ranks: 256 of 256 right
// CHECK-NEXT: histogram: 64 of 64 right
// CHECK-NEXT: grid not a multiple: cudaErrorInvalidClusterSize
// CHECK-NEXT: last error: cudaErrorInvalidClusterSize
// CHECK-NEXT: errors: cudaSuccess
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define CLUSTER_DIMS(X, Y, Z) __cluster_dims__(X, Y, Z)
#define HAS_CLUSTERS 1
#else
#define CLUSTER_DIMS(X, Y, Z)
#define HAS_CLUSTERS 0
#endif

// Each CTA writes 1000 rank + tid to its shared memory; after the cluster
// barrier each thread reads the next rank's value at tid + 1.
__global__ void CLUSTER_DIMS(2, 1, 1) exchange(int *Out) {
#if HAS_CLUSTERS
  cg::cluster_group Cluster = cg::this_cluster();
  __shared__ int Mine[128];
  unsigned Rank = Cluster.block_rank();
  Mine[threadIdx.x] = int(1000 * Rank + threadIdx.x);
  Cluster.sync();
  int *Theirs =
      Cluster.map_shared_rank(Mine, (Rank + 1) % Cluster.num_blocks());
  Out[blockIdx.x * blockDim.x + threadIdx.x] =
      Theirs[(threadIdx.x + 1) % blockDim.x];
  Cluster.sync();
#endif
}

// No __cluster_dims__: the launch gives the shape. Each thread writes its
// rank, the cluster's size and its cluster index.
__global__ void ranks(int *Out) {
#if HAS_CLUSTERS
  cg::cluster_group Cluster = cg::this_cluster();
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Out[3 * I] = Cluster.block_rank();
  Out[3 * I + 1] = Cluster.num_blocks();
  Out[3 * I + 2] = blockIdx.x / Cluster.dim_blocks().x;
#endif
}

// Bin B of a 64-bin histogram lives in the CTA of rank B % 4 of each
// cluster; every thread adds to it there.
__global__ void CLUSTER_DIMS(4, 1, 1)
    histogram(const int *In, int N, int *Bins) {
#if HAS_CLUSTERS
  cg::cluster_group Cluster = cg::this_cluster();
  __shared__ int Local[16];
  for (unsigned I = threadIdx.x; I < 16; I += blockDim.x)
    Local[I] = 0;
  Cluster.sync();
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += gridDim.x * blockDim.x) {
    int B = In[I] & 63;
    atomicAdd(Cluster.map_shared_rank(&Local[B / 4], B % 4), 1);
  }
  Cluster.sync();
  for (unsigned I = threadIdx.x; I < 16; I += blockDim.x)
    atomicAdd(&Bins[4 * I + Cluster.block_rank()], Local[I]);
#endif
}

template <typename T> std::vector<T> host(const T *D, size_t N) {
  std::vector<T> H(N);
  cudaMemcpy(H.data(), D, N * sizeof(T), cudaMemcpyDeviceToHost);
  return H;
}

int main() {
  int Attr = 0;
  cudaDeviceGetAttribute(&Attr, cudaDevAttrClusterLaunch, 0);
  printf("cluster launch attribute: %d\n", Attr);
  cudaFuncAttributes FA, FB;
  cudaFuncGetAttributes(&FA, exchange);
  cudaFuncGetAttributes(&FB, ranks);
  printf("required cluster width: %d and %d\n", FA.requiredClusterWidth,
         FB.requiredClusterWidth);

  int *DOut;
  cudaMalloc(&DOut, 4096 * sizeof(int));
  exchange<<<4, 128>>>(DOut);
  std::vector<int> Out = host(DOut, 512);
  int Right = 0;
  for (int I = 0; I < 512; ++I) {
    int Block = I / 128, T = I % 128, Other = (Block % 2 + 1) % 2;
    Right += Out[I] == 1000 * Other + (T + 1) % 128;
  }
  printf("exchange: %d of 512 right\n", Right);

  cudaLaunchConfig_t Config = {};
  cudaLaunchAttribute Attrs[1];
  Attrs[0].id = cudaLaunchAttributeClusterDimension;
  Attrs[0].val.clusterDim.x = 4;
  Attrs[0].val.clusterDim.y = 1;
  Attrs[0].val.clusterDim.z = 1;
  Config.gridDim = dim3(8);
  Config.blockDim = dim3(32);
  Config.attrs = Attrs;
  Config.numAttrs = 1;
  int Clusters = 0;
  cudaOccupancyMaxActiveClusters(&Clusters, ranks, &Config);
  printf("clusters of 4 fit: %s\n", Clusters > 0 ? "yes" : "no");
  cudaLaunchKernelEx(&Config, ranks, DOut);
  Out = host(DOut, 3 * 256);
  Right = 0;
  for (int I = 0; I < 256; ++I) {
    int Block = I / 32;
    Right += Out[3 * I] == Block % 4 && Out[3 * I + 1] == 4 &&
             Out[3 * I + 2] == Block / 4;
  }
  printf("attribute ranks: %d of 256 right\n", Right);

  const int N = 10000;
  std::vector<int> In(N), Expected(64);
  for (int I = 0; I < N; ++I) {
    In[I] = (I * 2654435761u) >> 7;
    ++Expected[In[I] & 63];
  }
  int *DIn, *DBins;
  cudaMalloc(&DIn, N * sizeof(int));
  cudaMalloc(&DBins, 64 * sizeof(int));
  cudaMemcpy(DIn, In.data(), N * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(DBins, 0, 64 * sizeof(int));
  histogram<<<8, 96>>>(DIn, N, DBins);
  std::vector<int> Bins = host(DBins, 64);
  Right = 0;
  for (int B = 0; B < 64; ++B)
    Right += Bins[B] == Expected[B];
  printf("histogram: %d of 64 right\n", Right);

  // A grid of 6 CTAs cannot be cut into clusters of 4.
  Config.gridDim = dim3(6);
  cudaError_t E = cudaLaunchKernelEx(&Config, ranks, DOut);
  printf("grid not a multiple: %s\n", cudaGetErrorName(E));
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  printf("errors: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
