//===- CTAErrors.cpp - Why a CTA stopped early ----------------------------===//

#include "ptxjit/Runtime/CTAErrors.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ptxjit::runtime;

char CTADeadlockError::ID;
char CTACancelledError::ID;
char LaunchError::ID;

void CTADeadlockError::log(raw_ostream &OS) const { OS << Message; }

std::error_code CTADeadlockError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

void CTACancelledError::log(raw_ostream &OS) const { OS << Message; }

std::error_code CTACancelledError::convertToErrorCode() const {
  return std::make_error_code(std::errc::operation_canceled);
}

void LaunchError::log(raw_ostream &OS) const { OS << Message; }

std::error_code LaunchError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}
