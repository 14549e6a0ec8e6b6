//===- DebugLocations.h - PTX lines as LLVM debug locations -----*- C++ -*-===//
//
// Every instruction of a generated module carries a DILocation with the PTX
// line it implements, in a compile unit for the PTX file: emit-llvm reads
// like the PTX, a native address maps back to a PTX line, and gdb shows PTX
// lines for JIT-compiled kernels.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_IRGEN_DEBUGLOCATIONS_H
#define PTXJIT_LIB_IRGEN_DEBUGLOCATIONS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/Support/SMLoc.h"

namespace ptxjit {
namespace ptx {
class Module;
struct Function;
} // namespace ptx

namespace irgen {

class DebugLocations {
public:
  /// Enabled false: no debug information at all (get gives no location).
  DebugLocations(const ptx::Module &PM, llvm::Module &LM, bool Enabled);
  /// Gives Fn a subprogram for the PTX function F.
  void beginFunction(const ptx::Function &F, llvm::Function *Fn);
  /// The location of PTX source position Loc in Fn (its subprogram's line
  /// where Loc is not valid); null when disabled.
  llvm::DILocation *get(llvm::Function *Fn, llvm::SMLoc Loc);
  /// Completes the debug metadata; once, after every function.
  void finalize();

private:
  const ptx::Module &PM;
  llvm::DIBuilder DIB;
  llvm::DIFile *File = nullptr;
  llvm::DICompileUnit *CU = nullptr; ///< null when disabled
};

} // namespace irgen
} // namespace ptxjit

#endif
