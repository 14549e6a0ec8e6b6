// Callbacks from several host threads: each thread makes its own streams
// and, many times over, runs a kernel, copies the result to pinned memory
// and queues a host function that checks it, while a second stream waits
// for each step through an event and runs a stream callback. Host
// functions run in their stream's order, after the work before them, and
// callbacks are told the stream and that nothing failed.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: thread 0: 25 host functions in order, right
// CHECK-NEXT: thread 0: 25 callbacks in order, statuses and streams right
// CHECK-NEXT: thread 1: 25 host functions in order, right
// CHECK-NEXT: thread 1: 25 callbacks in order, statuses and streams right
// CHECK-NEXT: thread 2: 25 host functions in order, right
// CHECK-NEXT: thread 2: 25 callbacks in order, statuses and streams right
// CHECK-NEXT: thread 3: 25 host functions in order, right
// CHECK-NEXT: thread 3: 25 callbacks in order, statuses and streams right
// CHECK-NEXT: errors: cudaSuccess
#include <cstdio>
#include <thread>
#include <vector>

__global__ void addStep(int *v, int n, int step) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] += step * (i + 1);
}

struct Worker {
  int id;
  cudaStream_t work, follow;
  int *device, *pinned;
  int n;
  // Filled by host functions and callbacks (each list by one stream).
  std::vector<int> checked, followed;
  int wrongValues = 0, wrongStatus = 0, wrongStream = 0;
  cudaError_t error = cudaSuccess; ///< the thread's last error
};

struct Step {
  Worker *w;
  int step;
};

static void CUDART_CB checkStep(void *p) {
  Step *s = static_cast<Step *>(p);
  Worker &w = *s->w;
  // After steps 1..step, element i holds (1 + ... + step) * (i + 1) plus
  // the thread's start value.
  int triangle = s->step * (s->step + 1) / 2;
  for (int i = 0; i < w.n; ++i)
    if (w.pinned[i] != w.id * 1000 + triangle * (i + 1))
      ++w.wrongValues;
  w.checked.push_back(s->step);
}

static void CUDART_CB followStep(cudaStream_t stream, cudaError_t status,
                                 void *p) {
  Step *s = static_cast<Step *>(p);
  Worker &w = *s->w;
  w.wrongStatus += status != cudaSuccess;
  w.wrongStream += stream != w.follow;
  w.followed.push_back(s->step);
}

static void run(Worker &w, std::vector<Step> &steps) {
  cudaStreamCreate(&w.work);
  cudaStreamCreateWithFlags(&w.follow, cudaStreamNonBlocking);
  cudaMalloc(&w.device, w.n * sizeof(int));
  cudaMallocHost(&w.pinned, w.n * sizeof(int));
  std::vector<int> start(w.n, w.id * 1000);
  cudaMemcpyAsync(w.device, start.data(), w.n * sizeof(int),
                  cudaMemcpyHostToDevice, w.work);
  cudaStreamSynchronize(w.work);
  for (Step &s : steps) {
    addStep<<<(w.n + 127) / 128, 128, 0, w.work>>>(w.device, w.n, s.step);
    cudaMemcpyAsync(w.pinned, w.device, w.n * sizeof(int),
                    cudaMemcpyDeviceToHost, w.work);
    cudaLaunchHostFunc(w.work, checkStep, &s);
    cudaEvent_t e;
    cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    cudaEventRecord(e, w.work);
    cudaStreamWaitEvent(w.follow, e, 0);
    cudaStreamAddCallback(w.follow, followStep, &s, 0);
    cudaEventDestroy(e);
  }
  cudaStreamSynchronize(w.work);
  cudaStreamSynchronize(w.follow);
  cudaStreamDestroy(w.work);
  cudaStreamDestroy(w.follow);
  cudaFree(w.device);
  cudaFreeHost(w.pinned);
  w.error = cudaGetLastError();
}

static bool inOrder(const std::vector<int> &v, int steps) {
  if (int(v.size()) != steps)
    return false;
  for (int i = 0; i < steps; ++i)
    if (v[i] != i + 1)
      return false;
  return true;
}

int main() {
  const int threads = 4, steps = 25;
  std::vector<Worker> workers(threads);
  std::vector<std::vector<Step>> stepsOf(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    workers[t].id = t;
    workers[t].n = 3000 + 500 * t;
    for (int s = 1; s <= steps; ++s)
      stepsOf[t].push_back({&workers[t], s});
    pool.emplace_back(run, std::ref(workers[t]), std::ref(stepsOf[t]));
  }
  for (std::thread &t : pool)
    t.join();
  for (Worker &w : workers)
    printf("thread %d: %zu host functions %s\n"
           "thread %d: %zu callbacks %s, statuses and streams %s\n",
           w.id, w.checked.size(),
           inOrder(w.checked, steps) && !w.wrongValues ? "in order, right"
                                                       : "wrong",
           w.id, w.followed.size(),
           inOrder(w.followed, steps) ? "in order" : "wrong",
           !w.wrongStatus && !w.wrongStream ? "right" : "wrong");
  cudaError_t error = cudaGetLastError();
  for (Worker &w : workers)
    if (w.error != cudaSuccess)
      error = w.error;
  printf("errors: %s\n", cudaGetErrorName(error));
  return 0;
}
