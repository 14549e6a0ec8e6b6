//===- Lexer.cpp - Tokenizing PTX source ----------------------------------===//

#include "ptxjit/PTX/Lexer.h"
#include "ptxjit/PTX/Diagnostics.h"
#include "ptxjit/PTX/InputKind.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include <cstring>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

using namespace llvm;
using namespace ptxjit::ptx;

Lexer::Lexer(StringRef Buffer, DiagnosticEngine &Diags)
    : Cur(Buffer.begin()), End(Buffer.end()), Diags(Diags) {
  // A byte-order mark is how some editors say "UTF-8"; it is not PTX.
  if (Buffer.starts_with(UTF8ByteOrderMark))
    Cur += UTF8ByteOrderMark.size();
}

namespace {
/// Character classes as one table look-up each: the lexer tests every byte
/// of the file, and chains of comparisons there were a large part of the
/// front end's time.
enum CharClass : uint8_t {
  CCSpace = 1,      ///< ' ', \t, \n, \r, \f, \v
  CCIdentStart = 2, ///< letters, '_', '$', '%'
  CCIdentBody = 4,  ///< letters, digits, '_', '$'
};

struct CharClassTable {
  uint8_t Classes[256] = {};
  constexpr CharClassTable() {
    for (unsigned C = 0; C != 256; ++C) {
      bool Alpha = (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z');
      bool Digit = C >= '0' && C <= '9';
      uint8_t K = 0;
      if (C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' ||
          C == '\v')
        K |= CCSpace;
      if (Alpha || C == '_' || C == '$' || C == '%')
        K |= CCIdentStart;
      if (Alpha || Digit || C == '_' || C == '$')
        K |= CCIdentBody;
      Classes[C] = K;
    }
  }
};
constexpr CharClassTable CharClasses;
} // namespace

static bool hasClass(char C, CharClass K) {
  return CharClasses.Classes[uint8_t(C)] & K;
}
static bool isIdentStart(char C) { return hasClass(C, CCIdentStart); }
static bool isIdentBody(char C) { return hasClass(C, CCIdentBody); }

void Lexer::skipSpaceAndComments() {
  while (Cur != End) {
    char C = *Cur;
    if (hasClass(C, CCSpace)) {
      ++Cur;
      continue;
    }
    if (C == '/' && Cur + 1 != End) {
      if (Cur[1] == '/') {
        while (Cur != End && *Cur != '\n')
          ++Cur;
        continue;
      }
      if (Cur[1] == '*') {
        const char *Start = Cur;
        Cur += 2;
        while (Cur + 1 < End && !(Cur[0] == '*' && Cur[1] == '/'))
          ++Cur;
        if (Cur + 1 >= End) {
          Diags.report(SMLoc::getFromPointer(Start),
                       DiagID::err_unterminated_comment);
          Cur = End;
          return;
        }
        Cur += 2;
        continue;
      }
    }
    return;
  }
}

Token Lexer::make(Token::KindTy K, const char *Start) {
  Token T;
  T.Kind = K;
  T.Text = StringRef(Start, Cur - Start);
  return T;
}

Token Lexer::lex() {
  skipSpaceAndComments();
  const char *Start = Cur;
  if (Cur == End) {
    Token T;
    T.Text = StringRef(End, 0);
    return T;
  }
  char C = *Cur++;
  switch (C) {
  case ',':
    return make(Token::Comma, Start);
  case ';':
    return make(Token::Semi, Start);
  case ':':
    return make(Token::Colon, Start);
  case '{':
    return make(Token::LBrace, Start);
  case '}':
    return make(Token::RBrace, Start);
  case '[':
    return make(Token::LBracket, Start);
  case ']':
    return make(Token::RBracket, Start);
  case '(':
    return make(Token::LParen, Start);
  case ')':
    return make(Token::RParen, Start);
  case '<':
    return make(Token::Less, Start);
  case '>':
    return make(Token::Greater, Start);
  case '+':
    return make(Token::Plus, Start);
  case '-':
    return make(Token::Minus, Start);
  case '!':
    return make(Token::Bang, Start);
  case '@':
    return make(Token::At, Start);
  case '|':
    return make(Token::Pipe, Start);
  case '=':
    return make(Token::Equal, Start);
  case '*':
    return make(Token::Star, Start);
  case '"':
    return lexString(Start);
  case '.':
    if (Cur != End && (isAlpha(*Cur) || *Cur == '_'))
      return lexDirective(Start);
    // Texture geometries start with a digit: .1d, .2d, .3d, .2dms.
    if (Cur + 1 < End && isDigit(Cur[0]) && Cur[1] == 'd')
      return lexDirective(Start);
    break;
  default:
    if (isDigit(C))
      return lexNumber(Start);
    if (isIdentStart(C))
      return lexIdentifier(Start);
    break;
  }
  char Printable[2] = {isPrint(C) ? C : '?', 0};
  Diags.report(SMLoc::getFromPointer(Start), DiagID::err_unexpected_char,
               Printable);
  return make(Token::Error, Start);
}

Token Lexer::lexIdentifier(const char *Start) {
  while (Cur != End && isIdentBody(*Cur))
    ++Cur;
  return make(Token::Identifier, Start);
}

// A dot-word, with "::" sub-qualifiers kept in the same token
// (.L1::evict_last, .shared::cta, .mbarrier::complete_tx::bytes).
Token Lexer::lexDirective(const char *Start) {
  while (true) {
    while (Cur != End && isIdentBody(*Cur))
      ++Cur;
    if (Cur + 2 < End && Cur[0] == ':' && Cur[1] == ':' &&
        isIdentBody(Cur[2])) {
      Cur += 2;
      continue;
    }
    break;
  }
  return make(Token::Directive, Start);
}

Token Lexer::lexString(const char *Start) {
  while (Cur != End && *Cur != '"' && *Cur != '\n') {
    if (*Cur == '\\' && Cur + 1 != End)
      ++Cur;
    ++Cur;
  }
  if (Cur == End || *Cur != '"') {
    Diags.report(SMLoc::getFromPointer(Start), DiagID::err_unterminated_string);
    return make(Token::Error, Start);
  }
  ++Cur;
  Token T = make(Token::String, Start);
  T.Text = T.Text.drop_front().drop_back();
  return T;
}

Token Lexer::lexNumber(const char *Start) {
  // Hex floats: 0f + 8 hex digits, 0d + 16 hex digits.
  if (*Start == '0' && Cur != End &&
      (*Cur == 'f' || *Cur == 'F' || *Cur == 'd' || *Cur == 'D')) {
    bool IsDouble = *Cur == 'd' || *Cur == 'D';
    const char *Digits = Cur + 1;
    const char *P = Digits;
    while (P != End && isHexDigit(*P))
      ++P;
    unsigned Want = IsDouble ? 16 : 8;
    Cur = P;
    while (Cur != End && isIdentBody(*Cur))
      ++Cur;
    Token T = make(Token::HexFloat, Start);
    if (unsigned(P - Digits) != Want || P != Cur) {
      Diags.report(T.getLoc(), DiagID::err_bad_number, T.Text);
      T.Kind = Token::Error;
      return T;
    }
    T.IsDouble = IsDouble;
    // The digits are checked: a loop, not getAsInteger's general parse.
    uint64_t Bits = 0;
    for (const char *D = Digits; D != P; ++D)
      Bits = Bits << 4 | hexDigitValue(*D);
    T.IntValue = Bits;
    return T;
  }

  // Decimal floats: digits with a fraction or an exponent.
  const char *P = Cur;
  while (P != End && isDigit(*P))
    ++P;
  bool IsFloat = false;
  if (P != End && *P == '.' && P + 1 != End && isDigit(P[1])) {
    IsFloat = true;
    ++P;
    while (P != End && isDigit(*P))
      ++P;
  }
  if (P != End && (*P == 'e' || *P == 'E') && P + 1 != End &&
      (isDigit(P[1]) ||
       ((P[1] == '+' || P[1] == '-') && P + 2 != End && isDigit(P[2])))) {
    IsFloat = true;
    P += 2;
    while (P != End && isDigit(*P))
      ++P;
  }
  if (IsFloat) {
    Cur = P;
    return make(Token::DecFloat, Start);
  }

  while (Cur != End && isIdentBody(*Cur))
    ++Cur;
  Token T = make(Token::Integer, Start);
  // Most integers are short decimals (offsets, counts, register ranges):
  // read those directly. 19 digits cannot overflow 64 bits.
  if (T.Text.size() <= 19 && (T.Text.size() == 1 || *Start != '0') &&
      all_of(T.Text, isDigit)) {
    uint64_t V = 0;
    for (char C : T.Text)
      V = V * 10 + unsigned(C - '0');
    T.IntValue = V;
    return T;
  }
  StringRef Text = T.Text;
  if (Text.ends_with("U") || Text.ends_with("u"))
    Text = Text.drop_back();
  unsigned Radix = 10;
  if (Text.starts_with_insensitive("0x")) {
    Radix = 16;
    Text = Text.drop_front(2);
  } else if (Text.starts_with_insensitive("0b")) {
    Radix = 2;
    Text = Text.drop_front(2);
  } else if (Text.size() > 1 && Text[0] == '0') {
    Radix = 8;
    Text = Text.drop_front();
  }
  if (Text.empty() || Text.getAsInteger(Radix, T.IntValue)) {
    bool AllDigits = !Text.empty() && all_of(Text, [&](char C) {
      return Radix == 16 ? isHexDigit(C)
                         : isDigit(C) && unsigned(C - '0') < Radix;
    });
    Diags.report(T.getLoc(),
                 AllDigits ? DiagID::err_number_too_large
                           : DiagID::err_bad_number,
                 T.Text);
    T.Kind = Token::Error;
  }
  return T;
}

StringRef Lexer::lexRestOfLine() {
  const char *Start = Cur;
  while (Cur != End && *Cur != '\n')
    ++Cur;
  StringRef Line(Start, Cur - Start);
  // A trailing // comment is not part of the directive.
  size_t Comment = Line.find("//");
  if (Comment != StringRef::npos)
    Line = Line.take_front(Comment);
  return Line.trim();
}

StringRef Lexer::lexBalancedBlock() {
  skipSpaceAndComments();
  if (Cur == End || *Cur != '{')
    return {};
  const char *Start = Cur;
  unsigned Depth = 0;
  while (Cur != End) {
    char C = *Cur++;
    if (C == '"') {
      while (Cur != End && *Cur != '"' && *Cur != '\n')
        ++Cur;
      if (Cur != End && *Cur == '"')
        ++Cur;
    } else if (C == '{') {
      ++Depth;
    } else if (C == '}' && --Depth == 0) {
      return StringRef(Start, Cur - Start);
    }
  }
  return {};
}

/// The first of '{', '}', '"' and '/' in [P, E), or E: most of a body is
/// none of them, so this looks at 16 bytes at a time.
static const char *findBlockSyntax(const char *P, const char *E) {
#ifdef __SSE2__
  const __m128i Open = _mm_set1_epi8('{'), Close = _mm_set1_epi8('}'),
                Quote = _mm_set1_epi8('"'), Slash = _mm_set1_epi8('/');
  for (; E - P >= 16; P += 16) {
    __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(P));
    __m128i Any = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(V, Open), _mm_cmpeq_epi8(V, Close)),
        _mm_or_si128(_mm_cmpeq_epi8(V, Quote), _mm_cmpeq_epi8(V, Slash)));
    if (unsigned Bits = _mm_movemask_epi8(Any))
      return P + llvm::countr_zero(Bits);
  }
#endif
  for (; P != E; ++P)
    if (*P == '{' || *P == '}' || *P == '"' || *P == '/')
      return P;
  return E;
}

bool Lexer::skipBlockBody() {
  unsigned Depth = 1;
  while ((Cur = findBlockSyntax(Cur, End)) != End) {
    char C = *Cur++;
    if (C == '{') {
      ++Depth;
    } else if (C == '}') {
      if (--Depth == 0)
        return true;
    } else if (C == '"') {
      // As lexString: a backslash escapes the next character; a line end
      // ends the string unterminated.
      while (Cur != End && *Cur != '"' && *Cur != '\n') {
        if (*Cur == '\\' && Cur + 1 != End)
          ++Cur;
        ++Cur;
      }
      if (Cur == End || *Cur != '"')
        return false;
      ++Cur;
    } else if (C == '/' && Cur != End && *Cur == '/') {
      const void *Line = std::memchr(Cur, '\n', End - Cur);
      Cur = Line ? static_cast<const char *>(Line) : End;
    } else if (C == '/' && Cur != End && *Cur == '*') {
      ++Cur;
      while (Cur + 1 < End && !(Cur[0] == '*' && Cur[1] == '/'))
        ++Cur;
      if (Cur + 1 >= End)
        return false;
      Cur += 2;
    }
  }
  return false;
}
