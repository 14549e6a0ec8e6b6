// OpenCL C twin of vector_add.cu, for the PoCL column of ptx-jit-bench.
kernel void vector_add(global const float *a, global const float *b,
                       global float *c, int n) {
  int i = get_group_id(0) * get_local_size(0) + get_local_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}
