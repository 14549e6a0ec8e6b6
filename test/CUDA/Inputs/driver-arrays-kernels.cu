// Kernels of driver-arrays.cu, which loads their PTX through the driver
// API (cuModuleLoad).
#include <cuda_runtime.h>

// out[y][x] = the texel at (x, y), point sampled at its center.
extern "C" __global__ void fetch2d(cudaTextureObject_t t, float *out, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

// out[z][y][x] = the texel at (x, y, z).
extern "C" __global__ void fetch3d(cudaTextureObject_t t, float *out) {
  int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
  out[(z * blockDim.y + y) * blockDim.x + x] =
      tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

// out[i] = the four channels at xy[i].
extern "C" __global__ void sample2d(cudaTextureObject_t t, const float2 *xy,
                                    float4 *out) {
  int i = threadIdx.x;
  out[i] = tex2D<float4>(t, xy[i].x, xy[i].y);
}

// The int at (x, y) of the surface becomes 1000 * y + x.
extern "C" __global__ void surfWrite(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = blockIdx.x;
  surf2Dwrite<int>(1000 * y + x, s, x * int(sizeof(int)), y);
}
