//===- KernelEntry.h - A compiled kernel as a cache entry -------*- C++ -*-===//
//
// What the kernel cache keeps of a kernel compiled for one block shape: the
// object file the JIT links, and the KernelLayout IRGen computed, which a
// launch needs as much as the code. A field added to KernelLayout must be
// added here (and CacheFormatVersion bumped).
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_CACHE_KERNELENTRY_H
#define PTXJIT_CACHE_KERNELENTRY_H

#include "ptxjit/ABI/CompiledKernel.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace ptxjit {
namespace cache {

struct KernelEntry {
  KernelLayout Layout;
  llvm::StringRef Object; ///< points into the payload decoded
};

std::string encodeKernelEntry(const KernelLayout &Layout,
                              llvm::StringRef Object);
/// Fails on a payload that is not a whole kernel entry.
llvm::Expected<KernelEntry> decodeKernelEntry(llvm::StringRef Payload);

} // namespace cache
} // namespace ptxjit

#endif
