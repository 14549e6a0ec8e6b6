// The tensor-core GEMM of Inputs/tensor_gemm.cuh with its tiles staged by
// cp.async.cg in a three-stage pipeline (commit_group, wait_group 1,
// wait_all), as CUTLASS's multistage sm_80 kernels do.
// REQUIRES: nvcc
// RUN: %nvcc -I%S/Inputs %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: 128x128x256, integer values: 16384 of 16384 right
// CHECK-NEXT: 128x128x256, random values: 16384 of 16384 right
// CHECK-NEXT: 64x192x96, integer values: 12288 of 12288 right
// CHECK-NEXT: 64x192x96, random values: 12288 of 12288 right
#include "tensor_gemm.cuh"

int main() {
  int Failures = gemm::check<true>("128x128x256", 128, 128, 256);
  Failures += gemm::check<true>("64x192x96", 64, 192, 96);
  return Failures != 0;
}
