//===- CUDAInstallation.cpp - Find a CUDA installation --------------------===//

#include "ptxjit/CUDASource/CUDASource.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ptxjit::cudasource;

/// Dir is an installation when it has the runtime headers and libdevice,
/// which is what a device compilation takes from it.
static std::optional<CUDAInstallation> probe(StringRef Dir) {
  SmallString<256> Header(Dir), LibDevice(Dir);
  sys::path::append(Header, "include", "cuda_runtime.h");
  sys::path::append(LibDevice, "nvvm", "libdevice", "libdevice.10.bc");
  if (!sys::fs::exists(Header) || !sys::fs::exists(LibDevice))
    return std::nullopt;
  return CUDAInstallation{Dir.str(), LibDevice.str().str()};
}

std::optional<CUDAInstallation>
ptxjit::cudasource::findCUDAInstallation(const CompileOptions &Opts,
                                         raw_ostream &Diag) {
  if (Opts.NoCUDAInstallation)
    return std::nullopt;
  if (!Opts.CUDAPath.empty()) {
    std::optional<CUDAInstallation> C = probe(Opts.CUDAPath);
    if (!C)
      WithColor::warning(Diag, "ptx-jit")
          << "no CUDA installation at '" << Opts.CUDAPath
          << "' (no include/cuda_runtime.h and nvvm/libdevice); compiling "
             "with ptx-jit's own device headers\n";
    return C;
  }
  if (std::optional<std::string> Env = sys::Process::GetEnv("CUDA_PATH"))
    if (!Env->empty())
      if (std::optional<CUDAInstallation> C = probe(*Env))
        return C;
  return probe("/usr/local/cuda");
}

bool ptxjit::cudasource::isCUDASourcePath(StringRef Path) {
  StringRef Ext = sys::path::extension(Path);
  return Ext == ".cu" || Ext == ".cuh";
}
