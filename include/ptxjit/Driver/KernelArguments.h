//===- KernelArguments.h - Binding --arg SPECs to a kernel ------*- C++ -*-===//
//
// The one entry point `ptx-jit run` needs: given the kernel's parameters (in
// declaration order) and the --arg SPECs (in command-line order), check that
// there is one SPEC per parameter and that each fits, build and initialize
// the buffers, and lay out the value of every parameter. After the launch,
// writeOutputs() prints and writes the buffers that asked for it.
//
//   Expected<KernelArguments> Args = KernelArguments::create(Params, Specs);
//   if (!Args) { report Args.takeError(); exit 1; }
//   launch(Kernel, Grid, Block, Args->getKernelParams().data());
//   if (Error E = Args->writeOutputs(outs())) { report E; exit 1; }
//
// A buffer's address is that of its HostBuffer (the emulator's global
// addresses are host addresses). Every error names the parameter.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DRIVER_KERNELARGUMENTS_H
#define PTXJIT_DRIVER_KERNELARGUMENTS_H

#include "ptxjit/Driver/ArgSpec.h"
#include "ptxjit/Driver/HostBuffer.h"
#include "ptxjit/Driver/ParamDesc.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ptxjit {
namespace driver {

/// One parameter with the --arg bound to it.
struct BoundArgument {
  ParamDesc Param;
  ArgSpec Spec;
  /// The buffer, if Spec is one.
  std::optional<HostBuffer> Buffer;
  /// The parameter's value: the scalar, or the buffer's address.
  std::vector<uint8_t> Value;
};

class KernelArguments {
public:
  /// Binds Specs[I] to Params[I]. An unseeded `rand` buffer uses I as seed.
  static llvm::Expected<KernelArguments>
  create(llvm::ArrayRef<ParamDesc> Params, llvm::ArrayRef<std::string> Specs);

  /// Builds the texture or surface of a --bind SPEC (an image SPEC whose
  /// NAME is that of the module's .texref or .surfref) for a reference of
  /// the kind IsSurface says; returns its handle. Its `>` output is written
  /// with the arguments'.
  llvm::Expected<uint64_t> bindReference(llvm::StringRef Spec, bool IsSurface,
                                         std::string &Name);
  /// The NAME of a --bind SPEC, or an error saying it needs one.
  static llvm::Expected<std::string> getBindingName(llvm::StringRef Spec);
  llvm::ArrayRef<BoundArgument> getArguments() const { return Arguments; }
  llvm::MutableArrayRef<BoundArgument> getArguments() { return Arguments; }

  /// As cuLaunchKernel's kernelParams: element I points to the value of
  /// parameter I (SizeInBytes bytes). Valid while this object lives.
  llvm::SmallVector<void *, 8> getKernelParams();

  /// After the kernel: prints each `>-` buffer on \p OS, in parameter order
  /// (PrintLimit elements at most, 0: all; see printBuffer), and writes each
  /// `>PATH` buffer. Goes on after a failed write and returns all failures.
  llvm::Error writeOutputs(llvm::raw_ostream &OS,
                           uint64_t PrintLimit = 0) const;

private:
  std::vector<BoundArgument> Arguments;
  /// The --bind textures and surfaces, in command-line order.
  std::vector<BoundArgument> References;
};

} // namespace driver
} // namespace ptxjit

#endif // PTXJIT_DRIVER_KERNELARGUMENTS_H
