//===- Diagnostics.h - Reporting errors in PTX source -----------*- C++ -*-===//
//
// Every message is declared once in DiagnosticKinds.def. The engine prints
// them through llvm::SourceMgr as "file:line:col: error: message", then the
// source line and a caret, and counts errors so callers can go on and report
// more than the first.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_PTX_DIAGNOSTICS_H
#define PTXJIT_PTX_DIAGNOSTICS_H

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ptxjit {
namespace ptx {

enum class DiagID : uint16_t {
#define PTX_DIAG(Enum, Severity, Format) Enum,
#include "ptxjit/PTX/DiagnosticKinds.def"
};

class DiagnosticEngine {
public:
  /// Diagnostics go to OS (llvm::errs() by default).
  DiagnosticEngine(const llvm::SourceMgr &SM, llvm::raw_ostream &OS);

  template <typename... Ts>
  void report(llvm::SMLoc Loc, DiagID ID, Ts &&...Args) {
    emit(Loc, ID,
         llvm::formatv(getFormat(ID), std::forward<Ts>(Args)...).str());
  }

  unsigned getNumErrors() const { return NumErrors; }
  /// Every report so far: errors, warnings and notes.
  unsigned getNumReported() const { return NumReported; }
  bool hasErrors() const { return NumErrors != 0; }
  /// After this many errors, further ones are counted but not printed.
  void setErrorLimit(unsigned Limit) { ErrorLimit = Limit; }

  static const char *getFormat(DiagID ID);
  static llvm::SourceMgr::DiagKind getSeverity(DiagID ID);

private:
  void emit(llvm::SMLoc Loc, DiagID ID, const std::string &Message);

  const llvm::SourceMgr &SM;
  llvm::raw_ostream &OS;
  unsigned NumErrors = 0;
  unsigned NumReported = 0;
  unsigned ErrorLimit = 50;
};

} // namespace ptx
} // namespace ptxjit

#endif
