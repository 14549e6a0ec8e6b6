//===- WarpRuntime.h - Runtime symbols for the JIT -------------*- C++ -*-===//

#ifndef PTXJIT_RUNTIME_WARPRUNTIME_H
#define PTXJIT_RUNTIME_WARPRUNTIME_H

#include <string>
#include <utility>
#include <vector>

namespace ptxjit {
namespace runtime {

/// Name and address of every function generated code may call (the entry
/// points and libcalls of RuntimeEntryPoints.def), for the JIT's symbols.
std::vector<std::pair<std::string, void *>> getRuntimeSymbols();

} // namespace runtime
} // namespace ptxjit

#endif
