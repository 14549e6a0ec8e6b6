//===- TypeRules.cpp - PTX operand type-checking rules --------------------===//

#include "ptxjit/PTX/TypeRules.h"

using namespace ptxjit::ptx;

static bool isIntegerKind(TypeKind K) {
  return K == TypeKind::Signed || K == TypeKind::Unsigned;
}

bool ptxjit::ptx::typesAgree(ScalarType InstrType, ScalarType OperandType) {
  if (InstrType == ScalarType::None || InstrType == OperandType)
    return true;
  TypeKind KI = getTypeKind(InstrType), KO = getTypeKind(OperandType);
  if (KI == TypeKind::Pred || KO == TypeKind::Pred)
    return false;
  if (getBitWidth(InstrType) != getBitWidth(OperandType))
    return false;
  if (KI == TypeKind::Bit || KO == TypeKind::Bit)
    return true;
  // Floating-point and packed types matched exactly above.
  return isIntegerKind(KI) && isIntegerKind(KO);
}

bool ptxjit::ptx::typesAgreeRelaxed(ScalarType InstrType,
                                    ScalarType OperandType) {
  if (typesAgree(InstrType, OperandType))
    return true;
  TypeKind KI = getTypeKind(InstrType), KO = getTypeKind(OperandType);
  if (KI == TypeKind::Pred || KO == TypeKind::Pred)
    return false;
  // The register may only be wider, never narrower.
  if (getBitWidth(OperandType) < getBitWidth(InstrType))
    return false;
  if (KI == TypeKind::Bit)
    return true;
  if (isIntegerKind(KI))
    return KO == TypeKind::Bit || isIntegerKind(KO);
  // Floating-point instruction types keep their exact size unless the
  // register is bit-size.
  return KO == TypeKind::Bit;
}

ScalarType ptxjit::ptx::getWideType(ScalarType T) {
  switch (T) {
  case ScalarType::U16:
    return ScalarType::U32;
  case ScalarType::U32:
    return ScalarType::U64;
  case ScalarType::S16:
    return ScalarType::S32;
  case ScalarType::S32:
    return ScalarType::S64;
  case ScalarType::B16:
    return ScalarType::B32;
  case ScalarType::B32:
    return ScalarType::B64;
  default:
    return ScalarType::None;
  }
}

ScalarType ptxjit::ptx::getBitType(unsigned Bits) {
  switch (Bits) {
  case 8:
    return ScalarType::B8;
  case 16:
    return ScalarType::B16;
  case 32:
    return ScalarType::B32;
  case 64:
    return ScalarType::B64;
  case 128:
    return ScalarType::B128;
  default:
    return ScalarType::None;
  }
}

bool ptxjit::ptx::immediateFits(LiteralKind K, ScalarType OperandType) {
  if (OperandType == ScalarType::None)
    return true;
  TypeKind Kind = getTypeKind(OperandType);
  unsigned Bits = getBitWidth(OperandType);
  switch (K) {
  case LiteralKind::Integer:
    return Kind != TypeKind::Float && Kind != TypeKind::Packed;
  case LiteralKind::Float32:
    return Kind == TypeKind::Float || (Kind == TypeKind::Bit && Bits == 32);
  case LiteralKind::Float64:
    return Kind == TypeKind::Float || (Kind == TypeKind::Bit && Bits == 64);
  }
  return false;
}
