//===- InputKind.h - Recognize inputs that are not PTX text -----*- C++ -*-===//
//
// People hand ptx-jit what nvcc gave them: a cubin, a fat binary, the host
// program itself. Those get one message saying what the file is and what to
// do instead, not a screen of lexer errors over binary bytes.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_PTX_INPUTKIND_H
#define PTXJIT_PTX_INPUTKIND_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace ptxjit {
namespace ptx {

/// The UTF-8 byte-order mark some editors put at the start of a text file.
constexpr llvm::StringLiteral UTF8ByteOrderMark = "\xEF\xBB\xBF";

/// If Bytes cannot be PTX text, says what they are and what to do instead
/// (without echoing them); otherwise std::nullopt.
std::optional<std::string> describeNonPTXInput(llvm::StringRef Bytes);

} // namespace ptx
} // namespace ptxjit

#endif // PTXJIT_PTX_INPUTKIND_H
