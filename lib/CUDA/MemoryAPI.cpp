//===- MemoryAPI.cpp - Allocation, copies, sets, symbols ------------------===//
//
// Device addresses are host addresses, so every copy is a memmove, whatever
// its kind says; copies are ordered on their stream like CUDA's. Pinned host
// memory is ordinary memory (it need not be pinned to be reached). A
// capturing stream takes asynchronous copies and sets as graph nodes
// (Capture.h); synchronous ones and allocation are refused while a capture
// forbids them.
//
//===----------------------------------------------------------------------===//

#include "APIHelpers.h"
#include "Capture.h"
#include "GraphAPIHelpers.h"
#include "HostMemory.h"
#include "ptxjit/Runtime/Checking.h"
#include "ptxjit/Runtime/DeviceArena.h"
#include <cstring>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

static Error checkKind(int Kind) {
  if (Kind < cudaMemcpyHostToHost || Kind > cudaMemcpyDefault)
    return device::makeDeviceError(device::ErrorCode::InvalidMemcpyDirection,
                                   "unknown cudaMemcpyKind " + Twine(Kind));
  return Error::success();
}

static Error allocate(device::Context &C, void **Ptr, size_t Size) {
  Expected<void *> P = C.allocate(Size);
  if (!P)
    return P.takeError();
  *Ptr = *P;
  return Error::success();
}

PTXJIT_CUDART_API cudaError_t cudaMalloc(void **Ptr, size_t Size) {
  if (!Ptr)
    return setLastError(cudaErrorInvalidValue);
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkUnsafeCall())
      return E;
    return allocate(C, Ptr, Size);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMallocManaged(void **Ptr, size_t Size,
                                                unsigned Flags) {
  cudaError_t E = cudaMalloc(Ptr, Size);
  if (E == cudaSuccess)
    noteManagedAllocation(*Ptr, Size);
  return E;
}

/// The memory exists at once; work before it on Stream cannot see it.
PTXJIT_CUDART_API cudaError_t cudaMallocAsync(void **Ptr, size_t Size,
                                              cudaStream_t Stream) {
  if (!Ptr)
    return setLastError(cudaErrorInvalidValue);
  return withContext([&](device::Context &C) -> Error {
    if (Error E = refuseInCapture(Stream, "cudaMallocAsync",
                                  device::ErrorCode::NotSupported))
      return E;
    return allocate(C, Ptr, Size);
  });
}

PTXJIT_CUDART_API cudaError_t cudaFree(void *Ptr) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkUnsafeCall())
      return E;
    if (Error E = C.free(Ptr))
      return E;
    setManaged(Ptr, false);
    return Error::success();
  });
}

/// The memory goes when Stream's work before it has run.
PTXJIT_CUDART_API cudaError_t cudaFreeAsync(void *Ptr, cudaStream_t Stream) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = refuseInCapture(Stream, "cudaFreeAsync",
                                  device::ErrorCode::NotSupported))
      return E;
    if (Error E = C.getStickyError())
      return E;
    std::optional<device::Allocation> A = C.getPointerInfo(Ptr);
    if (!A || A->Base != Ptr)
      return device::makeDeviceError(device::ErrorCode::InvalidValue,
                                     "not the start of a device allocation");
    setManaged(Ptr, false);
    C.enqueue(RuntimeState::get().toStream(Stream),
              [&C, Ptr] {
                if (runtime::CheckSession *S = C.getCheckSession())
                  S->freeAllocation(Ptr);
                return C.getMemory().free(Ptr);
              });
    return Error::success();
  });
}

PTXJIT_CUDART_API cudaError_t cudaMallocHost(void **Ptr, size_t Size) {
  if (!Ptr)
    return setLastError(cudaErrorInvalidValue);
  Expected<void *> P = allocatePageLocked(Size);
  if (!P)
    return setLastError(P.takeError());
  *Ptr = *P;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaHostAlloc(void **Ptr, size_t Size,
                                            unsigned Flags) {
  return cudaMallocHost(Ptr, Size);
}

PTXJIT_CUDART_API cudaError_t cudaFreeHost(void *Ptr) {
  if (Ptr && !freePageLocked(Ptr))
    return setLastError(cudaErrorInvalidValue);
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaHostGetDevicePointer(void **Device,
                                                       void *Host,
                                                       unsigned Flags) {
  if (!Device)
    return setLastError(cudaErrorInvalidValue);
  *Device = Host;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaHostRegister(void *Ptr, size_t Size,
                                               unsigned Flags) {
  if (!Ptr || !Size)
    return setLastError(cudaErrorInvalidValue);
  return setLastError(registerPageLocked(Ptr, Size));
}

PTXJIT_CUDART_API cudaError_t cudaHostUnregister(void *Ptr) {
  return setLastError(unregisterPageLocked(Ptr));
}

PTXJIT_CUDART_API cudaError_t cudaMemcpy(void *Dst, const void *Src,
                                         size_t Size, int Kind) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkKind(Kind))
      return E;
    if (Error E = checkLegacySync())
      return E;
    return C.copy(Dst, Src, Size);
  });
}

/// A copy on Stream, or its node when Stream captures.
static Error copyAsync(device::Context &C, void *Dst, const void *Src,
                       size_t Size, int Kind, cudaStream_t Stream) {
  if (Error E = checkKind(Kind))
    return E;
  Expected<bool> Captured =
      captureNode(Stream, [&] { return makeCopyNode1D(Dst, Src, Size, Kind); });
  if (!Captured)
    return Captured.takeError();
  if (*Captured)
    return Error::success();
  return C.copyAsync(Dst, Src, Size, RuntimeState::get().toStream(Stream));
}

PTXJIT_CUDART_API cudaError_t cudaMemcpyAsync(void *Dst, const void *Src,
                                              size_t Size, int Kind,
                                              cudaStream_t Stream) {
  return withContext([&](device::Context &C) {
    return copyAsync(C, Dst, Src, Size, Kind, Stream);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemcpyPeer(void *Dst, int DstDevice,
                                             const void *Src, int SrcDevice,
                                             size_t Size) {
  if (DstDevice != 0 || SrcDevice != 0)
    return setLastError(cudaError_t(device::ErrorCode::InvalidDevice));
  return cudaMemcpy(Dst, Src, Size, cudaMemcpyDefault);
}

PTXJIT_CUDART_API cudaError_t cudaMemcpyPeerAsync(void *Dst, int DstDevice,
                                                  const void *Src,
                                                  int SrcDevice, size_t Size,
                                                  cudaStream_t Stream) {
  if (DstDevice != 0 || SrcDevice != 0)
    return setLastError(cudaError_t(device::ErrorCode::InvalidDevice));
  return cudaMemcpyAsync(Dst, Src, Size, cudaMemcpyDefault, Stream);
}

/// A 2D copy as Height row copies, queued as one piece of work.
static Error copy2D(device::Context &C, void *Dst, size_t DPitch,
                    const void *Src, size_t SPitch, size_t Width, size_t Height,
                    int Kind, cudaStream_t Stream, bool Wait) {
  if (Error E = checkKind(Kind))
    return E;
  if (Width > DPitch || Width > SPitch)
    return invalidValue("a row is wider than its pitch");
  if (Wait) {
    if (Error E = checkLegacySync())
      return E;
  } else {
    Expected<bool> Captured =
        captureOperation(Stream, [&]() -> Expected<NodeParams> {
          cudaMemcpy3DParms P;
          std::memset(&P, 0, sizeof P);
          P.srcPtr = {const_cast<void *>(Src), SPitch, Width, Height};
          P.dstPtr = {Dst, DPitch, Width, Height};
          P.extent = {Width, Height, 1};
          P.kind = cudaMemcpyKind(Kind);
          Expected<CopyNode> N = makeCopyNode(P);
          if (!N)
            return N.takeError();
          return NodeParams(std::move(*N));
        });
    if (!Captured)
      return Captured.takeError();
    if (*Captured)
      return Error::success();
  }
  device::Stream *S = RuntimeState::get().toStream(Stream);
  C.enqueue(S, [=] {
    for (size_t Row = 0; Row != Height; ++Row)
      std::memmove(static_cast<char *>(Dst) + Row * DPitch,
                   static_cast<const char *>(Src) + Row * SPitch, Width);
    return Error::success();
  });
  if (!Wait)
    return Error::success();
  return (S ? *S : C.getDefaultStream()).synchronize();
}

PTXJIT_CUDART_API cudaError_t cudaMemcpy2D(void *Dst, size_t DPitch,
                                           const void *Src, size_t SPitch,
                                           size_t Width, size_t Height,
                                           int Kind) {
  return withContext([&](device::Context &C) {
    return copy2D(C, Dst, DPitch, Src, SPitch, Width, Height, Kind, nullptr,
                  /*Wait=*/true);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemcpy2DAsync(void *Dst, size_t DPitch,
                                                const void *Src, size_t SPitch,
                                                size_t Width, size_t Height,
                                                int Kind, cudaStream_t Stream) {
  return withContext([&](device::Context &C) {
    return copy2D(C, Dst, DPitch, Src, SPitch, Width, Height, Kind, Stream,
                  /*Wait=*/false);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMallocPitch(void **Ptr, size_t *Pitch,
                                              size_t Width, size_t Height) {
  if (!Pitch)
    return setLastError(cudaErrorInvalidValue);
  // Rows aligned as a GPU aligns them.
  *Pitch = (Width + 511) / 512 * 512;
  return cudaMalloc(Ptr, *Pitch * Height);
}

PTXJIT_CUDART_API cudaError_t cudaMemset(void *Dst, int Value, size_t Size) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkLegacySync())
      return E;
    return C.set(Dst, uint8_t(Value), Size);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemsetAsync(void *Dst, int Value, size_t Size,
                                              cudaStream_t Stream) {
  return withContext([&](device::Context &C) -> Error {
    Expected<bool> Captured = captureNode(Stream, [&] {
      return makeSetNode({Dst, Size, unsigned(uint8_t(Value)), 1, Size, 1});
    });
    if (!Captured)
      return Captured.takeError();
    if (*Captured)
      return Error::success();
    return C.setAsync(Dst, uint8_t(Value), Size,
                      RuntimeState::get().toStream(Stream));
  });
}

/// Sets Depth slices (SlicePitch apart) of Height rows (Pitch apart) of
/// Width bytes to Value (setSlices).
static Error setBlock(device::Context &C, void *Dst, size_t Pitch,
                      size_t SlicePitch, int Value, size_t Width, size_t Height,
                      size_t Depth, cudaStream_t Stream, bool Wait) {
  return setSlices(C, {Dst, Pitch, unsigned(uint8_t(Value)), 1, Width, Height},
                   SlicePitch, Depth, Stream, Wait);
}

PTXJIT_CUDART_API cudaError_t cudaMemset2D(void *Dst, size_t Pitch, int Value,
                                           size_t Width, size_t Height) {
  return withContext([&](device::Context &C) {
    return setBlock(C, Dst, Pitch, 0, Value, Width, Height, 1, nullptr,
                    /*Wait=*/true);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemset2DAsync(void *Dst, size_t Pitch,
                                                int Value, size_t Width,
                                                size_t Height,
                                                cudaStream_t Stream) {
  return withContext([&](device::Context &C) {
    return setBlock(C, Dst, Pitch, 0, Value, Width, Height, 1, Stream,
                    /*Wait=*/false);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemset3D(cudaPitchedPtr Ptr, int Value,
                                           cudaExtent Extent) {
  return withContext([&](device::Context &C) {
    return setBlock(C, Ptr.ptr, Ptr.pitch, Ptr.pitch * Ptr.ysize, Value,
                    Extent.width, Extent.height, Extent.depth, nullptr,
                    /*Wait=*/true);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemset3DAsync(cudaPitchedPtr Ptr, int Value,
                                                cudaExtent Extent,
                                                cudaStream_t Stream) {
  return withContext([&](device::Context &C) {
    return setBlock(C, Ptr.ptr, Ptr.pitch, Ptr.pitch * Ptr.ysize, Value,
                    Extent.width, Extent.height, Extent.depth, Stream,
                    /*Wait=*/false);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemcpyToSymbol(const void *Symbol,
                                                 const void *Src, size_t Size,
                                                 size_t Offset, int Kind) {
  return withContext([&](device::Context &C) -> Error {
    Expected<char *> Dst = getSymbolRange(Symbol, Size, Offset);
    if (!Dst)
      return Dst.takeError();
    if (Error E = checkLegacySync())
      return E;
    return C.copy(*Dst, Src, Size);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemcpyFromSymbol(void *Dst,
                                                   const void *Symbol,
                                                   size_t Size, size_t Offset,
                                                   int Kind) {
  return withContext([&](device::Context &C) -> Error {
    Expected<char *> Src = getSymbolRange(Symbol, Size, Offset);
    if (!Src)
      return Src.takeError();
    if (Error E = checkLegacySync())
      return E;
    return C.copy(Dst, *Src, Size);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemcpyToSymbolAsync(const void *Symbol,
                                                      const void *Src,
                                                      size_t Size,
                                                      size_t Offset, int Kind,
                                                      cudaStream_t Stream) {
  return withContext([&](device::Context &C) -> Error {
    Expected<char *> Dst = getSymbolRange(Symbol, Size, Offset);
    if (!Dst)
      return Dst.takeError();
    return copyAsync(C, *Dst, Src, Size, Kind, Stream);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemcpyFromSymbolAsync(void *Dst,
                                                        const void *Symbol,
                                                        size_t Size,
                                                        size_t Offset, int Kind,
                                                        cudaStream_t Stream) {
  return withContext([&](device::Context &C) -> Error {
    Expected<char *> Src = getSymbolRange(Symbol, Size, Offset);
    if (!Src)
      return Src.takeError();
    return copyAsync(C, Dst, *Src, Size, Kind, Stream);
  });
}

PTXJIT_CUDART_API cudaError_t cudaGetSymbolAddress(void **Ptr,
                                                   const void *Symbol) {
  if (!Ptr)
    return setLastError(cudaErrorInvalidValue);
  Expected<device::Allocation> A = RuntimeState::get().getVariable(Symbol);
  if (!A)
    return setLastError(A.takeError());
  *Ptr = A->Base;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGetSymbolSize(size_t *Size,
                                                const void *Symbol) {
  if (!Size)
    return setLastError(cudaErrorInvalidValue);
  Expected<device::Allocation> A = RuntimeState::get().getVariable(Symbol);
  if (!A)
    return setLastError(A.takeError());
  *Size = A->Size;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t
cudaPointerGetAttributes(cudaPointerAttributes *Attributes, const void *Ptr) {
  if (!Attributes)
    return setLastError(cudaErrorInvalidValue);
  return withContext([&](device::Context &C) -> Error {
    std::memset(Attributes, 0, sizeof *Attributes);
    void *P = const_cast<void *>(Ptr);
    if (std::optional<device::Allocation> A = C.getPointerInfo(Ptr)) {
      bool Managed = isManaged(A->Base);
      Attributes->type = Managed ? cudaMemoryTypeManaged : cudaMemoryTypeDevice;
      Attributes->devicePointer = P;
      if (Managed)
        Attributes->hostPointer = P;
    } else if (isPageLocked(Ptr)) {
      // Page-locked memory is mapped: the device reaches it at the same
      // address.
      Attributes->type = cudaMemoryTypeHost;
      Attributes->hostPointer = P;
      Attributes->devicePointer = P;
    } else {
      // Host memory is reachable from kernels at the same address.
      Attributes->type = cudaMemoryTypeUnregistered;
      Attributes->hostPointer = const_cast<void *>(Ptr);
    }
    return Error::success();
  });
}

/// cudaMemLocation: device memory and host memory are one here, so where
/// data should be changes nothing, but the location must be one that
/// exists.
struct MemLocation {
  int type; ///< cudaMemLocationType
  int id;
};

static Error checkLocation(MemLocation L) {
  // cudaMemLocationTypeDevice with a device ordinal, or host memory.
  if ((L.type == 1 && L.id == 0) || (L.type >= 2 && L.type <= 4))
    return Error::success();
  if (L.type == 1)
    return device::makeDeviceError(device::ErrorCode::InvalidDevice,
                                   "there is one device, 0");
  return invalidValue("unknown memory location type " + Twine(L.type));
}

PTXJIT_CUDART_API cudaError_t cudaMemPrefetchAsync(const void *Ptr, size_t Size,
                                                   MemLocation Location,
                                                   unsigned Flags,
                                                   cudaStream_t Stream) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkLocation(Location))
      return E;
    if (Flags)
      return invalidValue("cudaMemPrefetchAsync takes no flags");
    // A capture keeps the prefetch's place in the stream's order.
    Expected<bool> Captured =
        captureOperation(Stream, [] { return NodeParams(EmptyNode()); });
    if (!Captured)
      return Captured.takeError();
    return Error::success();
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemAdvise(const void *Ptr, size_t Size,
                                            int Advice, MemLocation Location) {
  if (Advice < 1 || Advice > 6) // cudaMemAdviseSetReadMostly..UnsetAccessedBy
    return setLastError(
        invalidValue("unknown cudaMemoryAdvise " + Twine(Advice)));
  // The read-mostly advice and unsetting the preferred location ignore it.
  if (Advice == 3 || Advice >= 5)
    if (Error E = checkLocation(Location))
      return setLastError(std::move(E));
  return cudaSuccess;
}
