//===- Parser.h - Recursive-descent parser for PTX --------------*- C++ -*-===//

#ifndef PTXJIT_PTX_PARSER_H
#define PTXJIT_PTX_PARSER_H

namespace ptxjit {
namespace ptx {

class DiagnosticEngine;
class Module;

/// Parses the module's source buffer into M. Reports every syntax error it
/// can recover from to Diags; returns true if there were none.
bool parseModule(Module &M, DiagnosticEngine &Diags);

} // namespace ptx
} // namespace ptxjit

#endif
