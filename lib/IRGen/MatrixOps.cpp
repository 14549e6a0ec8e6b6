//===- MatrixOps.cpp - mma, wmma, ldmatrix, stmatrix, movmatrix -----------===//
//
// The warp-level matrix instructions. A fragment is a list of registers,
// each a <32 x i32> (or <32 x double>) over the lanes, so the whole warp's
// fragment is at hand:
//
// * mma and wmma.mma store their A, B and C fragments to the stack and call
//   ptxjit_rt_mma (MatrixMultiply.cpp), which computes D for the warp;
//   mma.sp also stores its metadata register and calls ptxjit_rt_mma_sp.
// * wmma.load and wmma.store address each lane's elements where
//   MatrixABI.h places them (row * stride + column, or the transpose):
//   gathers and scatters, one per register where its elements are adjacent
//   in memory.
// * ldmatrix and stmatrix take each row's address from the lane that gives
//   it (a shuffle of the address vector) and gather or scatter the rows;
//   movmatrix is one shuffle of the 16-bit halves.
//
// All but wmma.load and wmma.store are sync points that wait for every live
// lane of the warp (they are .aligned: the ISA leaves other cases
// undefined), so the lanes whose fragments they read have arrived.
//
//===----------------------------------------------------------------------===//

#include "CheckInstrumentation.h"
#include "InstructionVisitor.h"
#include "Lowering.h"
#include "ptxjit/ABI/MatrixABI.h"
#include "ptxjit/ABI/RoundingHelpers.h"
#include "ptxjit/PTX/MatrixRules.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::FragmentShape;
using ptx::MatrixForm;
using ptx::MatrixRole;
using ptx::Modifier;
using ptx::Operand;
using ptx::ScalarType;

namespace {

MatrixElement toElement(ScalarType T) {
  switch (T) {
  case ScalarType::F16:
    return ME_F16;
  case ScalarType::BF16:
    return ME_BF16;
  case ScalarType::TF32:
    return ME_TF32;
  case ScalarType::F64:
    return ME_F64;
  case ScalarType::S8:
    return ME_S8;
  case ScalarType::U8:
    return ME_U8;
  case ScalarType::S4:
    return ME_S4;
  case ScalarType::U4:
    return ME_U4;
  case ScalarType::B1:
    return ME_B1;
  case ScalarType::S32:
    return ME_S32;
  case ScalarType::E4M3:
    return ME_E4M3;
  case ScalarType::E5M2:
    return ME_E5M2;
  default:
    return ME_F32;
  }
}

MatrixOperandRole toOperandRole(MatrixRole R) {
  return R == MatrixRole::A ? MR_A : R == MatrixRole::B ? MR_B : MR_C;
}

/// The registers of a fragment operand: its elements, or the operand itself
/// when a single register is written without braces.
ArrayRef<Operand> registersOf(const Operand &Op) {
  return Op.Kind == Operand::Vector ? Op.Elements : ArrayRef<Operand>(Op);
}

class MatrixLowering {
public:
  MatrixLowering(FunctionLowering &FL, const ptx::Instruction &I,
                 const MatrixForm &F)
      : FL(FL), B(FL.B), I(I), F(F) {}

  Error lowerMultiply();
  Error lowerWmmaMemory();
  Error lowerLdStMatrix();
  Error lowerMovmatrix();
  /// RuntimeArg: the runtime's pointer, which ptxjit_rt_wgmma reports to.
  Error lowerWgmma(Value *RuntimeArg);

private:
  /// Stores fragment operand Src's registers into a new stack buffer.
  Expected<AllocaInst *> storeFragment(const Operand &Src,
                                       const FragmentShape &FS);
  /// Loads a buffer's registers into fragment operand Dst.
  Error loadFragment(const Operand &Dst, const FragmentShape &FS,
                     AllocaInst *Buf);
  /// The value of Op (of type T) in the first lane of the instruction's
  /// mask: the warp's value of an operand the ISA asks to be uniform.
  Expected<Value *> readFirstLane(const Operand &Op, ScalarType T);
  /// Reads register K of fragment operand Op as a <32 x i32> or <32 x i64>.
  Expected<Value *> readRegister(const Operand &Op, unsigned K, bool Wide);
  Error writeRegister(const Operand &Op, unsigned K, Value *V, bool Wide);
  /// A stack buffer holding a fragment's registers, one <32 x T> each (the
  /// layout MatrixABI.h gives ptxjit_rt_mma).
  AllocaInst *fragmentBuffer(const FragmentShape &FS);
  Value *constantVector(ArrayRef<uint64_t> Values);
  /// A lane value (a scalar or a vector) as a <32 x i64>.
  Value *laneVector64(const LaneValue &V);
  /// Host addresses of the rows ldmatrix and stmatrix name: lane L gets
  /// the address lane Row[L] gives, plus Offset[L] bytes.
  Value *rowAddresses(const LaneValue &Addr, ArrayRef<int> Row,
                      ArrayRef<uint64_t> Offset);

  FunctionLowering &FL;
  IRBuilder<> &B;
  const ptx::Instruction &I;
  const MatrixForm &F;
};

Expected<Value *> MatrixLowering::readRegister(const Operand &Op, unsigned K,
                                               bool Wide) {
  Expected<LaneValue> V =
      FL.read(registersOf(Op)[K], Wide ? ScalarType::B64 : ScalarType::B32);
  if (!V)
    return V.takeError();
  return FL.widen(V->V);
}

Error MatrixLowering::writeRegister(const Operand &Op, unsigned K, Value *V,
                                    bool Wide) {
  return FL.write(registersOf(Op)[K], V,
                  Wide ? ScalarType::B64 : ScalarType::B32);
}

AllocaInst *MatrixLowering::fragmentBuffer(const FragmentShape &FS) {
  bool Wide = FS.RegisterType == ScalarType::F64;
  Type *Reg = FL.getVectorType(Wide ? B.getInt64Ty() : B.getInt32Ty());
  return FL.createTemporary(ArrayType::get(Reg, FS.NumRegisters));
}

Value *MatrixLowering::constantVector(ArrayRef<uint64_t> Values) {
  SmallVector<Constant *, Lanes> C;
  for (uint64_t V : Values)
    C.push_back(B.getInt64(V));
  return ConstantVector::get(C);
}

Value *MatrixLowering::laneVector64(const LaneValue &V) {
  Value *X = FL.coerce(V.V, B.getInt64Ty(), /*Signed=*/false);
  return FL.widen(X);
}

Error MatrixLowering::lowerMultiply() {
  MatrixMultiply Op;
  Op.Family = F.Kind == MatrixForm::Mma ? MF_Mma : MF_Wmma;
  Op.M = F.M;
  Op.N = F.N;
  Op.K = F.K;
  Op.A = toElement(F.AType);
  Op.B = toElement(F.BType);
  Op.C = toElement(F.CType);
  Op.D = toElement(F.DType);
  Op.ARowMajor = F.ARowMajor;
  Op.BRowMajor = F.BRowMajor;
  Op.Satfinite = F.Satfinite;
  Op.BitOp = F.BitOp == MatrixForm::Xor   ? MBO_Xor
             : F.BitOp == MatrixForm::And ? MBO_And
                                          : MBO_None;
  Op.Sparse = F.Sparse;
  Op.Selector = uint8_t(F.Selector);
  Op.Rounding = F.Rounding == Modifier::Rz   ? RHM_TowardZero
                : F.Rounding == Modifier::Rm ? RHM_Down
                : F.Rounding == Modifier::Rp ? RHM_Up
                                             : RHM_NearestEven;
  Value *Buffers[4];
  for (MatrixRole R : {MatrixRole::A, MatrixRole::B, MatrixRole::C}) {
    Expected<AllocaInst *> Buf = storeFragment(
        I.Operands[ptx::getFragmentOperand(F, R)], ptx::getFragmentShape(F, R));
    if (!Buf)
      return Buf.takeError();
    Buffers[unsigned(R)] = *Buf;
  }
  FragmentShape DS = ptx::getFragmentShape(F, MatrixRole::D);
  AllocaInst *DBuf = fragmentBuffer(DS);
  if (F.Sparse) {
    // The metadata e: one register (or a constant) per lane.
    AllocaInst *EBuf = fragmentBuffer({1, ScalarType::B32});
    Expected<LaneValue> E =
        FL.read(I.Operands[ptx::SparseMetadataOperand], ScalarType::B32);
    if (!E)
      return E.takeError();
    B.CreateStore(FL.widen(E->V), EBuf);
    B.CreateCall(FL.ML.getRuntimeFunction(RuntimeEntry::MatrixMultiplySparse),
                 {B.getInt64(Op.encode()), DBuf, Buffers[0], Buffers[1],
                  Buffers[2], EBuf});
  } else {
    B.CreateCall(
        FL.ML.getRuntimeFunction(RuntimeEntry::MatrixMultiply),
        {B.getInt64(Op.encode()), DBuf, Buffers[0], Buffers[1], Buffers[2]});
  }
  return loadFragment(I.Operands[ptx::getFragmentOperand(F, MatrixRole::D)], DS,
                      DBuf);
}

Error MatrixLowering::lowerWmmaMemory() {
  bool Load = F.Kind == MatrixForm::WmmaLoad;
  MatrixRole Role = F.Role;
  ScalarType T = F.getType(Role);
  MatrixElement Elt = toElement(T);
  MatrixFragment Frag{MF_Wmma, toOperandRole(Role), Elt, F.ARowMajor, F.M, F.N,
                      F.K};
  bool RowMajor = F.ARowMajor;
  FragmentShape FS = ptx::getFragmentShape(F, Role);
  bool Wide = FS.RegisterType == ScalarType::F64;
  unsigned Bits = getMatrixElementBits(Elt);
  unsigned Per = Frag.getElementsPerRegister();
  const Operand &Data = I.Operands[Load ? 0 : 1];
  const Operand &AddrOp = I.Operands[Load ? 1 : 0];

  Expected<LaneValue> Base = FL.getAddress(AddrOp, I.Space);
  if (!Base)
    return Base.takeError();
  // The stride in elements: the operand, or the leading dimension.
  Value *Stride;
  if (I.Operands.size() == 3) {
    Expected<LaneValue> S = FL.read(I.Operands[2], ScalarType::U32);
    if (!S)
      return S.takeError();
    Stride = laneVector64(*S);
  } else {
    unsigned Lead = RowMajor ? Frag.getCols() : Frag.getRows();
    Stride = FL.splat(B.getInt64(Lead));
  }
  Value *BaseV = laneVector64(*Base);
  Value *Mask = FL.getInstMask();

  // Element offsets (in elements) of element I of each lane.
  auto Offsets = [&](unsigned Index, Value *&Rows, Value *&Cols) {
    SmallVector<uint64_t, Lanes> R, C;
    for (unsigned L = 0; L != Lanes; ++L) {
      MatrixCoord At = getFragmentCoord(Frag, L, Index);
      R.push_back(RowMajor ? At.Row : At.Col);
      C.push_back(RowMajor ? At.Col : At.Row);
    }
    Rows = constantVector(R);
    Cols = constantVector(C);
  };
  // Whether the elements of register K lie one after another in memory.
  auto Adjacent = [&](unsigned K) {
    for (unsigned L = 0; L != Lanes; ++L)
      for (unsigned J = 1; J < Per; ++J) {
        MatrixCoord P = getFragmentCoord(Frag, L, K * Per + J - 1);
        MatrixCoord Q = getFragmentCoord(Frag, L, K * Per + J);
        bool Next = RowMajor ? (P.Row == Q.Row && P.Col + 1 == Q.Col)
                             : (P.Col == Q.Col && P.Row + 1 == Q.Row);
        if (!Next)
          return false;
      }
    return true;
  };
  // Host addresses of element Index of each lane (sub-byte elements: of
  // the byte holding it).
  auto Address = [&](unsigned Index) {
    Value *Rows, *Cols;
    Offsets(Index, Rows, Cols);
    Value *Off = B.CreateAdd(B.CreateMul(Rows, Stride), Cols);
    Value *Bytes =
        Bits >= 8 ? B.CreateMul(Off, FL.splat(B.getInt64(Bits / 8)))
                  : B.CreateLShr(B.CreateMul(Off, FL.splat(B.getInt64(Bits))),
                                 FL.splat(B.getInt64(3)));
    return LaneValue{B.CreateAdd(BaseV, Bytes), Shape::varying()};
  };

  Type *RegTy = Wide ? B.getInt64Ty() : B.getInt32Ty();
  Type *EltTy = B.getIntNTy(Bits < 8 ? 8 : Bits);
  // The lanes whose access of At (Ty's size) may happen (checking mode).
  auto Checked = [&](const LaneValue &At, Type *Ty) {
    return emitAccessCheck(
        FL, I, At, Ty->getPrimitiveSizeInBits() / 8,
        Load ? CheckAccessKind::Read : CheckAccessKind::Write, Mask);
  };
  auto LoadAt = [&](const LaneValue &At, Type *Ty) {
    return FL.loadLanes(At, Ty, Checked(At, Ty));
  };
  auto StoreAt = [&](const LaneValue &At, Value *V) {
    FL.storeLanes(At, V, Checked(At, V->getType()->getScalarType()));
  };
  for (unsigned K = 0; K != FS.NumRegisters; ++K) {
    bool Whole = Per == 1 || Adjacent(K);
    if (!Whole && Bits < 8)
      return FL.error(I, "internal error: sub-byte wmma elements apart");
    if (Load) {
      Value *V;
      if (Whole) {
        V = LoadAt(Address(K * Per), RegTy);
      } else {
        V = FL.splat(ConstantInt::get(RegTy, 0));
        for (unsigned J = 0; J != Per; ++J) {
          Value *E = LoadAt(Address(K * Per + J), EltTy);
          Value *X = B.CreateZExt(E, FL.getVectorType(RegTy));
          V = B.CreateOr(
              V, B.CreateShl(X, FL.splat(ConstantInt::get(RegTy, J * Bits))));
        }
      }
      if (Error E = writeRegister(Data, K, V, Wide))
        return E;
      continue;
    }
    Expected<Value *> V = readRegister(Data, K, Wide);
    if (!V)
      return V.takeError();
    if (Whole) {
      StoreAt(Address(K * Per), *V);
      continue;
    }
    for (unsigned J = 0; J != Per; ++J) {
      Value *X = B.CreateLShr(*V, FL.splat(ConstantInt::get(RegTy, J * Bits)));
      StoreAt(Address(K * Per + J), B.CreateTrunc(X, FL.getVectorType(EltTy)));
    }
  }
  return Error::success();
}

Value *MatrixLowering::rowAddresses(const LaneValue &Addr, ArrayRef<int> Row,
                                    ArrayRef<uint64_t> Offset) {
  Value *A = laneVector64(Addr);
  Value *Rows = Addr.isScalar() ? A : B.CreateShuffleVector(A, Row);
  return B.CreateAdd(Rows, constantVector(Offset));
}

Error MatrixLowering::lowerLdStMatrix() {
  bool Load = F.Kind == MatrixForm::Ldmatrix;
  if (F.M != 8 || F.N != 8)
    return FL.error(I, "'" + ptx::getSpelling(I.Op) + "' with shape ." +
                           (F.M == 16 && F.N == 16 ? "m16n16"
                            : F.M == 16            ? "m16n8"
                                                   : "m8n16") +
                           " (.b8 elements, sm_100a) is not supported");
  const Operand &Data = I.Operands[Load ? 0 : 1];
  Expected<LaneValue> Addr = FL.getAddress(I.Operands[Load ? 1 : 0], I.Space);
  if (!Addr)
    return Addr.takeError();
  Value *Mask = FL.getInstMask();
  // The lanes whose access of Size bytes at At may happen (checking mode).
  auto Checked = [&](const LaneValue &At, unsigned Size) {
    return emitAccessCheck(
        FL, I, At, Size, Load ? CheckAccessKind::Read : CheckAccessKind::Write,
        Mask);
  };
  // Lane t holds, of each 8x8 matrix, row t/4, columns 2(t%4) and 2(t%4)+1
  // ("ldmatrix fragment layout"); with .trans, the matrix in memory is the
  // transpose: its rows 2(t%4) and 2(t%4)+1, column t/4.
  for (unsigned Mat = 0; Mat != F.NumMatrices; ++Mat) {
    if (!F.Trans) {
      SmallVector<int, Lanes> Row;
      SmallVector<uint64_t, Lanes> Off;
      for (unsigned T = 0; T != Lanes; ++T) {
        Row.push_back(8 * Mat + T / 4);
        Off.push_back(4 * (T % 4));
      }
      LaneValue At{rowAddresses(*Addr, Row, Off), Shape::varying()};
      if (Load) {
        Value *V = FL.loadLanes(At, B.getInt32Ty(), Checked(At, 4));
        if (Error E = writeRegister(Data, Mat, V, /*Wide=*/false))
          return E;
        continue;
      }
      Expected<Value *> V = readRegister(Data, Mat, /*Wide=*/false);
      if (!V)
        return V.takeError();
      FL.storeLanes(At, *V, Checked(At, 4));
      continue;
    }
    Value *Reg = nullptr;
    if (!Load) {
      Expected<Value *> V = readRegister(Data, Mat, /*Wide=*/false);
      if (!V)
        return V.takeError();
      Reg = *V;
    } else {
      Reg = FL.splat(B.getInt32(0));
    }
    for (unsigned Half = 0; Half != 2; ++Half) {
      SmallVector<int, Lanes> Row;
      SmallVector<uint64_t, Lanes> Off;
      for (unsigned T = 0; T != Lanes; ++T) {
        Row.push_back(8 * Mat + 2 * (T % 4) + Half);
        Off.push_back(2 * (T / 4));
      }
      LaneValue At{rowAddresses(*Addr, Row, Off), Shape::varying()};
      Value *Shift = FL.splat(B.getInt32(16 * Half));
      if (Load) {
        Value *E = FL.loadLanes(At, B.getInt16Ty(), Checked(At, 2));
        Reg = B.CreateOr(
            Reg, B.CreateShl(B.CreateZExt(E, FL.getVectorType(B.getInt32Ty())),
                             Shift));
      } else {
        Value *E = B.CreateTrunc(B.CreateLShr(Reg, Shift),
                                 FL.getVectorType(B.getInt16Ty()));
        FL.storeLanes(At, E, Checked(At, 2));
      }
    }
    if (Load)
      if (Error E = writeRegister(Data, Mat, Reg, /*Wide=*/false))
        return E;
  }
  return Error::success();
}

Error MatrixLowering::lowerMovmatrix() {
  // Lane t's half j of d is element (row 2(t%4)+j, column t/4) of the
  // matrix a holds, which is half (t/4)%2 of lane 4(2(t%4)+j) + t/8.
  Expected<LaneValue> A = FL.read(I.Operands[1], ScalarType::B32);
  if (!A)
    return A.takeError();
  Type *Halves = FixedVectorType::get(B.getInt16Ty(), 2 * Lanes);
  Value *Src = B.CreateBitCast(FL.widen(A->V), Halves);
  SmallVector<int, 2 * Lanes> Idx;
  for (unsigned T = 0; T != Lanes; ++T)
    for (unsigned J = 0; J != 2; ++J) {
      unsigned Lane = 4 * (2 * (T % 4) + J) + T / 8;
      Idx.push_back(2 * Lane + (T / 4) % 2);
    }
  Value *D = B.CreateBitCast(B.CreateShuffleVector(Src, Idx),
                             FL.getVectorType(B.getInt32Ty()));
  return FL.write(I.Operands[0], D, ScalarType::B32);
}

Expected<AllocaInst *> MatrixLowering::storeFragment(const Operand &Src,
                                                     const FragmentShape &FS) {
  bool Wide = FS.RegisterType == ScalarType::F64;
  AllocaInst *Buf = fragmentBuffer(FS);
  for (unsigned K = 0; K != FS.NumRegisters; ++K) {
    Expected<Value *> V = readRegister(Src, K, Wide);
    if (!V)
      return V.takeError();
    B.CreateStore(
        *V, B.CreateConstInBoundsGEP2_32(Buf->getAllocatedType(), Buf, 0, K));
  }
  return Buf;
}

Error MatrixLowering::loadFragment(const Operand &Dst, const FragmentShape &FS,
                                   AllocaInst *Buf) {
  bool Wide = FS.RegisterType == ScalarType::F64;
  Type *Reg = FL.getVectorType(Wide ? B.getInt64Ty() : B.getInt32Ty());
  for (unsigned K = 0; K != FS.NumRegisters; ++K) {
    Value *V = B.CreateLoad(
        Reg, B.CreateConstInBoundsGEP2_32(Buf->getAllocatedType(), Buf, 0, K));
    if (Error E = writeRegister(Dst, K, V, Wide))
      return E;
  }
  return Error::success();
}

Expected<Value *> MatrixLowering::readFirstLane(const Operand &Op,
                                                ScalarType T) {
  Expected<LaneValue> V = FL.read(Op, T);
  if (!V)
    return V.takeError();
  return V->isScalar() ? V->V : FL.extractFirstActiveLane(V->V);
}

/// wgmma.mma_async: the warp's accumulators (and A registers) go to the
/// stack, the descriptors and scale-d are taken from the first lane (the
/// ISA asks them to be the same in all), and ptxjit_rt_wgmma computes the
/// warp's 16 rows of D (WarpgroupMultiply.cpp).
Error MatrixLowering::lowerWgmma(Value *RuntimeArg) {
  WarpgroupMultiply Op;
  Op.N = F.N;
  Op.K = F.K;
  Op.A = toElement(F.AType);
  Op.B = toElement(F.BType);
  Op.D = toElement(F.DType);
  Op.ADescriptor = F.ADescriptor;
  Op.NegateA = F.NegateA;
  Op.NegateB = F.NegateB;
  Op.TransA = F.TransA;
  Op.TransB = F.TransB;
  Op.Satfinite = F.Satfinite;
  Op.BitAnd = F.BitOp == MatrixForm::And;
  FragmentShape DS = ptx::getFragmentShape(F, MatrixRole::D);
  Expected<AllocaInst *> DBuf = storeFragment(I.Operands[0], DS);
  if (!DBuf)
    return DBuf.takeError();
  Value *ABuf = Constant::getNullValue(B.getPtrTy());
  Value *ADesc = B.getInt64(0);
  if (F.ADescriptor) {
    Expected<Value *> V = readFirstLane(I.Operands[1], ScalarType::B64);
    if (!V)
      return V.takeError();
    ADesc = *V;
  } else {
    Expected<AllocaInst *> Buf =
        storeFragment(I.Operands[1], ptx::getFragmentShape(F, MatrixRole::A));
    if (!Buf)
      return Buf.takeError();
    ABuf = *Buf;
  }
  Expected<Value *> BDesc =
      readFirstLane(I.Operands[ptx::WgmmaBDescriptorOperand], ScalarType::B64);
  if (!BDesc)
    return BDesc.takeError();
  Expected<Value *> ScaleD =
      readFirstLane(I.Operands[ptx::WgmmaScaleDOperand], ScalarType::Pred);
  if (!ScaleD)
    return ScaleD.takeError();
  Value *Rank = B.CreateAnd(FL.getContextField(WCF_WarpIndex, B.getInt32Ty()),
                            B.getInt32(3));
  B.CreateCall(FL.ML.getRuntimeFunction(RuntimeEntry::WarpgroupMultiply),
               {RuntimeArg, B.getInt64(Op.encode()), *DBuf, ABuf, ADesc, *BDesc,
                B.CreateZExt(*ScaleD, B.getInt32Ty()), Rank,
                FL.getContextField(WCF_SharedBase, B.getPtrTy()),
                FL.getContextField(WCF_TotalSharedSize, B.getInt32Ty()),
                B.getInt32(FL.getLine(I.Loc))});
  return loadFragment(I.Operands[0], DS, *DBuf);
}

} // namespace

Error InstructionLowering::visitMatrix(const ptx::Instruction &I) {
  MatrixForm F;
  std::string Problem;
  if (!ptx::decodeMatrixForm(I, F, Problem))
    return FL.error(I, "'" + ptx::getSpelling(I.Op) + "' " + Problem);
  MatrixLowering ML(FL, I, F);
  switch (F.Kind) {
  case MatrixForm::Mma:
  case MatrixForm::WmmaMma:
    return ML.lowerMultiply();
  case MatrixForm::WmmaLoad:
  case MatrixForm::WmmaStore:
    return ML.lowerWmmaMemory();
  case MatrixForm::Ldmatrix:
  case MatrixForm::Stmatrix:
    return ML.lowerLdStMatrix();
  case MatrixForm::Movmatrix:
    return ML.lowerMovmatrix();
  case MatrixForm::Wgmma:
    return ML.lowerWgmma(FL.runtimeArg());
  }
  return FL.error(I, "unexpected matrix instruction");
}
