// Long chains of per-lane memory operations: volatile loads and stores and
// atomics returning their old value, each executed lane by lane. A kernel
// with many of them once overflowed its fiber's stack (each lane loop's
// variable-index vector access took a fresh stack slot). The barriers make
// the warps run as fibers, on stacks of their own.
__global__ void volatileChain(volatile int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __syncthreads();
  if (i < n)
#pragma unroll
    for (int j = 0; j < 64; ++j)
      a[i] = a[i] + i;
}

__global__ void atomicChain(int *counter, int *olds, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __syncthreads();
  if (i >= n)
    return;
  int sum = 0;
  __syncwarp();
#pragma unroll
  for (int j = 0; j < 48; ++j)
    sum += atomicAdd(counter + (i % 4), 1) & 1;
  olds[i] = sum;
}
