//===- StackSizes.h - The native frames of a compiled kernel ----*- C++ -*-===//
//
// Objects are generated with LLVM's .stack_sizes section (one entry per
// function: its address, then its frame size as ULEB128), so a launch can
// give each warp a stack its frames fit in: unoptimized warp functions keep
// every register of the warp in a frame of up to megabytes.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_JIT_STACKSIZES_H
#define PTXJIT_LIB_JIT_STACKSIZES_H

#include "llvm/Support/MemoryBufferRef.h"
#include <cstdint>

namespace ptxjit {

/// The frames of every function in Object added up (a bound for call
/// chains that do not recurse); 0 for an object without .stack_sizes.
uint64_t getTotalFrameSize(llvm::MemoryBufferRef Object);

} // namespace ptxjit

#endif
