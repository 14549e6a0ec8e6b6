//===- CheckInstrumentation.cpp - Calls of the checking mode --------------===//
//
// Each check is one runtime call with the lanes and their addresses or
// masks in stack slots; the runtime does the bookkeeping (shadow memory,
// allocations, reports). A checked kernel is slower, an unchecked one is
// unchanged.
//
//===----------------------------------------------------------------------===//

#include "CheckInstrumentation.h"
#include "ptxjit/ABI/WarpABI.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::StateSpace;

static bool checking(FunctionLowering &FL, unsigned Kinds) {
  return FL.ML.Options.CheckKinds & Kinds;
}

/// The space a checked access is in; nullopt for those not checked
/// (.param, .const, .shared::cluster).
static std::optional<CheckSpace> checkedSpace(StateSpace S) {
  switch (S) {
  case StateSpace::Global:
    return CheckSpace::Global;
  case StateSpace::Shared:
  case StateSpace::SharedCTA:
    return CheckSpace::Shared;
  case StateSpace::Local:
    return CheckSpace::Local;
  case StateSpace::Param:
  case StateSpace::Const:
  case StateSpace::SharedCluster:
  case StateSpace::Tex:
    return std::nullopt;
  default:
    return CheckSpace::Generic;
  }
}

/// V (a scalar or a <32 x T>) in a stack slot of 32 elements.
static Value *laneSlot(FunctionLowering &FL, Value *V) {
  Value *Vec = FL.widen(V);
  AllocaInst *A = FL.createTemporary(Vec->getType());
  FL.B.CreateStore(Vec, A);
  return A;
}

static Value *runtimeArg(FunctionLowering &FL) {
  return FL.getContextField(WCF_Runtime, FL.B.getPtrTy());
}

static Value *warpArg(FunctionLowering &FL) {
  return FL.getContextField(WCF_WarpIndex, FL.B.getInt32Ty());
}

Value *irgen::emitAccessCheck(FunctionLowering &FL, const ptx::Instruction &I,
                              const LaneValue &Addr, unsigned Size,
                              CheckAccessKind Kind, Value *Mask) {
  if (!checking(FL, CheckMemory | CheckRaces | CheckInit))
    return Mask;
  std::optional<CheckSpace> Space = checkedSpace(I.Space);
  if (!Space)
    return Mask;
  IRBuilder<> &B = FL.B;
  return B.CreateCall(FL.ML.getRuntimeFunction(RuntimeEntry::CheckAccess),
                      {runtimeArg(FL), warpArg(FL),
                       B.getInt32(encodeCheckAccess(*Space, Kind, Size)), Mask,
                       laneSlot(FL, FL.coerce(Addr.V, B.getInt64Ty(), false)),
                       B.getInt32(FL.getLine(I.Loc))});
}

void irgen::emitWarpSyncCheck(FunctionLowering &FL, const ptx::Instruction &I,
                              Value *Lanes, const LaneValue &MemberMask) {
  // racecheck: the lanes' accesses on either side are ordered.
  if (!checking(FL, CheckSync | CheckRaces))
    return;
  IRBuilder<> &B = FL.B;
  B.CreateCall(FL.ML.getRuntimeFunction(RuntimeEntry::CheckWarpSync),
               {runtimeArg(FL), warpArg(FL), Lanes, laneSlot(FL, MemberMask.V),
                B.getInt32(FL.getLine(I.Loc))});
}

void irgen::emitBarrierCheck(FunctionLowering &FL, const ptx::Instruction &I,
                             Value *Lanes, Value *Barrier, Value *Count) {
  if (!checking(FL, CheckSync))
    return;
  IRBuilder<> &B = FL.B;
  bool Aligned =
      I.Op == ptx::Opcode::Bar || I.hasModifier(ptx::Modifier::Aligned);
  B.CreateCall(FL.ML.getRuntimeFunction(RuntimeEntry::CheckBarrier),
               {runtimeArg(FL), warpArg(FL),
                B.getInt32(Aligned ? CheckBarrierAligned : 0), Lanes, Barrier,
                Count, B.getInt32(FL.getLine(I.Loc))});
}
