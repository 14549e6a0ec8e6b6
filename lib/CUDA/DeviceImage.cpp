//===- DeviceImage.cpp - The PTX of what programs hand the libraries ------===//

#include "DeviceImage.h"
#include "ptxjit/CUDA/FatBinary.h"
#include "ptxjit/Device/DeviceError.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/FrontEnd.h"
#include "ptxjit/PTX/Linker.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cuda;

static constexpr uint32_t ELFMagic = 0x464c457f;

Expected<std::string> cuda::getFatBinaryPTX(const void *Data) {
  const auto *Header = static_cast<const uint8_t *>(Data);
  uint64_t Size = support::endian::read16le(Header + 6) +
                  support::endian::read64le(Header + 8);
  Expected<std::vector<FatBinaryEntry>> Entries = readFatBinary(Data, Size);
  if (!Entries)
    return device::withErrorCode(Entries.takeError(),
                                 device::ErrorCode::InvalidKernelImage);
  Expected<const FatBinaryEntry *> PTX = selectPTXEntry(*Entries, MaxPTXArch);
  if (!PTX)
    return device::withErrorCode(PTX.takeError(),
                                 device::ErrorCode::NoKernelImageForDevice);
  return (*PTX)->Payload;
}

Expected<std::string> cuda::getRegisteredPTX(const void *Wrapper) {
  // struct { int magic; int version; const void *data; void *extra; }
  const auto *W = static_cast<const uint8_t *>(Wrapper);
  if (support::endian::read32le(W) != FatBinaryWrapperMagic)
    return getFatBinaryPTX(Wrapper);
  const void *Data = *reinterpret_cast<const void *const *>(W + 8);
  const void *const *Prelinked =
      support::endian::read32le(W + 4) == 2
          ? *reinterpret_cast<const void *const *const *>(W + 16)
          : nullptr;
  if (!Prelinked)
    return getFatBinaryPTX(Data);
  std::vector<NamedPTX> Parts;
  for (unsigned I = 0; Prelinked[I]; ++I) {
    Expected<std::string> PTX = getFatBinaryPTX(Prelinked[I]);
    if (!PTX)
      return PTX.takeError();
    Parts.push_back(
        {"<-rdc fat binary " + std::to_string(I + 1) + ">", std::move(*PTX)});
  }
  return linkPTX(Parts);
}

Expected<std::string> cuda::getImagePTX(const void *Image) {
  if (!Image)
    return device::makeDeviceError(device::ErrorCode::InvalidValue, "no image");
  uint32_t Magic = support::endian::read32le(Image);
  if (Magic == FatBinaryMagic)
    return getFatBinaryPTX(Image);
  if (Magic == FatBinaryWrapperMagic)
    return getRegisteredPTX(Image);
  if (Magic == ELFMagic)
    return device::makeDeviceError(
        device::ErrorCode::NoKernelImageForDevice,
        "the image is a cubin (machine code); ptx-jit needs PTX");
  return std::string(static_cast<const char *>(Image));
}

Expected<std::unique_ptr<ptx::Module>>
cuda::parseLinkInput(const NamedPTX &In) {
  std::string Diagnostics;
  raw_string_ostream OS(Diagnostics);
  Expected<std::unique_ptr<ptx::Module>> M =
      ptx::loadModule(MemoryBuffer::getMemBufferCopy(In.Text, In.Name), OS);
  if (!M)
    return device::makeDeviceError(device::ErrorCode::InvalidPtx,
                                   Diagnostics + toString(M.takeError()));
  return M;
}

Expected<std::string>
cuda::linkParsedPTX(ArrayRef<std::unique_ptr<ptx::Module>> Modules,
                    ArrayRef<std::string> Names) {
  std::vector<ptx::LinkInput> Inputs;
  for (size_t I = 0; I != Modules.size(); ++I)
    Inputs.push_back({Modules[I].get(), Names[I]});
  Expected<std::string> Linked = ptx::linkModules(Inputs);
  if (!Linked)
    return device::withErrorCode(Linked.takeError(),
                                 device::ErrorCode::InvalidKernelImage);
  return Linked;
}

Expected<std::string> cuda::linkPTX(ArrayRef<NamedPTX> Inputs) {
  std::vector<std::unique_ptr<ptx::Module>> Modules;
  std::vector<std::string> Names;
  for (const NamedPTX &In : Inputs) {
    Expected<std::unique_ptr<ptx::Module>> M = parseLinkInput(In);
    if (!M)
      return M.takeError();
    Modules.push_back(std::move(*M));
    Names.push_back(In.Name);
  }
  return linkParsedPTX(Modules, Names);
}
