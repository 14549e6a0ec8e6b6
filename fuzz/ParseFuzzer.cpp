//===- ParseFuzzer.cpp - libFuzzer target over the PTX front end ----------===//
//
// Parses and verifies arbitrary bytes with diagnostics going nowhere: any
// crash, hang, leak or sanitizer report is a bug. A module that parses
// cleanly is also printed and parsed again, and must give the same AST, so
// the fuzzer tests the printer as well.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/ASTEquivalence.h"
#include "ptxjit/PTX/Diagnostics.h"
#include "ptxjit/PTX/Parser.h"
#include "ptxjit/PTX/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

using namespace llvm;
using namespace ptxjit::ptx;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // No copy and no terminating NUL: ASan then catches any read past the end
  // of the text, which a NUL-terminated buffer would hide.
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  Module M(MemoryBuffer::getMemBuffer(Text, "fuzz.ptx",
                                      /*RequiresNullTerminator=*/false));
  raw_null_ostream Null;
  DiagnosticEngine Diags(M.getSourceMgr(), Null);
  if (!parseModule(M, Diags))
    return 0;
  verifyModule(M, Diags);
  if (Error E = checkRoundTrip(M)) {
    errs() << "round trip failed: " << toString(std::move(E)) << '\n';
    std::abort();
  }
  return 0;
}
