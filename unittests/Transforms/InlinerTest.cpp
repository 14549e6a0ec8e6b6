//===- InlinerTest.cpp - Inlining PTX device-function calls ---------------===//

#include "ptxjit/Transforms/Inliner.h"
#include "TransformsTestUtil.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::transforms;

namespace {

unsigned countCalls(const ptx::Function &F) {
  return count_if(F.Body, [](const ptx::Statement &S) {
    return S.Kind == ptx::Statement::Inst && S.Instr.Op == ptx::Opcode::Call;
  });
}

const char *Funcs = R"(
.func (.reg .b32 r) inc(.reg .b32 a)
{
  add.u32 r, a, 1;
  ret;
}
.func (.reg .b32 r) fact(.reg .b32 n)
{
  .reg .pred p;
  .reg .b32 t;
  mov.u32 r, 1;
  setp.le.u32 p, n, 1;
  @p ret;
  sub.u32 t, n, 1;
  call (t), fact, (t);
  mul.lo.u32 r, n, t;
  ret;
}
)";

TEST(InlinerTest, ACallBecomesTheCalleesBodyInABlock) {
  auto M = loadPTX(kernelPTX(R"(
  .reg .b32 x, y;
  mov.u32 x, 41;
  call (y), inc, (x);
  ret;)",
                             Funcs));
  ASSERT_TRUE(M);
  BumpPtrAllocator Alloc;
  ptx::Function F = inlineCalls(*M, *M->findFunction("k"), Alloc);
  EXPECT_EQ(countCalls(F), 0u);
  EXPECT_EQ(printInstructions(F), "mov.u32 x, 41;\n"
                                  "mov.b32 inc.0.a, x;\n"
                                  "add.u32 inc.0.r, inc.0.a, 1;\n"
                                  "bra inc.0:return;\n"
                                  "inc.0:return:\n"
                                  "mov.b32 y, inc.0.r;\n"
                                  "ret;\n");
  auto Count = [&](ptx::Statement::KindTy K) {
    return count_if(F.Body,
                    [&](const ptx::Statement &S) { return S.Kind == K; });
  };
  EXPECT_EQ(Count(ptx::Statement::ScopeBegin), 1);
  EXPECT_EQ(Count(ptx::Statement::ScopeEnd), 1);
  EXPECT_EQ(F.Body[F.Body.size() - 2].Kind, ptx::Statement::ScopeEnd);
}

TEST(InlinerTest, EachInstanceHasNamesOfItsOwn) {
  auto M = loadPTX(kernelPTX(R"(
  .reg .b32 x;
  call (x), inc, (x);
  call (x), inc, (x);
  ret;)",
                             Funcs));
  ASSERT_TRUE(M);
  BumpPtrAllocator Alloc;
  ptx::Function F = inlineCalls(*M, *M->findFunction("k"), Alloc);
  std::string Text = printInstructions(F);
  EXPECT_NE(Text.find("add.u32 inc.0.r, inc.0.a, 1;"), std::string::npos);
  EXPECT_NE(Text.find("add.u32 inc.1.r, inc.1.a, 1;"), std::string::npos);
}

TEST(InlinerTest, RecursiveCalleesStayCalls) {
  auto M = loadPTX(kernelPTX(R"(
  .reg .b32 x;
  mov.u32 x, 5;
  call (x), fact, (x);
  ret;)",
                             Funcs));
  ASSERT_TRUE(M);
  BumpPtrAllocator Alloc;
  ptx::Function F = inlineCalls(*M, *M->findFunction("k"), Alloc);
  EXPECT_EQ(countCalls(F), 1u);
  // fact's own recursive call is left too.
  ptx::Function Fact = inlineCalls(*M, *M->findFunction("fact"), Alloc);
  EXPECT_EQ(countCalls(Fact), 1u);
}

TEST(InlinerTest, AGuardedCallSkipsTheBody) {
  auto M = loadPTX(kernelPTX(R"(
  .reg .pred p;
  .reg .b32 x;
  setp.eq.u32 p, x, 0;
  @p call (x), inc, (x);
  ret;)",
                             Funcs));
  ASSERT_TRUE(M);
  BumpPtrAllocator Alloc;
  ptx::Function F = inlineCalls(*M, *M->findFunction("k"), Alloc);
  std::string Text = printInstructions(F);
  EXPECT_NE(Text.find("@!p bra inc.0:skip;"), std::string::npos) << Text;
  EXPECT_NE(Text.find("inc.0:skip:"), std::string::npos) << Text;
}

TEST(InlinerTest, FunctionsWithoutCallsAreUnchanged) {
  auto M = loadPTX(kernelPTX("ret;", Funcs));
  ASSERT_TRUE(M);
  BumpPtrAllocator Alloc;
  const ptx::Function &K = *M->findFunction("k");
  ptx::Function F = inlineCalls(*M, K, Alloc);
  EXPECT_EQ(F.Body.size(), K.Body.size());
  EXPECT_EQ(printInstructions(F), "ret;\n");
}

} // namespace
