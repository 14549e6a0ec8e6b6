// Run-time linking with the driver API: two CUDA C++ sources compiled by
// NVRTC as relocatable device code (-rdc=true), linked with cuLinkCreate /
// cuLinkAddData / cuLinkComplete, loaded and launched. Each source has a
// static device function and a file-scope variable of the same name, which
// must stay apart. Then a link with an undefined function fails with its
// message in the error log, and cuGetProcAddress and the runtime's
// cudaGetDriverEntryPoint return the library's own functions.
// REQUIRES: nvcc
// The real NVRTC is loaded with RTLD_DEEPBIND (see lib/CUDA/NVRTC.cpp), which
// the sanitizer runtime refuses to load under.
// UNSUPPORTED: asan
// RUN: %nvcc %s -o %t -lcuda -lnvrtc && ptx-jit exec %t | FileCheck %s
// CHECK: linked 2 modules: CUDA_SUCCESS
// CHECK-NEXT: results: 64 of 64 right
// CHECK-NEXT: undefined: CUDA_ERROR_INVALID_IMAGE
// CHECK-NEXT: log: error: undefined reference to function '_Z7missingi'
// CHECK-NEXT: cuGetProcAddress(cuMemAlloc) is cuMemAlloc_v2: yes
// CHECK-NEXT: cudaGetDriverEntryPoint(cuLaunchKernel) is cuLaunchKernel: yes
// CHECK-NEXT: unknown symbol: null, status 1
#include <cstdio>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>
#include <string>

static const char *KernelSource = R"(
__device__ int scale(int x);
__device__ int offset = 1000;
static __device__ int helper(int x) { return x + offset; }
extern "C" __global__ void apply(int *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] = helper(scale(v[i]));
}
)";

static const char *LibrarySource = R"(
static __device__ int offset = 3;
static __device__ int helper(int x) { return x * offset; }
__device__ int scale(int x) { return helper(x) + 1; }
)";

static const char *MissingSource = R"(
__device__ int missing(int x);
extern "C" __global__ void broken(int *v) { v[0] = missing(v[0]); }
)";

static std::string compile(const char *Source, const char *Name) {
  nvrtcProgram P;
  nvrtcCreateProgram(&P, Source, Name, 0, nullptr, nullptr);
  const char *Options[] = {"-rdc=true", "--gpu-architecture=compute_80"};
  if (nvrtcCompileProgram(P, 2, Options) != NVRTC_SUCCESS) {
    size_t Size;
    nvrtcGetProgramLogSize(P, &Size);
    std::string Log(Size, '\0');
    nvrtcGetProgramLog(P, Log.data());
    std::printf("%s: %s\n", Name, Log.c_str());
    return "";
  }
  size_t Size;
  nvrtcGetPTXSize(P, &Size);
  std::string PTX(Size, '\0');
  nvrtcGetPTX(P, PTX.data());
  nvrtcDestroyProgram(&P);
  return PTX;
}

static const char *name(CUresult R) {
  const char *N = "?";
  cuGetErrorName(R, &N);
  return N;
}

int main() {
  cuInit(0);
  CUdevice Dev;
  cuDeviceGet(&Dev, 0);
  CUcontext Ctx;
  cuDevicePrimaryCtxRetain(&Ctx, Dev);
  cuCtxSetCurrent(Ctx);

  std::string Kernel = compile(KernelSource, "kernel.cu");
  std::string Library = compile(LibrarySource, "library.cu");

  char ErrorLog[1024];
  CUjit_option Options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Values[] = {ErrorLog, reinterpret_cast<void *>(sizeof(ErrorLog))};
  CUlinkState Link;
  cuLinkCreate(2, Options, Values, &Link);
  cuLinkAddData(Link, CU_JIT_INPUT_PTX, Kernel.data(), Kernel.size(),
                "kernel.ptx", 0, nullptr, nullptr);
  cuLinkAddData(Link, CU_JIT_INPUT_PTX, Library.data(), Library.size(),
                "library.ptx", 0, nullptr, nullptr);
  void *Image;
  size_t ImageSize;
  CUresult R = cuLinkComplete(Link, &Image, &ImageSize);
  std::printf("linked 2 modules: %s\n", name(R));
  if (R != CUDA_SUCCESS)
    std::printf("%s\n", ErrorLog);
  CUmodule Module;
  cuModuleLoadData(&Module, Image);
  cuLinkDestroy(Link);
  CUfunction Apply;
  cuModuleGetFunction(&Apply, Module, "apply");

  const int N = 64;
  int Host[N];
  for (int I = 0; I < N; ++I)
    Host[I] = I - 10;
  CUdeviceptr V;
  cuMemAlloc(&V, sizeof(Host));
  cuMemcpyHtoD(V, Host, sizeof(Host));
  void *Params[] = {&V};
  cuLaunchKernel(Apply, 2, 1, 1, 32, 1, 1, 0, nullptr, Params, nullptr);
  cuMemcpyDtoH(Host, V, sizeof(Host));
  int Right = 0;
  for (int I = 0; I < N; ++I)
    Right += Host[I] == ((I - 10) * 3 + 1) + 1000;
  std::printf("results: %d of %d right\n", Right, N);

  std::string Missing = compile(MissingSource, "missing.cu");
  cuLinkCreate(2, Options, Values, &Link);
  cuLinkAddData(Link, CU_JIT_INPUT_PTX, Missing.data(), Missing.size(),
                "missing.ptx", 0, nullptr, nullptr);
  R = cuLinkComplete(Link, &Image, &ImageSize);
  std::printf("undefined: %s\n", name(R));
  std::printf("log: %.*s\n", int(std::strcspn(ErrorLog, "(")) - 1, ErrorLog);
  cuLinkDestroy(Link);

  void *Fn = nullptr;
  CUdriverProcAddressQueryResult Status;
  cuGetProcAddress("cuMemAlloc", &Fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT,
                   &Status);
  std::printf("cuGetProcAddress(cuMemAlloc) is cuMemAlloc_v2: %s\n",
              Fn == reinterpret_cast<void *>(&cuMemAlloc_v2) ? "yes" : "no");
  cudaDriverEntryPointQueryResult RtStatus;
  cudaGetDriverEntryPointByVersion("cuLaunchKernel", &Fn, CUDART_VERSION,
                                   cudaEnableDefault, &RtStatus);
  std::printf("cudaGetDriverEntryPoint(cuLaunchKernel) is cuLaunchKernel: %s\n",
              Fn == reinterpret_cast<void *>(&cuLaunchKernel) ? "yes" : "no");
  cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &Fn, CUDART_VERSION,
                                   cudaEnableDefault, &RtStatus);
  std::printf("unknown symbol: %s, status %d\n", Fn ? "found" : "null",
              int(RtStatus));
  cuMemFree(V);
  return 0;
}
