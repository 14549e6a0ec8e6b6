//===- TypeRules.h - PTX operand type-checking rules ------------*- C++ -*-===//
//
// The PTX ISA's rules for when an operand of one type may be used with an
// instruction of another (section "Type Information for Instructions and
// Operands"), written once so that the verifier and IRGen agree on them.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_PTX_TYPERULES_H
#define PTXJIT_PTX_TYPERULES_H

#include "ptxjit/PTX/InstructionTable.h"

namespace ptxjit {
namespace ptx {

/// The standard rule (ISA table "Type Checking Rules"): sizes must be equal;
/// bit-size types agree with any type; signed and unsigned integers agree
/// with each other; floating-point and packed types only with themselves.
/// Predicates agree only with predicates. ScalarType::None (an untyped
/// instruction) agrees with everything.
bool typesAgree(ScalarType InstrType, ScalarType OperandType);

/// The relaxed rule for the data operands of ld, ldu, st and cvt (ISA
/// "Operand Size Exceeding Instruction-Type Size"): additionally, a register
/// wider than the instruction type may be used when the instruction type is
/// bit-size or integer (the register then is bit-size or integer, or any
/// type for a bit-size instruction), or when the register is bit-size.
bool typesAgreeRelaxed(ScalarType InstrType, ScalarType OperandType);

/// The type twice as wide and of the same kind (.s32 -> .s64), as written by
/// mul.wide / mad.wide; ScalarType::None if there is none.
ScalarType getWideType(ScalarType T);

/// The bit-size type of the given width (.b16 for 16), or None.
ScalarType getBitType(unsigned Bits);

/// What a literal operand is, for immediateFits.
enum class LiteralKind : uint8_t { Integer, Float32, Float64 };

/// Whether a literal may be used as an operand of the given type:
/// integer literals in integer, bit-size and predicate operands (never in
/// floating-point ones: the ISA casts integer constants only in size, and
/// ptxas rejects them there); 0f and 0d (and decimal) literals in
/// floating-point operands of any precision (the ISA converts each
/// floating-point constant to the type at its use); 0f in 32-bit and 0d in
/// 64-bit bit-size operands (the exact bit pattern).
bool immediateFits(LiteralKind K, ScalarType OperandType);

} // namespace ptx
} // namespace ptxjit

#endif
