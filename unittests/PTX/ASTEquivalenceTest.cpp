//===- ASTEquivalenceTest.cpp - Comparing PTX syntax trees ----------------===//

#include "ptxjit/PTX/ASTEquivalence.h"
#include "PTXTestUtil.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace ptxjit::ptx;

namespace {

std::optional<std::string> diff(StringRef A, StringRef B) {
  ParsedModule PA = parsePTX(A), PB = parsePTX(B);
  EXPECT_TRUE(PA.OK) << PA.Errors;
  EXPECT_TRUE(PB.OK) << PB.Errors;
  return findASTDifference(*PA.M, *PB.M);
}

TEST(ASTEquivalenceTest, LayoutAndSpellingDoNotMatter) {
  // Whitespace, comments, number spellings and "-8" for "+-8" all give the
  // same tree.
  EXPECT_EQ(diff(kernelPTX("ld.global.u32 %r1, [%rd1+-8]; add.s32 %r1, %r1, "
                           "42;"),
                 kernelPTX("// x\n  ld.global.u32   %r1,[%rd1-8];\n"
                           "add.s32 %r1, %r1, 0x2A; /* y */")),
            std::nullopt);
}

TEST(ASTEquivalenceTest, NamesTheFirstDifference) {
  std::optional<std::string> D =
      diff(kernelPTX("ret;\nld.global.u32 %r1, [%rd1+8];"),
           kernelPTX("ret;\nld.global.u32 %r1, [%rd1+16];"));
  ASSERT_TRUE(D.has_value());
  // Line 7: four header lines, "{", then "ret;".
  EXPECT_EQ(*D, "function 'k': statement 1 (line 7): operand[1]: "
                "Value: 8 vs 16");

  D = diff(kernelPTX("ld.global.u32 %r1, [%rd1];"),
           kernelPTX("ld.shared.u32 %r1, [%rd1];"));
  ASSERT_TRUE(D.has_value());
  EXPECT_NE(D->find("Space: "), std::string::npos) << *D;

  D = diff(kernelPTX("ret;"), kernelPTX("ret;\nret;"));
  ASSERT_TRUE(D.has_value());
  EXPECT_NE(D->find("statements: 1 vs 2"), std::string::npos) << *D;

  D = diff(".version 8.0\n.target sm_80\n.global .u32 g = 1;",
           ".version 8.0\n.target sm_80\n.global .u32 g = 2;");
  ASSERT_TRUE(D.has_value());
  EXPECT_EQ(*D, "declaration of 'g': initializer: Value: 1 vs 2");
}

TEST(ASTEquivalenceTest, RoundTripOfUnusualForms) {
  ParsedModule P = parsePTX(
      kernelPTX(".reg .b32 %r<4>, %x;\n"
                "setp.lt.and.s32 %p1|%p2, %r1, -9223372036854775808, !%p3;\n"
                "ld.global.v2.v4.u32 {%r1, _}, [%rd1+-9223372036854775808];\n"
                "mov.f32 %f1, -0f3F800000;\nmov.f64 %fd1, -1.5e300;\n"
                "proto: .callprototype _ ();\ncall %rd1, proto;\n"
                "$T: .branchtargets $L;\n$L:\n.loc 1 2 3\n.loc 1 2 3 , x\n"));
  ASSERT_TRUE(P.OK) << P.Errors;
  Error E = checkRoundTrip(*P.M);
  EXPECT_FALSE(bool(E)) << toString(std::move(E));
}

} // namespace
