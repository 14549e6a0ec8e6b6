// Stream capture of a pipeline (copy in, kernels on two streams forked and
// joined through events, a memset, copy out, a host function), checked
// while capturing, then replayed many times with new inputs; the graph's
// launches are ordered with each other and with other work on the stream.
// Expected values are computed here on the host.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: capturing: 1, legacy stream: cudaErrorStreamCaptureImplicit
// CHECK-NEXT: capture info: active 1, id set 1, graph set 1, 1 dependency
// CHECK-NEXT: end capture: cudaSuccess, stream capturing after: 0
// CHECK-NEXT: nodes: 7, roots: 1; kernel 3, memcpy 2, memset 1, host 1
// CHECK-NEXT: edges: 7
// CHECK-NEXT: nothing ran during capture: yes
// CHECK-NEXT: replays: 50 of 50 right, host function ran 50 times
// CHECK-NEXT: back-to-back launches on two streams: all 200 ran in turn
// CHECK-NEXT: graph launch into a capture: cudaSuccess, outer right: yes
// CHECK-NEXT: errors: cudaSuccess
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

__global__ void scale(float *v, float k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= k;
}

__global__ void square(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * in[i];
}

__global__ void combine(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] += a[i] + b[i];
}

// acc += i in two steps with a pause between them: two launches at once
// would lose updates.
__global__ void readInto(const int *acc, int *tmp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    tmp[i] = acc[i];
}

__global__ void addFrom(int *acc, const int *tmp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    acc[i] = tmp[i] + i;
}

static void CUDART_CB pause(void *) {
  std::this_thread::sleep_for(std::chrono::microseconds(200));
}

static std::atomic<int> HostRuns{0};
static void CUDART_CB countRun(void *) { ++HostRuns; }

int main() {
  const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
  float *in, *out, *a, *b, *c;
  cudaMallocHost(&in, n * sizeof(float));
  cudaMallocHost(&out, n * sizeof(float));
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&c, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    out[i] = -1;

  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaEvent_t fork, join;
  cudaEventCreate(&fork);
  cudaEventCreate(&join);

  // a = in, c = 0, a *= 2; fork: b = a * a on s2 while s1 runs a host
  // function; join: c += a + b; out = c.
  cudaGraph_t graph = nullptr;
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(a, in, n * sizeof(float), cudaMemcpyHostToDevice, s1);
  cudaMemsetAsync(c, 0, n * sizeof(float), s1);
  scale<<<blocks, threads, 0, s1>>>(a, 2.0f, n);
  cudaEventRecord(fork, s1);
  cudaStreamWaitEvent(s2, fork, 0);
  square<<<blocks, threads, 0, s2>>>(a, b, n);
  cudaEventRecord(join, s2);
  cudaLaunchHostFunc(s1, countRun, nullptr);
  cudaStreamWaitEvent(s1, join, 0);
  combine<<<blocks, threads, 0, s1>>>(a, b, c, n);
  cudaMemcpyAsync(out, c, n * sizeof(float), cudaMemcpyDeviceToHost, s1);

  cudaStreamCaptureStatus status;
  cudaStreamIsCapturing(s2, &status);
  cudaStreamCaptureStatus legacyStatus;
  cudaError_t legacy = cudaStreamIsCapturing(0, &legacyStatus);
  printf("capturing: %d, legacy stream: %s\n", int(status),
         cudaGetErrorName(legacy));
  cudaGetLastError();
  unsigned long long id = 0;
  cudaGraph_t capturing = nullptr;
  const cudaGraphNode_t *deps = nullptr;
  size_t numDeps = 0;
  cudaStreamGetCaptureInfo(s1, &status, &id, &capturing, &deps, nullptr,
                           &numDeps);
  printf("capture info: active %d, id set %d, graph set %d, %zu dependency\n",
         status == cudaStreamCaptureStatusActive, id != 0, capturing != nullptr,
         numDeps);
  cudaError_t ended = cudaStreamEndCapture(s1, &graph);
  cudaStreamIsCapturing(s1, &status);
  printf("end capture: %s, stream capturing after: %d\n",
         cudaGetErrorName(ended), int(status));

  size_t numNodes = 0, numRoots = 0, numEdges = 0;
  cudaGraphGetNodes(graph, nullptr, &numNodes);
  std::vector<cudaGraphNode_t> nodes(numNodes);
  cudaGraphGetNodes(graph, nodes.data(), &numNodes);
  cudaGraphGetRootNodes(graph, nullptr, &numRoots);
  int count[8] = {};
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type;
    cudaGraphNodeGetType(node, &type);
    if (type < 8)
      ++count[type];
  }
  printf("nodes: %zu, roots: %zu; kernel %d, memcpy %d, memset %d, host %d\n",
         numNodes, numRoots, count[cudaGraphNodeTypeKernel],
         count[cudaGraphNodeTypeMemcpy], count[cudaGraphNodeTypeMemset],
         count[cudaGraphNodeTypeHost]);
  // copy -> memset -> scale -> {square, host} -> combine -> copy.
  cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &numEdges);
  printf("edges: %zu\n", numEdges);
  cudaDeviceSynchronize();
  bool untouched = HostRuns == 0;
  for (int i = 0; i < n; ++i)
    untouched &= out[i] == -1;
  printf("nothing ran during capture: %s\n", untouched ? "yes" : "no");

  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, 0);
  int right = 0;
  const int replays = 50;
  for (int r = 0; r < replays; ++r) {
    for (int i = 0; i < n; ++i)
      in[i] = float((i + r) % 17) - 8.0f;
    cudaGraphLaunch(exec, s1);
    cudaStreamSynchronize(s1);
    bool ok = true;
    for (int i = 0; i < n; ++i) {
      float x = 2.0f * in[i];
      ok &= out[i] == x + x * x;
    }
    right += ok;
  }
  printf("replays: %d of %d right, host function ran %d times\n", right,
         replays, HostRuns.load());

  // A graph that accumulates: launches back to back on two streams, with no
  // synchronization between them, must still run one after another.
  int *acc, *tmp;
  cudaMalloc(&acc, n * sizeof(int));
  cudaMalloc(&tmp, n * sizeof(int));
  cudaMemset(acc, 0, n * sizeof(int));
  cudaGraph_t accGraph;
  cudaStreamBeginCapture(s2, cudaStreamCaptureModeGlobal);
  readInto<<<blocks, threads, 0, s2>>>(acc, tmp, n);
  cudaLaunchHostFunc(s2, pause, nullptr);
  addFrom<<<blocks, threads, 0, s2>>>(acc, tmp, n);
  cudaStreamEndCapture(s2, &accGraph);
  cudaGraphExec_t accExec;
  cudaGraphInstantiate(&accExec, accGraph, 0);
  const int launches = 200;
  for (int r = 0; r < launches; ++r)
    cudaGraphLaunch(accExec, r % 2 ? s1 : s2);
  cudaDeviceSynchronize();
  std::vector<int> accHost(n);
  cudaMemcpy(accHost.data(), acc, n * sizeof(int), cudaMemcpyDeviceToHost);
  bool inTurn = true;
  for (int i = 0; i < n; ++i)
    inTurn &= accHost[i] == launches * i;
  printf("back-to-back launches on two streams: %s %d ran in turn\n",
         inTurn ? "all" : "not all", launches);

  // Launching a graph into a capturing stream makes it a child graph node.
  cudaGraph_t outer;
  cudaMemset(acc, 0, n * sizeof(int));
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  cudaGraphLaunch(accExec, s1);
  cudaGraphLaunch(accExec, s1);
  cudaError_t outerEnd = cudaStreamEndCapture(s1, &outer);
  cudaGraphExec_t outerExec;
  cudaGraphInstantiate(&outerExec, outer, 0);
  cudaGraphLaunch(outerExec, s1);
  cudaStreamSynchronize(s1);
  cudaMemcpy(accHost.data(), acc, n * sizeof(int), cudaMemcpyDeviceToHost);
  bool outerRight = true;
  for (int i = 0; i < n; ++i)
    outerRight &= accHost[i] == 2 * i;
  printf("graph launch into a capture: %s, outer right: %s\n",
         cudaGetErrorName(outerEnd), outerRight ? "yes" : "no");

  cudaGraphExecDestroy(outerExec);
  cudaGraphDestroy(outer);
  cudaGraphExecDestroy(accExec);
  cudaGraphDestroy(accGraph);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaEventDestroy(fork);
  cudaEventDestroy(join);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  printf("errors: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
