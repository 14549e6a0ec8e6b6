//===- GridStridePrefetch.cpp - Prefetches for far-strided loop loads -----===//
//
// See GridStridePrefetch.h. A load qualifies when its address, as scalar
// evolution sees it, advances by the same amount each iteration of its
// loop and that amount is either unknown at compile time (a grid's width:
// %nctaid times the block) or a constant of at least MinStride bytes: the
// strides hardware prefetchers miss. Contiguous loads (a warp's 32 lanes
// at once) cover up to a few cache lines; each gets its prefetch. A
// prefetch has no effect on what the program computes (nor does it fault
// past the end of an array), only on when its lines arrive.
//
//===----------------------------------------------------------------------===//

#include "GridStridePrefetch.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;
using namespace ptxjit;

namespace {
/// How far ahead: a miss to memory takes about as long as a few iterations
/// of a warp's loop body.
constexpr int64_t PrefetchIterations = 4;
/// Constant strides below this stay within reach of the hardware's stride
/// prefetchers.
constexpr int64_t MinStride = 2048;
constexpr uint64_t CacheLine = 64;
/// Lines prefetched for one load at most.
constexpr uint64_t MaxLines = 4;
/// Into the second-level cache (prefetcht1), not the first: that hides the
/// miss to memory, and costs nothing where the line is in L2 already (a
/// strip of a matrix the CTA's earlier warps read), where pulling it into
/// L1 four iterations early evicted lines still in use: naive SGEMM with
/// 32x8 blocks ran 35% slower on an EPYC with locality 3 than with 2.
constexpr int PrefetchLocality = 2;

/// The address and the bytes a load reads, if it reads them contiguously.
std::pair<Value *, uint64_t> getContiguousAccess(Instruction &I,
                                                 const DataLayout &DL) {
  if (auto *L = dyn_cast<LoadInst>(&I))
    if (L->isSimple())
      return {L->getPointerOperand(),
              DL.getTypeStoreSize(L->getType()).getFixedValue()};
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    if (II->getIntrinsicID() == Intrinsic::masked_load)
      return {II->getArgOperand(0),
              DL.getTypeStoreSize(II->getType()).getFixedValue()};
  return {nullptr, 0};
}
/// Moves the affine recurrences of loop L, with a step invariant in it,
/// Iterations iterations ahead; Step is the (last) step seen, null when
/// there is none (or one that varies).
class AheadRewriter : public SCEVRewriteVisitor<AheadRewriter> {
public:
  static const SCEV *rewrite(const SCEV *S, ScalarEvolution &SE, const Loop *L,
                             int64_t Iterations, const SCEV *&Step) {
    AheadRewriter R(SE, L, Iterations);
    const SCEV *Result = R.visit(S);
    Step = R.Invalid ? nullptr : R.Step;
    return Result;
  }
  const SCEV *visitAddRecExpr(const SCEVAddRecExpr *AR) {
    if (AR->getLoop() != L)
      return SCEVRewriteVisitor::visitAddRecExpr(AR);
    const SCEV *S = AR->getStepRecurrence(SE);
    if (!AR->isAffine() || !SE.isLoopInvariant(S, L)) {
      Invalid = true;
      return AR;
    }
    Step = S;
    const SCEV *Start = SE.getAddExpr(
        AR->getStart(),
        SE.getMulExpr(S, SE.getConstant(S->getType(), Iterations)));
    return SE.getAddRecExpr(Start, S, L, SCEV::FlagAnyWrap);
  }

private:
  AheadRewriter(ScalarEvolution &SE, const Loop *L, int64_t Iterations)
      : SCEVRewriteVisitor(SE), L(L), Iterations(Iterations) {}
  const Loop *L;
  int64_t Iterations;
  const SCEV *Step = nullptr;
  bool Invalid = false;
};
/// The same expression with its extensions taken as if nothing wrapped
/// (pushed into sums, products and recurrences), which lets an address
/// like `in + 4 * zext(i)` show its step in bytes.
class IgnoreWrap : public SCEVRewriteVisitor<IgnoreWrap> {
public:
  explicit IgnoreWrap(ScalarEvolution &SE) : SCEVRewriteVisitor(SE) {}
  const SCEV *visitZeroExtendExpr(const SCEVZeroExtendExpr *E) {
    return extend(visit(E->getOperand()), E->getType(), /*Signed=*/false);
  }
  const SCEV *visitSignExtendExpr(const SCEVSignExtendExpr *E) {
    return extend(visit(E->getOperand()), E->getType(), /*Signed=*/true);
  }

private:
  const SCEV *extend(const SCEV *S, Type *Ty, bool Signed) {
    auto Each = [&](ArrayRef<const SCEV *> Ops) {
      SmallVector<const SCEV *, 4> Wide;
      for (const SCEV *Op : Ops)
        Wide.push_back(extend(Op, Ty, Signed));
      return Wide;
    };
    if (auto *A = dyn_cast<SCEVAddRecExpr>(S)) {
      SmallVector<const SCEV *, 4> Ops = Each(A->operands());
      return SE.getAddRecExpr(Ops, A->getLoop(), SCEV::FlagAnyWrap);
    }
    if (auto *A = dyn_cast<SCEVAddExpr>(S)) {
      SmallVector<const SCEV *, 4> Ops = Each(A->operands());
      return SE.getAddExpr(Ops);
    }
    if (auto *M = dyn_cast<SCEVMulExpr>(S)) {
      SmallVector<const SCEV *, 4> Ops = Each(M->operands());
      return SE.getMulExpr(Ops);
    }
    return Signed ? SE.getSignExtendExpr(S, Ty) : SE.getZeroExtendExpr(S, Ty);
  }
};

/// Whether consecutive iterations read at least MinStride bytes apart, or
/// at a distance only known at run time.
bool isFarStride(ScalarEvolution &SE, const Loop *L, const SCEV *Address) {
  const SCEV *Step = nullptr;
  const SCEV *Next = AheadRewriter::rewrite(Address, SE, L, 1, Step);
  IgnoreWrap Strip(SE);
  const SCEV *Bytes = SE.getMinusSCEV(Strip.visit(Next), Strip.visit(Address));
  if (auto *C = dyn_cast<SCEVConstant>(Bytes))
    return !C->getAPInt().abs().slt(MinStride);
  return !isa<SCEVCouldNotCompute>(Bytes);
}
} // namespace

PreservedAnalyses GridStridePrefetchPass::run(Function &F,
                                              FunctionAnalysisManager &AM) {
  auto &LI = AM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return PreservedAnalyses::all();
  auto &SE = AM.getResult<ScalarEvolutionAnalysis>(F);
  const DataLayout &DL = F.getDataLayout();
  SCEVExpander Expander(SE, "prefetch");
  SmallPtrSet<const SCEV *, 8> Done;
  bool Changed = false;
  for (BasicBlock &BB : F) {
    Loop *L = LI.getLoopFor(&BB);
    if (!L)
      continue;
    for (Instruction &I : llvm::make_early_inc_range(BB)) {
      auto [Ptr, Bytes] = getContiguousAccess(I, DL);
      if (!Ptr || !Bytes)
        continue;
      // The address K iterations on: each recurrence of the loop moved
      // ahead (an index widened after its step, `data + zext(i)`, included).
      // IRGen computes addresses as integers (PTX's .u64), then casts.
      Value *Int = Ptr;
      if (auto *Cast = dyn_cast<IntToPtrInst>(Ptr))
        Int = Cast->getOperand(0);
      const SCEV *Address = SE.getSCEV(Int);
      const SCEV *Step = nullptr;
      const SCEV *Ahead =
          AheadRewriter::rewrite(Address, SE, L, PrefetchIterations, Step);
      if (!Step || Ahead == Address || !isFarStride(SE, L, Address) ||
          !Done.insert(Address).second || !Expander.isSafeToExpand(Ahead))
        continue;
      Value *At = Expander.expandCodeFor(Ahead, Int->getType(), &I);
      IRBuilder<> B(&I);
      if (At->getType() != Ptr->getType())
        At = B.CreateIntToPtr(At, Ptr->getType(), "prefetch.at");
      uint64_t Lines = std::min(MaxLines, (Bytes + CacheLine - 1) / CacheLine);
      for (uint64_t Line = 0; Line != Lines; ++Line)
        B.CreateIntrinsic(
            Intrinsic::prefetch, {At->getType()},
            {B.CreateConstGEP1_64(B.getInt8Ty(), At, Line * CacheLine),
             /*read*/ B.getInt32(0), B.getInt32(PrefetchLocality),
             /*data*/ B.getInt32(1)});
      Changed = true;
    }
  }
  Expander.clear();
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}
