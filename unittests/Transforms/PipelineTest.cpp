//===- PipelineTest.cpp - The PTX-to-PTX passes in order ------------------===//

#include "ptxjit/Transforms/Pipeline.h"
#include "TransformsTestUtil.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::transforms;

namespace {

TEST(PipelineTest, PassesInOrder) {
  std::vector<std::string> Names;
  for (const PassInfo &P : getPasses())
    Names.push_back(P.Name.str());
  EXPECT_EQ(Names, (std::vector<std::string>{"inline", "resolve-scopes",
                                             "split-vectors",
                                             "register-webs"}));
  EXPECT_TRUE(isPassName("resolve-scopes"));
  EXPECT_FALSE(isPassName("cfg"));
  EXPECT_FALSE(isPassName(""));
}

// inc is inlined; its result register r is then shadowed by the block's
// own r; p is reused for a second value.
const char *Source = R"(.version 8.0
.target sm_80
.address_size 64
.func (.reg .b32 r) inc(.reg .b32 a)
{
  add.u32 r, a, 1;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .b32 r;
  .reg .b64 p;
  call (r), inc, (r);
  {
    .reg .b32 r;
    mov.u32 r, 7;
  }
  ld.param.u64 p, [out];
  st.global.u32 [p], r;
  add.u64 p, p, 4;
  st.global.u32 [p], r;
  ret;
})";

TEST(PipelineTest, StopsAfterTheNamedPass) {
  auto M = loadPTX(Source);
  ASSERT_TRUE(M);
  const ptx::Function &K = *M->findFunction("k");
  BumpPtrAllocator Alloc;

  Expected<PreparedFunction> Inlined = runPipeline(*M, K, Alloc, "inline");
  ASSERT_TRUE(bool(Inlined)) << toString(Inlined.takeError());
  EXPECT_FALSE(Inlined->CFG);
  std::string Text = printInstructions(Inlined->F);
  EXPECT_EQ(Text.find("call"), std::string::npos) << Text;
  EXPECT_NE(Text.find("mov.u32 r, 7;"), std::string::npos) << Text;

  Expected<PreparedFunction> Scoped =
      runPipeline(*M, K, Alloc, "resolve-scopes");
  ASSERT_TRUE(bool(Scoped)) << toString(Scoped.takeError());
  Text = printInstructions(Scoped->F);
  EXPECT_NE(Text.find("mov.u32 r.s1, 7;"), std::string::npos) << Text;
  EXPECT_EQ(Text.find(".w1"), std::string::npos) << Text;
}

TEST(PipelineTest, AWholeRunGivesTheCFGOfTheResult) {
  auto M = loadPTX(Source);
  ASSERT_TRUE(M);
  BumpPtrAllocator Alloc;
  Expected<PreparedFunction> P = runPipeline(*M, *M->findFunction("k"), Alloc);
  ASSERT_TRUE(bool(P)) << toString(P.takeError());
  ASSERT_TRUE(P->CFG);
  std::string Text = printInstructions(P->F);
  EXPECT_NE(Text.find("mov.u32 r.s1, 7;"), std::string::npos) << Text;
  EXPECT_NE(Text.find("add.u64 p.w1, p, 4;"), std::string::npos) << Text;
  EXPECT_NE(Text.find("st.global.u32 [p.w1], r;"), std::string::npos) << Text;
  // The blocks cover the final body.
  EXPECT_EQ(P->CFG->Blocks.back().End, P->F.Body.size());
}

TEST(PipelineTest, ErrorsOfTheCFGArePassedOn) {
  auto M = loadPTX(Source);
  ASSERT_TRUE(M);
  ptx::Function K = *M->findFunction("k");
  ptx::Instruction Bra;
  Bra.Op = ptx::Opcode::Bra;
  ptx::Operand Target = ptx::Operand::named(ptx::Operand::Symbol, "nowhere");
  Bra.Operands = ArrayRef<ptx::Operand>(&Target, 1);
  ptx::Statement S;
  S.Instr = Bra;
  K.Body.insert(K.Body.begin(), S);
  BumpPtrAllocator Alloc;
  Expected<PreparedFunction> P = runPipeline(*M, K, Alloc);
  ASSERT_FALSE(bool(P));
  EXPECT_NE(toString(P.takeError()).find("nowhere"), std::string::npos);
  // Stopping before the CFG is needed succeeds.
  Expected<PreparedFunction> Q = runPipeline(*M, K, Alloc, "resolve-scopes");
  EXPECT_TRUE(bool(Q));
  if (!Q)
    consumeError(Q.takeError());
}

} // namespace
