// Graphs through the driver API: a stream capture of copies and launches
// (kernelParams and an `extra` buffer) forked to a second stream and joined
// through events, replayed; an explicitly built graph with a memset, a
// kernel and a host node, its executable graph given new kernel
// parameters and updated; capture, instantiation and launch found by
// cuGetProcAddress. Expected values are computed here on the host.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t -lcuda && ptx-jit exec %t | FileCheck %s
// CHECK: capture: 7 nodes, status after 0
// CHECK-NEXT: replays: 10 of 10 right, host function ran 10 times
// CHECK-NEXT: explicit: 3 nodes, 1 root, a = 3
// CHECK-NEXT: launch: right, host node ran
// CHECK-NEXT: exec kernel params: right
// CHECK-NEXT: update from clone: CUDA_SUCCESS, right
// CHECK-NEXT: by cuGetProcAddress: right
// CHECK-NEXT: error names: CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED
// CHECK-NEXT: CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE
#include <cstdio>
#include <cuda.h>

// y[i] = a * y[i] + b
static const char *PTX = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry axpb(.param .u32 n, .param .f32 a, .param .f32 b,
                     .param .u64 y)
{
  .reg .pred %p;
  .reg .b32 %r<5>;
  .reg .f32 %f<5>;
  .reg .b64 %rd<4>;
  ld.param.u32 %r1, [n];
  ld.param.f32 %f1, [a];
  ld.param.f32 %f2, [b];
  ld.param.u64 %rd1, [y];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r2, %r2, %r3, %r4;
  setp.ge.u32 %p, %r2, %r1;
  @%p bra DONE;
  mul.wide.u32 %rd2, %r2, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.f32 %f3, [%rd3];
  fma.rn.f32 %f4, %f1, %f3, %f2;
  st.global.f32 [%rd3], %f4;
DONE:
  ret;
}
)";

#define CHECK(X)                                                               \
  if (CUresult R = (X)) {                                                      \
    const char *Name;                                                          \
    cuGetErrorName(R, &Name);                                                  \
    printf("%s failed: %s\n", #X, Name);                                       \
    return 1;                                                                  \
  }

static int HostRuns = 0;
static void CUDA_CB countRun(void *) { ++HostRuns; }

const unsigned n = 1024;
static float x[n], y[n];

static bool allEqual(float v) {
  for (unsigned i = 0; i < n; ++i)
    if (y[i] != v)
      return false;
  return true;
}

int main() {
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuCtxCreate(&ctx, nullptr, 0, dev));
  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, PTX));
  CUfunction f;
  CHECK(cuModuleGetFunction(&f, mod, "axpb"));
  CUdeviceptr d;
  CHECK(cuMemAlloc(&d, sizeof y));
  CUstream s1, s2;
  CHECK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
  CHECK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
  CUevent fork, join;
  CHECK(cuEventCreate(&fork, CU_EVENT_DISABLE_TIMING));
  CHECK(cuEventCreate(&join, CU_EVENT_DISABLE_TIMING));

  // y = x; y = 2y + 1; first half y = 3y on s1, second half y = y + 5 on
  // s2; y = y - 1 (from a parameter buffer); back to the host.
  unsigned half = n / 2, whole = n;
  float two = 2, one = 1, three = 3, zero = 0, five = 5;
  CUdeviceptr second = d + half * sizeof(float);
  void *p1[] = {&whole, &two, &one, &d};
  void *p2[] = {&half, &three, &zero, &d};
  void *p3[] = {&half, &one, &five, &second};
  struct {
    unsigned n;
    float a, b;
    CUdeviceptr y;
  } buffer = {n, 1, -1, d};
  size_t size = sizeof buffer;
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buffer,
                   CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
  CHECK(cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CHECK(cuMemcpyHtoDAsync(d, x, sizeof x, s1));
  CHECK(cuLaunchKernel(f, n / 128, 1, 1, 128, 1, 1, 0, s1, p1, nullptr));
  CHECK(cuEventRecord(fork, s1));
  CHECK(cuStreamWaitEvent(s2, fork, 0));
  CHECK(cuLaunchKernel(f, half / 128, 1, 1, 128, 1, 1, 0, s1, p2, nullptr));
  CHECK(cuLaunchHostFunc(s1, countRun, nullptr));
  CHECK(cuLaunchKernel(f, half / 128, 1, 1, 128, 1, 1, 0, s2, p3, nullptr));
  CHECK(cuEventRecord(join, s2));
  CHECK(cuStreamWaitEvent(s1, join, 0));
  CHECK(cuLaunchKernel(f, n / 128, 1, 1, 128, 1, 1, 0, s1, nullptr, extra));
  CHECK(cuMemcpyDtoHAsync(y, d, sizeof y, s1));
  CUgraph graph;
  CHECK(cuStreamEndCapture(s1, &graph));
  CUstreamCaptureStatus status;
  CHECK(cuStreamIsCapturing(s2, &status));
  size_t nodes = 0;
  CHECK(cuGraphGetNodes(graph, nullptr, &nodes));
  printf("capture: %zu nodes, status after %d\n", nodes, int(status));

  CUgraphExec exec;
  CHECK(cuGraphInstantiate(&exec, graph, 0));
  int right = 0;
  for (int r = 0; r < 10; ++r) {
    for (unsigned i = 0; i < n; ++i)
      x[i] = float((i + r) % 7);
    CHECK(cuGraphLaunch(exec, s1));
    CHECK(cuStreamSynchronize(s1));
    bool ok = true;
    for (unsigned i = 0; i < n; ++i)
      ok &= y[i] == (i < half ? 6 * x[i] + 2 : 2 * x[i] + 5);
    right += ok;
  }
  printf("replays: %d of 10 right, host function ran %d times\n", right,
         HostRuns);

  // memset y = 2.0f -> y = 3y + 1 -> host node.
  CUgraph g;
  CHECK(cuGraphCreate(&g, 0));
  CUDA_MEMSET_NODE_PARAMS ms = {};
  ms.dst = d;
  ms.value = 0x40000000;
  ms.elementSize = 4;
  ms.width = n;
  ms.height = 1;
  CUgraphNode memset, kernel, host;
  CHECK(cuGraphAddMemsetNode(&memset, g, nullptr, 0, &ms, ctx));
  CUDA_KERNEL_NODE_PARAMS kp = {};
  kp.func = f;
  kp.gridDimX = n / 128, kp.gridDimY = 1, kp.gridDimZ = 1;
  kp.blockDimX = 128, kp.blockDimY = 1, kp.blockDimZ = 1;
  void *pk[] = {&whole, &three, &one, &d};
  kp.kernelParams = pk;
  CHECK(cuGraphAddKernelNode(&kernel, g, &memset, 1, &kp));
  HostRuns = 0;
  CUDA_HOST_NODE_PARAMS hp = {countRun, nullptr};
  CHECK(cuGraphAddHostNode(&host, g, &kernel, 1, &hp));
  size_t roots = 0;
  CHECK(cuGraphGetNodes(g, nullptr, &nodes));
  CHECK(cuGraphGetRootNodes(g, nullptr, &roots));
  CUDA_KERNEL_NODE_PARAMS got;
  CHECK(cuGraphKernelNodeGetParams(kernel, &got));
  printf("explicit: %zu nodes, %zu root, a = %g\n", nodes, roots,
         *(float *)got.kernelParams[1]);
  CUDA_GRAPH_INSTANTIATE_PARAMS ip = {};
  CUgraphExec gExec;
  CHECK(cuGraphInstantiateWithParams(&gExec, g, &ip));
  CHECK(cuGraphLaunch(gExec, s2));
  CHECK(cuStreamSynchronize(s2));
  CHECK(cuMemcpyDtoH(y, d, sizeof y));
  printf("launch: %s, host node %s\n", allEqual(7) ? "right" : "wrong",
         HostRuns == 1 ? "ran" : "did not run");

  float half_ = 0.5f;
  void *pk2[] = {&whole, &half_, &zero, &d};
  kp.kernelParams = pk2;
  CHECK(cuGraphExecKernelNodeSetParams(gExec, kernel, &kp));
  CHECK(cuGraphLaunch(gExec, s2));
  CHECK(cuStreamSynchronize(s2));
  CHECK(cuMemcpyDtoH(y, d, sizeof y));
  printf("exec kernel params: %s\n", allEqual(1) ? "right" : "wrong");

  CUgraph clone;
  CHECK(cuGraphClone(&clone, g));
  CUgraphNode cloneNodes[3];
  size_t numClone = 3;
  CHECK(cuGraphGetNodes(clone, cloneNodes, &numClone));
  void *pk3[] = {&whole, &three, &five, &d};
  kp.kernelParams = pk3;
  for (CUgraphNode node : cloneNodes) {
    CUgraphNodeType type;
    CHECK(cuGraphNodeGetType(node, &type));
    if (type == CU_GRAPH_NODE_TYPE_KERNEL)
      CHECK(cuGraphKernelNodeSetParams(node, &kp));
  }
  CUgraphExecUpdateResultInfo info;
  CUresult updated = cuGraphExecUpdate(gExec, clone, &info);
  CHECK(cuGraphLaunch(gExec, s2));
  CHECK(cuStreamSynchronize(s2));
  CHECK(cuMemcpyDtoH(y, d, sizeof y));
  const char *updatedName = "";
  cuGetErrorName(updated, &updatedName);
  printf("update from clone: %s, %s\n", updatedName,
         allEqual(11) ? "right" : "wrong");

  // What a program that looks the functions up gets.
  void *begin = nullptr, *end = nullptr, *inst = nullptr, *launch = nullptr;
  CUdriverProcAddressQueryResult q;
  CHECK(cuGetProcAddress("cuStreamBeginCapture", &begin, 13000, 0, &q));
  CHECK(cuGetProcAddress("cuStreamEndCapture", &end, 13000, 0, &q));
  CHECK(cuGetProcAddress("cuGraphInstantiate", &inst, 13000, 0, &q));
  CHECK(cuGetProcAddress("cuGraphLaunch", &launch, 13000, 0, &q));
  CUgraph looked;
  CUgraphExec lookedExec;
  CHECK(((CUresult(*)(CUstream, CUstreamCaptureMode))begin)(
      s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CHECK(cuLaunchKernel(f, n / 128, 1, 1, 128, 1, 1, 0, s1, p1, nullptr));
  CHECK(((CUresult(*)(CUstream, CUgraph *))end)(s1, &looked));
  CHECK(((CUresult(*)(CUgraphExec *, CUgraph, unsigned long long))inst)(
      &lookedExec, looked, 0));
  CHECK(cuMemsetD32(d, 0x3f800000, n)); // 1.0f
  CHECK(((CUresult(*)(CUgraphExec, CUstream))launch)(lookedExec, s1));
  CHECK(cuStreamSynchronize(s1));
  CHECK(cuMemcpyDtoH(y, d, sizeof y));
  printf("by cuGetProcAddress: %s\n", allEqual(3) ? "right" : "wrong");

  const char *a = "", *b = "";
  cuGetErrorName(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, &a);
  cuGetErrorName(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, &b);
  printf("error names: %s\n%s\n", a, b);

  CHECK(cuGraphExecDestroy(lookedExec));
  CHECK(cuGraphDestroy(looked));
  CHECK(cuGraphDestroy(clone));
  CHECK(cuGraphExecDestroy(gExec));
  CHECK(cuGraphDestroy(g));
  CHECK(cuGraphExecDestroy(exec));
  CHECK(cuGraphDestroy(graph));
  CHECK(cuEventDestroy(fork));
  CHECK(cuEventDestroy(join));
  CHECK(cuStreamDestroy(s1));
  CHECK(cuStreamDestroy(s2));
  CHECK(cuMemFree(d));
  CHECK(cuModuleUnload(mod));
  CHECK(cuCtxDestroy(ctx));
  return 0;
}
