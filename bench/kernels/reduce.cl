// OpenCL C twin of reduce.cu, for the PoCL column of ptx-jit-bench.
//
// OpenCL C 1.2 has no shuffles, so reduce_shfl's last five steps are the
// same local-memory tree as reduce_smem's: lane 0's shfl.sync.down chain
// adds element t to element t + offset for offset 16, 8, 4, 2, 1, which is
// exactly that tree, so both kernels and the CUDA ones agree bit for bit.
#define BLOCK 256

kernel void reduce_smem(global const float *in, global float *partial,
                        uint n) {
  local float s[BLOCK];
  uint t = get_local_id(0);
  uint i = get_group_id(0) * (2 * BLOCK) + t;
  float v = i < n ? in[i] : 0.0f;
  if (i + BLOCK < n)
    v = v + in[i + BLOCK];
  s[t] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] = s[t] + s[t + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0)
    partial[get_group_id(0)] = s[0];
}

kernel void reduce_shfl(global const float *in, global float *partial,
                        uint n) {
  local float s[BLOCK];
  uint t = get_local_id(0);
  uint i = get_group_id(0) * (2 * BLOCK) + t;
  float v = i < n ? in[i] : 0.0f;
  if (i + BLOCK < n)
    v = v + in[i + BLOCK];
  s[t] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] = s[t] + s[t + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0)
    partial[get_group_id(0)] = s[0];
}
