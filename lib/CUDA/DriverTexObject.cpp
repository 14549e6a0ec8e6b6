//===- DriverTexObject.cpp - libcuda.so.1: texture and surface objects ----===//
//
// cuTexObjectCreate and cuSurfObjectCreate make handles of the runtime's
// object table (ptxjit/Runtime/Textures.h), as cudaCreateTextureObject
// does, from the driver's descriptors: CUarray_format and a channel count
// instead of a channel descriptor, CU_TRSF_* flags instead of read mode and
// normalized coordinates. The descriptors are kept for the Get functions.
//
//===----------------------------------------------------------------------===//

#include "DriverAPI.h"
#include "DriverTextures.h"
#include "ImageArrays.h"
#include "ImageObjects.h"
#include <cstring>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;
using namespace ptxjit::cuda::driver;

namespace {

/// cuda.h's CUresourcetype and descriptors.
enum : unsigned {
  ResourceArray = 0,
  ResourceMipmappedArray = 1,
  ResourceLinear = 2,
  ResourcePitch2D = 3,
};

struct CUDA_RESOURCE_DESC {
  unsigned resType;
  union {
    struct {
      void *hArray;
    } array;
    struct {
      void *hMipmappedArray;
    } mipmap;
    struct {
      CUdeviceptr devPtr;
      unsigned format, numChannels;
      size_t sizeInBytes;
    } linear;
    struct {
      CUdeviceptr devPtr;
      unsigned format, numChannels;
      size_t width, height, pitchInBytes;
    } pitch2D;
    int reserved[32];
  } res;
  unsigned flags;
};

struct CUDA_TEXTURE_DESC {
  unsigned addressMode[3];
  unsigned filterMode;
  unsigned flags;
  unsigned maxAnisotropy;
  unsigned mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  float borderColor[4];
  int reserved[12];
};

using DriverObjects = ImageObjects<CUDA_RESOURCE_DESC, CUDA_TEXTURE_DESC>;
using Descriptors = DriverObjects::Descriptors;

/// The objects of the process; never destroyed, like the arrays.
DriverObjects &getObjects() {
  static auto *Objects = new DriverObjects;
  return *Objects;
}

Error notSupported(const Twine &Why) {
  return device::makeDeviceError(device::ErrorCode::NotSupported, Why);
}

void *ptr(CUdeviceptr P) { return reinterpret_cast<void *>(uintptr_t(P)); }

Expected<runtime::ImageResource> toResource(device::Context &C,
                                            const CUDA_RESOURCE_DESC &D) {
  if (D.flags)
    return invalidValue("resource descriptor flags must be zero");
  switch (D.resType) {
  case ResourceArray: {
    Expected<ImageArray *> A = lookupImageArray(D.res.array.hArray);
    if (!A)
      return A.takeError();
    return (*A)->Resource;
  }
  case ResourceMipmappedArray: {
    Expected<MipmappedImageArray *> M =
        lookupMipmappedImageArray(D.res.mipmap.hMipmappedArray);
    if (!M)
      return M.takeError();
    return (*M)->Resource;
  }
  case ResourceLinear: {
    const auto &L = D.res.linear;
    Expected<runtime::TexelFormat> F = getTexelFormat(L.format, L.numChannels);
    if (!F)
      return F.takeError();
    return makeLinearResource(C, ptr(L.devPtr), *F, L.sizeInBytes);
  }
  case ResourcePitch2D: {
    const auto &P = D.res.pitch2D;
    Expected<runtime::TexelFormat> F = getTexelFormat(P.format, P.numChannels);
    if (!F)
      return F.takeError();
    return makePitch2DResource(C, ptr(P.devPtr), *F, P.width, P.height,
                               P.pitchInBytes);
  }
  }
  return invalidValue("unknown resource type " + Twine(D.resType));
}

Expected<runtime::SamplerState> toSampler(const CUDA_TEXTURE_DESC &T,
                                          const runtime::TexelFormat &F) {
  runtime::SamplerState S;
  for (unsigned K = 0; K != 3; ++K) {
    // CU_TR_ADDRESS_MODE_WRAP, CLAMP, MIRROR, BORDER: the runtime's order.
    if (T.addressMode[K] > 3)
      return invalidValue("unknown address mode " + Twine(T.addressMode[K]));
    S.Address[K] = runtime::AddressMode(T.addressMode[K]);
  }
  if (T.filterMode > 1 || T.mipmapFilterMode > 1)
    return invalidValue("unknown filter mode");
  if (T.flags & FlagSRGB)
    return notSupported("sRGB textures");
  if (T.flags & FlagSeamlessCubemap)
    return notSupported("seamless cubemap filtering (filtering stays within a "
                        "face)");
  if (T.flags & ~unsigned(FlagReadAsInteger | FlagNormalizedCoordinates |
                          FlagDisableTrilinearOptimization))
    return invalidValue("unknown texture flags " + Twine(T.flags));
  S.Filter = runtime::FilterMode(T.filterMode);
  S.MipFilter = runtime::FilterMode(T.mipmapFilterMode);
  S.Read = getReadMode(F, T.flags);
  S.NormalizedCoords = T.flags & FlagNormalizedCoordinates;
  S.LodBias = T.mipmapLevelBias;
  S.MinLodClamp = T.minMipmapLevelClamp;
  S.MaxLodClamp = T.maxMipmapLevelClamp;
  std::memcpy(S.BorderColor, T.borderColor, sizeof S.BorderColor);
  return S;
}

/// A texture object (Tex given) or a surface object.
Error createObject(device::Context &C, unsigned long long *Out,
                   const CUDA_RESOURCE_DESC *Res,
                   const CUDA_TEXTURE_DESC *Tex) {
  if (!Out || !Res)
    return invalidValue("null object or resource descriptor");
  runtime::ImageObject O;
  O.IsSurface = !Tex;
  Expected<runtime::ImageResource> R = toResource(C, *Res);
  if (!R)
    return R.takeError();
  O.Resource = *R;
  if (Tex) {
    Expected<runtime::SamplerState> S = toSampler(*Tex, R->Format);
    if (!S)
      return S.takeError();
    O.Sampler = *S;
  }
  // (toResource has checked the array.)
  const auto *Array =
      Res->resType == ResourceArray
          ? static_cast<const ImageArray *>(Res->res.array.hArray)
          : nullptr;
  Expected<uint64_t> H = getObjects().create(O, *Res, Tex, Array);
  if (!H)
    return H.takeError();
  *Out = *H;
  return Error::success();
}

/// The descriptors of live object H of the kind, or the error for a handle
/// that is not one.
Expected<Descriptors> getDescriptors(uint64_t H, bool IsSurface) {
  if (std::optional<Descriptors> D = getObjects().get(H, IsSurface))
    return *D;
  return device::makeDeviceError(device::ErrorCode::InvalidResourceHandle,
                                 IsSurface ? "not a surface object"
                                           : "not a texture object");
}

CUresult destroyObject(uint64_t H, bool IsSurface) {
  return getObjects().destroy(H, IsSurface) ? CUDA_SUCCESS
                                            : CUDA_ERROR_INVALID_HANDLE;
}

} // namespace

PTXJIT_CUDA_API CUresult cuTexObjectCreate(unsigned long long *Tex,
                                           const CUDA_RESOURCE_DESC *Res,
                                           const CUDA_TEXTURE_DESC *TexDesc,
                                           const void *View) {
  return withContext([&](device::Context &C) -> Error {
    if (!TexDesc)
      return invalidValue("null texture descriptor");
    if (View)
      return notSupported("resource views");
    return createObject(C, Tex, Res, TexDesc);
  });
}

PTXJIT_CUDA_API CUresult cuTexObjectDestroy(unsigned long long Tex) {
  return destroyObject(Tex, /*IsSurface=*/false);
}

PTXJIT_CUDA_API CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *Res,
                                                    unsigned long long Tex) {
  if (!Res)
    return CUDA_ERROR_INVALID_VALUE;
  Expected<Descriptors> D = getDescriptors(Tex, false);
  if (!D)
    return toResult(D.takeError());
  *Res = D->Res;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *TexDesc,
                                                   unsigned long long Tex) {
  if (!TexDesc)
    return CUDA_ERROR_INVALID_VALUE;
  Expected<Descriptors> D = getDescriptors(Tex, false);
  if (!D)
    return toResult(D.takeError());
  *TexDesc = D->Tex;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuSurfObjectCreate(unsigned long long *Surf,
                                            const CUDA_RESOURCE_DESC *Res) {
  return withContext(
      [&](device::Context &C) { return createObject(C, Surf, Res, nullptr); });
}

PTXJIT_CUDA_API CUresult cuSurfObjectDestroy(unsigned long long Surf) {
  return destroyObject(Surf, /*IsSurface=*/true);
}

PTXJIT_CUDA_API CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *Res,
                                                     unsigned long long Surf) {
  if (!Res)
    return CUDA_ERROR_INVALID_VALUE;
  Expected<Descriptors> D = getDescriptors(Surf, true);
  if (!D)
    return toResult(D.takeError());
  *Res = D->Res;
  return CUDA_SUCCESS;
}
