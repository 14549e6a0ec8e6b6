//===- WarpLaneStateTest.cpp - The verbs of the warp's lane sets ----------===//
//
// Each test emits a few WarpLaneState verbs with constant lane masks into a
// function returning one lane set, optimizes it (the lane sets are stack
// slots, so mem2reg and constant folding leave a constant) and checks the
// value against what the verbs mean.
//
//===----------------------------------------------------------------------===//

#include "WarpLaneState.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/FrontEnd.h"
#include "ptxjit/Transforms/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <optional>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;

namespace {

/// Three blocks in a chain: reverse-post-order numbers 0, 1 and 2.
const char *ChainPTX = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
  bra L1;
L1:
  bra L2;
L2:
  ret;
}
)";

class WarpLaneStateTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string Diags;
    raw_string_ostream OS(Diags);
    auto M =
        ptx::loadModule(MemoryBuffer::getMemBufferCopy(ChainPTX, "t.ptx"), OS);
    ASSERT_TRUE(bool(M)) << toString(M.takeError()) << Diags;
    PTX = std::move(*M);
    auto G = transforms::PTXCFG::build(*PTX, *PTX->findFunction("k"));
    ASSERT_TRUE(bool(G)) << toString(G.takeError());
    CFG.emplace(std::move(*G));
    ASSERT_EQ(CFG->RPO.size(), 3u);
  }

  /// The block with reverse-post-order number N.
  unsigned block(unsigned N) const { return CFG->RPO[N]; }

  /// Emits Body after a warp function's lane sets are set up (all 32 lanes
  /// running, nobody waiting) and returns the constant the i32 it returns
  /// folds to; nullopt if it does not fold.
  std::optional<uint32_t> eval(function_ref<Value *(WarpLaneState &)> Body,
                               bool IsDevice = false) {
    Module LM("lanes", Ctx);
    auto *Fn = Function::Create(FunctionType::get(Type::getInt32Ty(Ctx), false),
                                GlobalValue::ExternalLinkage, "f", LM);
    BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", Fn);
    IRBuilder<> B(Entry);
    CurB = &B;
    WarpLaneState Warp(B, *CFG);
    Warp.declare(Entry);
    Warp.setRunning(B.getInt32(~0u));
    Warp.initialize(IsDevice);
    BasicBlock *Dispatch = Warp.createDispatcher(Fn);
    B.CreateRet(Body(Warp));
    B.SetInsertPoint(Dispatch);
    B.CreateUnreachable();
    std::string Broken;
    raw_string_ostream OS(Broken);
    EXPECT_FALSE(verifyModule(LM, &OS)) << Broken;

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
    PB.buildPerModuleDefaultPipeline(OptimizationLevel::O2).run(LM, MAM);

    auto *Ret = dyn_cast<ReturnInst>(Fn->getEntryBlock().getTerminator());
    auto *C = Ret ? dyn_cast<ConstantInt>(Ret->getReturnValue()) : nullptr;
    if (!C)
      return std::nullopt;
    return uint32_t(C->getZExtValue());
  }

  ConstantInt *mask(uint32_t V) {
    return ConstantInt::get(Type::getInt32Ty(Ctx), V);
  }
  /// An i1 as the i32 a test function returns.
  Value *toI32(Value *Bit) { return CurB->CreateZExt(Bit, CurB->getInt32Ty()); }

  LLVMContext Ctx;
  IRBuilder<> *CurB = nullptr; ///< the builder of the function eval emits
  std::unique_ptr<ptx::Module> PTX;
  std::optional<transforms::PTXCFG> CFG;
};

TEST_F(WarpLaneStateTest, InitiallyNobodyWaits) {
  EXPECT_EQ(eval([](WarpLaneState &W) { return W.running(); }), ~0u);
  EXPECT_EQ(eval([](WarpLaneState &W) { return W.waiting(); }), 0u);
  EXPECT_EQ(eval([](WarpLaneState &W) { return W.blocked(); }), 0u);
  EXPECT_EQ(eval([](WarpLaneState &W) { return W.parked(); }), 0u);
  EXPECT_EQ(eval([&](WarpLaneState &W) { return toI32(W.noneWaiting()); }), 1u);
  EXPECT_EQ(eval([&](WarpLaneState &W) {
              W.wait(mask(0x10));
              return toI32(W.noneWaiting());
            }),
            0u);
}

TEST_F(WarpLaneStateTest, PickResumesTheGroupAtTheLowestBlock) {
  // Lanes 0-15 wait at block 2, lanes 16-31 at block 1: the dispatcher
  // resumes lanes 16-31 first, and lanes 0-15 still wait.
  enum What { Running, Waiting, Chosen };
  auto Pick = [&](What Result, bool Rotate) {
    return eval([&](WarpLaneState &W) -> Value * {
      W.setNextBlock(mask(0x0000ffff), block(2));
      W.setNextBlock(mask(0xffff0000), block(1));
      W.wait(mask(~0u));
      if (Rotate)
        W.rotateAfter(block(1));
      Value *All = W.waiting();
      Value *Rest;
      Value *Block = W.pickGroup(All, All, Rest);
      return Result == Running   ? W.running()
             : Result == Waiting ? W.waiting()
                                 : Block;
    });
  };
  EXPECT_EQ(Pick(Running, false), 0xffff0000u);
  EXPECT_EQ(Pick(Waiting, false), 0x0000ffffu);
  EXPECT_EQ(Pick(Chosen, false), 1u);
  // After the group at block 1 looped for a while, the next group after it
  // gets its turn.
  EXPECT_EQ(Pick(Running, true), 0x0000ffffu);
  EXPECT_EQ(Pick(Chosen, true), 2u);
}

TEST_F(WarpLaneStateTest, PickTakesOnlyRunnableLanes) {
  // Lanes 0-3 are blocked at block 1 with lanes 4-7 runnable there too.
  EXPECT_EQ(eval([&](WarpLaneState &W) -> Value * {
              W.setNextBlock(mask(0xff), block(1));
              W.wait(mask(0xff));
              W.block(mask(0x0f));
              Value *Rest;
              W.pickGroup(mask(0xf0), W.waiting(), Rest);
              return W.running();
            }),
            0xf0u);
}

TEST_F(WarpLaneStateTest, LanesAtABlock) {
  EXPECT_EQ(eval([&](WarpLaneState &W) -> Value * {
              W.setNextBlock(mask(0x00ff00ff), block(2));
              W.setNextBlock(mask(0x0000ff00), block(1));
              return W.lanesAt(block(2));
            }),
            0x00ff00ffu);
}

TEST_F(WarpLaneStateTest, WaitAndUnwait) {
  EXPECT_EQ(eval([&](WarpLaneState &W) -> Value * {
              W.wait(mask(0xf0));
              W.wait(mask(0x0f));
              W.unwait(mask(0x3c));
              return W.waiting();
            }),
            0xc3u);
}

TEST_F(WarpLaneStateTest, BarrierParksAndReleases) {
  auto Run = [&](int What) {
    return eval([&](WarpLaneState &W) -> Value * {
      Value *Parked = W.parkAtBarrier(mask(0x0f));
      if (What == 0)
        return Parked;
      W.release(mask(0x03));
      W.unpark(mask(0x03));
      W.takeRelease(mask(0x01));
      return What == 1 ? W.parked() : W.released();
    });
  };
  EXPECT_EQ(Run(0), 0x0fu);
  EXPECT_EQ(Run(1), 0x0cu);
  EXPECT_EQ(Run(2), 0x02u);
}

TEST_F(WarpLaneStateTest, UnblockAllClearsEveryBlockedSet) {
  auto Run = [&](bool Unblock) {
    return eval([&](WarpLaneState &W) -> Value * {
      unsigned X = W.addExchange();
      W.block(mask(0x1));
      W.blockAtWarpBarrier(mask(0x2));
      W.blockAtExchange(X, mask(0x4));
      if (Unblock)
        W.unblockAll();
      return CurB->CreateOr(CurB->CreateOr(W.blocked(), W.atWarpBarrier()),
                            W.exchangeBlocked(X));
    });
  };
  EXPECT_EQ(Run(false), 0x7u);
  EXPECT_EQ(Run(true), 0u);
}

TEST_F(WarpLaneStateTest, BackEdgesCountToThePeriod) {
  // The third of a period of three is due; the counter starts again.
  for (unsigned N = 1; N != 5; ++N)
    EXPECT_EQ(eval([&](WarpLaneState &W) -> Value * {
                Value *Due = nullptr;
                for (unsigned I = 0; I != N; ++I)
                  Due = W.countBackEdge(3);
                return toI32(Due);
              }),
              N == 3 ? 1u : 0u)
        << N << " back edges";
}

TEST_F(WarpLaneStateTest, DeviceFunctionCountsExitedLanes) {
  auto Run = [&](bool Every) {
    return eval(
        [&](WarpLaneState &W) -> Value * {
          W.setRunning(mask(0x1));
          W.wait(mask(0x2));
          W.leave(mask(0x4), /*IsReturn=*/false);
          W.leave(mask(0x8), /*IsReturn=*/true);
          return Every ? W.everyLane() : W.exited();
        },
        /*IsDevice=*/true);
  };
  // Lanes that exited leave the caller too; returned ones go back to it.
  EXPECT_EQ(Run(true), 0x7u);
  EXPECT_EQ(Run(false), 0x4u);
}

} // namespace
