//===- NVRTC.cpp - libnvrtc.so.13 that serves PTX for cubins --------------===//
//
// Programs that compile CUDA C++ at run time ask NVRTC for a cubin of the
// device's compute capability: machine code, which ptx-jit cannot run.
// This library stands in for NVIDIA's: it passes every call to the real
// NVRTC (the program needs it anyway: it compiles with it), but compiles
// for the virtual architecture (compute_XX instead of sm_XX), so the result
// is PTX, and hands that PTX back when the program asks for the cubin.
// cuModuleLoadData then gets PTX, which ptx-jit's driver library loads.
//
// The real library is PTXJIT_NVRTC if set, else $CUDA_PATH/lib64 or
// /usr/local/cuda/lib64's libnvrtc.so.13, loaded with RTLD_DEEPBIND so that
// it binds its own functions, not these.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <string>
#include <vector>

#define PTXJIT_NVRTC_API extern "C" __attribute__((visibility("default")))

typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;

enum : nvrtcResult {
  NVRTC_SUCCESS = 0,
  NVRTC_ERROR_INVALID_INPUT = 3,
  NVRTC_ERROR_INVALID_PROGRAM = 4,
  NVRTC_ERROR_INTERNAL_ERROR = 11,
};

namespace {

/// NVIDIA's NVRTC, loaded on first use.
class RealNVRTC {
public:
  static RealNVRTC &get() {
    static RealNVRTC *R = new RealNVRTC();
    return *R;
  }

  /// The real function Name, or null (having said why, once).
  void *lookup(const char *Name) {
    if (!Handle)
      return nullptr;
    return dlsym(Handle, Name);
  }

private:
  RealNVRTC() {
    std::vector<std::string> Candidates;
    if (const char *P = std::getenv("PTXJIT_NVRTC"))
      Candidates.push_back(P);
    if (const char *CUDA = std::getenv("CUDA_PATH"))
      Candidates.push_back(std::string(CUDA) + "/lib64/libnvrtc.so.13");
    Candidates.push_back("/usr/local/cuda/lib64/libnvrtc.so.13");
    for (const std::string &C : Candidates)
      if ((Handle = dlopen(C.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND)))
        return;
    std::fprintf(stderr,
                 "ptx-jit: error: the program compiles CUDA C++ at run time "
                 "and needs NVIDIA's libnvrtc.so.13, which is not at "
                 "$PTXJIT_NVRTC, $CUDA_PATH/lib64 or /usr/local/cuda/lib64\n");
  }

  void *Handle = nullptr;
};

template <typename Fn> Fn *real(const char *Name) {
  return reinterpret_cast<Fn *>(RealNVRTC::get().lookup(Name));
}

/// "sm_80" -> "compute_80"; anything else as it is.
std::string toVirtual(const std::string &Arch) {
  if (Arch.compare(0, 3, "sm_") == 0)
    return "compute_" + Arch.substr(3);
  return Arch;
}

} // namespace

#define PTXJIT_FORWARD(Name, Params, Args)                                     \
  PTXJIT_NVRTC_API nvrtcResult Name Params {                                   \
    auto *F = real<nvrtcResult Params>(#Name);                                 \
    return F ? F Args : NVRTC_ERROR_INTERNAL_ERROR;                            \
  }

PTXJIT_NVRTC_API const char *nvrtcGetErrorString(nvrtcResult Result) {
  auto *F = real<const char *(nvrtcResult)>("nvrtcGetErrorString");
  return F ? F(Result) : "NVRTC_ERROR_INTERNAL_ERROR";
}

PTXJIT_FORWARD(nvrtcVersion, (int *Major, int *Minor), (Major, Minor))
PTXJIT_FORWARD(nvrtcGetNumSupportedArchs, (int *N), (N))
PTXJIT_FORWARD(nvrtcGetSupportedArchs, (int *Archs), (Archs))
PTXJIT_FORWARD(nvrtcCreateProgram,
               (nvrtcProgram * Prog, const char *Src, const char *Name,
                int NumHeaders, const char *const *Headers,
                const char *const *IncludeNames),
               (Prog, Src, Name, NumHeaders, Headers, IncludeNames))
PTXJIT_FORWARD(nvrtcDestroyProgram, (nvrtcProgram * Prog), (Prog))
PTXJIT_FORWARD(nvrtcGetPTXSize, (nvrtcProgram Prog, size_t *Size), (Prog, Size))
PTXJIT_FORWARD(nvrtcGetPTX, (nvrtcProgram Prog, char *PTX), (Prog, PTX))
PTXJIT_FORWARD(nvrtcGetProgramLogSize, (nvrtcProgram Prog, size_t *Size),
               (Prog, Size))
PTXJIT_FORWARD(nvrtcGetProgramLog, (nvrtcProgram Prog, char *Log), (Prog, Log))
PTXJIT_FORWARD(nvrtcAddNameExpression, (nvrtcProgram Prog, const char *Name),
               (Prog, Name))
PTXJIT_FORWARD(nvrtcGetLoweredName,
               (nvrtcProgram Prog, const char *Name, const char **Lowered),
               (Prog, Name, Lowered))
PTXJIT_FORWARD(nvrtcGetLTOIRSize, (nvrtcProgram Prog, size_t *Size),
               (Prog, Size))
PTXJIT_FORWARD(nvrtcGetLTOIR, (nvrtcProgram Prog, char *Out), (Prog, Out))
PTXJIT_FORWARD(nvrtcGetOptiXIRSize, (nvrtcProgram Prog, size_t *Size),
               (Prog, Size))
PTXJIT_FORWARD(nvrtcGetOptiXIR, (nvrtcProgram Prog, char *Out), (Prog, Out))

/// Compiles with every -arch/--gpu-architecture sm_XX made compute_XX.
PTXJIT_NVRTC_API nvrtcResult nvrtcCompileProgram(nvrtcProgram Prog,
                                                 int NumOptions,
                                                 const char *const *Options) {
  auto *F = real<nvrtcResult(nvrtcProgram, int, const char *const *)>(
      "nvrtcCompileProgram");
  if (!F)
    return NVRTC_ERROR_INTERNAL_ERROR;
  if (NumOptions < 0 || (NumOptions && !Options))
    return NVRTC_ERROR_INVALID_INPUT;
  std::vector<std::string> Rewritten;
  for (int I = 0; I != NumOptions; ++I) {
    std::string O = Options[I] ? Options[I] : "";
    for (const char *Prefix :
         {"-arch=", "--gpu-architecture=", "-arch", "--gpu-architecture"}) {
      size_t N = std::strlen(Prefix);
      if (O.compare(0, N, Prefix) == 0 && O.size() > N) {
        O = Prefix + toVirtual(O.substr(N));
        break;
      }
      if (O == Prefix && I + 1 < NumOptions) {
        // "-arch sm_80": the value is the next option.
        Rewritten.push_back(O);
        O = toVirtual(Options[++I] ? Options[I] : "");
        break;
      }
    }
    Rewritten.push_back(O);
  }
  std::vector<const char *> Pointers;
  for (const std::string &O : Rewritten)
    Pointers.push_back(O.c_str());
  return F(Prog, int(Pointers.size()), Pointers.data());
}

/// The "cubin" is the PTX: what ptx-jit's driver library loads.
PTXJIT_NVRTC_API nvrtcResult nvrtcGetCUBINSize(nvrtcProgram Prog,
                                               size_t *Size) {
  return nvrtcGetPTXSize(Prog, Size);
}

PTXJIT_NVRTC_API nvrtcResult nvrtcGetCUBIN(nvrtcProgram Prog, char *Cubin) {
  return nvrtcGetPTX(Prog, Cubin);
}
