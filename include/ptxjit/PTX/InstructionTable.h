//===- InstructionTable.h - Facts about PTX opcodes, types, modifiers -----===//
//
// Enumerations generated from the .def tables, and look-ups by spelling.
// Everything that knows what an opcode accepts asks this header.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_PTX_INSTRUCTIONTABLE_H
#define PTXJIT_PTX_INSTRUCTIONTABLE_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>

namespace ptxjit {
namespace ptx {

enum class Opcode : uint8_t {
#define PTX_OPCODE(Enum, Spelling, Types, Shapes, Flags) Enum,
#include "ptxjit/PTX/Opcodes.def"
};

enum class ScalarType : uint8_t {
  None,
#define PTX_TYPE(Enum, Spelling, Bits, Kind) Enum,
#include "ptxjit/PTX/Types.def"
};

enum class StateSpace : uint8_t {
  None,
#define PTX_STATE_SPACE(Enum, Spelling) Enum,
#include "ptxjit/PTX/StateSpaces.def"
};

enum class Modifier : uint8_t {
#define PTX_MODIFIER(Enum, Spelling, Category) Enum,
#include "ptxjit/PTX/Modifiers.def"
};

enum class TypeKind : uint8_t { Bit, Unsigned, Signed, Float, Packed, Pred };

enum OpFlags : uint32_t {
  OpNone = 0,
  OpTerminator = 1 << 0,
  OpBranch = 1 << 1,
  OpCall = 1 << 2,
  OpMemRead = 1 << 3,
  OpMemWrite = 1 << 4,
  OpCTABarrier = 1 << 5,
  OpWarpSync = 1 << 6,
  OpUnsupported = 1 << 7,
};

struct OpcodeInfo {
  llvm::StringRef Spelling;
  uint8_t MinTypes, MaxTypes;
  llvm::StringRef Shapes;
  uint32_t Flags;
};

const OpcodeInfo &getOpcodeInfo(Opcode Op);
llvm::StringRef getSpelling(Opcode Op);
std::optional<Opcode> lookupOpcode(llvm::StringRef Spelling);

/// Spellings include the leading dot (".u32").
llvm::StringRef getSpelling(ScalarType T);
std::optional<ScalarType> lookupScalarType(llvm::StringRef Spelling);
unsigned getBitWidth(ScalarType T);
TypeKind getTypeKind(ScalarType T);
inline bool isFloat(ScalarType T) { return getTypeKind(T) == TypeKind::Float; }
inline bool isSigned(ScalarType T) {
  return getTypeKind(T) == TypeKind::Signed;
}
inline bool isInteger(ScalarType T) {
  TypeKind K = getTypeKind(T);
  return K == TypeKind::Signed || K == TypeKind::Unsigned || K == TypeKind::Bit;
}

llvm::StringRef getSpelling(StateSpace S);
std::optional<StateSpace> lookupStateSpace(llvm::StringRef Spelling);

llvm::StringRef getSpelling(Modifier M);
std::optional<Modifier> lookupModifier(llvm::StringRef Spelling);

/// Number of entries in each table (for tests and fuzzing dictionaries).
unsigned getNumOpcodes();
unsigned getNumModifiers();

} // namespace ptx
} // namespace ptxjit

#endif
