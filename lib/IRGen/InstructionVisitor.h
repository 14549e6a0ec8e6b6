//===- InstructionVisitor.h - Dispatch of PTX instructions ------*- C++ -*-===//
//
// The dispatch of an instruction to the visitor method of its lowering
// family, generated from the Family column of Opcodes.def. The switch has
// no default: every opcode of the table has a case, and a family without a
// visitor method does not compile. Instructions that are verified but not
// lowered yet are the family Unsupported, which reports so.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_IRGEN_INSTRUCTIONVISITOR_H
#define PTXJIT_IRGEN_INSTRUCTIONVISITOR_H

#include "ptxjit/PTX/AST.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/ErrorHandling.h"

namespace llvm {
class Value;
} // namespace llvm

namespace ptxjit {
namespace irgen {

class FunctionLowering;

/// CRTP base: SubClass defines visit<Family>(const ptx::Instruction &) for
/// every family the table names.
template <typename SubClass, typename RetTy = llvm::Error>
class InstructionVisitor {
public:
  RetTy visit(const ptx::Instruction &I) {
    SubClass &Self = static_cast<SubClass &>(*this);
    switch (I.Op) {
#define PTX_OPCODE(Enum, Spelling, Types, Shapes, Flags, TypeSets, Modifiers,  \
                   Uniformity, Family)                                         \
  case ptx::Opcode::Enum:                                                      \
    return Self.visit##Family(I);
#include "ptxjit/PTX/Opcodes.def"
    }
    llvm_unreachable("an opcode outside Opcodes.def");
  }
};

/// The lowering of one instruction into the warp's IR; each family's
/// visitor is defined with the semantics it lowers (Arithmetic.cpp,
/// Memory.cpp, Sync.cpp, ...).
class InstructionLowering : public InstructionVisitor<InstructionLowering> {
public:
  explicit InstructionLowering(FunctionLowering &FL) : FL(FL) {}

  // Arithmetic.cpp.
  llvm::Error visitMov(const ptx::Instruction &I);
  llvm::Error visitAddSub(const ptx::Instruction &I);
  llvm::Error visitMulMad(const ptx::Instruction &I);
  llvm::Error visitMul24(const ptx::Instruction &I);
  llvm::Error visitSad(const ptx::Instruction &I);
  llvm::Error visitDivRem(const ptx::Instruction &I);
  llvm::Error visitAbsNeg(const ptx::Instruction &I);
  llvm::Error visitMinMax(const ptx::Instruction &I);
  llvm::Error visitFma(const ptx::Instruction &I);
  llvm::Error visitFloatUnary(const ptx::Instruction &I);
  llvm::Error visitCopysign(const ptx::Instruction &I);
  llvm::Error visitTestp(const ptx::Instruction &I);
  llvm::Error visitBitCount(const ptx::Instruction &I);
  llvm::Error visitBrev(const ptx::Instruction &I);
  llvm::Error visitBfe(const ptx::Instruction &I);
  llvm::Error visitBfi(const ptx::Instruction &I);
  llvm::Error visitBmsk(const ptx::Instruction &I);
  llvm::Error visitSzext(const ptx::Instruction &I);
  llvm::Error visitFns(const ptx::Instruction &I);
  llvm::Error visitPrmt(const ptx::Instruction &I);
  llvm::Error visitShf(const ptx::Instruction &I);
  llvm::Error visitShift(const ptx::Instruction &I);
  llvm::Error visitLogic(const ptx::Instruction &I);
  llvm::Error visitLop3(const ptx::Instruction &I);
  llvm::Error visitCompare(const ptx::Instruction &I);
  llvm::Error visitSelp(const ptx::Instruction &I);
  llvm::Error visitSlct(const ptx::Instruction &I);
  llvm::Error visitDotProduct(const ptx::Instruction &I);

  // FunctionLowering.cpp: the families lowered by other parts.
  llvm::Error visitConversion(const ptx::Instruction &I);
  llvm::Error visitMemory(const ptx::Instruction &I);
  llvm::Error visitCall(const ptx::Instruction &I);
  llvm::Error visitBarrier(const ptx::Instruction &I);
  llvm::Error visitWarpSync(const ptx::Instruction &I);
  llvm::Error visitTerminator(const ptx::Instruction &I);
  llvm::Error visitNoOp(const ptx::Instruction &I);
  llvm::Error visitUnsupported(const ptx::Instruction &I);

  // Video.cpp.
  llvm::Error visitVideo(const ptx::Instruction &I);

  // Textures.cpp.
  llvm::Error visitTexture(const ptx::Instruction &I);
  llvm::Error visitSurface(const ptx::Instruction &I);

  // MatrixOps.cpp.
  llvm::Error visitMatrix(const ptx::Instruction &I);
  // Async.cpp.
  llvm::Error visitAsyncCopy(const ptx::Instruction &I);
  llvm::Error visitMBarrier(const ptx::Instruction &I);
  llvm::Error visitAsyncWait(const ptx::Instruction &I);
  llvm::Error visitCluster(const ptx::Instruction &I);
  llvm::Error visitSleep(const ptx::Instruction &I);

  // CacheHints.cpp.
  llvm::Error visitCacheHint(const ptx::Instruction &I);

  // Stack.cpp.
  llvm::Error visitStack(const ptx::Instruction &I);

private:
  /// The lanes in Traps (i32) stop the launch as trap does.
  void trapLanes(llvm::Value *Traps);

  FunctionLowering &FL;
};

} // namespace irgen
} // namespace ptxjit

#endif
