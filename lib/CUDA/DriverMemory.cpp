//===- DriverMemory.cpp - libcuda.so.1: host and managed memory, sets -----===//
//
// Page-locked host memory (cuMemAllocHost, cuMemHostAlloc,
// cuMemHostRegister) is ordinary host memory that kernels reach at the same
// address, as all host memory here; managed memory is device memory
// (HostMemory.h keeps which is which, for both libraries). Sets of 8, 16
// and 32-bit values, in rows or not, synchronous or on a stream, are one
// kind of work: cudaMemsetParams, as graph set nodes run it.
//
//===----------------------------------------------------------------------===//

#include "Capture.h"
#include "DriverAPI.h"
#include "HostMemory.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;
using namespace ptxjit::cuda::driver;

extern "C" CUresult cuMemAlloc_v2(CUdeviceptr *Ptr, size_t Bytes);

namespace {

// CU_MEMHOSTALLOC_*, CU_MEMHOSTREGISTER_*, CU_MEM_ATTACH_*.
enum : unsigned {
  HostAllocPortable = 0x01,
  HostAllocDeviceMap = 0x02,
  HostAllocWriteCombined = 0x04,
  HostRegisterPortable = 0x01,
  HostRegisterDeviceMap = 0x02,
  HostRegisterIoMemory = 0x04,
  HostRegisterReadOnly = 0x08,
  AttachGlobal = 0x1,
  AttachHost = 0x2,
};

void *ptr(CUdeviceptr P) { return reinterpret_cast<void *>(uintptr_t(P)); }

/// Sets Height rows of Width elements of ElementSize bytes, Pitch bytes
/// apart, to Value (setSlices): synchronously, or on Stream.
CUresult setRowsOf(CUdeviceptr Dst, size_t Pitch, unsigned Value,
                   unsigned ElementSize, size_t Width, size_t Height,
                   bool Async, CUstream_st *Stream) {
  return withContext([&](device::Context &C) {
    return setSlices(C, {ptr(Dst), Pitch, Value, ElementSize, Width, Height}, 0,
                     1, Stream, !Async);
  });
}

/// A set of Count elements in one row.
CUresult setElements(CUdeviceptr Dst, unsigned Value, unsigned ElementSize,
                     size_t Count, bool Async = false,
                     CUstream_st *Stream = nullptr) {
  return setRowsOf(Dst, Count * ElementSize, Value, ElementSize, Count, 1,
                   Async, Stream);
}

} // namespace

// Page-locked host memory.

PTXJIT_CUDA_API CUresult cuMemHostAlloc(void **Ptr, size_t Bytes,
                                        unsigned Flags) {
  if (!Ptr || (Flags & ~(HostAllocPortable | HostAllocDeviceMap |
                         HostAllocWriteCombined)))
    return CUDA_ERROR_INVALID_VALUE;
  return withContext([&](device::Context &) -> Error {
    Expected<void *> P = allocatePageLocked(Bytes);
    if (!P)
      return P.takeError();
    *Ptr = *P;
    return Error::success();
  });
}

PTXJIT_CUDA_API CUresult cuMemAllocHost_v2(void **Ptr, size_t Bytes) {
  return cuMemHostAlloc(Ptr, Bytes, 0);
}

PTXJIT_CUDA_API CUresult cuMemFreeHost(void *Ptr) {
  if (!isDriverInitialized())
    return CUDA_ERROR_NOT_INITIALIZED;
  return freePageLocked(Ptr) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

PTXJIT_CUDA_API CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *Device,
                                                      void *Host,
                                                      unsigned Flags) {
  if (!isDriverInitialized())
    return CUDA_ERROR_NOT_INITIALIZED;
  // Page-locked memory is mapped: the device reaches it where it is.
  if (!Device || Flags || !isPageLocked(Host))
    return CUDA_ERROR_INVALID_VALUE;
  *Device = CUdeviceptr(reinterpret_cast<uintptr_t>(Host));
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuMemHostRegister_v2(void *Ptr, size_t Bytes,
                                              unsigned Flags) {
  if (!Ptr || !Bytes ||
      (Flags & ~(HostRegisterPortable | HostRegisterDeviceMap |
                 HostRegisterIoMemory | HostRegisterReadOnly)))
    return CUDA_ERROR_INVALID_VALUE;
  return withContext(
      [&](device::Context &) { return registerPageLocked(Ptr, Bytes); });
}

PTXJIT_CUDA_API CUresult cuMemHostUnregister(void *Ptr) {
  return withContext(
      [&](device::Context &) { return unregisterPageLocked(Ptr); });
}

// Managed memory and address ranges.

PTXJIT_CUDA_API CUresult cuMemAllocManaged(CUdeviceptr *Ptr, size_t Bytes,
                                           unsigned Flags) {
  if (!Ptr || !Bytes || (Flags != AttachGlobal && Flags != AttachHost))
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult R = cuMemAlloc_v2(Ptr, Bytes))
    return R;
  noteManagedAllocation(ptr(*Ptr), Bytes);
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuMemGetAddressRange_v2(CUdeviceptr *Base,
                                                 size_t *Bytes,
                                                 CUdeviceptr Ptr) {
  return withContext([&](device::Context &C) -> Error {
    std::optional<device::Allocation> A = C.getPointerInfo(ptr(Ptr));
    if (!A)
      return device::makeDeviceError(device::ErrorCode::NotFound,
                                     "not in a device allocation");
    if (Base)
      *Base = CUdeviceptr(reinterpret_cast<uintptr_t>(A->Base));
    if (Bytes)
      *Bytes = A->Size;
    return Error::success();
  });
}

// Copies between any two addresses.

PTXJIT_CUDA_API CUresult cuMemcpy(CUdeviceptr Dst, CUdeviceptr Src,
                                  size_t Bytes) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = checkLegacySync())
      return E;
    return C.copy(ptr(Dst), ptr(Src), Bytes);
  });
}

extern "C" CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr Dst, CUdeviceptr Src,
                                         size_t Bytes, CUstream_st *Stream);

PTXJIT_CUDA_API CUresult cuMemcpyAsync(CUdeviceptr Dst, CUdeviceptr Src,
                                       size_t Bytes, CUstream_st *Stream) {
  return cuMemcpyDtoDAsync_v2(Dst, Src, Bytes, Stream);
}

// Sets.

PTXJIT_CUDA_API CUresult cuMemsetD8_v2(CUdeviceptr Dst, unsigned char Value,
                                       size_t Count) {
  return setElements(Dst, Value, 1, Count);
}

PTXJIT_CUDA_API CUresult cuMemsetD16_v2(CUdeviceptr Dst, unsigned short Value,
                                        size_t Count) {
  return setElements(Dst, Value, 2, Count);
}

PTXJIT_CUDA_API CUresult cuMemsetD32_v2(CUdeviceptr Dst, unsigned Value,
                                        size_t Count) {
  return setElements(Dst, Value, 4, Count);
}

PTXJIT_CUDA_API CUresult cuMemsetD8Async(CUdeviceptr Dst, unsigned char Value,
                                         size_t Count, CUstream_st *Stream) {
  return setElements(Dst, Value, 1, Count, /*Async=*/true, Stream);
}

PTXJIT_CUDA_API CUresult cuMemsetD16Async(CUdeviceptr Dst, unsigned short Value,
                                          size_t Count, CUstream_st *Stream) {
  return setElements(Dst, Value, 2, Count, /*Async=*/true, Stream);
}

PTXJIT_CUDA_API CUresult cuMemsetD32Async(CUdeviceptr Dst, unsigned Value,
                                          size_t Count, CUstream_st *Stream) {
  return setElements(Dst, Value, 4, Count, /*Async=*/true, Stream);
}

PTXJIT_CUDA_API CUresult cuMemsetD2D8_v2(CUdeviceptr Dst, size_t Pitch,
                                         unsigned char Value, size_t Width,
                                         size_t Height) {
  return setRowsOf(Dst, Pitch, Value, 1, Width, Height, false, nullptr);
}

PTXJIT_CUDA_API CUresult cuMemsetD2D16_v2(CUdeviceptr Dst, size_t Pitch,
                                          unsigned short Value, size_t Width,
                                          size_t Height) {
  return setRowsOf(Dst, Pitch, Value, 2, Width, Height, false, nullptr);
}

PTXJIT_CUDA_API CUresult cuMemsetD2D32_v2(CUdeviceptr Dst, size_t Pitch,
                                          unsigned Value, size_t Width,
                                          size_t Height) {
  return setRowsOf(Dst, Pitch, Value, 4, Width, Height, false, nullptr);
}

PTXJIT_CUDA_API CUresult cuMemsetD2D8Async(CUdeviceptr Dst, size_t Pitch,
                                           unsigned char Value, size_t Width,
                                           size_t Height, CUstream_st *Stream) {
  return setRowsOf(Dst, Pitch, Value, 1, Width, Height, true, Stream);
}

PTXJIT_CUDA_API CUresult cuMemsetD2D16Async(CUdeviceptr Dst, size_t Pitch,
                                            unsigned short Value, size_t Width,
                                            size_t Height,
                                            CUstream_st *Stream) {
  return setRowsOf(Dst, Pitch, Value, 2, Width, Height, true, Stream);
}

PTXJIT_CUDA_API CUresult cuMemsetD2D32Async(CUdeviceptr Dst, size_t Pitch,
                                            unsigned Value, size_t Width,
                                            size_t Height,
                                            CUstream_st *Stream) {
  return setRowsOf(Dst, Pitch, Value, 4, Width, Height, true, Stream);
}
