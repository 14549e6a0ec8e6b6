//===- InstructionRules.cpp - Legal types and modifiers per opcode --------===//

#include "ptxjit/PTX/InstructionRules.h"
#include "ptxjit/PTX/AST.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/ErrorHandling.h"
#include <vector>

using namespace llvm;
using namespace ptxjit::ptx;

namespace {

using TypeMask = uint64_t;

TypeMask bit(ScalarType T) { return TypeMask(1) << unsigned(T); }

/// ScalarType::None and the types of Types.def.
constexpr unsigned NumScalarTypes = 1
#define PTX_TYPE(Enum, Spelling, Bits, Kind) +1
#include "ptxjit/PTX/Types.def"
    ;
static_assert(NumScalarTypes < 64, "a TypeMask holds every type");

TypeMask kindMask(bool (*Pred)(TypeKind)) {
  TypeMask M = 0;
  for (unsigned T = 1; T < NumScalarTypes; ++T) {
    if (Pred(getTypeKind(ScalarType(T))))
      M |= bit(ScalarType(T));
  }
  return M;
}

bool isFloatKind(TypeKind K) {
  return K == TypeKind::Float || K == TypeKind::Packed;
}
bool isIntKind(TypeKind K) {
  return K == TypeKind::Bit || K == TypeKind::Signed || K == TypeKind::Unsigned;
}

struct ModItem {
  Modifier M;
  TypeMask Types = 0; ///< 0: any type
  std::string TypesText;
};

struct Group {
  SmallVector<ModItem, 4> Items;
  bool Required = false;
  enum CondKind : uint8_t {
    Always,
    WithFloat,
    WithInt,
    WithModifier
  } Cond = Always;
  SmallVector<Modifier, 2> CondMods;
  std::string CondText;
};

struct OpcodeRules {
  SmallVector<TypeMask, 2> TypeSets;
  bool AnyModifier = false;
  SmallVector<Group, 4> Groups;
};

/// ".a, .b or .c" from the spellings.
std::string describeList(ArrayRef<std::string> Items) {
  std::string S;
  for (unsigned I = 0, E = Items.size(); I != E; ++I) {
    if (I)
      S += I + 1 == E ? " or " : ", ";
    S += Items[I];
  }
  return S;
}

std::string describeTypes(TypeMask M) {
  SmallVector<std::string, 16> Names;
  for (unsigned T = 1; T < NumScalarTypes; ++T)
    if (M & (TypeMask(1) << T))
      Names.push_back(getSpelling(ScalarType(T)).str());
  return describeList(Names);
}

/// Parses a list of type items ("I F pred", or "u32/s32" with Sep '/').
Expected<TypeMask> parseTypes(StringRef Text, char Sep) {
  SmallVector<StringRef, 8> Items;
  Text.split(Items, Sep, -1, /*KeepEmpty=*/false);
  TypeMask M = 0;
  for (StringRef Item : Items) {
    if (Item == "*")
      M |= ((TypeMask(1) << NumScalarTypes) - 1) & ~bit(ScalarType::None);
    else if (Item == "I")
      for (ScalarType T : {ScalarType::U16, ScalarType::U32, ScalarType::U64,
                           ScalarType::S16, ScalarType::S32, ScalarType::S64})
        M |= bit(T);
    else if (Item == "I8")
      for (ScalarType T :
           {ScalarType::U8, ScalarType::U16, ScalarType::U32, ScalarType::U64,
            ScalarType::S8, ScalarType::S16, ScalarType::S32, ScalarType::S64})
        M |= bit(T);
    else if (Item == "B")
      M |= bit(ScalarType::B16) | bit(ScalarType::B32) | bit(ScalarType::B64);
    else if (Item == "F")
      M |= bit(ScalarType::F32) | bit(ScalarType::F64);
    else if (Item == "H")
      M |= bit(ScalarType::F16) | bit(ScalarType::F16x2) |
           bit(ScalarType::BF16) | bit(ScalarType::BF16x2);
    else if (Item == "float")
      M |= kindMask(isFloatKind);
    else if (Item == "int")
      M |= kindMask(isIntKind);
    else if (std::optional<ScalarType> T = lookupScalarType(("." + Item).str()))
      M |= bit(*T);
    else
      return createStringError("unknown type '%s'", Item.str().c_str());
  }
  return M;
}

Expected<Modifier> parseModifier(StringRef Name) {
  if (std::optional<Modifier> M = lookupModifier(("." + Name).str()))
    return *M;
  return createStringError("unknown modifier '%s'", Name.str().c_str());
}

Error parseGroup(StringRef Text, Group &G) {
  G.Required = Text.consume_front("!");
  auto [Items, Cond] = Text.split('@');
  if (Cond == "float") {
    G.Cond = Group::WithFloat;
    G.CondText = "a floating-point type";
  } else if (Cond == "int") {
    G.Cond = Group::WithInt;
    G.CondText = "an integer type";
  } else if (!Cond.empty()) {
    G.Cond = Group::WithModifier;
    SmallVector<StringRef, 2> Names;
    SmallVector<std::string, 2> Spellings;
    Cond.split(Names, '/');
    for (StringRef N : Names) {
      Expected<Modifier> M = parseModifier(N);
      if (!M)
        return M.takeError();
      G.CondMods.push_back(*M);
      Spellings.push_back(getSpelling(*M).str());
    }
    G.CondText = describeList(Spellings);
  }
  SmallVector<StringRef, 8> Parts;
  Items.split(Parts, ',');
  for (StringRef P : Parts) {
    auto [Name, Types] = P.split('=');
    Expected<Modifier> M = parseModifier(Name);
    if (!M)
      return M.takeError();
    ModItem Item;
    Item.M = *M;
    if (!Types.empty()) {
      Expected<TypeMask> TM = parseTypes(Types, '/');
      if (!TM)
        return TM.takeError();
      Item.Types = *TM;
      Item.TypesText = Types == "float" ? "a floating-point type"
                       : Types == "int" ? "an integer type"
                                        : describeTypes(*TM);
    }
    G.Items.push_back(std::move(Item));
  }
  return Error::success();
}

Expected<OpcodeRules> parseRules(const OpcodeInfo &Info) {
  OpcodeRules R;
  SmallVector<StringRef, 2> Positions;
  Info.TypeSets.split(Positions, ';', -1, /*KeepEmpty=*/false);
  for (StringRef P : Positions) {
    Expected<TypeMask> M = parseTypes(P, ' ');
    if (!M)
      return M.takeError();
    R.TypeSets.push_back(*M);
  }
  if (Info.Modifiers == "*") {
    R.AnyModifier = true;
    return R;
  }
  SmallVector<StringRef, 8> Groups;
  Info.Modifiers.split(Groups, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef GT : Groups) {
    Group G;
    if (Error E = parseGroup(GT, G))
      return std::move(E);
    R.Groups.push_back(std::move(G));
  }
  // A modifier belongs to one group of an opcode, so that a modifier's
  // group, and with it its conflicts, is unambiguous.
  SmallVector<Modifier, 16> Seen;
  for (const Group &G : R.Groups)
    for (const ModItem &Item : G.Items) {
      if (is_contained(Seen, Item.M))
        return createStringError("modifier '%s' is in two groups",
                                 getSpelling(Item.M).str().c_str());
      Seen.push_back(Item.M);
    }
  return R;
}

std::vector<OpcodeRules> buildRules(std::string *Problem) {
  std::vector<OpcodeRules> Rules(getNumOpcodes());
  for (unsigned Op = 0; Op != Rules.size(); ++Op) {
    const OpcodeInfo &Info = getOpcodeInfo(Opcode(Op));
    Expected<OpcodeRules> R = parseRules(Info);
    if (!R) {
      std::string Msg =
          ("Opcodes.def, '" + Info.Spelling + "': " + toString(R.takeError()))
              .str();
      if (!Problem)
        report_fatal_error(Twine(Msg));
      if (Problem->empty())
        *Problem = Msg;
      continue;
    }
    Rules[Op] = std::move(*R);
  }
  return Rules;
}

const OpcodeRules &getRules(Opcode Op) {
  static const std::vector<OpcodeRules> Rules = buildRules(nullptr);
  return Rules[unsigned(Op)];
}

bool conditionHolds(const Group &G, const Instruction &I) {
  switch (G.Cond) {
  case Group::Always:
    return true;
  case Group::WithFloat:
    return any_of(I.Types, [](ScalarType T) {
      return T != ScalarType::None && isFloatKind(getTypeKind(T));
    });
  case Group::WithInt:
    return any_of(I.Types, [](ScalarType T) {
      return T != ScalarType::None && isIntKind(getTypeKind(T));
    });
  case Group::WithModifier:
    return any_of(G.CondMods, [&](Modifier M) { return I.hasModifier(M); });
  }
  return false;
}

} // namespace

bool ptxjit::ptx::isLegalType(Opcode Op, unsigned Pos, ScalarType T) {
  const OpcodeRules &R = getRules(Op);
  if (R.TypeSets.empty())
    return false;
  TypeMask M = R.TypeSets[std::min<size_t>(Pos, R.TypeSets.size() - 1)];
  return (M & bit(T)) != 0;
}

std::string ptxjit::ptx::describeLegalTypes(Opcode Op, unsigned Pos) {
  const OpcodeRules &R = getRules(Op);
  if (R.TypeSets.empty())
    return "no type";
  return describeTypes(
      R.TypeSets[std::min<size_t>(Pos, R.TypeSets.size() - 1)]);
}

bool ptxjit::ptx::acceptsAnyModifier(Opcode Op) {
  return getRules(Op).AnyModifier;
}

void ptxjit::ptx::checkModifiers(const Instruction &I,
                                 SmallVectorImpl<ModifierIssue> &Issues) {
  const OpcodeRules &R = getRules(I.Op);
  if (R.AnyModifier)
    return;
  SmallVector<int, 8> Chosen(R.Groups.size(), -1); // the modifier seen
  for (Modifier M : I.Modifiers) {
    const Group *G = nullptr;
    const ModItem *Item = nullptr;
    for (const Group &Cand : R.Groups)
      for (const ModItem &It : Cand.Items)
        if (It.M == M) {
          G = &Cand;
          Item = &It;
        }
    if (!G) {
      Issues.push_back({ModifierIssue::Illegal, M, M, ""});
      continue;
    }
    int &Slot = Chosen[G - R.Groups.data()];
    if (Slot >= 0) {
      Issues.push_back({ModifierIssue::Conflict, M, Modifier(Slot), ""});
      continue;
    }
    Slot = int(M);
    if (!conditionHolds(*G, I)) {
      Issues.push_back({ModifierIssue::NeedsContext, M, M, G->CondText});
      continue;
    }
    // The type the modifier is about is the last suffix: the operands'
    // type (set.neu.u32.f32 compares .f32 values).
    ScalarType Operated = I.Types.empty() ? ScalarType::None : I.Types.back();
    if (Item->Types && !(Item->Types & bit(Operated)))
      Issues.push_back({ModifierIssue::NeedsType, M, M, Item->TypesText});
  }
  for (unsigned K = 0; K != R.Groups.size(); ++K) {
    const Group &G = R.Groups[K];
    if (!G.Required || Chosen[K] >= 0 || !conditionHolds(G, I))
      continue;
    SmallVector<std::string, 8> Names;
    for (const ModItem &It : G.Items)
      Names.push_back(getSpelling(It.M).str());
    Issues.push_back({ModifierIssue::Missing, G.Items[0].M, G.Items[0].M,
                      describeList(Names)});
  }
}

std::string ptxjit::ptx::validateInstructionRules() {
  std::string Problem;
  buildRules(&Problem);
  return Problem;
}
