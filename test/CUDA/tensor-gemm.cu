// A tensor-core GEMM as CUTLASS writes it for sm_80 (Inputs/tensor_gemm.cuh):
// ldmatrix.x4 from swizzled shared memory and mma.sync.m16n8k16, here with
// the tiles staged by plain loads into a double buffer. Checked exactly on
// integer inputs and against a double-precision product on random ones.
// REQUIRES: nvcc
// RUN: %nvcc -I%S/Inputs %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: 128x128x256, integer values: 16384 of 16384 right
// CHECK-NEXT: 128x128x256, random values: 16384 of 16384 right
// CHECK-NEXT: 64x192x96, integer values: 12288 of 12288 right
// CHECK-NEXT: 64x192x96, random values: 12288 of 12288 right
#include "tensor_gemm.cuh"

int main() {
  int Failures = gemm::check<false>("128x128x256", 128, 128, 256);
  Failures += gemm::check<false>("64x192x96", 64, 192, 96);
  return Failures != 0;
}
