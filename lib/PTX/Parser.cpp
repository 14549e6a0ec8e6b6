//===- Parser.cpp - Recursive-descent parser for PTX ----------------------===//
//
// One token of look-ahead. Every error is reported and the parser resumes at
// the next ';' or '}' so one run reports many problems. Recursion (operand
// vectors, initializer lists) is bounded so no input can overflow the stack.
//
// A large module's function bodies are parsed on all cores: the top level
// first, stepping over each body (Lexer::skipBlockBody), then the bodies
// side by side, each thread with its own allocator. That is only a faster
// way to the same module: where anything at all is reported, the module is
// parsed again from the start on one thread, so that diagnostics come out
// as they always do.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/PTX/Parser.h"
#include "SpellingIndex.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/Diagnostics.h"
#include "ptxjit/PTX/Lexer.h"
#include "ptxjit/PTX/Targets.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Parallel.h"
#include "llvm/Support/SourceMgr.h"
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <pthread.h>

using namespace llvm;
using namespace ptxjit::ptx;

namespace {

constexpr unsigned MaxNesting = 64;
// The longest list: wgmma .m64n256 with .f32 accumulators, 128 registers.
constexpr unsigned MaxOperands = 128;

class Parser {
public:
  Parser(Module &M, DiagnosticEngine &Diags)
      : Parser(M, Diags, M.getAllocator(), M.getSourceText()) {}
  /// A parser of Text, a part of M's source, that allocates from Alloc.
  Parser(Module &M, DiagnosticEngine &Diags, BumpPtrAllocator &Alloc,
         StringRef Text)
      : M(M), Diags(Diags), Alloc(Alloc), Source(Text), Lex(Source, Diags) {
    next();
  }

  bool parse();
  /// From now on, function bodies are not parsed but their text (braces
  /// included) is added to Bodies, with the function's index.
  void deferBodiesTo(std::vector<std::pair<unsigned, StringRef>> &Bodies) {
    Deferred = &Bodies;
  }
  /// Parses Text, a body deferred above, into F; true if all of it was one
  /// body.
  bool parseDeferredBody(Function &F, StringRef Text) {
    Source = Text;
    Lex.reset(Text);
    next();
    return Tok.is(Token::LBrace) && parseBody(F) && Tok.is(Token::Eof);
  }

private:
  // Token stream.
  void next() { Tok = Lex.lex(); }
  bool consumeIf(Token::KindTy K) {
    if (!Tok.is(K))
      return false;
    next();
    return true;
  }
  bool isDirective(StringRef D) const {
    return Tok.is(Token::Directive) && Tok.Text == D;
  }
  bool error(DiagID ID) {
    Diags.report(Tok.getLoc(), ID);
    return false;
  }
  bool expected(StringRef What) {
    if (Tok.is(Token::Error))
      return false; // already reported by the lexer
    if (Tok.is(Token::Eof))
      Diags.report(Tok.getLoc(), DiagID::err_expected_but_found, What,
                   "end of file");
    else
      Diags.report(Tok.getLoc(), DiagID::err_expected_but_found, What,
                   Tok.Text);
    return false;
  }
  bool expect(Token::KindTy K, StringRef What) {
    if (consumeIf(K))
      return true;
    return expected(What);
  }
  /// Skips to just after the next ';' (or to a '}' it leaves in place).
  void recover();
  /// After a failed top-level declaration: past its ';' or its body.
  void recoverTopLevel();
  bool parseUInt(uint64_t &Value, StringRef What);
  bool parseInt(int64_t &Value, StringRef What);
  bool parseOffset(int64_t &Value);

  // Module level.
  bool parseTopLevel();
  bool parseVersion();
  bool parseTarget();
  bool parseFileDirective();
  bool parseSection();
  bool parseFunction(Linkage Link, bool IsEntry, SMLoc Loc);
  bool parsePerformanceDirectives(Function &F);
  bool parseParamList(std::vector<VariableDecl> &List);

  // Declarations.
  bool parseDeclSpecifiers(VariableDecl &D, bool AllowMissingSpace);
  bool parseDeclarator(VariableDecl &D, bool AllowInitializer);
  bool parseDeclaration(std::vector<VariableDecl> &Out, Linkage Link,
                        bool AllowInitializer);
  bool parseInitializer(Initializer &Init, unsigned Depth);
  bool parseSamplerFields(VariableDecl &D);

  // Function bodies.
  bool parseBody(Function &F);
  bool parseStatement(Function &F, unsigned &Depth);
  bool parseLoc(Function &F);
  bool parseLabelled(Function &F, StringRef Name, SMLoc Loc);
  bool parseInstruction(Function &F, SMLoc Loc, StringRef Guard, bool Negated,
                        StringRef OpcodeText);
  bool parseSuffixes(Instruction &I, StringRef OpcodeText);
  bool parseOperands(Instruction &I);
  bool parseCallOperands(Instruction &I, SmallVectorImpl<Operand> &Ops);
  bool parseOperand(Operand &Op, unsigned Depth);
  bool parseAddress(Operand &Op);
  /// The coordinates of the last [handle, {...}] address, for
  /// parseOperands to append after it.
  std::optional<Operand> PendingCoordinates;
  bool parseOperandList(SmallVectorImpl<Operand> &Ops, Token::KindTy Close,
                        unsigned Depth);

  /// Types, modifiers and suffix order of an instruction, as stored.
  struct SuffixLists {
    PackedArrayRef<ScalarType> Types;
    PackedArrayRef<Modifier> Modifiers;
    PackedArrayRef<Instruction::SuffixKind> Order;
  };
  /// The suffix lists in the module, by their bytes: a module repeats a few
  /// hundred combinations, so each is stored once.
  StringMap<SuffixLists> SuffixListsIndex;

  Module &M;
  DiagnosticEngine &Diags;
  BumpPtrAllocator &Alloc;
  StringRef Source;
  Lexer Lex;
  Token Tok;
  std::vector<std::pair<unsigned, StringRef>> *Deferred = nullptr;
  /// Reused storage for the statements of the body being parsed.
  std::vector<Statement> BodyBuffer;
  /// '{' of vector operands opened and not yet closed in this statement.
  unsigned OpenOperandBraces = 0;
};

} // namespace

/// -V in two's complement, computed unsigned: literals are 64-bit patterns,
/// and negating 9223372036854775808 must give INT64_MIN, not overflow.
static int64_t negateIf(bool Neg, uint64_t V) {
  return static_cast<int64_t>(Neg ? 0 - V : V);
}

namespace {
/// What a dot-word after an opcode or in a declaration is.
struct Suffix {
  enum KindTy : uint8_t { Unknown, Type, Space, Vector, Modifier };
  KindTy Kind = Unknown;
  uint16_t Value = 0; ///< the ScalarType, StateSpace or Modifier; the width
};
} // namespace

static std::optional<Opcode> findOpcode(StringRef Spelling) {
  static const SpellingIndex Index = [] {
    SpellingIndex I;
#define PTX_OPCODE(Enum, Spelling, Types, Shapes, Flags, TypeSets, Modifiers,  \
                   Uniformity, Family)                                         \
  I.insert(Spelling, uint16_t(Opcode::Enum));
#include "ptxjit/PTX/Opcodes.def"
    return I;
  }();
  uint16_t V = Index.lookup(Spelling);
  if (V == SpellingIndex::NotFound)
    return std::nullopt;
  return Opcode(V);
}

/// Whether Head, the first word of an opcode, also begins a spelling of
/// several words (cp: cp.async, bar: bar.warp.sync), so that the longest
/// dotted prefix of what is written has to be looked for. Most opcodes are
/// one word.
static bool beginsLongerOpcode(StringRef Head) {
  static const SpellingIndex Index = [] {
    SpellingIndex I;
    auto Add = [&](StringRef Spelling) {
      size_t Dot = Spelling.find('.');
      if (Dot != StringRef::npos)
        I.insert(Spelling.take_front(Dot), 1);
    };
#define PTX_OPCODE(Enum, Spelling, Types, Shapes, Flags, TypeSets, Modifiers,  \
                   Uniformity, Family)                                         \
  Add(Spelling);
#include "ptxjit/PTX/Opcodes.def"
    return I;
  }();
  return Index.lookup(Head) != SpellingIndex::NotFound;
}

/// One look-up for every kind of suffix, in the order the kinds are tried:
/// a type, a state space, a vector width, then a modifier.
static Suffix classifySuffix(StringRef Spelling) {
  static const SpellingIndex Index = [] {
    SpellingIndex I;
    auto Add = [&](StringRef S, Suffix::KindTy K, unsigned V) {
      I.insert(S, uint16_t(K << 12 | V));
    };
#define PTX_TYPE(Enum, Spelling, Bits, Kind)                                   \
  Add(Spelling, Suffix::Type, unsigned(ScalarType::Enum));
#include "ptxjit/PTX/Types.def"
#define PTX_STATE_SPACE(Enum, Spelling)                                        \
  Add(Spelling, Suffix::Space, unsigned(StateSpace::Enum));
#include "ptxjit/PTX/StateSpaces.def"
    Add(".v2", Suffix::Vector, 2);
    Add(".v4", Suffix::Vector, 4);
    Add(".v8", Suffix::Vector, 8);
#define PTX_MODIFIER(Enum, Spelling, Category)                                 \
  Add(Spelling, Suffix::Modifier, unsigned(Modifier::Enum));
#include "ptxjit/PTX/Modifiers.def"
    return I;
  }();
  uint16_t V = Index.lookup(Spelling);
  if (V == SpellingIndex::NotFound)
    return {};
  return {Suffix::KindTy(V >> 12), uint16_t(V & 0xfff)};
}

void Parser::recover() {
  // Braces opened by a vector operand of this statement close inside it;
  // only a '}' beyond them ends the enclosing block.
  while (!Tok.is(Token::Eof) && !Tok.is(Token::Semi)) {
    if (Tok.is(Token::LBrace))
      ++OpenOperandBraces;
    if (Tok.is(Token::RBrace)) {
      if (OpenOperandBraces == 0)
        break;
      --OpenOperandBraces;
    }
    next();
  }
  OpenOperandBraces = 0;
  consumeIf(Token::Semi);
}

void Parser::recoverTopLevel() {
  // A function whose header failed still has its body: skip all of it, so
  // that one error does not become one per instruction. Stop at a ';' or at
  // the start of the next declaration outside braces.
  unsigned Depth = 0;
  bool Moved = false;
  while (!Tok.is(Token::Eof)) {
    if (Tok.is(Token::LBrace)) {
      ++Depth;
    } else if (Tok.is(Token::RBrace)) {
      next();
      if (Depth <= 1)
        return;
      --Depth;
      continue;
    } else if (Depth == 0 && Tok.is(Token::Semi)) {
      next();
      return;
    } else if (Depth == 0 && Moved && Tok.is(Token::Directive) &&
               (Tok.Text == ".visible" || Tok.Text == ".entry" ||
                Tok.Text == ".func" || Tok.Text == ".extern" ||
                Tok.Text == ".weak" || Tok.Text == ".global" ||
                Tok.Text == ".const" || Tok.Text == ".shared")) {
      return;
    }
    next();
    Moved = true;
  }
}

bool Parser::parseUInt(uint64_t &Value, StringRef What) {
  if (!Tok.is(Token::Integer))
    return expected(What);
  Value = Tok.IntValue;
  next();
  return true;
}

bool Parser::parseInt(int64_t &Value, StringRef What) {
  bool Neg = consumeIf(Token::Minus);
  uint64_t U;
  if (!parseUInt(U, What))
    return false;
  Value = negateIf(Neg, U);
  return true;
}

bool Parser::parseOffset(int64_t &Value) {
  // +N, -N or +-N after a symbol or address base; nothing is fine too.
  if (!Tok.is(Token::Plus) && !Tok.is(Token::Minus))
    return true;
  bool Minus = Tok.is(Token::Minus);
  next();
  int64_t Off;
  if (!parseInt(Off, "an offset"))
    return false;
  Value = negateIf(Minus, uint64_t(Off));
  return true;
}

//===----------------------------------------------------------------------===//
// Module level
//===----------------------------------------------------------------------===//

bool Parser::parse() {
  bool OK = true;
  bool SawVersion = false;
  while (!Tok.is(Token::Eof)) {
    if (!SawVersion && !isDirective(".version")) {
      // Comments and whitespace are gone; anything else first is an error.
      Diags.report(Tok.getLoc(), DiagID::err_missing_version);
      SawVersion = true;
      OK = false;
    }
    if (isDirective(".version"))
      SawVersion = true;
    if (!parseTopLevel()) {
      OK = false;
      recoverTopLevel();
    }
  }
  if (!SawVersion) {
    Diags.report(Tok.getLoc(), DiagID::err_missing_version);
    OK = false;
  }
  return OK;
}

bool Parser::parseTopLevel() {
  SMLoc Loc = Tok.getLoc();
  if (Tok.is(Token::Semi)) {
    next();
    return true;
  }
  if (!Tok.is(Token::Directive))
    return expected("a directive");

  StringRef D = Tok.Text;
  if (D == ".version")
    return parseVersion();
  if (D == ".target")
    return parseTarget();
  if (D == ".address_size") {
    next();
    uint64_t Size;
    if (!parseUInt(Size, "an address size"))
      return false;
    M.AddressSize = Size;
    M.HasAddressSize = true;
    return true;
  }
  if (D == ".file")
    return parseFileDirective();
  if (D == ".section")
    return parseSection();
  if (D == ".pragma") {
    // Module-scope pragmas are kept verbatim.
    next();
    if (!Tok.is(Token::String))
      return expected("a pragma string");
    M.Order.push_back({TopLevel::Section, unsigned(M.Sections.size())});
    M.Sections.push_back((".pragma \"" + Tok.Text + "\";").str());
    next();
    return expect(Token::Semi, "';'");
  }

  Linkage Link = Linkage::None;
  Link = StringSwitch<Linkage>(D)
             .Case(".visible", Linkage::Visible)
             .Case(".extern", Linkage::Extern)
             .Case(".weak", Linkage::Weak)
             .Case(".common", Linkage::Common)
             .Default(Linkage::None);
  if (Link != Linkage::None)
    next();
  if (isDirective(".entry") || isDirective(".func")) {
    bool IsEntry = Tok.Text == ".entry";
    next();
    return parseFunction(Link, IsEntry, Loc);
  }
  if (!Tok.is(Token::Directive))
    return expected("a declaration");
  std::vector<VariableDecl> Decls;
  if (!parseDeclaration(Decls, Link, /*AllowInitializer=*/true))
    return false;
  for (VariableDecl &V : Decls) {
    M.Order.push_back({TopLevel::Variable, unsigned(M.Globals.size())});
    M.Globals.push_back(std::move(V));
  }
  return true;
}

bool Parser::parseVersion() {
  next();
  if (!Tok.is(Token::DecFloat) && !Tok.is(Token::Integer))
    return expected("a version number");
  M.Version = Tok.Text.str();
  auto [MajorText, MinorText] = Tok.Text.split('.');
  unsigned Major = 0, Minor = 0;
  if (!MajorText.getAsInteger(10, Major) &&
      (MinorText.empty() || !MinorText.getAsInteger(10, Minor)) &&
      isNewerThanSupported(Major, Minor))
    Diags.report(
        Tok.getLoc(), DiagID::warn_newer_version, Tok.Text,
        formatv("{0}.{1}", SupportedVersionMajor, SupportedVersionMinor));
  next();
  return true;
}

bool Parser::parseTarget() {
  next();
  do {
    if (!Tok.is(Token::Identifier))
      return expected("a target name");
    M.Targets.push_back(Tok.Text.str());
    if (!isKnownTarget(Tok.Text))
      Diags.report(Tok.getLoc(), DiagID::warn_unknown_target, Tok.Text);
    next();
  } while (consumeIf(Token::Comma));
  return true;
}

bool Parser::parseFileDirective() {
  // Read past the look-ahead by hand: the rest of the line is verbatim.
  Token Index = Lex.lex();
  if (!Index.is(Token::Integer)) {
    Tok = Index;
    return expected("a file index");
  }
  Token Name = Lex.lex();
  if (!Name.is(Token::String)) {
    Tok = Name;
    return expected("a file name string");
  }
  FileDirective F;
  F.Index = Index.IntValue;
  F.Name = Name.Text.str();
  F.Rest = Lex.lexRestOfLine().str();
  M.Order.push_back({TopLevel::File, unsigned(M.Files.size())});
  M.Files.push_back(std::move(F));
  next();
  return true;
}

bool Parser::parseSection() {
  const char *Start = Tok.Text.data();
  Token Name = Lex.lex();
  if (!Name.is(Token::Directive)) {
    Tok = Name;
    return expected("a section name");
  }
  StringRef Block = Lex.lexBalancedBlock();
  if (Block.empty()) {
    Diags.report(Name.getLoc(), DiagID::err_unbalanced_section);
    Tok = Token(); // nothing sensible follows an unterminated block
    Tok.Text = StringRef(M.getSourceText().end(), 0);
    return false;
  }
  M.Order.push_back({TopLevel::Section, unsigned(M.Sections.size())});
  M.Sections.push_back(std::string(Start, Block.end() - Start));
  next();
  return true;
}

bool Parser::parseParamList(std::vector<VariableDecl> &List) {
  if (!expect(Token::LParen, "'('"))
    return false;
  if (consumeIf(Token::RParen))
    return true;
  do {
    VariableDecl D;
    D.Loc = Tok.getLoc();
    if (!parseDeclSpecifiers(D, /*AllowMissingSpace=*/false) ||
        !parseDeclarator(D, /*AllowInitializer=*/false))
      return false;
    List.push_back(std::move(D));
  } while (consumeIf(Token::Comma));
  return expect(Token::RParen, "')'");
}

bool Parser::parseFunction(Linkage Link, bool IsEntry, SMLoc Loc) {
  Function F;
  F.Loc = Loc;
  F.IsEntry = IsEntry;
  F.Link = Link;
  if (!IsEntry && Tok.is(Token::LParen) && !parseParamList(F.Returns))
    return false;
  if (!Tok.is(Token::Identifier))
    return expected("a function name");
  F.Name = Tok.Text;
  next();
  if (Tok.is(Token::LParen) && !parseParamList(F.Params))
    return false;
  F.Returns.shrink_to_fit();
  F.Params.shrink_to_fit();
  if (!parsePerformanceDirectives(F))
    return false;

  unsigned Index = M.Functions.size();
  M.Order.push_back({TopLevel::Func, Index});
  M.Functions.push_back(std::move(F));
  Function &Fn = M.Functions.back();
  if (consumeIf(Token::Semi))
    return true;
  if (!Tok.is(Token::LBrace))
    return expected("'{' or ';'");
  Fn.HasBody = true;
  if (!Deferred) {
    // A body recovers from its errors itself and ends at its '}' (or the
    // end of the file): what follows is parsed, not skipped as after a bad
    // header. Its errors are counted by Diags.
    parseBody(Fn);
    return true;
  }
  const char *Start = Tok.Text.data();
  if (!Lex.skipBlockBody())
    return expected("'}'");
  Deferred->emplace_back(Index, StringRef(Start, Lex.getPosition() - Start));
  next();
  return true;
}

bool Parser::parsePerformanceDirectives(Function &F) {
  while (Tok.is(Token::Directive)) {
    StringRef D = Tok.Text;
    auto ParseDims = [&](uint32_t *Dims, unsigned &Num) {
      next();
      Num = 0;
      do {
        uint64_t V;
        if (Num == 3)
          return expected("at most three dimensions");
        if (!parseUInt(V, "a dimension"))
          return false;
        Dims[Num++] = V;
      } while (consumeIf(Token::Comma));
      return true;
    };
    auto ParseOne = [&](uint32_t &Out) {
      next();
      uint64_t V;
      if (!parseUInt(V, "a number"))
        return false;
      Out = V;
      return true;
    };
    bool OK;
    if (D == ".maxntid")
      OK = ParseDims(F.MaxNTid, F.NumMaxNTid);
    else if (D == ".reqntid")
      OK = ParseDims(F.ReqNTid, F.NumReqNTid);
    else if (D == ".minnctapersm")
      OK = ParseOne(F.MinNCTAPerSM);
    else if (D == ".maxnctapersm")
      OK = ParseOne(F.MaxNCTAPerSM);
    else if (D == ".maxnreg")
      OK = ParseOne(F.MaxNReg);
    else if (D == ".reqnctapercluster")
      OK = ParseDims(F.ReqNCTAPerCluster, F.NumReqNCTAPerCluster);
    else if (D == ".maxclusterrank")
      OK = ParseOne(F.MaxClusterRank);
    else if (D == ".abi_preserve" || D == ".abi_preserve_control") {
      uint32_t N;
      OK = ParseOne(N);
      (D == ".abi_preserve" ? F.AbiPreserve : F.AbiPreserveControl) =
          int32_t(N);
    } else if (D == ".explicitcluster") {
      F.ExplicitCluster = true;
      next();
      OK = true;
    } else if (D == ".noreturn") {
      F.NoReturn = true;
      next();
      OK = true;
    } else if (D == ".pragma") {
      next();
      if (!Tok.is(Token::String))
        return expected("a pragma string");
      F.Pragmas.push_back(Tok.Text.str());
      next();
      OK = expect(Token::Semi, "';'");
    } else {
      Diags.report(Tok.getLoc(), DiagID::err_unknown_directive, D);
      return false;
    }
    if (!OK)
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

bool Parser::parseDeclSpecifiers(VariableDecl &D, bool AllowMissingSpace) {
  bool SawPtr = false;
  while (Tok.is(Token::Directive)) {
    StringRef W = Tok.Text;
    if (W == ".align") {
      next();
      uint64_t A;
      if (!parseUInt(A, "an alignment"))
        return false;
      (SawPtr ? D.PtrAlign : D.Align) = A;
      continue;
    }
    if (W == ".ptr") {
      SawPtr = D.IsPtr = true;
      next();
      continue;
    }
    if (W == ".attribute") {
      // .attribute(.managed), the one variable attribute nvcc writes.
      next();
      if (!expect(Token::LParen, "'('"))
        return false;
      if (!Tok.is(Token::Directive) || Tok.Text != ".managed")
        return expected("'.managed'");
      D.IsManaged = true;
      next();
      if (!expect(Token::RParen, "')'"))
        return false;
      continue;
    }
    Suffix S = classifySuffix(W);
    bool IsOpaque = S.Kind == Suffix::Modifier &&
                    (Modifier(S.Value) == Modifier::TexRef ||
                     Modifier(S.Value) == Modifier::SamplerRef ||
                     Modifier(S.Value) == Modifier::SurfRef);
    // One type per declaration; an opaque reference is its own type.
    if ((S.Kind == Suffix::Type || IsOpaque) && D.Type != ScalarType::None) {
      Diags.report(Tok.getLoc(), DiagID::err_second_type, W);
      return false;
    }
    if (S.Kind == Suffix::Vector) {
      D.VectorWidth = S.Value;
    } else if (S.Kind == Suffix::Space) {
      (SawPtr ? D.PtrSpace : D.Space) = StateSpace(S.Value);
    } else if (S.Kind == Suffix::Type) {
      D.Type = ScalarType(S.Value);
    } else if (IsOpaque) {
      // An opaque reference holds a 64-bit handle (or sampler word).
      Modifier M = Modifier(S.Value);
      D.Opaque = M == Modifier::TexRef       ? OpaqueKind::TexRef
                 : M == Modifier::SamplerRef ? OpaqueKind::SamplerRef
                                             : OpaqueKind::SurfRef;
      D.Type = ScalarType::B64;
    } else {
      Diags.report(Tok.getLoc(), DiagID::err_unknown_type, W);
      return false;
    }
    next();
  }
  if (D.Type == ScalarType::None)
    return expected("a type");
  if (D.Space == StateSpace::None && !AllowMissingSpace)
    return expected("a state space");
  return true;
}

bool Parser::parseDeclarator(VariableDecl &D, bool AllowInitializer) {
  if (!Tok.is(Token::Identifier))
    return expected("a name");
  D.Name = Tok.Text;
  D.Loc = Tok.getLoc();
  next();
  if (consumeIf(Token::Less)) {
    uint64_t N;
    if (!parseUInt(N, "a register count"))
      return false;
    if (N == 0 || N > (1u << 24)) {
      Diags.report(D.Loc, DiagID::err_bad_range);
      return false;
    }
    D.IsRange = true;
    D.RangeCount = N;
    if (!expect(Token::Greater, "'>'"))
      return false;
  }
  while (consumeIf(Token::LBracket)) {
    uint64_t N = 0;
    if (!Tok.is(Token::RBracket) && !parseUInt(N, "an array size"))
      return false;
    D.Dims.push_back(N);
    if (!expect(Token::RBracket, "']'"))
      return false;
    if (D.Dims.size() > 8)
      return error(DiagID::err_nesting_too_deep);
  }
  if (AllowInitializer && consumeIf(Token::Equal)) {
    D.HasInitializer = true;
    if (D.Opaque != OpaqueKind::None)
      return parseSamplerFields(D);
    return parseInitializer(D.Init, 0);
  }
  return true;
}

// = { addr_mode_0 = clamp_to_border, filter_mode = nearest }: names and
// values are checked by the verifier.
bool Parser::parseSamplerFields(VariableDecl &D) {
  if (!expect(Token::LBrace, "'{'"))
    return false;
  if (consumeIf(Token::RBrace))
    return true;
  do {
    SamplerField F;
    F.Loc = Tok.getLoc();
    if (!Tok.is(Token::Identifier))
      return expected("a field name");
    F.Name = Tok.Text;
    next();
    if (!expect(Token::Equal, "'='"))
      return false;
    if (!Tok.is(Token::Identifier) && !Tok.is(Token::Integer))
      return expected("a field value");
    F.Value = Tok.Text;
    next();
    D.SamplerFields.push_back(F);
  } while (consumeIf(Token::Comma));
  return expect(Token::RBrace, "'}'");
}

bool Parser::parseDeclaration(std::vector<VariableDecl> &Out, Linkage Link,
                              bool AllowInitializer) {
  VariableDecl Proto;
  Proto.Link = Link;
  Proto.Loc = Tok.getLoc();
  if (!parseDeclSpecifiers(Proto, /*AllowMissingSpace=*/false))
    return false;
  bool First = true;
  do {
    VariableDecl D = Proto;
    D.ContinuesPrevious = !First;
    First = false;
    if (!parseDeclarator(D, AllowInitializer))
      return false;
    Out.push_back(std::move(D));
  } while (consumeIf(Token::Comma));
  return expect(Token::Semi, "';'");
}

bool Parser::parseInitializer(Initializer &Init, unsigned Depth) {
  Init.Loc = Tok.getLoc();
  if (Depth > MaxNesting)
    return error(DiagID::err_nesting_too_deep);
  if (consumeIf(Token::LBrace)) {
    Init.Kind = Initializer::List;
    if (consumeIf(Token::RBrace))
      return true;
    do {
      Init.Elements.emplace_back();
      if (!parseInitializer(Init.Elements.back(), Depth + 1))
        return false;
    } while (consumeIf(Token::Comma));
    return expect(Token::RBrace, "'}'");
  }
  bool Neg = consumeIf(Token::Minus);
  switch (Tok.Kind) {
  case Token::Integer:
    Init.Kind = Initializer::Int;
    Init.Value = negateIf(Neg, Tok.IntValue);
    next();
    return true;
  case Token::HexFloat: {
    Init.Kind = Tok.IsDouble ? Initializer::Double : Initializer::Float;
    uint64_t Sign = Neg ? (Tok.IsDouble ? 1ull << 63 : 1ull << 31) : 0;
    Init.Value = Tok.IntValue ^ Sign;
    next();
    return true;
  }
  case Token::DecFloat: {
    double V = std::strtod(Tok.Text.str().c_str(), nullptr);
    Init.Kind = Initializer::Double;
    std::memcpy(&Init.Value, &V, sizeof V);
    if (Neg)
      Init.Value ^= int64_t(1ull << 63);
    next();
    return true;
  }
  case Token::Identifier: {
    if (Neg)
      return expected("a number");
    if (Tok.Text == "generic") {
      next();
      if (!expect(Token::LParen, "'('"))
        return false;
      if (!Tok.is(Token::Identifier))
        return expected("a variable name");
      Init.Kind = Initializer::Generic;
      Init.Name = Tok.Text;
      next();
      // generic(var)+offset: the offset follows the parenthesis.
      if (!expect(Token::RParen, "')'"))
        return false;
    } else {
      Init.Kind = Initializer::Symbol;
      Init.Name = Tok.Text;
      next();
    }
    return parseOffset(Init.Value);
  }
  default:
    return expected("an initializer");
  }
}

//===----------------------------------------------------------------------===//
// Function bodies
//===----------------------------------------------------------------------===//

bool Parser::parseBody(Function &F) {
  next(); // '{'
  // Statements go into a buffer whose capacity is kept from one function to
  // the next, then are copied out at their exact size: growing each body
  // from empty copied every statement about twice and left up to half of
  // the body's memory unused.
  F.Body.swap(BodyBuffer);
  unsigned Depth = 1;
  bool OK = true;
  while (Depth != 0) {
    if (Tok.is(Token::Eof)) {
      expected("'}'");
      OK = false;
      break;
    }
    if (!parseStatement(F, Depth)) {
      OK = false;
      recover();
    }
  }
  BodyBuffer.swap(F.Body);
  F.Body.assign(BodyBuffer.begin(), BodyBuffer.end());
  BodyBuffer.clear();
  // Declarations are large (VariableDecl): no room left over either.
  F.Locals.shrink_to_fit();
  return OK;
}

bool Parser::parseStatement(Function &F, unsigned &Depth) {
  SMLoc Loc = Tok.getLoc();
  auto Push = [&](Statement::KindTy K) -> Statement & {
    Statement &S = F.Body.emplace_back(K);
    S.setLoc(Loc);
    return S;
  };
  switch (Tok.Kind) {
  case Token::LBrace:
    if (Depth > MaxNesting)
      return error(DiagID::err_nesting_too_deep);
    ++Depth;
    Push(Statement::ScopeBegin);
    next();
    return true;
  case Token::RBrace:
    if (--Depth != 0)
      Push(Statement::ScopeEnd);
    next();
    return true;
  case Token::Semi:
    next();
    return true;
  case Token::At: {
    next();
    bool Neg = consumeIf(Token::Bang);
    if (!Tok.is(Token::Identifier))
      return expected("a predicate register");
    StringRef Guard = Tok.Text;
    next();
    if (!Tok.is(Token::Identifier))
      return expected("an instruction");
    StringRef Opc = Tok.Text;
    SMLoc OpLoc = Tok.getLoc();
    next();
    return parseInstruction(F, OpLoc, Guard, Neg, Opc);
  }
  case Token::Identifier: {
    StringRef Name = Tok.Text;
    next();
    if (consumeIf(Token::Colon))
      return parseLabelled(F, Name, Loc);
    return parseInstruction(F, Loc, "", false, Name);
  }
  case Token::Directive: {
    StringRef D = Tok.Text;
    if (D == ".loc")
      return parseLoc(F);
    if (D == ".pragma") {
      next();
      if (!Tok.is(Token::String))
        return expected("a pragma string");
      Push(Statement::Pragma).Dir.Text = Tok.Text;
      next();
      return expect(Token::Semi, "';'");
    }
    std::vector<VariableDecl> Decls;
    if (!parseDeclaration(Decls, Linkage::None, /*AllowInitializer=*/true))
      return false;
    for (VariableDecl &V : Decls) {
      Statement &S = Push(Statement::Decl);
      S.setLoc(V.Loc);
      S.Index = F.Locals.size();
      F.Locals.push_back(std::move(V));
    }
    return true;
  }
  default:
    return expected("an instruction");
  }
}

bool Parser::parseLoc(Function &F) {
  Statement S(Statement::Loc);
  S.setLoc(Tok.getLoc());
  unsigned *Fields[] = {&S.Dir.LocFile, &S.Dir.LocLine, &S.Dir.LocColumn};
  for (unsigned *Field : Fields) {
    Token T = Lex.lex();
    if (!T.is(Token::Integer)) {
      Tok = T;
      return expected("a number");
    }
    *Field = T.IntValue;
  }
  S.Dir.Text = Lex.lexRestOfLine();
  F.Body.push_back(std::move(S));
  next();
  return true;
}

bool Parser::parseLabelled(Function &F, StringRef Name, SMLoc Loc) {
  if (isDirective(".branchtargets")) {
    next();
    Statement S(Statement::BranchTargets);
    S.setLoc(Loc);
    S.Dir.Name = Name;
    S.Index = F.TargetLists.size();
    F.TargetLists.emplace_back();
    do {
      if (!Tok.is(Token::Identifier))
        return expected("a label");
      F.TargetLists.back().push_back(Tok.Text);
      next();
    } while (consumeIf(Token::Comma));
    F.Body.push_back(std::move(S));
    return expect(Token::Semi, "';'");
  }
  if (isDirective(".callprototype")) {
    next();
    CallPrototype P;
    if (Tok.is(Token::LParen) && !parseParamList(P.Returns))
      return false;
    if (!Tok.is(Token::Identifier) || Tok.Text != "_")
      return expected("'_'");
    next();
    if (Tok.is(Token::LParen) && !parseParamList(P.Params))
      return false;
    if (isDirective(".noreturn")) {
      P.NoReturn = true;
      next();
    }
    Statement S(Statement::Prototype);
    S.setLoc(Loc);
    S.Dir.Name = Name;
    S.Index = F.Prototypes.size();
    F.Prototypes.push_back(std::move(P));
    F.Body.push_back(std::move(S));
    return expect(Token::Semi, "';'");
  }
  Statement S(Statement::Label);
  S.setLoc(Loc);
  S.Dir.Name = Name;
  F.Body.push_back(std::move(S));
  return true;
}

bool Parser::parseInstruction(Function &F, SMLoc Loc, StringRef Guard,
                              bool Negated, StringRef OpcodeText) {
  // Opcodes of several words (brx.idx, cp.async.mbarrier.arrive) are
  // written without spaces: the longest prefix of the dotted word that is an
  // opcode, whose directives are then taken. A first word that begins no
  // such opcode is the opcode or nothing.
  std::optional<Opcode> Op;
  if (!beginsLongerOpcode(OpcodeText))
    Op = findOpcode(OpcodeText);
  StringRef Word = OpcodeText;
  if (!Op) {
    const char *WordEnd = OpcodeText.end();
    while (WordEnd != Source.end() && (isAlnum(*WordEnd) || *WordEnd == '.' ||
                                       *WordEnd == '_' || *WordEnd == ':'))
      ++WordEnd;
    Word = StringRef(OpcodeText.data(), WordEnd - OpcodeText.data());
    for (size_t End = Word.size();;) {
      if ((Op = findOpcode(Word.take_front(End)))) {
        OpcodeText = Word.take_front(End);
        break;
      }
      size_t Dot = Word.rfind('.', End);
      if (Dot == StringRef::npos || Dot < OpcodeText.size())
        break;
      End = Dot;
    }
  }
  while (Op && Tok.is(Token::Directive) && Tok.Text.end() <= OpcodeText.end())
    next();
  if (Op == Opcode::WgmmaMmaAsync && Tok.is(Token::Directive) &&
      Tok.Text == ".sp") {
    // Sparse warpgroup multiplies are not emulated; say so rather than that
    // .sp is an unknown suffix.
    Diags.report(Loc, DiagID::err_unsupported_family, "wgmma.mma_async.sp",
                 "sparse warpgroup matrix multiply-accumulate, sm_90a");
    return false;
  }
  if (!Op) {
    Diags.report(Loc, DiagID::err_unknown_opcode, OpcodeText);
    return false;
  }
  // Built in place: a Statement is large, and most statements are these.
  Statement &S = F.Body.emplace_back();
  Instruction &I = S.Instr;
  I.Op = *Op;
  I.Loc = Loc;
  I.GuardPredicate = Guard;
  I.GuardNegated = Negated;
  if (!parseSuffixes(I, OpcodeText) || !parseOperands(I)) {
    F.Body.pop_back();
    return false;
  }
  return true;
}

bool Parser::parseSuffixes(Instruction &I, StringRef OpcodeText) {
  SmallVector<ScalarType, 4> Types;
  SmallVector<Modifier, 8> Mods;
  SmallVector<Instruction::SuffixKind, 12> Order;
  while (Tok.is(Token::Directive)) {
    Suffix S = classifySuffix(Tok.Text);
    switch (S.Kind) {
    case Suffix::Type:
      Types.push_back(ScalarType(S.Value));
      Order.push_back(Instruction::SKType);
      break;
    case Suffix::Space:
      if (I.Space == StateSpace::None)
        I.Space = StateSpace(S.Value);
      else
        I.Space2 = StateSpace(S.Value);
      Order.push_back(Instruction::SKSpace);
      break;
    case Suffix::Vector:
      I.VectorWidth = S.Value;
      Order.push_back(Instruction::SKVector);
      break;
    case Suffix::Modifier:
      Mods.push_back(Modifier(S.Value));
      Order.push_back(Instruction::SKModifier);
      break;
    case Suffix::Unknown:
      Diags.report(Tok.getLoc(), DiagID::err_unknown_modifier, Tok.Text,
                   OpcodeText);
      return false;
    }
    next();
    if (Order.size() > 32)
      return error(DiagID::err_too_many_operands);
  }
  // The key: the lengths of the first two lists, then the three lists'
  // bytes (at most 33 suffixes, so a length fits a byte).
  SmallString<64> Key;
  Key.push_back(char(Types.size()));
  Key.push_back(char(Mods.size()));
  for (ScalarType T : Types)
    Key.push_back(char(T));
  for (Modifier Mod : Mods)
    Key.push_back(char(Mod));
  for (Instruction::SuffixKind K : Order)
    Key.push_back(char(K));
  auto [It, Inserted] = SuffixListsIndex.try_emplace(Key);
  if (Inserted)
    It->second = {
        PackedArrayRef<ScalarType>::create(Alloc, Types),
        PackedArrayRef<Modifier>::create(Alloc, Mods),
        PackedArrayRef<Instruction::SuffixKind>::create(Alloc, Order)};
  I.Types = It->second.Types;
  I.Modifiers = It->second.Modifiers;
  I.SuffixOrder = It->second.Order;
  return true;
}

bool Parser::parseOperands(Instruction &I) {
  SmallVector<Operand, 8> Ops;
  PendingCoordinates.reset();
  if (I.Op == Opcode::Call) {
    if (!parseCallOperands(I, Ops))
      return false;
  } else if (!Tok.is(Token::Semi)) {
    do {
      if (Ops.size() == MaxOperands)
        return error(DiagID::err_too_many_operands);
      Ops.emplace_back();
      if (!parseOperand(Ops.back(), 0))
        return false;
      if (PendingCoordinates) {
        Ops.push_back(*PendingCoordinates);
        PendingCoordinates.reset();
      }
    } while (consumeIf(Token::Comma));
  }
  if (!expect(Token::Semi, "';'"))
    return false;
  I.Operands = copyArray<Operand>(Alloc, Ops);
  return true;
}

// call (ret, ...), callee, (arg, ...), prototype;
// Stored flat as [returns..., callee, args..., prototype?].
bool Parser::parseCallOperands(Instruction &I, SmallVectorImpl<Operand> &Ops) {
  if (Tok.is(Token::LParen)) {
    next();
    if (!parseOperandList(Ops, Token::RParen, 0))
      return false;
    I.NumCallReturns = Ops.size();
    if (!expect(Token::Comma, "','"))
      return false;
  }
  Ops.emplace_back();
  if (!parseOperand(Ops.back(), 0))
    return false;
  if (!consumeIf(Token::Comma))
    return true;
  if (Tok.is(Token::LParen)) {
    next();
    size_t Before = Ops.size();
    if (!parseOperandList(Ops, Token::RParen, 0))
      return false;
    I.NumCallArgs = Ops.size() - Before;
    if (!consumeIf(Token::Comma))
      return true;
  }
  Ops.emplace_back();
  if (!parseOperand(Ops.back(), 0))
    return false;
  I.HasCallPrototype = true;
  return true;
}

bool Parser::parseOperandList(SmallVectorImpl<Operand> &Ops,
                              Token::KindTy Close, unsigned Depth) {
  if (consumeIf(Close))
    return true;
  do {
    if (Ops.size() >= MaxOperands)
      return error(DiagID::err_too_many_operands);
    Ops.emplace_back();
    if (!parseOperand(Ops.back(), Depth))
      return false;
  } while (consumeIf(Token::Comma));
  return expect(Close, Close == Token::RParen ? "')'" : "'}'");
}

bool Parser::parseOperand(Operand &Op, unsigned Depth) {
  Op.Loc = Tok.getLoc();
  if (Depth > MaxNesting)
    return error(DiagID::err_nesting_too_deep);
  switch (Tok.Kind) {
  case Token::Bang:
    next();
    if (!Tok.is(Token::Identifier))
      return expected("a predicate register");
    if (!parseOperand(Op, Depth + 1))
      return false;
    Op.Loc = SMLoc::getFromPointer(Op.Loc.getPointer() - 1);
    Op.Negated = true;
    return true;
  case Token::LBrace: {
    next();
    ++OpenOperandBraces;
    SmallVector<Operand, 4> Elements;
    if (!parseOperandList(Elements, Token::RBrace, Depth + 1))
      return false;
    --OpenOperandBraces;
    Op.Kind = Operand::Vector;
    Op.Elements = OperandList::create(Alloc, Elements);
    return true;
  }
  case Token::LBracket:
    return parseAddress(Op);
  case Token::Minus:
  case Token::Integer:
  case Token::HexFloat:
  case Token::DecFloat: {
    bool Neg = consumeIf(Token::Minus);
    if (Neg && Tok.is(Token::Identifier) && Tok.Text.starts_with("%")) {
      // -%r1: a negated source of vmad.
      if (!parseOperand(Op, Depth + 1))
        return false;
      Op.Loc = SMLoc::getFromPointer(Op.Loc.getPointer() - 1);
      Op.Minus = true;
      return true;
    }
    if (Tok.is(Token::Integer)) {
      Op.Kind = Operand::IntImm;
      Op.Value = negateIf(Neg, Tok.IntValue);
    } else if (Tok.is(Token::HexFloat)) {
      Op.Kind = Tok.IsDouble ? Operand::DoubleImm : Operand::FloatImm;
      uint64_t Sign = Neg ? (Tok.IsDouble ? 1ull << 63 : 1ull << 31) : 0;
      Op.Value = Tok.IntValue ^ Sign;
    } else if (Tok.is(Token::DecFloat)) {
      double V = std::strtod(Tok.Text.str().c_str(), nullptr);
      if (Neg)
        V = -V;
      Op.Kind = Operand::DoubleImm;
      std::memcpy(&Op.Value, &V, sizeof V);
    } else {
      return expected("a number");
    }
    next();
    return true;
  }
  case Token::Identifier: {
    StringRef Name = Tok.Text;
    next();
    // d|p: a second destination (setp, shfl, match); either may be a sink.
    auto MaybePair = [&]() {
      if (!Tok.is(Token::Pipe))
        return true;
      next();
      Operand Pair[2];
      Pair[0] = Op;
      if (!parseOperand(Pair[1], Depth + 1))
        return false;
      Op = Operand();
      Op.Loc = Pair[0].Loc;
      Op.Kind = Operand::PredPair;
      Op.Elements = OperandList::create(Alloc, Pair);
      return true;
    };
    if (Name == "_") {
      Op.Kind = Operand::Sink;
      return MaybePair();
    }
    Op.Name = Name;
    // A register without '%' (a function's parameter) is a symbol until
    // the scopes are resolved; it may have a component or selector too.
    Op.Kind = Name[0] == '%' ? Operand::Register : Operand::Symbol;
    {
      // %tid.x, %v.r: the component is written right after the name
      // (.r .g .b .a name .x .y .z .w).
      size_t Component = StringRef::npos;
      if (Tok.is(Token::Directive) && Tok.Text.data() == Name.end() &&
          Tok.Text.size() == 2) {
        Component = StringRef("xyzw").find(Tok.Text[1]);
        if (Component == StringRef::npos)
          Component = StringRef("rgba").find(Tok.Text[1]);
      }
      if (Component != StringRef::npos) {
        Op.Component = "xyzw"[Component];
        next();
      } else if (Tok.is(Token::Directive) && Tok.Text.data() == Name.end()) {
        // %r1.b0, %r1.h10, %r1.b7654: a video instruction's selector.
        if (std::optional<VideoSelector> Sel = VideoSelector::parse(Tok.Text)) {
          Op.Selector = *Sel;
          next();
        }
      }
      if (Tok.is(Token::Pipe))
        return MaybePair();
      // %r1+4 outside brackets: ptxas reads the sum.
      return parseOffset(Op.Value);
    }
  }
  default:
    return expected("an operand");
  }
}

// [%rd1], [%rd1+8], [%rd1+-8], [var], [var+8], [4096], and the textures'
// and surfaces' [%rd1, {%f1, %f2}] or [tex, smp, {%f1, %f2}], whose
// coordinates become the next operand.
bool Parser::parseAddress(Operand &Op) {
  next(); // '['
  Op.Kind = Operand::Address;
  if (Tok.is(Token::Identifier)) {
    Op.Name = Tok.Text;
    Op.BaseIsRegister = Tok.Text[0] == '%';
    next();
    if (!parseOffset(Op.Value))
      return false;
    if (Tok.is(Token::Comma) && !PendingCoordinates) {
      next();
      // [tex, smp, {...}]: independent texturing mode's explicit sampler.
      if (Tok.is(Token::Identifier)) {
        Op.setSampler(Tok.Text, Alloc);
        next();
        if (!expect(Token::Comma, "','"))
          return false;
      }
      if (!Tok.is(Token::LBrace))
        return expected("texture coordinates {...}");
      Operand Coords;
      Coords.Loc = Tok.getLoc();
      if (!parseOperand(Coords, 1))
        return false;
      Coords.InAddress = true;
      PendingCoordinates = Coords;
    }
  } else if (!parseInt(Op.Value, "an address")) {
    return false;
  }
  return expect(Token::RBracket, "']'");
}

namespace {
/// What parses bodies on one thread.
struct BodyWorker {
  BodyWorker(Module &M)
      : Alloc(std::make_unique<BumpPtrAllocator>()),
        Diags(DiagnosticEngine::counting(M.getSourceMgr())),
        P(M, Diags, *Alloc, M.getSourceText()) {}
  std::unique_ptr<BumpPtrAllocator> Alloc;
  DiagnosticEngine Diags;
  Parser P;
};
} // namespace

/// Set in the child of a fork() after LLVM's thread pool was started: the
/// pool's threads do not come along, and work handed to it would wait for
/// them forever.
static std::atomic<bool> InForkedChild{false};

/// Before each use of the thread pool.
static void watchForForks() {
  static const bool Registered = [] {
    pthread_atfork(nullptr, nullptr, [] { InForkedChild = true; });
    return true;
  }();
  (void)Registered;
}

bool ptxjit::ptx::parseModuleInParallel(Module &M) {
  watchForForks();
  if (InForkedChild)
    return false;
  DiagnosticEngine Quiet = DiagnosticEngine::counting(M.getSourceMgr());
  std::vector<std::pair<unsigned, StringRef>> Bodies;
  Parser Top(M, Quiet);
  Top.deferBodiesTo(Bodies);
  if (!Top.parse() || Quiet.getNumReported())
    return false;
  std::vector<std::unique_ptr<BodyWorker>> Workers(parallel::getThreadCount());
  std::atomic<bool> Failed{false};
  parallelFor(0, Bodies.size(), [&](size_t I) {
    if (Failed.load(std::memory_order_relaxed))
      return;
    std::unique_ptr<BodyWorker> &W = Workers[parallel::getThreadIndex()];
    if (!W)
      W = std::make_unique<BodyWorker>(M);
    auto [Index, Text] = Bodies[I];
    if (!W->P.parseDeferredBody(M.Functions[Index], Text) ||
        W->Diags.getNumReported())
      Failed.store(true, std::memory_order_relaxed);
  });
  for (std::unique_ptr<BodyWorker> &W : Workers)
    if (W)
      M.adoptAllocator(std::move(W->Alloc));
  return !Failed;
}

bool ptxjit::ptx::isParallelFrontEnd(size_t SourceBytes) {
  StringRef Mode;
  if (const char *V = std::getenv("PTXJIT_PARALLEL_FRONTEND"))
    Mode = V;
  if (Mode == "off" || (Mode != "on" && SourceBytes < ParallelFrontEndBytes) ||
      InForkedChild)
    return false;
  // Not parallel::getThreadCount(): that starts the threads.
  if (parallel::strategy.compute_thread_count() < 2)
    return false;
  watchForForks();
  return true;
}

bool ptxjit::ptx::parseModule(Module &M, DiagnosticEngine &Diags) {
  if (isParallelFrontEnd(M.getSourceText().size())) {
    if (parseModuleInParallel(M))
      return true;
    M.clearContents();
  }
  unsigned Before = Diags.getNumErrors();
  Parser P(M, Diags);
  bool OK = P.parse();
  return OK && Diags.getNumErrors() == Before;
}
