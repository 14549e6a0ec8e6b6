// The driver API's host, managed and pitched memory, sets and queries:
// cuMemAllocHost/cuMemHostAlloc memory that a kernel writes through
// cuMemHostGetDevicePointer; cuMemHostRegister memory that the runtime
// library sees as page-locked (one bookkeeping for both libraries);
// cuMemAllocManaged; cuMemGetAddressRange; cuMemsetD16, cuMemsetD2D32 and
// an asynchronous cuMemsetD8Async; cuMemcpy between any addresses; and the
// device, context, stream, event and function queries. Expected values:
//   fill writes 3 * i to element i of 8: 0 3 6 9 12 15 18 21.
//   Managed memory the host wrote 10 + i, read by copy: 10 ... 17.
//   cuMemsetD16 0xbeef over 4 halves; cuMemsetD2D32 7 over 3 of each
//   8-word (32-byte) row of 2 rows; cuMemsetD8Async 0x5a over 3 bytes.
//   The device is an sm_80 (8.0) with stream priorities 0 (least) to -5
//   (greatest), so a requested -10 is clamped to -5.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t -lcuda && ptx-jit exec %t | FileCheck %s
// clang-format off
// CHECK: host memory: 0 3 6 9 12 15 18 21, same address: 1
// CHECK-NEXT: registered: runtime type 1, cudaFreeHost cudaErrorInvalidValue, unregister CUDA_SUCCESS, again CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED
// CHECK-NEXT: cudaHostUnregister of allocated memory: cudaErrorHostMemoryNotRegistered, cuMemFreeHost CUDA_SUCCESS, again CUDA_ERROR_INVALID_VALUE
// CHECK-NEXT: managed: 10 11 12 13 14 15 16 17, runtime type 3, flags 0: CUDA_ERROR_INVALID_VALUE
// CHECK-NEXT: range: base 1, size 256
// CHECK-NEXT: d16: beef beef beef beef 0000
// CHECK-NEXT: d2d32: 7 7 7 0 0 0 0 0 7 7 7 0 0 0 0 0
// CHECK-NEXT: d8async: 5a 5a 5a 00, misaligned d32: CUDA_ERROR_INVALID_VALUE
// CHECK-NEXT: cuMemcpy: 1 2 3 4
// CHECK-NEXT: device 0, sm 8.0, pci {{[0-9a-f]{8}:[0-9a-f]{2}:[0-9a-f]{2}\.0}}, peer 0
// CHECK-NEXT: priorities 0 to -5, stream priority -5, flags 1
// CHECK-NEXT: elapsed >= 0: 1, untimed: CUDA_ERROR_INVALID_HANDLE, unrecorded: CUDA_ERROR_INVALID_HANDLE
// CHECK-NEXT: name fill, block size a multiple of 32 in (0, 1024]: 1, grid > 0: 1
// clang-format on
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>

static const char *PTX = R"(
.version 8.0
.target sm_80
.address_size 64
// p[i] = 3 * i
.visible .entry fill(.param .u64 p)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  mul.lo.u32 %r2, %r1, 3;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

static const char *name(CUresult R) {
  const char *N = "?";
  cuGetErrorName(R, &N);
  return N;
}

#define CHECK(X)                                                               \
  if (CUresult R = (X)) {                                                      \
    printf("%s failed: %s\n", #X, name(R));                                    \
    return 1;                                                                  \
  }

int main() {
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuCtxCreate(&ctx, nullptr, 0, dev));
  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, PTX));
  CUfunction fill;
  CHECK(cuModuleGetFunction(&fill, mod, "fill"));

  // Page-locked host memory, written by a kernel.
  unsigned *host;
  CHECK(cuMemHostAlloc((void **)&host, 8 * sizeof(unsigned),
                       CU_MEMHOSTALLOC_DEVICEMAP));
  CUdeviceptr mapped;
  CHECK(cuMemHostGetDevicePointer(&mapped, host, 0));
  void *args[] = {&mapped};
  CHECK(cuLaunchKernel(fill, 1, 1, 1, 8, 1, 1, 0, nullptr, args, nullptr));
  CHECK(cuCtxSynchronize());
  printf("host memory:");
  for (int i = 0; i < 8; ++i)
    printf("%s%u", i ? " " : " ", host[i]);
  printf(", same address: %d\n", mapped == (CUdeviceptr)host);

  // Registered memory, seen by the runtime library too.
  void *plain = malloc(4096);
  CHECK(cuMemHostRegister(plain, 4096, 0));
  cudaPointerAttributes attrs;
  cudaPointerGetAttributes(&attrs, plain);
  cudaError_t freeRegistered = cudaFreeHost(plain);
  CUresult unregister = cuMemHostUnregister(plain);
  printf("registered: runtime type %d, cudaFreeHost %s, unregister %s, again "
         "%s\n",
         int(attrs.type), cudaGetErrorName(freeRegistered), name(unregister),
         name(cuMemHostUnregister(plain)));
  free(plain);
  void *allocated;
  CHECK(cuMemAllocHost(&allocated, 64));
  cudaError_t unregAllocated = cudaHostUnregister(allocated);
  CUresult freed = cuMemFreeHost(allocated);
  printf("cudaHostUnregister of allocated memory: %s, cuMemFreeHost %s, again "
         "%s\n",
         cudaGetErrorName(unregAllocated), name(freed),
         name(cuMemFreeHost(allocated)));

  // Managed memory.
  CUdeviceptr managed;
  CHECK(
      cuMemAllocManaged(&managed, 8 * sizeof(unsigned), CU_MEM_ATTACH_GLOBAL));
  for (int i = 0; i < 8; ++i)
    ((unsigned *)managed)[i] = 10 + i;
  unsigned back[16];
  CHECK(cuMemcpyDtoH(back, managed, 8 * sizeof(unsigned)));
  cudaPointerGetAttributes(&attrs, (void *)managed);
  CUdeviceptr unused;
  printf("managed:");
  for (int i = 0; i < 8; ++i)
    printf(" %u", back[i]);
  printf(", runtime type %d, flags 0: %s\n", int(attrs.type),
         name(cuMemAllocManaged(&unused, 4, 0)));

  // Address ranges.
  CUdeviceptr buf, base;
  size_t size;
  CHECK(cuMemAlloc(&buf, 256));
  CHECK(cuMemGetAddressRange(&base, &size, buf + 100));
  printf("range: base %d, size %zu\n", base == buf, size);

  // Sets.
  CHECK(cuMemsetD8(buf, 0, 256));
  CHECK(cuMemsetD16(buf, 0xbeef, 4));
  unsigned short halves[5];
  CHECK(cuMemcpyDtoH(halves, buf, sizeof halves));
  printf("d16: %04x %04x %04x %04x %04x\n", halves[0], halves[1], halves[2],
         halves[3], halves[4]);
  CHECK(cuMemsetD8(buf, 0, 256));
  CHECK(cuMemsetD2D32(buf, 32, 7, 3, 2));
  CHECK(cuMemcpyDtoH(back, buf, 16 * sizeof(unsigned)));
  printf("d2d32:");
  for (int i = 0; i < 16; ++i)
    printf(" %u", back[i]);
  printf("\n");
  CUstream stream;
  CHECK(cuStreamCreateWithPriority(&stream, CU_STREAM_NON_BLOCKING, -10));
  CHECK(cuMemsetD8(buf, 0, 256));
  CHECK(cuMemsetD8Async(buf, 0x5a, 3, stream));
  CHECK(cuStreamSynchronize(stream));
  unsigned char bytes[4];
  CHECK(cuMemcpyDtoH(bytes, buf, 4));
  printf("d8async: %02x %02x %02x %02x, misaligned d32: %s\n", bytes[0],
         bytes[1], bytes[2], bytes[3], name(cuMemsetD32(buf + 2, 1, 4)));

  // cuMemcpy takes any two addresses.
  unsigned from[4] = {1, 2, 3, 4}, to[4] = {};
  CHECK(cuMemcpy((CUdeviceptr)to, (CUdeviceptr)from, sizeof from));
  printf("cuMemcpy: %u %u %u %u\n", to[0], to[1], to[2], to[3]);

  // Queries.
  CUdevice current;
  CHECK(cuCtxGetDevice(&current));
  int major, minor, peer;
  CHECK(cuDeviceComputeCapability(&major, &minor, dev));
  char pci[32];
  CHECK(cuDeviceGetPCIBusId(pci, sizeof pci, dev));
  CHECK(cuDeviceCanAccessPeer(&peer, dev, dev));
  printf("device %d, sm %d.%d, pci %s, peer %d\n", current, major, minor, pci,
         peer);
  int least, greatest, priority;
  unsigned flags;
  CHECK(cuCtxGetStreamPriorityRange(&least, &greatest));
  CHECK(cuStreamGetPriority(stream, &priority));
  CHECK(cuStreamGetFlags(stream, &flags));
  printf("priorities %d to %d, stream priority %d, flags %u\n", least, greatest,
         priority, flags);

  CUevent start, end, untimed, never;
  CHECK(cuEventCreate(&start, 0));
  CHECK(cuEventCreate(&end, 0));
  CHECK(cuEventCreate(&untimed, CU_EVENT_DISABLE_TIMING));
  CHECK(cuEventCreate(&never, 0));
  CHECK(cuEventRecord(start, stream));
  CHECK(cuLaunchKernel(fill, 1, 1, 1, 8, 1, 1, 0, stream, args, nullptr));
  CHECK(cuEventRecord(end, stream));
  CHECK(cuEventRecord(untimed, stream));
  CHECK(cuEventSynchronize(end));
  float ms = -1;
  CHECK(cuEventElapsedTime(&ms, start, end));
  printf("elapsed >= 0: %d, untimed: %s, unrecorded: %s\n", ms >= 0,
         name(cuEventElapsedTime(&ms, start, untimed)),
         name(cuEventElapsedTime(&ms, never, end)));

  const char *fname = nullptr;
  CHECK(cuFuncGetName(&fname, fill));
  int minGrid = 0, blockSize = 0;
  CHECK(cuOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, fill, nullptr, 0,
                                         0));
  printf("name %s, block size a multiple of 32 in (0, 1024]: %d, grid > 0: "
         "%d\n",
         fname, blockSize > 0 && blockSize <= 1024 && blockSize % 32 == 0,
         minGrid > 0);
  for (CUevent E : {start, end, untimed, never})
    CHECK(cuEventDestroy(E));
  CHECK(cuStreamDestroy(stream));
  return 0;
}
