//===- CFGTest.cpp - Basic blocks, RPO and post-dominators ----------------===//

#include "ptxjit/Transforms/CFG.h"
#include "TransformsTestUtil.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::transforms;

namespace {

// Block 0 branches to 2 (then) or falls through to 1 (else); both reach 3.
const char *Diamond = R"(
  .reg .pred p;
  .reg .u32 x;
  setp.eq.u32 p, x, 0;
  @p bra then;
  mov.u32 x, 1;
  bra join;
then:
  mov.u32 x, 2;
join:
  ret;)";

TEST(CFGTest, DiamondBlocksAndEdges) {
  auto M = loadPTX(kernelPTX(Diamond));
  ASSERT_TRUE(M);
  const ptx::Function &F = *M->findFunction("k");
  Expected<PTXCFG> G = PTXCFG::build(*M, F);
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  ASSERT_EQ(G->Blocks.size(), 4u);
  unsigned Then = G->LabelToBlock.lookup("then");
  unsigned Join = G->LabelToBlock.lookup("join");
  EXPECT_EQ(Then, 2u);
  EXPECT_EQ(Join, 3u);
  // A guarded branch goes to its target or falls through.
  EXPECT_EQ(G->Blocks[0].Succs.size(), 2u);
  EXPECT_TRUE(is_contained(G->Blocks[0].Succs, 1u));
  EXPECT_TRUE(is_contained(G->Blocks[0].Succs, Then));
  // An unguarded branch only goes to its target.
  EXPECT_EQ(G->Blocks[1].Succs, (SmallVector<unsigned, 2>{Join}));
  EXPECT_EQ(G->Blocks[2].Succs, (SmallVector<unsigned, 2>{Join}));
  EXPECT_TRUE(G->Blocks[Join].Succs.empty());
  EXPECT_TRUE(G->Blocks[Join].EndsInExit);
  EXPECT_FALSE(G->Blocks[0].EndsInExit);
}

TEST(CFGTest, ReversePostOrderPutsTheJoinLast) {
  auto M = loadPTX(kernelPTX(Diamond));
  ASSERT_TRUE(M);
  Expected<PTXCFG> G = PTXCFG::build(*M, *M->findFunction("k"));
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  ASSERT_EQ(G->RPO.size(), 4u);
  EXPECT_EQ(G->RPO.front(), 0u);
  EXPECT_EQ(G->RPO.back(), 3u);
  for (unsigned B = 0; B != 4; ++B)
    EXPECT_EQ(G->RPO[G->Blocks[B].RPONumber], B);
}

TEST(CFGTest, BranchesReconvergeAtTheImmediatePostDominator) {
  auto M = loadPTX(kernelPTX(Diamond));
  ASSERT_TRUE(M);
  Expected<PTXCFG> G = PTXCFG::build(*M, *M->findFunction("k"));
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  EXPECT_EQ(G->getImmediatePostDominator(0), 3u);
  EXPECT_EQ(G->getImmediatePostDominator(1), 3u);
  EXPECT_EQ(G->getImmediatePostDominator(2), 3u);
  // The join ends the function: the virtual exit post-dominates it.
  EXPECT_EQ(G->getImmediatePostDominator(3), 4u);
  EXPECT_TRUE(G->PostDom[0].test(3));
  EXPECT_FALSE(G->PostDom[0].test(1));
}

TEST(CFGTest, UnreachableBlocksHaveNoRPONumber) {
  auto M = loadPTX(kernelPTX(R"(
  bra end;
  ret;
end:
  ret;)"));
  ASSERT_TRUE(M);
  Expected<PTXCFG> G = PTXCFG::build(*M, *M->findFunction("k"));
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  ASSERT_EQ(G->Blocks.size(), 3u);
  EXPECT_EQ(G->Blocks[1].RPONumber, ~0u);
  EXPECT_EQ(G->RPO.size(), 2u);
}

TEST(CFGTest, SyncPointsStartBlocks) {
  auto M = loadPTX(kernelPTX(R"(
  .reg .u32 x;
  mov.u32 x, 1;
  bar.sync 0;
  mov.u32 x, 2;
  ret;)"));
  ASSERT_TRUE(M);
  const ptx::Function &F = *M->findFunction("k");
  Expected<PTXCFG> G = PTXCFG::build(*M, F);
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  ASSERT_EQ(G->Blocks.size(), 2u);
  EXPECT_TRUE(isSyncPoint(F, G->Blocks[1].Begin));
  EXPECT_EQ(G->Blocks[0].Succs, (SmallVector<unsigned, 2>{1u}));
}

TEST(CFGTest, SyncPointsAreWaitingInstructions) {
  auto M = loadPTX(kernelPTX(R"(
  .reg .u32 x;
  mov.u32 x, 1;
  bar.arrive 1, 64;
  shfl.sync.bfly.b32 x, x, 1, 31, -1;)"));
  ASSERT_TRUE(M);
  std::vector<bool> Sync;
  const ptx::Function &F = *M->findFunction("k");
  for (unsigned I = 0; I != F.Body.size(); ++I)
    if (F.Body[I].Kind == ptx::Statement::Inst)
      Sync.push_back(isSyncPoint(F, I));
  // bar.arrive does not wait.
  EXPECT_EQ(Sync, (std::vector<bool>{false, false, true}));
}

TEST(CFGTest, MatrixInstructionsWaitOnceInStraightLineCode) {
  auto M = loadPTX(kernelPTX(R"(
  .reg .b32 a<4>, b<2>, m;
  .reg .f32 c<4>;
  .reg .pred p;
  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {a0, a1, a2, a3}, [0];
  mov.b32 m, 0;
  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {c0, c1, c2, c3}, {a0, a1, a2, a3}, {b0, b1}, {c0, c1, c2, c3};
  movmatrix.sync.aligned.m8n8.trans.b16 m, a0;
  setp.eq.u32 p, m, 0;
  @p bra L;
  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {c0, c1, c2, c3}, {a0, a1, a2, a3}, {b0, b1}, {c0, c1, c2, c3};
L:
  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {c0, c1, c2, c3}, {a0, a1, a2, a3}, {b0, b1}, {c0, c1, c2, c3};
  shfl.sync.bfly.b32 m, m, 1, 31, -1;
  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {c0, c1, c2, c3}, {a0, a1, a2, a3}, {b0, b1}, {c0, c1, c2, c3};
  wmma.store.d.sync.aligned.row.m16n16k16.f32 [0], {c0, c1, c2, c3, c0, c1, c2, c3};)"));
  ASSERT_TRUE(M);
  std::vector<bool> Sync;
  const ptx::Function &F = *M->findFunction("k");
  for (unsigned I = 0; I != F.Body.size(); ++I)
    if (F.Body[I].Kind == ptx::Statement::Inst)
      Sync.push_back(isSyncPoint(F, I));
  // The first waits; the next two follow it in straight-line code; a
  // branch, a label and another kind of sync point start over.
  EXPECT_EQ(Sync, (std::vector<bool>{true, false, false, false, false, false,
                                     true, true, true, true, false}));
}

TEST(CFGTest, BranchToAnUndefinedLabelIsAnError) {
  // The verifier would reject this; build the function by hand.
  auto M = loadPTX(kernelPTX("bra there;\nthere:\nret;"));
  ASSERT_TRUE(M);
  ptx::Function F = *M->findFunction("k");
  F.Body.erase(F.Body.begin() + 1); // the label
  Expected<PTXCFG> G = PTXCFG::build(*M, F);
  ASSERT_FALSE(bool(G));
  EXPECT_NE(toString(G.takeError()).find("undefined label 'there'"),
            std::string::npos);
}

TEST(CFGTest, FindsBranchTargetTables) {
  auto M = loadPTX(kernelPTX(R"(
  .reg .u32 i;
  mov.u32 i, 0;
  ts: .branchtargets a, b;
  brx.idx i, ts;
a:
  ret;
b:
  ret;)"));
  ASSERT_TRUE(M);
  const ptx::Function &F = *M->findFunction("k");
  const auto *T = findBranchTargets(F, "ts");
  ASSERT_TRUE(T);
  EXPECT_EQ(T->size(), 2u);
  EXPECT_EQ((*T)[1], "b");
  EXPECT_FALSE(findBranchTargets(F, "nope"));
  Expected<PTXCFG> G = PTXCFG::build(*M, F);
  ASSERT_TRUE(bool(G)) << toString(G.takeError());
  EXPECT_EQ(G->Blocks[0].Succs.size(), 2u);
}

} // namespace
