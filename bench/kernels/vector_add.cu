// Benchmark kernel: c = a + b over n floats, one element per thread.
// Memory-bound: 8 bytes read and 4 written per add.
extern "C" __global__ void vector_add(const float *a, const float *b, float *c,
                                      int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
