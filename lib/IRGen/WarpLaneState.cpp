//===- WarpLaneState.cpp - Where the lanes of a warp function are ---------===//

#include "WarpLaneState.h"
#include "ptxjit/Transforms/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;

static constexpr unsigned NumLanes = 32;

Value *WarpLaneState::splat(Value *Scalar) {
  return B.CreateVectorSplat(NumLanes, Scalar);
}

Value *WarpLaneState::toVector(Value *Lanes) {
  return B.CreateBitCast(Lanes, FixedVectorType::get(B.getInt1Ty(), NumLanes));
}

Value *WarpLaneState::rpoNumber(unsigned Block) {
  return B.getInt32(CFG.Blocks[Block].RPONumber);
}

Value *WarpLaneState::load(AllocaInst *Set) {
  return B.CreateLoad(Set->getAllocatedType(), Set);
}

void WarpLaneState::add(AllocaInst *Set, Value *Lanes) {
  B.CreateStore(B.CreateOr(load(Set), Lanes), Set);
}

void WarpLaneState::remove(AllocaInst *Set, Value *Lanes) {
  B.CreateStore(B.CreateAnd(load(Set), B.CreateNot(Lanes)), Set);
}

void WarpLaneState::declare(BasicBlock *Entry) {
  AllocaBB = Entry;
  Type *I32 = B.getInt32Ty();
  Running = B.CreateAlloca(I32, nullptr, "mask");
  Waiting = B.CreateAlloca(I32, nullptr, "waiting");
  Blocked = B.CreateAlloca(I32, nullptr, "blocked");
  Parked = B.CreateAlloca(I32, nullptr, "parked");
  AtWarpBar = B.CreateAlloca(I32, nullptr, "at.warp.barrier");
  WarpBarPass = B.CreateAlloca(I32, nullptr, "warp.barrier.passed");
  Released = B.CreateAlloca(I32, nullptr, "released");
  BackEdges = B.CreateAlloca(I32, nullptr, "backedges");
  RotateAfter = B.CreateAlloca(I32, nullptr, "rotate.after");
  Next = B.CreateAlloca(FixedVectorType::get(I32, NumLanes), nullptr, "next");
}

void WarpLaneState::initialize(bool IsDeviceFunction) {
  Type *I32 = B.getInt32Ty();
  if (IsDeviceFunction) {
    Exited = B.CreateAlloca(I32, nullptr, "exited");
    Returned = B.CreateAlloca(I32, nullptr, "returned");
    B.CreateStore(B.getInt32(0), Exited);
    B.CreateStore(B.getInt32(0), Returned);
  }
  for (AllocaInst *V :
       {Waiting, Blocked, Parked, AtWarpBar, WarpBarPass, Released, BackEdges})
    B.CreateStore(B.getInt32(0), V);
  B.CreateStore(B.getInt32(~0u), RotateAfter);
  B.CreateStore(Constant::getNullValue(Next->getAllocatedType()), Next);
}

BasicBlock *WarpLaneState::createDispatcher(Function *Fn) {
  DispatchBB = BasicBlock::Create(B.getContext(), "dispatch", Fn);
  return DispatchBB;
}

//===----------------------------------------------------------------------===//
// Running and waiting lanes
//===----------------------------------------------------------------------===//

Value *WarpLaneState::running() { return load(Running); }

void WarpLaneState::setRunning(Value *Lanes) { B.CreateStore(Lanes, Running); }

Value *WarpLaneState::waiting() { return load(Waiting); }

Value *WarpLaneState::noneWaiting() {
  return B.CreateICmpEQ(waiting(), B.getInt32(0));
}

Value *WarpLaneState::everyLane() {
  Value *Run = running();
  Value *Wait = waiting();
  Value *All = B.CreateOr(Run, Wait);
  return Exited ? B.CreateOr(All, load(Exited)) : All;
}

void WarpLaneState::setNextBlock(Value *Lanes, unsigned Block) {
  Value *N = load(Next);
  N = B.CreateSelect(toVector(Lanes), splat(rpoNumber(Block)), N);
  B.CreateStore(N, Next);
}

Value *WarpLaneState::nextBlocks() { return load(Next); }

Value *WarpLaneState::lanesAt(unsigned Block) {
  Value *Here = B.CreateICmpEQ(nextBlocks(), splat(rpoNumber(Block)));
  return B.CreateBitCast(Here, B.getInt32Ty());
}

void WarpLaneState::wait(Value *Lanes) { add(Waiting, Lanes); }

void WarpLaneState::unwait(Value *Lanes) { remove(Waiting, Lanes); }

void WarpLaneState::dispatch() { B.CreateBr(DispatchBB); }

void WarpLaneState::park(unsigned Block, Value *Lanes) {
  setNextBlock(Lanes, Block);
  wait(Lanes);
  dispatch();
}

Value *WarpLaneState::pickGroup(Value *Runnable, Value *WaitingNow,
                                Value *&Rest) {
  // The runnable group at the lowest block; after a group looped for a
  // while, the group at the next block after it (wrapping around), so that
  // lanes spinning on a flag let the others run.
  Type *I32 = B.getInt32Ty();
  Value *N = nextBlocks();
  Value *RunVec = toVector(Runnable);
  Value *After = load(RotateAfter);
  B.CreateStore(B.getInt32(~0u), RotateAfter);
  Value *None = splat(B.getInt32(~0u));
  Value *Lowest =
      B.CreateIntrinsic(Intrinsic::vector_reduce_umin, {N->getType()},
                        {B.CreateSelect(RunVec, N, None)});
  Value *Later = B.CreateAnd(RunVec, B.CreateICmpUGT(N, splat(After)));
  Value *NextUp =
      B.CreateIntrinsic(Intrinsic::vector_reduce_umin, {N->getType()},
                        {B.CreateSelect(Later, N, None)});
  Value *Chosen =
      B.CreateSelect(B.CreateICmpEQ(NextUp, B.getInt32(~0u)), Lowest, NextUp);
  Value *Group = B.CreateAnd(
      B.CreateBitCast(B.CreateICmpEQ(N, splat(Chosen)), I32), Runnable);
  setRunning(Group);
  Rest = B.CreateAnd(WaitingNow, B.CreateNot(Group));
  B.CreateStore(Rest, Waiting);
  return Chosen;
}

//===----------------------------------------------------------------------===//
// Lanes blocked at warp-synchronous instructions
//===----------------------------------------------------------------------===//

Value *WarpLaneState::blocked() { return load(Blocked); }

void WarpLaneState::block(Value *Lanes) { add(Blocked, Lanes); }

void WarpLaneState::unblock(Value *Lanes) { remove(Blocked, Lanes); }

void WarpLaneState::unblockAll() {
  B.CreateStore(B.getInt32(0), Blocked);
  B.CreateStore(B.getInt32(0), AtWarpBar);
  for (AllocaInst *X : ExchangeBlocked)
    B.CreateStore(B.getInt32(0), X);
}

Value *WarpLaneState::atWarpBarrier() { return load(AtWarpBar); }

void WarpLaneState::blockAtWarpBarrier(Value *Lanes) { add(AtWarpBar, Lanes); }

void WarpLaneState::unblockAtWarpBarrier(Value *Lanes) {
  remove(AtWarpBar, Lanes);
}

Value *WarpLaneState::warpBarrierPassed() { return load(WarpBarPass); }

void WarpLaneState::passWarpBarrier(Value *Lanes) { add(WarpBarPass, Lanes); }

void WarpLaneState::takeWarpBarrierPass(Value *Lanes) {
  remove(WarpBarPass, Lanes);
}

/// A zero-initialized i32 in the entry block.
static AllocaInst *createLaneSet(IRBuilderBase &B, BasicBlock *AllocaBB) {
  IRBuilder<> EntryB(AllocaBB, AllocaBB->begin());
  AllocaInst *A = EntryB.CreateAlloca(B.getInt32Ty());
  B.CreateStore(B.getInt32(0), A);
  return A;
}

unsigned WarpLaneState::addExchange() {
  ExchangeBlocked.push_back(createLaneSet(B, AllocaBB));
  return ExchangeBlocked.size() - 1;
}

void WarpLaneState::declareExchangePass() {
  ExchangePass = createLaneSet(B, AllocaBB);
}

Value *WarpLaneState::exchangeBlocked(unsigned X) {
  return load(ExchangeBlocked[X]);
}

void WarpLaneState::blockAtExchange(unsigned X, Value *Lanes) {
  add(ExchangeBlocked[X], Lanes);
}

void WarpLaneState::unblockAtExchange(unsigned X, Value *Lanes) {
  remove(ExchangeBlocked[X], Lanes);
}

Value *WarpLaneState::exchangePassed() { return load(ExchangePass); }

void WarpLaneState::passExchange(Value *Lanes) { add(ExchangePass, Lanes); }

void WarpLaneState::takeExchangePass(Value *Lanes) {
  remove(ExchangePass, Lanes);
}

SmallVector<std::pair<AllocaInst *, uint32_t>, 12>
WarpLaneState::convergedStart() const {
  SmallVector<std::pair<AllocaInst *, uint32_t>, 12> Sets;
  for (AllocaInst *V : {Waiting, Blocked, Parked, AtWarpBar, WarpBarPass,
                        Released, BackEdges, ExchangePass})
    if (V)
      Sets.push_back({V, 0});
  for (AllocaInst *V : ExchangeBlocked)
    Sets.push_back({V, 0});
  Sets.push_back({RotateAfter, ~0u});
  return Sets;
}

//===----------------------------------------------------------------------===//
// Lanes parked at CTA barriers
//===----------------------------------------------------------------------===//

Value *WarpLaneState::parked() { return load(Parked); }

Value *WarpLaneState::parkAtBarrier(Value *Lanes) {
  Value *All = B.CreateOr(parked(), Lanes);
  B.CreateStore(All, Parked);
  return All;
}

void WarpLaneState::unpark(Value *Lanes) { remove(Parked, Lanes); }

Value *WarpLaneState::released() { return load(Released); }

void WarpLaneState::release(Value *Lanes) { add(Released, Lanes); }

void WarpLaneState::takeRelease(Value *Lanes) { remove(Released, Lanes); }

//===----------------------------------------------------------------------===//
// Forward progress and leaving lanes
//===----------------------------------------------------------------------===//

Value *WarpLaneState::countBackEdge(uint32_t Period) {
  Value *Count = B.CreateAdd(load(BackEdges), B.getInt32(1));
  Value *Due = B.CreateICmpUGE(Count, B.getInt32(Period));
  B.CreateStore(B.CreateSelect(Due, B.getInt32(0), Count), BackEdges);
  return Due;
}

void WarpLaneState::rotateAfter(unsigned Block) {
  B.CreateStore(rpoNumber(Block), RotateAfter);
}

void WarpLaneState::leave(Value *Lanes, bool IsReturn) {
  add(IsReturn ? Returned : Exited, Lanes);
}

Value *WarpLaneState::exited() { return load(Exited); }
