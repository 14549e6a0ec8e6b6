//===- Phases.cpp - Barriers where warps return to the runtime ------------===//
//
// A kernel whose CTA barriers are all bar.sync of every thread, unguarded,
// in CTA-uniform control flow (every thread of the CTA reaches them
// together) runs its CTAs in phases (CTAPhases.cpp; the default,
// PTXJIT_BARRIERS=fibers turns it off): every warp up to the barrier, then
// every warp on. This is how CPU OpenCL compilers split work-item loops at
// barriers, with the warp function (a warp chain) as the loop body.
//
// At the converged copy of such a barrier's block a warp always returns: it
// saves the registers live after the barrier (Transforms' RegisterLiveness)
// and its running lanes in WarpContext::PhaseState, and says which site,
// barrier, lanes and line. Called again with the site, the entry restores
// them, sets the other lane sets to what a converged block starts with, and
// goes on past the barrier: the runtime has seen it complete, or, on
// fibers, arrived for the warp. So the code after the barrier is entered
// from the resume alone. A copy of the block reached while other lanes wait
// elsewhere (which CTA-uniform control flow does not do, but nothing here
// relies on that) returns only in phases, saves every slot of the function,
// and resumes into the general barrier path, on fibers.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "ptxjit/ABI/WarpABI.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;
using ptx::Modifier;
using ptx::Opcode;
using ptx::Statement;

/// A bar.sync or barrier.sync of all threads: no count, no reduction, no
/// guard.
static bool isSyncOfAll(const ptx::Instruction &I) {
  return (I.Op == Opcode::Bar || I.Op == Opcode::Barrier) &&
         !I.hasModifier(Modifier::Warp) && !I.hasModifier(Modifier::Arrive) &&
         !I.hasModifier(Modifier::Red) && I.Operands.size() == 1 &&
         I.GuardPredicate.empty();
}

void FunctionLowering::preparePhases() {
  if (!F.IsEntry || !ML.MayRunInPhases || !usesBarriers())
    return;
  // The warp's whole state must be in the function's stack slots: no
  // .local frames or call arguments, whose addresses would change.
  if (FrameSize)
    return;
  for (const ptx::VariableDecl &V : F.Locals)
    if (V.Space == ptx::StateSpace::Param || V.Space == ptx::StateSpace::Local)
      return;
  UniformityInfo CTA(F, CFG, ML.KS, transforms::UniformityScope::CTA);
  unsigned Barriers = 0;
  for (unsigned Blk : CFG.RPO) {
    const PTXBlock &PB = CFG.Blocks[Blk];
    for (unsigned S = PB.Begin; S != PB.End; ++S) {
      if (F.Body[S].Kind != Statement::Inst)
        continue;
      const ptx::Instruction &I = F.Body[S].Instr;
      if (I.Op == Opcode::Call)
        return;
      if (!ptx::hasFlag(I.Op, ptx::OpCTABarrier) ||
          I.hasModifier(Modifier::Warp))
        continue;
      if (!isSyncOfAll(I) || CTA.isDivergentBlock(Blk) ||
          !CTA.getOperand(I.Operands[0]).isUniform())
        return;
      ++Barriers;
    }
  }
  if (!Barriers)
    return;
  Phased = true;
  // What the warp chain's round needs of the site a warp returned at
  // (makeWarpChain): false and 0 until a converged site says otherwise.
  RoundAtBarrier = createTemporary(B.getInt1Ty());
  RoundAtBarrier->setName("round.at.barrier");
  RoundBarrier = createTemporary(B.getInt32Ty());
  RoundBarrier->setName("round.barrier.id");
  if (F.IsEntry) {
    ML.ChainAtBarrier = RoundAtBarrier;
    ML.ChainBarrier = RoundBarrier;
  }
  Live.emplace(F, CFG, [this](unsigned B) { return !UI.isDivergentBlock(B); });
}

Expected<int> FunctionLowering::lowerPhaseReturn(unsigned Index,
                                                 const ptx::Instruction &I) {
  if (!Phased || !isSyncOfAll(I))
    return -1;
  Type *I32 = B.getInt32Ty();
  PhaseSite S;
  S.Id = uint32_t(PhaseSites.size() + 1) | (Converged ? 0 : PhaseDivergentSite);
  S.Block = Index;
  S.Converged = Converged;
  S.Save = BasicBlock::Create(ML.Ctx, "phase.save", Fn);
  S.Resume = BasicBlock::Create(ML.Ctx, "phase.resume", Fn);
  // A converged site always returns, on fibers too: the runtime arrives
  // for the warp, and the code after the barrier is entered only from the
  // resume, with no general path merging into it. A divergent copy returns
  // only in phases.
  if (!Converged) {
    S.Fiber = BasicBlock::Create(ML.Ctx, "bar.fiber", Fn);
    BasicBlock *Return = BasicBlock::Create(ML.Ctx, "phase.return", Fn);
    B.CreateCondBr(
        B.CreateICmpNE(getContextField(WCF_PhaseMode, I32), B.getInt32(0)),
        Return, S.Fiber);
    B.SetInsertPoint(Return);
  }
  // A converged site starts a block of its own, which a warp passing the
  // barrier ahead of time also enters (PhaseProbes.cpp).
  if (Converged) {
    S.Site = BasicBlock::Create(ML.Ctx, "phase.site", Fn);
    B.CreateBr(S.Site);
    B.SetInsertPoint(S.Site);
  }
  // The barrier id, in the first running lane (uniform in the CTA).
  Expected<LaneValue> Id = read(I.Operands[0], ptx::ScalarType::U32);
  if (!Id)
    return Id.takeError();
  Value *IdV = Id->V;
  if (!Id->isScalar()) {
    Value *First =
        B.CreateIntrinsic(Intrinsic::cttz, {I32}, {getMask(), B.getFalse()});
    IdV = B.CreateExtractElement(IdV, B.CreateAnd(First, B.getInt32(31)));
  }
  auto Store = [&](unsigned Field, Value *V) {
    B.CreateStore(V, B.CreateStructGEP(ML.WarpCtxTy, CtxArg, Field));
  };
  S.FixedId = dyn_cast<ConstantInt>(IdV);
  S.Line = getLine(I.Loc);
  Store(WCF_SuspendBarrier, IdV);
  Store(WCF_ResumeSite, B.getInt32(S.Id));
  if (Converged) {
    // Lanes a barrier released while they were parked here (on fibers,
    // after a divergent copy parked them) have passed it: the runtime
    // arrives only for the others, none when all have passed.
    Value *Mask = getMask();
    Value *Passing = B.CreateAnd(Mask, Warp.released());
    Warp.takeRelease(Passing);
    Value *Arriving = B.CreateAnd(Mask, B.CreateNot(Passing));
    Store(WCF_SuspendLanes, Arriving);
    Store(WCF_SuspendLine, B.getInt32(S.Line));
    // The chain's round goes on without the runtime if every warp says so.
    B.CreateStore(B.CreateAnd(B.CreateICmpNE(Arriving, B.getInt32(0)),
                              B.CreateICmpULT(IdV, B.getInt32(NumCTABarriers))),
                  RoundAtBarrier);
    B.CreateStore(IdV, RoundBarrier);
    // The code after the barrier starts from the resume alone.
    S.Done = BasicBlock::Create(ML.Ctx, "bar.done", Fn);
  }
  B.CreateBr(S.Save);
  B.SetInsertPoint(Converged ? S.Done : S.Fiber);
  PhaseSites.push_back(S);
  return int(PhaseSites.size() - 1);
}

void FunctionLowering::emitPhaseSites() {
  if (PhaseSites.empty())
    return;
  // Every stack slot of the function has its place in the state, at the
  // same offset for every site; a site saves those it needs.
  struct Slot {
    AllocaInst *A;
    uint64_t Offset;
    bool Converged; ///< a converged site saves it
  };
  DenseMap<AllocaInst *, StringRef> RegisterOf;
  for (auto &R : Registers)
    if (R.getValue().Slot)
      RegisterOf[R.getValue().Slot] = R.getKey();
  const DataLayout &DL = ML.LM.getDataLayout();
  SmallVector<Slot, 32> Slots;
  uint64_t Size = 0;
  for (Instruction &In : *AllocaBB) {
    auto *A = dyn_cast<AllocaInst>(&In);
    // The round's slots describe one return: never carried across it.
    if (!A || A == RoundAtBarrier || A == RoundBarrier)
      continue;
    uint64_t Offset = alignTo(Size, 16);
    Size = Offset + DL.getTypeStoreSize(A->getAllocatedType());
    // Converged, no lane waits elsewhere: what waiting lanes would need
    // (their blocks, exchanged operands: the vector slots that are neither
    // registers nor the carry flags) is dead, and so are the scratch arrays
    // an instruction's lowering uses within it.
    Type *T = A->getAllocatedType();
    bool Kept = RegisterOf.count(A) || A == CarryVar ||
                (!T->isVectorTy() && !T->isAggregateType());
    Slots.push_back({A, Offset, Kept});
  }
  ML.PhaseStateSize = alignTo(std::max<uint64_t>(Size, 16), 64);

  // A converged site is at the start of a converged block: the lane sets
  // known there are not saved but set again, which lets LLVM see that no
  // lane waits after the barrier.
  SmallVector<std::pair<AllocaInst *, uint32_t>, 12> Known =
      Warp.convergedStart();
  auto IsKnown = [&](const AllocaInst *A) {
    return llvm::any_of(Known, [&](const auto &K) { return K.first == A; });
  };
  for (PhaseSite &S : PhaseSites) {
    auto Saved = [&](const Slot &Sl) {
      if (!S.Converged)
        return true;
      auto It = RegisterOf.find(Sl.A);
      if (It == RegisterOf.end())
        return Sl.Converged && !IsKnown(Sl.A);
      return Live->isLiveIn(S.Block, It->second);
    };
    for (const Slot &Sl : Slots)
      if (Saved(Sl))
        S.Saved.push_back({Sl.A, Sl.Offset});
    B.SetInsertPoint(S.Save);
    Value *State = getContextField(WCF_PhaseState, B.getPtrTy());
    for (auto [A, Offset] : S.Saved)
      copyPhaseSlot(B.CreateConstGEP1_64(B.getInt8Ty(), State, Offset),
                    Align(16), A, A->getAlign(), A->getAllocatedType());
    B.CreateRetVoid();

    B.SetInsertPoint(S.Resume);
    State = getContextField(WCF_PhaseState, B.getPtrTy());
    for (auto [A, Offset] : S.Saved)
      copyPhaseSlot(A, A->getAlign(),
                    B.CreateConstGEP1_64(B.getInt8Ty(), State, Offset),
                    Align(16), A->getAllocatedType());
    if (S.Converged)
      for (auto [A, Value] : Known)
        B.CreateStore(B.getInt32(Value), A);
    // A converged site resumes past its barrier, which the runtime saw
    // complete; a divergent copy arrives through the general path.
    B.CreateBr(S.Converged ? S.Done : S.Fiber);
    PhaseEntry->addCase(B.getInt32(S.Id), S.Resume);
  }
}

void FunctionLowering::copyPhaseSlot(Value *To, Align ToAlign, Value *From,
                                     Align FromAlign, Type *T) {
  // Arrays are copied as bytes: a load of one as a whole would become a
  // value per element.
  if (T->isAggregateType())
    B.CreateMemCpy(To, ToAlign, From, FromAlign,
                   ML.LM.getDataLayout().getTypeStoreSize(T).getFixedValue());
  else
    B.CreateAlignedStore(B.CreateAlignedLoad(T, From, FromAlign), To, ToAlign);
}
