// Single-precision intrinsics and float <-> int conversions with explicit
// rounding modes, saturation, special values.
#include <cuda_runtime.h>

extern "C" __global__ void floatIntrinsics(const float *x, const float *y,
                                           float *out) {
  int i = threadIdx.x;
  float a = x[i], b = y[i];
  float *o = out + 12 * i;
  o[0] = __fdividef(a, b);
  o[1] = __expf(a);
  o[2] = rsqrtf(fabsf(b));
  o[3] = __saturatef(a);
  o[4] = __sinf(a) + __cosf(b);
  o[5] = __logf(fabsf(a) + 1.0f);
  o[6] = __powf(fabsf(a), 0.5f);
  o[7] = __frcp_rn(b);
  o[8] = __fsqrt_rn(fabsf(a));
  o[9] = __fmaf_rz(a, b, 1.0f);
  o[10] = __fadd_rd(a, b) - __fmul_ru(a, b);
  o[11] = exp2f(a) + log2f(fabsf(b) + 1.0f) + __exp10f(a * 0.1f);
}

extern "C" __global__ void floatMath(const float *x, float *out) {
  int i = threadIdx.x;
  float a = x[i];
  float *o = out + 10 * i;
  o[0] = sqrtf(a);
  o[1] = a / 3.0f;
  o[2] = 1.0f / a;
  o[3] = sinf(a);
  o[4] = expf(a);
  o[5] = fminf(a, 2.0f) + fmaxf(a, -2.0f);
  o[6] = copysignf(1.5f, a);
  o[7] = truncf(a) + roundf(a) + rintf(a);
  o[8] = fmodf(a, 1.25f);
  o[9] = tanhf(a);
}

extern "C" __global__ void floatToInt(const float *x, int *si, unsigned *ui,
                                      long long *sl, unsigned long long *ul) {
  int i = threadIdx.x;
  float a = x[i];
  // C casts truncate toward zero (cvt.rzi).
  si[5 * i + 0] = (int)a;
  si[5 * i + 1] = __float2int_rn(a);
  si[5 * i + 2] = __float2int_rd(a);
  si[5 * i + 3] = __float2int_ru(a);
  si[5 * i + 4] = lrintf(a);
  ui[2 * i + 0] = (unsigned)a;
  ui[2 * i + 1] = __float2uint_rn(a);
  sl[i] = (long long)a + __float2ll_rd(a);
  ul[i] = (unsigned long long)a;
}

extern "C" __global__ void intToFloat(const int *si, const unsigned *ui,
                                      const long long *sl,
                                      const unsigned long long *ul,
                                      float *f, double *d) {
  int i = threadIdx.x;
  f[4 * i + 0] = (float)si[i];
  f[4 * i + 1] = __int2float_rz(si[i]);
  f[4 * i + 2] = (float)ui[i] + __uint2float_ru(ui[i]);
  f[4 * i + 3] = (float)sl[i] + __ull2float_rd(ul[i]);
  d[2 * i + 0] = (double)sl[i];
  d[2 * i + 1] = (double)ul[i];
}

// Bit casts and special values (inf, nan, -0, denormals).
extern "C" __global__ void floatBits(const float *x, unsigned *bits,
                                     float *out) {
  int i = threadIdx.x;
  float a = x[i];
  bits[i] = __float_as_uint(a);
  float inf = __int_as_float(0x7f800000);
  float nan = __int_as_float(0x7fc00000);
  float negz = -0.0f;
  float denorm = __int_as_float(0x00000001);
  out[4 * i + 0] = a > 0.0f ? inf : negz;
  out[4 * i + 1] = isnan(a) ? nan : a * denorm;
  out[4 * i + 2] = (a != a) ? 1.0f : (isinf(a) ? 2.0f : 3.0f);
  out[4 * i + 3] = fabsf(a) < 1e-38f ? 0.0f : a;
}

// Flush-to-zero and fast math sensitive expressions.
extern "C" __global__ void floatCompare(const float *x, const float *y,
                                        int *out) {
  int i = threadIdx.x;
  float a = x[i], b = y[i];
  // Ordered vs unordered comparisons.
  out[i] = (a < b) | ((a <= b) << 1) | ((a == b) << 2) | ((a != b) << 3) |
           (!(a >= b) << 4) | (!(a > b) << 5) | ((isnan(a) || isnan(b)) << 6);
}
