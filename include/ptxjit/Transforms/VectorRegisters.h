//===- VectorRegisters.h - Splitting .v2/.v4/.v8 registers ------*- C++ -*-===//
//
// A register declared with a vector type (`.reg .v4 .f32 %v;`) is used one
// component at a time (%v.x, %v.g) or whole where an instruction's .v4 data
// stands (ld.global.v4.f32 %v, [p]; mov.v4.f32 %v, {a, b, c, d}). This
// pass gives each component a scalar register of its own and writes whole
// uses as the brace-enclosed vector of those registers, so the analyses
// and the lowering after it see scalar registers only.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_TRANSFORMS_VECTORREGISTERS_H
#define PTXJIT_TRANSFORMS_VECTORREGISTERS_H

#include "ptxjit/PTX/AST.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
#include <string>

namespace ptxjit {
namespace transforms {

/// Returns a copy of F without vector registers: `.reg .v4 .f32 %v`
/// becomes the scalar registers "%v.x" ... "%v.w" (components past the
/// fourth "%v.e4" ...; a range %q<2> the ranges "%q.x." ..., whose
/// registers are "%q.x.0" ...). Runs after resolve-scopes, when each name
/// has one declaration. Memory for new operands and names comes from Alloc.
ptx::Function splitVectorRegisters(const ptx::Function &F,
                                   llvm::BumpPtrAllocator &Alloc);

/// The scalar registers a device function's .reg parameter or return P is
/// after splitVectorRegisters: P itself, or "P.x" ... for a vector, whose
/// components the function's signature passes in one lane-major storage
/// (component K at K * 32 * the component's lane size).
llvm::SmallVector<std::string, 4> getParamRegisters(const ptx::VariableDecl &P);

} // namespace transforms
} // namespace ptxjit

#endif
