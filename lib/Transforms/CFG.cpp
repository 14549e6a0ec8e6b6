//===- CFG.cpp - Basic blocks of a PTX function body ----------------------===//

#include "ptxjit/Transforms/CFG.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/PTX/MatrixRules.h"

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::transforms;
using ptx::Opcode;
using ptx::Statement;

static bool endsBlock(const Statement &S) {
  return S.Kind == Statement::Inst && ptx::endsBlock(S.Instr.Op);
}

/// The matrix instructions that exchange fragments wait for every live lane
/// of the warp (they are .aligned).
static bool waitsForWholeWarp(const ptx::Instruction &I) {
  return ptx::isMatrixOpcode(I.Op) && ptx::hasFlag(I.Op, ptx::OpSyncPoint);
}

bool transforms::isSyncPoint(const ptx::Function &F, unsigned Index) {
  const Statement &S = F.Body[Index];
  if (S.Kind != Statement::Inst)
    return false;
  const ptx::Instruction &I = S.Instr;
  // bar.arrive counts its lanes but does not wait.
  if (!ptx::hasFlag(I.Op, ptx::OpSyncPoint) ||
      I.hasModifier(ptx::Modifier::Arrive))
    return false;
  if (!waitsForWholeWarp(I))
    return true;
  // Once one matrix instruction has waited for the whole warp, straight-line
  // code runs every live lane: no lane can join before a label, and none can
  // leave before a branch, call or exit.
  for (unsigned J = Index; J-- > 0;) {
    const Statement &P = F.Body[J];
    switch (P.Kind) {
    case Statement::Decl:
    case Statement::Loc:
    case Statement::Pragma:
    case Statement::ScopeBegin:
    case Statement::ScopeEnd:
      continue;
    case Statement::Inst:
      break;
    default:
      return true;
    }
    if (waitsForWholeWarp(P.Instr))
      return false;
    if (ptx::getOpcodeInfo(P.Instr.Op).Flags &
        (ptx::OpTerminator | ptx::OpBranch | ptx::OpCall | ptx::OpSyncPoint))
      return true;
  }
  return true;
}

const SmallVector<StringRef, 4> *
transforms::findBranchTargets(const ptx::Function &F, StringRef Table) {
  for (const Statement &S : F.Body)
    if (S.Kind == Statement::BranchTargets && S.Dir.Name == Table)
      return &F.TargetLists[S.Index];
  return nullptr;
}

Expected<PTXCFG> PTXCFG::build(const ptx::Module &M, const ptx::Function &F) {
  PTXCFG G;
  const auto &Body = F.Body;
  // Leaders: the first statement, every label, every statement after a
  // block-ending instruction.
  unsigned Start = 0;
  auto Close = [&](unsigned End) {
    if (End == Start && !G.Blocks.empty())
      return;
    PTXBlock B;
    B.Begin = Start;
    B.End = End;
    G.Blocks.push_back(B);
    Start = End;
  };
  for (unsigned I = 0, E = Body.size(); I != E; ++I) {
    // Labels and the points where lanes wait for each other start blocks,
    // so waiting lanes can be resumed exactly there.
    if ((Body[I].Kind == Statement::Label || isSyncPoint(F, I)) && I != Start)
      Close(I);
    if (Body[I].Kind == Statement::Label)
      G.LabelToBlock[Body[I].Dir.Name] = G.Blocks.size();
    if (endsBlock(Body[I]))
      Close(I + 1);
  }
  if (Start != Body.size() || G.Blocks.empty())
    Close(Body.size());

  unsigned N = G.Blocks.size();
  for (unsigned B = 0; B != N; ++B) {
    PTXBlock &Blk = G.Blocks[B];
    Blk.FallThrough = B + 1 < N ? B + 1 : ~0u;
    const Statement *Last = nullptr;
    for (unsigned I = Blk.End; I != Blk.Begin; --I)
      if (Body[I - 1].Kind == Statement::Inst) {
        Last = &Body[I - 1];
        break;
      }
    auto AddFallThrough = [&] {
      if (Blk.FallThrough != ~0u)
        Blk.Succs.push_back(Blk.FallThrough);
    };
    auto Target = [&](StringRef Label) -> Expected<unsigned> {
      auto It = G.LabelToBlock.find(Label);
      if (It == G.LabelToBlock.end())
        return createStringError(
            inconvertibleErrorCode(), "line %u: branch to undefined label '%s'",
            M.getLine(Last->getLoc()), Label.str().c_str());
      return It->second;
    };
    if (!Last || !endsBlock(*Last)) {
      AddFallThrough();
      continue;
    }
    const ptx::Instruction &I = Last->Instr;
    bool Guarded = !I.GuardPredicate.empty();
    switch (I.Op) {
    case Opcode::Bra: {
      if (I.Operands.empty() || I.Operands[0].Kind != ptx::Operand::Symbol)
        return createStringError(inconvertibleErrorCode(),
                                 "line %u: bra needs a label",
                                 M.getLine(Last->getLoc()));
      Expected<unsigned> T = Target(I.Operands[0].Name);
      if (!T)
        return T.takeError();
      Blk.Succs.push_back(*T);
      if (Guarded)
        AddFallThrough();
      break;
    }
    case Opcode::BrxIdx: {
      const auto *Targets = I.Operands.size() == 2
                                ? findBranchTargets(F, I.Operands[1].Name)
                                : nullptr;
      if (!Targets)
        return createStringError(inconvertibleErrorCode(),
                                 "line %u: brx.idx needs a .branchtargets "
                                 "table",
                                 M.getLine(Last->getLoc()));
      for (StringRef L : *Targets) {
        Expected<unsigned> T = Target(L);
        if (!T)
          return T.takeError();
        if (!is_contained(Blk.Succs, *T))
          Blk.Succs.push_back(*T);
      }
      if (Guarded)
        AddFallThrough();
      break;
    }
    default: // ret, exit, trap
      if (Guarded)
        AddFallThrough();
      else
        Blk.EndsInExit = true;
      break;
    }
  }
  G.computeRPO();
  G.computePostDominators();
  return std::move(G);
}

void PTXCFG::computeRPO() {
  unsigned N = Blocks.size();
  std::vector<unsigned> PostOrder;
  std::vector<uint8_t> State(N, 0);
  // Iterative DFS: (block, next successor index).
  SmallVector<std::pair<unsigned, unsigned>, 32> Stack;
  Stack.push_back({0, 0});
  State[0] = 1;
  while (!Stack.empty()) {
    auto &[B, Next] = Stack.back();
    if (Next < Blocks[B].Succs.size()) {
      unsigned S = Blocks[B].Succs[Next++];
      if (!State[S]) {
        State[S] = 1;
        Stack.push_back({S, 0});
      }
      continue;
    }
    PostOrder.push_back(B);
    Stack.pop_back();
  }
  RPO.assign(PostOrder.rbegin(), PostOrder.rend());
  for (unsigned I = 0; I != RPO.size(); ++I)
    Blocks[RPO[I]].RPONumber = I;
}

void PTXCFG::computePostDominators() {
  unsigned N = Blocks.size();
  unsigned Exit = N;
  PostDom.assign(N + 1, BitVector(N + 1, true));
  PostDom[Exit] = BitVector(N + 1);
  PostDom[Exit].set(Exit);
  bool Changed = true;
  while (Changed) {
    Changed = false;
    // Reverse RPO visits successors first, so this converges quickly.
    for (auto It = RPO.rbegin(); It != RPO.rend(); ++It) {
      unsigned B = *It;
      BitVector New(N + 1, true);
      if (Blocks[B].Succs.empty()) {
        New = PostDom[Exit];
      } else {
        for (unsigned S : Blocks[B].Succs)
          New &= PostDom[S];
        // A block that may also leave the warp (guarded ret) reaches exit.
      }
      New.set(B);
      if (New != PostDom[B]) {
        PostDom[B] = std::move(New);
        Changed = true;
      }
    }
  }
}

unsigned PTXCFG::getImmediatePostDominator(unsigned B) const {
  // The strict post-dominator that every other strict post-dominator of B
  // post-dominates.
  unsigned N = Blocks.size();
  for (unsigned C : PostDom[B].set_bits()) {
    if (C == B || C == N)
      continue;
    BitVector Strict = PostDom[B];
    Strict.reset(B);
    BitVector Common = PostDom[C];
    Common &= Strict;
    if (Common == Strict)
      return C;
  }
  return N;
}

bool PTXCFG::onlyExits(const ptx::Function &F, unsigned B) const {
  // Follow fall-throughs and unconditional branches through blocks that
  // hold no instruction but ret/exit.
  for (unsigned Steps = 0; Steps != 8; ++Steps) {
    const PTXBlock &Blk = Blocks[B];
    bool SawOther = false;
    for (unsigned I = Blk.Begin; I != Blk.End; ++I) {
      const Statement &S = F.Body[I];
      if (S.Kind != Statement::Inst)
        continue;
      if ((S.Instr.Op == Opcode::Ret || S.Instr.Op == Opcode::Exit) &&
          S.Instr.GuardPredicate.empty())
        return !SawOther;
      if (S.Instr.Op == Opcode::Bra && S.Instr.GuardPredicate.empty() &&
          !SawOther)
        break;
      SawOther = true;
    }
    if (SawOther || Blk.Succs.size() != 1)
      return false;
    B = Blk.Succs[0];
  }
  return false;
}
