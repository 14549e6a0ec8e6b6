//===- RegisterWebs.h - Splitting reused PTX registers ----------*- C++ -*-===//
//
// Compilers reuse PTX registers for unrelated values (clang writes
// `add.s64 %rd1, %rd1, %rd2` to turn a parameter into an element pointer).
// A register analysed as one value would then be neither uniform nor affine.
// This pass finds the webs of each register (definitions that reach a common
// use, by reaching-definitions analysis) and gives every web but one a name
// of its own, so each is analysed and stored separately.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_TRANSFORMS_REGISTERWEBS_H
#define PTXJIT_TRANSFORMS_REGISTERWEBS_H

#include "ptxjit/PTX/AST.h"
#include "llvm/Support/Allocator.h"

namespace ptxjit {
namespace transforms {

class PTXCFG;

/// Returns a copy of F in which the registers with several independent
/// webs are renamed ("%rd1.w1", ...) and declared. Memory for the new
/// operands and names comes from Alloc.
ptx::Function splitRegisterWebs(const ptx::Function &F, const PTXCFG &CFG,
                                llvm::BumpPtrAllocator &Alloc);

} // namespace transforms
} // namespace ptxjit

#endif
