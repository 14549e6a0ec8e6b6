//===- CTACheck.h - The checks of one worker's CTAs -------------*- C++ -*-===//
//
// What the checking mode keeps for the CTAs a worker runs, one after
// another: the CTA's index and shared memory window, and a shadow cell per
// byte of shared memory (racecheck: the last writer and readers, with the
// epoch they accessed in; initcheck: whether the CTA wrote it). An epoch
// ends at every barrier completion, mbarrier or cluster barrier operation
// and warp-synchronous instruction of the CTA: accesses of two threads in
// one epoch are concurrent. Epochs grow across CTAs, so the shadow is
// never cleared.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_RUNTIME_CTACHECK_H
#define PTXJIT_LIB_RUNTIME_CTACHECK_H

#include "ptxjit/Runtime/CTAScheduler.h"
#include "ptxjit/Runtime/Checking.h"
#include "llvm/ADT/DenseSet.h"
#include <vector>

namespace ptxjit {
namespace runtime {

class CTACheck {
public:
  CTACheck(const LaunchCheck &L, CTAScheduler &S, const uint32_t Block[3],
           char *SharedBase, uint64_t SharedSize);

  /// A new CTA starts on the worker.
  void startCTA(const uint32_t Id[3]);

  uint32_t access(unsigned Warp, uint32_t Info, uint32_t Lanes,
                  const uint64_t *Addrs, uint32_t Line);
  void warpSync(unsigned Warp, uint32_t Lanes, const uint32_t *Masks,
                uint32_t Line);
  void barrier(unsigned Warp, uint32_t Info, uint32_t Lanes, uint32_t Barrier,
               uint32_t Count, uint32_t Line);

private:
  struct Cell {
    uint32_t WEpoch = 0, WLine = 0;
    uint32_t REpoch = 0, RLine = 0;
    uint32_t R2Epoch = 0, R2Line = 0;
    uint16_t WTid = 0, RTid = 0, R2Tid = 0;
    bool WAtomic = false, RAtomic = false, R2Atomic = false;
  };
  uint32_t epoch() const {
    return uint32_t(CTAGen + Sched.barriers().completions());
  }
  /// "thread (x,y,z) in block (x,y,z)".
  std::string who(unsigned Tid) const;
  std::string where(uint32_t Line) const;
  void report(const std::string &Key, const std::string &Text);
  bool reported(const std::string &Key);
  bool checkShared(unsigned Tid, uint64_t Off, unsigned Size, CheckAccessKind K,
                   uint32_t Line);
  void race(const char *Kind, const char *PrevAccess, unsigned PrevTid,
            uint32_t PrevLine, const char *Access, unsigned Tid, uint32_t Line,
            uint64_t Off, unsigned Size);
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
  std::vector<Cell> Shadow;
  /// Per 4-byte word of shared memory: the epoch in which it became
  /// read-saturated (every byte written before, not written in the epoch,
  /// and read by two threads in it, not atomically), after which another
  /// read in the epoch can neither report nor change what a later access
  /// would report, and skips the byte cells.
  std::vector<uint32_t> ReadSaturated;
  bool isReadSaturated(uint64_t Off, unsigned Size, uint32_t E) const;
  uint32_t unsaturatedReads(uint32_t Lanes, const uint64_t *Addrs,
                            unsigned Size) const;
  void updateReadSaturation(uint64_t Off, unsigned Size, uint32_t E,
                            bool Writes);
  uint64_t CTAGen = 0;
  uint32_t CTAStart = 0;
  /// Keys this worker has reported (the session's set takes a lock).
  llvm::DenseSet<uint64_t> Seen;
  const CheckSession::Region *LastRegion = nullptr;
};

} // namespace runtime
} // namespace ptxjit

#endif
