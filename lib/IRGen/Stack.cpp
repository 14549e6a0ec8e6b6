//===- Stack.cpp - alloca, stacksave, stackrestore ------------------------===//
//
// Dynamic .local allocation. A function with alloca gets DynamicStackBytes
// more in each lane's .local frame, above its variables; each lane's stack
// pointer starts at the top of its frame and is kept as a depth below it
// (a <32 x i64> stack slot, zero when the warp starts). alloca moves it down
// by the size, to the alignment, and returns it as a .local address (a host
// address, as every .local address is here), so ld.local/st.local and their
// address checks see the memory as part of the lane's frame. An alloca past
// the reserved bytes traps. stacksave reads the pointer and stackrestore
// sets it. Memory is not given back when an inlined callee returns: it
// shares its caller's frame.
//
//===----------------------------------------------------------------------===//

#include "InstructionVisitor.h"
#include "Lowering.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Opcode;
using ptx::ScalarType;

Error InstructionLowering::visitStack(const ptx::Instruction &I) {
  IRBuilder<> &B = FL.B;
  if (I.getType() != ScalarType::U64)
    return FL.error(I, "instruction '" + ptx::getSpelling(I.Op) +
                           ".u32' (32-bit .local addresses) is not supported");
  Value *Frames = FL.getLocalFrames();
  AllocaInst *Depths = FL.getStackDepths();
  if (!Frames || !Depths)
    return FL.error(I, "no dynamic stack in this function");
  Value *Top =
      B.CreateAdd(Frames, FL.splat(B.getInt64(FL.getLocalFrameSize())));
  Value *Depth = B.CreateLoad(Depths->getAllocatedType(), Depths);
  Value *SP = B.CreateSub(Top, Depth);
  Value *Mask = FL.getInstMask();
  Value *Active = FL.maskToVector(Mask);
  auto SetSP = [&](Value *NewSP) {
    B.CreateStore(B.CreateSelect(Active, B.CreateSub(Top, NewSP), Depth),
                  Depths);
  };
  switch (I.Op) {
  case Opcode::Stacksave:
    return FL.write(I.Operands[0], SP, ScalarType::U64);
  case Opcode::Stackrestore: {
    Expected<LaneValue> A = FL.read(I.Operands[0], ScalarType::U64);
    if (!A)
      return A.takeError();
    SetSP(FL.widen(A->V));
    return Error::success();
  }
  default:
    break;
  }
  // alloca: the alignment is at least 8, the ISA's frame alignment.
  Expected<LaneValue> Size = FL.read(I.Operands[1], ScalarType::U64);
  if (!Size)
    return Size.takeError();
  uint64_t Alignment = 8;
  if (I.Operands.size() == 3)
    Alignment = std::max<uint64_t>(Alignment, I.Operands[2].Value);
  Value *N = FL.widen(Size->V);
  Value *NewSP =
      B.CreateAnd(B.CreateSub(SP, N), FL.splat(B.getInt64(~(Alignment - 1))));
  // Past the reserved bytes (or a size larger than all of them, which
  // would wrap): the lane traps.
  Value *Lo =
      B.CreateAdd(Frames, FL.splat(B.getInt64(FL.getStaticFrameSize())));
  Value *Over =
      B.CreateOr(B.CreateICmpUGT(N, FL.splat(B.getInt64(DynamicStackBytes))),
                 B.CreateICmpULT(NewSP, Lo));
  Value *Traps = B.CreateAnd(Mask, B.CreateBitCast(Over, B.getInt32Ty()));
  trapLanes(Traps);
  SetSP(NewSP);
  return FL.write(I.Operands[0], NewSP, ScalarType::U64);
}
