//===- ListModule.h - The `ptx-jit list` command ----------------*- C++ -*-===//

#ifndef PTXJIT_DRIVER_LISTMODULE_H
#define PTXJIT_DRIVER_LISTMODULE_H

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
void printModuleList(const ptx::Module &M, llvm::raw_ostream &OS);

} // namespace driver
} // namespace ptxjit

#endif
