//===- MemoryVerifier.cpp - Rules of multimem and the dynamic stack -------===//
//
// What the PTX ISA requires of multimem.ld_reduce/st/red and alloca beyond
// their operand shapes: the vector widths and types that go together, the
// accumulation precisions, the state space, and alloca's alignment.
//
//===----------------------------------------------------------------------===//

#include "VerifierImpl.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace ptxjit::ptx;

static bool isHalfOrByteFloat(ScalarType T) {
  switch (T) {
  case ScalarType::F16:
  case ScalarType::F16x2:
  case ScalarType::BF16:
  case ScalarType::BF16x2:
  case ScalarType::E4M3:
  case ScalarType::E5M2:
  case ScalarType::E4M3x2:
  case ScalarType::E5M2x2:
    return true;
  default:
    return false;
  }
}

void FunctionVerifier::checkMemoryRules(const Instruction &I, StringRef Text) {
  auto Rule = [&](SMLoc Loc, const Twine &What) {
    reportRule(Loc, Text, What);
  };
  switch (I.Op) {
  case Opcode::MultimemLdReduce:
  case Opcode::MultimemSt:
  case Opcode::MultimemRed: {
    if (I.Space != StateSpace::None && I.Space != StateSpace::Global)
      Rule(I.Loc, "the address is generic or in .global");
    ScalarType T = I.getType();
    bool FloatData = isFloat(T) || getTypeKind(T) == TypeKind::Packed;
    if (I.VectorWidth != 1) {
      unsigned Bits = getBitWidth(T) * I.VectorWidth;
      if (!FloatData || T == ScalarType::F64)
        Rule(I.Loc, "vectors are of floating-point types other than .f64");
      else if (Bits != 32 && Bits != 64 && Bits != 128)
        Rule(I.Loc, "a vector is 32, 64 or 128 bits");
    }
    bool Acc =
        I.hasModifier(Modifier::AccF32) || I.hasModifier(Modifier::AccF16);
    if (Acc && !isHalfOrByteFloat(T))
      Rule(I.Loc, ".acc::f32 and .acc::f16 are for half and 8-bit floats");
    if (I.hasModifier(Modifier::AccF16) && T != ScalarType::E4M3 &&
        T != ScalarType::E5M2 && T != ScalarType::E4M3x2 &&
        T != ScalarType::E5M2x2)
      Rule(I.Loc, ".acc::f16 is for 8-bit floats");
    if (I.hasModifier(Modifier::Weak) &&
        (I.hasModifier(Modifier::Cta) || I.hasModifier(Modifier::Cluster) ||
         I.hasModifier(Modifier::Gpu) || I.hasModifier(Modifier::Sys)))
      Rule(I.Loc, ".weak takes no scope");
    return;
  }
  case Opcode::Alloca:
    if (I.Operands.size() == 3) {
      const Operand &A = I.Operands[2];
      if (A.Kind != Operand::IntImm || A.Value <= 0 ||
          !isPowerOf2_64(A.Value) || A.Value > (int64_t(1) << 23))
        Diags.report(A.Loc, DiagID::err_operand_kind, 3, Text,
                     "a power of 2 up to 2^23 (the alignment)");
    }
    return;
  default:
    return;
  }
}
