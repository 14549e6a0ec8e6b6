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
  /// Diagnostics are only counted, not formatted or located, so that
  /// several threads may report at once (a SourceMgr finds a location's
  /// line through a cache it fills on first use, which is not safe to
  /// share): for work that is done again with a printing engine where
  /// anything was reported.
  static DiagnosticEngine counting(const llvm::SourceMgr &SM) {
    return DiagnosticEngine(SM, nullptr);
  }

  template <typename... Ts>
  void report(llvm::SMLoc Loc, DiagID ID, Ts &&...Args) {
    if (!OS) {
      count(ID);
      return;
    }
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
  DiagnosticEngine(const llvm::SourceMgr &SM, llvm::raw_ostream *OS)
      : SM(SM), OS(OS) {}
  /// Counts ID's report; false if it is past the error limit.
  bool count(DiagID ID);
  void emit(llvm::SMLoc Loc, DiagID ID, const std::string &Message);

  const llvm::SourceMgr &SM;
  llvm::raw_ostream *OS;
  unsigned NumErrors = 0;
  unsigned NumReported = 0;
  unsigned ErrorLimit = 50;
};

} // namespace ptx
} // namespace ptxjit

#endif
