// Benchmark kernels: C = A * B (row-major, A is MxK, B is KxN) with
// TILE x TILE tiles of A and B staged in shared memory; the block is
// TILE x TILE threads and needs two CTA barriers per tile.
//
// The products are summed in increasing k from 0, as in sgemm_naive, so the
// result is bit-identical to it (M, N, K are multiples of TILE here; padding
// with zeros would only add +0).
template <int TILE>
__device__ __forceinline__ void sgemmTiled(int M, int N, int K, const float *A,
                                           const float *B, float *C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc = __fmaf_rn(As[ty][k], Bs[k][tx], acc);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

extern "C" __global__ void sgemm_tiled16(int M, int N, int K, const float *A,
                                         const float *B, float *C) {
  sgemmTiled<16>(M, N, K, A, B, C);
}

extern "C" __global__ void sgemm_tiled32(int M, int N, int K, const float *A,
                                         const float *B, float *C) {
  sgemmTiled<32>(M, N, K, A, B, C);
}
