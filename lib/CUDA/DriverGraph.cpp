//===- DriverGraph.cpp - libcuda.so.1: stream capture and graphs ----------===//
//
// The driver API's capture and graph functions over the same objects and
// code as the runtime's (Graph.h, Capture.h): a graph captured or built
// through one API can be launched through the other. Kernel nodes name
// their kernel by CUfunction.
//
//===----------------------------------------------------------------------===//

#include "Capture.h"
#include "DriverAPI.h"
#include "GraphABI.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;
using namespace ptxjit::cuda::driver;

namespace {

Expected<NodeParams> makeDriverKernelNode(const CUDA_KERNEL_NODE_PARAMS *P) {
  if (!P)
    return device::makeDeviceError(device::ErrorCode::InvalidValue,
                                   "no kernel node parameters");
  if (!P->func)
    return device::makeDeviceError(device::ErrorCode::NotSupported,
                                   "kernel nodes need a CUfunction (CUkernel "
                                   "handles are not supported)");
  auto *K = static_cast<device::Kernel *>(P->func);
  Expected<KernelNode> N = makeKernelNode(
      *K, P->func, {P->gridDimX, P->gridDimY, P->gridDimZ},
      {P->blockDimX, P->blockDimY, P->blockDimZ}, P->sharedMemBytes,
      P->kernelParams, P->extra, /*Cooperative=*/false);
  if (!N)
    return N.takeError();
  return NodeParams(std::move(*N));
}

CUresult addGraphNode(CUgraphNode_st **Out, CUgraph_st *Graph,
                      CUgraphNode_st *const *Deps, size_t NumDeps,
                      function_ref<Expected<NodeParams>()> Make) {
  if (!Out || !Graph || (NumDeps && !Deps))
    return CUDA_ERROR_INVALID_VALUE;
  Expected<NodeParams> P = Make();
  if (!P)
    return toResult(P.takeError());
  Expected<CUgraphNode_st *> N =
      addNode(*Graph, ArrayRef(Deps, NumDeps), std::move(*P));
  if (!N)
    return toResult(N.takeError());
  *Out = *N;
  return CUDA_SUCCESS;
}

CUresult giveNodes(ArrayRef<CUgraphNode_st *> Nodes, CUgraphNode_st **Out,
                   size_t *Count) {
  if (!Count)
    return CUDA_ERROR_INVALID_VALUE;
  if (!Out) {
    *Count = Nodes.size();
    return CUDA_SUCCESS;
  }
  size_t N = std::min(*Count, Nodes.size());
  std::copy_n(Nodes.begin(), N, Out);
  std::fill(Out + N, Out + *Count, nullptr);
  *Count = N;
  return CUDA_SUCCESS;
}

Error checkDefaultEdges(const cudaGraphEdgeData *Data, size_t N) {
  if (Data)
    for (const cudaGraphEdgeData &D : ArrayRef(Data, N))
      if (D.from_port || D.to_port || D.type)
        return device::makeDeviceError(device::ErrorCode::NotSupported,
                                       "only default graph edges are "
                                       "supported");
  return Error::success();
}

} // namespace

// Capture.

PTXJIT_CUDA_API CUresult cuStreamBeginCapture_v2(CUstream_st *Stream,
                                                 int Mode) {
  if (!isDriverInitialized())
    return CUDA_ERROR_NOT_INITIALIZED;
  return toResult(beginCapture(Stream, Mode, nullptr, {}));
}

PTXJIT_CUDA_API CUresult cuStreamBeginCaptureToGraph(
    CUstream_st *Stream, CUgraph_st *Graph, CUgraphNode_st *const *Deps,
    const cudaGraphEdgeData *EdgeData, size_t NumDeps, int Mode) {
  if (!Graph || (NumDeps && !Deps))
    return CUDA_ERROR_INVALID_VALUE;
  if (Error E = checkDefaultEdges(EdgeData, NumDeps))
    return toResult(std::move(E));
  return toResult(beginCapture(Stream, Mode, Graph, ArrayRef(Deps, NumDeps)));
}

PTXJIT_CUDA_API CUresult cuStreamEndCapture(CUstream_st *Stream,
                                            CUgraph_st **Graph) {
  if (!Graph)
    return CUDA_ERROR_INVALID_VALUE;
  Expected<CUgraph_st *> G = endCapture(Stream);
  if (!G) {
    *Graph = nullptr;
    return toResult(G.takeError());
  }
  *Graph = *G;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuStreamIsCapturing(CUstream_st *Stream, int *Status) {
  if (!Status)
    return CUDA_ERROR_INVALID_VALUE;
  Expected<CaptureInfo> Info = getCaptureInfo(Stream);
  if (!Info)
    return toResult(Info.takeError());
  *Status = Info->Status;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuStreamGetCaptureInfo_v3(
    CUstream_st *Stream, int *Status, unsigned long long *Id,
    CUgraph_st **Graph, CUgraphNode_st *const **Deps,
    const cudaGraphEdgeData **EdgeData, size_t *NumDeps) {
  if (!Status || (EdgeData && !Deps))
    return CUDA_ERROR_INVALID_VALUE;
  Expected<CaptureInfo> Info = getCaptureInfo(Stream);
  if (!Info)
    return toResult(Info.takeError());
  *Status = Info->Status;
  if (Info->Status != cudaStreamCaptureStatusActive)
    return CUDA_SUCCESS;
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
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuStreamUpdateCaptureDependencies_v2(
    CUstream_st *Stream, CUgraphNode_st **Deps,
    const cudaGraphEdgeData *EdgeData, size_t NumDeps, unsigned Flags) {
  if (NumDeps && !Deps)
    return CUDA_ERROR_INVALID_VALUE;
  if (Error E = checkDefaultEdges(EdgeData, NumDeps))
    return toResult(std::move(E));
  return toResult(
      updateCaptureDependencies(Stream, ArrayRef(Deps, NumDeps), Flags));
}

PTXJIT_CUDA_API CUresult cuThreadExchangeStreamCaptureMode(int *Mode) {
  return toResult(exchangeCaptureMode(Mode));
}

// Graphs.

PTXJIT_CUDA_API CUresult cuGraphCreate(CUgraph_st **Graph, unsigned Flags) {
  if (!Graph || Flags)
    return CUDA_ERROR_INVALID_VALUE;
  *Graph = new CUgraph_st();
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuGraphDestroy(CUgraph_st *Graph) {
  if (!Graph)
    return CUDA_ERROR_INVALID_VALUE;
  delete Graph;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuGraphClone(CUgraph_st **Clone, CUgraph_st *Graph) {
  if (!Clone || !Graph)
    return CUDA_ERROR_INVALID_VALUE;
  *Clone = cloneGraph(*Graph).release();
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuGraphAddKernelNode_v2(
    CUgraphNode_st **Out, CUgraph_st *Graph, CUgraphNode_st *const *Deps,
    size_t NumDeps, const CUDA_KERNEL_NODE_PARAMS *P) {
  return addGraphNode(Out, Graph, Deps, NumDeps,
                      [&] { return makeDriverKernelNode(P); });
}

PTXJIT_CUDA_API CUresult cuGraphKernelNodeGetParams_v2(
    CUgraphNode_st *Node, CUDA_KERNEL_NODE_PARAMS *P) {
  auto *K = Node ? std::get_if<KernelNode>(&Node->Params) : nullptr;
  if (!K || !P)
    return CUDA_ERROR_INVALID_VALUE;
  *P = {};
  P->func = K->Kernel;
  P->gridDimX = K->Grid.X, P->gridDimY = K->Grid.Y, P->gridDimZ = K->Grid.Z;
  P->blockDimX = K->Block.X, P->blockDimY = K->Block.Y,
  P->blockDimZ = K->Block.Z;
  P->sharedMemBytes = K->SharedBytes;
  P->kernelParams = const_cast<void **>(K->ArgPointers.data());
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuGraphKernelNodeSetParams_v2(
    CUgraphNode_st *Node, const CUDA_KERNEL_NODE_PARAMS *P) {
  if (!Node || Node->getType() != cudaGraphNodeTypeKernel)
    return CUDA_ERROR_INVALID_VALUE;
  Expected<NodeParams> N = makeDriverKernelNode(P);
  if (!N)
    return toResult(N.takeError());
  Node->Params = std::move(*N);
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuGraphAddEmptyNode(CUgraphNode_st **Out,
                                             CUgraph_st *Graph,
                                             CUgraphNode_st *const *Deps,
                                             size_t NumDeps) {
  return addGraphNode(Out, Graph, Deps, NumDeps,
                      [] { return NodeParams(EmptyNode()); });
}

PTXJIT_CUDA_API CUresult cuGraphAddHostNode(CUgraphNode_st **Out,
                                            CUgraph_st *Graph,
                                            CUgraphNode_st *const *Deps,
                                            size_t NumDeps,
                                            const cudaHostNodeParams *P) {
  return addGraphNode(Out, Graph, Deps, NumDeps, [&]() -> Expected<NodeParams> {
    if (!P)
      return device::makeDeviceError(device::ErrorCode::InvalidValue,
                                     "no host node parameters");
    Expected<HostNode> N = makeHostNode(*P);
    if (!N)
      return N.takeError();
    return NodeParams(*N);
  });
}

PTXJIT_CUDA_API CUresult cuGraphAddMemsetNode(
    CUgraphNode_st **Out, CUgraph_st *Graph, CUgraphNode_st *const *Deps,
    size_t NumDeps, const CUDA_MEMSET_NODE_PARAMS *P, CUcontext) {
  return addGraphNode(Out, Graph, Deps, NumDeps, [&]() -> Expected<NodeParams> {
    if (!P)
      return device::makeDeviceError(device::ErrorCode::InvalidValue,
                                     "no memset parameters");
    Expected<SetNode> N =
        makeSetNode({reinterpret_cast<void *>(P->dst), P->pitch, P->value,
                     P->elementSize, P->width, P->height});
    if (!N)
      return N.takeError();
    return NodeParams(*N);
  });
}

PTXJIT_CUDA_API CUresult cuGraphAddChildGraphNode(CUgraphNode_st **Out,
                                                  CUgraph_st *Graph,
                                                  CUgraphNode_st *const *Deps,
                                                  size_t NumDeps,
                                                  CUgraph_st *Child) {
  return addGraphNode(Out, Graph, Deps, NumDeps, [&]() -> Expected<NodeParams> {
    if (!Child || Child == Graph)
      return device::makeDeviceError(device::ErrorCode::InvalidValue,
                                     "no child graph");
    return NodeParams(ChildGraphNode(cloneGraph(*Child)));
  });
}

PTXJIT_CUDA_API CUresult cuGraphAddDependencies_v2(
    CUgraph_st *Graph, CUgraphNode_st *const *From, CUgraphNode_st *const *To,
    const cudaGraphEdgeData *EdgeData, size_t N) {
  if (!Graph || (N && (!From || !To)))
    return CUDA_ERROR_INVALID_VALUE;
  if (Error E = checkDefaultEdges(EdgeData, N))
    return toResult(std::move(E));
  for (size_t I = 0; I != N; ++I)
    if (Error E = addDependency(*Graph, From[I], To[I]))
      return toResult(std::move(E));
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuGraphGetNodes(CUgraph_st *Graph,
                                         CUgraphNode_st **Nodes,
                                         size_t *Count) {
  if (!Graph)
    return CUDA_ERROR_INVALID_VALUE;
  SmallVector<CUgraphNode_st *, 16> All;
  for (const std::unique_ptr<CUgraphNode_st> &N : Graph->Nodes)
    All.push_back(N.get());
  return giveNodes(All, Nodes, Count);
}

PTXJIT_CUDA_API CUresult cuGraphGetRootNodes(CUgraph_st *Graph,
                                             CUgraphNode_st **Nodes,
                                             size_t *Count) {
  if (!Graph)
    return CUDA_ERROR_INVALID_VALUE;
  SmallVector<CUgraphNode_st *, 16> Roots;
  for (const std::unique_ptr<CUgraphNode_st> &N : Graph->Nodes)
    if (N->Dependencies.empty())
      Roots.push_back(N.get());
  return giveNodes(Roots, Nodes, Count);
}

PTXJIT_CUDA_API CUresult cuGraphNodeGetType(CUgraphNode_st *Node, int *Type) {
  if (!Node || !Type)
    return CUDA_ERROR_INVALID_VALUE;
  *Type = Node->getType();
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuGraphDestroyNode(CUgraphNode_st *Node) {
  if (!Node)
    return CUDA_ERROR_INVALID_VALUE;
  destroyNode(Node);
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuGraphDebugDotPrint(CUgraph_st *Graph,
                                              const char *Path,
                                              unsigned Flags) {
  if (!Graph || !Path)
    return CUDA_ERROR_INVALID_VALUE;
  return toResult(printDot(*Graph, Path));
}

// Executable graphs.

/// cuda.h maps cuGraphInstantiate to cuGraphInstantiateWithFlags; both
/// names lead here.
PTXJIT_CUDA_API CUresult cuGraphInstantiateWithFlags(CUgraphExec_st **Exec,
                                                     CUgraph_st *Graph,
                                                     unsigned long long Flags) {
  if (!Exec || !Graph)
    return CUDA_ERROR_INVALID_VALUE;
  Expected<std::unique_ptr<CUgraphExec_st>> E =
      instantiate(*Graph, Flags, nullptr);
  if (!E)
    return toResult(E.takeError());
  *Exec = E->release();
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuGraphInstantiate(CUgraphExec_st **Exec,
                                            CUgraph_st *Graph,
                                            unsigned long long Flags) {
  return cuGraphInstantiateWithFlags(Exec, Graph, Flags);
}

PTXJIT_CUDA_API CUresult
cuGraphInstantiateWithParams(CUgraphExec_st **Exec, CUgraph_st *Graph,
                             cudaGraphInstantiateParams *Params) {
  if (!Exec || !Graph || !Params)
    return CUDA_ERROR_INVALID_VALUE;
  CUgraphNode_st *ErrorNode = nullptr;
  Expected<std::unique_ptr<CUgraphExec_st>> E =
      instantiate(*Graph, Params->flags, &ErrorNode);
  Params->errNode_out = ErrorNode;
  if (!E) {
    Params->result_out = ErrorNode ? cudaGraphInstantiateInvalidStructure
                                   : cudaGraphInstantiateError;
    return toResult(E.takeError());
  }
  Params->result_out = cudaGraphInstantiateSuccess;
  *Exec = E->release();
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult cuGraphLaunch(CUgraphExec_st *Exec,
                                       CUstream_st *Stream) {
  if (!Exec)
    return CUDA_ERROR_INVALID_VALUE;
  return withContext([&](device::Context &C) -> Error {
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

PTXJIT_CUDA_API CUresult cuGraphUpload(CUgraphExec_st *Exec,
                                       CUstream_st *Stream) {
  return Exec ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

PTXJIT_CUDA_API CUresult cuGraphExecDestroy(CUgraphExec_st *Exec) {
  if (!Exec)
    return CUDA_ERROR_INVALID_VALUE;
  delete Exec;
  return CUDA_SUCCESS;
}

PTXJIT_CUDA_API CUresult
cuGraphExecKernelNodeSetParams_v2(CUgraphExec_st *Exec, CUgraphNode_st *Node,
                                  const CUDA_KERNEL_NODE_PARAMS *P) {
  if (!Exec || !Node)
    return CUDA_ERROR_INVALID_VALUE;
  Expected<NodeParams> N = makeDriverKernelNode(P);
  if (!N)
    return toResult(N.takeError());
  std::lock_guard<std::mutex> G(Exec->Lock);
  Expected<CUgraphNode_st *> ExecNode = getExecNode(*Exec, Node);
  if (!ExecNode)
    return toResult(ExecNode.takeError());
  return toResult(setExecNodeParams(**ExecNode, std::move(*N)));
}

PTXJIT_CUDA_API CUresult
cuGraphExecUpdate_v2(CUgraphExec_st *Exec, CUgraph_st *Graph,
                     cudaGraphExecUpdateResultInfo *Info) {
  if (!Exec || !Graph)
    return CUDA_ERROR_INVALID_VALUE;
  return toResult(updateExec(*Exec, *Graph, Info));
}
