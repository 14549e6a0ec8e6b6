//===- Operands.h - Rewriting and reading PTX operands ----------*- C++ -*-===//
//
// What the PTX-to-PTX passes do to operands alike: rewrite their leaves
// (registers, symbols, addresses), reaching into vectors and predicate
// pairs, in memory of the pass's allocator; and list the names they hold.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_TRANSFORMS_OPERANDS_H
#define PTXJIT_LIB_TRANSFORMS_OPERANDS_H

#include "ptxjit/PTX/AST.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Allocator.h"

namespace ptxjit {
namespace transforms {

/// Rewrites one leaf operand; sets Changed if the result differs.
using LeafRewriter =
    llvm::function_ref<ptx::Operand(const ptx::Operand &, bool &Changed)>;

/// Op with Leaf applied to it, or to each element of a vector or a
/// predicate pair (new element arrays come from Alloc).
ptx::Operand rewriteOperand(const ptx::Operand &Op,
                            llvm::BumpPtrAllocator &Alloc, bool &Changed,
                            LeafRewriter Leaf);

/// Rewrites every operand of I so; I keeps its operand array if none
/// changed.
void rewriteOperands(ptx::Instruction &I, llvm::BumpPtrAllocator &Alloc,
                     LeafRewriter Leaf);

/// A copy of T whose memory comes from Alloc.
llvm::StringRef saveName(llvm::BumpPtrAllocator &Alloc, const llvm::Twine &T);

/// Adds every name Op holds (its elements' too) to Out.
void collectNames(const ptx::Operand &Op, llvm::StringSet<> &Out);

} // namespace transforms
} // namespace ptxjit

#endif
