// Texture objects: a 2D float cudaArray sampled with bilinear filtering and
// normalized coordinates in each address mode, tex1Dfetch from linear
// memory, uchar4 and char textures read as normalized floats, a 3D array
// filled by cudaMemcpy3D, tex2Dgather, and the descriptors' errors. Every
// result is compared bit for bit with a host implementation of the CUDA
// Programming Guide's texture fetching formulas (weights in 9-bit fixed
// point with 8 fractional bits).
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t 2>&1 | FileCheck %s
// CHECK: bilinear wrap: ok
// CHECK: bilinear clamp: ok
// CHECK: bilinear mirror: ok
// CHECK: bilinear border: ok
// CHECK: point unnormalized: ok
// CHECK: tex1Dfetch: ok
// CHECK: uchar4 normalized: ok
// CHECK: char normalized: ok
// CHECK: 3D point: ok
// CHECK: gather: ok
// CHECK: descriptors: ok
// CHECK: errors: ok
// CHECK: failures: 0
#include <cmath>
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

static bool sameBits(float A, float B) {
  return std::memcmp(&A, &B, sizeof A) == 0;
}

// --- The Programming Guide's formulas, on the host. ---

// The texel index i of an axis of N texels in address mode M; -1 names the
// border.
static int addressed(int I, int N, cudaTextureAddressMode M) {
  switch (M) {
  case cudaAddressModeWrap:
    return ((I % N) + N) % N;
  case cudaAddressModeMirror: {
    int P = ((I % (2 * N)) + 2 * N) % (2 * N);
    return P < N ? P : 2 * N - 1 - P;
  }
  case cudaAddressModeBorder:
    return I < 0 || I >= N ? -1 : I;
  default:
    return I < 0 ? 0 : I >= N ? N - 1 : I;
  }
}

// Normalized coordinate x in mode M, in texels: wrap replaces x by frac(x);
// mirror by frac(x) or 1 - frac(x) as floor(x) is even or odd.
static float scaled(float X, int N, cudaTextureAddressMode M) {
  float F = floorf(X);
  if (M == cudaAddressModeWrap)
    X = X - F;
  if (M == cudaAddressModeMirror)
    X = ((long)F % 2 == 0) ? X - F : 1.0f - (X - F);
  return X * N;
}

// frac rounded to 1/256: the 8 fractional bits of the hardware's weights.
static float weight(float Frac) { return floorf(Frac * 256.0f + 0.5f) / 256.0f; }

struct Image2D {
  const float *T;
  int W, H;
  cudaTextureAddressMode M;
  float Border;
  float at(int I, int J) const {
    int A = addressed(I, W, M), B = addressed(J, H, M);
    return A < 0 || B < 0 ? Border : T[B * W + A];
  }
  // tex(x, y) = (1-a)(1-b)T[i,j] + a(1-b)T[i+1,j] + (1-a)bT[i,j+1] + abT[i+1,j+1]
  float bilinear(float X, float Y) const {
    float XB = scaled(X, W, M) - 0.5f, YB = scaled(Y, H, M) - 0.5f;
    int I = (int)floorf(XB), J = (int)floorf(YB);
    float A = weight(XB - floorf(XB)), B = weight(YB - floorf(YB));
    float Sum = 0;
    Sum += ((1 - A) * (1 - B)) * at(I, J);
    Sum += (A * (1 - B)) * at(I + 1, J);
    Sum += ((1 - A) * B) * at(I, J + 1);
    Sum += (A * B) * at(I + 1, J + 1);
    return Sum;
  }
};

// --- Kernels. ---

__global__ void sample2D(cudaTextureObject_t Tex, const float2 *Coords,
                         float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex2D<float>(Tex, Coords[I].x, Coords[I].y);
}

__global__ void fetch1D(cudaTextureObject_t Tex, float *Out, int N) {
  int I = threadIdx.x;
  if (I < N)
    Out[I] = tex1Dfetch<float>(Tex, I - 3);
}

__global__ void sample2D4(cudaTextureObject_t Tex, const float2 *Coords,
                          float4 *Out, int N) {
  int I = threadIdx.x;
  if (I < N)
    Out[I] = tex2D<float4>(Tex, Coords[I].x, Coords[I].y);
}

__global__ void sample3D(cudaTextureObject_t Tex, float *Out, int W, int H,
                         int D) {
  int X = threadIdx.x, Y = threadIdx.y, Z = threadIdx.z;
  Out[(Z * H + Y) * W + X] = tex3D<float>(Tex, X + 0.5f, Y + 0.5f, Z + 0.5f);
}

__global__ void gather(cudaTextureObject_t Tex, float X, float Y, float4 *Out) {
  if (threadIdx.x == 0)
    *Out = tex2Dgather<float4>(Tex, X, Y, 0);
}

// --- The tests. ---

static cudaTextureDesc textureDesc(cudaTextureAddressMode M,
                                   cudaTextureFilterMode F,
                                   cudaTextureReadMode R, int Normalized) {
  cudaTextureDesc T;
  memset(&T, 0, sizeof T);
  T.addressMode[0] = T.addressMode[1] = T.addressMode[2] = M;
  T.filterMode = F;
  T.readMode = R;
  T.normalizedCoords = Normalized;
  return T;
}

static cudaResourceDesc arrayResource(cudaArray_t A) {
  cudaResourceDesc R;
  memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypeArray;
  R.res.array.array = A;
  return R;
}

static void testBilinear() {
  const int W = 8, H = 6, N = 256;
  static float T[W * H];
  for (int I = 0; I != W * H; ++I)
    T[I] = (float)((I * 37) % 23) - 7.25f;
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  cudaArray_t Array;
  CHECK_CUDA(cudaMallocArray(&Array, &Desc, W, H));
  CHECK_CUDA(cudaMemcpy2DToArray(Array, 0, 0, T, W * sizeof(float),
                                 W * sizeof(float), H,
                                 cudaMemcpyHostToDevice));
  // Coordinates inside, on texel centers and edges, and outside [0, 1).
  static float2 Coords[N];
  for (int I = 0; I != N; ++I)
    Coords[I] = make_float2(-1.3f + 0.0137f * I * 1.9f, 2.1f - 0.0171f * I);
  float2 *DCoords;
  float *DOut;
  CHECK_CUDA(cudaMalloc(&DCoords, sizeof Coords));
  CHECK_CUDA(cudaMalloc(&DOut, N * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(DCoords, Coords, sizeof Coords,
                        cudaMemcpyHostToDevice));

  const cudaTextureAddressMode Modes[] = {cudaAddressModeWrap,
                                          cudaAddressModeClamp,
                                          cudaAddressModeMirror,
                                          cudaAddressModeBorder};
  const char *Names[] = {"bilinear wrap", "bilinear clamp", "bilinear mirror",
                         "bilinear border"};
  for (int K = 0; K != 4; ++K) {
    cudaResourceDesc Res = arrayResource(Array);
    cudaTextureDesc TD = textureDesc(Modes[K], cudaFilterModeLinear,
                                     cudaReadModeElementType, 1);
    float Border = Modes[K] == cudaAddressModeBorder ? 2.5f : 0.0f;
    TD.borderColor[0] = Border;
    cudaTextureObject_t Tex = 0;
    CHECK_CUDA(cudaCreateTextureObject(&Tex, &Res, &TD, nullptr));
    sample2D<<<2, 128>>>(Tex, DCoords, DOut, N);
    CHECK_CUDA(cudaDeviceSynchronize());
    static float Out[N];
    CHECK_CUDA(cudaMemcpy(Out, DOut, sizeof Out, cudaMemcpyDeviceToHost));
    Image2D Ref{T, W, H, Modes[K], Border};
    int Bad = 0;
    for (int I = 0; I != N; ++I) {
      float Want = Ref.bilinear(Coords[I].x, Coords[I].y);
      if (!sameBits(Out[I], Want) && Bad++ < 3)
        printf("  %s (%g, %g): got %.9g, want %.9g\n", Names[K], Coords[I].x,
               Coords[I].y, Out[I], Want);
    }
    report(Names[K], Bad);
    CHECK_CUDA(cudaDestroyTextureObject(Tex));
  }

  // Point sampling, unnormalized coordinates, clamped: T[floor(x), floor(y)].
  {
    cudaResourceDesc Res = arrayResource(Array);
    cudaTextureDesc TD = textureDesc(cudaAddressModeClamp, cudaFilterModePoint,
                                     cudaReadModeElementType, 0);
    cudaTextureObject_t Tex;
    CHECK_CUDA(cudaCreateTextureObject(&Tex, &Res, &TD, nullptr));
    static float2 Unnorm[N];
    for (int I = 0; I != N; ++I)
      Unnorm[I] = make_float2(Coords[I].x * W, Coords[I].y * H);
    CHECK_CUDA(cudaMemcpy(DCoords, Unnorm, sizeof Unnorm,
                          cudaMemcpyHostToDevice));
    sample2D<<<2, 128>>>(Tex, DCoords, DOut, N);
    static float Out[N];
    CHECK_CUDA(cudaMemcpy(Out, DOut, sizeof Out, cudaMemcpyDeviceToHost));
    int Bad = 0;
    for (int I = 0; I != N; ++I) {
      int X = (int)floorf(Unnorm[I].x), Y = (int)floorf(Unnorm[I].y);
      X = X < 0 ? 0 : X >= W ? W - 1 : X;
      Y = Y < 0 ? 0 : Y >= H ? H - 1 : Y;
      Bad += !sameBits(Out[I], T[Y * W + X]);
    }
    report("point unnormalized", Bad);
    CHECK_CUDA(cudaDestroyTextureObject(Tex));
  }
  CHECK_CUDA(cudaFree(DCoords));
  CHECK_CUDA(cudaFree(DOut));
  CHECK_CUDA(cudaFreeArray(Array));
}

static void testFetch1D() {
  const int N = 40, Threads = N + 6;
  float Host[N];
  for (int I = 0; I != N; ++I)
    Host[I] = 0.5f * I - 3;
  float *Buf, *DOut;
  CHECK_CUDA(cudaMalloc(&Buf, sizeof Host));
  CHECK_CUDA(cudaMalloc(&DOut, Threads * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(Buf, Host, sizeof Host, cudaMemcpyHostToDevice));
  cudaResourceDesc Res;
  memset(&Res, 0, sizeof Res);
  Res.resType = cudaResourceTypeLinear;
  Res.res.linear.devPtr = Buf;
  Res.res.linear.desc = cudaCreateChannelDesc<float>();
  Res.res.linear.sizeInBytes = sizeof Host;
  cudaTextureDesc TD = textureDesc(cudaAddressModeClamp, cudaFilterModePoint,
                                   cudaReadModeElementType, 0);
  cudaTextureObject_t Tex;
  CHECK_CUDA(cudaCreateTextureObject(&Tex, &Res, &TD, nullptr));
  fetch1D<<<1, Threads>>>(Tex, DOut, Threads);
  float Out[Threads];
  CHECK_CUDA(cudaMemcpy(Out, DOut, sizeof Out, cudaMemcpyDeviceToHost));
  // Fetched index I - 3; outside the buffer the fetch reads zero.
  int Bad = 0;
  for (int I = 0; I != Threads; ++I) {
    int Index = I - 3;
    float Want = Index < 0 || Index >= N ? 0.0f : Host[Index];
    Bad += !sameBits(Out[I], Want);
  }
  report("tex1Dfetch", Bad);
  CHECK_CUDA(cudaDestroyTextureObject(Tex));
  CHECK_CUDA(cudaFree(Buf));
  CHECK_CUDA(cudaFree(DOut));
}

static void testNormalizedRead() {
  const int W = 5, H = 4, N = 64;
  uchar4 Texels[W * H];
  for (int I = 0; I != W * H; ++I)
    Texels[I] = make_uchar4(I * 13, 255 - I * 7, I == 3 ? 255 : 0, I * 11);
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<uchar4>();
  cudaArray_t Array;
  CHECK_CUDA(cudaMallocArray(&Array, &Desc, W, H));
  CHECK_CUDA(cudaMemcpy2DToArray(Array, 0, 0, Texels, W * sizeof(uchar4),
                                 W * sizeof(uchar4), H,
                                 cudaMemcpyHostToDevice));
  cudaResourceDesc Res = arrayResource(Array);
  cudaTextureDesc TD = textureDesc(cudaAddressModeClamp, cudaFilterModeLinear,
                                   cudaReadModeNormalizedFloat, 0);
  cudaTextureObject_t Tex;
  CHECK_CUDA(cudaCreateTextureObject(&Tex, &Res, &TD, nullptr));
  float2 Coords[N];
  for (int I = 0; I != N; ++I)
    Coords[I] = make_float2(-0.5f + 0.1f * I, 4.3f - 0.07f * I);
  float2 *DCoords;
  float4 *DOut;
  CHECK_CUDA(cudaMalloc(&DCoords, sizeof Coords));
  CHECK_CUDA(cudaMalloc(&DOut, N * sizeof(float4)));
  CHECK_CUDA(cudaMemcpy(DCoords, Coords, sizeof Coords,
                        cudaMemcpyHostToDevice));
  sample2D4<<<1, N>>>(Tex, DCoords, DOut, N);
  float4 Out[N];
  CHECK_CUDA(cudaMemcpy(Out, DOut, sizeof Out, cudaMemcpyDeviceToHost));
  // Unsigned 8-bit channels read as v / 255, then filtered.
  int Bad = 0;
  for (int C = 0; C != 4; ++C) {
    float Channel[W * H];
    for (int I = 0; I != W * H; ++I) {
      const unsigned char *P = &Texels[I].x;
      Channel[I] = (float)P[C] / 255.0f;
    }
    Image2D Ref{Channel, W, H, cudaAddressModeClamp, 0};
    for (int I = 0; I != N; ++I) {
      // Unnormalized coordinates: the texel coordinate is x itself.
      float XB = Coords[I].x - 0.5f, YB = Coords[I].y - 0.5f;
      int X = (int)floorf(XB), Y = (int)floorf(YB);
      float A = weight(XB - floorf(XB)), B = weight(YB - floorf(YB));
      float Sum = 0;
      Sum += ((1 - A) * (1 - B)) * Ref.at(X, Y);
      Sum += (A * (1 - B)) * Ref.at(X + 1, Y);
      Sum += ((1 - A) * B) * Ref.at(X, Y + 1);
      Sum += (A * B) * Ref.at(X + 1, Y + 1);
      const float *Got = &Out[I].x;
      Bad += !sameBits(Got[C], Sum);
    }
  }
  report("uchar4 normalized", Bad);
  CHECK_CUDA(cudaDestroyTextureObject(Tex));
  CHECK_CUDA(cudaFreeArray(Array));

  // Signed 8-bit: v / 127, with -128 read as -1; point sampled.
  {
    const int M = 6;
    signed char Values[M] = {-128, -127, -1, 0, 64, 127};
    cudaChannelFormatDesc CD = cudaCreateChannelDesc<signed char>();
    cudaArray_t A1;
    CHECK_CUDA(cudaMallocArray(&A1, &CD, M, 1));
    CHECK_CUDA(cudaMemcpy2DToArray(A1, 0, 0, Values, M, M, 1,
                                   cudaMemcpyHostToDevice));
    cudaResourceDesc R1 = arrayResource(A1);
    cudaTextureDesc T1 = textureDesc(cudaAddressModeClamp, cudaFilterModePoint,
                                     cudaReadModeNormalizedFloat, 0);
    cudaTextureObject_t Tex1;
    CHECK_CUDA(cudaCreateTextureObject(&Tex1, &R1, &T1, nullptr));
    float2 C1[M];
    for (int I = 0; I != M; ++I)
      C1[I] = make_float2(I + 0.5f, 0.5f);
    CHECK_CUDA(cudaMemcpy(DCoords, C1, sizeof C1, cudaMemcpyHostToDevice));
    sample2D4<<<1, M>>>(Tex1, DCoords, DOut, M);
    float4 O1[M];
    CHECK_CUDA(cudaMemcpy(O1, DOut, sizeof O1, cudaMemcpyDeviceToHost));
    int Bad1 = 0;
    for (int I = 0; I != M; ++I) {
      float Want = fmaxf((float)Values[I] / 127.0f, -1.0f);
      Bad1 += !sameBits(O1[I].x, Want);
    }
    report("char normalized", Bad1);
    CHECK_CUDA(cudaDestroyTextureObject(Tex1));
    CHECK_CUDA(cudaFreeArray(A1));
  }
  CHECK_CUDA(cudaFree(DCoords));
  CHECK_CUDA(cudaFree(DOut));
}

static void test3D() {
  const int W = 5, H = 3, D = 4;
  float Host[D][H][W];
  for (int Z = 0; Z != D; ++Z)
    for (int Y = 0; Y != H; ++Y)
      for (int X = 0; X != W; ++X)
        Host[Z][Y][X] = 100.0f * Z + 10.0f * Y + X;
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  cudaArray_t Array;
  CHECK_CUDA(cudaMalloc3DArray(&Array, &Desc, make_cudaExtent(W, H, D)));
  cudaMemcpy3DParms P;
  memset(&P, 0, sizeof P);
  P.srcPtr = make_cudaPitchedPtr(Host, W * sizeof(float), W, H);
  P.dstArray = Array;
  P.extent = make_cudaExtent(W, H, D);
  P.kind = cudaMemcpyHostToDevice;
  CHECK_CUDA(cudaMemcpy3D(&P));
  cudaResourceDesc Res = arrayResource(Array);
  cudaTextureDesc TD = textureDesc(cudaAddressModeClamp, cudaFilterModePoint,
                                   cudaReadModeElementType, 0);
  cudaTextureObject_t Tex;
  CHECK_CUDA(cudaCreateTextureObject(&Tex, &Res, &TD, nullptr));
  float *DOut;
  CHECK_CUDA(cudaMalloc(&DOut, sizeof Host));
  sample3D<<<1, dim3(W, H, D)>>>(Tex, DOut, W, H, D);
  float Out[D][H][W];
  CHECK_CUDA(cudaMemcpy(Out, DOut, sizeof Out, cudaMemcpyDeviceToHost));
  // And back out of the array with cudaMemcpy3D.
  float Back[D][H][W];
  memset(Back, 0, sizeof Back);
  memset(&P, 0, sizeof P);
  P.srcArray = Array;
  P.dstPtr = make_cudaPitchedPtr(Back, W * sizeof(float), W, H);
  P.extent = make_cudaExtent(W, H, D);
  P.kind = cudaMemcpyDeviceToHost;
  CHECK_CUDA(cudaMemcpy3D(&P));
  report("3D point", memcmp(Out, Host, sizeof Host) != 0 ||
                         memcmp(Back, Host, sizeof Host) != 0);
  CHECK_CUDA(cudaDestroyTextureObject(Tex));
  CHECK_CUDA(cudaFree(DOut));
  CHECK_CUDA(cudaFreeArray(Array));
}

static void testGather() {
  const int W = 4, H = 4;
  float T[W * H];
  for (int I = 0; I != W * H; ++I)
    T[I] = (float)I;
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  cudaArray_t Array;
  CHECK_CUDA(cudaMallocArray(&Array, &Desc, W, H));
  CHECK_CUDA(cudaMemcpy2DToArray(Array, 0, 0, T, W * 4, W * 4, H,
                                 cudaMemcpyHostToDevice));
  cudaResourceDesc Res = arrayResource(Array);
  cudaTextureDesc TD = textureDesc(cudaAddressModeClamp, cudaFilterModePoint,
                                   cudaReadModeElementType, 0);
  cudaTextureObject_t Tex;
  CHECK_CUDA(cudaCreateTextureObject(&Tex, &Res, &TD, nullptr));
  float4 *DOut, Out;
  CHECK_CUDA(cudaMalloc(&DOut, sizeof(float4)));
  // (1.7, 2.2): the footprint is i = 1..2, j = 1..2, returned
  // (i, j+1), (i+1, j+1), (i+1, j), (i, j).
  gather<<<1, 32>>>(Tex, 1.7f, 2.2f, DOut);
  CHECK_CUDA(cudaMemcpy(&Out, DOut, sizeof Out, cudaMemcpyDeviceToHost));
  report("gather", Out.x != T[2 * W + 1] || Out.y != T[2 * W + 2] ||
                       Out.z != T[1 * W + 2] || Out.w != T[1 * W + 1]);
  CHECK_CUDA(cudaDestroyTextureObject(Tex));
  CHECK_CUDA(cudaFree(DOut));
  CHECK_CUDA(cudaFreeArray(Array));
}

static void testDescriptors() {
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<short2>();
  cudaArray_t Array;
  CHECK_CUDA(cudaMallocArray(&Array, &Desc, 7, 3));
  cudaChannelFormatDesc GotDesc;
  cudaExtent Extent;
  unsigned Flags = 99;
  CHECK_CUDA(cudaArrayGetInfo(&GotDesc, &Extent, &Flags, Array));
  cudaResourceDesc Res = arrayResource(Array);
  cudaTextureDesc TD = textureDesc(cudaAddressModeBorder, cudaFilterModePoint,
                                   cudaReadModeElementType, 0);
  cudaTextureObject_t Tex;
  CHECK_CUDA(cudaCreateTextureObject(&Tex, &Res, &TD, nullptr));
  cudaResourceDesc Back;
  memset(&Back, 0, sizeof Back);
  CHECK_CUDA(cudaGetTextureObjectResourceDesc(&Back, Tex));
  int Bad = GotDesc.x != 16 || GotDesc.y != 16 || GotDesc.z != 0 ||
            GotDesc.f != cudaChannelFormatKindSigned || Extent.width != 7 ||
            Extent.height != 3 || Extent.depth != 0 || Flags != 0 ||
            Back.resType != cudaResourceTypeArray ||
            Back.res.array.array != Array;
  report("descriptors", Bad);
  CHECK_CUDA(cudaDestroyTextureObject(Tex));
  CHECK_CUDA(cudaFreeArray(Array));
}

static void testErrors() {
  int Bad = 0;
  cudaChannelFormatDesc IntDesc = cudaCreateChannelDesc<int>();
  cudaArray_t Array;
  CHECK_CUDA(cudaMallocArray(&Array, &IntDesc, 4, 4));
  cudaResourceDesc Res = arrayResource(Array);
  cudaTextureObject_t Tex = 0;
  // Linear filtering of integers read as integers.
  cudaTextureDesc TD = textureDesc(cudaAddressModeClamp, cudaFilterModeLinear,
                                   cudaReadModeElementType, 0);
  Bad += cudaCreateTextureObject(&Tex, &Res, &TD, nullptr) !=
         cudaErrorInvalidValue;
  // An unknown address mode.
  TD = textureDesc((cudaTextureAddressMode)7, cudaFilterModePoint,
                   cudaReadModeElementType, 0);
  Bad += cudaCreateTextureObject(&Tex, &Res, &TD, nullptr) !=
         cudaErrorInvalidValue;
  // No resource; a linear resource outside device memory.
  Bad += cudaCreateTextureObject(&Tex, nullptr, &TD, nullptr) !=
         cudaErrorInvalidValue;
  static float HostMem[16];
  cudaResourceDesc Lin;
  memset(&Lin, 0, sizeof Lin);
  Lin.resType = cudaResourceTypeLinear;
  Lin.res.linear.devPtr = HostMem;
  Lin.res.linear.desc = cudaCreateChannelDesc<float>();
  Lin.res.linear.sizeInBytes = sizeof HostMem;
  TD = textureDesc(cudaAddressModeClamp, cudaFilterModePoint,
                   cudaReadModeElementType, 0);
  Bad += cudaCreateTextureObject(&Tex, &Lin, &TD, nullptr) !=
         cudaErrorInvalidValue;
  // A three-channel format; a surface on an array without
  // cudaArraySurfaceLoadStore.
  cudaChannelFormatDesc Three =
      cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
  cudaArray_t Other = nullptr;
  Bad += cudaMallocArray(&Other, &Three, 4, 4) != cudaErrorInvalidValue;
  cudaSurfaceObject_t Surf = 0;
  Bad += cudaCreateSurfaceObject(&Surf, &Res) != cudaErrorInvalidValue;
  // Copies past the end of the array.
  int Row[8] = {};
  Bad += cudaMemcpy2DToArray(Array, 4, 0, Row, sizeof Row, sizeof Row, 1,
                             cudaMemcpyHostToDevice) != cudaErrorInvalidValue;
  CHECK_CUDA(cudaFreeArray(Array));
  // A freed array is no resource.
  Bad += cudaCreateTextureObject(&Tex, &Res, &TD, nullptr) !=
         cudaErrorInvalidResourceHandle;
  cudaGetLastError();
  report("errors", Bad);
}

int main() {
  testBilinear();
  testFetch1D();
  testNormalizedRead();
  test3D();
  testGather();
  testDescriptors();
  testErrors();
  printf("failures: %d\n", Failures);
  return Failures != 0;
}
