// An explicitly built graph: a diamond of kernel nodes after a memset and a
// copy, a host node that checks what the graph copied back, an empty node,
// an event record node, a child graph; its topology queried; arguments
// copied when a node is made; clones; a cycle refused. Expected values are
// computed here on the host.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: nodes: 9, roots: 2, edges: 10
// CHECK-NEXT: types: kernel kernel kernel kernel memset memcpy memcpy host
// CHECK-SAME: empty
// CHECK-NEXT: top's dependents: 2, bottom's dependencies: 2
// CHECK-NEXT: params: grid 4, block 256, value 7, n 1000
// CHECK-NEXT: launch 0: right, host node saw 1000 right
// CHECK-NEXT: launch 1: right, host node saw 1000 right
// CHECK-NEXT: launch 2: right, host node saw 1000 right
// CHECK-NEXT: event recorded by the graph: cudaSuccess
// CHECK-NEXT: child graph twice: right
// CHECK-NEXT: clone: 9 nodes, found in clone: yes, clone launched right: yes
// CHECK-NEXT: cycle: cudaErrorInvalidValue
// CHECK-NEXT: dependency twice: cudaErrorInvalidValue
// CHECK-NEXT: not a kernel: cudaErrorInvalidDeviceFunction
// CHECK-NEXT: array copy node: cudaErrorNotSupported
// CHECK-NEXT: dot file written: yes
// CHECK-NEXT: errors: cudaSuccess
#include <cstdio>
#include <cstring>
#include <vector>

__global__ void fill(int *v, int value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] += value + i;
}

__global__ void twice(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2 * in[i];
}

__global__ void sum(const int *a, const int *b, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a[i] + b[i];
}

struct Check {
  const int *host;
  int n, base, right;
};

// Runs after the copy back: sees the graph's result in pinned memory.
static void CUDART_CB checkResult(void *p) {
  Check *c = static_cast<Check *>(p);
  c->right = 0;
  for (int i = 0; i < c->n; ++i) {
    int top = c->base + i;
    c->right += c->host[i] == 2 * top + 3 * top;
  }
}

static const char *typeName(cudaGraphNode_t node) {
  cudaGraphNodeType t;
  cudaGraphNodeGetType(node, &t);
  switch (t) {
  case cudaGraphNodeTypeKernel:
    return "kernel";
  case cudaGraphNodeTypeMemcpy:
    return "memcpy";
  case cudaGraphNodeTypeMemset:
    return "memset";
  case cudaGraphNodeTypeHost:
    return "host";
  case cudaGraphNodeTypeEmpty:
    return "empty";
  case cudaGraphNodeTypeGraph:
    return "graph";
  case cudaGraphNodeTypeEventRecord:
    return "record";
  default:
    return "other";
  }
}

static void *args3(void **a, void *x, void *y, void *z) {
  a[0] = x, a[1] = y, a[2] = z;
  return a;
}

int main() {
  const int n = 1000, threads = 256, blocks = (n + threads - 1) / threads;
  int *top, *left, *right, *bottom, *host;
  cudaMalloc(&top, n * sizeof(int));
  cudaMalloc(&left, n * sizeof(int));
  cudaMalloc(&right, n * sizeof(int));
  cudaMalloc(&bottom, n * sizeof(int));
  cudaMallocHost(&host, n * sizeof(int));

  // memset top = 0 -> top += 7 + i -> {left = 2 top; right = top (a copy),
  // then right += left} -> bottom = left + right -> copy out -> host check;
  // an empty node, a second root, comes before the host node too.
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaMemsetParams ms = {};
  ms.dst = top;
  ms.value = 0;
  ms.elementSize = 4;
  ms.width = n;
  ms.height = 1;
  cudaGraphNode_t memset, fillNode, leftNode, rightCopy, rightNode, sumNode,
      copyOut, hostNode, empty;
  cudaGraphAddMemsetNode(&memset, g, nullptr, 0, &ms);

  int n1 = n, seven = 7;
  void *a[3];
  cudaKernelNodeParams kp = {};
  kp.func = (void *)fill;
  kp.gridDim = dim3(blocks);
  kp.blockDim = dim3(threads);
  kp.kernelParams = (void **)args3(a, &top, &seven, &n1);
  cudaGraphAddKernelNode(&fillNode, g, &memset, 1, &kp);
  seven = 1000; // the node copied its arguments: still 7

  kp.func = (void *)twice;
  kp.kernelParams = (void **)args3(a, &top, &left, &n1);
  cudaGraphAddKernelNode(&leftNode, g, &fillNode, 1, &kp);
  cudaGraphAddMemcpyNode1D(&rightCopy, g, &fillNode, 1, right, top,
                           n * sizeof(int), cudaMemcpyDeviceToDevice);
  kp.func = (void *)sum;
  void *sumArgs[4] = {&right, &left, &right, &n1};
  kp.kernelParams = sumArgs;
  cudaGraphNode_t rightDeps[] = {rightCopy, leftNode};
  cudaGraphAddKernelNode(&rightNode, g, rightDeps, 2, &kp);
  void *bottomArgs[4] = {&left, &right, &bottom, &n1};
  kp.kernelParams = bottomArgs;
  cudaGraphAddKernelNode(&sumNode, g, nullptr, 0, &kp);
  cudaGraphNode_t from[] = {leftNode, rightNode};
  cudaGraphNode_t to[] = {sumNode, sumNode};
  cudaGraphAddDependencies(g, from, to, nullptr, 2);
  cudaGraphAddMemcpyNode1D(&copyOut, g, &sumNode, 1, host, bottom,
                           n * sizeof(int), cudaMemcpyDeviceToHost);
  Check check = {host, n, 7, -1};
  cudaHostNodeParams hp = {checkResult, &check};
  cudaGraphAddHostNode(&hostNode, g, &copyOut, 1, &hp);
  cudaGraphAddEmptyNode(&empty, g, nullptr, 0);
  cudaGraphAddDependencies(g, &empty, &hostNode, nullptr, 1);

  size_t numNodes = 0, numRoots = 0, numEdges = 0;
  cudaGraphGetNodes(g, nullptr, &numNodes);
  cudaGraphGetRootNodes(g, nullptr, &numRoots);
  cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &numEdges);
  printf("nodes: %zu, roots: %zu, edges: %zu\n", numNodes, numRoots, numEdges);
  std::vector<cudaGraphNode_t> nodes(numNodes);
  cudaGraphGetNodes(g, nodes.data(), &numNodes);
  // In the order they were added, grouped as the program made them.
  cudaGraphNode_t ordered[] = {fillNode,  leftNode, rightNode, sumNode, memset,
                               rightCopy, copyOut,  hostNode,  empty};
  printf("types:");
  for (cudaGraphNode_t node : ordered)
    printf(" %s", typeName(node));
  printf("\n");
  size_t dependents = 0, dependencies = 0;
  cudaGraphNodeGetDependentNodes(fillNode, nullptr, nullptr, &dependents);
  cudaGraphNodeGetDependencies(sumNode, nullptr, nullptr, &dependencies);
  printf("top's dependents: %zu, bottom's dependencies: %zu\n", dependents,
         dependencies);
  cudaKernelNodeParams got;
  cudaGraphKernelNodeGetParams(fillNode, &got);
  printf("params: grid %u, block %u, value %d, n %d\n", got.gridDim.x,
         got.blockDim.x, *(int *)got.kernelParams[1],
         *(int *)got.kernelParams[2]);

  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  for (int launch = 0; launch < 3; ++launch) {
    check.right = -1;
    cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
    bool ok = true;
    for (int i = 0; i < n; ++i)
      ok &= host[i] == 5 * (7 + i);
    printf("launch %d: %s, host node saw %d right\n", launch,
           ok ? "right" : "wrong", check.right);
  }

  // An event record node: the event completes with the graph's launch.
  cudaEvent_t done;
  cudaEventCreate(&done);
  cudaGraph_t recorder;
  cudaGraphCreate(&recorder, 0);
  cudaGraphNode_t recordNode, child;
  cudaGraphAddChildGraphNode(&child, recorder, nullptr, 0, g);
  cudaGraphAddEventRecordNode(&recordNode, recorder, &child, 1, done);
  cudaGraphExec_t recorderExec;
  cudaGraphInstantiate(&recorderExec, recorder, 0);
  cudaGraphLaunch(recorderExec, s);
  cudaEventSynchronize(done);
  printf("event recorded by the graph: %s\n",
         cudaGetErrorName(cudaEventQuery(done)));

  // A child graph twice, the second after the first.
  cudaGraph_t parent;
  cudaGraphCreate(&parent, 0);
  cudaGraphNode_t first, second;
  cudaGraphAddChildGraphNode(&first, parent, nullptr, 0, g);
  cudaGraphAddChildGraphNode(&second, parent, &first, 1, g);
  cudaGraphExec_t parentExec;
  cudaGraphInstantiate(&parentExec, parent, 0);
  std::memset(host, 0, n * sizeof(int));
  check.right = -1;
  cudaGraphLaunch(parentExec, s);
  cudaStreamSynchronize(s);
  bool childRight = check.right == n;
  for (int i = 0; i < n; ++i)
    childRight &= host[i] == 5 * (7 + i);
  printf("child graph twice: %s\n", childRight ? "right" : "wrong");

  cudaGraph_t clone;
  cudaGraphClone(&clone, g);
  size_t cloneNodes = 0;
  cudaGraphGetNodes(clone, nullptr, &cloneNodes);
  cudaGraphNode_t inClone = nullptr;
  cudaGraphNodeFindInClone(&inClone, fillNode, clone);
  bool found = inClone && inClone != fillNode &&
               std::strcmp(typeName(inClone), "kernel") == 0;
  cudaGraphExec_t cloneExec;
  cudaGraphInstantiate(&cloneExec, clone, 0);
  std::memset(host, 0, n * sizeof(int));
  cudaGraphLaunch(cloneExec, s);
  cudaStreamSynchronize(s);
  bool cloneRight = true;
  for (int i = 0; i < n; ++i)
    cloneRight &= host[i] == 5 * (7 + i);
  printf("clone: %zu nodes, found in clone: %s, clone launched right: %s\n",
         cloneNodes, found ? "yes" : "no", cloneRight ? "yes" : "no");

  // A cycle cannot be instantiated; an edge cannot be added twice.
  cudaGraph_t cyclic;
  cudaGraphCreate(&cyclic, 0);
  cudaGraphNode_t x, y;
  cudaGraphAddEmptyNode(&x, cyclic, nullptr, 0);
  cudaGraphAddEmptyNode(&y, cyclic, &x, 1);
  cudaGraphAddDependencies(cyclic, &y, &x, nullptr, 1);
  cudaGraphExec_t cyclicExec = nullptr;
  printf("cycle: %s\n",
         cudaGetErrorName(cudaGraphInstantiate(&cyclicExec, cyclic, 0)));
  printf("dependency twice: %s\n", cudaGetErrorName(cudaGraphAddDependencies(
                                       cyclic, &x, &y, nullptr, 1)));
  kp.func = (void *)&typeName;
  cudaGraphNode_t bad;
  printf("not a kernel: %s\n", cudaGetErrorName(cudaGraphAddKernelNode(
                                   &bad, cyclic, nullptr, 0, &kp)));
  cudaArray_t array;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaMallocArray(&array, &desc, 16, 16);
  cudaMemcpy3DParms arrayCopy = {};
  arrayCopy.srcPtr = make_cudaPitchedPtr(host, 64, 16, 16);
  arrayCopy.dstArray = array;
  arrayCopy.extent = make_cudaExtent(16, 16, 1);
  arrayCopy.kind = cudaMemcpyHostToDevice;
  printf("array copy node: %s\n", cudaGetErrorName(cudaGraphAddMemcpyNode(
                                      &bad, cyclic, nullptr, 0, &arrayCopy)));
  cudaGetLastError();

  const char *dot = "graph-build.dot";
  cudaGraphDebugDotPrint(g, dot, 0);
  FILE *f = fopen(dot, "r");
  char line[64] = "";
  if (f) {
    fgets(line, sizeof line, f);
    fclose(f);
    remove(dot);
  }
  printf("dot file written: %s\n",
         std::strncmp(line, "digraph", 7) == 0 ? "yes" : "no");

  cudaFreeArray(array);
  cudaGraphDestroy(cyclic);
  cudaGraphExecDestroy(cloneExec);
  cudaGraphDestroy(clone);
  cudaGraphExecDestroy(parentExec);
  cudaGraphDestroy(parent);
  cudaGraphExecDestroy(recorderExec);
  cudaGraphDestroy(recorder);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  cudaEventDestroy(done);
  cudaStreamDestroy(s);
  printf("errors: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
