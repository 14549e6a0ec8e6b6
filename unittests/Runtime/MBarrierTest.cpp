//===- MBarrierTest.cpp - The mbarrier object's state machine -------------===//
//
// Expected values follow the PTX ISA's "mbarrier" section: a phase completes
// when its pending arrivals and its tx-count are both zero; the next phase
// starts with the expected count; arrive returns the state before it.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Runtime/MBarrier.h"
#include "gtest/gtest.h"

using namespace ptxjit;
using namespace ptxjit::runtime;

namespace {

/// Applies Op and returns the update, failing the test on an error.
MBarrierUpdate apply(uint64_t Word, MBarrierOp Op, uint32_t Count,
                     uint32_t Flags = 0) {
  llvm::Expected<MBarrierUpdate> U =
      applyMBarrierOp(Word, uint32_t(Op) | Flags, Count);
  if (!U) {
    ADD_FAILURE() << llvm::toString(U.takeError());
    return {};
  }
  return *U;
}

std::string error(uint64_t Word, MBarrierOp Op, uint32_t Count,
                  uint32_t Flags = 0) {
  llvm::Expected<MBarrierUpdate> U =
      applyMBarrierOp(Word, uint32_t(Op) | Flags, Count);
  if (U)
    return "";
  return llvm::toString(U.takeError());
}

MBarrierFields fields(uint64_t Word) { return MBarrierFields::decode(Word); }

TEST(MBarrierTest, InitSetsCountsAndPhaseZero) {
  MBarrierUpdate U = apply(0, MBarrierOp::Init, 5);
  MBarrierFields F = fields(U.Word);
  EXPECT_TRUE(F.Valid);
  EXPECT_EQ(F.Pending, 5u);
  EXPECT_EQ(F.Expected, 5u);
  EXPECT_EQ(F.TxCount, 0);
  EXPECT_FALSE(F.Phase);
  EXPECT_FALSE(U.Completed);
  // The count is 1 to 2^20-1.
  EXPECT_NE(error(0, MBarrierOp::Init, 0), "");
  EXPECT_NE(error(0, MBarrierOp::Init, 1u << 20), "");
  EXPECT_EQ(fields(apply(0, MBarrierOp::Init, (1u << 20) - 1).Word).Pending,
            (1u << 20) - 1);
}

TEST(MBarrierTest, FieldsRoundTrip) {
  MBarrierFields F;
  F.Pending = 0xABCDE;
  F.Expected = 0x12345;
  F.TxCount = -(1 << 20) + 1;
  F.Valid = true;
  F.Phase = true;
  MBarrierFields G = fields(F.encode());
  EXPECT_EQ(G.Pending, F.Pending);
  EXPECT_EQ(G.Expected, F.Expected);
  EXPECT_EQ(G.TxCount, F.TxCount);
  EXPECT_TRUE(G.Valid);
  EXPECT_TRUE(G.Phase);
}

TEST(MBarrierTest, ArrivalsCompleteThePhase) {
  uint64_t W = apply(0, MBarrierOp::Init, 3).Word;
  MBarrierUpdate U = apply(W, MBarrierOp::Arrive, 1);
  EXPECT_FALSE(U.Completed);
  EXPECT_EQ(fields(U.Word).Pending, 2u);
  U = apply(U.Word, MBarrierOp::Arrive, 2);
  EXPECT_TRUE(U.Completed);
  MBarrierFields F = fields(U.Word);
  EXPECT_TRUE(F.Phase); // phase 1
  EXPECT_EQ(F.Pending, 3u);
  // The phase of parity 0 is complete now, the one of parity 1 is not.
  EXPECT_TRUE(isPhaseComplete(U.Word, false));
  EXPECT_FALSE(isPhaseComplete(U.Word, true));
  // Two more phases bring the parity back.
  U = apply(U.Word, MBarrierOp::Arrive, 3);
  EXPECT_TRUE(U.Completed);
  EXPECT_FALSE(fields(U.Word).Phase);
  EXPECT_TRUE(isPhaseComplete(U.Word, true));
}

TEST(MBarrierTest, ArrivingMoreThanPendingIsAnError) {
  uint64_t W = apply(0, MBarrierOp::Init, 2).Word;
  EXPECT_NE(error(W, MBarrierOp::Arrive, 3), "");
}

TEST(MBarrierTest, NoCompleteMustNotComplete) {
  uint64_t W = apply(0, MBarrierOp::Init, 2).Word;
  MBarrierUpdate U = apply(W, MBarrierOp::Arrive, 1, MBarrierNoComplete);
  EXPECT_FALSE(U.Completed);
  EXPECT_NE(error(U.Word, MBarrierOp::Arrive, 1, MBarrierNoComplete), "");
}

TEST(MBarrierTest, ArriveDropLowersLaterPhases) {
  uint64_t W = apply(0, MBarrierOp::Init, 4).Word;
  // One thread leaves: this phase needs 3 more, later phases 3.
  MBarrierUpdate U = apply(W, MBarrierOp::ArriveDrop, 1);
  EXPECT_EQ(fields(U.Word).Pending, 3u);
  EXPECT_EQ(fields(U.Word).Expected, 3u);
  U = apply(U.Word, MBarrierOp::Arrive, 3);
  EXPECT_TRUE(U.Completed);
  EXPECT_EQ(fields(U.Word).Pending, 3u);
}

TEST(MBarrierTest, TransactionsHoldThePhase) {
  uint64_t W = apply(0, MBarrierOp::Init, 1).Word;
  // arrive.expect_tx: tx-count 64, then the one arrival: still waiting for
  // the bytes.
  MBarrierUpdate U = apply(W, MBarrierOp::ArriveExpectTx, 64);
  EXPECT_FALSE(U.Completed);
  EXPECT_EQ(fields(U.Word).TxCount, 64);
  EXPECT_EQ(fields(U.Word).Pending, 0u);
  U = apply(U.Word, MBarrierOp::CompleteTx, 48);
  EXPECT_FALSE(U.Completed);
  U = apply(U.Word, MBarrierOp::CompleteTx, 16);
  EXPECT_TRUE(U.Completed);
  EXPECT_EQ(fields(U.Word).TxCount, 0);
  EXPECT_EQ(fields(U.Word).Pending, 1u);
}

TEST(MBarrierTest, BytesBeforeTheExpectation) {
  // The copy completes before the thread says how many bytes to expect:
  // tx-count goes negative, and the expectation brings it back to zero.
  uint64_t W = apply(0, MBarrierOp::Init, 1).Word;
  MBarrierUpdate U = apply(W, MBarrierOp::CompleteTx, 32);
  EXPECT_EQ(fields(U.Word).TxCount, -32);
  EXPECT_FALSE(U.Completed);
  U = apply(U.Word, MBarrierOp::ArriveExpectTx, 32);
  EXPECT_TRUE(U.Completed);
}

TEST(MBarrierTest, TxCountRange) {
  uint64_t W = apply(0, MBarrierOp::Init, 1).Word;
  W = apply(W, MBarrierOp::ExpectTx, (1u << 20) - 1).Word;
  EXPECT_NE(error(W, MBarrierOp::ExpectTx, 1), "");
  W = apply(0, MBarrierOp::Init, 1).Word;
  W = apply(W, MBarrierOp::CompleteTx, (1u << 20) - 1).Word;
  EXPECT_EQ(fields(W).TxCount, -((1 << 20) - 1));
  EXPECT_NE(error(W, MBarrierOp::CompleteTx, 1), "");
}

TEST(MBarrierTest, CpAsyncArrive) {
  uint64_t W = apply(0, MBarrierOp::Init, 2).Word;
  // Without .noinc the pending count goes up and down again: no change.
  MBarrierUpdate U = apply(W, MBarrierOp::CpAsyncArrive, 0);
  EXPECT_EQ(U.Word, W);
  // With .noinc it is an arrival.
  U = apply(W, MBarrierOp::CpAsyncArriveNoinc, 0);
  EXPECT_EQ(fields(U.Word).Pending, 1u);
}

TEST(MBarrierTest, UninitializedAndInvalidated) {
  EXPECT_NE(error(0, MBarrierOp::Arrive, 1), "");
  uint64_t W = apply(0, MBarrierOp::Init, 1).Word;
  W = apply(W, MBarrierOp::Inval, 0).Word;
  EXPECT_EQ(W, 0u);
  EXPECT_NE(error(W, MBarrierOp::ExpectTx, 1), "");
}

TEST(MBarrierTest, StateIsTheWordBefore) {
  uint64_t W = apply(0, MBarrierOp::Init, 3).Word;
  MBarrierUpdate U = apply(W, MBarrierOp::Arrive, 1);
  // mbarrier.pending_count reads the pending count before the arrival;
  // test_wait reads the phase the arrival was in.
  EXPECT_EQ(fields(W).Pending, 3u);
  EXPECT_FALSE(getStateParity(W));
  EXPECT_FALSE(isPhaseComplete(U.Word, getStateParity(W)));
  U = apply(U.Word, MBarrierOp::Arrive, 2);
  EXPECT_TRUE(isPhaseComplete(U.Word, getStateParity(W)));
}

} // namespace
