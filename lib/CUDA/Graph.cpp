//===- Graph.cpp - CUDA graphs over the device's streams ------------------===//

#include "Graph.h"
#include "Capture.h"
#include "ptxjit/Device/Context.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <condition_variable>
#include <cstring>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

static_assert(
    std::variant_size_v<NodeParams> == 8 &&
        std::is_same_v<
            std::variant_alternative_t<cudaGraphNodeTypeKernel, NodeParams>,
            KernelNode> &&
        std::is_same_v<
            std::variant_alternative_t<cudaGraphNodeTypeGraph, NodeParams>,
            ChildGraphNode> &&
        std::is_same_v<std::variant_alternative_t<cudaGraphNodeTypeEventRecord,
                                                  NodeParams>,
                       EventRecordNode>,
    "NodeParams's alternatives follow cudaGraphNodeType");

static Error invalidValue(const Twine &Why) {
  return device::makeDeviceError(device::ErrorCode::InvalidValue, Why);
}

KernelNode &KernelNode::operator=(const KernelNode &Other) {
  Kernel = Other.Kernel;
  Func = Other.Func;
  Grid = Other.Grid;
  Block = Other.Block;
  SharedBytes = Other.SharedBytes;
  Cooperative = Other.Cooperative;
  Args = Other.Args;
  // The pointers point into this node's own copy.
  ArgPointers.clear();
  for (void *P : Other.ArgPointers)
    ArgPointers.push_back(Args.data() +
                          (static_cast<uint8_t *>(P) - Other.Args.data()));
  return *this;
}

ChildGraphNode &ChildGraphNode::operator=(const ChildGraphNode &Other) {
  Graph = Other.Graph ? cloneGraph(*Other.Graph) : nullptr;
  return *this;
}

// Building graphs.

bool cuda::isNodeOf(const CUgraph_st &G, const CUgraphNode_st *N) {
  return N && N->Graph == &G;
}

Expected<CUgraphNode_st *>
cuda::addNode(CUgraph_st &G, ArrayRef<CUgraphNode_st *> Dependencies,
              NodeParams P) {
  for (CUgraphNode_st *D : Dependencies) {
    if (!isNodeOf(G, D))
      return invalidValue("a dependency is not a node of the graph");
    if (llvm::count(Dependencies, D) != 1)
      return invalidValue("a dependency is listed twice");
  }
  auto N = std::make_unique<CUgraphNode_st>();
  N->Graph = &G;
  N->Params = std::move(P);
  N->Dependencies.assign(Dependencies.begin(), Dependencies.end());
  for (CUgraphNode_st *D : Dependencies)
    D->Dependents.push_back(N.get());
  G.Nodes.push_back(std::move(N));
  return G.Nodes.back().get();
}

Error cuda::addDependency(CUgraph_st &G, CUgraphNode_st *From,
                          CUgraphNode_st *To) {
  if (!isNodeOf(G, From) || !isNodeOf(G, To))
    return invalidValue("an edge's node is not a node of the graph");
  if (From == To)
    return invalidValue("a node cannot depend on itself");
  if (llvm::is_contained(To->Dependencies, From))
    return invalidValue("the dependency exists");
  To->Dependencies.push_back(From);
  From->Dependents.push_back(To);
  return Error::success();
}

Error cuda::removeDependency(CUgraph_st &G, CUgraphNode_st *From,
                             CUgraphNode_st *To) {
  if (!isNodeOf(G, From) || !isNodeOf(G, To) ||
      !llvm::is_contained(To->Dependencies, From))
    return invalidValue("there is no such dependency");
  llvm::erase(To->Dependencies, From);
  llvm::erase(From->Dependents, To);
  return Error::success();
}

void cuda::destroyNode(CUgraphNode_st *N) {
  for (CUgraphNode_st *D : N->Dependencies)
    llvm::erase(D->Dependents, N);
  for (CUgraphNode_st *D : N->Dependents)
    llvm::erase(D->Dependencies, N);
  CUgraph_st &G = *N->Graph;
  llvm::erase(G.Order, N);
  llvm::erase_if(G.Nodes, [&](const std::unique_ptr<CUgraphNode_st> &Owned) {
    return Owned.get() == N;
  });
}

std::unique_ptr<CUgraph_st> cuda::cloneGraph(const CUgraph_st &G) {
  auto Copy = std::make_unique<CUgraph_st>();
  DenseMap<const CUgraphNode_st *, CUgraphNode_st *> CopyOf;
  for (const std::unique_ptr<CUgraphNode_st> &N : G.Nodes) {
    auto C = std::make_unique<CUgraphNode_st>();
    C->Graph = Copy.get();
    C->Params = N->Params;
    C->Original = N.get();
    C->Enabled = N->Enabled;
    CopyOf[N.get()] = C.get();
    Copy->Nodes.push_back(std::move(C));
  }
  for (const std::unique_ptr<CUgraphNode_st> &N : G.Nodes) {
    CUgraphNode_st *C = CopyOf[N.get()];
    for (CUgraphNode_st *D : N->Dependencies)
      C->Dependencies.push_back(CopyOf[D]);
    for (CUgraphNode_st *D : N->Dependents)
      C->Dependents.push_back(CopyOf[D]);
  }
  for (CUgraphNode_st *N : G.Order)
    Copy->Order.push_back(CopyOf[N]);
  return Copy;
}

// Node parameters.

Expected<KernelNode> cuda::makeKernelNode(device::Kernel &K, void *Func,
                                          device::Dim3 Grid, device::Dim3 Block,
                                          uint32_t SharedBytes, void **Params,
                                          void **Extra, bool Cooperative) {
  KernelNode N;
  N.Kernel = &K;
  N.Func = Func;
  N.Grid = Grid;
  N.Block = Block;
  N.SharedBytes = SharedBytes;
  N.Cooperative = Cooperative;
  ArrayRef<device::KernelParam> KParams = K.getParams();
  uint64_t Size = 0;
  for (const device::KernelParam &P : KParams)
    Size = std::max(Size, P.Offset + P.Size);
  N.Args.assign(Size, 0);
  if (Params) {
    for (const device::KernelParam &P : KParams)
      std::memcpy(N.Args.data() + P.Offset, Params[&P - KParams.data()],
                  P.Size);
  } else if (Extra) {
    // {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE,
    //  &size, CU_LAUNCH_PARAM_END}: the parameters laid out in a buffer.
    const char *Buffer = nullptr;
    size_t BufferSize = 0;
    for (void **E = Extra; *E; E += 2) {
      if (*E == reinterpret_cast<void *>(1))
        Buffer = static_cast<const char *>(E[1]);
      else if (*E == reinterpret_cast<void *>(2))
        BufferSize = *static_cast<size_t *>(E[1]);
      else
        return invalidValue("unknown extra launch option");
    }
    if (Size && (!Buffer || BufferSize < Size))
      return invalidValue(
          "the parameter buffer is smaller than the kernel's parameters");
    if (Size)
      std::memcpy(N.Args.data(), Buffer, Size);
  } else if (!KParams.empty()) {
    return invalidValue(formatv("kernel '{0}' takes {1} parameters and was "
                                "given none",
                                K.getName(), KParams.size()));
  }
  for (const device::KernelParam &P : KParams)
    N.ArgPointers.push_back(N.Args.data() + P.Offset);
  return N;
}

static Error checkKind(int Kind) {
  if (Kind < cudaMemcpyHostToHost || Kind > cudaMemcpyDefault)
    return device::makeDeviceError(device::ErrorCode::InvalidMemcpyDirection,
                                   "unknown cudaMemcpyKind " + Twine(Kind));
  return Error::success();
}

Expected<CopyNode> cuda::makeCopyNode(const cudaMemcpy3DParms &P) {
  if (Error E = checkKind(P.kind))
    return std::move(E);
  if (P.srcArray || P.dstArray)
    return device::makeDeviceError(device::ErrorCode::NotSupported,
                                   "copy nodes of CUDA arrays are not "
                                   "supported");
  const cudaExtent &X = P.extent;
  if (X.width && (!P.srcPtr.ptr || !P.dstPtr.ptr))
    return invalidValue("a copy needs a source and a destination");
  // Rows past the first step by the pitch, slices by pitch * ysize.
  auto Check = [&](const cudaPitchedPtr &Ptr, const cudaPos &Pos) -> Error {
    if ((X.height > 1 || X.depth > 1) && Pos.x + X.width > Ptr.pitch)
      return invalidValue("a row is wider than its pitch");
    if (X.depth > 1 && Pos.y + X.height > Ptr.ysize)
      return invalidValue("a slice has more rows than its height");
    return Error::success();
  };
  if (Error E = Check(P.srcPtr, P.srcPos))
    return std::move(E);
  if (Error E = Check(P.dstPtr, P.dstPos))
    return std::move(E);
  return CopyNode{P};
}

Expected<CopyNode> cuda::makeCopyNode1D(void *Dst, const void *Src,
                                        size_t Count, int Kind) {
  cudaMemcpy3DParms P;
  std::memset(&P, 0, sizeof P);
  P.srcPtr = {const_cast<void *>(Src), Count, Count, 1};
  P.dstPtr = {Dst, Count, Count, 1};
  P.extent = {Count, 1, 1};
  P.kind = cudaMemcpyKind(Kind);
  return makeCopyNode(P);
}

Expected<SetNode> cuda::makeSetNode(const cudaMemsetParams &P) {
  if (P.elementSize != 1 && P.elementSize != 2 && P.elementSize != 4)
    return invalidValue("a memset element is 1, 2 or 4 bytes");
  if (P.width && !P.dst)
    return invalidValue("a memset needs memory");
  if (P.height > 1 && P.width * P.elementSize > P.pitch)
    return invalidValue("a row is wider than its pitch");
  return SetNode{P};
}

Expected<HostNode> cuda::makeHostNode(const cudaHostNodeParams &P) {
  if (!P.fn)
    return invalidValue("a host node needs a function");
  return HostNode{P};
}

// Events.

void cuda::recordEvent(device::Context &C, CUevent_st &Ev, device::Stream *S) {
  CUevent_st *E = &Ev;
  uint64_t Ticket = C.enqueue(S, [E] {
    std::lock_guard<std::mutex> G(E->Lock);
    E->When = std::chrono::steady_clock::now();
    return Error::success();
  });
  std::lock_guard<std::mutex> G(Ev.Lock);
  Ev.S = S ? S : &C.getDefaultStream();
  Ev.Recorded = true;
  Ev.Ticket = Ticket;
  Ev.CaptureId = 0;
}

void cuda::waitForEvent(device::Context &C, device::Stream *S, CUevent_st &Ev) {
  device::Stream *Recorded;
  uint64_t Ticket;
  {
    std::lock_guard<std::mutex> G(Ev.Lock);
    Recorded = Ev.S;
    Ticket = Ev.Ticket;
  }
  // Waiting for an event never recorded, or for work done, costs nothing.
  if (Recorded && !Recorded->isComplete(Ticket))
    C.enqueueWait(S, *Recorded, Ticket);
}

ElapsedTime cuda::getElapsedTime(const CUevent_st &Start, const CUevent_st &End,
                                 float &Ms) {
  const unsigned DisableTiming = 0x2; // cudaEventDisableTiming
  if (((Start.Flags | End.Flags) & DisableTiming) || !Start.Recorded ||
      !End.Recorded)
    return ElapsedTime::Invalid;
  if ((Start.S && !Start.S->isComplete(Start.Ticket)) ||
      (End.S && !End.S->isComplete(End.Ticket)))
    return ElapsedTime::NotReady;
  std::chrono::duration<float, std::milli> D = End.When - Start.When;
  Ms = D.count();
  return ElapsedTime::Measured;
}

// Executable graphs.

/// Orders G's nodes after their dependencies (Kahn's algorithm, ties in
/// the order nodes were added), and its child graphs' nodes too.
static Error computeOrder(CUgraph_st &G, CUgraphNode_st **ErrorNode) {
  G.Order.clear();
  DenseMap<const CUgraphNode_st *, unsigned> Waiting;
  SmallVector<CUgraphNode_st *, 16> Ready;
  for (const std::unique_ptr<CUgraphNode_st> &N : G.Nodes) {
    Waiting[N.get()] = N->Dependencies.size();
    if (N->Dependencies.empty())
      Ready.push_back(N.get());
  }
  for (size_t I = 0; I != Ready.size(); ++I) {
    CUgraphNode_st *N = Ready[I];
    G.Order.push_back(N);
    for (CUgraphNode_st *D : N->Dependents)
      if (--Waiting[D] == 0)
        Ready.push_back(D);
  }
  if (G.Order.size() != G.Nodes.size()) {
    for (const std::unique_ptr<CUgraphNode_st> &N : G.Nodes)
      if (Waiting[N.get()] && ErrorNode) {
        *ErrorNode = const_cast<CUgraphNode_st *>(N->Original);
        break;
      }
    G.Order.clear();
    return invalidValue("the graph has a cycle");
  }
  for (CUgraphNode_st *N : G.Order)
    if (auto *Child = std::get_if<ChildGraphNode>(&N->Params))
      if (Error E = computeOrder(*Child->Graph, ErrorNode))
        return E;
  return Error::success();
}

/// Compiles the kernels of G (and of its child graphs) for their block
/// shapes, so that launches only queue work.
static Error compileKernels(const CUgraph_st &G, CUgraphNode_st **ErrorNode) {
  for (const std::unique_ptr<CUgraphNode_st> &N : G.Nodes) {
    if (auto *K = std::get_if<KernelNode>(&N->Params)) {
      Expected<const CompiledKernel *> Code = K->Kernel->getCompiled(K->Block);
      if (!Code) {
        if (ErrorNode)
          *ErrorNode = const_cast<CUgraphNode_st *>(N->Original);
        return Code.takeError();
      }
    } else if (auto *Child = std::get_if<ChildGraphNode>(&N->Params)) {
      if (Error E = compileKernels(*Child->Graph, ErrorNode))
        return E;
    }
  }
  return Error::success();
}

Expected<std::unique_ptr<CUgraphExec_st>>
cuda::instantiate(const CUgraph_st &G, unsigned long long Flags,
                  CUgraphNode_st **ErrorNode) {
  if (Flags & cudaGraphInstantiateFlagDeviceLaunch)
    return device::makeDeviceError(device::ErrorCode::NotSupported,
                                   "graphs cannot be launched from the device");
  if (Flags & ~(unsigned long long)(cudaGraphInstantiateFlagAutoFreeOnLaunch |
                                    cudaGraphInstantiateFlagUpload |
                                    cudaGraphInstantiateFlagUseNodePriority))
    return invalidValue("unknown graph instantiation flags");
  auto E = std::make_unique<CUgraphExec_st>();
  E->Flags = Flags;
  E->Graph = cloneGraph(G);
  for (const std::unique_ptr<CUgraphNode_st> &N : E->Graph->Nodes)
    E->NodeOf[N->Original] = N.get();
  if (Error Err = computeOrder(*E->Graph, ErrorNode))
    return std::move(Err);
  if (Error Err = compileKernels(*E->Graph, ErrorNode))
    return std::move(Err);
  return std::move(E);
}

/// Runs a copy node's rows (one memmove when they are contiguous).
static void copyRows(const cudaMemcpy3DParms &P) {
  const cudaExtent &X = P.extent;
  size_t Height = std::max<size_t>(X.height, 1),
         Depth = std::max<size_t>(X.depth, 1);
  size_t SPitch = P.srcPtr.pitch, DPitch = P.dstPtr.pitch;
  size_t SSlice = SPitch * P.srcPtr.ysize, DSlice = DPitch * P.dstPtr.ysize;
  const char *Src = static_cast<const char *>(P.srcPtr.ptr) +
                    P.srcPos.z * SSlice + P.srcPos.y * SPitch + P.srcPos.x;
  char *Dst = static_cast<char *>(P.dstPtr.ptr) + P.dstPos.z * DSlice +
              P.dstPos.y * DPitch + P.dstPos.x;
  if (Height == 1 && Depth == 1) {
    std::memmove(Dst, Src, X.width);
    return;
  }
  for (size_t Z = 0; Z != Depth; ++Z)
    for (size_t Y = 0; Y != Height; ++Y)
      std::memmove(Dst + Z * DSlice + Y * DPitch, Src + Z * SSlice + Y * SPitch,
                   X.width);
}

void cuda::setRows(const cudaMemsetParams &P) {
  size_t Height = std::max<size_t>(P.height, 1);
  for (size_t Y = 0; Y != Height; ++Y) {
    char *Row = static_cast<char *>(P.dst) + Y * P.pitch;
    switch (P.elementSize) {
    case 1:
      std::memset(Row, int(uint8_t(P.value)), P.width);
      break;
    case 2:
      std::fill_n(reinterpret_cast<uint16_t *>(Row), P.width,
                  uint16_t(P.value));
      break;
    default:
      std::fill_n(reinterpret_cast<uint32_t *>(Row), P.width, P.value);
      break;
    }
  }
}

Error cuda::setSlices(device::Context &C, const cudaMemsetParams &P,
                      size_t SlicePitch, size_t Depth, cudaStream_t Stream,
                      bool Wait) {
  uintptr_t Dst = reinterpret_cast<uintptr_t>(P.dst);
  if (Dst % P.elementSize || (P.height > 1 && P.pitch % P.elementSize))
    return invalidValue(Twine(P.elementSize * 8) +
                        "-bit sets need aligned addresses and pitches");
  if (Depth > 1 && SlicePitch < P.height * P.pitch)
    return invalidValue("a slice has more rows than its height");
  Expected<SetNode> N = makeSetNode(P);
  if (!N)
    return N.takeError();
  if (Wait)
    if (Error E = checkLegacySync())
      return E;
  if (!P.width || !P.height)
    return Error::success();
  device::Stream *S = RuntimeState::get().toStream(Stream);
  for (size_t Z = 0; Z != Depth; ++Z) {
    cudaMemsetParams Slice = P;
    Slice.dst = static_cast<char *>(P.dst) + Z * SlicePitch;
    if (!Wait) {
      Expected<bool> Captured = captureNode(
          Stream, [&] { return Expected<SetNode>(SetNode{Slice}); });
      if (!Captured)
        return Captured.takeError();
      if (*Captured)
        continue;
    }
    C.enqueue(S, [Slice] {
      setRows(Slice);
      return Error::success();
    });
  }
  if (!Wait)
    return Error::success();
  return (S ? *S : C.getDefaultStream()).synchronize();
}

/// Queues G's nodes on S in their order.
static Error queueGraph(device::Context &C, const CUgraph_st &G,
                        device::Stream *S) {
  for (CUgraphNode_st *N : G.Order) {
    if (!N->Enabled)
      continue;
    Error E = std::visit(
        [&](const auto &P) -> Error {
          using T = std::decay_t<decltype(P)>;
          if constexpr (std::is_same_v<T, KernelNode>) {
            device::LaunchOptions Opts;
            Opts.Cooperative = P.Cooperative;
            return C.launch(*P.Kernel, P.Grid, P.Block, P.SharedBytes, S,
                            const_cast<void **>(P.ArgPointers.data()), Opts);
          } else if constexpr (std::is_same_v<T, CopyNode>) {
            cudaMemcpy3DParms Copy = P.Params;
            C.enqueue(S, [Copy] {
              copyRows(Copy);
              return Error::success();
            });
          } else if constexpr (std::is_same_v<T, SetNode>) {
            cudaMemsetParams Set = P.Params;
            C.enqueue(S, [Set] {
              setRows(Set);
              return Error::success();
            });
          } else if constexpr (std::is_same_v<T, HostNode>) {
            cudaHostNodeParams Host = P.Params;
            C.enqueue(S, [Host] {
              Host.fn(Host.userData);
              return Error::success();
            });
          } else if constexpr (std::is_same_v<T, ChildGraphNode>) {
            return queueGraph(C, *P.Graph, S);
          } else if constexpr (std::is_same_v<T, EventRecordNode>) {
            recordEvent(C, *P.Event, S);
          } else if constexpr (std::is_same_v<T, EventWaitNode>) {
            waitForEvent(C, S, *P.Event);
          }
          return Error::success();
        },
        N->Params);
    if (E)
      return E;
  }
  return Error::success();
}

struct cuda::LaunchDone {
  std::mutex Lock;
  std::condition_variable Changed;
  bool Done = false;

  void signal() {
    {
      std::lock_guard<std::mutex> G(Lock);
      Done = true;
    }
    Changed.notify_all();
  }
  bool isDone() {
    std::lock_guard<std::mutex> G(Lock);
    return Done;
  }
  void wait() {
    std::unique_lock<std::mutex> L(Lock);
    Changed.wait(L, [&] { return Done; });
  }
};

Error cuda::launchGraph(device::Context &C, CUgraphExec_st &E,
                        cudaStream_t Stream) {
  if (Error Err = C.getStickyError())
    return Err;
  device::Stream *S = RuntimeState::get().toStream(Stream);
  const void *Target = S ? S : &C.getDefaultStream();
  std::lock_guard<std::mutex> G(E.Lock);
  // A graph's launches run one after another, whichever streams they are
  // on.
  if (E.LastLaunch && E.LastStream != Target && !E.LastLaunch->isDone())
    C.enqueue(S, [Last = E.LastLaunch] {
      Last->wait();
      return Error::success();
    });
  Error Err = queueGraph(C, *E.Graph, S);
  auto Done = std::make_shared<LaunchDone>();
  C.enqueue(S, [Done] {
    Done->signal();
    return Error::success();
  });
  E.LastStream = Target;
  E.LastLaunch = std::move(Done);
  return Err;
}

Expected<CUgraphNode_st *> cuda::getExecNode(CUgraphExec_st &E,
                                             const CUgraphNode_st *N) {
  auto It = E.NodeOf.find(N);
  if (It == E.NodeOf.end())
    return invalidValue("the node is not of the graph the executable graph "
                        "was made from");
  return It->second;
}

/// Whether G has E's topology: as many nodes, of the same types, with the
/// same edges (nodes paired in the order they were added), and so for child
/// graphs. Info says why not.
static bool sameTopology(const CUgraph_st &E, const CUgraph_st &G,
                         cudaGraphExecUpdateResultInfo &Info) {
  if (E.Nodes.size() != G.Nodes.size()) {
    Info.result = cudaGraphExecUpdateErrorTopologyChanged;
    return false;
  }
  DenseMap<const CUgraphNode_st *, unsigned> IndexInE, IndexInG;
  for (unsigned I = 0; I != E.Nodes.size(); ++I) {
    IndexInE[E.Nodes[I].get()] = I;
    IndexInG[G.Nodes[I].get()] = I;
  }
  for (unsigned I = 0; I != E.Nodes.size(); ++I) {
    const CUgraphNode_st &EN = *E.Nodes[I], &GN = *G.Nodes[I];
    Info.errorNode = const_cast<CUgraphNode_st *>(&GN);
    if (EN.getType() != GN.getType()) {
      Info.result = cudaGraphExecUpdateErrorNodeTypeChanged;
      return false;
    }
    SmallVector<unsigned, 4> EDeps, GDeps;
    for (CUgraphNode_st *D : EN.Dependencies)
      EDeps.push_back(IndexInE[D]);
    for (CUgraphNode_st *D : GN.Dependencies)
      GDeps.push_back(IndexInG[D]);
    llvm::sort(EDeps);
    llvm::sort(GDeps);
    if (EDeps != GDeps) {
      Info.result = cudaGraphExecUpdateErrorTopologyChanged;
      for (CUgraphNode_st *D : GN.Dependencies)
        if (!llvm::is_contained(EDeps, IndexInG[D]))
          Info.errorFromNode = D;
      return false;
    }
    if (auto *Child = std::get_if<ChildGraphNode>(&GN.Params))
      if (!sameTopology(*std::get<ChildGraphNode>(EN.Params).Graph,
                        *Child->Graph, Info))
        return false;
  }
  Info.errorNode = nullptr;
  return true;
}

Error cuda::setExecNodeParams(CUgraphNode_st &N, NodeParams P) {
  if (P.index() != N.Params.index())
    return invalidValue("the parameters are not of the node's type");
  if (auto *K = std::get_if<KernelNode>(&P)) {
    Expected<const CompiledKernel *> Code = K->Kernel->getCompiled(K->Block);
    if (!Code)
      return Code.takeError();
  }
  if (auto *Child = std::get_if<ChildGraphNode>(&P)) {
    cudaGraphExecUpdateResultInfo Info{};
    if (!sameTopology(*std::get<ChildGraphNode>(N.Params).Graph, *Child->Graph,
                      Info))
      return invalidValue("the child graph's topology differs from the "
                          "node's graph");
    if (Error E = computeOrder(*Child->Graph, nullptr))
      return E;
    if (Error E = compileKernels(*Child->Graph, nullptr))
      return E;
  }
  N.Params = std::move(P);
  return Error::success();
}

Error cuda::updateExec(CUgraphExec_st &E, const CUgraph_st &G,
                       cudaGraphExecUpdateResultInfo *InfoOut) {
  cudaGraphExecUpdateResultInfo Info{cudaGraphExecUpdateSuccess, nullptr,
                                     nullptr};
  auto Fail = [&](const Twine &Why) {
    if (InfoOut)
      *InfoOut = Info;
    return device::makeDeviceError(device::ErrorCode::GraphExecUpdateFailure,
                                   Why);
  };
  std::lock_guard<std::mutex> Guard(E.Lock);
  if (!sameTopology(*E.Graph, G, Info))
    return Fail("the graph's topology differs from the executable graph's");
  // Everything is checked before anything changes.
  CUgraphNode_st *ErrorNode = nullptr;
  std::unique_ptr<CUgraph_st> Copy = cloneGraph(G);
  if (Error Err = computeOrder(*Copy, &ErrorNode)) {
    Info.result = cudaGraphExecUpdateError;
    Info.errorNode = ErrorNode;
    return Fail(toString(std::move(Err)));
  }
  if (Error Err = compileKernels(*Copy, &ErrorNode)) {
    Info.result = cudaGraphExecUpdateErrorParametersChanged;
    Info.errorNode = ErrorNode;
    consumeError(std::move(Err));
    return Fail("a kernel node cannot be compiled");
  }
  for (unsigned I = 0; I != Copy->Nodes.size(); ++I) {
    CUgraphNode_st &EN = *E.Graph->Nodes[I];
    EN.Params = std::move(Copy->Nodes[I]->Params);
    E.NodeOf[G.Nodes[I].get()] = &EN;
  }
  if (InfoOut)
    *InfoOut = Info;
  return Error::success();
}

// Printing.

static StringRef getTypeName(cudaGraphNodeType T) {
  switch (T) {
  case cudaGraphNodeTypeKernel:
    return "kernel";
  case cudaGraphNodeTypeMemcpy:
    return "memcpy";
  case cudaGraphNodeTypeMemset:
    return "memset";
  case cudaGraphNodeTypeHost:
    return "host";
  case cudaGraphNodeTypeGraph:
    return "graph";
  case cudaGraphNodeTypeEmpty:
    return "empty";
  case cudaGraphNodeTypeWaitEvent:
    return "wait event";
  case cudaGraphNodeTypeEventRecord:
    return "event record";
  }
  return "node";
}

static void printNodes(raw_ostream &OS, const CUgraph_st &G, StringRef Prefix) {
  for (unsigned I = 0; I != G.Nodes.size(); ++I) {
    const CUgraphNode_st &N = *G.Nodes[I];
    std::string Name = (Prefix + "n" + Twine(I)).str();
    std::string Label = (Twine(I) + ": " + getTypeName(N.getType())).str();
    if (auto *K = std::get_if<KernelNode>(&N.Params))
      Label += formatv("\\n{0}<<<({1},{2},{3}), ({4},{5},{6}), {7}>>>",
                       K->Kernel->getName(), K->Grid.X, K->Grid.Y, K->Grid.Z,
                       K->Block.X, K->Block.Y, K->Block.Z, K->SharedBytes)
                   .str();
    if (auto *Child = std::get_if<ChildGraphNode>(&N.Params)) {
      OS << "  subgraph cluster_" << Name << " {\n    label=\"" << Label
         << "\";\n";
      printNodes(OS, *Child->Graph, Name + "_");
      OS << "  }\n";
    }
    OS << "  " << Name << " [label=\"" << Label << "\"];\n";
  }
  DenseMap<const CUgraphNode_st *, unsigned> Index;
  for (unsigned I = 0; I != G.Nodes.size(); ++I)
    Index[G.Nodes[I].get()] = I;
  for (unsigned I = 0; I != G.Nodes.size(); ++I)
    for (CUgraphNode_st *D : G.Nodes[I]->Dependencies)
      OS << "  " << Prefix << "n" << Index[D] << " -> " << Prefix << "n" << I
         << ";\n";
}

Error cuda::printDot(const CUgraph_st &G, StringRef Path) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return invalidValue("cannot write " + Path + ": " + EC.message());
  OS << "digraph ptxjit_graph {\n";
  printNodes(OS, G, "");
  OS << "}\n";
  return Error::success();
}
