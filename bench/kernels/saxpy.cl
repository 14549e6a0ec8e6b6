// OpenCL C twin of saxpy.cu, for the PoCL column of ptx-jit-bench.
kernel void saxpy(int n, float a, global const float *x, global float *y) {
  int i = get_group_id(0) * get_local_size(0) + get_local_id(0);
  if (i < n)
    y[i] = fma(a, x[i], y[i]);
}
