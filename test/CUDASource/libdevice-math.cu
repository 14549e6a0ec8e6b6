// With a CUDA installation, math functions come from its libdevice, linked
// into the module in-process: the PTX calls no external __nv_ function.
// REQUIRES: cuda-installation
//
// RUN: ptx-jit ptx %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX: .target sm_80
// PTX-NOT: .extern .func {{.*}}__nv_
// PTX: .visible .entry identities(
//
// Each element checks an identity that holds for libdevice's accuracy
// (sin^2 + cos^2 = 1 within 1e-6, exp(log(x)) = x within 4 ulp-ish 1e-5
// relative, sqrt of a perfect square exact): 1 per element where it holds.
// RUN: ptx-jit run %s -k identities -g 1 -b 64 --arg 64 --arg 'f32[64]=iota' \
// RUN:   --arg 's32[64]>-' --arg 'f32[64]>-' | FileCheck %s
// CHECK: identities_param_2 = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
// sqrtf(i * i) = i exactly.
// CHECK: identities_param_3 = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]

extern "C" __global__ void identities(int N, const float *X, int *OK,
                                      float *Root) {
  int I = threadIdx.x;
  if (I >= N)
    return;
  float V = X[I] * 0.37f;
  float S = sinf(V), C = cosf(V);
  bool Pythagoras = fabsf(S * S + C * C - 1.0f) < 1e-6f;
  float W = X[I] + 0.5f;
  bool ExpLog = fabsf(expf(logf(W)) - W) <= 1e-5f * W;
  OK[I] = Pythagoras && ExpLog;
  Root[I] = sqrtf(X[I] * X[I]);
}
