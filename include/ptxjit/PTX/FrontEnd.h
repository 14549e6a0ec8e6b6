//===- FrontEnd.h - Load a PTX file: read, parse, verify --------*- C++ -*-===//

#ifndef PTXJIT_PTX_FRONTEND_H
#define PTXJIT_PTX_FRONTEND_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>

namespace llvm {
class MemoryBuffer;
class raw_ostream;
} // namespace llvm

namespace ptxjit {
namespace ptx {

class Module;

struct FrontEndOptions {
  bool Verify = true;
  unsigned ErrorLimit = 50;
};

/// Parses (and verifies) Source. Diagnostics are printed to DiagOS; on any
/// error the result is an llvm::Error saying how many there were.
llvm::Expected<std::unique_ptr<Module>>
loadModule(std::unique_ptr<llvm::MemoryBuffer> Source,
           llvm::raw_ostream &DiagOS, const FrontEndOptions &Opts = {});

/// Reads Path ("-" is standard input) as text; the error names the file.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readSourceFile(llvm::StringRef Path);

/// Reads Path ("-" is standard input) and calls loadModule.
llvm::Expected<std::unique_ptr<Module>>
loadModuleFile(llvm::StringRef Path, llvm::raw_ostream &DiagOS,
               const FrontEndOptions &Opts = {});

} // namespace ptx
} // namespace ptxjit

#endif
