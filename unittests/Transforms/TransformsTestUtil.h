//===- TransformsTestUtil.h - PTX functions for pass unit tests -*- C++ -*-===//

#ifndef PTXJIT_UNITTESTS_TRANSFORMS_TRANSFORMSTESTUTIL_H
#define PTXJIT_UNITTESTS_TRANSFORMS_TRANSFORMSTESTUTIL_H

#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/FrontEnd.h"
#include "ptxjit/PTX/Printer.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <memory>
#include <string>

namespace ptxjit {
namespace transforms {

/// Parses and verifies Text (a whole module); fails the test on errors.
inline std::unique_ptr<ptx::Module> loadPTX(llvm::StringRef Text) {
  std::string Diags;
  llvm::raw_string_ostream OS(Diags);
  auto M = ptx::loadModule(
      llvm::MemoryBuffer::getMemBufferCopy(Text, "test.ptx"), OS);
  if (!M) {
    ADD_FAILURE() << llvm::toString(M.takeError()) << "\n" << Diags;
    return nullptr;
  }
  return std::move(*M);
}

/// A module with one kernel k(.param .u64 out) whose body is Body, after
/// the device functions Funcs.
inline std::string kernelPTX(llvm::StringRef Body, llvm::StringRef Funcs = "") {
  return (".version 8.0\n.target sm_80\n.address_size 64\n" + Funcs +
          "\n.visible .entry k(.param .u64 out)\n{\n" + Body + "\n}\n")
      .str();
}

/// The instructions of F, printed one a line without indentation.
inline std::string printInstructions(const ptx::Function &F) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  for (const ptx::Statement &St : F.Body) {
    if (St.Kind == ptx::Statement::Label)
      OS << St.Dir.Name << ":\n";
    if (St.Kind != ptx::Statement::Inst)
      continue;
    ptx::printInstruction(St.Instr, OS);
    OS << '\n';
  }
  // The printer separates opcode and operands with " \t".
  std::string Out;
  for (char C : S)
    if (C != '\t')
      Out += C;
  return Out;
}

} // namespace transforms
} // namespace ptxjit

#endif
