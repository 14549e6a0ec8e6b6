//===- LoadInput.cpp - Read a PTX or CUDA source input --------------------===//

#include "ptxjit/Driver/LoadInput.h"
#include "ptxjit/PTX/AST.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

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
  Expected<std::string> PTX =
      cudasource::compileToPTX((*Buf)->getBuffer(), Path, Opts.CUDA, Diag);
  if (!PTX)
    return PTX.takeError();
  return MemoryBuffer::getMemBufferCopy(*PTX, Path.str() + ".ptx");
}

Expected<std::unique_ptr<ptx::Module>>
driver::loadInput(StringRef Path, const InputOptions &Opts, raw_ostream &Diag) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = readPTX(Path, Opts, Diag);
  if (!Buf)
    return Buf.takeError();
  return ptx::loadModule(std::move(*Buf), Diag, Opts.FrontEnd);
}
