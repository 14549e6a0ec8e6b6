//===- Capture.h - Stream capture into CUDA graphs --------------*- C++ -*-===//
//
// While a stream captures, the work given to it becomes nodes of a graph
// instead of running: each captured stream keeps the set of nodes its next
// node depends on. An event recorded in a capturing stream keeps that set,
// and a stream that waits for such an event joins the capture with it, so
// fork and join through events build the graph's branches. The calls a
// capture forbids fail with CUDA's codes and invalidate the captures they
// concern; cudaStreamEndCapture then fails too.
//
// Every stream operation asks captureOperation first: one atomic load when
// no capture is in progress anywhere.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_CUDA_CAPTURE_H
#define PTXJIT_LIB_CUDA_CAPTURE_H

#include "Graph.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Compiler.h"
#include <atomic>

namespace ptxjit {
namespace cuda {

namespace detail {
/// The number of capture sequences in progress, in the whole process.
extern std::atomic<unsigned> NumCaptures;
llvm::Expected<bool>
captureOperation(cudaStream_t S,
                 llvm::function_ref<llvm::Expected<NodeParams>()> Make);
} // namespace detail

/// Whether any stream of the process is capturing.
inline bool isAnyStreamCapturing() {
  return detail::NumCaptures.load(std::memory_order_acquire) != 0;
}

/// A stream operation (a launch, an asynchronous copy or set, a host
/// function, a graph launch) on S. False: no capture concerns it, run it.
/// True: S captures, and the node Make builds was added to its capture.
/// Errors: S's capture was invalidated; S is the legacy stream while a
/// blocking stream captures (that capture is invalidated); Make failed (the
/// capture is invalidated).
inline llvm::Expected<bool>
captureOperation(cudaStream_t S,
                 llvm::function_ref<llvm::Expected<NodeParams>()> Make) {
  if (LLVM_LIKELY(!isAnyStreamCapturing()))
    return false;
  return detail::captureOperation(S, Make);
}

/// captureOperation for a node that Make builds (an Expected of one of
/// NodeParams' node types).
template <typename MakeFn>
llvm::Expected<bool> captureNode(cudaStream_t S, MakeFn &&Make) {
  return captureOperation(S, [&]() -> llvm::Expected<NodeParams> {
    auto N = Make();
    if (!N)
      return N.takeError();
    return NodeParams(std::move(*N));
  });
}

/// An operation the capture of S cannot take: fails with Code (CUDA's
/// StreamCaptureUnsupported for what graphs cannot hold, NotSupported for
/// what they could but these do not) and invalidates the capture. Success
/// when S does not capture.
llvm::Error refuseInCapture(cudaStream_t S, llvm::StringRef What,
                            device::ErrorCode Code);

/// cudaEventRecord[WithFlags] on S: true when S captures (the event keeps
/// S's dependencies, or, with cudaEventRecordExternal, an event record node
/// is added).
llvm::Expected<bool> captureEventRecord(CUevent_st &Ev, cudaStream_t S,
                                        unsigned Flags);
/// cudaStreamWaitEvent: true when the wait joins or extends a capture.
llvm::Expected<bool> captureEventWait(cudaStream_t S, CUevent_st &Ev,
                                      unsigned Flags);

/// cudaStreamSynchronize and cudaStreamQuery of S: not while S captures.
llvm::Error checkStreamSync(cudaStream_t S);
/// cudaEventSynchronize, cudaEventQuery, cudaEventElapsedTime: not for an
/// event last recorded in a capture.
llvm::Error checkEventUse(const CUevent_st &Ev);
/// Calls that are unsafe while capturing (allocation, cudaFree,
/// synchronous copies, device synchronization): refused under the rules
/// of the thread's capture mode, invalidating the captures that forbid
/// them.
llvm::Error checkUnsafeCall();
/// A synchronous operation on the legacy stream (cudaMemcpy): not while a
/// blocking stream captures; unsafe otherwise.
llvm::Error checkLegacySync();

llvm::Error beginCapture(cudaStream_t S, int Mode, CUgraph_st *Into,
                         llvm::ArrayRef<CUgraphNode_st *> Dependencies);
/// Ends the capture S began; the graph is the caller's (or the one
/// capture was into).
llvm::Expected<CUgraph_st *> endCapture(cudaStream_t S);

struct CaptureInfo {
  cudaStreamCaptureStatus Status = cudaStreamCaptureStatusNone;
  uint64_t Id = 0;
  CUgraph_st *Graph = nullptr;
  /// Valid until the next call on the stream.
  llvm::ArrayRef<CUgraphNode_st *> Dependencies;
  const cudaGraphEdgeData *EdgeData = nullptr;
};
/// cudaStreamIsCapturing and cudaStreamGetCaptureInfo.
llvm::Expected<CaptureInfo> getCaptureInfo(cudaStream_t S);
llvm::Error updateCaptureDependencies(cudaStream_t S,
                                      llvm::ArrayRef<CUgraphNode_st *> Nodes,
                                      unsigned Flags);
/// cudaThreadExchangeStreamCaptureMode.
llvm::Error exchangeCaptureMode(int *Mode);
/// S is being destroyed: its capture is invalidated (ended, if S began it).
void forgetCapturingStream(cudaStream_t S);

} // namespace cuda
} // namespace ptxjit

#endif
