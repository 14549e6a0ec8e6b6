//===- WarpLoweringTest.cpp - The IR the warp lowering emits --------------===//
//
// Small kernels lowered with emitKernel, and properties of their IR that
// follow from the design of the warp lowering (docs/DESIGN.md): the
// converged path carries no divergence bookkeeping, a split warp goes
// through the dispatcher, CTA barriers call the runtime, warp-synchronous
// instructions in converged code are plain vector code.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/ABI/CompiledKernel.h"
#include "ptxjit/IRGen/IRGen.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/FrontEnd.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace ptxjit;

namespace {

/// A module with one kernel k(.param .u64 out) whose body is Body.
std::string kernelPTX(StringRef Body, StringRef Decls = "") {
  return (".version 8.0\n.target sm_80\n.address_size 64\n" + Decls +
          "\n.visible .entry k(.param .u64 out)\n{\n"
          "  .reg .u32 %r<8>;\n  .reg .u64 %rd<8>;\n  .reg .pred %p<4>;\n" +
          Body + "\n}\n")
      .str();
}

class WarpLoweringTest : public ::testing::Test {
protected:
  /// Lowers kernel k of Text for blocks of Threads threads; null (and a
  /// failure) if it does not lower.
  Module *lower(StringRef Text, uint32_t Threads = 64,
                const IRGenOptions &Opts = IRGenOptions()) {
    std::string Diags;
    raw_string_ostream OS(Diags);
    auto PM =
        ptx::loadModule(MemoryBuffer::getMemBufferCopy(Text, "t.ptx"), OS);
    if (!PM) {
      ADD_FAILURE() << toString(PM.takeError()) << "\n" << Diags;
      return nullptr;
    }
    PTX = std::move(*PM);
    KernelShape Shape;
    Shape.BlockDim[0] = Threads;
    auto M = emitKernel(*PTX, "k", Shape, Ctx, Layout, Opts);
    if (!M) {
      ADD_FAILURE() << toString(M.takeError());
      return nullptr;
    }
    LM = std::move(*M);
    std::string Broken;
    raw_string_ostream BOS(Broken);
    EXPECT_FALSE(verifyModule(*LM, &BOS)) << Broken;
    return LM.get();
  }

  /// The default -O2 pipeline, as the JIT runs it (without a target).
  void optimize() {
    LoopAnalysisManager LAM;
    FunctionAnalysisManager FAM;
    CGSCCAnalysisManager CGAM;
    ModuleAnalysisManager MAM;
    PassBuilder PB;
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
    PB.buildPerModuleDefaultPipeline(OptimizationLevel::O2).run(*LM, MAM);
    EXPECT_FALSE(verifyModule(*LM, &errs()));
  }

  Function &warpFunction() {
    Function *F = LM->getFunction(Layout.WarpFunctionName);
    EXPECT_NE(F, nullptr);
    return *F;
  }

  /// Instructions of the warp function that satisfy Pred.
  template <typename Fn> unsigned count(Fn Pred) {
    unsigned N = 0;
    for (Instruction &I : instructions(warpFunction()))
      N += Pred(I);
    return N;
  }

  /// Calls of the function named Callee in the warp function.
  unsigned callsTo(StringRef Callee) {
    return count([&](Instruction &I) {
      auto *C = dyn_cast<CallInst>(&I);
      return C && C->getCalledFunction() &&
             C->getCalledFunction()->getName() == Callee;
    });
  }

  unsigned callsToRuntime() {
    return count([&](Instruction &I) {
      auto *C = dyn_cast<CallInst>(&I);
      return C && C->getCalledFunction() &&
             C->getCalledFunction()->getName().starts_with("ptxjit_rt_");
    });
  }

  /// Stores to the entry-block variable Name (a lane set of the lowering).
  unsigned storesTo(StringRef Name) {
    AllocaInst *Var = nullptr;
    for (Instruction &I : warpFunction().getEntryBlock())
      if (auto *A = dyn_cast<AllocaInst>(&I); A && A->getName() == Name)
        Var = A;
    EXPECT_NE(Var, nullptr) << "no variable " << Name.str();
    if (!Var)
      return 0;
    return count([&](Instruction &I) {
      auto *S = dyn_cast<StoreInst>(&I);
      return S && S->getPointerOperand() == Var;
    });
  }

  unsigned umins() {
    return count([](Instruction &I) {
      auto *II = dyn_cast<IntrinsicInst>(&I);
      return II && II->getIntrinsicID() == Intrinsic::vector_reduce_umin;
    });
  }

  LLVMContext Ctx;
  std::unique_ptr<ptx::Module> PTX;
  std::unique_ptr<Module> LM;
  KernelLayout Layout;
};

/// Every lane stores to out[tid]: straight-line code, nothing diverges.
const char *UniformBody = R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  add.u32 %r2, %r1, 7;
  st.global.u32 [%rd3], %r2;
  ret;)";

/// An if/else on %tid.x: the warp splits and meets again at DONE.
const char *DivergentBody = R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 5;
  @%p1 bra THEN;
  mov.u32 %r2, 1;
  bra DONE;
THEN:
  mov.u32 %r2, 2;
DONE:
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;)";

TEST_F(WarpLoweringTest, UniformKernelRecordsNoNextBlock) {
  ASSERT_TRUE(lower(kernelPTX(UniformBody)));
  // Only a transition that may find other lanes waiting records where the
  // lanes go; straight-line code has none: the variable is only cleared.
  EXPECT_EQ(storesTo("next"), 1u);
  // Nothing parks at a barrier either.
  EXPECT_EQ(storesTo("parked"), 1u);
  EXPECT_EQ(callsToRuntime(), 0u);
}

TEST_F(WarpLoweringTest, UniformKernelKeepsNoLaneStateOptimized) {
  ASSERT_TRUE(lower(kernelPTX(UniformBody)));
  optimize();
  // The converged path is free of divergence bookkeeping, so nothing of it
  // survives: no lane-set variables, no dispatcher (its pick over the
  // lanes' next blocks and its switch over the blocks).
  EXPECT_EQ(count([](Instruction &I) { return isa<AllocaInst>(I); }), 0u);
  EXPECT_EQ(umins(), 0u);
  EXPECT_EQ(count([](Instruction &I) { return isa<SwitchInst>(I); }), 0u);
}

TEST_F(WarpLoweringTest, DivergentBranchGoesThroughDispatcher) {
  ASSERT_TRUE(lower(kernelPTX(DivergentBody)));
  // The split records both targets (and the transitions that may find
  // lanes waiting record theirs), beyond the initial clear.
  EXPECT_GT(storesTo("next"), 2u);
  // The dispatcher picks the group at the lowest block.
  EXPECT_GE(umins(), 1u);
  optimize();
  EXPECT_GE(umins(), 1u);
  EXPECT_GE(count([](Instruction &I) { return isa<SwitchInst>(I); }), 1u);
}

static const char *BarrierKernel = R"(
  mov.u32 %r1, %tid.x;
  st.shared.u32 [buf], %r1;
  bar.sync 0;
  ld.shared.u32 %r4, [buf];
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;)";

TEST_F(WarpLoweringTest, CTABarrierCallsRuntime) {
  IRGenOptions Fibers;
  Fibers.BarrierPhases = false;
  ASSERT_TRUE(lower(kernelPTX(BarrierKernel, ".shared .align 4 .b8 buf[256];"),
                    64, Fibers));
  EXPECT_TRUE(Layout.UsesCTABarriers);
  EXPECT_EQ(Layout.PhaseStateSize, 0u);
  // One call for every barrier of the function (the shared call block).
  EXPECT_EQ(callsTo("ptxjit_rt_bar_sync"), 1u);
}

TEST_F(WarpLoweringTest, UniformBarrierReturnsInPhases) {
  ASSERT_TRUE(
      lower(kernelPTX(BarrierKernel, ".shared .align 4 .b8 buf[256];"), 64));
  EXPECT_TRUE(Layout.UsesCTABarriers);
  EXPECT_GT(Layout.PhaseStateSize, 0u);
  EXPECT_TRUE(Layout.RunsWarpChains);
  // The converged barrier returns to the runtime, which arrives for the
  // warp: no general barrier path.
  EXPECT_EQ(callsTo("ptxjit_rt_bar_sync"), 0u);
}

TEST_F(WarpLoweringTest, BarArriveDoesNotWait) {
  ASSERT_TRUE(lower(kernelPTX(R"(
  bar.arrive 1, 64;
  ret;)")));
  EXPECT_GE(callsTo("ptxjit_rt_bar_arrive"), 1u);
  EXPECT_EQ(callsTo("ptxjit_rt_bar_sync"), 0u);
}

TEST_F(WarpLoweringTest, ConvergedShflIsVectorCode) {
  ASSERT_TRUE(lower(kernelPTX(R"(
  mov.u32 %r1, %tid.x;
  shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;)")));
  EXPECT_FALSE(Layout.UsesCTABarriers);
  EXPECT_EQ(callsToRuntime(), 0u);
  // A constant lane pattern is a shufflevector: lane L reads lane L ^ 1.
  unsigned Butterflies = count([](Instruction &I) {
    auto *S = dyn_cast<ShuffleVectorInst>(&I);
    if (!S || S->getShuffleMask().size() != 32)
      return false;
    for (int L = 0; L != 32; ++L)
      if (S->getMaskValue(L) != (L ^ 1))
        return false;
    return true;
  });
  EXPECT_GE(Butterflies, 1u);
}

TEST_F(WarpLoweringTest, WarpBarrierNeedsNoRuntime) {
  ASSERT_TRUE(lower(kernelPTX(R"(
  bar.warp.sync -1;
  ret;)")));
  EXPECT_FALSE(Layout.UsesCTABarriers);
  EXPECT_EQ(callsToRuntime(), 0u);
}

TEST_F(WarpLoweringTest, UnknownKernelIsAnError) {
  std::string Diags;
  raw_string_ostream OS(Diags);
  auto PM = ptx::loadModule(
      MemoryBuffer::getMemBufferCopy(kernelPTX("ret;"), "t.ptx"), OS);
  ASSERT_TRUE(bool(PM)) << toString(PM.takeError());
  KernelShape Shape;
  auto M = emitKernel(**PM, "nope", Shape, Ctx, Layout);
  ASSERT_FALSE(bool(M));
  EXPECT_NE(toString(M.takeError()).find("no kernel named 'nope'"),
            std::string::npos);
}

} // namespace
