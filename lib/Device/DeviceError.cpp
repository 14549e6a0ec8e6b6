//===- DeviceError.cpp - Errors of the emulated device --------------------===//

#include "ptxjit/Device/DeviceError.h"
#include "ptxjit/Runtime/CTAErrors.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::device;

char DeviceError::ID;

void DeviceError::log(raw_ostream &OS) const { OS << Message; }

std::error_code DeviceError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

StringRef device::getErrorName(ErrorCode Code) {
  switch (Code) {
#define PTXJIT_ERROR_CODE(Name, Value, Description)                            \
  case ErrorCode::Name:                                                        \
    return Value == 0 ? "cudaSuccess" : "cudaError" #Name;
#include "ptxjit/Device/ErrorCodes.def"
  }
  return "cudaErrorUnknown";
}

StringRef device::getErrorString(ErrorCode Code) {
  switch (Code) {
#define PTXJIT_ERROR_CODE(Name, Value, Description)                            \
  case ErrorCode::Name:                                                        \
    return Description;
#include "ptxjit/Device/ErrorCodes.def"
  }
  return "unknown error";
}

bool device::isStickyError(ErrorCode Code) {
  switch (Code) {
  case ErrorCode::IllegalAddress:
  case ErrorCode::LaunchTimeout:
  case ErrorCode::Assert:
  case ErrorCode::IllegalInstruction:
  case ErrorCode::MisalignedAddress:
  case ErrorCode::LaunchFailure:
    return true;
  default:
    return false;
  }
}

static ErrorCode codeOfLaunchFailure(runtime::LaunchFailure F) {
  using runtime::LaunchFailure;
  switch (F) {
  case LaunchFailure::InvalidConfiguration:
    return ErrorCode::InvalidConfiguration;
  case LaunchFailure::InvalidValue:
    return ErrorCode::InvalidValue;
  case LaunchFailure::OutOfResources:
    return ErrorCode::LaunchOutOfResources;
  case LaunchFailure::IllegalAddress:
    return ErrorCode::IllegalAddress;
  case LaunchFailure::Assert:
    return ErrorCode::Assert;
  case LaunchFailure::IllegalInstruction:
    return ErrorCode::IllegalInstruction;
  case LaunchFailure::Cancelled:
    return ErrorCode::LaunchTimeout;
  case LaunchFailure::CooperativeTooLarge:
    return ErrorCode::CooperativeLaunchTooLarge;
  case LaunchFailure::InvalidClusterSize:
    return ErrorCode::InvalidClusterSize;
  case LaunchFailure::NotSupported:
    return ErrorCode::NotSupported;
  case LaunchFailure::Trap:
  case LaunchFailure::Deadlock:
    return ErrorCode::LaunchFailure;
  }
  return ErrorCode::LaunchFailure;
}

ErrorCode device::getErrorCode(const ErrorInfoBase &EI) {
  if (EI.isA<DeviceError>())
    return static_cast<const DeviceError &>(EI).getCode();
  if (EI.isA<runtime::LaunchError>())
    return codeOfLaunchFailure(
        static_cast<const runtime::LaunchError &>(EI).getKind());
  if (EI.isA<runtime::CTADeadlockError>())
    return ErrorCode::LaunchFailure;
  if (EI.isA<runtime::CTACancelledError>())
    return ErrorCode::LaunchTimeout;
  return ErrorCode::Unknown;
}

Error device::withErrorCode(Error E, ErrorCode Default) {
  return handleErrors(std::move(E), [&](std::unique_ptr<ErrorInfoBase> EI) {
    ErrorCode Code = getErrorCode(*EI);
    if (Code == ErrorCode::Unknown)
      Code = Default;
    return makeDeviceError(Code, EI->message());
  });
}

std::pair<ErrorCode, std::string> device::takeError(Error E) {
  ErrorCode Code = ErrorCode::Success;
  std::string Message;
  handleAllErrors(std::move(E), [&](const ErrorInfoBase &EI) {
    if (Code == ErrorCode::Success)
      Code = getErrorCode(EI);
    if (!Message.empty())
      Message += '\n';
    Message += EI.message();
  });
  return {Code, Message};
}
