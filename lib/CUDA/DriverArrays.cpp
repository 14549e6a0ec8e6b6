//===- DriverArrays.cpp - libcuda.so.1: arrays, pitched memory, 2D/3D copies
//===//
//
// cuArrayCreate, cuArray3DCreate and cuMipmappedArrayCreate make the
// arrays of ImageArrays.h (the runtime library's cudaArray_t are the same
// objects); cuMemcpy2D/3D copy blocks between host memory, device memory
// and arrays, and cuMemcpyHtoA and its kin copy bytes of 1D arrays. A
// synchronous copy is ordered on the legacy default stream and returns when
// done; an asynchronous one is queued on its stream, or becomes a graph node
// when the stream captures (memory only: copy nodes of arrays are refused).
//
//===----------------------------------------------------------------------===//

#include "Capture.h"
#include "DriverAPI.h"
#include "DriverTextures.h"
#include "ImageArrays.h"
#include <cstring>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;
using namespace ptxjit::cuda::driver;

extern "C" CUresult cuMemAlloc_v2(CUdeviceptr *Ptr, size_t Bytes);

namespace {

/// cuda.h's descriptors and copy parameters (their _v2 layouts).
struct CUDA_ARRAY_DESCRIPTOR {
  size_t Width, Height;
  unsigned Format, NumChannels;
};

struct CUDA_ARRAY3D_DESCRIPTOR {
  size_t Width, Height, Depth;
  unsigned Format, NumChannels, Flags;
};

enum : unsigned {
  MemoryTypeHost = 1,
  MemoryTypeDevice = 2,
  MemoryTypeArray = 3,
  MemoryTypeUnified = 4,
};

struct CUDA_MEMCPY2D {
  size_t srcXInBytes, srcY;
  unsigned srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  void *srcArray;
  size_t srcPitch;
  size_t dstXInBytes, dstY;
  unsigned dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  void *dstArray;
  size_t dstPitch;
  size_t WidthInBytes, Height;
};

struct CUDA_MEMCPY3D {
  size_t srcXInBytes, srcY, srcZ, srcLOD;
  unsigned srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  void *srcArray;
  void *reserved0;
  size_t srcPitch, srcHeight;
  size_t dstXInBytes, dstY, dstZ, dstLOD;
  unsigned dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  void *dstArray;
  void *reserved1;
  size_t dstPitch, dstHeight;
  size_t WidthInBytes, Height, Depth;
};

/// One side of a copy as the parameters give it.
struct Side {
  unsigned MemoryType;
  const void *Host;
  CUdeviceptr Device;
  void *Array;
  size_t Pitch, Height; ///< rows per slice
  size_t XBytes, Y, Z;
};

/// A copy of Depth slices of Height rows of Width bytes.
struct Copy {
  Side Src, Dst;
  size_t Width, Height, Depth;
};

const void *memoryOf(const Side &S) {
  return S.MemoryType == MemoryTypeHost
             ? S.Host
             : reinterpret_cast<const void *>(uintptr_t(S.Device));
}

Expected<CopyEnd> toEnd(const Side &S) {
  switch (S.MemoryType) {
  case MemoryTypeHost:
  case MemoryTypeDevice:
  case MemoryTypeUnified:
    return CopyEnd::ofMemory(memoryOf(S), S.Pitch, S.Height, S.XBytes, S.Y,
                             S.Z);
  case MemoryTypeArray: {
    Expected<ImageArray *> A = lookupImageArray(S.Array);
    if (!A)
      return A.takeError();
    return CopyEnd::ofArray(**A, S.XBytes, S.Y, S.Z);
  }
  }
  return invalidValue("unknown memory type " + Twine(S.MemoryType));
}

/// The copy as a graph copy node's parameters: pitched memory, positions in
/// bytes; arrays as they are (which copy nodes refuse).
cudaMemcpy3DParms toNodeParams(const Copy &P) {
  cudaMemcpy3DParms N;
  std::memset(&N, 0, sizeof N);
  auto Set = [&](const Side &S, cudaArray_t &Array, cudaPitchedPtr &Ptr,
                 cudaPos &Pos) {
    if (S.MemoryType == MemoryTypeArray)
      Array = static_cast<cudaArray_t>(S.Array);
    else
      Ptr = {const_cast<void *>(memoryOf(S)), S.Pitch, P.Width, S.Height};
    Pos = {S.XBytes, S.Y, S.Z};
  };
  Set(P.Src, N.srcArray, N.srcPtr, N.srcPos);
  Set(P.Dst, N.dstArray, N.dstPtr, N.dstPos);
  N.extent = {P.Width, P.Height, P.Depth};
  N.kind = cudaMemcpyDefault;
  return N;
}

/// Runs P: synchronously (Async false), or on Stream.
CUresult run(const Copy &P, bool Async, CUstream_st *Stream) {
  return withContext([&](device::Context &C) -> Error {
    for (const Side *S : {&P.Src, &P.Dst})
      if (S->MemoryType != MemoryTypeArray && P.Depth > 1 &&
          S->Y + P.Height > S->Height)
        return invalidValue("a slice has more rows than its height");
    Expected<CopyEnd> Src = toEnd(P.Src);
    if (!Src)
      return Src.takeError();
    Expected<CopyEnd> Dst = toEnd(P.Dst);
    if (!Dst)
      return Dst.takeError();
    if (!Async) {
      if (Error E = checkLegacySync())
        return E;
    } else {
      Expected<bool> Captured =
          captureNode(Stream, [&] { return makeCopyNode(toNodeParams(P)); });
      if (!Captured)
        return Captured.takeError();
      if (*Captured)
        return Error::success();
    }
    return copyImageBlock(C, *Dst, *Src, P.Width, P.Height, P.Depth,
                          RuntimeState::get().toStream(Stream), !Async);
  });
}

Copy fromParams(const CUDA_MEMCPY2D &P) {
  Copy K;
  K.Src = {P.srcMemoryType, P.srcHost,     P.srcDevice, P.srcArray, P.srcPitch,
           P.Height,        P.srcXInBytes, P.srcY,      0};
  K.Dst = {P.dstMemoryType, P.dstHost,     P.dstDevice, P.dstArray, P.dstPitch,
           P.Height,        P.dstXInBytes, P.dstY,      0};
  K.Width = P.WidthInBytes;
  K.Height = P.Height;
  K.Depth = 1;
  return K;
}

CUresult copy2D(const CUDA_MEMCPY2D *P, bool Async, CUstream_st *Stream) {
  if (!P)
    return CUDA_ERROR_INVALID_VALUE;
  return run(fromParams(*P), Async, Stream);
}

CUresult copy3D(const CUDA_MEMCPY3D *P, bool Async, CUstream_st *Stream) {
  // Mipmap levels are copied through cuMipmappedArrayGetLevel's arrays.
  if (!P || P->reserved0 || P->reserved1 || P->srcLOD || P->dstLOD)
    return CUDA_ERROR_INVALID_VALUE;
  Copy K;
  K.Src = {P->srcMemoryType, P->srcHost,  P->srcDevice,
           P->srcArray,      P->srcPitch, P->srcHeight,
           P->srcXInBytes,   P->srcY,     P->srcZ};
  K.Dst = {P->dstMemoryType, P->dstHost,  P->dstDevice,
           P->dstArray,      P->dstPitch, P->dstHeight,
           P->dstXInBytes,   P->dstY,     P->dstZ};
  K.Width = P->WidthInBytes;
  K.Height = P->Height;
  K.Depth = P->Depth;
  return run(K, Async, Stream);
}

/// A side of Bytes in a 1D array at Offset bytes, for cuMemcpy*A* copies.
Side arraySide(void *Array, size_t Offset) {
  return {MemoryTypeArray, nullptr, 0, Array, 0, 1, Offset, 0, 0};
}

Side memorySide(unsigned Type, const void *Ptr) {
  return {Type,
          Type == MemoryTypeHost ? Ptr : nullptr,
          Type == MemoryTypeHost ? 0 : CUdeviceptr(uintptr_t(Ptr)),
          nullptr,
          0,
          1,
          0,
          0,
          0};
}

/// Copies Bytes between two sides of which at least one is a 1D array.
CUresult copyLinear(const Side &Dst, const Side &Src, size_t Bytes,
                    bool Async = false, CUstream_st *Stream = nullptr) {
  for (const Side *S : {&Dst, &Src}) {
    if (S->MemoryType != MemoryTypeArray)
      continue;
    Expected<ImageArray *> A = lookupImageArray(S->Array);
    if (!A)
      return toResult(A.takeError());
    if ((*A)->Extent.Height)
      return CUDA_ERROR_INVALID_VALUE; // 1D arrays only
  }
  return run({Src, Dst, Bytes, 1, 1}, Async, Stream);
}

CUresult createArray(void **Out, const CUDA_ARRAY3D_DESCRIPTOR &D) {
  if (!Out)
    return CUDA_ERROR_INVALID_VALUE;
  *Out = nullptr;
  return withContext([&](device::Context &C) -> Error {
    Expected<runtime::TexelFormat> F = getTexelFormat(D.Format, D.NumChannels);
    if (!F)
      return F.takeError();
    Expected<ImageArray *> A =
        createImageArray(C, *F, {D.Width, D.Height, D.Depth}, D.Flags);
    if (!A)
      return A.takeError();
    *Out = *A;
    return Error::success();
  });
}

} // namespace

// Arrays.

PTXJIT_CUDA_API CUresult cuArrayCreate_v2(void **Array,
                                          const CUDA_ARRAY_DESCRIPTOR *D) {
  if (!D)
    return CUDA_ERROR_INVALID_VALUE;
  return createArray(Array,
                     {D->Width, D->Height, 0, D->Format, D->NumChannels, 0});
}

PTXJIT_CUDA_API CUresult cuArray3DCreate_v2(void **Array,
                                            const CUDA_ARRAY3D_DESCRIPTOR *D) {
  if (!D)
    return CUDA_ERROR_INVALID_VALUE;
  return createArray(Array, *D);
}

PTXJIT_CUDA_API CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *D,
                                                   void *Array) {
  if (!D)
    return CUDA_ERROR_INVALID_VALUE;
  Expected<ImageArray *> A = lookupImageArray(Array);
  if (!A)
    return toResult(A.takeError());
  const runtime::TexelFormat &F = (*A)->Resource.Format;
  *D = {(*A)->Extent.Width, (*A)->Extent.Height, (*A)->Extent.Depth,
        toArrayFormat(F),   F.NumChannels,       (*A)->Flags};
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *D,
                                                 void *Array) {
  if (!D)
    return CUDA_ERROR_INVALID_VALUE;
  CUDA_ARRAY3D_DESCRIPTOR D3;
  if (CUresult R = cuArray3DGetDescriptor_v2(&D3, Array))
    return R;
  *D = {D3.Width, D3.Height, D3.Format, D3.NumChannels};
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuArrayDestroy(void *Array) {
  return withContext(
      [&](device::Context &C) { return destroyImageArray(C, Array); });
}

PTXJIT_CUDA_API CUresult cuMipmappedArrayCreate(
    void **Out, const CUDA_ARRAY3D_DESCRIPTOR *D, unsigned NumLevels) {
  if (!Out || !D)
    return CUDA_ERROR_INVALID_VALUE;
  *Out = nullptr;
  return withContext([&](device::Context &C) -> Error {
    Expected<runtime::TexelFormat> F =
        getTexelFormat(D->Format, D->NumChannels);
    if (!F)
      return F.takeError();
    Expected<MipmappedImageArray *> M = createMipmappedImageArray(
        C, *F, {D->Width, D->Height, D->Depth}, NumLevels, D->Flags);
    if (!M)
      return M.takeError();
    *Out = *M;
    return Error::success();
  });
}

PTXJIT_CUDA_API CUresult cuMipmappedArrayGetLevel(void **Level, void *Mipmapped,
                                                  unsigned L) {
  if (!Level)
    return CUDA_ERROR_INVALID_VALUE;
  Expected<MipmappedImageArray *> M = lookupMipmappedImageArray(Mipmapped);
  if (!M)
    return toResult(M.takeError());
  if (L >= (*M)->Levels.size())
    return CUDA_ERROR_INVALID_VALUE;
  *Level = (*M)->Levels[L];
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuMipmappedArrayDestroy(void *Mipmapped) {
  return withContext([&](device::Context &C) {
    return destroyMipmappedImageArray(C, Mipmapped);
  });
}

// Pitched memory.

PTXJIT_CUDA_API CUresult cuMemAllocPitch_v2(CUdeviceptr *Ptr, size_t *Pitch,
                                            size_t WidthInBytes, size_t Height,
                                            unsigned ElementSizeBytes) {
  if (!Ptr || !Pitch ||
      (ElementSizeBytes != 4 && ElementSizeBytes != 8 &&
       ElementSizeBytes != 16))
    return CUDA_ERROR_INVALID_VALUE;
  // Rows aligned as a GPU aligns them (and cudaMallocPitch here).
  *Pitch = (WidthInBytes + 511) / 512 * 512;
  return cuMemAlloc_v2(Ptr, *Pitch * Height);
}

// Copies.

PTXJIT_CUDA_API CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *P) {
  return copy2D(P, /*Async=*/false, nullptr);
}

PTXJIT_CUDA_API CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *P) {
  return copy2D(P, /*Async=*/false, nullptr);
}

PTXJIT_CUDA_API CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *P,
                                            CUstream_st *Stream) {
  return copy2D(P, /*Async=*/true, Stream);
}

PTXJIT_CUDA_API CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *P) {
  return copy3D(P, /*Async=*/false, nullptr);
}

PTXJIT_CUDA_API CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *P,
                                            CUstream_st *Stream) {
  return copy3D(P, /*Async=*/true, Stream);
}

PTXJIT_CUDA_API CUresult cuMemcpyHtoA_v2(void *Dst, size_t DstOffset,
                                         const void *Src, size_t Bytes) {
  return copyLinear(arraySide(Dst, DstOffset), memorySide(MemoryTypeHost, Src),
                    Bytes);
}

PTXJIT_CUDA_API CUresult cuMemcpyAtoH_v2(void *Dst, void *Src, size_t SrcOffset,
                                         size_t Bytes) {
  return copyLinear(memorySide(MemoryTypeHost, Dst), arraySide(Src, SrcOffset),
                    Bytes);
}

PTXJIT_CUDA_API CUresult cuMemcpyDtoA_v2(void *Dst, size_t DstOffset,
                                         CUdeviceptr Src, size_t Bytes) {
  return copyLinear(arraySide(Dst, DstOffset),
                    memorySide(MemoryTypeDevice,
                               reinterpret_cast<const void *>(uintptr_t(Src))),
                    Bytes);
}

PTXJIT_CUDA_API CUresult cuMemcpyAtoD_v2(CUdeviceptr Dst, void *Src,
                                         size_t SrcOffset, size_t Bytes) {
  return copyLinear(memorySide(MemoryTypeDevice,
                               reinterpret_cast<const void *>(uintptr_t(Dst))),
                    arraySide(Src, SrcOffset), Bytes);
}

PTXJIT_CUDA_API CUresult cuMemcpyAtoA_v2(void *Dst, size_t DstOffset, void *Src,
                                         size_t SrcOffset, size_t Bytes) {
  return copyLinear(arraySide(Dst, DstOffset), arraySide(Src, SrcOffset),
                    Bytes);
}

PTXJIT_CUDA_API CUresult cuMemcpyHtoAAsync_v2(void *Dst, size_t DstOffset,
                                              const void *Src, size_t Bytes,
                                              CUstream_st *Stream) {
  return copyLinear(arraySide(Dst, DstOffset), memorySide(MemoryTypeHost, Src),
                    Bytes, /*Async=*/true, Stream);
}

PTXJIT_CUDA_API CUresult cuMemcpyAtoHAsync_v2(void *Dst, void *Src,
                                              size_t SrcOffset, size_t Bytes,
                                              CUstream_st *Stream) {
  return copyLinear(memorySide(MemoryTypeHost, Dst), arraySide(Src, SrcOffset),
                    Bytes, /*Async=*/true, Stream);
}
