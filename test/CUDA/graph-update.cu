// Changing an instantiated graph: new kernel parameters for one node,
// cudaGraphExecUpdate from an explicitly changed clone and from captures of
// the same work with new arguments, updates refused when the topology or a
// node's type changes (the executable graph unchanged), and disabled nodes.
// Expected values are computed here on the host.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: first launch: right
// CHECK-NEXT: kernel node set: right, graph's own node still a = 2: yes
// CHECK-NEXT: update from a clone: cudaSuccess, result 0, right
// CHECK-NEXT: extra node: cudaErrorGraphExecUpdateFailure, result 2
// CHECK-NEXT: node type changed: cudaErrorGraphExecUpdateFailure, result 3
// CHECK-NEXT: error node is the memset's twin: yes
// CHECK-NEXT: after refused updates: right
// CHECK-NEXT: kernel disabled: 0, memset only: right
// CHECK-NEXT: kernel enabled: 1, right
// CHECK-NEXT: host node disabled: cudaErrorInvalidValue
// CHECK-NEXT: node of another graph: cudaErrorInvalidValue
// CHECK-NEXT: captured updates: 10 of 10 right
// CHECK-NEXT: errors: cudaSuccess
#include <cstdio>
#include <vector>

// y = a * x + y
__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void setTo(float *y, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = v;
}

const int n = 512;
static float *x, *y;
static std::vector<float> hx(n), hy(n);

static bool check(float a, float yInit) {
  cudaMemcpy(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok &= hy[i] == a * hx[i] + yInit;
  return ok;
}

int main() {
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    hx[i] = float(i % 13) - 6.0f;
  cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaStream_t s;
  cudaStreamCreate(&s);

  // memset(y = 0) -> y = a x + y
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaMemsetParams ms = {};
  ms.dst = y;
  ms.elementSize = 4;
  ms.width = n;
  ms.height = 1;
  cudaGraphNode_t memset, kernel;
  cudaGraphAddMemsetNode(&memset, g, nullptr, 0, &ms);
  float a = 2.0f;
  int count = n;
  void *args[] = {&a, &x, &y, &count};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)axpy;
  kp.gridDim = dim3(n / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = args;
  cudaGraphAddKernelNode(&kernel, g, &memset, 1, &kp);

  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  printf("first launch: %s\n", check(2.0f, 0.0f) ? "right" : "wrong");

  // New parameters for the executable graph's node (another block shape
  // too); the graph's own node keeps its own.
  a = -3.0f;
  kp.gridDim = dim3(n / 64);
  kp.blockDim = dim3(64);
  cudaGraphExecKernelNodeSetParams(exec, kernel, &kp);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  cudaKernelNodeParams own;
  cudaGraphKernelNodeGetParams(kernel, &own);
  printf("kernel node set: %s, graph's own node still a = 2: %s\n",
         check(-3.0f, 0.0f) ? "right" : "wrong",
         *(float *)own.kernelParams[0] == 2.0f ? "yes" : "no");

  // A clone with other parameters: y starts at 0x40400000 words (3.0f) and
  // a = 0.5.
  cudaGraph_t clone;
  cudaGraphClone(&clone, g);
  cudaGraphNode_t cloneMemset, cloneKernel;
  cudaGraphNodeFindInClone(&cloneMemset, memset, clone);
  cudaGraphNodeFindInClone(&cloneKernel, kernel, clone);
  ms.value = 0x40400000;
  cudaGraphMemsetNodeSetParams(cloneMemset, &ms);
  a = 0.5f;
  cudaGraphKernelNodeSetParams(cloneKernel, &kp);
  cudaGraphExecUpdateResultInfo info;
  cudaError_t updated = cudaGraphExecUpdate(exec, clone, &info);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  printf("update from a clone: %s, result %d, %s\n", cudaGetErrorName(updated),
         int(info.result), check(0.5f, 3.0f) ? "right" : "wrong");

  // Refused: one node more; a node of another type in the memset's place.
  cudaGraph_t bigger;
  cudaGraphClone(&bigger, clone);
  cudaGraphNode_t extra;
  cudaGraphAddEmptyNode(&extra, bigger, nullptr, 0);
  a = 100.0f;
  updated = cudaGraphExecUpdate(exec, bigger, &info);
  printf("extra node: %s, result %d\n", cudaGetErrorName(updated),
         int(info.result));
  cudaGraph_t retyped;
  cudaGraphCreate(&retyped, 0);
  cudaGraphNode_t notMemset, retypedKernel;
  void *setArgs[] = {&y, &a, &count};
  cudaKernelNodeParams sp = kp;
  sp.func = (void *)setTo;
  sp.kernelParams = setArgs;
  cudaGraphAddKernelNode(&notMemset, retyped, nullptr, 0, &sp);
  cudaGraphAddKernelNode(&retypedKernel, retyped, &notMemset, 1, &kp);
  updated = cudaGraphExecUpdate(exec, retyped, &info);
  printf("node type changed: %s, result %d\nerror node is the memset's twin: "
         "%s\n",
         cudaGetErrorName(updated), int(info.result),
         info.errorNode == notMemset ? "yes" : "no");
  cudaGetLastError();
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  printf("after refused updates: %s\n", check(0.5f, 3.0f) ? "right" : "wrong");

  // A disabled kernel node does nothing; the memset still runs.
  cudaGraphNodeSetEnabled(exec, kernel, 0);
  unsigned enabled = 7;
  cudaGraphNodeGetEnabled(exec, kernel, &enabled);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  printf("kernel disabled: %u, memset only: %s\n", enabled,
         check(0.0f, 3.0f) ? "right" : "wrong");
  cudaGraphNodeSetEnabled(exec, kernel, 1);
  cudaGraphNodeGetEnabled(exec, kernel, &enabled);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  printf("kernel enabled: %u, %s\n", enabled,
         check(0.5f, 3.0f) ? "right" : "wrong");

  cudaGraph_t withHost;
  cudaGraphCreate(&withHost, 0);
  cudaGraphNode_t hostNode;
  cudaHostNodeParams hp = {[](void *) {}, nullptr};
  cudaGraphAddHostNode(&hostNode, withHost, nullptr, 0, &hp);
  cudaGraphExec_t hostExec;
  cudaGraphInstantiate(&hostExec, withHost, 0);
  printf("host node disabled: %s\n",
         cudaGetErrorName(cudaGraphNodeSetEnabled(hostExec, hostNode, 0)));
  printf(
      "node of another graph: %s\n",
      cudaGetErrorName(cudaGraphExecKernelNodeSetParams(exec, notMemset, &kp)));
  cudaGetLastError();

  // The usual pattern: capture the same work with new arguments, update the
  // executable graph from it, launch.
  cudaGraphExec_t captured = nullptr;
  int right = 0;
  for (int step = 0; step < 10; ++step) {
    float scale = float(step) - 4.5f, start = float(step);
    cudaGraph_t g2;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    setTo<<<n / 128, 128, 0, s>>>(y, start, n);
    axpy<<<n / 128, 128, 0, s>>>(scale, x, y, n);
    cudaStreamEndCapture(s, &g2);
    if (!captured) {
      cudaGraphInstantiate(&captured, g2, 0);
    } else if (cudaGraphExecUpdate(captured, g2, &info) != cudaSuccess) {
      printf("update %d failed\n", step);
      break;
    }
    cudaGraphDestroy(g2);
    cudaGraphLaunch(captured, s);
    cudaStreamSynchronize(s);
    right += check(scale, start);
  }
  printf("captured updates: %d of 10 right\n", right);

  cudaGraphExecDestroy(captured);
  cudaGraphExecDestroy(hostExec);
  cudaGraphDestroy(withHost);
  cudaGraphDestroy(retyped);
  cudaGraphDestroy(bigger);
  cudaGraphDestroy(clone);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
  printf("errors: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
