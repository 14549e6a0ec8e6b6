//===- FrontEnd.cpp - Read, parse and verify a PTX file -------------------===//

#include "ptxjit/PTX/FrontEnd.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/Diagnostics.h"
#include "ptxjit/PTX/InputKind.h"
#include "ptxjit/PTX/Parser.h"
#include "ptxjit/PTX/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ptxjit::ptx;

Expected<std::unique_ptr<Module>>
ptxjit::ptx::loadModule(std::unique_ptr<MemoryBuffer> Source,
                        raw_ostream &DiagOS, const FrontEndOptions &Opts) {
  if (std::optional<std::string> What =
          describeNonPTXInput(Source->getBuffer()))
    return createStringError(inconvertibleErrorCode(), "%s: %s",
                             Source->getBufferIdentifier().str().c_str(),
                             What->c_str());
  auto M = std::make_unique<Module>(std::move(Source));
  DiagnosticEngine Diags(M->getSourceMgr(), DiagOS);
  Diags.setErrorLimit(Opts.ErrorLimit);
  bool OK = parseModule(*M, Diags);
  // Names and types are only checked on a module that parsed cleanly:
  // a half-parsed body would produce a cascade of bogus errors.
  if (OK && Opts.Verify)
    OK = verifyModule(*M, Diags);
  if (!OK) {
    unsigned N = Diags.getNumErrors();
    return createStringError(inconvertibleErrorCode(), "%u error%s generated",
                             N, N == 1 ? "" : "s");
  }
  return std::move(M);
}

Expected<std::unique_ptr<MemoryBuffer>>
ptxjit::ptx::readSourceFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/true);
  if (!Buf)
    return createStringError(Buf.getError(), "cannot read '%s': %s",
                             Path.str().c_str(),
                             Buf.getError().message().c_str());
  return std::move(*Buf);
}

Expected<std::unique_ptr<Module>>
ptxjit::ptx::loadModuleFile(StringRef Path, raw_ostream &DiagOS,
                            const FrontEndOptions &Opts) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = readSourceFile(Path);
  if (!Buf)
    return Buf.takeError();
  return loadModule(std::move(*Buf), DiagOS, Opts);
}
