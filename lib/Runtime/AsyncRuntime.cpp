//===- AsyncRuntime.cpp - Entry points of the asynchronous instructions ---===//
//
// mbarrier operations, mbarrier waits, the cluster barrier, bulk copies,
// copies through tensor maps and the tensor-map updates, for the lanes of the
// running warp in ascending order (RuntimeEntryPoints.def). An mbarrier object
// is updated with a compare-and-swap of its word, since a generic address may
// point anywhere; the domain of the CTA's cluster (AsyncDomain.h) learns of
// completed phases and releases the lanes that wait for them.
//
// On an error (a count out of range, an object that is not initialized, a
// misaligned address) the CTA stops: the error is built by a function of its
// own, because on fibers the stopping warp's frames are abandoned.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/ABI/AsyncABI.h"
#include "ptxjit/ABI/RuntimeEntryPoints.h"
#include "ptxjit/Runtime/AsyncDomain.h"
#include "ptxjit/Runtime/CTAScheduler.h"
#include "ptxjit/Runtime/MBarrier.h"
#include "ptxjit/Runtime/TensorMap.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <cstring>
#include <optional>
#include <type_traits>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::runtime;

static CTAScheduler &scheduler(void *Runtime) {
  return *static_cast<CTAScheduler *>(Runtime);
}

static const char *describeOp(uint32_t Op) {
  switch (static_cast<MBarrierOp>(Op & ~MBarrierNoComplete)) {
  case MBarrierOp::Init:
    return "mbarrier.init";
  case MBarrierOp::Inval:
    return "mbarrier.inval";
  case MBarrierOp::Arrive:
  case MBarrierOp::ArriveExpectTx:
    return "mbarrier.arrive";
  case MBarrierOp::ArriveDrop:
  case MBarrierOp::ArriveDropExpectTx:
    return "mbarrier.arrive_drop";
  case MBarrierOp::ExpectTx:
    return "mbarrier.expect_tx";
  case MBarrierOp::CompleteTx:
    return "mbarrier.complete_tx";
  case MBarrierOp::CpAsyncArrive:
  case MBarrierOp::CpAsyncArriveNoinc:
    return "cp.async.mbarrier.arrive";
  }
  return "mbarrier";
}

/// "mbarrier.arrive at line 12, lane 3, mbarrier at 0x...: Why".
[[gnu::noinline]] static Error asyncError(const char *What, uint32_t Line,
                                          unsigned Lane, uint64_t Addr,
                                          Error Why) {
  return createStringError(
      formatv("{0} (line {1}), lane {2}, mbarrier at {3:x}: {4}", What, Line,
              Lane, Addr, toString(std::move(Why)))
          .str());
}

[[gnu::noinline]] static Error misaligned(const char *What, uint32_t Line,
                                          unsigned Lane, uint64_t Addr,
                                          unsigned Align) {
  return createStringError(formatv("{0} (line {1}), lane {2}: address {3:x} "
                                   "is not {4}-byte aligned",
                                   What, Line, Lane, Addr, Align)
                               .str());
}

/// Applies Op with Count to the mbarrier at Addr; tells the domain. Returns
/// the word before, or an error.
static Expected<uint64_t> updateMBarrier(AsyncDomain *D, uint64_t Addr,
                                         uint32_t Op, uint32_t Count) {
  if (D)
    Addr = D->canonical(Addr);
  auto *Word = reinterpret_cast<uint64_t *>(Addr);
  uint64_t Old = __atomic_load_n(Word, __ATOMIC_ACQUIRE);
  MBarrierUpdate U;
  while (true) {
    Expected<MBarrierUpdate> R = applyMBarrierOp(Old, Op, Count);
    if (!R)
      return R.takeError();
    U = *R;
    if (__atomic_compare_exchange_n(Word, &Old, U.Word, /*weak=*/false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      break;
  }
  if (D) {
    auto Kind = static_cast<MBarrierOp>(Op & ~MBarrierNoComplete);
    if (Kind == MBarrierOp::Init || Kind == MBarrierOp::Inval)
      D->objectReset(Addr);
    else if (U.Completed)
      D->phaseCompleted(Addr);
    else
      D->noteEvent();
  }
  return Old;
}

extern "C" void ptxjit_rt_mbarrier(void *Runtime, uint32_t Op, uint32_t Lanes,
                                   const uint64_t *Addrs,
                                   const uint32_t *Counts, uint64_t *States,
                                   uint32_t Line) {
  CTAScheduler &S = scheduler(Runtime);
  S.noteSync(); // racecheck: orders accesses, as barriers do
  for (; Lanes; Lanes &= Lanes - 1) {
    unsigned L = countr_zero(Lanes);
    uint64_t Addr = Addrs[L];
    if (Addr % 8)
      return S.failWarp(misaligned(describeOp(Op), Line, L, Addr, 8));
    Expected<uint64_t> Old =
        updateMBarrier(S.asyncDomain(), Addr, Op, Counts[L]);
    if (!Old)
      return S.failWarp(
          asyncError(describeOp(Op), Line, L, Addr, Old.takeError()));
    if (States)
      States[L] = *Old;
  }
}

extern "C" uint32_t ptxjit_rt_mbarrier_wait(void *Runtime, uint32_t Op,
                                            uint32_t Lanes, uint32_t Resumed,
                                            const uint64_t *Addrs,
                                            const uint64_t *Phases,
                                            uint32_t Line) {
  CTAScheduler &S = scheduler(Runtime);
  S.noteSync(); // racecheck: orders accesses, as barriers do
  AsyncDomain &D = *S.asyncDomain();
  unsigned Rank = S.clusterRank(), Warp = S.currentWarp();
  // Lanes back from waiting: whether their phase completed or they timed
  // out was decided when they were released.
  uint32_t Done = D.takeCompleted(Rank, Warp, Resumed);
  uint32_t Parked = 0;
  for (uint32_t Fresh = Lanes & ~Resumed; Fresh; Fresh &= Fresh - 1) {
    unsigned L = countr_zero(Fresh);
    uint64_t Addr = D.canonical(Addrs[L]);
    if (Addr % 8) {
      S.failWarp(misaligned("mbarrier wait", Line, L, Addr, 8));
      return Lanes;
    }
    uint64_t Word =
        __atomic_load_n(reinterpret_cast<uint64_t *>(Addr), __ATOMIC_ACQUIRE);
    if (!(Word & mbarrier::ValidBit)) {
      S.failWarp(asyncError("mbarrier wait", Line, L, Addr,
                            createStringError("the mbarrier object is not "
                                              "initialized")));
      return Lanes;
    }
    bool Parity = static_cast<MBarrierWaitOp>(Op) == MBarrierWaitOp::Parity
                      ? Phases[L] & 1
                      : getStateParity(Phases[L]);
    if (isPhaseComplete(Word, Parity)) {
      Done |= 1u << L;
      continue;
    }
    D.waitForPhase(Rank, Warp, 1u << L, Addr, Parity, Line);
    Parked |= 1u << L;
  }
  // The warp's other lanes come back once the parked ones are released.
  if (Parked)
    D.keepCompleted(Rank, Warp, Done);
  return Done;
}

extern "C" void ptxjit_rt_cluster_arrive(void *Runtime, uint32_t Lanes,
                                         uint32_t Line) {
  CTAScheduler &S = scheduler(Runtime);
  S.noteSync(); // racecheck: orders accesses, as barriers do
  if (Error E = S.asyncDomain()->clusterArrive(S.clusterRank(), S.currentWarp(),
                                               Lanes))
    return S.failWarp(std::move(E));
}

extern "C" uint32_t ptxjit_rt_cluster_wait(void *Runtime, uint32_t Lanes,
                                           uint32_t Resumed, uint32_t Line) {
  CTAScheduler &S = scheduler(Runtime);
  S.noteSync(); // racecheck: orders accesses, as barriers do
  Expected<LaneMask> Pass = S.asyncDomain()->clusterWait(
      S.clusterRank(), S.currentWarp(), Lanes & ~Resumed, Line);
  if (!Pass) {
    S.failWarp(Pass.takeError());
    return Lanes;
  }
  return Resumed | *Pass;
}

//===----------------------------------------------------------------------===//
// Bulk copies
//===----------------------------------------------------------------------===//

namespace {

/// Float minimum and maximum as PTX has them: a NaN operand gives the other.
template <typename T> T reduceFloat(BulkReduction R, T Old, T V) {
  switch (R) {
  case BulkReduction::Min:
    return std::fmin(Old, V);
  case BulkReduction::Max:
    return std::fmax(Old, V);
  default:
    return Old + V;
  }
}

template <typename T> T reduceInt(BulkReduction R, T Old, T V) {
  switch (R) {
  case BulkReduction::Add:
    return Old + V;
  case BulkReduction::Min:
    return std::min(Old, V);
  case BulkReduction::Max:
    return std::max(Old, V);
  case BulkReduction::Inc:
    return Old >= V ? 0 : Old + 1;
  case BulkReduction::Dec:
    return Old == 0 || Old > V ? V : Old - 1;
  case BulkReduction::And:
    return Old & V;
  case BulkReduction::Or:
    return Old | V;
  case BulkReduction::Xor:
    return Old ^ V;
  case BulkReduction::None:
    break;
  }
  return V;
}

/// Each element of Dst becomes R(Dst, Src) atomically: other CTAs may
/// reduce into the same global memory at once.
template <typename T>
void reduceElements(char *Dst, const char *Src, uint32_t Size,
                    BulkReduction R) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  for (uint32_t Off = 0; Off < Size; Off += sizeof(T)) {
    auto *Word = reinterpret_cast<Bits *>(Dst + Off);
    T V;
    std::memcpy(&V, Src + Off, sizeof(T));
    Bits Old = __atomic_load_n(Word, __ATOMIC_RELAXED), New;
    do {
      T OldV;
      std::memcpy(&OldV, &Old, sizeof(T));
      T NewV;
      if constexpr (std::is_floating_point_v<T>)
        NewV = reduceFloat(R, OldV, V);
      else
        NewV = reduceInt(R, OldV, V);
      std::memcpy(&New, &NewV, sizeof(T));
    } while (!__atomic_compare_exchange_n(Word, &Old, New, /*weak=*/true,
                                          __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  }
}

void reduce(char *Dst, const char *Src, uint32_t Size, BulkReduction R,
            BulkElement E) {
  switch (E) {
  case BulkElement::S32:
    return reduceElements<int32_t>(Dst, Src, Size, R);
  case BulkElement::B64:
  case BulkElement::U64:
    return reduceElements<uint64_t>(Dst, Src, Size, R);
  case BulkElement::S64:
    return reduceElements<int64_t>(Dst, Src, Size, R);
  case BulkElement::F32:
    return reduceElements<float>(Dst, Src, Size, R);
  case BulkElement::F64:
    return reduceElements<double>(Dst, Src, Size, R);
  default:
    return reduceElements<uint32_t>(Dst, Src, Size, R);
  }
}

/// The CTA of the cluster whose shared memory holds Addr, or -1.
int findCTA(const AsyncDomain &D, uint64_t Addr, uint64_t &Offset) {
  Addr = D.canonical(Addr);
  for (unsigned R = 0, E = D.size(); R != E; ++R) {
    uint64_t Base = reinterpret_cast<uintptr_t>(D.sharedBase(R));
    if (Addr >= Base && Addr - Base < D.sharedSize()) {
      Offset = Addr - Base;
      return int(R);
    }
  }
  return -1;
}

} // namespace

[[gnu::noinline]] static Error bulkError(uint32_t Line, unsigned Lane,
                                         Error Why) {
  return createStringError(formatv("cp.async.bulk (line {0}), lane {1}: {2}",
                                   Line, Lane, toString(std::move(Why)))
                               .str());
}

[[gnu::noinline]] static Error bulkError(uint32_t Line, unsigned Lane,
                                         const char *Why) {
  return bulkError(Line, Lane, createStringError(Why));
}

/// Copies one lane's Size bytes and signals its mbarrier.
static Error bulkCopyOne(AsyncDomain *D, uint32_t Op, uint64_t Dst,
                         uint64_t Src, uint32_t Size, uint64_t MBar) {
  auto Reduction = static_cast<BulkReduction>(Op >> 8 & 0xff);
  auto Element = static_cast<BulkElement>(Op >> 16 & 0xff);
  char *To = reinterpret_cast<char *>(Dst);
  const char *From = reinterpret_cast<const char *>(Src);
  if (Reduction == BulkReduction::None)
    std::memmove(To, From, Size);
  else
    reduce(To, From, Size, Reduction, Element);
  if (static_cast<BulkCopyOp>(Op & 0xff) != BulkCopyOp::ToShared)
    return Error::success();
  if (MBar % 8)
    return createStringError("the mbarrier address is not 8-byte aligned");
  Expected<uint64_t> Old =
      updateMBarrier(D, MBar, uint32_t(MBarrierOp::CompleteTx), Size);
  return Old ? Error::success() : Old.takeError();
}

extern "C" void ptxjit_rt_bulk_copy(void *Runtime, uint32_t Op, uint32_t Lanes,
                                    const uint64_t *Dsts, const uint64_t *Srcs,
                                    const uint32_t *Sizes,
                                    const uint64_t *MBarriers,
                                    const uint32_t *CTAMasks, uint32_t Line) {
  CTAScheduler &S = scheduler(Runtime);
  AsyncDomain *D = S.asyncDomain();
  for (; Lanes; Lanes &= Lanes - 1) {
    unsigned L = countr_zero(Lanes);
    uint32_t Size = Sizes[L];
    if (Size % 16)
      return S.failWarp(bulkError(Line, L, "the size is not a multiple of 16"));
    if (Dsts[L] % 16 || Srcs[L] % 16)
      return S.failWarp(
          bulkError(Line, L, "the addresses are not 16-byte aligned"));
    if (!CTAMasks[L]) {
      if (Error E = bulkCopyOne(D, Op, Dsts[L], Srcs[L], Size, MBarriers[L]))
        return S.failWarp(bulkError(Line, L, std::move(E)));
      continue;
    }
    // .multicast::cluster: the same offsets in each CTA the mask names.
    uint64_t DstOff, MBarOff;
    if (!D || findCTA(*D, Dsts[L], DstOff) < 0 ||
        findCTA(*D, MBarriers[L], MBarOff) < 0)
      return S.failWarp(bulkError(
          Line, L, "a multicast copy needs shared memory of the cluster"));
    for (uint32_t M = CTAMasks[L] & 0xffff; M; M &= M - 1) {
      unsigned R = countr_zero(M);
      if (R >= D->size())
        return S.failWarp(
            bulkError(Line, L, "the CTA mask names a CTA outside the cluster"));
      uint64_t Base = reinterpret_cast<uintptr_t>(D->sharedBase(R));
      if (Error E =
              bulkCopyOne(D, Op, Base + DstOff, Srcs[L], Size, Base + MBarOff))
        return S.failWarp(bulkError(Line, L, std::move(E)));
    }
  }
}

//===----------------------------------------------------------------------===//
// Copies through tensor maps
//===----------------------------------------------------------------------===//

[[gnu::noinline]] static Error tensorError(const char *What, uint32_t Line,
                                           unsigned Lane, Error Why) {
  return createStringError(formatv("{0} (line {1}), lane {2}: {3}", What, Line,
                                   Lane, toString(std::move(Why)))
                               .str());
}

[[gnu::noinline]] static Error tensorError(const char *What, uint32_t Line,
                                           unsigned Lane, const char *Why) {
  return tensorError(What, Line, Lane, createStringError(Why));
}

namespace {

/// A reduction of cp.reduce.async.bulk.tensor, element by element.
struct TensorReduction {
  BulkReduction Reduction;
  BulkElement Element;
  unsigned Size;

  static void store(void *Arg, char *To, const char *From) {
    auto *R = static_cast<TensorReduction *>(Arg);
    reduce(To, From, R->Size, R->Reduction, R->Element);
  }
};

/// The reduction R on elements of Map's type, or why it is not supported.
Expected<TensorReduction> getTensorReduction(BulkReduction R,
                                             const TensorMapImage &Map) {
  auto Type = static_cast<TensorDataType>(Map.DataType);
  std::optional<BulkElement> E;
  switch (Type) {
  case TensorDataType::U32:
    E = BulkElement::U32;
    break;
  case TensorDataType::S32:
    E = BulkElement::S32;
    break;
  case TensorDataType::U64:
    E = BulkElement::U64;
    break;
  case TensorDataType::S64:
    E = BulkElement::S64;
    break;
  case TensorDataType::F32:
  case TensorDataType::F32Ftz:
    E = BulkElement::F32;
    break;
  case TensorDataType::F64:
    E = BulkElement::F64;
    break;
  default:
    break;
  }
  bool Float = isFloatTensorType(Type);
  bool IntegerOnly = R == BulkReduction::Inc || R == BulkReduction::Dec ||
                     R == BulkReduction::And || R == BulkReduction::Or ||
                     R == BulkReduction::Xor;
  bool U32Only = R == BulkReduction::Inc || R == BulkReduction::Dec;
  if (!E || (Float && IntegerOnly) || (U32Only && Type != TensorDataType::U32))
    return createStringError(
        formatv("the reduction is not supported on {0} elements",
                getTensorDataTypeName(Type))
            .str());
  return TensorReduction{R, *E, getTensorElementSize(Type)};
}

} // namespace

/// Copies one lane's box between the tensor and CTA Rank's shared memory at
/// offset Offset (reducing into the tensor with Reduction, if not None),
/// then (loads) signals the mbarrier at MBar.
static Error tensorCopyOne(AsyncDomain &D, const TensorMapImage &Map,
                           bool ToShared, BulkReduction Reduction,
                           unsigned Rank, uint64_t Offset,
                           const int32_t *Coords, uint64_t MBar) {
  std::optional<TensorReduction> R;
  if (Reduction != BulkReduction::None) {
    Expected<TensorReduction> Got = getTensorReduction(Reduction, Map);
    if (!Got)
      return Got.takeError();
    R = *Got;
  }
  if (Error E = copyTensorBox(
          Map, ToShared, D.sharedBase(Rank), D.sharedSize(), Offset, Coords,
          R ? &TensorReduction::store : nullptr, R ? &*R : nullptr))
    return E;
  if (!ToShared)
    return Error::success();
  if (MBar % 8)
    return createStringError("the mbarrier address is not 8-byte aligned");
  uint64_t Bytes = getTensorBoxBytes(Map);
  if (Bytes > mbarrier::MaxCount)
    return createStringError(
        formatv("the box's {0} bytes exceed the mbarrier's tx-count", Bytes)
            .str());
  Expected<uint64_t> Old =
      updateMBarrier(&D, MBar, uint32_t(MBarrierOp::CompleteTx), Bytes);
  return Old ? Error::success() : Old.takeError();
}

extern "C" void ptxjit_rt_tensor_copy(void *Runtime, uint32_t Op,
                                      uint32_t Lanes, const uint64_t *Shared,
                                      const uint64_t *Maps,
                                      const int32_t *Coords,
                                      const uint64_t *MBarriers,
                                      const uint32_t *CTAMasks, uint32_t Line) {
  CTAScheduler &S = scheduler(Runtime);
  AsyncDomain *D = S.asyncDomain();
  bool ToShared =
      static_cast<TensorCopyOp>(Op & 0xff) == TensorCopyOp::ToShared;
  unsigned Rank = Op >> 8 & 0xff;
  auto Reduction = static_cast<BulkReduction>(Op >> 16 & 0xff);
  const char *What = Reduction == BulkReduction::None
                         ? "cp.async.bulk.tensor"
                         : "cp.reduce.async.bulk.tensor";
  for (; Lanes; Lanes &= Lanes - 1) {
    unsigned L = countr_zero(Lanes);
    TensorMapImage Map;
    std::memcpy(&Map, reinterpret_cast<const void *>(Maps[L]), sizeof Map);
    if (Error E = checkTensorMap(Map))
      return S.failWarp(tensorError(What, Line, L, std::move(E)));
    if (Map.Rank != Rank)
      return S.failWarp(tensorError(
          What, Line, L,
          createStringError(
              formatv("the copy is {0}-D, the tensor map {1}-D", Rank, Map.Rank)
                  .str())));
    int32_t C[MaxTensorRank] = {};
    for (unsigned K = 0; K != Rank; ++K)
      C[K] = Coords[K * 32 + L];
    uint64_t Offset, MBarOffset = 0;
    int Own = D ? findCTA(*D, Shared[L], Offset) : -1;
    if (Own < 0)
      return S.failWarp(
          tensorError(What, Line, L,
                      "the shared-memory address is not in the cluster's "
                      "shared memory"));
    if (ToShared && findCTA(*D, MBarriers[L], MBarOffset) < 0)
      return S.failWarp(tensorError(What, Line, L,
                                    "the mbarrier is not in the cluster's "
                                    "shared memory"));
    if (!CTAMasks[L]) {
      uint64_t MBar = ToShared ? D->canonical(MBarriers[L]) : 0;
      if (Error E = tensorCopyOne(*D, Map, ToShared, Reduction, unsigned(Own),
                                  Offset, C, MBar))
        return S.failWarp(tensorError(What, Line, L, std::move(E)));
      continue;
    }
    // .multicast::cluster: the same offsets in each CTA the mask names.
    for (uint32_t M = CTAMasks[L] & 0xffff; M; M &= M - 1) {
      unsigned R = countr_zero(M);
      if (R >= D->size())
        return S.failWarp(tensorError(
            What, Line, L, "the CTA mask names a CTA outside the cluster"));
      uint64_t Base = reinterpret_cast<uintptr_t>(D->sharedBase(R));
      if (Error E = tensorCopyOne(*D, Map, ToShared, Reduction, R, Offset, C,
                                  Base + MBarOffset))
        return S.failWarp(tensorError(What, Line, L, std::move(E)));
    }
  }
}

extern "C" void ptxjit_rt_tensormap(void *Runtime, uint32_t Op, uint32_t Lanes,
                                    const uint64_t *Maps,
                                    const uint64_t *Values, uint32_t Line) {
  CTAScheduler &S = scheduler(Runtime);
  auto Kind = static_cast<TensorMapOp>(Op & 0xff);
  unsigned Ordinal = Op >> 8 & 0xff;
  bool Copy = Kind == TensorMapOp::CopyFenceProxy;
  const char *What = Copy ? "tensormap.cp_fenceproxy" : "tensormap.replace";
  for (; Lanes; Lanes &= Lanes - 1) {
    unsigned L = countr_zero(Lanes);
    if (Maps[L] % 64 || (Copy && Values[L] % 64))
      return S.failWarp(
          misaligned(What, Line, L, Maps[L] % 64 ? Maps[L] : Values[L], 64));
    auto *Map = reinterpret_cast<TensorMapImage *>(Maps[L]);
    if (Copy) {
      std::memmove(Map, reinterpret_cast<const void *>(Values[L]),
                   sizeof(TensorMapImage));
      continue;
    }
    if (Error E = replaceTensorMapField(*Map, Kind, Ordinal, Values[L]))
      return S.failWarp(tensorError(What, Line, L, std::move(E)));
  }
}
