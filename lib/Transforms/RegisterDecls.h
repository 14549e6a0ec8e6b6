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
    Declared D{V.Type, V.VectorWidth, V.IsRange ? V.RangeCount : 0};
    (V.IsRange ? Ranges : Plain).try_emplace(V.Name, D);
  }

  /// What declares register Name: its declaration's name (a range's
  /// prefix), and for a range's register its index ("3" of %r3).
  struct Found {
    ptx::ScalarType Type;
    unsigned VectorWidth;
    llvm::StringRef DeclName;
    llvm::StringRef Index;
  };
  std::optional<Found> find(llvm::StringRef Name) const {
    auto P = Plain.find(Name);
    if (P != Plain.end())
      return Found{P->second.Type, P->second.VectorWidth, P->getKey(), ""};
    size_t Digits = Name.size();
    while (Digits && llvm::isDigit(Name[Digits - 1]))
      --Digits;
    llvm::StringRef Index = Name.drop_front(Digits);
    if (Index.empty() || (Index.size() > 1 && Index[0] == '0'))
      return std::nullopt;
    auto R = Ranges.find(Name.take_front(Digits));
    unsigned N;
    if (R == Ranges.end() || Index.getAsInteger(10, N) ||
        N >= R->second.RangeCount)
      return std::nullopt;
    return Found{R->second.Type, R->second.VectorWidth, R->getKey(), Index};
  }

  /// The type of register Name, if declared.
  std::optional<ptx::ScalarType> lookup(llvm::StringRef Name) const {
    if (std::optional<Found> F = find(Name))
      return F->Type;
    return std::nullopt;
  }

private:
  struct Declared {
    ptx::ScalarType Type;
    unsigned VectorWidth;
    unsigned RangeCount; ///< 0 unless a range
  };
  llvm::StringMap<Declared> Plain;
  llvm::StringMap<Declared> Ranges; ///< by prefix
};

} // namespace transforms
} // namespace ptxjit

#endif
