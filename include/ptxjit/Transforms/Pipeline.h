//===- Pipeline.h - The PTX-to-PTX passes before lowering -------*- C++ -*-===//
//
// IRGen lowers each function after these passes, in this order:
//
//   inline          callees' bodies replace direct calls (Inliner.h)
//   resolve-scopes  each register name is declared once (RegisterScopes.h)
//   register-webs   reused registers get one name per web (RegisterWebs.h)
//
// The control-flow graph register-webs needs is built after inlining; the
// passes after it keep statement indices and labels, so it stays valid for
// the lowering, which also reads the uniformity analysis (Uniformity.h).
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_TRANSFORMS_PIPELINE_H
#define PTXJIT_TRANSFORMS_PIPELINE_H

#include "ptxjit/PTX/AST.h"
#include "ptxjit/Transforms/CFG.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Error.h"
#include <optional>

namespace ptxjit {
namespace transforms {

struct PassInfo {
  llvm::StringRef Name; ///< as `ptx-jit print --after=NAME` takes it
  llvm::StringRef Description;
};

/// The passes, in the order they run.
llvm::ArrayRef<PassInfo> getPasses();
/// True if Name is the name of one of getPasses().
bool isPassName(llvm::StringRef Name);

/// A function as the passes leave it.
struct PreparedFunction {
  ptx::Function F;
  /// F's control-flow graph; present after a run of the whole pipeline.
  std::optional<PTXCFG> CFG;
};

/// Runs the passes on F (a function of M, whose callees the inliner reads)
/// up to and including the one named StopAfter, or all of them if it is
/// empty. Memory for new operands and names comes from Alloc, which must
/// outlive the result.
llvm::Expected<PreparedFunction> runPipeline(const ptx::Module &M,
                                             const ptx::Function &F,
                                             llvm::BumpPtrAllocator &Alloc,
                                             llvm::StringRef StopAfter = {});

} // namespace transforms
} // namespace ptxjit

#endif
