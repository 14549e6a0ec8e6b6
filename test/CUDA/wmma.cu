// nvcuda::wmma of every fragment type, each checked against a host product:
// .f16 in the three 16-bit shapes with .f32 and .f16 accumulators and both
// memory layouts, .bf16, .tf32 and double, .s8 and .u8 (with saturation),
// .u4 and .s4, and .b1 with XOR and AND. Inputs are small integers, so
// every sum is exact whatever the order; fragments are also scaled element
// by element between load and mma, as the ISA allows.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: f16 16x16x16 f32 row/col: 256 of 256 right
// CHECK-NEXT: f16 32x8x16 f32 col/row: 256 of 256 right
// CHECK-NEXT: f16 8x32x16 f16 row/row: 256 of 256 right
// CHECK-NEXT: bf16 16x16x16: 256 of 256 right
// CHECK-NEXT: tf32 16x16x8: 256 of 256 right
// CHECK-NEXT: f64 8x8x4: 64 of 64 right
// CHECK-NEXT: s8 16x16x16 satfinite: 256 of 256 right
// CHECK-NEXT: u8 32x8x16: 256 of 256 right
// CHECK-NEXT: u4 8x8x32: 64 of 64 right
// CHECK-NEXT: s4 8x8x32: 64 of 64 right
// CHECK-NEXT: b1 xor 8x8x128: 64 of 64 right
// CHECK-NEXT: b1 and 8x8x128: 64 of 64 right
#include <cstdint>
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <functional>
#include <mma.h>
#include <vector>

using namespace nvcuda;

/// One warp: D = A * B + Scale * C, with A, B and C loaded in the given
/// layouts (leading dimensions lda, ldb, ldc) and D stored row-major.
template <int M, int N, int K, typename T, typename LA, typename LB,
          typename Acc>
__global__ void wmmaKernel(const T *A, const T *B, const Acc *C, Acc *D,
                           int Lda, int Ldb, int Ldc, float Scale) {
  wmma::fragment<wmma::matrix_a, M, N, K, T, LA> a;
  wmma::fragment<wmma::matrix_b, M, N, K, T, LB> b;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> c;
  wmma::load_matrix_sync(a, A, Lda);
  wmma::load_matrix_sync(b, B, Ldb);
  wmma::load_matrix_sync(c, C, Ldc, wmma::mem_col_major);
  for (int I = 0; I < c.num_elements; ++I)
    c.x[I] = Acc(float(c.x[I]) * Scale);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(D, c, N, wmma::mem_row_major);
}

__global__ void tf32Kernel(const float *A, const float *B, float *D) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32,
                 wmma::row_major>
      a;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32,
                 wmma::col_major>
      b;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
  wmma::fill_fragment(c, 0.5f);
  wmma::load_matrix_sync(a, A, 8);
  wmma::load_matrix_sync(b, B, 8);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}

__global__ void f64Kernel(const double *A, const double *B, double *D) {
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::col_major> a;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> c;
  wmma::fill_fragment(c, -1.0);
  wmma::load_matrix_sync(a, A, 8);
  wmma::load_matrix_sync(b, B, 8);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(D, c, 8, wmma::mem_row_major);
}

template <typename T, typename LA, typename LB>
__global__ void intKernel(const T *A, const T *B, int *D, int Init,
                          bool Satf) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, T, LA> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, T, LB> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> c;
  wmma::fill_fragment(c, Init);
  wmma::load_matrix_sync(a, A, 16);
  wmma::load_matrix_sync(b, B, 16);
  if (Satf)
    wmma::mma_sync(c, a, b, c, true);
  else
    wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}

__global__ void u8Kernel(const unsigned char *A, const unsigned char *B,
                         int *D) {
  wmma::fragment<wmma::matrix_a, 32, 8, 16, unsigned char, wmma::col_major> a;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, unsigned char, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 32, 8, 16, int> c;
  wmma::fill_fragment(c, 3);
  wmma::load_matrix_sync(a, A, 32);
  wmma::load_matrix_sync(b, B, 8);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(D, c, 8, wmma::mem_row_major);
}

template <typename P>
__global__ void subByteKernel(const unsigned *A, const unsigned *B, int *D) {
  wmma::fragment<wmma::matrix_a, 8, 8, 32, P, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 8, 8, 32, P, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 8, 8, 32, int> c;
  wmma::fill_fragment(c, 10);
  wmma::load_matrix_sync(a, A, 32);
  wmma::load_matrix_sync(b, B, 32);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(D, c, 8, wmma::mem_row_major);
}

__global__ void b1Kernel(const unsigned *A, const unsigned *B, int *D,
                         bool And) {
  using namespace wmma::experimental;
  wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 8, 8, 128, int> c;
  wmma::fill_fragment(c, 1);
  wmma::load_matrix_sync(a, A, 128);
  wmma::load_matrix_sync(b, B, 128);
  if (And)
    wmma::bmma_sync(c, a, b, c, bmmaBitOpAND, bmmaAccumulateOpPOPC);
  else
    wmma::bmma_sync(c, a, b, c, bmmaBitOpXOR, bmmaAccumulateOpPOPC);
  wmma::store_matrix_sync(D, c, 8, wmma::mem_row_major);
}

static unsigned Seed = 1;
static int small(int Lo, int Hi) {
  Seed = Seed * 1103515245u + 12345u;
  return Lo + int((Seed >> 8) % unsigned(Hi - Lo + 1));
}

template <typename T> static T *upload(const std::vector<T> &V) {
  T *P;
  cudaMalloc(&P, V.size() * sizeof(T));
  cudaMemcpy(P, V.data(), V.size() * sizeof(T), cudaMemcpyHostToDevice);
  return P;
}

template <typename T> static std::vector<T> download(const T *P, size_t N) {
  std::vector<T> V(N);
  cudaDeviceSynchronize();
  cudaMemcpy(V.data(), P, N * sizeof(T), cudaMemcpyDeviceToHost);
  return V;
}

/// Compares Got (row-major M x N) with Want(i, j) and prints the count.
template <typename T>
static void report(const char *Name, int M, int N, const std::vector<T> &Got,
                   const std::function<double(int, int)> &Want) {
  cudaError_t Err = cudaGetLastError();
  if (Err != cudaSuccess) {
    std::printf("%s: %s\n", Name, cudaGetErrorString(Err));
    return;
  }
  int Right = 0;
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      double G = double(Got[I * N + J]), W = Want(I, J);
      if (G == W)
        ++Right;
      else if (M * N - Right < 4)
        std::printf("%s: D[%d][%d] = %g, expected %g\n", Name, I, J, G, W);
    }
  std::printf("%s: %d of %d right\n", Name, Right, M * N);
}

template <int M, int N, int K, typename Acc, typename LA, typename LB>
static void halfCase(const char *Name, bool ARow, bool BRow) {
  // A is M x K, B is K x N, C is M x N stored column-major.
  int Lda = ARow ? K : M, Ldb = BRow ? N : K;
  std::vector<half> A(M * K), B(K * N);
  std::vector<float> Af(M * K), Bf(K * N);
  std::vector<Acc> C(M * N);
  for (int I = 0; I < M; ++I)
    for (int L = 0; L < K; ++L) {
      int V = small(-3, 3);
      A[ARow ? I * Lda + L : L * Lda + I] = __int2half_rn(V);
      Af[I * K + L] = V;
    }
  for (int L = 0; L < K; ++L)
    for (int J = 0; J < N; ++J) {
      int V = small(-3, 3);
      B[BRow ? L * Ldb + J : J * Ldb + L] = __int2half_rn(V);
      Bf[L * N + J] = V;
    }
  std::vector<float> Cf(M * N);
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      Cf[I * N + J] = small(-20, 20);
      C[J * M + I] = Acc(Cf[I * N + J]);
    }
  Acc *DD;
  cudaMalloc(&DD, M * N * sizeof(Acc));
  wmmaKernel<M, N, K, half, LA, LB, Acc>
      <<<1, 32>>>(upload(A), upload(B), upload(C), DD, Lda, Ldb, M, 2.0f);
  std::vector<Acc> D = download(DD, M * N);
  std::vector<float> Df(D.begin(), D.end());
  report<float>(Name, M, N, Df, [&](int I, int J) {
    double S = 2 * Cf[I * N + J];
    for (int L = 0; L < K; ++L)
      S += Af[I * K + L] * Bf[L * N + J];
    return S;
  });
}

int main() {
  halfCase<16, 16, 16, float, wmma::row_major, wmma::col_major>(
      "f16 16x16x16 f32 row/col", true, false);
  halfCase<32, 8, 16, float, wmma::col_major, wmma::row_major>(
      "f16 32x8x16 f32 col/row", false, true);
  halfCase<8, 32, 16, half, wmma::row_major, wmma::row_major>(
      "f16 8x32x16 f16 row/row", true, true);

  {
    // .bf16, row-major A and column-major B, .f32 accumulators.
    std::vector<__nv_bfloat16> A(256), B(256);
    std::vector<float> Af(256), Bf(256), C(256);
    for (int I = 0; I < 256; ++I) {
      Af[I] = small(-4, 4);
      Bf[I] = small(-4, 4);
      A[I] = __float2bfloat16(Af[I]);
      B[I] = __float2bfloat16(Bf[I]);
      C[I] = small(-9, 9);
    }
    float *DD;
    cudaMalloc(&DD, 256 * sizeof(float));
    wmmaKernel<16, 16, 16, __nv_bfloat16, wmma::row_major, wmma::col_major,
               float><<<1, 32>>>(upload(A), upload(B), upload(C), DD, 16, 16,
                                 16, 1.0f);
    report<float>("bf16 16x16x16", 16, 16, download(DD, 256),
                  [&](int I, int J) {
                    double S = C[J * 16 + I];
                    for (int L = 0; L < 16; ++L)
                      S += Af[I * 16 + L] * Bf[J * 16 + L];
                    return S;
                  });
  }
  {
    // .tf32: values that .tf32 holds exactly (fewer than 11 significant bits).
    std::vector<float> A(16 * 8), B(8 * 16);
    for (float &V : A)
      V = small(-50, 50) / 8.0f;
    for (float &V : B)
      V = small(-50, 50) / 4.0f;
    float *DD;
    cudaMalloc(&DD, 256 * sizeof(float));
    tf32Kernel<<<1, 32>>>(upload(A), upload(B), DD);
    report<float>("tf32 16x16x8", 16, 16, download(DD, 256),
                  [&](int I, int J) {
                    double S = 0.5;
                    for (int L = 0; L < 8; ++L)
                      S += double(A[I * 8 + L]) * B[J * 8 + L];
                    return S;
                  });
  }
  {
    // double: A column-major (8x4, ld 8), B row-major (4x8, ld 8).
    std::vector<double> A(32), B(32);
    for (double &V : A)
      V = small(-100, 100) / 16.0;
    for (double &V : B)
      V = small(-100, 100) / 32.0;
    double *DD;
    cudaMalloc(&DD, 64 * sizeof(double));
    f64Kernel<<<1, 32>>>(upload(A), upload(B), DD);
    report<double>("f64 8x8x4", 8, 8, download(DD, 64), [&](int I, int J) {
      double S = -1;
      for (int L = 0; L < 4; ++L)
        S += A[L * 8 + I] * B[L * 8 + J];
      return S;
    });
  }
  {
    // .s8 with .satfinite: large values and a start near the limit.
    std::vector<signed char> A(256), B(256);
    for (auto &V : A)
      V = small(-128, 127);
    for (auto &V : B)
      V = small(-128, 127);
    int *DD;
    cudaMalloc(&DD, 256 * sizeof(int));
    int Init = 2147483647 - 100000;
    intKernel<signed char, wmma::row_major, wmma::col_major>
        <<<1, 32>>>(upload(A), upload(B), DD, Init, true);
    report<int>("s8 16x16x16 satfinite", 16, 16, download(DD, 256),
                [&](int I, int J) {
                  long long S = Init;
                  for (int L = 0; L < 16; ++L)
                    S += A[I * 16 + L] * B[J * 16 + L];
                  return double(S > 2147483647 ? 2147483647 : S);
                });
  }
  {
    std::vector<unsigned char> A(32 * 16), B(16 * 8);
    for (auto &V : A)
      V = small(0, 255);
    for (auto &V : B)
      V = small(0, 255);
    int *DD;
    cudaMalloc(&DD, 256 * sizeof(int));
    u8Kernel<<<1, 32>>>(upload(A), upload(B), DD);
    report<int>("u8 32x8x16", 32, 8, download(DD, 256), [&](int I, int J) {
      long long S = 3;
      for (int L = 0; L < 16; ++L)
        S += A[L * 32 + I] * B[L * 8 + J];
      return double(S);
    });
  }
  for (bool Signed : {false, true}) {
    // Eight 4-bit elements to a word; A row-major 8x32, B column-major.
    std::vector<unsigned> A(32), B(32);
    for (unsigned &W : A)
      W = (unsigned(small(0, 65535)) << 16) | unsigned(small(0, 65535));
    for (unsigned &W : B)
      W = (unsigned(small(0, 65535)) << 16) | unsigned(small(0, 65535));
    auto Elt = [&](const std::vector<unsigned> &V, int E) {
      int X = (V[E / 8] >> (4 * (E % 8))) & 15;
      return Signed && X >= 8 ? X - 16 : X;
    };
    int *DD;
    cudaMalloc(&DD, 64 * sizeof(int));
    if (Signed)
      subByteKernel<wmma::experimental::precision::s4>
          <<<1, 32>>>(upload(A), upload(B), DD);
    else
      subByteKernel<wmma::experimental::precision::u4>
          <<<1, 32>>>(upload(A), upload(B), DD);
    report<int>(Signed ? "s4 8x8x32" : "u4 8x8x32", 8, 8, download(DD, 64),
                [&](int I, int J) {
                  int S = 10;
                  for (int L = 0; L < 32; ++L)
                    S += Elt(A, I * 32 + L) * Elt(B, J * 32 + L);
                  return double(S);
                });
  }
  for (bool And : {false, true}) {
    std::vector<unsigned> A(32), B(32);
    for (unsigned &W : A)
      W = (unsigned(small(0, 65535)) << 16) | unsigned(small(0, 65535));
    for (unsigned &W : B)
      W = (unsigned(small(0, 65535)) << 16) | unsigned(small(0, 65535));
    int *DD;
    cudaMalloc(&DD, 64 * sizeof(int));
    b1Kernel<<<1, 32>>>(upload(A), upload(B), DD, And);
    report<int>(And ? "b1 and 8x8x128" : "b1 xor 8x8x128", 8, 8,
                download(DD, 64), [&](int I, int J) {
                  int S = 1;
                  for (int W = 0; W < 4; ++W) {
                    unsigned X = A[I * 4 + W], Y = B[J * 4 + W];
                    S += __builtin_popcount(And ? X & Y : X ^ Y);
                  }
                  return double(S);
                });
  }
  return 0;
}
