// Benchmark kernel: C = A * B (row-major, A is MxK, B is KxN), one output
// element per thread, no shared memory. Each element is a chain of fused
// multiply-adds in increasing k starting from 0, the summation order the
// native version and the tiled kernels use too, so all agree bit for bit.
extern "C" __global__ void sgemm_naive(int M, int N, int K, const float *A,
                                       const float *B, float *C) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc = __fmaf_rn(A[row * K + k], B[k * N + col], acc);
    C[row * N + col] = acc;
  }
}
