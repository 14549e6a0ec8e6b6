//===- RuntimeEntryPoints.h - Functions generated code calls ----*- C++ -*-===//
//
// The C declarations of every runtime entry point, expanded from
// RuntimeEntryPoints.def. lib/Runtime defines them; IRGen declares them in
// LLVM IR from the same table (ptxjit/IRGen/RuntimeABI.h); the device layer
// hands the JIT their addresses (runtime::getRuntimeSymbols).
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_ABI_RUNTIMEENTRYPOINTS_H
#define PTXJIT_ABI_RUNTIMEENTRYPOINTS_H

#include <cstdint>

namespace ptxjit {

/// One enumerator per PTXJIT_RUNTIME_ENTRY.
enum class RuntimeEntry : unsigned {
#define PTXJIT_RUNTIME_ENTRY(Id, Name, Effects, Type) Id,
#include "ptxjit/ABI/RuntimeEntryPoints.def"
};

/// What an entry point may do besides returning a value.
enum class RuntimeEffects : uint8_t {
  Any,        ///< any memory, fiber switches
  ArgMemOnly, ///< reads and writes only memory its arguments point to
  /// ArgMemOnly, and state of the runtime's own that kernels cannot reach
  InaccessibleOrArgMem,
};

namespace abi {
// The C function type of each entry point and libcall.
#define PTXJIT_RUNTIME_ENTRY(Id, Name, Effects, Type) using Name##_type = Type;
#define PTXJIT_RUNTIME_LIBCALL(Symbol, Name, Type) using Name##_type = Type;
#include "ptxjit/ABI/RuntimeEntryPoints.def"
} // namespace abi

} // namespace ptxjit

extern "C" {
#define PTXJIT_RUNTIME_ENTRY(Id, Name, Effects, Type)                          \
  ptxjit::abi::Name##_type Name;
#define PTXJIT_RUNTIME_LIBCALL(Symbol, Name, Type)                             \
  ptxjit::abi::Name##_type Name;
#include "ptxjit/ABI/RuntimeEntryPoints.def"
}

#endif
