// Module-scope variables: __constant__ arrays with initializers, __device__
// arrays with initializers, arrays of pointers to other globals
// (address-of initializers, generic() in PTX), structs, and strings.
#include <cuda_runtime.h>

__constant__ float cCoeffs[8] = {0.5f, -1.25f, 2.0f, 3.5f,
                                 -0.125f, 1e-3f, 6.02e23f, -0.0f};
__constant__ int cLut[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
__constant__ double cPoly[4] = {1.0, 0.5, 1.0 / 6.0, 1.0 / 24.0};
// Uninitialized constant (to be filled by cudaMemcpyToSymbol).
__constant__ float cScale[4];

__device__ int gTable[10] = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89};
__device__ float gWeights[6] = {0.1f, 0.2f, 0.3f};  // rest zero
__device__ unsigned long long gBig[3] = {0xffffffffffffffffull, 1ull << 40,
                                         12345678901234ull};
__device__ short gShorts[5] = {-1, 2, -3, 4, -5};
__device__ unsigned char gBytes[7] = {'a', 'b', 'c', 0, 255, 128, 7};
__device__ int gCounter;         // zero-initialized
__device__ float gMatrix[3][3] = {{1, 0, 0}, {0, 2, 0}, {0, 0, 3}};

// Array of pointers to other globals (address-of initializers).
__device__ int *gPtrs[3] = {&gTable[0], &gTable[5], &gCounter};
__device__ const float *gFptrs[2] = {gWeights, &gMatrix[1][1]};
// Pointer into a __constant__ array is not allowed as initializer in
// __device__ memory for all compilers; use device globals only.

struct Config {
  int mode;
  float gain;
  const int *lut;
  char name[8];
};
__device__ Config gConfig = {3, 1.5f, &gTable[2], "cfg"};
__device__ const char gMessage[] = "ptx-jit global string";

extern "C" __global__ void useConstants(const float *x, float *out,
                                        const unsigned *bits) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[t];
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    acc = acc * v + cCoeffs[k];
  // Dynamic index into constant memory.
  unsigned b = bits[t];
  int pc = cLut[b & 15] + cLut[(b >> 4) & 15];
  double e = cPoly[0] + v * (cPoly[1] + v * (cPoly[2] + v * cPoly[3]));
  out[t] = acc + (float)pc + (float)e * cScale[t & 3];
}

extern "C" __global__ void useDeviceGlobals(int *out, int sel) {
  int t = threadIdx.x;
  int *p = gPtrs[sel % 3];
  const float *fp = gFptrs[t & 1];
  out[8 * t + 0] = gTable[t % 10];
  out[8 * t + 1] = p[t & 1];
  out[8 * t + 2] = (int)(fp[0] * 100.0f);
  out[8 * t + 3] = (int)(gBig[t % 3] >> 32);
  out[8 * t + 4] = gShorts[t % 5] + gBytes[t % 7];
  out[8 * t + 5] = gConfig.mode + gConfig.lut[t & 1] + (int)gConfig.gain;
  out[8 * t + 6] = gMessage[t % sizeof(gMessage)] + gConfig.name[t & 3];
  out[8 * t + 7] = (int)gMatrix[t % 3][(t / 3) % 3];
  atomicAdd(&gCounter, 1);
}

// Writing to a __device__ global that the host reads back.
__device__ float gAccum[256];
extern "C" __global__ void accumulate(const float *x) {
  int t = threadIdx.x;
  gAccum[t] += x[blockIdx.x * blockDim.x + t];
  gWeights[t % 6] = gWeights[t % 6] * 0.5f;
}

// Static (file-local) globals and a function-local static in device memory.
static __device__ int sHidden[4] = {7, 7, 7, 7};
extern "C" __global__ void useStatic(int *out) {
  out[threadIdx.x] = sHidden[threadIdx.x & 3]++;
}
