//===- DriverAPI.h - Shared by libcuda.so.1's files -------------*- C++ -*-===//
//
// The driver API's handle types and result codes, and how a device error
// becomes a CUresult.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_CUDA_DRIVERAPI_H
#define PTXJIT_LIB_CUDA_DRIVERAPI_H

#include "RuntimeState.h"
#include "ptxjit/Device/DeviceError.h"
#include "llvm/Support/Error.h"

/// The library's exported functions (the version script names them).
#define PTXJIT_CUDA_API extern "C" __attribute__((visibility("default")))

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
struct CUctx_st {};
typedef CUctx_st *CUcontext;
typedef ptxjit::device::Module *CUmodule;
typedef ptxjit::device::Kernel *CUfunction;

enum : CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_FILE_NOT_FOUND = 301,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_SUPPORTED = 801,
};

namespace ptxjit {
namespace cuda {
namespace driver {

inline llvm::Error invalidValue(const llvm::Twine &Why) {
  return device::makeDeviceError(device::ErrorCode::InvalidValue, Why);
}

/// Whether cuInit has been called.
bool isDriverInitialized();

/// The driver's number for a device error.
CUresult toResult(device::ErrorCode Code);
CUresult toResult(llvm::Error E);

/// Runs F with the context once cuInit has been called; its Error becomes
/// the call's CUresult.
template <typename Fn> CUresult withContext(Fn &&F) {
  if (!isDriverInitialized())
    return CUDA_ERROR_NOT_INITIALIZED;
  llvm::Expected<device::Context &> C = RuntimeState::get().getContext();
  if (!C)
    return toResult(C.takeError());
  return toResult(F(*C));
}

} // namespace driver
} // namespace cuda
} // namespace ptxjit

#endif
