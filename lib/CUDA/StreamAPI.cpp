//===- StreamAPI.cpp - Streams, events, host callbacks --------------------===//
//
// cudaStream_t and cudaEvent_t are our own objects over device::Stream and
// its tickets: recording an event queues a piece of work that notes the
// time; waiting for an event waits for its ticket. Every operation asks
// stream capture (Capture.h) first, which may take it into a graph.
//
//===----------------------------------------------------------------------===//

#include "APIHelpers.h"
#include "Capture.h"
#include "DeviceProperties.h"
#include <algorithm>
#include <chrono>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

static constexpr unsigned StreamNonBlocking = 0x1;

PTXJIT_CUDART_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *Out,
                                                           unsigned Flags,
                                                           int Priority) {
  if (!Out || (Flags & ~StreamNonBlocking))
    return setLastError(cudaErrorInvalidValue);
  // Priorities out of the device's range are clamped into it, as CUDA does.
  Priority = std::clamp(Priority, GreatestStreamPriority, LeastStreamPriority);
  return withContext([&](device::Context &C) -> Error {
    Expected<device::Stream &> S = C.createStream(
        Flags & StreamNonBlocking ? device::StreamKind::NonBlocking
                                  : device::StreamKind::Blocking,
        Priority);
    if (!S)
      return S.takeError();
    *Out = new CUstream_st{&*S, Flags, Priority};
    return Error::success();
  });
}

PTXJIT_CUDART_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *Out,
                                                        unsigned Flags) {
  return cudaStreamCreateWithPriority(Out, Flags, 0);
}

PTXJIT_CUDART_API cudaError_t cudaStreamCreate(cudaStream_t *Out) {
  return cudaStreamCreateWithPriority(Out, 0, 0);
}

PTXJIT_CUDART_API cudaError_t cudaStreamDestroy(cudaStream_t Stream) {
  if (!RuntimeState::get().toStream(Stream))
    return setLastError(cudaError_t(device::ErrorCode::InvalidResourceHandle));
  forgetCapturingStream(Stream);
  return withContext([&](device::Context &C) {
    device::Stream *Doomed = Stream->S;
    Error E = C.destroyStream(*Doomed);
    RuntimeState::get().forgetStreamInEvents(Doomed);
    delete Stream;
    return E;
  });
}

PTXJIT_CUDART_API cudaError_t cudaStreamSynchronize(cudaStream_t Stream) {
  return withContext([&](device::Context &C) {
    if (Error E = checkStreamSync(Stream))
      return E;
    device::Stream *S = RuntimeState::get().toStream(Stream);
    return (S ? *S : C.getDefaultStream()).synchronize();
  });
}

PTXJIT_CUDART_API cudaError_t cudaStreamQuery(cudaStream_t Stream) {
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

PTXJIT_CUDART_API cudaError_t cudaStreamGetFlags(cudaStream_t Stream,
                                                 unsigned *Flags) {
  if (!Flags)
    return setLastError(cudaErrorInvalidValue);
  *Flags = RuntimeState::get().toStream(Stream) ? Stream->Flags : 0;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaStreamGetPriority(cudaStream_t Stream,
                                                    int *Priority) {
  if (!Priority)
    return setLastError(cudaErrorInvalidValue);
  *Priority = RuntimeState::get().toStream(Stream) ? Stream->Priority : 0;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaStreamGetId(cudaStream_t Stream,
                                              unsigned long long *Id) {
  if (!Id)
    return setLastError(cudaErrorInvalidValue);
  // Unique while the stream lives; the legacy and per-thread default
  // streams are 0 (here they are one stream).
  *Id = RuntimeState::get().toStream(Stream)
            ? reinterpret_cast<uintptr_t>(Stream->S)
            : 0;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaStreamGetDevice(cudaStream_t Stream,
                                                  int *Device) {
  if (!Device)
    return setLastError(cudaErrorInvalidValue);
  *Device = 0;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaLaunchHostFunc(cudaStream_t Stream,
                                                 cudaHostFn_t Fn,
                                                 void *UserData) {
  if (!Fn)
    return setLastError(cudaErrorInvalidValue);
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

PTXJIT_CUDART_API cudaError_t
cudaStreamAddCallback(cudaStream_t Stream, cudaStreamCallback_t Callback,
                      void *UserData, unsigned Flags) {
  if (!Callback)
    return setLastError(cudaErrorInvalidValue);
  return withContext([&](device::Context &C) -> Error {
    // Graphs have host nodes (cudaLaunchHostFunc), not callbacks.
    if (Error E = refuseInCapture(Stream, "cudaStreamAddCallback",
                                  device::ErrorCode::StreamCaptureUnsupported))
      return E;
    C.enqueue(RuntimeState::get().toStream(Stream), [=, &C] {
      // The callback is told whether the device has failed.
      cudaError_t Status = cudaSuccess;
      if (C.hasStickyError())
        Status = cudaError_t(device::takeError(C.getStickyError()).first);
      Callback(Stream, Status, UserData);
      return Error::success();
    });
    return Error::success();
  });
}

PTXJIT_CUDART_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *Event,
                                                       unsigned Flags) {
  if (!Event)
    return setLastError(cudaErrorInvalidValue);
  *Event = RuntimeState::get().createEvent(Flags);
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaEventCreate(cudaEvent_t *Event) {
  return cudaEventCreateWithFlags(Event, 0);
}

PTXJIT_CUDART_API cudaError_t cudaEventDestroy(cudaEvent_t Event) {
  if (!Event)
    return setLastError(cudaError_t(device::ErrorCode::InvalidResourceHandle));
  RuntimeState::get().destroyEvent(Event);
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t Event,
                                                       cudaStream_t Stream,
                                                       unsigned Flags) {
  if (!Event)
    return setLastError(cudaError_t(device::ErrorCode::InvalidResourceHandle));
  if (Flags & ~cudaEventRecordExternal)
    return setLastError(cudaErrorInvalidValue);
  return withContext([&](device::Context &C) -> Error {
    Expected<bool> Captured = captureEventRecord(*Event, Stream, Flags);
    if (!Captured)
      return Captured.takeError();
    if (!*Captured)
      recordEvent(C, *Event, RuntimeState::get().toStream(Stream));
    return Error::success();
  });
}

PTXJIT_CUDART_API cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t Event,
                                                            cudaStream_t Stream,
                                                            unsigned Flags) {
  return cudaEventRecordWithFlags(Event, Stream, Flags);
}

PTXJIT_CUDART_API cudaError_t cudaEventRecord(cudaEvent_t Event,
                                              cudaStream_t Stream) {
  return cudaEventRecordWithFlags(Event, Stream, 0);
}

PTXJIT_CUDART_API cudaError_t cudaEventSynchronize(cudaEvent_t Event) {
  if (!Event)
    return setLastError(cudaError_t(device::ErrorCode::InvalidResourceHandle));
  if (Error E = checkEventUse(*Event))
    return setLastError(std::move(E));
  if (Event->S)
    Event->S->waitFor(Event->Ticket);
  if (device::Context *C = RuntimeState::get().peekContext())
    return setLastError(C->getStickyError());
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaEventQuery(cudaEvent_t Event) {
  if (!Event)
    return setLastError(cudaError_t(device::ErrorCode::InvalidResourceHandle));
  if (Error E = checkEventUse(*Event))
    return setLastError(std::move(E));
  if (Event->S && !Event->S->isComplete(Event->Ticket))
    return cudaErrorNotReady; // not an error: not recorded as one
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t Start,
                                                   cudaEvent_t End) {
  if (!Ms || !Start || !End)
    return setLastError(cudaErrorInvalidValue);
  if (Error E = joinErrors(checkEventUse(*Start), checkEventUse(*End)))
    return setLastError(std::move(E));
  switch (getElapsedTime(*Start, *End, *Ms)) {
  case ElapsedTime::Measured:
    return cudaSuccess;
  case ElapsedTime::NotReady:
    return setLastError(cudaErrorNotReady);
  case ElapsedTime::Invalid:
    break;
  }
  return setLastError(cudaError_t(device::ErrorCode::InvalidResourceHandle));
}

PTXJIT_CUDART_API cudaError_t cudaStreamWaitEvent(cudaStream_t Stream,
                                                  cudaEvent_t Event,
                                                  unsigned Flags) {
  if (!Event)
    return setLastError(cudaError_t(device::ErrorCode::InvalidResourceHandle));
  if (Flags & ~cudaEventWaitExternal)
    return setLastError(cudaErrorInvalidValue);
  return withContext([&](device::Context &C) -> Error {
    Expected<bool> Captured = captureEventWait(Stream, *Event, Flags);
    if (!Captured)
      return Captured.takeError();
    if (!*Captured)
      waitForEvent(C, RuntimeState::get().toStream(Stream), *Event);
    return Error::success();
  });
}
