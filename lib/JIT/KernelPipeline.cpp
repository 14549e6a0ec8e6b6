//===- KernelPipeline.cpp - The optimization pipeline for warp functions --===//
//
// LLVM's -O2 module pipeline spends much of a kernel's compile time on
// passes with nothing to do here: a warp function is one function with no
// callees to inline, attributes to infer or globals to optimize, its code
// is vectorized already (no loop or SLP vectorizer), and nvcc unrolled its
// loops. At -O2 ptx-jit runs only the function simplification passes that
// pay for this IR, in -O2's order; they make code as fast as -O2's on
// every benchmark kernel in a third less optimization time
// (bench/README.md). -O1 and -O3 are LLVM's own pipelines.
//
//===----------------------------------------------------------------------===//

#include "KernelPipeline.h"
#include "GridStridePrefetch.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include <algorithm>
#include <cstdlib>

using namespace llvm;
using namespace ptxjit;

// The textual form keeps the list readable next to `opt -passes=
// 'default<O2>' -print-pipeline-passes`, which it was cut from.
static constexpr const char *KernelPipelineO2 =
    "function("
    // Registers to SSA values, then the first cleanup.
    "sroa<modify-cfg>,early-cse<>,"
    "simplifycfg<bonus-inst-threshold=1;keep-loops;speculate-blocks;"
    "simplify-cond-branch>,"
    "instcombine<max-iterations=1;no-verify-fixpoint>,"
    "simplifycfg<bonus-inst-threshold=1;switch-range-to-icmp;keep-loops;"
    "speculate-blocks;simplify-cond-branch>,"
    "reassociate,"
    // Invariant parameter loads and address arithmetic out of the warp
    // chain's and the kernel's loops.
    "loop-mssa(loop-instsimplify,loop-simplifycfg,licm<no-allowspeculation>,"
    "loop-rotate<header-duplication;no-prepare-for-lto>,"
    "licm<allowspeculation>),"
    "simplifycfg<bonus-inst-threshold=1;switch-range-to-icmp;keep-loops;"
    "speculate-blocks;simplify-cond-branch>,"
    "instcombine<max-iterations=1;no-verify-fixpoint>,"
    "loop(indvars,loop-deletion,loop-unroll-full),"
    // Redundancy between the lanes' versions of a value and across blocks.
    "sroa<modify-cfg>,gvn<>,sccp,bdce,"
    "instcombine<max-iterations=1;no-verify-fixpoint>,"
    "jump-threading,correlated-propagation,adce,memcpyopt,dse,"
    "loop-mssa(licm<allowspeculation>),"
    "simplifycfg<bonus-inst-threshold=1;switch-range-to-icmp;"
    "switch-to-arithmetic;keep-loops;hoist-common-insts;sink-common-insts;"
    "speculate-blocks;simplify-cond-branch>,"
    "instcombine<max-iterations=1;no-verify-fixpoint>,"
    "infer-alignment,div-rem-pairs,"
    "simplifycfg<bonus-inst-threshold=1;switch-range-to-icmp;"
    "switch-to-arithmetic;keep-loops;speculate-blocks;simplify-cond-branch>,"
    // The tiled SGEMM's shared-memory loads, combined across the lanes'
    // segments, and what that leaves invariant.
    "vector-combine,instcombine<max-iterations=1;no-verify-fixpoint>,"
    "loop-mssa(licm<allowspeculation>),"
    // Far-strided loads of grid-stride loops, prefetched (last: the steps
    // are invariant and hoisted by now).
    "ptxjit-grid-stride-prefetch),"
    // Declarations of what the optimizations made dead, for emit-llvm.
    "strip-dead-prototypes";

uint64_t ptxjit::estimatePromotionCost(const Module &M) {
  uint64_t Cost = 0;
  for (const Function &F : M) {
    if (F.isDeclaration())
      continue;
    uint64_t Slots = 0;
    for (const Instruction &I : F.getEntryBlock())
      Slots += isa<AllocaInst>(I);
    uint64_t MaxPreds = 0;
    for (const BasicBlock &BB : F)
      MaxPreds = std::max<uint64_t>(MaxPreds, pred_size(&BB));
    Cost += Slots * MaxPreds;
  }
  return Cost;
}

StringRef ptxjit::getKernelPipelineOverride() {
  const char *P = std::getenv("PTXJIT_PASSES");
  return P ? P : "";
}

Expected<ModulePassManager> ptxjit::buildKernelPipeline(PassBuilder &PB,
                                                        unsigned OptLevel) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "ptxjit-grid-stride-prefetch")
          return false;
        FPM.addPass(GridStridePrefetchPass());
        return true;
      });
  ModulePassManager MPM;
  StringRef Override = getKernelPipelineOverride();
  if (!Override.empty() || OptLevel == 2) {
    if (Error E = PB.parsePassPipeline(MPM, Override.empty() ? KernelPipelineO2
                                                             : Override))
      return std::move(E);
    return std::move(MPM);
  }
  PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM,
                                        OptimizationLevel, ThinOrFullLTOPhase) {
    MPM.addPass(createModuleToFunctionPassAdaptor(GridStridePrefetchPass()));
  });
  return PB.buildPerModuleDefaultPipeline(
      OptLevel == 1 ? OptimizationLevel::O1 : OptimizationLevel::O3);
}
