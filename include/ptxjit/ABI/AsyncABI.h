//===- AsyncABI.h - mbarrier objects and asynchronous operations -*- C++
//-*-===//
//
// What generated code and the runtime agree on about the asynchronous
// instructions: the operation codes of their runtime entry points
// (RuntimeEntryPoints.def) and the layout of an mbarrier object, the opaque
// 64-bit word in shared memory that the PTX ISA leaves to the
// implementation. The layout holds all of an object's state, so an
// mbarrier needs no storage besides its own eight bytes:
//
//   bits  0-19  pending arrival count of the current phase
//   bits 20-39  expected arrival count
//   bits 40-60  tx-count, a 21-bit two's complement number
//   bit  62     initialized (mbarrier.init sets it, mbarrier.inval clears it)
//   bit  63     parity of the current phase
//
// The state mbarrier.arrive returns is the object's word before the arrival:
// its phase for test_wait, its pending count for mbarrier.pending_count.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_ABI_ASYNCABI_H
#define PTXJIT_ABI_ASYNCABI_H

#include <cstdint>

namespace ptxjit {
namespace mbarrier {

constexpr unsigned CountBits = 20;
constexpr uint64_t CountMask = (uint64_t(1) << CountBits) - 1;
constexpr unsigned PendingShift = 0;
constexpr unsigned ExpectedShift = 20;
constexpr unsigned TxShift = 40;
constexpr unsigned TxBits = 21;
constexpr uint64_t TxMask = (uint64_t(1) << TxBits) - 1;
constexpr uint64_t ValidBit = uint64_t(1) << 62;
constexpr unsigned PhaseShift = 63;
/// The largest count of arrivals and of transactions.
constexpr uint32_t MaxCount = (uint32_t(1) << CountBits) - 1;

} // namespace mbarrier

/// The operation of ptxjit_rt_mbarrier.
enum class MBarrierOp : uint32_t {
  Init, ///< Counts[L]: the expected arrival count
  Inval,
  Arrive,         ///< Counts[L]: the arrival count; States[L] gets the state
  ArriveDrop,     ///< the same, and the expected count drops by it
  ArriveExpectTx, ///< Counts[L]: tx-count to expect, then one arrival
  ArriveDropExpectTx, ///< the same, dropping one expected arrival
  ExpectTx,           ///< Counts[L]: the transactions to expect
  CompleteTx,         ///< Counts[L]: the transactions complete
  CpAsyncArrive,      ///< cp.async.mbarrier.arrive: one arrival, pending
                      ///< count raised first (the copies are complete)
  CpAsyncArriveNoinc, ///< cp.async.mbarrier.arrive.noinc
};
/// MBarrierOp flag: .noComplete, the arrival must not complete the phase.
constexpr uint32_t MBarrierNoComplete = 1u << 8;

/// The wait of ptxjit_rt_mbarrier_wait: test_wait or try_wait (the same
/// here: a lane whose phase is incomplete waits until it completes or
/// nothing else in the CTA can run), with a state or a phase parity.
enum class MBarrierWaitOp : uint32_t { State, Parity };

/// The operation of ptxjit_rt_bulk_copy.
enum class BulkCopyOp : uint32_t {
  ToShared, ///< to .shared::cluster (or ::cta), complete-tx on the mbarrier
  ToGlobal, ///< .shared::cta to .global, bulk-group completion
};
/// BulkCopyOp for cp.reduce.async.bulk: Reduction (a BulkReduction) in bits
/// 8-15, the element type (a BulkElement) in bits 16-23.
enum class BulkReduction : uint32_t {
  None,
  Add,
  Min,
  Max,
  Inc,
  Dec,
  And,
  Or,
  Xor
};
enum class BulkElement : uint32_t {
  B32,
  U32,
  S32,
  B64,
  U64,
  S64,
  F32,
  F64,
  F16,
  BF16
};

} // namespace ptxjit

#endif
