//===- CTAErrors.h - Why a CTA stopped early --------------------*- C++ -*-===//
//
// Error kinds a caller may want to tell apart (with llvm::handleErrors): a
// deadlock is a bug in the kernel, a cancellation is the user's --timeout.
// Misused barriers come back as plain llvm::StringErrors.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_CTAERRORS_H
#define PTXJIT_RUNTIME_CTAERRORS_H

#include "llvm/ADT/Twine.h"
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

/// Why a launch failed, for callers that map failures to error codes (the
/// device layer's cudaError_t-like codes).
enum class LaunchFailure : uint8_t {
  InvalidConfiguration, ///< block or grid dimensions a GPU rejects
  InvalidValue,         ///< too much shared memory, wrong block shape
  OutOfResources,       ///< memory for the launch could not be had
  IllegalAddress,       ///< a kernel's memory access faulted
  Trap,                 ///< trap
  Assert,               ///< a device assert failed
  IllegalInstruction,   ///< brx.idx past its table
  Deadlock,             ///< lanes wait for lanes that never arrive
  Cancelled,            ///< the launch's cancel flag (a time limit)
  CooperativeTooLarge,  ///< more CTAs than can be live at once
  InvalidClusterSize,   ///< a cluster shape the grid or kernel rejects
  NotSupported,         ///< a combination ptx-jit does not run
};

/// A launch stopped or was refused; the message says where and why.
class LaunchError : public llvm::ErrorInfo<LaunchError> {
public:
  static char ID;
  LaunchError(LaunchFailure Kind, std::string Message)
      : Kind(Kind), Message(std::move(Message)) {}
  LaunchFailure getKind() const { return Kind; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  LaunchFailure Kind;
  std::string Message;
};

inline llvm::Error makeLaunchError(LaunchFailure Kind,
                                   const llvm::Twine &Message) {
  return llvm::make_error<LaunchError>(Kind, Message.str());
}

} // namespace runtime
} // namespace ptxjit

#endif
