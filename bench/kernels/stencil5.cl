// OpenCL C twin of stencil5.cu, for the PoCL column of ptx-jit-bench. No
// contraction: the same additions, multiplication and fma as the CUDA
// kernel's __fadd_rn, __fmul_rn and __fmaf_rn.
#pragma OPENCL FP_CONTRACT OFF
kernel void stencil5(int W, int H, float c0, float c1, global const float *in,
                     global float *out) {
  int x = get_group_id(0) * get_local_size(0) + get_local_id(0);
  int y = get_group_id(1) * get_local_size(1) + get_local_id(1);
  if (x >= W || y >= H)
    return;
  int i = y * W + x;
  if (x == 0 || y == 0 || x == W - 1 || y == H - 1) {
    out[i] = in[i];
    return;
  }
  float ns = in[i - W] + in[i + W];
  float we = in[i - 1] + in[i + 1];
  out[i] = fma(c1, ns + we, c0 * in[i]);
}
