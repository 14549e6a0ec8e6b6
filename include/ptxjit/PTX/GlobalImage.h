//===- GlobalImage.h - The initial contents of module variables -*- C++ -*-===//
//
// A loaded module owns the memory of its .global and .const variables, so
// every kernel of the module (and the host, through symbol copies) sees the
// same bytes. This computes what that memory holds before any kernel runs:
// the initializer's bytes, and relocations for the initializers that take
// the address of a variable or function, which the loader patches once it
// knows where things are.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_PTX_GLOBALIMAGE_H
#define PTXJIT_PTX_GLOBALIMAGE_H

#include "ptxjit/PTX/InstructionTable.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <vector>

namespace ptxjit {
namespace ptx {

class Module;
struct Initializer;
struct VariableDecl;

/// The scalar elements of an initializer, nested braces removed, in order.
void flattenInitializer(const Initializer &In,
                        llvm::SmallVectorImpl<const Initializer *> &Out);

/// A 64-bit address stored in a variable's initial contents.
struct GlobalRelocation {
  uint64_t Offset;         ///< where the address goes
  llvm::StringRef Symbol;  ///< the variable or function named
  int64_t Addend;          ///< added to its address
  bool IsFunction = false; ///< Symbol names a function
};

struct GlobalImage {
  const VariableDecl *Var;
  uint64_t Size;
  uint64_t Align;
  std::vector<uint8_t> Bytes; ///< Size bytes, little endian
  llvm::SmallVector<GlobalRelocation, 0> Relocations;
};

/// Lays out one .global or .const variable that the module defines.
GlobalImage buildGlobalImage(const Module &M, const VariableDecl &V);

/// True for the variables a loaded module allocates: .global and .const
/// variables defined (not extern) at module scope. Those whose initializer
/// takes a function's address are not among them: a function's address is
/// that of its code in one compiled kernel, so each kernel keeps its own
/// copy of such a table.
bool isModuleVariable(const Module &M, const VariableDecl &V);

} // namespace ptx
} // namespace ptxjit

#endif
