// Non-inlined device functions (real PTX .func calls), recursion, and
// indirect calls through a __device__ table of function pointers.
#include <cuda_runtime.h>

__device__ __noinline__ float addScaled(float a, float b, float s) {
  return a + b * s;
}

// Returns a struct by value (aggregate return through .param).
struct Pair {
  int lo;
  int hi;
};

__device__ __noinline__ Pair splitBits(unsigned long long v) {
  Pair p;
  p.lo = (int)(v & 0xffffffffu);
  p.hi = (int)(v >> 32);
  return p;
}

// Takes an aggregate by value and a pointer.
struct Vec3 {
  float x, y, z;
};

__device__ __noinline__ float dot3(Vec3 a, const Vec3 *b) {
  return a.x * b->x + a.y * b->y + a.z * b->z;
}

// Void function with side effects only.
__device__ __noinline__ void storeTwice(int *p, int v) {
  p[0] = v;
  p[1] = v * 2;
}

// Recursive functions: the compiler cannot inline these.
__device__ __noinline__ unsigned fib(unsigned n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ int gcdRec(int a, int b) {
  return b == 0 ? a : gcdRec(b, a % b);
}

// Mutual recursion.
__device__ __noinline__ bool isOdd(unsigned n);
__device__ __noinline__ bool isEven(unsigned n) {
  return n == 0 ? true : isOdd(n - 1);
}
__device__ __noinline__ bool isOdd(unsigned n) {
  return n == 0 ? false : isEven(n - 1);
}

extern "C" __global__ void callKernel(const float *a, const float *b, float *c,
                                      int *ints, const unsigned long long *w,
                                      int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  c[i] = addScaled(a[i], b[i], 0.5f);
  Pair p = splitBits(w[i]);
  storeTwice(&ints[4 * i], p.lo);
  ints[4 * i + 2] = p.hi;
  Vec3 v = {a[i], b[i], c[i]};
  Vec3 u = {1.0f, 2.0f, 3.0f};
  c[i] += dot3(v, &u);
  ints[4 * i + 3] = isEven((unsigned)i) ? 1 : 0;
}

extern "C" __global__ void recursionKernel(unsigned *out, const int *pairs) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  out[2 * t] = fib(t % 16);
  out[2 * t + 1] = (unsigned)gcdRec(pairs[2 * t], pairs[2 * t + 1]);
}

// ---- Function pointers ----------------------------------------------------
typedef float (*BinOp)(float, float);

__device__ float opAdd(float a, float b) { return a + b; }
__device__ float opSub(float a, float b) { return a - b; }
__device__ float opMul(float a, float b) { return a * b; }
__device__ float opMax(float a, float b) { return fmaxf(a, b); }

// Table of function pointers in global memory (address-of initializers of
// functions).
__device__ BinOp opTable[4] = {opAdd, opSub, opMul, opMax};

// A single function-pointer variable that the host may overwrite.
__device__ BinOp selectedOp = opMul;

extern "C" __global__ void indirectCalls(const float *a, const float *b,
                                         float *c, const int *which, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // Lane-dependent (divergent) indirect call target.
  BinOp f = opTable[which[i] & 3];
  float r = f(a[i], b[i]);
  // Uniform indirect call target.
  r = selectedOp(r, 2.0f);
  c[i] = r;
}

// Function pointer passed as a kernel-local choice among __noinline__ funcs.
typedef int (*IntFn)(int);
__device__ __noinline__ int twice(int x) { return 2 * x; }
__device__ __noinline__ int square(int x) { return x * x; }
__device__ __noinline__ int negate(int x) { return -x; }

extern "C" __global__ void localFnPtr(int *data, int mode) {
  IntFn fns[3] = {twice, square, negate};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  IntFn f = fns[(mode + i) % 3];
  data[i] = f(data[i]);
}
