//===- VideoVerifier.cpp - Selectors of the video instructions ------------===//
//
// The video instructions select parts of their 32-bit operands with
// suffixes after the register (PTX ISA 9.7.18): a byte or half-word of a
// scalar instruction's sources (.b0-.b3, .h0, .h1), the position its result
// is merged into (d.b2), and for the SIMD instructions the half-words or
// bytes of a:b each lane reads (.h32, .b7654) and the lanes of d written
// (.h10, .b310). The shape letters v, e, h, q and k of Opcodes.def say where
// each may appear; ptxas's rules are followed where the ISA text is silent
// (no selector on the third source, registers only in SIMD forms).
//
//===----------------------------------------------------------------------===//

#include "VerifierImpl.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ptxjit::ptx;

bool FunctionVerifier::isVideoShape(StringRef Shape) {
  // A loop rather than find_first_of, which builds a 256-bit set per call:
  // this runs for every instruction.
  return any_of(Shape, [](char C) {
    return C == 'v' || C == 'e' || C == 'h' || C == 'q' || C == 'k';
  });
}

/// Whether Sel is legal where Letter stands (the first operand when
/// IsFirst), and what is legal there for the message.
static bool isLegalSelector(VideoSelector Sel, char Letter, bool IsFirst,
                            std::string &Legal) {
  auto Digits = [&](unsigned Max) {
    for (unsigned I = 0; I != Sel.size(); ++I)
      if (Sel.getDigit(I) > Max)
        return false;
    return true;
  };
  switch (Letter) {
  case 'v':
  case 'e':
    Legal = ".b0, .b1, .b2, .b3, .h0 or .h1";
    return Sel.size() == 1 && Digits(Sel.getKind() == 'b' ? 3 : 1);
  case 'h':
    if (IsFirst) {
      Legal = "the mask .h0, .h1 or .h10";
      return Sel.getKind() == 'h' && Digits(1) &&
             (Sel.size() == 1 || (Sel.size() == 2 && Sel.getDigit(0) == 1 &&
                                  Sel.getDigit(1) == 0));
    }
    Legal = ".hxy with x and y in 0-3";
    return Sel.getKind() == 'h' && Sel.size() == 2 && Digits(3);
  case 'q':
    if (IsFirst) {
      Legal = "a mask .b0 to .b3210 (byte numbers in decreasing order)";
      if (Sel.getKind() != 'b' || !Digits(3))
        return false;
      for (unsigned I = 1; I < Sel.size(); ++I)
        if (Sel.getDigit(I) >= Sel.getDigit(I - 1))
          return false;
      return true;
    }
    Legal = ".bxyzw with x, y, z and w in 0-7";
    return Sel.getKind() == 'b' && Sel.size() == 4;
  default:
    Legal = "none";
    return false;
  }
}

void FunctionVerifier::checkVideoOperand(const InstCtx &C, unsigned Idx,
                                         char Letter) {
  const Instruction &I = C.I;
  const Operand &Op = I.Operands[Idx];
  unsigned OpNo = Idx + 1;
  if (Op.Minus &&
      (I.Op != Opcode::Vmad || Idx == 0 || I.hasModifier(Modifier::Po)))
    Diags.report(Op.Loc, DiagID::err_minus_operand, OpNo, C.Text);
  if ((Letter == 'h' || Letter == 'q' || Letter == 'k') &&
      Op.Kind != Operand::Register)
    C.kind(Diags, Op, OpNo, "a register");
  if (Op.Selector.empty())
    return;
  std::string Legal;
  if (isLegalSelector(Op.Selector, Letter, Idx == 0, Legal))
    return;
  std::string Written;
  raw_string_ostream OS(Written);
  Op.Selector.print(OS);
  Diags.report(Op.Loc, DiagID::err_video_selector, OpNo, C.Text, Written,
               Legal);
}

void FunctionVerifier::checkVideoInstruction(const InstCtx &C) {
  const Instruction &I = C.I;
  if (I.Op == Opcode::Vmad && I.Operands.size() == 4 &&
      (I.Operands[1].Minus != I.Operands[2].Minus) && I.Operands[3].Minus)
    Diags.report(I.Operands[3].Loc, DiagID::err_vmad_negation, C.Text);
  // A merge into d.b0 ... d.h1 replaces the secondary operation.
  if (I.Operands.empty() || I.Operands[0].Selector.empty() ||
      getOpcodeInfo(I.Op).Shapes.find('e') == StringRef::npos)
    return;
  for (Modifier M : {Modifier::Add, Modifier::Min, Modifier::Max})
    if (I.hasModifier(M))
      Diags.report(I.Operands[0].Loc, DiagID::err_video_merge_and_op2, C.Text,
                   getSpelling(M));
}

void FunctionVerifier::checkCvtPack(const InstCtx &C) {
  const Instruction &I = C.I;
  ScalarType T = I.getType(0);
  bool To16 = T == ScalarType::U16 || T == ScalarType::S16;
  if (To16 && (I.Types.size() != 2 || I.Operands.size() != 3))
    Diags.report(I.Loc, DiagID::err_cvt_pack_form, C.Text,
                 "packs two 16-bit values: it takes the types .convertType."
                 "s32 and the operands d, a, b");
  else if (!To16 && (I.Types.size() != 3 || I.Operands.size() != 4))
    Diags.report(I.Loc, DiagID::err_cvt_pack_form, C.Text,
                 "fills d above its results from c: it takes the types "
                 ".convertType.s32.b32 and the operands d, a, b, c");
}
