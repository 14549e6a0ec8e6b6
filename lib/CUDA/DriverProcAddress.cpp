//===- DriverProcAddress.cpp - cuGetProcAddress ---------------------------===//
//
// Programs (and libraries such as CUB's or the runtime's own
// cudaGetDriverEntryPoint) ask for driver functions by their base name,
// "cuMemAlloc", and get the newest version of it, "cuMemAlloc_v2", which is
// the one CUDA 13's headers map the name to. The answer comes from this
// library's own dynamic symbol table, so every exported function is found
// and none is listed twice.
//
//===----------------------------------------------------------------------===//

#include "DeviceProperties.h"
#include "DriverAPI.h"
#include "llvm/ADT/StringRef.h"
#include <dlfcn.h>
#include <string>

using namespace ptxjit::cuda;
using namespace ptxjit::cuda::driver;

namespace {

// CUdriverProcAddress_flags and CUdriverProcAddressQueryResult (cuda.h).
enum : unsigned long long { CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 2 };
enum : int {
  CU_GET_PROC_ADDRESS_SUCCESS = 0,
  CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
};

/// This library, for dlsym.
void *getOwnHandle() {
  static void *Handle = [] {
    Dl_info Info;
    if (!dladdr(reinterpret_cast<void *>(&getOwnHandle), &Info))
      return static_cast<void *>(nullptr);
    return dlopen(Info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  }();
  return Handle;
}

/// The newest exported version of Symbol: Symbol_v4 ... Symbol_v2, then
/// Symbol; per-thread-stream variants (_ptsz, _ptds) first when asked.
void *findDriverFunction(llvm::StringRef Symbol, unsigned long long Flags) {
  void *Handle = getOwnHandle();
  if (!Handle || !Symbol.starts_with("cu"))
    return nullptr;
  std::string Base = Symbol.str();
  if (Flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)
    for (const char *Suffix : {"_ptsz", "_ptds"})
      if (void *F = dlsym(Handle, (Base + Suffix).c_str()))
        return F;
  for (const char *Suffix : {"_v4", "_v3", "_v2", ""})
    if (void *F = dlsym(Handle, (Base + Suffix).c_str()))
      return F;
  return nullptr;
}

} // namespace

PTXJIT_CUDA_API CUresult cuGetProcAddress_v2(const char *Symbol, void **Pfn,
                                             int CudaVersion,
                                             unsigned long long Flags,
                                             int *SymbolStatus) {
  if (!Symbol || !Pfn || CudaVersion > CUDAVersion)
    return CUDA_ERROR_INVALID_VALUE;
  *Pfn = findDriverFunction(Symbol, Flags);
  if (SymbolStatus)
    *SymbolStatus = *Pfn ? CU_GET_PROC_ADDRESS_SUCCESS
                         : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return *Pfn ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

PTXJIT_CUDA_API CUresult cuGetProcAddress(const char *Symbol, void **Pfn,
                                          int CudaVersion,
                                          unsigned long long Flags) {
  return cuGetProcAddress_v2(Symbol, Pfn, CudaVersion, Flags, nullptr);
}
