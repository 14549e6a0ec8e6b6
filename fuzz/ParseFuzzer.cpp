//===- ParseFuzzer.cpp - libFuzzer target over the PTX front end ----------===//
//
// Parses and verifies arbitrary bytes with diagnostics going nowhere: any
// crash, hang, leak or sanitizer report is a bug. A module that parses
// cleanly is also printed and parsed again, and must give the same AST, so
// the fuzzer tests the printer as well. And the parser that parses function
// bodies side by side (parseModuleInParallel) must give up wherever the
// one-thread parser reports anything, and give the same AST wherever it
// reports nothing (unless a `.loc`'s free text, which the parser takes
// verbatim to the line's end, holds a brace, a quote or a comment opener:
// the scan for a body's end reads those as syntax, and the parser then
// rightly gives up).
//
//===----------------------------------------------------------------------===//

#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/ASTEquivalence.h"
#include "ptxjit/PTX/Diagnostics.h"
#include "ptxjit/PTX/Parser.h"
#include "ptxjit/PTX/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Parallel.h"
#include "llvm/Support/raw_ostream.h"
#include <atomic>
#include <cstdlib>

using namespace llvm;
using namespace ptxjit::ptx;

/// Whether a `.loc` in M has free text the scan for a body's end reads as
/// syntax.
static bool hasLocWithSyntax(const Module &M) {
  for (const Function &F : M.Functions)
    for (const Statement &S : F.Body) {
      if (S.Kind != Statement::Loc)
        continue;
      StringRef Rest(S.getLoc().getPointer(),
                     M.getSourceText().end() - S.getLoc().getPointer());
      Rest = Rest.take_until([](char C) { return C == '\n'; });
      if (Rest.find_first_of("{}\"") != StringRef::npos || Rest.contains("/*"))
        return true;
    }
  return false;
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // LLVM's thread pool, which parseModuleInParallel starts on first use,
  // lives to the exit. Started here, with every one of its threads (each
  // task waits until all run), it is not taken for an input's leak.
  size_t Threads = parallel::getThreadCount();
  std::atomic<size_t> Running{0};
  parallelFor(0, Threads, [&](size_t) {
    ++Running;
    while (Running.load() < Threads)
      ;
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // No copy and no terminating NUL: ASan then catches any read past the end
  // of the text, which a NUL-terminated buffer would hide.
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  Module M(MemoryBuffer::getMemBuffer(Text, "fuzz.ptx",
                                      /*RequiresNullTerminator=*/false));
  raw_null_ostream Null;
  DiagnosticEngine Diags(M.getSourceMgr(), Null);
  bool Clean = parseModule(M, Diags) && !Diags.getNumReported();
  Module Side(MemoryBuffer::getMemBuffer(Text, "fuzz.ptx",
                                         /*RequiresNullTerminator=*/false));
  bool SideOK = parseModuleInParallel(Side);
  if (SideOK != Clean && !(Clean && hasLocWithSyntax(M))) {
    errs() << "the parallel parser " << (Clean ? "gave up on" : "accepted")
           << " a module the one-thread parser "
           << (Clean ? "accepted" : "reported on") << '\n';
    std::abort();
  }
  if (SideOK && Clean)
    if (std::optional<std::string> D = findASTDifference(M, Side)) {
      errs() << "the parallel parser's module differs: " << *D << '\n';
      std::abort();
    }
  if (Diags.getNumErrors())
    return 0;
  verifyModule(M, Diags);
  if (Error E = checkRoundTrip(M)) {
    errs() << "round trip failed: " << toString(std::move(E)) << '\n';
    std::abort();
  }
  return 0;
}
