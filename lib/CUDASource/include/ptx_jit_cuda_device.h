/*===- ptx_jit_cuda_device.h - Device declarations without a CUDA toolkit --===
 *
 * ptx-jit includes this file (embedded in the binary) before a .cu file when
 * no CUDA installation is visible: it declares what plain kernels use, in
 * terms of Clang's NVPTX builtins. Math functions (sinf, expf, ...) are not
 * here: they come from libdevice, which only a CUDA installation has.
 *
 *===----------------------------------------------------------------------===*/

#ifndef PTX_JIT_CUDA_DEVICE_H
#define PTX_JIT_CUDA_DEVICE_H

#define PTX_JIT_BUILTIN_CUDA_HEADERS 1

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict

#define __PTX_JIT_DEVICE__ static __device__ __forceinline__

typedef unsigned long size_t;

struct uint3 {
  unsigned int x, y, z;
};
struct dim3 {
  unsigned int x, y, z;
#if __cplusplus >= 201103L
  __host__ __device__ constexpr dim3(unsigned int X = 1, unsigned int Y = 1,
                                     unsigned int Z = 1)
      : x(X), y(Y), z(Z) {}
  __host__ __device__ constexpr dim3(uint3 V) : x(V.x), y(V.y), z(V.z) {}
#endif
};

/* threadIdx, blockIdx, blockDim, gridDim and warpSize come from Clang. */
#include "__clang_cuda_builtin_vars.h"

__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const {
  return dim3(x, y, z);
}

/* Barriers and fences (__syncthreads is a Clang builtin). */
__PTX_JIT_DEVICE__ int __syncthreads_count(int P) {
  return __nvvm_bar0_popc(P);
}
__PTX_JIT_DEVICE__ int __syncthreads_and(int P) { return __nvvm_bar0_and(P); }
__PTX_JIT_DEVICE__ int __syncthreads_or(int P) { return __nvvm_bar0_or(P); }
__PTX_JIT_DEVICE__ void __syncwarp(unsigned Mask = 0xffffffffu) {
  __nvvm_bar_warp_sync(Mask);
}
__PTX_JIT_DEVICE__ void __threadfence_block(void) { __nvvm_membar_cta(); }
__PTX_JIT_DEVICE__ void __threadfence(void) { __nvvm_membar_gl(); }
__PTX_JIT_DEVICE__ void __threadfence_system(void) { __nvvm_membar_sys(); }

/* Atomics: the old value is returned, as in CUDA. */
#define __PTX_JIT_ATOMIC(NAME, T, BUILTIN)                                     \
  __PTX_JIT_DEVICE__ T NAME(T *P, T V) { return BUILTIN(P, V); }
__PTX_JIT_ATOMIC(atomicAdd, int, __nvvm_atom_add_gen_i)
__PTX_JIT_ATOMIC(atomicAdd, float, __nvvm_atom_add_gen_f)
__PTX_JIT_ATOMIC(atomicAdd, double, __nvvm_atom_add_gen_d)
__PTX_JIT_ATOMIC(atomicExch, int, __nvvm_atom_xchg_gen_i)
__PTX_JIT_ATOMIC(atomicMin, int, __nvvm_atom_min_gen_i)
__PTX_JIT_ATOMIC(atomicMax, int, __nvvm_atom_max_gen_i)
__PTX_JIT_ATOMIC(atomicAnd, int, __nvvm_atom_and_gen_i)
__PTX_JIT_ATOMIC(atomicOr, int, __nvvm_atom_or_gen_i)
__PTX_JIT_ATOMIC(atomicXor, int, __nvvm_atom_xor_gen_i)
__PTX_JIT_ATOMIC(atomicMin, unsigned int, __nvvm_atom_min_gen_ui)
__PTX_JIT_ATOMIC(atomicMax, unsigned int, __nvvm_atom_max_gen_ui)
__PTX_JIT_ATOMIC(atomicInc, unsigned int, __nvvm_atom_inc_gen_ui)
__PTX_JIT_ATOMIC(atomicDec, unsigned int, __nvvm_atom_dec_gen_ui)
__PTX_JIT_ATOMIC(atomicMin, unsigned long long, __nvvm_atom_min_gen_ull)
__PTX_JIT_ATOMIC(atomicMax, unsigned long long, __nvvm_atom_max_gen_ull)
#undef __PTX_JIT_ATOMIC
/* Unsigned forms of the bitwise and arithmetic atomics: the bits are the same.
 */
#define __PTX_JIT_ATOMIC_AS(NAME, T, S, BUILTIN)                               \
  __PTX_JIT_DEVICE__ T NAME(T *P, T V) { return (T)BUILTIN((S *)P, (S)V); }
__PTX_JIT_ATOMIC_AS(atomicAdd, unsigned int, int, __nvvm_atom_add_gen_i)
__PTX_JIT_ATOMIC_AS(atomicExch, unsigned int, int, __nvvm_atom_xchg_gen_i)
__PTX_JIT_ATOMIC_AS(atomicAnd, unsigned int, int, __nvvm_atom_and_gen_i)
__PTX_JIT_ATOMIC_AS(atomicOr, unsigned int, int, __nvvm_atom_or_gen_i)
__PTX_JIT_ATOMIC_AS(atomicXor, unsigned int, int, __nvvm_atom_xor_gen_i)
__PTX_JIT_ATOMIC_AS(atomicAdd, unsigned long long, long long,
                    __nvvm_atom_add_gen_ll)
__PTX_JIT_ATOMIC_AS(atomicExch, unsigned long long, long long,
                    __nvvm_atom_xchg_gen_ll)
#undef __PTX_JIT_ATOMIC_AS
__PTX_JIT_DEVICE__ int atomicSub(int *P, int V) {
  return __nvvm_atom_add_gen_i(P, -V);
}
__PTX_JIT_DEVICE__ unsigned int atomicSub(unsigned int *P, unsigned int V) {
  return (unsigned int)__nvvm_atom_add_gen_i((int *)P, -(int)V);
}
__PTX_JIT_DEVICE__ float atomicExch(float *P, float V) {
  return __builtin_bit_cast(
      float, __nvvm_atom_xchg_gen_i((int *)P, __builtin_bit_cast(int, V)));
}
__PTX_JIT_DEVICE__ int atomicCAS(int *P, int Compare, int V) {
  return __nvvm_atom_cas_gen_i(P, Compare, V);
}
__PTX_JIT_DEVICE__ unsigned int atomicCAS(unsigned int *P, unsigned int Compare,
                                          unsigned int V) {
  return (unsigned int)__nvvm_atom_cas_gen_i((int *)P, (int)Compare, (int)V);
}
__PTX_JIT_DEVICE__ unsigned long long atomicCAS(unsigned long long *P,
                                                unsigned long long Compare,
                                                unsigned long long V) {
  return (unsigned long long)__nvvm_atom_cas_gen_ll(
      (long long *)P, (long long)Compare, (long long)V);
}

/* Warp shuffles, votes and the active mask. The c operand of shfl packs
   the segment mask (32 - Width) << 8 with the clamp value. */
#define __PTX_JIT_SHFL(NAME, KIND, CLAMP)                                      \
  __PTX_JIT_DEVICE__ int NAME(unsigned Mask, int V, int Lane,                  \
                              int Width = 32) {                                \
    return __nvvm_shfl_sync_##KIND##_i32(Mask, V, Lane,                        \
                                         ((32 - Width) << 8) | (CLAMP));       \
  }                                                                            \
  __PTX_JIT_DEVICE__ unsigned int NAME(unsigned Mask, unsigned int V,          \
                                       int Lane, int Width = 32) {             \
    return (unsigned int)NAME(Mask, (int)V, Lane, Width);                      \
  }                                                                            \
  __PTX_JIT_DEVICE__ float NAME(unsigned Mask, float V, int Lane,              \
                                int Width = 32) {                              \
    return __nvvm_shfl_sync_##KIND##_f32(Mask, V, Lane,                        \
                                         ((32 - Width) << 8) | (CLAMP));       \
  }                                                                            \
  __PTX_JIT_DEVICE__ long long NAME(unsigned Mask, long long V, int Lane,      \
                                    int Width = 32) {                          \
    int Lo = NAME(Mask, (int)V, Lane, Width);                                  \
    int Hi = NAME(Mask, (int)(V >> 32), Lane, Width);                          \
    return (long long)(((unsigned long long)(unsigned int)Hi << 32) |          \
                       (unsigned int)Lo);                                      \
  }                                                                            \
  __PTX_JIT_DEVICE__ double NAME(unsigned Mask, double V, int Lane,            \
                                 int Width = 32) {                             \
    return __builtin_bit_cast(                                                 \
        double, NAME(Mask, __builtin_bit_cast(long long, V), Lane, Width));    \
  }
__PTX_JIT_SHFL(__shfl_sync, idx, 0x1f)
__PTX_JIT_SHFL(__shfl_up_sync, up, 0)
__PTX_JIT_SHFL(__shfl_down_sync, down, 0x1f)
__PTX_JIT_SHFL(__shfl_xor_sync, bfly, 0x1f)
#undef __PTX_JIT_SHFL

__PTX_JIT_DEVICE__ unsigned int __ballot_sync(unsigned Mask, int P) {
  return __nvvm_vote_ballot_sync(Mask, P);
}
__PTX_JIT_DEVICE__ int __any_sync(unsigned Mask, int P) {
  return __nvvm_vote_any_sync(Mask, P);
}
__PTX_JIT_DEVICE__ int __all_sync(unsigned Mask, int P) {
  return __nvvm_vote_all_sync(Mask, P);
}
__PTX_JIT_DEVICE__ unsigned int __activemask(void) {
  return __nvvm_activemask();
}

/* Integer intrinsics that need no libdevice. */
__PTX_JIT_DEVICE__ int __popc(unsigned int V) { return __builtin_popcount(V); }
__PTX_JIT_DEVICE__ int __popcll(unsigned long long V) {
  return __builtin_popcountll(V);
}
__PTX_JIT_DEVICE__ int __clz(int V) {
  return V == 0 ? 32 : __builtin_clz((unsigned int)V);
}
__PTX_JIT_DEVICE__ int __ffs(int V) { return __builtin_ffs(V); }
__PTX_JIT_DEVICE__ unsigned int __brev(unsigned int V) {
  return __builtin_bitreverse32(V);
}
__PTX_JIT_DEVICE__ int min(int A, int B) { return A < B ? A : B; }
__PTX_JIT_DEVICE__ int max(int A, int B) { return A > B ? A : B; }
__PTX_JIT_DEVICE__ unsigned int min(unsigned int A, unsigned int B) {
  return A < B ? A : B;
}
__PTX_JIT_DEVICE__ unsigned int max(unsigned int A, unsigned int B) {
  return A > B ? A : B;
}

/* Device printf: Clang lowers calls to it to vprintf. */
extern "C" __device__ int printf(const char *, ...);

#undef __PTX_JIT_DEVICE__
#endif
