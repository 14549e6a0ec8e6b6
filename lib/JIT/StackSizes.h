//===- StackSizes.h - The native frame of a compiled kernel -----*- C++ -*-===//
//
// Objects are generated with LLVM's .stack_sizes section (one entry per
// function: its address, then its frame size as ULEB128), so a launch can
// give each warp a stack the warp function's frame fits in: an unoptimized
// warp function keeps every register of the warp in a frame of up to
// megabytes. The device functions it calls are not counted: their frames
// are what the device stack size (cudaLimitStackSize) budgets.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_JIT_STACKSIZES_H
#define PTXJIT_LIB_JIT_STACKSIZES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <cstdint>

namespace ptxjit {

/// The frame size of Function, a global symbol of the relocatable Object;
/// 0 when the object has no .stack_sizes entry for it.
uint64_t getFrameSize(llvm::MemoryBufferRef Object, llvm::StringRef Function);

} // namespace ptxjit

#endif
