//===- NativeKernels.h - The benchmarks' native C++ versions ----*- C++ -*-===//
//
// Each function computes what the PTX kernel of the same name computes, with
// the same floating-point operations in the same order, so the results agree
// bit for bit. They are compiled on their own with -O3 -march=native
// -ffp-contract=off, single-threaded, and are never inlined into the harness.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_BENCH_NATIVEKERNELS_H
#define PTXJIT_BENCH_NATIVEKERNELS_H

#include <cstdint>

namespace ptxjit {
namespace bench {

/// c[i] = a[i] + b[i].
void nativeVectorAdd(const float *A, const float *B, float *C, int64_t N);

/// y[i] = fma(a, x[i], y[i]).
void nativeSaxpy(int64_t N, float A, const float *X, float *Y);

/// C = A * B, row-major, A is MxK and B is KxN. Every element is a chain of
/// fused multiply-adds over increasing k starting from +0 (loop order i, k,
/// j, so the j loop vectorizes).
void nativeSgemm(int M, int N, int K, const float *A, const float *B, float *C);

/// One Jacobi step of the 5-point stencil; border cells are copied:
/// out = fma(c1, (n + s) + (w + e), c0 * center).
void nativeStencil5(int W, int H, float C0, float C1, const float *In,
                    float *Out);

/// Partial sums of blocks of 2 * BlockSize floats, summed like the kernels
/// in reduce.cu: element t plus element t + BlockSize on load, then a tree
/// that halves the stride. BlockSize is a power of two, at most 1024.
void nativeBlockReduce(const float *In, float *Partial, uint32_t N,
                       unsigned BlockSize);

/// histogram.cu's algorithm: Blocks blocks of BlockSize threads, each
/// counting its grid-stride share of Data in a histogram of its own.
void nativeHistogram(const uint8_t *Data, uint32_t N, uint32_t *Hist,
                     unsigned Blocks, unsigned BlockSize);

} // namespace bench
} // namespace ptxjit

#endif
