//===- MBarrier.cpp - The state machine of an mbarrier object -------------===//

#include "ptxjit/Runtime/MBarrier.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::runtime;

MBarrierFields MBarrierFields::decode(uint64_t Word) {
  using namespace mbarrier;
  MBarrierFields F;
  F.Pending = Word >> PendingShift & CountMask;
  F.Expected = Word >> ExpectedShift & CountMask;
  // Sign-extend the 21-bit tx-count.
  uint32_t Tx = Word >> TxShift & TxMask;
  F.TxCount = int32_t(Tx << (32 - TxBits)) >> (32 - TxBits);
  F.Valid = Word & ValidBit;
  F.Phase = Word >> PhaseShift & 1;
  return F;
}

uint64_t MBarrierFields::encode() const {
  using namespace mbarrier;
  return uint64_t(Pending & CountMask) << PendingShift |
         uint64_t(Expected & CountMask) << ExpectedShift |
         (uint64_t(uint32_t(TxCount)) & TxMask) << TxShift |
         (Valid ? ValidBit : 0) | uint64_t(Phase) << PhaseShift;
}

/// Moves F to the next phase if the current one is complete.
static bool completeIfDone(MBarrierFields &F) {
  if (F.Pending || F.TxCount)
    return false;
  F.Phase = !F.Phase;
  F.Pending = F.Expected;
  return true;
}

static Error txError(int64_t Tx) {
  return createStringError("the tx-count of the mbarrier object would be "
                           "%lld, outside -(2^20-1)..2^20-1",
                           (long long)Tx);
}

static Error addTx(MBarrierFields &F, int64_t Delta) {
  int64_t Tx = int64_t(F.TxCount) + Delta;
  if (Tx > int64_t(mbarrier::MaxCount) || Tx < -int64_t(mbarrier::MaxCount))
    return txError(Tx);
  F.TxCount = int32_t(Tx);
  return Error::success();
}

static Error arriveOn(MBarrierFields &F, uint32_t Count) {
  if (Count > F.Pending)
    return createStringError("an arrival of %u on an mbarrier object with %u "
                             "pending arrivals",
                             Count, F.Pending);
  F.Pending -= Count;
  return Error::success();
}

Expected<MBarrierUpdate> runtime::applyMBarrierOp(uint64_t Word, uint32_t Op,
                                                  uint32_t Count) {
  bool NoComplete = Op & MBarrierNoComplete;
  auto Kind = static_cast<MBarrierOp>(Op & ~MBarrierNoComplete);
  MBarrierFields F = MBarrierFields::decode(Word);
  MBarrierUpdate U;
  if (Kind == MBarrierOp::Init) {
    if (Count < 1 || Count > mbarrier::MaxCount)
      return createStringError("mbarrier.init with count %u, outside "
                               "1..2^20-1",
                               Count);
    MBarrierFields New;
    New.Valid = true;
    New.Expected = New.Pending = Count;
    U.Word = New.encode();
    return U;
  }
  if (!F.Valid)
    return createStringError("the mbarrier object is not initialized");
  if (Kind == MBarrierOp::Inval) {
    U.Word = 0;
    return U;
  }
  switch (Kind) {
  case MBarrierOp::Arrive:
    if (Error E = arriveOn(F, Count))
      return std::move(E);
    break;
  case MBarrierOp::ArriveDrop:
    // The expected count drops for all later phases, then the arrival.
    if (Count > F.Expected)
      return createStringError("arrive_drop of %u on an mbarrier object "
                               "that expects %u arrivals",
                               Count, F.Expected);
    if (Error E = arriveOn(F, Count))
      return std::move(E);
    F.Expected -= Count;
    break;
  case MBarrierOp::ArriveExpectTx:
  case MBarrierOp::ArriveDropExpectTx:
    if (Count > mbarrier::MaxCount)
      return txError(Count);
    if (Error E = addTx(F, Count))
      return std::move(E);
    if (Kind == MBarrierOp::ArriveDropExpectTx) {
      if (!F.Expected)
        return createStringError("arrive_drop on an mbarrier object that "
                                 "expects no arrivals");
      if (Error E = arriveOn(F, 1))
        return std::move(E);
      --F.Expected;
    } else if (Error E = arriveOn(F, 1)) {
      return std::move(E);
    }
    break;
  case MBarrierOp::ExpectTx:
  case MBarrierOp::CompleteTx:
    if (Count > mbarrier::MaxCount)
      return txError(Count);
    if (Error E = addTx(F, Kind == MBarrierOp::ExpectTx ? int64_t(Count)
                                                        : -int64_t(Count)))
      return std::move(E);
    break;
  case MBarrierOp::CpAsyncArrive:
    // The copies are complete: the pending count goes up by one and the
    // arrival takes it down again.
    if (F.Pending == mbarrier::MaxCount)
      return createStringError("cp.async.mbarrier.arrive on an mbarrier "
                               "object with 2^20-1 pending arrivals");
    break;
  case MBarrierOp::CpAsyncArriveNoinc:
    if (Error E = arriveOn(F, 1))
      return std::move(E);
    break;
  case MBarrierOp::Init:
  case MBarrierOp::Inval:
    llvm_unreachable("handled above");
  }
  U.Completed = completeIfDone(F);
  if (U.Completed && NoComplete)
    return createStringError("an arrival with .noComplete completed the "
                             "phase of the mbarrier object");
  U.Word = F.encode();
  return U;
}
