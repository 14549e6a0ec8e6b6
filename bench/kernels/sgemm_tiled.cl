// OpenCL C twin of sgemm_tiled.cu, for the PoCL column of ptx-jit-bench:
// TILE x TILE tiles in local memory, two barriers per tile, the same chain
// of fma over increasing k.
#define SGEMM_TILED(NAME, TILE)                                                \
  kernel void NAME(int M, int N, int K, global const float *A,                 \
                   global const float *B, global float *C) {                   \
    local float As[TILE][TILE];                                                \
    local float Bs[TILE][TILE];                                                \
    int tx = get_local_id(0), ty = get_local_id(1);                            \
    int row = get_group_id(1) * TILE + ty;                                     \
    int col = get_group_id(0) * TILE + tx;                                     \
    float acc = 0.0f;                                                          \
    for (int t = 0; t < K; t += TILE) {                                        \
      As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;       \
      Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;     \
      barrier(CLK_LOCAL_MEM_FENCE);                                            \
      for (int k = 0; k < TILE; ++k)                                           \
        acc = fma(As[ty][k], Bs[k][tx], acc);                                  \
      barrier(CLK_LOCAL_MEM_FENCE);                                            \
    }                                                                          \
    if (row < M && col < N)                                                    \
      C[row * N + col] = acc;                                                  \
  }

SGEMM_TILED(sgemm_tiled16, 16)
SGEMM_TILED(sgemm_tiled32, 32)
