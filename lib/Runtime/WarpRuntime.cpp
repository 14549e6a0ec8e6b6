//===- WarpRuntime.cpp - Entry points called by generated warp code -------===//
//
// The C functions declared in WarpABI.h. Runtime is the CTAScheduler that
// runs the calling warp; every call is about the warp running now.
//
//===----------------------------------------------------------------------===//

#include "ptxjit/Runtime/WarpRuntime.h"
#include "ptxjit/ABI/RuntimeEntryPoints.h"
#include "ptxjit/ABI/WarpABI.h"
#include "ptxjit/Runtime/CTAScheduler.h"
#include "ptxjit/Runtime/DeviceHeap.h"
#include "llvm/ADT/bit.h"

using namespace ptxjit;
using namespace ptxjit::runtime;

static CTAScheduler &scheduler(void *Runtime) {
  return *static_cast<CTAScheduler *>(Runtime);
}

static BarrierArrival makeArrival(uint32_t Barrier, uint32_t Count,
                                  uint32_t Lanes, uint32_t Wait,
                                  uint32_t Reduction, uint32_t Predicate,
                                  uint32_t Line) {
  BarrierArrival A;
  A.Barrier = Barrier;
  A.ThreadCount = Count;
  A.Lanes = Lanes;
  A.Wait = Wait != 0;
  A.Reduction = static_cast<BarrierReduction>(Reduction);
  A.Predicate = Predicate;
  A.Line = Line;
  return A;
}

extern "C" void ptxjit_rt_bar_arrive(void *Runtime, uint32_t Barrier,
                                     uint32_t Count, uint32_t Lanes,
                                     uint32_t Wait, uint32_t Reduction,
                                     uint32_t Predicate, uint32_t Line) {
  scheduler(Runtime).arrive(
      makeArrival(Barrier, Count, Lanes, Wait, Reduction, Predicate, Line));
}

extern "C" uint32_t ptxjit_rt_bar_sync(void *Runtime, uint32_t Barrier,
                                       uint32_t Count, uint32_t Lanes,
                                       uint32_t Reduction, uint32_t Predicate,
                                       uint32_t Line) {
  CTAScheduler &S = scheduler(Runtime);
  if (!Count && !Reduction)
    return S.syncAll(Barrier, Lanes, Line);
  S.arrive(makeArrival(Barrier, Count, Lanes, /*Wait=*/1, Reduction, Predicate,
                       Line));
  // All released lanes, also ones parked at earlier barriers: the warp must
  // learn of every lane it can run again.
  return S.wait();
}

extern "C" uint32_t ptxjit_rt_bar_wait(void *Runtime) {
  return scheduler(Runtime).wait();
}

extern "C" uint32_t ptxjit_rt_bar_result(void *Runtime, uint32_t Barrier) {
  return scheduler(Runtime).reductionResult(Barrier);
}

extern "C" void ptxjit_rt_exit_lanes(void *Runtime, uint32_t Lanes) {
  scheduler(Runtime).exitLanes(Lanes);
}

extern "C" void ptxjit_rt_yield(void *Runtime) { scheduler(Runtime).yield(); }

extern "C" void ptxjit_rt_spin_yield(void *Runtime, uint32_t Line) {
  scheduler(Runtime).spinYield(Line);
}

extern "C" void ptxjit_rt_malloc(void *Runtime, uint32_t Lanes,
                                 const uint64_t *Sizes, uint64_t *Ptrs) {
  DeviceHeap *Heap = scheduler(Runtime).deviceHeap();
  for (; Lanes; Lanes &= Lanes - 1) {
    unsigned L = llvm::countr_zero(Lanes);
    Ptrs[L] =
        reinterpret_cast<uintptr_t>(Heap ? Heap->allocate(Sizes[L]) : nullptr);
  }
}

extern "C" void ptxjit_rt_free(void *Runtime, uint32_t Lanes,
                               const uint64_t *Ptrs) {
  DeviceHeap *Heap = scheduler(Runtime).deviceHeap();
  if (!Heap)
    return;
  for (; Lanes; Lanes &= Lanes - 1)
    Heap->free(reinterpret_cast<void *>(Ptrs[llvm::countr_zero(Lanes)]));
}

std::vector<std::pair<std::string, void *>> runtime::getRuntimeSymbols() {
  return {
#define PTXJIT_RUNTIME_ENTRY(Id, Name, Effects, Type)                          \
  {#Name, reinterpret_cast<void *>(&Name)},
#define PTXJIT_RUNTIME_LIBCALL(Symbol, Name, Type)                             \
  {#Symbol, reinterpret_cast<void *>(&Name)},
#include "ptxjit/ABI/RuntimeEntryPoints.def"
  };
}
