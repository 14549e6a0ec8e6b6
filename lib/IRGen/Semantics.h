//===- Semantics.h - Helpers shared by instruction semantics ----*- C++ -*-===//

#ifndef PTXJIT_LIB_IRGEN_SEMANTICS_H
#define PTXJIT_LIB_IRGEN_SEMANTICS_H

#include "ptxjit/PTX/InstructionTable.h"

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
/// .sat: clamp to [0, 1], NaN to 0.
llvm::Value *saturate(FunctionLowering &FL, llvm::Value *V);
/// add/sub with .cc and addc/subc: the carry flag chain.
llvm::Value *carryArithmetic(FunctionLowering &FL, const ptx::Instruction &I,
                             bool IsAdd, llvm::Value *A, llvm::Value *C);
/// fma/mad on floats, with .ftz, .sat and rounding modifiers.
llvm::Value *fusedMultiplyAdd(FunctionLowering &FL, const ptx::Instruction &I,
                              ptx::ScalarType T, llvm::Value *A, llvm::Value *B,
                              llvm::Value *C);

} // namespace irgen
} // namespace ptxjit

#endif
