//===- DriverStream.cpp - libcuda.so.1: events and stream work ------------===//
//
// The driver API's events, event waits, host functions and asynchronous
// copies, with the runtime's objects and the same capture rules: what a
// capturing stream is given becomes graph nodes.
//
//===----------------------------------------------------------------------===//

#include "Capture.h"
#include "DeviceProperties.h"
#include "DriverAPI.h"
#include "Graph.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;
using namespace ptxjit::cuda::driver;

static void *ptr(CUdeviceptr P) { return reinterpret_cast<void *>(P); }

PTXJIT_CUDA_API CUresult cuEventCreate(CUevent_st **Event, unsigned Flags) {
  if (!Event)
    return CUDA_ERROR_INVALID_VALUE;
  *Event = RuntimeState::get().createEvent(Flags);
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuEventDestroy_v2(CUevent_st *Event) {
  if (!Event)
    return CUDA_ERROR_INVALID_HANDLE;
  RuntimeState::get().destroyEvent(Event);
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuEventRecordWithFlags(CUevent_st *Event,
                                                CUstream_st *Stream,
                                                unsigned Flags) {
  if (!Event)
    return CUDA_ERROR_INVALID_HANDLE;
  if (Flags & ~cudaEventRecordExternal)
    return CUDA_ERROR_INVALID_VALUE;
  return withContext([&](device::Context &C) -> Error {
    Expected<bool> Captured = captureEventRecord(*Event, Stream, Flags);
    if (!Captured)
      return Captured.takeError();
    if (!*Captured)
      recordEvent(C, *Event, RuntimeState::get().toStream(Stream));
    return Error::success();
  });
}

PTXJIT_CUDA_API CUresult cuEventRecord(CUevent_st *Event, CUstream_st *Stream) {
  return cuEventRecordWithFlags(Event, Stream, 0);
}

PTXJIT_CUDA_API CUresult cuEventQuery(CUevent_st *Event) {
  if (!Event)
    return CUDA_ERROR_INVALID_HANDLE;
  if (Error E = checkEventUse(*Event))
    return toResult(std::move(E));
  if (Event->S && !Event->S->isComplete(Event->Ticket))
    return CUresult(device::ErrorCode::NotReady);
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuEventSynchronize(CUevent_st *Event) {
  if (!Event)
    return CUDA_ERROR_INVALID_HANDLE;
  if (Error E = checkEventUse(*Event))
    return toResult(std::move(E));
  if (Event->S)
    Event->S->waitFor(Event->Ticket);
  if (device::Context *C = RuntimeState::get().peekContext())
    return toResult(C->getStickyError());
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuStreamWaitEvent(CUstream_st *Stream,
                                           CUevent_st *Event, unsigned Flags) {
  if (!Event)
    return CUDA_ERROR_INVALID_HANDLE;
  if (Flags & ~cudaEventWaitExternal)
    return CUDA_ERROR_INVALID_VALUE;
  return withContext([&](device::Context &C) -> Error {
    Expected<bool> Captured = captureEventWait(Stream, *Event, Flags);
    if (!Captured)
      return Captured.takeError();
    if (!*Captured)
      waitForEvent(C, RuntimeState::get().toStream(Stream), *Event);
    return Error::success();
  });
}

PTXJIT_CUDA_API CUresult cuStreamQuery(CUstream_st *Stream) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = C.getStickyError())
      return E;
    if (Error E = checkStreamSync(Stream))
      return E;
    device::Stream *S = RuntimeState::get().toStream(Stream);
    if ((S ? *S : C.getDefaultStream()).isIdle())
      return Error::success();
    return device::makeDeviceError(device::ErrorCode::NotReady,
                                   "the stream has work left");
  });
}

PTXJIT_CUDA_API CUresult cuLaunchHostFunc(CUstream_st *Stream,
                                          void (*Fn)(void *), void *UserData) {
  if (!Fn)
    return CUDA_ERROR_INVALID_VALUE;
  return withContext([&](device::Context &C) -> Error {
    Expected<bool> Captured = captureOperation(Stream, [&] {
      return NodeParams(HostNode{{Fn, UserData}});
    });
    if (!Captured)
      return Captured.takeError();
    if (*Captured)
      return Error::success();
    C.enqueue(RuntimeState::get().toStream(Stream), [=] {
      Fn(UserData);
      return Error::success();
    });
    return Error::success();
  });
}

/// A copy on Stream, or its node when Stream captures.
static CUresult copyAsync(void *Dst, const void *Src, size_t Bytes,
                          CUstream_st *Stream) {
  return withContext([&](device::Context &C) -> Error {
    Expected<bool> Captured =
        captureOperation(Stream, [&]() -> Expected<NodeParams> {
          Expected<CopyNode> N =
              makeCopyNode1D(Dst, Src, Bytes, cudaMemcpyDefault);
          if (!N)
            return N.takeError();
          return NodeParams(*N);
        });
    if (!Captured)
      return Captured.takeError();
    if (*Captured)
      return Error::success();
    return C.copyAsync(Dst, Src, Bytes, RuntimeState::get().toStream(Stream));
  });
}

PTXJIT_CUDA_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr Dst, const void *Src,
                                              size_t Bytes,
                                              CUstream_st *Stream) {
  return copyAsync(ptr(Dst), Src, Bytes, Stream);
}

PTXJIT_CUDA_API CUresult cuMemcpyDtoHAsync_v2(void *Dst, CUdeviceptr Src,
                                              size_t Bytes,
                                              CUstream_st *Stream) {
  return copyAsync(Dst, ptr(Src), Bytes, Stream);
}

PTXJIT_CUDA_API CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr Dst, CUdeviceptr Src,
                                              size_t Bytes,
                                              CUstream_st *Stream) {
  return copyAsync(ptr(Dst), ptr(Src), Bytes, Stream);
}

PTXJIT_CUDA_API CUresult cuEventElapsedTime_v2(float *Ms, CUevent_st *Start,
                                               CUevent_st *End) {
  if (!Ms)
    return CUDA_ERROR_INVALID_VALUE;
  if (!Start || !End)
    return CUDA_ERROR_INVALID_HANDLE;
  if (Error E = joinErrors(checkEventUse(*Start), checkEventUse(*End)))
    return toResult(std::move(E));
  switch (getElapsedTime(*Start, *End, *Ms)) {
  case ElapsedTime::Measured:
    return CUDA_SUCCESS;
  case ElapsedTime::NotReady:
    return CUresult(device::ErrorCode::NotReady);
  case ElapsedTime::Invalid:
    break;
  }
  return CUDA_ERROR_INVALID_HANDLE;
}

PTXJIT_CUDA_API CUresult cuEventElapsedTime(float *Ms, CUevent_st *Start,
                                            CUevent_st *End) {
  return cuEventElapsedTime_v2(Ms, Start, End);
}

PTXJIT_CUDA_API CUresult cuStreamCreateWithPriority(CUstream_st **Stream,
                                                    unsigned Flags,
                                                    int Priority) {
  if (!Stream || (Flags & ~1u))
    return CUDA_ERROR_INVALID_VALUE;
  // Priorities out of the device's range are clamped into it, as CUDA does.
  Priority = std::clamp(Priority, GreatestStreamPriority, LeastStreamPriority);
  return withContext([&](device::Context &C) -> Error {
    Expected<device::Stream &> S =
        C.createStream(Flags & 1 ? device::StreamKind::NonBlocking
                                 : device::StreamKind::Blocking,
                       Priority);
    if (!S)
      return S.takeError();
    *Stream = new CUstream_st{&*S, Flags, Priority};
    return Error::success();
  });
}

PTXJIT_CUDA_API CUresult cuStreamGetFlags(CUstream_st *Stream,
                                          unsigned *Flags) {
  if (!Flags)
    return CUDA_ERROR_INVALID_VALUE;
  *Flags = RuntimeState::get().toStream(Stream) ? Stream->Flags : 0;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuStreamGetPriority(CUstream_st *Stream,
                                             int *Priority) {
  if (!Priority)
    return CUDA_ERROR_INVALID_VALUE;
  *Priority = RuntimeState::get().toStream(Stream) ? Stream->Priority : 0;
  return CUDA_SUCCESS;
}
