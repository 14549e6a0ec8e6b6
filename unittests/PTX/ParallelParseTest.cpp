//===- ParallelParseTest.cpp - Function bodies parsed side by side --------===//
//
// parseModuleInParallel must give the module the one-thread parser gives,
// statement for statement and location for location, and must give up
// (not guess) wherever the one-thread parser would report anything.
//
//===----------------------------------------------------------------------===//

#include "PTXTestUtil.h"
#include "ptxjit/PTX/ASTEquivalence.h"
#include "ptxjit/PTX/Lexer.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;
using namespace ptxjit::ptx;

namespace {

/// PTXJIT_PARALLEL_FRONTEND=Mode for one test.
class FrontEndMode {
public:
  explicit FrontEndMode(const char *Mode) {
    ::setenv("PTXJIT_PARALLEL_FRONTEND", Mode, 1);
  }
  ~FrontEndMode() { ::unsetenv("PTXJIT_PARALLEL_FRONTEND"); }
};

/// Where the '}' matching the '{' that Text starts with ends, found with
/// lex() and a depth count: the reference skipBlockBody must agree with.
const char *endByTokens(StringRef Text) {
  SourceMgr SM;
  SM.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(Text, "t.ptx", false),
                        SMLoc());
  std::string Errors;
  raw_string_ostream OS(Errors);
  DiagnosticEngine Diags(SM, OS);
  Lexer L(Text, Diags);
  unsigned Depth = 0;
  for (Token T = L.lex(); !T.is(Token::Eof); T = L.lex()) {
    if (T.is(Token::LBrace))
      ++Depth;
    else if (T.is(Token::RBrace) && --Depth == 0)
      return T.Text.end();
  }
  return nullptr;
}

/// Where skipBlockBody ends for Text, which starts with '{'; null if it
/// finds no end.
const char *endBySkipping(StringRef Text) {
  SourceMgr SM;
  SM.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(Text, "t.ptx", false),
                        SMLoc());
  raw_null_ostream OS;
  DiagnosticEngine Diags(SM, OS);
  Lexer L(Text, Diags);
  EXPECT_TRUE(L.lex().is(Token::LBrace));
  return L.skipBlockBody() ? L.getPosition() : nullptr;
}

TEST(ParallelParseTest, SkippingABodyEndsWhereItsTokensDo) {
  // Braces, quotes and slashes inside comments and strings, an escaped
  // quote, a '/' that is no comment, and each at every offset from a
  // 16-byte boundary (the scan looks at 16 bytes at a time).
  const char *Pieces[] = {
      "{ add.s32 %r1, %r2, %r3; }",
      "// a } and a { and a \" in a comment\n",
      "/* } { \" */",
      ".pragma \"nounroll }{ \\\" still in the string\";",
      "{ { } }",
      "div.rn.f32 %f1, %f2, %f3; // x / y\n",
  };
  std::string Body;
  for (unsigned Pad = 0; Pad != 17; ++Pad) {
    for (const char *P : Pieces) {
      std::string Text = "{" + std::string(Pad, ' ') + Body + "} tail";
      const char *Want = endByTokens(Text);
      ASSERT_NE(Want, nullptr) << Text;
      EXPECT_EQ(endBySkipping(Text), Want) << Text;
      Body += P;
    }
  }
}

TEST(ParallelParseTest, SkippingFindsNoEndOfAnUnfinishedBody) {
  EXPECT_EQ(endBySkipping("{ { }"), nullptr);
  EXPECT_EQ(endBySkipping("{ /* } "), nullptr);
  EXPECT_EQ(endBySkipping("{ \"} unterminated\n }"), nullptr);
  EXPECT_EQ(endBySkipping("{ // }"), nullptr);
}

/// A module of many functions with a little of everything in their bodies.
std::string manyFunctions(unsigned N) {
  std::string Text = ".version 8.0\n.target sm_80\n.address_size 64\n"
                     ".global .align 4 .u32 counter;\n"
                     ".func (.param .b32 r) helper(.param .b32 a);\n";
  for (unsigned I = 0; I != N; ++I) {
    std::string Id = std::to_string(I);
    Text += ".visible .entry k" + Id +
            "(.param .u64 p)\n.maxntid 128, 1, 1\n{\n"
            "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<2>;\n"
            "  // a comment with } and {\n"
            "  ld.param.u64 %rd1, [p];\n"
            "  mov.u32 %r1, %tid.x;\n"
            "  setp.lt.u32 %p1, %r1, " +
            Id +
            ";\n"
            "  @%p1 bra $L_end;\n"
            "  {\n    .reg .b32 %t;\n    add.s32 %t, %r1, 1; /* } */\n"
            "    { .param .b32 a; .param .b32 r; st.param.b32 [a], %t;\n"
            "      call.uni (r), helper, (a); ld.param.b32 %r2, [r]; }\n"
            "  }\n"
            "  .pragma \"nounroll\";\n"
            "  atom.global.add.u32 %r3, [counter], %r2;\n"
            "$L_end:\n  ret;\n}\n";
  }
  Text += ".func (.param .b32 r) helper(.param .b32 a)\n{\n"
          "  .reg .b32 %x;\n  ld.param.b32 %x, [a];\n"
          "  st.param.b32 [r], %x;\n  ret;\n}\n";
  return Text;
}

std::unique_ptr<Module> moduleOf(StringRef Text) {
  return std::make_unique<Module>(
      MemoryBuffer::getMemBufferCopy(Text, "test.ptx"));
}

TEST(ParallelParseTest, GivesTheModuleOneThreadGives) {
  std::string Text = manyFunctions(40);
  ParsedModule Serial;
  {
    FrontEndMode Off("off");
    Serial = parsePTX(Text);
  }
  ASSERT_TRUE(Serial.OK) << Serial.Errors;
  std::unique_ptr<Module> Parallel = moduleOf(Text);
  ASSERT_TRUE(parseModuleInParallel(*Parallel));
  EXPECT_EQ(findASTDifference(*Serial.M, *Parallel), std::nullopt);
  // The same statements at the same places of the source (the comparison
  // above looks at what they say).
  ASSERT_EQ(Serial.M->Functions.size(), Parallel->Functions.size());
  const char *SerialBase = Serial.M->getSourceText().data();
  const char *ParallelBase = Parallel->getSourceText().data();
  for (size_t F = 0; F != Parallel->Functions.size(); ++F) {
    const Function &A = Serial.M->Functions[F], &B = Parallel->Functions[F];
    EXPECT_EQ(A.HasBody, B.HasBody);
    ASSERT_EQ(A.Body.size(), B.Body.size()) << A.Name.str();
    for (size_t S = 0; S != A.Body.size(); ++S)
      EXPECT_EQ(A.Body[S].getLoc().getPointer() - SerialBase,
                B.Body[S].getLoc().getPointer() - ParallelBase)
          << A.Name.str() << " statement " << S;
  }
}

TEST(ParallelParseTest, GivesUpWhereAnythingWouldBeReported) {
  std::string Good = manyFunctions(6);
  // An error in a body, an error at the top level after the bodies, a
  // warning, a body that never ends.
  std::string Broken[] = {
      Good + ".visible .entry bad()\n{\n  add.s32 %r1, ;\n}\n",
      Good + ".global .u32;\n",
      ".version 8.0\n.target sm_999\n.address_size 64\n" +
          Good.substr(Good.find(".global")),
      Good + ".visible .entry open()\n{\n  ret;\n",
  };
  for (const std::string &Text : Broken) {
    std::unique_ptr<Module> M = moduleOf(Text);
    EXPECT_FALSE(parseModuleInParallel(*M)) << Text;
  }
  std::unique_ptr<Module> M = moduleOf(Good);
  EXPECT_TRUE(parseModuleInParallel(*M));
}

TEST(ParallelParseTest, BodiesReportAtOnce) {
  // Every body has an error, so the threads report side by side. Their
  // engines only count: formatting a message finds its line through the
  // SourceMgr's line cache, filled on first use by whichever thread comes
  // first (under TSan a race, and a leaked cache where two fill it).
  std::string Text = ".version 8.0\n.target sm_80\n.address_size 64\n";
  for (unsigned I = 0; I != 64; ++I)
    Text += ".visible .entry bad" + std::to_string(I) +
            "()\n{\n  add.s32 %r1, ;\n  ret;\n}\n";
  for (unsigned Round = 0; Round != 20; ++Round) {
    std::unique_ptr<Module> M = moduleOf(Text);
    EXPECT_FALSE(parseModuleInParallel(*M));
  }
  ParsedModule Serial;
  {
    FrontEndMode Off("off");
    Serial = parsePTX(Text);
  }
  FrontEndMode On("on");
  ParsedModule Parallel = parsePTX(Text);
  EXPECT_EQ(Parallel.Errors, Serial.Errors);
  // 64 errors, of which the first 50 are printed (the engine's limit):
  // the 50th, in bad49, is on line 3 + 5 * 49 + 3.
  EXPECT_NE(Serial.Errors.find("test.ptx:251:16: error: expected an operand"),
            std::string::npos);
  EXPECT_NE(Serial.Errors.find("too many errors emitted"), std::string::npos);
}

TEST(ParallelParseTest, ReportsAsOneThreadDoesWhereItGivesUp) {
  // Two bad bodies: parseModule in parallel mode falls back and reports
  // both, in order, as the one-thread parser does.
  std::string Text = manyFunctions(4) +
                     ".visible .entry bad1()\n{\n  add.s32 %r1, ;\n}\n"
                     ".visible .entry bad2()\n{\n  mov.u32 %r1 %r2;\n}\n";
  ParsedModule Serial, Parallel;
  {
    FrontEndMode Off("off");
    Serial = parsePTX(Text);
  }
  {
    FrontEndMode On("on");
    Parallel = parsePTX(Text);
  }
  EXPECT_FALSE(Serial.OK);
  EXPECT_FALSE(Parallel.OK);
  EXPECT_NE(Serial.Errors.find("test.ptx:"), std::string::npos);
  EXPECT_EQ(Parallel.Errors, Serial.Errors);
  EXPECT_EQ(Parallel.M->Functions.size(), Serial.M->Functions.size());
}

TEST(ParallelParseTest, AForkedChildParsesOnOneThread) {
  // The parent's threads do not come along into a child of fork(): the
  // child must not hand them work (it would wait forever; the alarm turns
  // that into a failure).
  std::unique_ptr<Module> M = moduleOf(manyFunctions(8));
  ASSERT_TRUE(parseModuleInParallel(*M));
  FrontEndMode On("on");
  pid_t Child = fork();
  ASSERT_NE(Child, -1);
  if (Child == 0) {
    alarm(30);
    ParsedModule P = parsePTX(manyFunctions(8));
    _exit(P.OK && !isParallelFrontEnd(ParallelFrontEndBytes) ? 0 : 1);
  }
  int Status = 0;
  ASSERT_EQ(waitpid(Child, &Status, 0), Child);
  ASSERT_TRUE(WIFEXITED(Status)) << "signal " << WTERMSIG(Status);
  EXPECT_EQ(WEXITSTATUS(Status), 0);
}

} // namespace
