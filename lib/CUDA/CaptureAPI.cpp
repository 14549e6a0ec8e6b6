//===- CaptureAPI.cpp - The runtime's stream capture ----------------------===//
//
// cudaStreamBeginCapture and its kin over Capture.h; the operations a
// capture takes ask it themselves (StreamAPI, MemoryAPI, Registration).
//
//===----------------------------------------------------------------------===//

#include "APIHelpers.h"
#include "Capture.h"
#include "GraphAPIHelpers.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

PTXJIT_CUDART_API cudaError_t cudaStreamBeginCapture(cudaStream_t Stream,
                                                     int Mode) {
  return setLastError(beginCapture(Stream, Mode, nullptr, {}));
}

PTXJIT_CUDART_API cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t Stream,
                                                          int Mode) {
  return cudaStreamBeginCapture(Stream, Mode);
}

PTXJIT_CUDART_API cudaError_t cudaStreamBeginCaptureToGraph(
    cudaStream_t Stream, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    const cudaGraphEdgeData *EdgeData, size_t NumDeps, int Mode) {
  if (!Graph || (NumDeps && !Deps))
    return setLastError(cudaErrorInvalidValue);
  if (Error E = checkDefaultEdges(EdgeData, NumDeps))
    return setLastError(std::move(E));
  return setLastError(
      beginCapture(Stream, Mode, Graph, ArrayRef(Deps, NumDeps)));
}

PTXJIT_CUDART_API cudaError_t cudaStreamBeginCaptureToGraph_ptsz(
    cudaStream_t Stream, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    const cudaGraphEdgeData *EdgeData, size_t NumDeps, int Mode) {
  return cudaStreamBeginCaptureToGraph(Stream, Graph, Deps, EdgeData, NumDeps,
                                       Mode);
}

PTXJIT_CUDART_API cudaError_t cudaStreamEndCapture(cudaStream_t Stream,
                                                   cudaGraph_t *Graph) {
  if (!Graph)
    return setLastError(cudaErrorInvalidValue);
  Expected<CUgraph_st *> G = endCapture(Stream);
  if (!G) {
    *Graph = nullptr;
    return setLastError(G.takeError());
  }
  *Graph = *G;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t Stream,
                                                        cudaGraph_t *Graph) {
  return cudaStreamEndCapture(Stream, Graph);
}

PTXJIT_CUDART_API cudaError_t cudaStreamIsCapturing(cudaStream_t Stream,
                                                    int *Status) {
  if (!Status)
    return setLastError(cudaErrorInvalidValue);
  Expected<CaptureInfo> Info = getCaptureInfo(Stream);
  if (!Info)
    return setLastError(Info.takeError());
  *Status = Info->Status;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t Stream,
                                                         int *Status) {
  return cudaStreamIsCapturing(Stream, Status);
}

PTXJIT_CUDART_API cudaError_t cudaStreamGetCaptureInfo(
    cudaStream_t Stream, int *Status, unsigned long long *Id,
    cudaGraph_t *Graph, const cudaGraphNode_t **Deps,
    const cudaGraphEdgeData **EdgeData, size_t *NumDeps) {
  if (!Status || (EdgeData && !Deps))
    return setLastError(cudaErrorInvalidValue);
  Expected<CaptureInfo> Info = getCaptureInfo(Stream);
  if (!Info)
    return setLastError(Info.takeError());
  *Status = Info->Status;
  // The rest is valid only while the capture is active.
  if (Info->Status != cudaStreamCaptureStatusActive)
    return cudaSuccess;
  if (Id)
    *Id = Info->Id;
  if (Graph)
    *Graph = Info->Graph;
  if (Deps)
    *Deps = Info->Dependencies.data();
  if (EdgeData)
    *EdgeData = Info->EdgeData;
  if (NumDeps)
    *NumDeps = Info->Dependencies.size();
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaStreamGetCaptureInfo_ptsz(
    cudaStream_t Stream, int *Status, unsigned long long *Id,
    cudaGraph_t *Graph, const cudaGraphNode_t **Deps,
    const cudaGraphEdgeData **EdgeData, size_t *NumDeps) {
  return cudaStreamGetCaptureInfo(Stream, Status, Id, Graph, Deps, EdgeData,
                                  NumDeps);
}

PTXJIT_CUDART_API cudaError_t cudaStreamUpdateCaptureDependencies(
    cudaStream_t Stream, cudaGraphNode_t *Deps,
    const cudaGraphEdgeData *EdgeData, size_t NumDeps, unsigned Flags) {
  if (NumDeps && !Deps)
    return setLastError(cudaErrorInvalidValue);
  if (Error E = checkDefaultEdges(EdgeData, NumDeps))
    return setLastError(std::move(E));
  return setLastError(
      updateCaptureDependencies(Stream, ArrayRef(Deps, NumDeps), Flags));
}

PTXJIT_CUDART_API cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(
    cudaStream_t Stream, cudaGraphNode_t *Deps,
    const cudaGraphEdgeData *EdgeData, size_t NumDeps, unsigned Flags) {
  return cudaStreamUpdateCaptureDependencies(Stream, Deps, EdgeData, NumDeps,
                                             Flags);
}

PTXJIT_CUDART_API cudaError_t cudaThreadExchangeStreamCaptureMode(int *Mode) {
  return setLastError(exchangeCaptureMode(Mode));
}
