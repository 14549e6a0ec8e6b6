//===- Diagnostics.cpp - Printing PTX diagnostics -------------------------===//

#include "ptxjit/PTX/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ptxjit::ptx;

namespace {
struct DiagInfo {
  SourceMgr::DiagKind Severity;
  const char *Format;
};
} // namespace

static const DiagInfo DiagTable[] = {
#define PTX_DIAG(Enum, Severity, Format) {SourceMgr::DK_##Severity, Format},
#include "ptxjit/PTX/DiagnosticKinds.def"
};

DiagnosticEngine::DiagnosticEngine(const SourceMgr &SM, raw_ostream &OS)
    : SM(SM), OS(OS) {}

const char *DiagnosticEngine::getFormat(DiagID ID) {
  return DiagTable[static_cast<unsigned>(ID)].Format;
}

SourceMgr::DiagKind DiagnosticEngine::getSeverity(DiagID ID) {
  return DiagTable[static_cast<unsigned>(ID)].Severity;
}

void DiagnosticEngine::emit(SMLoc Loc, DiagID ID, const std::string &Message) {
  SourceMgr::DiagKind Kind = getSeverity(ID);
  ++NumReported;
  if (Kind == SourceMgr::DK_Error) {
    if (++NumErrors > ErrorLimit) {
      if (NumErrors == ErrorLimit + 1)
        OS << "ptx-jit: too many errors emitted, stopping now\n";
      return;
    }
  } else if (NumErrors > ErrorLimit) {
    return;
  }
  SM.PrintMessage(OS, Loc, Kind, Message);
}
