// Mipmapped arrays and cubemaps: tex2DLod and tex2DGrad on a mipmapped
// array with point and linear mipmap filtering, a level bias and level
// clamps; texCubemap, texCubemapLayered and texCubemapLod; surfaces on a
// cubemap; and the errors of the mipmap and cubemap API. Expected values
// come from a host implementation of the Programming Guide's formulas:
// bilinear weights and the level fraction in 9-bit fixed point (8
// fractional bits), lambda = log2 of the longer gradient in level-0 texels,
// cubemap faces from its cubemap table. Texel values are small integers and
// weights multiples of 1/256, so every sum is exact whatever its order.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t 2>&1 | FileCheck %s
// CHECK: levels: ok
// CHECK: lod point: ok
// CHECK: lod linear: ok
// CHECK: lod bias and clamps: ok
// CHECK: grad: ok
// CHECK: cubemap point: ok
// CHECK: cubemap linear: ok
// CHECK: cubemap layered: ok
// CHECK: cubemap lod: ok
// CHECK: cubemap surface: ok
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

static float weight(float Frac) { return floorf(Frac * 256.0f + 0.5f) / 256.0f; }
static int clampIndex(int I, int N) { return I < 0 ? 0 : I >= N ? N - 1 : I; }

// One square level of a 2D mipmap: N x N texels, clamp addressing,
// normalized coordinates.
struct Level {
  const float *T;
  int N;
  float at(int I, int J) const { return T[clampIndex(J, N) * N + clampIndex(I, N)]; }
  float point(float X, float Y) const {
    return at((int)floorf(X * N), (int)floorf(Y * N));
  }
  float bilinear(float X, float Y) const {
    float XB = X * N - 0.5f, YB = Y * N - 0.5f;
    int I = (int)floorf(XB), J = (int)floorf(YB);
    float A = weight(XB - floorf(XB)), B = weight(YB - floorf(YB));
    return (1 - A) * (1 - B) * at(I, J) + A * (1 - B) * at(I + 1, J) +
           (1 - A) * B * at(I, J + 1) + A * B * at(I + 1, J + 1);
  }
  float sample(float X, float Y, bool Linear) const {
    return Linear ? bilinear(X, Y) : point(X, Y);
  }
};

// lambda biased, clamped to the sampler's clamps and to the levels; point
// mipmap filtering takes the nearest level, linear blends floor(lambda) and
// the next with the fraction in 9-bit fixed point.
static float mipSample(const Level *Levels, int NumLevels, float X, float Y,
                       float Lambda, bool Linear, bool MipLinear, float Bias,
                       float MinClamp, float MaxClamp) {
  Lambda += Bias;
  Lambda = fminf(fmaxf(Lambda, MinClamp), MaxClamp);
  Lambda = fminf(fmaxf(Lambda, 0.0f), (float)(NumLevels - 1));
  if (!MipLinear)
    return Levels[(int)floorf(Lambda + 0.5f)].sample(X, Y, Linear);
  int L = (int)floorf(Lambda);
  float Beta = weight(Lambda - L);
  float Lo = Levels[L].sample(X, Y, Linear);
  if (Beta == 0 || L + 1 >= NumLevels)
    return Lo;
  return (1 - Beta) * Lo + Beta * Levels[L + 1].sample(X, Y, Linear);
}

// The cubemap table: the face of the largest-magnitude coordinate m, and
// ((s/m + 1) / 2, (t/m + 1) / 2) on it.
static void cubeFace(float X, float Y, float Z, int &Face, float &U, float &V) {
  float AX = fabsf(X), AY = fabsf(Y), AZ = fabsf(Z), M, S, T;
  if (AX >= AY && AX >= AZ) {
    Face = X >= 0 ? 0 : 1, M = AX, S = X >= 0 ? -Z : Z, T = -Y;
  } else if (AY >= AZ) {
    Face = Y >= 0 ? 2 : 3, M = AY, S = X, T = Y >= 0 ? Z : -Z;
  } else {
    Face = Z >= 0 ? 4 : 5, M = AZ, S = Z >= 0 ? X : -X, T = -Y;
  }
  U = (S / M + 1) / 2, V = (T / M + 1) / 2;
}

// --- Kernels. ---

__global__ void sampleLod(cudaTextureObject_t Tex, const float4 *In,
                          float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex2DLod<float>(Tex, In[I].x, In[I].y, In[I].z);
}

__global__ void sampleGrad(cudaTextureObject_t Tex, const float4 *In,
                           const float4 *Grads, float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex2DGrad<float>(Tex, In[I].x, In[I].y,
                              make_float2(Grads[I].x, Grads[I].y),
                              make_float2(Grads[I].z, Grads[I].w));
}

__global__ void sampleCube(cudaTextureObject_t Tex, const float4 *In,
                           float *Out, int N, int Mode) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  float4 P = In[I];
  if (Mode == 0)
    Out[I] = texCubemap<float>(Tex, P.x, P.y, P.z);
  else if (Mode == 1)
    Out[I] = texCubemapLayered<float>(Tex, P.x, P.y, P.z, (int)P.w);
  else
    Out[I] = texCubemapLod<float>(Tex, P.x, P.y, P.z, P.w);
}

__global__ void cubeSurface(cudaSurfaceObject_t Surf, float *Out, int N) {
  int X = threadIdx.x, Y = threadIdx.y, Face = blockIdx.x;
  surfCubemapwrite<float>(Face * 1000.0f + Y * N + X, Surf, X * 4, Y, Face);
  __syncthreads();
  // Read the texel mirrored in x, written by another thread.
  Out[(Face * N + Y) * N + X] =
      surfCubemapread<float>(Surf, (N - 1 - X) * 4, Y, Face);
}

// --- The tests. ---

static cudaTextureDesc textureDesc(cudaTextureFilterMode F,
                                   cudaTextureFilterMode MipF) {
  cudaTextureDesc T;
  memset(&T, 0, sizeof T);
  T.addressMode[0] = T.addressMode[1] = T.addressMode[2] = cudaAddressModeClamp;
  T.filterMode = F;
  T.readMode = cudaReadModeElementType;
  T.normalizedCoords = 1;
  T.mipmapFilterMode = MipF;
  T.maxMipmapLevelClamp = 100;
  return T;
}

// Runs Kernel's lookups of In (and Grads) on Tex and compares each result
// with Ref(K).
template <typename RefFn>
static int compareLookups(const char *What, cudaTextureObject_t Tex,
                          const float4 *In, const float4 *Grads, int N,
                          int CubeMode, RefFn Ref) {
  float4 *DIn, *DGrads = nullptr;
  float *DOut;
  CHECK_CUDA(cudaMalloc(&DIn, N * sizeof(float4)));
  CHECK_CUDA(cudaMalloc(&DOut, N * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(DIn, In, N * sizeof(float4), cudaMemcpyHostToDevice));
  if (Grads) {
    CHECK_CUDA(cudaMalloc(&DGrads, N * sizeof(float4)));
    CHECK_CUDA(cudaMemcpy(DGrads, Grads, N * sizeof(float4),
                          cudaMemcpyHostToDevice));
    sampleGrad<<<(N + 63) / 64, 64>>>(Tex, DIn, DGrads, DOut, N);
  } else if (CubeMode >= 0) {
    sampleCube<<<(N + 63) / 64, 64>>>(Tex, DIn, DOut, N, CubeMode);
  } else {
    sampleLod<<<(N + 63) / 64, 64>>>(Tex, DIn, DOut, N);
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  static float Out[4096];
  CHECK_CUDA(cudaMemcpy(Out, DOut, N * sizeof(float), cudaMemcpyDeviceToHost));
  int Bad = 0;
  for (int K = 0; K != N; ++K) {
    float Want = Ref(K);
    if (!sameBits(Out[K], Want) && Bad++ < 5)
      printf("%s %d: (%g, %g, %g, %g) got %.9g want %.9g\n", What, K, In[K].x,
             In[K].y, In[K].z, In[K].w, Out[K], Want);
  }
  cudaFree(DIn);
  cudaFree(DGrads);
  cudaFree(DOut);
  return Bad;
}

static const int Size = 16, NumLevels = 5; // 16, 8, 4, 2, 1
static float LevelData[NumLevels][Size * Size];
static Level Levels[NumLevels];
static cudaMipmappedArray_t Mip;

static void makeMipmap() {
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  // 0 levels asks for all of them.
  CHECK_CUDA(cudaMallocMipmappedArray(&Mip, &Desc, make_cudaExtent(Size, Size, 0),
                                      0, 0));
  int Bad = 0;
  for (int L = 0; L != NumLevels; ++L) {
    int N = Size >> L;
    for (int I = 0; I != N * N; ++I)
      LevelData[L][I] = (float)(L * 64 + (I * 7) % 61);
    Levels[L] = {LevelData[L], N};
    cudaArray_t A;
    CHECK_CUDA(cudaGetMipmappedArrayLevel(&A, Mip, L));
    cudaExtent Ext;
    CHECK_CUDA(cudaArrayGetInfo(nullptr, &Ext, nullptr, A));
    Bad += Ext.width != (size_t)N || Ext.height != (size_t)N || Ext.depth != 0;
    CHECK_CUDA(cudaMemcpy2DToArray(A, 0, 0, LevelData[L], N * sizeof(float),
                                   N * sizeof(float), N,
                                   cudaMemcpyHostToDevice));
  }
  cudaArray_t Past;
  Bad += cudaGetMipmappedArrayLevel(&Past, Mip, NumLevels) !=
         cudaErrorInvalidValue;
  report("levels", Bad);
}

static cudaTextureObject_t mipTexture(const cudaTextureDesc &TD) {
  cudaResourceDesc Res;
  memset(&Res, 0, sizeof Res);
  Res.resType = cudaResourceTypeMipmappedArray;
  Res.res.mipmap.mipmap = Mip;
  cudaTextureObject_t Tex = 0;
  CHECK_CUDA(cudaCreateTextureObject(&Tex, &Res, &TD, nullptr));
  return Tex;
}

static void testLod() {
  const int N = 512;
  static float4 In[N];
  for (int K = 0; K != N; ++K)
    In[K] = make_float4(0.013f * (K % 83) - 0.05f, 0.0071f * (K % 149),
                        -0.7f + 0.0117f * K, 0);
  struct Case {
    const char *Name;
    cudaTextureFilterMode F, MipF;
    float Bias, MinClamp, MaxClamp;
  } Cases[] = {
      {"lod point", cudaFilterModePoint, cudaFilterModePoint, 0, 0, 100},
      {"lod linear", cudaFilterModeLinear, cudaFilterModeLinear, 0, 0, 100},
      {"lod bias and clamps", cudaFilterModeLinear, cudaFilterModeLinear,
       0.75f, 0.5f, 2.25f},
  };
  for (const Case &C : Cases) {
    cudaTextureDesc TD = textureDesc(C.F, C.MipF);
    TD.mipmapLevelBias = C.Bias;
    TD.minMipmapLevelClamp = C.MinClamp;
    TD.maxMipmapLevelClamp = C.MaxClamp;
    cudaTextureObject_t Tex = mipTexture(TD);
    int Bad = compareLookups(C.Name, Tex, In, nullptr, N, -1, [&](int K) {
      return mipSample(Levels, NumLevels, In[K].x, In[K].y, In[K].z,
                       C.F == cudaFilterModeLinear,
                       C.MipF == cudaFilterModeLinear, C.Bias, C.MinClamp,
                       C.MaxClamp);
    });
    report(C.Name, Bad);
    cudaDestroyTextureObject(Tex);
  }
}

static void testGrad() {
  const int N = 256;
  static float4 In[N], Grads[N];
  for (int K = 0; K != N; ++K) {
    In[K] = make_float4(0.0039f * K, 0.9f - 0.0031f * K, 0, 0);
    // Gradients from a fraction of a texel to several texels, in either
    // direction, the longer one in x or in y.
    float G = (0.25f + 0.11f * (K % 37)) / Size;
    Grads[K] = K % 2 ? make_float4(G, -0.5f * G, 0.1f * G, 0.2f * G)
                     : make_float4(0.3f * G, 0, 0, -G);
  }
  cudaTextureDesc TD = textureDesc(cudaFilterModeLinear, cudaFilterModeLinear);
  cudaTextureObject_t Tex = mipTexture(TD);
  int Bad = compareLookups("grad", Tex, In, Grads, N, -1, [&](int K) {
    float4 G = Grads[K];
    float LenX = G.x * Size * (G.x * Size) + G.y * Size * (G.y * Size);
    float LenY = G.z * Size * (G.z * Size) + G.w * Size * (G.w * Size);
    float Lambda = log2f(sqrtf(fmaxf(LenX, LenY)));
    return mipSample(Levels, NumLevels, In[K].x, In[K].y, Lambda, true, true,
                     0, 0, 100);
  });
  report("grad", Bad);
  cudaDestroyTextureObject(Tex);
}

// Directions toward every face, its edges and corners, and ties.
static float4 direction(int K, float W) {
  float X = (float)((K * 5) % 9 - 4) / 4, Y = (float)((K * 3) % 7 - 3) / 3,
        Z = (float)(K % 11 - 5) / 5;
  if (K % 13 == 0)
    X = 0.8f, Y = -0.3f, Z = 0.1f;
  if (X == 0 && Y == 0 && Z == 0)
    Z = 1;
  return make_float4(X * 1.7f, Y * 1.7f, Z * 1.7f, W);
}

static void testCubemaps() {
  const int N = 4, Layers = 2;
  static float Faces[Layers * 6][N * N];
  for (int F = 0; F != Layers * 6; ++F)
    for (int I = 0; I != N * N; ++I)
      Faces[F][I] = (float)(F * 16 + I);
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  auto Upload = [&](cudaArray_t A, int Slices) {
    cudaMemcpy3DParms P;
    memset(&P, 0, sizeof P);
    P.srcPtr = make_cudaPitchedPtr(Faces, N * sizeof(float), N, N);
    P.dstArray = A;
    P.extent = make_cudaExtent(N, N, Slices);
    P.kind = cudaMemcpyHostToDevice;
    CHECK_CUDA(cudaMemcpy3D(&P));
  };
  auto Face = [&](int Slice) { return Level{Faces[Slice], N}; };
  const int Count = 300;
  static float4 In[Count];

  cudaArray_t Cube, Layered;
  CHECK_CUDA(cudaMalloc3DArray(&Cube, &Desc, make_cudaExtent(N, N, 6),
                               cudaArrayCubemap));
  CHECK_CUDA(cudaMalloc3DArray(&Layered, &Desc, make_cudaExtent(N, N, 12),
                               cudaArrayCubemap | cudaArrayLayered));
  Upload(Cube, 6);
  Upload(Layered, 12);
  for (int Linear = 0; Linear != 2; ++Linear) {
    cudaResourceDesc Res;
    memset(&Res, 0, sizeof Res);
    Res.resType = cudaResourceTypeArray;
    Res.res.array.array = Cube;
    cudaTextureDesc TD = textureDesc(
        Linear ? cudaFilterModeLinear : cudaFilterModePoint,
        cudaFilterModePoint);
    cudaTextureObject_t Tex;
    CHECK_CUDA(cudaCreateTextureObject(&Tex, &Res, &TD, nullptr));
    for (int K = 0; K != Count; ++K)
      In[K] = direction(K, 0);
    int Bad = compareLookups("cube", Tex, In, nullptr, Count, 0, [&](int K) {
      int F;
      float U, V;
      cubeFace(In[K].x, In[K].y, In[K].z, F, U, V);
      return Face(F).sample(U, V, Linear);
    });
    report(Linear ? "cubemap linear" : "cubemap point", Bad);
    cudaDestroyTextureObject(Tex);
  }
  {
    cudaResourceDesc Res;
    memset(&Res, 0, sizeof Res);
    Res.resType = cudaResourceTypeArray;
    Res.res.array.array = Layered;
    cudaTextureDesc TD = textureDesc(cudaFilterModeLinear, cudaFilterModePoint);
    cudaTextureObject_t Tex;
    CHECK_CUDA(cudaCreateTextureObject(&Tex, &Res, &TD, nullptr));
    for (int K = 0; K != Count; ++K)
      In[K] = direction(K, (float)(K % Layers));
    int Bad = compareLookups("layered", Tex, In, nullptr, Count, 1, [&](int K) {
      int F;
      float U, V;
      cubeFace(In[K].x, In[K].y, In[K].z, F, U, V);
      return Face((int)In[K].w * 6 + F).sample(U, V, true);
    });
    report("cubemap layered", Bad);
    cudaDestroyTextureObject(Tex);
  }
  {
    // A mipmapped cubemap (4, 2, 1 texels a side): each level's faces hold
    // the first faces' values plus 1000 * level.
    cudaMipmappedArray_t MipCube;
    CHECK_CUDA(cudaMallocMipmappedArray(&MipCube, &Desc,
                                        make_cudaExtent(N, N, 6), 3,
                                        cudaArrayCubemap));
    static float LevelFaces[3][6 * N * N]; // each level's faces packed
    for (int L = 0; L != 3; ++L) {
      int S = N >> L;
      for (int F = 0; F != 6; ++F)
        for (int I = 0; I != S * S; ++I)
          LevelFaces[L][F * S * S + I] = (float)(L * 1000 + F * 16 + I);
      cudaArray_t A;
      CHECK_CUDA(cudaGetMipmappedArrayLevel(&A, MipCube, L));
      cudaMemcpy3DParms P;
      memset(&P, 0, sizeof P);
      P.srcPtr = make_cudaPitchedPtr(LevelFaces[L], S * sizeof(float), S, S);
      P.dstArray = A;
      P.extent = make_cudaExtent(S, S, 6);
      P.kind = cudaMemcpyHostToDevice;
      CHECK_CUDA(cudaMemcpy3D(&P));
    }
    cudaResourceDesc Res;
    memset(&Res, 0, sizeof Res);
    Res.resType = cudaResourceTypeMipmappedArray;
    Res.res.mipmap.mipmap = MipCube;
    cudaTextureDesc TD = textureDesc(cudaFilterModePoint, cudaFilterModePoint);
    cudaTextureObject_t Tex;
    CHECK_CUDA(cudaCreateTextureObject(&Tex, &Res, &TD, nullptr));
    for (int K = 0; K != Count; ++K)
      In[K] = direction(K, 0.37f * (K % 7) - 0.4f);
    int Bad = compareLookups("cube lod", Tex, In, nullptr, Count, 2, [&](int K) {
      int F;
      float U, V;
      cubeFace(In[K].x, In[K].y, In[K].z, F, U, V);
      float Lambda = fminf(fmaxf(In[K].w, 0.0f), 2.0f);
      int L = (int)floorf(Lambda + 0.5f);
      int S = N >> L;
      return Level{LevelFaces[L] + F * S * S, S}.point(U, V);
    });
    report("cubemap lod", Bad);
    cudaDestroyTextureObject(Tex);
    CHECK_CUDA(cudaFreeMipmappedArray(MipCube));
  }
  {
    cudaArray_t SurfCube;
    CHECK_CUDA(cudaMalloc3DArray(&SurfCube, &Desc, make_cudaExtent(N, N, 6),
                                 cudaArrayCubemap | cudaArraySurfaceLoadStore));
    cudaResourceDesc Res;
    memset(&Res, 0, sizeof Res);
    Res.resType = cudaResourceTypeArray;
    Res.res.array.array = SurfCube;
    cudaSurfaceObject_t Surf;
    CHECK_CUDA(cudaCreateSurfaceObject(&Surf, &Res));
    float *DOut;
    CHECK_CUDA(cudaMalloc(&DOut, 6 * N * N * sizeof(float)));
    cubeSurface<<<6, dim3(N, N)>>>(Surf, DOut, N);
    CHECK_CUDA(cudaDeviceSynchronize());
    static float Out[6 * N * N];
    CHECK_CUDA(cudaMemcpy(Out, DOut, sizeof Out, cudaMemcpyDeviceToHost));
    int Bad = 0;
    for (int F = 0; F != 6; ++F)
      for (int Y = 0; Y != N; ++Y)
        for (int X = 0; X != N; ++X)
          Bad += Out[(F * N + Y) * N + X] != F * 1000.0f + Y * N + (N - 1 - X);
    report("cubemap surface", Bad);
    cudaDestroySurfaceObject(Surf);
    cudaFree(DOut);
    CHECK_CUDA(cudaFreeArray(SurfCube));
  }
  CHECK_CUDA(cudaFreeArray(Cube));
  CHECK_CUDA(cudaFreeArray(Layered));
}

static void testErrors() {
  int Bad = 0;
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  cudaArray_t A;
  // Cubemap faces are square, 6 of them (per layer).
  Bad += cudaMalloc3DArray(&A, &Desc, make_cudaExtent(4, 5, 6),
                           cudaArrayCubemap) != cudaErrorInvalidValue;
  Bad += cudaMalloc3DArray(&A, &Desc, make_cudaExtent(4, 4, 5),
                           cudaArrayCubemap) != cudaErrorInvalidValue;
  Bad += cudaMalloc3DArray(&A, &Desc, make_cudaExtent(4, 4, 7),
                           cudaArrayCubemap | cudaArrayLayered) !=
         cudaErrorInvalidValue;
  // A level belongs to its mipmapped array.
  cudaArray_t Level0;
  CHECK_CUDA(cudaGetMipmappedArrayLevel(&Level0, Mip, 0));
  Bad += cudaFreeArray(Level0) != cudaErrorInvalidValue;
  // Mipmapped textures take normalized coordinates.
  cudaTextureDesc TD = textureDesc(cudaFilterModePoint, cudaFilterModePoint);
  TD.normalizedCoords = 0;
  cudaResourceDesc Res;
  memset(&Res, 0, sizeof Res);
  Res.resType = cudaResourceTypeMipmappedArray;
  Res.res.mipmap.mipmap = Mip;
  cudaTextureObject_t Tex;
  Bad += cudaCreateTextureObject(&Tex, &Res, &TD, nullptr) !=
         cudaErrorInvalidValue;
  // Filtering stays within a face: seamless filtering is refused.
  TD.normalizedCoords = 1;
  TD.seamlessCubemap = 1;
  Bad += cudaCreateTextureObject(&Tex, &Res, &TD, nullptr) !=
         cudaErrorNotSupported;
  CHECK_CUDA(cudaFreeMipmappedArray(Mip));
  Bad += cudaFreeMipmappedArray(Mip) != cudaErrorInvalidResourceHandle;
  cudaGetLastError();
  report("errors", Bad);
}

int main() {
  makeMipmap();
  testLod();
  testGrad();
  testCubemaps();
  testErrors();
  printf("failures: %d\n", Failures);
  return Failures != 0;
}
