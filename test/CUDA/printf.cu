// Device printf reaches the program's standard output, in order for one
// thread, after the host's earlier output.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: host before
// CHECK-NEXT: thread 0 of 1: 42 3.5 hello
// CHECK-NEXT: thread 0 of 1: second line
// CHECK-NEXT: host after
#include <cstdio>

__global__ void say(int v, double d) {
  printf("thread %d of %d: %d %.1f %s\n", threadIdx.x, blockDim.x, v, d,
         "hello");
  printf("thread %d of %d: second line\n", threadIdx.x, blockDim.x);
}

int main() {
  printf("host before\n");
  fflush(stdout);
  say<<<1, 1>>>(42, 3.5);
  cudaDeviceSynchronize();
  printf("host after\n");
  return 0;
}
