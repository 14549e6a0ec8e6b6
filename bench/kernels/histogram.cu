// Benchmark kernel: a 256-bin histogram of bytes with shared-memory atomics.
// Each block counts its share of the input (a grid-stride loop) in a
// histogram of its own in shared memory, then adds it to the global one.
// Integer counts: any order of the additions gives the same result.
#define BINS 256

extern "C" __global__ void histogram_smem(const unsigned char *data,
                                          unsigned n, unsigned *hist) {
  __shared__ unsigned s[BINS];
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x)
    s[b] = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&s[data[i]], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x)
    atomicAdd(&hist[b], s[b]);
}
