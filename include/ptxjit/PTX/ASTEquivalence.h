//===- ASTEquivalence.h - Comparing PTX syntax trees ------------*- C++ -*-===//
//
// Structural comparison of two modules, node by node, ignoring source
// locations. It proves the printer is the parser's inverse: a module printed
// and parsed again must compare equal to the original.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_PTX_ASTEQUIVALENCE_H
#define PTXJIT_PTX_ASTEQUIVALENCE_H

#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace ptxjit {
namespace ptx {

class Module;

/// Returns std::nullopt if A and B are the same tree (every field but the
/// source locations), otherwise a description of the first difference, such
/// as "function 'k': statement 12: operand 1: Value: 8 vs 16".
std::optional<std::string> findASTDifference(const Module &A, const Module &B);

/// Prints M, parses the text into a new module and compares the two. Fails
/// with the parse errors or the first difference.
llvm::Error checkRoundTrip(const Module &M);

} // namespace ptx
} // namespace ptxjit

#endif
