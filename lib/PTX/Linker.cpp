//===- Linker.cpp - Linking several PTX modules into one ------------------===//
//
// The linked module is built as a new AST whose nodes are copies of the
// inputs' (their names still point into the inputs' buffers, which outlive
// it) and printed: declarations of every function first, then variables,
// then bodies, so that any module may use what any other defines.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/PTX/Linker.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/Printer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ptxjit::ptx;

namespace {

/// Where the definition a name resolves to lives.
struct Definition {
  unsigned Input;
  bool IsFunction;
  unsigned Index; ///< into the input's Globals or Functions
  Linkage Link;
};

/// Symbols with external linkage: variables and functions that are not
/// .extern declarations, and kernels.
bool definesExternalSymbol(const VariableDecl &V) {
  return V.Link == Linkage::Visible || V.Link == Linkage::Weak ||
         V.Link == Linkage::Common;
}
bool definesExternalSymbol(const Function &F) {
  return F.HasBody &&
         (F.IsEntry || F.Link == Linkage::Visible || F.Link == Linkage::Weak);
}

/// The numeric part of "sm_80", "sm_90a" (0 for other targets).
unsigned getSMNumber(StringRef Target) {
  unsigned N = 0;
  if (Target.consume_front("sm_"))
    Target.take_while([](char C) { return isDigit(C); }).getAsInteger(10, N);
  return N;
}

/// "8.0" < "8.10": versions compare as major, then minor.
bool versionLess(StringRef A, StringRef B) {
  auto Parse = [](StringRef V) {
    auto [Major, Minor] = V.split('.');
    unsigned Ma = 0, Mi = 0;
    Major.getAsInteger(10, Ma);
    Minor.getAsInteger(10, Mi);
    return std::make_pair(Ma, Mi);
  };
  return Parse(A) < Parse(B);
}

class ModuleLinker {
public:
  explicit ModuleLinker(ArrayRef<LinkInput> Inputs)
      : Inputs(Inputs),
        Out(MemoryBuffer::getMemBuffer("", "<linked PTX>",
                                       /*RequiresNullTerminator=*/false)) {}

  Expected<std::string> link();

private:
  Error checkAddressSizes();
  Error collectDefinitions();
  void chooseInternalNames();
  Error checkReferences();
  void buildHeader();
  void buildBody();

  bool isChosen(unsigned Input, bool IsFunction, unsigned Index) const;
  StringRef getName(unsigned Input, StringRef Name) const;
  Operand renameOperand(unsigned Input, const Function *Scope,
                        const Operand &Op);
  Initializer renameInitializer(unsigned Input, const Initializer &Init);
  Function copyFunction(unsigned Input, const Function &F, bool WithBody);

  ArrayRef<LinkInput> Inputs;
  Module Out;
  StringMap<Definition> Definitions;
  /// Per input: internal symbols renamed because another input uses the
  /// name.
  std::vector<StringMap<StringRef>> Renames;
  /// Per input: the first .file index it gets in the linked module.
  std::vector<unsigned> FileOffsets;
};

} // namespace

Error ModuleLinker::checkAddressSizes() {
  for (const LinkInput &In : Inputs)
    if (In.PTX->AddressSize != Inputs.front().PTX->AddressSize)
      return createStringError(
          inconvertibleErrorCode(),
          "cannot link '%s' (.address_size %u) with '%s' (.address_size %u)",
          In.Name.str().c_str(), In.PTX->AddressSize,
          Inputs.front().Name.str().c_str(), Inputs.front().PTX->AddressSize);
  return Error::success();
}

Error ModuleLinker::collectDefinitions() {
  auto Add = [&](StringRef Name, Definition D) -> Error {
    auto [It, New] = Definitions.try_emplace(Name, D);
    if (New)
      return Error::success();
    Definition &Old = It->second;
    if (D.Link == Linkage::Weak)
      return Error::success(); // the first strong or weak one stays
    if (Old.Link == Linkage::Weak) {
      Old = D;
      return Error::success();
    }
    if (D.Link == Linkage::Common && Old.Link == Linkage::Common &&
        !D.IsFunction && !Old.IsFunction) {
      // Common variables merge; the largest size wins.
      const VariableDecl &New = Inputs[D.Input].PTX->Globals[D.Index];
      const VariableDecl &Kept = Inputs[Old.Input].PTX->Globals[Old.Index];
      if (New.getSizeInBytes() > Kept.getSizeInBytes())
        Old = D;
      return Error::success();
    }
    return createStringError(inconvertibleErrorCode(),
                             "multiple definition of '%s': in '%s' and '%s'",
                             Name.str().c_str(),
                             Inputs[Old.Input].Name.str().c_str(),
                             Inputs[D.Input].Name.str().c_str());
  };
  for (auto [I, In] : enumerate(Inputs)) {
    for (auto [J, V] : enumerate(In.PTX->Globals))
      if (definesExternalSymbol(V))
        if (Error E = Add(V.Name, {unsigned(I), false, unsigned(J), V.Link}))
          return E;
    for (auto [J, F] : enumerate(In.PTX->Functions))
      if (definesExternalSymbol(F))
        if (Error E = Add(F.Name, {unsigned(I), true, unsigned(J),
                                   F.IsEntry ? Linkage::Visible : F.Link}))
          return E;
  }
  return Error::success();
}

void ModuleLinker::chooseInternalNames() {
  StringSet<> Taken;
  for (const auto &D : Definitions)
    Taken.insert(D.getKey());
  Renames.resize(Inputs.size());
  for (auto [I, In] : enumerate(Inputs)) {
    StringSet<> Internal;
    for (const VariableDecl &V : In.PTX->Globals)
      if (V.Link == Linkage::None)
        Internal.insert(V.Name);
    for (const Function &F : In.PTX->Functions)
      if (F.Link == Linkage::None && !F.IsEntry)
        Internal.insert(F.Name);
    for (const auto &Entry : Internal) {
      StringRef Name = Entry.getKey();
      if (Taken.insert(Name).second)
        continue;
      std::string Fresh;
      for (unsigned K = I;; ++K) {
        Fresh = (Name + "$link" + Twine(K)).str();
        if (!Taken.contains(Fresh))
          break;
      }
      StringRef Kept = Out.copyString(Fresh);
      Taken.insert(Kept);
      Renames[I][Name] = Kept;
    }
  }
}

/// Calls F on each symbol (not register) an operand names.
template <typename Fn> static void forEachSymbol(const Operand &Op, Fn F) {
  if (Op.Kind == Operand::Symbol ||
      (Op.Kind == Operand::Address && !Op.BaseIsRegister && !Op.Name.empty()))
    F(Op.Name);
  for (const Operand &E : Op.Elements)
    forEachSymbol(E, F);
}

Error ModuleLinker::checkReferences() {
  for (const LinkInput &In : Inputs) {
    for (const VariableDecl &V : In.PTX->Globals)
      if (V.Link == Linkage::Extern && V.Space != StateSpace::Shared &&
          !Definitions.contains(V.Name))
        return createStringError(inconvertibleErrorCode(),
                                 "undefined reference to '%s' (declared "
                                 ".extern in '%s')",
                                 V.Name.str().c_str(), In.Name.str().c_str());
    // A declared function no module defines is only an error when called.
    StringSet<> Undefined;
    for (const Function &F : In.PTX->Functions)
      if (!F.HasBody && F.Link != Linkage::None &&
          !Definitions.contains(F.Name) &&
          !In.PTX->findFunction(F.Name)->HasBody)
        Undefined.insert(F.Name);
    if (Undefined.empty())
      continue;
    for (const Function &F : In.PTX->Functions)
      for (const Statement &S : F.Body) {
        if (S.Kind != Statement::Inst || S.Instr.Op != Opcode::Call)
          continue;
        std::string Missing;
        for (const Operand &Op : S.Instr.Operands)
          forEachSymbol(Op, [&](StringRef Name) {
            if (Missing.empty() && Undefined.contains(Name))
              Missing = Name.str();
          });
        if (!Missing.empty())
          return createStringError(inconvertibleErrorCode(),
                                   "undefined reference to function '%s' "
                                   "(called by '%s' in '%s')",
                                   Missing.c_str(), F.Name.str().c_str(),
                                   In.Name.str().c_str());
      }
  }
  return Error::success();
}

bool ModuleLinker::isChosen(unsigned Input, bool IsFunction,
                            unsigned Index) const {
  const Module &M = *Inputs[Input].PTX;
  StringRef Name = IsFunction ? M.Functions[Index].Name : M.Globals[Index].Name;
  auto It = Definitions.find(Name);
  return It != Definitions.end() && It->second.Input == Input &&
         It->second.IsFunction == IsFunction && It->second.Index == Index;
}

StringRef ModuleLinker::getName(unsigned Input, StringRef Name) const {
  auto It = Renames[Input].find(Name);
  return It == Renames[Input].end() ? Name : It->second;
}

Operand ModuleLinker::renameOperand(unsigned Input, const Function *Scope,
                                    const Operand &Op) {
  Operand New = Op;
  bool NamesSymbol = Op.Kind == Operand::Symbol ||
                     (Op.Kind == Operand::Address && !Op.BaseIsRegister);
  // A function's own .shared/.local/.param names shadow module symbols.
  bool Shadowed = Scope && any_of(Scope->Locals, [&](const VariableDecl &D) {
                    return D.Name == Op.Name;
                  });
  if (NamesSymbol && !Op.Name.empty() && !Shadowed)
    New.Name = getName(Input, Op.Name);
  if (!Op.Elements.empty()) {
    SmallVector<Operand, 4> Elements;
    for (const Operand &E : Op.Elements)
      Elements.push_back(renameOperand(Input, Scope, E));
    New.Elements = OperandList::create(Out.getAllocator(), Elements);
  }
  return New;
}

Initializer ModuleLinker::renameInitializer(unsigned Input,
                                            const Initializer &Init) {
  Initializer New = Init;
  if (Init.Kind == Initializer::Symbol || Init.Kind == Initializer::Generic)
    New.Name = getName(Input, Init.Name);
  for (Initializer &E : New.Elements)
    E = renameInitializer(Input, E);
  return New;
}

Function ModuleLinker::copyFunction(unsigned Input, const Function &F,
                                    bool WithBody) {
  Function New;
  if (WithBody) {
    New = F;
  } else {
    // A declaration: the signature only; directives go with the definition.
    New.Loc = F.Loc;
    New.Link = F.Link;
    New.NoReturn = F.NoReturn;
    New.Returns = F.Returns;
    New.Params = F.Params;
  }
  New.Name = getName(Input, F.Name);
  for (Statement &S : New.Body) {
    if (S.Kind == Statement::Loc)
      S.Dir.LocFile += FileOffsets[Input];
    if (S.Kind != Statement::Inst)
      continue;
    SmallVector<Operand, 8> Ops;
    for (const Operand &Op : S.Instr.Operands)
      Ops.push_back(renameOperand(Input, &F, Op));
    S.Instr.Operands = Out.copyArray<Operand>(Ops);
  }
  return New;
}

void ModuleLinker::buildHeader() {
  Out.Version = Inputs.front().PTX->Version;
  Out.AddressSize = Inputs.front().PTX->AddressSize;
  StringRef SM;
  for (const LinkInput &In : Inputs) {
    const Module &M = *In.PTX;
    if (versionLess(Out.Version, M.Version))
      Out.Version = M.Version;
    Out.HasAddressSize |= M.HasAddressSize;
    for (StringRef T : M.Targets) {
      if (getSMNumber(T)) {
        if (getSMNumber(T) > getSMNumber(SM))
          SM = T;
        continue;
      }
      if (!is_contained(Out.Targets, T))
        Out.Targets.push_back(T.str());
    }
  }
  if (!SM.empty())
    Out.Targets.insert(Out.Targets.begin(), SM.str());

  unsigned NextFile = 0;
  for (const LinkInput &In : Inputs) {
    FileOffsets.push_back(NextFile);
    unsigned Largest = 0;
    for (const FileDirective &F : In.PTX->Files) {
      FileDirective New = F;
      New.Index += NextFile;
      Largest = std::max(Largest, F.Index);
      Out.Order.push_back({TopLevel::File, unsigned(Out.Files.size())});
      Out.Files.push_back(std::move(New));
    }
    NextFile += Largest;
  }
}

void ModuleLinker::buildBody() {
  auto AddFunction = [&](Function F) {
    Out.Order.push_back({TopLevel::Func, unsigned(Out.Functions.size())});
    Out.Functions.push_back(std::move(F));
  };
  // Declarations: every device function defined anywhere, and each
  // .extern one nobody defines (declared once).
  StringSet<> Declared;
  for (auto [I, In] : enumerate(Inputs))
    for (auto [J, F] : enumerate(In.PTX->Functions)) {
      if (F.IsEntry)
        continue;
      bool Defined = F.HasBody && (F.Link == Linkage::None ||
                                   isChosen(I, /*IsFunction=*/true, J));
      bool Unresolved = !F.HasBody && F.Link != Linkage::None &&
                        !Definitions.contains(F.Name) &&
                        !In.PTX->findFunction(F.Name)->HasBody;
      if ((Defined || Unresolved) && Declared.insert(getName(I, F.Name)).second)
        AddFunction(copyFunction(I, F, /*WithBody=*/false));
    }
  for (auto [I, In] : enumerate(Inputs))
    for (auto [J, V] : enumerate(In.PTX->Globals)) {
      bool Keep =
          V.Link == Linkage::None ||
          (V.Link == Linkage::Extern && V.Space == StateSpace::Shared) ||
          isChosen(I, /*IsFunction=*/false, J);
      if (!Keep)
        continue;
      VariableDecl New = V;
      New.Name = getName(I, V.Name);
      New.Init = renameInitializer(I, V.Init);
      New.ContinuesPrevious = false;
      Out.Order.push_back({TopLevel::Variable, unsigned(Out.Globals.size())});
      Out.Globals.push_back(std::move(New));
    }
  for (auto [I, In] : enumerate(Inputs))
    for (auto [J, F] : enumerate(In.PTX->Functions))
      if (F.HasBody &&
          (F.Link == Linkage::None || isChosen(I, /*IsFunction=*/true, J)))
        AddFunction(copyFunction(I, F, /*WithBody=*/true));
}

Expected<std::string> ModuleLinker::link() {
  if (Inputs.empty())
    return createStringError(inconvertibleErrorCode(), "nothing to link");
  if (Error E = checkAddressSizes())
    return std::move(E);
  if (Error E = collectDefinitions())
    return std::move(E);
  chooseInternalNames();
  if (Error E = checkReferences())
    return std::move(E);
  buildHeader();
  buildBody();
  std::string Text;
  raw_string_ostream OS(Text);
  printModule(Out, OS);
  return Text;
}

Expected<std::string> ptxjit::ptx::linkModules(ArrayRef<LinkInput> Inputs) {
  return ModuleLinker(Inputs).link();
}
