//===- RegisterWebsTest.cpp - Splitting reused PTX registers --------------===//

#include "ptxjit/Transforms/RegisterWebs.h"
#include "TransformsTestUtil.h"
#include "ptxjit/Transforms/CFG.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::transforms;

namespace {

std::string split(StringRef Body, std::string *Locals = nullptr) {
  auto M = loadPTX(kernelPTX(Body));
  if (!M)
    return "";
  const ptx::Function &K = *M->findFunction("k");
  Expected<PTXCFG> G = PTXCFG::build(*M, K);
  if (!G) {
    ADD_FAILURE() << toString(G.takeError());
    return "";
  }
  BumpPtrAllocator Alloc;
  ptx::Function F = splitRegisterWebs(K, *G, Alloc);
  if (Locals)
    for (const ptx::VariableDecl &V : F.Locals)
      *Locals += V.Name.str() + " ";
  return printInstructions(F);
}

TEST(RegisterWebsTest, UnrelatedValuesOfARegisterGetTheirOwnNames) {
  std::string Locals;
  std::string Text = split(R"(
  .reg .b64 p;
  .reg .b32 v;
  ld.param.u64 p, [out];
  ld.global.u32 v, [p];
  add.u64 p, p, 4;
  st.global.u32 [p], v;)",
                           &Locals);
  // The parameter's web keeps the name; the pointer after it is p.w1.
  EXPECT_EQ(Text, "ld.param.u64 p, [out];\n"
                  "ld.global.u32 v, [p];\n"
                  "add.u64 p.w1, p, 4;\n"
                  "st.global.u32 [p.w1], v;\n");
  EXPECT_EQ(Locals, "p v p.w1 ");
}

TEST(RegisterWebsTest, DefinitionsReachingACommonUseAreOneWeb) {
  // Both definitions of x reach the store after the join.
  std::string Text = split(R"(
  .reg .pred q;
  .reg .b32 x, c;
  .reg .b64 p;
  ld.param.u64 p, [out];
  ld.global.u32 c, [p];
  setp.eq.u32 q, c, 0;
  @q bra other;
  mov.u32 x, 1;
  bra join;
other:
  mov.u32 x, 2;
join:
  st.global.u32 [p], x;
  ret;)");
  EXPECT_EQ(Text.find(".w"), std::string::npos) << Text;
}

TEST(RegisterWebsTest, AGuardedDefinitionJoinsTheWebBeforeIt) {
  // The guarded mov may leave the first value, so the use reads either.
  std::string Text = split(R"(
  .reg .pred q;
  .reg .b32 x;
  mov.u32 x, 1;
  setp.eq.u32 q, x, 0;
  @q mov.u32 x, 2;
  add.u32 x, x, 1;)");
  EXPECT_EQ(Text, "mov.u32 x, 1;\n"
                  "setp.eq.u32 q, x, 0;\n"
                  "@q mov.u32 x, 2;\n"
                  "add.u32 x.w1, x, 1;\n");
}

TEST(RegisterWebsTest, LoopCarriedRegistersStayWhole) {
  std::string Text = split(R"(
  .reg .pred q;
  .reg .b32 i;
  mov.u32 i, 0;
loop:
  add.u32 i, i, 1;
  setp.lt.u32 q, i, 10;
  @q bra loop;
  ret;)");
  EXPECT_EQ(Text.find(".w"), std::string::npos) << Text;
}

} // namespace
