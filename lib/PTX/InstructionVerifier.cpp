//===- InstructionVerifier.cpp - Operands and types of PTX instructions ---===//
//
// Each instruction's operands are matched against its shapes in Opcodes.def
// (the alternative is chosen by the operand count), then each operand is
// checked for its kind (register, literal, address, label, vector, ...) and
// for its type by the rules in TypeRules.h.
//
// Instructions ptx-jit cannot run yet (OpUnsupported) are
// verified like any other and not reported here: the front end represents
// them fully, so `check` accepts every valid module, and whether an
// instruction can be lowered is IRGen's question to answer.
//
//===----------------------------------------------------------------------===//

#include "VerifierImpl.h"
#include "ptxjit/PTX/InstructionRules.h"
#include "ptxjit/PTX/MatrixRules.h"
#include "ptxjit/PTX/TextureRefs.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace ptxjit::ptx;

/// The shape alternatives of an opcode with the commas removed:
/// "d,a,a|d,a,a,a" becomes {"daa", "daaa"}.
static ArrayRef<std::string> getShapes(Opcode Op) {
  static const std::vector<SmallVector<std::string, 4>> Table = [] {
    std::vector<SmallVector<std::string, 4>> T(getNumOpcodes());
    for (unsigned I = 0; I != T.size(); ++I) {
      SmallVector<StringRef, 4> Alternatives;
      getOpcodeInfo(static_cast<Opcode>(I)).Shapes.split(Alternatives, '|');
      for (StringRef A : Alternatives) {
        std::string Letters;
        for (char C : A)
          if (C != ',')
            Letters += C;
        T[I].push_back(std::move(Letters));
      }
    }
    return T;
  }();
  return Table[static_cast<unsigned>(Op)];
}

/// "2", "2 or 3", "0, 3 or 4".
static std::string describeCounts(ArrayRef<unsigned> Counts) {
  std::string S;
  for (unsigned I = 0, E = Counts.size(); I != E; ++I) {
    if (I)
      S += I + 1 == E ? " or " : ", ";
    S += utostr(Counts[I]);
  }
  return S;
}

static SmallVector<unsigned, 4> getOperandCounts(Opcode Op) {
  SmallVector<unsigned, 4> Counts;
  for (const std::string &S : getShapes(Op))
    Counts.push_back(S.size());
  llvm::sort(Counts);
  Counts.erase(std::unique(Counts.begin(), Counts.end()), Counts.end());
  return Counts;
}

static std::string describeTypeCounts(unsigned Min, unsigned Max) {
  SmallVector<unsigned, 4> Counts;
  if (Max > Min + 1)
    return utostr(Min) + " to " + utostr(Max);
  for (unsigned N = Min; N <= Max; ++N)
    Counts.push_back(N);
  return describeCounts(Counts);
}

/// The opcode with its suffixes as written in the source.
static StringRef getOpcodeText(const Instruction &I, StringRef Buffer) {
  const char *Begin = I.Loc.getPointer();
  if (!Begin || Begin < Buffer.begin() || Begin >= Buffer.end())
    return getSpelling(I.Op);
  const char *End = Begin;
  while (End != Buffer.end() && !isSpace(*End) && *End != ';' && *End != '{' &&
         *End != '[')
    ++End;
  return StringRef(Begin, End - Begin);
}

/// The surface instructions write their data in braces even unvectorized:
/// suld.b.2d.b32.trap {%r1}, [%rd1, {%r2, %r3}].
static bool isSurfaceAccess(Opcode Op) {
  return Op == Opcode::Suld || Op == Opcode::Sust;
}

/// ld, st, cvt and the surface accesses let a register be wider than the
/// instruction type.
static bool hasRelaxedTypes(Opcode Op) {
  return Op == Opcode::Ld || Op == Opcode::Ldu || Op == Opcode::St ||
         Op == Opcode::Cvt || isSurfaceAccess(Op);
}

/// Instructions whose .v2/.v4/.v8 make their data operands vectors.
static bool hasVectorData(Opcode Op) {
  return Op == Opcode::Ld || Op == Opcode::Ldu || Op == Opcode::St ||
         Op == Opcode::Mov || Op == Opcode::Atom || Op == Opcode::Red ||
         Op == Opcode::Tex || Op == Opcode::Tld4 || Op == Opcode::StAsync ||
         Op == Opcode::MultimemLdReduce || Op == Opcode::MultimemSt ||
         Op == Opcode::MultimemRed || isSurfaceAccess(Op);
}

/// Instructions whose destination may be a pair `d|p`.
static bool allowsPredPair(Opcode Op) {
  return Op == Opcode::Setp || Op == Opcode::Shfl || Op == Opcode::Match ||
         Op == Opcode::Elect;
}

static bool isAddressSized(ScalarType T) {
  unsigned Bits = getBitWidth(T);
  return isInteger(T) && (Bits == 32 || Bits == 64);
}

/// The type an operand with this shape letter must have.
static ScalarType getExpectedType(const Instruction &I, unsigned Idx,
                                  char Letter) {
  ScalarType T0 = I.getType(0);
  switch (Letter) {
  case 'd':
  case 'a':
    // mul.wide writes, and mad.wide also adds, twice the source width.
    if ((I.Op == Opcode::Mul || I.Op == Opcode::Mad) &&
        I.hasModifier(Modifier::Wide) &&
        (Letter == 'd' || (I.Op == Opcode::Mad && Idx == 3)))
      return getWideType(T0);
    return T0;
  case 'b':
    return I.getType(1);
  case 'w':
    return getWideType(T0);
  case 'r':
  case 'u':
  case 'v':
  case 'e':
  case 'h':
  case 'q':
  case 'k':
    return ScalarType::U32;
  case 'p':
    return ScalarType::Pred;
  default:
    return ScalarType::None;
  }
}

/// The shape alternative with as many operands as I has. Where several have
/// (wmma.load d, [a], s and wmma.store [a], s, t), the one whose memory
/// operands are where I's addresses are.
static const std::string *selectShape(const Instruction &I) {
  const std::string *First = nullptr;
  for (const std::string &S : getShapes(I.Op)) {
    if (S.size() != I.Operands.size())
      continue;
    if (!First)
      First = &S;
    bool AddressesFit = true;
    for (size_t K = 0; K != S.size(); ++K)
      if (S[K] == 'm' && I.Operands[K].Kind != Operand::Address)
        AddressesFit = false;
    if (AddressesFit)
      return &S;
  }
  return First;
}

void FunctionVerifier::verifyInstruction(const Instruction &I) {
  InstCtx C{I, getOpcodeText(I, Source)};
  if (!I.GuardPredicate.empty())
    checkGuard(I);

  const OpcodeInfo &Info = getOpcodeInfo(I.Op);
  unsigned NumTypes = I.Types.size();
  if (NumTypes < Info.MinTypes || NumTypes > Info.MaxTypes) {
    Diags.report(I.Loc, DiagID::err_type_count, C.Text,
                 describeTypeCounts(Info.MinTypes, Info.MaxTypes),
                 Info.MaxTypes == 1 ? "type suffix" : "type suffixes",
                 NumTypes);
    // Types would be checked against the wrong suffixes; names still count.
    for (const Operand &Op : I.Operands)
      checkNames(Op);
    return;
  }
  // The carry and .wide rules say more than "illegal type"; where they
  // report, the table's type check would repeat them.
  checkTypesAndModifiers(C, /*CheckTypes=*/!checkModifierTypes(C));

  if (I.Op == Opcode::Call)
    return verifyCall(C);

  const std::string *Shape = selectShape(I);
  if (!Shape) {
    SmallVector<unsigned, 4> Counts = getOperandCounts(I.Op);
    Diags.report(
        I.Loc, DiagID::err_operand_count, C.Text, describeCounts(Counts),
        Counts.back() == 1 ? "operand" : "operands", I.Operands.size());
    for (const Operand &Op : I.Operands)
      checkNames(Op);
    return;
  }
  if (isMatrixOpcode(I.Op))
    return verifyMatrix(C, *Shape);
  // atom's shapes have no place for a cache policy: the cache rules check
  // it.
  unsigned Policy = I.Op == Opcode::Atom ? getCachePolicyOperand(I) : ~0u;
  for (unsigned Idx = 0, E = I.Operands.size(); Idx != E; ++Idx)
    verifyOperand(C, Idx, Idx == Policy ? 'x' : (*Shape)[Idx]);
  if (isVideoShape(*Shape))
    checkVideoInstruction(C);
  if (I.Op == Opcode::CvtPack)
    checkCvtPack(C);
  checkAsyncRules(I, C.Text);
  checkCacheRules(I, C.Text);
  checkMemoryRules(I, C.Text);
}

void FunctionVerifier::verifyMatrix(const InstCtx &C, StringRef Shape) {
  const Instruction &I = C.I;
  MatrixForm F;
  std::string Problem;
  SMLoc ProblemLoc = I.Loc;
  if (!decodeMatrixForm(I, F, Problem, &ProblemLoc)) {
    Diags.report(ProblemLoc, DiagID::err_matrix_form, C.Text, Problem);
    for (const Operand &Op : I.Operands)
      checkNames(Op);
    return;
  }
  if (F.Sparse)
    checkSparseMetadata(C, F);
  for (unsigned Idx = 0, E = I.Operands.size(); Idx != E; ++Idx) {
    std::optional<MatrixRole> Role;
    for (MatrixRole R :
         {MatrixRole::A, MatrixRole::B, MatrixRole::C, MatrixRole::D})
      if (getFragmentOperand(F, R) == int(Idx))
        Role = R;
    if (!Role) {
      bool Descriptor =
          F.Kind == MatrixForm::Wgmma &&
          (Idx == WgmmaBDescriptorOperand || (Idx == 1 && F.ADescriptor));
      if (Descriptor)
        checkScalar(C, Idx + 1, I.Operands[Idx], ScalarType::B64,
                    /*IsDest=*/false, /*Relaxed=*/true,
                    /*AllowAddressOf=*/false);
      else
        verifyOperand(C, Idx, Shape[Idx]);
      continue;
    }
    const Operand &Op = I.Operands[Idx];
    FragmentShape FS = getFragmentShape(F, *Role);
    bool IsDest = Shape[Idx] == 'd';
    // movmatrix moves one register; the others take braces, which may be
    // left off a single register.
    bool Braced = Op.Kind == Operand::Vector;
    bool Fits = F.Kind == MatrixForm::Movmatrix ? !Braced
                : Braced ? Op.Elements.size() == FS.NumRegisters
                         : FS.NumRegisters == 1;
    if (!Fits) {
      std::string Want =
          F.Kind == MatrixForm::Movmatrix
              ? "a .b32 register"
              : ("a vector of " + Twine(FS.NumRegisters) + " " +
                 getSpelling(FS.RegisterType) +
                 (FS.NumRegisters == 1 ? " register" : " registers"))
                    .str();
      C.kind(Diags, Op, Idx + 1, Want);
      checkNames(Op);
      continue;
    }
    if (!Braced) {
      checkScalar(C, Idx + 1, Op, FS.RegisterType, IsDest, /*Relaxed=*/false,
                  /*AllowAddressOf=*/false);
      continue;
    }
    for (const Operand &E : Op.Elements)
      checkScalar(C, Idx + 1, E, FS.RegisterType, IsDest, /*Relaxed=*/false,
                  /*AllowAddressOf=*/false);
  }
}

void FunctionVerifier::checkSparseMetadata(const InstCtx &C,
                                           const MatrixForm &F) {
  // A constant metadata gives every lane the same register, and every
  // 4-bit field of it is read (by one lane or another).
  const Operand &E = C.I.Operands[SparseMetadataOperand];
  if (E.Kind != Operand::IntImm)
    return;
  for (unsigned K = 0; K != 8; ++K) {
    unsigned Field = uint32_t(E.Value) >> (4 * K) & 0xf;
    const char *Why;
    if (isDefinedSparseMetadataField(F, Field, &Why))
      continue;
    std::string Bits = "0b";
    for (int B = 3; B >= 0; --B)
      Bits += char('0' + (Field >> B & 1));
    Diags.report(E.Loc, DiagID::warn_sparse_metadata, C.Text,
                 formatv("{0:x}", uint32_t(E.Value)).str(), K, Bits, Why);
    return;
  }
}

/// Where the suffix Spelling (".f32", ".rn") is written in the opcode text,
/// or the instruction's location if it cannot be found there.
static SMLoc getSuffixLoc(const Instruction &I, StringRef Text,
                          StringRef Spelling) {
  if (Text.data() != I.Loc.getPointer())
    return I.Loc;
  size_t From = getSpelling(I.Op).size();
  while ((From = Text.find(Spelling, From)) != StringRef::npos) {
    size_t End = From + Spelling.size();
    if (End == Text.size() || Text[End] == '.')
      return SMLoc::getFromPointer(Text.data() + From);
    From = End;
  }
  return I.Loc;
}

void FunctionVerifier::checkTypesAndModifiers(const InstCtx &C,
                                              bool CheckTypes) {
  const Instruction &I = C.I;
  for (unsigned Pos = 0, E = CheckTypes ? I.Types.size() : 0; Pos != E; ++Pos) {
    ScalarType T = I.Types[Pos];
    if (!isLegalType(I.Op, Pos, T))
      Diags.report(getSuffixLoc(I, C.Text, getSpelling(T)),
                   DiagID::err_illegal_type, C.Text, getSpelling(T),
                   describeLegalTypes(I.Op, Pos));
  }
  SmallVector<ModifierIssue, 4> Issues;
  checkModifiers(I, Issues);
  for (const ModifierIssue &MI : Issues) {
    StringRef Mod = getSpelling(MI.Mod);
    SMLoc Loc = getSuffixLoc(I, C.Text, Mod);
    switch (MI.Kind) {
    case ModifierIssue::Illegal:
      Diags.report(Loc, DiagID::err_illegal_modifier, C.Text, Mod);
      break;
    case ModifierIssue::Conflict:
      if (MI.Other == MI.Mod)
        Diags.report(Loc, DiagID::err_modifier_repeated, C.Text, Mod);
      else
        Diags.report(Loc, DiagID::err_modifier_conflict, C.Text, Mod,
                     getSpelling(MI.Other));
      break;
    case ModifierIssue::NeedsContext:
      Diags.report(Loc, DiagID::err_modifier_context, C.Text, Mod, MI.Detail);
      break;
    case ModifierIssue::NeedsType:
      Diags.report(Loc, DiagID::err_modifier_type, C.Text, Mod,
                   StringRef(MI.Detail).starts_with(".") ? "type " + MI.Detail
                                                         : MI.Detail);
      break;
    case ModifierIssue::Missing:
      Diags.report(I.Loc, DiagID::err_missing_modifier, C.Text,
                   StringRef(MI.Detail).contains(' ') ? "one of " + MI.Detail
                                                      : MI.Detail);
      break;
    }
  }
}

bool FunctionVerifier::checkModifierTypes(const InstCtx &C) {
  const Instruction &I = C.I;
  ScalarType T = I.getType(0);
  TypeKind K = getTypeKind(T);
  bool IsInt = T != ScalarType::None &&
               (K == TypeKind::Signed || K == TypeKind::Unsigned) &&
               !getPackedIntegerParts(T);
  bool SetsCarry =
      (I.Op == Opcode::Add || I.Op == Opcode::Sub || I.Op == Opcode::Mad) &&
      I.hasModifier(Modifier::Cc);
  bool UsesCarry =
      I.Op == Opcode::AddC || I.Op == Opcode::SubC || I.Op == Opcode::MadC;
  bool Reported = false;
  if ((SetsCarry || UsesCarry) &&
      !(IsInt && (getBitWidth(T) == 32 || getBitWidth(T) == 64))) {
    Diags.report(I.Loc, DiagID::err_carry_type, C.Text);
    Reported = true;
  }
  if ((I.Op == Opcode::Mul || I.Op == Opcode::Mad) &&
      I.hasModifier(Modifier::Wide) &&
      !(IsInt && getWideType(T) != ScalarType::None)) {
    Diags.report(I.Loc, DiagID::err_wide_type, C.Text);
    Reported = true;
  }
  return Reported;
}

void FunctionVerifier::verifyOperand(const InstCtx &C, unsigned Idx,
                                     char Letter) {
  const Instruction &I = C.I;
  const Operand &Op = I.Operands[Idx];
  unsigned OpNo = Idx + 1;
  switch (Letter) {
  case 'm':
    return checkAddress(C, OpNo, Op);
  case 'l':
    return checkLabelOperand(C, OpNo, Op);
  case 'x':
    return checkNames(Op);
  case 'c':
    return checkCoordinates(C, OpNo, Op);
  case 's':
    if (Op.Kind != Operand::Symbol)
      return C.kind(Diags, Op, OpNo, "a variable or function name");
    return checkNames(Op);
  default:
    break;
  }

  bool IsDest = Letter == 'd' || Letter == 'r' || Letter == 'w' ||
                Letter == 'e' ||
                ((Letter == 'p' || Letter == 'h' || Letter == 'q') && Idx == 0);
  checkVideoOperand(C, Idx, Letter);
  ScalarType Ty = getExpectedType(I, Idx, Letter);
  bool Relaxed = hasRelaxedTypes(I.Op) &&
                 (Letter == 'd' || Letter == 'a' || Letter == 'b');
  bool VectorData = hasVectorData(I.Op) &&
                    (I.VectorWidth > 1 ||
                     (isSurfaceAccess(I.Op) && Op.Kind == Operand::Vector)) &&
                    (Letter == 'd' || Letter == 'a');
  if (VectorData || Op.Kind == Operand::Vector)
    return checkVector(C, OpNo, Op, Ty, IsDest, Relaxed);
  if (Op.Kind == Operand::PredPair) {
    if (IsDest && Idx == 0 && allowsPredPair(I.Op))
      return checkPredPair(C, OpNo, Op, Ty);
    C.kind(Diags, Op, OpNo, "a single register, not a pair");
    return checkNames(Op);
  }
  bool AllowAddressOf = (I.Op == Opcode::Mov || I.Op == Opcode::Cvta ||
                         I.Op == Opcode::Mapa || I.Op == Opcode::Getctarank) &&
                        Letter == 'a';
  checkScalar(C, OpNo, Op, Ty, IsDest, Relaxed, AllowAddressOf);
}

void FunctionVerifier::checkScalar(const InstCtx &C, unsigned OpNo,
                                   const Operand &Op, ScalarType Ty,
                                   bool IsDest, bool Relaxed,
                                   bool AllowAddressOf) {
  StringRef Want = IsDest ? "a register" : "a register or a literal";
  auto CheckLiteral = [&](LiteralKind L, StringRef What) {
    if (IsDest)
      return C.kind(Diags, Op, OpNo, Want);
    if (!immediateFits(L, Ty))
      Diags.report(Op.Loc, DiagID::err_literal_type, OpNo, C.Text, What,
                   getSpelling(Ty));
  };

  switch (Op.Kind) {
  case Operand::Sink:
    if (!IsDest)
      C.kind(Diags, Op, OpNo, Want);
    return;
  case Operand::IntImm:
    return CheckLiteral(LiteralKind::Integer, "an integer literal");
  case Operand::FloatImm:
    return CheckLiteral(LiteralKind::Float32, "an .f32 literal");
  case Operand::DoubleImm:
    return CheckLiteral(LiteralKind::Float64, "an .f64 literal");
  case Operand::Vector:
  case Operand::PredPair:
  case Operand::Address:
    C.kind(Diags, Op, OpNo, Want);
    return checkNames(Op);
  case Operand::Register:
  case Operand::Symbol:
    break;
  }

  // !%p is a predicate source; anywhere else it is meaningless.
  if (Op.Negated && (IsDest || Ty != ScalarType::Pred))
    Diags.report(Op.Loc, DiagID::err_negated_operand, OpNo, C.Text);

  NameRef R = resolve(Op.Name);
  switch (R.Kind) {
  case NameRef::None:
    return reportUndefined(Op);
  case NameRef::WarpSize:
    return CheckLiteral(LiteralKind::Integer, "an integer literal");
  case NameRef::Variable:
  case NameRef::Function:
    // mov and cvta take the address of a variable or function.
    if (!AllowAddressOf)
      return C.kind(Diags, Op, OpNo, Want);
    if (Ty != ScalarType::None && !isAddressSized(Ty))
      Diags.report(Op.Loc, DiagID::err_literal_type, OpNo, C.Text,
                   ("the address of '" + Op.Name + "'").str(), getSpelling(Ty));
    return;
  case NameRef::Register:
  case NameRef::SpecialReg:
    break;
  }

  if (Op.Component) {
    size_t Lane = StringRef("xyzw").find(Op.Component);
    if (R.VectorWidth == 1 || Lane >= R.VectorWidth)
      return Diags.report(Op.Loc, DiagID::err_no_component, Op.Name,
                          StringRef(&Op.Component, 1));
  } else if (R.VectorWidth != 1) {
    if (R.Kind == NameRef::SpecialReg)
      return Diags.report(Op.Loc, DiagID::err_sreg_component, Op.Name);
    return C.kind(Diags, Op, OpNo, "a scalar register or one component");
  }
  if (IsDest && R.Kind == NameRef::SpecialReg)
    return Diags.report(Op.Loc, DiagID::err_sreg_write, Op.Name);
  if (Ty == ScalarType::None)
    return;
  bool Fits = Relaxed ? typesAgreeRelaxed(Ty, R.Type) : typesAgree(Ty, R.Type);
  if (!Fits)
    Diags.report(Op.Loc, DiagID::err_operand_type, OpNo, C.Text,
                 getSpelling(R.Type), getSpelling(Ty));
}

void FunctionVerifier::checkVector(const InstCtx &C, unsigned OpNo,
                                   const Operand &Op, ScalarType Ty,
                                   bool IsDest, bool Relaxed) {
  const Instruction &I = C.I;
  unsigned Width = I.VectorWidth;
  if (hasVectorData(I.Op) && (Width > 1 || isSurfaceAccess(I.Op))) {
    // A register declared .v4 may stand for the whole vector.
    if ((Op.Kind == Operand::Register || Op.Kind == Operand::Symbol) &&
        !Op.Component) {
      NameRef R = resolve(Op.Name);
      if (R.Kind == NameRef::Register && R.VectorWidth == Width) {
        bool Fits =
            Relaxed ? typesAgreeRelaxed(Ty, R.Type) : typesAgree(Ty, R.Type);
        if (!Fits)
          Diags.report(Op.Loc, DiagID::err_operand_type, OpNo, C.Text,
                       getSpelling(R.Type), getSpelling(Ty));
        return;
      }
    }
    if (Op.Kind != Operand::Vector || Op.Elements.size() != Width) {
      Diags.report(Op.Loc, DiagID::err_vector_width, C.Text, Width);
      return checkNames(Op);
    }
    for (const Operand &E : Op.Elements)
      checkScalar(C, OpNo, E, Ty, IsDest, Relaxed, /*AllowAddressOf=*/false);
    return;
  }

  if (I.Op == Opcode::Mov && I.VectorWidth == 1) {
    // Packing and unpacking: the elements split the instruction type
    // evenly, as in mov.b64 %rd1, {%r1, %r2}.
    unsigned N = Op.Elements.size();
    ScalarType ElemTy = ScalarType::None;
    if (Ty != ScalarType::None) {
      unsigned Bits = getBitWidth(Ty);
      if (N >= 2 && Bits % N == 0 && Ty != ScalarType::Pred)
        ElemTy = getBitType(Bits / N);
      if (ElemTy == ScalarType::None) {
        C.kind(Diags, Op, OpNo,
               "a register, or a vector whose elements split " +
                   getSpelling(Ty) + " evenly");
        return checkNames(Op);
      }
    }
    for (const Operand &E : Op.Elements)
      checkScalar(C, OpNo, E, ElemTy, IsDest, /*Relaxed=*/false,
                  /*AllowAddressOf=*/false);
    return;
  }

  C.kind(Diags, Op, OpNo,
         hasVectorData(I.Op)
             ? "a single register (a vector needs .v2, .v4 or .v8)"
             : (IsDest ? "a register" : "a register or a literal"));
  checkNames(Op);
}

/// How many coordinates a texture or surface geometry takes: 3d and a2d
/// take four (the last unused), a1d and a2d an array index first.
static unsigned getCoordinateCount(const Instruction &I, bool &Layered) {
  Layered =
      I.hasModifier(Modifier::GeomA1D) || I.hasModifier(Modifier::GeomA2D);
  if (I.hasModifier(Modifier::Geom1D))
    return 1;
  if (I.hasModifier(Modifier::Geom2D) || I.hasModifier(Modifier::GeomA1D))
    return 2;
  if (I.hasModifier(Modifier::Geom3D) || I.hasModifier(Modifier::GeomA2D) ||
      I.hasModifier(Modifier::GeomCube) || I.hasModifier(Modifier::GeomACube))
    return 4;
  return 0; // no geometry: reported with the modifiers
}

void FunctionVerifier::checkCoordinates(const InstCtx &C, unsigned OpNo,
                                        const Operand &Op) {
  const Instruction &I = C.I;
  if (Op.Kind != Operand::Vector || !Op.InAddress) {
    C.kind(Diags, Op, OpNo, "coordinates {...} inside the address's brackets");
    return checkNames(Op);
  }
  bool Layered = false;
  unsigned Count = getCoordinateCount(I, Layered);
  if (!Count)
    return checkNames(Op);
  if (Op.Elements.size() != Count) {
    C.kind(Diags, Op, OpNo,
           Twine(Count) + (Count == 1 ? " coordinate" : " coordinates"));
    return checkNames(Op);
  }
  // Surfaces take .b32 coordinates (x in bytes); textures the second type
  // suffix. An array index is a .b32 either way.
  ScalarType CoordTy = I.Op == Opcode::Tex || I.Op == Opcode::Tld4
                           ? I.getType(1)
                           : ScalarType::B32;
  for (unsigned K = 0; K != Count; ++K)
    checkScalar(C, OpNo, Op.Elements[K],
                Layered && K == 0 ? ScalarType::B32 : CoordTy,
                /*IsDest=*/false, /*Relaxed=*/false, /*AllowAddressOf=*/false);
}

void FunctionVerifier::checkPredPair(const InstCtx &C, unsigned OpNo,
                                     const Operand &Op, ScalarType Ty) {
  checkScalar(C, OpNo, Op.Elements[0], Ty, /*IsDest=*/true, false, false);
  checkScalar(C, OpNo, Op.Elements[1], ScalarType::Pred, /*IsDest=*/true, false,
              false);
}

void FunctionVerifier::checkAddress(const InstCtx &C, unsigned OpNo,
                                    const Operand &Op) {
  if (Op.Kind != Operand::Address) {
    C.kind(Diags, Op, OpNo, "a memory address [...]");
    return checkNames(Op);
  }
  if (Op.Name.empty())
    return; // [4096]: an absolute address
  NameRef R = resolve(Op.Name);
  switch (R.Kind) {
  case NameRef::None:
    return reportUndefined(locOf(Op.Name), Op.Name);
  case NameRef::Variable:
    return checkOpaqueAddress(C, Op, R.Decl);
  case NameRef::Register:
  case NameRef::SpecialReg:
    if (!Op.getSampler().empty())
      checkOpaqueAddress(C, Op, nullptr);
    if (R.VectorWidth != 1 || !isAddressSized(R.Type))
      Diags.report(locOf(Op.Name), DiagID::err_operand_type, OpNo, C.Text,
                   getSpelling(R.Type), "an address (.u32 or .u64)");
    return;
  default:
    C.kind(Diags, Op, OpNo, "based on a register or a variable");
    return;
  }
}

/// txq's sampler attributes, which a .samplerref has.
static bool isSamplerQuery(const Instruction &I) {
  return !I.hasModifier(Modifier::Level) &&
         (I.hasModifier(Modifier::FilterMode) ||
          I.hasModifier(Modifier::AddrMode0) ||
          I.hasModifier(Modifier::AddrMode1) ||
          I.hasModifier(Modifier::AddrMode2) ||
          I.hasModifier(Modifier::ForceUnnormalizedCoords));
}

// tex, tld4 and txq name .texref variables (txq also .samplerref), the
// surface instructions .surfref variables; no other instruction names an
// opaque variable. The sampler of [tex, smp, {...}] is a .samplerref.
void FunctionVerifier::checkOpaqueAddress(const InstCtx &C, const Operand &Op,
                                          const VariableDecl *Base) {
  Opcode Code = C.I.Op;
  bool Texture =
      Code == Opcode::Tex || Code == Opcode::Tld4 || Code == Opcode::Txq;
  bool Surface = Code == Opcode::Suld || Code == Opcode::Sust ||
                 Code == Opcode::Sured || Code == Opcode::Suq;
  if (Base && Base->Opaque != OpaqueKind::None) {
    OpaqueKind K = Base->Opaque;
    StringRef Kind = getOpaqueSpelling(K);
    if (!Texture && !Surface)
      Diags.report(locOf(Op.Name), DiagID::err_opaque_use, Op.Name, Kind,
                   "only texture and surface instructions name it");
    else if (Texture && K == OpaqueKind::SamplerRef && Code == Opcode::Txq) {
      if (!isSamplerQuery(C.I))
        Diags.report(locOf(Op.Name), DiagID::err_opaque_use, Op.Name, Kind,
                     "txq of a .samplerref queries .filter_mode, "
                     ".addr_mode_0/1/2 or .force_unnormalized_coords");
    } else if (Texture && K != OpaqueKind::TexRef)
      Diags.report(locOf(Op.Name), DiagID::err_opaque_use, Op.Name, Kind,
                   "tex, tld4 and txq read a .texref");
    else if (Surface && K != OpaqueKind::SurfRef)
      Diags.report(locOf(Op.Name), DiagID::err_opaque_use, Op.Name, Kind,
                   "surface instructions access a .surfref");
  }
  StringRef Sampler = Op.getSampler();
  if (Sampler.empty())
    return;
  if (Code != Opcode::Tex && Code != Opcode::Tld4) {
    C.kind(Diags, Op, 0, "an address without a sampler");
    return;
  }
  NameRef S = resolve(Sampler);
  if (S.Kind == NameRef::None)
    return reportUndefined(locOf(Sampler), Sampler);
  if (S.Kind != NameRef::Variable || !S.Decl ||
      S.Decl->Opaque != OpaqueKind::SamplerRef)
    Diags.report(locOf(Sampler), DiagID::err_opaque_use, Sampler,
                 S.Decl && S.Decl->Opaque != OpaqueKind::None
                     ? getOpaqueSpelling(S.Decl->Opaque)
                     : StringRef("not a .samplerref"),
                 "the sampler of [texture, sampler, {...}] is a .samplerref");
}

void FunctionVerifier::checkLabelOperand(const InstCtx &C, unsigned OpNo,
                                         const Operand &Op) {
  bool IsTable = C.I.Op == Opcode::BrxIdx;
  StringRef Want = IsTable ? "a .branchtargets label" : "a label";
  if (Op.Kind != Operand::Symbol || Op.Value != 0) {
    C.kind(Diags, Op, OpNo, Want);
    return checkNames(Op);
  }
  const Statement *L = findLabel(Op.Name);
  if (!L)
    return Diags.report(Op.Loc, DiagID::err_undefined_label, Op.Name);
  if (L->Kind != (IsTable ? Statement::BranchTargets : Statement::Label)) {
    C.kind(Diags, Op, OpNo, Want);
    Diags.report(L->getLoc(), DiagID::note_declared_here);
  }
}

void FunctionVerifier::checkNames(const Operand &Op) {
  switch (Op.Kind) {
  case Operand::Register:
  case Operand::Symbol:
    if (resolve(Op.Name).Kind == NameRef::None && !findLabel(Op.Name))
      reportUndefined(Op);
    return;
  case Operand::Address:
    if (!Op.Name.empty() && resolve(Op.Name).Kind == NameRef::None)
      reportUndefined(locOf(Op.Name), Op.Name);
    return;
  case Operand::Vector:
  case Operand::PredPair:
    for (const Operand &E : Op.Elements)
      checkNames(E);
    return;
  default:
    return;
  }
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

void FunctionVerifier::verifyCall(const InstCtx &C) {
  const Instruction &I = C.I;
  ArrayRef<Operand> Ops = I.Operands;
  unsigned NumReturns = I.NumCallReturns, NumArgs = I.NumCallArgs;
  if (NumReturns + 1 + NumArgs + I.HasCallPrototype != Ops.size()) {
    for (const Operand &Op : Ops)
      checkNames(Op);
    return;
  }
  for (unsigned K = 0; K != NumReturns; ++K)
    checkCallParam(C, K + 1, Ops[K], /*IsReturn=*/true);
  for (unsigned K = 0; K != NumArgs; ++K)
    checkCallParam(C, NumReturns + 2 + K, Ops[NumReturns + 1 + K],
                   /*IsReturn=*/false);

  const Operand &Callee = Ops[NumReturns];
  unsigned CalleeNo = NumReturns + 1;
  if (Callee.Kind != Operand::Register && Callee.Kind != Operand::Symbol)
    return C.kind(Diags, Callee, CalleeNo, "a function or a register");
  NameRef R = resolve(Callee.Name);
  switch (R.Kind) {
  case NameRef::None:
    if (Callee.Kind == Operand::Register)
      return reportUndefined(Callee);
    return Diags.report(Callee.Loc, DiagID::err_undefined_function,
                        Callee.Name);
  case NameRef::Function:
    if (R.Func->IsEntry)
      return Diags.report(Callee.Loc, DiagID::err_call_kernel, Callee.Name);
    checkCallArity(Callee, Callee.Name, NumReturns, NumArgs, R.Func->Returns,
                   R.Func->Params, locOf(R.Func->Name));
    return checkCallSizes(Ops, NumReturns, Callee.Name, R.Func->Returns,
                          R.Func->Params);
  case NameRef::Register:
    break;
  default:
    return Diags.report(Callee.Loc, DiagID::err_not_a_function, Callee.Name);
  }

  // An indirect call: the register holds a function's address, and the
  // prototype gives the signature.
  ScalarType AddrTy = M.AddressSize == 32 ? ScalarType::U32 : ScalarType::U64;
  if (R.VectorWidth != 1 || !typesAgree(AddrTy, R.Type))
    Diags.report(Callee.Loc, DiagID::err_operand_type, CalleeNo, C.Text,
                 getSpelling(R.Type), getSpelling(AddrTy));
  if (!I.HasCallPrototype)
    return Diags.report(Callee.Loc, DiagID::err_indirect_call_prototype,
                        Callee.Name);
  const Operand &Proto = Ops.back();
  unsigned ProtoNo = Ops.size();
  if (Proto.Kind != Operand::Symbol)
    return C.kind(Diags, Proto, ProtoNo, "a .callprototype label");
  const Statement *L = findLabel(Proto.Name);
  if (!L)
    return Diags.report(Proto.Loc, DiagID::err_undefined_label, Proto.Name);
  if (L->Kind != Statement::Prototype) {
    C.kind(Diags, Proto, ProtoNo, "a .callprototype label");
    return Diags.report(L->getLoc(), DiagID::note_declared_here);
  }
  const CallPrototype &P = F.Prototypes[L->Index];
  checkCallArity(Callee, Callee.Name, NumReturns, NumArgs, P.Returns, P.Params,
                 L->getLoc());
  checkCallSizes(Ops, NumReturns, Callee.Name, P.Returns, P.Params);
}

void FunctionVerifier::checkCallSizes(ArrayRef<Operand> Ops,
                                      unsigned NumReturns, StringRef Name,
                                      const std::vector<VariableDecl> &Returns,
                                      const std::vector<VariableDecl> &Params) {
  if (Returns.size() != NumReturns ||
      Ops.size() < NumReturns + 1 + Params.size())
    return;
  auto Check = [&](const Operand &Op, const VariableDecl &D, bool IsReturn) {
    if (Op.Kind != Operand::Register && Op.Kind != Operand::Symbol)
      return; // literals take the parameter's type
    NameRef R = resolve(Op.Name);
    uint64_t Size;
    if (R.Kind == NameRef::Register && R.Type != ScalarType::Pred &&
        D.Type != ScalarType::Pred)
      Size = getBitWidth(R.Type) / 8 * R.VectorWidth;
    else if (R.Kind == NameRef::Variable && R.Decl->Space == StateSpace::Param)
      Size = R.Decl->getSizeInBytes();
    else
      return;
    uint64_t Want = D.getSizeInBytes();
    if (Size != Want)
      Diags.report(Op.Loc, DiagID::err_call_argument_size,
                   IsReturn ? "return value" : "argument", Op.Name, Name, Size,
                   D.Name, Want);
  };
  for (unsigned K = 0; K != NumReturns; ++K)
    Check(Ops[K], Returns[K], /*IsReturn=*/true);
  for (unsigned K = 0; K != Params.size(); ++K)
    Check(Ops[NumReturns + 1 + K], Params[K], /*IsReturn=*/false);
}

void FunctionVerifier::checkCallParam(const InstCtx &C, unsigned OpNo,
                                      const Operand &Op, bool IsReturn) {
  StringRef Want = IsReturn ? "a .param variable or a register"
                            : "a .param variable, a register or a literal";
  switch (Op.Kind) {
  case Operand::Register:
  case Operand::Symbol: {
    NameRef R = resolve(Op.Name);
    if (R.Kind == NameRef::None)
      return reportUndefined(Op);
    if (R.Kind == NameRef::Register ||
        (R.Kind == NameRef::Variable && R.Decl->Space == StateSpace::Param) ||
        (!IsReturn && R.Kind == NameRef::WarpSize))
      return;
    return C.kind(Diags, Op, OpNo, Want);
  }
  case Operand::IntImm:
  case Operand::FloatImm:
  case Operand::DoubleImm:
    if (IsReturn)
      C.kind(Diags, Op, OpNo, Want);
    return;
  default:
    C.kind(Diags, Op, OpNo, Want);
    return checkNames(Op);
  }
}

void FunctionVerifier::checkCallArity(const Operand &Callee, StringRef Name,
                                      unsigned NumReturns, unsigned NumArgs,
                                      const std::vector<VariableDecl> &Returns,
                                      const std::vector<VariableDecl> &Params,
                                      SMLoc DeclLoc) {
  bool Mismatch = false;
  if (NumReturns != Returns.size()) {
    Diags.report(Callee.Loc, DiagID::err_call_arity, Name, NumReturns,
                 NumReturns == 1 ? "return value" : "return values",
                 Returns.size());
    Mismatch = true;
  }
  if (NumArgs != Params.size()) {
    Diags.report(Callee.Loc, DiagID::err_call_arity, Name, NumArgs,
                 NumArgs == 1 ? "argument" : "arguments", Params.size());
    Mismatch = true;
  }
  if (Mismatch)
    Diags.report(DeclLoc, DiagID::note_declared_here);
}
