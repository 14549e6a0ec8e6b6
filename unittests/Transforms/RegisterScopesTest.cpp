//===- RegisterScopesTest.cpp - Resolving block-scoped registers ----------===//

#include "ptxjit/Transforms/RegisterScopes.h"
#include "TransformsTestUtil.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::transforms;

namespace {

struct Resolved {
  std::unique_ptr<ptx::Module> M;
  BumpPtrAllocator Alloc;
  ptx::Function F;
};

std::unique_ptr<Resolved> resolve(StringRef Body) {
  auto R = std::make_unique<Resolved>();
  R->M = loadPTX(kernelPTX(Body));
  if (R->M)
    R->F = resolveRegisterScopes(*R->M->findFunction("k"), R->Alloc);
  return R;
}

/// The names of F's .reg declarations, in order.
std::string localNames(const ptx::Function &F) {
  std::string S;
  for (const ptx::VariableDecl &V : F.Locals)
    S += (S.empty() ? "" : " ") + V.Name.str();
  return S;
}

TEST(RegisterScopesTest, NestedDeclarationShadowsInsideItsBlockOnly) {
  auto R = resolve(R"(
  .reg .u64 t;
  mov.u64 t, 1;
  {
    .reg .u64 t;
    add.u64 t, t, 1;
  }
  add.u64 t, t, 2;
  ret;)");
  ASSERT_TRUE(R->M);
  EXPECT_EQ(localNames(R->F), "t t.s1");
  EXPECT_EQ(printInstructions(R->F), "mov.u64 t, 1;\n"
                                     "add.u64 t.s1, t.s1, 1;\n"
                                     "add.u64 t, t, 2;\n"
                                     "ret;\n");
}

TEST(RegisterScopesTest, OuterNameIsVisibleInTheBlockBeforeItIsShadowed) {
  auto R = resolve(R"(
  .reg .u32 t, u;
  {
    mov.u32 u, t;
    .reg .u32 t;
    mov.u32 t, u;
  })");
  ASSERT_TRUE(R->M);
  EXPECT_EQ(printInstructions(R->F), "mov.u32 u, t;\n"
                                     "mov.u32 t.s1, u;\n");
}

TEST(RegisterScopesTest, SiblingBlocksGetNamesOfTheirOwn) {
  auto R = resolve(R"(
  { .reg .f32 t; mov.f32 t, 0f00000000; }
  { .reg .u64 t; mov.u64 t, 1; })");
  ASSERT_TRUE(R->M);
  // The first declaration of a name keeps it, wherever it is.
  EXPECT_EQ(localNames(R->F), "t t.s1");
  EXPECT_EQ(printInstructions(R->F), "mov.f32 t, 0f00000000;\n"
                                     "mov.u64 t.s1, 1;\n");
}

TEST(RegisterScopesTest, RangeShadowsOnlyTheRegistersItDeclares) {
  auto R = resolve(R"(
  .reg .b32 %r<3>;
  {
    .reg .b32 %r<2>;
    add.u32 %r2, %r1, %r0;
  }
  mov.u32 %r1, %r2;)");
  ASSERT_TRUE(R->M);
  EXPECT_EQ(localNames(R->F), "%r %r.s1.");
  EXPECT_EQ(printInstructions(R->F), "add.u32 %r2, %r.s1.1, %r.s1.0;\n"
                                     "mov.u32 %r1, %r2;\n");
}

TEST(RegisterScopesTest, PlainNameShadowsOneRegisterOfARange) {
  auto R = resolve(R"(
  .reg .b32 %r<3>;
  {
    .reg .b32 %r1;
    add.u32 %r1, %r2, 1;
  })");
  ASSERT_TRUE(R->M);
  EXPECT_EQ(localNames(R->F), "%r %r1.s1");
  EXPECT_EQ(printInstructions(R->F), "add.u32 %r1.s1, %r2, 1;\n");
}

TEST(RegisterScopesTest, DeclarationsOfDistinctNamesKeepTheirNames) {
  // %r<2> declares %r0 and %r1, %r1<3> declares %r10 ... %r12, %r5 is
  // neither: no name is declared twice.
  auto R = resolve(R"(
  .reg .b32 %r<2>;
  { .reg .b32 %r1<3>; .reg .b32 %r5; mov.u32 %r12, %r5; })");
  ASSERT_TRUE(R->M);
  EXPECT_EQ(localNames(R->F), "%r %r1 %r5");
  EXPECT_EQ(printInstructions(R->F), "mov.u32 %r12, %r5;\n");
}

TEST(RegisterScopesTest, OverlappingRangesWithDifferentPrefixes) {
  // %r<20> declares %r10 ... %r19, which %r1<3> declares again.
  auto R = resolve(R"(
  .reg .b32 %r<20>;
  { .reg .b32 %r1<3>; mov.u32 %r12, %r19; })");
  ASSERT_TRUE(R->M);
  EXPECT_EQ(localNames(R->F), "%r %r1.s1.");
  EXPECT_EQ(printInstructions(R->F), "mov.u32 %r1.s1.2, %r19;\n");
}

TEST(RegisterScopesTest, GuardsVectorsAndAddressesAreResolved) {
  auto R = resolve(R"(
  .reg .pred p;
  .reg .b64 a;
  .reg .f32 x, y;
  {
    .reg .pred p;
    .reg .b64 a;
    .reg .f32 x;
    @p ld.global.v2.f32 {x, y}, [a+8];
  }
  @!p st.global.f32 [a], x;)");
  ASSERT_TRUE(R->M);
  EXPECT_EQ(printInstructions(R->F),
            "@p.s1 ld.global.v2.f32 {x.s3, y}, [a.s2+8];\n"
            "@!p st.global.f32 [a], x;\n");
}

TEST(RegisterScopesTest, AddressBasesThatAreRegistersAreMarked) {
  auto R = resolve(R"(
  .reg .b64 p;
  .shared .u32 g;
  .reg .u32 v;
  ld.param.u64 p, [out];
  ld.global.u32 v, [p];
  ld.shared.u32 v, [g];
  ld.global.u32 v, [p+4];)");
  ASSERT_TRUE(R->M);
  std::vector<bool> Marked;
  for (const ptx::Statement &S : R->F.Body)
    if (S.Kind == ptx::Statement::Inst)
      Marked.push_back(S.Instr.Operands[1].BaseIsRegister);
  // out is the kernel's parameter and g a variable: no registers.
  EXPECT_EQ(Marked, (std::vector<bool>{false, true, false, true}));
}

TEST(RegisterScopesTest, ParametersKeepTheirNames) {
  auto M = loadPTX(R"(.version 8.0
.target sm_80
.address_size 64
.func (.reg .b32 r) f(.reg .b32 a)
{
  { .reg .b32 a; mov.u32 a, 1; add.u32 r, a, 1; }
  add.u32 r, r, a;
  ret;
})");
  ASSERT_TRUE(M);
  BumpPtrAllocator Alloc;
  ptx::Function F = resolveRegisterScopes(*M->findFunction("f"), Alloc);
  EXPECT_EQ(F.Params[0].Name, "a");
  EXPECT_EQ(F.Returns[0].Name, "r");
  EXPECT_EQ(localNames(F), "a.s1");
  EXPECT_EQ(printInstructions(F), "mov.u32 a.s1, 1;\n"
                                  "add.u32 r, a.s1, 1;\n"
                                  "add.u32 r, r, a;\n"
                                  "ret;\n");
}

TEST(RegisterScopesTest, UndeclaredNamesAreLeftAlone) {
  // Special registers, variables and labels are no .reg declarations.
  auto R = resolve(R"(
  .reg .u32 t;
  .local .u32 v;
  {
    .reg .u32 t;
    mov.u32 t, %tid.x;
    st.local.u32 [v], t;
  }
  bra done;
done:
  ret;)");
  ASSERT_TRUE(R->M);
  EXPECT_EQ(printInstructions(R->F), "mov.u32 t.s1, %tid.x;\n"
                                     "st.local.u32 [v], t.s1;\n"
                                     "bra done;\n"
                                     "done:\n"
                                     "ret;\n");
}

} // namespace
