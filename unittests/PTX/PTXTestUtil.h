//===- PTXTestUtil.h - Parsing PTX text in unit tests -----------*- C++ -*-===//

#ifndef PTXJIT_UNITTESTS_PTX_PTXTESTUTIL_H
#define PTXJIT_UNITTESTS_PTX_PTXTESTUTIL_H

#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/Diagnostics.h"
#include "ptxjit/PTX/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>

namespace ptxjit {
namespace ptx {

/// A module parsed (not verified) from text, with its diagnostics.
struct ParsedModule {
  std::unique_ptr<Module> M;
  std::string Errors;
  bool OK = false;
};

inline ParsedModule parsePTX(llvm::StringRef Text) {
  ParsedModule P;
  P.M = std::make_unique<Module>(
      llvm::MemoryBuffer::getMemBufferCopy(Text, "test.ptx"));
  llvm::raw_string_ostream OS(P.Errors);
  DiagnosticEngine Diags(P.M->getSourceMgr(), OS);
  P.OK = parseModule(*P.M, Diags);
  return P;
}

/// Wraps the statements Body in a module with one kernel.
inline std::string kernelPTX(llvm::StringRef Body) {
  return (".version 8.0\n.target sm_80\n.address_size 64\n"
          ".visible .entry k(.param .u64 k_p)\n{\n" +
          Body + "\n}\n")
      .str();
}

} // namespace ptx
} // namespace ptxjit

#endif
