//===- RegisterScopes.cpp - Resolving PTX's block-scoped registers --------===//

#include "ptxjit/Transforms/RegisterScopes.h"
#include "Operands.h"
#include "ptxjit/PTX/ScopeStack.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::transforms;
using ptx::Operand;
using ptx::Statement;
using ptx::VariableDecl;

namespace {

/// Name without its trailing digits: two declarations can only declare a
/// common register if their names (a range's prefix) have the same stem.
StringRef getStem(StringRef Name) { return Name.rtrim("0123456789"); }

/// True if register Name is one of the registers of range R (%r7 of %r<8>).
bool isInRange(StringRef Name, const VariableDecl &R) {
  if (!Name.consume_front(R.Name) || Name.empty() ||
      (Name.size() > 1 && Name[0] == '0') || !all_of(Name, isDigit))
    return false;
  uint64_t Index;
  return !Name.getAsInteger(10, Index) && Index < R.RangeCount;
}

/// True if A and B declare a common register name.
bool overlaps(const VariableDecl &A, const VariableDecl &B) {
  if (!A.IsRange && !B.IsRange)
    return A.Name == B.Name;
  if (!A.IsRange || !B.IsRange)
    return A.IsRange ? isInRange(B.Name, A) : isInRange(A.Name, B);
  // Ranges P<M> and PX<N>: PX0 is the least register of the second one,
  // which the first declares if X0 is an index below M.
  const VariableDecl &Short = A.Name.size() <= B.Name.size() ? A : B;
  const VariableDecl &Long = &Short == &A ? B : A;
  if (!Long.RangeCount || !Short.RangeCount)
    return false;
  if (Short.Name == Long.Name)
    return true;
  return isInRange((Long.Name + "0").str(), Short);
}

class ScopeResolver {
public:
  ScopeResolver(const ptx::Function &F, BumpPtrAllocator &Alloc)
      : F(F), Alloc(Alloc) {}
  ptx::Function run();

private:
  /// Declares D in the innermost scope, renaming it (if MayRename) when it
  /// declares a register an earlier declaration does.
  void declare(const VariableDecl &D, bool MayRename);
  /// The name Name resolves to in the current scope.
  StringRef resolve(StringRef Name);
  /// A register, symbol or address operand with its name resolved.
  Operand resolveLeaf(const Operand &Op, bool &Changed);

  const ptx::Function &F;
  BumpPtrAllocator &Alloc;
  ptx::ScopeStack Scopes;
  /// The register declarations so far, by the stem of their names.
  StringMap<SmallVector<const VariableDecl *, 2>> Declared;
  /// The new name of each renamed declaration of F.
  DenseMap<const VariableDecl *, StringRef> NewNames;
};

} // namespace

void ScopeResolver::declare(const VariableDecl &D, bool MayRename) {
  Scopes.declare(D);
  if (D.Space != ptx::StateSpace::Reg)
    return;
  SmallVector<const VariableDecl *, 2> &Earlier = Declared[getStem(D.Name)];
  bool Taken =
      any_of(Earlier, [&](const VariableDecl *E) { return overlaps(*E, D); });
  Earlier.push_back(&D);
  if (!Taken || !MayRename)
    return;
  // '.' is in no PTX identifier, so the new name meets no other. A range's
  // prefix ends in '.' so that its registers' indices stay apart from it.
  NewNames[&D] = saveName(Alloc, D.Name + ".s" + Twine(NewNames.size() + 1) +
                                     (D.IsRange ? "." : ""));
}

StringRef ScopeResolver::resolve(StringRef Name) {
  const VariableDecl *D = Scopes.lookup(Name);
  if (!D)
    return Name;
  auto It = NewNames.find(D);
  if (It == NewNames.end())
    return Name;
  if (!D->IsRange)
    return It->second;
  // %r3 of a renamed range %r<4> keeps its index.
  return saveName(Alloc, It->second + Name.drop_front(D->Name.size()));
}

Operand ScopeResolver::resolveLeaf(const Operand &Op, bool &Changed) {
  Operand New = Op;
  if ((Op.Kind != Operand::Register && Op.Kind != Operand::Symbol &&
       Op.Kind != Operand::Address) ||
      Op.Name.empty())
    return New;
  New.Name = resolve(Op.Name);
  Changed |= New.Name.data() != Op.Name.data();
  // The parser marks only '%' names as register bases ([p] may be a
  // variable); a base that resolves to a .reg is one.
  if (Op.Kind == Operand::Address && !Op.BaseIsRegister) {
    const VariableDecl *D = Scopes.lookup(Op.Name);
    New.BaseIsRegister = D && D->Space == ptx::StateSpace::Reg;
    Changed |= New.BaseIsRegister;
  }
  return New;
}

ptx::Function ScopeResolver::run() {
  ptx::Function Result = F;
  // Parameters live in a scope of their own around the body.
  Scopes.push();
  for (const VariableDecl &P : F.Returns)
    declare(P, /*MayRename=*/false);
  for (const VariableDecl &P : F.Params)
    declare(P, /*MayRename=*/false);
  Scopes.push();
  unsigned Depth = 0;
  for (size_t I = 0; I != F.Body.size(); ++I) {
    const Statement &S = F.Body[I];
    switch (S.Kind) {
    case Statement::ScopeBegin:
      Scopes.push();
      ++Depth;
      break;
    case Statement::ScopeEnd:
      if (Depth) {
        Scopes.pop();
        --Depth;
      }
      break;
    case Statement::Decl: {
      const VariableDecl &D = F.Locals[S.Index];
      declare(D, /*MayRename=*/true);
      auto It = NewNames.find(&D);
      if (It != NewNames.end())
        Result.Locals[S.Index].Name = It->second;
      break;
    }
    case Statement::Inst: {
      const ptx::Instruction &In = S.Instr;
      ptx::Instruction &Out = Result.Body[I].Instr;
      if (!In.GuardPredicate.empty())
        Out.GuardPredicate = resolve(In.GuardPredicate);
      rewriteOperands(Out, Alloc, [this](const Operand &Op, bool &Changed) {
        return resolveLeaf(Op, Changed);
      });
      break;
    }
    default:
      break;
    }
  }
  return Result;
}

ptx::Function transforms::resolveRegisterScopes(const ptx::Function &F,
                                                BumpPtrAllocator &Alloc) {
  if (!F.HasBody)
    return F;
  return ScopeResolver(F, Alloc).run();
}
