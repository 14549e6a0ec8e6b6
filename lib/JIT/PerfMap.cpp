//===- PerfMap.cpp - Naming JIT-compiled kernels for perf -----------------===//

#include "PerfMap.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Object/SymbolSize.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <mutex>
#include <string>

using namespace llvm;

/// The map's path, or empty when none is wanted.
static const std::string &getPerfMapPath() {
  static const std::string Path = []() -> std::string {
    const char *Value = std::getenv("PTXJIT_PERF_MAP");
    if (!Value || !*Value || StringRef(Value) == "0")
      return "";
    if (StringRef(Value).contains('/'))
      return Value;
    return "/tmp/perf-" + std::to_string(sys::Process::getProcessId()) + ".map";
  }();
  return Path;
}

/// The size in bytes of Symbol in Object, 0 if it has none.
static uint64_t getSymbolSize(MemoryBufferRef Object, StringRef Symbol) {
  Expected<std::unique_ptr<object::ObjectFile>> File =
      object::ObjectFile::createObjectFile(Object);
  if (!File) {
    consumeError(File.takeError());
    return 0;
  }
  for (const auto &[Sym, Size] : object::computeSymbolSizes(**File)) {
    Expected<StringRef> Name = Sym.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (*Name == Symbol)
      return Size;
  }
  return 0;
}

uint64_t ptxjit::getPerfMapSize(MemoryBufferRef Object, StringRef Symbol) {
  return getPerfMapPath().empty() ? 0 : getSymbolSize(Object, Symbol);
}

void ptxjit::addToPerfMap(uint64_t Address, uint64_t Size, StringRef Name) {
  if (!Size)
    return;
  // Kernels may be linked on several threads at once.
  static std::mutex Lock;
  std::lock_guard<std::mutex> G(Lock);
  std::error_code EC;
  raw_fd_ostream OS(getPerfMapPath(), EC,
                    sys::fs::OF_Append | sys::fs::OF_Text);
  if (EC)
    return;
  OS << format_hex_no_prefix(Address, 1) << ' ' << format_hex_no_prefix(Size, 1)
     << ' ' << Name << '\n';
}
