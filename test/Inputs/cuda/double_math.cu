// Double-precision arithmetic and libdevice math.
#include <cuda_runtime.h>

extern "C" __global__ void dmath(const double *x, const double *y, double *out,
                                 int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double a = x[i], b = y[i];
  double r0 = sqrt(fabs(a));
  double r1 = fma(a, b, 1.0);
  double r2 = a / b;
  double r3 = sin(a) + cos(b);
  double r4 = exp(a * 0.001);
  double r5 = log(fabs(b) + 1.0);
  double r6 = pow(fabs(a), 0.25);
  double r7 = rsqrt(fabs(b) + 1e-300);
  double r8 = 1.0 / a;
  out[9 * i + 0] = r0;
  out[9 * i + 1] = r1;
  out[9 * i + 2] = r2;
  out[9 * i + 3] = r3;
  out[9 * i + 4] = r4;
  out[9 * i + 5] = r5;
  out[9 * i + 6] = r6;
  out[9 * i + 7] = r7;
  out[9 * i + 8] = r8;
}

// Explicit rounding-mode intrinsics.
extern "C" __global__ void droundings(const double *x, const double *y,
                                      double *out, long long *li) {
  int i = threadIdx.x;
  double a = x[i], b = y[i];
  out[8 * i + 0] = __dadd_rn(a, b);
  out[8 * i + 1] = __dadd_rz(a, b);
  out[8 * i + 2] = __dmul_ru(a, b);
  out[8 * i + 3] = __dmul_rd(a, b);
  out[8 * i + 4] = __ddiv_rn(a, b);
  out[8 * i + 5] = __fma_rz(a, b, 0.5);
  out[8 * i + 6] = __dsqrt_rn(fabs(a));
  out[8 * i + 7] = __drcp_rn(b);
  li[3 * i + 0] = __double2ll_rn(a);
  li[3 * i + 1] = (long long)floor(a);
  li[3 * i + 2] = __double_as_longlong(b);
}

// Mixed float/double conversions and comparisons with NaN handling.
extern "C" __global__ void dconvert(const float *f, const double *d,
                                    float *fo, double *dout, int *flags) {
  int i = threadIdx.x;
  double x = d[i];
  float y = f[i];
  fo[i] = (float)x + y;
  dout[i] = (double)y * x;
  flags[i] = (isnan(x) ? 1 : 0) | (isinf(x) ? 2 : 0) | (x < (double)y ? 4 : 0) |
             (signbit(x) ? 8 : 0);
}

// Double-precision Horner polynomial and Newton iteration.
extern "C" __global__ void dnewton(double *x, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double a = x[i];
  double g = a > 1.0 ? a : 1.0;
  for (int k = 0; k < iters; ++k)
    g = 0.5 * (g + a / g);
  double p = ((((0.1 * g + 0.2) * g + 0.3) * g + 0.4) * g + 0.5);
  x[i] = p;
}
