// The texture and surface instructions CUDA C++ has no intrinsic for, in
// inline PTX: sured (atomic add and signed min from many threads at once),
// sust.p (formatted: .b32 data saturated to 8-bit unsigned channels, x in
// texels), istypep, txq.num_mipmap_levels and txq.level.
// Expected values by hand from the PTX ISA and the conversion rules in
// docs/Textures.md.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t 2>&1 | FileCheck %s
// CHECK: sured add: ok
// CHECK: sured min: ok
// CHECK: sust.p: ok
// CHECK: istypep: ok
// CHECK: txq levels: ok
// CHECK: failures: 0
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

static int Failures = 0;
#define CHECK_CUDA(X)                                                          \
  do {                                                                         \
    cudaError_t E = (X);                                                       \
    if (E != cudaSuccess) {                                                    \
      printf("%s: %s\n", #X, cudaGetErrorName(E));                             \
      ++Failures;                                                              \
    }                                                                          \
  } while (0)

static void report(const char *What, int Bad) {
  printf("%s: %s\n", What, Bad ? "MISMATCH" : "ok");
  Failures += Bad != 0;
}

// 256 threads add their index + 1 to texel (i % 4, 0) and take the signed
// min of (100 - i) into texel (i % 4, 1).
__global__ void reduce(cudaSurfaceObject_t S) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  int X = (I % 4) * 4;
  asm volatile("sured.b.add.2d.u32.trap [%0, {%1, %2}], %3;" ::"l"(S), "r"(X),
               "r"(0), "r"(I + 1)
               : "memory");
  asm volatile("sured.b.min.2d.s32.trap [%0, {%1, %2}], %3;" ::"l"(S), "r"(X),
               "r"(1), "r"(100 - I)
               : "memory");
}

__global__ void formatted(cudaSurfaceObject_t S) {
  // Texel (1, 0) in texels, not bytes.
  asm volatile("sust.p.2d.v4.b32.trap [%0, {%1, %2}], {%3, %4, %5, %6};" ::"l"(
                   S),
               "r"(1), "r"(0), "r"(300), "r"(7), "r"(-1), "r"(64)
               : "memory");
}

__global__ void queries(cudaTextureObject_t T, cudaSurfaceObject_t S,
                        unsigned *Out) {
  unsigned R;
  asm("{ .reg .pred p; istypep.texref p, %1; selp.u32 %0, 1, 0, p; }"
      : "=r"(R)
      : "l"(T));
  Out[0] = R;
  asm("{ .reg .pred p; istypep.texref p, %1; selp.u32 %0, 1, 0, p; }"
      : "=r"(R)
      : "l"(S));
  Out[1] = R;
  asm("{ .reg .pred p; istypep.surfref p, %1; selp.u32 %0, 1, 0, p; }"
      : "=r"(R)
      : "l"(S));
  Out[2] = R;
  asm("{ .reg .pred p; istypep.texref p, %1; selp.u32 %0, 1, 0, p; }"
      : "=r"(R)
      : "l"(0x12345ull));
  Out[3] = R;
  asm("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(R) : "l"(T));
  Out[4] = R;
  asm("txq.level.width.b32 %0, [%1], %2;" : "=r"(R) : "l"(T), "r"(2));
  Out[5] = R;
  asm("txq.level.height.b32 %0, [%1], %2;" : "=r"(R) : "l"(T), "r"(3));
  Out[6] = R;
}

int main() {
  cudaChannelFormatDesc Int = cudaCreateChannelDesc<int>();
  cudaArray_t A;
  CHECK_CUDA(cudaMallocArray(&A, &Int, 4, 2, cudaArraySurfaceLoadStore));
  int Init[8] = {0, 0, 0, 0, 7, 7, 7, 7};
  CHECK_CUDA(cudaMemcpy2DToArray(A, 0, 0, Init, 16, 16, 2,
                                 cudaMemcpyHostToDevice));
  cudaResourceDesc Res;
  memset(&Res, 0, sizeof Res);
  Res.resType = cudaResourceTypeArray;
  Res.res.array.array = A;
  cudaSurfaceObject_t S;
  CHECK_CUDA(cudaCreateSurfaceObject(&S, &Res));
  reduce<<<2, 128>>>(S);
  CHECK_CUDA(cudaDeviceSynchronize());
  int Out[8];
  CHECK_CUDA(cudaMemcpy2DFromArray(Out, 16, A, 0, 0, 16, 2,
                                   cudaMemcpyDeviceToHost));
  // Texel x gets the sum of i + 1 over i = x, x + 4, ..., x + 252:
  // 64 * (x + 1) + 4 * (0 + 1 + ... + 63) = 64x + 64 + 8064. The min is
  // 100 - 255 for x = 3, 100 - (252 + x) in general; 7 stays above it.
  int Bad = 0;
  for (int X = 0; X != 4; ++X)
    Bad += Out[X] != 64 * X + 64 + 8064;
  report("sured add", Bad);
  Bad = 0;
  for (int X = 0; X != 4; ++X)
    Bad += Out[4 + X] != 100 - (252 + X);
  report("sured min", Bad);

  cudaChannelFormatDesc U8x4 = cudaCreateChannelDesc<uchar4>();
  cudaArray_t B;
  CHECK_CUDA(cudaMallocArray(&B, &U8x4, 2, 1, cudaArraySurfaceLoadStore));
  Res.res.array.array = B;
  cudaSurfaceObject_t SB;
  CHECK_CUDA(cudaCreateSurfaceObject(&SB, &Res));
  unsigned char Zero[8] = {9, 9, 9, 9, 9, 9, 9, 9};
  CHECK_CUDA(cudaMemcpy2DToArray(B, 0, 0, Zero, 8, 8, 1,
                                 cudaMemcpyHostToDevice));
  formatted<<<1, 1>>>(SB);
  CHECK_CUDA(cudaDeviceSynchronize());
  unsigned char Bytes[8];
  CHECK_CUDA(cudaMemcpy2DFromArray(Bytes, 8, B, 0, 0, 8, 1,
                                   cudaMemcpyDeviceToHost));
  // Texel 0 untouched; texel 1: the .b32 data of an unsigned 8-bit format
  // is .u32, saturated: 300 and 0xffffffff become 255.
  const unsigned char Want[8] = {9, 9, 9, 9, 255, 7, 255, 64};
  report("sust.p", memcmp(Bytes, Want, 8) != 0);

  cudaMipmappedArray_t M;
  cudaChannelFormatDesc F = cudaCreateChannelDesc<float>();
  CHECK_CUDA(cudaMallocMipmappedArray(&M, &F, make_cudaExtent(16, 8, 0), 0, 0));
  Res.resType = cudaResourceTypeMipmappedArray;
  Res.res.mipmap.mipmap = M;
  cudaTextureDesc TD;
  memset(&TD, 0, sizeof TD);
  TD.normalizedCoords = 1;
  cudaTextureObject_t T;
  CHECK_CUDA(cudaCreateTextureObject(&T, &Res, &TD, nullptr));
  unsigned *DQ, Q[7];
  CHECK_CUDA(cudaMalloc(&DQ, sizeof Q));
  queries<<<1, 1>>>(T, S, DQ);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(Q, DQ, sizeof Q, cudaMemcpyDeviceToHost));
  report("istypep", Q[0] != 1 || Q[1] != 0 || Q[2] != 1 || Q[3] != 0);
  // 16 x 8 has levels 16x8, 8x4, 4x2, 2x1, 1x1: 5 levels; level 2 is 4
  // wide, level 3 one high.
  report("txq levels", Q[4] != 5 || Q[5] != 4 || Q[6] != 1);
  printf("failures: %d\n", Failures);
  return Failures != 0;
}
