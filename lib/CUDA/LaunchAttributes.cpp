//===- LaunchAttributes.cpp - cudaLaunchKernelEx's attributes -------------===//

#include "LaunchAttributes.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

static Error attributeError(device::ErrorCode Code, int Id, StringRef Why) {
  return device::makeDeviceError(Code,
                                 formatv("launch attribute {0}: {1}", Id, Why));
}

Error cuda::applyLaunchAttributes(const cudaLaunchAttribute *Attrs, unsigned N,
                                  device::LaunchOptions &Opts) {
  if (N && !Attrs)
    return device::makeDeviceError(device::ErrorCode::InvalidValue,
                                   "launch attributes are missing");
  for (const cudaLaunchAttribute &A : ArrayRef(Attrs, N)) {
    switch (A.id) {
    case cudaLaunchAttributeIgnore:
    case cudaLaunchAttributeAccessPolicyWindow:
    case cudaLaunchAttributeClusterSchedulingPolicyPreference:
    // Launches are serialized anyway: allowing overlap changes nothing.
    case cudaLaunchAttributeProgrammaticStreamSerialization:
    case cudaLaunchAttributePriority:
    case cudaLaunchAttributeMemSyncDomainMap:
    case cudaLaunchAttributeMemSyncDomain:
    case cudaLaunchAttributePreferredSharedMemoryCarveout:
    case cudaLaunchAttributeNvlinkUtilCentricScheduling:
      break;
    case cudaLaunchAttributeCooperative:
      Opts.Cooperative = A.val.cooperative != 0;
      break;
    case cudaLaunchAttributeClusterDimension:
    case cudaLaunchAttributePreferredClusterDimension: {
      auto &D = A.val.clusterDim;
      // A preferred dimension of 0 means none.
      bool None = A.id == cudaLaunchAttributePreferredClusterDimension &&
                  !D.x && !D.y && !D.z;
      if (!None && (D.x != 1 || D.y != 1 || D.z != 1))
        return attributeError(
            device::ErrorCode::NotSupported, A.id,
            formatv("clusters of {0}x{1}x{2} CTAs are not supported (only "
                    "1x1x1)",
                    D.x, D.y, D.z)
                .str());
      break;
    }
    case cudaLaunchAttributeProgrammaticEvent:
    case cudaLaunchAttributeLaunchCompletionEvent:
      return attributeError(device::ErrorCode::NotSupported, A.id,
                            "launch events are not supported");
    case cudaLaunchAttributeSynchronizationPolicy:
      return attributeError(device::ErrorCode::InvalidValue, A.id,
                            "valid for streams only");
    case cudaLaunchAttributeDeviceUpdatableKernelNode:
      return attributeError(device::ErrorCode::InvalidValue, A.id,
                            "valid for graph nodes only");
    default:
      return attributeError(device::ErrorCode::InvalidValue, A.id,
                            "unknown attribute");
    }
  }
  return Error::success();
}
