// The smaller runtime calls: stream-ordered allocation, prefetch and
// advice with CUDA 13's signatures, pointer attributes of each kind of
// memory, kernel names, cudaGetFuncBySymbol with the driver's
// cuLaunchKernel, stream priorities, flags and ids, event record flags.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && ptx-jit exec %t | FileCheck %s
// CHECK: stream-ordered allocation: 4096 of 4096 right, freed: cudaSuccess
// CHECK-NEXT: free of an inner pointer: cudaErrorInvalidValue
// CHECK-NEXT: prefetch: cudaSuccess cudaSuccess
// CHECK-NEXT: prefetch to device 3: cudaErrorInvalidDevice
// CHECK-NEXT: advise: cudaSuccess, unknown advice: cudaErrorInvalidValue
// CHECK-NEXT: device: type 2, device pointer 1, host pointer 0
// CHECK-NEXT: managed: type 3, device pointer 1, host pointer 1
// CHECK-NEXT: pinned: type 1, device pointer 1, host pointer 1
// CHECK-NEXT: registered: type 1, device pointer 1, host pointer 1
// CHECK-NEXT: pageable: type 0
// CHECK-NEXT: after unregistering: type 0
// CHECK-NEXT: unregistered twice: cudaErrorHostMemoryNotRegistered
// CHECK-NEXT: name: _Z5twicePii
// CHECK-NEXT: cudaGetFuncBySymbol: cudaSuccess
// CHECK-NEXT: cuLaunchKernel: 0, 256 of 256 right
// CHECK-NEXT: priorities: least 0, greatest -5
// CHECK-NEXT: asked -1 got -1, asked -100 got -5, asked 7 got 0
// CHECK-NEXT: flags: 0 1 0, ids differ: yes
// CHECK-NEXT: record with flags: cudaSuccess cudaSuccess
// CHECK-NEXT: bad record flags: cudaErrorInvalidValue
// CHECK-NEXT: errors: cudaSuccess
#include <cstdio>
#include <cstdlib>
#include <cuda.h>

__global__ void twice(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= 2;
}

__global__ void iota(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = i;
}

int main() {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);

  // Allocated, used and freed in stream order.
  const int n = 4096;
  int *p = nullptr, host[n];
  cudaMallocAsync(&p, n * sizeof(int), s);
  iota<<<n / 256, 256, 0, s>>>(p, n);
  twice<<<n / 256, 256, 0, s>>>(p, n);
  cudaMemcpyAsync(host, p, sizeof host, cudaMemcpyDeviceToHost, s);
  cudaError_t freed = cudaFreeAsync(p, s);
  cudaStreamSynchronize(s);
  int right = 0;
  for (int i = 0; i < n; ++i)
    right += host[i] == 2 * i;
  printf("stream-ordered allocation: %d of %d right, freed: %s\n", right, n,
         cudaGetErrorName(freed));
  int *q;
  cudaMalloc(&q, 64);
  printf("free of an inner pointer: %s\n",
         cudaGetErrorName(cudaFreeAsync(q + 1, s)));
  cudaGetLastError();

  int *managed;
  cudaMallocManaged(&managed, n * sizeof(int));
  cudaMemLocation device = {cudaMemLocationTypeDevice, 0};
  cudaMemLocation hostLocation = {cudaMemLocationTypeHost, 0};
  cudaMemLocation missing = {cudaMemLocationTypeDevice, 3};
  cudaError_t toDevice =
      cudaMemPrefetchAsync(managed, n * sizeof(int), device, 0, s);
  cudaError_t toHost =
      cudaMemPrefetchAsync(managed, n * sizeof(int), hostLocation, 0, s);
  cudaError_t toMissing =
      cudaMemPrefetchAsync(managed, n * sizeof(int), missing, 0, s);
  printf("prefetch: %s %s\nprefetch to device 3: %s\n",
         cudaGetErrorName(toDevice), cudaGetErrorName(toHost),
         cudaGetErrorName(toMissing));
  cudaError_t advised = cudaMemAdvise(
      managed, n * sizeof(int), cudaMemAdviseSetPreferredLocation, device);
  printf("advise: %s, unknown advice: %s\n", cudaGetErrorName(advised),
         cudaGetErrorName(
             cudaMemAdvise(managed, 4, cudaMemoryAdvise(42), device)));
  cudaGetLastError();

  int *pinned, *registered = (int *)malloc(1 << 16), pageable[4];
  cudaMallocHost(&pinned, 1 << 16);
  cudaHostRegister(registered, 1 << 16, cudaHostRegisterDefault);
  cudaPointerAttributes d, m, h, r, g;
  cudaPointerGetAttributes(&d, q + 3);
  cudaPointerGetAttributes(&m, managed + 10);
  cudaPointerGetAttributes(&h, pinned + 100);
  cudaPointerGetAttributes(&r, registered + 100);
  cudaPointerGetAttributes(&g, pageable);
  const char *line = "%s: type %d, device pointer %d, host pointer %d\n";
  printf(line, "device", int(d.type), d.devicePointer == q + 3,
         d.hostPointer != nullptr);
  printf(line, "managed", int(m.type), m.devicePointer == managed + 10,
         m.hostPointer == managed + 10);
  printf(line, "pinned", int(h.type), h.devicePointer == pinned + 100,
         h.hostPointer == pinned + 100);
  printf(line, "registered", int(r.type), r.devicePointer == registered + 100,
         r.hostPointer == registered + 100);
  printf("pageable: type %d\n", int(g.type));
  cudaHostUnregister(registered);
  cudaPointerGetAttributes(&r, registered + 100);
  printf("after unregistering: type %d\nunregistered twice: %s\n", int(r.type),
         cudaGetErrorName(cudaHostUnregister(registered)));
  cudaGetLastError();

  const char *name = nullptr;
  cudaFuncGetName(&name, (const void *)twice);
  printf("name: %s\n", name ? name : "(none)");

  // The runtime's function handle is the driver's CUfunction.
  cudaFunction_t f = nullptr;
  cudaError_t byName = cudaGetFuncBySymbol(&f, (const void *)twice);
  void *launch = nullptr;
  cudaDriverEntryPointQueryResult found;
  cudaGetDriverEntryPointByVersion("cuLaunchKernel", &launch, 13000,
                                   cudaEnableDefault, &found);
  int *w;
  cudaMalloc(&w, 256 * sizeof(int));
  iota<<<1, 256>>>(w, 256);
  int count = 256;
  void *args[] = {&w, &count};
  CUresult launched = ((CUresult(*)(CUfunction, unsigned, unsigned, unsigned,
                                    unsigned, unsigned, unsigned, unsigned,
                                    CUstream, void **, void **))launch)(
      (CUfunction)f, 1, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr);
  int back[256];
  cudaMemcpy(back, w, sizeof back, cudaMemcpyDeviceToHost);
  right = 0;
  for (int i = 0; i < 256; ++i)
    right += back[i] == 2 * i;
  printf("cudaGetFuncBySymbol: %s\ncuLaunchKernel: %d, %d of 256 right\n",
         cudaGetErrorName(byName), int(launched), right);

  int least, greatest;
  cudaDeviceGetStreamPriorityRange(&least, &greatest);
  printf("priorities: least %d, greatest %d\n", least, greatest);
  for (int asked : {-1, -100, 7}) {
    cudaStream_t ps;
    int got = 99;
    cudaStreamCreateWithPriority(&ps, cudaStreamDefault, asked);
    cudaStreamGetPriority(ps, &got);
    printf("%sasked %d got %d", asked == -1 ? "" : ", ", asked, got);
    cudaStreamDestroy(ps);
  }
  printf("\n");

  cudaStream_t blocking;
  cudaStreamCreate(&blocking);
  unsigned fb = 9, fs = 9, f0 = 9;
  cudaStreamGetFlags(blocking, &fb);
  cudaStreamGetFlags(s, &fs);
  cudaStreamGetFlags(0, &f0);
  unsigned long long idBlocking = 0, idS = 0;
  cudaStreamGetId(blocking, &idBlocking);
  cudaStreamGetId(s, &idS);
  printf("flags: %u %u %u, ids differ: %s\n", fb, fs, f0,
         idBlocking != idS ? "yes" : "no");

  cudaEvent_t e;
  cudaEventCreate(&e);
  cudaError_t plain = cudaEventRecordWithFlags(e, s, cudaEventRecordDefault);
  cudaError_t external =
      cudaEventRecordWithFlags(e, s, cudaEventRecordExternal);
  cudaEventSynchronize(e);
  printf("record with flags: %s %s\nbad record flags: %s\n",
         cudaGetErrorName(plain), cudaGetErrorName(external),
         cudaGetErrorName(cudaEventRecordWithFlags(e, s, 0x8)));
  cudaGetLastError();

  cudaEventDestroy(e);
  cudaStreamDestroy(blocking);
  cudaStreamDestroy(s);
  cudaFree(q);
  cudaFree(w);
  cudaFree(managed);
  cudaFreeHost(pinned);
  free(registered);
  printf("errors: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
