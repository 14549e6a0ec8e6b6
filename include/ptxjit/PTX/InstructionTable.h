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
#define PTX_OPCODE(Enum, Spelling, Types, Shapes, Flags, TypeSets, Modifiers,  \
                   Uniformity, Family)                                         \
  Enum,
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

enum class Modifier : uint16_t {
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
  /// Lanes wait here for each other (warp-synchronous instructions and CTA
  /// barriers; .arrive forms count but do not wait).
  OpSyncPoint = 1 << 8,
  /// Operands whose register roles (read or written) the analyses do not
  /// model: call and the instructions only parsed.
  OpOpaqueRoles = 1 << 9,
  /// The warp may wait for a value another warp writes while it runs
  /// (atomics); the kernel's warps then run as fibers.
  OpWaitsOnOthers = 1 << 10,
  /// Effects beyond writing the destination operands (memory, control,
  /// synchronization, the debugger or the profiler).
  OpSideEffects = 1 << 11,
  /// Reaches the runtime's mbarrier or cluster state, where lanes may be
  /// parked until other warps or CTAs act: the warps run as fibers.
  OpParksLanes = 1 << 12,
  /// The first operand is read before it is written (wgmma's accumulators,
  /// which are D and C at once): a use as well as a definition.
  OpReadsDestination = 1 << 13,
};

/// What an instruction's result is across the lanes of a warp, when the
/// uniformity analysis knows nothing more about the instruction.
enum class ResultUniformity : uint8_t {
  None,    ///< no result
  Sources, ///< uniform when its sources are
  Varying, ///< may differ per lane whatever its sources
};

struct OpcodeInfo {
  llvm::StringRef Spelling;
  uint8_t MinTypes, MaxTypes;
  llvm::StringRef Shapes;
  uint32_t Flags;
  llvm::StringRef TypeSets;  ///< see Opcodes.def; checked by InstructionRules
  llvm::StringRef Modifiers; ///< see Opcodes.def; checked by InstructionRules
  ResultUniformity Uniformity;
  llvm::StringRef Family; ///< the lowering visitor's family name
};

const OpcodeInfo &getOpcodeInfo(Opcode Op);
llvm::StringRef getSpelling(Opcode Op);
std::optional<Opcode> lookupOpcode(llvm::StringRef Spelling);
inline bool hasFlag(Opcode Op, OpFlags F) {
  return (getOpcodeInfo(Op).Flags & F) != 0;
}
/// Whether the instruction ends its basic block (bra, brx.idx, ret, exit,
/// trap).
inline bool endsBlock(Opcode Op) { return hasFlag(Op, OpTerminator); }
inline ResultUniformity getResultUniformity(Opcode Op) {
  return getOpcodeInfo(Op).Uniformity;
}

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

/// .u16x2 .s16x2 .u8x4 .s8x4: integers packed in a 32-bit register, and
/// how many.
inline unsigned getPackedIntegerParts(ScalarType T) {
  switch (T) {
  case ScalarType::U16x2:
  case ScalarType::S16x2:
    return 2;
  case ScalarType::U8x4:
  case ScalarType::S8x4:
    return 4;
  default:
    return 0;
  }
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
