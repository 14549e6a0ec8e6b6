// Elementwise float kernels: vector add, saxpy, float4 loads/stores, __ldg,
// and a grid-stride loop.
#include <cuda_runtime.h>

extern "C" __global__ void vecAdd(const float *a, const float *b, float *c,
                                  int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy(int n, float alpha, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = alpha * x[i] + y[i];
}

// Grid-stride loop; reads through the read-only data cache.
extern "C" __global__ void saxpyGridStride(int n, float alpha,
                                           const float *__restrict__ x,
                                           float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = alpha * __ldg(&x[i]) + y[i];
}

// Vectorized: each thread handles one float4 (n4 = n / 4).
extern "C" __global__ void vecAdd4(const float4 *__restrict__ a,
                                   const float4 *__restrict__ b,
                                   float4 *__restrict__ c, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 va = a[i];
    float4 vb = __ldg(&b[i]);
    float4 r;
    r.x = va.x + vb.x;
    r.y = va.y + vb.y;
    r.z = va.z + vb.z;
    r.w = va.w + vb.w;
    c[i] = r;
  }
}

// Mixed vector widths: float2 in, int4 out.
extern "C" __global__ void pack2to4(const float2 *in, int4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 p = in[2 * i];
    float2 q = in[2 * i + 1];
    out[i] = make_int4((int)p.x, (int)p.y, (int)q.x, (int)q.y);
  }
}
