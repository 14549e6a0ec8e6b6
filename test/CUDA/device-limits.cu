// cudaDeviceSetLimit / cudaDeviceGetLimit and the driver's cuCtxSetLimit /
// cuCtxGetLimit. The defaults are CUDA's: a stack of 1024 bytes per
// thread, a printf FIFO of 1 MiB, a malloc heap of 8 MiB; values set are
// read back; a limit number CUDA does not define is
// cudaErrorUnsupportedLimit (215), CUDA_ERROR_UNSUPPORTED_LIMIT for the
// driver.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t -lcuda
// RUN: ptx-jit exec %t | FileCheck %s
// CHECK: defaults: stack 1024, printf FIFO 1048576, malloc heap 8388608
// CHECK-NEXT: set: cudaSuccess cudaSuccess cudaSuccess
// CHECK-NEXT: read back: stack 4096, printf FIFO 2097152, malloc heap 16777216
// CHECK-NEXT: driver: stack 4096; set 8192: 0, read back 8192
// CHECK-NEXT: unknown limit: set cudaErrorUnsupportedLimit (215), get cudaErrorUnsupportedLimit (215)
// CHECK-NEXT: driver unknown limit: set 215 CUDA_ERROR_UNSUPPORTED_LIMIT, get 215
// CHECK-NEXT: null value: cudaErrorInvalidValue
//
// PTXJIT_STACK_SIZE sets the stack a program starts with.
// RUN: env PTXJIT_STACK_SIZE=2048 ptx-jit exec %t | FileCheck %s --check-prefix=ENV
// ENV: defaults: stack 2048, printf FIFO 1048576, malloc heap 8388608
// RUN: env PTXJIT_STACK_SIZE=lots not ptx-jit exec %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADENV
// BADENV: ptx-jit: PTXJIT_STACK_SIZE: invalid stack size 'lots': give bytes per thread, 1 to 524288
// BADENV: get: cudaErrorInvalidValue
//
// Recursion (as test/Runtime/stack-size.test's: 32 KiB of .local a warp
// per level) 20 levels deep overflows the default stack at depth 8, and
// the report says how to raise it; with 8 KiB per thread, set by the
// program or by PTXJIT_STACK_SIZE, it runs.
// RUN: not ptx-jit exec %t recurse 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: stack overflow in kernel 'recurse', CTA (0,0,0), warp 0: its device functions need more than the stack of 1024 bytes per thread (recursion depth 8; raise it with PTXJIT_STACK_SIZE or cudaDeviceSetLimit(cudaLimitStackSize))
// DEEP: recurse: cudaErrorIllegalAddress
// RUN: ptx-jit exec %t recurse 8192 | FileCheck %s --check-prefix=RAISED
// RUN: env PTXJIT_STACK_SIZE=8192 ptx-jit exec %t recurse | FileCheck %s --check-prefix=RAISED
// RAISED: recurse: cudaSuccess, out 210 231 252 273
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ __noinline__ unsigned depth(unsigned n, unsigned seed) {
  volatile unsigned buf[256];
  buf[n % 256] = seed + n;
  if (n == 0)
    return buf[0];
  unsigned r = depth(n - 1, seed);
  return r + buf[n % 256];
}

extern "C" __global__ void recurse(unsigned *out, unsigned n) {
  out[threadIdx.x] = depth(n, threadIdx.x);
}

static void limits() {
  size_t Stack = 0, Fifo = 0, Heap = 0;
  cudaError_t E = cudaDeviceGetLimit(&Stack, cudaLimitStackSize);
  if (E != cudaSuccess) {
    std::printf("get: %s\n", cudaGetErrorName(E));
    std::exit(1);
  }
  cudaDeviceGetLimit(&Fifo, cudaLimitPrintfFifoSize);
  cudaDeviceGetLimit(&Heap, cudaLimitMallocHeapSize);
  std::printf("defaults: stack %zu, printf FIFO %zu, malloc heap %zu\n", Stack,
              Fifo, Heap);
  std::printf("set: %s %s %s\n",
              cudaGetErrorName(cudaDeviceSetLimit(cudaLimitStackSize, 4096)),
              cudaGetErrorName(
                  cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 2 << 20)),
              cudaGetErrorName(
                  cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20)));
  cudaDeviceGetLimit(&Stack, cudaLimitStackSize);
  cudaDeviceGetLimit(&Fifo, cudaLimitPrintfFifoSize);
  cudaDeviceGetLimit(&Heap, cudaLimitMallocHeapSize);
  std::printf("read back: stack %zu, printf FIFO %zu, malloc heap %zu\n",
              Stack, Fifo, Heap);

  // The driver sees the runtime's (primary) context.
  cuInit(0);
  size_t DStack = 0;
  cuCtxGetLimit(&DStack, CU_LIMIT_STACK_SIZE);
  CUresult R = cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 8192);
  cudaDeviceGetLimit(&Stack, cudaLimitStackSize);
  std::printf("driver: stack %zu; set 8192: %d, read back %zu\n", DStack,
              int(R), Stack);

  const int Unknown = 0x7f;
  size_t V = 0;
  cudaError_t S = cudaDeviceSetLimit(cudaLimit(Unknown), 1);
  cudaError_t G = cudaDeviceGetLimit(&V, cudaLimit(Unknown));
  std::printf("unknown limit: set %s (%d), get %s (%d)\n", cudaGetErrorName(S),
              int(S), cudaGetErrorName(G), int(G));
  CUresult DS = cuCtxSetLimit(CUlimit(Unknown), 1);
  CUresult DG = cuCtxGetLimit(&V, CUlimit(Unknown));
  const char *Name = "?";
  cuGetErrorName(DS, &Name);
  std::printf("driver unknown limit: set %d %s, get %d\n", int(DS), Name,
              int(DG));
  std::printf("null value: %s\n",
              cudaGetErrorName(cudaDeviceGetLimit(nullptr, cudaLimitStackSize)));
}

static void run(size_t StackSize) {
  if (StackSize)
    cudaDeviceSetLimit(cudaLimitStackSize, StackSize);
  unsigned *Out;
  cudaMalloc(&Out, 4 * sizeof(unsigned));
  recurse<<<1, 4>>>(Out, 20);
  cudaError_t E = cudaDeviceSynchronize();
  unsigned Host[4] = {};
  if (E == cudaSuccess)
    cudaMemcpy(Host, Out, sizeof Host, cudaMemcpyDeviceToHost);
  std::printf("recurse: %s, out %u %u %u %u\n", cudaGetErrorName(E), Host[0],
              Host[1], Host[2], Host[3]);
  if (E != cudaSuccess)
    std::exit(1);
}

// No arguments: the limits (what utils/gpu-check-cuda-tests.sh runs on a
// GPU); `recurse [STACK]`: the recursion, with the stack set first.
int main(int Argc, char **Argv) {
  if (Argc > 1 && !std::strcmp(Argv[1], "recurse"))
    run(Argc > 2 ? std::strtoul(Argv[2], nullptr, 10) : 0);
  else
    limits();
  return 0;
}
