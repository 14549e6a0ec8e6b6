//===- MBarrier.h - The state machine of an mbarrier object -----*- C++ -*-===//
//
// The operations of the PTX ISA on an mbarrier object ("Parallel
// Synchronization and Communication Instructions: mbarrier"), as pure
// functions of its 64-bit word (the layout in AsyncABI.h). A phase completes
// when its pending arrival count and its tx-count are both zero; the object
// then moves to the next phase, its pending count back at the expected
// count. Counts out of the ranges the ISA gives are errors here, as is any
// operation but init on an object that is not initialized.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_RUNTIME_MBARRIER_H
#define PTXJIT_RUNTIME_MBARRIER_H

#include "ptxjit/ABI/AsyncABI.h"
#include "llvm/Support/Error.h"
#include <cstdint>

namespace ptxjit {
namespace runtime {

/// The fields of an mbarrier word.
struct MBarrierFields {
  uint32_t Pending = 0;
  uint32_t Expected = 0;
  int32_t TxCount = 0;
  bool Valid = false;
  bool Phase = false; ///< parity of the current phase

  static MBarrierFields decode(uint64_t Word);
  uint64_t encode() const;
};

/// The result of one operation.
struct MBarrierUpdate {
  uint64_t Word = 0;      ///< the object after the operation
  bool Completed = false; ///< it completed the current phase
};

/// Applies Op (an MBarrierOp, possibly with MBarrierNoComplete) with Count to
/// the object Word.
llvm::Expected<MBarrierUpdate> applyMBarrierOp(uint64_t Word, uint32_t Op,
                                               uint32_t Count);

/// Whether the phase of parity Parity has completed: it is the object's
/// current phase or the one before (the only ones test_wait may ask about),
/// so it has completed when the current phase has the other parity.
inline bool isPhaseComplete(uint64_t Word, bool Parity) {
  return (Word >> mbarrier::PhaseShift & 1) != uint64_t(Parity);
}
/// The parity of the phase a state from mbarrier.arrive names.
inline bool getStateParity(uint64_t State) {
  return State >> mbarrier::PhaseShift & 1;
}

} // namespace runtime
} // namespace ptxjit

#endif
