// Device printf with many argument types, assert() and __trap().
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

extern "C" __global__ void hello() {
  printf("hello from block %d thread %d\n", blockIdx.x, threadIdx.x);
}

extern "C" __global__ void printTypes(const float *f, const double *d,
                                      const long long *ll, const char *s) {
  int t = threadIdx.x;
  // float is promoted to double in varargs.
  printf("t=%d f=%f d=%.3e ll=%lld u=%u c=%c s=%s p=%p x=%08x\n", t, f[t],
         d[t], ll[t], (unsigned)t * 3u, 'A' + (t % 26), s, (void *)&f[t],
         0xbeefu + t);
}

// Printf only from some threads, inside a loop.
extern "C" __global__ void printSome(int n) {
  for (int i = 0; i < n; ++i)
    if ((threadIdx.x + i) % 7 == 0)
      printf("i=%d tid=%d\n", i, threadIdx.x);
  // No-argument printf.
  if (threadIdx.x == 0)
    printf("done\n");
}

extern "C" __global__ void checkPositive(const int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    assert(data[i] > 0 && "value must be positive");
}

extern "C" __global__ void trapIfNegative(const float *data, float *out,
                                          int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (data[i] < 0.0f)
    __trap();
  out[i] = sqrtf(data[i]);
}

// Breakpoint-like intrinsic and an unconditional assert failure path
// that is hard to prove dead.
extern "C" __global__ void assertIndex(const int *idx, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = idx[i];
  assert(j >= 0 && j < n);
  out[i] = j;
}
