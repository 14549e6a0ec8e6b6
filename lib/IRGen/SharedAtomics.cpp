//===- SharedAtomics.cpp - Atomics on the CTA's own shared memory ---------===//
//
// All warps of a CTA run on one host thread, one at a time (on fibers or in
// phases), and no other CTA can address its shared memory. So an atomic on
// .shared memory needs no locked instruction: the lanes take their turns in
// lane order with plain loads and stores, which is one of the serial orders
// the PTX ISA allows, and each lane gets the value its turn saw. When every
// lane names the same address, the value stays in a register between the
// turns: one load and one store for the whole warp. The operations are
// LLVM's own expansions of atomicrmw and cmpxchg, so the results are those
// of the locked version.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "Semantics.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;

/// Lane L of V (a scalar is every lane's).
static Value *lane(IRBuilder<> &B, Value *V, unsigned L) {
  return V->getType()->isVectorTy() ? B.CreateExtractElement(V, uint64_t(L))
                                    : V;
}

Value *irgen::lowerSharedAtomic(FunctionLowering &FL, const SharedAtomic &A) {
  IRBuilder<> &B = FL.B;
  Type *Elt = A.Elt;
  Type *MemTy = Elt;
  bool Bits = A.IsCas && Elt->isFloatingPointTy();
  if (Bits)
    MemTy = B.getIntNTy(Elt->getPrimitiveSizeInBits());
  Align Al(Elt->getPrimitiveSizeInBits() / 8);
  Value *Mask = FL.getInstMask();
  // The lane's turn: its operand V (and for cas, the new value New).
  auto Apply = [&](Value *Cur, Value *V, Value *New) -> Value * {
    if (A.FlushSubnormals)
      return flushSubnormal(
          FL, B.CreateFAdd(flushSubnormal(FL, Cur), flushSubnormal(FL, V)));
    if (!A.IsCas)
      return buildAtomicRMWValue(A.Op, B, Cur, V);
    if (Bits) {
      V = B.CreateBitCast(V, MemTy);
      New = B.CreateBitCast(New, MemTy);
    }
    return B.CreateSelect(B.CreateICmpEQ(Cur, V), New, Cur);
  };
  auto AsElt = [&](Value *V) { return Bits ? B.CreateBitCast(V, Elt) : V; };
  Function *Fn = B.GetInsertBlock()->getParent();
  LLVMContext &C = B.getContext();

  if (A.Addr.isScalar() && !A.IsCas && !A.FlushSubnormals &&
      Elt->isIntegerTy() &&
      getCombinableAtomicOp(A.Op, Elt->getPrimitiveSizeInBits())) {
    // One address, an operation that combines: one load and one store of
    // the lanes' combined operand.
    return lowerWarpAggregatedAtomic(
        FL, A.Op, A.Val, Elt, A.WantOld, [&](Value *Total) -> Value * {
          Value *P = B.CreateIntToPtr(A.Addr.V, B.getPtrTy());
          Value *Cur = B.CreateAlignedLoad(MemTy, P, Al);
          B.CreateAlignedStore(buildAtomicRMWValue(A.Op, B, Cur, Total), P, Al);
          return Cur;
        });
  }
  if (A.Addr.isScalar()) {
    // One address: a load, the lanes' turns in a register, a store.
    BasicBlock *Pre = B.GetInsertBlock();
    BasicBlock *Do = BasicBlock::Create(C, "smem.atom", Fn);
    BasicBlock *Done = BasicBlock::Create(C, "smem.atom.done", Fn);
    B.CreateCondBr(B.CreateICmpNE(Mask, B.getInt32(0)), Do, Done);
    B.SetInsertPoint(Do);
    Value *P = B.CreateIntToPtr(A.Addr.V, B.getPtrTy());
    Value *Cur = B.CreateAlignedLoad(MemTy, P, Al);
    Value *Olds = PoisonValue::get(FL.getVectorType(Elt));
    Value *DoOlds = Olds;
    for (unsigned L = 0; L != Lanes; ++L) {
      Value *On =
          B.CreateICmpNE(B.CreateAnd(Mask, B.getInt32(1u << L)), B.getInt32(0));
      if (A.WantOld)
        DoOlds = B.CreateInsertElement(DoOlds, AsElt(Cur), uint64_t(L));
      Cur = B.CreateSelect(
          On,
          Apply(Cur, lane(B, A.Val, L), A.IsCas ? lane(B, A.Swap, L) : nullptr),
          Cur);
    }
    B.CreateAlignedStore(Cur, P, Al);
    BasicBlock *DoEnd = B.GetInsertBlock();
    B.CreateBr(Done);
    B.SetInsertPoint(Done);
    if (!A.WantOld)
      return nullptr;
    PHINode *Phi = B.CreatePHI(Olds->getType(), 2);
    Phi->addIncoming(Olds, Pre);
    Phi->addIncoming(DoOlds, DoEnd);
    return Phi;
  }

  // Lane by lane, in lane order, in a loop over the active lanes (one
  // block, not one per lane). Each operand vector is stored once, before
  // the loop, and each lane reads its element back.
  FunctionLowering::LaneStash Addrs = FL.stashLanes(A.Addr.V, 0);
  FunctionLowering::LaneStash Vals = FL.stashLanes(A.Val, 1);
  std::optional<FunctionLowering::LaneStash> Swaps;
  if (A.IsCas)
    Swaps = FL.stashLanes(A.Swap, 2);
  auto Turn = [&](Value *L) -> Value * {
    Value *P = B.CreateIntToPtr(FL.loadStashedLane(Addrs, L), B.getPtrTy());
    Value *Cur = B.CreateAlignedLoad(MemTy, P, Al);
    B.CreateAlignedStore(Apply(Cur, FL.loadStashedLane(Vals, L),
                               Swaps ? FL.loadStashedLane(*Swaps, L) : nullptr),
                         P, Al);
    return AsElt(Cur);
  };
  if (!A.WantOld) {
    FL.forEachActiveLane(Mask, [&](Value *L) { Turn(L); });
    return nullptr;
  }
  return FL.collectActiveLanes(Mask, Elt, Turn);
}
