// Tiled matrix multiplication through shared memory for test/Barriers:
// C (M x N) = A (M x K) * B (K x N), row-major, any sizes (edge tiles are
// padded with zeros). Square tiles of TILE x TILE threads, each computing one
// element of C; and a variant where a TILE x ROWS block computes a TILE x
// TILE tile, TILE / ROWS elements per thread.
#include <cuda_runtime.h>

template <int TILE>
__device__ void matmulTiled(const float *A, const float *B, float *C, int M,
                            int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = row < M && k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = k0 + ty < K && col < N ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

template <int TILE, int ROWS>
__device__ void matmulTiledRows(const float *A, const float *B, float *C,
                                int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * TILE + tx;
  float acc[TILE / ROWS] = {};
  for (int k0 = 0; k0 < K; k0 += TILE) {
    for (int r = ty; r < TILE; r += ROWS) {
      int row = blockIdx.y * TILE + r;
      As[r][tx] = row < M && k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
      Bs[r][tx] = k0 + r < K && col < N ? B[(k0 + r) * N + col] : 0.0f;
    }
    __syncthreads();
    for (int i = 0; i < TILE / ROWS; ++i)
      for (int k = 0; k < TILE; ++k)
        acc[i] += As[ty + i * ROWS][k] * Bs[k][tx];
    __syncthreads();
  }
  for (int i = 0; i < TILE / ROWS; ++i) {
    int row = blockIdx.y * TILE + ty + i * ROWS;
    if (row < M && col < N)
      C[row * N + col] = acc[i];
  }
}

// A 1-D block of TILE * TILE threads that indexes the tile itself.
template <int TILE>
__device__ void matmulTiled1D(const float *A, const float *B, float *C, int M,
                              int N, int K) {
  __shared__ float As[TILE * TILE];
  __shared__ float Bs[TILE * TILE];
  int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty * TILE + tx] = row < M && k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty * TILE + tx] = k0 + ty < K && col < N ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty * TILE + k] * Bs[k * TILE + tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

extern "C" __global__ void matmul8(const float *A, const float *B, float *C,
                                   int M, int N, int K) {
  matmulTiled<8>(A, B, C, M, N, K);
}
extern "C" __global__ void matmul16(const float *A, const float *B, float *C,
                                    int M, int N, int K) {
  matmulTiled<16>(A, B, C, M, N, K);
}
extern "C" __global__ void matmul32(const float *A, const float *B, float *C,
                                    int M, int N, int K) {
  matmulTiled<32>(A, B, C, M, N, K);
}
extern "C" __global__ void matmul32x8(const float *A, const float *B, float *C,
                                      int M, int N, int K) {
  matmulTiledRows<32, 8>(A, B, C, M, N, K);
}
extern "C" __global__ void matmul1D16(const float *A, const float *B, float *C,
                                      int M, int N, int K) {
  matmulTiled1D<16>(A, B, C, M, N, K);
}
extern "C" __global__ void matmul1D4(const float *A, const float *B, float *C,
                                     int M, int N, int K) {
  matmulTiled1D<4>(A, B, C, M, N, K);
}
