// Managed memory (cudaMallocManaged and __managed__ variables), pitched 2D
// copies, memset, pointer attributes, device-to-device copies and
// cudaMemcpyDefault.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: managed: 0 1 4 9 16 25 36 49
// CHECK-NEXT: __managed__ total: 28
// CHECK-NEXT: pitch: 512, 2D copy right: yes
// CHECK-NEXT: memset: 0x7f7f7f7f
// CHECK-NEXT: attributes: device 2, host 0
// CHECK-NEXT: device to device and default: 5 5
#include <cstdio>
#include <cstring>

__managed__ int total = 0;

__global__ void squares(int *v) {
  v[threadIdx.x] = threadIdx.x * threadIdx.x;
  atomicAdd(&total, threadIdx.x);
}

__global__ void addRow(float *m, size_t pitch, int width) {
  float *row = (float *)((char *)m + blockIdx.x * pitch);
  if (threadIdx.x < width)
    row[threadIdx.x] += blockIdx.x;
}

int main() {
  int *v;
  cudaMallocManaged(&v, 8 * sizeof(int));
  squares<<<1, 8>>>(v);
  cudaDeviceSynchronize();
  printf("managed:");
  for (int i = 0; i < 8; ++i)
    printf(" %d", v[i]);
  printf("\n__managed__ total: %d\n", total);

  const int width = 100, height = 6;
  float host[height][width];
  for (int r = 0; r < height; ++r)
    for (int c = 0; c < width; ++c)
      host[r][c] = float(c);
  float *m;
  size_t pitch;
  cudaMallocPitch((void **)&m, &pitch, width * sizeof(float), height);
  cudaMemcpy2D(m, pitch, host, width * sizeof(float), width * sizeof(float),
               height, cudaMemcpyHostToDevice);
  addRow<<<height, 128>>>(m, pitch, width);
  cudaMemcpy2D(host, width * sizeof(float), m, pitch, width * sizeof(float),
               height, cudaMemcpyDeviceToHost);
  bool right = true;
  for (int r = 0; r < height; ++r)
    for (int c = 0; c < width; ++c)
      right &= host[r][c] == float(c + r);
  printf("pitch: %zu, 2D copy right: %s\n", pitch, right ? "yes" : "no");

  int *d;
  cudaMalloc(&d, 64);
  cudaMemset(d, 0x7f, 64);
  int word;
  cudaMemcpy(&word, d + 3, 4, cudaMemcpyDeviceToHost);
  printf("memset: 0x%08x\n", word);

  cudaPointerAttributes a, b;
  cudaPointerGetAttributes(&a, d);
  cudaPointerGetAttributes(&b, &word);
  printf("attributes: device %d, host %d\n", int(a.type), int(b.type));

  int five = 5, back = 0, *e;
  cudaMalloc(&e, 4);
  cudaMemcpy(d, &five, 4, cudaMemcpyHostToDevice);
  cudaMemcpy(e, d, 4, cudaMemcpyDeviceToDevice);
  cudaMemcpy(&back, e, 4, cudaMemcpyDefault);
  printf("device to device and default: %d %d\n", five, back);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
