// What stream capture forbids, with the codes CUDA gives: each forbidden
// call fails, invalidates the capture it concerns, and cudaStreamEndCapture
// then gives no graph. Capture modes decide which threads' unsafe calls a
// capture forbids. After all of it the device works as before.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: legacy stream: cudaErrorStreamCaptureUnsupported
// CHECK-NEXT: twice: cudaErrorIllegalState
// CHECK-NEXT: end without begin: cudaErrorIllegalState
// CHECK-NEXT: sync copy, blocking stream: cudaErrorStreamCaptureImplicit
// CHECK-NEXT: status: 2
// CHECK-NEXT: launch after: cudaErrorStreamCaptureInvalidated
// CHECK-NEXT: end: cudaErrorStreamCaptureInvalidated, graph null: yes
// CHECK-NEXT: cudaMalloc, global mode: cudaErrorStreamCaptureUnsupported
// CHECK-NEXT: status: 2
// CHECK-NEXT: end: cudaErrorStreamCaptureInvalidated
// CHECK-NEXT: sync copy, non-blocking: cudaErrorStreamCaptureUnsupported
// CHECK-NEXT: end: cudaErrorStreamCaptureInvalidated
// CHECK-NEXT: cudaStreamSynchronize: cudaErrorStreamCaptureUnsupported
// CHECK-NEXT: end: cudaErrorStreamCaptureInvalidated
// CHECK-NEXT: cudaStreamQuery: cudaErrorStreamCaptureUnsupported
// CHECK-NEXT: end: cudaErrorStreamCaptureInvalidated
// CHECK-NEXT: cudaDeviceSynchronize: cudaErrorStreamCaptureUnsupported
// CHECK-NEXT: end: cudaErrorStreamCaptureInvalidated
// CHECK-NEXT: relaxed capture, cudaMalloc: cudaSuccess
// CHECK-NEXT: end: cudaSuccess
// CHECK-NEXT: thread mode relaxed, cudaMalloc: cudaSuccess
// CHECK-NEXT: end: cudaSuccess
// CHECK-NEXT: other thread, global: cudaErrorStreamCaptureUnsupported
// CHECK-NEXT: end: cudaErrorStreamCaptureInvalidated
// CHECK-NEXT: other thread, thread-local: cudaSuccess
// CHECK-NEXT: end: cudaSuccess
// CHECK-NEXT: end in another thread: cudaErrorStreamCaptureWrongThread
// CHECK-NEXT: end: cudaSuccess
// CHECK-NEXT: unjoined fork: cudaErrorStreamCaptureUnjoined
// CHECK-NEXT: forked stream's status after: 0
// CHECK-NEXT: end on the forked stream: cudaErrorStreamCaptureUnmatched
// CHECK-NEXT: query captured event: cudaErrorCapturedEvent
// CHECK-NEXT: synchronize captured event: cudaErrorCapturedEvent
// CHECK-NEXT: end: cudaSuccess
// CHECK-NEXT: wait for uncaptured work: cudaErrorStreamCaptureIsolation
// CHECK-NEXT: end: cudaErrorStreamCaptureInvalidated
// CHECK-NEXT: external event wait: cudaSuccess
// CHECK-NEXT: end: cudaSuccess, 2 nodes
// CHECK-NEXT: merge two captures: cudaErrorStreamCaptureMerge
// CHECK-NEXT: cudaStreamAddCallback: cudaErrorStreamCaptureUnsupported
// CHECK-NEXT: end: cudaErrorStreamCaptureInvalidated
// CHECK-NEXT: cudaMallocAsync: cudaErrorNotSupported
// CHECK-NEXT: end: cudaErrorStreamCaptureInvalidated
// CHECK-NEXT: destroyed while capturing: cudaSuccess
// CHECK-NEXT: cudaMalloc after: cudaSuccess
// CHECK-NEXT: afterwards: 64 of 64 right
// CHECK-NEXT: errors: cudaSuccess
#include <cstdio>
#include <thread>

__global__ void inc(int *v) { v[threadIdx.x] += 1; }

static cudaStream_t s, nb, other;
static int *d;

static void report(const char *what, cudaError_t e) {
  printf("%s: %s\n", what, cudaGetErrorName(e));
}

/// Ends the capture of a stream and reports how; the graph, if any, is
/// destroyed. Returns the number of nodes it had.
static size_t end(cudaStream_t stream = s, bool nodes = false) {
  cudaGraph_t g = (cudaGraph_t)1;
  cudaError_t e = cudaStreamEndCapture(stream, &g);
  size_t count = 0;
  if (g && g != (cudaGraph_t)1) {
    cudaGraphGetNodes(g, nullptr, &count);
    cudaGraphDestroy(g);
  }
  if (nodes)
    printf("end: %s, %zu nodes\n", cudaGetErrorName(e), count);
  else
    report("end", e);
  return count;
}

static void CUDART_CB callback(cudaStream_t, cudaError_t, void *) {}

int main() {
  cudaStreamCreate(&s);
  cudaStreamCreate(&other);
  cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking);
  cudaMalloc(&d, 64 * sizeof(int));
  cudaMemset(d, 0, 64 * sizeof(int));
  int h[64];
  cudaStreamCaptureStatus status;

  report("legacy stream",
         cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal));
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  report("twice", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaGraph_t g;
  cudaStreamEndCapture(s, &g);
  cudaGraphDestroy(g);
  report("end without begin", cudaStreamEndCapture(s, &g));

  // A synchronous copy uses the legacy stream, which a capturing blocking
  // stream makes unusable.
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  inc<<<1, 64, 0, s>>>(d);
  report("sync copy, blocking stream",
         cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  cudaStreamIsCapturing(s, &status);
  printf("status: %d\n", int(status));
  inc<<<1, 64, 0, s>>>(d);
  report("launch after", cudaGetLastError());
  g = (cudaGraph_t)1;
  cudaError_t ended = cudaStreamEndCapture(s, &g);
  printf("end: %s, graph null: %s\n", cudaGetErrorName(ended),
         g ? "no" : "yes");

  int *p = nullptr;
  cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal);
  report("cudaMalloc, global mode", cudaMalloc(&p, 16));
  cudaStreamIsCapturing(nb, &status);
  printf("status: %d\n", int(status));
  end(nb);

  cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal);
  report("sync copy, non-blocking",
         cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  end(nb);

  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  report("cudaStreamSynchronize", cudaStreamSynchronize(s));
  end();
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  report("cudaStreamQuery", cudaStreamQuery(s));
  end();
  cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal);
  report("cudaDeviceSynchronize", cudaDeviceSynchronize());
  end(nb);

  // Relaxed: the capture forbids nothing; or the thread's own mode relaxed.
  cudaStreamBeginCapture(nb, cudaStreamCaptureModeRelaxed);
  report("relaxed capture, cudaMalloc", cudaMalloc(&p, 16));
  end(nb);
  cudaFree(p);
  cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal);
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&mode);
  report("thread mode relaxed, cudaMalloc", cudaMalloc(&p, 16));
  cudaThreadExchangeStreamCaptureMode(&mode);
  end(nb);
  cudaFree(p);

  // Another thread's unsafe call: forbidden by a global capture, not by a
  // thread-local one.
  for (cudaStreamCaptureMode m :
       {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal}) {
    cudaStreamBeginCapture(nb, m);
    cudaError_t e;
    std::thread t([&] {
      e = cudaMalloc(&p, 16);
      if (e == cudaSuccess)
        cudaFree(p);
    });
    t.join();
    report(m == cudaStreamCaptureModeGlobal ? "other thread, global"
                                            : "other thread, thread-local",
           e);
    end(nb);
  }

  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  inc<<<1, 64, 0, s>>>(d);
  cudaError_t elsewhere;
  std::thread([&] { elsewhere = cudaStreamEndCapture(s, &g); }).join();
  report("end in another thread", elsewhere);
  end();

  // Fork without join; end on the forked stream.
  cudaEvent_t fork, join, outside;
  cudaEventCreate(&fork);
  cudaEventCreate(&join);
  cudaEventCreate(&outside);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaEventRecord(fork, s);
  cudaStreamWaitEvent(other, fork, 0);
  inc<<<1, 64, 0, other>>>(d);
  report("unjoined fork", cudaStreamEndCapture(s, &g));
  cudaStreamIsCapturing(other, &status);
  printf("forked stream's status after: %d\n", int(status));
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaEventRecord(fork, s);
  cudaStreamWaitEvent(other, fork, 0);
  report("end on the forked stream", cudaStreamEndCapture(other, &g));

  // Still capturing s: its event cannot be queried or waited for by the
  // host.
  report("query captured event", cudaEventQuery(fork));
  report("synchronize captured event", cudaEventSynchronize(fork));
  end();

  // A capturing stream may not wait for work outside its capture, unless
  // the wait is an external event node.
  cudaEventRecord(outside, other);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  report("wait for uncaptured work", cudaStreamWaitEvent(s, outside, 0));
  end();
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  report("external event wait",
         cudaStreamWaitEvent(s, outside, cudaEventWaitExternal));
  inc<<<1, 64, 0, s>>>(d);
  end(s, /*nodes=*/true);

  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal);
  cudaEventRecord(join, nb);
  report("merge two captures", cudaStreamWaitEvent(s, join, 0));
  cudaStreamEndCapture(nb, &g);
  cudaStreamEndCapture(s, &g);

  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  report("cudaStreamAddCallback",
         cudaStreamAddCallback(s, callback, nullptr, 0));
  end();
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  report("cudaMallocAsync", cudaMallocAsync(&p, 16, s));
  end();

  // A stream destroyed while it captures ends its capture: nothing is left
  // to forbid calls.
  cudaStream_t doomed;
  cudaStreamCreateWithFlags(&doomed, cudaStreamNonBlocking);
  cudaStreamBeginCapture(doomed, cudaStreamCaptureModeGlobal);
  report("destroyed while capturing", cudaStreamDestroy(doomed));
  report("cudaMalloc after", cudaMalloc(&p, 16));
  cudaFree(p);

  cudaGetLastError();
  cudaMemset(d, 0, 64 * sizeof(int));
  inc<<<1, 64, 0, s>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int right = 0;
  for (int i = 0; i < 64; ++i)
    right += h[i] == 1;
  printf("afterwards: %d of 64 right\n", right);
  report("errors", cudaGetLastError());
  return 0;
}
