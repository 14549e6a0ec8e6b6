//===- NativeKernels.cpp - The benchmarks' native C++ versions ------------===//
//
// Built with -O3 -march=native -ffp-contract=off (see CMakeLists.txt). The
// functions are noinline and write through pointers the harness reads back,
// so the compiler cannot drop any of the work.
//
//===----------------------------------------------------------------------===//

#include "NativeKernels.h"
#include <algorithm>
#include <cmath>

#define NATIVE_KERNEL __attribute__((noinline))

namespace ptxjit {
namespace bench {

NATIVE_KERNEL void nativeVectorAdd(const float *__restrict A,
                                   const float *__restrict B,
                                   float *__restrict C, int64_t N) {
  for (int64_t I = 0; I < N; ++I)
    C[I] = A[I] + B[I];
}

NATIVE_KERNEL void nativeSaxpy(int64_t N, float A, const float *__restrict X,
                               float *__restrict Y) {
  for (int64_t I = 0; I < N; ++I)
    Y[I] = std::fma(A, X[I], Y[I]);
}

NATIVE_KERNEL void nativeSgemm(int M, int N, int K, const float *__restrict A,
                               const float *__restrict B, float *__restrict C) {
  for (int I = 0; I < M; ++I) {
    float *__restrict Row = C + int64_t(I) * N;
    for (int J = 0; J < N; ++J)
      Row[J] = 0.0f;
    for (int Kk = 0; Kk < K; ++Kk) {
      float AV = A[int64_t(I) * K + Kk];
      const float *__restrict BRow = B + int64_t(Kk) * N;
      for (int J = 0; J < N; ++J)
        Row[J] = std::fma(AV, BRow[J], Row[J]);
    }
  }
}

NATIVE_KERNEL void nativeStencil5(int W, int H, float C0, float C1,
                                  const float *__restrict In,
                                  float *__restrict Out) {
  for (int Y = 0; Y < H; ++Y) {
    const float *__restrict R = In + int64_t(Y) * W;
    float *__restrict O = Out + int64_t(Y) * W;
    if (Y == 0 || Y == H - 1) {
      for (int X = 0; X < W; ++X)
        O[X] = R[X];
      continue;
    }
    O[0] = R[0];
    for (int X = 1; X < W - 1; ++X) {
      float NS = R[X - W] + R[X + W];
      float WE = R[X - 1] + R[X + 1];
      O[X] = std::fma(C1, NS + WE, C0 * R[X]);
    }
    if (W > 1)
      O[W - 1] = R[W - 1];
  }
}

NATIVE_KERNEL void nativeBlockReduce(const float *__restrict In,
                                     float *__restrict Partial, uint32_t N,
                                     unsigned BlockSize) {
  alignas(64) float S[1024];
  uint64_t Span = 2 * uint64_t(BlockSize);
  uint64_t Blocks = (N + Span - 1) / Span;
  for (uint64_t Blk = 0; Blk < Blocks; ++Blk) {
    uint64_t Base = Blk * Span;
    if (Base + Span <= N) {
      for (unsigned T = 0; T < BlockSize; ++T)
        S[T] = In[Base + T] + In[Base + BlockSize + T];
    } else {
      for (unsigned T = 0; T < BlockSize; ++T) {
        uint64_t I = Base + T;
        float V = I < N ? In[I] : 0.0f;
        if (I + BlockSize < N)
          V = V + In[I + BlockSize];
        S[T] = V;
      }
    }
    for (unsigned Stride = BlockSize / 2; Stride > 0; Stride /= 2)
      for (unsigned T = 0; T < Stride; ++T)
        S[T] = S[T] + S[T + Stride];
    Partial[Blk] = S[0];
  }
}

NATIVE_KERNEL void nativeHistogram(const uint8_t *__restrict Data, uint32_t N,
                                   uint32_t *__restrict Hist, unsigned Blocks,
                                   unsigned BlockSize) {
  // Block by block, each its grid-stride share into a histogram of its own,
  // then added to the whole, as histogram.cu does.
  uint64_t Stride = uint64_t(Blocks) * BlockSize;
  for (unsigned Blk = 0; Blk < Blocks; ++Blk) {
    uint32_t S[256] = {};
    for (uint64_t Base = uint64_t(Blk) * BlockSize; Base < N; Base += Stride) {
      uint64_t End = std::min<uint64_t>(Base + BlockSize, N);
      for (uint64_t I = Base; I < End; ++I)
        ++S[Data[I]];
    }
    for (unsigned B = 0; B < 256; ++B)
      Hist[B] += S[B];
  }
}

} // namespace bench
} // namespace ptxjit
