//===- PerfMap.h - Naming JIT-compiled kernels for perf ---------*- C++ -*-===//
//
// Linux perf names code it finds in no file by /tmp/perf-<pid>.map, one
// "START SIZE NAME" line (hex, no 0x) per function. PTXJIT_PERF_MAP=1 makes
// each linked kernel add its line there, so `perf report` shows kernels by
// name; any other value containing a '/' is the file to write instead.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_JIT_PERFMAP_H
#define PTXJIT_LIB_JIT_PERFMAP_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <cstdint>

namespace ptxjit {

/// The size of Symbol in Object when PTXJIT_PERF_MAP asks for a map, else
/// 0. Asked before the object is linked: linking may free it.
uint64_t getPerfMapSize(llvm::MemoryBufferRef Object, llvm::StringRef Symbol);

/// Adds Size bytes of code at Address to the perf map as Name (nothing for
/// Size 0). Never fails: a map that cannot be written only costs perf its
/// names.
void addToPerfMap(uint64_t Address, uint64_t Size, llvm::StringRef Name);

} // namespace ptxjit

#endif
