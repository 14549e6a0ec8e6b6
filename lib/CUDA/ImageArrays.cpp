//===- ImageArrays.cpp - Arrays and texture memory of both CUDA libraries -===//

#include "ImageArrays.h"
#include "ptxjit/Device/Context.h"
#include "ptxjit/Device/DeviceError.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <cstring>
#include <mutex>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

namespace {

/// The live arrays of the process. Never destroyed: a program may free
/// arrays from its own static destructors, and arrays it never frees stay
/// reachable until it exits, as a GPU context keeps them (LeakSanitizer
/// would report them lost).
struct ArrayRegistry {
  std::mutex Lock;
  DenseSet<const ImageArray *> Arrays;
  DenseSet<const MipmappedImageArray *> Mipmapped;
  static ArrayRegistry &get() {
    static ArrayRegistry *R = new ArrayRegistry;
    return *R;
  }
};

Error invalidValue(const Twine &Why) {
  return device::makeDeviceError(device::ErrorCode::InvalidValue, Why);
}

Error invalidHandle(const Twine &Why) {
  return device::makeDeviceError(device::ErrorCode::InvalidResourceHandle, Why);
}

/// The layout of level 0 of an array of F's texels, E and Flags, its memory
/// not yet allocated.
Expected<runtime::ImageResource> layoutArray(runtime::TexelFormat F,
                                             ArrayExtent E, unsigned Flags) {
  if (Flags & ~unsigned(ArrayLayered | ArraySurfaceLoadStore |
                        ArrayTextureGather | ArrayCubemap))
    return device::makeDeviceError(device::ErrorCode::NotSupported,
                                   "array flags " + Twine(Flags));
  bool Layered = Flags & ArrayLayered;
  bool Cubemap = Flags & ArrayCubemap;
  if (!E.Width || (E.Depth && !E.Height && !Layered) || (Layered && !E.Depth))
    return invalidValue("the extent has no texels");
  if (Cubemap && (E.Width != E.Height || !E.Depth || E.Depth % 6 != 0 ||
                  (!Layered && E.Depth != 6)))
    return invalidValue("a cubemap has square faces and a depth of 6 (6 per "
                        "layer when layered)");
  runtime::ImageResource R;
  R.Kind = runtime::ImageResource::Array;
  R.Format = F;
  R.Layered = Layered;
  R.Cubemap = Cubemap;
  R.Width = E.Width;
  R.Height = std::max<size_t>(E.Height, 1);
  R.Depth = std::max<size_t>(E.Depth, 1);
  // A layered 1D array keeps its layers as rows.
  if (Layered && !E.Height)
    R.Height = E.Depth, R.Depth = 1;
  R.Dimensions = E.Height == 0 ? 1 : Layered || Cubemap || !E.Depth ? 2 : 3;
  R.RowPitch = R.Width * F.getTexelBytes();
  R.SlicePitch = R.RowPitch * R.Height;
  const uint64_t Limit = uint64_t(1) << 40;
  if (R.Width > Limit || R.Height > Limit || R.Depth > Limit ||
      R.RowPitch > Limit / R.Height || R.SlicePitch > Limit / R.Depth)
    return device::makeDeviceError(device::ErrorCode::MemoryAllocation,
                                   "the array is too large");
  return R;
}

/// A new array over R's memory, registered.
ImageArray *makeArray(const runtime::ImageResource &R, ArrayExtent E,
                      unsigned Flags, bool IsLevel) {
  auto *A = new ImageArray;
  A->Resource = R;
  A->Extent = E;
  A->Flags = Flags;
  A->IsLevel = IsLevel;
  ArrayRegistry &Reg = ArrayRegistry::get();
  std::lock_guard<std::mutex> G(Reg.Lock);
  Reg.Arrays.insert(A);
  return A;
}

/// The extent of level L of an array of E: the dimensions halved (at least
/// 1), the layers kept.
ArrayExtent levelExtent(ArrayExtent E, unsigned Flags, unsigned L) {
  auto Half = [&](size_t N) { return N ? std::max<size_t>(N >> L, 1) : 0; };
  bool KeepDepth = Flags & (ArrayLayered | ArrayCubemap);
  return {Half(E.Width), Half(E.Height), KeepDepth ? E.Depth : Half(E.Depth)};
}

} // namespace

Expected<ImageArray *> cuda::createImageArray(device::Context &C,
                                              runtime::TexelFormat F,
                                              ArrayExtent E, unsigned Flags) {
  Expected<runtime::ImageResource> R = layoutArray(F, E, Flags);
  if (!R)
    return R.takeError();
  Expected<void *> Mem = C.allocate(R->SlicePitch * R->Depth);
  if (!Mem)
    return Mem.takeError();
  R->Data = static_cast<char *>(*Mem);
  return makeArray(*R, E, Flags, /*IsLevel=*/false);
}

Expected<MipmappedImageArray *>
cuda::createMipmappedImageArray(device::Context &C, runtime::TexelFormat F,
                                ArrayExtent E, unsigned NumLevels,
                                unsigned Flags) {
  Expected<runtime::ImageResource> R = layoutArray(F, E, Flags);
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
  auto *M = new MipmappedImageArray;
  M->Resource = *R;
  M->Extent = E;
  M->Flags = Flags;
  for (unsigned L = 0; L != NumLevels; ++L) {
    runtime::ImageResource Level = R->getLevel(L);
    Level.NumLevels = 1;
    M->Levels.push_back(
        makeArray(Level, levelExtent(E, Flags, L), Flags, /*IsLevel=*/true));
  }
  ArrayRegistry &Reg = ArrayRegistry::get();
  std::lock_guard<std::mutex> G(Reg.Lock);
  Reg.Mipmapped.insert(M);
  return M;
}

Error cuda::destroyImageArray(device::Context &C, const void *Handle) {
  auto *A = static_cast<const ImageArray *>(Handle);
  ArrayRegistry &Reg = ArrayRegistry::get();
  {
    std::lock_guard<std::mutex> G(Reg.Lock);
    if (!Reg.Arrays.contains(A))
      return invalidHandle("not an array");
    if (A->IsLevel)
      return invalidValue("a level is freed with its mipmapped array");
    Reg.Arrays.erase(A);
  }
  Error E = C.free(A->Resource.Data);
  delete A;
  return E;
}

Error cuda::destroyMipmappedImageArray(device::Context &C, const void *Handle) {
  auto *M = static_cast<const MipmappedImageArray *>(Handle);
  ArrayRegistry &Reg = ArrayRegistry::get();
  {
    std::lock_guard<std::mutex> G(Reg.Lock);
    if (!Reg.Mipmapped.erase(M))
      return invalidHandle("not a mipmapped array");
    for (ImageArray *Level : M->Levels)
      Reg.Arrays.erase(Level);
  }
  Error E = C.free(M->Resource.Data);
  for (ImageArray *Level : M->Levels)
    delete Level;
  delete M;
  return E;
}

Expected<ImageArray *> cuda::lookupImageArray(const void *Handle) {
  auto *A = static_cast<const ImageArray *>(Handle);
  ArrayRegistry &Reg = ArrayRegistry::get();
  std::lock_guard<std::mutex> G(Reg.Lock);
  if (!A || !Reg.Arrays.contains(A))
    return invalidHandle("not an array");
  return const_cast<ImageArray *>(A);
}

Expected<MipmappedImageArray *>
cuda::lookupMipmappedImageArray(const void *Handle) {
  auto *M = static_cast<const MipmappedImageArray *>(Handle);
  ArrayRegistry &Reg = ArrayRegistry::get();
  std::lock_guard<std::mutex> G(Reg.Lock);
  if (!M || !Reg.Mipmapped.contains(M))
    return invalidHandle("not a mipmapped array");
  return const_cast<MipmappedImageArray *>(M);
}

namespace {
/// An array's rows and slices as copies address them. A layered 1D array
/// (extent W x 0 x L) keeps its layers as rows, but CUDA copies it as L
/// slices of one row each: extent W x 1 x L, the layer in z.
struct CopyView {
  size_t Height, Depth, SlicePitch;
};
CopyView getCopyView(const ImageArray &A) {
  const runtime::ImageResource &R = A.Resource;
  if (R.Layered && !A.Extent.Height)
    return {1, R.Height, R.RowPitch};
  return {R.Height, R.Depth, R.SlicePitch};
}
} // namespace

CopyEnd CopyEnd::ofArray(const ImageArray &A, size_t XBytes, size_t Y,
                         size_t Z) {
  CopyEnd End;
  End.Base = A.Resource.Data;
  End.Pitch = A.Resource.RowPitch;
  End.SlicePitch = getCopyView(A).SlicePitch;
  End.Array = &A;
  End.XBytes = XBytes, End.Y = Y, End.Z = Z;
  return End;
}

CopyEnd CopyEnd::ofMemory(const void *Base, size_t Pitch, size_t RowsPerSlice,
                          size_t XBytes, size_t Y, size_t Z) {
  CopyEnd End;
  End.Base = static_cast<char *>(const_cast<void *>(Base));
  End.Pitch = Pitch;
  End.SlicePitch = Pitch * RowsPerSlice;
  End.XBytes = XBytes, End.Y = Y, End.Z = Z;
  return End;
}

/// The first byte of the block at End, checked to fit.
static Expected<char *> locate(const CopyEnd &End, size_t Width, size_t Height,
                               size_t Depth) {
  if (const ImageArray *A = End.Array) {
    const runtime::ImageResource &R = A->Resource;
    CopyView V = getCopyView(*A);
    if (End.XBytes > R.RowPitch || Width > R.RowPitch - End.XBytes ||
        End.Y > V.Height || Height > V.Height - End.Y || End.Z > V.Depth ||
        Depth > V.Depth - End.Z)
      return invalidValue("the copy runs past the end of the array");
  } else if (Width > End.Pitch && (Height > 1 || Depth > 1)) {
    return invalidValue("a row is wider than its pitch");
  }
  return End.Base + End.Z * End.SlicePitch + End.Y * End.Pitch + End.XBytes;
}

Error cuda::copyImageBlock(device::Context &C, const CopyEnd &Dst,
                           const CopyEnd &Src, size_t Width, size_t Height,
                           size_t Depth, device::Stream *S, bool Wait) {
  if (!Width || !Height || !Depth)
    return Error::success();
  Expected<char *> From = locate(Src, Width, Height, Depth);
  if (!From)
    return From.takeError();
  Expected<char *> To = locate(Dst, Width, Height, Depth);
  if (!To)
    return To.takeError();
  if (!Src.Base || !Dst.Base)
    return invalidValue("a null pointer");
  const char *F = *From;
  char *T = *To;
  size_t SPitch = Src.Pitch, SSlice = Src.SlicePitch;
  size_t DPitch = Dst.Pitch, DSlice = Dst.SlicePitch;
  C.enqueue(S, [=] {
    for (size_t Z = 0; Z != Depth; ++Z)
      for (size_t Y = 0; Y != Height; ++Y)
        std::memmove(T + Z * DSlice + Y * DPitch, F + Z * SSlice + Y * SPitch,
                     Width);
    return Error::success();
  });
  if (!Wait)
    return Error::success();
  return S ? S->synchronize() : C.getDefaultStream().synchronize();
}

bool cuda::isDeviceRange(device::Context &C, const void *Ptr, uint64_t Bytes) {
  std::optional<device::Allocation> A = C.getPointerInfo(Ptr);
  if (!A)
    return false;
  uint64_t Offset =
      static_cast<const char *>(Ptr) - static_cast<char *>(A->Base);
  return Offset <= A->Size && Bytes <= A->Size - Offset;
}

Expected<runtime::ImageResource>
cuda::makeLinearResource(device::Context &C, void *Ptr, runtime::TexelFormat F,
                         uint64_t Bytes) {
  runtime::ImageResource R;
  R.Kind = runtime::ImageResource::Linear;
  R.Format = F;
  R.Width = Bytes / F.getTexelBytes();
  R.RowPitch = Bytes;
  R.SlicePitch = R.RowPitch;
  if (!R.Width)
    return invalidValue("the linear resource holds no texel");
  if (!isDeviceRange(C, Ptr, Bytes))
    return invalidValue("the resource is not inside a device allocation");
  R.Data = static_cast<char *>(Ptr);
  return R;
}

Expected<runtime::ImageResource>
cuda::makePitch2DResource(device::Context &C, void *Ptr, runtime::TexelFormat F,
                          uint64_t Width, uint64_t Height, uint64_t Pitch) {
  runtime::ImageResource R;
  R.Kind = runtime::ImageResource::Pitch2D;
  R.Format = F;
  R.Dimensions = 2;
  R.Width = Width;
  R.Height = Height;
  R.RowPitch = Pitch;
  R.SlicePitch = Pitch * Height;
  uint64_t RowBytes = Width * F.getTexelBytes();
  if (!Width || !Height || Pitch < RowBytes)
    return invalidValue("the pitched resource's rows do not fit its pitch");
  if (!isDeviceRange(C, Ptr, Pitch * (Height - 1) + RowBytes))
    return invalidValue("the resource is not inside a device allocation");
  R.Data = static_cast<char *>(Ptr);
  return R;
}
