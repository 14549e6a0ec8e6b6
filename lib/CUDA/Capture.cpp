//===- Capture.cpp - Stream capture into CUDA graphs ----------------------===//

#include "Capture.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <thread>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

std::atomic<unsigned> cuda::detail::NumCaptures{0};

namespace ptxjit {
namespace cuda {

struct CaptureSequence;

/// A stream's part in a capture: the nodes its next node depends on.
struct StreamCapture {
  CaptureSequence *Sequence;
  CUstream_st *Stream;
  SmallVector<CUgraphNode_st *, 2> Dependencies;
  /// All zero, one per dependency (cudaStreamGetCaptureInfo's edge data).
  std::vector<cudaGraphEdgeData> EdgeData;

  void setDependencies(ArrayRef<CUgraphNode_st *> Nodes) {
    Dependencies.assign(Nodes.begin(), Nodes.end());
  }
};

/// One capture: begun on its origin stream, joined by the streams that
/// waited for its events, ended on the origin.
struct CaptureSequence {
  uint64_t Id;
  cudaStreamCaptureMode Mode;
  std::thread::id Thread;
  CUstream_st *Origin;
  CUgraph_st *Graph;
  /// Null when capture is into the program's graph.
  std::unique_ptr<CUgraph_st> OwnedGraph;
  bool Invalidated = false;
  std::vector<std::unique_ptr<StreamCapture>> Streams;

  StreamCapture &join(CUstream_st *S) {
    Streams.push_back(std::make_unique<StreamCapture>());
    StreamCapture &SC = *Streams.back();
    SC.Sequence = this;
    SC.Stream = S;
    S->Capture = &SC;
    return SC;
  }
  bool hasBlockingStream() const {
    return llvm::any_of(Streams, [](const std::unique_ptr<StreamCapture> &SC) {
      return !(SC->Stream->Flags & 0x1); // not cudaStreamNonBlocking
    });
  }
};

} // namespace cuda
} // namespace ptxjit

namespace {

/// The process's captures.
struct CaptureState {
  std::mutex Lock;
  uint64_t NextId = 1;
  std::vector<std::unique_ptr<CaptureSequence>> Sequences;

  static CaptureState &get() {
    static CaptureState *S = new CaptureState();
    return *S;
  }

  CaptureSequence *find(uint64_t Id) {
    for (const std::unique_ptr<CaptureSequence> &Seq : Sequences)
      if (Seq->Id == Id)
        return Seq.get();
    return nullptr;
  }

  /// Ends Seq: its streams capture no more.
  std::unique_ptr<CaptureSequence> end(CaptureSequence *Seq) {
    for (const std::unique_ptr<StreamCapture> &SC : Seq->Streams)
      SC->Stream->Capture = nullptr;
    std::unique_ptr<CaptureSequence> Ended;
    for (auto It = Sequences.begin(); It != Sequences.end(); ++It)
      if (It->get() == Seq) {
        Ended = std::move(*It);
        Sequences.erase(It);
        break;
      }
    cuda::detail::NumCaptures.fetch_sub(1, std::memory_order_release);
    return Ended;
  }
};

thread_local cudaStreamCaptureMode ThreadMode = cudaStreamCaptureModeGlobal;

Error captureError(device::ErrorCode Code, const Twine &Why) {
  return device::makeDeviceError(Code, Why);
}

bool isLegacy(cudaStream_t S) { return !RuntimeState::get().toStream(S); }

/// The legacy stream may not be used while a blocking stream captures: it
/// would depend on the capture. Invalidates those captures.
Error checkLegacyUse(CaptureState &State) {
  bool Implicit = false;
  for (const std::unique_ptr<CaptureSequence> &Seq : State.Sequences)
    if (Seq->hasBlockingStream()) {
      Seq->Invalidated = true;
      Implicit = true;
    }
  if (Implicit)
    return captureError(device::ErrorCode::StreamCaptureImplicit,
                        "the legacy stream cannot be used while a blocking "
                        "stream captures");
  return Error::success();
}

/// The capture S takes part in, if any; an error if it was invalidated.
Expected<StreamCapture *> activeCapture(cudaStream_t S) {
  if (isLegacy(S) || !S->Capture)
    return nullptr;
  if (S->Capture->Sequence->Invalidated)
    return captureError(device::ErrorCode::StreamCaptureInvalidated,
                        "the stream's capture was invalidated by an earlier "
                        "error");
  return S->Capture;
}

/// Adds a node with P to SC's capture after SC's dependencies, which it
/// becomes.
Error addCapturedNode(StreamCapture &SC, NodeParams P) {
  Expected<CUgraphNode_st *> N =
      addNode(*SC.Sequence->Graph, SC.Dependencies, std::move(P));
  if (!N) {
    SC.Sequence->Invalidated = true;
    return N.takeError();
  }
  SC.setDependencies(*N);
  return Error::success();
}

} // namespace

Expected<bool>
cuda::detail::captureOperation(cudaStream_t S,
                               function_ref<Expected<NodeParams>()> Make) {
  CaptureState &State = CaptureState::get();
  std::lock_guard<std::mutex> G(State.Lock);
  if (isLegacy(S)) {
    if (Error E = checkLegacyUse(State))
      return std::move(E);
    return false;
  }
  Expected<StreamCapture *> SC = activeCapture(S);
  if (!SC)
    return SC.takeError();
  if (!*SC)
    return false;
  Expected<NodeParams> P = Make();
  if (!P) {
    (*SC)->Sequence->Invalidated = true;
    return P.takeError();
  }
  if (Error E = addCapturedNode(**SC, std::move(*P)))
    return std::move(E);
  return true;
}

Error cuda::refuseInCapture(cudaStream_t S, StringRef What,
                            device::ErrorCode Code) {
  if (!isAnyStreamCapturing())
    return Error::success();
  CaptureState &State = CaptureState::get();
  std::lock_guard<std::mutex> G(State.Lock);
  if (isLegacy(S))
    return checkLegacyUse(State);
  if (!S->Capture)
    return Error::success();
  S->Capture->Sequence->Invalidated = true;
  return captureError(Code, What + " cannot be captured into a graph");
}

Expected<bool> cuda::captureEventRecord(CUevent_st &Ev, cudaStream_t S,
                                        unsigned Flags) {
  if (!isAnyStreamCapturing())
    return false;
  CaptureState &State = CaptureState::get();
  std::lock_guard<std::mutex> G(State.Lock);
  if (isLegacy(S)) {
    if (Error E = checkLegacyUse(State))
      return std::move(E);
    return false;
  }
  Expected<StreamCapture *> SC = activeCapture(S);
  if (!SC)
    return SC.takeError();
  if (!*SC)
    return false;
  if (Flags & cudaEventRecordExternal) {
    if (Error E = addCapturedNode(**SC, EventRecordNode{&Ev}))
      return std::move(E);
    return true;
  }
  // The event stands for the work captured so far; waits for it depend on
  // it.
  Ev.CaptureDependencies = (*SC)->Dependencies;
  Ev.CaptureId = (*SC)->Sequence->Id;
  return true;
}

Expected<bool> cuda::captureEventWait(cudaStream_t S, CUevent_st &Ev,
                                      unsigned Flags) {
  uint64_t Id = Ev.CaptureId;
  if (!Id && !isAnyStreamCapturing())
    return false;
  CaptureState &State = CaptureState::get();
  std::lock_guard<std::mutex> G(State.Lock);
  if (!Id) {
    // An event recorded outside any capture.
    if (isLegacy(S)) {
      if (Error E = checkLegacyUse(State))
        return std::move(E);
      return false;
    }
    Expected<StreamCapture *> SC = activeCapture(S);
    if (!SC)
      return SC.takeError();
    if (!*SC)
      return false;
    std::lock_guard<std::mutex> EG(Ev.Lock);
    if (!Ev.S)
      return true; // never recorded: nothing to wait for
    if (Flags & cudaEventWaitExternal) {
      if (Error E = addCapturedNode(**SC, EventWaitNode{&Ev}))
        return std::move(E);
      return true;
    }
    (*SC)->Sequence->Invalidated = true;
    return captureError(device::ErrorCode::StreamCaptureIsolation,
                        "a capturing stream cannot wait for work outside the "
                        "capture (record the event with "
                        "cudaEventWaitExternal to make it a node)");
  }
  CaptureSequence *Seq = State.find(Id);
  if (!Seq)
    return captureError(device::ErrorCode::CapturedEvent,
                        "the event was last recorded in a capture that has "
                        "ended");
  if (isLegacy(S)) {
    Seq->Invalidated = true;
    return captureError(device::ErrorCode::StreamCaptureUnsupported,
                        "the legacy stream cannot join a capture");
  }
  if (S->Capture && S->Capture->Sequence != Seq) {
    Seq->Invalidated = true;
    S->Capture->Sequence->Invalidated = true;
    return captureError(device::ErrorCode::StreamCaptureMerge,
                        "the wait would merge two captures");
  }
  if (Seq->Invalidated)
    return captureError(device::ErrorCode::StreamCaptureInvalidated,
                        "the event's capture was invalidated by an earlier "
                        "error");
  // The stream joins the capture (a fork), or depends on another branch of
  // it too (a join).
  StreamCapture &SC = S->Capture ? *S->Capture : Seq->join(S);
  for (CUgraphNode_st *N : Ev.CaptureDependencies)
    if (!llvm::is_contained(SC.Dependencies, N))
      SC.Dependencies.push_back(N);
  return true;
}

Error cuda::checkStreamSync(cudaStream_t S) {
  if (!isAnyStreamCapturing())
    return Error::success();
  CaptureState &State = CaptureState::get();
  std::lock_guard<std::mutex> G(State.Lock);
  if (isLegacy(S))
    return checkLegacyUse(State);
  if (!S->Capture)
    return Error::success();
  S->Capture->Sequence->Invalidated = true;
  return captureError(device::ErrorCode::StreamCaptureUnsupported,
                      "a capturing stream cannot be synchronized or queried");
}

Error cuda::checkEventUse(const CUevent_st &Ev) {
  if (Ev.CaptureId)
    return captureError(device::ErrorCode::CapturedEvent,
                        "the event was last recorded in a capturing stream");
  return Error::success();
}

/// Under the thread's mode, the captures that forbid unsafe calls: its own
/// unless relaxed, and, in global mode, other threads' global ones.
static Error checkUnsafe(CaptureState &State) {
  if (ThreadMode == cudaStreamCaptureModeRelaxed)
    return Error::success();
  std::thread::id Me = std::this_thread::get_id();
  bool Forbidden = false;
  for (const std::unique_ptr<CaptureSequence> &Seq : State.Sequences) {
    bool Mine = Seq->Thread == Me;
    if ((Mine && Seq->Mode != cudaStreamCaptureModeRelaxed) ||
        (!Mine && ThreadMode == cudaStreamCaptureModeGlobal &&
         Seq->Mode == cudaStreamCaptureModeGlobal)) {
      Seq->Invalidated = true;
      Forbidden = true;
    }
  }
  if (Forbidden)
    return captureError(device::ErrorCode::StreamCaptureUnsupported,
                        "the call is not permitted while a stream captures "
                        "(see cudaThreadExchangeStreamCaptureMode)");
  return Error::success();
}

Error cuda::checkUnsafeCall() {
  if (!isAnyStreamCapturing())
    return Error::success();
  CaptureState &State = CaptureState::get();
  std::lock_guard<std::mutex> G(State.Lock);
  return checkUnsafe(State);
}

Error cuda::checkLegacySync() {
  if (!isAnyStreamCapturing())
    return Error::success();
  CaptureState &State = CaptureState::get();
  std::lock_guard<std::mutex> G(State.Lock);
  if (Error E = checkLegacyUse(State))
    return E;
  return checkUnsafe(State);
}

Error cuda::beginCapture(cudaStream_t S, int Mode, CUgraph_st *Into,
                         ArrayRef<CUgraphNode_st *> Dependencies) {
  if (Mode < cudaStreamCaptureModeGlobal || Mode > cudaStreamCaptureModeRelaxed)
    return captureError(device::ErrorCode::InvalidValue,
                        "unknown stream capture mode " + Twine(Mode));
  if (isLegacy(S))
    return captureError(device::ErrorCode::StreamCaptureUnsupported,
                        "the legacy stream cannot capture (capture a stream "
                        "of your own)");
  for (CUgraphNode_st *N : Dependencies)
    if (!Into || !isNodeOf(*Into, N))
      return captureError(device::ErrorCode::InvalidValue,
                          "a dependency is not a node of the graph");
  CaptureState &State = CaptureState::get();
  std::lock_guard<std::mutex> G(State.Lock);
  if (S->Capture)
    return captureError(device::ErrorCode::IllegalState,
                        "the stream is capturing already");
  auto Seq = std::make_unique<CaptureSequence>();
  Seq->Id = State.NextId++;
  Seq->Mode = cudaStreamCaptureMode(Mode);
  Seq->Thread = std::this_thread::get_id();
  Seq->Origin = S;
  if (!Into) {
    Seq->OwnedGraph = std::make_unique<CUgraph_st>();
    Into = Seq->OwnedGraph.get();
  }
  Seq->Graph = Into;
  Seq->join(S).setDependencies(Dependencies);
  State.Sequences.push_back(std::move(Seq));
  cuda::detail::NumCaptures.fetch_add(1, std::memory_order_release);
  return Error::success();
}

/// The nodes Roots depend on, directly or not, and Roots themselves.
static DenseSet<const CUgraphNode_st *>
getAncestors(ArrayRef<CUgraphNode_st *> Roots) {
  DenseSet<const CUgraphNode_st *> Seen;
  SmallVector<const CUgraphNode_st *, 16> Work(Roots.begin(), Roots.end());
  while (!Work.empty()) {
    const CUgraphNode_st *N = Work.pop_back_val();
    if (!Seen.insert(N).second)
      continue;
    Work.append(N->Dependencies.begin(), N->Dependencies.end());
  }
  return Seen;
}

Expected<CUgraph_st *> cuda::endCapture(cudaStream_t S) {
  if (isLegacy(S))
    return captureError(device::ErrorCode::IllegalState,
                        "the legacy stream does not capture");
  CaptureState &State = CaptureState::get();
  std::lock_guard<std::mutex> G(State.Lock);
  if (!S->Capture)
    return captureError(device::ErrorCode::IllegalState,
                        "the stream is not capturing");
  CaptureSequence *Seq = S->Capture->Sequence;
  if (Seq->Origin != S)
    return captureError(device::ErrorCode::StreamCaptureUnmatched,
                        "capture must end in the stream that began it");
  if (Seq->Mode != cudaStreamCaptureModeRelaxed &&
      Seq->Thread != std::this_thread::get_id())
    return captureError(device::ErrorCode::StreamCaptureWrongThread,
                        "a capture not begun in relaxed mode must end in the "
                        "thread that began it");
  // Every stream that joined must have been joined back into the origin:
  // the nodes they would depend on next are the origin's ancestors.
  DenseSet<const CUgraphNode_st *> Joined =
      getAncestors(S->Capture->Dependencies);
  bool Unjoined =
      llvm::any_of(Seq->Streams, [&](const std::unique_ptr<StreamCapture> &SC) {
        return llvm::any_of(SC->Dependencies, [&](const CUgraphNode_st *N) {
          return !Joined.contains(N);
        });
      });
  std::unique_ptr<CaptureSequence> Ended = State.end(Seq);
  if (Ended->Invalidated)
    return captureError(device::ErrorCode::StreamCaptureInvalidated,
                        "the capture was invalidated by an earlier error");
  if (Unjoined)
    return captureError(device::ErrorCode::StreamCaptureUnjoined,
                        "a stream forked from the capture was not joined back "
                        "into the stream that began it");
  if (Ended->OwnedGraph)
    return Ended->OwnedGraph.release();
  return Ended->Graph;
}

Expected<CaptureInfo> cuda::getCaptureInfo(cudaStream_t S) {
  CaptureInfo Info;
  if (!isAnyStreamCapturing())
    return Info;
  CaptureState &State = CaptureState::get();
  std::lock_guard<std::mutex> G(State.Lock);
  if (isLegacy(S)) {
    // Asking is not using: no capture is invalidated.
    for (const std::unique_ptr<CaptureSequence> &Seq : State.Sequences)
      if (Seq->hasBlockingStream())
        return captureError(device::ErrorCode::StreamCaptureImplicit,
                            "the legacy stream is unusable while a blocking "
                            "stream captures");
    return Info;
  }
  StreamCapture *SC = S->Capture;
  if (!SC)
    return Info;
  if (SC->Sequence->Invalidated) {
    Info.Status = cudaStreamCaptureStatusInvalidated;
    return Info;
  }
  Info.Status = cudaStreamCaptureStatusActive;
  Info.Id = SC->Sequence->Id;
  Info.Graph = SC->Sequence->Graph;
  Info.Dependencies = SC->Dependencies;
  SC->EdgeData.assign(SC->Dependencies.size(), cudaGraphEdgeData{});
  Info.EdgeData = SC->EdgeData.data();
  return Info;
}

Error cuda::updateCaptureDependencies(cudaStream_t S,
                                      ArrayRef<CUgraphNode_st *> Nodes,
                                      unsigned Flags) {
  if (Flags > cudaStreamSetCaptureDependencies)
    return captureError(device::ErrorCode::InvalidValue,
                        "unknown flags " + Twine(Flags));
  CaptureState &State = CaptureState::get();
  std::lock_guard<std::mutex> G(State.Lock);
  if (isLegacy(S) || !S->Capture)
    return captureError(device::ErrorCode::IllegalState,
                        "the stream is not capturing");
  StreamCapture &SC = *S->Capture;
  for (CUgraphNode_st *N : Nodes)
    if (!isNodeOf(*SC.Sequence->Graph, N))
      return captureError(device::ErrorCode::InvalidValue,
                          "a node is not of the capture's graph");
  if (Flags == cudaStreamSetCaptureDependencies)
    SC.Dependencies.clear();
  for (CUgraphNode_st *N : Nodes)
    if (!llvm::is_contained(SC.Dependencies, N))
      SC.Dependencies.push_back(N);
  return Error::success();
}

Error cuda::exchangeCaptureMode(int *Mode) {
  if (!Mode || *Mode < cudaStreamCaptureModeGlobal ||
      *Mode > cudaStreamCaptureModeRelaxed)
    return captureError(device::ErrorCode::InvalidValue,
                        "unknown stream capture mode");
  cudaStreamCaptureMode Old = ThreadMode;
  ThreadMode = cudaStreamCaptureMode(*Mode);
  *Mode = Old;
  return Error::success();
}

void cuda::forgetCapturingStream(cudaStream_t S) {
  if (isLegacy(S) || !isAnyStreamCapturing())
    return;
  CaptureState &State = CaptureState::get();
  std::lock_guard<std::mutex> G(State.Lock);
  if (!S->Capture)
    return;
  CaptureSequence *Seq = S->Capture->Sequence;
  Seq->Invalidated = true;
  if (Seq->Origin == S) {
    State.end(Seq); // nothing can end it now
    return;
  }
  S->Capture = nullptr;
  llvm::erase_if(Seq->Streams, [&](const std::unique_ptr<StreamCapture> &SC) {
    return SC->Stream == S;
  });
}
