//===- MatrixArithmetic.h - The element arithmetic of mma and wgmma -*- C++
//-*-===//
//
// What ptxjit_rt_mma computes with, for the warpgroup multiply
// (WarpgroupMultiply.cpp) to compute the same way: element decoding,
// the rounding of results, and dense float products (MatrixMultiply.cpp
// says which model each form follows).
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_RUNTIME_MATRIXARITHMETIC_H
#define PTXJIT_LIB_RUNTIME_MATRIXARITHMETIC_H

#include "ptxjit/ABI/MatrixABI.h"

namespace ptxjit {
namespace runtime {

/// The value of a float element's bits (.f16, .bf16, .tf32, .f32, .e4m3,
/// .e5m2).
float decodeMatrixFloat(MatrixElement E, uint64_t Bits);

/// The bits of a result element: .f16 rounded to nearest even, or .f32
/// with NaN made canonical.
uint32_t encodeMatrixFloat(MatrixElement D, float V);

/// C = A * B + C for row-major A (M x K), B (K x N) and C (M x N), N at
/// most 32, as mma of these element types sums them.
void multiplyFloatMatrices(MatrixElement AType, MatrixElement CType,
                           MatrixElement DType, const float *A, const float *B,
                           float *C, unsigned M, unsigned N, unsigned K);

} // namespace runtime
} // namespace ptxjit

#endif
