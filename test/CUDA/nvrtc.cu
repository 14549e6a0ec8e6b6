// A program that compiles CUDA C++ at run time with NVRTC for the device's
// compute capability, asks for the cubin, and loads it with the driver API:
// ptx-jit's libnvrtc.so.13 hands back PTX, which its libcuda.so.1 runs.
// REQUIRES: nvcc
// The real NVRTC is loaded with RTLD_DEEPBIND (see lib/CUDA/NVRTC.cpp), which
// the sanitizer runtime refuses to load under.
// UNSUPPORTED: asan
// RUN: %nvcc %s -o %t -lcuda -lnvrtc && ptx-jit exec %t | FileCheck %s
// CHECK: compiled for sm_80: NVRTC_SUCCESS
// CHECK-NEXT: lowered name: _Z6squarePii
// CHECK-NEXT: squares: 64 of 64 right
#include <cstdio>
#include <cuda.h>
#include <nvrtc.h>
#include <vector>

static const char *Source = R"(
extern "C++" __global__ void square(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = v[i] * v[i];
}
)";

int main() {
  cuInit(0);
  CUdevice dev;
  cuDeviceGet(&dev, 0);
  int major = 0, minor = 0;
  cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                       dev);
  cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                       dev);
  char arch[32];
  snprintf(arch, sizeof arch, "-arch=sm_%d%d", major, minor);

  nvrtcProgram prog;
  nvrtcCreateProgram(&prog, Source, "square.cu", 0, nullptr, nullptr);
  nvrtcAddNameExpression(prog, "square");
  const char *opts[] = {arch, "-std=c++17"};
  nvrtcResult r = nvrtcCompileProgram(prog, 2, opts);
  printf("compiled for %s: %s\n", arch + 6, nvrtcGetErrorString(r));
  if (r != NVRTC_SUCCESS) {
    size_t logSize;
    nvrtcGetProgramLogSize(prog, &logSize);
    std::vector<char> log(logSize);
    nvrtcGetProgramLog(prog, log.data());
    printf("%s\n", log.data());
    return 1;
  }
  const char *lowered;
  nvrtcGetLoweredName(prog, "square", &lowered);
  printf("lowered name: %s\n", lowered);
  size_t size;
  nvrtcGetCUBINSize(prog, &size);
  std::vector<char> cubin(size);
  nvrtcGetCUBIN(prog, cubin.data());

  CUcontext ctx;
  cuCtxCreate(&ctx, nullptr, 0, dev);
  CUmodule mod;
  if (CUresult e = cuModuleLoadData(&mod, cubin.data())) {
    printf("cuModuleLoadData: %d\n", e);
    return 1;
  }
  CUfunction f;
  cuModuleGetFunction(&f, mod, lowered);
  const int n = 64;
  int host[n];
  for (int i = 0; i < n; ++i)
    host[i] = i - 20;
  CUdeviceptr d;
  cuMemAlloc(&d, sizeof host);
  cuMemcpyHtoD(d, host, sizeof host);
  int count = n;
  void *args[] = {&d, &count};
  cuLaunchKernel(f, 2, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr);
  cuMemcpyDtoH(host, d, sizeof host);
  int right = 0;
  for (int i = 0; i < n; ++i)
    right += host[i] == (i - 20) * (i - 20);
  printf("squares: %d of %d right\n", right, n);
  nvrtcDestroyProgram(&prog);
  cuCtxDestroy(ctx);
  return right == n ? 0 : 1;
}
