//===- RegisterDecls.h - The .reg declarations of a function ----*- C++ -*-===//
//
// Looks registers up by name as PTX declares them: `.reg .b32 %r<4>;`
// declares %r0 ... %r3 (no leading zeros), `.reg .pred p;` declares p.
// The lookup is by name alone, without block scopes: after resolve-scopes
// (RegisterScopes.h) each name has one declaration.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_TRANSFORMS_REGISTERDECLS_H
#define PTXJIT_LIB_TRANSFORMS_REGISTERDECLS_H

#include "ptxjit/PTX/AST.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include <optional>

namespace ptxjit {
namespace transforms {

class RegisterDecls {
public:
  RegisterDecls() = default;
  /// The registers of F's body, parameters and returns.
  explicit RegisterDecls(const ptx::Function &F) {
    for (const ptx::VariableDecl &V : F.Locals)
      add(V);
    for (const ptx::VariableDecl &V : F.Params)
      add(V);
    for (const ptx::VariableDecl &V : F.Returns)
      add(V);
  }

  /// Adds V if it declares registers.
  void add(const ptx::VariableDecl &V) {
    if (V.Space != ptx::StateSpace::Reg)
      return;
    if (V.IsRange)
      Ranges.try_emplace(V.Name, V.Type, V.RangeCount);
    else
      Plain.try_emplace(V.Name, V.Type);
  }

  /// The type of register Name, if declared.
  std::optional<ptx::ScalarType> lookup(llvm::StringRef Name) const {
    auto P = Plain.find(Name);
    if (P != Plain.end())
      return P->second;
    size_t Digits = Name.size();
    while (Digits && llvm::isDigit(Name[Digits - 1]))
      --Digits;
    llvm::StringRef Index = Name.drop_front(Digits);
    if (Index.empty() || (Index.size() > 1 && Index[0] == '0'))
      return std::nullopt;
    auto R = Ranges.find(Name.take_front(Digits));
    unsigned N;
    if (R == Ranges.end() || Index.getAsInteger(10, N) || N >= R->second.second)
      return std::nullopt;
    return R->second.first;
  }

private:
  llvm::StringMap<ptx::ScalarType> Plain;
  llvm::StringMap<std::pair<ptx::ScalarType, unsigned>> Ranges;
};

} // namespace transforms
} // namespace ptxjit

#endif
