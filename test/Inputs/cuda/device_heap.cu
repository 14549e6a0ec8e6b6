// Device malloc and free (the CUDA device heap) within one launch.
#include <cstdint>

// Each thread whose index in the block is not 3 mod 4 takes n ints from
// the heap (a call under divergence) and fills them with g * 1000 + i, g
// its global index; the others take nothing. After a barrier each thread
// sums the block of the next thread of its block, through the pointer that
// thread left in shared memory (-1 if it has none), then frees its own
// block (free(NULL) for the threads without one).
__global__ void heapNeighbour(int *out, int n) {
  __shared__ int *blocks[1024];
  unsigned t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  int *p = nullptr;
  if (t % 4 != 3)
    p = (int *)malloc(n * sizeof(int));
  blocks[t] = p;
  if (p)
    for (int i = 0; i < n; ++i)
      p[i] = g * 1000 + i;
  __syncthreads();
  const int *q = blocks[(t + 1) % blockDim.x];
  int sum = -1;
  if (q) {
    sum = 0;
    for (int i = 0; i < n; ++i)
      sum += q[i];
  }
  out[g] = sum;
  __syncthreads();
  free(p);
}

// Each thread asks for size bytes and keeps the block: got[g] is 0 for
// NULL, 1 for a block aligned to 16 bytes (as CUDA guarantees), 2 for a
// misaligned one. A heap smaller than the requests runs out.
__global__ void heapTake(unsigned *got, unsigned size) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  void *p = malloc(size);
  got[g] = p == nullptr ? 0 : reinterpret_cast<uintptr_t>(p) % 16 == 0 ? 1 : 2;
}
