//===- Linker.h - Linking several PTX modules into one ----------*- C++ -*-===//
//
// What nvlink does for relocatable device code, at the PTX level: the
// modules' .visible definitions satisfy each other's .extern declarations,
// internal symbols that clash between modules are renamed, and the result
// is one module's PTX text (which the front end then loads like any other).
// Device code is linked as source because every call is inlined and every
// kernel is compiled from its whole call graph.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_PTX_LINKER_H
#define PTXJIT_PTX_LINKER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace ptxjit {
namespace ptx {

class Module;

/// One module to link and the name errors call it by (a file name, or
/// "input 2").
struct LinkInput {
  const Module *PTX;
  llvm::StringRef Name;
};

/// Links Inputs, each parsed and verified, into one module's PTX text.
/// Fails on a symbol defined .visible by two modules, on an .extern
/// variable or called .extern function that no module defines, and on
/// modules of different address sizes.
llvm::Expected<std::string> linkModules(llvm::ArrayRef<LinkInput> Inputs);

} // namespace ptx
} // namespace ptxjit

#endif
