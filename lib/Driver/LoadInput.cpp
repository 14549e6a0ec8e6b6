//===- LoadInput.cpp - Read a PTX or CUDA source input --------------------===//

#include "ptxjit/Driver/LoadInput.h"
#include "ptxjit/PTX/AST.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::driver;

Expected<std::unique_ptr<MemoryBuffer>>
driver::readPTX(StringRef Path, const InputOptions &Opts, raw_ostream &Diag) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = ptx::readSourceFile(Path);
  if (!Buf)
    return Buf.takeError();
  if (!cudasource::isCUDASourcePath(Path))
    return std::move(*Buf);
  auto Start = std::chrono::steady_clock::now();
  bool Hit = false;
  cudasource::CompileOptions CUDA = Opts.CUDA;
  CUDA.CacheHit = &Hit;
  Expected<std::string> PTX =
      cudasource::compileToPTX((*Buf)->getBuffer(), Path, CUDA, Diag);
  if (InputStats *S = Opts.Stats) {
    S->CompiledSource = true;
    S->PTXCacheUsed = CUDA.Cache != nullptr;
    S->PTXCacheHit = Hit;
    S->ClangSeconds = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - Start)
                          .count();
  }
  if (!PTX)
    return PTX.takeError();
  return MemoryBuffer::getMemBufferCopy(*PTX, Path.str() + ".ptx");
}

Expected<std::unique_ptr<ptx::Module>>
driver::loadInput(StringRef Path, const InputOptions &Opts, raw_ostream &Diag) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = readPTX(Path, Opts, Diag);
  if (!Buf)
    return Buf.takeError();
  auto Start = std::chrono::steady_clock::now();
  Expected<std::unique_ptr<ptx::Module>> M =
      ptx::loadModule(std::move(*Buf), Diag, Opts.FrontEnd);
  if (Opts.Stats)
    Opts.Stats->ParseSeconds = std::chrono::duration<double>(
                                   std::chrono::steady_clock::now() - Start)
                                   .count();
  return M;
}
