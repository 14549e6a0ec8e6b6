//===- KernelNames.cpp - C++ names of kernels -----------------------------===//

#include "ptxjit/Driver/KernelNames.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include <cstdlib>

using namespace llvm;
using namespace ptxjit::driver;

/// Calls one of ItaniumPartialDemangler's getters, which return a malloc'ed
/// buffer (or null).
template <typename Getter>
static std::string getPart(const ItaniumPartialDemangler &D, Getter G) {
  size_t Size = 0;
  char *Buf = (D.*G)(nullptr, &Size);
  if (!Buf)
    return std::string();
  std::string Result(Buf);
  std::free(Buf);
  return Result;
}

bool ptxjit::driver::demangleKernelName(StringRef Mangled,
                                        DemangledName &Result) {
  if (!Mangled.starts_with("_Z"))
    return false;
  std::string Name = Mangled.str();
  ItaniumPartialDemangler D;
  if (D.partialDemangle(Name.c_str()))
    return false;
  Result.Full = demangle(Name);
  if (!D.isFunction()) {
    Result.Signature = Result.Name = Result.BaseName = Result.Full;
    return true;
  }
  Result.Name = getPart(D, &ItaniumPartialDemangler::getFunctionName);
  Result.BaseName = getPart(D, &ItaniumPartialDemangler::getFunctionBaseName);
  Result.Signature =
      Result.Name + getPart(D, &ItaniumPartialDemangler::getFunctionParameters);
  return true;
}

/// Query without the spaces that demangled names do not need, so that
/// "float const *" and "float const*" compare equal.
static std::string normalize(StringRef S) {
  std::string Out;
  for (size_t I = 0; I != S.size(); ++I) {
    char C = S[I];
    if (C != ' ') {
      Out += C;
      continue;
    }
    // Keep a space only between two identifier characters ("unsigned int").
    auto IsIdent = [](char X) { return isAlnum(X) || X == '_'; };
    if (!Out.empty() && IsIdent(Out.back()) && I + 1 < S.size() &&
        IsIdent(S[I + 1]))
      Out += ' ';
  }
  return Out;
}

bool ptxjit::driver::kernelNameMatches(StringRef Mangled, StringRef Query) {
  if (Mangled == Query)
    return true;
  DemangledName D;
  if (!demangleKernelName(Mangled, D))
    return false;
  std::string Q = normalize(Query);
  for (const std::string *S : {&D.Full, &D.Signature, &D.Name, &D.BaseName})
    if (!S->empty() && normalize(*S) == Q)
      return true;
  return false;
}

std::string ptxjit::driver::describeKernelName(StringRef Mangled) {
  DemangledName D;
  if (!demangleKernelName(Mangled, D))
    return Mangled.str();
  return (Mangled + " (" + D.Signature + ")").str();
}
