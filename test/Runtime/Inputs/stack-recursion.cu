// The recursion of test/Runtime/stack-size.test. stack-recursion.ptx is
// this file compiled as utils/regen-ptx.sh's nvcc-sm80-O3 variant does:
//   nvcc -arch=sm_80 -O3 -lineinfo --ptx stack-recursion.cu
// Each level of depth() keeps a 1 KiB array per thread in .local memory
// (its frame: __local_depot of 1024 bytes), so a warp's frame is 32 KiB.
// depth(n, s) returns the sum over k = 0..n of s + k.

__device__ __noinline__ unsigned depth(unsigned n, unsigned seed) {
  volatile unsigned buf[256];
  buf[n % 256] = seed + n;
  if (n == 0)
    return buf[0];
  unsigned r = depth(n - 1, seed);
  return r + buf[n % 256];
}

extern "C" __global__ void recurse(unsigned *out, unsigned n) {
  out[threadIdx.x] = depth(n, threadIdx.x);
}
