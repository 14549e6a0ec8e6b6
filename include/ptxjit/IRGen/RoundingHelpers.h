//===- RoundingHelpers.h - Exactly rounded float helpers ---------*- C++
//-*-===//
//
// PTX instructions with a directed rounding mode (.rz .rm .rp), and
// conversions LLVM would round twice, call these host functions, which round
// exactly with llvm::APFloat. Generated code passes whole warps: N lanes
// (32, or 1 for a uniform value) in arrays of the element type, and gets N
// results back. They are pure and never fail.
//
// IRGen declares them by the names below; the JIT binds the names to the
// definitions in lib/JIT/RoundingHelpers.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_IRGEN_ROUNDINGHELPERS_H
#define PTXJIT_IRGEN_ROUNDINGHELPERS_H

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

extern "C" {
/// D[I] = Op(A[I], B[I], C[I]) for I < N, rounded in Mode. B and C are
/// read only by the operations that take them.
void ptxjit_rounded_f32(uint32_t Op, uint32_t Mode, float *D, const float *A,
                        const float *B, const float *C, uint32_t N);
void ptxjit_rounded_f64(uint32_t Op, uint32_t Mode, double *D, const double *A,
                        const double *B, const double *C, uint32_t N);
/// The same on .f16 or .bf16 bit patterns (Format is RHF_F16 or RHF_BF16):
/// LLVM would compute a 16-bit fma in float, rounding twice.
void ptxjit_rounded_half(uint32_t Format, uint32_t Op, uint32_t Mode,
                         uint16_t *D, const uint16_t *A, const uint16_t *B,
                         const uint16_t *C, uint32_t N);
/// D[I] = A[I] converted from format From to format To, rounded in Mode.
void ptxjit_convert_float(uint32_t To, uint32_t From, uint32_t Mode, void *D,
                          const void *A, uint32_t N);
/// D[I] = the integer A[I] (SrcBits wide, 8 to 64, signed if SrcSigned)
/// converted to format To, rounded in Mode. A holds SrcBits-wide elements.
void ptxjit_convert_int(uint32_t To, uint32_t SrcBits, uint32_t SrcSigned,
                        uint32_t Mode, void *D, const void *A, uint32_t N);
}

namespace ptxjit {
/// One helper's symbol name and address.
struct RoundingHelperSymbol {
  const char *Name;
  void *Address;
};
/// Every helper, for the JIT's symbol table (defined with the helpers).
extern const RoundingHelperSymbol RoundingHelperSymbols[5];
} // namespace ptxjit

#endif
