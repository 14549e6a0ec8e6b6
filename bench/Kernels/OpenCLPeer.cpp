//===- OpenCLPeer.cpp - The benchmarks' OpenCL twins on an OpenCL CPU device =//

#include "OpenCLPeer.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace ptxjit::bench;

#ifndef PTXJIT_BENCH_HAVE_OPENCL

Expected<std::unique_ptr<OpenCLPeer>> OpenCLPeer::create() {
  return createStringError("built without OpenCL (install ocl-icd-opencl-dev "
                           "and pocl-opencl-icd, then reconfigure)");
}

#else

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

namespace {

Error clError(cl_int Code, const Twine &What) {
  return createStringError(formatv("OpenCL: {0} failed ({1})", What, Code));
}

class PeerLaunch : public OpenCLLaunch {
public:
  PeerLaunch(cl_command_queue Q, cl_kernel K) : Q(Q), K(K) {}
  ~PeerLaunch() override {
    for (cl_mem M : Buffers)
      clReleaseMemObject(M);
    clReleaseKernel(K);
  }

  Error bind(cl_context Ctx, ArrayRef<OpenCLArg> Args) {
    for (unsigned I = 0; I != Args.size(); ++I) {
      const OpenCLArg &A = Args[I];
      cl_int Err;
      if (!A.IsBuffer) {
        Err = clSetKernelArg(K, I, A.Size, A.Data);
      } else {
        cl_mem M =
            clCreateBuffer(Ctx, CL_MEM_READ_WRITE, A.Size, nullptr, &Err);
        if (Err != CL_SUCCESS)
          return clError(Err, "clCreateBuffer");
        Buffers.push_back(M);
        Sizes.push_back(A.Size);
        Host.push_back(const_cast<void *>(A.Data));
        Err = clSetKernelArg(K, I, sizeof M, &M);
      }
      if (Err != CL_SUCCESS)
        return clError(Err, formatv("clSetKernelArg {0}", I));
    }
    return Error::success();
  }

  Error run() override {
    cl_int Err = clEnqueueNDRangeKernel(Q, K, 3, nullptr, Global, Local, 0,
                                        nullptr, nullptr);
    if (Err != CL_SUCCESS)
      return clError(Err, "clEnqueueNDRangeKernel");
    Err = clFinish(Q);
    return Err == CL_SUCCESS ? Error::success() : clError(Err, "clFinish");
  }

  Error upload() override {
    for (unsigned I = 0; I != Buffers.size(); ++I) {
      cl_int Err = clEnqueueWriteBuffer(Q, Buffers[I], CL_TRUE, 0, Sizes[I],
                                        Host[I], 0, nullptr, nullptr);
      if (Err != CL_SUCCESS)
        return clError(Err, "clEnqueueWriteBuffer");
    }
    return Error::success();
  }

  Error download() override {
    for (unsigned I = 0; I != Buffers.size(); ++I) {
      cl_int Err = clEnqueueReadBuffer(Q, Buffers[I], CL_TRUE, 0, Sizes[I],
                                       Host[I], 0, nullptr, nullptr);
      if (Err != CL_SUCCESS)
        return clError(Err, "clEnqueueReadBuffer");
    }
    return Error::success();
  }

  size_t Global[3] = {1, 1, 1}, Local[3] = {1, 1, 1};

private:
  cl_command_queue Q;
  cl_kernel K;
  std::vector<cl_mem> Buffers;
  std::vector<size_t> Sizes;
  std::vector<void *> Host;
};

class Peer : public OpenCLPeer {
public:
  ~Peer() override {
    for (auto &P : Programs)
      clReleaseProgram(P.getValue());
    if (Q)
      clReleaseCommandQueue(Q);
    if (Ctx)
      clReleaseContext(Ctx);
  }

  Error init() {
    cl_uint NumPlatforms = 0;
    if (clGetPlatformIDs(0, nullptr, &NumPlatforms) != CL_SUCCESS ||
        !NumPlatforms)
      return createStringError("no OpenCL platform (is pocl-opencl-icd "
                               "installed?)");
    std::vector<cl_platform_id> Platforms(NumPlatforms);
    clGetPlatformIDs(NumPlatforms, Platforms.data(), nullptr);
    for (cl_platform_id P : Platforms) {
      cl_uint N = 0;
      if (clGetDeviceIDs(P, CL_DEVICE_TYPE_CPU, 1, &Device, &N) == CL_SUCCESS &&
          N) {
        Platform = P;
        break;
      }
    }
    if (!Platform)
      return createStringError("no OpenCL CPU device");
    cl_int Err;
    Ctx = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
    if (Err != CL_SUCCESS)
      return clError(Err, "clCreateContext");
    Q = clCreateCommandQueue(Ctx, Device, 0, &Err);
    if (Err != CL_SUCCESS)
      return clError(Err, "clCreateCommandQueue");
    return Error::success();
  }

  std::string describe() const override {
    auto Info = [](auto Get, auto Obj, cl_uint Param) {
      char Buf[256] = {};
      Get(Obj, Param, sizeof Buf - 1, Buf, nullptr);
      return std::string(Buf);
    };
    cl_uint Units = 0;
    clGetDeviceInfo(Device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof Units, &Units,
                    nullptr);
    return formatv("{0} ({1}), {2} compute units",
                   Info(clGetPlatformInfo, Platform, CL_PLATFORM_VERSION),
                   Info(clGetDeviceInfo, Device, CL_DEVICE_NAME), Units)
        .str();
  }

  Expected<std::unique_ptr<OpenCLLaunch>>
  prepare(StringRef Path, StringRef Kernel, ArrayRef<OpenCLArg> Args,
          const size_t Global[3], const size_t Local[3]) override {
    Expected<cl_program> P = getProgram(Path);
    if (!P)
      return P.takeError();
    cl_int Err;
    cl_kernel K = clCreateKernel(*P, Kernel.str().c_str(), &Err);
    if (Err != CL_SUCCESS)
      return clError(Err, "clCreateKernel " + Kernel);
    auto L = std::make_unique<PeerLaunch>(Q, K);
    for (unsigned D = 0; D != 3; ++D) {
      L->Global[D] = Global[D];
      L->Local[D] = Local[D];
    }
    if (Error E = L->bind(Ctx, Args))
      return std::move(E);
    return std::move(L);
  }

private:
  Expected<cl_program> getProgram(StringRef Path) {
    auto It = Programs.find(Path);
    if (It != Programs.end())
      return It->getValue();
    ErrorOr<std::unique_ptr<MemoryBuffer>> Src = MemoryBuffer::getFile(Path);
    if (!Src)
      return createStringError(Src.getError(), "cannot read " + Path + ": " +
                                                   Src.getError().message());
    const char *Text = (*Src)->getBufferStart();
    size_t Len = (*Src)->getBufferSize();
    cl_int Err;
    cl_program P = clCreateProgramWithSource(Ctx, 1, &Text, &Len, &Err);
    if (Err != CL_SUCCESS)
      return clError(Err, "clCreateProgramWithSource");
    Err = clBuildProgram(P, 1, &Device, "-cl-std=CL1.2", nullptr, nullptr);
    if (Err != CL_SUCCESS) {
      size_t LogSize = 0;
      clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                            &LogSize);
      std::string Log(LogSize, '\0');
      clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_LOG, LogSize,
                            Log.data(), nullptr);
      clReleaseProgram(P);
      return createStringError(
          formatv("OpenCL: building {0} failed: {1}", Path, Log));
    }
    Programs[Path] = P;
    return P;
  }

  cl_platform_id Platform = nullptr;
  cl_device_id Device = nullptr;
  cl_context Ctx = nullptr;
  cl_command_queue Q = nullptr;
  StringMap<cl_program> Programs;
};

} // namespace

Expected<std::unique_ptr<OpenCLPeer>> OpenCLPeer::create() {
  auto P = std::make_unique<Peer>();
  if (Error E = P->init())
    return std::move(E);
  return std::move(P);
}

#endif
