//===- StreamAPI.cpp - Streams, events, host callbacks --------------------===//
//
// cudaStream_t and cudaEvent_t are our own objects over device::Stream and
// its tickets: recording an event queues a piece of work that notes the
// time; waiting for an event waits for its ticket.
//
//===----------------------------------------------------------------------===//

#include "APIHelpers.h"
#include <chrono>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

static constexpr unsigned StreamNonBlocking = 0x1;
static constexpr unsigned EventDisableTiming = 0x2;

PTXJIT_CUDART_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *Out,
                                                           unsigned Flags,
                                                           int Priority) {
  if (!Out)
    return setLastError(cudaErrorInvalidValue);
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
  return withContext([&](device::Context &C) {
    Error E = C.destroyStream(*Stream->S);
    delete Stream;
    return E;
  });
}

PTXJIT_CUDART_API cudaError_t cudaStreamSynchronize(cudaStream_t Stream) {
  return withContext([&](device::Context &C) {
    device::Stream *S = RuntimeState::get().toStream(Stream);
    return (S ? *S : C.getDefaultStream()).synchronize();
  });
}

PTXJIT_CUDART_API cudaError_t cudaStreamQuery(cudaStream_t Stream) {
  return withContext([&](device::Context &C) -> Error {
    if (Error E = C.getStickyError())
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

PTXJIT_CUDART_API cudaError_t cudaLaunchHostFunc(cudaStream_t Stream,
                                                 cudaHostFn_t Fn,
                                                 void *UserData) {
  if (!Fn)
    return setLastError(cudaErrorInvalidValue);
  return withContext([&](device::Context &C) {
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
  return withContext([&](device::Context &C) {
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
  *Event = new CUevent_st();
  (*Event)->Flags = Flags;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaEventCreate(cudaEvent_t *Event) {
  return cudaEventCreateWithFlags(Event, 0);
}

PTXJIT_CUDART_API cudaError_t cudaEventDestroy(cudaEvent_t Event) {
  if (!Event)
    return setLastError(cudaError_t(device::ErrorCode::InvalidResourceHandle));
  // Work that will record it may still be queued: let it finish first.
  if (Event->S)
    Event->S->waitFor(Event->Ticket);
  delete Event;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaEventRecord(cudaEvent_t Event,
                                              cudaStream_t Stream) {
  if (!Event)
    return setLastError(cudaError_t(device::ErrorCode::InvalidResourceHandle));
  return withContext([&](device::Context &C) {
    device::Stream *S = RuntimeState::get().toStream(Stream);
    uint64_t Ticket = C.enqueue(S, [Event] {
      std::lock_guard<std::mutex> G(Event->Lock);
      Event->When = std::chrono::steady_clock::now();
      return Error::success();
    });
    std::lock_guard<std::mutex> G(Event->Lock);
    Event->S = S ? S : &C.getDefaultStream();
    Event->Ticket = Ticket;
    return Error::success();
  });
}

PTXJIT_CUDART_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t Event,
                                                       cudaStream_t Stream,
                                                       unsigned Flags) {
  return cudaEventRecord(Event, Stream);
}

PTXJIT_CUDART_API cudaError_t cudaEventSynchronize(cudaEvent_t Event) {
  if (!Event)
    return setLastError(cudaError_t(device::ErrorCode::InvalidResourceHandle));
  if (Event->S)
    Event->S->waitFor(Event->Ticket);
  if (device::Context *C = RuntimeState::get().peekContext())
    return setLastError(C->getStickyError());
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaEventQuery(cudaEvent_t Event) {
  if (!Event)
    return setLastError(cudaError_t(device::ErrorCode::InvalidResourceHandle));
  if (Event->S && !Event->S->isComplete(Event->Ticket))
    return cudaErrorNotReady; // not an error: not recorded as one
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t Start,
                                                   cudaEvent_t End) {
  if (!Ms || !Start || !End)
    return setLastError(cudaErrorInvalidValue);
  if ((Start->Flags | End->Flags) & EventDisableTiming)
    return setLastError(cudaError_t(device::ErrorCode::InvalidResourceHandle));
  if (!Start->S || !End->S)
    return setLastError(cudaError_t(device::ErrorCode::InvalidResourceHandle));
  if (!Start->S->isComplete(Start->Ticket) || !End->S->isComplete(End->Ticket))
    return setLastError(cudaErrorNotReady);
  std::chrono::duration<float, std::milli> D = End->When - Start->When;
  *Ms = D.count();
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaStreamWaitEvent(cudaStream_t Stream,
                                                  cudaEvent_t Event,
                                                  unsigned Flags) {
  if (!Event)
    return setLastError(cudaError_t(device::ErrorCode::InvalidResourceHandle));
  if (!Event->S)
    return cudaSuccess; // never recorded: nothing to wait for
  return withContext([&](device::Context &C) {
    C.enqueueWait(RuntimeState::get().toStream(Stream), *Event->S,
                  Event->Ticket);
    return Error::success();
  });
}

// Stream capture and graphs are not there yet: say so, never crash.
PTXJIT_CUDART_API cudaError_t cudaStreamBeginCapture(cudaStream_t, int) {
  return setLastError(cudaError_t(device::ErrorCode::NotSupported));
}
PTXJIT_CUDART_API cudaError_t cudaStreamEndCapture(cudaStream_t, void **) {
  return setLastError(cudaError_t(device::ErrorCode::NotSupported));
}
PTXJIT_CUDART_API cudaError_t cudaStreamIsCapturing(cudaStream_t, int *Status) {
  if (Status)
    *Status = 0; // cudaStreamCaptureStatusNone
  return cudaSuccess;
}
PTXJIT_CUDART_API cudaError_t cudaGraphCreate(void **, unsigned) {
  return setLastError(cudaError_t(device::ErrorCode::NotSupported));
}
PTXJIT_CUDART_API cudaError_t cudaGraphInstantiate(void **, void *,
                                                   unsigned long long) {
  return setLastError(cudaError_t(device::ErrorCode::NotSupported));
}
PTXJIT_CUDART_API cudaError_t cudaGraphLaunch(void *, cudaStream_t) {
  return setLastError(cudaError_t(device::ErrorCode::NotSupported));
}
