//===- RegisterScopes.h - Resolving PTX's block-scoped registers -*- C++
//-*-===//
//
// A .reg declared in a nested `{ }` block shadows a register of the same
// name outside it, inside the block only: in
//
//   .reg .u64 t;  ...  { .reg .u64 t; add.u64 t, t, 1; }  ...  use t
//
// the add writes the inner t and the outer one keeps its value. This pass
// resolves every register name once, with ptx::ScopeStack, and gives each
// declaration of a name after the first one of its own, so the passes and
// the lowering after it may look registers up by name alone.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_TRANSFORMS_REGISTERSCOPES_H
#define PTXJIT_TRANSFORMS_REGISTERSCOPES_H

#include "ptxjit/PTX/AST.h"
#include "llvm/Support/Allocator.h"

namespace ptxjit {
namespace transforms {

/// Returns a copy of F in which each register name is declared once: a
/// declaration of a name that F's parameters, returns or an earlier
/// declaration already use is renamed ("t.s1"; a range %r<4> becomes
/// "%r.s1." whose registers are "%r.s1.0" ...), and so is every use it
/// resolves to. An address whose base resolves to a register is marked as
/// such ([p] for `.reg .b64 p`; the parser only knows '%' names). Names no
/// declaration resolves are left alone. Memory for new operands and names
/// comes from Alloc.
ptx::Function resolveRegisterScopes(const ptx::Function &F,
                                    llvm::BumpPtrAllocator &Alloc);

} // namespace transforms
} // namespace ptxjit

#endif
