//===- UniformityTest.cpp - Uniform, affine and varying registers ---------===//

#include "ptxjit/Transforms/Uniformity.h"
#include "TransformsTestUtil.h"
#include "ptxjit/ABI/KernelShape.h"
#include "ptxjit/Transforms/CFG.h"
#include <optional>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::transforms;

namespace {

/// A kernel, its CFG and its uniformity for BlockX x BlockY blocks.
struct Analysed {
  std::unique_ptr<ptx::Module> M;
  std::optional<PTXCFG> CFG;
  KernelShape KS;
  std::unique_ptr<UniformityInfo> UI;
};

std::unique_ptr<Analysed> analyse(StringRef Body, unsigned BlockX = 32,
                                  unsigned BlockY = 1) {
  auto A = std::make_unique<Analysed>();
  A->M = loadPTX(kernelPTX(Body));
  if (!A->M)
    return A;
  const ptx::Function &F = *A->M->findFunction("k");
  Expected<PTXCFG> G = PTXCFG::build(*A->M, F);
  if (!G) {
    ADD_FAILURE() << toString(G.takeError());
    return A;
  }
  A->CFG = std::move(*G);
  A->KS.BlockDim[0] = BlockX;
  A->KS.BlockDim[1] = BlockY;
  A->UI = std::make_unique<UniformityInfo>(F, *A->CFG, A->KS);
  return A;
}

TEST(ShapeTest, Join) {
  Shape U = Shape::uniform(), A4 = Shape::affine(4), V = Shape::varying();
  EXPECT_EQ(U.join(U), U);
  // A register that holds a uniform value or an affine one with a nonzero
  // stride (one or the other in all lanes) is neither.
  EXPECT_EQ(U.join(A4), V);
  EXPECT_EQ(A4.join(U), V);
  // Uniform within runs of 16 lanes holds for a uniform value.
  Shape Runs16 = Shape::affine(0, 16);
  EXPECT_EQ(U.join(Runs16), Runs16);
  EXPECT_EQ(A4.join(A4), A4);
  // Both bases must be multiples of 32 for the join's to be.
  Shape Aligned1 = Shape::affine(1, 32, true);
  EXPECT_TRUE(Aligned1.join(Aligned1).isAlignedRun());
  EXPECT_EQ(Aligned1.join(Shape::affine(1)), Shape::affine(1));
  EXPECT_EQ(A4.join(Shape::affine(8)), V);
  EXPECT_EQ(V.join(U), V);
  // Stride 0 over the whole warp is uniform.
  EXPECT_TRUE(Shape::affine(0).isUniform());
}

TEST(UniformityTest, ParametersAndConstantsAreUniform) {
  auto A = analyse(R"(
  .reg .b64 p, q;
  ld.param.u64 p, [out];
  add.u64 q, p, 16;)");
  ASSERT_TRUE(A->UI);
  EXPECT_TRUE(A->UI->getRegister("p").isUniform());
  EXPECT_TRUE(A->UI->getRegister("q").isUniform());
}

TEST(UniformityTest, ThreadIndexArithmeticIsAffine) {
  auto A = analyse(R"(
  .reg .b32 i;
  .reg .b64 p, off;
  mov.u32 i, %tid.x;
  ld.param.u64 p, [out];
  mul.wide.u32 off, i, 4;
  add.u64 p, p, off;)");
  ASSERT_TRUE(A->UI);
  Shape I = A->UI->getRegister("i");
  EXPECT_EQ(I.Kind, Shape::Affine);
  EXPECT_EQ(I.Stride, 1);
  Shape Off = A->UI->getRegister("off");
  EXPECT_EQ(Off.Kind, Shape::Affine);
  EXPECT_EQ(Off.Stride, 4);
  // p is both the parameter and p + 4 * i: one register, two shapes.
  EXPECT_TRUE(A->UI->getRegister("p").isVarying());
}

TEST(UniformityTest, NegativeStridesScaleAndShift) {
  // Lane L: n = -L, s = -L << 2 = -4L, m = -3L, a = -3L + 5.
  auto A = analyse(R"(
  .reg .b32 i, n, s, m, a;
  mov.u32 i, %tid.x;
  sub.s32 n, 0, i;
  shl.b32 s, n, 2;
  mul.lo.s32 m, n, 3;
  mad.lo.s32 a, n, 3, 5;)");
  ASSERT_TRUE(A->UI);
  for (auto [Name, Stride] : {std::pair("n", -1), std::pair("s", -4),
                              std::pair("m", -3), std::pair("a", -3)}) {
    Shape S = A->UI->getRegister(Name);
    EXPECT_EQ(S.Kind, Shape::Affine) << Name;
    EXPECT_EQ(S.Stride, Stride) << Name;
  }
}

TEST(UniformityTest, NarrowBlocksMakeTidXAffineInSegments) {
  // A 16 x 2 block puts two rows of 16 threads in each warp.
  auto A = analyse(".reg .b32 %r1;\nmov.u32 %r1, %tid.x;", 16, 2);
  ASSERT_TRUE(A->UI);
  Shape S = A->UI->getSpecial("%tid", 'x');
  EXPECT_EQ(S.Kind, Shape::Affine);
  EXPECT_EQ(S.Stride, 1);
  EXPECT_EQ(S.segment(), 16u);
  EXPECT_EQ(A->UI->getRegister("%r1"), S);
  // Rows of 16 lanes: %tid.y is uniform within each row only.
  Shape Y = A->UI->getSpecial("%tid", 'y');
  EXPECT_EQ(Y.Kind, Shape::Affine);
  EXPECT_EQ(Y.Stride, 0);
  EXPECT_EQ(Y.segment(), 16u);
}

TEST(UniformityTest, UniformAndAffineDefinitionsMeetAsVarying) {
  // r is 7 on one path and %tid.x on the other (a uniform branch).
  auto A = analyse(R"(
  .reg .pred p;
  .reg .b32 r, f;
  ld.param.u32 f, [out];
  mov.u32 r, 7;
  setp.ne.u32 p, f, 0;
  @p bra DONE;
  mov.u32 r, %tid.x;
DONE:
  ret;)");
  ASSERT_TRUE(A->UI);
  EXPECT_TRUE(A->UI->getRegister("r").isVarying());
}

TEST(UniformityTest, ComparingAnAlignedRunWithAMultipleOf32IsUniform) {
  // Blocks of 256: warp W holds %tid.x = 32W ... 32W + 31. `t < 128`,
  // `t > 127`, `t + 64 >= 96` and `128 > t` answer alike in every lane;
  // `t < 100`, `t == 0` and a comparison with a register do not.
  auto A = analyse(R"(
  .reg .pred lt128, gt127, ge96, mirrored, lt100, eq0, lanelt, reg, and1;
  .reg .b32 t, u, n, l;
  .reg .b64 w;
  mov.u32 t, %tid.x;
  add.u32 u, t, 64;
  ld.param.u32 n, [out];
  mov.u32 l, %laneid;
  cvt.u64.u32 w, t;
  setp.lt.u32 lt128, t, 128;
  setp.gt.u32 gt127, t, 127;
  setp.ge.s32 ge96, u, 96;
  setp.gt.u32 mirrored, 128, t;
  setp.lt.u32 lt100, t, 100;
  setp.eq.u32 eq0, t, 0;
  setp.lt.u32 lanelt, l, 16;
  setp.lt.u32 reg, t, n;
  setp.lt.and.u64 and1, w, 64, eq0;)",
                   256);
  ASSERT_TRUE(A->UI);
  for (StringRef Name : {"lt128", "gt127", "ge96", "mirrored"})
    EXPECT_TRUE(A->UI->getRegister(Name).isUniform()) << Name.str();
  for (StringRef Name : {"lt100", "eq0", "lanelt", "reg", "and1"})
    EXPECT_TRUE(A->UI->getRegister(Name).isVarying()) << Name.str();
  EXPECT_TRUE(A->UI->getRegister("u").isAlignedRun());
  EXPECT_TRUE(A->UI->getRegister("w").isAlignedRun());
}

TEST(ShapeTest, WidensExactly) {
  // A run from a multiple of 32 rising by less than 32 crosses no wrap
  // point; an unaligned or faster one may.
  EXPECT_TRUE(Shape::affine(1, 32, true).widensExactly());
  EXPECT_TRUE(Shape::affine(2, 16, true).widensExactly());
  EXPECT_FALSE(Shape::affine(2, 32, true).widensExactly());
  EXPECT_FALSE(Shape::affine(1).widensExactly());
  EXPECT_FALSE(Shape::affine(-1, 32, true).widensExactly());
  EXPECT_TRUE(Shape::uniform().widensExactly());
  EXPECT_TRUE(Shape::affine(0, 16).widensExactly());
  // Multiples of 32 stay so only if both are.
  EXPECT_TRUE(Shape::uniform(true).join(Shape::uniform(true)).AlignedBase);
  EXPECT_FALSE(Shape::uniform(true).join(Shape::uniform()).AlignedBase);
}

TEST(UniformityTest, MultiplesOf32KeepRunsAligned) {
  // Blocks of 256: %ntid.x is a multiple of 32, and so are %ctaid.x times
  // it and the grid stride %nctaid.x * %ntid.x: adding them to %tid.x keeps
  // an aligned run. Blocks of 100 do not; a loaded value is unknown, and
  // `not` of a multiple of 32 is none.
  const char *Body = R"(
  .reg .b32 t, nt, c, nc, base, i, stride, j, n, off, inv, k;
  mov.u32 t, %tid.x;
  mov.u32 nt, %ntid.x;
  mov.u32 c, %ctaid.x;
  mov.u32 nc, %nctaid.x;
  mul.lo.u32 base, c, nt;
  add.u32 i, base, t;
  mul.lo.u32 stride, nc, nt;
  add.u32 j, i, stride;
  ld.param.u32 n, [out];
  add.u32 off, t, n;
  not.b32 inv, nt;
  add.u32 k, t, inv;)";
  auto A = analyse(Body, 256);
  ASSERT_TRUE(A->UI);
  EXPECT_TRUE(A->UI->getRegister("nt").AlignedBase);
  EXPECT_TRUE(A->UI->getRegister("base").AlignedBase);
  EXPECT_TRUE(A->UI->getRegister("i").isAlignedRun());
  EXPECT_TRUE(A->UI->getRegister("j").isAlignedRun());
  EXPECT_FALSE(A->UI->getRegister("off").AlignedBase);
  EXPECT_FALSE(A->UI->getRegister("k").AlignedBase);
  auto B = analyse(Body, 100);
  ASSERT_TRUE(B->UI);
  EXPECT_FALSE(B->UI->getRegister("i").AlignedBase);
}

TEST(UniformityTest, NarrowRowsAndUnalignedOffsetsAreNotAlignedRuns) {
  // 16 x 2 blocks: a warp holds two rows of 16; t + 8 starts mid-run.
  auto A = analyse(R"(
  .reg .pred p, q;
  .reg .b32 t, l, u;
  mov.u32 t, %tid.x;
  setp.lt.u32 p, t, 32;
  mov.u32 l, %laneid;
  add.u32 u, l, 8;
  setp.lt.u32 q, u, 32;)",
                   16, 2);
  ASSERT_TRUE(A->UI);
  EXPECT_FALSE(A->UI->getRegister("t").isAlignedRun());
  EXPECT_TRUE(A->UI->getRegister("p").isVarying());
  EXPECT_TRUE(A->UI->getRegister("q").isVarying());
}

TEST(UniformityTest, PackingConversionsJoinBothSources) {
  // cvt.rn.f16x2.f32 and the fp8 forms pack two sources: one varying
  // source makes the result varying.
  auto A = analyse(R"(
  .reg .b32 i, h, g;
  .reg .f32 f;
  .reg .b16 e;
  mov.u32 i, %tid.x;
  cvt.rn.f32.u32 f, i;
  cvt.rn.f16x2.f32 h, 0f3F800000, f;
  cvt.rn.satfinite.e4m3x2.f32 e, 0f3F800000, f;
  cvt.rn.f16x2.f32 g, 0f3F800000, 0f40000000;)");
  ASSERT_TRUE(A->UI);
  EXPECT_TRUE(A->UI->getRegister("h").isVarying());
  EXPECT_TRUE(A->UI->getRegister("e").isVarying());
  EXPECT_TRUE(A->UI->getRegister("g").isUniform());
}

TEST(UniformityTest, LoadsThroughVaryingAddressesAreVarying) {
  // (The parser marks only '%' names as address registers; resolve-scopes
  // marks the others.)
  auto A = analyse(R"(
  .reg .b32 i, v, w;
  .reg .b64 p, %a;
  mov.u32 i, %tid.x;
  ld.param.u64 p, [out];
  ld.global.u32 w, [p];
  mul.wide.u32 %a, i, 4;
  add.u64 %a, p, %a;
  ld.global.u32 v, [%a];)");
  ASSERT_TRUE(A->UI);
  EXPECT_TRUE(A->UI->getRegister("v").isVarying());
  EXPECT_TRUE(A->UI->getRegister("w").isUniform());
}

TEST(UniformityTest, BranchesOnTheThreadIndexDiverge) {
  // Block 0 branches on a varying predicate: block 1 (the not-taken side)
  // may run with some lanes only; the join after both does not. (Lanes
  // that branch to a bare ret only leave, which would not split the warp.)
  auto A = analyse(R"(
  .reg .pred q;
  .reg .b32 i;
  mov.u32 i, %tid.x;
  setp.lt.u32 q, i, 5;
  @q bra join;
  add.u32 i, i, 1;
join:
  st.global.u32 [out], i;
  ret;)");
  ASSERT_TRUE(A->UI);
  EXPECT_TRUE(A->UI->getRegister("q").isVarying());
  EXPECT_FALSE(A->UI->isDivergentBlock(0));
  EXPECT_TRUE(A->UI->isDivergentBlock(1));
  EXPECT_FALSE(A->UI->isDivergentBlock(2));
}

TEST(UniformityTest, UniformBranchesDoNotDiverge) {
  auto A = analyse(R"(
  .reg .pred q;
  .reg .b64 p;
  ld.param.u64 p, [out];
  setp.eq.u64 q, p, 0;
  @q bra join;
  add.u64 p, p, 1;
join:
  ret;)");
  ASSERT_TRUE(A->UI);
  EXPECT_TRUE(A->UI->getRegister("q").isUniform());
  EXPECT_FALSE(A->UI->isDivergentBlock(1));
}

} // namespace
