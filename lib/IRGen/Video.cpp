//===- Video.cpp - The scalar and SIMD video instructions -----------------===//
//
// PTX ISA 9.7.18. The scalar instructions (vadd ... vset) select a byte,
// half-word or the word of each source, extend it by the source's type to a
// signed 33-bit value, compute exactly (in 64 bits, or 128 for vshl and
// vmad, whose results may be wider), optionally clamp to the destination's
// range, and then combine with the third source (.add .min .max) or merge
// into a byte or half of it (d.b0 ... d.h1). The SIMD instructions work on
// two half-words or four bytes chosen from a:b, then merge the lanes a mask
// names into c, or add them to c (.add). All are plain integer vector code
// on the warp's lanes.
//
//===----------------------------------------------------------------------===//

#include "InstructionVisitor.h"
#include "Lowering.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Modifier;
using ptx::Opcode;
using ptx::Operand;
using ptx::ScalarType;
using ptx::VideoSelector;

namespace {

enum class VideoOp { Add, Sub, Absdiff, Min, Max, Shl, Shr, Mad, Set, Avrg };

struct VideoForm {
  VideoOp Op;
  unsigned Parts; ///< 1 (scalar), 2 (half-words) or 4 (bytes)
};

VideoForm getVideoForm(Opcode Op) {
  switch (Op) {
  case Opcode::Vadd:
    return {VideoOp::Add, 1};
  case Opcode::Vsub:
    return {VideoOp::Sub, 1};
  case Opcode::Vabsdiff:
    return {VideoOp::Absdiff, 1};
  case Opcode::Vmin:
    return {VideoOp::Min, 1};
  case Opcode::Vmax:
    return {VideoOp::Max, 1};
  case Opcode::Vshl:
    return {VideoOp::Shl, 1};
  case Opcode::Vshr:
    return {VideoOp::Shr, 1};
  case Opcode::Vmad:
    return {VideoOp::Mad, 1};
  case Opcode::Vset:
    return {VideoOp::Set, 1};
  case Opcode::Vadd2:
    return {VideoOp::Add, 2};
  case Opcode::Vsub2:
    return {VideoOp::Sub, 2};
  case Opcode::Vavrg2:
    return {VideoOp::Avrg, 2};
  case Opcode::Vabsdiff2:
    return {VideoOp::Absdiff, 2};
  case Opcode::Vmin2:
    return {VideoOp::Min, 2};
  case Opcode::Vmax2:
    return {VideoOp::Max, 2};
  case Opcode::Vset2:
    return {VideoOp::Set, 2};
  case Opcode::Vadd4:
    return {VideoOp::Add, 4};
  case Opcode::Vsub4:
    return {VideoOp::Sub, 4};
  case Opcode::Vavrg4:
    return {VideoOp::Avrg, 4};
  case Opcode::Vabsdiff4:
    return {VideoOp::Absdiff, 4};
  case Opcode::Vmin4:
    return {VideoOp::Min, 4};
  case Opcode::Vmax4:
    return {VideoOp::Max, 4};
  case Opcode::Vset4:
    return {VideoOp::Set, 4};
  default:
    llvm_unreachable("not a video instruction");
  }
}

/// The comparison of vset, vset2 and vset4, on signed (extended) values.
CmpInst::Predicate getComparison(const ptx::Instruction &I) {
  if (I.hasModifier(Modifier::Eq))
    return CmpInst::ICMP_EQ;
  if (I.hasModifier(Modifier::Ne))
    return CmpInst::ICMP_NE;
  if (I.hasModifier(Modifier::Lt))
    return CmpInst::ICMP_SLT;
  if (I.hasModifier(Modifier::Le))
    return CmpInst::ICMP_SLE;
  if (I.hasModifier(Modifier::Gt))
    return CmpInst::ICMP_SGT;
  return CmpInst::ICMP_SGE;
}

class VideoLowering {
public:
  VideoLowering(FunctionLowering &FL, const ptx::Instruction &I)
      : FL(FL), B(FL.B), I(I), Form(getVideoForm(I.Op)) {}

  Error lower() {
    for (const Operand &Op : I.Operands.drop_front()) {
      Expected<LaneValue> V = FL.read(Op, ScalarType::U32);
      if (!V)
        return V.takeError();
      Vector |= !V->isScalar();
      Sources.push_back(V->V);
    }
    if (Vector)
      for (Value *&V : Sources)
        V = FL.widen(V);
    Value *D = Form.Parts == 1
                   ? (Form.Op == VideoOp::Mad ? lowerMad() : lowerScalar())
                   : lowerSIMD();
    return FL.write(I.Operands[0], D, ScalarType::U32);
  }

private:
  /// The i32 type of the lanes (a vector when any source is one), or an
  /// integer type of Bits of the same shape.
  Type *intTy(unsigned Bits) {
    Type *T = B.getIntNTy(Bits);
    return Vector ? (Type *)FL.getVectorType(T) : T;
  }
  Value *constant(Type *Ty, int64_t V) {
    return ConstantInt::get(Ty, V, /*IsSigned=*/true);
  }
  bool isSigned(unsigned K) const { return ptx::isSigned(I.getType(K)); }

  /// partSelectSignExtend: the selected byte, half-word or (no selector)
  /// the word of V, extended by the signedness to type Ty.
  Value *selectPart(Value *V, VideoSelector Sel, bool Signed, Type *Ty) {
    if (!Sel.empty()) {
      unsigned Width = Sel.getKind() == 'b' ? 8 : 16;
      unsigned Pos = Sel.getDigit(0) * Width;
      Type *I32 = V->getType();
      Value *Up = B.CreateShl(V, ConstantInt::get(I32, 32 - Width - Pos));
      Value *Sh = ConstantInt::get(I32, 32 - Width);
      V = Signed ? B.CreateAShr(Up, Sh) : B.CreateLShr(Up, Sh);
      return B.CreateSExt(V, Ty); // now in range of i32 either way
    }
    return Signed ? B.CreateSExt(V, Ty) : B.CreateZExt(V, Ty);
  }

  /// CLAMP(V, MAX, MIN) for a signed or unsigned range of Bits bits.
  Value *clamp(Value *V, unsigned Bits, bool Signed) {
    Type *Ty = V->getType();
    unsigned W = Ty->getScalarSizeInBits();
    APInt Lo = Signed ? APInt::getSignedMinValue(Bits).sext(W) : APInt(W, 0);
    APInt Hi = Signed ? APInt::getSignedMaxValue(Bits).sext(W)
                      : APInt::getMaxValue(Bits).zext(W);
    V = B.CreateBinaryIntrinsic(Intrinsic::smax, V, ConstantInt::get(Ty, Lo));
    return B.CreateBinaryIntrinsic(Intrinsic::smin, V,
                                   ConstantInt::get(Ty, Hi));
  }

  Value *lowerScalar() {
    // vshl's exact result needs 65 bits; the others fit in 64.
    Type *Ty = intTy(Form.Op == VideoOp::Shl ? 128 : 64);
    ArrayRef<Operand> Ops = I.Operands;
    bool BSigned = Form.Op == VideoOp::Set ? isSigned(1) : isSigned(2);
    bool ASigned = isSigned(Form.Op == VideoOp::Set ? 0 : 1);
    Value *A = selectPart(Sources[0], Ops[1].Selector, ASigned, Ty);
    Value *Bv = selectPart(
        Sources[1], Ops[2].Selector,
        Form.Op != VideoOp::Shl && Form.Op != VideoOp::Shr && BSigned, Ty);
    Value *T;
    switch (Form.Op) {
    case VideoOp::Add:
      T = B.CreateAdd(A, Bv);
      break;
    case VideoOp::Sub:
      T = B.CreateSub(A, Bv);
      break;
    case VideoOp::Absdiff:
      T = B.CreateBinaryIntrinsic(Intrinsic::abs, B.CreateSub(A, Bv),
                                  B.getFalse());
      break;
    case VideoOp::Min:
      T = B.CreateBinaryIntrinsic(Intrinsic::smin, A, Bv);
      break;
    case VideoOp::Max:
      T = B.CreateBinaryIntrinsic(Intrinsic::smax, A, Bv);
      break;
    case VideoOp::Shl:
    case VideoOp::Shr: {
      // .clamp: amounts above 32 are 32; .wrap: the amount modulo 32.
      Value *N =
          I.hasModifier(Modifier::Wrap)
              ? B.CreateAnd(Bv, constant(Ty, 31))
              : B.CreateBinaryIntrinsic(Intrinsic::umin, Bv, constant(Ty, 32));
      T = Form.Op == VideoOp::Shl ? B.CreateShl(A, N) : B.CreateAShr(A, N);
      break;
    }
    default: { // Set
      Value *P = B.CreateICmp(getComparison(I), A, Bv);
      T = B.CreateZExt(P, Ty);
      break;
    }
    }
    // The intermediate result and c are signed by the destination type;
    // vset's are unsigned.
    bool DSigned = Form.Op != VideoOp::Set && isSigned(0);
    const VideoSelector &DSel = Ops[0].Selector;
    if (I.hasModifier(Modifier::Sat)) {
      unsigned Bits = DSel.empty() ? 32 : DSel.getKind() == 'b' ? 8 : 16;
      T = clamp(T, Bits, DSigned);
    }
    if (Sources.size() < 3)
      return B.CreateTrunc(T, intTy(32));
    Value *C = Sources[2];
    if (!DSel.empty()) {
      // Merge the low byte or half of the result into c.
      unsigned Width = DSel.getKind() == 'b' ? 8 : 16;
      unsigned Pos = DSel.getDigit(0) * Width;
      uint32_t Field = ((uint64_t(1) << Width) - 1) << Pos;
      Value *Part = B.CreateShl(B.CreateTrunc(T, intTy(32)), Pos);
      return B.CreateOr(B.CreateAnd(Part, Field), B.CreateAnd(C, ~Field));
    }
    Value *CExt = DSigned ? B.CreateSExt(C, Ty) : B.CreateZExt(C, Ty);
    if (I.hasModifier(Modifier::Add))
      T = B.CreateAdd(T, CExt);
    else if (I.hasModifier(Modifier::Min))
      T = B.CreateBinaryIntrinsic(Intrinsic::smin, T, CExt);
    else if (I.hasModifier(Modifier::Max))
      T = B.CreateBinaryIntrinsic(Intrinsic::smax, T, CExt);
    return B.CreateTrunc(T, intTy(32));
  }

  /// vmad: (a*b) + c in 128 bits with the ISA's negation by one's
  /// complement plus one, .po's +1, the scaling shift and .sat.
  Value *lowerMad() {
    ArrayRef<Operand> Ops = I.Operands;
    Type *Ty = intTy(128);
    bool NegProduct = Ops[1].Minus != Ops[2].Minus;
    bool NegC = Ops[3].Minus;
    bool SignedFinal = isSigned(1) || isSigned(2) || NegProduct || NegC;
    Value *A = selectPart(Sources[0], Ops[1].Selector, isSigned(1), Ty);
    Value *Bv = selectPart(Sources[1], Ops[2].Selector, isSigned(2), Ty);
    Value *T = B.CreateMul(A, Bv);
    Value *C = Sources[2];
    int64_t Lsb = 0;
    if (I.hasModifier(Modifier::Po)) {
      Lsb = 1;
    } else if (NegProduct) {
      T = B.CreateNot(T);
      Lsb = 1;
    } else if (NegC) {
      C = B.CreateNot(C);
      Lsb = 1;
    }
    Value *C128 = SignedFinal ? B.CreateSExt(C, Ty) : B.CreateZExt(C, Ty);
    T = B.CreateAdd(B.CreateAdd(T, C128), constant(Ty, Lsb));
    unsigned Scale = I.hasModifier(Modifier::Shr7)    ? 7
                     : I.hasModifier(Modifier::Shr15) ? 15
                                                      : 0;
    if (Scale) {
      // The scaled result keeps its low 64 bits, extended by the sign of
      // the final result.
      T = SignedFinal ? B.CreateAShr(T, Scale) : B.CreateLShr(T, Scale);
      T = B.CreateTrunc(T, intTy(64));
      T = SignedFinal ? B.CreateSExt(T, Ty) : B.CreateZExt(T, Ty);
    }
    if (I.hasModifier(Modifier::Sat))
      T = clamp(T, 32, SignedFinal);
    return B.CreateTrunc(T, intTy(32));
  }

  /// Element K (0 to 2 * Parts - 1) of the 64-bit a:b, extended.
  Value *element(Value *A, Value *Bv, unsigned K, bool Signed) {
    unsigned Width = 32 / Form.Parts;
    Value *Src = K < Form.Parts ? A : Bv;
    unsigned Pos = (K % Form.Parts) * Width;
    Type *I32 = Src->getType();
    Value *Up = B.CreateShl(Src, ConstantInt::get(I32, 32 - Width - Pos));
    Value *Sh = ConstantInt::get(I32, 32 - Width);
    return Signed ? B.CreateAShr(Up, Sh) : B.CreateLShr(Up, Sh);
  }

  Value *lowerSIMD() {
    ArrayRef<Operand> Ops = I.Operands;
    unsigned N = Form.Parts, Width = 32 / N;
    bool IsSet = Form.Op == VideoOp::Set;
    bool ASigned = isSigned(IsSet ? 0 : 1), BSigned = isSigned(IsSet ? 1 : 2);
    bool DSigned = !IsSet && isSigned(0);
    Type *I32 = intTy(32);
    Value *A = Sources[0], *Bv = Sources[1], *C = Sources[2];
    // Which element of a:b each lane reads; defaults .h10/.h32 and
    // .b3210/.b7654. Selector digits are written from the highest lane.
    auto Pick = [&](const VideoSelector &Sel, unsigned Lane, unsigned Base) {
      return Sel.empty() ? Base + Lane : Sel.getDigit(N - 1 - Lane);
    };
    const VideoSelector &Mask = Ops[0].Selector;
    auto InMask = [&](unsigned Lane) {
      if (Mask.empty())
        return true;
      for (unsigned K = 0; K != Mask.size(); ++K)
        if (Mask.getDigit(K) == Lane)
          return true;
      return false;
    };
    bool Accumulate = I.hasModifier(Modifier::Add);
    Value *D = Accumulate ? C : ConstantInt::get(I32, 0);
    for (unsigned Lane = 0; Lane != N; ++Lane) {
      if (!InMask(Lane)) {
        if (!Accumulate) {
          uint32_t Field = ((uint64_t(1) << Width) - 1) << (Lane * Width);
          D = B.CreateOr(D, B.CreateAnd(C, Field));
        }
        continue;
      }
      Value *X = element(A, Bv, Pick(Ops[1].Selector, Lane, 0), ASigned);
      Value *Y = element(A, Bv, Pick(Ops[2].Selector, Lane, N), BSigned);
      Value *T;
      switch (Form.Op) {
      case VideoOp::Add:
        T = B.CreateAdd(X, Y);
        break;
      case VideoOp::Sub:
        T = B.CreateSub(X, Y);
        break;
      case VideoOp::Avrg: {
        // (x + y + 1) >> 1 for a non-negative sum, (x + y) >> 1 otherwise:
        // halves round away from zero.
        Value *Sum = B.CreateAdd(X, Y);
        Value *Up =
            B.CreateZExt(B.CreateICmpSGE(Sum, ConstantInt::get(I32, 0)), I32);
        T = B.CreateAShr(B.CreateAdd(Sum, Up), 1);
        break;
      }
      case VideoOp::Absdiff:
        T = B.CreateBinaryIntrinsic(Intrinsic::abs, B.CreateSub(X, Y),
                                    B.getFalse());
        break;
      case VideoOp::Min:
        T = B.CreateBinaryIntrinsic(Intrinsic::smin, X, Y);
        break;
      case VideoOp::Max:
        T = B.CreateBinaryIntrinsic(Intrinsic::smax, X, Y);
        break;
      default: // Set
        T = B.CreateZExt(B.CreateICmp(getComparison(I), X, Y), I32);
        break;
      }
      if (I.hasModifier(Modifier::Sat))
        T = clamp(T, Width, DSigned);
      if (Accumulate) {
        D = B.CreateAdd(D, T);
        continue;
      }
      uint32_t Field = ((uint64_t(1) << Width) - 1);
      D = B.CreateOr(D, B.CreateShl(B.CreateAnd(T, Field), Lane * Width));
    }
    return D;
  }

  FunctionLowering &FL;
  IRBuilder<> &B;
  const ptx::Instruction &I;
  VideoForm Form;
  SmallVector<Value *, 3> Sources;
  bool Vector = false;
};

} // namespace

Error InstructionLowering::visitVideo(const ptx::Instruction &I) {
  if (I.Operands.size() < 3)
    return FL.error(I, "missing operands");
  return VideoLowering(FL, I).lower();
}
