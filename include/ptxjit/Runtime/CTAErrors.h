//===- CTAErrors.h - Why a CTA stopped early --------------------*- C++ -*-===//
//
// Error kinds a caller may want to tell apart (with llvm::handleErrors): a
// deadlock is a bug in the kernel, a cancellation is the user's --timeout.
// Misused barriers come back as plain llvm::StringErrors.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_CTAERRORS_H
#define PTXJIT_RUNTIME_CTAERRORS_H

#include "llvm/Support/Error.h"
#include <string>

namespace ptxjit {
namespace runtime {

/// No warp of a CTA could move. The message names the kernel and CTA and says
/// what each warp waits on.
class CTADeadlockError : public llvm::ErrorInfo<CTADeadlockError> {
public:
  static char ID;
  explicit CTADeadlockError(std::string Message)
      : Message(std::move(Message)) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::string Message;
};

/// The CTA was stopped because its cancel flag was set.
class CTACancelledError : public llvm::ErrorInfo<CTACancelledError> {
public:
  static char ID;
  explicit CTACancelledError(std::string Message)
      : Message(std::move(Message)) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::string Message;
};

} // namespace runtime
} // namespace ptxjit

#endif
