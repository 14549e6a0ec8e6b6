//===- ScopeStack.cpp - Block scopes and register ranges ------------------===//

#include "ptxjit/PTX/ScopeStack.h"
#include "ptxjit/PTX/AST.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;
using namespace ptxjit::ptx;

const VariableDecl *ScopeStack::lookupIn(const Scope &S, StringRef Name) {
  if (!S.Names.empty()) {
    auto It = S.Names.find(Name);
    if (It != S.Names.end())
      return It->second;
  }
  if (S.Ranges.empty())
    return nullptr;
  // %r<N> declares %r0 ... %r<N-1>: split the trailing digits off. Ranges
  // %r<..> and %r1<..> could both claim %r12, so try every split, the
  // longest prefix first. "%r" alone is not declared, nor is an index with
  // a leading zero ("%r07" for %r<8>).
  size_t DigitsBegin = Name.size();
  while (DigitsBegin != 0 && isDigit(Name[DigitsBegin - 1]))
    --DigitsBegin;
  if (DigitsBegin == Name.size() || DigitsBegin == 0)
    return nullptr;
  // Without prefixes that end in a digit, all the trailing digits are the
  // index (the common case: nvcc's %r<N>, %rd<N>, %f<N>).
  size_t First = S.DigitEndedRange ? Name.size() - 1 : DigitsBegin;
  for (size_t Split = First + 1; Split-- > DigitsBegin && Split != 0;) {
    StringRef Index = Name.substr(Split);
    if (Index.size() > 1 && Index[0] == '0')
      continue;
    auto R = S.Ranges.find(Name.take_front(Split));
    if (R == S.Ranges.end())
      continue;
    // Past 19 digits the index cannot be below a 32-bit count (and would
    // overflow).
    if (Index.size() > 19)
      continue;
    uint64_t N = 0;
    for (char C : Index)
      N = N * 10 + unsigned(C - '0');
    if (N < R->second->RangeCount)
      return R->second;
  }
  return nullptr;
}

const VariableDecl *ScopeStack::declare(const VariableDecl &D) {
  if (Scopes.empty())
    push();
  Scope &S = Scopes.back();
  if (D.IsRange) {
    if (!D.Name.empty() && isDigit(D.Name.back()))
      S.DigitEndedRange = true;
    auto [It, Inserted] = S.Ranges.try_emplace(D.Name, &D);
    return Inserted ? nullptr : It->second;
  }
  if (const VariableDecl *Prev = lookupIn(S, D.Name))
    return Prev;
  S.Names[D.Name] = &D;
  return nullptr;
}

const VariableDecl *ScopeStack::lookup(StringRef Name) const {
  for (auto It = Scopes.rbegin(), E = Scopes.rend(); It != E; ++It)
    if (const VariableDecl *D = lookupIn(*It, Name))
      return D;
  return nullptr;
}
