//===- DeviceImage.h - The PTX of what programs hand the libraries -*- C++
//-*-===//
//
// Programs give device code as PTX text, as fat binaries, or, when built
// with -rdc=true, as one fat binary per source file whose PTX must be
// linked. Each comes down to one module's PTX text here.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_CUDA_DEVICEIMAGE_H
#define PTXJIT_LIB_CUDA_DEVICEIMAGE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>

namespace ptxjit {
namespace ptx {
class Module;
} // namespace ptx
namespace cuda {

/// The newest PTX the front end reads is for this architecture or older.
constexpr unsigned MaxPTXArch = 120;

/// The PTX of the fat binary at Data (its header gives its size).
llvm::Expected<std::string> getFatBinaryPTX(const void *Data);

/// The PTX of what __cudaRegisterFatBinary is given: a wrapper {magic,
/// version, fat binary, ...}. In a version 2 wrapper (-rdc=true programs)
/// the fourth field lists the source files' fat binaries, whose PTX is
/// linked: the device-linked fat binary itself holds only machine code.
llvm::Expected<std::string> getRegisteredPTX(const void *Wrapper);

/// cuModuleLoadData's image: PTX text or a fat binary (a cubin is an
/// error that says PTX is needed).
llvm::Expected<std::string> getImagePTX(const void *Image);

/// One PTX text to link and its name in messages.
struct NamedPTX {
  std::string Name;
  std::string Text;
};

/// Parses and verifies one input of a link; diagnostics are in the error
/// (InvalidPtx).
llvm::Expected<std::unique_ptr<ptx::Module>> parseLinkInput(const NamedPTX &In);

/// Links parsed inputs (Names[I] names Modules[I] in messages) into one
/// module's PTX; errors have the InvalidKernelImage code.
llvm::Expected<std::string>
linkParsedPTX(llvm::ArrayRef<std::unique_ptr<ptx::Module>> Modules,
              llvm::ArrayRef<std::string> Names);

/// parseLinkInput on each, then linkParsedPTX.
llvm::Expected<std::string> linkPTX(llvm::ArrayRef<NamedPTX> Inputs);

} // namespace cuda
} // namespace ptxjit

#endif
