//===- RuntimeABI.h - The runtime ABI as LLVM types -------------*- C++ -*-===//
//
// IRGen's view of include/ptxjit/ABI: the LLVM struct type of WarpContext and
// the declarations of the runtime entry points, both expanded from the same
// tables as the C++ definitions.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_IRGEN_RUNTIMEABI_H
#define PTXJIT_IRGEN_RUNTIMEABI_H

#include "ptxjit/ABI/RuntimeEntryPoints.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class FunctionCallee;
class FunctionType;
class LLVMContext;
class Module;
class StructType;
} // namespace llvm

namespace ptxjit {

/// %ptxjit.WarpContext, one per LLVM context, fields in WarpContextField
/// order.
llvm::StructType *getWarpContextType(llvm::LLVMContext &Ctx);

/// The symbol name of an entry point ("ptxjit_rt_bar_sync").
llvm::StringRef getRuntimeEntryName(RuntimeEntry E);

/// The LLVM function type of an entry point, from its C type.
llvm::FunctionType *getRuntimeEntryType(llvm::LLVMContext &Ctx, RuntimeEntry E);

/// Declares (once) an entry point in M, with the attributes its effects
/// allow.
llvm::FunctionCallee declareRuntimeEntry(llvm::Module &M, RuntimeEntry E);

} // namespace ptxjit

#endif
