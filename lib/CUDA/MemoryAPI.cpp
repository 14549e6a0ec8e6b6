//===- MemoryAPI.cpp - Allocation, copies, sets, symbols ------------------===//
//
// Device addresses are host addresses, so every copy is a memmove, whatever
// its kind says; copies are ordered on their stream like CUDA's. Pinned host
// memory is ordinary memory (it need not be pinned to be reached).
//
//===----------------------------------------------------------------------===//

#include "APIHelpers.h"
#include <cstdlib>
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

PTXJIT_CUDART_API cudaError_t cudaMalloc(void **Ptr, size_t Size) {
  if (!Ptr)
    return setLastError(cudaErrorInvalidValue);
  return withContext([&](device::Context &C) -> Error {
    Expected<void *> P = C.allocate(Size);
    if (!P)
      return P.takeError();
    *Ptr = *P;
    return Error::success();
  });
}

PTXJIT_CUDART_API cudaError_t cudaMallocManaged(void **Ptr, size_t Size,
                                                unsigned Flags) {
  return cudaMalloc(Ptr, Size);
}

PTXJIT_CUDART_API cudaError_t cudaMallocAsync(void **Ptr, size_t Size,
                                              cudaStream_t Stream) {
  return cudaMalloc(Ptr, Size);
}

PTXJIT_CUDART_API cudaError_t cudaFree(void *Ptr) {
  return withContext([&](device::Context &C) { return C.free(Ptr); });
}

PTXJIT_CUDART_API cudaError_t cudaFreeAsync(void *Ptr, cudaStream_t Stream) {
  return cudaFree(Ptr);
}

PTXJIT_CUDART_API cudaError_t cudaMallocHost(void **Ptr, size_t Size) {
  if (!Ptr)
    return setLastError(cudaErrorInvalidValue);
  // Page-aligned, as pinned allocations are.
  void *P = nullptr;
  if (posix_memalign(&P, 4096, Size ? Size : 1) != 0)
    return setLastError(cudaError_t(device::ErrorCode::MemoryAllocation));
  *Ptr = P;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaHostAlloc(void **Ptr, size_t Size,
                                            unsigned Flags) {
  return cudaMallocHost(Ptr, Size);
}

PTXJIT_CUDART_API cudaError_t cudaFreeHost(void *Ptr) {
  std::free(Ptr);
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
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaHostUnregister(void *Ptr) {
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaMemcpy(void *Dst, const void *Src,
                                         size_t Size, int Kind) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkKind(Kind))
      return E;
    return C.copy(Dst, Src, Size);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemcpyAsync(void *Dst, const void *Src,
                                              size_t Size, int Kind,
                                              cudaStream_t Stream) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkKind(Kind))
      return E;
    return C.copyAsync(Dst, Src, Size, RuntimeState::get().toStream(Stream));
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemcpyPeer(void *Dst, int DstDevice,
                                             const void *Src, int SrcDevice,
                                             size_t Size) {
  if (DstDevice != 0 || SrcDevice != 0)
    return setLastError(cudaError_t(device::ErrorCode::InvalidDevice));
  return cudaMemcpy(Dst, Src, Size, cudaMemcpyDefault);
}

/// A 2D copy as Height row copies, queued as one piece of work.
static Error copy2D(device::Context &C, void *Dst, size_t DPitch,
                    const void *Src, size_t SPitch, size_t Width, size_t Height,
                    int Kind, cudaStream_t Stream, bool Wait) {
  if (Error E = checkKind(Kind))
    return E;
  if (Width > DPitch || Width > SPitch)
    return invalidValue("a row is wider than its pitch");
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
  return withContext(
      [&](device::Context &C) { return C.set(Dst, uint8_t(Value), Size); });
}

PTXJIT_CUDART_API cudaError_t cudaMemsetAsync(void *Dst, int Value, size_t Size,
                                              cudaStream_t Stream) {
  return withContext([&](device::Context &C) {
    return C.setAsync(Dst, uint8_t(Value), Size,
                      RuntimeState::get().toStream(Stream));
  });
}

/// The device memory of Symbol, checked to hold Offset + Size bytes.
static Expected<char *> symbolRange(const void *Symbol, size_t Size,
                                    size_t Offset) {
  Expected<device::Allocation> A = RuntimeState::get().getVariable(Symbol);
  if (!A)
    return A.takeError();
  if (Offset > A->Size || Size > A->Size - Offset)
    return invalidValue("the copy runs past the end of the symbol");
  return static_cast<char *>(A->Base) + Offset;
}

PTXJIT_CUDART_API cudaError_t cudaMemcpyToSymbol(const void *Symbol,
                                                 const void *Src, size_t Size,
                                                 size_t Offset, int Kind) {
  return withContext([&](device::Context &C) -> Error {
    Expected<char *> Dst = symbolRange(Symbol, Size, Offset);
    if (!Dst)
      return Dst.takeError();
    return C.copy(*Dst, Src, Size);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemcpyFromSymbol(void *Dst,
                                                   const void *Symbol,
                                                   size_t Size, size_t Offset,
                                                   int Kind) {
  return withContext([&](device::Context &C) -> Error {
    Expected<char *> Src = symbolRange(Symbol, Size, Offset);
    if (!Src)
      return Src.takeError();
    return C.copy(Dst, *Src, Size);
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemcpyToSymbolAsync(const void *Symbol,
                                                      const void *Src,
                                                      size_t Size,
                                                      size_t Offset, int Kind,
                                                      cudaStream_t Stream) {
  return withContext([&](device::Context &C) -> Error {
    Expected<char *> Dst = symbolRange(Symbol, Size, Offset);
    if (!Dst)
      return Dst.takeError();
    return C.copyAsync(*Dst, Src, Size, RuntimeState::get().toStream(Stream));
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemcpyFromSymbolAsync(void *Dst,
                                                        const void *Symbol,
                                                        size_t Size,
                                                        size_t Offset, int Kind,
                                                        cudaStream_t Stream) {
  return withContext([&](device::Context &C) -> Error {
    Expected<char *> Src = symbolRange(Symbol, Size, Offset);
    if (!Src)
      return Src.takeError();
    return C.copyAsync(Dst, *Src, Size, RuntimeState::get().toStream(Stream));
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
    if (C.getPointerInfo(Ptr)) {
      Attributes->type = cudaMemoryTypeDevice;
      Attributes->devicePointer = const_cast<void *>(Ptr);
    } else {
      // Host memory is reachable from kernels at the same address.
      Attributes->type = cudaMemoryTypeUnregistered;
      Attributes->hostPointer = const_cast<void *>(Ptr);
    }
    return Error::success();
  });
}

PTXJIT_CUDART_API cudaError_t cudaMemPrefetchAsync(const void *Ptr, size_t Size,
                                                   int Location,
                                                   cudaStream_t Stream) {
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaMemAdvise(const void *Ptr, size_t Size,
                                            int Advice, int Location) {
  return cudaSuccess;
}
