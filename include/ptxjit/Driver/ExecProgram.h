//===- ExecProgram.h - The `ptx-jit exec` command ---------------*- C++ -*-===//

#ifndef PTXJIT_DRIVER_EXECPROGRAM_H
#define PTXJIT_DRIVER_EXECPROGRAM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace ptxjit {
namespace driver {

/// The folder holding ptx-jit's libcudart.so.13, next to the tool's own
/// folder (bin/../lib), or an error saying where it was looked for.
llvm::Expected<std::string> findCUDALibraryDir(const char *Argv0);

/// Replaces this process with Program run with Args (Args[0] included),
/// the loader finding ptx-jit's CUDA libraries first, so the program's
/// exit status is ptx-jit's; returns only on failure. Under the checking
/// mode (PTXJIT_CHECK) the program runs as a child instead, and the status
/// to exit with is returned: the program's, but 1 when it exited 0 and the
/// checks found errors.
llvm::Expected<int> execProgram(llvm::StringRef LibraryDir,
                                llvm::ArrayRef<std::string> Args);

} // namespace driver
} // namespace ptxjit

#endif
