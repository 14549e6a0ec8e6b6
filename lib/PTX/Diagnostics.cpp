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
    : SM(SM), OS(&OS) {}

const char *DiagnosticEngine::getFormat(DiagID ID) {
  return DiagTable[static_cast<unsigned>(ID)].Format;
}

SourceMgr::DiagKind DiagnosticEngine::getSeverity(DiagID ID) {
  return DiagTable[static_cast<unsigned>(ID)].Severity;
}

bool DiagnosticEngine::count(DiagID ID) {
  ++NumReported;
  if (getSeverity(ID) == SourceMgr::DK_Error)
    return ++NumErrors <= ErrorLimit;
  return NumErrors <= ErrorLimit;
}

void DiagnosticEngine::emit(SMLoc Loc, DiagID ID, const std::string &Message) {
  if (!count(ID)) {
    if (getSeverity(ID) == SourceMgr::DK_Error && NumErrors == ErrorLimit + 1)
      *OS << "ptx-jit: too many errors emitted, stopping now\n";
    return;
  }
  SM.PrintMessage(*OS, Loc, getSeverity(ID), Message);
}
