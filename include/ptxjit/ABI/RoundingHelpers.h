//===- RoundingHelpers.h - Exactly rounded float helpers -------*- C++ -*-===//
//
// PTX instructions with a directed rounding mode (.rz .rm .rp), and
// conversions LLVM would round twice, call these host functions, which round
// exactly with llvm::APFloat. Generated code passes whole warps: N lanes
// (32, or 1 for a uniform value) in arrays of the element type, and gets N
// results back. They are pure and never fail.
//
// Their prototypes are in RuntimeEntryPoints.def; these are the values of
// their arguments. lib/Runtime/RoundingHelpers.cpp defines them.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_ABI_ROUNDINGHELPERS_H
#define PTXJIT_ABI_ROUNDINGHELPERS_H

#include <cstdint>
#include <utility>

namespace ptxjit {

/// The rounding mode argument (IEEE 754 names in the comments).
enum RoundingHelperMode : uint32_t {
  RHM_NearestEven, ///< .rn
  RHM_TowardZero,  ///< .rz
  RHM_Down,        ///< .rm, toward negative infinity
  RHM_Up,          ///< .rp, toward positive infinity
};

/// The operation argument of the arithmetic helpers.
enum RoundingHelperOp : uint32_t {
  RHO_Add,  ///< A + B
  RHO_Sub,  ///< A - B
  RHO_Mul,  ///< A * B
  RHO_Div,  ///< A / B
  RHO_Fma,  ///< A * B + C, rounded once
  RHO_Sqrt, ///< sqrt(A)
  RHO_Rcp,  ///< 1 / A
};

/// Float formats of the conversion helpers' arguments.
enum RoundingHelperFormat : uint32_t {
  RHF_F16,  ///< uint16_t bits
  RHF_BF16, ///< uint16_t bits
  RHF_F32,  ///< float
  RHF_F64,  ///< double
};

} // namespace ptxjit

#endif
