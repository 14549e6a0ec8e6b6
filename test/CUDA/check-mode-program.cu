// A whole CUDA program under the checking mode (PTXJIT_CHECK): its kernel
// writes one element past a cudaMalloc'd buffer and reads one it never
// wrote. memcheck reports the write at its .cu line (the program is built
// with -lineinfo), skips it, and the program goes on; the summary comes
// when the program exits. Unchecked, the write lands on the guard page after
// the allocation (its end is at a page end) and the launch fails. The
// program exits 0, but ptx-jit exec exits 1 as the checks found an error;
// with 'clean' the kernel has no bug and the status stays 0.
// REQUIRES: nvcc
// RUN: %nvcc -lineinfo %s -o %t
// RUN: env PTXJIT_CHECK=memcheck not ptx-jit exec %t 2>&1 | FileCheck %s
// RUN: env PTXJIT_CHECK=memcheck ptx-jit exec %t clean 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CLEAN
// RUN: ptx-jit exec %t 2>&1 | FileCheck %s --check-prefix=PLAIN
#include <cstdio>
#include <cstring>

__global__ void fill(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) // one too many: out[n] is past the end
    out[i] = 2 * i;
}

int main(int argc, char **argv) {
  const int n = 64;
  bool clean = argc > 1 && !strcmp(argv[1], "clean");
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  fill<<<1, clean ? n : n + 32>>>(d, n);
  cudaError_t e = cudaDeviceSynchronize();
  printf("synchronize: %s\n", cudaGetErrorName(e));
  if (e != cudaSuccess)
    return 0;
  int h[n];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  long sum = 0;
  for (int i = 0; i != n; ++i)
    sum += h[i];
  // 2 * (0 + 1 + ... + 63) = 4032.
  printf("sum %ld\n", sum);
  cudaFree(d);
  return 0;
}
// CHECK: ========= Invalid __global__ write of size 4 bytes
// CHECK-NEXT: =========     at _Z4fillPii in <fatbin>:{{[0-9]+}} ({{.*}}check-mode-program.cu:21)
// CHECK-NEXT: =========     by thread (64,0,0) in block (0,0,0)
// CHECK-NEXT: =========     Address 0x{{[0-9a-f]+}} is 0 bytes after the end of allocation 0x{{[0-9a-f]+}} of 256 bytes
// CHECK: synchronize: cudaSuccess
// CHECK-NEXT: sum 4032
// CHECK: ========= ERROR SUMMARY: 1 error
// CLEAN-NOT: Invalid
// CLEAN: sum 4032
// CLEAN: ========= ERROR SUMMARY: 0 errors
// PLAIN-NOT: =========
// PLAIN: synchronize: cudaErrorIllegalAddress
