//===- DeviceError.h - Errors of the emulated device ------------*- C++ -*-===//
//
// Every failure of the device layer is an llvm::Error carrying an
// ErrorCode. The codes are the numbers of CUDA's cudaError_t, so the CUDA
// runtime library returns them as they are and the driver library maps them
// onto CUresult.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DEVICE_DEVICEERROR_H
#define PTXJIT_DEVICE_DEVICEERROR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <string>

namespace ptxjit {
namespace device {

/// cudaError_t values (CUDA 13).
enum class ErrorCode : int {
#define PTXJIT_ERROR_CODE(Name, Value, Description) Name = Value,
#include "ptxjit/Device/ErrorCodes.def"
};

/// "cudaErrorIllegalAddress"
llvm::StringRef getErrorName(ErrorCode Code);
/// "an illegal memory access was encountered", as CUDA words it.
llvm::StringRef getErrorString(ErrorCode Code);

/// True for the codes after which a context is unusable (CUDA's sticky
/// errors): the kernel faulted, trapped, asserted or timed out.
bool isStickyError(ErrorCode Code);

class DeviceError : public llvm::ErrorInfo<DeviceError> {
public:
  static char ID;
  DeviceError(ErrorCode Code, std::string Message)
      : Code(Code), Message(std::move(Message)) {}
  ErrorCode getCode() const { return Code; }
  const std::string &getMessage() const { return Message; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  ErrorCode Code;
  std::string Message;
};

inline llvm::Error makeDeviceError(ErrorCode Code, const llvm::Twine &Message) {
  return llvm::make_error<DeviceError>(Code, Message.str());
}

/// Gives every error in E a code: a DeviceError keeps its own, the runtime's
/// launch failures get theirs, and anything else becomes \p Default.
llvm::Error withErrorCode(llvm::Error E, ErrorCode Default);

/// The code of one error payload (Unknown for one without a code).
ErrorCode getErrorCode(const llvm::ErrorInfoBase &EI);

/// Splits E into its code and message, consuming it.
std::pair<ErrorCode, std::string> takeError(llvm::Error E);

} // namespace device
} // namespace ptxjit

#endif
