//===- CacheKey.cpp - Keys of the on-disk cache ---------------------------===//

#include "ptxjit/Cache/CacheKey.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/TargetParser/Host.h"
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <string>
#include <vector>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::cache;

std::string cache::toHex(const CacheDigest &D) {
  return llvm::toHex(ArrayRef<uint8_t>(D.data(), D.size()), /*LowerCase=*/true);
}

CacheDigest cache::hashBytes(StringRef Bytes) {
  BLAKE3 H;
  H.update(Bytes);
  return H.final<32>();
}

namespace {
struct BuildIdSearch {
  uintptr_t Address; ///< of code in the object searched for
  std::string Id;
};
} // namespace

/// The GNU build id note of the loaded object that holds Search->Address.
static int findBuildId(dl_phdr_info *Info, size_t, void *Data) {
  auto *Search = static_cast<BuildIdSearch *>(Data);
  bool Holds = false;
  for (unsigned I = 0; I != Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    uintptr_t Start = Info->dlpi_addr + P.p_vaddr;
    Holds |= P.p_type == PT_LOAD && Search->Address >= Start &&
             Search->Address - Start < P.p_memsz;
  }
  if (!Holds)
    return 0;
  for (unsigned I = 0; I != Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type != PT_NOTE)
      continue;
    const char *Notes =
        reinterpret_cast<const char *>(Info->dlpi_addr + P.p_vaddr);
    size_t Offset = 0;
    while (Offset + sizeof(ElfW(Nhdr)) <= P.p_memsz) {
      const auto *N = reinterpret_cast<const ElfW(Nhdr) *>(Notes + Offset);
      size_t NameAt = Offset + sizeof(ElfW(Nhdr));
      size_t DescAt = NameAt + alignTo(N->n_namesz, 4);
      if (DescAt + N->n_descsz > P.p_memsz)
        break;
      if (N->n_type == NT_GNU_BUILD_ID && N->n_namesz == 4 &&
          StringRef(Notes + NameAt, 3) == "GNU") {
        Search->Id = llvm::toHex(StringRef(Notes + DescAt, N->n_descsz),
                                 /*LowerCase=*/true);
        return 1;
      }
      Offset = DescAt + alignTo(N->n_descsz, 4);
    }
  }
  return 1;
}

/// What identifies the binary (executable or shared library) this code is
/// in: its build id where the linker wrote one, else its path, size and
/// modification time.
static std::string getBuildId() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&getBuildId), &Info))
    return "unknown";
  BuildIdSearch Search{reinterpret_cast<uintptr_t>(&getBuildId), ""};
  dl_iterate_phdr(findBuildId, &Search);
  if (!Search.Id.empty())
    return "build-id:" + Search.Id;
  std::string Path = Info.dli_fname ? Info.dli_fname : "";
  sys::fs::file_status Status;
  if (sys::fs::status(Path, Status))
    return "path:" + Path;
  return "file:" + Path + ":" + utostr(Status.getSize()) + ":" +
         utostr(Status.getLastModificationTime().time_since_epoch().count());
}

const BuildFacts &BuildFacts::get() {
  static const BuildFacts Facts = [] {
    BuildFacts F;
    F.PtxJitVersion = PTXJIT_VERSION;
    F.BuildId = getBuildId();
    F.LLVMVersion = LLVM_VERSION_STRING;
    F.HostCPU = sys::getHostCPUName().str();
    std::vector<std::string> Features;
    for (const auto &Feature : sys::getHostCPUFeatures())
      Features.push_back((Feature.second ? "+" : "-") + Feature.first().str());
    llvm::sort(Features);
    F.HostFeatures = join(Features, ",");
    return F;
  }();
  return Facts;
}

CacheKeyBuilder::CacheKeyBuilder(StringRef Purpose, const BuildFacts &Facts) {
  add("format", CacheFormatVersion);
  add("purpose", Purpose);
  add("ptx-jit", Facts.PtxJitVersion);
  add("build", Facts.BuildId);
  add("llvm", Facts.LLVMVersion);
  add("cpu", Facts.HostCPU);
  add("features", Facts.HostFeatures);
}

void CacheKeyBuilder::addBytes(StringRef Bytes) {
  uint8_t Size[8];
  support::endian::write64le(Size, Bytes.size());
  Hasher.update(ArrayRef<uint8_t>(Size, 8));
  Hasher.update(Bytes);
}

CacheKeyBuilder &CacheKeyBuilder::add(StringRef Field, StringRef Value) {
  addBytes(Field);
  addBytes(Value);
  return *this;
}

CacheKeyBuilder &CacheKeyBuilder::add(StringRef Field, uint64_t Value) {
  uint8_t Bytes[8];
  support::endian::write64le(Bytes, Value);
  return add(Field, StringRef(reinterpret_cast<char *>(Bytes), 8));
}

CacheDigest CacheKeyBuilder::final() { return Hasher.final<32>(); }
