// Atomic operations on global and shared memory, with and without use of
// the returned value (so both atom.* and red.* forms appear).
#include <cuda_runtime.h>

extern "C" __global__ void atomicsInt(int *counters, unsigned *ucounters,
                                      int *oldVals) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  // Result unused: typically red.global.add.
  atomicAdd(&counters[0], 1);
  // Result used: atom.global.add.
  oldVals[t] = atomicAdd(&counters[1], t);
  atomicSub(&counters[2], 2);
  atomicMax(&counters[3], t);
  atomicMin(&counters[4], -t);
  atomicAnd(&counters[5], ~(1 << (t & 31)));
  atomicOr(&counters[6], 1 << (t & 31));
  atomicXor(&counters[7], t);
  // Wrapping increment/decrement.
  atomicInc(&ucounters[0], 16u);
  atomicDec(&ucounters[1], 16u);
  atomicMax(&ucounters[2], (unsigned)t * 2654435761u);
  // Exchange.
  int prev = atomicExch(&counters[8], t);
  oldVals[t] += prev & 0;
}

extern "C" __global__ void atomicsFloat(float *f, double *d,
                                        const float *in) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&f[0], in[t]);
  atomicAdd(&d[0], (double)in[t]);
  float old = atomicExch(&f[1], in[t]);
  atomicAdd(&d[1], (double)old);
}

extern "C" __global__ void atomics64(unsigned long long *u, long long *s) {
  unsigned long long t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&u[0], t << 33);
  atomicMax(&s[0], (long long)t - 100);
  atomicMin(&u[1], t + 5);
  atomicOr(&u[2], 1ull << (t & 63));
  atomicExch(&u[3], t);
  atomicCAS(&u[4], 0ull, t + 1);
}

// CAS loop implementing an atomic float max.
__device__ float atomicMaxFloat(float *addr, float val) {
  int *ai = reinterpret_cast<int *>(addr);
  int old = *ai, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= val)
      break;
    old = atomicCAS(ai, assumed, __float_as_int(val));
  } while (assumed != old);
  return __int_as_float(old);
}

extern "C" __global__ void casMax(const float *in, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    atomicMaxFloat(out, in[t]);
}

// Shared-memory histogram with atomics on shared, then merged into global.
extern "C" __global__ void histogram(const unsigned char *data, int n,
                                     unsigned *bins) {
  __shared__ unsigned local[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    if (local[i])
      atomicAdd(&bins[i], local[i]);
}

// Spin lock built from atomicCAS/atomicExch with a memory fence.
extern "C" __global__ void lockedIncrement(int *lock, int *value) {
  if (threadIdx.x % 32 == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
      __nanosleep(32);
#endif
    }
    __threadfence();
    *value += 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}

// Block-scope and system-scope variants (sm_60+).
extern "C" __global__ void scopedAtomics(int *a, float *f) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
  atomicAdd_block(&a[0], 1);
  atomicAdd_system(&a[1], 1);
  atomicExch_block(&a[2], (int)threadIdx.x);
  atomicAdd_block(&f[0], 1.0f);
#else
  atomicAdd(&a[0], 1);
#endif
}

// Neither compiler emits red.* at the PTX level (ptxas turns unused-result
// atom into RED later), so spell the reduction forms out in inline PTX.
extern "C" __global__ void inlineRed(unsigned *u, float *f,
                                     unsigned long long *w) {
  unsigned t = threadIdx.x;
  asm volatile("red.global.add.u32 [%0], %1;" ::"l"(u), "r"(t) : "memory");
  asm volatile("red.global.max.u32 [%0], %1;" ::"l"(u + 1), "r"(t) : "memory");
  asm volatile("red.global.add.f32 [%0], %1;" ::"l"(f), "f"((float)t)
               : "memory");
  asm volatile("red.relaxed.gpu.global.add.u64 [%0], %1;" ::"l"(w),
               "l"((unsigned long long)t)
               : "memory");
}
