//===- Parser.h - Recursive-descent parser for PTX --------------*- C++ -*-===//

#ifndef PTXJIT_PTX_PARSER_H
#define PTXJIT_PTX_PARSER_H

#include <cstddef>

namespace ptxjit {
namespace ptx {

class DiagnosticEngine;
class Module;

/// Parses the module's source buffer into M. Reports every syntax error it
/// can recover from to Diags; returns true if there were none.
bool parseModule(Module &M, DiagnosticEngine &Diags);

/// Parses M with its function bodies on all cores, or one where there is
/// one. Reports nothing: false, with M half filled (Module::clearContents),
/// where anything would have been reported, where a body's end could not
/// be found without parsing it, or in the child of a fork() after the
/// parent used the threads.
bool parseModuleInParallel(Module &M);

/// From this size of source, parseModule and verifyModule work on the
/// module's function bodies on all of the host's cores.
constexpr size_t ParallelFrontEndBytes = 256 * 1024;
/// Whether they do for a source of SourceBytes: from ParallelFrontEndBytes
/// on a host of several cores, unless PTXJIT_PARALLEL_FRONTEND says "off"
/// (never) or "on" (at any size; tests), and never in the child of a fork
/// after the parent used the threads. The module and the diagnostics are
/// the same either way.
bool isParallelFrontEnd(size_t SourceBytes);

} // namespace ptx
} // namespace ptxjit

#endif
