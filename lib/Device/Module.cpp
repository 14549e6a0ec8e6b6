//===- Module.cpp - A PTX module loaded into a context --------------------===//

#include "ptxjit/Device/Module.h"
#include "ptxjit/Runtime/Checking.h"
#include "ptxjit/Device/Context.h"
#include "ptxjit/IRGen/IRGen.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/GlobalImage.h"
#include "ptxjit/Runtime/DeviceArena.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"
#include <cstring>

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using namespace ptxjit;
using namespace ptxjit::device;

Module::Module(Context &Ctx, std::unique_ptr<ptx::Module> PTX)
    : Ctx(Ctx), PTX(std::move(PTX)) {}

Module::~Module() {
  for (auto &Entry : Variables) {
    llvm::consumeError(Ctx.getMemory().free(Entry.second.Base));
    if (runtime::CheckSession *S = Ctx.getCheckSession())
      S->freeAllocation(Entry.second.Base);
  }
}

Expected<std::unique_ptr<Module>>
Module::create(Context &Ctx, std::unique_ptr<ptx::Module> PTX) {
  std::unique_ptr<Module> M(new Module(Ctx, std::move(PTX)));
  for (const ptx::Function &F : M->PTX->Functions) {
    if (F.IsEntry && F.HasBody)
      M->Kernels[F.Name] = std::make_unique<Kernel>(*M, F);
    // CUDA's device malloc and free are declared, never defined.
    if (!F.HasBody && (F.Name == "malloc" || F.Name == "free"))
      M->UsesHeap = true;
  }
  if (Error E = M->allocateVariables())
    return std::move(E);
  return std::move(M);
}

Error Module::allocateVariables() {
  std::vector<ptx::GlobalImage> Images;
  for (const ptx::VariableDecl &V : PTX->Globals) {
    if (!ptx::isModuleVariable(*PTX, V) || Variables.count(V.Name))
      continue;
    ptx::GlobalImage Image = ptx::buildGlobalImage(*PTX, V);
    Expected<void *> Mem = Ctx.getMemory().allocate(Image.Size);
    if (!Mem)
      return Mem.takeError();
    std::memcpy(*Mem, Image.Bytes.data(), Image.Bytes.size());
    runtime::setDeviceAllocationName(*Mem, ("variable '" + llvm::Twine(V.Name) +
                                            "' (" + llvm::Twine(Image.Size) +
                                            " bytes)")
                                               .str());
    // Module variables start zeroed or initialized, so written (initcheck).
    if (runtime::CheckSession *S = Ctx.getCheckSession())
      S->addAllocation(*Mem, Image.Size, V.Name, /*Written=*/true);
    Variables[V.Name] = {*Mem, Image.Size};
    VariableSymbols.push_back({getModuleVariableSymbol(V.Name), *Mem});
    Images.push_back(std::move(Image));
  }
  // Initializers that take a variable's address, now that all have one.
  for (const ptx::GlobalImage &Image : Images) {
    auto *Base = static_cast<uint8_t *>(Variables[Image.Var->Name].Base);
    for (const ptx::GlobalRelocation &R : Image.Relocations) {
      auto It = Variables.find(R.Symbol);
      if (It == Variables.end())
        return makeDeviceError(ErrorCode::InvalidPtx,
                               "the initializer of '" + Image.Var->Name +
                                   "' takes the address of '" + R.Symbol +
                                   "', which is not a variable in global "
                                   "memory");
      uint64_t Address =
          uint64_t(reinterpret_cast<uintptr_t>(It->second.Base)) + R.Addend;
      llvm::support::endian::write64le(Base + R.Offset, Address);
    }
  }
  return Error::success();
}

Expected<Kernel &> Module::getKernel(StringRef Name) {
  auto It = Kernels.find(Name);
  if (It == Kernels.end())
    return makeDeviceError(ErrorCode::InvalidDeviceFunction,
                           "no kernel named '" + Name + "'; kernels: " +
                               (Kernels.empty()
                                    ? std::string("none")
                                    : llvm::join(getKernelNames(), ", ")));
  return *It->second;
}

std::vector<StringRef> Module::getKernelNames() const {
  std::vector<StringRef> Names;
  for (const ptx::Function &F : PTX->Functions)
    if (F.IsEntry && F.HasBody)
      Names.push_back(F.Name);
  return Names;
}

Expected<Allocation> Module::getGlobal(StringRef Name) const {
  auto It = Variables.find(Name);
  if (It == Variables.end())
    return makeDeviceError(ErrorCode::InvalidSymbol,
                           "no .global or .const variable named '" + Name +
                               "' in the module");
  return It->second;
}
