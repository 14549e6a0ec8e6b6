// Surface objects: surf2Dwrite then surf2Dread on a cudaArray (x in bytes),
// the clamp and zero boundary modes, and an out-of-range write in the
// default trap mode, which fails the launch with cudaErrorLaunchFailure
// while the host process goes on.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t 2>&1 | FileCheck %s
// CHECK: write/read: ok
// CHECK: uchar4 clamp and zero: ok
// CHECK: trap: cudaErrorLaunchFailure
// CHECK: still running
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

const int W = 13, H = 7;

// Each thread writes f(x, y), then every thread reads its neighbor's after a
// grid-wide wait (a second kernel).
__global__ void writeSurface(cudaSurfaceObject_t S) {
  int X = blockIdx.x * blockDim.x + threadIdx.x, Y = blockIdx.y;
  if (X < W)
    surf2Dwrite(X * 100 + Y * 7 - 50, S, X * (int)sizeof(int), Y);
}

__global__ void readSurface(cudaSurfaceObject_t S, int *Out) {
  int X = blockIdx.x * blockDim.x + threadIdx.x, Y = blockIdx.y;
  if (X < W) {
    int Neighbor = (X + 1) % W;
    int V;
    surf2Dread(&V, S, Neighbor * (int)sizeof(int), Y);
    Out[Y * W + X] = V;
  }
}

// Out-of-range reads clamp to the edge or read zero; writes in zero mode
// are dropped.
__global__ void boundaryModes(cudaSurfaceObject_t S, uchar4 *Out) {
  int I = threadIdx.x;
  Out[I] = surf2Dread<uchar4>(S, (I - 4) * 4, 1, cudaBoundaryModeClamp);
  Out[32 + I] = surf2Dread<uchar4>(S, (I - 4) * 4, 1, cudaBoundaryModeZero);
  surf2Dwrite(make_uchar4(9, 9, 9, 9), S, (I + 100) * 4, 0,
              cudaBoundaryModeZero);
}

__global__ void writePastEnd(cudaSurfaceObject_t S) {
  // Lanes 0..W-1 are in range; lane W's byte x is one texel past the row.
  if (threadIdx.x <= W)
    surf2Dwrite(1, S, threadIdx.x * (int)sizeof(int), 0);
}

static cudaSurfaceObject_t makeSurface(cudaArray_t A) {
  cudaResourceDesc Res;
  memset(&Res, 0, sizeof Res);
  Res.resType = cudaResourceTypeArray;
  Res.res.array.array = A;
  cudaSurfaceObject_t S = 0;
  CHECK_CUDA(cudaCreateSurfaceObject(&S, &Res));
  return S;
}

int main() {
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<int>();
  cudaArray_t Array;
  CHECK_CUDA(cudaMallocArray(&Array, &Desc, W, H, cudaArraySurfaceLoadStore));
  cudaSurfaceObject_t S = makeSurface(Array);
  int *DOut;
  CHECK_CUDA(cudaMalloc(&DOut, W * H * sizeof(int)));
  writeSurface<<<dim3(1, H), 16>>>(S);
  readSurface<<<dim3(1, H), 16>>>(S, DOut);
  int Out[H][W], Back[H][W];
  CHECK_CUDA(cudaMemcpy(Out, DOut, sizeof Out, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy2DFromArray(Back, W * sizeof(int), Array, 0, 0,
                                   W * sizeof(int), H,
                                   cudaMemcpyDeviceToHost));
  int Bad = 0;
  for (int Y = 0; Y != H; ++Y)
    for (int X = 0; X != W; ++X) {
      Bad += Back[Y][X] != X * 100 + Y * 7 - 50;
      Bad += Out[Y][X] != ((X + 1) % W) * 100 + Y * 7 - 50;
    }
  printf("write/read: %s\n", Bad ? "MISMATCH" : "ok");
  Failures += Bad != 0;

  // A 4-wide row of uchar4 texels, two rows.
  {
    const int CW = 4, CH = 2;
    uchar4 Texels[CH][CW];
    for (int Y = 0; Y != CH; ++Y)
      for (int X = 0; X != CW; ++X)
        Texels[Y][X] = make_uchar4(X, Y, X + Y, 200 + X);
    cudaChannelFormatDesc CD = cudaCreateChannelDesc<uchar4>();
    cudaArray_t A;
    CHECK_CUDA(cudaMallocArray(&A, &CD, CW, CH, cudaArraySurfaceLoadStore));
    CHECK_CUDA(cudaMemcpy2DToArray(A, 0, 0, Texels, sizeof Texels[0],
                                   sizeof Texels[0], CH,
                                   cudaMemcpyHostToDevice));
    cudaSurfaceObject_t CS = makeSurface(A);
    uchar4 *DC, C[64];
    CHECK_CUDA(cudaMalloc(&DC, sizeof C));
    boundaryModes<<<1, 32>>>(CS, DC);
    CHECK_CUDA(cudaMemcpy(C, DC, sizeof C, cudaMemcpyDeviceToHost));
    uchar4 After[CH][CW];
    CHECK_CUDA(cudaMemcpy2DFromArray(After, sizeof After[0], A, 0, 0,
                                     sizeof After[0], CH,
                                     cudaMemcpyDeviceToHost));
    int BadC = memcmp(After, Texels, sizeof Texels) != 0;
    for (int I = 0; I != 32; ++I) {
      int X = I - 4;
      int Clamped = X < 0 ? 0 : X >= CW ? CW - 1 : X;
      uchar4 WantClamp = Texels[1][Clamped];
      uchar4 WantZero =
          X < 0 || X >= CW ? make_uchar4(0, 0, 0, 0) : Texels[1][X];
      BadC += memcmp(&C[I], &WantClamp, 4) != 0;
      BadC += memcmp(&C[32 + I], &WantZero, 4) != 0;
    }
    printf("uchar4 clamp and zero: %s\n", BadC ? "MISMATCH" : "ok");
    Failures += BadC != 0;
    CHECK_CUDA(cudaDestroySurfaceObject(CS));
    CHECK_CUDA(cudaFreeArray(A));
    CHECK_CUDA(cudaFree(DC));
  }

  // Trap mode: the launch fails, the error is sticky, the process survives.
  writePastEnd<<<1, 32>>>(S);
  cudaError_t E = cudaDeviceSynchronize();
  printf("trap: %s\n", cudaGetErrorName(E));
  Failures += E != cudaErrorLaunchFailure;
  printf("still running\n");
  return Failures != 0;
}
