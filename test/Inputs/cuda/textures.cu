// Texture and surface objects as CUDA code uses them: fetches from linear
// memory, 1D/2D/3D/layered/cubemap arrays with point and linear filtering,
// explicit level of detail and gradients, gathers (tld4), and surface
// reads and writes.
#include <cuda_runtime.h>

extern "C" __global__ void fetchLinear(cudaTextureObject_t T, float *Out,
                                       int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex1Dfetch<float>(T, I) + tex1Dfetch<float>(T, N - 1 - I);
}

extern "C" __global__ void sample2D(cudaTextureObject_t T, float4 *Out,
                                    int W, int H) {
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= W || Y >= H)
    return;
  float U = (X + 0.25f) / W, V = (Y + 0.75f) / H;
  float4 A = tex2D<float4>(T, U, V);
  float4 L = tex2DLod<float4>(T, U, V, 1.5f);
  float4 G = tex2DGrad<float4>(T, U, V, make_float2(0.5f / W, 0),
                               make_float2(0, 0.5f / H));
  Out[Y * W + X] = make_float4(A.x + L.y, A.y + G.z, L.w, G.x);
}

extern "C" __global__ void gather2D(cudaTextureObject_t T, float4 *Out,
                                    int W) {
  int X = threadIdx.x;
  Out[X] = tex2Dgather<float4>(T, X + 0.5f, 1.5f, X % 4);
}

extern "C" __global__ void sampleLayered(cudaTextureObject_t T1,
                                         cudaTextureObject_t T2, float *Out,
                                         int Layers) {
  int I = threadIdx.x;
  float X = I * 0.37f;
  Out[I] = tex1DLayered<float>(T1, X, I % Layers) +
           tex2DLayered<float>(T2, X, 1.25f, (I + 1) % Layers);
}

extern "C" __global__ void sample3DCube(cudaTextureObject_t T3,
                                        cudaTextureObject_t Cube,
                                        cudaTextureObject_t CubeLayers,
                                        float *Out) {
  int I = threadIdx.x;
  float S = I / 32.0f;
  Out[I] = tex3D<float>(T3, S, 1 - S, 0.5f) +
           texCubemap<float>(Cube, S - 0.5f, 1.0f, 0.25f - S) +
           texCubemapLayered<float>(CubeLayers, 1.0f, S, -S, 1);
}

extern "C" __global__ void surfaces(cudaSurfaceObject_t S1,
                                    cudaSurfaceObject_t S2, int W, int H) {
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= W || Y >= H)
    return;
  uchar4 P = surf2Dread<uchar4>(S2, X * 4, Y, cudaBoundaryModeClamp);
  P.x = 255 - P.x;
  surf2Dwrite(P, S2, X * 4, Y);
  if (Y == 0) {
    float F;
    surf1Dread(&F, S1, X * 4, cudaBoundaryModeZero);
    surf1Dwrite(F * 2 + X, S1, X * 4);
  }
}

extern "C" __global__ void textureQueries(cudaTextureObject_t T, int *Out) {
  // Integer reads of a texture of chars: element read mode.
  Out[threadIdx.x] = tex1Dfetch<int>(T, threadIdx.x) +
                     tex1Dfetch<char>(T, threadIdx.x + 1);
}
