//===- APIHelpers.h - Shared by the CUDA runtime API's files ----*- C++ -*-===//

#ifndef PTXJIT_LIB_CUDA_APIHELPERS_H
#define PTXJIT_LIB_CUDA_APIHELPERS_H

#include "RuntimeState.h"

/// The library's exported functions (the version script names them).
#define PTXJIT_CUDART_API extern "C" __attribute__((visibility("default")))

namespace ptxjit {
namespace cuda {

/// Runs Fn with the context (created on first use); its Error becomes the
/// call's cudaError_t and the thread's last error.
template <typename Fn> cudaError_t withContext(Fn &&F) {
  llvm::Expected<device::Context &> C = RuntimeState::get().getContext();
  if (!C)
    return setLastError(C.takeError());
  return setLastError(F(*C));
}

inline llvm::Error invalidValue(const llvm::Twine &Why) {
  return device::makeDeviceError(device::ErrorCode::InvalidValue, Why);
}

} // namespace cuda
} // namespace ptxjit

#endif
