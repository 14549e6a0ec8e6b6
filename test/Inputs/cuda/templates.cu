// Templated kernels and device functions with several instantiations
// (C++-mangled names), including non-type template parameters, functors,
// and a kernel template called via explicit instantiation.
#include <cuda_runtime.h>

template <typename T> struct Plus {
  __device__ T operator()(T a, T b) const { return a + b; }
};
template <typename T> struct Times {
  __device__ T operator()(T a, T b) const { return a * b; }
};
template <typename T> struct MinOp {
  __device__ T operator()(T a, T b) const { return a < b ? a : b; }
};

template <typename T, typename Op>
__global__ void binaryMap(const T *a, const T *b, T *c, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = op(a[i], b[i]);
}

template __global__ void binaryMap<float, Plus<float>>(const float *,
                                                       const float *, float *,
                                                       int, Plus<float>);
template __global__ void binaryMap<double, Times<double>>(const double *,
                                                          const double *,
                                                          double *, int,
                                                          Times<double>);
template __global__ void binaryMap<int, MinOp<int>>(const int *, const int *,
                                                    int *, int, MinOp<int>);
template __global__ void
binaryMap<unsigned long long, Plus<unsigned long long>>(
    const unsigned long long *, const unsigned long long *,
    unsigned long long *, int, Plus<unsigned long long>);
template __global__ void binaryMap<short, Times<short>>(const short *,
                                                        const short *, short *,
                                                        int, Times<short>);
template __global__ void binaryMap<unsigned char, Plus<unsigned char>>(
    const unsigned char *, const unsigned char *, unsigned char *, int,
    Plus<unsigned char>);

// Non-type template parameter: unrolled per-thread work.
template <int N, typename T>
__global__ void unrolledScale(T *data, T s) {
  T *p = data + (blockIdx.x * blockDim.x + threadIdx.x) * N;
#pragma unroll
  for (int k = 0; k < N; ++k)
    p[k] = p[k] * s + (T)k;
}

template __global__ void unrolledScale<1, float>(float *, float);
template __global__ void unrolledScale<4, float>(float *, float);
template __global__ void unrolledScale<8, int>(int *, int);
template __global__ void unrolledScale<3, double>(double *, double);

// Non-inlined template device function with several instantiations.
template <typename T> __device__ __noinline__ T clampT(T v, T lo, T hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

template <typename T>
__global__ void clampKernel(T *data, T lo, T hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = clampT(data[i], lo, hi);
}

template __global__ void clampKernel<int>(int *, int, int, int);
template __global__ void clampKernel<float>(float *, float, float, int);
template __global__ void clampKernel<long long>(long long *, long long,
                                                long long, int);

// Kernel in a namespace with a struct parameter passed by value.
namespace ns {
struct Params {
  float scale;
  int offset;
  int n;
  float bias[4];
};

template <bool Accumulate>
__global__ void apply(Params p, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n)
    return;
  float v = in[i] * p.scale + p.bias[i & 3] + (float)p.offset;
  if (Accumulate)
    out[i] += v;
  else
    out[i] = v;
}
template __global__ void apply<true>(Params, const float *, float *);
template __global__ void apply<false>(Params, const float *, float *);
} // namespace ns

// Variadic template device function.
template <typename T> __device__ T sumAll(T v) { return v; }
template <typename T, typename... Rest>
__device__ T sumAll(T v, Rest... rest) {
  return v + sumAll(rest...);
}

extern "C" __global__ void variadicUse(int *out) {
  int t = threadIdx.x;
  out[t] = sumAll(t, 1, 2, 3, t * 2);
}
