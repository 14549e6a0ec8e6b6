//===- PhaseProbes.cpp - Warps pass barrier rounds they have no part in ---===//
//
// In phases (Phases.cpp) every warp takes part in every barrier round: a
// block reduction's tree (`if (t < s) s[t] += s[t + s]; __syncthreads();`)
// calls each of the CTA's warps once a step, though from the second step on
// most of them only find that none of their lanes works there. Each such
// visit restores the warp's registers, tests, saves them again and returns.
//
// A warp's registers are its own, so what it computes from them alone does
// not depend on when it runs. A warp that returned at a converged site
// therefore looks ahead, in phases only: it runs a copy of the code after
// the barrier (the probe) in which every instruction that touches memory
// other than its own stack slots and invariant inputs (parameters, launch
// facts of its context), or has any other effect, a call, a return, a loop's
// back edge, ends the probe with the warp returning where it is. Where the
// probe reaches the next converged site instead, nothing it did was seen by
// another warp and no other warp's action could have changed it: the warp
// has passed that barrier early. It says so (WarpContext::SkipRounds, one
// more round counted as arrived without a call), saves its state there,
// and looks ahead again. The chain (WarpChain.cpp) and the runtime
// (CTAPhases.cpp) count a skipped round as an arrival at the barrier; a CTA
// that goes on with fibers arrives for the rounds a warp skipped before it
// resumes it.
//
// Every converged site must have the same barrier id, an immediate: a
// skipped round is an arrival at it. The lanes arriving are those of the
// site the warp returned at (SuspendLanes): nothing in a probe changes the
// running lanes, since lanes leave only through calls or returns.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "ptxjit/ABI/WarpABI.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::irgen;

namespace {
/// Instructions a probe may copy: each instruction of the IR before it is
/// optimized counts (register reads and writes are loads and stores).
constexpr unsigned MaxProbeInstructions = 256;

/// Context fields that stay the same for the whole of a warp's run.
bool isLaunchInvariant(unsigned Field) {
  switch (Field) {
  case WCF_CtaId:
  case WCF_NCtaId:
  case WCF_WarpIndex:
  case WCF_InitialMask:
  case WCF_SharedBase:
  case WCF_DynamicSharedSize:
  case WCF_TotalSharedSize:
  case WCF_GridId:
  case WCF_SMId:
  case WCF_NSMId:
  case WCF_Runtime:
  case WCF_EnvRegs:
  case WCF_PhaseState:
  case WCF_ClusterDim:
  case WCF_IsExplicitCluster:
  case WCF_ClusterSharedBase:
  case WCF_ClusterSharedStride:
    return true;
  default:
    return false;
  }
}

/// Copies of the code a warp runs from one block on, up to where it would
/// touch memory, loop or leave: each of those ends the copy at Bail.
class ProbeCopier {
public:
  /// Setup: the blocks every path to a probe passes, whose values the
  /// copies may use. Stops: blocks a probe does not enter (the dispatcher:
  /// a warp split by a branch comes back to it before it can reach a
  /// converged site). SiteOf: the block of each converged site.
  ProbeCopier(Function &Fn, Value *Ctx, Value *Params, StructType *CtxTy,
              const DenseMap<BasicBlock *, unsigned> &SiteOf, BasicBlock *Bail,
              ArrayRef<BasicBlock *> Setup, ArrayRef<BasicBlock *> Stops)
      : Fn(Fn), Ctx(Ctx), Params(Params), CtxTy(CtxTy), SiteOf(SiteOf),
        Bail(Bail), Setup(Setup), Stops(Stops) {}

  /// The copy of what runs from Start, or null when it would use a value
  /// of a block outside Setup that it does not copy, or can only bail.
  BasicBlock *copy(BasicBlock *Start);
  /// Where the copy reaches a converged site: an empty block, and the
  /// site's index.
  ArrayRef<std::pair<BasicBlock *, unsigned>> commits() const {
    return Commits;
  }
  /// Whether the copy may write stack slot A.
  bool writes(AllocaInst *A) const { return Written.count(A); }

private:
  BasicBlock *visit(BasicBlock *BB);
  bool mayRun(const Instruction &I) const;
  /// A load from this pointer reads what only this warp writes, or what
  /// nobody writes while the CTA runs.
  bool readsPrivate(const Value *Ptr) const;
  bool isSlot(const Value *Ptr) const {
    return isa<AllocaInst>(getUnderlyingObject(Ptr));
  }
  /// The WarpContext field Ptr points into, or -1.
  int contextField(const Value *Ptr) const;

  Function &Fn;
  Value *Ctx, *Params;
  StructType *CtxTy;
  const DenseMap<BasicBlock *, unsigned> &SiteOf;
  BasicBlock *Bail;
  ArrayRef<BasicBlock *> Setup, Stops;
  ValueToValueMapTy VMap;
  DenseMap<BasicBlock *, BasicBlock *> Copies;
  SmallPtrSet<BasicBlock *, 16> OnPath;
  SmallVector<BasicBlock *, 16> NewBlocks;
  SmallVector<std::pair<BasicBlock *, unsigned>, 4> Commits;
  SmallPtrSet<AllocaInst *, 16> Written;
  unsigned Budget = MaxProbeInstructions;
};
} // namespace

int ProbeCopier::contextField(const Value *Ptr) const {
  while (auto *G = dyn_cast<GEPOperator>(Ptr)) {
    if (G->getPointerOperand() == Ctx) {
      auto *Field = G->getNumIndices() >= 2
                        ? dyn_cast<ConstantInt>(G->getOperand(2))
                        : nullptr;
      if (G->getSourceElementType() != CtxTy || !Field)
        return -1;
      return int(Field->getZExtValue());
    }
    Ptr = G->getPointerOperand();
  }
  return -1;
}

bool ProbeCopier::readsPrivate(const Value *Ptr) const {
  const Value *Object = getUnderlyingObject(Ptr);
  if (isa<AllocaInst>(Object) || Object == Params)
    return true;
  if (Object == Ctx) {
    int Field = contextField(Ptr);
    return Field >= 0 && isLaunchInvariant(unsigned(Field));
  }
  // The warp's saved state.
  if (auto *L = dyn_cast<LoadInst>(Object))
    return contextField(L->getPointerOperand()) == WCF_PhaseState;
  return false;
}

bool ProbeCopier::mayRun(const Instruction &I) const {
  if (auto *L = dyn_cast<LoadInst>(&I))
    return L->isSimple() && readsPrivate(L->getPointerOperand());
  if (auto *S = dyn_cast<StoreInst>(&I))
    return S->isSimple() && isSlot(S->getPointerOperand());
  if (auto *M = dyn_cast<MemTransferInst>(&I))
    return !M->isVolatile() && isSlot(M->getDest()) &&
           readsPrivate(M->getSource());
  if (auto *M = dyn_cast<MemSetInst>(&I))
    return !M->isVolatile() && isSlot(M->getDest());
  // A phi needs its block's predecessors; an alloca outside the entry
  // would grow the stack with each probe.
  return !isa<PHINode>(I) && !isa<AllocaInst>(I) &&
         !I.mayReadOrWriteMemory() && !I.mayHaveSideEffects();
}

BasicBlock *ProbeCopier::visit(BasicBlock *BB) {
  // The next converged site: the warp passed its barrier.
  if (auto Site = SiteOf.find(BB); Site != SiteOf.end()) {
    for (auto [Commit, Index] : Commits)
      if (Index == Site->second)
        return Commit;
    Commits.push_back({BasicBlock::Create(Fn.getContext(), "probe.commit", &Fn),
                       Site->second});
    return Commits.back().first;
  }
  // A loop would make the probe's cost unbounded; blocks with phis (an
  // instruction's own loop over lanes) are left to the warp's own run.
  if (OnPath.count(BB) || !BB->phis().empty() || is_contained(Stops, BB))
    return Bail;
  if (BasicBlock *Copy = Copies.lookup(BB))
    return Copy;
  BasicBlock *Copy =
      BasicBlock::Create(Fn.getContext(), BB->getName() + ".probe", &Fn);
  Copies[BB] = Copy;
  NewBlocks.push_back(Copy);
  OnPath.insert(BB);
  Instruction *Term = BB->getTerminator();
  for (Instruction &I : *BB) {
    if (&I == Term)
      break;
    if (!Budget || !mayRun(I)) {
      BranchInst::Create(Bail, Copy);
      OnPath.erase(BB);
      return Copy;
    }
    --Budget;
    Instruction *New = I.clone();
    New->insertInto(Copy, Copy->end());
    VMap[&I] = New;
  }
  if (isa<BranchInst>(Term) || isa<SwitchInst>(Term)) {
    Instruction *New = Term->clone();
    New->insertInto(Copy, Copy->end());
    for (unsigned K = 0, E = Term->getNumSuccessors(); K != E; ++K)
      New->setSuccessor(K, visit(Term->getSuccessor(K)));
  } else {
    // A return (the warp ends) or unreachable code: the warp's own run.
    BranchInst::Create(Bail, Copy);
  }
  OnPath.erase(BB);
  return Copy;
}

BasicBlock *ProbeCopier::copy(BasicBlock *Start) {
  BasicBlock *First = visit(Start);
  // Only the paths to a commit are worth running ahead: a block from which
  // the warp can only bail is not copied (its edges go to Bail), and a
  // probe that always bails is none.
  SmallPtrSet<const BasicBlock *, 4> Commit;
  for (auto [Block, Index] : Commits)
    Commit.insert(Block);
  SmallPtrSet<const BasicBlock *, 16> Useful;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock *BB : NewBlocks)
      if (!Useful.count(BB) && any_of(successors(BB), [&](BasicBlock *To) {
            return Commit.count(To) || Useful.count(To);
          }))
        Changed |= Useful.insert(BB).second;
  }
  SmallVector<BasicBlock *, 16> Kept, Dropped;
  for (BasicBlock *BB : NewBlocks)
    (Useful.count(BB) ? Kept : Dropped).push_back(BB);
  // A value of a dropped block is used only where it dominates: in
  // dropped blocks.
  auto Erase = [](ArrayRef<BasicBlock *> Blocks) {
    for (BasicBlock *BB : Blocks)
      BB->dropAllReferences();
    for (BasicBlock *BB : Blocks)
      BB->eraseFromParent();
  };
  for (BasicBlock *BB : Dropped)
    BB->replaceAllUsesWith(Bail);
  Erase(Dropped);
  if (Kept.empty()) {
    for (auto [Block, Index] : Commits)
      Block->eraseFromParent();
    Commits.clear();
    return nullptr;
  }
  bool Valid = true;
  for (BasicBlock *BB : Kept)
    for (Instruction &I : *BB) {
      RemapInstruction(&I, VMap,
                       RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
      for (Value *Op : I.operands())
        if (auto *Def = dyn_cast<Instruction>(Op))
          if (!Useful.count(Def->getParent()) &&
              !llvm::is_contained(Setup, Def->getParent()))
            Valid = false;
    }
  if (!Valid) {
    Erase(Kept);
    for (auto [Block, Index] : Commits)
      Block->eraseFromParent();
    Commits.clear();
    return nullptr;
  }
  for (BasicBlock *BB : Kept)
    for (Instruction &I : *BB) {
      Value *To = nullptr;
      if (auto *S = dyn_cast<StoreInst>(&I))
        To = S->getPointerOperand();
      else if (auto *M = dyn_cast<MemIntrinsic>(&I))
        To = M->getDest();
      if (To)
        Written.insert(cast<AllocaInst>(getUnderlyingObject(To)));
    }
  return First;
}

void FunctionLowering::emitPhaseProbes() {
  if (!ML.Options.PhaseProbes || !F.IsEntry || !RoundAtBarrier)
    return;
  // A skipped round is an arrival at the one barrier every converged site
  // names.
  ConstantInt *Id = nullptr;
  for (const PhaseSite &S : PhaseSites) {
    if (!S.Converged)
      continue;
    if (!S.FixedId || S.FixedId->getZExtValue() >= NumCTABarriers ||
        (Id && S.FixedId != Id))
      return;
    Id = S.FixedId;
  }
  if (!Id)
    return;

  Type *I32 = B.getInt32Ty();
  auto FieldPtr = [&](unsigned Field) {
    return B.CreateStructGEP(ML.WarpCtxTy, CtxArg, Field);
  };
  BasicBlock *Bail = BasicBlock::Create(ML.Ctx, "probe.bail", Fn);
  B.SetInsertPoint(Bail);
  B.CreateRetVoid();
  // Each converged site's probe, made first so that a commit can go on to
  // the probe of the site it reached.
  DenseMap<BasicBlock *, unsigned> SiteOf;
  SmallVector<BasicBlock *, 16> Probes(PhaseSites.size(), nullptr);
  for (unsigned I = 0; I != PhaseSites.size(); ++I)
    if (PhaseSites[I].Converged) {
      SiteOf[PhaseSites[I].Site] = I;
      Probes[I] = BasicBlock::Create(ML.Ctx, "probe", Fn);
    }

  SmallVector<std::pair<AllocaInst *, uint32_t>, 12> Known =
      Warp.convergedStart();
  BasicBlock *Setup[] = {&Fn->getEntryBlock(), PhaseEntry->getParent()};
  BasicBlock *Stops[] = {Warp.getDispatcher(), StopBB};
  // Every save with a probe ends in one block, so that LLVM can still sink
  // their stores into one: in phases, where the round counts the warp as
  // arrived, it looks ahead from the site it saved, up to a bound on the
  // rounds passed in advance (a loop of nothing but barriers must come back
  // to the runtime).
  BasicBlock *Ahead = BasicBlock::Create(ML.Ctx, "probe.ahead", Fn);
  for (unsigned I = 0; I != PhaseSites.size(); ++I) {
    const PhaseSite &S = PhaseSites[I];
    if (!S.Converged)
      continue;
    ProbeCopier Copier(*Fn, CtxArg, ParamsArg, ML.WarpCtxTy, SiteOf, Bail,
                       Setup, Stops);
    BasicBlock *Body = Copier.copy(S.Done);
    if (!Body)
      continue;
    // The probe starts as the resume would, from the state just saved: the
    // slots hold it already, and the lane sets are a converged block's.
    B.SetInsertPoint(Probes[I]);
    for (auto [A, Value] : Known)
      B.CreateStore(B.getInt32(Value), A);
    B.CreateBr(Body);
    // After the save, the shared look-ahead (below) goes on here.
    Instruction *Ret = S.Save->getTerminator();
    BranchInst::Create(Ahead, Ret->getIterator());
    Ret->eraseFromParent();
    // Where the copy reaches a site, the warp passed that barrier: one
    // more round counted, the site's, whose save needs only the slots the
    // copy may have written and those this site's save did not store (the
    // others hold what the warp has). Its id and lanes are those of the
    // site the warp returned at. Then the next probe, within the bound.
    SmallPtrSet<AllocaInst *, 16> SavedHere;
    for (auto [A, Offset] : S.Saved)
      SavedHere.insert(A);
    for (auto [Commit, Index] : Copier.commits()) {
      const PhaseSite &To = PhaseSites[Index];
      B.SetInsertPoint(Commit);
      Value *Skip = FieldPtr(WCF_SkipRounds);
      Value *Skips = B.CreateAdd(B.CreateLoad(I32, Skip), B.getInt32(1));
      B.CreateStore(Skips, Skip);
      B.CreateStore(B.getInt32(To.Id), FieldPtr(WCF_ResumeSite));
      B.CreateStore(B.getInt32(To.Line), FieldPtr(WCF_SuspendLine));
      Value *State = getContextField(WCF_PhaseState, B.getPtrTy());
      for (auto [A, Offset] : To.Saved)
        if (Copier.writes(A) || !SavedHere.count(A))
          copyPhaseSlot(B.CreateConstGEP1_64(B.getInt8Ty(), State, Offset),
                        Align(16), A, A->getAlign(), A->getAllocatedType());
      B.CreateCondBr(B.CreateICmpULT(Skips, B.getInt32(MaxChainRounds)),
                     Probes[Index], Bail);
    }
  }
  // A site whose copy could only bail has an empty probe: none.
  SwitchInst *Switch = nullptr;
  for (unsigned I = 0; I != PhaseSites.size(); ++I) {
    if (!Probes[I])
      continue;
    if (Probes[I]->empty()) {
      Probes[I]->replaceAllUsesWith(Bail);
      Probes[I]->eraseFromParent();
      continue;
    }
    if (!Switch) {
      B.SetInsertPoint(Ahead);
      Value *Go = B.CreateAnd(
          {B.CreateICmpNE(B.CreateLoad(I32, FieldPtr(WCF_PhaseMode)),
                          B.getInt32(0)),
           B.CreateLoad(B.getInt1Ty(), RoundAtBarrier),
           B.CreateICmpULT(B.CreateLoad(I32, FieldPtr(WCF_SkipRounds)),
                           B.getInt32(MaxChainRounds))});
      BasicBlock *Which = BasicBlock::Create(ML.Ctx, "probe.site", Fn);
      B.CreateCondBr(Go, Which, Bail);
      B.SetInsertPoint(Which);
      Switch =
          B.CreateSwitch(B.CreateLoad(I32, FieldPtr(WCF_ResumeSite)), Bail);
    }
    Switch->addCase(B.getInt32(PhaseSites[I].Id), Probes[I]);
  }
  if (!Switch)
    Ahead->eraseFromParent();
  if (pred_empty(Bail))
    Bail->eraseFromParent();
  ML.ChainSkipsRounds = Switch != nullptr;
}
