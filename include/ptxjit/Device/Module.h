//===- Module.h - A PTX module loaded into a context ------------*- C++ -*-===//
//
// A module is parsed and verified once. Loading it allocates its .global and
// .const variables in device memory, initialized, so that all its kernels
// and the host (through symbol addresses) share them; its kernels are
// compiled when first launched.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_DEVICE_MODULE_H
#define PTXJIT_DEVICE_MODULE_H

#include "ptxjit/Device/DeviceMemory.h"
#include "ptxjit/Device/Kernel.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ptxjit {
namespace ptx {
class Module;
} // namespace ptx
namespace device {

class Context;

class Module {
public:
  /// Use Context::loadModule.
  static llvm::Expected<std::unique_ptr<Module>>
  create(Context &Ctx, std::unique_ptr<ptx::Module> PTX);
  ~Module();
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  Context &getContext() const { return Ctx; }
  const ptx::Module &getPTX() const { return *PTX; }

  /// The kernel (.entry) named Name.
  llvm::Expected<Kernel &> getKernel(llvm::StringRef Name);
  /// The names of the module's kernels, in order.
  std::vector<llvm::StringRef> getKernelNames() const;
  /// The device memory of the .global or .const variable named Name.
  llvm::Expected<Allocation> getGlobal(llvm::StringRef Name) const;

  /// Whether the module declares device malloc or free: launching its
  /// kernels fixes the context's heap (Context::getDeviceHeap).
  bool usesDeviceHeap() const { return UsesHeap; }

  /// The variables' symbols and addresses, for the JIT.
  const std::vector<std::pair<std::string, void *>> &
  getVariableSymbols() const {
    return VariableSymbols;
  }

private:
  Module(Context &Ctx, std::unique_ptr<ptx::Module> PTX);
  llvm::Error allocateVariables();

  Context &Ctx;
  std::unique_ptr<ptx::Module> PTX;
  llvm::StringMap<std::unique_ptr<Kernel>> Kernels;
  llvm::StringMap<Allocation> Variables;
  std::vector<std::pair<std::string, void *>> VariableSymbols;
  bool UsesHeap = false;
};

} // namespace device
} // namespace ptxjit

#endif
