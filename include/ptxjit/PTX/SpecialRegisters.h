//===- SpecialRegisters.h - PTX predefined registers ------------*- C++ -*-===//

#ifndef PTXJIT_PTX_SPECIALREGISTERS_H
#define PTXJIT_PTX_SPECIALREGISTERS_H

#include "ptxjit/PTX/InstructionTable.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace ptxjit {
namespace ptx {

enum class SpecialRegister : uint8_t {
#define PTX_SREG(Enum, Spelling, Type, Vector) Enum,
#define PTX_SREG_FAMILY(Enum, Prefix, Count, Suffix, Type) Enum,
#include "ptxjit/PTX/SpecialRegisters.def"
};

/// A special register as named in an operand: %tid (Index 0), %envreg7
/// (EnvReg, Index 7).
struct SpecialRegisterRef {
  SpecialRegister Reg;
  unsigned Index = 0;
};

/// Looks a register name (without a .x component) up; nullopt if the name
/// is not a special register.
std::optional<SpecialRegisterRef> lookupSpecialRegister(llvm::StringRef Name);

/// The type of the register, of one component for vector registers.
ScalarType getSpecialRegisterType(SpecialRegister R);

/// Whether the register is a .v4 vector read through .x/.y/.z/.w.
bool isVectorSpecialRegister(SpecialRegister R);

} // namespace ptx
} // namespace ptxjit

#endif
