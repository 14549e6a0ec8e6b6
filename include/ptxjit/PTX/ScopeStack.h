//===- ScopeStack.h - The block scopes of a PTX function body ---*- C++ -*-===//
//
// The one place names in a function body are resolved to declarations with
// PTX's block scoping: the verifier checks names with it and the
// resolve-scopes pass (Transforms/RegisterScopes.h) renames shadowing
// registers with it, so later passes may look registers up by name alone.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_PTX_SCOPESTACK_H
#define PTXJIT_PTX_SCOPESTACK_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <vector>

namespace ptxjit {
namespace ptx {

struct VariableDecl;

/// The nested `{ }` blocks of a function body. Names declared in a block are
/// visible from their declaration to the end of the block; an inner block
/// may shadow an outer name.
class ScopeStack {
public:
  void push() { Scopes.emplace_back(); }
  void pop() {
    if (!Scopes.empty())
      Scopes.pop_back();
  }
  /// Declares D in the innermost block. Returns the declaration D clashes
  /// with in that block, or null.
  const VariableDecl *declare(const VariableDecl &D);
  /// The innermost declaration of Name, expanding register ranges: %r7 is
  /// declared by %r<8>.
  const VariableDecl *lookup(llvm::StringRef Name) const;

private:
  struct Scope {
    llvm::StringMap<const VariableDecl *> Names;
    /// %r<N> declarations by prefix ("%r").
    llvm::StringMap<const VariableDecl *> Ranges;
    /// Whether a prefix in Ranges ends in a digit (%r1<8>); if none does, a
    /// name has one split to try.
    bool DigitEndedRange = false;
  };
  static const VariableDecl *lookupIn(const Scope &S, llvm::StringRef Name);
  std::vector<Scope> Scopes;
};

} // namespace ptx
} // namespace ptxjit

#endif
