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
    case cudaLaunchAttributeClusterDimension: {
      auto &D = A.val.clusterDim;
      if (!D.x || !D.y || !D.z)
        return attributeError(
            device::ErrorCode::InvalidClusterSize, A.id,
            formatv("cluster {0}x{1}x{2} has a dimension of 0", D.x, D.y, D.z)
                .str());
      Opts.ClusterDim[0] = D.x, Opts.ClusterDim[1] = D.y,
      Opts.ClusterDim[2] = D.z;
      break;
    }
    // A preference: the launch may run with the clusters it must have
    // (cudaLaunchAttributeClusterDimension) instead, and does.
    case cudaLaunchAttributePreferredClusterDimension:
      break;
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
