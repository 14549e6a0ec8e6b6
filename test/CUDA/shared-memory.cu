// Block reductions in dynamic shared memory with __syncthreads, and a tiled
// matrix multiply in static shared memory, both checked against the host.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: reduction: 4096 blocks right
// CHECK-NEXT: matrix multiply 96x96: right
#include <cstdio>
#include <vector>

__global__ void blockSum(const int *in, int *out) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride)
      s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

constexpr int Tile = 16;
__global__ void matmul(const float *a, const float *b, float *c, int n) {
  __shared__ float ta[Tile][Tile], tb[Tile][Tile];
  int row = blockIdx.y * Tile + threadIdx.y, col = blockIdx.x * Tile + threadIdx.x;
  float sum = 0;
  for (int k0 = 0; k0 < n; k0 += Tile) {
    ta[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < Tile; ++k)
      sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

int main() {
  const int blocks = 4096, threads = 128;
  std::vector<int> in(blocks * threads), out(blocks);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = int(i % 1000) - 500;
  int *din, *dout;
  cudaMalloc(&din, in.size() * sizeof(int));
  cudaMalloc(&dout, blocks * sizeof(int));
  cudaMemcpy(din, in.data(), in.size() * sizeof(int), cudaMemcpyHostToDevice);
  blockSum<<<blocks, threads, threads * sizeof(int)>>>(din, dout);
  cudaMemcpy(out.data(), dout, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  int right = 0;
  for (int b = 0; b < blocks; ++b) {
    int sum = 0;
    for (int t = 0; t < threads; ++t)
      sum += in[b * threads + t];
    right += sum == out[b];
  }
  printf("reduction: %d blocks right\n", right);

  const int n = 96;
  std::vector<float> a(n * n), b(n * n), c(n * n);
  // Small integers: every partial sum is exact, whatever the order.
  for (int i = 0; i < n * n; ++i) {
    a[i] = float(i % 7) - 3;
    b[i] = float(i % 5) - 2;
  }
  float *da, *db, *dc;
  cudaMalloc(&da, n * n * sizeof(float));
  cudaMalloc(&db, n * n * sizeof(float));
  cudaMalloc(&dc, n * n * sizeof(float));
  cudaMemcpy(da, a.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
  matmul<<<dim3(n / Tile, n / Tile), dim3(Tile, Tile)>>>(da, db, dc, n);
  cudaMemcpy(c.data(), dc, n * n * sizeof(float), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int k = 0; k < n; ++k)
        sum += a[i * n + k] * b[k * n + j];
      ok &= sum == c[i * n + j];
    }
  printf("matrix multiply %dx%d: %s\n", n, n, ok ? "right" : "wrong");
  return right == blocks && ok ? 0 : 1;
}
