//===- Inliner.h - Inlining PTX device-function calls -----------*- C++ -*-===//
//
// A device function lowered as an LLVM call runs to completion with the
// calling lanes, so the caller's other lanes cannot run meanwhile: a shfl or
// bar.sync in the callee never meets them, and lanes spinning in the callee
// on a flag those lanes set hang. Inlining the callee's body into the PTX
// of its caller puts its blocks under the caller's dispatcher, which
// schedules every lane of the warp.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_TRANSFORMS_INLINER_H
#define PTXJIT_TRANSFORMS_INLINER_H

#include "ptxjit/PTX/AST.h"
#include "llvm/Support/Allocator.h"

namespace ptxjit {
namespace transforms {

/// Returns a copy of F in which each direct call of a device function of M
/// that has a body and cannot reach itself through direct calls is replaced
/// by that body, recursively, while F stays below a size limit. The
/// callee's registers, labels and variables get names of their own in each
/// instance ("f.3.%r1": PTX identifiers have no '.'), inside a new block
/// scope. Calls the inliner cannot bind exactly are left as calls. Memory
/// for new operands and names comes from Alloc.
ptx::Function inlineCalls(const ptx::Module &M, const ptx::Function &F,
                          llvm::BumpPtrAllocator &Alloc);

} // namespace transforms
} // namespace ptxjit

#endif
