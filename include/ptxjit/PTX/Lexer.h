//===- Lexer.h - Tokens of PTX source ---------------------------*- C++ -*-===//

#ifndef PTXJIT_PTX_LEXER_H
#define PTXJIT_PTX_LEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"
#include <cstdint>

namespace ptxjit {
namespace ptx {

class DiagnosticEngine;

struct Token {
  enum KindTy : uint8_t {
    Eof,
    Identifier, ///< add, %r1, $L__BB0_1, _Z3fooPf, _ (sink)
    Directive,  ///< .version, .u32, .L1::evict_last (Text keeps the dot)
    Integer,    ///< 42, 0x2A, 052, 0b101, 42U (IntValue)
    HexFloat,   ///< 0f3F800000 (IntValue: f32 bits), 0d... (f64 bits)
    DecFloat,   ///< 1.5, 2e-3 (Text; parsed by the parser)
    String,     ///< "text" (Text without the quotes)
    Comma,
    Semi,
    Colon,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    LParen,
    RParen,
    Less,
    Greater,
    Plus,
    Minus,
    Bang,
    At,
    Pipe,
    Equal,
    Star,
    Error, ///< already diagnosed
  };
  KindTy Kind = Eof;
  bool IsDouble = false; ///< HexFloat: 0d
  llvm::StringRef Text;
  uint64_t IntValue = 0;

  llvm::SMLoc getLoc() const {
    return llvm::SMLoc::getFromPointer(Text.data());
  }
  bool is(KindTy K) const { return Kind == K; }
};

class Lexer {
public:
  Lexer(llvm::StringRef Buffer, DiagnosticEngine &Diags);

  /// Lexes the next token.
  Token lex();
  /// Text from the current position to the end of the line (for verbatim
  /// directives such as .loc's trailing attributes); consumes it.
  llvm::StringRef lexRestOfLine();
  /// Skips a balanced { ... } block (.section bodies); returns its text,
  /// braces included, or an empty StringRef if it is unterminated.
  llvm::StringRef lexBalancedBlock();
  /// Just after a '{' token: moves past its matching '}' without making
  /// tokens, stepping over comments and strings as lex() reads them.
  /// False, with nothing reported, where the block or a comment or string
  /// in it does not end.
  bool skipBlockBody();
  /// Lexes Text from now on (a part of the buffer: locations stay valid).
  void reset(llvm::StringRef Text) {
    Cur = Text.begin();
    End = Text.end();
  }
  const char *getPosition() const { return Cur; }

private:
  void skipSpaceAndComments();
  Token make(Token::KindTy K, const char *Start);
  Token lexNumber(const char *Start);
  Token lexIdentifier(const char *Start);
  Token lexDirective(const char *Start);
  Token lexString(const char *Start);

  const char *Cur;
  const char *End;
  DiagnosticEngine &Diags;
};

} // namespace ptx
} // namespace ptxjit

#endif
