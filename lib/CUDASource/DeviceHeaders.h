//===- DeviceHeaders.h - ptx-jit's embedded CUDA device headers -*- C++ -*-===//

#ifndef PTXJIT_LIB_CUDASOURCE_DEVICEHEADERS_H
#define PTXJIT_LIB_CUDASOURCE_DEVICEHEADERS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace ptxjit {
namespace cudasource {

struct EmbeddedFile {
  llvm::StringRef Name;
  llvm::StringRef Text;
};

/// The headers of lib/CUDASource/include, compiled into the binary.
llvm::ArrayRef<EmbeddedFile> getDeviceHeaders();

/// The directory the compiler sees them in (a virtual one).
constexpr llvm::StringLiteral DeviceHeaderDir = "/ptx-jit/include";
/// The one of them included before a .cu file.
constexpr llvm::StringLiteral DeviceHeaderName = "ptx_jit_cuda_device.h";

} // namespace cudasource
} // namespace ptxjit

#endif
