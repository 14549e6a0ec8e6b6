//===- LaunchAttributes.h - cudaLaunchKernelEx's attributes -----*- C++ -*-===//
//
// The launch attributes of cudaLaunchKernelExC and cuLaunchKernelEx (the
// same layout and values), read into the device layer's launch options.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_CUDA_LAUNCHATTRIBUTES_H
#define PTXJIT_LIB_CUDA_LAUNCHATTRIBUTES_H

#include "CUDAABI.h"
#include "ptxjit/Device/Context.h"
#include "llvm/Support/Error.h"

namespace ptxjit {
namespace cuda {

/// Applies Attrs[0..N) to Opts: cooperative launches, cluster shapes; hints
/// that change nothing here (priority, cache and scheduling preferences,
/// preferred cluster shapes) are accepted. Attributes that need what the
/// device lacks (programmatic events) are NotSupported, unknown ones and
/// ones valid only for streams or graphs InvalidValue.
llvm::Error applyLaunchAttributes(const cudaLaunchAttribute *Attrs, unsigned N,
                                  device::LaunchOptions &Opts);

} // namespace cuda
} // namespace ptxjit

#endif
