//===- GraphAPI.cpp - The runtime's graphs: building and inspecting -------===//
//
// cudaGraph_t and cudaGraphNode_t are Graph.h's objects. Nodes copy their
// parameters when they are made or set. What the emulated device lacks
// (memory nodes, external semaphores, conditional nodes, user objects, the
// generic cudaGraphAddNode) returns cudaErrorNotSupported.
//
//===----------------------------------------------------------------------===//

#include "APIHelpers.h"
#include "GraphAPIHelpers.h"
#include "LaunchAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include <cstring>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

Expected<NodeParams>
cuda::makeRuntimeKernelNode(const cudaKernelNodeParams *P) {
  if (!P)
    return invalidValue("no kernel node parameters");
  RegisteredFunction *F = RuntimeState::get().findFunction(P->func);
  if (!F)
    return device::makeDeviceError(device::ErrorCode::InvalidDeviceFunction,
                                   "the node's function is not a registered "
                                   "kernel");
  Expected<device::Kernel &> K = RuntimeState::get().getKernel(*F);
  if (!K)
    return K.takeError();
  Expected<KernelNode> N = makeKernelNode(
      *K, P->func, {P->gridDim.x, P->gridDim.y, P->gridDim.z},
      {P->blockDim.x, P->blockDim.y, P->blockDim.z}, P->sharedMemBytes,
      P->kernelParams, P->extra, /*Cooperative=*/false);
  if (!N)
    return N.takeError();
  return NodeParams(std::move(*N));
}

Expected<char *> cuda::getSymbolRange(const void *Symbol, size_t Count,
                                      size_t Offset) {
  Expected<device::Allocation> A = RuntimeState::get().getVariable(Symbol);
  if (!A)
    return A.takeError();
  if (Offset > A->Size || Count > A->Size - Offset)
    return invalidValue("the copy runs past the end of the symbol");
  return static_cast<char *>(A->Base) + Offset;
}

Expected<NodeParams> cuda::makeSymbolCopyNode(const void *Symbol,
                                              const void *Src, void *Dst,
                                              size_t Count, size_t Offset,
                                              int Kind, bool ToSymbol) {
  Expected<char *> At = getSymbolRange(Symbol, Count, Offset);
  if (!At)
    return At.takeError();
  Expected<CopyNode> N = ToSymbol ? makeCopyNode1D(*At, Src, Count, Kind)
                                  : makeCopyNode1D(Dst, *At, Count, Kind);
  if (!N)
    return N.takeError();
  return NodeParams(std::move(*N));
}

Error cuda::checkDefaultEdges(const cudaGraphEdgeData *Data, size_t N) {
  if (Data)
    for (const cudaGraphEdgeData &D : ArrayRef(Data, N))
      if (D.from_port || D.to_port || D.type)
        return device::makeDeviceError(device::ErrorCode::NotSupported,
                                       "only default graph edges are "
                                       "supported");
  return Error::success();
}

/// Adds the node Make builds to Graph after Deps.
static cudaError_t addGraphNode(cudaGraphNode_t *Out, cudaGraph_t Graph,
                                const cudaGraphNode_t *Deps, size_t NumDeps,
                                function_ref<Expected<NodeParams>()> Make) {
  if (!Out || !Graph || (NumDeps && !Deps))
    return setLastError(cudaErrorInvalidValue);
  Expected<NodeParams> P = Make();
  if (!P)
    return setLastError(P.takeError());
  Expected<CUgraphNode_st *> N =
      addNode(*Graph, ArrayRef(Deps, NumDeps), std::move(*P));
  if (!N)
    return setLastError(N.takeError());
  *Out = *N;
  return cudaSuccess;
}

/// Sets the parameters of a graph's node (not an executable graph's) to
/// what Make builds, of the node's type.
static cudaError_t setGraphNode(cudaGraphNode_t Node, cudaGraphNodeType Type,
                                function_ref<Expected<NodeParams>()> Make) {
  if (!Node || Node->getType() != Type)
    return setLastError(cudaErrorInvalidValue);
  Expected<NodeParams> P = Make();
  if (!P)
    return setLastError(P.takeError());
  Node->Params = std::move(*P);
  return cudaSuccess;
}

template <typename T> static Expected<NodeParams> asNode(Expected<T> P) {
  if (!P)
    return P.takeError();
  return NodeParams(std::move(*P));
}

/// Node's parameters if it is a T node.
template <typename T> static T *paramsOf(cudaGraphNode_t Node) {
  return Node ? std::get_if<T>(&Node->Params) : nullptr;
}

static cudaError_t notSupported(const char *What) {
  return setLastError(device::makeDeviceError(
      device::ErrorCode::NotSupported, Twine(What) + " is not supported"));
}

// Graphs.

PTXJIT_CUDART_API cudaError_t cudaGraphCreate(cudaGraph_t *Graph,
                                              unsigned Flags) {
  if (!Graph || Flags)
    return setLastError(cudaErrorInvalidValue);
  *Graph = new CUgraph_st();
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGraphDestroy(cudaGraph_t Graph) {
  if (!Graph)
    return setLastError(cudaErrorInvalidValue);
  delete Graph;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGraphClone(cudaGraph_t *Clone,
                                             cudaGraph_t Graph) {
  if (!Clone || !Graph)
    return setLastError(cudaErrorInvalidValue);
  *Clone = cloneGraph(*Graph).release();
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *Node,
                                                       cudaGraphNode_t Original,
                                                       cudaGraph_t Clone) {
  if (!Node || !Original || !Clone)
    return setLastError(cudaErrorInvalidValue);
  for (const std::unique_ptr<CUgraphNode_st> &N : Clone->Nodes)
    if (N->Original == Original) {
      *Node = N.get();
      return cudaSuccess;
    }
  return setLastError(cudaErrorInvalidValue);
}

PTXJIT_CUDART_API cudaError_t cudaGraphDebugDotPrint(cudaGraph_t Graph,
                                                     const char *Path,
                                                     unsigned Flags) {
  if (!Graph || !Path)
    return setLastError(cudaErrorInvalidValue);
  return setLastError(printDot(*Graph, Path));
}

// Topology.

/// CUDA's convention for arrays out: with no array, the count; otherwise
/// up to *Count entries, null past the end, and the count written.
template <typename T>
static cudaError_t giveArray(ArrayRef<T> Items, T *Out, size_t *Count) {
  if (!Count)
    return setLastError(cudaErrorInvalidValue);
  if (!Out) {
    *Count = Items.size();
    return cudaSuccess;
  }
  size_t N = std::min(*Count, Items.size());
  std::copy_n(Items.begin(), N, Out);
  std::fill(Out + N, Out + *Count, T());
  *Count = N;
  return cudaSuccess;
}

/// Zero edge data (every edge is a default one) for up to Count edges.
static void giveEdgeData(cudaGraphEdgeData *Out, size_t Count) {
  if (Out)
    std::memset(Out, 0, Count * sizeof *Out);
}

PTXJIT_CUDART_API cudaError_t cudaGraphGetNodes(cudaGraph_t Graph,
                                                cudaGraphNode_t *Nodes,
                                                size_t *Count) {
  if (!Graph)
    return setLastError(cudaErrorInvalidValue);
  SmallVector<cudaGraphNode_t, 16> All;
  for (const std::unique_ptr<CUgraphNode_st> &N : Graph->Nodes)
    All.push_back(N.get());
  return giveArray<cudaGraphNode_t>(All, Nodes, Count);
}

PTXJIT_CUDART_API cudaError_t cudaGraphGetRootNodes(cudaGraph_t Graph,
                                                    cudaGraphNode_t *Nodes,
                                                    size_t *Count) {
  if (!Graph)
    return setLastError(cudaErrorInvalidValue);
  SmallVector<cudaGraphNode_t, 16> Roots;
  for (const std::unique_ptr<CUgraphNode_st> &N : Graph->Nodes)
    if (N->Dependencies.empty())
      Roots.push_back(N.get());
  return giveArray<cudaGraphNode_t>(Roots, Nodes, Count);
}

PTXJIT_CUDART_API cudaError_t cudaGraphGetEdges(cudaGraph_t Graph,
                                                cudaGraphNode_t *From,
                                                cudaGraphNode_t *To,
                                                cudaGraphEdgeData *EdgeData,
                                                size_t *Count) {
  if (!Graph || !Count || (!From != !To) || (EdgeData && !From))
    return setLastError(cudaErrorInvalidValue);
  SmallVector<cudaGraphNode_t, 16> Froms, Tos;
  for (const std::unique_ptr<CUgraphNode_st> &N : Graph->Nodes)
    for (CUgraphNode_st *D : N->Dependencies) {
      Froms.push_back(D);
      Tos.push_back(N.get());
    }
  if (!From) {
    *Count = Froms.size();
    return cudaSuccess;
  }
  size_t Asked = *Count;
  giveArray<cudaGraphNode_t>(Froms, From, &Asked);
  giveArray<cudaGraphNode_t>(Tos, To, Count);
  giveEdgeData(EdgeData, *Count);
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t
cudaGraphNodeGetDependencies(cudaGraphNode_t Node, cudaGraphNode_t *Deps,
                             cudaGraphEdgeData *EdgeData, size_t *Count) {
  if (!Node || (EdgeData && !Deps))
    return setLastError(cudaErrorInvalidValue);
  cudaError_t E = giveArray<cudaGraphNode_t>(Node->Dependencies, Deps, Count);
  if (E == cudaSuccess && Deps)
    giveEdgeData(EdgeData, *Count);
  return E;
}

PTXJIT_CUDART_API cudaError_t cudaGraphNodeGetDependentNodes(
    cudaGraphNode_t Node, cudaGraphNode_t *Dependents,
    cudaGraphEdgeData *EdgeData, size_t *Count) {
  if (!Node || (EdgeData && !Dependents))
    return setLastError(cudaErrorInvalidValue);
  cudaError_t E =
      giveArray<cudaGraphNode_t>(Node->Dependents, Dependents, Count);
  if (E == cudaSuccess && Dependents)
    giveEdgeData(EdgeData, *Count);
  return E;
}

/// Adds (or removes) the edges From[I] -> To[I].
static cudaError_t changeEdges(cudaGraph_t Graph, const cudaGraphNode_t *From,
                               const cudaGraphNode_t *To,
                               const cudaGraphEdgeData *EdgeData, size_t N,
                               bool Add) {
  if (!Graph || (N && (!From || !To)))
    return setLastError(cudaErrorInvalidValue);
  if (Error E = checkDefaultEdges(EdgeData, N))
    return setLastError(std::move(E));
  for (size_t I = 0; I != N; ++I)
    if (Error E = Add ? addDependency(*Graph, From[I], To[I])
                      : removeDependency(*Graph, From[I], To[I]))
      return setLastError(std::move(E));
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGraphAddDependencies(
    cudaGraph_t Graph, const cudaGraphNode_t *From, const cudaGraphNode_t *To,
    const cudaGraphEdgeData *EdgeData, size_t N) {
  return changeEdges(Graph, From, To, EdgeData, N, /*Add=*/true);
}

PTXJIT_CUDART_API cudaError_t cudaGraphRemoveDependencies(
    cudaGraph_t Graph, const cudaGraphNode_t *From, const cudaGraphNode_t *To,
    const cudaGraphEdgeData *EdgeData, size_t N) {
  return changeEdges(Graph, From, To, EdgeData, N, /*Add=*/false);
}

PTXJIT_CUDART_API cudaError_t cudaGraphDestroyNode(cudaGraphNode_t Node) {
  if (!Node)
    return setLastError(cudaErrorInvalidValue);
  destroyNode(Node);
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGraphNodeGetType(cudaGraphNode_t Node,
                                                   int *Type) {
  if (!Node || !Type)
    return setLastError(cudaErrorInvalidValue);
  *Type = Node->getType();
  return cudaSuccess;
}

// Kernel nodes.

PTXJIT_CUDART_API cudaError_t cudaGraphAddKernelNode(
    cudaGraphNode_t *Out, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const cudaKernelNodeParams *P) {
  return addGraphNode(Out, Graph, Deps, NumDeps,
                      [&] { return makeRuntimeKernelNode(P); });
}

void cuda::getKernelNodeParams(const KernelNode &K, cudaKernelNodeParams &P) {
  P.func = K.Func;
  P.gridDim = {K.Grid.X, K.Grid.Y, K.Grid.Z};
  P.blockDim = {K.Block.X, K.Block.Y, K.Block.Z};
  P.sharedMemBytes = K.SharedBytes;
  P.kernelParams = const_cast<void **>(K.ArgPointers.data());
  P.extra = nullptr;
}

PTXJIT_CUDART_API cudaError_t
cudaGraphKernelNodeGetParams(cudaGraphNode_t Node, cudaKernelNodeParams *P) {
  KernelNode *K = paramsOf<KernelNode>(Node);
  if (!K || !P)
    return setLastError(cudaErrorInvalidValue);
  getKernelNodeParams(*K, *P);
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGraphKernelNodeSetParams(
    cudaGraphNode_t Node, const cudaKernelNodeParams *P) {
  return setGraphNode(Node, cudaGraphNodeTypeKernel,
                      [&] { return makeRuntimeKernelNode(P); });
}

PTXJIT_CUDART_API cudaError_t cudaGraphKernelNodeSetAttribute(
    cudaGraphNode_t Node, int Attr, const cudaLaunchAttributeValue *Value) {
  KernelNode *K = paramsOf<KernelNode>(Node);
  if (!K || !Value)
    return setLastError(cudaErrorInvalidValue);
  // The same attributes as a launch's; only cooperation changes anything.
  cudaLaunchAttribute A;
  std::memset(&A, 0, sizeof A);
  A.id = cudaLaunchAttributeID(Attr);
  A.val = *Value;
  if (Attr == cudaLaunchAttributeDeviceUpdatableKernelNode)
    return notSupported("a device-updatable kernel node");
  device::LaunchOptions Opts;
  Opts.Cooperative = K->Cooperative;
  if (Error E = applyLaunchAttributes(&A, 1, Opts))
    return setLastError(std::move(E));
  K->Cooperative = Opts.Cooperative;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGraphKernelNodeGetAttribute(
    cudaGraphNode_t Node, int Attr, cudaLaunchAttributeValue *Value) {
  KernelNode *K = paramsOf<KernelNode>(Node);
  if (!K || !Value)
    return setLastError(cudaErrorInvalidValue);
  std::memset(Value, 0, sizeof *Value);
  if (Attr == cudaLaunchAttributeCooperative)
    Value->cooperative = K->Cooperative;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t
cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t Dst, cudaGraphNode_t Src) {
  KernelNode *D = paramsOf<KernelNode>(Dst), *S = paramsOf<KernelNode>(Src);
  if (!D || !S)
    return setLastError(cudaErrorInvalidValue);
  D->Cooperative = S->Cooperative;
  return cudaSuccess;
}

// Copy nodes.

PTXJIT_CUDART_API cudaError_t cudaGraphAddMemcpyNode(
    cudaGraphNode_t *Out, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const cudaMemcpy3DParms *P) {
  return addGraphNode(Out, Graph, Deps, NumDeps, [&]() -> Expected<NodeParams> {
    if (!P)
      return invalidValue("no copy parameters");
    return asNode(makeCopyNode(*P));
  });
}

PTXJIT_CUDART_API cudaError_t cudaGraphAddMemcpyNode1D(
    cudaGraphNode_t *Out, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, void *Dst, const void *Src, size_t Count, int Kind) {
  return addGraphNode(Out, Graph, Deps, NumDeps, [&] {
    return asNode(makeCopyNode1D(Dst, Src, Count, Kind));
  });
}

PTXJIT_CUDART_API cudaError_t cudaGraphAddMemcpyNodeToSymbol(
    cudaGraphNode_t *Out, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const void *Symbol, const void *Src, size_t Count,
    size_t Offset, int Kind) {
  return addGraphNode(Out, Graph, Deps, NumDeps, [&] {
    return makeSymbolCopyNode(Symbol, Src, nullptr, Count, Offset, Kind,
                              /*ToSymbol=*/true);
  });
}

PTXJIT_CUDART_API cudaError_t cudaGraphAddMemcpyNodeFromSymbol(
    cudaGraphNode_t *Out, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, void *Dst, const void *Symbol, size_t Count, size_t Offset,
    int Kind) {
  return addGraphNode(Out, Graph, Deps, NumDeps, [&] {
    return makeSymbolCopyNode(Symbol, nullptr, Dst, Count, Offset, Kind,
                              /*ToSymbol=*/false);
  });
}

PTXJIT_CUDART_API cudaError_t
cudaGraphMemcpyNodeGetParams(cudaGraphNode_t Node, cudaMemcpy3DParms *P) {
  CopyNode *C = paramsOf<CopyNode>(Node);
  if (!C || !P)
    return setLastError(cudaErrorInvalidValue);
  *P = C->Params;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t
cudaGraphMemcpyNodeSetParams(cudaGraphNode_t Node, const cudaMemcpy3DParms *P) {
  return setGraphNode(Node, cudaGraphNodeTypeMemcpy,
                      [&]() -> Expected<NodeParams> {
                        if (!P)
                          return invalidValue("no copy parameters");
                        return asNode(makeCopyNode(*P));
                      });
}

PTXJIT_CUDART_API cudaError_t cudaGraphMemcpyNodeSetParams1D(
    cudaGraphNode_t Node, void *Dst, const void *Src, size_t Count, int Kind) {
  return setGraphNode(Node, cudaGraphNodeTypeMemcpy, [&] {
    return asNode(makeCopyNode1D(Dst, Src, Count, Kind));
  });
}

PTXJIT_CUDART_API cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(
    cudaGraphNode_t Node, const void *Symbol, const void *Src, size_t Count,
    size_t Offset, int Kind) {
  return setGraphNode(Node, cudaGraphNodeTypeMemcpy, [&] {
    return makeSymbolCopyNode(Symbol, Src, nullptr, Count, Offset, Kind,
                              /*ToSymbol=*/true);
  });
}

PTXJIT_CUDART_API cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(
    cudaGraphNode_t Node, void *Dst, const void *Symbol, size_t Count,
    size_t Offset, int Kind) {
  return setGraphNode(Node, cudaGraphNodeTypeMemcpy, [&] {
    return makeSymbolCopyNode(Symbol, nullptr, Dst, Count, Offset, Kind,
                              /*ToSymbol=*/false);
  });
}

// Set nodes.

PTXJIT_CUDART_API cudaError_t cudaGraphAddMemsetNode(
    cudaGraphNode_t *Out, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const cudaMemsetParams *P) {
  return addGraphNode(Out, Graph, Deps, NumDeps, [&]() -> Expected<NodeParams> {
    if (!P)
      return invalidValue("no memset parameters");
    return asNode(makeSetNode(*P));
  });
}

PTXJIT_CUDART_API cudaError_t
cudaGraphMemsetNodeGetParams(cudaGraphNode_t Node, cudaMemsetParams *P) {
  SetNode *S = paramsOf<SetNode>(Node);
  if (!S || !P)
    return setLastError(cudaErrorInvalidValue);
  *P = S->Params;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t
cudaGraphMemsetNodeSetParams(cudaGraphNode_t Node, const cudaMemsetParams *P) {
  return setGraphNode(Node, cudaGraphNodeTypeMemset,
                      [&]() -> Expected<NodeParams> {
                        if (!P)
                          return invalidValue("no memset parameters");
                        return asNode(makeSetNode(*P));
                      });
}

// Host nodes.

PTXJIT_CUDART_API cudaError_t cudaGraphAddHostNode(
    cudaGraphNode_t *Out, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const cudaHostNodeParams *P) {
  return addGraphNode(Out, Graph, Deps, NumDeps, [&]() -> Expected<NodeParams> {
    if (!P)
      return invalidValue("no host node parameters");
    return asNode(makeHostNode(*P));
  });
}

PTXJIT_CUDART_API cudaError_t
cudaGraphHostNodeGetParams(cudaGraphNode_t Node, cudaHostNodeParams *P) {
  HostNode *H = paramsOf<HostNode>(Node);
  if (!H || !P)
    return setLastError(cudaErrorInvalidValue);
  *P = H->Params;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t
cudaGraphHostNodeSetParams(cudaGraphNode_t Node, const cudaHostNodeParams *P) {
  return setGraphNode(Node, cudaGraphNodeTypeHost,
                      [&]() -> Expected<NodeParams> {
                        if (!P)
                          return invalidValue("no host node parameters");
                        return asNode(makeHostNode(*P));
                      });
}

// Child graph, empty and event nodes.

PTXJIT_CUDART_API cudaError_t cudaGraphAddChildGraphNode(
    cudaGraphNode_t *Out, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, cudaGraph_t Child) {
  return addGraphNode(Out, Graph, Deps, NumDeps, [&]() -> Expected<NodeParams> {
    if (!Child || Child == Graph)
      return invalidValue("no child graph");
    return NodeParams(ChildGraphNode(cloneGraph(*Child)));
  });
}

PTXJIT_CUDART_API cudaError_t
cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t Node, cudaGraph_t *Graph) {
  ChildGraphNode *C = paramsOf<ChildGraphNode>(Node);
  if (!C || !Graph)
    return setLastError(cudaErrorInvalidValue);
  // The node keeps its graph; changes to it are the node's.
  *Graph = C->Graph.get();
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *Out,
                                                    cudaGraph_t Graph,
                                                    const cudaGraphNode_t *Deps,
                                                    size_t NumDeps) {
  return addGraphNode(Out, Graph, Deps, NumDeps,
                      [] { return NodeParams(EmptyNode()); });
}

PTXJIT_CUDART_API cudaError_t cudaGraphAddEventRecordNode(
    cudaGraphNode_t *Out, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, cudaEvent_t Event) {
  return addGraphNode(Out, Graph, Deps, NumDeps, [&]() -> Expected<NodeParams> {
    if (!Event)
      return invalidValue("no event");
    return NodeParams(EventRecordNode{Event});
  });
}

PTXJIT_CUDART_API cudaError_t cudaGraphAddEventWaitNode(
    cudaGraphNode_t *Out, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, cudaEvent_t Event) {
  return addGraphNode(Out, Graph, Deps, NumDeps, [&]() -> Expected<NodeParams> {
    if (!Event)
      return invalidValue("no event");
    return NodeParams(EventWaitNode{Event});
  });
}

PTXJIT_CUDART_API cudaError_t
cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t Node, cudaEvent_t *Event) {
  EventRecordNode *R = paramsOf<EventRecordNode>(Node);
  if (!R || !Event)
    return setLastError(cudaErrorInvalidValue);
  *Event = R->Event;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t
cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t Node, cudaEvent_t Event) {
  EventRecordNode *R = paramsOf<EventRecordNode>(Node);
  if (!R || !Event)
    return setLastError(cudaErrorInvalidValue);
  R->Event = Event;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t
cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t Node, cudaEvent_t *Event) {
  EventWaitNode *W = paramsOf<EventWaitNode>(Node);
  if (!W || !Event)
    return setLastError(cudaErrorInvalidValue);
  *Event = W->Event;
  return cudaSuccess;
}

PTXJIT_CUDART_API cudaError_t
cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t Node, cudaEvent_t Event) {
  EventWaitNode *W = paramsOf<EventWaitNode>(Node);
  if (!W || !Event)
    return setLastError(cudaErrorInvalidValue);
  W->Event = Event;
  return cudaSuccess;
}

// What the emulated device does not have. The arguments are not read.

#define PTXJIT_GRAPH_NOT_SUPPORTED(Name, What)                                 \
  PTXJIT_CUDART_API cudaError_t Name(void *, void *, void *, void *, void *,   \
                                     void *) {                                 \
    return notSupported(What);                                                 \
  }
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphAddNode, "cudaGraphAddNode")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphNodeSetParams, "cudaGraphNodeSetParams")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphExecNodeSetParams,
                           "cudaGraphExecNodeSetParams")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphAddMemAllocNode, "a memory allocation node")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphMemAllocNodeGetParams,
                           "a memory allocation node")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphAddMemFreeNode, "a memory free node")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphMemFreeNodeGetParams, "a memory free node")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaDeviceGetGraphMemAttribute, "graph memory")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaDeviceSetGraphMemAttribute, "graph memory")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaDeviceGraphMemTrim, "graph memory")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphAddExternalSemaphoresSignalNode,
                           "an external semaphore node")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphAddExternalSemaphoresWaitNode,
                           "an external semaphore node")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphExternalSemaphoresSignalNodeGetParams,
                           "an external semaphore node")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphExternalSemaphoresSignalNodeSetParams,
                           "an external semaphore node")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphExternalSemaphoresWaitNodeGetParams,
                           "an external semaphore node")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphExternalSemaphoresWaitNodeSetParams,
                           "an external semaphore node")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphExecExternalSemaphoresSignalNodeSetParams,
                           "an external semaphore node")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphExecExternalSemaphoresWaitNodeSetParams,
                           "an external semaphore node")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphConditionalHandleCreate,
                           "a conditional node")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaUserObjectCreate, "a user object")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaUserObjectRetain, "a user object")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaUserObjectRelease, "a user object")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphRetainUserObject, "a user object")
PTXJIT_GRAPH_NOT_SUPPORTED(cudaGraphReleaseUserObject, "a user object")
#undef PTXJIT_GRAPH_NOT_SUPPORTED
