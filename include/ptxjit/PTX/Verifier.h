//===- Verifier.h - Semantic checks of a parsed PTX module ------*- C++ -*-===//

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
