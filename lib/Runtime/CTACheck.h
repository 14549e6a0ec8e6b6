//===- CTACheck.h - The checks of one worker's CTAs -------------*- C++ -*-===//
//
// What the checking mode keeps for the CTAs a worker runs, one after
// another: the CTA's index and shared memory window, and a shadow cell per
// 4-byte word of shared memory (racecheck: the last writer and readers,
// with the epoch they accessed in; initcheck: whether the CTA wrote it),
// split into a cell per byte once an access covers part of the word. An epoch
// ends at every barrier completion, mbarrier or cluster barrier operation
// of the CTA: accesses of two threads in one epoch are concurrent, unless
// the threads are lanes of one warp that ran a warp-synchronous instruction
// between them. Epochs grow across CTAs, so the shadow is never cleared.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_RUNTIME_CTACHECK_H
#define PTXJIT_LIB_RUNTIME_CTACHECK_H

#include "ptxjit/Runtime/CTAScheduler.h"
#include "ptxjit/Runtime/Checking.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace ptxjit {
namespace runtime {

class CTACheck {
public:
  CTACheck(const LaunchCheck &L, CTAScheduler &S, const uint32_t Block[3],
           char *SharedBase, uint64_t SharedSize);

  /// A new CTA starts on the worker.
  void startCTA(const uint32_t Id[3]);
  /// What the kernel's inline checks read (WarpContext::CheckFast).
  const CheckFastPath *fastPath() const { return &Fast; }

  uint32_t access(unsigned Warp, uint32_t Info, uint32_t Lanes,
                  const uint64_t *Addrs, uint32_t Line);
  void warpSync(unsigned Warp, uint32_t Lanes, const uint32_t *Masks,
                uint32_t Line);
  void barrier(unsigned Warp, uint32_t Info, uint32_t Lanes, uint32_t Barrier,
               uint32_t Count, uint32_t Line);
  /// A function's .local frame on Warp starts (Enter) or ends.
  void localFrame(unsigned Warp, uint64_t Base, uint64_t Size, bool Enter);

private:
  struct Cell {
    uint32_t WEpoch = 0, WLine = 0;
    uint32_t REpoch = 0, RLine = 0;
    uint32_t R2Epoch = 0, R2Line = 0;
    /// The warp-synchronous instructions the access's warp had run then
    /// (warpSyncs): lanes of one warp are ordered across one of those.
    uint32_t WSync = 0, RSync = 0, R2Sync = 0;
    uint16_t WTid = 0, RTid = 0, R2Tid = 0;
    bool WAtomic = false, RAtomic = false, R2Atomic = false;
    /// A word's cell only: its bytes have cells of their own (ByteCells),
    /// which hold its state; else the word's cell stands for its 4 bytes.
    bool Split = false;
  };
  /// The epoch of read saturation: it ends at every barrier completion,
  /// mbarrier or cluster barrier operation and warp-synchronous instruction
  /// (what the kernel's inline check compares with).
  uint32_t epoch() const {
    return uint32_t(CTAGen + Sched.barriers().completions());
  }
  /// The epoch of racecheck and initcheck: as epoch(), except that a
  /// warp-synchronous instruction orders only its own warp's lanes
  /// (Cell::WSync), not the CTA's other warps.
  uint32_t raceEpoch() const {
    return uint32_t(CTAGen + Sched.barriers().completions() - WarpSyncTotal);
  }
  uint32_t warpSyncs(unsigned Warp) const {
    return Warp < WarpSyncs.size() ? WarpSyncs[Warp] : 0;
  }
  /// Whether an access in Epoch by PrevTid, whose warp had run PrevSync
  /// warp-synchronous instructions, is concurrent with the access of Tid
  /// being checked now (RaceNow, SyncNow).
  bool concurrent(uint32_t Epoch, unsigned PrevTid, uint32_t PrevSync,
                  unsigned Tid) const {
    return Epoch == RaceNow && PrevTid != Tid &&
           (PrevTid / WarpSize != Tid / WarpSize || PrevSync == SyncNow);
  }
  /// "thread (x,y,z) in block (x,y,z)".
  std::string who(unsigned Tid) const;
  std::string where(uint32_t Line) const;
  void report(const std::string &Key, const std::string &Text);
  bool reported(const std::string &Key);
  /// An access in epoch E of Size bytes at offset Off of shared memory;
  /// false if it may not happen (memcheck).
  bool checkShared(unsigned Tid, uint64_t Off, unsigned Size, CheckAccessKind K,
                   uint32_t Line, uint32_t E);
  /// checkShared's common case, inline: a whole aligned word; false if
  /// the access is not one.
  bool sharedWord(unsigned Tid, uint64_t Off, unsigned Size, CheckAccessKind K,
                  uint32_t Line, uint32_t E);
  void uninitShared(unsigned Tid, uint64_t Off, unsigned Size, uint32_t Line);
  /// One access's effect on one cell (in RaceNow, its warp at SyncNow):
  /// reports its races, records it;
  /// whether it reads a byte the CTA has not written.
  bool updateCell(Cell &C, unsigned Tid, CheckAccessKind K, uint32_t Line,
                  uint64_t Off, unsigned Size);
  /// Gives word W's bytes cells of their own, copies of the word's.
  void split(uint64_t W);
  void race(const char *Kind, const char *PrevAccess, unsigned PrevTid,
            uint32_t PrevLine, const char *Access, unsigned Tid, uint32_t Line,
            uint64_t Off, unsigned Size);
  /// One live .local frame of a warp: lane L's copy is the Size bytes at
  /// Base + L * Size.
  struct LocalFrame {
    uint64_t Base, Size;
  };
  /// The live frame of Warp that holds address A, or null.
  const LocalFrame *findLocalFrame(unsigned Warp, uint64_t A) const;
  /// memcheck of a .local access (or a generic one in F): it must lie in
  /// the lane's own copy of F. F is null for a .local address in no frame.
  bool checkLocal(const LocalFrame *F, unsigned Warp, unsigned Lane, uint64_t A,
                  unsigned Size, CheckAccessKind K, uint32_t Line);
  /// "(x,y,z)", the index in its block of thread Tid.
  std::string threadIndex(unsigned Tid) const;
  bool fitsOneRegion(uint32_t Lanes, const uint64_t *Addrs, unsigned Size);
  bool checkGlobal(unsigned Tid, uintptr_t A, unsigned Size, CheckAccessKind K,
                   uint32_t Line, bool Explicit);
  void invalid(const char *Space, CheckAccessKind K, unsigned Size,
               unsigned Tid, uint32_t Line, const std::string &AddrText);

  const LaunchCheck &L;
  CTAScheduler &Sched;
  uint32_t Block[3];
  uint32_t CTA[3] = {0, 0, 0};
  char *SharedBase;
  uint64_t SharedSize;
  /// A cell per 4-byte word of shared memory: an access of whole aligned
  /// words updates one cell per word instead of four, which is exact as long
  /// as the four bytes' cells would be equal; the first access to part of a
  /// word splits it (Cell::Split) and its bytes' cells take over.
  std::vector<Cell> WordCells;
  /// A cell per byte, for split words only (allocated at the first split).
  std::vector<Cell> ByteCells;
  /// Per 4-byte word of shared memory: the epoch in which it became
  /// read-saturated (every byte written before, not written in the epoch,
  /// and read by two threads in it, not atomically), after which another
  /// read in the epoch can neither report nor change what a later access
  /// would report, and skips the byte cells.
  std::vector<uint32_t> ReadSaturated;
  bool isReadSaturated(uint64_t Off, unsigned Size, uint32_t E) const {
    uint64_t First = Off / 4, Last = (Off + Size - 1) / 4;
    if (Last >= ReadSaturated.size())
      return false;
    for (uint64_t W = First; W <= Last; ++W)
      if (ReadSaturated[W] != E)
        return false;
    return true;
  }
  /// Whether a word or byte with cell C is read-saturated now.
  bool isSaturatedCell(const Cell &C) const;
  void updateReadSaturation(uint64_t Off, unsigned Size, uint32_t E,
                            bool Writes);
  uint64_t CTAGen = 0;
  /// Warp-synchronous instructions so far, in all and per warp.
  uint64_t WarpSyncTotal = 0;
  std::vector<uint32_t> WarpSyncs;
  /// The access being checked: its race epoch and its warp's syncs.
  uint32_t RaceNow = 0, SyncNow = 0;
  uint32_t CTAStart = 0;
  CheckFastPath Fast;
  unsigned NextRegionSlot = 0;
  /// Keys this worker has reported (the session's set takes a lock).
  llvm::DenseSet<uint64_t> Seen;
  const CheckSession::Region *LastRegion = nullptr;
  /// Per warp, the .local frames of the functions it is in, callers first.
  std::vector<llvm::SmallVector<LocalFrame, 4>> Frames;
};

} // namespace runtime
} // namespace ptxjit

#endif
