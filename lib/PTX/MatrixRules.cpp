//===- MatrixRules.cpp - The forms of the warp-level matrix instructions --===//
//
// The syntax and type restrictions of mma (section "Multiply-and-Accumulate
// Instruction: mma"), wmma.load, wmma.store and wmma.mma ("Warp-level
// Matrix ... Instruction: wmma.*"), ldmatrix, stmatrix and movmatrix, and
// the fragment sizes of "Matrix Fragments for WMMA" and "Matrix Fragments
// for mma.*".
//
//===----------------------------------------------------------------------===//

#include "ptxjit/PTX/MatrixRules.h"
#include "ptxjit/PTX/AST.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;
using namespace ptxjit::ptx;

ScalarType MatrixForm::getType(MatrixRole R) const {
  switch (R) {
  case MatrixRole::A:
    return AType;
  case MatrixRole::B:
    return BType;
  case MatrixRole::C:
    return CType;
  case MatrixRole::D:
    return DType;
  }
  return ScalarType::None;
}

bool ptxjit::ptx::isMatrixOpcode(Opcode Op) {
  switch (Op) {
  case Opcode::Mma:
  case Opcode::MmaSp:
  case Opcode::MmaSpOrderedMetadata:
  case Opcode::WmmaLoad:
  case Opcode::WmmaStore:
  case Opcode::WmmaMma:
  case Opcode::Ldmatrix:
  case Opcode::Stmatrix:
  case Opcode::Movmatrix:
  case Opcode::WgmmaMmaAsync:
    return true;
  default:
    return false;
  }
}

namespace {

struct Shape {
  Modifier Mod;
  unsigned M, N, K;
};

const Shape Shapes[] = {
    {Modifier::M8n8k4, 8, 8, 4},       {Modifier::M8n8k16, 8, 8, 16},
    {Modifier::M8n8k32, 8, 8, 32},     {Modifier::M8n8k128, 8, 8, 128},
    {Modifier::M16n8k4, 16, 8, 4},     {Modifier::M16n8k8, 16, 8, 8},
    {Modifier::M16n8k16, 16, 8, 16},   {Modifier::M16n8k32, 16, 8, 32},
    {Modifier::M16n8k64, 16, 8, 64},   {Modifier::M16n8k128, 16, 8, 128},
    {Modifier::M16n8k256, 16, 8, 256}, {Modifier::M16n16k16, 16, 16, 16},
    {Modifier::M32n8k16, 32, 8, 16},   {Modifier::M8n32k16, 8, 32, 16},
    {Modifier::M16n16k8, 16, 16, 8},   {Modifier::M8n8, 8, 8, 0},
    {Modifier::M16n8, 16, 8, 0},       {Modifier::M16n16, 16, 16, 0},
    {Modifier::M8n16, 8, 16, 0},
};

/// The suffixes of a matrix instruction, sorted by what they say.
struct Suffixes {
  bool Sync = false, Aligned = false, Trans = false, Satfinite = false;
  bool Popc = false;
  const Shape *Sh = nullptr;
  SmallVector<bool, 2> Layouts; ///< .row (true) / .col, in order
  std::optional<MatrixRole> Role;
  MatrixForm::BitOpTy BitOp = MatrixForm::NoBitOp;
  std::optional<Modifier> Rounding;
  unsigned Num = 0; ///< .x1 .x2 .x4
  unsigned WgmmaN = 0, WgmmaK = 0; ///< wgmma's .m64nNkK
};

/// N and K of a wgmma shape modifier (.m64nNkK), or false.
bool parseWgmmaShape(Modifier M, unsigned &N, unsigned &K) {
  StringRef S = getSpelling(M);
  if (!S.consume_front(".m64n"))
    return false;
  size_t KAt = S.find('k');
  return KAt != StringRef::npos && !S.take_front(KAt).getAsInteger(10, N) &&
         !S.drop_front(KAt + 1).getAsInteger(10, K);
}

/// A message naming a type: ".f16".
std::string spell(ScalarType T) { return getSpelling(T).str(); }

bool isShapeOf(const Suffixes &S, unsigned M, unsigned N, unsigned K) {
  return S.Sh && S.Sh->M == M && S.Sh->N == N && S.Sh->K == K;
}

bool isInt8(ScalarType T) { return T == ScalarType::S8 || T == ScalarType::U8; }
bool isInt4(ScalarType T) { return T == ScalarType::S4 || T == ScalarType::U4; }
bool isFloat8(ScalarType T) {
  return T == ScalarType::E4M3 || T == ScalarType::E5M2;
}
bool isHalfOrSingle(ScalarType T) {
  return T == ScalarType::F16 || T == ScalarType::F32;
}

class Decoder {
public:
  Decoder(const Instruction &I, MatrixForm &F, std::string &Problem,
          SMLoc *ProblemLoc)
      : I(I), F(F), Problem(Problem), ProblemLoc(ProblemLoc) {}

  bool run();

private:
  bool fail(const Twine &Msg) {
    Problem = Msg.str();
    return false;
  }
  bool collect();
  bool needSyncAligned();
  bool decodeMma();
  bool decodeMmaSp();
  bool decodeSparsitySelector();
  bool decodeWmmaMma();
  bool decodeWmmaMemory();
  bool decodeLdStMatrix();
  bool decodeMovmatrix();
  bool decodeWgmma();
  bool checkWgmmaTypes();
  /// wgmma's immediate operand Idx: one of the two values it may take.
  bool takeWgmmaImmediate(unsigned Idx, StringRef Name, int64_t False,
                          int64_t True, bool &Flag);
  /// Copies the shape, the four types (d, a, b, c), the layouts and
  /// .satfinite of an mma or mma.sp already checked to have them into F.
  void takeMmaForm();
  /// The multiplicand and accumulator types a wmma shape takes.
  bool checkWmmaTypes(ScalarType AB, ScalarType CD);
  bool checkSpace(bool AllowGlobal);
  /// Rejects each suffix kind in Forbidden that was written.
  bool forbid(bool Cond, StringRef What) {
    return Cond ? fail("does not take " + What) : true;
  }

  const Instruction &I;
  MatrixForm &F;
  std::string &Problem;
  SMLoc *ProblemLoc;
  Suffixes S;
};

bool Decoder::collect() {
  for (Modifier M : I.Modifiers) {
    bool Repeated = false;
    auto Set = [&](bool &Flag) {
      Repeated = Flag;
      Flag = true;
    };
    switch (M) {
    case Modifier::Sync:
      Set(S.Sync);
      break;
    case Modifier::Aligned:
      Set(S.Aligned);
      break;
    case Modifier::Trans:
      Set(S.Trans);
      break;
    case Modifier::Satfinite:
      Set(S.Satfinite);
      break;
    case Modifier::Popc:
      Set(S.Popc);
      break;
    case Modifier::Row:
    case Modifier::Col:
      S.Layouts.push_back(M == Modifier::Row);
      break;
    case Modifier::Xor:
    case Modifier::And:
      Repeated = S.BitOp != MatrixForm::NoBitOp;
      S.BitOp = M == Modifier::Xor ? MatrixForm::Xor : MatrixForm::And;
      break;
    case Modifier::Rn:
    case Modifier::Rz:
    case Modifier::Rm:
    case Modifier::Rp:
      Repeated = S.Rounding.has_value();
      S.Rounding = M;
      break;
    case Modifier::A:
    case Modifier::B:
    case Modifier::C:
    case Modifier::D:
      Repeated = S.Role.has_value();
      S.Role = M == Modifier::A   ? MatrixRole::A
               : M == Modifier::B ? MatrixRole::B
               : M == Modifier::C ? MatrixRole::C
                                  : MatrixRole::D;
      break;
    case Modifier::X1:
    case Modifier::X2:
    case Modifier::X4:
      Repeated = S.Num != 0;
      S.Num = M == Modifier::X1 ? 1 : M == Modifier::X2 ? 2 : 4;
      break;
    default: {
      auto *It = find_if(Shapes, [&](const Shape &Sh) { return Sh.Mod == M; });
      unsigned N, K;
      if (It == std::end(Shapes) && parseWgmmaShape(M, N, K)) {
        Repeated = S.WgmmaN != 0;
        S.WgmmaN = N;
        S.WgmmaK = K;
        break;
      }
      if (It == std::end(Shapes))
        return fail("does not take modifier " + getSpelling(M));
      Repeated = S.Sh != nullptr;
      S.Sh = It;
      break;
    }
    }
    if (Repeated)
      return fail("takes one " +
                  Twine(M == Modifier::Row || M == Modifier::Col
                            ? "layout"
                            : getSpelling(M).str()) +
                  " qualifier at most; " + getSpelling(M) +
                  " is written again");
  }
  return true;
}

bool Decoder::needSyncAligned() {
  if (!S.Sync || !S.Aligned)
    return fail("needs .sync and .aligned");
  return true;
}

bool Decoder::checkSpace(bool AllowGlobal) {
  switch (I.Space) {
  case StateSpace::None:
  case StateSpace::Shared:
  case StateSpace::SharedCTA:
    return true;
  case StateSpace::Global:
    if (AllowGlobal)
      return true;
    [[fallthrough]];
  default:
    return fail("cannot access the " + getSpelling(I.Space) + " state space");
  }
}

bool Decoder::run() {
  if (!collect())
    return false;
  switch (I.Op) {
  case Opcode::Mma:
    F.Kind = MatrixForm::Mma;
    return decodeMma();
  case Opcode::MmaSp:
  case Opcode::MmaSpOrderedMetadata:
    F.Kind = MatrixForm::Mma;
    F.Sparse = true;
    F.OrderedMetadata = I.Op == Opcode::MmaSpOrderedMetadata;
    return decodeMmaSp();
  case Opcode::WmmaMma:
    F.Kind = MatrixForm::WmmaMma;
    return decodeWmmaMma();
  case Opcode::WmmaLoad:
    F.Kind = MatrixForm::WmmaLoad;
    return decodeWmmaMemory();
  case Opcode::WmmaStore:
    F.Kind = MatrixForm::WmmaStore;
    return decodeWmmaMemory();
  case Opcode::Ldmatrix:
    F.Kind = MatrixForm::Ldmatrix;
    return decodeLdStMatrix();
  case Opcode::Stmatrix:
    F.Kind = MatrixForm::Stmatrix;
    return decodeLdStMatrix();
  case Opcode::Movmatrix:
    F.Kind = MatrixForm::Movmatrix;
    return decodeMovmatrix();
  case Opcode::WgmmaMmaAsync:
    F.Kind = MatrixForm::Wgmma;
    return decodeWgmma();
  default:
    return fail("is not a matrix instruction");
  }
}

void Decoder::takeMmaForm() {
  F.M = S.Sh->M;
  F.N = S.Sh->N;
  F.K = S.Sh->K;
  F.DType = I.Types[0];
  F.AType = I.Types[1];
  F.BType = I.Types[2];
  F.CType = I.Types[3];
  F.ARowMajor = S.Layouts[0];
  F.BRowMajor = S.Layouts[1];
  F.Satfinite = S.Satfinite;
}

bool Decoder::decodeMma() {
  if (!needSyncAligned())
    return false;
  if (!S.Sh || S.Sh->K == 0 || S.Sh->N != 8)
    return fail("needs a shape (.m8n8k4, .m16n8k16, ...)");
  if (S.Layouts.size() != 2)
    return fail("needs the layouts of A and B (.row.col)");
  if (I.Types.size() != 4)
    return fail("needs four types: .dtype.atype.btype.ctype");
  if (!forbid(S.Role || S.Num || S.Trans, "this modifier") ||
      !forbid(I.Space != StateSpace::None, "a state space"))
    return false;
  takeMmaForm();
  F.BitOp = S.BitOp;
  if (S.Rounding)
    F.Rounding = *S.Rounding;
  ScalarType A = F.AType, B = F.BType, C = F.CType, D = F.DType;
  std::string Types = spell(D) + spell(A) + spell(B) + spell(C);
  auto Shapes = [&](std::initializer_list<unsigned> Ks, unsigned MOnly = 0) {
    for (unsigned K : Ks)
      if (F.K == K && (!MOnly || F.M == MOnly))
        return true;
    return false;
  };
  auto BadShape = [&]() {
    return fail("does not take shape " + getSpelling(S.Sh->Mod) +
                " with types " + Types);
  };
  bool IsInt = isInt8(A) || isInt4(A) || A == ScalarType::B1;
  if (!forbid(S.Satfinite && !IsInt, ".satfinite with types " + Types) ||
      !forbid(S.BitOp && A != ScalarType::B1,
              "a bit operation with types " + Types) ||
      !forbid(S.Popc && A != ScalarType::B1, ".popc with types " + Types) ||
      !forbid(S.Rounding && A != ScalarType::F64,
              "a rounding modifier with types " + Types))
    return false;
  if (A == ScalarType::F16 && B == ScalarType::F16) {
    if (!isHalfOrSingle(C) || !isHalfOrSingle(D))
      return fail("needs .f16 or .f32 accumulators with .f16 multiplicands");
    if (isShapeOf(S, 8, 8, 4)) {
      if (C == ScalarType::F32 && D != ScalarType::F32)
        return fail("with shape .m8n8k4 and an .f32 C needs an .f32 D");
      return true; // any layouts
    }
    if (!isShapeOf(S, 16, 8, 8) && !isShapeOf(S, 16, 8, 16))
      return BadShape();
    if (C != D)
      return fail("needs .dtype and .ctype to be the same with shape " +
                  getSpelling(S.Sh->Mod));
  } else if (A == ScalarType::BF16 || A == ScalarType::TF32) {
    if (B != A)
      return fail("needs .atype and .btype to be the same, not " + spell(A) +
                  " and " + spell(B));
    if (C != ScalarType::F32 || D != ScalarType::F32)
      return fail("needs .f32 accumulators with " + spell(A) +
                  " multiplicands");
    bool Ok = A == ScalarType::BF16 ? Shapes({8, 16}, 16) : Shapes({4, 8}, 16);
    if (!Ok)
      return BadShape();
  } else if (isFloat8(A) && isFloat8(B)) {
    if (!isHalfOrSingle(C) || C != D)
      return fail("needs .f16 or .f32 accumulators, the same for C and D, "
                  "with " +
                  spell(A) + " multiplicands");
    if (!Shapes({16, 32}, 16))
      return BadShape();
  } else if (A == ScalarType::F64) {
    if (B != A || C != A || D != A)
      return fail("needs .f64 for every matrix with .f64 multiplicands");
    if (!isShapeOf(S, 8, 8, 4) && !Shapes({4, 8, 16}, 16))
      return BadShape();
  } else if (isInt8(A) || isInt4(A)) {
    bool Eight = isInt8(A);
    if (Eight ? !isInt8(B) : !isInt4(B))
      return fail("needs .btype to be " +
                  Twine(Eight ? ".s8 or .u8" : ".s4 or .u4") + " with .atype " +
                  spell(A));
    if (C != ScalarType::S32 || D != ScalarType::S32)
      return fail("needs .s32 accumulators with integer multiplicands");
    bool Ok = Eight ? (isShapeOf(S, 8, 8, 16) || Shapes({16, 32}, 16))
                    : (isShapeOf(S, 8, 8, 32) || Shapes({32, 64}, 16));
    if (!Ok)
      return BadShape();
  } else if (A == ScalarType::B1) {
    if (B != A || C != ScalarType::S32 || D != ScalarType::S32)
      return fail("needs types .s32.b1.b1.s32 with .b1 multiplicands");
    if (!isShapeOf(S, 8, 8, 128) && !Shapes({128, 256}, 16))
      return BadShape();
    if (!S.BitOp || !S.Popc)
      return fail("needs .xor.popc or .and.popc with .b1 multiplicands");
  } else {
    return fail("does not take types " + Types);
  }
  if (!F.ARowMajor || F.BRowMajor)
    return fail("needs layouts .row.col with shape " + getSpelling(S.Sh->Mod) +
                " and types " + Types);
  return true;
}

bool Decoder::decodeMmaSp() {
  if (!needSyncAligned())
    return false;
  if (!S.Sh || S.Sh->M != 16 || S.Sh->N != 8 || S.Sh->K < 8)
    return fail("needs a shape (.m16n8k16, .m16n8k32, ...)");
  if (S.Layouts.size() != 2)
    return fail("needs the layouts of A and B (.row.col)");
  if (I.Types.size() != 4)
    return fail("needs four types: .dtype.atype.btype.ctype");
  if (!forbid(S.Role || S.Num || S.Trans || S.Popc || S.BitOp || S.Rounding,
              "this modifier") ||
      !forbid(I.Space != StateSpace::None, "a state space"))
    return false;
  takeMmaForm();
  ScalarType A = F.AType, B = F.BType, C = F.CType, D = F.DType;
  std::string Types = spell(D) + spell(A) + spell(B) + spell(C);
  bool IsInt = isInt8(A) || isInt4(A);
  if (!forbid(S.Satfinite && !IsInt, ".satfinite with types " + Types))
    return false;
  // The PTX ISA's forms (section "Multiply-and-Accumulate Instruction:
  // mma.sp"): each multiplicand type with its two shapes.
  unsigned K1 = 0, K2 = 0;
  if (A == ScalarType::F16 && B == ScalarType::F16) {
    if (!isHalfOrSingle(C) || !isHalfOrSingle(D))
      return fail("needs .f16 or .f32 accumulators with .f16 multiplicands");
    K1 = 16, K2 = 32;
  } else if (A == ScalarType::BF16 || A == ScalarType::TF32) {
    if (B != A)
      return fail("needs .atype and .btype to be the same, not " + spell(A) +
                  " and " + spell(B));
    if (C != ScalarType::F32 || D != ScalarType::F32)
      return fail("needs .f32 accumulators with " + spell(A) +
                  " multiplicands");
    K1 = A == ScalarType::BF16 ? 16 : 8, K2 = 2 * K1;
  } else if (isFloat8(A) && isFloat8(B)) {
    if (C != ScalarType::F32 || D != ScalarType::F32)
      return fail("needs .f32 accumulators with " + spell(A) +
                  " multiplicands");
    K1 = K2 = 64;
  } else if (IsInt) {
    bool Eight = isInt8(A);
    if (Eight ? !isInt8(B) : !isInt4(B))
      return fail("needs .btype to be " +
                  Twine(Eight ? ".s8 or .u8" : ".s4 or .u4") + " with .atype " +
                  spell(A));
    if (C != ScalarType::S32 || D != ScalarType::S32)
      return fail("needs .s32 accumulators with integer multiplicands");
    K1 = Eight ? 32 : 64, K2 = 2 * K1;
  } else {
    return fail("does not take types " + Types);
  }
  if (F.K != K1 && F.K != K2)
    return fail("does not take shape " + getSpelling(S.Sh->Mod) +
                " with types " + Types);
  if (C != D)
    return fail("needs .dtype and .ctype to be the same");
  if (!F.ARowMajor || F.BRowMajor)
    return fail("needs layouts .row.col");
  return decodeSparsitySelector();
}

bool Decoder::decodeSparsitySelector() {
  if (I.Operands.size() <= SparsitySelectorOperand)
    return true; // the verifier reports the operand count
  const Operand &Sel = I.Operands[SparsitySelectorOperand];
  auto FailAt = [&](const Twine &Msg) {
    if (ProblemLoc)
      *ProblemLoc = Sel.Loc;
    return fail(Msg);
  };
  if (Sel.Kind != Operand::IntImm)
    return FailAt("needs an integer constant for the sparsity selector");
  unsigned Count = getSparsitySelectorCount(F);
  if (Sel.Value < 0 || Sel.Value >= int64_t(Count))
    return FailAt("takes sparsity selector " +
                  Twine(Count == 1 ? "0" : "0 to " + Twine(Count - 1).str()) +
                  " with shape " + getSpelling(S.Sh->Mod) + " and " +
                  spell(F.AType) + " multiplicands, not " + Twine(Sel.Value));
  F.Selector = unsigned(Sel.Value);
  return true;
}

bool Decoder::checkWmmaTypes(ScalarType AB, ScalarType CD) {
  bool Big = isShapeOf(S, 16, 16, 16) || isShapeOf(S, 32, 8, 16) ||
             isShapeOf(S, 8, 32, 16);
  std::string Where = "shape " + getSpelling(S.Sh->Mod).str();
  if (AB == ScalarType::None) {
    // A .c or .d fragment alone: the shape must have such accumulators.
    bool Ok = false;
    switch (CD) {
    case ScalarType::F16:
      Ok = Big;
      break;
    case ScalarType::F32:
      Ok = Big || isShapeOf(S, 16, 16, 8);
      break;
    case ScalarType::S32:
      Ok = Big || isShapeOf(S, 8, 8, 32) || isShapeOf(S, 8, 8, 128);
      break;
    case ScalarType::F64:
      Ok = isShapeOf(S, 8, 8, 4);
      break;
    default:
      break;
    }
    return Ok ? true
              : fail("does not take " + Where + " with accumulator type " +
                     spell(CD));
  }
  if (AB == ScalarType::F16) {
    if (!Big)
      return fail("does not take " + Where + " with type .f16");
    if (CD != ScalarType::None && !isHalfOrSingle(CD))
      return fail("needs .f16 or .f32 accumulators with .f16 multiplicands");
    return true;
  }
  if (AB == ScalarType::BF16 || isInt8(AB)) {
    if (!Big)
      return fail("does not take " + Where + " with type " + spell(AB));
    ScalarType Acc = AB == ScalarType::BF16 ? ScalarType::F32 : ScalarType::S32;
    if (CD != Acc && CD != ScalarType::None)
      return fail("needs " + spell(Acc) + " accumulators with " + spell(AB) +
                  " multiplicands");
    return true;
  }
  struct Fixed {
    ScalarType T;
    unsigned M, N, K;
    ScalarType Acc;
  };
  static const Fixed Others[] = {
      {ScalarType::TF32, 16, 16, 8, ScalarType::F32},
      {ScalarType::F64, 8, 8, 4, ScalarType::F64},
      {ScalarType::S4, 8, 8, 32, ScalarType::S32},
      {ScalarType::U4, 8, 8, 32, ScalarType::S32},
      {ScalarType::B1, 8, 8, 128, ScalarType::S32},
  };
  for (const Fixed &X : Others)
    if (X.T == AB) {
      if (!isShapeOf(S, X.M, X.N, X.K))
        return fail("does not take " + Where + " with type " + spell(AB));
      if (CD != X.Acc && CD != ScalarType::None)
        return fail("needs " + spell(X.Acc) + " accumulators with " +
                    spell(AB) + " multiplicands");
      return true;
    }
  return fail("does not take type " + spell(AB));
}

bool Decoder::decodeWmmaMma() {
  if (!needSyncAligned())
    return false;
  if (!S.Sh || S.Sh->K == 0 || (S.Sh->M == 16 && S.Sh->N == 8))
    return fail("needs a wmma shape (.m16n16k16, .m32n8k16, .m8n32k16, "
                ".m16n16k8, .m8n8k4, .m8n8k32 or .m8n8k128)");
  if (S.Layouts.size() != 2)
    return fail("needs the layouts of A and B (.row.col, ...)");
  if (!forbid(S.Role || S.Num || S.Trans, "this modifier") ||
      !forbid(I.Space != StateSpace::None, "a state space"))
    return false;
  F.M = S.Sh->M;
  F.N = S.Sh->N;
  F.K = S.Sh->K;
  F.ARowMajor = S.Layouts[0];
  F.BRowMajor = S.Layouts[1];
  F.Satfinite = S.Satfinite;
  F.BitOp = S.BitOp;
  if (S.Rounding)
    F.Rounding = *S.Rounding;
  if (I.Types.size() == 2) {
    // .f16 multiplicands: .dtype.ctype.
    F.DType = I.Types[0];
    F.CType = I.Types[1];
    F.AType = F.BType = ScalarType::F16;
    if (!isHalfOrSingle(F.DType) || !isHalfOrSingle(F.CType))
      return fail("needs .f16 or .f32 for .dtype and .ctype");
  } else if (I.Types.size() == 4) {
    F.DType = I.Types[0];
    F.AType = I.Types[1];
    F.BType = I.Types[2];
    F.CType = I.Types[3];
    if (F.AType == ScalarType::F16)
      return fail("takes .dtype.ctype only with .f16 multiplicands");
    if (F.AType != F.BType)
      return fail("needs .atype and .btype to be the same");
    if (F.CType != F.DType)
      return fail("needs .ctype and .dtype to be the same");
  } else {
    return fail("needs types .dtype.ctype (.f16 multiplicands) or "
                ".dtype.atype.btype.ctype");
  }
  if (!checkWmmaTypes(F.AType, F.DType) || !checkWmmaTypes(F.AType, F.CType))
    return false;
  bool IsInt = isInt8(F.AType) || isInt4(F.AType) || F.AType == ScalarType::B1;
  if (!forbid(S.Satfinite && !IsInt, ".satfinite without integer "
                                     "multiplicands") ||
      !forbid(S.Satfinite && F.AType == ScalarType::B1,
              ".satfinite with .b1 multiplicands") ||
      !forbid(S.BitOp && F.AType != ScalarType::B1,
              "a bit operation without .b1 multiplicands") ||
      !forbid(S.Popc && F.AType != ScalarType::B1,
              ".popc without .b1 multiplicands") ||
      !forbid(S.Rounding && F.AType != ScalarType::F64,
              "a rounding modifier without .f64 multiplicands"))
    return false;
  if (F.AType == ScalarType::B1 && (!S.BitOp || !S.Popc))
    return fail("needs .xor.popc or .and.popc with .b1 multiplicands");
  bool SubByte = isInt4(F.AType) || F.AType == ScalarType::B1;
  if (SubByte && (!F.ARowMajor || F.BRowMajor))
    return fail("needs layouts .row.col with " + spell(F.AType) +
                " multiplicands");
  return true;
}

bool Decoder::decodeWmmaMemory() {
  bool Load = F.Kind == MatrixForm::WmmaLoad;
  if (!needSyncAligned())
    return false;
  if (!S.Role)
    return fail(Load ? "needs the matrix it loads (.a, .b or .c)"
                     : "needs the matrix it stores (.d)");
  if (Load ? *S.Role == MatrixRole::D : *S.Role != MatrixRole::D)
    return fail(Load ? "loads .a, .b or .c, not .d" : "stores .d only");
  if (!S.Sh || S.Sh->K == 0 || (S.Sh->M == 16 && S.Sh->N == 8))
    return fail("needs a wmma shape (.m16n16k16, .m32n8k16, .m8n32k16, "
                ".m16n16k8, .m8n8k4, .m8n8k32 or .m8n8k128)");
  if (S.Layouts.size() != 1)
    return fail("needs one layout (.row or .col)");
  if (I.Types.size() != 1)
    return fail("needs one type");
  if (!forbid(S.Num || S.Trans || S.Satfinite || S.Popc || S.BitOp ||
                  S.Rounding,
              "this modifier") ||
      !checkSpace(/*AllowGlobal=*/true))
    return false;
  F.M = S.Sh->M;
  F.N = S.Sh->N;
  F.K = S.Sh->K;
  F.Role = *S.Role;
  F.ARowMajor = S.Layouts[0];
  ScalarType T = I.Types[0];
  switch (F.Role) {
  case MatrixRole::A:
    F.AType = T;
    break;
  case MatrixRole::B:
    F.BType = T;
    break;
  case MatrixRole::C:
    F.CType = T;
    break;
  case MatrixRole::D:
    F.DType = T;
    break;
  }
  if (F.Role == MatrixRole::A || F.Role == MatrixRole::B) {
    if (T == ScalarType::F32 || T == ScalarType::S32 || T == ScalarType::None)
      return fail("does not take type " + spell(T) + " for a multiplicand");
    if (!checkWmmaTypes(T, ScalarType::None))
      return false;
    bool SubByte = isInt4(T) || T == ScalarType::B1;
    bool Want = F.Role == MatrixRole::A;
    if (SubByte && F.ARowMajor != Want)
      return fail("needs layout " + Twine(Want ? ".row" : ".col") + " for " +
                  spell(T) + " matrix " + (Want ? "A" : "B"));
    return true;
  }
  if (T != ScalarType::F16 && T != ScalarType::F32 && T != ScalarType::S32 &&
      T != ScalarType::F64)
    return fail("does not take type " + spell(T) + " for an accumulator");
  return checkWmmaTypes(ScalarType::None, T);
}

bool Decoder::decodeLdStMatrix() {
  bool Load = F.Kind == MatrixForm::Ldmatrix;
  if (!needSyncAligned())
    return false;
  if (!S.Sh || S.Sh->K != 0)
    return fail(Load ? "needs a shape (.m8n8 or .m16n16)"
                     : "needs a shape (.m8n8 or .m16n8)");
  if (!S.Num)
    return fail("needs the number of matrices (.x1, .x2 or .x4)");
  if (I.Types.size() != 1)
    return fail("needs one type");
  if (!forbid(S.Role || !S.Layouts.empty() || S.Satfinite || S.Popc ||
                  S.BitOp || S.Rounding,
              "this modifier") ||
      !checkSpace(/*AllowGlobal=*/false))
    return false;
  F.M = S.Sh->M;
  F.N = S.Sh->N;
  F.NumMatrices = S.Num;
  F.Trans = S.Trans;
  F.DType = I.Types[0];
  bool M8N8 = F.M == 8 && F.N == 8;
  if (M8N8) {
    if (F.DType != ScalarType::B16)
      return fail("needs type .b16 with shape .m8n8");
    return true;
  }
  bool Wide = Load ? (F.M == 16 && F.N == 16) : (F.M == 16 && F.N == 8);
  if (!Wide)
    return fail("does not take shape " + getSpelling(S.Sh->Mod));
  if (F.DType != ScalarType::B8)
    return fail("needs type .b8 with shape " + getSpelling(S.Sh->Mod));
  if (!F.Trans)
    return fail("needs .trans with shape " + getSpelling(S.Sh->Mod));
  if (Load && F.NumMatrices == 4)
    return fail("takes .x1 or .x2 with shape .m16n16");
  return true;
}

bool Decoder::decodeMovmatrix() {
  if (!needSyncAligned())
    return false;
  if (!isShapeOf(S, 8, 8, 0))
    return fail("needs shape .m8n8");
  if (!S.Trans)
    return fail("needs .trans");
  if (I.Types.size() != 1 || I.Types[0] != ScalarType::B16)
    return fail("needs type .b16");
  if (!forbid(S.Role || S.Num || !S.Layouts.empty() || S.Satfinite || S.Popc ||
                  S.BitOp || S.Rounding,
              "this modifier") ||
      !forbid(I.Space != StateSpace::None, "a state space"))
    return false;
  F.M = F.N = 8;
  F.Trans = true;
  F.DType = F.AType = ScalarType::B16;
  return true;
}

bool Decoder::checkWgmmaTypes() {
  ScalarType D = F.DType, A = F.AType, B = F.BType;
  auto Want = [&](const Twine &What) {
    return fail(".m64n" + Twine(F.N) + "k" + Twine(F.K) + " takes " + What +
                ", not " + spell(D) + spell(A) + spell(B));
  };
  switch (F.K) {
  case 8:
    if (D != ScalarType::F32 || A != ScalarType::TF32 || B != A)
      return Want(".f32.tf32.tf32");
    return true;
  case 16:
    if (!((A == ScalarType::F16 && isHalfOrSingle(D)) ||
          (A == ScalarType::BF16 && D == ScalarType::F32)) ||
        B != A)
      return Want(".f16 or .f32 with .f16.f16, or .f32.bf16.bf16");
    return true;
  case 32:
    if (isFloat8(A) && isFloat8(B) && isHalfOrSingle(D))
      return true;
    if (isInt8(A) && isInt8(B) && D == ScalarType::S32)
      return true;
    return Want(".f16 or .f32 with .e4m3/.e5m2 multiplicands, or .s32 with "
                ".s8/.u8 multiplicands");
  case 256:
    if (D != ScalarType::S32 || A != ScalarType::B1 || B != A)
      return Want(".s32.b1.b1");
    return true;
  default:
    return fail("needs a shape .m64nNk8, k16, k32 or k256");
  }
}

bool Decoder::takeWgmmaImmediate(unsigned Idx, StringRef Name, int64_t False,
                                 int64_t True, bool &Flag) {
  const Operand &Op = I.Operands[Idx];
  if (Op.Kind != Operand::IntImm || (Op.Value != False && Op.Value != True)) {
    if (ProblemLoc)
      *ProblemLoc = Op.Loc;
    return fail("takes " + Name + " as the integer constant " + Twine(False) +
                " or " + Twine(True));
  }
  Flag = Op.Value == True;
  return true;
}

bool Decoder::decodeWgmma() {
  if (!needSyncAligned())
    return false;
  if (!S.WgmmaN)
    return fail("needs a shape (.m64n128k16, ...)");
  if (!forbid(S.Role || S.Num || S.Trans || !S.Layouts.empty() || S.Rounding,
              "this modifier") ||
      !forbid(I.Space != StateSpace::None, "a state space"))
    return false;
  if (I.Types.size() != 3)
    return fail("needs three types: .dtype.atype.btype");
  F.M = 64;
  F.N = S.WgmmaN;
  F.K = S.WgmmaK;
  F.DType = F.CType = I.Types[0];
  F.AType = I.Types[1];
  F.BType = I.Types[2];
  if (!checkWgmmaTypes())
    return false;
  bool Integer = F.DType == ScalarType::S32;
  bool Bits = F.AType == ScalarType::B1;
  // N: multiples of 8; the integer forms take multiples of 16 above 32.
  if (F.N % 8 || F.N > 256 || (Integer && F.N > 32 && F.N % 16))
    return fail("does not take N = " + Twine(F.N) + " with these types");
  if (Bits != (S.BitOp == MatrixForm::And) || Bits != S.Popc)
    return fail(Bits ? "needs .and.popc with .b1"
                     : "does not take .and, "
                       ".xor or .popc");
  if (S.Satfinite && !(Integer && !Bits))
    return fail("takes .satfinite only with .s8/.u8 multiplicands");
  F.Satfinite = S.Satfinite;
  F.BitOp = S.BitOp;
  F.ADescriptor =
      I.Operands.size() > 1 && I.Operands[1].Kind != Operand::Vector;
  // The immediates after scale-d: the scales of the float forms, then the
  // transposes of .f16/.bf16 (imm-trans-a only with A in shared memory).
  bool Transposable = F.K == 16;
  unsigned Want = Integer ? 4 : !Transposable ? 6 : F.ADescriptor ? 8 : 7;
  if (I.Operands.size() != Want)
    return fail("takes " + Twine(Want) + " operands with these types and " +
                (F.ADescriptor ? "A in shared memory" : "A in registers"));
  bool ScaleA = true, ScaleB = true;
  if (!Integer && (!takeWgmmaImmediate(4, "imm-scale-a", -1, 1, ScaleA) ||
                   !takeWgmmaImmediate(5, "imm-scale-b", -1, 1, ScaleB)))
    return false;
  F.NegateA = !ScaleA;
  F.NegateB = !ScaleB;
  if (Transposable && F.ADescriptor &&
      !takeWgmmaImmediate(6, "imm-trans-a", 0, 1, F.TransA))
    return false;
  if (Transposable &&
      !takeWgmmaImmediate(Want - 1, "imm-trans-b", 0, 1, F.TransB))
    return false;
  return true;
}

/// Registers of a fragment of Elements elements of type T per lane.
FragmentShape registersFor(unsigned Elements, ScalarType T, bool Packed) {
  if (T == ScalarType::F64)
    return {Elements, ScalarType::F64};
  unsigned Bits = getBitWidth(T);
  unsigned N = (Elements * Bits + 31) / 32;
  if (Packed || Bits < 32)
    return {N, ScalarType::B32};
  return {N, T == ScalarType::F32 ? ScalarType::F32 : ScalarType::S32};
}

} // namespace

bool ptxjit::ptx::decodeMatrixForm(const Instruction &I, MatrixForm &F,
                                   std::string &Problem, SMLoc *ProblemLoc) {
  F = MatrixForm();
  return Decoder(I, F, Problem, ProblemLoc).run();
}

bool ptxjit::ptx::isDefinedSparseMetadataField(const MatrixForm &F,
                                               unsigned Field,
                                               const char **Why) {
  unsigned I0 = Field & 3, I1 = Field >> 2 & 3;
  const char *Problem = nullptr;
  if (F.AType == ScalarType::TF32) {
    if (Field != 0b0100 && Field != 0b1110)
      Problem = ".tf32 takes 0b0100 or 0b1110";
  } else if (I0 == I1) {
    Problem = "two indices must differ";
  } else if (F.OrderedMetadata && I0 > I1) {
    Problem = "::ordered_metadata needs the indices in increasing order";
  }
  if (Why)
    *Why = Problem;
  return !Problem;
}

unsigned ptxjit::ptx::getSparsitySelectorCount(const MatrixForm &F) {
  // Each 4-bit field of the metadata covers a chunk of A's row: four
  // elements (two kept), two of .tf32 (one kept), eight of .s4/.u4 (two
  // pairs kept). One lane's register covers four chunks of the rows g and
  // g+8, so a row of 4, 8 or 16 chunks takes one, two or four lanes.
  unsigned Chunk = F.AType == ScalarType::TF32 ? 2 : isInt4(F.AType) ? 8 : 4;
  unsigned Lanes = F.K / Chunk / 4;
  return Lanes >= 4 ? 1 : 4 / Lanes;
}

FragmentShape ptxjit::ptx::getFragmentShape(const MatrixForm &F, MatrixRole R) {
  switch (F.Kind) {
  case MatrixForm::Ldmatrix:
  case MatrixForm::Stmatrix: {
    bool Wide = F.M * F.N == 256; // ldmatrix .m16n16: two registers each
    return {F.NumMatrices * (Wide ? 2 : 1), ScalarType::B32};
  }
  case MatrixForm::Movmatrix:
    return {1, ScalarType::B32};
  default:
    break;
  }
  if (R == MatrixRole::D && F.Kind == MatrixForm::WmmaLoad)
    return {};
  if (F.Kind == MatrixForm::Wgmma) {
    // Each warp's 16 rows: of A (registers) and of the accumulators.
    ScalarType T = F.getType(R);
    unsigned Cols = R == MatrixRole::A ? F.K : F.N;
    return registersFor(16 * Cols / 32, T, T == ScalarType::F16);
  }
  ScalarType T = F.getType(R);
  unsigned Rows = R == MatrixRole::B ? F.K : F.M;
  unsigned Cols = R == MatrixRole::A ? F.K : F.N;
  if (F.Sparse && R == MatrixRole::A)
    Cols /= 2; // the kept half of each row
  unsigned Elements = Rows * Cols / 32;
  if (F.Kind == MatrixForm::Mma) {
    // mma.m8n8k4 with .f16 computes four products, one per quad pair.
    if (F.M == 8 && F.K == 4 && F.AType == ScalarType::F16)
      Elements *= 4;
    return registersFor(Elements, T, T == ScalarType::F16);
  }
  // wmma: .f16 multiplicands always take eight .f16x2 registers.
  if ((R == MatrixRole::A || R == MatrixRole::B) && T == ScalarType::F16)
    return {8, ScalarType::B32};
  return registersFor(Elements, T, T == ScalarType::F16);
}

int ptxjit::ptx::getFragmentOperand(const MatrixForm &F, MatrixRole R) {
  switch (F.Kind) {
  case MatrixForm::Mma:
  case MatrixForm::WmmaMma:
    return int(R) == 3 ? 0 : int(R) + 1; // d, a, b, c
  case MatrixForm::WmmaLoad:
    return R == F.Role ? 0 : -1;
  case MatrixForm::WmmaStore:
  case MatrixForm::Stmatrix:
    return R == MatrixRole::D ? 1 : -1;
  case MatrixForm::Ldmatrix:
    return R == MatrixRole::D ? 0 : -1;
  case MatrixForm::Movmatrix:
    return R == MatrixRole::D ? 0 : R == MatrixRole::A ? 1 : -1;
  case MatrixForm::Wgmma:
    // d is also C; A is a fragment only when it is in registers.
    return R == MatrixRole::D                     ? 0
           : R == MatrixRole::A && !F.ADescriptor ? 1
                                                  : -1;
  }
  return -1;
}
