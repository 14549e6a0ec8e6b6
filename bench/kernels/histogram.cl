// OpenCL C twin of histogram.cu, for the PoCL column of ptx-jit-bench.
#define BINS 256

kernel void histogram_smem(global const uchar *data, uint n,
                           global uint *hist) {
  local uint s[BINS];
  for (uint b = get_local_id(0); b < BINS; b += get_local_size(0))
    s[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_group_id(0) * get_local_size(0) + get_local_id(0); i < n;
       i += get_num_groups(0) * get_local_size(0))
    atomic_add(&s[data[i]], 1u);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = get_local_id(0); b < BINS; b += get_local_size(0))
    atomic_add(&hist[b], s[b]);
}
