// Benchmark kernel: one Jacobi step of a 5-point stencil on a W x H grid
// (row-major), 2D blocks. Border cells are copied. The arithmetic is
// spelled with explicit-rounding intrinsics so that nvcc cannot contract or
// reorder it, and the native version computes exactly the same operations.
extern "C" __global__ void stencil5(int W, int H, float c0, float c1,
                                    const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H)
    return;
  int i = y * W + x;
  if (x == 0 || y == 0 || x == W - 1 || y == H - 1) {
    out[i] = in[i];
    return;
  }
  float ns = __fadd_rn(in[i - W], in[i + W]);
  float we = __fadd_rn(in[i - 1], in[i + 1]);
  out[i] = __fmaf_rn(c1, __fadd_rn(ns, we), __fmul_rn(c0, in[i]));
}
