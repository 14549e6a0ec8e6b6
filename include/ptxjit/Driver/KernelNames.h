//===- KernelNames.h - C++ names of kernels ---------------------*- C++ -*-===//

#ifndef PTXJIT_DRIVER_KERNELNAMES_H
#define PTXJIT_DRIVER_KERNELNAMES_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace ptxjit {
namespace driver {

/// The spellings by which `-k` may name a kernel compiled from C++.
struct DemangledName {
  std::string Full;      ///< "void add<float>(float*)", as c++filt prints
  std::string Signature; ///< "add<float>(float*)": without the return type
  std::string Name;      ///< "add<float>", "ns::k"
  std::string BaseName;  ///< "add", "k"
};

/// The demangled forms of an Itanium-mangled name; false when Mangled is
/// not one (an extern "C" kernel).
bool demangleKernelName(llvm::StringRef Mangled, DemangledName &Result);

/// Whether Query names the kernel Mangled: the mangled name itself, or one
/// of its demangled spellings (extra spaces in Query aside).
bool kernelNameMatches(llvm::StringRef Mangled, llvm::StringRef Query);

/// "Mangled (Demangled)" for a mangled name, else the name itself.
std::string describeKernelName(llvm::StringRef Mangled);

} // namespace driver
} // namespace ptxjit

#endif
