// The runtime library's asynchronous array copies and its 2D/3D sets:
// cudaMemcpy2DToArrayAsync, cudaMemcpy2DArrayToArray,
// cudaMemcpy2DFromArrayAsync, cudaMemcpy3DAsync, cudaMemset2D(Async) and
// cudaMemset3D, on a stream of their own, with offsets. Expected values by
// hand:
//   A 6 x 3 float array gets v(x, y) = 10y + x from a host buffer with
//   8-float rows; the 3 x 2 block at (2, 1) goes to (0, 0) of a second
//   array, and comes back: 12 13 14 / 22 23 24.
//   A 4 x 2 x 2 int 3D array gets 100z + 10y + x and comes back whole.
//   cudaMemset2D 0x11 over 5 bytes of 3 rows of a pitched allocation,
//   then cudaMemset2DAsync 0x22 over 2 bytes of row 1 from byte 1: rows
//   11 11 11 11 11 00 / 11 22 22 11 11 00 / 11 11 11 11 11 00 (byte 5
//   untouched, 00).
//   cudaMemset3D 0x7f over 3 bytes of 2 rows of 2 slices of a
//   cudaMalloc3D allocation: 3 bytes of each row 7f, the 4th 00.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// clang-format off
// CHECK: array to array: 12 13 14 22 23 24
// CHECK-NEXT: 3d: 16 mismatches 0, last 113
// CHECK-NEXT: memset2d: 11 11 11 11 11 00 / 11 22 22 11 11 00 / 11 11 11 11 11 00
// CHECK-NEXT: memset3d: 7f7f7f00 7f7f7f00 7f7f7f00 7f7f7f00
// CHECK-NEXT: past the end: cudaErrorInvalidValue
// clang-format on
#include <cstdio>
#include <cstring>

#define CHECK(X)                                                               \
  if (cudaError_t E = (X)) {                                                   \
    printf("%s failed: %s\n", #X, cudaGetErrorName(E));                        \
    return 1;                                                                  \
  }

int main() {
  cudaStream_t S;
  CHECK(cudaStreamCreate(&S));
  cudaChannelFormatDesc F = cudaCreateChannelDesc<float>();
  cudaArray_t A, B;
  CHECK(cudaMallocArray(&A, &F, 6, 3));
  CHECK(cudaMallocArray(&B, &F, 3, 2));
  float Host[3][8] = {};
  for (int Y = 0; Y < 3; ++Y)
    for (int X = 0; X < 6; ++X)
      Host[Y][X] = 10 * Y + X;
  CHECK(cudaMemcpy2DToArrayAsync(A, 0, 0, Host, sizeof Host[0],
                                 6 * sizeof(float), 3, cudaMemcpyHostToDevice,
                                 S));
  CHECK(cudaStreamSynchronize(S));
  CHECK(cudaMemcpy2DArrayToArray(B, 0, 0, A, 2 * sizeof(float), 1,
                                 3 * sizeof(float), 2));
  float Back[2][3];
  CHECK(cudaMemcpy2DFromArrayAsync(Back, sizeof Back[0], B, 0, 0,
                                   3 * sizeof(float), 2, cudaMemcpyDeviceToHost,
                                   S));
  CHECK(cudaStreamSynchronize(S));
  printf("array to array: %g %g %g %g %g %g\n", Back[0][0], Back[0][1],
         Back[0][2], Back[1][0], Back[1][1], Back[1][2]);

  cudaChannelFormatDesc I = cudaCreateChannelDesc<int>();
  cudaArray_t V;
  CHECK(cudaMalloc3DArray(&V, &I, make_cudaExtent(4, 2, 2)));
  int In[2][2][4], Out[2][2][4] = {};
  for (int Z = 0; Z < 2; ++Z)
    for (int Y = 0; Y < 2; ++Y)
      for (int X = 0; X < 4; ++X)
        In[Z][Y][X] = 100 * Z + 10 * Y + X;
  cudaMemcpy3DParms Up = {};
  Up.srcPtr = make_cudaPitchedPtr(In, 4 * sizeof(int), 4, 2);
  Up.dstArray = V;
  Up.extent = make_cudaExtent(4, 2, 2);
  Up.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3DAsync(&Up, S));
  cudaMemcpy3DParms Down = {};
  Down.srcArray = V;
  Down.dstPtr = make_cudaPitchedPtr(Out, 4 * sizeof(int), 4, 2);
  Down.extent = make_cudaExtent(4, 2, 2);
  Down.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3DAsync(&Down, S));
  CHECK(cudaStreamSynchronize(S));
  int Mismatches = 0;
  for (int Z = 0; Z < 2; ++Z)
    for (int Y = 0; Y < 2; ++Y)
      for (int X = 0; X < 4; ++X)
        Mismatches += Out[Z][Y][X] != 100 * Z + 10 * Y + X;
  printf("3d: 16 mismatches %d, last %d\n", Mismatches, Out[1][1][3]);

  unsigned char *P;
  size_t Pitch;
  CHECK(cudaMallocPitch((void **)&P, &Pitch, 6, 3));
  CHECK(cudaMemset(P, 0, Pitch * 3));
  CHECK(cudaMemset2D(P, Pitch, 0x11, 5, 3));
  CHECK(cudaMemset2DAsync(P + Pitch + 1, Pitch, 0x22, 2, 1, S));
  CHECK(cudaStreamSynchronize(S));
  unsigned char Rows[3][6];
  CHECK(cudaMemcpy2D(Rows, 6, P, Pitch, 6, 3, cudaMemcpyDeviceToHost));
  printf("memset2d:");
  for (int Y = 0; Y < 3; ++Y)
    for (int X = 0; X < 6; ++X)
      printf("%s%02x", X ? " " : Y ? " / " : " ", Rows[Y][X]);
  printf("\n");

  cudaPitchedPtr Vol;
  CHECK(cudaMalloc3D(&Vol, make_cudaExtent(4, 2, 2)));
  CHECK(cudaMemset(Vol.ptr, 0, Vol.pitch * 2 * 2));
  CHECK(cudaMemset3D(Vol, 0x7f, make_cudaExtent(3, 2, 2)));
  printf("memset3d:");
  for (int Z = 0; Z < 2; ++Z)
    for (int Y = 0; Y < 2; ++Y) {
      unsigned W;
      CHECK(cudaMemcpy(&W, (char *)Vol.ptr + (Z * 2 + Y) * Vol.pitch, 4,
                       cudaMemcpyDeviceToHost));
      printf(" %08x", __builtin_bswap32(W));
    }
  printf("\n");
  cudaError_t Past =
      cudaMemcpy2DToArrayAsync(A, 0, 1, Host, sizeof Host[0], 6 * sizeof(float),
                               3, cudaMemcpyHostToDevice, S);
  printf("past the end: %s\n", cudaGetErrorName(Past));
  CHECK(cudaStreamDestroy(S));
  CHECK(cudaFreeArray(A));
  CHECK(cudaFreeArray(B));
  CHECK(cudaFreeArray(V));
  CHECK(cudaFree(P));
  CHECK(cudaFree(Vol.ptr));
  return 0;
}
