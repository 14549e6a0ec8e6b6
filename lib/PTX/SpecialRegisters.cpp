//===- SpecialRegisters.cpp - PTX predefined registers --------------------===//

#include "ptxjit/PTX/SpecialRegisters.h"
#include "llvm/ADT/StringMap.h"

using namespace llvm;
using namespace ptxjit::ptx;

namespace {
struct SRegInfo {
  StringRef Prefix; ///< the whole name, or a family's prefix
  unsigned Count;   ///< 0 for a single register
  StringRef Suffix;
  ScalarType Type;
  bool Vector;
};
} // namespace

static const SRegInfo SRegTable[] = {
#define PTX_SREG(Enum, Spelling, Type, Vector)                                 \
  {Spelling, 0, "", ScalarType::Type, Vector != 0},
#define PTX_SREG_FAMILY(Enum, Prefix, Count, Suffix, Type)                     \
  {Prefix, Count, Suffix, ScalarType::Type, false},
#include "ptxjit/PTX/SpecialRegisters.def"
};

std::optional<SpecialRegisterRef>
ptxjit::ptx::lookupSpecialRegister(StringRef Name) {
  static const StringMap<unsigned> Singles = [] {
    StringMap<unsigned> Map;
    for (unsigned I = 0; I != std::size(SRegTable); ++I)
      if (!SRegTable[I].Count)
        Map[SRegTable[I].Prefix] = I;
    return Map;
  }();
  auto It = Singles.find(Name);
  if (It != Singles.end())
    return SpecialRegisterRef{static_cast<SpecialRegister>(It->second), 0};
  for (unsigned I = 0; I != std::size(SRegTable); ++I) {
    const SRegInfo &Info = SRegTable[I];
    if (!Info.Count || !Name.starts_with(Info.Prefix) ||
        !Name.ends_with(Info.Suffix))
      continue;
    StringRef Digits =
        Name.drop_front(Info.Prefix.size()).drop_back(Info.Suffix.size());
    unsigned Index;
    // No leading zeros: %envreg07 is not %envreg7.
    if (Digits.empty() || (Digits.size() > 1 && Digits[0] == '0') ||
        Digits.getAsInteger(10, Index) || Index >= Info.Count)
      continue;
    return SpecialRegisterRef{static_cast<SpecialRegister>(I), Index};
  }
  return std::nullopt;
}

ScalarType ptxjit::ptx::getSpecialRegisterType(SpecialRegister R) {
  return SRegTable[static_cast<unsigned>(R)].Type;
}

bool ptxjit::ptx::isVectorSpecialRegister(SpecialRegister R) {
  return SRegTable[static_cast<unsigned>(R)].Vector;
}
