// A driver-API program: loads PTX text with cuModuleLoadDataEx, finds a
// kernel and a global, and launches it through cuLaunchKernel with
// kernelParams and with an `extra` parameter buffer.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t -lcuda && ptx-jit exec %t | FileCheck %s
// CHECK: devices: 1, name: ptx-jit (sm_80 on the CPU)
// CHECK-NEXT: kernelParams: 256 of 256 right
// CHECK-NEXT: extra buffer: 256 of 256 right
// CHECK-NEXT: global 'bias': 4 bytes, 2.5
// CHECK-NEXT: missing kernel: CUDA_ERROR_NOT_FOUND
#include <cstdio>
#include <cstring>
#include <cuda.h>

// y[i] = a * x[i] + y[i] + bias
static const char *PTX = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .global .align 4 .f32 bias = 0f40200000;
.visible .entry saxpy(.param .u32 n, .param .f32 a, .param .u64 x,
                      .param .u64 y)
{
  .reg .pred %p;
  .reg .b32 %r<5>;
  .reg .f32 %f<6>;
  .reg .b64 %rd<6>;
  ld.param.u32 %r1, [n];
  ld.param.f32 %f1, [a];
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r2, %r2, %r3, %r4;
  setp.ge.u32 %p, %r2, %r1;
  @%p bra DONE;
  mul.wide.u32 %rd3, %r2, 4;
  add.u64 %rd4, %rd1, %rd3;
  add.u64 %rd5, %rd2, %rd3;
  ld.global.f32 %f2, [%rd4];
  ld.global.f32 %f3, [%rd5];
  ld.global.f32 %f4, [bias];
  fma.rn.f32 %f5, %f1, %f2, %f3;
  add.rn.f32 %f5, %f5, %f4;
  st.global.f32 [%rd5], %f5;
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

static int countRight(const float *y, const float *x, float a, int n,
                      float start) {
  int right = 0;
  for (int i = 0; i < n; ++i)
    right += y[i] == a * x[i] + start + 2.5f;
  return right;
}

int main() {
  CHECK(cuInit(0));
  int count = 0;
  CHECK(cuDeviceGetCount(&count));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  char name[64];
  CHECK(cuDeviceGetName(name, sizeof name, dev));
  printf("devices: %d, name: %s\n", count, name);
  CUcontext ctx;
  CHECK(cuCtxCreate(&ctx, nullptr, 0, dev));
  CUmodule mod;
  CHECK(cuModuleLoadDataEx(&mod, PTX, 0, nullptr, nullptr));
  CUfunction f;
  CHECK(cuModuleGetFunction(&f, mod, "saxpy"));

  const int n = 256;
  float x[n], y[n];
  for (int i = 0; i < n; ++i) {
    x[i] = float(i);
    y[i] = 1.0f;
  }
  CUdeviceptr dx, dy;
  CHECK(cuMemAlloc(&dx, sizeof x));
  CHECK(cuMemAlloc(&dy, sizeof y));
  CHECK(cuMemcpyHtoD(dx, x, sizeof x));
  CHECK(cuMemcpyHtoD(dy, y, sizeof y));
  unsigned nn = n;
  float a = 3.0f;
  void *params[] = {&nn, &a, &dx, &dy};
  CHECK(cuLaunchKernel(f, n / 64, 1, 1, 64, 1, 1, 0, nullptr, params,
                       nullptr));
  CHECK(cuMemcpyDtoH(y, dy, sizeof y));
  printf("kernelParams: %d of %d right\n", countRight(y, x, a, n, 1.0f), n);

  // The same parameters laid out in one buffer, as the PTX declares them.
  struct {
    unsigned n;
    float a;
    CUdeviceptr x, y;
  } buffer = {nn, a, dx, dy};
  size_t size = sizeof buffer;
  CHECK(cuMemsetD32(dy, 0, n)); // y = 0
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buffer,
                   CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
  CHECK(cuLaunchKernel(f, n / 64, 1, 1, 64, 1, 1, 0, nullptr, nullptr,
                       extra));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(y, dy, sizeof y));
  printf("extra buffer: %d of %d right\n", countRight(y, x, a, n, 0.0f), n);

  CUdeviceptr bias;
  size_t biasSize = 0;
  CHECK(cuModuleGetGlobal(&bias, &biasSize, mod, "bias"));
  float biasValue = 0;
  CHECK(cuMemcpyDtoH(&biasValue, bias, sizeof biasValue));
  printf("global 'bias': %zu bytes, %g\n", biasSize, biasValue);

  CUfunction missing;
  const char *errName = "";
  cuGetErrorName(cuModuleGetFunction(&missing, mod, "nothing"), &errName);
  printf("missing kernel: %s\n", errName);
  CHECK(cuMemFree(dx));
  CHECK(cuMemFree(dy));
  CHECK(cuModuleUnload(mod));
  CHECK(cuCtxDestroy(ctx));
  return 0;
}
