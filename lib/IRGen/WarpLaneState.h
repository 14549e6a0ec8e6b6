//===- WarpLaneState.h - Where the lanes of a warp function are -*- C++ -*-===//
//
// The lane sets of one warp function: which lanes run now, which wait and
// at which block, which of those are blocked at a warp-synchronous
// instruction or parked at a CTA barrier, and which have left. Each set is
// an i32 lane mask in a stack slot (mem2reg makes them SSA values); the
// block each lane waits at is a <32 x i32> of reverse-post-order numbers.
//
// Control flow and synchronization change these sets only through the verbs
// here (park, block, release, dispatch, ...), each of which emits its IR at
// the builder's insertion point. The converged fast path only sets and reads
// the running lanes, asks whether any lane waits, and counts back edges;
// after mem2reg the rest folds away unless some branch can split the warp.
//
//===----------------------------------------------------------------------===//

#ifndef PTXJIT_LIB_IRGEN_WARPLANESTATE_H
#define PTXJIT_LIB_IRGEN_WARPLANESTATE_H

#include "llvm/ADT/SmallVector.h"
#include <cstdint>

namespace llvm {
class AllocaInst;
class BasicBlock;
class Function;
class IRBuilderBase;
class Type;
class Value;
} // namespace llvm

namespace ptxjit {
namespace transforms {
class PTXCFG;
} // namespace transforms

namespace irgen {

class WarpLaneState {
public:
  WarpLaneState(llvm::IRBuilderBase &B, const transforms::PTXCFG &CFG)
      : B(B), CFG(CFG) {}

  /// Creates the lane sets at the builder's position in the entry block
  /// AllocaBB (later ones, addExchange, go at its start).
  void declare(llvm::BasicBlock *AllocaBB);
  /// Gives the lane sets their initial values (nobody waits); device
  /// functions also count the lanes that exit or return.
  void initialize(bool IsDeviceFunction);
  /// Creates the (empty) block the dispatcher starts at, in Fn: dispatch()
  /// jumps there, and the lowering emits the dispatcher into it.
  llvm::BasicBlock *createDispatcher(llvm::Function *Fn);
  llvm::BasicBlock *getDispatcher() const { return DispatchBB; }

  // --- Running and waiting lanes. ---
  /// The lanes running now (i32).
  llvm::Value *running();
  void setRunning(llvm::Value *Lanes);
  /// Live lanes that wait at some block (i32).
  llvm::Value *waiting();
  /// i1: no lane waits, so the running ones may take the converged path.
  llvm::Value *noneWaiting();
  /// Every lane of the warp function that has not left (stop: all leave).
  llvm::Value *everyLane();
  /// Records Block as the block Lanes wait at.
  void setNextBlock(llvm::Value *Lanes, unsigned Block);
  /// <32 x i32>: the reverse-post-order number of each lane's block.
  llvm::Value *nextBlocks();
  /// The waiting lanes whose next block is Block (i32, among all lanes).
  llvm::Value *lanesAt(unsigned Block);
  /// Adds Lanes to the waiting lanes (they stay where setNextBlock said).
  void wait(llvm::Value *Lanes);
  /// Takes Lanes out of the waiting lanes: they run again.
  void unwait(llvm::Value *Lanes);
  /// Ends the block with a jump to the dispatcher.
  void dispatch();
  /// Lanes wait at Block; the block ends with a jump to the dispatcher.
  void park(unsigned Block, llvm::Value *Lanes);
  /// The dispatcher's choice among Runnable (i32, some lane set): the
  /// number of the block to resume, whose group becomes the running lanes.
  /// Rest gets the lanes still waiting after that.
  llvm::Value *pickGroup(llvm::Value *Runnable, llvm::Value *Waiting,
                         llvm::Value *&Rest);

  // --- Lanes blocked at warp-synchronous instructions. ---
  llvm::Value *blocked();
  void block(llvm::Value *Lanes);
  void unblock(llvm::Value *Lanes);
  /// Lanes may have waited for lanes that just left: let every blocked one
  /// check again.
  void unblockAll();
  /// bar.warp.sync: lanes blocked at one (any instance), and lanes let
  /// through theirs because a group elsewhere completed the set.
  llvm::Value *atWarpBarrier();
  void blockAtWarpBarrier(llvm::Value *Lanes);
  void unblockAtWarpBarrier(llvm::Value *Lanes);
  llvm::Value *warpBarrierPassed();
  void passWarpBarrier(llvm::Value *Lanes);
  void takeWarpBarrierPass(llvm::Value *Lanes);
  /// Data-exchanging warp-synchronous instructions of one kind: a new lane
  /// set for the lanes blocked at any of its instances (its handle), and
  /// the lanes let through one of them with their results waiting.
  unsigned addExchange();
  /// After the kinds: the set of lanes let through an exchange.
  void declareExchangePass();
  llvm::Value *exchangeBlocked(unsigned X);
  void blockAtExchange(unsigned X, llvm::Value *Lanes);
  void unblockAtExchange(unsigned X, llvm::Value *Lanes);
  llvm::Value *exchangePassed();
  void passExchange(llvm::Value *Lanes);
  void takeExchangePass(llvm::Value *Lanes);

  // --- Lanes parked at CTA barriers. ---
  llvm::Value *parked();
  /// Parks Lanes at a CTA barrier; returns all parked lanes.
  llvm::Value *parkAtBarrier(llvm::Value *Lanes);
  /// The barrier let Lanes go: they are no longer parked.
  void unpark(llvm::Value *Lanes);
  /// Lanes released by a barrier that have yet to pass it.
  llvm::Value *released();
  void release(llvm::Value *Lanes);
  void takeRelease(llvm::Value *Lanes);

  // --- Forward progress. ---
  /// Counts a backward branch; i1: Period of them have been taken (the
  /// counter starts again).
  llvm::Value *countBackEdge(uint32_t Period);
  /// The dispatcher's next pick is the group after Block (round robin).
  void rotateAfter(unsigned Block);

  // --- Where a converged block starts. ---
  /// The sets a converged block starts with known: no lane waits, so none
  /// is blocked, parked, released or let through a sync, and the
  /// dispatcher's round robin and the back-edge count may start again.
  /// Each with its value there (the running lanes are not among them).
  llvm::SmallVector<std::pair<llvm::AllocaInst *, uint32_t>, 12>
  convergedStart() const;
  // --- Lanes that left a device function. ---
  void leave(llvm::Value *Lanes, bool IsReturn);
  llvm::Value *exited();

private:
  llvm::Value *load(llvm::AllocaInst *Set);
  void add(llvm::AllocaInst *Set, llvm::Value *Lanes);
  void remove(llvm::AllocaInst *Set, llvm::Value *Lanes);
  llvm::Value *splat(llvm::Value *Scalar);
  llvm::Value *toVector(llvm::Value *Lanes);
  llvm::Value *rpoNumber(unsigned Block);

  llvm::IRBuilderBase &B;
  const transforms::PTXCFG &CFG;
  llvm::BasicBlock *AllocaBB = nullptr;
  llvm::BasicBlock *DispatchBB = nullptr;
  llvm::AllocaInst *Running = nullptr; ///< i32 lanes running now
  llvm::AllocaInst *Waiting = nullptr; ///< i32 live lanes waiting elsewhere
  llvm::AllocaInst *Next = nullptr;    ///< <32 x i32> block each lane waits at
  llvm::AllocaInst *Blocked = nullptr; ///< i32 waiting at a warp sync
  llvm::AllocaInst *Parked = nullptr;  ///< i32 waiting at a CTA barrier
  llvm::AllocaInst *AtWarpBar = nullptr;   ///< i32 blocked at bar.warp.sync
  llvm::AllocaInst *WarpBarPass = nullptr; ///< i32 let through bar.warp.sync
  llvm::AllocaInst *Released = nullptr;    ///< i32 a CTA barrier released
  llvm::AllocaInst *BackEdges = nullptr;   ///< i32 backward branches taken
  llvm::AllocaInst *RotateAfter = nullptr; ///< i32 block the looping group
                                           ///< was at, or ~0u
  llvm::AllocaInst *Exited = nullptr;      ///< device functions: i32 exited
  llvm::AllocaInst *Returned = nullptr;    ///< device functions: i32 returned
  /// i32 per exchange kind: lanes blocked at one of its instances.
  llvm::SmallVector<llvm::AllocaInst *, 4> ExchangeBlocked;
  llvm::AllocaInst *ExchangePass = nullptr; ///< i32 let through an exchange
};

} // namespace irgen
} // namespace ptxjit

#endif
