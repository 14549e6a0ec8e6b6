//===- Liveness.cpp - Which PTX registers are live at block starts --------===//

#include "ptxjit/Transforms/Liveness.h"
#include "ptxjit/PTX/AST.h"
#include "ptxjit/Transforms/CFG.h"
#include <functional>

using namespace llvm;
using namespace ptxjit;
using namespace ptxjit::transforms;
using ptx::Operand;

RegisterLiveness::RegisterLiveness(const ptx::Function &F, const PTXCFG &CFG,
                                   function_ref<bool(unsigned)> WritesAll) {
  auto Id = [&](StringRef Name) {
    return Index.try_emplace(Name, Index.size()).first->second;
  };
  // Names first, so that the bit vectors have their final size.
  std::function<void(const Operand &)> Name = [&](const Operand &Op) {
    if (Op.Kind == Operand::Register || Op.Kind == Operand::Symbol ||
        (Op.Kind == Operand::Address && !Op.Name.empty()))
      Id(Op.Name);
    for (const Operand &E : Op.Elements)
      Name(E);
  };
  for (const ptx::Statement &S : F.Body)
    if (S.Kind == ptx::Statement::Inst) {
      if (!S.Instr.GuardPredicate.empty())
        Id(S.Instr.GuardPredicate);
      for (const Operand &Op : S.Instr.Operands)
        Name(Op);
    }

  unsigned N = Index.size(), NB = CFG.Blocks.size();
  // Use: read before the block writes it. Local: written (unguarded) before,
  // so that reads by the same lanes later in the block see that value. Def:
  // written for every lane, which kills what came before.
  std::vector<BitVector> Use(NB, BitVector(N)), Def(NB, BitVector(N));
  BitVector Local(N);
  for (unsigned B = 0; B != NB; ++B) {
    const PTXBlock &Blk = CFG.Blocks[B];
    bool All = WritesAll(B);
    Local.reset();
    std::function<void(const Operand &)> Read = [&](const Operand &Op) {
      if (Op.Kind == Operand::Register || Op.Kind == Operand::Symbol ||
          (Op.Kind == Operand::Address && !Op.Name.empty())) {
        unsigned I = Index.lookup(Op.Name);
        if (!Local.test(I))
          Use[B].set(I);
      }
      for (const Operand &E : Op.Elements)
        Read(E);
    };
    std::function<void(const Operand &, bool)> Write = [&](const Operand &Op,
                                                           bool Kills) {
      if (Op.Kind == Operand::Register || Op.Kind == Operand::Symbol) {
        Local.set(Index.lookup(Op.Name));
        if (Kills)
          Def[B].set(Index.lookup(Op.Name));
      }
      for (const Operand &E : Op.Elements)
        Write(E, Kills);
    };
    for (unsigned S = Blk.Begin; S != Blk.End; ++S) {
      if (F.Body[S].Kind != ptx::Statement::Inst)
        continue;
      const ptx::Instruction &I = F.Body[S].Instr;
      if (!I.GuardPredicate.empty())
        Read(Operand::named(Operand::Register, I.GuardPredicate, I.Loc));
      // A call's returns are written per lane by the callee: never a kill.
      unsigned Dests = I.getNumDestinations();
      for (unsigned K = Dests && !I.readsFirstOperand() ? Dests : 0;
           K < I.Operands.size(); ++K)
        Read(I.Operands[K]);
      // In a block that may run with only some lanes, the lanes running
      // write, and read what they wrote; the others keep their values.
      if (I.Op != ptx::Opcode::Call && Dests && I.GuardPredicate.empty())
        Write(I.Operands[0], All);
    }
  }

  LiveIn.assign(NB, BitVector(N));
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (unsigned R = CFG.RPO.size(); R-- > 0;) {
      unsigned B = CFG.RPO[R];
      BitVector In(N);
      for (unsigned S : CFG.Blocks[B].Succs)
        if (S < NB)
          In |= LiveIn[S];
      In.reset(Def[B]);
      In |= Use[B];
      if (In != LiveIn[B]) {
        LiveIn[B] = std::move(In);
        Changed = true;
      }
    }
  }
}

bool RegisterLiveness::isLiveIn(unsigned Block, StringRef Reg) const {
  auto It = Index.find(Reg);
  return It != Index.end() && LiveIn[Block].test(It->second);
}
