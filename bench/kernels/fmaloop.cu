// Whole-process benchmark kernel (utils/bench-process.sh): each thread
// runs a chain of 64 fused multiply-adds from its own index and stores the
// result. bench/process/fmaloop.cpp is the native scalar program that does
// the same; __fmaf_rn and std::fma round alike, so both print the same
// values.
extern "C" __global__ void fmaloop(float *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = i * 0x1p-24f;
  for (int k = 0; k < 64; ++k)
    v = __fmaf_rn(v, 0.9990234375f, 0.25f);
  out[i] = v;
}
