//===- LexerTest.cpp - Tokens of PTX source -------------------------------===//

#include "ptxjit/PTX/Lexer.h"
#include "ptxjit/PTX/Diagnostics.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <vector>

using namespace llvm;
using namespace ptxjit::ptx;

namespace {

/// Lexes Text to the end; diagnostics are collected in Errors.
class LexerTest : public ::testing::Test {
protected:
  std::vector<Token> lexAll(StringRef Text) {
    Errors.clear();
    SM = std::make_unique<SourceMgr>();
    SM->AddNewSourceBuffer(MemoryBuffer::getMemBuffer(Text, "test.ptx", false),
                           SMLoc());
    ErrorOS = std::make_unique<raw_string_ostream>(Errors);
    Diags = std::make_unique<DiagnosticEngine>(*SM, *ErrorOS);
    Lexer L(Text, *Diags);
    std::vector<Token> Tokens;
    for (Token T = L.lex(); !T.is(Token::Eof); T = L.lex())
      Tokens.push_back(T);
    return Tokens;
  }
  /// The one token Text lexes to.
  Token lexOne(StringRef Text) {
    std::vector<Token> Tokens = lexAll(Text);
    EXPECT_EQ(Tokens.size(), 1u) << "in '" << Text.str() << "'";
    return Tokens.empty() ? Token() : Tokens.front();
  }
  uint64_t intValue(StringRef Text) {
    Token T = lexOne(Text);
    EXPECT_EQ(T.Kind, Token::Integer) << "in '" << Text.str() << "'";
    EXPECT_TRUE(Errors.empty()) << Errors;
    return T.IntValue;
  }

  std::string Errors;
  std::unique_ptr<SourceMgr> SM;
  std::unique_ptr<raw_string_ostream> ErrorOS;
  std::unique_ptr<DiagnosticEngine> Diags;
};

TEST_F(LexerTest, IntegersInEveryRadix) {
  EXPECT_EQ(intValue("42"), 42u);
  EXPECT_EQ(intValue("0"), 0u);
  EXPECT_EQ(intValue("0x2A"), 42u);
  EXPECT_EQ(intValue("0X2a"), 42u);
  EXPECT_EQ(intValue("052"), 42u); // a leading 0 means octal
  EXPECT_EQ(intValue("0b101010"), 42u);
  EXPECT_EQ(intValue("0B101010"), 42u);
  EXPECT_EQ(intValue("42U"), 42u); // the unsigned suffix
  EXPECT_EQ(intValue("0x2AU"), 42u);
  EXPECT_EQ(intValue("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(intValue("0xFFFFFFFFFFFFFFFF"), UINT64_MAX);
}

TEST_F(LexerTest, IntegerErrors) {
  Token T = lexOne("18446744073709551616");
  EXPECT_EQ(T.Kind, Token::Error);
  EXPECT_NE(Errors.find("does not fit in 64 bits"), std::string::npos)
      << Errors;

  for (StringRef Bad : {"09", "0x", "0b102", "12abc", "0xfg", "3e"}) {
    T = lexOne(Bad);
    EXPECT_EQ(T.Kind, Token::Error) << Bad.str();
    EXPECT_NE(Errors.find("invalid numeric literal '" + Bad.str() + "'"),
              std::string::npos)
        << Errors;
  }
}

TEST_F(LexerTest, HexFloats) {
  Token T = lexOne("0f3F800000"); // 1.0f
  EXPECT_EQ(T.Kind, Token::HexFloat);
  EXPECT_FALSE(T.IsDouble);
  EXPECT_EQ(T.IntValue, 0x3F800000u);

  T = lexOne("0F3f800000");
  EXPECT_EQ(T.Kind, Token::HexFloat);
  EXPECT_EQ(T.IntValue, 0x3F800000u);

  T = lexOne("0d3FF0000000000000"); // 1.0
  EXPECT_EQ(T.Kind, Token::HexFloat);
  EXPECT_TRUE(T.IsDouble);
  EXPECT_EQ(T.IntValue, 0x3FF0000000000000u);

  // Exactly 8 (0f) or 16 (0d) hex digits.
  for (StringRef Bad : {"0f3F80000", "0f3F8000000", "0d3FF", "0f3F80000g"}) {
    T = lexOne(Bad);
    EXPECT_EQ(T.Kind, Token::Error) << Bad.str();
    EXPECT_NE(Errors.find("invalid numeric literal"), std::string::npos);
  }
}

TEST_F(LexerTest, DecimalFloats) {
  for (StringRef F : {"1.5", "0.5", "2e-3", "1.0e+10", "3E7"}) {
    Token T = lexOne(F);
    EXPECT_EQ(T.Kind, Token::DecFloat) << F.str();
    EXPECT_EQ(T.Text, F);
  }
  // A trailing 'e' without digits is not an exponent.
  std::vector<Token> Tokens = lexAll("1.5e");
  ASSERT_EQ(Tokens.size(), 2u);
  EXPECT_EQ(Tokens[0].Kind, Token::DecFloat);
  EXPECT_EQ(Tokens[0].Text, "1.5");
  EXPECT_EQ(Tokens[1].Kind, Token::Identifier);
}

// The buffer need not be NUL-terminated: the lexer must stop at its end even
// when the bytes after it would continue a number (found by the fuzzer).
TEST_F(LexerTest, NumberAtEndOfUnterminatedBuffer) {
  std::string Storage = "1e5 0x1";
  std::vector<Token> Tokens = lexAll(StringRef(Storage.data(), 2)); // "1e"
  ASSERT_EQ(Tokens.size(), 1u);
  EXPECT_EQ(Tokens[0].Kind, Token::Error);
  EXPECT_EQ(Tokens[0].Text, "1e");

  Storage = "1.5e+7";
  Tokens = lexAll(StringRef(Storage.data(), 5)); // "1.5e+"
  ASSERT_GE(Tokens.size(), 1u);
  EXPECT_EQ(Tokens[0].Kind, Token::DecFloat);
  EXPECT_EQ(Tokens[0].Text, "1.5");
}

TEST_F(LexerTest, IdentifiersAndDirectives) {
  std::vector<Token> Tokens =
      lexAll("%r1 $L__BB0_1 _Z3fooPf _ .version .L1::evict_last "
             ".shared::cta .mbarrier::complete_tx::bytes %tid.x");
  ASSERT_EQ(Tokens.size(), 10u);
  StringRef Texts[] = {"%r1",          "$L__BB0_1",
                       "_Z3fooPf",     "_",
                       ".version",     ".L1::evict_last",
                       ".shared::cta", ".mbarrier::complete_tx::bytes",
                       "%tid",         ".x"};
  Token::KindTy Kinds[] = {Token::Identifier, Token::Identifier,
                           Token::Identifier, Token::Identifier,
                           Token::Directive,  Token::Directive,
                           Token::Directive,  Token::Directive,
                           Token::Identifier, Token::Directive};
  for (unsigned I = 0; I != 10; ++I) {
    EXPECT_EQ(Tokens[I].Text, Texts[I]);
    EXPECT_EQ(Tokens[I].Kind, Kinds[I]) << Texts[I].str();
  }
  // "::" not followed by a name is not part of the directive.
  Tokens = lexAll(".a:: b");
  ASSERT_EQ(Tokens.size(), 4u);
  EXPECT_EQ(Tokens[0].Text, ".a");
  EXPECT_EQ(Tokens[1].Kind, Token::Colon);
  EXPECT_EQ(Tokens[2].Kind, Token::Colon);
}

TEST_F(LexerTest, Strings) {
  Token T = lexOne("\"nounroll\"");
  EXPECT_EQ(T.Kind, Token::String);
  EXPECT_EQ(T.Text, "nounroll"); // without the quotes

  // Escapes are kept as written; an escaped quote does not end the string.
  T = lexOne(R"("a\"b")");
  EXPECT_EQ(T.Kind, Token::String);
  EXPECT_EQ(T.Text, R"(a\"b)");

  T = lexOne("\"open");
  EXPECT_EQ(T.Kind, Token::Error);
  EXPECT_NE(Errors.find("unterminated string literal"), std::string::npos);

  // A string ends at the end of its line.
  std::vector<Token> Tokens = lexAll("\"a\nb\"");
  ASSERT_FALSE(Tokens.empty());
  EXPECT_EQ(Tokens[0].Kind, Token::Error);
}

TEST_F(LexerTest, Comments) {
  std::vector<Token> Tokens = lexAll("// line\n/* block\n * more */ 42 // end");
  ASSERT_EQ(Tokens.size(), 1u);
  EXPECT_EQ(Tokens[0].IntValue, 42u);
  EXPECT_TRUE(Errors.empty());

  Tokens = lexAll("1 /* never closed");
  EXPECT_EQ(Tokens.size(), 1u);
  EXPECT_NE(Errors.find("unterminated block comment"), std::string::npos);
}

TEST_F(LexerTest, Punctuation) {
  std::vector<Token> Tokens = lexAll(", ; : { } [ ] ( ) < > + - ! @ | = *");
  Token::KindTy Kinds[] = {Token::Comma,    Token::Semi,    Token::Colon,
                           Token::LBrace,   Token::RBrace,  Token::LBracket,
                           Token::RBracket, Token::LParen,  Token::RParen,
                           Token::Less,     Token::Greater, Token::Plus,
                           Token::Minus,    Token::Bang,    Token::At,
                           Token::Pipe,     Token::Equal,   Token::Star};
  ASSERT_EQ(Tokens.size(), std::size(Kinds));
  for (size_t I = 0; I != std::size(Kinds); ++I)
    EXPECT_EQ(Tokens[I].Kind, Kinds[I]) << I;
}

TEST_F(LexerTest, UnexpectedCharacter) {
  std::vector<Token> Tokens = lexAll("# 1");
  ASSERT_EQ(Tokens.size(), 2u);
  EXPECT_EQ(Tokens[0].Kind, Token::Error);
  EXPECT_NE(Errors.find("unexpected character '#'"), std::string::npos);
  EXPECT_EQ(Tokens[1].Kind, Token::Integer);
}

TEST_F(LexerTest, RestOfLineAndBalancedBlock) {
  std::string Errors;
  raw_string_ostream OS(Errors);
  SourceMgr SM;
  StringRef Text = "  , function_name $L1, inlined_at 1 2 3 // c\nnext";
  SM.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(Text), SMLoc());
  DiagnosticEngine D(SM, OS);
  Lexer L(Text, D);
  EXPECT_EQ(L.lexRestOfLine(), ", function_name $L1, inlined_at 1 2 3");
  EXPECT_EQ(L.lex().Text, "next");

  StringRef Block = " { a { b } \"}\" } tail";
  Lexer B(Block, D);
  EXPECT_EQ(B.lexBalancedBlock(), "{ a { b } \"}\" }");
  EXPECT_EQ(B.lex().Text, "tail");

  Lexer Open("{ a { b }", D);
  EXPECT_TRUE(Open.lexBalancedBlock().empty());
}

} // namespace
