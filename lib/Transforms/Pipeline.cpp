//===- Pipeline.cpp - The PTX-to-PTX passes before lowering ---------------===//

#include "ptxjit/Transforms/Pipeline.h"
#include "ptxjit/Transforms/Inliner.h"
#include "ptxjit/Transforms/RegisterScopes.h"
#include "ptxjit/Transforms/RegisterWebs.h"
#include "ptxjit/Transforms/VectorRegisters.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::transforms;

static const PassInfo Passes[] = {
    {"inline", "inline direct calls of device functions"},
    {"resolve-scopes", "rename registers that shadow others in nested blocks"},
    {"split-vectors", "give each component of a .v2/.v4/.v8 register its own"},
    {"register-webs", "give each web of a reused register its own name"},
};

ArrayRef<PassInfo> transforms::getPasses() { return Passes; }

bool transforms::isPassName(StringRef Name) {
  return any_of(Passes, [&](const PassInfo &P) { return P.Name == Name; });
}

Expected<PreparedFunction> transforms::runPipeline(const ptx::Module &M,
                                                   const ptx::Function &F,
                                                   BumpPtrAllocator &Alloc,
                                                   StringRef StopAfter) {
  assert((StopAfter.empty() || isPassName(StopAfter)) && "unknown pass");
  PreparedFunction R;
  // Callees' blocks join this function's, so its dispatcher schedules all
  // lanes while some run a callee (warp-synchronous code, barriers, spins).
  R.F = inlineCalls(M, F, Alloc);
  if (StopAfter == "inline")
    return std::move(R);
  // Registers are looked up by name alone from here on.
  R.F = resolveRegisterScopes(R.F, Alloc);
  if (StopAfter == "resolve-scopes")
    return std::move(R);
  R.F = splitVectorRegisters(R.F, Alloc);
  if (StopAfter == "split-vectors")
    return std::move(R);
  Expected<PTXCFG> CFG = PTXCFG::build(M, R.F);
  if (!CFG)
    return CFG.takeError();
  // Reused registers become one register per web before the analysis.
  R.F = splitRegisterWebs(R.F, *CFG, Alloc);
  R.CFG = std::move(*CFG);
  return std::move(R);
}
