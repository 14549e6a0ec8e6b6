//===- InstructionRules.h - Legal types and modifiers per opcode -*- C++
//-*-===//
//
// The TypeSets and Modifiers columns of Opcodes.def, read once into sets
// and groups, and the checks the verifier makes with them: which type
// suffixes an opcode takes, which modifiers, which of them exclude each
// other and which are required.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_PTX_INSTRUCTIONRULES_H
#define PTXJIT_PTX_INSTRUCTIONRULES_H

#include "ptxjit/PTX/InstructionTable.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace ptxjit {
namespace ptx {

struct Instruction;

/// Whether T is a legal type suffix at position Pos (0 for the first) of Op.
bool isLegalType(Opcode Op, unsigned Pos, ScalarType T);

/// The legal type suffixes at position Pos, for messages: ".b32 or .b64".
std::string describeLegalTypes(Opcode Op, unsigned Pos);

/// Whether the opcode accepts any modifier (instructions only parsed).
bool acceptsAnyModifier(Opcode Op);

/// One way an instruction's modifiers break its opcode's groups.
struct ModifierIssue {
  enum KindTy : uint8_t {
    Illegal,      ///< Mod is never legal on the opcode
    Conflict,     ///< Mod and Other are of one group: at most one may appear
    NeedsContext, ///< Mod is legal only with Detail (a type or modifiers)
    NeedsType,    ///< Mod needs the instruction type to be one of Detail
    Missing,      ///< one of Detail must be written
  };
  KindTy Kind;
  Modifier Mod = Modifier(0);
  Modifier Other = Modifier(0);
  std::string Detail;
};

/// Checks I's modifiers against the groups of its opcode, in the order the
/// modifiers are written; required groups come last.
void checkModifiers(const Instruction &I,
                    llvm::SmallVectorImpl<ModifierIssue> &Issues);

/// Reads every entry's TypeSets and Modifiers; "" if all are well formed,
/// else a description of the first that is not. (A malformed entry is also
/// a fatal error on first use.)
std::string validateInstructionRules();

} // namespace ptx
} // namespace ptxjit

#endif
