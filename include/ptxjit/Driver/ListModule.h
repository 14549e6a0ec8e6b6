//===- ListModule.h - The `ptx-jit list` command ----------------*- C++ -*-===//

#ifndef PTXJIT_DRIVER_LISTMODULE_H
#define PTXJIT_DRIVER_LISTMODULE_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ptxjit {
namespace ptx {
class Module;
} // namespace ptx
namespace driver {

/// Prints `ptx-jit list` output: every kernel and device function (with its
/// C++ signature when its name is mangled), its parameters (name, PTX type,
/// size, alignment, .ptr attributes), static shared memory, and the
/// performance directives (.reqntid, .maxntid, ...).
/// Prints M's kernels and functions with their parameters (and, for
/// kernels, how they use them), shared memory, launch bounds and a `run`
/// command line for the file at Path.
void printModuleList(const ptx::Module &M, llvm::raw_ostream &OS,
                     llvm::StringRef Path);

} // namespace driver
} // namespace ptxjit

#endif
