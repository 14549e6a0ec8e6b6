//===- WarpRuntime.h - Runtime symbols for the JIT -------------*- C++ -*-===//

#ifndef PTXJIT_RUNTIME_WARPRUNTIME_H
#define PTXJIT_RUNTIME_WARPRUNTIME_H

#include <string>
#include <utility>
#include <vector>

namespace ptxjit {
namespace runtime {

/// Name and address of every entry point generated code may call (the
/// ptxjit_rt_* functions of WarpABI.h), for JITOptions::Symbols.
std::vector<std::pair<std::string, void *>> getRuntimeSymbols();

} // namespace runtime
} // namespace ptxjit

#endif
