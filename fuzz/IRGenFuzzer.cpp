//===- IRGenFuzzer.cpp - libFuzzer target over the warp lowering ----------===//
//
// Arbitrary bytes that parse and verify go through the PTX-to-PTX passes
// and IRGen for every kernel, at two block shapes (a full warp, and a
// partial one in two dimensions); the LLVM IR that comes out must pass
// LLVM's verifier (IRGen runs it and reports an internal error). IRGen may
// refuse a kernel with an error (a construct not supported yet); a crash, a
// sanitizer report or an internal error is a bug.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/IRGen/IRGen.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/Diagnostics.h"
#include "ptxjit/PTX/Parser.h"
#include "ptxjit/PTX/Verifier.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

using namespace llvm;
using namespace ptxjit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  ptx::Module M(MemoryBuffer::getMemBuffer(Text, "fuzz.ptx",
                                           /*RequiresNullTerminator=*/false));
  raw_null_ostream Null;
  ptx::DiagnosticEngine Diags(M.getSourceMgr(), Null);
  if (!ptx::parseModule(M, Diags) || !ptx::verifyModule(M, Diags))
    return 0;
  static const KernelShape Shapes[] = {{{32, 1, 1}}, {{12, 3, 1}}};
  for (const ptx::Function &F : M.Functions) {
    if (!F.IsEntry || !F.HasBody)
      continue;
    for (const KernelShape &Shape : Shapes) {
      LLVMContext Ctx;
      KernelLayout Layout;
      Expected<std::unique_ptr<llvm::Module>> LM =
          emitKernel(M, F.Name, Shape, Ctx, Layout);
      if (!LM) {
        // A located "not supported" is fine; IRGen's own checks of what it
        // made (invalid IR among them) are bugs.
        std::string Message = toString(LM.takeError());
        if (StringRef(Message).contains("internal error")) {
          errs() << Message << '\n';
          std::abort();
        }
        continue;
      }
    }
  }
  return 0;
}
