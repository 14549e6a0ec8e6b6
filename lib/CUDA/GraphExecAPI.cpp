//===- GraphExecAPI.cpp - The runtime's executable graphs -----------------===//
//
// Instantiation, launch, and the changes an executable graph allows: new
// parameters for a node of the same type, enabling and disabling nodes,
// and cudaGraphExecUpdate from a graph of the same topology.
//
//===----------------------------------------------------------------------===//

#include "APIHelpers.h"
#include "Capture.h"
#include "GraphAPIHelpers.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

static cudaError_t instantiateGraph(cudaGraphExec_t *Exec, cudaGraph_t Graph,
                                    unsigned long long Flags,
                                    cudaGraphInstantiateParams *Params) {
  if (!Exec || !Graph)
    return setLastError(cudaErrorInvalidValue);
  CUgraphNode_st *ErrorNode = nullptr;
  Expected<std::unique_ptr<CUgraphExec_st>> E =
      instantiate(*Graph, Flags, &ErrorNode);
  if (!E) {
    auto [Code, Message] = device::takeError(E.takeError());
    if (Params) {
      Params->errNode_out = ErrorNode;
      // A cycle is the structure's fault; a kernel that does not compile is
      // not.
      Params->result_out =
          Code == device::ErrorCode::NotSupported
              ? cudaGraphInstantiateNodeOperationNotSupported
          : Code == device::ErrorCode::InvalidValue && ErrorNode
              ? cudaGraphInstantiateInvalidStructure
              : cudaGraphInstantiateError;
    }
    return setLastError(cudaError_t(Code));
  }
  *Exec = E->release();
  if (Params) {
    Params->errNode_out = nullptr;
    Params->result_out = cudaGraphInstantiateSuccess;
  }
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGraphInstantiate(cudaGraphExec_t *Exec,
                                                   cudaGraph_t Graph,
                                                   unsigned long long Flags) {
  return instantiateGraph(Exec, Graph, Flags, nullptr);
}

PTXJIT_CUDART_API cudaError_t cudaGraphInstantiateWithFlags(
    cudaGraphExec_t *Exec, cudaGraph_t Graph, unsigned long long Flags) {
  return instantiateGraph(Exec, Graph, Flags, nullptr);
}

PTXJIT_CUDART_API cudaError_t
cudaGraphInstantiateWithParams(cudaGraphExec_t *Exec, cudaGraph_t Graph,
                               cudaGraphInstantiateParams *Params) {
  if (!Params)
    return setLastError(cudaErrorInvalidValue);
  return instantiateGraph(Exec, Graph, Params->flags, Params);
}

PTXJIT_CUDART_API cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t Exec,
                                                    unsigned long long *Flags) {
  if (!Exec || !Flags)
    return setLastError(cudaErrorInvalidValue);
  *Flags = Exec->Flags;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGraphExecDestroy(cudaGraphExec_t Exec) {
  if (!Exec)
    return setLastError(cudaErrorInvalidValue);
  // Its queued work holds nothing of it.
  delete Exec;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGraphLaunch(cudaGraphExec_t Exec,
                                              cudaStream_t Stream) {
  if (!Exec)
    return setLastError(cudaErrorInvalidValue);
  return withContext([&](device::Context &C) -> Error {
    // Launched into a capturing stream, the graph becomes a child graph.
    Expected<bool> Captured = captureOperation(Stream, [&] {
      std::lock_guard<std::mutex> G(Exec->Lock);
      return NodeParams(ChildGraphNode(cloneGraph(*Exec->Graph)));
    });
    if (!Captured)
      return Captured.takeError();
    if (*Captured)
      return Error::success();
    return launchGraph(C, *Exec, Stream);
  });
}

PTXJIT_CUDART_API cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t Exec,
                                                   cudaStream_t Stream) {
  return cudaGraphLaunch(Exec, Stream);
}

PTXJIT_CUDART_API cudaError_t cudaGraphUpload(cudaGraphExec_t Exec,
                                              cudaStream_t Stream) {
  // Instantiation compiled the kernels: there is nothing to upload.
  return Exec ? cudaSuccess : setLastError(cudaErrorInvalidValue);
}

PTXJIT_CUDART_API cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t Exec,
                                                   cudaStream_t Stream) {
  return cudaGraphUpload(Exec, Stream);
}

/// Gives the node of Exec made from Node what Make builds.
static cudaError_t setExecNode(cudaGraphExec_t Exec, cudaGraphNode_t Node,
                               function_ref<Expected<NodeParams>()> Make) {
  if (!Exec || !Node)
    return setLastError(cudaErrorInvalidValue);
  Expected<NodeParams> P = Make();
  if (!P)
    return setLastError(P.takeError());
  std::lock_guard<std::mutex> G(Exec->Lock);
  Expected<CUgraphNode_st *> N = getExecNode(*Exec, Node);
  if (!N)
    return setLastError(N.takeError());
  return setLastError(setExecNodeParams(**N, std::move(*P)));
}

template <typename T> static Expected<NodeParams> asNode(Expected<T> P) {
  if (!P)
    return P.takeError();
  return NodeParams(std::move(*P));
}

PTXJIT_CUDART_API cudaError_t cudaGraphExecKernelNodeSetParams(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, const cudaKernelNodeParams *P) {
  return setExecNode(Exec, Node, [&] { return makeRuntimeKernelNode(P); });
}

PTXJIT_CUDART_API cudaError_t cudaGraphExecMemcpyNodeSetParams(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, const cudaMemcpy3DParms *P) {
  return setExecNode(Exec, Node, [&]() -> Expected<NodeParams> {
    if (!P)
      return invalidValue("no copy parameters");
    return asNode(makeCopyNode(*P));
  });
}

PTXJIT_CUDART_API cudaError_t cudaGraphExecMemcpyNodeSetParams1D(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, void *Dst, const void *Src,
    size_t Count, int Kind) {
  return setExecNode(Exec, Node, [&] {
    return asNode(makeCopyNode1D(Dst, Src, Count, Kind));
  });
}

PTXJIT_CUDART_API cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, const void *Symbol,
    const void *Src, size_t Count, size_t Offset, int Kind) {
  return setExecNode(Exec, Node, [&] {
    return makeSymbolCopyNode(Symbol, Src, nullptr, Count, Offset, Kind,
                              /*ToSymbol=*/true);
  });
}

PTXJIT_CUDART_API cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, void *Dst, const void *Symbol,
    size_t Count, size_t Offset, int Kind) {
  return setExecNode(Exec, Node, [&] {
    return makeSymbolCopyNode(Symbol, nullptr, Dst, Count, Offset, Kind,
                              /*ToSymbol=*/false);
  });
}

PTXJIT_CUDART_API cudaError_t cudaGraphExecMemsetNodeSetParams(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, const cudaMemsetParams *P) {
  return setExecNode(Exec, Node, [&]() -> Expected<NodeParams> {
    if (!P)
      return invalidValue("no memset parameters");
    return asNode(makeSetNode(*P));
  });
}

PTXJIT_CUDART_API cudaError_t cudaGraphExecHostNodeSetParams(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, const cudaHostNodeParams *P) {
  return setExecNode(Exec, Node, [&]() -> Expected<NodeParams> {
    if (!P)
      return invalidValue("no host node parameters");
    return asNode(makeHostNode(*P));
  });
}

PTXJIT_CUDART_API cudaError_t cudaGraphExecChildGraphNodeSetParams(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, cudaGraph_t Child) {
  return setExecNode(Exec, Node, [&]() -> Expected<NodeParams> {
    if (!Child)
      return invalidValue("no child graph");
    return NodeParams(ChildGraphNode(cloneGraph(*Child)));
  });
}

PTXJIT_CUDART_API cudaError_t cudaGraphExecEventRecordNodeSetEvent(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, cudaEvent_t Event) {
  return setExecNode(Exec, Node, [&]() -> Expected<NodeParams> {
    if (!Event)
      return invalidValue("no event");
    return NodeParams(EventRecordNode{Event});
  });
}

PTXJIT_CUDART_API cudaError_t cudaGraphExecEventWaitNodeSetEvent(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, cudaEvent_t Event) {
  return setExecNode(Exec, Node, [&]() -> Expected<NodeParams> {
    if (!Event)
      return invalidValue("no event");
    return NodeParams(EventWaitNode{Event});
  });
}

PTXJIT_CUDART_API cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t Exec,
                                                      cudaGraphNode_t Node,
                                                      unsigned Enabled) {
  if (!Exec || !Node)
    return setLastError(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> G(Exec->Lock);
  Expected<CUgraphNode_st *> N = getExecNode(*Exec, Node);
  if (!N)
    return setLastError(N.takeError());
  cudaGraphNodeType T = (*N)->getType();
  if (T != cudaGraphNodeTypeKernel && T != cudaGraphNodeTypeMemcpy &&
      T != cudaGraphNodeTypeMemset)
    return setLastError(
        invalidValue("only kernel, memcpy and memset nodes can be disabled"));
  (*N)->Enabled = Enabled != 0;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t Exec,
                                                      cudaGraphNode_t Node,
                                                      unsigned *Enabled) {
  if (!Exec || !Node || !Enabled)
    return setLastError(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> G(Exec->Lock);
  Expected<CUgraphNode_st *> N = getExecNode(*Exec, Node);
  if (!N)
    return setLastError(N.takeError());
  *Enabled = (*N)->Enabled;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t
cudaGraphExecUpdate(cudaGraphExec_t Exec, cudaGraph_t Graph,
                    cudaGraphExecUpdateResultInfo *Info) {
  if (!Exec || !Graph)
    return setLastError(cudaErrorInvalidValue);
  return setLastError(updateExec(*Exec, *Graph, Info));
}
