// OpenCL C twin of sgemm_naive.cu, for the PoCL column of ptx-jit-bench:
// the same chain of fma over increasing k.
kernel void sgemm_naive(int M, int N, int K, global const float *A,
                        global const float *B, global float *C) {
  int col = get_group_id(0) * get_local_size(0) + get_local_id(0);
  int row = get_group_id(1) * get_local_size(1) + get_local_id(1);
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc = fma(A[row * K + k], B[k * N + col], acc);
    C[row * N + col] = acc;
  }
}
