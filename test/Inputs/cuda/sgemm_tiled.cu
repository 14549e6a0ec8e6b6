// Tiled single-precision GEMM: C = alpha * A * B + beta * C, row-major,
// 16x16 tiles in shared memory. M, N, K need not be multiples of 16.
#include <cuda_runtime.h>

#define TILE 16

// __launch_bounds__ gives .maxntid / .minnctapersm directives.
extern "C" __global__ void __launch_bounds__(TILE * TILE, 2)
sgemmTiled(int M, int N, int K, float alpha,
                                      const float *A, const float *B,
                                      float beta, float *C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int ak = t * TILE + tx;
    int bk = t * TILE + ty;
    As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
    Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc = fmaf(As[ty][k], Bs[k][tx], acc);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

// Naive reference version (no shared memory).
extern "C" __global__ void sgemmNaive(int M, int N, int K, float alpha,
                                      const float *A, const float *B,
                                      float beta, float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

// Register-blocked variant: each thread computes a 1x4 strip of C using
// float4 reads of B from shared memory (blockDim = 4 x 16).
extern "C" __global__ void sgemmTiled4(int M, int N, int K, const float *A,
                                       const float *B, float *C) {
  __shared__ float As[TILE][TILE];
  __shared__ __align__(16) float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y; // tx in [0,4)
  int row = blockIdx.y * TILE + ty;
  int col0 = blockIdx.x * TILE + tx * 4;
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int t = 0; t < K; t += TILE) {
    for (int j = 0; j < 4; ++j) {
      int c = tx * 4 + j;
      As[ty][c] = (row < M && t + c < K) ? A[row * K + t + c] : 0.0f;
      Bs[ty][c] = (t + ty < K && blockIdx.x * TILE + c < N)
                      ? B[(t + ty) * N + blockIdx.x * TILE + c]
                      : 0.0f;
    }
    __syncthreads();
    for (int k = 0; k < TILE; ++k) {
      float a = As[ty][k];
      float4 b = *reinterpret_cast<const float4 *>(&Bs[k][tx * 4]);
      acc.x += a * b.x;
      acc.y += a * b.y;
      acc.z += a * b.z;
      acc.w += a * b.w;
    }
    __syncthreads();
  }
  if (row < M) {
    if (col0 + 0 < N) C[row * N + col0 + 0] = acc.x;
    if (col0 + 1 < N) C[row * N + col0 + 1] = acc.y;
    if (col0 + 2 < N) C[row * N + col0 + 2] = acc.z;
    if (col0 + 3 < N) C[row * N + col0 + 3] = acc.w;
  }
}
