//===- DriverTensorMap.cpp - libcuda.so.1: tensor maps --------------------===//
//
// cuTensorMapEncodeTiled writes ptx-jit's layout of a CUtensorMap
// (TensorMapABI.h) after the Driver API's checks (Runtime/TensorMap.h);
// cp.async.bulk.tensor reads it. im2col maps are not supported yet. What
// ptx-jit does not run (im2col, interleaved layouts, packed types, the
// sm_100 swizzle modes) is CUDA_ERROR_NOT_SUPPORTED, said once on stderr;
// arguments CUDA refuses are CUDA_ERROR_INVALID_VALUE, silently as CUDA.
//
//===----------------------------------------------------------------------===//

#include "DriverAPI.h"
#include "ptxjit/Runtime/TensorMap.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;
using namespace ptxjit::cuda::driver;

namespace {

CUresult notSupported(const char *Function, const Twine &Why) {
  errs() << "ptx-jit: " << Function << ": " << Why << "\n";
  return CUDA_ERROR_NOT_SUPPORTED;
}

/// The result for an encoding error (see encodeTiledTensorMap).
CUresult toEncodeResult(const char *Function, Error E) {
  CUresult R = CUDA_ERROR_INVALID_VALUE;
  handleAllErrors(std::move(E), [&](const StringError &S) {
    if (S.convertToErrorCode() == std::errc::not_supported)
      R = notSupported(Function, S.getMessage());
  });
  return R;
}

} // namespace

PTXJIT_CUDA_API CUresult cuTensorMapEncodeTiled(
    void *TensorMap, int DataType, unsigned Rank, void *GlobalAddress,
    const uint64_t *GlobalDim, const uint64_t *GlobalStrides,
    const uint32_t *BoxDim, const uint32_t *ElementStrides, int Interleave,
    int Swizzle, int L2Promotion, int OOBFill) {
  if (!isDriverInitialized())
    return CUDA_ERROR_NOT_INITIALIZED;
  if (!TensorMap || reinterpret_cast<uintptr_t>(TensorMap) % 64 ||
      DataType < 0 || Interleave < 0 || Swizzle < 0 || L2Promotion < 0 ||
      OOBFill < 0)
    return CUDA_ERROR_INVALID_VALUE;
  runtime::TiledTensorMapDesc D;
  D.DataType = unsigned(DataType);
  D.Rank = Rank;
  D.GlobalAddress = reinterpret_cast<uintptr_t>(GlobalAddress);
  D.GlobalDims = GlobalDim;
  D.GlobalStrides = GlobalStrides;
  D.BoxDims = BoxDim;
  D.ElementStrides = ElementStrides;
  D.Interleave = unsigned(Interleave);
  D.Swizzle = unsigned(Swizzle);
  D.L2Promotion = unsigned(L2Promotion);
  D.OOBFill = unsigned(OOBFill);
  Expected<TensorMapImage> M = runtime::encodeTiledTensorMap(D);
  if (!M)
    return toEncodeResult("cuTensorMapEncodeTiled", M.takeError());
  std::memcpy(TensorMap, &*M, sizeof *M);
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuTensorMapEncodeIm2col(
    void *TensorMap, int DataType, unsigned Rank, void *GlobalAddress,
    const uint64_t *GlobalDim, const uint64_t *GlobalStrides,
    const int *PixelBoxLowerCorner, const int *PixelBoxUpperCorner,
    unsigned ChannelsPerPixel, unsigned PixelsPerColumn,
    const uint32_t *ElementStrides, int Interleave, int Swizzle,
    int L2Promotion, int OOBFill) {
  if (!isDriverInitialized())
    return CUDA_ERROR_NOT_INITIALIZED;
  return notSupported("cuTensorMapEncodeIm2col",
                      "im2col tensor maps are not supported (tiled maps are)");
}

PTXJIT_CUDA_API CUresult cuTensorMapReplaceAddress(void *TensorMap,
                                                   void *GlobalAddress) {
  if (!isDriverInitialized())
    return CUDA_ERROR_NOT_INITIALIZED;
  if (!TensorMap || reinterpret_cast<uintptr_t>(TensorMap) % 64)
    return CUDA_ERROR_INVALID_VALUE;
  TensorMapImage M;
  std::memcpy(&M, TensorMap, sizeof M);
  if (Error E = runtime::checkTensorMap(M)) {
    consumeError(std::move(E));
    return CUDA_ERROR_INVALID_VALUE;
  }
  // The new address must meet the rules the old one did.
  M.GlobalAddress = reinterpret_cast<uintptr_t>(GlobalAddress);
  if (Error E = runtime::checkTensorMap(M)) {
    consumeError(std::move(E));
    return CUDA_ERROR_INVALID_VALUE;
  }
  std::memcpy(TensorMap, &M, sizeof M);
  return CUDA_SUCCESS;
}
