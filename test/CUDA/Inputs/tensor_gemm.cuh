// A half-precision GEMM in the shape CUTLASS gives sm_80 kernels: each CTA
// computes a 64x64 tile of D = A * B (A row-major M x K, B given as its
// transpose, N x K, so both stream along K), four warps of 32x32 each. Tiles
// of 64x32 are staged in shared memory with a 16-byte-chunk XOR swizzle;
// ldmatrix.x4 feeds mma.sync.aligned.m16n8k16 (.f32 accumulators). With
// Async the staging is cp.async in a Stages-deep pipeline (commit_group /
// wait_group); without, plain loads and stores into a double buffer.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_fp16.h>
#include <vector>

namespace gemm {

constexpr int TileM = 64, TileN = 64, TileK = 32, Stages = 3, Threads = 128;
constexpr int ChunksPerRow = TileK / 8; // 16-byte chunks of 8 halves

/// The swizzled position (in halves) of chunk C of row R of a stage.
__device__ __forceinline__ int swizzle(int R, int C) {
  return R * TileK + ((C ^ (R % ChunksPerRow)) * 8);
}

__device__ __forceinline__ uint32_t shared(const void *P) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(P));
}

/// Each thread copies two 16-byte chunks of the A tile and two of B.
template <bool Async>
__device__ void loadStage(half *SA, half *SB, const half *A, const half *Bt,
                          int K, int Row0, int Col0, int K0) {
  for (int I = threadIdx.x; I < TileM * ChunksPerRow; I += Threads) {
    int R = I / ChunksPerRow, C = I % ChunksPerRow;
    const half *GA = A + (Row0 + R) * K + K0 + C * 8;
    const half *GB = Bt + (Col0 + R) * K + K0 + C * 8;
    half *DA = SA + swizzle(R, C), *DB = SB + swizzle(R, C);
    if constexpr (Async) {
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                       shared(DA)),
                   "l"(GA));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                       shared(DB)),
                   "l"(GB));
    } else {
      *reinterpret_cast<uint4 *>(DA) = *reinterpret_cast<const uint4 *>(GA);
      *reinterpret_cast<uint4 *>(DB) = *reinterpret_cast<const uint4 *>(GB);
    }
  }
}

template <bool Async>
__global__ void __launch_bounds__(Threads)
    hgemm(const half *A, const half *Bt, float *D, int M, int N, int K) {
  constexpr int NumBuffers = Async ? Stages : 2;
  __shared__ alignas(128) half SA[NumBuffers][TileM * TileK];
  __shared__ alignas(128) half SB[NumBuffers][TileN * TileK];
  int Warp = threadIdx.x / 32, Lane = threadIdx.x % 32;
  int WarpRow = (Warp / 2) * 32, WarpCol = (Warp % 2) * 32;
  int Row0 = blockIdx.y * TileM, Col0 = blockIdx.x * TileN;
  float Acc[2][4][4] = {};
  int Tiles = K / TileK;

  // Prologue: the first stages in flight.
  for (int S = 0; S < NumBuffers - 1; ++S) {
    if (S < Tiles)
      loadStage<Async>(SA[S], SB[S], A, Bt, K, Row0, Col0, S * TileK);
    if constexpr (Async)
      asm volatile("cp.async.commit_group;\n" ::);
  }
  for (int T = 0; T < Tiles; ++T) {
    if constexpr (Async)
      asm volatile("cp.async.wait_group %0;\n" ::"n"(Stages - 2));
    __syncthreads();
    // Start the copy of tile T + NumBuffers - 1 into the buffer tile T - 1
    // used, which every warp has finished with (the barrier above).
    int Next = T + NumBuffers - 1;
    if (Next < Tiles)
      loadStage<Async>(SA[Next % NumBuffers], SB[Next % NumBuffers], A, Bt, K,
                       Row0, Col0, Next * TileK);
    if constexpr (Async)
      asm volatile("cp.async.commit_group;\n" ::);
    const half *TA = SA[T % NumBuffers], *TB = SB[T % NumBuffers];
    for (int Kk = 0; Kk < TileK; Kk += 16) {
      uint32_t Fa[2][4], Fb[4][2];
      for (int Mi = 0; Mi < 2; ++Mi) {
        // Lanes 0-15 give rows 0-15 at k, lanes 16-31 the same rows at k+8.
        int R = WarpRow + Mi * 16 + Lane % 16;
        int C = (Kk + (Lane / 16) * 8) / 8;
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
                     "{%0, %1, %2, %3}, [%4];\n"
                     : "=r"(Fa[Mi][0]), "=r"(Fa[Mi][1]), "=r"(Fa[Mi][2]),
                       "=r"(Fa[Mi][3])
                     : "r"(shared(TA + swizzle(R, C))));
      }
      for (int Nj = 0; Nj < 4; Nj += 2) {
        // Two n8 tiles: lanes 0-7 rows n..n+7 at k, 8-15 at k+8, 16-31 the
        // next eight columns of D.
        int R = WarpCol + Nj * 8 + (Lane / 16) * 8 + Lane % 8;
        int C = (Kk + ((Lane / 8) % 2) * 8) / 8;
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
                     "{%0, %1, %2, %3}, [%4];\n"
                     : "=r"(Fb[Nj][0]), "=r"(Fb[Nj][1]), "=r"(Fb[Nj + 1][0]),
                       "=r"(Fb[Nj + 1][1])
                     : "r"(shared(TB + swizzle(R, C))));
      }
      for (int Mi = 0; Mi < 2; ++Mi)
        for (int Nj = 0; Nj < 4; ++Nj)
          asm volatile(
              "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
              "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
              "{%0, %1, %2, %3};\n"
              : "+f"(Acc[Mi][Nj][0]), "+f"(Acc[Mi][Nj][1]),
                "+f"(Acc[Mi][Nj][2]), "+f"(Acc[Mi][Nj][3])
              : "r"(Fa[Mi][0]), "r"(Fa[Mi][1]), "r"(Fa[Mi][2]),
                "r"(Fa[Mi][3]), "r"(Fb[Nj][0]), "r"(Fb[Nj][1]));
    }
  }
  if constexpr (Async)
    asm volatile("cp.async.wait_all;\n" ::);
  // The accumulator fragment: rows g and g+8, columns 2t and 2t+1.
  int G = Lane / 4, Tq = Lane % 4;
  for (int Mi = 0; Mi < 2; ++Mi)
    for (int Nj = 0; Nj < 4; ++Nj) {
      int R = Row0 + WarpRow + Mi * 16 + G;
      int C = Col0 + WarpCol + Nj * 8 + 2 * Tq;
      D[R * N + C] = Acc[Mi][Nj][0];
      D[R * N + C + 1] = Acc[Mi][Nj][1];
      D[(R + 8) * N + C] = Acc[Mi][Nj][2];
      D[(R + 8) * N + C + 1] = Acc[Mi][Nj][3];
    }
}

/// Runs the GEMM on M x N x K: once on small integers, where every sum is
/// exact whatever the order, compared exactly; once on values in [-1, 1],
/// compared with a double-precision product. Returns the failures.
template <bool Async> int check(const char *Name, int M, int N, int K) {
  std::vector<half> A(M * K), Bt(N * K);
  std::vector<float> Af(M * K), Btf(N * K), D(M * N);
  half *DA, *DB;
  float *DD;
  cudaMalloc(&DA, A.size() * sizeof(half));
  cudaMalloc(&DB, Bt.size() * sizeof(half));
  cudaMalloc(&DD, D.size() * sizeof(float));
  int Failures = 0;
  for (int Round = 0; Round < 2; ++Round) {
    unsigned Seed = 12345 + Round;
    auto Next = [&] {
      Seed = Seed * 1103515245u + 12345u;
      return (Seed >> 8) & 0xffff;
    };
    for (size_t I = 0; I < A.size(); ++I) {
      float V = Round == 0 ? float(int(Next() % 9) - 4)
                           : float(Next()) / 32768.0f - 1.0f;
      A[I] = __float2half(V);
      Af[I] = __half2float(A[I]);
    }
    for (size_t I = 0; I < Bt.size(); ++I) {
      float V = Round == 0 ? float(int(Next() % 9) - 4)
                           : float(Next()) / 32768.0f - 1.0f;
      Bt[I] = __float2half(V);
      Btf[I] = __half2float(Bt[I]);
    }
    cudaMemcpy(DA, A.data(), A.size() * sizeof(half), cudaMemcpyHostToDevice);
    cudaMemcpy(DB, Bt.data(), Bt.size() * sizeof(half),
               cudaMemcpyHostToDevice);
    cudaMemset(DD, 0, D.size() * sizeof(float));
    hgemm<Async><<<dim3(N / TileN, M / TileM), Threads>>>(DA, DB, DD, M, N,
                                                           K);
    cudaError_t Err = cudaGetLastError();
    if (Err == cudaSuccess)
      Err = cudaDeviceSynchronize();
    if (Err != cudaSuccess) {
      std::printf("%s: %s\n", Name, cudaGetErrorString(Err));
      return 1;
    }
    cudaMemcpy(D.data(), DD, D.size() * sizeof(float),
               cudaMemcpyDeviceToHost);
    int Bad = 0;
    for (int I = 0; I < M; ++I)
      for (int J = 0; J < N; ++J) {
        double Ref = 0;
        for (int L = 0; L < K; ++L)
          Ref += double(Af[I * K + L]) * double(Btf[J * K + L]);
        double Got = D[I * N + J];
        bool Ok = Round == 0 ? Got == Ref
                             : std::fabs(Got - Ref) <= 1e-4 * K;
        if (!Ok && Bad++ < 3)
          std::printf("%s: D[%d][%d] = %.9g, expected %.9g\n", Name, I, J,
                      Got, Ref);
      }
    std::printf("%s, %s values: %d of %d right\n", Name,
                Round == 0 ? "integer" : "random", M * N - Bad, M * N);
    Failures += Bad;
  }
  cudaFree(DA);
  cudaFree(DB);
  cudaFree(DD);
  return Failures;
}

} // namespace gemm
