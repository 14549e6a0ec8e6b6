// Thread block clusters (sm_90): __cluster_dims__, cg::this_cluster(),
// distributed shared memory through map_shared_rank, and cluster.sync().
// Below sm_90 the kernels compile to nothing (clusters need sm_90); the
// corpus still has every variant.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define CLUSTER_DIMS(X, Y, Z) __cluster_dims__(X, Y, Z)
#else
#define CLUSTER_DIMS(X, Y, Z)
#endif

// Each CTA of a cluster of 2 writes its rank into shared memory; after the
// cluster barrier every thread reads the other CTA's value.
extern "C" __global__ void CLUSTER_DIMS(2, 1, 1) clusterExchange(int *out) {
#if __CUDA_ARCH__ >= 900
  cg::cluster_group cluster = cg::this_cluster();
  __shared__ int mine[64];
  unsigned rank = cluster.block_rank();
  mine[threadIdx.x] = int(1000 * rank + threadIdx.x);
  cluster.sync();
  int *theirs = cluster.map_shared_rank(mine, (rank + 1) % cluster.num_blocks());
  out[blockIdx.x * blockDim.x + threadIdx.x] = theirs[threadIdx.x];
  cluster.sync();
#endif
}

// A histogram spread over the shared memory of a cluster of 4: bin b lives
// in the CTA of rank b % 4, and every thread adds to it there atomically.
extern "C" __global__ void CLUSTER_DIMS(4, 1, 1)
    clusterHistogram(const int *in, int n, int *bins) {
#if __CUDA_ARCH__ >= 900
  cg::cluster_group cluster = cg::this_cluster();
  __shared__ int local[16];
  for (unsigned i = threadIdx.x; i < 16; i += blockDim.x)
    local[i] = 0;
  cluster.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    int b = in[i] & 63;
    int *bin = cluster.map_shared_rank(&local[b / 4], b % 4);
    atomicAdd(bin, 1);
  }
  cluster.sync();
  for (unsigned i = threadIdx.x; i < 16; i += blockDim.x)
    atomicAdd(&bins[4 * i + cluster.block_rank()], local[i]);
#endif
}
