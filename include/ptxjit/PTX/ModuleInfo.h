//===- ModuleInfo.h - Facts about kernels derived from the AST --*- C++ -*-===//

#ifndef PTXJIT_PTX_MODULEINFO_H
#define PTXJIT_PTX_MODULEINFO_H

#include "llvm/ADT/SmallVector.h"
#include <cstdint>

namespace ptxjit {
namespace ptx {

class Module;
struct Function;
struct VariableDecl;

/// Size and alignment of a parameter as laid out in the parameter buffer.
uint64_t getParamSize(const VariableDecl &P);
uint64_t getParamAlign(const VariableDecl &P);
/// Alignment of a variable: its .align, or the natural alignment.
uint64_t getAlignment(const VariableDecl &V);

/// Lays out F's parameters in its parameter buffer, each at its alignment,
/// in order: fills Offsets and returns the buffer's size.
uint64_t layoutKernelParams(const Function &F,
                            llvm::SmallVectorImpl<uint64_t> &Offsets);

/// Functions reachable from F through direct calls, F included.
llvm::SmallVector<const Function *, 8> getCallees(const Module &M,
                                                  const Function &F);

/// Static .shared variables a kernel uses: those declared in it or in a
/// function it calls, and the module-scope ones they name. Extern (dynamic)
/// shared arrays are not included.
llvm::SmallVector<const VariableDecl *, 8>
getStaticSharedVariables(const Module &M, const Function &Kernel);
/// Where each static .shared variable of a kernel lies in its shared window:
/// in getStaticSharedVariables order, each at its alignment, a name once.
struct SharedVariableOffset {
  const VariableDecl *Var;
  uint64_t Offset;
};
/// Fills Offsets and returns the bytes of static shared memory.
uint64_t
layoutStaticShared(const Module &M, const Function &Kernel,
                   llvm::SmallVectorImpl<SharedVariableOffset> &Offsets);
/// Bytes of static shared memory (layoutStaticShared's total).
uint64_t getStaticSharedSize(const Module &M, const Function &Kernel);

} // namespace ptx
} // namespace ptxjit

#endif
