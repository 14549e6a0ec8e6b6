//===- Graph.h - CUDA graphs over the device's streams ----------*- C++ -*-===//
//
// A graph is nodes (a kernel launch, a copy, a set, a host function, a
// child graph, an event record or wait, or nothing) and the dependencies
// between them. A node owns its parameters: a kernel node copies its
// arguments when it is made, as CUDA does. Instantiation copies the graph
// into an executable graph, in a topological order, with every kernel
// compiled for its block shape; launching it queues the nodes in that order
// on the stream, so a graph launch is ordered with the stream's other work
// like any of it, and its nodes after their dependencies. The runtime's and
// the driver's handles are these objects, and both APIs call the functions
// below.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_CUDA_GRAPH_H
#define PTXJIT_LIB_CUDA_GRAPH_H

#include "GraphABI.h"
#include "RuntimeState.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <mutex>
#include <variant>
#include <vector>

namespace ptxjit {
namespace cuda {

struct KernelNode {
  device::Kernel *Kernel = nullptr;
  /// What the program named the kernel by (a host function or a
  /// CUfunction), given back by the Get functions.
  void *Func = nullptr;
  device::Dim3 Grid, Block;
  uint32_t SharedBytes = 0;
  bool Cooperative = false;
  /// The arguments, laid out as the kernel's parameter buffer, and a
  /// pointer to each (CUDA's kernelParams convention) into it.
  std::vector<uint8_t> Args;
  std::vector<void *> ArgPointers;

  KernelNode() = default;
  KernelNode(const KernelNode &Other) { *this = Other; }
  KernelNode &operator=(const KernelNode &Other);
};

/// A copy between pitched memory, as cudaMemcpy3DParms describes it; one
/// with only a width is a plain copy.
struct CopyNode {
  cudaMemcpy3DParms Params;
};

struct SetNode {
  cudaMemsetParams Params;
};

struct HostNode {
  cudaHostNodeParams Params;
};

/// A node that runs a graph of its own (a copy the node owns).
struct ChildGraphNode {
  std::unique_ptr<CUgraph_st> Graph;

  ChildGraphNode() = default;
  explicit ChildGraphNode(std::unique_ptr<CUgraph_st> G)
      : Graph(std::move(G)) {}
  ChildGraphNode(ChildGraphNode &&) = default;
  ChildGraphNode &operator=(ChildGraphNode &&) = default;
  ChildGraphNode(const ChildGraphNode &Other) { *this = Other; }
  ChildGraphNode &operator=(const ChildGraphNode &Other);
};

struct EmptyNode {};

/// Signalled when a graph launch's work has run (Graph.cpp).
struct LaunchDone;

struct EventWaitNode {
  CUevent_st *Event;
};

struct EventRecordNode {
  CUevent_st *Event;
};

/// A node's parameters; the alternatives are in cudaGraphNodeType's order,
/// so that index() is the node's type.
using NodeParams =
    std::variant<KernelNode, CopyNode, SetNode, HostNode, ChildGraphNode,
                 EmptyNode, EventWaitNode, EventRecordNode>;

} // namespace cuda
} // namespace ptxjit

struct CUgraphNode_st {
  CUgraph_st *Graph;
  ptxjit::cuda::NodeParams Params;
  llvm::SmallVector<CUgraphNode_st *, 2> Dependencies, Dependents;
  /// The node this one is a copy of (cudaGraphClone, instantiation).
  const CUgraphNode_st *Original = nullptr;
  /// cudaGraphNodeSetEnabled (executable graphs): a disabled node does
  /// nothing.
  bool Enabled = true;

  cudaGraphNodeType getType() const {
    return cudaGraphNodeType(Params.index());
  }
};

struct CUgraph_st {
  /// In the order they were added (cudaGraphExecUpdate pairs nodes so).
  std::vector<std::unique_ptr<CUgraphNode_st>> Nodes;
  /// Executable graphs: the nodes in the order they are queued.
  std::vector<CUgraphNode_st *> Order;
};

struct CUgraphExec_st {
  std::unique_ptr<CUgraph_st> Graph;
  unsigned long long Flags = 0;
  /// The node of Graph made from each node of the graphs it was
  /// instantiated or updated from.
  llvm::DenseMap<const CUgraphNode_st *, CUgraphNode_st *> NodeOf;
  std::mutex Lock;
  /// The last launch, which the next one is ordered after: its stream
  /// (compared, never used: it may be gone) and what its last task signals.
  const void *LastStream = nullptr;
  std::shared_ptr<ptxjit::cuda::LaunchDone> LastLaunch;
};

namespace ptxjit {
namespace cuda {

// Building graphs.

/// Adds a node with P after Dependencies (nodes of G, each once).
llvm::Expected<CUgraphNode_st *>
addNode(CUgraph_st &G, llvm::ArrayRef<CUgraphNode_st *> Dependencies,
        NodeParams P);
/// Adds the edge From -> To (nodes of G); an edge that exists is an error.
llvm::Error addDependency(CUgraph_st &G, CUgraphNode_st *From,
                          CUgraphNode_st *To);
llvm::Error removeDependency(CUgraph_st &G, CUgraphNode_st *From,
                             CUgraphNode_st *To);
/// Removes N and its edges from its graph.
void destroyNode(CUgraphNode_st *N);
/// A copy of G; each node's Original is the node it copies.
std::unique_ptr<CUgraph_st> cloneGraph(const CUgraph_st &G);
/// Whether N belongs to G.
bool isNodeOf(const CUgraph_st &G, const CUgraphNode_st *N);

/// A kernel node over K with CUDA's argument conventions: Params (one
/// pointer per parameter) or Extra (a parameter buffer); the arguments are
/// copied now.
llvm::Expected<KernelNode> makeKernelNode(device::Kernel &K, void *Func,
                                          device::Dim3 Grid, device::Dim3 Block,
                                          uint32_t SharedBytes, void **Params,
                                          void **Extra, bool Cooperative);
/// A copy node; arrays are not supported.
llvm::Expected<CopyNode> makeCopyNode(const cudaMemcpy3DParms &P);
llvm::Expected<CopyNode> makeCopyNode1D(void *Dst, const void *Src,
                                        size_t Count, int Kind);
llvm::Expected<SetNode> makeSetNode(const cudaMemsetParams &P);
/// Runs a memset of P (checked by makeSetNode): rows of elements.
void setRows(const cudaMemsetParams &P);
/// A memset API call: Depth slices, SlicePitch bytes apart, each set as P
/// sets its rows (P.dst is the first slice's), checked as set nodes are.
/// On Stream, where a capture takes each slice as a set node, or, when
/// Wait, on the legacy stream and waiting for it.
llvm::Error setSlices(device::Context &C, const cudaMemsetParams &P,
                      size_t SlicePitch, size_t Depth, cudaStream_t Stream,
                      bool Wait);
llvm::Expected<HostNode> makeHostNode(const cudaHostNodeParams &P);

// Executable graphs.

/// Instantiates G. A graph with a cycle, or a kernel that cannot be
/// compiled, fails; ErrorNode (if not null) names the node.
llvm::Expected<std::unique_ptr<CUgraphExec_st>>
instantiate(const CUgraph_st &G, unsigned long long Flags,
            CUgraphNode_st **ErrorNode);
/// Queues E's nodes on S (after E's previous launch, wherever it was).
llvm::Error launchGraph(device::Context &C, CUgraphExec_st &E, cudaStream_t S);
/// The node of E made from N (InvalidValue if none).
llvm::Expected<CUgraphNode_st *> getExecNode(CUgraphExec_st &E,
                                             const CUgraphNode_st *N);
/// Gives N of E (an executable graph's node) the parameters P, of N's
/// type; kernels are compiled for a new block shape now.
llvm::Error setExecNodeParams(CUgraphNode_st &N, NodeParams P);
/// cudaGraphExecUpdate: E takes the parameters of G's nodes, G having E's
/// topology (nodes paired in the order they were added). On failure E is
/// unchanged and Info says why.
llvm::Error updateExec(CUgraphExec_st &E, const CUgraph_st &G,
                       cudaGraphExecUpdateResultInfo *Info);

/// cudaGraphDebugDotPrint: G in Graphviz's language.
llvm::Error printDot(const CUgraph_st &G, llvm::StringRef Path);

// Events (shared with the runtime's cudaEventRecord).

/// Records Ev on S now: its ticket, and the time when S reaches it.
void recordEvent(device::Context &C, CUevent_st &Ev, device::Stream *S);
/// Makes S wait for Ev's last record, if any.
void waitForEvent(device::Context &C, device::Stream *S, CUevent_st &Ev);
enum class ElapsedTime { Measured, NotReady, Invalid };
/// The milliseconds from Start's record to End's (cudaEventElapsedTime,
/// cuEventElapsedTime): Invalid if either was made without timing or never
/// recorded, NotReady if either has not happened yet.
ElapsedTime getElapsedTime(const CUevent_st &Start, const CUevent_st &End,
                           float &Ms);

} // namespace cuda
} // namespace ptxjit

#endif
