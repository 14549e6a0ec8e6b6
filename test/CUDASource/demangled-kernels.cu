// C++ kernels are named by their demangled names: a base name that is
// unique, else the signature (spaces as one likes), or the mangled name.
//
// RUN: ptx-jit list %s | FileCheck %s --check-prefix=LIST
// LIST: kernel _Z5saxpyifPKfPf: saxpy(int, float, float const*, float*)
// LIST: kernel _Z5scalePff: scale(float*, float)
// LIST: kernel _Z5scalePii: scale(int*, int)
// LIST: kernel _ZN6shapes4fillEPi: shapes::fill(int*)
// LIST: kernel _Z4iotaIjEvPT_: void iota<unsigned int>(unsigned int*)
//
// y = 2*x + y, x = 0..3, y = 1: 1, 3, 5, 7.
// RUN: ptx-jit run %s -k saxpy -g 1 -b 4 --arg 4 --arg 2 --arg 'f32[4]=iota' \
// RUN:   --arg 'f32[4]=fill:1>-' | FileCheck %s --check-prefix=SAXPY
// RUN: ptx-jit run %s -k _Z5saxpyifPKfPf -g 1 -b 4 --arg 4 --arg 2 \
// RUN:   --arg 'f32[4]=iota' --arg 'f32[4]=fill:1>-' \
// RUN:   | FileCheck %s --check-prefix=SAXPY
// RUN: ptx-jit run %s -k 'saxpy(int, float, float const *, float *)' -g 1 \
// RUN:   -b 4 --arg 4 --arg 2 --arg 'f32[4]=iota' --arg 'f32[4]=fill:1>-' \
// RUN:   | FileCheck %s --check-prefix=SAXPY
// SAXPY: _Z5saxpyifPKfPf_param_3 = [1, 3, 5, 7]
//
// scale is overloaded: the base name alone is an error listing both.
// RUN: not ptx-jit run %s -k scale -g 1 -b 4 --arg 'f32[4]' --arg 2 2>&1 \
// RUN:   | FileCheck %s --check-prefix=AMBIGUOUS
// AMBIGUOUS: ptx-jit: error: kernel name 'scale' is ambiguous: it names 2 kernels; choose one with -k 'SIGNATURE' or the mangled name:
// AMBIGUOUS-NEXT: {{^}}  _Z5scalePff (scale(float*, float))
// AMBIGUOUS-NEXT: {{^}}  _Z5scalePii (scale(int*, int))
// The signature picks one: 0..3 times 3.
// RUN: ptx-jit run %s -k 'scale(int*, int)' -g 1 -b 4 --arg 's32[4]=iota>-' \
// RUN:   --arg 3 | FileCheck %s --check-prefix=SCALE
// SCALE: _Z5scalePii_param_0 = [0, 3, 6, 9]
//
// Qualified and base names of a kernel in a namespace; a template kernel by
// its name with template arguments.
// RUN: ptx-jit run %s -k shapes::fill -g 1 -b 2 --arg 's32[2]>-' \
// RUN:   | FileCheck %s --check-prefix=FILL
// RUN: ptx-jit run %s -k fill -g 1 -b 2 --arg 's32[2]>-' \
// RUN:   | FileCheck %s --check-prefix=FILL
// FILL: _ZN6shapes4fillEPi_param_0 = [42, 42]
// RUN: ptx-jit run %s -k 'iota<unsigned int>' -g 1 -b 3 --arg 'u32[3]>-' \
// RUN:   | FileCheck %s --check-prefix=IOTA
// IOTA: _Z4iotaIjEvPT__param_0 = [0, 1, 2]
//
// A name that matches nothing lists every kernel with its signature.
// RUN: not ptx-jit run %s -k saxpi -g 1 -b 1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NONE
// NONE: ptx-jit: error: no kernel named 'saxpi'; kernels: _Z5saxpyifPKfPf (saxpy(int, float, float const*, float*)), _Z5scalePff (scale(float*, float)),

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void scale(float *p, float s) { p[threadIdx.x] *= s; }
__global__ void scale(int *p, int s) { p[threadIdx.x] *= s; }

namespace shapes {
__global__ void fill(int *p) { p[threadIdx.x] = 42; }
} // namespace shapes

template <typename T> __global__ void iota(T *p) { p[threadIdx.x] = threadIdx.x; }
template __global__ void iota<unsigned>(unsigned *);
