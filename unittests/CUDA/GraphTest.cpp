//===- GraphTest.cpp - CUDA graphs and stream capture ---------------------===//
//
// The graph engine and the capture rules, with host and empty nodes so
// that no kernel is needed: topological order, cycles, clones, executable
// graph updates, launches on the emulated device's streams, and captures
// that fork and join through events.
//
//===----------------------------------------------------------------------===//

#include "../../lib/CUDA/Graph.h"
#include "../../lib/CUDA/Capture.h"
#include "ptxjit/Device/Context.h"
#include "gtest/gtest.h"
#include <thread>
#include <vector>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

namespace {

device::ErrorCode codeOf(Error E) {
  return device::takeError(std::move(E)).first;
}

/// True when an operation was taken by a capture.
bool taken(Expected<bool> B) {
  if (!B) {
    ADD_FAILURE() << toString(B.takeError());
    return false;
  }
  return *B;
}

cudaStreamCaptureStatus statusOf(CUstream_st *S) {
  Expected<CaptureInfo> Info = getCaptureInfo(S);
  if (!Info) {
    ADD_FAILURE() << toString(Info.takeError());
    return cudaStreamCaptureStatusNone;
  }
  return Info->Status;
}

/// Ends S's capture; the code, and the graph deleted.
device::ErrorCode endOf(CUstream_st *S) {
  Expected<CUgraph_st *> G = endCapture(S);
  if (!G)
    return codeOf(G.takeError());
  delete *G;
  return device::ErrorCode::Success;
}

/// Host nodes that append their number to a log.
struct Log {
  std::mutex Lock;
  std::vector<int> Order;
};
struct Entry {
  Log *L;
  int Value;
};
void append(void *P) {
  auto *E = static_cast<Entry *>(P);
  std::lock_guard<std::mutex> G(E->L->Lock);
  E->L->Order.push_back(E->Value);
}

NodeParams hostNode(Entry &E) { return HostNode{{append, &E}}; }

CUgraphNode_st *add(CUgraph_st &G, ArrayRef<CUgraphNode_st *> Deps,
                    NodeParams P) {
  Expected<CUgraphNode_st *> N = addNode(G, Deps, std::move(P));
  EXPECT_TRUE(bool(N)) << toString(N.takeError());
  return N ? *N : nullptr;
}

size_t positionOf(const std::vector<int> &Order, int V) {
  return std::find(Order.begin(), Order.end(), V) - Order.begin();
}

device::Context &context() {
  Expected<device::Context &> C = RuntimeState::get().getContext();
  EXPECT_TRUE(bool(C));
  return *C;
}

/// Destroys a stream from makeStream as cudaStreamDestroy does.
struct StreamDeleter {
  void operator()(CUstream_st *S) const {
    forgetCapturingStream(S);
    if (Error E = context().destroyStream(*S->S))
      ADD_FAILURE() << toString(std::move(E));
    delete S;
  }
};
using StreamPtr = std::unique_ptr<CUstream_st, StreamDeleter>;

/// A runtime stream handle over a new device stream.
StreamPtr makeStream(unsigned Flags) {
  device::Context &C = context();
  Expected<device::Stream &> S = C.createStream(
      Flags ? device::StreamKind::NonBlocking : device::StreamKind::Blocking);
  EXPECT_TRUE(bool(S));
  return StreamPtr(new CUstream_st{&*S, Flags, 0});
}

TEST(GraphTest, NodesRunAfterTheirDependencies) {
  // 0 -> {1, 2} -> 3, and 4 alone; added out of order.
  Log L;
  Entry E[5] = {{&L, 0}, {&L, 1}, {&L, 2}, {&L, 3}, {&L, 4}};
  CUgraph_st G;
  CUgraphNode_st *N0 = add(G, {}, hostNode(E[0]));
  CUgraphNode_st *N4 = add(G, {}, hostNode(E[4]));
  CUgraphNode_st *N2 = add(G, {N0}, hostNode(E[2]));
  CUgraphNode_st *N1 = add(G, {N0}, hostNode(E[1]));
  CUgraphNode_st *N3 = add(G, {}, hostNode(E[3]));
  ASSERT_FALSE(addDependency(G, N1, N3));
  ASSERT_FALSE(addDependency(G, N2, N3));
  (void)N4;
  Expected<std::unique_ptr<CUgraphExec_st>> Exec = instantiate(G, 0, nullptr);
  ASSERT_TRUE(bool(Exec)) << toString(Exec.takeError());
  device::Context &C = context();
  for (int Launch = 0; Launch != 3; ++Launch) {
    L.Order.clear();
    ASSERT_FALSE(launchGraph(C, **Exec, nullptr));
    ASSERT_FALSE(C.synchronize());
    ASSERT_EQ(L.Order.size(), 5u);
    EXPECT_LT(positionOf(L.Order, 0), positionOf(L.Order, 1));
    EXPECT_LT(positionOf(L.Order, 0), positionOf(L.Order, 2));
    EXPECT_LT(positionOf(L.Order, 1), positionOf(L.Order, 3));
    EXPECT_LT(positionOf(L.Order, 2), positionOf(L.Order, 3));
    EXPECT_LT(positionOf(L.Order, 4), 5u);
  }
}

TEST(GraphTest, EdgesAreChecked) {
  CUgraph_st G, Other;
  CUgraphNode_st *A = add(G, {}, EmptyNode());
  CUgraphNode_st *B = add(G, {A}, EmptyNode());
  CUgraphNode_st *Foreign = add(Other, {}, EmptyNode());
  EXPECT_EQ(codeOf(addNode(G, {Foreign}, EmptyNode()).takeError()),
            device::ErrorCode::InvalidValue);
  EXPECT_EQ(codeOf(addNode(G, {A, A}, EmptyNode()).takeError()),
            device::ErrorCode::InvalidValue);
  EXPECT_EQ(codeOf(addDependency(G, A, B)), device::ErrorCode::InvalidValue);
  EXPECT_EQ(codeOf(addDependency(G, A, A)), device::ErrorCode::InvalidValue);
  EXPECT_FALSE(removeDependency(G, A, B));
  EXPECT_TRUE(B->Dependencies.empty());
  EXPECT_TRUE(A->Dependents.empty());
  EXPECT_EQ(codeOf(removeDependency(G, A, B)), device::ErrorCode::InvalidValue);
  destroyNode(A);
  EXPECT_EQ(G.Nodes.size(), 1u);
}

TEST(GraphTest, CyclesAreNotInstantiated) {
  CUgraph_st G;
  CUgraphNode_st *A = add(G, {}, EmptyNode());
  CUgraphNode_st *B = add(G, {A}, EmptyNode());
  CUgraphNode_st *C = add(G, {B}, EmptyNode());
  add(G, {}, EmptyNode());
  ASSERT_FALSE(addDependency(G, C, A));
  CUgraphNode_st *ErrorNode = nullptr;
  Expected<std::unique_ptr<CUgraphExec_st>> Exec =
      instantiate(G, 0, &ErrorNode);
  ASSERT_FALSE(bool(Exec));
  EXPECT_EQ(codeOf(Exec.takeError()), device::ErrorCode::InvalidValue);
  EXPECT_TRUE(ErrorNode == A || ErrorNode == B || ErrorNode == C);
}

TEST(GraphTest, ClonesAreDeep) {
  Log L;
  Entry E{&L, 1}, F{&L, 2};
  CUgraph_st Child;
  add(Child, {}, hostNode(E));
  CUgraph_st G;
  CUgraphNode_st *A = add(G, {}, ChildGraphNode(cloneGraph(Child)));
  CUgraphNode_st *B = add(G, {A}, hostNode(F));
  std::unique_ptr<CUgraph_st> Copy = cloneGraph(G);
  ASSERT_EQ(Copy->Nodes.size(), 2u);
  CUgraphNode_st *CA = Copy->Nodes[0].get(), *CB = Copy->Nodes[1].get();
  EXPECT_EQ(CA->Original, A);
  EXPECT_EQ(CB->Original, B);
  ASSERT_EQ(CB->Dependencies.size(), 1u);
  EXPECT_EQ(CB->Dependencies[0], CA);
  EXPECT_EQ(CA->Graph, Copy.get());
  // The child graph is the clone's own.
  CUgraph_st &Inner = *std::get<ChildGraphNode>(CA->Params).Graph;
  EXPECT_NE(&Inner, std::get<ChildGraphNode>(A->Params).Graph.get());
  add(Inner, {}, EmptyNode());
  EXPECT_EQ(std::get<ChildGraphNode>(A->Params).Graph->Nodes.size(), 1u);
}

TEST(GraphTest, UpdatesNeedTheSameTopology) {
  Log L;
  Entry E{&L, 1}, F{&L, 2}, G2{&L, 3};
  CUgraph_st G;
  CUgraphNode_st *A = add(G, {}, hostNode(E));
  add(G, {A}, hostNode(F));
  Expected<std::unique_ptr<CUgraphExec_st>> Exec = instantiate(G, 0, nullptr);
  ASSERT_TRUE(bool(Exec));

  // The same shape, other parameters: taken.
  CUgraph_st Same;
  CUgraphNode_st *SA = add(Same, {}, hostNode(G2));
  add(Same, {SA}, hostNode(F));
  cudaGraphExecUpdateResultInfo Info;
  ASSERT_FALSE(updateExec(**Exec, Same, &Info));
  EXPECT_EQ(Info.result, cudaGraphExecUpdateSuccess);
  device::Context &C = context();
  ASSERT_FALSE(launchGraph(C, **Exec, nullptr));
  ASSERT_FALSE(C.synchronize());
  EXPECT_EQ(L.Order, (std::vector<int>{3, 2}));

  // No edge: refused, and the executable graph is unchanged.
  CUgraph_st Loose;
  add(Loose, {}, hostNode(E));
  CUgraphNode_st *LB = add(Loose, {}, hostNode(E));
  EXPECT_EQ(codeOf(updateExec(**Exec, Loose, &Info)),
            device::ErrorCode::GraphExecUpdateFailure);
  EXPECT_EQ(Info.result, cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT_EQ(Info.errorNode, LB);
  // Another type in the first node's place.
  CUgraph_st Retyped;
  CUgraphNode_st *RA = add(Retyped, {}, EmptyNode());
  add(Retyped, {RA}, hostNode(E));
  EXPECT_EQ(codeOf(updateExec(**Exec, Retyped, &Info)),
            device::ErrorCode::GraphExecUpdateFailure);
  EXPECT_EQ(Info.result, cudaGraphExecUpdateErrorNodeTypeChanged);
  EXPECT_EQ(Info.errorNode, RA);
  L.Order.clear();
  ASSERT_FALSE(launchGraph(C, **Exec, nullptr));
  ASSERT_FALSE(C.synchronize());
  EXPECT_EQ(L.Order, (std::vector<int>{3, 2}));

  // A node's parameters in the executable graph, found by the node it was
  // made from.
  Expected<CUgraphNode_st *> N = getExecNode(**Exec, A);
  ASSERT_TRUE(bool(N));
  ASSERT_FALSE(setExecNodeParams(**N, hostNode(F)));
  EXPECT_EQ(codeOf(setExecNodeParams(**N, EmptyNode())),
            device::ErrorCode::InvalidValue);
  L.Order.clear();
  ASSERT_FALSE(launchGraph(C, **Exec, nullptr));
  ASSERT_FALSE(C.synchronize());
  EXPECT_EQ(L.Order, (std::vector<int>{2, 2}));
}

TEST(CaptureTest, ForkAndJoinThroughEvents) {
  Log L;
  Entry E[4] = {{&L, 0}, {&L, 1}, {&L, 2}, {&L, 3}};
  StreamPtr Stream1 = makeStream(0), Stream2 = makeStream(1);
  CUstream_st *S1 = Stream1.get(), *S2 = Stream2.get();
  CUevent_st Fork, Join;
  auto Op = [&](CUstream_st *S, Entry &En) {
    EXPECT_TRUE(taken(captureOperation(
        S, [&] { return Expected<NodeParams>(hostNode(En)); })));
  };
  ASSERT_FALSE(beginCapture(S1, cudaStreamCaptureModeGlobal, nullptr, {}));
  EXPECT_TRUE(isAnyStreamCapturing());
  Op(S1, E[0]);
  ASSERT_TRUE(taken(captureEventRecord(Fork, S1, 0)));
  ASSERT_TRUE(taken(captureEventWait(S2, Fork, 0)));
  Op(S2, E[1]);
  Op(S1, E[2]);
  ASSERT_TRUE(taken(captureEventRecord(Join, S2, 0)));
  ASSERT_TRUE(taken(captureEventWait(S1, Join, 0)));
  Expected<CaptureInfo> Info = getCaptureInfo(S1);
  ASSERT_TRUE(bool(Info));
  EXPECT_EQ(Info->Status, cudaStreamCaptureStatusActive);
  EXPECT_EQ(Info->Dependencies.size(), 2u);
  Op(S1, E[3]);
  Expected<CUgraph_st *> G = endCapture(S1);
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  std::unique_ptr<CUgraph_st> Graph(*G);
  EXPECT_FALSE(isAnyStreamCapturing());
  // 0 -> {1, 2} -> 3
  ASSERT_EQ(Graph->Nodes.size(), 4u);
  EXPECT_EQ(Graph->Nodes[1]->Dependencies.size(), 1u);
  EXPECT_EQ(Graph->Nodes[2]->Dependencies.size(), 1u);
  EXPECT_EQ(Graph->Nodes[3]->Dependencies.size(), 2u);
  EXPECT_TRUE(L.Order.empty()) << "captured work ran";
  EXPECT_EQ(statusOf(S2), cudaStreamCaptureStatusNone);
}

TEST(CaptureTest, ForbiddenCallsInvalidate) {
  StreamPtr BlockingStream = makeStream(0), NonBlockingStream = makeStream(1);
  CUstream_st *Blocking = BlockingStream.get(),
              *NonBlocking = NonBlockingStream.get();
  // The legacy stream while a blocking stream captures.
  ASSERT_FALSE(
      beginCapture(Blocking, cudaStreamCaptureModeRelaxed, nullptr, {}));
  EXPECT_EQ(codeOf(checkLegacySync()),
            device::ErrorCode::StreamCaptureImplicit);
  EXPECT_EQ(statusOf(Blocking), cudaStreamCaptureStatusInvalidated);
  EXPECT_EQ(endOf(Blocking), device::ErrorCode::StreamCaptureInvalidated);

  // Unsafe calls under each mode, from this thread and another.
  auto OtherThread = [] {
    Error E = Error::success();
    std::thread([&] { E = checkUnsafeCall(); }).join();
    return codeOf(std::move(E));
  };
  ASSERT_FALSE(
      beginCapture(NonBlocking, cudaStreamCaptureModeRelaxed, nullptr, {}));
  EXPECT_FALSE(checkUnsafeCall());
  EXPECT_EQ(OtherThread(), device::ErrorCode::Success);
  EXPECT_EQ(endOf(NonBlocking), device::ErrorCode::Success);
  ASSERT_FALSE(
      beginCapture(NonBlocking, cudaStreamCaptureModeThreadLocal, nullptr, {}));
  EXPECT_EQ(OtherThread(), device::ErrorCode::Success);
  EXPECT_EQ(codeOf(checkUnsafeCall()),
            device::ErrorCode::StreamCaptureUnsupported);
  EXPECT_EQ(endOf(NonBlocking), device::ErrorCode::StreamCaptureInvalidated);
  ASSERT_FALSE(
      beginCapture(NonBlocking, cudaStreamCaptureModeGlobal, nullptr, {}));
  EXPECT_EQ(OtherThread(), device::ErrorCode::StreamCaptureUnsupported);
  EXPECT_EQ(endOf(NonBlocking), device::ErrorCode::StreamCaptureInvalidated);

  // Synchronizing a capturing stream; ending elsewhere.
  ASSERT_FALSE(
      beginCapture(NonBlocking, cudaStreamCaptureModeGlobal, nullptr, {}));
  device::ErrorCode Wrong;
  std::thread([&] { Wrong = endOf(NonBlocking); }).join();
  EXPECT_EQ(Wrong, device::ErrorCode::StreamCaptureWrongThread);
  EXPECT_EQ(codeOf(checkStreamSync(NonBlocking)),
            device::ErrorCode::StreamCaptureUnsupported);
  EXPECT_EQ(endOf(NonBlocking), device::ErrorCode::StreamCaptureInvalidated);
  EXPECT_FALSE(isAnyStreamCapturing());
}

} // namespace
