//===- CheckRuntime.cpp - The checks checked kernels call -----------------===//
//
// memcheck, racecheck, synccheck and initcheck for one worker's CTAs
// (CTACheck.h), and the runtime entry points of CheckABI.h.
//
//===----------------------------------------------------------------------===//

#include "CTACheck.h"
#include "ptxjit/ABI/RuntimeEntryPoints.h"
#include "ptxjit/Runtime/AccessChecks.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::runtime;

/// Generic addresses that are in no allocation but this close to one are
/// reported as out of bounds; others may be .local data on the stack.
static constexpr uint64_t GenericSlack = 1 << 20;
/// Generic addresses below this are null pointers with an offset.
static constexpr uint64_t NullPage = 1 << 16;
/// Generic addresses this far above the runtime's frame are on the warp's
/// stack (the .local frames of the kernel and its callees).
static constexpr uint64_t StackSpan = 64ull << 20;

CTACheck::CTACheck(const LaunchCheck &L, CTAScheduler &S, const uint32_t Blk[3],
                   char *SharedBase, uint64_t SharedSize)
    : L(L), Sched(S), SharedBase(SharedBase), SharedSize(SharedSize) {
  std::copy(Blk, Blk + 3, Block);
  if (L.Kinds & (CheckRaces | CheckInit)) {
    WordCells.resize((SharedSize + 3) / 4);
    ReadSaturated.resize(SharedSize / 4);
  }
  // No word is read-saturated when there are none: the inline check reads
  // a zero, which is no epoch.
  static const uint32_t NoWords[1] = {0};
  Fast.ReadSaturated = ReadSaturated.empty() ? NoWords : ReadSaturated.data();
  Fast.NumWords = ReadSaturated.size();
  Fast.Completions = Sched.barriers().completionsAddress();
  Fast.EpochBase = CTAGen;
  for (unsigned I = 0; I != 2; ++I)
    Fast.RegionBase[I] = Fast.RegionSize[I] = Fast.RegionFrees[I] = 0;
  Fast.Frees = L.Session->freesAddress();
}

void CTACheck::startCTA(const uint32_t Id[3]) {
  std::copy(Id, Id + 3, CTA);
  for (SmallVector<LocalFrame, 4> &F : Frames)
    F.clear();
  ++CTAGen;
  Fast.EpochBase = CTAGen;
  CTAStart = raceEpoch();
}

std::string CTACheck::threadIndex(unsigned Tid) const {
  unsigned X = Tid % Block[0], Y = Tid / Block[0] % Block[1],
           Z = Tid / (Block[0] * Block[1]);
  return formatv("({0},{1},{2})", X, Y, Z).str();
}

std::string CTACheck::who(unsigned Tid) const {
  return formatv("thread {0} in block ({1},{2},{3})", threadIndex(Tid), CTA[0],
                 CTA[1], CTA[2])
      .str();
}

std::string CTACheck::where(uint32_t Line) const {
  std::string Where = formatv("at {0} in {1}:{2}", L.KernelName, L.File, Line);
  if (L.Layout) {
    std::string Source = describeSourceLine(*L.Layout, Line);
    if (!Source.empty())
      Where += " (" + Source + ")";
  }
  return Where;
}

bool CTACheck::reported(const std::string &Key) {
  return Seen.contains(hash_value(Key));
}

void CTACheck::report(const std::string &Key, const std::string &Text) {
  Seen.insert(hash_value(Key));
  L.Session->report(L.KernelName + "|" + Key, Text);
}

static const char *accessName(CheckAccessKind K) {
  switch (K) {
  case CheckAccessKind::Read:
    return "read";
  case CheckAccessKind::Write:
    return "write";
  case CheckAccessKind::Atomic:
    return "atomic";
  }
  return "access";
}

void CTACheck::invalid(const char *Space, CheckAccessKind K, unsigned Size,
                       unsigned Tid, uint32_t Line,
                       const std::string &AddrText) {
  std::string Key = formatv("mem|{0}", Line).str();
  if (reported(Key))
    return;
  report(Key,
         formatv("========= Invalid __{0}__ {1} of size {2} bytes\n"
                 "=========     {3}\n"
                 "=========     by {4}\n"
                 "=========     Address {5}\n"
                 "=========\n",
                 Space, accessName(K), Size, where(Line), who(Tid), AddrText)
             .str());
}

static std::string hex(uint64_t V) {
  return "0x" + utohexstr(V, /*LowerCase=*/true);
}

void CTACheck::race(const char *Kind, const char *PrevAccess, unsigned PrevTid,
                    uint32_t PrevLine, const char *Access, unsigned Tid,
                    uint32_t Line, uint64_t Off, unsigned Size) {
  std::string Key = formatv("race|{0}|{1}|{2}", Kind, PrevLine, Line).str();
  if (reported(Key))
    return;
  report(Key,
         formatv("========= Error: Race reported between {0} access {1} by "
                 "{2}\n"
                 "=========     and {3} access {4} by {5}\n"
                 "=========     {6} hazard at __shared__ address {7}, access "
                 "of size {8} bytes\n"
                 "=========\n",
                 PrevAccess, where(PrevLine), who(PrevTid), Access, where(Line),
                 who(Tid), Kind, hex(Off), Size)
             .str());
}

bool CTACheck::isSaturatedCell(const Cell &C) const {
  // The readers' warps have run no warp-synchronous instruction since
  // their reads: a skipped read of theirs would change nothing either.
  uint32_t E = RaceNow;
  return C.WEpoch >= CTAStart && C.WEpoch != E && C.REpoch == E &&
         C.R2Epoch == E && !C.RAtomic && !C.R2Atomic &&
         C.RSync == warpSyncs(C.RTid / WarpSize) &&
         C.R2Sync == warpSyncs(C.R2Tid / WarpSize);
}

void CTACheck::updateReadSaturation(uint64_t Off, unsigned Size, uint32_t E,
                                    bool Writes) {
  uint64_t First = Off / 4, Last = (Off + Size - 1) / 4;
  for (uint64_t W = First; W <= Last && W < ReadSaturated.size(); ++W) {
    if (Writes) {
      ReadSaturated[W] = 0;
      continue;
    }
    bool Saturated;
    if (!WordCells[W].Split) {
      Saturated = isSaturatedCell(WordCells[W]);
    } else {
      Saturated = true;
      for (unsigned B = 0; B != 4 && Saturated; ++B)
        Saturated = isSaturatedCell(ByteCells[W * 4 + B]);
    }
    if (Saturated)
      ReadSaturated[W] = E;
  }
}

void CTACheck::split(uint64_t W) {
  if (ByteCells.empty())
    ByteCells.resize(WordCells.size() * 4);
  Cell &C = WordCells[W];
  C.Split = false;
  std::fill_n(ByteCells.begin() + W * 4, 4, C);
  C.Split = true;
}

LLVM_ATTRIBUTE_ALWAYS_INLINE bool
CTACheck::updateCell(Cell &C, unsigned Tid, CheckAccessKind K, uint32_t Line,
                     uint64_t Off, unsigned Size) {
  bool Reads = K != CheckAccessKind::Write;
  bool Writes = K != CheckAccessKind::Read;
  bool Atomic = K == CheckAccessKind::Atomic;
  const char *Name = Atomic ? "Atomic" : Writes ? "Write" : "Read";
  uint32_t RE = RaceNow, Sync = SyncNow;
  bool Uninit = Reads && C.WEpoch < CTAStart;
  if (L.Kinds & CheckRaces) {
    // Another thread wrote concurrently: RAW or WAW.
    if (concurrent(C.WEpoch, C.WTid, C.WSync, Tid) && !(Atomic && C.WAtomic)) {
      race(Writes ? "Write-after-write" : "Read-after-write",
           C.WAtomic ? "Atomic" : "Write", C.WTid, C.WLine, Name, Tid, Line,
           Off, Size);
    } else if (Writes) {
      // Another thread read concurrently: WAR.
      if (concurrent(C.REpoch, C.RTid, C.RSync, Tid) && !(Atomic && C.RAtomic))
        race("Write-after-read", C.RAtomic ? "Atomic" : "Read", C.RTid, C.RLine,
             Name, Tid, Line, Off, Size);
      else if (concurrent(C.R2Epoch, C.R2Tid, C.R2Sync, Tid) &&
               !(Atomic && C.R2Atomic))
        race("Write-after-read", C.R2Atomic ? "Atomic" : "Read", C.R2Tid,
             C.R2Line, Name, Tid, Line, Off, Size);
    }
  }
  if (Reads) {
    if (C.REpoch != RE || C.RTid == Tid) {
      C.REpoch = RE, C.RLine = Line, C.RTid = Tid, C.RAtomic = Atomic;
      C.RSync = Sync;
    } else if (C.R2Epoch != RE || C.R2Tid == Tid) {
      C.R2Epoch = RE, C.R2Line = Line, C.R2Tid = Tid, C.R2Atomic = Atomic;
      C.R2Sync = Sync;
    }
  }
  if (Writes) {
    C.WEpoch = RE, C.WLine = Line, C.WTid = Tid, C.WAtomic = Atomic;
    C.WSync = Sync;
  }
  return Uninit;
}

void CTACheck::uninitShared(unsigned Tid, uint64_t Off, unsigned Size,
                            uint32_t Line) {
  std::string Key = formatv("init|{0}", Line).str();
  if (!reported(Key))
    report(Key, formatv("========= Uninitialized __shared__ memory read of "
                        "size {0} bytes\n"
                        "=========     {1}\n"
                        "=========     by {2}\n"
                        "=========     Address {3}\n"
                        "=========\n",
                        Size, where(Line), who(Tid), hex(Off))
                    .str());
}

LLVM_ATTRIBUTE_ALWAYS_INLINE bool
CTACheck::sharedWord(unsigned Tid, uint64_t Off, unsigned Size,
                     CheckAccessKind K, uint32_t Line, uint32_t E) {
  // The common access of one whole aligned word of a tile, as checkShared
  // would do it, without its call.
  if (Size != 4 || Off % 4 || Off / 4 >= ReadSaturated.size())
    return false;
  Cell &C = WordCells[Off / 4];
  if (C.Split)
    return false;
  uint32_t &S = ReadSaturated[Off / 4];
  if (K == CheckAccessKind::Read) {
    if (S == E)
      return true;
    bool Uninit = updateCell(C, Tid, K, Line, Off, Size);
    if (isSaturatedCell(C))
      S = E;
    if (Uninit && (L.Kinds & CheckInit))
      uninitShared(Tid, Off, Size, Line);
    return true;
  }
  bool Uninit = updateCell(C, Tid, K, Line, Off, Size);
  S = 0;
  if (Uninit && (L.Kinds & CheckInit))
    uninitShared(Tid, Off, Size, Line);
  return true;
}

bool CTACheck::checkShared(unsigned Tid, uint64_t Off, unsigned Size,
                           CheckAccessKind K, uint32_t Line, uint32_t E) {
  if (Off >= SharedSize || SharedSize - Off < Size) {
    if (L.Kinds & CheckMemory) {
      invalid("shared", K, Size, Tid, Line,
              formatv("{0} is out of bounds of the CTA's {1} bytes of shared "
                      "memory",
                      hex(Off), SharedSize)
                  .str());
      return false;
    }
    return true;
  }
  if (WordCells.empty())
    return true;
  bool Writes = K != CheckAccessKind::Read;
  // Epochs never repeat and start at 1, so a zeroed word is not saturated.
  if (!Writes && isReadSaturated(Off, Size, E))
    return true;
  bool Uninit = false;
  uint64_t End = Off + Size;
  if (Size == 4 && Off % 4 == 0 && !WordCells[Off / 4].Split) {
    // The common access of one whole word, inside ReadSaturated's words.
    Cell &C = WordCells[Off / 4];
    Uninit = updateCell(C, Tid, K, Line, Off, Size);
    uint32_t &S = ReadSaturated[Off / 4];
    if (Writes)
      S = 0;
    else if (isSaturatedCell(C))
      S = E;
  } else {
    // The cells in ascending byte order, as reports come out in; a whole
    // word's cell gives the same reports and state as its four equal bytes'.
    bool Whole = Off % 4 == 0 && Size % 4 == 0;
    for (uint64_t W = Off / 4; W * 4 < End; ++W) {
      Cell &WC = WordCells[W];
      if (Whole && !WC.Split) {
        Uninit |= updateCell(WC, Tid, K, Line, Off, Size);
        continue;
      }
      if (!WC.Split)
        split(W);
      for (uint64_t B = std::max(Off, W * 4); B != std::min(End, W * 4 + 4);
           ++B)
        Uninit |= updateCell(ByteCells[B], Tid, K, Line, Off, Size);
    }
    updateReadSaturation(Off, Size, E, Writes);
  }
  if (Uninit && (L.Kinds & CheckInit))
    uninitShared(Tid, Off, Size, Line);
  return true;
}

/// Whether A is above the caller's frame on the stack the warp runs on:
/// in the .local frames of the kernel and its callees. Not inlined, so that
/// its frame is below its callers'.
LLVM_ATTRIBUTE_NOINLINE static bool onWarpStack(uint64_t A) {
  uintptr_t Frame = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  return A >= Frame && A - Frame < StackSpan;
}

bool CTACheck::checkGlobal(unsigned Tid, uintptr_t A, unsigned Size,
                           CheckAccessKind K, uint32_t Line, bool Explicit) {
  const CheckSession::Region *R = LastRegion;
  if (!R || A - R->Base >= R->Size)
    R = L.Session->find(A);
  bool Inside = R && A - R->Base < R->Size && R->Size - (A - R->Base) >= Size;
  if (!Inside || R->Freed) {
    if (!Explicit && !R) {
      // A generic address in no allocation: .local data on the warp's
      // stack, unless it is near an allocation or null.
      if (A >= NullPage &&
          (onWarpStack(A) || !L.Session->isNear(A, GenericSlack)))
        return true;
    }
    if (!(L.Kinds & CheckMemory))
      return true;
    invalid("global", K, Size, Tid, Line,
            hex(A) + " " + L.Session->describe(A, Size));
    return false;
  }
  LastRegion = R;
  if (!R->Written)
    return true;
  uint8_t *W = R->Written.get() + (A - R->Base);
  if (K != CheckAccessKind::Read) {
    for (unsigned B = 0; B != Size; ++B)
      __atomic_store_n(&W[B], 1, __ATOMIC_RELAXED);
    return true;
  }
  for (unsigned B = 0; B != Size; ++B)
    if (!__atomic_load_n(&W[B], __ATOMIC_RELAXED)) {
      std::string Key = formatv("init|{0}", Line).str();
      if (!reported(Key))
        report(Key, formatv("========= Uninitialized __global__ memory read "
                            "of size {0} bytes\n"
                            "=========     {1}\n"
                            "=========     by {2}\n"
                            "=========     Address {3} ({4} bytes into "
                            "allocation {5} of {6} bytes{7})\n"
                            "=========\n",
                            Size, where(Line), who(Tid), hex(A), A - R->Base,
                            hex(R->Base), R->Size,
                            R->Name.empty() ? "" : ", " + R->Name)
                        .str());
      break;
    }
  return true;
}

void CTACheck::localFrame(unsigned Warp, uint64_t Base, uint64_t Size,
                          bool Enter) {
  if (Warp >= Frames.size())
    Frames.resize(Warp + 1);
  SmallVector<LocalFrame, 4> &Live = Frames[Warp];
  // A frame the new one overlaps is dead whatever happened to it (the
  // functions pop their frames on every return; this is a safety net).
  uint64_t End = Base + WarpSize * Size;
  llvm::erase_if(Live, [&](const LocalFrame &F) {
    return Enter ? F.Base < End && Base < F.Base + WarpSize * F.Size
                 : F.Base == Base;
  });
  if (Enter)
    Live.push_back({Base, Size});
}

const CTACheck::LocalFrame *CTACheck::findLocalFrame(unsigned Warp,
                                                     uint64_t A) const {
  if (Warp >= Frames.size())
    return nullptr;
  for (const LocalFrame &F : llvm::reverse(Frames[Warp]))
    if (A - F.Base < WarpSize * F.Size)
      return &F;
  return nullptr;
}

bool CTACheck::checkLocal(const LocalFrame *F, unsigned Warp, unsigned Lane,
                          uint64_t A, unsigned Size, CheckAccessKind K,
                          uint32_t Line) {
  unsigned Tid = Warp * WarpSize + Lane;
  bool InFrame = F != nullptr;
  // A .local address in no frame is told relative to the innermost one,
  // the function's own.
  if (!F && Warp < Frames.size() && !Frames[Warp].empty())
    F = &Frames[Warp].back();
  if (!F) {
    invalid("local", K, Size, Tid, Line,
            hex(A) + " is outside the thread's local memory, which is empty");
    return false;
  }
  uint64_t Own = F->Base + Lane * F->Size;
  if (InFrame && A >= Own && A - Own <= F->Size && F->Size - (A - Own) >= Size)
    return true;
  std::string Text = hex(A) + " is ";
  std::string Memory =
      formatv("the thread's {0} bytes of local memory", F->Size).str();
  if (A < Own)
    Text += formatv("{0} bytes before the start of {1}", Own - A, Memory);
  else if (A - Own >= F->Size)
    Text +=
        formatv("{0} bytes after the end of {1}", A - Own - F->Size, Memory);
  else
    Text += formatv("{0} bytes into {1}, and the access ends {2} bytes past it",
                    A - Own, Memory, A + Size - Own - F->Size);
  unsigned Owner = (A - F->Base) / F->Size;
  if (InFrame && Owner != Lane)
    Text += ", in the local memory of thread " +
            threadIndex(Warp * WarpSize + Owner);
  invalid("local", K, Size, Tid, Line, Text);
  return false;
}

bool CTACheck::fitsOneRegion(uint32_t Lanes, const uint64_t *Addrs,
                             unsigned Size) {
  // The common case, checked for the whole warp at once: every lane's
  // access is aligned and inside one allocation that needs no shadow.
  uint64_t Lo = ~0ull, Hi = 0, Or = 0;
  for (unsigned Lane = 0; Lane != WarpSize; ++Lane) {
    uint64_t A = Lanes >> Lane & 1 ? Addrs[Lane] : Addrs[countr_zero(Lanes)];
    Lo = std::min(Lo, A);
    Hi = std::max(Hi, A);
    Or |= A;
  }
  if (Or & ((Size & -Size) - 1))
    return false;
  const CheckSession::Region *R = LastRegion;
  if (!R || Lo - R->Base >= R->Size)
    R = L.Session->find(Lo);
  uint64_t Frees = L.Session->frees();
  if (!R || R->Freed || R->Written || Lo < R->Base ||
      Hi - R->Base > R->Size - Size || R->Size < Size)
    return false;
  LastRegion = R;
  // The kernel's own code checks the next accesses in R (CheckFastPath),
  // which replaces the region found less recently.
  unsigned Slot = Fast.RegionBase[0] == R->Base   ? 0
                  : Fast.RegionBase[1] == R->Base ? 1
                                                  : NextRegionSlot;
  NextRegionSlot = Slot ^ 1;
  Fast.RegionBase[Slot] = R->Base;
  Fast.RegionSize[Slot] = R->Size;
  Fast.RegionFrees[Slot] = Frees;
  return true;
}

uint32_t CTACheck::access(unsigned Warp, uint32_t Info, uint32_t Lanes,
                          const uint64_t *Addrs, uint32_t Line) {
  CheckSpace Space = checkAccessSpace(Info);
  unsigned Size = checkAccessSize(Info);
  CheckAccessKind K = checkAccessKind(Info);
  uintptr_t Shared = reinterpret_cast<uintptr_t>(SharedBase);
  if (Space != CheckSpace::Shared && Space != CheckSpace::Local &&
      fitsOneRegion(Lanes, Addrs, Size))
    return Lanes;
  // The common read of a tile in shared memory: a lane whose aligned word
  // is read-saturated (perhaps by the lanes before it) needs no further
  // look; checkShared would find the same.
  bool SharedReads = Space == CheckSpace::Shared &&
                     K == CheckAccessKind::Read && !ReadSaturated.empty();
  uint32_t E = epoch();
  RaceNow = raceEpoch();
  SyncNow = warpSyncs(Warp);
  uint64_t AlignMask = (Size & -Size) - 1;
  uint32_t Allowed = Lanes;
  // Lanes reading one word one after another (a broadcast) are common: once
  // the word is saturated, the rest of the run is skipped at once.
  uint32_t Same = 0; // lanes whose address is the lane's before
  if (SharedReads)
    for (unsigned Lane = 1; Lane != WarpSize; ++Lane)
      Same |= uint32_t(Addrs[Lane] == Addrs[Lane - 1]) << Lane;
  auto SkipRun = [&](uint32_t &M, unsigned Lane) {
    if (Lane + 1 == WarpSize)
      return;
    unsigned Run = countr_one(Same >> (Lane + 1));
    M &= ~uint32_t(((uint64_t(1) << Run) - 1) << (Lane + 1));
  };
  for (uint32_t M = Lanes; M; M &= M - 1) {
    unsigned Lane = countr_zero(M);
    uint64_t A = Addrs[Lane];
    uint64_t Off = A - Shared;
    bool InWords = SharedReads && !(Off & AlignMask) && Off < SharedSize &&
                   SharedSize - Off >= Size;
    if (InWords && isReadSaturated(Off, Size, E)) {
      SkipRun(M, Lane);
      continue;
    }
    unsigned Tid = Warp * WarpSize + Lane;
    if (Space == CheckSpace::Shared &&
        sharedWord(Tid, Off, Size, K, Line, E)) {
      if (InWords && isReadSaturated(Off, Size, E))
        SkipRun(M, Lane);
      continue;
    }
    bool Ok = true;
    // A generic address in a live .local frame is a .local access.
    const LocalFrame *Frame = nullptr;
    bool InLocal = Space == CheckSpace::Local;
    if (Space == CheckSpace::Local ||
        (Space == CheckSpace::Generic && A - Shared >= SharedSize)) {
      Frame = findLocalFrame(Warp, A);
      // Nothing else on the warp's stack has a generic address: there, an
      // address in no frame of a warp that has frames is a bad .local one.
      InLocal |= Frame != nullptr || (Warp < Frames.size() &&
                                      !Frames[Warp].empty() && onWarpStack(A));
    }
    if ((L.Kinds & CheckMemory) && (A & ((Size & -Size) - 1))) {
      std::string Key = formatv("align|{0}", Line).str();
      bool InShared = Space == CheckSpace::Shared ||
                      (Space == CheckSpace::Generic && A - Shared < SharedSize);
      if (!reported(Key))
        report(Key, formatv("========= Invalid __{0}__ {1} of size {2} bytes\n"
                            "=========     {3}\n"
                            "=========     by {4}\n"
                            "=========     Address {5} is misaligned\n"
                            "=========\n",
                            InShared  ? "shared"
                            : InLocal ? "local"
                                      : "global",
                            accessName(K), Size, where(Line), who(Tid),
                            hex(InShared ? A - Shared : A))
                        .str());
      Ok = false;
    } else if (InLocal) {
      Ok = !(L.Kinds & CheckMemory) ||
           checkLocal(Frame, Warp, Lane, A, Size, K, Line);
    } else if (Space == CheckSpace::Shared ||
               (Space == CheckSpace::Generic && A - Shared < SharedSize)) {
      Ok = checkShared(Tid, A - Shared, Size, K, Line, E);
    } else {
      Ok = checkGlobal(Tid, A, Size, K, Line, Space == CheckSpace::Global);
    }
    if (!Ok)
      Allowed &= ~(1u << Lane);
  }
  return Allowed;
}

void CTACheck::warpSync(unsigned Warp, uint32_t Lanes, const uint32_t *Masks,
                        uint32_t Line) {
  // The lanes' accesses before and after are ordered (racecheck), those of
  // other warps not; read saturation starts over.
  Sched.noteSync();
  ++WarpSyncTotal;
  if (Warp >= WarpSyncs.size())
    WarpSyncs.resize(Warp + 1);
  ++WarpSyncs[Warp];
  if (!(L.Kinds & CheckSync))
    return;
  for (uint32_t M = Lanes; M; M &= M - 1) {
    unsigned Lane = countr_zero(M);
    std::string Detail;
    if (!(Masks[Lane] >> Lane & 1)) {
      Detail = formatv("member mask 0x{0:x-8} of lane {1} does not name it",
                       Masks[Lane], Lane)
                   .str();
    } else {
      for (uint32_t N = Masks[Lane] & Lanes; N; N &= N - 1) {
        unsigned J = countr_zero(N);
        if (Masks[J] != Masks[Lane]) {
          Detail = formatv("lane {0} names member mask 0x{1:x-8}, lane {2} "
                           "names 0x{3:x-8}",
                           Lane, Masks[Lane], J, Masks[J])
                       .str();
          break;
        }
      }
    }
    if (Detail.empty())
      continue;
    std::string Key = formatv("warpsync|{0}", Line).str();
    if (!reported(Key))
      report(Key, formatv("========= Barrier error detected. Invalid "
                          "arguments\n"
                          "=========     {0}\n"
                          "=========     by {1}\n"
                          "=========     {2}\n"
                          "=========\n",
                          where(Line), who(Warp * WarpSize + Lane), Detail)
                      .str());
    return;
  }
}

void CTACheck::barrier(unsigned Warp, uint32_t Info, uint32_t Lanes,
                       uint32_t Barrier, uint32_t Count, uint32_t Line) {
  if (!Lanes)
    return;
  unsigned First = Warp * WarpSize + countr_zero(Lanes);
  if (Count % WarpSize) {
    std::string Key = formatv("barcount|{0}", Line).str();
    if (!reported(Key))
      report(Key, formatv("========= Barrier error detected. Invalid "
                          "arguments\n"
                          "=========     {0}\n"
                          "=========     by {1}\n"
                          "=========     thread count {2} of barrier {3} is "
                          "not a multiple of the warp size\n"
                          "=========\n",
                          where(Line), who(First), Count, Barrier)
                      .str());
  }
  if (!(Info & CheckBarrierAligned) || Warp >= Sched.barriers().numWarps() ||
      Barrier >= NumCTABarriers)
    return;
  LaneMask Missing = Sched.barriers().liveLanes(Warp) & ~Lanes &
                     ~Sched.barriers().waitingLanes(Warp, Barrier);
  if (!Missing)
    return;
  std::string Key = formatv("diverge|{0}", Line).str();
  if (reported(Key))
    return;
  std::string Arriving, Absent;
  raw_string_ostream A(Arriving), M(Absent);
  printLanes(A, Lanes);
  printLanes(M, Missing);
  report(Key, formatv("========= Barrier error detected. Divergent thread(s) "
                      "in warp\n"
                      "=========     {0}\n"
                      "=========     by {1}\n"
                      "=========     lanes {2} of warp {3} reach barrier {4} "
                      "without lanes {5}, which have not exited\n"
                      "=========\n",
                      where(Line), who(First), Arriving, Warp, Barrier, Absent)
                  .str());
}

static CTACheck *checkOf(void *Runtime) {
  return static_cast<CTACheck *>(
      static_cast<CTAScheduler *>(Runtime)->checkState());
}

extern "C" uint32_t ptxjit_rt_check_access(void *Runtime, uint32_t Warp,
                                           uint32_t Info, uint32_t Lanes,
                                           const uint64_t *Addrs,
                                           uint32_t Line) {
  CTACheck *C = checkOf(Runtime);
  return C && Lanes ? C->access(Warp, Info, Lanes, Addrs, Line) : Lanes;
}

extern "C" void ptxjit_rt_check_local_frame(void *Runtime, uint32_t Warp,
                                            uint64_t Frame, uint64_t Size,
                                            uint32_t Enter) {
  if (CTACheck *C = checkOf(Runtime))
    C->localFrame(Warp, Frame, Size, Enter);
}

extern "C" void ptxjit_rt_check_warp_sync(void *Runtime, uint32_t Warp,
                                          uint32_t Lanes, const uint32_t *Masks,
                                          uint32_t Line) {
  if (CTACheck *C = checkOf(Runtime))
    C->warpSync(Warp, Lanes, Masks, Line);
}

extern "C" void ptxjit_rt_check_barrier(void *Runtime, uint32_t Warp,
                                        uint32_t Info, uint32_t Lanes,
                                        uint32_t Barrier, uint32_t Count,
                                        uint32_t Line) {
  if (CTACheck *C = checkOf(Runtime))
    C->barrier(Warp, Info, Lanes, Barrier, Count, Line);
}
