//===- Semantics.h - Helpers shared by instruction semantics ----*- C++ -*-===//

#ifndef PTXJIT_LIB_IRGEN_SEMANTICS_H
#define PTXJIT_LIB_IRGEN_SEMANTICS_H

#include "ptxjit/ABI/RoundingHelpers.h"
#include "ptxjit/PTX/InstructionTable.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>

namespace llvm {
class Type;
class Value;
} // namespace llvm

namespace ptxjit {
namespace ptx {
struct Instruction;
}
namespace irgen {

class FunctionLowering;

/// The integer type of the same signedness with Bits bits.
ptx::ScalarType withBits(ptx::ScalarType T, unsigned Bits);
/// The IR type arithmetic on T uses (half, bfloat, <2 x half> for packed).
llvm::Type *getArithType(FunctionLowering &FL, ptx::ScalarType T, bool Vector);
/// Reinterpret register bits as arithmetic values of T, and back.
llvm::Value *toArith(FunctionLowering &FL, llvm::Value *V, ptx::ScalarType T);
llvm::Value *fromArith(FunctionLowering &FL, llvm::Value *V, ptx::ScalarType T);
/// .ftz: subnormals become zero of the same sign.
llvm::Value *flushSubnormal(FunctionLowering &FL, llvm::Value *V);
/// A NaN becomes NVIDIA's canonical NaN (.f64 NaNs are left alone).
llvm::Value *canonicalizeNaN(FunctionLowering &FL, llvm::Value *V);
/// .relu: negative values (and -0) become +0, NaN the canonical NaN.
llvm::Value *applyRelu(FunctionLowering &FL, llvm::Value *V);
/// .sat: clamp to [0, 1], NaN to 0.
llvm::Value *saturate(FunctionLowering &FL, llvm::Value *V);
/// add/sub with .cc and addc/subc: the carry flag chain.
llvm::Value *carryArithmetic(FunctionLowering &FL, const ptx::Instruction &I,
                             bool IsAdd, llvm::Value *A, llvm::Value *C);
/// fma/mad on floats, with .ftz, .sat and rounding modifiers.
llvm::Value *fusedMultiplyAdd(FunctionLowering &FL, const ptx::Instruction &I,
                              ptx::ScalarType T, llvm::Value *A, llvm::Value *B,
                              llvm::Value *C);

/// The helper mode of a directed rounding modifier (.rz .rm .rp) on I;
/// none for .rn or no modifier, which LLVM's own operations round exactly.
std::optional<RoundingHelperMode>
getDirectedRounding(const ptx::Instruction &I);
/// Rounds float V (a scalar or vector) to bfloat, to nearest even, with
/// subnormal results (LLVM's x86 lowering may use an instruction that
/// flushes them).
llvm::Value *truncateToBFloat(FunctionLowering &FL, llvm::Value *V);
/// Op on float or double operands (scalars, or vectors of lanes), rounded
/// exactly in Mode by a RoundingHelpers.h call.
llvm::Value *roundedArithmetic(FunctionLowering &FL, RoundingHelperOp Op,
                               RoundingHelperMode Mode,
                               llvm::ArrayRef<llvm::Value *> Operands);
/// Converts V (arithmetic values of PTX type From: a float, or an integer
/// of From's width) to the float type To, rounded exactly in Mode.
llvm::Value *roundedConversion(FunctionLowering &FL, llvm::Value *V,
                               ptx::ScalarType From, ptx::ScalarType To,
                               RoundingHelperMode Mode);

} // namespace irgen
} // namespace ptxjit

#endif
