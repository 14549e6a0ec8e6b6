// Half precision (__half, __half2) arithmetic and conversions; bfloat16
// conversions and arithmetic.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

extern "C" __global__ void halfArith(const __half *a, const __half *b,
                                     __half *c, float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __half x = a[i], y = b[i];
  __half s = __hadd(x, y);
  __half p = __hmul(x, y);
  __half d = __hsub(s, p);
  __half m = __hfma(x, y, d);
  __half q = x / y; // operator overloads
  c[i] = __hlt(m, q) ? m : q;
  f[i] = __half2float(m) + __half2float(q);
}

extern "C" __global__ void halfConvert(const float *in, __half *h,
                                       float *back, int *ints,
                                       unsigned short *raw) {
  int i = threadIdx.x;
  float v = in[i];
  __half r = __float2half(v);
  __half rz = __float2half_rz(v);
  __half ru = __float2half_ru(v);
  __half rd = __float2half_rd(v);
  h[4 * i + 0] = r;
  h[4 * i + 1] = rz;
  h[4 * i + 2] = ru;
  h[4 * i + 3] = rd;
  back[i] = __half2float(r);
  ints[2 * i + 0] = __half2int_rn(r);
  ints[2 * i + 1] = __half2int_rz(ru);
  raw[i] = __half_as_ushort(r);
  // int -> half
  h[4 * i + 0] = __hadd(h[4 * i + 0], __int2half_rn(i));
}

extern "C" __global__ void half2Ops(const __half2 *a, const __half2 *b,
                                    __half2 *c, float2 *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __half2 x = a[i], y = b[i];
  __half2 s = __hadd2(x, y);
  __half2 p = __hmul2(x, y);
  __half2 m = __hfma2(x, y, s);
  __half2 sw = __lowhigh2highlow(m);
  __half2 mx = __hmax2(p, sw);
  c[i] = __hneg2(mx);
  f[i] = __half22float2(s);
  // Build a half2 from two floats and from two halves.
  __half2 g = __floats2half2_rn(f[i].x * 2.0f, 1.0f);
  c[i] = __hadd2(c[i], __halves2half2(__low2half(g), __high2half(x)));
}

// Dot product of half2 vectors accumulated in float.
extern "C" __global__ void half2Dot(const __half2 *a, const __half2 *b,
                                    float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = i; k < n; k += blockDim.x * gridDim.x) {
    __half2 p = __hmul2(a[k], b[k]);
    float2 pf = __half22float2(p);
    acc += pf.x + pf.y;
  }
  atomicAdd(out, acc);
}

extern "C" __global__ void halfAtomics(__half *h, __half2 *h2) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
  atomicAdd(h, __float2half(1.0f));
  atomicAdd(h2, __floats2half2_rn(0.5f, 0.25f));
#endif
}

extern "C" __global__ void bf16Convert(const float *in, __nv_bfloat16 *bf,
                                       float *back, int *ints, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  __nv_bfloat16 b = __float2bfloat16(v);
  __nv_bfloat16 bz = __float2bfloat16_rz(v);
  bf[2 * i] = b;
  bf[2 * i + 1] = bz;
  back[i] = __bfloat162float(b) + __bfloat162float(bz);
  ints[i] = __bfloat162int_rz(b);
}

extern "C" __global__ void bf16Arith(const __nv_bfloat16 *a,
                                     const __nv_bfloat16 *b, __nv_bfloat16 *c,
                                     __nv_bfloat162 *c2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __nv_bfloat16 x = a[i], y = b[i];
  __nv_bfloat162 v = __halves2bfloat162(x, y);
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  // Native bf16 arithmetic (sm_80+ in nvcc's headers).
  c[i] = __hfma(x, y, __hadd(x, y));
  c2[i] = __hmul2(v, __float2bfloat162_rn(0.5f));
#else
  float fx = __bfloat162float(x), fy = __bfloat162float(y);
  c[i] = __float2bfloat16(fx * fy + (fx + fy));
  c2[i] = __floats2bfloat162_rn(fx * 0.5f, fy * 0.5f);
#endif
  // half <-> bf16 through float.
  __half h = __float2half(__bfloat162float(x));
  c[i] = __float2bfloat16(__bfloat162float(c[i]) + __half2float(h));
}
