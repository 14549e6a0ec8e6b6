//===- InstructionTable.cpp - Look-ups over the .def tables ---------------===//

#include "ptxjit/PTX/InstructionTable.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;
using namespace ptxjit::ptx;

static constexpr uint8_t typeDigit(const char *S, bool Max) {
  return Max ? S[S[1] ? 1 : 0] - '0' : S[0] - '0';
}

static const OpcodeInfo OpcodeTable[] = {
#define PTX_OPCODE(Enum, Spelling, Types, Shapes, Flags, TypeSets, Modifiers,  \
                   Uniformity, Family)                                         \
  {Spelling,                                                                   \
   typeDigit(Types, false),                                                    \
   typeDigit(Types, true),                                                     \
   Shapes,                                                                     \
   Flags,                                                                      \
   TypeSets,                                                                   \
   Modifiers,                                                                  \
   ResultUniformity::Uniformity,                                               \
   #Family},
#include "ptxjit/PTX/Opcodes.def"
};

struct TypeInfo {
  StringRef Spelling;
  unsigned Bits;
  TypeKind Kind;
};
static const TypeInfo TypeTable[] = {
    {"", 0, TypeKind::Bit},
#define PTX_TYPE(Enum, Spelling, Bits, Kind) {Spelling, Bits, TypeKind::Kind},
#include "ptxjit/PTX/Types.def"
};

static const StringRef SpaceTable[] = {
    "",
#define PTX_STATE_SPACE(Enum, Spelling) Spelling,
#include "ptxjit/PTX/StateSpaces.def"
};

static const StringRef ModifierTable[] = {
#define PTX_MODIFIER(Enum, Spelling, Category) Spelling,
#include "ptxjit/PTX/Modifiers.def"
};

template <typename EnumT, typename TableT, typename GetSpelling>
static StringMap<EnumT> buildIndex(const TableT &Table, unsigned First,
                                   GetSpelling Get) {
  StringMap<EnumT> Map;
  for (unsigned I = First, E = std::size(Table); I != E; ++I)
    Map[Get(Table[I])] = static_cast<EnumT>(I);
  return Map;
}

template <typename EnumT>
static std::optional<EnumT> find(const StringMap<EnumT> &Map, StringRef S) {
  auto It = Map.find(S);
  if (It == Map.end())
    return std::nullopt;
  return It->second;
}

const OpcodeInfo &ptxjit::ptx::getOpcodeInfo(Opcode Op) {
  return OpcodeTable[static_cast<unsigned>(Op)];
}
StringRef ptxjit::ptx::getSpelling(Opcode Op) {
  return getOpcodeInfo(Op).Spelling;
}
std::optional<Opcode> ptxjit::ptx::lookupOpcode(StringRef S) {
  static const StringMap<Opcode> Index = buildIndex<Opcode>(
      OpcodeTable, 0, [](const OpcodeInfo &I) { return I.Spelling; });
  return find(Index, S);
}

StringRef ptxjit::ptx::getSpelling(ScalarType T) {
  return TypeTable[static_cast<unsigned>(T)].Spelling;
}
unsigned ptxjit::ptx::getBitWidth(ScalarType T) {
  return TypeTable[static_cast<unsigned>(T)].Bits;
}
TypeKind ptxjit::ptx::getTypeKind(ScalarType T) {
  return TypeTable[static_cast<unsigned>(T)].Kind;
}
std::optional<ScalarType> ptxjit::ptx::lookupScalarType(StringRef S) {
  static const StringMap<ScalarType> Index = buildIndex<ScalarType>(
      TypeTable, 1, [](const TypeInfo &I) { return I.Spelling; });
  return find(Index, S);
}

StringRef ptxjit::ptx::getSpelling(StateSpace S) {
  return SpaceTable[static_cast<unsigned>(S)];
}
std::optional<StateSpace> ptxjit::ptx::lookupStateSpace(StringRef S) {
  static const StringMap<StateSpace> Index =
      buildIndex<StateSpace>(SpaceTable, 1, [](StringRef R) { return R; });
  return find(Index, S);
}

StringRef ptxjit::ptx::getSpelling(Modifier M) {
  return ModifierTable[static_cast<unsigned>(M)];
}
std::optional<Modifier> ptxjit::ptx::lookupModifier(StringRef S) {
  static const StringMap<Modifier> Index =
      buildIndex<Modifier>(ModifierTable, 0, [](StringRef R) { return R; });
  return find(Index, S);
}

unsigned ptxjit::ptx::getNumOpcodes() { return std::size(OpcodeTable); }
unsigned ptxjit::ptx::getNumModifiers() { return std::size(ModifierTable); }
