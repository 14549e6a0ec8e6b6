// SIMD-within-a-word intrinsics (what nvcc and clang make of __vadd2,
// __vabsdiffu4, __vcmpgtu4, __vsads2 ...: video instructions such as
// vabsdiff4 and vset2, or bit tricks with prmt and lop3), __byte_perm,
// fp8 conversions from <cuda_fp8.h> (cvt to and from .e4m3x2/.e5m2x2 from
// sm_89 on, software before), and half-precision comparisons (setp and set
// on .f16 and .f16x2).
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

extern "C" __global__ void simdBytes(const unsigned *a, const unsigned *b,
                                     unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned x = a[i], y = b[i];
  unsigned *o = out + 12 * i;
  o[0] = __vabsdiffu4(x, y);
  o[1] = __vadd4(x, y);
  o[2] = __vsub4(x, y);
  o[3] = __vcmpgtu4(x, y);
  o[4] = __vmaxs4(x, y);
  o[5] = __vminu4(x, y);
  o[6] = __vavgu4(x, y);
  o[7] = __vsadu4(x, y);
  o[8] = __vaddss4(x, y);
  o[9] = __vsetles4(x, y);
  o[10] = __vabsss4(x);
  o[11] = __byte_perm(x, y, 0x7531 ^ (i & 0x3333));
}

extern "C" __global__ void simdHalves(const unsigned *a, const unsigned *b,
                                      unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned x = a[i], y = b[i];
  unsigned *o = out + 10 * i;
  o[0] = __vadd2(x, y);
  o[1] = __vsub2(x, y);
  o[2] = __vabsdiffs2(x, y);
  o[3] = __vsads2(x, y);
  o[4] = __vavgu2(x, y);
  o[5] = __vhaddu2(x, y);
  o[6] = __vcmpeq2(x, y);
  o[7] = __vsetgts2(x, y);
  o[8] = __vmins2(x, y);
  o[9] = __vsubus2(x, y);
}

extern "C" __global__ void fp8Convert(const float2 *in, const __half2 *h,
                                      unsigned short *e4, unsigned short *e5,
                                      unsigned short *e4h, __half2_raw *back4,
                                      __half2_raw *back5, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  e4[i] = __nv_cvt_float2_to_fp8x2(in[i], __NV_SATFINITE, __NV_E4M3);
  e5[i] = __nv_cvt_float2_to_fp8x2(in[i], __NV_SATFINITE, __NV_E5M2);
  e4h[i] = __nv_cvt_halfraw2_to_fp8x2(h[i], __NV_SATFINITE, __NV_E4M3);
  back4[i] = __nv_cvt_fp8x2_to_halfraw2(e4[i], __NV_E4M3);
  back5[i] = __nv_cvt_fp8x2_to_halfraw2(e5[i], __NV_E5M2);
}

extern "C" __global__ void halfCompare(const __half2 *a, const __half2 *b,
                                       __half2 *gt, unsigned *mask,
                                       int *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __half2 x = a[i], y = b[i];
  gt[i] = __hgt2(x, y);
  mask[i] = __hlt2_mask(x, y);
  int f = 0;
  f |= __hlt(x.x, y.x) << 0;
  f |= __hgeu(x.y, y.y) << 1;
  f |= __hbeq2(x, y) << 2;
  f |= __hbneu2(x, y) << 3;
  f |= __hisnan(x.x) << 4;
  f |= __hne(x.y, y.y) << 5;
  flags[i] = f;
}
