// Layered textures (tex.a1d, tex.a2d): 1D and 2D layered cudaArrays
// (cudaMalloc3DArray with cudaArrayLayered) sampled with tex1DLayered and
// tex2DLayered (nvcc emits tex.a1d.v4.f32.f32 [t, {layer, x}] and
// tex.a2d.v4.f32.f32 [t, {layer, x, y, y}]), point and linear filtering,
// clamp addressing, layers out of range; and the integer-coordinate forms
// tex.a1d/.a2d .v4.f32.s32 from inline PTX. `ptx-jit run` cannot make
// layered texture objects (docs/Textures.md: "Layered, cubemap and mipmapped
// objects exist only through the CUDA runtime"), hence a CUDA program.
//
// The expected values come from a host model of the CUDA Programming Guide's
// texture fetching appendix, not from ptx-jit:
//   point:  tex(x) = T[floor(x)]
//   linear: tex(x) = (1 - a) T[i] + a T[i + 1], x_B = x - 0.5, i = floor(x_B),
//           a = frac(x_B) in 9-bit fixed point with 8 fractional bits
//           (2D: the bilinear form with a and b);
//   clamp:  texel indices clamped to [0, N - 1] on each axis;
//   layer:  an integer (never normalized, never filtered), clamped to
//           [0, layers - 1].
// The Guide does not say how frac is brought to 8 bits (rounded or
// truncated), so every coordinate here has frac * 256 at most .45 above an
// integer (checked below): both readings give the same weight, which still
// differs from the exact frac (0.2 -> 51/256), and texel values are small
// integers so that every result is exact in float and compared bit for bit.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t 2>&1 | FileCheck %s
// CHECK: a1d point clamp: ok
// CHECK: a1d linear clamp: ok
// CHECK: a1d s32 coordinates: ok
// CHECK: a2d point clamp: ok
// CHECK: a2d linear clamp: ok
// CHECK: a2d linear wrap normalized: ok
// CHECK: a2d s32 coordinates: ok
// CHECK: failures: 0
#include <climits>
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

// --- The model. ---

static int clampIndex(long long I, int N) {
  return I < 0 ? 0 : I >= N ? N - 1 : (int)I;
}

static int wrapIndex(long long I, int N) { return (int)(((I % N) + N) % N); }

// The weight of frac F in 8 fractional bits. The coordinates are chosen so
// that truncating and rounding agree; a coordinate where they do not is a
// mistake in this test and counted as a failure.
static int BadCoordinates = 0;
static double weight(float F) {
  double Scaled = (double)F * 256.0;
  double Trunc = floor(Scaled), Round = floor(Scaled + 0.5);
  if (Trunc != Round)
    ++BadCoordinates;
  return Trunc / 256.0;
}

// Fractions of x_B: exact steps (0, 0.25, 0.3125) and ones that 8 bits
// cannot hold (0.2 -> 51/256, 0.7 -> 179/256, ...), all with frac * 256 at
// most .45 above an integer.
static const float Fracs[] = {0.0f, 0.2f, 0.25f, 0.45f,
                              0.7f, 0.9f, 0.15f, 0.3125f};
static const int NumFracs = sizeof Fracs / sizeof Fracs[0];
// Layer indices: inside, below (clamped to 0) and above (clamped to the last).
static const int Layers[] = {0, 1, 2, -1, 3, -7, 50, INT_MIN, INT_MAX};
static const int NumLayerCases = sizeof Layers / sizeof Layers[0];

// 1D layered: W texels, L layers, T1[l][x] = 10 l + (3 x) % 7 - 2.
const int W1 = 8, L1 = 3;
static float T1[L1][W1];

static float at1(int Layer, long long X) {
  return T1[clampIndex(Layer, L1)][clampIndex(X, W1)];
}

static float point1(float X, int Layer) {
  return at1(Layer, (long long)floorf(X));
}

static float linear1(float X, int Layer) {
  float XB = X - 0.5f;
  float I = floorf(XB);
  double A = weight(XB - I);
  long long II = (long long)I;
  return (float)((1 - A) * at1(Layer, II) + A * at1(Layer, II + 1));
}

// 2D layered: W2 x H2 texels of float2, L2 layers (powers of two, so that
// the normalized coordinates x / W2, y / H2 are exact);
// channel 0 = 20 l + x + 5 y, channel 1 = 2 x - 3 y + l - 40.
const int W2 = 8, H2 = 4, L2 = 3;
static float2 T2[L2][H2][W2];

static float at2(int Layer, long long X, long long Y, int C, bool Wrap) {
  int I = Wrap ? wrapIndex(X, W2) : clampIndex(X, W2);
  int J = Wrap ? wrapIndex(Y, H2) : clampIndex(Y, H2);
  const float2 &V = T2[clampIndex(Layer, L2)][J][I];
  return C ? V.y : V.x;
}

static float point2(float X, float Y, int Layer, int C) {
  return at2(Layer, (long long)floorf(X), (long long)floorf(Y), C, false);
}

// Bilinear on texel coordinates (X, Y) (already scaled when normalized).
static float linear2(float X, float Y, int Layer, int C, bool Wrap) {
  float XB = X - 0.5f, YB = Y - 0.5f;
  float FI = floorf(XB), FJ = floorf(YB);
  double A = weight(XB - FI), B = weight(YB - FJ);
  long long I = (long long)FI, J = (long long)FJ;
  return (float)((1 - A) * (1 - B) * at2(Layer, I, J, C, Wrap) +
                 A * (1 - B) * at2(Layer, I + 1, J, C, Wrap) +
                 (1 - A) * B * at2(Layer, I, J + 1, C, Wrap) +
                 A * B * at2(Layer, I + 1, J + 1, C, Wrap));
}

// --- Kernels. ---

__global__ void sampleA1D(cudaTextureObject_t Tex, const float *X,
                          const int *Layer, float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex1DLayered<float>(Tex, X[I], Layer[I]);
}

__global__ void sampleA2D(cudaTextureObject_t Tex, const float2 *XY,
                          const int *Layer, float2 *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex2DLayered<float2>(Tex, XY[I].x, XY[I].y, Layer[I]);
}

// Integer texel coordinates: tex.a1d / tex.a2d with .s32 coordinates.
__global__ void fetchA1D(cudaTextureObject_t Tex, const int *X,
                         const int *Layer, float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  float4 V;
  asm volatile("tex.a1d.v4.f32.s32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
               : "=f"(V.x), "=f"(V.y), "=f"(V.z), "=f"(V.w)
               : "l"(Tex), "r"(Layer[I]), "r"(X[I]));
  Out[I] = V.x;
}

__global__ void fetchA2D(cudaTextureObject_t Tex, const int2 *XY,
                         const int *Layer, float2 *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  float4 V;
  asm volatile("tex.a2d.v4.f32.s32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
               : "=f"(V.x), "=f"(V.y), "=f"(V.z), "=f"(V.w)
               : "l"(Tex), "r"(Layer[I]), "r"(XY[I].x), "r"(XY[I].y));
  Out[I] = make_float2(V.x, V.y);
}

// --- The tests. ---

static cudaTextureObject_t makeTexture(cudaArray_t Array,
                                       cudaTextureFilterMode F,
                                       cudaTextureAddressMode M,
                                       int Normalized) {
  cudaResourceDesc Res;
  memset(&Res, 0, sizeof Res);
  Res.resType = cudaResourceTypeArray;
  Res.res.array.array = Array;
  cudaTextureDesc TD;
  memset(&TD, 0, sizeof TD);
  TD.addressMode[0] = TD.addressMode[1] = TD.addressMode[2] = M;
  TD.filterMode = F;
  TD.readMode = cudaReadModeElementType;
  TD.normalizedCoords = Normalized;
  cudaTextureObject_t Tex = 0;
  CHECK_CUDA(cudaCreateTextureObject(&Tex, &Res, &TD, nullptr));
  return Tex;
}

template <typename T> static T *toDevice(const T *Host, int N) {
  T *D = nullptr;
  CHECK_CUDA(cudaMalloc(&D, N * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(D, Host, N * sizeof(T), cudaMemcpyHostToDevice));
  return D;
}

static void test1D() {
  for (int L = 0; L != L1; ++L)
    for (int X = 0; X != W1; ++X)
      T1[L][X] = (float)(10 * L + (3 * X) % 7 - 2);
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  cudaArray_t Array;
  // A 1D layered array: height 0, depth = the number of layers.
  CHECK_CUDA(cudaMalloc3DArray(&Array, &Desc, make_cudaExtent(W1, 0, L1),
                               cudaArrayLayered));
  // Its layers are the copy's z: extent (W1, 1, L1), as cudaArrayGetInfo
  // reports the array as (W1, 0, L1).
  cudaMemcpy3DParms P;
  memset(&P, 0, sizeof P);
  P.srcPtr = make_cudaPitchedPtr(T1, W1 * sizeof(float), W1, 1);
  P.dstArray = Array;
  P.extent = make_cudaExtent(W1, 1, L1);
  P.kind = cudaMemcpyHostToDevice;
  CHECK_CUDA(cudaMemcpy3D(&P));

  // x_B = base + frac, x = x_B + 0.5, bases left of, inside and right of
  // the W1 texels; every layer case with every coordinate.
  const int Bases[] = {-3, -1, 0, 1, 3, 6, 7, 8, 11};
  const int NumBases = sizeof Bases / sizeof Bases[0];
  const int N = NumBases * NumFracs * NumLayerCases;
  static float X[N];
  static int Layer[N];
  int K = 0;
  for (int B = 0; B != NumBases; ++B)
    for (int F = 0; F != NumFracs; ++F)
      for (int C = 0; C != NumLayerCases; ++C, ++K) {
        X[K] = (float)Bases[B] + Fracs[F] + 0.5f;
        Layer[K] = Layers[C];
      }
  float *DX = toDevice(X, N), *DOut;
  int *DLayer = toDevice(Layer, N);
  CHECK_CUDA(cudaMalloc(&DOut, N * sizeof(float)));
  static float Out[N];

  for (int Linear = 0; Linear != 2; ++Linear) {
    cudaTextureObject_t Tex =
        makeTexture(Array, Linear ? cudaFilterModeLinear : cudaFilterModePoint,
                    cudaAddressModeClamp, 0);
    CHECK_CUDA(cudaMemset(DOut, 0xff, N * sizeof(float)));
    sampleA1D<<<(N + 127) / 128, 128>>>(Tex, DX, DLayer, DOut, N);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(Out, DOut, sizeof Out, cudaMemcpyDeviceToHost));
    int Bad = 0;
    for (int I = 0; I != N; ++I) {
      float Want = Linear ? linear1(X[I], Layer[I]) : point1(X[I], Layer[I]);
      if (!sameBits(Out[I], Want) && Bad++ < 5)
        printf("  a1d %s x=%.9g layer=%d: got %.9g, want %.9g\n",
               Linear ? "linear" : "point", X[I], Layer[I], Out[I], Want);
    }
    report(Linear ? "a1d linear clamp" : "a1d point clamp", Bad);
    CHECK_CUDA(cudaDestroyTextureObject(Tex));
  }

  // Integer coordinates on the point texture: T[clamp(x)] of the clamped
  // layer.
  {
    const int M = 13 * NumLayerCases;
    static int IX[M], IL[M];
    for (int I = 0; I != M; ++I) {
      IX[I] = I / NumLayerCases - 3; // -3 .. 9
      IL[I] = Layers[I % NumLayerCases];
    }
    int *DIX = toDevice(IX, M), *DIL = toDevice(IL, M);
    cudaTextureObject_t Tex =
        makeTexture(Array, cudaFilterModePoint, cudaAddressModeClamp, 0);
    CHECK_CUDA(cudaMemset(DOut, 0xff, M * sizeof(float)));
    fetchA1D<<<(M + 127) / 128, 128>>>(Tex, DIX, DIL, DOut, M);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(
        cudaMemcpy(Out, DOut, M * sizeof(float), cudaMemcpyDeviceToHost));
    int Bad = 0;
    for (int I = 0; I != M; ++I) {
      float Want = at1(IL[I], IX[I]);
      if (!sameBits(Out[I], Want) && Bad++ < 5)
        printf("  a1d s32 x=%d layer=%d: got %.9g, want %.9g\n", IX[I], IL[I],
               Out[I], Want);
    }
    report("a1d s32 coordinates", Bad);
    CHECK_CUDA(cudaDestroyTextureObject(Tex));
    CHECK_CUDA(cudaFree(DIX));
    CHECK_CUDA(cudaFree(DIL));
  }
  CHECK_CUDA(cudaFree(DX));
  CHECK_CUDA(cudaFree(DLayer));
  CHECK_CUDA(cudaFree(DOut));
  CHECK_CUDA(cudaFreeArray(Array));
}

static void test2D() {
  for (int L = 0; L != L2; ++L)
    for (int Y = 0; Y != H2; ++Y)
      for (int X = 0; X != W2; ++X)
        T2[L][Y][X] = make_float2((float)(20 * L + X + 5 * Y),
                                  (float)(2 * X - 3 * Y + L - 40));
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float2>();
  cudaArray_t Array;
  CHECK_CUDA(cudaMalloc3DArray(&Array, &Desc, make_cudaExtent(W2, H2, L2),
                               cudaArrayLayered));
  cudaMemcpy3DParms P;
  memset(&P, 0, sizeof P);
  P.srcPtr = make_cudaPitchedPtr(T2, W2 * sizeof(float2), W2, H2);
  P.dstArray = Array;
  P.extent = make_cudaExtent(W2, H2, L2);
  P.kind = cudaMemcpyHostToDevice;
  CHECK_CUDA(cudaMemcpy3D(&P));

  const int BasesX[] = {-2, 0, 3, 7, 9};
  const int BasesY[] = {-1, 0, 1, 3, 5};
  const int NB = 5;
  const int N = NB * NB * NumFracs * NumLayerCases;
  // XB, YB: the texel coordinates x_B + 0.5; the normalized run divides
  // them by the size.
  static float2 XY[N], Norm[N];
  static int Layer[N];
  int K = 0;
  for (int BX = 0; BX != NB; ++BX)
    for (int BY = 0; BY != NB; ++BY)
      for (int F = 0; F != NumFracs; ++F)
        for (int C = 0; C != NumLayerCases; ++C, ++K) {
          XY[K] = make_float2((float)BasesX[BX] + Fracs[F] + 0.5f,
                              (float)BasesY[BY] +
                                  Fracs[(F + 3 + C) % NumFracs] + 0.5f);
          Norm[K] = make_float2(XY[K].x / W2, XY[K].y / H2);
          Layer[K] = Layers[(C + BX) % NumLayerCases];
        }
  float2 *DXY = toDevice(XY, N), *DNorm = toDevice(Norm, N), *DOut;
  int *DLayer = toDevice(Layer, N);
  CHECK_CUDA(cudaMalloc(&DOut, N * sizeof(float2)));
  static float2 Out[N];

  struct Case {
    const char *Name;
    cudaTextureFilterMode F;
    cudaTextureAddressMode M;
    int Normalized;
  } Cases[] = {
      {"a2d point clamp", cudaFilterModePoint, cudaAddressModeClamp, 0},
      {"a2d linear clamp", cudaFilterModeLinear, cudaAddressModeClamp, 0},
      // Normalized coordinates scale x and y, never the layer.
      {"a2d linear wrap normalized", cudaFilterModeLinear, cudaAddressModeWrap,
       1},
  };
  for (const Case &C : Cases) {
    cudaTextureObject_t Tex = makeTexture(Array, C.F, C.M, C.Normalized);
    CHECK_CUDA(cudaMemset(DOut, 0xff, N * sizeof(float2)));
    sampleA2D<<<(N + 127) / 128, 128>>>(Tex, C.Normalized ? DNorm : DXY, DLayer,
                                        DOut, N);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(Out, DOut, sizeof Out, cudaMemcpyDeviceToHost));
    int Bad = 0;
    for (int I = 0; I != N; ++I) {
      for (int Ch = 0; Ch != 2; ++Ch) {
        float Want;
        if (C.F == cudaFilterModePoint) {
          Want = point2(XY[I].x, XY[I].y, Layer[I], Ch);
        } else if (C.Normalized) {
          // Wrap: x replaced by frac(x), then scaled by the size.
          float U = Norm[I].x, V = Norm[I].y;
          float X = (U - floorf(U)) * W2, Y = (V - floorf(V)) * H2;
          Want = linear2(X, Y, Layer[I], Ch, true);
        } else {
          Want = linear2(XY[I].x, XY[I].y, Layer[I], Ch, false);
        }
        float Got = Ch ? Out[I].y : Out[I].x;
        if (!sameBits(Got, Want) && Bad++ < 5)
          printf("  %s (%.9g, %.9g) layer=%d channel %d: got %.9g, want "
                 "%.9g\n",
                 C.Name, C.Normalized ? Norm[I].x : XY[I].x,
                 C.Normalized ? Norm[I].y : XY[I].y, Layer[I], Ch, Got, Want);
      }
    }
    report(C.Name, Bad);
    CHECK_CUDA(cudaDestroyTextureObject(Tex));
  }

  {
    const int M = 8 * 7 * NumLayerCases;
    static int2 IXY[M];
    static int IL[M];
    for (int I = 0; I != M; ++I) {
      int P = I / NumLayerCases;
      IXY[I] = make_int2(P % 8 - 2, P / 8 - 2); // x -2..5, y -2..4
      IL[I] = Layers[I % NumLayerCases];
    }
    int2 *DIXY = toDevice(IXY, M);
    int *DIL = toDevice(IL, M);
    cudaTextureObject_t Tex =
        makeTexture(Array, cudaFilterModePoint, cudaAddressModeClamp, 0);
    CHECK_CUDA(cudaMemset(DOut, 0xff, M * sizeof(float2)));
    fetchA2D<<<(M + 127) / 128, 128>>>(Tex, DIXY, DIL, DOut, M);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(
        cudaMemcpy(Out, DOut, M * sizeof(float2), cudaMemcpyDeviceToHost));
    int Bad = 0;
    for (int I = 0; I != M; ++I)
      for (int Ch = 0; Ch != 2; ++Ch) {
        float Want = at2(IL[I], IXY[I].x, IXY[I].y, Ch, false);
        float Got = Ch ? Out[I].y : Out[I].x;
        if (!sameBits(Got, Want) && Bad++ < 5)
          printf("  a2d s32 (%d, %d) layer=%d channel %d: got %.9g, want "
                 "%.9g\n",
                 IXY[I].x, IXY[I].y, IL[I], Ch, Got, Want);
      }
    report("a2d s32 coordinates", Bad);
    CHECK_CUDA(cudaDestroyTextureObject(Tex));
    CHECK_CUDA(cudaFree(DIXY));
    CHECK_CUDA(cudaFree(DIL));
  }
  CHECK_CUDA(cudaFree(DXY));
  CHECK_CUDA(cudaFree(DNorm));
  CHECK_CUDA(cudaFree(DLayer));
  CHECK_CUDA(cudaFree(DOut));
  CHECK_CUDA(cudaFreeArray(Array));
}

int main() {
  test1D();
  test2D();
  if (BadCoordinates) {
    printf("coordinates where rounding and truncating frac differ: %d\n",
           BadCoordinates);
    ++Failures;
  }
  printf("failures: %d\n", Failures);
  return Failures != 0;
}
