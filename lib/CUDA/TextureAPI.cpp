//===- TextureAPI.cpp - Arrays, texture and surface objects ---------------===//
//
// A cudaArray is this library's object: device memory laid out row after
// row (no tiling), its channel format and extent. A cudaMipmappedArray
// holds its levels one after the other in one allocation, each level also
// a cudaArray (cudaGetMipmappedArrayLevel) that does not own its memory.
// Cubemaps are layered 2D arrays of 6 faces per layer. Texture and surface
// objects are handles of the runtime's object table (ptxjit/Runtime/
// Textures.h), which the kernels' tex and suld/sust look up; the
// descriptors they were made from are kept here for the Get functions.
// Copies to and from arrays are ordered on the legacy default stream and
// return when done, like cudaMemcpy.
//
//===----------------------------------------------------------------------===//

#include "APIHelpers.h"
#include "ptxjit/Runtime/Textures.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <cstring>
#include <mutex>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

extern "C" cudaError_t cudaMalloc(void **Ptr, size_t Size); // MemoryAPI.cpp

struct cudaArray {
  void *Data = nullptr;
  cudaChannelFormatDesc Desc;
  cudaExtent Extent; ///< as allocated (0 for absent dimensions)
  unsigned Flags = 0;
  runtime::ImageResource Resource; ///< Data, format and layout
  bool IsLevel = false; ///< a level of a mipmapped array, freed with it
};

struct cudaMipmappedArray {
  void *Data = nullptr;
  cudaChannelFormatDesc Desc;
  cudaExtent Extent;
  unsigned Flags = 0;
  runtime::ImageResource Resource; ///< level 0, NumLevels and LevelOffset
  std::vector<cudaArray *> Levels;
};

namespace {

/// The live arrays and objects of the process.
struct TextureState {
  std::mutex Lock;
  DenseSet<const cudaArray *> Arrays;
  DenseSet<const cudaMipmappedArray *> Mipmapped;
  struct Descriptors {
    cudaResourceDesc Res;
    cudaTextureDesc Tex;
    bool IsSurface;
  };
  DenseMap<uint64_t, Descriptors> Objects;

  /// Never destroyed: a program may free arrays from its own static
  /// destructors, and arrays it never frees stay reachable until it exits,
  /// as a GPU context keeps them (LeakSanitizer would report them lost).
  static TextureState &get() {
    static TextureState *S = new TextureState;
    return *S;
  }
  bool isArray(const cudaArray *A) {
    std::lock_guard<std::mutex> G(Lock);
    return A && Arrays.contains(A);
  }
};

Error invalidHandle(const Twine &Why) {
  return device::makeDeviceError(device::ErrorCode::InvalidResourceHandle, Why);
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

/// The layout of an array of Desc's texels, Extent and Flags (level 0),
/// its memory not yet allocated.
Expected<runtime::ImageResource> layoutArray(const cudaChannelFormatDesc *Desc,
                                             cudaExtent Extent,
                                             unsigned Flags) {
  if (!Desc)
    return invalidValue("null channel descriptor");
  if (Flags & ~unsigned(cudaArrayLayered | cudaArraySurfaceLoadStore |
                        cudaArrayTextureGather | cudaArrayCubemap))
    return notSupported("array flags " + Twine(Flags));
  Expected<runtime::TexelFormat> F = toFormat(*Desc);
  if (!F)
    return F.takeError();
  bool Layered = Flags & cudaArrayLayered;
  bool Cubemap = Flags & cudaArrayCubemap;
  if (!Extent.width || (Extent.depth && !Extent.height && !Layered) ||
      (Layered && !Extent.depth))
    return invalidValue("the extent has no texels");
  if (Cubemap && (Extent.width != Extent.height || !Extent.depth ||
                  Extent.depth % 6 != 0 || (!Layered && Extent.depth != 6)))
    return invalidValue("a cubemap has square faces and a depth of 6 (6 per "
                        "layer when layered)");
  runtime::ImageResource R;
  R.Kind = runtime::ImageResource::Array;
  R.Format = *F;
  R.Layered = Layered;
  R.Cubemap = Cubemap;
  R.Width = Extent.width;
  R.Height = std::max<size_t>(Extent.height, 1);
  R.Depth = std::max<size_t>(Extent.depth, 1);
  // A layered 1D array keeps its layers as rows.
  if (Layered && !Extent.height)
    R.Height = Extent.depth, R.Depth = 1;
  R.Dimensions = Extent.height == 0                    ? 1
                 : Layered || Cubemap || !Extent.depth ? 2
                                                       : 3;
  R.RowPitch = R.Width * F->getTexelBytes();
  R.SlicePitch = R.RowPitch * R.Height;
  const uint64_t Limit = uint64_t(1) << 40;
  if (R.Width > Limit || R.Height > Limit || R.Depth > Limit ||
      R.RowPitch > Limit / R.Height || R.SlicePitch > Limit / R.Depth)
    return device::makeDeviceError(device::ErrorCode::MemoryAllocation,
                                   "the array is too large");
  return R;
}

/// A new cudaArray for R, registered.
cudaArray *makeArray(const runtime::ImageResource &R,
                     const cudaChannelFormatDesc &Desc, cudaExtent Extent,
                     unsigned Flags, bool IsLevel) {
  auto *A = new cudaArray;
  A->Data = R.Data;
  A->Desc = Desc;
  A->Extent = Extent;
  A->Flags = Flags;
  A->Resource = R;
  A->IsLevel = IsLevel;
  TextureState &S = TextureState::get();
  std::lock_guard<std::mutex> G(S.Lock);
  S.Arrays.insert(A);
  return A;
}

Error createArray(device::Context &C, cudaArray_t *Out,
                  const cudaChannelFormatDesc *Desc, cudaExtent Extent,
                  unsigned Flags) {
  if (!Out)
    return invalidValue("null array");
  *Out = nullptr;
  Expected<runtime::ImageResource> R = layoutArray(Desc, Extent, Flags);
  if (!R)
    return R.takeError();
  Expected<void *> Mem = C.allocate(R->SlicePitch * R->Depth);
  if (!Mem)
    return Mem.takeError();
  R->Data = static_cast<char *>(*Mem);
  *Out = makeArray(*R, *Desc, Extent, Flags, /*IsLevel=*/false);
  return Error::success();
}

/// The extent of level L of an array of Extent: the dimensions halved (at
/// least 1), the layers kept.
cudaExtent levelExtent(cudaExtent Extent, unsigned Flags, unsigned L) {
  auto Half = [&](size_t N) { return N ? std::max<size_t>(N >> L, 1) : 0; };
  bool KeepDepth = Flags & (cudaArrayLayered | cudaArrayCubemap);
  return {Half(Extent.width), Half(Extent.height),
          KeepDepth ? Extent.depth : Half(Extent.depth)};
}

Error createMipmappedArray(device::Context &C, cudaMipmappedArray_t *Out,
                           const cudaChannelFormatDesc *Desc, cudaExtent Extent,
                           unsigned NumLevels, unsigned Flags) {
  if (!Out)
    return invalidValue("null mipmapped array");
  *Out = nullptr;
  Expected<runtime::ImageResource> R = layoutArray(Desc, Extent, Flags);
  if (!R)
    return R.takeError();
  // As many levels as halving the largest dimension allows, at most.
  uint64_t Largest = std::max(R->Width, R->Dimensions >= 2 ? R->Height : 1);
  if (R->Dimensions >= 3)
    Largest = std::max(Largest, R->Depth);
  unsigned Full = Log2_64(Largest) + 1;
  NumLevels = std::clamp(NumLevels ? NumLevels : Full, 1u, Full);
  if (NumLevels > runtime::MaxMipLevels)
    return invalidValue("more mipmap levels than exist");
  R->NumLevels = NumLevels;
  uint64_t Bytes = 0;
  for (unsigned L = 0; L != NumLevels; ++L) {
    R->LevelOffset[L] = Bytes;
    runtime::ImageResource Level = R->getLevel(L);
    Bytes += Level.SlicePitch * Level.Depth;
  }
  Expected<void *> Mem = C.allocate(Bytes);
  if (!Mem)
    return Mem.takeError();
  R->Data = static_cast<char *>(*Mem);
  auto *M = new cudaMipmappedArray;
  M->Data = *Mem;
  M->Desc = *Desc;
  M->Extent = Extent;
  M->Flags = Flags;
  M->Resource = *R;
  for (unsigned L = 0; L != NumLevels; ++L) {
    runtime::ImageResource Level = R->getLevel(L);
    Level.NumLevels = 1;
    M->Levels.push_back(makeArray(Level, *Desc, levelExtent(Extent, Flags, L),
                                  Flags, /*IsLevel=*/true));
  }
  TextureState &S = TextureState::get();
  std::lock_guard<std::mutex> G(S.Lock);
  S.Mipmapped.insert(M);
  *Out = M;
  return Error::success();
}

Expected<cudaMipmappedArray *> checkedMipmapped(const void *M) {
  TextureState &S = TextureState::get();
  std::lock_guard<std::mutex> G(S.Lock);
  auto *P = static_cast<const cudaMipmappedArray *>(M);
  if (!P || !S.Mipmapped.contains(P))
    return invalidHandle("not a mipmapped array");
  return const_cast<cudaMipmappedArray *>(P);
}

/// Copies Depth slices of Height rows of Width bytes, queued on the legacy
/// default stream, and waits.
Error copyBlock(device::Context &C, char *Dst, size_t DPitch, size_t DSlice,
                const char *Src, size_t SPitch, size_t SSlice, size_t Width,
                size_t Height, size_t Depth) {
  C.enqueue(nullptr, [=] {
    for (size_t Z = 0; Z != Depth; ++Z)
      for (size_t Y = 0; Y != Height; ++Y)
        std::memmove(Dst + Z * DSlice + Y * DPitch,
                     Src + Z * SSlice + Y * SPitch, Width);
    return Error::success();
  });
  return C.getDefaultStream().synchronize();
}

/// One side of a copy: an array or pitched memory, at a position.
struct CopySide {
  char *Base = nullptr;
  size_t Pitch = 0, Slice = 0;
  const cudaArray *Array = nullptr;
};

/// The byte address of (X bytes, Y, Z) in Side, checked to hold a block of
/// Width bytes by Height by Depth when it is an array.
Expected<char *> locate(const CopySide &Side, size_t X, size_t Y, size_t Z,
                        size_t Width, size_t Height, size_t Depth) {
  if (Side.Array) {
    const runtime::ImageResource &R = Side.Array->Resource;
    if (X > R.RowPitch || Width > R.RowPitch - X || Y > R.Height ||
        Height > R.Height - Y || Z > R.Depth || Depth > R.Depth - Z)
      return invalidValue("the copy runs past the end of the array");
  }
  return Side.Base + Z * Side.Slice + Y * Side.Pitch + X;
}

CopySide arraySide(const cudaArray *A) {
  return {static_cast<char *>(A->Data), size_t(A->Resource.RowPitch),
          size_t(A->Resource.SlicePitch), A};
}

Expected<cudaArray *> checkedArray(cudaArray_const_t A) {
  if (!TextureState::get().isArray(A))
    return invalidHandle("not an array");
  return const_cast<cudaArray *>(A);
}

Error copy3D(device::Context &C, const cudaMemcpy3DParms *P) {
  if (!P)
    return invalidValue("null copy parameters");
  if (Error E = checkKind(P->kind))
    return E;
  if (!P->srcArray == !P->srcPtr.ptr || !P->dstArray == !P->dstPtr.ptr)
    return invalidValue("each side needs exactly one of an array or memory");
  CopySide Src, Dst;
  size_t Elem = 1, SrcElem = 1, DstElem = 1;
  auto Side = [&](cudaArray_t A, const cudaPitchedPtr &Ptr, CopySide &S,
                  size_t &ElemOut) -> Error {
    if (A) {
      Expected<cudaArray *> Arr = checkedArray(A);
      if (!Arr)
        return Arr.takeError();
      S = arraySide(*Arr);
      ElemOut = (*Arr)->Resource.Format.getTexelBytes();
      if (Elem != 1 && Elem != ElemOut)
        return invalidValue("arrays of different texel sizes");
      Elem = ElemOut;
      return Error::success();
    }
    S.Base = static_cast<char *>(Ptr.ptr);
    S.Pitch = Ptr.pitch;
    S.Slice = Ptr.pitch * Ptr.ysize;
    return Error::success();
  };
  if (Error E = Side(P->srcArray, P->srcPtr, Src, SrcElem))
    return E;
  if (Error E = Side(P->dstArray, P->dstPtr, Dst, DstElem))
    return E;
  // Extents count the array's elements if one takes part, bytes otherwise;
  // positions count each side's elements (bytes for memory).
  size_t Width = P->extent.width * Elem;
  size_t Height = std::max<size_t>(P->extent.height, 1);
  size_t Depth = std::max<size_t>(P->extent.depth, 1);
  if (!P->extent.width)
    return Error::success();
  if ((!Src.Array && Width > Src.Pitch) || (!Dst.Array && Width > Dst.Pitch))
    return invalidValue("a row is wider than its pitch");
  Expected<char *> S = locate(Src, P->srcPos.x * SrcElem, P->srcPos.y,
                              P->srcPos.z, Width, Height, Depth);
  if (!S)
    return S.takeError();
  Expected<char *> D = locate(Dst, P->dstPos.x * DstElem, P->dstPos.y,
                              P->dstPos.z, Width, Height, Depth);
  if (!D)
    return D.takeError();
  return copyBlock(C, *D, Dst.Pitch, Dst.Slice, *S, Src.Pitch, Src.Slice, Width,
                   Height, Depth);
}

/// A resource descriptor as the runtime's resource, checked against the
/// device memory it names.
Expected<runtime::ImageResource> toResource(device::Context &C,
                                            const cudaResourceDesc &D) {
  if (D.flags)
    return invalidValue("resource descriptor flags must be zero");
  auto CheckMemory = [&](void *Ptr, uint64_t Bytes) -> Error {
    std::optional<device::Allocation> A = C.getPointerInfo(Ptr);
    uint64_t Offset =
        A ? uint64_t(static_cast<char *>(Ptr) - static_cast<char *>(A->Base))
          : 0;
    if (!A || Bytes > A->Size - Offset)
      return invalidValue("the resource is not inside a device allocation");
    return Error::success();
  };
  runtime::ImageResource R;
  switch (D.resType) {
  case cudaResourceTypeArray: {
    Expected<cudaArray *> A = checkedArray(D.res.array.array);
    if (!A)
      return A.takeError();
    return (*A)->Resource;
  }
  case cudaResourceTypeLinear: {
    Expected<runtime::TexelFormat> F = toFormat(D.res.linear.desc);
    if (!F)
      return F.takeError();
    R.Kind = runtime::ImageResource::Linear;
    R.Format = *F;
    R.Width = D.res.linear.sizeInBytes / F->getTexelBytes();
    R.RowPitch = D.res.linear.sizeInBytes;
    R.SlicePitch = R.RowPitch;
    if (!R.Width)
      return invalidValue("the linear resource holds no texel");
    if (Error E = CheckMemory(D.res.linear.devPtr, D.res.linear.sizeInBytes))
      return std::move(E);
    R.Data = static_cast<char *>(D.res.linear.devPtr);
    return R;
  }
  case cudaResourceTypePitch2D: {
    const auto &P = D.res.pitch2D;
    Expected<runtime::TexelFormat> F = toFormat(P.desc);
    if (!F)
      return F.takeError();
    R.Kind = runtime::ImageResource::Pitch2D;
    R.Format = *F;
    R.Dimensions = 2;
    R.Width = P.width;
    R.Height = P.height;
    R.RowPitch = P.pitchInBytes;
    R.SlicePitch = P.pitchInBytes * P.height;
    if (!P.width || !P.height || P.pitchInBytes < P.width * F->getTexelBytes())
      return invalidValue("the pitched resource's rows do not fit its pitch");
    if (Error E = CheckMemory(P.devPtr, P.pitchInBytes * (P.height - 1) +
                                            P.width * F->getTexelBytes()))
      return std::move(E);
    R.Data = static_cast<char *>(P.devPtr);
    return R;
  }
  case cudaResourceTypeMipmappedArray: {
    Expected<cudaMipmappedArray *> M = checkedMipmapped(D.res.mipmap.mipmap);
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
  } else if (Res->resType != cudaResourceTypeArray ||
             !(Res->res.array.array->Flags & cudaArraySurfaceLoadStore)) {
    return invalidValue(
        "surfaces need an array made with cudaArraySurfaceLoadStore");
  }
  Expected<uint64_t> H = runtime::ImageObjectTable::get().create(O);
  if (!H)
    return invalidValue(toString(H.takeError()));
  TextureState &State = TextureState::get();
  std::lock_guard<std::mutex> G(State.Lock);
  TextureState::Descriptors &D = State.Objects[*H];
  D.Res = *Res;
  std::memset(&D.Tex, 0, sizeof D.Tex);
  if (Tex)
    D.Tex = *Tex;
  D.IsSurface = !Tex;
  *Out = *H;
  return Error::success();
}

Error destroyObject(uint64_t H, bool IsSurface) {
  if (!H)
    return Error::success();
  TextureState &State = TextureState::get();
  std::lock_guard<std::mutex> G(State.Lock);
  auto It = State.Objects.find(H);
  if (It == State.Objects.end() || It->second.IsSurface != IsSurface)
    return invalidValue(IsSurface ? "not a surface object"
                                  : "not a texture object");
  State.Objects.erase(It);
  runtime::ImageObjectTable::get().destroy(H);
  return Error::success();
}

/// The descriptors object H was made from.
Expected<TextureState::Descriptors> getDescriptors(uint64_t H, bool IsSurface) {
  TextureState &State = TextureState::get();
  std::lock_guard<std::mutex> G(State.Lock);
  auto It = State.Objects.find(H);
  if (It == State.Objects.end() || It->second.IsSurface != IsSurface)
    return invalidValue(IsSurface ? "not a surface object"
                                  : "not a texture object");
  return It->second;
}

/// For the calls that need no context.
cudaError_t result(Error E) { return setLastError(std::move(E)); }

} // namespace

// Arrays.

PTXJIT_CUDART_API cudaChannelFormatDesc
cudaCreateChannelDesc(int X, int Y, int Z, int W, cudaChannelFormatKind F) {
  return {X, Y, Z, W, F};
}

PTXJIT_CUDART_API cudaError_t cudaMallocArray(cudaArray_t *Array,
                                              const cudaChannelFormatDesc *Desc,
                                              size_t Width, size_t Height,
                                              unsigned Flags) {
  return withContext([&](device::Context &C) {
    return createArray(C, Array, Desc, cudaExtent{Width, Height, 0},
                       Flags & ~unsigned(cudaArrayLayered));
  });
}

PTXJIT_CUDART_API cudaError_t
cudaMalloc3DArray(cudaArray_t *Array, const cudaChannelFormatDesc *Desc,
                  cudaExtent Extent, unsigned Flags) {
  return withContext([&](device::Context &C) {
    return createArray(C, Array, Desc, Extent, Flags);
  });
}

PTXJIT_CUDART_API cudaError_t cudaFreeArray(cudaArray_t Array) {
  if (!Array)
    return setLastError(cudaSuccess);
  return withContext([&](device::Context &C) -> Error {
    TextureState &S = TextureState::get();
    {
      std::lock_guard<std::mutex> G(S.Lock);
      if (!S.Arrays.contains(Array))
        return invalidHandle("not an array");
      if (Array->IsLevel)
        return invalidValue("a level is freed with its mipmapped array");
      S.Arrays.erase(Array);
    }
    Error E = C.free(Array->Data);
    delete Array;
    return E;
  });
}

PTXJIT_CUDART_API cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc *Desc,
                                               cudaExtent *Extent,
                                               unsigned *Flags,
                                               cudaArray_t Array) {
  Expected<cudaArray *> A = checkedArray(Array);
  if (!A)
    return result(A.takeError());
  if (Desc)
    *Desc = (*A)->Desc;
  if (Extent)
    *Extent = (*A)->Extent;
  if (Flags)
    *Flags = (*A)->Flags;
  return setLastError(cudaSuccess);
}

PTXJIT_CUDART_API cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc *Desc,
                                                 cudaArray_const_t Array) {
  if (!Desc)
    return setLastError(cudaErrorInvalidValue);
  Expected<cudaArray *> A = checkedArray(Array);
  if (!A)
    return result(A.takeError());
  *Desc = (*A)->Desc;
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
  return withContext([&](device::Context &C) {
    return createMipmappedArray(C, Out, Desc, Extent, NumLevels, Flags);
  });
}

PTXJIT_CUDART_API cudaError_t cudaGetMipmappedArrayLevel(
    cudaArray_t *Level, cudaMipmappedArray_const_t M, unsigned L) {
  if (!Level)
    return setLastError(cudaErrorInvalidValue);
  Expected<cudaMipmappedArray *> A = checkedMipmapped(M);
  if (!A)
    return result(A.takeError());
  if (L >= (*A)->Levels.size())
    return result(invalidValue("level " + Twine(L) + " of " +
                               Twine((*A)->Levels.size())));
  *Level = (*A)->Levels[L];
  return setLastError(cudaSuccess);
}

PTXJIT_CUDART_API cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t M) {
  if (!M)
    return setLastError(cudaSuccess);
  return withContext([&](device::Context &C) -> Error {
    TextureState &S = TextureState::get();
    {
      std::lock_guard<std::mutex> G(S.Lock);
      if (!S.Mipmapped.erase(M))
        return invalidHandle("not a mipmapped array");
      for (cudaArray *Level : M->Levels)
        S.Arrays.erase(Level);
    }
    Error E = C.free(M->Data);
    for (cudaArray *Level : M->Levels)
      delete Level;
    delete M;
    return E;
  });
}

// Copies.

PTXJIT_CUDART_API cudaError_t cudaMemcpy2DToArray(
    cudaArray_t Dst, size_t WOffset, size_t HOffset, const void *Src,
    size_t SPitch, size_t Width, size_t Height, int Kind) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkKind(Kind))
      return E;
    Expected<cudaArray *> A = checkedArray(Dst);
    if (!A)
      return A.takeError();
    if (Width > SPitch)
      return invalidValue("a row is wider than its pitch");
    CopySide D = arraySide(*A);
    Expected<char *> To = locate(D, WOffset, HOffset, 0, Width, Height, 1);
    if (!To)
      return To.takeError();
    return copyBlock(C, *To, D.Pitch, 0, static_cast<const char *>(Src), SPitch,
                     0, Width, Height, 1);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemcpy2DFromArray(
    void *Dst, size_t DPitch, cudaArray_const_t Src, size_t WOffset,
    size_t HOffset, size_t Width, size_t Height, int Kind) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkKind(Kind))
      return E;
    Expected<cudaArray *> A = checkedArray(Src);
    if (!A)
      return A.takeError();
    if (Width > DPitch)
      return invalidValue("a row is wider than its pitch");
    CopySide S = arraySide(*A);
    Expected<char *> From = locate(S, WOffset, HOffset, 0, Width, Height, 1);
    if (!From)
      return From.takeError();
    return copyBlock(C, static_cast<char *>(Dst), DPitch, 0, *From, S.Pitch, 0,
                     Width, Height, 1);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *P) {
  return withContext([&](device::Context &C) { return copy3D(C, P); });
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
  Expected<TextureState::Descriptors> D = getDescriptors(T, false);
  if (!D)
    return result(D.takeError());
  *Res = D->Res;
  return setLastError(cudaSuccess);
}

PTXJIT_CUDART_API cudaError_t
cudaGetTextureObjectTextureDesc(cudaTextureDesc *Tex, cudaTextureObject_t T) {
  if (!Tex)
    return setLastError(cudaErrorInvalidValue);
  Expected<TextureState::Descriptors> D = getDescriptors(T, false);
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
  Expected<TextureState::Descriptors> D = getDescriptors(S, true);
  if (!D)
    return result(D.takeError());
  *Res = D->Res;
  return setLastError(cudaSuccess);
}
