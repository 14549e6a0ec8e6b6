// Integer edge cases: signed/unsigned division and remainder, shifts by
// variable amounts, bit intrinsics, 64-bit multiply-high, byte permute.
#include <cuda_runtime.h>

extern "C" __global__ void divRem(const int *a, const int *b, int *q, int *r,
                                  unsigned *uq, unsigned *ur) {
  int i = threadIdx.x;
  int x = a[i], y = b[i];
  // Caller guarantees y != 0 and not (INT_MIN, -1).
  q[i] = x / y;
  r[i] = x % y;
  uq[i] = (unsigned)x / (unsigned)y;
  ur[i] = (unsigned)x % (unsigned)y;
}

extern "C" __global__ void divRem64(const long long *a, const long long *b,
                                    long long *q,
                                    unsigned long long *uq) {
  int i = threadIdx.x;
  long long x = a[i], y = b[i];
  q[2 * i] = x / y;
  q[2 * i + 1] = x % y;
  uq[2 * i] = (unsigned long long)x / (unsigned long long)y;
  uq[2 * i + 1] = (unsigned long long)x % 10ull; // by constant
}

extern "C" __global__ void divByConst(const int *a, int *out) {
  int i = threadIdx.x;
  int x = a[i];
  out[4 * i + 0] = x / 7;
  out[4 * i + 1] = x % 13;
  out[4 * i + 2] = (unsigned)x / 3u;
  out[4 * i + 3] = x / -16;
}

// Shifts by variable amounts, including >= bit width (the PTX shl/shr
// semantics clamp; C is UB so we mask some and not others via intrinsics).
extern "C" __global__ void shifts(const unsigned *v, const unsigned *s,
                                  unsigned *out, int *sout,
                                  unsigned long long *wout) {
  int i = threadIdx.x;
  unsigned x = v[i], n = s[i];
  out[4 * i + 0] = x << (n & 31);
  out[4 * i + 1] = x >> (n & 31);
  sout[i] = (int)x >> (n & 31);
  unsigned long long w = ((unsigned long long)x << 32) | n;
  wout[2 * i] = w << (n & 63);
  wout[2 * i + 1] = (unsigned long long)((long long)w >> (n & 63));
  // Rotates via funnel shift.
  out[4 * i + 2] = __funnelshift_l(x, n, n);
  out[4 * i + 3] = __funnelshift_rc(x, x, n);
}

extern "C" __global__ void bitIntrinsics(const unsigned *v,
                                         const unsigned long long *w,
                                         int *out) {
  int i = threadIdx.x;
  unsigned x = v[i];
  unsigned long long y = w[i];
  int *o = out + 12 * i;
  o[0] = __popc(x);
  o[1] = __popcll(y);
  o[2] = __clz(x);
  o[3] = __clzll(y);
  o[4] = __ffs(x);
  o[5] = __ffsll(y);
  o[6] = (int)__brev(x);
  o[7] = (int)(__brevll(y) >> 7);
  o[8] = (int)__byte_perm(x, (unsigned)y, 0x3210 + (i & 7));
  o[9] = (int)__byte_perm(x, (unsigned)y, 0x0123); // constant selector
  o[10] = (int)__fns(x, 0, 2);
  o[11] = (int)(x & -x); // lowest set bit
}

extern "C" __global__ void mulVariants(const int *a, const int *b,
                                       const unsigned *ua,
                                       const unsigned *ub, int *out,
                                       long long *lout) {
  int i = threadIdx.x;
  int x = a[i], y = b[i];
  unsigned ux = ua[i], uy = ub[i];
  out[6 * i + 0] = __mul24(x, y);
  out[6 * i + 1] = (int)__umul24(ux, uy);
  out[6 * i + 2] = __mulhi(x, y);
  out[6 * i + 3] = (int)__umulhi(ux, uy);
  out[6 * i + 4] = (int)__sad(x, y, ux);
  out[6 * i + 5] = (int)__usad(ux, uy, 1u);
  lout[3 * i + 0] = (long long)x * (long long)y; // mul.wide.s32
  lout[3 * i + 1] = (long long)__mul64hi((long long)x << 20, (long long)y);
  lout[3 * i + 2] =
      (long long)__umul64hi((unsigned long long)ux << 32, uy | 1ull);
}

// Saturating / min / max / abs / average-ish ops and 16-bit / 8-bit types.
extern "C" __global__ void smallInts(const short *s, const unsigned char *c,
                                     const signed char *sc, int *out) {
  int i = threadIdx.x;
  short a = s[i];
  unsigned char b = c[i];
  signed char d = sc[i];
  out[6 * i + 0] = a * (short)b;
  out[6 * i + 1] = (unsigned short)a >> 3;
  out[6 * i + 2] = d >> 2;
  out[6 * i + 3] = abs((int)a);
  out[6 * i + 4] = __hadd(a, (int)d);   // (a+d)>>1 without overflow
  out[6 * i + 5] = __rhadd(a, (int)b);  // rounded average
}

// Overflow/wraparound and comparisons of signed vs unsigned.
extern "C" __global__ void wrapAround(const int *a, unsigned *flags,
                                      int *sums) {
  int i = threadIdx.x;
  int x = a[i];
  unsigned ux = (unsigned)x;
  sums[i] = (int)((unsigned)x + 0x7fffffffu);
  flags[i] = (x < 0 ? 1u : 0u) | (ux > 0x80000000u ? 2u : 0u) |
             ((unsigned)(x + 1) < ux ? 4u : 0u) | (x == -x ? 8u : 0u);
}

// Bit-field extract / insert patterns (bfe / bfi candidates) and lop3.
extern "C" __global__ void bitFields(const unsigned *v, const unsigned *w,
                                     unsigned *out, int start, int len) {
  int i = threadIdx.x;
  unsigned x = v[i], y = w[i];
  unsigned mask = len >= 32 ? 0xffffffffu : ((1u << len) - 1);
  out[4 * i + 0] = (x >> start) & mask;
  out[4 * i + 1] = (x & ~(mask << start)) | ((y & mask) << start);
  out[4 * i + 2] = (x & y) | (~x & (y ^ 0x5a5a5a5au));
  out[4 * i + 3] = ((x >> 8) & 0xff) | ((y >> 16) & 0xf) << 8;
}

// Compilers do not emit lop3 at the PTX level (ptxas forms it later), so
// use it explicitly through inline PTX, as hand-tuned libraries do.
// immLut = f(0xF0, 0xCC, 0xAA): here (a & b) ^ c  ->  (0xF0 & 0xCC) ^ 0xAA.
extern "C" __global__ void inlineLop3(const unsigned *a, const unsigned *b,
                                      const unsigned *c, unsigned *out) {
  int i = threadIdx.x;
  unsigned r, m;
  asm("lop3.b32 %0, %1, %2, %3, 0x6A;" : "=r"(r) : "r"(a[i]), "r"(b[i]), "r"(c[i]));
  // Majority function: (a&b)|(a&c)|(b&c) -> 0xE8.
  asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(m) : "r"(a[i]), "r"(b[i]), "r"(c[i]));
  out[2 * i] = r;
  out[2 * i + 1] = m;
}
