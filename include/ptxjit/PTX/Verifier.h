//===- Verifier.h - Semantic checks of a parsed PTX module ------*- C++ -*-===//
//
// What the verifier decides where the PTX ISA leaves room:
//  * Registers and other body declarations are visible from their
//    declaration to the end of their { } block (declare before use); labels
//    are function-wide; module-scope variables and functions are visible
//    everywhere in the module, in any order.
//  * %r<N> declares %r0 ... %r<N-1>; where two ranges could claim a name
//    (%x<20> and %x1<5> for %x12), the longest prefix that declares it wins.
//  * Types follow the ISA's tables: the standard rule everywhere, the relaxed
//    one (wider registers) for the data operands of ld, ldu, st and cvt.
//  * Integer literals never fit floating-point operands; 0f, 0d and decimal
//    literals fit floating-point operands of any precision (converted, as
//    the ISA says of floating-point constants).
//  * !%p is allowed on any predicate source, the sink _ on any destination.
//  * A call passes exactly the callee's (or prototype's) number of return
//    values and arguments.
//  * Instructions ptx-jit cannot run yet (mma, wmma, ldmatrix) are verified
//    like any other and not reported; IRGen reports what it cannot lower.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_PTX_VERIFIER_H
#define PTXJIT_PTX_VERIFIER_H

namespace ptxjit {
namespace ptx {

class DiagnosticEngine;
class Module;

/// Checks names (registers, labels, symbols, functions), operand counts and
/// kinds, and operand types against the instruction's type by PTX's
/// type-checking rules. Reports every problem; returns true if none.
bool verifyModule(const Module &M, DiagnosticEngine &Diags);

} // namespace ptx
} // namespace ptxjit

#endif
