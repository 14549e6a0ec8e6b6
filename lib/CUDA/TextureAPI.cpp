//===- TextureAPI.cpp - Arrays, texture and surface objects ---------------===//
//
// Arrays and mipmapped arrays are libcuda's (ImageArrays.h), so the driver
// API takes the same handles; this file turns channel descriptors and
// extents into theirs. A mipmapped array holds its levels one after the
// other in one allocation, each level also an array
// (cudaGetMipmappedArrayLevel) that does not own its memory.
// Cubemaps are layered 2D arrays of 6 faces per layer. Texture and surface
// objects are handles of the runtime's object table (ptxjit/Runtime/
// Textures.h), which the kernels' tex and suld/sust look up; the
// descriptors they were made from are kept here for the Get functions.
// Copies to and from arrays are ordered on the legacy default stream and
// return when done, like cudaMemcpy.
//
//===----------------------------------------------------------------------===//

#include "APIHelpers.h"
#include "Capture.h"
#include "Graph.h"
#include "ImageArrays.h"
#include "ImageObjects.h"
#include "ptxjit/Runtime/Textures.h"
#include <cstring>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

extern "C" cudaError_t cudaMalloc(void **Ptr, size_t Size); // MemoryAPI.cpp

namespace {

/// The objects of the process; never destroyed, like the arrays.
ImageObjects<cudaResourceDesc, cudaTextureDesc> &getObjects() {
  static auto *Objects = new ImageObjects<cudaResourceDesc, cudaTextureDesc>;
  return *Objects;
}

Error notSupported(const Twine &Why) {
  return device::makeDeviceError(device::ErrorCode::NotSupported, Why);
}

Error checkKind(int Kind) {
  if (Kind < cudaMemcpyHostToHost || Kind > cudaMemcpyDefault)
    return device::makeDeviceError(device::ErrorCode::InvalidMemcpyDirection,
                                   "unknown cudaMemcpyKind " + Twine(Kind));
  return Error::success();
}

/// The texel format of a channel descriptor: 1, 2 or 4 channels of one
/// width, written from x on.
Expected<runtime::TexelFormat> toFormat(const cudaChannelFormatDesc &D) {
  const int Bits[4] = {D.x, D.y, D.z, D.w};
  runtime::TexelFormat F;
  F.NumChannels = 0;
  for (int B : Bits) {
    if (!B)
      break;
    if (B != D.x)
      return invalidValue("channels of different widths are not supported");
    ++F.NumChannels;
  }
  for (unsigned K = F.NumChannels; K != 4; ++K)
    if (Bits[K])
      return invalidValue("a channel descriptor with a gap between channels");
  if (F.NumChannels == 0 || F.NumChannels == 3)
    return invalidValue(Twine(F.NumChannels) + " channels (1, 2 or 4 exist)");
  F.ChannelBits = unsigned(D.x);
  switch (D.f) {
  case cudaChannelFormatKindSigned:
    F.Kind = runtime::ChannelKind::Signed;
    break;
  case cudaChannelFormatKindUnsigned:
    F.Kind = runtime::ChannelKind::Unsigned;
    break;
  case cudaChannelFormatKindFloat:
    F.Kind = runtime::ChannelKind::Float;
    break;
  default:
    return invalidValue("unsupported channel format kind " + Twine(int(D.f)));
  }
  bool Exists =
      F.Kind == runtime::ChannelKind::Float
          ? F.ChannelBits == 16 || F.ChannelBits == 32
          : F.ChannelBits == 8 || F.ChannelBits == 16 || F.ChannelBits == 32;
  if (!Exists)
    return invalidValue(Twine(F.ChannelBits) +
                        "-bit channels of this kind do not exist");
  return F;
}

/// The array a handle names.
Expected<ImageArray *> checkedArray(cudaArray_const_t A) {
  return lookupImageArray(A);
}

cudaArray_t toHandle(ImageArray *A) { return reinterpret_cast<cudaArray_t>(A); }

/// A channel descriptor of F: x, then y, z and w as F has channels.
cudaChannelFormatDesc toChannelDesc(const runtime::TexelFormat &F) {
  int Bits = int(F.ChannelBits);
  cudaChannelFormatKind Kind =
      F.Kind == runtime::ChannelKind::Float    ? cudaChannelFormatKindFloat
      : F.Kind == runtime::ChannelKind::Signed ? cudaChannelFormatKindSigned
                                               : cudaChannelFormatKindUnsigned;
  return {Bits, F.NumChannels > 1 ? Bits : 0, F.NumChannels > 2 ? Bits : 0,
          F.NumChannels > 3 ? Bits : 0, Kind};
}

ArrayExtent toExtent(cudaExtent E) { return {E.width, E.height, E.depth}; }

/// Queues a copy on Stream, or makes it a graph node when Stream captures
/// (copy nodes of arrays are refused). Copies Wait for their stream
/// otherwise.
Error copyOn(device::Context &C, const CopyEnd &Dst, const CopyEnd &Src,
             size_t Width, size_t Height, size_t Depth,
             const cudaMemcpy3DParms &AsNode, cudaStream_t Stream, bool Wait) {
  if (!Wait) {
    Expected<bool> Captured =
        captureNode(Stream, [&] { return makeCopyNode(AsNode); });
    if (!Captured)
      return Captured.takeError();
    if (*Captured)
      return Error::success();
  }
  return copyImageBlock(C, Dst, Src, Width, Height, Depth,
                        RuntimeState::get().toStream(Stream), Wait);
}

/// A 2D copy with an array on one side or both, as a copy node would
/// describe it (positions in bytes; arrays, which nodes refuse).
cudaMemcpy3DParms nodeOf2D(cudaArray_t DstArray, void *Dst, size_t DPitch,
                           cudaArray_t SrcArray, const void *Src, size_t SPitch,
                           size_t Width, size_t Height, int Kind) {
  cudaMemcpy3DParms P;
  std::memset(&P, 0, sizeof P);
  P.dstArray = DstArray;
  P.dstPtr = {Dst, DPitch, Width, Height};
  P.srcArray = SrcArray;
  P.srcPtr = {const_cast<void *>(Src), SPitch, Width, Height};
  P.extent = {Width, Height, 1};
  P.kind = cudaMemcpyKind(Kind);
  return P;
}

Error copy3D(device::Context &C, const cudaMemcpy3DParms *P,
             cudaStream_t Stream = nullptr, bool Wait = true) {
  if (!P)
    return invalidValue("null copy parameters");
  if (Error E = checkKind(P->kind))
    return E;
  if (!P->srcArray == !P->srcPtr.ptr || !P->dstArray == !P->dstPtr.ptr)
    return invalidValue("each side needs exactly one of an array or memory");
  auto ArrayOf = [](cudaArray_t A) -> Expected<ImageArray *> {
    if (!A)
      return nullptr;
    return checkedArray(A);
  };
  Expected<ImageArray *> SrcArray = ArrayOf(P->srcArray);
  if (!SrcArray)
    return SrcArray.takeError();
  Expected<ImageArray *> DstArray = ArrayOf(P->dstArray);
  if (!DstArray)
    return DstArray.takeError();
  // Extents and positions count the arrays' elements if one takes part,
  // bytes otherwise.
  auto ElemBytes = [](const ImageArray *A) -> size_t {
    return A ? A->Resource.Format.getTexelBytes() : 1;
  };
  size_t Elem = std::max(ElemBytes(*SrcArray), ElemBytes(*DstArray));
  if (*SrcArray && *DstArray && ElemBytes(*SrcArray) != ElemBytes(*DstArray))
    return invalidValue("arrays of different texel sizes");
  size_t Width = P->extent.width * Elem;
  auto End = [&](const ImageArray *A, const cudaPitchedPtr &Ptr,
                 const cudaPos &Pos) -> Expected<CopyEnd> {
    if (A)
      return CopyEnd::ofArray(*A, Pos.x * Elem, Pos.y, Pos.z);
    if (Width > Ptr.pitch)
      return invalidValue("a row is wider than its pitch");
    return CopyEnd::ofMemory(Ptr.ptr, Ptr.pitch, Ptr.ysize, Pos.x, Pos.y,
                             Pos.z);
  };
  if (!Width)
    return Error::success();
  Expected<CopyEnd> Src = End(*SrcArray, P->srcPtr, P->srcPos);
  if (!Src)
    return Src.takeError();
  Expected<CopyEnd> Dst = End(*DstArray, P->dstPtr, P->dstPos);
  if (!Dst)
    return Dst.takeError();
  return copyOn(C, *Dst, *Src, Width, std::max<size_t>(P->extent.height, 1),
                std::max<size_t>(P->extent.depth, 1), *P, Stream, Wait);
}

/// A resource descriptor as the runtime's resource, checked against the
/// device memory it names.
Expected<runtime::ImageResource> toResource(device::Context &C,
                                            const cudaResourceDesc &D) {
  if (D.flags)
    return invalidValue("resource descriptor flags must be zero");
  switch (D.resType) {
  case cudaResourceTypeArray: {
    Expected<ImageArray *> A = checkedArray(D.res.array.array);
    if (!A)
      return A.takeError();
    return (*A)->Resource;
  }
  case cudaResourceTypeLinear: {
    Expected<runtime::TexelFormat> F = toFormat(D.res.linear.desc);
    if (!F)
      return F.takeError();
    return makeLinearResource(C, D.res.linear.devPtr, *F,
                              D.res.linear.sizeInBytes);
  }
  case cudaResourceTypePitch2D: {
    const auto &P = D.res.pitch2D;
    Expected<runtime::TexelFormat> F = toFormat(P.desc);
    if (!F)
      return F.takeError();
    return makePitch2DResource(C, P.devPtr, *F, P.width, P.height,
                               P.pitchInBytes);
  }
  case cudaResourceTypeMipmappedArray: {
    Expected<MipmappedImageArray *> M =
        lookupMipmappedImageArray(D.res.mipmap.mipmap);
    if (!M)
      return M.takeError();
    return (*M)->Resource;
  }
  }
  return invalidValue("unknown resource type " + Twine(int(D.resType)));
}

Expected<runtime::SamplerState> toSampler(const cudaTextureDesc &T) {
  runtime::SamplerState S;
  for (unsigned K = 0; K != 3; ++K) {
    int M = T.addressMode[K];
    if (M < cudaAddressModeWrap || M > cudaAddressModeBorder)
      return invalidValue("unknown address mode " + Twine(M));
    S.Address[K] = runtime::AddressMode(M);
  }
  if (T.filterMode != cudaFilterModePoint &&
      T.filterMode != cudaFilterModeLinear)
    return invalidValue("unknown filter mode " + Twine(int(T.filterMode)));
  if (T.readMode != cudaReadModeElementType &&
      T.readMode != cudaReadModeNormalizedFloat)
    return invalidValue("unknown read mode " + Twine(int(T.readMode)));
  if (T.sRGB)
    return notSupported("sRGB textures");
  if (T.seamlessCubemap)
    return notSupported("seamless cubemap filtering (filtering stays within a "
                        "face)");
  if (T.mipmapFilterMode != cudaFilterModePoint &&
      T.mipmapFilterMode != cudaFilterModeLinear)
    return invalidValue("unknown mipmap filter mode " +
                        Twine(int(T.mipmapFilterMode)));
  S.MipFilter = runtime::FilterMode(T.mipmapFilterMode);
  S.LodBias = T.mipmapLevelBias;
  S.MinLodClamp = T.minMipmapLevelClamp;
  S.MaxLodClamp = T.maxMipmapLevelClamp;
  S.Filter = runtime::FilterMode(T.filterMode);
  S.Read = runtime::ReadMode(T.readMode);
  S.NormalizedCoords = T.normalizedCoords != 0;
  std::memcpy(S.BorderColor, T.borderColor, sizeof S.BorderColor);
  return S;
}

Error createObject(device::Context &C, unsigned long long *Out,
                   const cudaResourceDesc *Res, const cudaTextureDesc *Tex) {
  if (!Out || !Res)
    return invalidValue("null object or resource descriptor");
  runtime::ImageObject O;
  O.IsSurface = !Tex;
  Expected<runtime::ImageResource> R = toResource(C, *Res);
  if (!R)
    return R.takeError();
  O.Resource = *R;
  if (Tex) {
    Expected<runtime::SamplerState> S = toSampler(*Tex);
    if (!S)
      return S.takeError();
    O.Sampler = *S;
  }
  // (toResource has checked the array.)
  const auto *Array =
      Res->resType == cudaResourceTypeArray
          ? reinterpret_cast<const ImageArray *>(Res->res.array.array)
          : nullptr;
  Expected<uint64_t> H = getObjects().create(O, *Res, Tex, Array);
  if (!H)
    return H.takeError();
  *Out = *H;
  return Error::success();
}

Error destroyObject(uint64_t H, bool IsSurface) {
  if (!H || getObjects().destroy(H, IsSurface))
    return Error::success();
  return invalidValue(IsSurface ? "not a surface object"
                                : "not a texture object");
}

using Descriptors =
    ImageObjects<cudaResourceDesc, cudaTextureDesc>::Descriptors;

/// The descriptors object H was made from.
Expected<Descriptors> getDescriptors(uint64_t H, bool IsSurface) {
  if (std::optional<Descriptors> D = getObjects().get(H, IsSurface))
    return *D;
  return invalidValue(IsSurface ? "not a surface object"
                                : "not a texture object");
}

/// For the calls that need no context.
cudaError_t result(Error E) { return setLastError(std::move(E)); }

} // namespace

// Arrays.

PTXJIT_CUDART_API cudaChannelFormatDesc
cudaCreateChannelDesc(int X, int Y, int Z, int W, cudaChannelFormatKind F) {
  return {X, Y, Z, W, F};
}

PTXJIT_CUDART_API cudaError_t
cudaMalloc3DArray(cudaArray_t *Array, const cudaChannelFormatDesc *Desc,
                  cudaExtent Extent, unsigned Flags) {
  return withContext([&](device::Context &C) -> Error {
    if (!Array || !Desc)
      return invalidValue("null array or channel descriptor");
    *Array = nullptr;
    Expected<runtime::TexelFormat> F = toFormat(*Desc);
    if (!F)
      return F.takeError();
    Expected<ImageArray *> A = createImageArray(C, *F, toExtent(Extent), Flags);
    if (!A)
      return A.takeError();
    *Array = toHandle(*A);
    return Error::success();
  });
}

PTXJIT_CUDART_API cudaError_t cudaMallocArray(cudaArray_t *Array,
                                              const cudaChannelFormatDesc *Desc,
                                              size_t Width, size_t Height,
                                              unsigned Flags) {
  return cudaMalloc3DArray(Array, Desc, cudaExtent{Width, Height, 0},
                           Flags & ~unsigned(cudaArrayLayered));
}

PTXJIT_CUDART_API cudaError_t cudaFreeArray(cudaArray_t Array) {
  if (!Array)
    return setLastError(cudaSuccess);
  return withContext(
      [&](device::Context &C) { return destroyImageArray(C, Array); });
}

PTXJIT_CUDART_API cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc *Desc,
                                               cudaExtent *Extent,
                                               unsigned *Flags,
                                               cudaArray_t Array) {
  Expected<ImageArray *> A = checkedArray(Array);
  if (!A)
    return result(A.takeError());
  if (Desc)
    *Desc = toChannelDesc((*A)->Resource.Format);
  if (Extent)
    *Extent = {(*A)->Extent.Width, (*A)->Extent.Height, (*A)->Extent.Depth};
  if (Flags)
    *Flags = (*A)->Flags;
  return setLastError(cudaSuccess);
}

PTXJIT_CUDART_API cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc *Desc,
                                                 cudaArray_const_t Array) {
  if (!Desc)
    return setLastError(cudaErrorInvalidValue);
  Expected<ImageArray *> A = checkedArray(Array);
  if (!A)
    return result(A.takeError());
  *Desc = toChannelDesc((*A)->Resource.Format);
  return setLastError(cudaSuccess);
}

PTXJIT_CUDART_API cudaError_t cudaMalloc3D(cudaPitchedPtr *Ptr,
                                           cudaExtent Extent) {
  if (!Ptr)
    return setLastError(cudaErrorInvalidValue);
  // Rows aligned as cudaMallocPitch aligns them.
  size_t Pitch = (Extent.width + 511) / 512 * 512;
  void *Mem = nullptr;
  cudaError_t E = cudaMalloc(&Mem, Pitch * Extent.height * Extent.depth);
  if (E == cudaSuccess)
    *Ptr = {Mem, Pitch, Extent.width, Extent.height};
  return E;
}

PTXJIT_CUDART_API cudaError_t cudaMallocMipmappedArray(
    cudaMipmappedArray_t *Out, const cudaChannelFormatDesc *Desc,
    cudaExtent Extent, unsigned NumLevels, unsigned Flags) {
  return withContext([&](device::Context &C) -> Error {
    if (!Out || !Desc)
      return invalidValue("null mipmapped array or channel descriptor");
    *Out = nullptr;
    Expected<runtime::TexelFormat> F = toFormat(*Desc);
    if (!F)
      return F.takeError();
    Expected<MipmappedImageArray *> M =
        createMipmappedImageArray(C, *F, toExtent(Extent), NumLevels, Flags);
    if (!M)
      return M.takeError();
    *Out = reinterpret_cast<cudaMipmappedArray_t>(*M);
    return Error::success();
  });
}

PTXJIT_CUDART_API cudaError_t cudaGetMipmappedArrayLevel(
    cudaArray_t *Level, cudaMipmappedArray_const_t M, unsigned L) {
  if (!Level)
    return setLastError(cudaErrorInvalidValue);
  Expected<MipmappedImageArray *> A = lookupMipmappedImageArray(M);
  if (!A)
    return result(A.takeError());
  if (L >= (*A)->Levels.size())
    return result(invalidValue("level " + Twine(L) + " of " +
                               Twine((*A)->Levels.size())));
  *Level = toHandle((*A)->Levels[L]);
  return setLastError(cudaSuccess);
}

PTXJIT_CUDART_API cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t M) {
  if (!M)
    return setLastError(cudaSuccess);
  return withContext(
      [&](device::Context &C) { return destroyMipmappedImageArray(C, M); });
}

// Copies.

/// cudaMemcpy2DToArray(Async): Height rows of Width bytes from Src.
static cudaError_t copyToArray(cudaArray_t Dst, size_t WOffset, size_t HOffset,
                               const void *Src, size_t SPitch, size_t Width,
                               size_t Height, int Kind, cudaStream_t Stream,
                               bool Wait) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkKind(Kind))
      return E;
    Expected<ImageArray *> A = checkedArray(Dst);
    if (!A)
      return A.takeError();
    if (Width > SPitch)
      return invalidValue("a row is wider than its pitch");
    return copyOn(
        C, CopyEnd::ofArray(**A, WOffset, HOffset, 0),
        CopyEnd::ofMemory(Src, SPitch, Height, 0, 0, 0), Width, Height, 1,
        nodeOf2D(Dst, nullptr, 0, nullptr, Src, SPitch, Width, Height, Kind),
        Stream, Wait);
  });
}

/// cudaMemcpy2DFromArray(Async): Height rows of Width bytes into Dst.
static cudaError_t copyFromArray(void *Dst, size_t DPitch,
                                 cudaArray_const_t Src, size_t WOffset,
                                 size_t HOffset, size_t Width, size_t Height,
                                 int Kind, cudaStream_t Stream, bool Wait) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkKind(Kind))
      return E;
    Expected<ImageArray *> A = checkedArray(Src);
    if (!A)
      return A.takeError();
    if (Width > DPitch)
      return invalidValue("a row is wider than its pitch");
    return copyOn(C, CopyEnd::ofMemory(Dst, DPitch, Height, 0, 0, 0),
                  CopyEnd::ofArray(**A, WOffset, HOffset, 0), Width, Height, 1,
                  nodeOf2D(nullptr, Dst, DPitch, const_cast<cudaArray_t>(Src),
                           nullptr, 0, Width, Height, Kind),
                  Stream, Wait);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemcpy2DToArray(
    cudaArray_t Dst, size_t WOffset, size_t HOffset, const void *Src,
    size_t SPitch, size_t Width, size_t Height, int Kind) {
  return copyToArray(Dst, WOffset, HOffset, Src, SPitch, Width, Height, Kind,
                     nullptr, /*Wait=*/true);
}

PTXJIT_CUDART_API cudaError_t cudaMemcpy2DToArrayAsync(
    cudaArray_t Dst, size_t WOffset, size_t HOffset, const void *Src,
    size_t SPitch, size_t Width, size_t Height, int Kind, cudaStream_t Stream) {
  return copyToArray(Dst, WOffset, HOffset, Src, SPitch, Width, Height, Kind,
                     Stream, /*Wait=*/false);
}

PTXJIT_CUDART_API cudaError_t cudaMemcpy2DFromArray(
    void *Dst, size_t DPitch, cudaArray_const_t Src, size_t WOffset,
    size_t HOffset, size_t Width, size_t Height, int Kind) {
  return copyFromArray(Dst, DPitch, Src, WOffset, HOffset, Width, Height, Kind,
                       nullptr, /*Wait=*/true);
}

PTXJIT_CUDART_API cudaError_t
cudaMemcpy2DFromArrayAsync(void *Dst, size_t DPitch, cudaArray_const_t Src,
                           size_t WOffset, size_t HOffset, size_t Width,
                           size_t Height, int Kind, cudaStream_t Stream) {
  return copyFromArray(Dst, DPitch, Src, WOffset, HOffset, Width, Height, Kind,
                       Stream, /*Wait=*/false);
}

PTXJIT_CUDART_API cudaError_t cudaMemcpy2DArrayToArray(
    cudaArray_t Dst, size_t WOffsetDst, size_t HOffsetDst,
    cudaArray_const_t Src, size_t WOffsetSrc, size_t HOffsetSrc, size_t Width,
    size_t Height, int Kind) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkKind(Kind))
      return E;
    Expected<ImageArray *> To = checkedArray(Dst);
    if (!To)
      return To.takeError();
    Expected<ImageArray *> From = checkedArray(Src);
    if (!From)
      return From.takeError();
    return copyImageBlock(C, CopyEnd::ofArray(**To, WOffsetDst, HOffsetDst, 0),
                          CopyEnd::ofArray(**From, WOffsetSrc, HOffsetSrc, 0),
                          Width, Height, 1, nullptr, /*Wait=*/true);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *P) {
  return withContext([&](device::Context &C) { return copy3D(C, P); });
}

PTXJIT_CUDART_API cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms *P,
                                                cudaStream_t Stream) {
  return withContext(
      [&](device::Context &C) { return copy3D(C, P, Stream, /*Wait=*/false); });
}

// Texture and surface objects.

PTXJIT_CUDART_API cudaError_t cudaCreateTextureObject(
    cudaTextureObject_t *Tex, const cudaResourceDesc *Res,
    const cudaTextureDesc *TexDesc, const cudaResourceViewDesc *View) {
  return withContext([&](device::Context &C) -> Error {
    if (!TexDesc)
      return invalidValue("null texture descriptor");
    if (View)
      return notSupported("resource views");
    return createObject(C, Tex, Res, TexDesc);
  });
}

PTXJIT_CUDART_API cudaError_t cudaDestroyTextureObject(cudaTextureObject_t T) {
  return result(destroyObject(T, /*IsSurface=*/false));
}

PTXJIT_CUDART_API cudaError_t
cudaGetTextureObjectResourceDesc(cudaResourceDesc *Res, cudaTextureObject_t T) {
  if (!Res)
    return setLastError(cudaErrorInvalidValue);
  Expected<Descriptors> D = getDescriptors(T, false);
  if (!D)
    return result(D.takeError());
  *Res = D->Res;
  return setLastError(cudaSuccess);
}

PTXJIT_CUDART_API cudaError_t
cudaGetTextureObjectTextureDesc(cudaTextureDesc *Tex, cudaTextureObject_t T) {
  if (!Tex)
    return setLastError(cudaErrorInvalidValue);
  Expected<Descriptors> D = getDescriptors(T, false);
  if (!D)
    return result(D.takeError());
  *Tex = D->Tex;
  return setLastError(cudaSuccess);
}

PTXJIT_CUDART_API cudaError_t cudaCreateSurfaceObject(
    cudaSurfaceObject_t *Surf, const cudaResourceDesc *Res) {
  return withContext(
      [&](device::Context &C) { return createObject(C, Surf, Res, nullptr); });
}

PTXJIT_CUDART_API cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t S) {
  return result(destroyObject(S, /*IsSurface=*/true));
}

PTXJIT_CUDART_API cudaError_t
cudaGetSurfaceObjectResourceDesc(cudaResourceDesc *Res, cudaSurfaceObject_t S) {
  if (!Res)
    return setLastError(cudaErrorInvalidValue);
  Expected<Descriptors> D = getDescriptors(S, true);
  if (!D)
    return result(D.takeError());
  *Res = D->Res;
  return setLastError(cudaSuccess);
}
