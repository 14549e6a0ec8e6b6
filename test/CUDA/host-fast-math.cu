// A host program that sets flush-to-zero and denormals-are-zero on its
// thread (as -ffast-math's start-up code does) must not change what its
// kernels compute: mul.f32 without .ftz keeps denormals. Every thread of 64
// CTAs (run by all worker threads) halves one of two inputs:
//   2^-126 (0x00800000) / 2 = 2^-127, the denormal 0x00400000;
//   the denormal 0x000ae398 / 2 = 0x000571cc (its significand is even, so
//   halving is exact).
// Flushed, both would read 0. The host's own state is left as it set it.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: 00400000 000571cc
// CHECK-NEXT: wrong: 0
// CHECK-NEXT: host still flushes: 1
#include <cstdio>
#include <cstring>
#include <xmmintrin.h>

__global__ void half(const float *in, float *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i % 2] * 0.5f;
}

int main() {
  const unsigned FTZ = 0x8000, DAZ = 0x0040;
  _mm_setcsr(_mm_getcsr() | FTZ | DAZ);
  const unsigned inBits[2] = {0x00800000u, 0x000ae398u};
  const unsigned N = 64 * 64;
  float *in, *out;
  cudaMalloc(&in, sizeof inBits);
  cudaMalloc(&out, N * sizeof(float));
  cudaMemcpy(in, inBits, sizeof inBits, cudaMemcpyHostToDevice);
  half<<<64, 64>>>(in, out);
  static unsigned res[N];
  cudaMemcpy(res, out, sizeof res, cudaMemcpyDeviceToHost);
  printf("%08x %08x\n", res[0], res[1]);
  unsigned wrong = 0;
  for (unsigned i = 0; i < N; ++i)
    wrong += res[i] != res[i % 2];
  printf("wrong: %u\n", wrong);
  volatile float tiny = 1e-39f, one = 1.0f;
  printf("host still flushes: %d\n", tiny * one == 0.0f);
  return 0;
}
